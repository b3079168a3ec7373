/**
 * @module core/graph/pagerank
 * Weighted PageRank, SPEC §4's centrality (PageRank / max) and §5's raw PageRank (Page, Brin, Motwani,
 * Winograd, "The PageRank Citation Ranking", Stanford 1998):
 *     x' = (1 − d)/n · 1  +  d · (Pᵀx  +  (Σ_{dangling u} x_u)/n · 1),  P[u][v] = w(u→v) / Σ_v w(u→v)
 * by power iteration from the uniform vector (or a given start: the last PageRank, after a write); dangling
 * mass spreads uniformly, so scores sum to 1. Throws
 * unless the L1 change falls below `tolerance`. The hot loop is allocation-free over the CSR rows of
 * core/graph/graph-index.
 */

import { CredenceError } from '../errors.js';
import type { GraphIndex } from './graph-index.js';
import { pageRankKernel } from './pagerank-kernel.js';

export const PAGERANK_DEFAULTS = Object.freeze({
  /** Probability of following an edge rather than teleporting. */
  damping: 0.85,
  /** L1 change between iterates under which the iteration has converged. */
  tolerance: 1e-6,
  /** Iterations allowed before giving up. */
  maxIterations: 100,
});

export interface PageRankOptions {
  /** Probability of following an edge rather than teleporting, in [0, 1]. @default 0.85 */
  readonly damping?: number;
  /** L1 change between two iterates under which they have converged, > 0. @default 1e-6 */
  readonly tolerance?: number;
  /** Iterations allowed before throwing, an integer ≥ 1. @default 100 */
  readonly maxIterations?: number;
  /**
   * The iterate to start from (one value per node, ≥ 0, scaled to sum 1), e.g. PageRank of the graph before an edge
   * or two changed: it converges to the same tolerance in fewer iterations. @default the uniform vector
   */
  readonly start?: ArrayLike<number>;
}

type ResolvedPageRankOptions = { -readonly [K in keyof typeof PAGERANK_DEFAULTS]: number };

/** A start vector as the iteration takes it: finite, ≥ 0, the length of the graph, summing to 1; else uniform. */
function startVector(start: ArrayLike<number> | undefined, n: number): Float64Array<ArrayBuffer> {
  const x = new Float64Array(n);
  let sum = 0;
  if (start !== undefined && start.length === n)
    for (let v = 0; v < n; v += 1) {
      const value = start[v] as number;
      if (!(value >= 0 && Number.isFinite(value))) {
        sum = 0;
        break;
      }
      x[v] = value;
      sum += value;
    }
  if (!(sum > 0) || !Number.isFinite(sum)) return x.fill(1 / n);
  for (let v = 0; v < n; v += 1) x[v] = (x[v] as number) / sum;
  return x;
}

/**
 * PageRank of every node of `graph`, indexed like `graph.ids`; ≥ 0 and summing to 1 (empty for an
 * empty graph).
 * @throws CredenceError INVALID_INPUT for options out of range, or when the iteration has not
 * converged within `maxIterations` (the message gives the last L1 change).
 */
export function pageRank(graph: GraphIndex, options: PageRankOptions = {}): Float64Array {
  return rank(graph, options, true);
}

/**
 * {@link pageRank} in JavaScript alone: what runs where WebAssembly is missing (the kernel computes the same
 * values; the tests compare the two).
 */
export function pageRankJs(graph: GraphIndex, options: PageRankOptions = {}): Float64Array {
  return rank(graph, options, false);
}

function rank(graph: GraphIndex, options: PageRankOptions, wasm: boolean): Float64Array {
  const o = resolvePageRankOptions(options);
  const n = graph.ids.length;
  if (n === 0) return new Float64Array(0);
  const d = o.damping;
  const teleport = (1 - d) / n;
  // Outside the loop: each edge's transition probability times d (w / outWeight, exact even for
  // subnormal weights, where a reciprocal 1 / outWeight would overflow), and the dangling nodes.
  const { offsets, targets, weights, outWeight } = graph;
  const step = new Float64Array(targets.length);
  let danglingCount = 0;
  for (let u = 0; u < n; u += 1) {
    const out = outWeight[u] as number;
    if (!(out > 0)) danglingCount += 1;
    else
      for (let e = offsets[u] as number, end = offsets[u + 1] as number; e < end; e += 1)
        step[e] = d * ((weights[e] as number) / out);
  }
  const danglingNodes = new Int32Array(danglingCount);
  for (let u = 0, k = 0; u < n; u += 1) if (!((outWeight[u] as number) > 0)) danglingNodes[k++] = u;
  let x = startVector(options.start, n);
  // In WebAssembly where it is there (issue 20: the same iterations, to the bit, without a double boxed).
  const kernel = wasm ? pageRankKernel(graph, danglingCount) : undefined;
  if (kernel !== undefined) {
    kernel.step.set(step);
    kernel.dangling.set(danglingNodes);
    kernel.vectors[0].set(x);
    let from: 0 | 1 = 0;
    let change = Infinity;
    for (let iteration = 1; iteration <= o.maxIterations; iteration += 1) {
      const { residual, sum } = kernel.iterate(from, teleport, d);
      change = residual;
      from = from === 0 ? 1 : 0;
      if (residual < o.tolerance) {
        kernel.divide(from, sum);
        return kernel.vectors[from].slice();
      }
    }
    throw notConverged(o, change);
  }
  let next = new Float64Array(n);
  let residual = Infinity;
  for (let iteration = 1; iteration <= o.maxIterations; iteration += 1) {
    let dangling = 0;
    for (let k = 0; k < danglingCount; k += 1) dangling += x[danglingNodes[k] as number] as number;
    next.fill(teleport + (d * dangling) / n);
    for (let u = 0; u < n; u += 1) {
      const xu = x[u] as number;
      for (let e = offsets[u] as number, end = offsets[u + 1] as number; e < end; e += 1) {
        const v = targets[e] as number;
        next[v] = (next[v] as number) + xu * (step[e] as number);
      }
    }
    residual = 0;
    let sum = 0;
    for (let v = 0; v < n; v += 1) {
      const value = next[v] as number;
      residual += Math.abs(value - (x[v] as number));
      sum += value;
    }
    const swap = x;
    x = next;
    next = swap;
    if (residual < o.tolerance) {
      // Remove the float drift of the sum (a few ulps), so the scores sum to 1.
      for (let v = 0; v < n; v += 1) x[v] = (x[v] as number) / sum;
      return x;
    }
  }
  throw notConverged(o, residual);
}

function notConverged(o: ResolvedPageRankOptions, residual: number): CredenceError {
  return new CredenceError(
    'INVALID_INPUT',
    `PageRank did not converge within ${o.maxIterations} iterations ` +
      `(L1 change ${residual.toExponential(3)} >= tolerance ${o.tolerance}); raise maxIterations or tolerance`,
    { details: { maxIterations: o.maxIterations, residual, tolerance: o.tolerance, damping: o.damping } },
  );
}

/** {@link pageRank} keyed by tool id. */
export function pageRankById(graph: GraphIndex, options: PageRankOptions = {}): Map<string, number> {
  const scores = pageRank(graph, options);
  const out = new Map<string, number>();
  graph.ids.forEach((id, i) => out.set(id, scores[i] as number));
  return out;
}

function resolvePageRankOptions(options: PageRankOptions): ResolvedPageRankOptions {
  const o: ResolvedPageRankOptions = {
    damping: options.damping ?? PAGERANK_DEFAULTS.damping,
    tolerance: options.tolerance ?? PAGERANK_DEFAULTS.tolerance,
    maxIterations: options.maxIterations ?? PAGERANK_DEFAULTS.maxIterations,
  };
  if (typeof o.damping !== 'number' || !(o.damping >= 0 && o.damping <= 1)) {
    throw new CredenceError('INVALID_INPUT', `damping must be a number in [0, 1], got ${String(o.damping)}`, {
      details: { damping: o.damping },
    });
  }
  if (typeof o.tolerance !== 'number' || !(o.tolerance > 0) || !Number.isFinite(o.tolerance)) {
    throw new CredenceError('INVALID_INPUT', `tolerance must be a finite number > 0, got ${String(o.tolerance)}`, {
      details: { tolerance: o.tolerance },
    });
  }
  if (!Number.isInteger(o.maxIterations) || o.maxIterations < 1) {
    throw new CredenceError('INVALID_INPUT', `maxIterations must be an integer >= 1, got ${String(o.maxIterations)}`, {
      details: { maxIterations: o.maxIterations },
    });
  }
  return o;
}
