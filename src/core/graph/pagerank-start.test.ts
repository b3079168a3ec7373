import { describe, expect, it } from 'vitest';
import { buildGraphIndex, type GraphEdge } from './graph-index.js';
import { PAGERANK_DEFAULTS, pageRank } from './pagerank.js';

// Issue 20: after a write that changes an edge or two, PageRank starts from the last one's. Each run stops at an
// iterate within d/(1 − d)·tolerance (L1) of the fixed point, so two starts end within twice that of each other.

const BOUND = ((2 * PAGERANK_DEFAULTS.damping) / (1 - PAGERANK_DEFAULTS.damping)) * PAGERANK_DEFAULTS.tolerance;

function graphOf(seed: number, n: number, m: number): GraphEdge[] {
  let s = seed >>> 0;
  const random = () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
  return Array.from({ length: m }, () => ({
    from: `t${Math.floor(random() ** 2 * n)}`,
    to: `t${Math.floor(random() * n)}`,
    weight: 0.3 + 0.7 * random(),
  }));
}

const l1 = (a: Float64Array, b: Float64Array) => a.reduce((sum, v, i) => sum + Math.abs(v - (b[i] as number)), 0);

describe('PageRank from a given start', () => {
  it('ends within the bound of the uniform start, from the last PageRank of a graph one edge away', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const edges = graphOf(seed, 200, 900);
      const before = buildGraphIndex(edges);
      const after = buildGraphIndex([...edges.slice(1), { ...(edges[0] as GraphEdge), weight: 0.31 }]);
      expect(after.ids).toEqual(before.ids);
      const uniform = pageRank(after);
      const warm = pageRank(after, { start: pageRank(before) });
      expect(l1(warm, uniform)).toBeLessThanOrEqual(BOUND);
      expect(warm.reduce((sum, v) => sum + v, 0)).toBeCloseTo(1, 12);
    }
  });

  it('starts from the uniform vector when the start does not fit the graph (the same bits)', () => {
    const graph = buildGraphIndex(graphOf(9, 30, 80));
    const uniform = pageRank(graph);
    const n = graph.ids.length;
    for (const start of [[], new Array(n).fill(0), [...new Array(n - 1).fill(1), Number.NaN], new Array(n + 1).fill(1)])
      expect([...pageRank(graph, { start })]).toEqual([...uniform]);
    // Scaled to sum 1: any multiple of the uniform vector is the uniform start.
    expect([...pageRank(graph, { start: new Array(n).fill(3) })]).toEqual([...uniform]);
  });
});
