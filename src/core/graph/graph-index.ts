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

/** A pair's weight as it is now: `weight` undefined when the pair has no edge left. */
export interface GraphEdgeChange {
  readonly from: string;
  readonly to: string;
  readonly weight: number | undefined;
}

/**
 * The index {@link buildGraphIndex} would build from `graph`'s edges with these pairs' weights set (a pair new to the
 * graph added, its new ends numbered in sorted order): the same ids, rows, weights and out-weights, in the size of
 * what changed plus one copy of the arrays (issue 20: a recorded call changes an edge or two of the tool graph).
 * Each change names one stored direction; for an undirected graph, give both. Undefined when a pair loses its last
 * edge (a node may leave the graph then: build it again).
 */
export function patchGraphIndex(graph: GraphIndex, changes: readonly GraphEdgeChange[]): GraphIndex | undefined {
  const old = graph.indexOf;
  const added = new Set<string>();
  for (const c of changes) {
    if (c.weight === undefined) {
      if (edgeWeight(graph, c.from, c.to) !== undefined) return undefined;
      continue;
    }
    if (typeof c.weight !== 'number' || !Number.isFinite(c.weight) || c.weight < 0) return undefined;
    for (const id of [c.from, c.to]) if (!old.has(id)) added.add(id);
  }
  // The ids in sorted order, and each old node's new number (the order kept: rows stay sorted by target).
  let ids = graph.ids;
  let indexOf = old;
  const renumber = new Int32Array(graph.ids.length);
  if (added.size === 0) for (let i = 0; i < renumber.length; i += 1) renumber[i] = i;
  else {
    const fresh = [...added].sort();
    const merged: string[] = [];
    let f = 0;
    // An index loop (issue 20: entries() made an array and a result a node, ~0.8 MB at 10k tools, each write).
    for (let i = 0; i < graph.ids.length; i += 1) {
      const id = graph.ids[i] as string;
      while (f < fresh.length && (fresh[f] as string) < id) merged.push(fresh[f++] as string);
      renumber[i] = merged.length;
      merged.push(id);
    }
    while (f < fresh.length) merged.push(fresh[f++] as string);
    ids = Object.freeze(merged);
    const map = new Map<string, number>();
    for (let i = 0; i < merged.length; i += 1) map.set(merged[i] as string, i);
    indexOf = map;
  }
  const n = ids.length;
  // Per row (new numbers), its changed targets and weights, by target.
  const byRow = new Map<number, Map<number, number>>();
  for (const c of changes) {
    if (c.weight === undefined) continue;
    const a = indexOf.get(c.from) as number;
    const b = indexOf.get(c.to) as number;
    if (a === b) continue;
    let row = byRow.get(a);
    if (row === undefined) {
      row = new Map();
      byRow.set(a, row);
    }
    row.set(b, c.weight);
  }
  const rows = new Map<number, number[]>();
  for (const [a, row] of byRow)
    rows.set(
      a,
      [...row.keys()].sort((x, y) => x - y),
    );
  if (added.size === 0) return patchRows(graph, byRow, rows);
  const oldOf = new Int32Array(n).fill(-1);
  for (let i = 0; i < renumber.length; i += 1) oldOf[renumber[i] as number] = i;
  const { offsets: oldOffsets, targets: oldTargets, weights: oldWeights } = graph;
  // Sizes first: each old row, with the targets it did not hold.
  const offsets = new Int32Array(n + 1);
  for (let a = 0; a < n; a += 1) {
    const o = oldOf[a] as number;
    let size = o < 0 ? 0 : (oldOffsets[o + 1] as number) - (oldOffsets[o] as number);
    for (const b of rows.get(a) ?? []) {
      const ob = oldOf[b] as number;
      if (o < 0 || ob < 0 || rowSlot(oldOffsets, oldTargets, o, ob) < 0) size += 1;
    }
    offsets[a + 1] = (offsets[a] as number) + size;
  }
  const m = offsets[n] as number;
  const targets = new Int32Array(m);
  const weights = new Float64Array(m);
  const outWeight = new Float64Array(n);
  for (let a = 0; a < n; ) {
    const o = oldOf[a] as number;
    const set = rows.get(a);
    let at = offsets[a] as number;
    if (set === undefined) {
      // Untouched rows (none: a node new as a target only), a run of them at a time: their targets renumbered, their
      // weights and out-weights as they were, copied natively (issue 20: a write's patch, run cold, boxed each).
      if (o < 0) {
        a += 1;
        continue;
      }
      let b = a + 1;
      while (b < n && rows.get(b) === undefined && oldOf[b] === (oldOf[b - 1] as number) + 1) b += 1;
      const start = oldOffsets[o] as number;
      const end = oldOffsets[(oldOf[b - 1] as number) + 1] as number;
      for (let e = start; e < end; e += 1) targets[at + e - start] = renumber[oldTargets[e] as number] as number;
      weights.set(oldWeights.subarray(start, end), at);
      outWeight.set(graph.outWeight.subarray(o, (oldOf[b - 1] as number) + 1), a);
      a = b;
      continue;
    }
    const row = byRow.get(a) as Map<number, number>;
    let k = 0;
    if (o >= 0)
      for (let e = oldOffsets[o] as number, end = oldOffsets[o + 1] as number; e < end; e += 1) {
        const b = renumber[oldTargets[e] as number] as number;
        while (k < set.length && (set[k] as number) < b) {
          targets[at] = set[k] as number;
          weights[at] = row.get(set[k] as number) as number;
          at += 1;
          k += 1;
        }
        targets[at] = b;
        weights[at] = row.get(b) ?? (oldWeights[e] as number);
        if (k < set.length && set[k] === b) k += 1;
        at += 1;
      }
    for (; k < set.length; k += 1) {
      targets[at] = set[k] as number;
      weights[at] = row.get(set[k] as number) as number;
      at += 1;
    }
    // Summed in row order, as a build sums it.
    let sum = 0;
    for (let e = offsets[a] as number, end = offsets[a + 1] as number; e < end; e += 1) sum += weights[e] as number;
    outWeight[a] = sum;
    a += 1;
  }
  return Object.freeze({ ids, indexOf, offsets, targets, weights, outWeight, undirected: graph.undirected });
}

/**
 * {@link patchGraphIndex} when no node comes: the rows between the changed ones copied a run at a time (native
 * copies), the arrays of rows and targets shared when no pair is new (only weights moved).
 */
function patchRows(
  graph: GraphIndex,
  byRow: ReadonlyMap<number, ReadonlyMap<number, number>>,
  rows: ReadonlyMap<number, readonly number[]>,
): GraphIndex {
  const { offsets: oldOffsets, targets: oldTargets, weights: oldWeights } = graph;
  const n = graph.ids.length;
  const touched = [...rows.keys()].sort((x, y) => x - y);
  const added = new Map<number, number>();
  let more = 0;
  for (const a of touched) {
    let k = 0;
    for (const b of rows.get(a) as number[]) if (rowSlot(oldOffsets, oldTargets, a, b) < 0) k += 1;
    added.set(a, k);
    more += k;
  }
  const outWeight = graph.outWeight.slice();
  const rowSum = (weights: Float64Array, from: number, to: number): number => {
    // Summed in row order, as a build sums it.
    let sum = 0;
    for (let e = from; e < to; e += 1) sum += weights[e] as number;
    return sum;
  };
  if (more === 0) {
    const weights = oldWeights.slice();
    for (const a of touched)
      for (const [b, w] of byRow.get(a) as ReadonlyMap<number, number>)
        weights[rowSlot(oldOffsets, oldTargets, a, b)] = w;
    for (const a of touched) outWeight[a] = rowSum(weights, oldOffsets[a] as number, oldOffsets[a + 1] as number);
    const { ids, indexOf, offsets, targets, undirected } = graph;
    return Object.freeze({ ids, indexOf, offsets, targets, weights, outWeight, undirected });
  }
  const m = oldTargets.length + more;
  const offsets = new Int32Array(n + 1);
  const targets = new Int32Array(m);
  const weights = new Float64Array(m);
  let shift = 0;
  let from = 0;
  /** Rows `from` up to `to` (exclusive) as they were, `shift` slots on. */
  const copy = (to: number) => {
    const start = oldOffsets[from] as number;
    const end = oldOffsets[to] as number;
    targets.set(oldTargets.subarray(start, end), start + shift);
    weights.set(oldWeights.subarray(start, end), start + shift);
    for (let r = from; r < to; r += 1) offsets[r + 1] = (oldOffsets[r + 1] as number) + shift;
  };
  for (const a of touched) {
    copy(a);
    const set = rows.get(a) as number[];
    const row = byRow.get(a) as ReadonlyMap<number, number>;
    let at = (oldOffsets[a] as number) + shift;
    let k = 0;
    for (let e = oldOffsets[a] as number, end = oldOffsets[a + 1] as number; e < end; e += 1) {
      const b = oldTargets[e] as number;
      for (; k < set.length && (set[k] as number) < b; k += 1, at += 1) {
        targets[at] = set[k] as number;
        weights[at] = row.get(set[k] as number) as number;
      }
      targets[at] = b;
      weights[at] = row.get(b) ?? (oldWeights[e] as number);
      if (k < set.length && set[k] === b) k += 1;
      at += 1;
    }
    for (; k < set.length; k += 1, at += 1) {
      targets[at] = set[k] as number;
      weights[at] = row.get(set[k] as number) as number;
    }
    shift += added.get(a) as number;
    offsets[a + 1] = (oldOffsets[a + 1] as number) + shift;
    outWeight[a] = rowSum(weights, offsets[a] as number, at);
    from = a + 1;
  }
  copy(n);
  const { ids, indexOf, undirected } = graph;
  return Object.freeze({ ids, indexOf, offsets, targets, weights, outWeight, undirected });
}

/** The stored slot of target `b` in row `a` (rows sorted by target), or −1. */
function rowSlot(offsets: Int32Array, targets: Int32Array, a: number, b: number): number {
  let lo = offsets[a] as number;
  let hi = (offsets[a + 1] as number) - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const t = targets[mid] as number;
    if (t === b) return mid;
    if (t < b) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}
