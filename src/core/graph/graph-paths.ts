/**
 * @module core/graph/graph-paths
 * Best paths and relatedness for SPEC §4's graph score: the best product of edge confidences over paths of
 * at most `maxHops` hops from a context tool, on confident edges only (≥ 0.3). Hop-bounded Bellman–Ford
 * (R. Bellman, "On a routing problem", 1958) over the max-product semiring, O(maxHops · m): since
 * confidences are ≤ 1 the best walk is a simple path, so the result equals brute-force enumeration (the
 * tests check it) without its cost on hubs. Ties: higher confidence (within a relative 1e−12), then fewer
 * hops, then the smaller id sequence. Weight-0 edges are never followed. Exactness assumes products stay
 * normal doubles (weights far above 1e−100), always true of confidences.
 */

import { EDGE_DEFAULTS, passesThreshold } from './edge-confidence.js';
import { CredenceError } from '../errors.js';
import type { GraphIndex } from './graph-index.js';

export const PATH_DEFAULTS = Object.freeze({
  /** Longest path considered, in edges. */
  maxHops: 3,
  /** Minimum edge confidence (inclusive, as `passesThreshold`). */
  threshold: EDGE_DEFAULTS.threshold,
});

export interface PathOptions {
  /** Longest path considered, in edges; an integer ≥ 0. @default 3 */
  readonly maxHops?: number;
  /**
   * Only edges with weight ≥ threshold are followed (0.30 itself included); weight-0 edges never are.
   * @default 0.3
   */
  readonly threshold?: number;
}

export interface BestPath {
  /** Product of the path's edge weights, in [0, 1]. */
  readonly confidence: number;
  /** Tool ids from the start tool to the reached tool, both included. */
  readonly path: string[];
}

type ResolvedPathOptions = { -readonly [K in keyof typeof PATH_DEFAULTS]: number };

/** Relative difference under which two confidences tie. */
const TIE_EPSILON = 1e-12;

/**
 * The best path from `from` to every tool reachable in 1 … maxHops hops over edges passing the
 * threshold; `from` itself is not included. Empty when `from` is not in the graph. Keys are in
 * ascending id order.
 * @throws CredenceError INVALID_INPUT for options out of range, or when a followed edge has a weight
 * above 1 (path products are only meaningful for confidences).
 */
export function bestPaths(graph: GraphIndex, from: string, options: PathOptions = {}): Map<string, BestPath> {
  const o = resolvePathOptions(options);
  const out = new Map<string, BestPath>();
  const start = graph.indexOf.get(from);
  if (start === undefined) return out;
  const table = hopTable(graph, [start], o);
  const { best, hops } = table;
  for (let v = 0; v < graph.ids.length; v += 1) {
    if (v === start || (best[v] as number) < 0) continue;
    const h = hops[v] as number;
    const path = new Array<string>(h + 1);
    for (let level = h, node = v; level >= 0; level -= 1) {
      path[level] = graph.ids[node] as string;
      node = (table.pred[level] as Int32Array)[node] as number;
    }
    out.set(graph.ids[v] as string, { confidence: best[v] as number, path });
  }
  return out;
}

/**
 * Relatedness of `target` to the context (SPEC §4): the best path confidence from any context tool
 * to `target` (directed, ≤ maxHops hops, confident edges only), 0 when none reaches it. Decision: a
 * context tool itself has relatedness 0 — it is already in use, and scoring it 1 made search rank
 * the tools already called first (the step-wise figures: docs/evaluation.md).
 * @throws CredenceError INVALID_INPUT as {@link bestPaths}.
 */
export function relatedness(
  graph: GraphIndex,
  contextTools: readonly string[],
  target: string,
  options: PathOptions = {},
): number {
  const o = resolvePathOptions(options);
  if (contextTools.includes(target)) return 0;
  const t = graph.indexOf.get(target);
  if (t === undefined) return 0;
  return relatednessAll(graph, contextTools, o)[t] as number;
}

/**
 * {@link relatedness} of every node of `graph` at once (indexed like `graph.ids`), in one
 * O(maxHops · m) pass: context tools and unreachable tools 0.
 * @throws CredenceError INVALID_INPUT as {@link bestPaths}.
 */
export function relatednessAll(
  graph: GraphIndex,
  contextTools: readonly string[],
  options: PathOptions = {},
): Float64Array {
  const o = resolvePathOptions(options);
  const starts: number[] = [];
  for (const id of contextTools) {
    const i = graph.indexOf.get(id);
    if (i !== undefined) starts.push(i);
  }
  const out = new Float64Array(graph.ids.length);
  if (starts.length === 0) return out;
  const { best } = hopTable(graph, starts, o);
  for (let v = 0; v < out.length; v += 1) out[v] = Math.max(0, best[v] as number);
  for (const s of starts) out[s] = 0;
  return out;
}

interface HopTable {
  /** pred[h][v]: the tool before v on the best h-hop walk to v (−1 when none). */
  readonly pred: Int32Array[];
  /** Best confidence over 1 … maxHops hops, −1 when unreached (sources: their own best return). */
  readonly best: Float64Array;
  /** Hops of that best walk. */
  readonly hops: Int32Array;
}

/** Hop-bounded Bellman–Ford for max-product walks from `starts` (each at confidence 1, hop 0). */
function hopTable(graph: GraphIndex, starts: readonly number[], o: ResolvedPathOptions): HopTable {
  const n = graph.ids.length;
  const { offsets, targets, weights } = graph;
  const pred: Int32Array[] = [];
  let prev = new Float64Array(n).fill(-1);
  let frontier = new Int32Array(n);
  let frontierSize = 0;
  for (const s of starts) {
    if ((prev[s] as number) < 0) frontier[frontierSize++] = s;
    prev[s] = 1;
  }
  pred.push(new Int32Array(n).fill(-1));
  const best = new Float64Array(n).fill(-1);
  const hops = new Int32Array(n);
  let cur = new Float64Array(n);
  let reached = new Int32Array(n);
  for (let h = 1; h <= o.maxHops && frontierSize > 0; h += 1) {
    cur.fill(-1);
    const curPred = new Int32Array(n).fill(-1);
    let reachedSize = 0;
    for (let f = 0; f < frontierSize; f += 1) {
      const u = frontier[f] as number;
      const pu = prev[u] as number;
      for (let e = offsets[u] as number, end = offsets[u + 1] as number; e < end; e += 1) {
        const w = weights[e] as number;
        if (!(w > 0) || !passesThreshold(w, o.threshold)) continue;
        if (w > 1) {
          throw new CredenceError(
            'INVALID_INPUT',
            `path confidences need edge weights in [0, 1]; ` +
              `${graph.ids[u]} → ${graph.ids[targets[e] as number]} has ${w}`,
            {
              details: { from: graph.ids[u], to: graph.ids[targets[e] as number], weight: w },
            },
          );
        }
        const v = targets[e] as number;
        const candidate = pu * w;
        const current = cur[v] as number;
        if (current < 0) {
          reached[reachedSize++] = v;
        } else {
          const order = compareConfidence(candidate, current);
          if (order < 0 || (order === 0 && compareWalks(pred, h - 1, u, curPred[v] as number) >= 0)) continue;
        }
        cur[v] = candidate;
        curPred[v] = u;
      }
    }
    pred.push(curPred);
    for (let r = 0; r < reachedSize; r += 1) {
      const v = reached[r] as number;
      // Levels come in increasing hops, so a tie keeps the shorter walk already recorded.
      if ((best[v] as number) < 0 || compareConfidence(cur[v] as number, best[v] as number) > 0) {
        best[v] = cur[v] as number;
        hops[v] = h;
      }
    }
    [prev, cur] = [cur, prev];
    [frontier, reached] = [reached, frontier];
    frontierSize = reachedSize;
  }
  return { pred, best, hops };
}

/** +1 when a is the better confidence, −1 when b is, 0 when they tie (relative 1e−12). */
function compareConfidence(a: number, b: number): number {
  if (Math.abs(a - b) <= TIE_EPSILON * Math.max(Math.abs(a), Math.abs(b))) return 0;
  return a > b ? 1 : -1;
}

/**
 * Lexicographic order of the best level-`h` walks to `a` and `b` (negative when a's comes first).
 * Both start at hop 0, so the first difference from the start decides: walk both back and keep the
 * earliest level where they differ. Node indexes follow sorted ids, so index order is id order.
 */
function compareWalks(pred: readonly Int32Array[], h: number, a: number, b: number): number {
  let order = 0;
  for (let level = h; level >= 0 && a !== b; level -= 1) {
    order = a - b;
    const p = pred[level] as Int32Array;
    a = p[a] as number;
    b = p[b] as number;
  }
  return order;
}

function resolvePathOptions(options: PathOptions): ResolvedPathOptions {
  const o: ResolvedPathOptions = {
    maxHops: options.maxHops ?? PATH_DEFAULTS.maxHops,
    threshold: options.threshold ?? PATH_DEFAULTS.threshold,
  };
  if (!Number.isInteger(o.maxHops) || o.maxHops < 0) {
    throw new CredenceError('INVALID_INPUT', `maxHops must be an integer >= 0, got ${String(o.maxHops)}`, {
      details: { maxHops: o.maxHops },
    });
  }
  if (typeof o.threshold !== 'number' || !Number.isFinite(o.threshold) || o.threshold < 0) {
    throw new CredenceError('INVALID_INPUT', `threshold must be a finite number >= 0, got ${String(o.threshold)}`, {
      details: { threshold: o.threshold },
    });
  }
  return o;
}
