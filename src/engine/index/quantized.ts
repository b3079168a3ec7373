/**
 * @module engine/index/quantized
 * An int8 copy of a float32 matrix's rows for a first pass that reads a quarter of the bytes and still gives the
 * float32 scan's results exactly (issue 20). Row x keeps s = max|x| / 127, codes c = round(x / s), an upper bound
 * of ‖x − s·c‖₂ and a checksum of its float bits. q·x lies within b = min(‖q‖₂·‖x − s·c‖₂, ‖q‖₁·s/2) (plus a
 * rounding slack) of s·(q·c): a row can be among the k best only when s·(q·c) + b reaches the k-th best lower
 * bound, and only those rows are scored again from their floats, with `scanSimilar`'s arithmetic. The checksum
 * tells whether floats read elsewhere (the embeddings table) are the ones the row was made from.
 */

import type { Int8Dots } from './int8-dots.js';
import { boundSelector } from './bound-select.js';

/*
 * Layout of a chunk of n rows of `dim` values: n float32 scales, n float32 error bounds, 2n uint32 checksum words,
 * n uint32 key hashes, n + 1 uint32 offsets of the rows' keys in the chunk's key text (the keys end to end), then
 * n × dim int8 codes. A row with a value that is not finite gets a NaN scale (no bound: the caller scans the
 * floats). A process reads a key by its offsets and finds the rows of a few keys by their hashes, without making
 * a string of every key.
 */

/** Bytes of a chunk of `rows` rows. */
export const quantizedBytes = (rows: number, dim: number): number => rows * (24 + dim) + 4;

/** The rows of a chunk of `bytes` bytes (undefined when no whole number of rows fits). */
export function quantizedRowCount(bytes: number, dim: number): number | undefined {
  const rows = (bytes - 4) / (24 + dim);
  return Number.isInteger(rows) && rows >= 0 ? rows : undefined;
}

/** A chunk's int8 rows, viewed over its bytes (copied once when they are not 4-byte aligned). */
export interface QuantizedRows {
  rows: number;
  dim: number;
  scales: Float32Array;
  errors: Float32Array;
  sums: Uint32Array;
  /** {@link keyHash} of each row's key. */
  hashes: Uint32Array;
  /** Where each row's key starts in the chunk's key text, and where the last ends. */
  offsets: Uint32Array;
  codes: Int8Array;
}

/** A 32-bit hash of a key's UTF-16 code units (FNV-1a): the rows of a key are found by it, then compared. */
export function keyHash(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i += 1) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** The two checksum words of `dim` float32 values of `data` from `base` (their bits, two multiplicative hashes). */
export function rowChecksum(data: Float32Array, base: number, dim: number): [number, number] {
  const bits = new Uint32Array(data.buffer, data.byteOffset + base * 4, dim);
  let h1 = 0x811c9dc5 ^ dim;
  let h2 = 0x9e3779b9;
  for (let d = 0; d < dim; d += 1) {
    const w = bits[d] as number;
    h1 = Math.imul(h1 ^ w, 0x01000193);
    h2 = Math.imul(h2 ^ w, 0x5bd1e995);
    h2 ^= h2 >>> 15;
  }
  return [h1 >>> 0, h2 >>> 0];
}

/** The int8 copy of the rows of `keys` (`dim` float32 values each, row-major) and the keys end to end. */
export function quantizeRows(
  data: Float32Array,
  keys: readonly string[],
  dim: number,
): { codes: Uint8Array; keys: string } {
  return requantizeRows(data, keys, dim);
}

/**
 * {@link quantizeRows}, with the rows `fresh` does not name copied from `kept` (the copy made of the same rows
 * before, where they had the same floats at the same places): each row's copy depends on its floats alone, so
 * the bytes are those `quantizeRows` makes. A write that changes a few rows of a chunk quantizes those only.
 */
export function requantizeRows(
  data: Float32Array,
  keys: readonly string[],
  dim: number,
  kept?: { rows: QuantizedRows; fresh: (row: number) => boolean },
): { codes: Uint8Array; keys: string } {
  const rows = keys.length;
  const bytes = new Uint8Array(quantizedBytes(rows, dim));
  const q = viewQuantized(bytes, rows, dim);
  let at = 0;
  for (let r = 0; r < rows; r += 1) {
    q.offsets[r] = at;
    at += (keys[r] as string).length;
    q.hashes[r] = keyHash(keys[r] as string);
  }
  q.offsets[rows] = at;
  const old = kept !== undefined && kept.rows.dim === dim ? kept.rows : undefined;
  for (let r = 0; r < rows; r += 1) {
    if (old !== undefined && r < old.rows && !kept?.fresh(r)) {
      q.scales[r] = old.scales[r] as number;
      q.errors[r] = old.errors[r] as number;
      q.sums[2 * r] = old.sums[2 * r] as number;
      q.sums[2 * r + 1] = old.sums[2 * r + 1] as number;
      q.codes.set(old.codes.subarray(r * dim, (r + 1) * dim), r * dim);
    } else quantizeRow(q, data, r, dim);
  }
  return { codes: bytes, keys: keys.join('') };
}

/** Row `r` of `data` quantized into `q`: its scale, codes, error bound and checksum. */
function quantizeRow(q: QuantizedRows, data: Float32Array, r: number, dim: number): void {
  const base = r * dim;
  let max = 0;
  for (let d = 0; d < dim; d += 1) max = Math.max(max, Math.abs(data[base + d] as number));
  const [h1, h2] = rowChecksum(data, base, dim);
  q.sums[2 * r] = h1;
  q.sums[2 * r + 1] = h2;
  if (!Number.isFinite(max)) {
    q.scales[r] = Number.NaN;
    return;
  }
  const s = Math.fround(max / 127);
  q.scales[r] = s;
  if (s === 0) return;
  let e2 = 0;
  for (let d = 0; d < dim; d += 1) {
    const x = data[base + d] as number;
    const c = Math.max(-127, Math.min(127, Math.round(x / s)));
    q.codes[base + d] = c;
    const e = x - s * c;
    e2 += e * e;
  }
  // Rounded up: the float32 stored is never below the true norm.
  q.errors[r] = Math.fround(Math.sqrt(e2) * (1 + 2 ** -20));
}

/** The typed views of a chunk's bytes (see the layout above). */
export function viewQuantized(bytes: Uint8Array, rows: number, dim: number): QuantizedRows {
  const aligned = bytes.byteOffset % 4 === 0 ? bytes : bytes.slice();
  const { buffer, byteOffset } = aligned;
  return {
    rows,
    dim,
    scales: new Float32Array(buffer, byteOffset, rows),
    errors: new Float32Array(buffer, byteOffset + 4 * rows, rows),
    sums: new Uint32Array(buffer, byteOffset + 8 * rows, 2 * rows),
    hashes: new Uint32Array(buffer, byteOffset + 16 * rows, rows),
    offsets: new Uint32Array(buffer, byteOffset + 20 * rows, rows + 1),
    codes: new Int8Array(buffer, byteOffset + 24 * rows + 4, rows * dim),
  };
}

/** Per chunk's scales, whether every row has a bound: a chunk's copy is made whole before it is read. */
const boundedScales = new WeakMap<Float32Array, boolean>();

/**
 * Whether every row of the chunks has a bound (no value that is not finite); known for each chunk after its first
 * look (a long-lived index asks again after each write, which makes a few chunks anew).
 */
export function allBounded(chunks: readonly QuantizedRows[]): boolean {
  return chunks.every(({ scales }) => {
    let bounded = boundedScales.get(scales);
    if (bounded === undefined) {
      // `includes` finds NaN (SameValueZero), in the typed array's native search: no loop of a cold process.
      bounded = !scales.includes(Number.NaN);
      boundedScales.set(scales, bounded);
    }
    return bounded;
  });
}

/**
 * The rows that may be among the `k` best for `query` (indexes into the concatenated chunks, in row order): every
 * row whose upper bound reaches the k-th best lower bound, all of them when there are `k` rows or fewer. `dim`
 * is the number of leading values compared (`min(matrix dim, query length)`). The query must be finite and no
 * row unbounded (`allBounded`).
 */
export function candidateRows(
  chunks: readonly QuantizedRows[],
  query: Float32Array,
  dim: number,
  want: number,
  simd?: Int8Dots,
): number[] {
  const { rows, highs, floor } = candidateBounds(chunks, query, dim, want, simd);
  return rows.filter((_, i) => (highs[i] as number) >= floor);
}

/**
 * The pass of {@link candidateRows} without its final cut: the rows it kept on the way (in row order), the upper
 * bound of each, and the k-th best lower bound (`floor`; -Infinity when there are `k` rows or fewer, each kept with
 * an upper bound of +Infinity). A row can be among the k best only when its high reaches the floor; ranked with other
 * matrices, only when it reaches the largest of their floors (each has k rows at least that good).
 */
export function candidateBounds(
  chunks: readonly QuantizedRows[],
  query: Float32Array,
  dim: number,
  want: number,
  simd?: Int8Dots,
): { rows: number[]; highs: number[]; floor: number } {
  const n = chunks.reduce((sum, c) => sum + c.rows, 0);
  // `scanSimilar` keeps floor(k) rows.
  const k = Math.floor(want);
  if (!(k > 0)) return { rows: [], highs: [], floor: Number.NEGATIVE_INFINITY };
  if (k >= n)
    return {
      rows: Array.from({ length: n }, (_, r) => r),
      highs: new Array<number>(n).fill(Number.POSITIVE_INFINITY),
      floor: Number.NEGATIVE_INFINITY,
    };
  const q = Float64Array.from(query.subarray(0, dim));
  let norm2 = 0;
  let norm1 = 0;
  for (let d = 0; d < dim; d += 1) {
    norm2 += (q[d] as number) * (q[d] as number);
    norm1 += Math.abs(q[d] as number);
  }
  // Upper bounds: the norms rounded up, and a slack above the rounding of both sums (≤ 2·dim·2⁻⁵³ of Σ|q_d·x_d|,
  // where |x_d| ≤ 127.5·s).
  const qNorm = Math.sqrt(norm2) * (1 + 2 ** -30);
  const half = norm1 * 0.5 * (1 + 2 ** -30);
  const slack = norm1 * 128 * (dim + 4) * 2 ** -40;
  // With SIMD, the query as integers q ≈ step × qi (|q_d − step·qi_d| ≤ step / 2): the codes' sums are exact, and
  // s·(q − step·qi)·c adds at most s × step / 2 × 127 × dim to the bound.
  let ints: Int32Array | undefined;
  let step = 0;
  let intError = 0;
  if (simd !== undefined) {
    let max = 0;
    for (let d = 0; d < dim; d += 1) max = Math.max(max, Math.abs(q[d] as number));
    step = max / simd.limit;
    const qi = new Int16Array(dim);
    if (step > 0)
      for (let d = 0; d < dim; d += 1)
        qi[d] = Math.max(-simd.limit, Math.min(simd.limit, Math.round((q[d] as number) / step)));
    ints = simd.dots(qi);
    intError = step * 0.5 * (1 + 2 ** -30) * 127 * dim;
    // The same selection in WebAssembly where it is there (issue 20: no double boxed a row in a one-query process).
    const selector = boundSelector();
    if (selector !== undefined) return selector.bounds(chunks, ints, k, { step, qNorm, half, slack: slack + intError });
  }
  /** The k best lower bounds so far, ascending: `lows[0]` is the k-th best once there are k of them. */
  const lows: number[] = [];
  let floor = Number.NEGATIVE_INFINITY;
  const kept: number[] = [];
  const highs: number[] = [];
  const tail = dim - (dim % 4);
  let row = 0;
  for (const chunk of chunks) {
    const { codes, scales, errors } = chunk;
    const stride = chunk.dim;
    for (let r = 0; r < chunk.rows; r += 1, row += 1) {
      if (ints !== undefined) {
        const s = scales[r] as number;
        const approx = s * (step * (ints[row] as number));
        const bound = Math.min(qNorm * (errors[r] as number), half * s) + (slack + intError) * s;
        const high = approx + bound;
        if (high < floor) continue;
        kept.push(row);
        highs.push(high);
        floor = lift(lows, approx - bound, k, floor);
        continue;
      }
      const base = r * stride;
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      let d = 0;
      for (; d < tail; d += 4) {
        s0 += (codes[base + d] as number) * (q[d] as number);
        s1 += (codes[base + d + 1] as number) * (q[d + 1] as number);
        s2 += (codes[base + d + 2] as number) * (q[d + 2] as number);
        s3 += (codes[base + d + 3] as number) * (q[d + 3] as number);
      }
      for (; d < dim; d += 1) s0 += (codes[base + d] as number) * (q[d] as number);
      const s = scales[r] as number;
      const approx = s * (s0 + s1 + s2 + s3);
      const bound = Math.min(qNorm * (errors[r] as number), half * s) + slack * s;
      const high = approx + bound;
      if (high < floor) continue;
      kept.push(row);
      highs.push(high);
      floor = lift(lows, approx - bound, k, floor);
    }
  }
  return { rows: kept, highs, floor };
}

/** Keeps `low` among the `k` best lower bounds (ascending); the k-th best once there are k, else `floor`. */
function lift(lows: number[], low: number, k: number, floor: number): number {
  if (lows.length === k && low <= (lows[0] as number)) return floor;
  if (lows.length === k) lows.shift();
  let at = lows.length;
  while (at > 0 && (lows[at - 1] as number) > low) at -= 1;
  lows.splice(at, 0, low);
  return lows.length === k ? (lows[0] as number) : floor;
}

/**
 * The `k` best of `rows` by `value`, ties by key (code-unit order), best first: `scanSimilar`'s order, over the
 * rows `candidateRows` kept (every row that can be among the k best is one of them).
 */
export function bestOf(
  rows: readonly number[],
  keyOf: (row: number) => string,
  value: (row: number) => number,
  k: number,
): { key: string; value: number }[] {
  return rows
    .map((r) => ({ key: keyOf(r), value: value(r) }))
    .sort((a, b) => b.value - a.value || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .slice(0, Math.max(0, Math.floor(k)));
}
