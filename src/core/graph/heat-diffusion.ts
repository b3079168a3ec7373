/**
 * @module core/graph/heat-diffusion
 * Heat diffusion over the weighted, undirected tool graph, the `h` of SPEC §4's local α: the heat kernel
 * `exp(−t·L)` (Kondor & Lafferty, ICML 2002; Chung, PNAS 2007) with `L = I − D⁺W`, applied to the
 * indicator of the source tools and normalised so the hottest tool has 1. A tool's heat is the chance
 * that a weighted random walk of Poisson(t) steps from it ends on a source:
 *     exp(−t·L)·f = e^{−t} · Σ_{k ≥ 0} t^k / k! · P^k f,  truncated after `steps` products
 * The terms are non-negative, so the truncation is stable and bounded (it throws when the tail exceeds
 * 1e−4); docs/confidence.md says why not Euler steps. Allocation-free hot loop over CSR rows.
 */

import { CredenceError } from '../errors.js';
import type { GraphIndex } from './graph-index.js';

export const HEAT_DEFAULTS = Object.freeze({
  /** Diffusion time t of exp(−t·L). */
  time: 1,
  /** Matrix-vector products of the truncated series (terms k = 0 … steps). */
  steps: 10,
});

/** Largest relative truncation error bound accepted before throwing. */
const TRUNCATION_TOLERANCE = 1e-4;
/** Above this, t^k/k! overflows a double before the series converges. */
const MAX_TIME = 700;

export interface HeatOptions {
  /** Diffusion time t, in [0, 700]; larger spreads heat further. @default 1 */
  readonly time?: number;
  /**
   * Matrix-vector products of the truncated series, an integer ≥ 0; it must be large enough that
   * Σ_{k > steps} t^k/k! ≤ 1e−4 (t = 1 needs 7, t = 2 needs 10, t = 3 needs 13). @default 10
   */
  readonly steps?: number;
}

type ResolvedHeatOptions = { -readonly [K in keyof typeof HEAT_DEFAULTS]: number };

/**
 * Heat of every node of `graph` (indexed like `graph.ids`) diffused from `sources`, in [0, 1] with
 * the hottest node at exactly 1; all zeros when no source is in the graph. Unknown source ids are
 * ignored; duplicates count once.
 * @throws CredenceError INVALID_INPUT when the graph was not built undirected, for options out of
 * range, or when `steps` is too few for `time` (the series would not have converged).
 */
export function heatDiffusion(graph: GraphIndex, sources: readonly string[], options: HeatOptions = {}): Float64Array {
  const o = resolveHeatOptions(options);
  if (!graph.undirected) {
    throw new CredenceError(
      'INVALID_INPUT',
      'heatDiffusion needs a graph built with { undirected: true } (SPEC §4: the undirected tool graph)',
      {
        details: { undirected: graph.undirected },
      },
    );
  }
  const n = graph.ids.length;
  const heat = new Float64Array(n);
  let term = new Float64Array(n);
  let found = 0;
  for (const id of sources) {
    const i = graph.indexOf.get(id);
    if (i !== undefined && heat[i] === 0) {
      heat[i] = 1;
      term[i] = 1;
      found += 1;
    }
  }
  if (found === 0) return heat;
  const { offsets, targets } = graph;
  let next = new Float64Array(n);
  const probability = transitions(graph);
  // While the terms are non-zero on a few nodes (the first products from a few sources), only the rows of their
  // neighbours are summed: every other row sums zeros (its value 0, its heat unchanged), the rows summed are summed
  // whole in order, so the values are those of every row summed. `next` holds zeros but on `stale`.
  let support: number[] = [];
  for (let v = 0; v < n; v += 1) if (term[v] !== 0) support.push(v);
  let stale: number[] = [];
  const seen = new Int32Array(n);
  let sparse = true;
  // heat = Σ_k t^k/k! · P^k f, with term_k = (t/k) · P term_{k−1}; e^{−t} cancels in the normalisation.
  for (let k = 1; k <= o.steps; k += 1) {
    const factor = o.time / k;
    if (sparse) {
      const rows: number[] = [];
      for (const u of support) {
        for (let e = offsets[u] as number, end = offsets[u + 1] as number; e < end; e += 1) {
          const v = targets[e] as number;
          if (seen[v] === k) continue;
          seen[v] = k;
          rows.push(v);
        }
      }
      sparse = rows.length * SPARSE_SHARE < n;
      if (sparse) {
        for (const v of stale) next[v] = 0;
        for (const v of rows) {
          let sum = 0;
          for (let e = offsets[v] as number, end = offsets[v + 1] as number; e < end; e += 1)
            sum += (probability[e] as number) * (term[targets[e] as number] as number);
          const value = factor * sum;
          next[v] = value;
          heat[v] = (heat[v] as number) + value;
        }
        stale = support;
        support = rows;
        const swap = term;
        term = next;
        next = swap;
        continue;
      }
    }
    for (let v = 0; v < n; v += 1) {
      let sum = 0;
      for (let e = offsets[v] as number, end = offsets[v + 1] as number; e < end; e += 1)
        sum += (probability[e] as number) * (term[targets[e] as number] as number);
      const value = factor * sum;
      next[v] = value;
      heat[v] = (heat[v] as number) + value;
    }
    const swap = term;
    term = next;
    next = swap;
  }
  let max = 0;
  for (let v = 0; v < n; v += 1) if ((heat[v] as number) > max) max = heat[v] as number;
  for (let v = 0; v < n; v += 1) heat[v] = (heat[v] as number) / max;
  return heat;
}

/** Above 1 / this share of the nodes, a product sums every row. */
const SPARSE_SHARE = 4;

/** Per graph, each stored edge's transition probability w / degree (exact even for subnormal weights). */
const transitionsOf = new WeakMap<GraphIndex, Float64Array>();

/**
 * Makes now what every heat over `graph` reads first, its transition probabilities (issue 20: a write that patched
 * the graph, so the search after it diffuses at once).
 */
export function prepareHeat(graph: GraphIndex): void {
  transitions(graph);
}

/** The transition probabilities of `graph`, computed once per graph (a search asks heat from several tools). */
function transitions(graph: GraphIndex): Float64Array {
  let probability = transitionsOf.get(graph);
  if (probability !== undefined) return probability;
  const { offsets, targets, weights, outWeight } = graph;
  const n = graph.ids.length;
  probability = new Float64Array(targets.length);
  for (let v = 0; v < n; v += 1) {
    const degree = outWeight[v] as number;
    if (degree > 0)
      for (let e = offsets[v] as number, end = offsets[v + 1] as number; e < end; e += 1)
        probability[e] = (weights[e] as number) / degree;
  }
  transitionsOf.set(graph, probability);
  return probability;
}

/** {@link heatDiffusion} keyed by tool id. */
export function heatById(
  graph: GraphIndex,
  sources: readonly string[],
  options: HeatOptions = {},
): Map<string, number> {
  const heat = heatDiffusion(graph, sources, options);
  const out = new Map<string, number>();
  graph.ids.forEach((id, i) => out.set(id, heat[i] as number));
  return out;
}

/** Σ_{k > steps} t^k / k!: the relative truncation error bound of the series. */
export function heatTruncationBound(time: number, steps: number): number {
  let term = 1;
  for (let k = 1; k <= steps + 1; k += 1) term *= time / k;
  let tail = 0;
  for (let k = steps + 2; term > 0 && (k <= time + 1 || term > tail * 1e-17); k += 1) {
    tail += term;
    term *= time / k;
  }
  return tail;
}

function resolveHeatOptions(options: HeatOptions): ResolvedHeatOptions {
  const o: ResolvedHeatOptions = {
    time: options.time ?? HEAT_DEFAULTS.time,
    steps: options.steps ?? HEAT_DEFAULTS.steps,
  };
  if (typeof o.time !== 'number' || !(o.time >= 0 && o.time <= MAX_TIME)) {
    throw new CredenceError('INVALID_INPUT', `time must be a number in [0, ${MAX_TIME}], got ${String(o.time)}`, {
      details: { time: o.time },
    });
  }
  if (!Number.isInteger(o.steps) || o.steps < 0) {
    throw new CredenceError('INVALID_INPUT', `steps must be an integer >= 0, got ${String(o.steps)}`, {
      details: { steps: o.steps },
    });
  }
  const bound = heatTruncationBound(o.time, o.steps);
  if (bound > TRUNCATION_TOLERANCE) {
    throw new CredenceError(
      'INVALID_INPUT',
      `heat series does not converge in ${o.steps} steps for time ${o.time} ` +
        `(truncation bound ${bound.toExponential(2)} > ${TRUNCATION_TOLERANCE}); raise steps or lower time`,
      { details: { time: o.time, steps: o.steps, bound } },
    );
  }
  return o;
}
