import { describe, expect, it } from 'vitest';
import { buildGraphIndex, type GraphEdge, type GraphIndex } from './graph-index.js';
import { HEAT_DEFAULTS, heatDiffusion } from './heat-diffusion.js';

// Issue 20: the first products from a few sources sum the rows of their neighbours only; the heat must be the one
// every row summed gives, to the bit (the reference below sums every row at every step).

function everyRow(graph: GraphIndex, sources: readonly string[], time: number, steps: number): number[] {
  const n = graph.ids.length;
  const { offsets, targets, weights, outWeight } = graph;
  const heat = new Float64Array(n);
  let term = new Float64Array(n);
  for (const id of sources) {
    const i = graph.indexOf.get(id);
    if (i !== undefined) {
      heat[i] = 1;
      term[i] = 1;
    }
  }
  if (!heat.some((h) => h > 0)) return [...heat];
  const probability = new Float64Array(targets.length);
  for (let v = 0; v < n; v += 1)
    if ((outWeight[v] as number) > 0)
      for (let e = offsets[v] as number; e < (offsets[v + 1] as number); e += 1)
        probability[e] = (weights[e] as number) / (outWeight[v] as number);
  let next = new Float64Array(n);
  for (let k = 1; k <= steps; k += 1) {
    for (let v = 0; v < n; v += 1) {
      let sum = 0;
      for (let e = offsets[v] as number; e < (offsets[v + 1] as number); e += 1)
        sum += (probability[e] as number) * (term[targets[e] as number] as number);
      next[v] = (time / k) * sum;
      heat[v] = (heat[v] as number) + (next[v] as number);
    }
    [term, next] = [next, term];
  }
  const max = Math.max(...heat);
  return [...heat].map((h) => h / max);
}

describe('heat diffusion from a few sources', () => {
  it('equals every row summed at every step, on sparse and dense graphs, chains and stars', () => {
    let s = 5;
    const random = () => {
      s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
      return s / 2 ** 32;
    };
    const graphs: GraphEdge[][] = [
      Array.from({ length: 60 }, (_, i) => ({ from: `c${i}`, to: `c${i + 1}`, weight: 0.3 + (i % 7) / 10 })),
      Array.from({ length: 40 }, (_, i) => ({ from: 'hub', to: `leaf${i}`, weight: 0.5 + (i % 3) / 10 })),
    ];
    for (const [n, m] of [
      [400, 500],
      [400, 3000],
      [50, 40],
    ] as const)
      graphs.push(
        Array.from({ length: m }, () => ({
          from: `t${Math.floor(random() ** 2 * n)}`,
          to: `t${Math.floor(random() * n)}`,
          weight: 0.3 + 0.7 * random(),
        })),
      );
    for (const edges of graphs) {
      const graph = buildGraphIndex(edges, { undirected: true });
      const ids = graph.ids;
      for (const sources of [[ids[0] as string], [ids[ids.length >> 1] as string, ids[3] as string], ['absent']])
        for (const [time, steps] of [
          [HEAT_DEFAULTS.time, HEAT_DEFAULTS.steps],
          [2, 10],
          [0.5, 6],
        ] as const) {
          // Twice: the transition probabilities are kept per graph after the first.
          expect([...heatDiffusion(graph, sources, { time, steps })]).toEqual(everyRow(graph, sources, time, steps));
          expect([...heatDiffusion(graph, sources, { time, steps })]).toEqual(everyRow(graph, sources, time, steps));
        }
    }
  });
});
