import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildGraphIndex, type GraphEdge } from './graph-index.js';
import {
  HEAT_DEFAULTS,
  heatById,
  heatDiffusion,
  heatDiffusionJs,
  heatTotal,
  heatTruncationBound,
} from './heat-diffusion.js';
import { heatKernel } from './heat-kernel.js';
import { codeOf } from '../../../test/helpers.js';

/**
 * Naive reference: the heat kernel exp(−t·L)·f with L = I − D⁺W as a dense matrix in plain arrays
 * (W symmetric, max weight per unordered pair, straight from the edge list), by the Taylor series of
 * exp(−t·L) itself with 80 terms — a different series from the one under test. For t ≤ 2,
 * ‖t·L‖∞ ≤ 4 and the remainder after 80 terms is below 4^80/80! < 1e-70; then normalised to max 1.
 */
function denseHeat(edges: readonly GraphEdge[], sources: readonly string[], time: number): Map<string, number> {
  const ids = [...new Set(edges.flatMap((e) => [e.from, e.to]))].sort();
  const w = ids.map(() => ids.map(() => 0));
  for (const e of edges) {
    if (e.from === e.to) continue;
    const a = ids.indexOf(e.from);
    const b = ids.indexOf(e.to);
    w[a]![b] = Math.max(w[a]![b]!, e.weight);
    w[b]![a] = w[a]![b]!;
  }
  const degree = w.map((row) => row.reduce((x, y) => x + y, 0));
  const laplacian = w.map((row, i) => row.map((wij, j) => (i === j ? 1 : 0) - (degree[i]! > 0 ? wij / degree[i]! : 0)));
  let term: number[] = ids.map((id) => (sources.includes(id) ? 1 : 0));
  const heat = [...term];
  for (let k = 1; k <= 80; k += 1) {
    term = laplacian.map((row) => (-time / k) * row.reduce((sum, lij, j) => sum + lij * term[j]!, 0));
    term.forEach((value, i) => (heat[i] = heat[i]! + value));
  }
  const max = Math.max(0, ...heat);
  return new Map(ids.map((id, i) => [id, max > 0 ? heat[i]! / max : 0]));
}

const ID = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h');
const EDGE = fc.record({
  from: ID,
  to: ID,
  weight: fc.oneof(fc.constantFrom(0, 0.3, 0.5, 1), fc.double({ min: 0, max: 1, noNaN: true })),
});
const EDGES = fc.array(EDGE, { minLength: 1, maxLength: 24 });

/** A random connected undirected graph: a random spanning tree plus extra edges. */
const CONNECTED = fc
  .tuple(
    fc.integer({ min: 2, max: 9 }),
    fc.infiniteStream(fc.double({ min: 0.05, max: 1, noNaN: true })),
    fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 15 }),
  )
  .chain(([n, weights, extra]) =>
    fc.tuple(
      fc.constant(n),
      fc.array(fc.nat({ max: 1_000 }), { minLength: n - 1, maxLength: n - 1 }).map((parents) => {
        const stream = weights[Symbol.iterator]();
        const next = () => stream.next().value as number;
        const edges: GraphEdge[] = parents.map((p, i) => ({
          from: `t${i + 1}`,
          to: `t${p % (i + 1)}`,
          weight: next(),
        }));
        for (const [a, b] of extra) edges.push({ from: `t${a % n}`, to: `t${b % n}`, weight: next() });
        return edges;
      }),
    ),
  );

describe('heatDiffusion', () => {
  it('runs time 1 with 10 series terms by default', () => {
    expect(HEAT_DEFAULTS).toEqual({ time: 1, steps: 10 });
    expect(Object.isFrozen(HEAT_DEFAULTS)).toBe(true);
  });

  it('decays with the distance from the source along a chain', () => {
    const chain = ['a', 'b', 'c', 'd', 'e', 'f'];
    const graph = buildGraphIndex(
      chain.slice(1).map((to, i) => ({ from: chain[i]!, to, weight: 0.8 })),
      { undirected: true },
    );
    const heat = heatById(graph, ['a']);
    expect(heat.get('a')).toBe(1);
    for (let i = 1; i < chain.length; i += 1) expect(heat.get(chain[i]!)!).toBeLessThan(heat.get(chain[i - 1]!)!);
    expect(heat.get('f')!).toBeGreaterThan(0);
  });

  it('warms a neighbour tied by a confident edge more than one tied by a weak edge', () => {
    const graph = buildGraphIndex(
      [
        { from: 'src', to: 'close', weight: 1 },
        { from: 'close', to: 'x', weight: 0.1 },
        { from: 'src', to: 'loose', weight: 0.3 },
        { from: 'loose', to: 'y', weight: 1 },
      ],
      { undirected: true },
    );
    const heat = heatById(graph, ['src']);
    expect(heat.get('close')!).toBeGreaterThan(heat.get('loose')!);
  });

  it('matches the dense heat kernel within its truncation bound on random graphs', () => {
    fc.assert(
      fc.property(
        EDGES,
        fc.array(ID, { minLength: 1, maxLength: 3 }),
        fc.constantFrom(0.25, 0.5, 1, 2),
        (edges, sources, time) => {
          const steps = time === 2 ? 12 : 10;
          const heat = heatById(buildGraphIndex(edges, { undirected: true }), sources, { time, steps });
          const reference = denseHeat(edges, sources, time);
          // Every entry is off by at most the series' tail relative to the max, once for the entry and
          // once for the max it is divided by.
          const tolerance = 2 * heatTruncationBound(time, steps) + 1e-12;
          expect([...heat.keys()]).toEqual([...reference.keys()]);
          for (const [id, value] of reference) expect(Math.abs(heat.get(id)! - value)).toBeLessThanOrEqual(tolerance);
        },
      ),
    );
  });

  it('stays in [0, 1] with a single source at exactly 1 on connected graphs', () => {
    fc.assert(
      fc.property(CONNECTED, fc.nat(), fc.constantFrom(0.5, 1), ([n, edges], pick, time) => {
        const graph = buildGraphIndex(edges, { undirected: true });
        const source = `t${pick % n}`;
        const heat = heatById(graph, [source], { time });
        expect(heat.get(source)).toBe(1);
        for (const value of heat.values()) {
          expect(value).toBeGreaterThanOrEqual(0);
          expect(value).toBeLessThanOrEqual(1);
        }
      }),
    );
  });

  it('is all zeros when no source is in the graph, and ignores unknown source ids', () => {
    const graph = buildGraphIndex([{ from: 'a', to: 'b', weight: 1 }], { undirected: true });
    expect([...heatDiffusion(graph, [])]).toEqual([0, 0]);
    expect([...heatDiffusion(graph, ['nope'])]).toEqual([0, 0]);
    expect(heatById(graph, ['nope', 'a'])).toEqual(heatById(graph, ['a']));
  });

  it('leaves a tool with no edge cold unless it is a source', () => {
    const graph = buildGraphIndex([{ from: 'a', to: 'b', weight: 1 }], { undirected: true, nodes: ['lonely'] });
    expect(heatById(graph, ['a']).get('lonely')).toBe(0);
    expect(heatById(graph, ['lonely'])).toEqual(
      new Map([
        ['a', 0],
        ['b', 0],
        ['lonely', 1],
      ]),
    );
  });

  it('does not depend on the order of the input edges or sources', () => {
    fc.assert(
      fc.property(
        EDGES.chain((edges) =>
          fc.tuple(
            fc.constant(edges),
            fc.shuffledSubarray(edges, { minLength: edges.length, maxLength: edges.length }),
          ),
        ),
        fc.array(ID, { maxLength: 3 }),
        ([edges, shuffled], sources) => {
          const a = heatById(buildGraphIndex(edges, { undirected: true }), sources);
          const b = heatById(buildGraphIndex(shuffled, { undirected: true }), [...sources].reverse());
          expect(b).toEqual(a);
        },
      ),
    );
  });

  it('gives in WebAssembly the heat and total of the JavaScript loop, bit for bit, graph after graph', () => {
    // Graphs of up to 400 tools and a few edges each: the first products sum a few rows, the later ones every row.
    const GRAPH = fc
      .tuple(
        fc.integer({ min: 2, max: 400 }),
        fc.array(fc.tuple(fc.nat(), fc.nat(), fc.double({ min: 0, max: 1, noNaN: true })), { maxLength: 600 }),
      )
      .map(([n, pairs]) =>
        buildGraphIndex(
          pairs.map(([a, b, weight]) => ({ from: `t${a % n}`, to: `t${b % n}`, weight })),
          { undirected: true, nodes: Array.from({ length: n }, (_, i) => `t${i}`) },
        ),
      );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(GRAPH, fc.array(fc.nat(), { minLength: 1, maxLength: 4 })), { minLength: 1, maxLength: 3 }),
        fc.constantFrom({}, { time: 2, steps: 12 }),
        (runs, options) => {
          for (const [graph, picks] of runs) {
            expect(heatKernel(graph, new Float64Array(graph.targets.length))).toBeDefined();
            const sources = picks.map((p) => `t${p % graph.ids.length}`);
            const js = heatDiffusionJs(graph, sources, options);
            expect(heatDiffusion(graph, sources, options)).toEqual(js);
            let total = 0;
            for (const value of js) total += value;
            expect(Object.is(heatTotal(graph, sources, options), total)).toBe(true);
          }
        },
      ),
      { numRuns: 150 },
    );
    const graph = buildGraphIndex([{ from: 'a', to: 'b', weight: 1 }], { undirected: true });
    expect(heatTotal(graph, ['nope'])).toBe(0);
  });

  it('refuses a graph that was not built undirected', () => {
    const graph = buildGraphIndex([{ from: 'a', to: 'b', weight: 1 }]);
    expect(codeOf(() => heatDiffusion(graph, ['a']))).toBe('INVALID_INPUT');
  });

  it('throws INVALID_INPUT when steps are too few for the series to converge at that time', () => {
    const graph = buildGraphIndex([{ from: 'a', to: 'b', weight: 1 }], { undirected: true });
    expect(codeOf(() => heatDiffusion(graph, ['a'], { time: 3, steps: 5 }))).toBe('INVALID_INPUT');
    expect(codeOf(() => heatDiffusion(graph, ['a'], { time: 1, steps: 3 }))).toBe('INVALID_INPUT');
    expect(codeOf(() => heatDiffusion(graph, ['a'], { time: 3, steps: 20 }))).toBeUndefined();
  });

  it('rejects options out of range', () => {
    const graph = buildGraphIndex([{ from: 'a', to: 'b', weight: 1 }], { undirected: true });
    expect(codeOf(() => heatDiffusion(graph, ['a'], { time: -1 }))).toBe('INVALID_INPUT');
    expect(codeOf(() => heatDiffusion(graph, ['a'], { time: Number.NaN }))).toBe('INVALID_INPUT');
    expect(codeOf(() => heatDiffusion(graph, ['a'], { time: 1e6 }))).toBe('INVALID_INPUT');
    expect(codeOf(() => heatDiffusion(graph, ['a'], { steps: 2.5 }))).toBe('INVALID_INPUT');
  });

  it('bounds the truncation by the tail of the exponential series', () => {
    expect(heatTruncationBound(1, 10)).toBeCloseTo(
      Math.E - [...Array(11).keys()].reduce((sum, k) => sum + 1 / factorial(k), 0),
      15,
    );
    expect(heatTruncationBound(1, 10)).toBeLessThan(3e-8);
    expect(heatTruncationBound(0, 0)).toBe(0);
  });
});

function factorial(k: number): number {
  return k <= 1 ? 1 : k * factorial(k - 1);
}
