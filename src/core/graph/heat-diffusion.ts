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
import { heatKernel, type HeatKernel } from './heat-kernel.js';

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
  const o = checked(graph, options);
  const kernel = heatKernel(graph, transitions(graph));
  if (kernel === undefined) return diffuse(graph, sources, o);
  if (!diffuseIn(kernel, graph, sources, o)) return new Float64Array(graph.ids.length);
  kernel.normalize();
  return kernel.heat.slice();
}

/**
 * The sum of {@link heatDiffusion}'s heat (summed in index order), 0 when no source is in the graph: what a tool's
 * self-spread reads (issue 20: without the heat's copy, or a loop over it, in a one-query process).
 */
export function heatTotal(graph: GraphIndex, sources: readonly string[], options: HeatOptions = {}): number {
  const o = checked(graph, options);
  const kernel = heatKernel(graph, transitions(graph));
  if (kernel === undefined) {
    const heat = diffuse(graph, sources, o);
    let total = 0;
    for (let i = 0; i < heat.length; i += 1) total += heat[i] as number;
    return total;
  }
  return diffuseIn(kernel, graph, sources, o) ? kernel.normalize() : 0;
}

/**
 * {@link heatDiffusion} in JavaScript alone: what runs where WebAssembly is missing (the kernel computes the same
 * values; the tests compare the two).
 */
export function heatDiffusionJs(
  graph: GraphIndex,
  sources: readonly string[],
  options: HeatOptions = {},
): Float64Array {
  return diffuse(graph, sources, checked(graph, options));
}

function checked(graph: GraphIndex, options: HeatOptions): ResolvedHeatOptions {
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
  return o;
}

/**
 * The series in the kernel's memory, product by product as {@link diffuse} makes them (the same rows, in the same
 * order); false when no source is in the graph. The heat is left unnormalised in `kernel.heat`.
 */
function diffuseIn(kernel: HeatKernel, graph: GraphIndex, sources: readonly string[], o: ResolvedHeatOptions): boolean {
  const n = graph.ids.length;
  const { heat, terms, termAt, lists, listAt } = kernel;
  const found: number[] = [];
  for (const id of sources) {
    const i = graph.indexOf.get(id);
    if (i !== undefined && heat[i] === 0) {
      heat[i] = 1;
      terms[0][i] = 1;
      found.push(i);
    }
  }
  if (found.length === 0) return false;
  const { offsets, targets } = graph;
  // term and next take turns (t is term's), as do the lists of the support, the stale rows and the rows summed.
  let t: 0 | 1 = 0;
  let support: 0 | 1 | 2 = 0;
  let stale: 0 | 1 | 2 = 1;
  let rows: 0 | 1 | 2 = 2;
  found.sort((a, b) => a - b);
  lists[support].set(found);
  let supportCount = found.length;
  let staleCount = 0;
  const seen = seenFor(n);
  let sparse = true;
  for (let k = 1; k <= o.steps; k += 1) {
    const factor = o.time / k;
    const term = termAt[t];
    const next = termAt[t === 0 ? 1 : 0];
    if (sparse) {
      const from = lists[support];
      const into = lists[rows];
      let count = 0;
      for (let i = 0; i < supportCount; i += 1) {
        const u = from[i] as number;
        for (let e = offsets[u] as number, end = offsets[u + 1] as number; e < end; e += 1) {
          const v = targets[e] as number;
          if (seen[v] === k) continue;
          seen[v] = k;
          into[count] = v;
          count += 1;
        }
      }
      sparse = count * SPARSE_SHARE < n;
      if (sparse) {
        const nextTerm = terms[t === 0 ? 1 : 0];
        const old = lists[stale];
        for (let i = 0; i < staleCount; i += 1) nextTerm[old[i] as number] = 0;
        kernel.step(listAt[rows], count, term, next, factor);
        [stale, support, rows] = [support, rows, stale];
        staleCount = supportCount;
        supportCount = count;
        t = t === 0 ? 1 : 0;
        continue;
      }
    }
    kernel.step(-1, n, term, next, factor);
    t = t === 0 ? 1 : 0;
  }
  return true;
}

/** The rows seen per product, zeroed for each diffusion (kept across diffusions: one a process). */
let seenRows = new Int32Array(0);

function seenFor(n: number): Int32Array {
  if (seenRows.length < n) seenRows = new Int32Array(n);
  const seen = seenRows.subarray(0, n);
  seen.fill(0);
  return seen;
}

/** The series in JavaScript (where WebAssembly is missing). */
function diffuse(graph: GraphIndex, sources: readonly string[], o: ResolvedHeatOptions): Float64Array {
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
