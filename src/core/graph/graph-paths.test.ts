import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildGraphIndex, type GraphEdge } from './graph-index.js';
import { PATH_DEFAULTS, bestPaths, relatedness, relatednessAll, type BestPath } from './graph-paths.js';
import { codeOf } from '../../../test/helpers.js';

/**
 * Naive reference: enumerate every simple directed path of ≤ maxHops hops from `from` over the raw
 * edge list (max weight per pair, edges > 0 and ≥ threshold − 1e-9 as SPEC §3), keep per target the best by
 * (confidence within 1e-12, then fewer hops, then lexicographic ids).
 */
function bruteForce(
  edges: readonly GraphEdge[],
  from: string,
  maxHops: number,
  threshold: number,
): Map<string, BestPath> {
  const adj = new Map<string, Map<string, number>>();
  for (const e of edges) {
    if (e.from === e.to || e.weight === 0 || e.weight < threshold - 1e-9) continue;
    const row = adj.get(e.from) ?? new Map<string, number>();
    adj.set(e.from, row);
    row.set(e.to, Math.max(row.get(e.to) ?? 0, e.weight));
  }
  const best = new Map<string, BestPath>();
  const better = (a: BestPath, b: BestPath): boolean => {
    if (Math.abs(a.confidence - b.confidence) > 1e-12 * Math.max(a.confidence, b.confidence))
      return a.confidence > b.confidence;
    if (a.path.length !== b.path.length) return a.path.length < b.path.length;
    for (let i = 0; i < a.path.length; i += 1) if (a.path[i] !== b.path[i]) return a.path[i]! < b.path[i]!;
    return false;
  };
  const visit = (path: string[], confidence: number) => {
    const last = path[path.length - 1]!;
    if (path.length > 1) {
      const candidate = { confidence, path: [...path] };
      const current = best.get(last);
      if (current === undefined || better(candidate, current)) best.set(last, candidate);
    }
    if (path.length > maxHops) return;
    for (const [next, w] of adj.get(last) ?? []) if (!path.includes(next)) visit([...path, next], confidence * w);
  };
  visit([from], 1);
  return new Map([...best.entries()].sort(([a], [b]) => (a < b ? -1 : 1)));
}

const ID = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h');
// Discrete confidences (the SPEC §3 table) make ties common; continuous ones test the products
// (kept above 1e-6 so that no product underflows, see the module header).
const WEIGHT = fc.oneof(
  fc.constantFrom(0, 0.2, 0.25, 0.3, 0.35, 0.5, 0.56, 0.7, 0.8, 1),
  fc.double({ min: 1e-6, max: 1, noNaN: true }),
);
const EDGES = fc.array(fc.record({ from: ID, to: ID, weight: WEIGHT }), { maxLength: 40 });

describe('bestPaths', () => {
  it('follows at most 3 hops over edges of confidence >= 0.3 by default', () => {
    expect(PATH_DEFAULTS).toEqual({ maxHops: 3, threshold: 0.3 });
    expect(Object.isFrozen(PATH_DEFAULTS)).toBe(true);
  });

  it('multiplies the confidences along a 3-hop path', () => {
    const graph = buildGraphIndex([
      { from: 'read', to: 'parse', weight: 0.9 },
      { from: 'parse', to: 'transform', weight: 0.8 },
      { from: 'transform', to: 'write', weight: 0.5 },
    ]);
    const paths = bestPaths(graph, 'read');
    expect(paths.get('write')).toEqual({ confidence: 0.9 * 0.8 * 0.5, path: ['read', 'parse', 'transform', 'write'] });
    expect(paths.get('write')!.confidence).toBeCloseTo(0.36, 15);
    expect(paths.get('parse')).toEqual({ confidence: 0.9, path: ['read', 'parse'] });
    expect(paths.has('read')).toBe(false);
  });

  it('never uses an edge below 0.3, and uses one at exactly 0.30', () => {
    const graph = buildGraphIndex([
      { from: 'parse', to: 'debug', weight: 0.2 },
      { from: 'parse', to: 'lint', weight: 0.29 },
      { from: 'parse', to: 'write', weight: 0.6 * 0.5 },
      { from: 'debug', to: 'fix', weight: 1 },
    ]);
    const paths = bestPaths(graph, 'parse');
    expect([...paths.keys()]).toEqual(['write']);
    expect(paths.get('write')!.confidence).toBeCloseTo(0.3, 15);
  });

  it('stops at maxHops', () => {
    const chain = ['a', 'b', 'c', 'd', 'e'];
    const graph = buildGraphIndex(chain.slice(1).map((to, i) => ({ from: chain[i]!, to, weight: 1 })));
    expect([...bestPaths(graph, 'a').keys()]).toEqual(['b', 'c', 'd']);
    expect([...bestPaths(graph, 'a', { maxHops: 4 }).keys()]).toEqual(['b', 'c', 'd', 'e']);
    expect(bestPaths(graph, 'a', { maxHops: 0 }).size).toBe(0);
  });

  it('prefers a strong two-hop path to a weak direct edge', () => {
    const graph = buildGraphIndex([
      { from: 'a', to: 'd', weight: 0.35 },
      { from: 'a', to: 'b', weight: 0.9 },
      { from: 'b', to: 'd', weight: 0.9 },
    ]);
    expect(bestPaths(graph, 'a').get('d')).toEqual({ confidence: 0.9 * 0.9, path: ['a', 'b', 'd'] });
  });

  it('breaks ties by fewer hops, then by the lexicographic order of the path', () => {
    const graph = buildGraphIndex([
      { from: 'a', to: 'd', weight: 0.5 },
      { from: 'a', to: 'x', weight: 1 },
      { from: 'x', to: 'd', weight: 0.5 },
      { from: 'a', to: 'c', weight: 0.5 },
      { from: 'a', to: 'b', weight: 0.5 },
      { from: 'c', to: 'e', weight: 1 },
      { from: 'b', to: 'e', weight: 1 },
    ]);
    const paths = bestPaths(graph, 'a');
    expect(paths.get('d')!.path).toEqual(['a', 'd']);
    expect(paths.get('e')!.path).toEqual(['a', 'b', 'e']);
  });

  it('treats products equal up to rounding as ties', () => {
    // (0.3 · 0.35) · 0.8 = 0.084 but (0.3 · 0.8) · 0.35 = 0.08399999999999999: equal confidences.
    const graph = buildGraphIndex([
      { from: 's', to: 'p', weight: 0.3 },
      { from: 'p', to: 'q', weight: 0.35 },
      { from: 'q', to: 't', weight: 0.8 },
      { from: 's', to: 'm', weight: 0.3 },
      { from: 'm', to: 'n', weight: 0.8 },
      { from: 'n', to: 't', weight: 0.35 },
    ]);
    const best = bestPaths(graph, 's').get('t')!;
    expect(best.path).toEqual(['s', 'm', 'n', 't']);
    expect(best.confidence).toBeCloseTo(0.084, 15);
  });

  it('is empty for a tool not in the graph', () => {
    expect(bestPaths(buildGraphIndex([{ from: 'a', to: 'b', weight: 1 }]), 'zz').size).toBe(0);
  });

  it('matches a brute-force enumeration of simple paths on random graphs', () => {
    fc.assert(
      fc.property(
        EDGES,
        ID,
        fc.integer({ min: 1, max: 4 }),
        fc.constantFrom(0.3, 0, 0.5),
        (edges, from, maxHops, threshold) => {
          const paths = bestPaths(buildGraphIndex(edges), from, { maxHops, threshold });
          expect(paths).toEqual(bruteForce(edges, from, maxHops, threshold));
          for (const { path } of paths.values()) expect(new Set(path).size).toBe(path.length);
        },
      ),
      { numRuns: 300 },
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
        ID,
        ([edges, shuffled], from) => {
          expect(bestPaths(buildGraphIndex(shuffled), from)).toEqual(bestPaths(buildGraphIndex(edges), from));
        },
      ),
    );
  });

  it('rejects followed edge weights above 1 and options out of range', () => {
    const graph = buildGraphIndex([{ from: 'a', to: 'b', weight: 1.5 }]);
    expect(codeOf(() => bestPaths(graph, 'a'))).toBe('INVALID_INPUT');
    const ok = buildGraphIndex([{ from: 'a', to: 'b', weight: 1 }]);
    expect(codeOf(() => bestPaths(ok, 'a', { maxHops: -1 }))).toBe('INVALID_INPUT');
    expect(codeOf(() => bestPaths(ok, 'a', { maxHops: 1.5 }))).toBe('INVALID_INPUT');
    expect(codeOf(() => bestPaths(ok, 'a', { threshold: Number.NaN }))).toBe('INVALID_INPUT');
  });
});

describe('relatedness', () => {
  const graph = buildGraphIndex([
    { from: 'read', to: 'parse', weight: 0.85 },
    { from: 'parse', to: 'write', weight: 0.65 },
    { from: 'search', to: 'write', weight: 0.4 },
    { from: 'parse', to: 'debug', weight: 0.2 },
  ]);

  it('is the best path confidence from any context tool', () => {
    expect(relatedness(graph, ['read', 'search'], 'write')).toBeCloseTo(0.85 * 0.65, 15);
    expect(relatedness(graph, ['search'], 'write')).toBe(0.4);
  });

  it('is 0 for a tool that is itself in the context: it is already in use', () => {
    expect(relatedness(graph, ['read', 'parse'], 'parse')).toBe(0);
    expect(relatedness(graph, ['not-in-graph'], 'not-in-graph')).toBe(0);
  });

  it('is 0 when no confident path reaches the tool, or with no context', () => {
    expect(relatedness(graph, ['read'], 'debug')).toBe(0);
    expect(relatedness(graph, ['write'], 'read')).toBe(0);
    expect(relatedness(graph, [], 'write')).toBe(0);
    expect(relatedness(graph, ['read'], 'unknown')).toBe(0);
  });

  it('scores every tool at once as the max over context tools of their best paths', () => {
    fc.assert(
      fc.property(EDGES, fc.array(ID, { maxLength: 3 }), (edges, context) => {
        const g = buildGraphIndex(edges);
        const all = relatednessAll(g, context);
        g.ids.forEach((id, i) => {
          const expected = (context as string[]).includes(id)
            ? 0
            : Math.max(0, ...context.map((c) => bestPaths(g, c).get(id)?.confidence ?? 0));
          // Context tools whose best paths tie within rounding may give either product: 1e-12.
          expect(all[i]).toBeCloseTo(expected, 12);
          expect(relatedness(g, context, id)).toBe(all[i]);
        });
      }),
    );
  });
});
