import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildGraphIndex, edgeWeight, type GraphEdge, type GraphIndex } from './graph-index.js';
import { codeOf } from '../../../test/helpers.js';

/** The index as a plain list of `from → to: weight` triples, in CSR order. */
function triples(graph: GraphIndex): [string, string, number][] {
  const out: [string, string, number][] = [];
  for (let u = 0; u < graph.ids.length; u += 1) {
    for (let e = graph.offsets[u]!; e < graph.offsets[u + 1]!; e += 1)
      out.push([graph.ids[u]!, graph.ids[graph.targets[e]!]!, graph.weights[e]!]);
  }
  return out;
}

/** Naive reference: a nested map of max weights, sorted on output. */
function naiveTriples(edges: readonly GraphEdge[], undirected: boolean): [string, string, number][] {
  const pairs = new Map<string, Map<string, number>>();
  const put = (from: string, to: string, weight: number) => {
    if (from === to) return;
    const row = pairs.get(from) ?? new Map<string, number>();
    pairs.set(from, row);
    row.set(to, Math.max(row.get(to) ?? -Infinity, weight));
  };
  for (const e of edges) {
    put(e.from, e.to, e.weight);
    if (undirected) put(e.to, e.from, e.weight);
  }
  const out: [string, string, number][] = [];
  for (const from of [...pairs.keys()].sort()) {
    const row = pairs.get(from)!;
    for (const to of [...row.keys()].sort()) out.push([from, to, row.get(to)!]);
  }
  return out;
}

const ID = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'B', 'é', 'tool-10', 'tool-9');
const EDGE = fc.record({
  from: ID,
  to: ID,
  weight: fc.oneof(fc.constantFrom(0, 0.3, 0.5, 1), fc.double({ min: 0, max: 1, noNaN: true })),
});
const EDGES = fc.array(EDGE, { maxLength: 40 });

describe('buildGraphIndex', () => {
  it('numbers nodes in sorted id order and stores each row sorted by target', () => {
    const graph = buildGraphIndex([
      { from: 'parse', to: 'write', weight: 0.65 },
      { from: 'read', to: 'parse', weight: 0.85 },
      { from: 'parse', to: 'debug', weight: 0.2 },
    ]);
    expect(graph.ids).toEqual(['debug', 'parse', 'read', 'write']);
    expect(graph.indexOf.get('read')).toBe(2);
    expect([...graph.offsets]).toEqual([0, 0, 2, 3, 3]);
    expect([...graph.targets]).toEqual([0, 3, 1]);
    expect([...graph.weights]).toEqual([0.2, 0.65, 0.85]);
    expect([...graph.outWeight]).toEqual([0, 0.2 + 0.65, 0.85, 0]);
    expect(graph.undirected).toBe(false);
  });

  it('merges parallel edges of several types into one edge with the max weight', () => {
    const graph = buildGraphIndex([
      { from: 'a', to: 'b', weight: 0.35 },
      { from: 'a', to: 'b', weight: 1 },
      { from: 'a', to: 'b', weight: 0.5 },
    ]);
    expect(triples(graph)).toEqual([['a', 'b', 1]]);
    expect(graph.outWeight[0]).toBe(1);
  });

  it('drops self-loops but keeps their tool as a node', () => {
    const graph = buildGraphIndex([{ from: 'a', to: 'a', weight: 1 }]);
    expect(graph.ids).toEqual(['a']);
    expect(graph.targets.length).toBe(0);
    expect([...graph.outWeight]).toEqual([0]);
  });

  it('includes tools without edges given as nodes', () => {
    const graph = buildGraphIndex([{ from: 'b', to: 'c', weight: 0.5 }], { nodes: ['z', 'a', 'b'] });
    expect(graph.ids).toEqual(['a', 'b', 'c', 'z']);
    expect([...graph.offsets]).toEqual([0, 0, 1, 1, 1]);
  });

  it('stores each undirected pair in both directions with the max weight over both directions', () => {
    const graph = buildGraphIndex(
      [
        { from: 'a', to: 'b', weight: 0.4 },
        { from: 'b', to: 'a', weight: 0.7 },
        { from: 'b', to: 'c', weight: 0.5 },
      ],
      { undirected: true },
    );
    expect(triples(graph)).toEqual([
      ['a', 'b', 0.7],
      ['b', 'a', 0.7],
      ['b', 'c', 0.5],
      ['c', 'b', 0.5],
    ]);
    expect([...graph.outWeight]).toEqual([0.7, 1.2, 0.5]);
    expect(graph.undirected).toBe(true);
  });

  it('is empty for no edges and no nodes', () => {
    const graph = buildGraphIndex([]);
    expect(graph.ids).toEqual([]);
    expect([...graph.offsets]).toEqual([0]);
  });

  it('rejects negative, NaN and infinite weights and non-string endpoints', () => {
    for (const weight of [-0.1, Number.NaN, Infinity]) {
      expect(codeOf(() => buildGraphIndex([{ from: 'a', to: 'b', weight }]))).toBe('INVALID_INPUT');
    }
    expect(codeOf(() => buildGraphIndex([{ from: 'a', to: 3 as unknown as string, weight: 1 }]))).toBe('INVALID_INPUT');
    expect(codeOf(() => buildGraphIndex([], { nodes: [null as unknown as string] }))).toBe('INVALID_INPUT');
  });

  it('looks up the weight of an edge, undefined when there is none', () => {
    const graph = buildGraphIndex([
      { from: 'a', to: 'c', weight: 0.5 },
      { from: 'a', to: 'b', weight: 0.9 },
      { from: 'a', to: 'd', weight: 0.3 },
    ]);
    expect(edgeWeight(graph, 'a', 'b')).toBe(0.9);
    expect(edgeWeight(graph, 'a', 'd')).toBe(0.3);
    expect(edgeWeight(graph, 'b', 'a')).toBeUndefined();
    expect(edgeWeight(graph, 'a', 'zz')).toBeUndefined();
  });

  it('matches a naive map of max weights on random graphs, directed and undirected', () => {
    fc.assert(
      fc.property(EDGES, fc.boolean(), (edges, undirected) => {
        const graph = buildGraphIndex(edges, { undirected });
        expect(triples(graph)).toEqual(naiveTriples(edges, undirected));
        expect(graph.ids).toEqual([...new Set(edges.flatMap((e) => [e.from, e.to]))].sort());
        expect(graph.offsets[graph.ids.length]).toBe(graph.targets.length);
        for (let u = 0; u < graph.ids.length; u += 1) {
          let sum = 0;
          for (let e = graph.offsets[u]!; e < graph.offsets[u + 1]!; e += 1) sum += graph.weights[e]!;
          expect(graph.outWeight[u]).toBe(sum);
        }
      }),
    );
  });

  it('does not depend on the order of the input edges', () => {
    fc.assert(
      fc.property(
        EDGES.chain((edges) =>
          fc.tuple(
            fc.constant(edges),
            fc.shuffledSubarray(edges, { minLength: edges.length, maxLength: edges.length }),
          ),
        ),
        fc.boolean(),
        ([edges, shuffled], undirected) => {
          const a = buildGraphIndex(edges, { undirected });
          const b = buildGraphIndex(shuffled, { undirected });
          expect(b.ids).toEqual(a.ids);
          expect(b.offsets).toEqual(a.offsets);
          expect(b.targets).toEqual(a.targets);
          expect(b.weights).toEqual(a.weights);
          expect(b.outWeight).toEqual(a.outWeight);
        },
      ),
    );
  });
});
