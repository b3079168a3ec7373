/**
 * @module core/graph/graph-index
 * A compact, read-only index of the weighted tool graph for SPEC §4–§5's algorithms: compressed sparse
 * row (Saad, "Iterative Methods for Sparse Linear Systems", 2003, §3.4), so hot loops walk typed arrays.
 * Nodes (edge endpoints plus `options.nodes`) are numbered in sorted id order, so nothing depends on
 * input order. Parallel edges of a pair merge into one with the MAX weight (a pair's confidence never
 * exceeds 1); self-loops are dropped. `undirected` stores each unordered pair both ways with one weight,
 * as heat diffusion needs. Rows are sorted by target; `outWeight[i]` is row i's weighted degree.
 */

import { CredenceError } from '../errors.js';

export interface GraphEdge {
  readonly from: string;
  readonly to: string;
  /** Finite and ≥ 0 (a confidence in [0, 1] for the tool graph). */
  readonly weight: number;
}

export interface GraphIndexOptions {
  /** Extra nodes to include even without an edge (e.g. tools that were called). @default none */
  readonly nodes?: Iterable<string>;
  /** Store every edge in both directions, one weight (the max) per unordered pair. @default false */
  readonly undirected?: boolean;
}

/**
 * The CSR index. The typed arrays are shared, not copied: treat them as read-only (typed arrays
 * cannot be frozen).
 */
export interface GraphIndex {
  /** Node ids, sorted; node `i` is `ids[i]`. */
  readonly ids: readonly string[];
  /** Id → node index. */
  readonly indexOf: ReadonlyMap<string, number>;
  /** Length n + 1: row `i` is `offsets[i] .. offsets[i + 1]`. */
  readonly offsets: Int32Array;
  /** Target node of each stored edge, ascending within a row. */
  readonly targets: Int32Array;
  /** Weight of each stored edge (max over merged parallel edges). */
  readonly weights: Float64Array;
  /** Sum of each node's out-weights (weighted degree when undirected). */
  readonly outWeight: Float64Array;
  /** Whether every edge is stored in both directions. */
  readonly undirected: boolean;
}

/**
 * Builds the CSR index of a weighted graph in O(n log n + m): ids sorted, then two stable counting
 * sorts (by target, then by source) and one merge pass.
 * @throws CredenceError INVALID_INPUT when an endpoint is not a string or a weight is not a finite
 * number ≥ 0.
 */
export function buildGraphIndex(edges: readonly GraphEdge[], options: GraphIndexOptions = {}): GraphIndex {
  const undirected = options.undirected ?? false;
  // One pass: validate, number ids in order of appearance, record (source, target, weight) triples
  // (self-loops dropped, both directions when undirected).
  const provisional = new Map<string, number>();
  const numberOf = (id: string): number => {
    let i = provisional.get(id);
    if (i === undefined) {
      i = provisional.size;
      provisional.set(id, i);
    }
    return i;
  };
  const capacity = edges.length * (undirected ? 2 : 1);
  let src = new Int32Array(capacity);
  let dst = new Int32Array(capacity);
  let wt = new Float64Array(capacity);
  let m = 0;
  for (let e = 0; e < edges.length; e += 1) {
    const edge = edges[e] as GraphEdge;
    if (typeof edge.from !== 'string' || typeof edge.to !== 'string') {
      throw new CredenceError(
        'INVALID_INPUT',
        `edge ${e} must have string endpoints, got ${String(edge.from)} → ${String(edge.to)}`,
        {
          details: { index: e },
        },
      );
    }
    if (typeof edge.weight !== 'number' || !Number.isFinite(edge.weight) || edge.weight < 0) {
      throw new CredenceError(
        'INVALID_INPUT',
        `edge ${edge.from} → ${edge.to} has weight ${String(edge.weight)}; weights must be finite numbers >= 0`,
        { details: { index: e, from: edge.from, to: edge.to, weight: edge.weight } },
      );
    }
    const a = numberOf(edge.from);
    const b = numberOf(edge.to);
    if (a === b) continue;
    src[m] = a;
    dst[m] = b;
    wt[m] = edge.weight;
    m += 1;
    if (undirected) {
      src[m] = b;
      dst[m] = a;
      wt[m] = edge.weight;
      m += 1;
    }
  }
  for (const node of options.nodes ?? []) {
    if (typeof node !== 'string') {
      throw new CredenceError('INVALID_INPUT', `nodes must be strings, got ${String(node)}`, { details: { node } });
    }
    numberOf(node);
  }
  if (m < capacity) {
    src = src.subarray(0, m);
    dst = dst.subarray(0, m);
    wt = wt.subarray(0, m);
  }

  // Renumber in sorted id order.
  const ids = Object.freeze([...provisional.keys()].sort());
  const n = ids.length;
  const indexOf = new Map<string, number>();
  const rank = new Int32Array(n);
  for (let i = 0; i < n; i += 1) {
    const id = ids[i] as string;
    indexOf.set(id, i);
    rank[provisional.get(id) as number] = i;
  }
  for (let e = 0; e < m; e += 1) {
    src[e] = rank[src[e] as number] as number;
    dst[e] = rank[dst[e] as number] as number;
  }

  // Stable counting sort by target, then by source: rows end up sorted by target.
  const byTarget = countingOrder(dst, n, identity(m));
  const order = countingOrder(src, n, byTarget);

  // Merge runs of the same (source, target) pair, keeping the max weight.
  const counts = new Int32Array(n + 1);
  const mergedTargets = new Int32Array(m);
  const mergedWeights = new Float64Array(m);
  let size = 0;
  let lastSrc = -1;
  let lastDst = -1;
  for (let r = 0; r < m; r += 1) {
    const e = order[r] as number;
    const s = src[e] as number;
    const t = dst[e] as number;
    const w = wt[e] as number;
    if (s === lastSrc && t === lastDst) {
      if (w > (mergedWeights[size - 1] as number)) mergedWeights[size - 1] = w;
      continue;
    }
    mergedTargets[size] = t;
    mergedWeights[size] = w;
    counts[s + 1] = (counts[s + 1] as number) + 1;
    size += 1;
    lastSrc = s;
    lastDst = t;
  }
  const offsets = new Int32Array(n + 1);
  for (let i = 0; i < n; i += 1) offsets[i + 1] = (offsets[i] as number) + (counts[i + 1] as number);
  const targets = mergedTargets.slice(0, size);
  const weights = mergedWeights.slice(0, size);
  const outWeight = new Float64Array(n);
  for (let i = 0; i < n; i += 1) {
    let sum = 0;
    for (let e = offsets[i] as number, end = offsets[i + 1] as number; e < end; e += 1) sum += weights[e] as number;
    outWeight[i] = sum;
  }
  return Object.freeze({ ids, indexOf, offsets, targets, weights, outWeight, undirected });
}

/** The stored weight of the edge `from → to`, or undefined when there is none. */
export function edgeWeight(graph: GraphIndex, from: string, to: string): number | undefined {
  const a = graph.indexOf.get(from);
  const b = graph.indexOf.get(to);
  if (a === undefined || b === undefined) return undefined;
  // Binary search: rows are sorted by target.
  let lo = graph.offsets[a] as number;
  let hi = (graph.offsets[a + 1] as number) - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const t = graph.targets[mid] as number;
    if (t === b) return graph.weights[mid];
    if (t < b) lo = mid + 1;
    else hi = mid - 1;
  }
  return undefined;
}

function identity(m: number): Int32Array {
  const out = new Int32Array(m);
  for (let i = 0; i < m; i += 1) out[i] = i;
  return out;
}

/** `input` (a permutation of edge numbers) stably reordered by `keys[edge]` ∈ [0, n). */
function countingOrder(keys: Int32Array, n: number, input: Int32Array): Int32Array {
  const start = new Int32Array(n + 1);
  for (let i = 0; i < input.length; i += 1) {
    const key = keys[input[i] as number] as number;
    start[key + 1] = (start[key + 1] as number) + 1;
  }
  for (let i = 0; i < n; i += 1) start[i + 1] = (start[i + 1] as number) + (start[i] as number);
  const out = new Int32Array(input.length);
  for (let i = 0; i < input.length; i += 1) {
    const e = input[i] as number;
    const key = keys[e] as number;
    out[start[key] as number] = e;
    start[key] = (start[key] as number) + 1;
  }
  return out;
}
