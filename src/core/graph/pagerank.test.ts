import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildGraphIndex, type GraphEdge } from './graph-index.js';
import { PAGERANK_DEFAULTS, pageRank, pageRankById, pageRankJs } from './pagerank.js';
import { codeOf } from '../../../test/helpers.js';

/**
 * Naive reference: a dense transition matrix in plain arrays, built straight from the edge list
 * (max weight per pair, self-loops dropped), iterated until the iterates stop changing at all.
 */
function densePageRank(edges: readonly GraphEdge[], nodes: readonly string[], damping: number): number[] {
  const ids = [...new Set([...nodes, ...edges.flatMap((e) => [e.from, e.to])])].sort();
  const n = ids.length;
  const w = ids.map(() => ids.map(() => 0));
  for (const e of edges) {
    if (e.from === e.to) continue;
    const row = w[ids.indexOf(e.from)]!;
    const col = ids.indexOf(e.to);
    row[col] = Math.max(row[col]!, e.weight);
  }
  const out = w.map((row) => row.reduce((a, b) => a + b, 0));
  let x = ids.map(() => 1 / n);
  for (let iteration = 0; iteration < 10_000; iteration += 1) {
    const dangling = x.reduce((sum, xu, u) => sum + (out[u]! > 0 ? 0 : xu), 0);
    const next = ids.map((_, v) => {
      let incoming = 0;
      for (let u = 0; u < n; u += 1) if (out[u]! > 0) incoming += x[u]! * (w[u]![v]! / out[u]!);
      return (1 - damping) / n + damping * (incoming + dangling / n);
    });
    const change = next.reduce((sum, value, v) => sum + Math.abs(value - x[v]!), 0);
    x = next;
    if (change < 1e-15) break;
  }
  return x;
}

const ID = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h');
const EDGE = fc.record({
  from: ID,
  to: ID,
  weight: fc.oneof(fc.constantFrom(0, 0.3, 0.5, 1), fc.double({ min: 0, max: 1, noNaN: true })),
});
const EDGES = fc.array(EDGE, { maxLength: 30 });

describe('pageRank', () => {
  it('uses damping 0.85, L1 tolerance 1e-6 and at most 100 iterations by default', () => {
    expect(PAGERANK_DEFAULTS).toEqual({ damping: 0.85, tolerance: 1e-6, maxIterations: 100 });
    expect(Object.isFrozen(PAGERANK_DEFAULTS)).toBe(true);
  });

  it('ranks the hub of a star above every leaf, and the leaves equally', () => {
    const leaves = ['l1', 'l2', 'l3', 'l4', 'l5'];
    const graph = buildGraphIndex(leaves.map((leaf) => ({ from: leaf, to: 'hub', weight: 0.8 })));
    const scores = pageRankById(graph);
    const hub = scores.get('hub')!;
    for (const leaf of leaves) {
      expect(hub).toBeGreaterThan(scores.get(leaf)!);
      expect(scores.get(leaf)).toBeCloseTo(scores.get('l1')!, 12);
    }
  });

  it('sends more of a tool’s rank along its more confident edge', () => {
    const scores = pageRankById(
      buildGraphIndex([
        { from: 'read', to: 'parse', weight: 0.85 },
        { from: 'read', to: 'debug', weight: 0.3 },
      ]),
    );
    expect(scores.get('parse')!).toBeGreaterThan(scores.get('debug')!);
  });

  it('gives every tool 1/n when there are no edges', () => {
    const scores = pageRank(buildGraphIndex([], { nodes: ['a', 'b', 'c', 'd'] }));
    expect([...scores]).toEqual([0.25, 0.25, 0.25, 0.25]);
  });

  it('returns an empty vector for an empty graph', () => {
    expect(pageRank(buildGraphIndex([])).length).toBe(0);
  });

  // Power iteration is a contraction of factor d in L1, so when the last change is below tol the
  // distance to the fixed point is at most d/(1 − d) · tol = 5.7e-6 (d = 0.85, tol = 1e-6) in L1,
  // and so in each entry: 1e-5 covers it.
  it('matches a dense-matrix power iteration on random weighted graphs', () => {
    fc.assert(
      fc.property(
        EDGES,
        fc.array(ID, { maxLength: 3 }),
        fc.constantFrom(0, 0.5, 0.85, 0.95),
        (edges, nodes, damping) => {
          const graph = buildGraphIndex(edges, { nodes });
          const scores = pageRank(graph, { damping, maxIterations: 1000 });
          const reference = densePageRank(edges, nodes, damping);
          expect(scores.length).toBe(reference.length);
          const l1 = reference.reduce((sum, value, v) => sum + Math.abs(value - scores[v]!), 0);
          expect(l1).toBeLessThan((damping / (1 - damping)) * 1e-6 + 1e-12);
        },
      ),
    );
  });

  it('returns scores that are >= 0 and sum to 1', () => {
    fc.assert(
      fc.property(EDGES, (edges) => {
        const scores = pageRank(buildGraphIndex(edges));
        for (const s of scores) expect(s).toBeGreaterThanOrEqual(0);
        if (scores.length > 0) expect(scores.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
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
        ([edges, shuffled]) => {
          expect(pageRankById(buildGraphIndex(shuffled))).toEqual(pageRankById(buildGraphIndex(edges)));
        },
      ),
    );
  });

  it('gives in WebAssembly the scores of the JavaScript loop, bit for bit, with a start or not, graph by graph', () => {
    // Graphs of up to 300 tools, dangling ones among them, with and without a start vector.
    const GRAPH = fc
      .tuple(
        fc.integer({ min: 1, max: 300 }),
        fc.array(fc.tuple(fc.nat(), fc.nat(), fc.double({ min: 0, max: 1, noNaN: true })), { maxLength: 500 }),
      )
      .map(([n, pairs]) =>
        buildGraphIndex(
          pairs.map(([a, b, weight]) => ({ from: `t${a % n}`, to: `t${b % n}`, weight })),
          { nodes: Array.from({ length: n }, (_, i) => `t${i}`) },
        ),
      );
    fc.assert(
      fc.property(fc.array(fc.tuple(GRAPH, fc.boolean()), { minLength: 1, maxLength: 3 }), (runs) => {
        for (const [graph, started] of runs) {
          const start = started ? graph.ids.map((_, i) => 1 + (i % 7)) : undefined;
          const options = start === undefined ? {} : { start };
          expect(pageRank(graph, options)).toEqual(pageRankJs(graph, options));
        }
      }),
      { numRuns: 150 },
    );
    const star = buildGraphIndex([{ from: 'a', to: 'b', weight: 1 }]);
    expect(codeOf(() => pageRank(star, { maxIterations: 1, tolerance: 1e-12 }))).toBe('INVALID_INPUT');
  });

  it('throws INVALID_INPUT when it has not converged within maxIterations', () => {
    const graph = buildGraphIndex([
      { from: 'a', to: 'b', weight: 1 },
      { from: 'b', to: 'c', weight: 1 },
      { from: 'c', to: 'a', weight: 0.5 },
      { from: 'c', to: 'd', weight: 0.5 },
    ]);
    expect(codeOf(() => pageRank(graph, { maxIterations: 2 }))).toBe('INVALID_INPUT');
    expect(codeOf(() => pageRank(graph))).toBeUndefined();
  });

  it('rejects options out of range', () => {
    const graph = buildGraphIndex([{ from: 'a', to: 'b', weight: 1 }]);
    expect(codeOf(() => pageRank(graph, { damping: 1.5 }))).toBe('INVALID_INPUT');
    expect(codeOf(() => pageRank(graph, { damping: Number.NaN }))).toBe('INVALID_INPUT');
    expect(codeOf(() => pageRank(graph, { tolerance: 0 }))).toBe('INVALID_INPUT');
    expect(codeOf(() => pageRank(graph, { maxIterations: 0 }))).toBe('INVALID_INPUT');
    expect(codeOf(() => pageRank(graph, { maxIterations: 2.5 }))).toBe('INVALID_INPUT');
  });

  it('keys the scores by tool id', () => {
    const graph = buildGraphIndex([{ from: 'a', to: 'b', weight: 1 }]);
    const scores = pageRank(graph);
    expect(pageRankById(graph)).toEqual(
      new Map([
        ['a', scores[0]],
        ['b', scores[1]],
      ]),
    );
  });
});
