import { describe, expect, it } from 'vitest';
import { dotUnrolled, scanSimilar, type VectorMatrix } from '../search/vectors.js';
import { int8Dots, int8DotsByChunk } from './int8-dots.js';
import { allBounded, bestOf, candidateRows, quantizeRows, rowChecksum, viewQuantized } from './quantized.js';

// Issue 20: the int8 first pass keeps every row that can rank, so the rows re-scored from their floats give the
// float32 scan's top k and similarities exactly, whatever the rows hold.

function generator(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const unit = (v: Float32Array): Float32Array => {
  const n = Math.hypot(...v);
  return n === 0 ? v : v.map((x) => x / n);
};

/** The quantized scan as the index runs it: candidates from the int8 copies (chunks of `per` rows), then exact. */
function quantizedScan(
  data: Float32Array,
  ids: string[],
  dim: number,
  query: Float32Array,
  k: number,
  per: number,
  simd: false | 'held' | 'by chunk',
) {
  const chunks = [];
  for (let from = 0; from < ids.length; from += per) {
    const rows = Math.min(per, ids.length - from);
    const { codes } = quantizeRows(data.subarray(from * dim, (from + rows) * dim), ids.slice(from, from + rows), dim);
    chunks.push(viewQuantized(codes, rows, dim));
  }
  expect(allBounded(chunks)).toBe(true);
  const d = Math.min(dim, query.length);
  const codes = chunks.map((c) => c.codes);
  const dots = simd === 'held' ? int8Dots(codes, dim) : simd === 'by chunk' ? int8DotsByChunk(codes, dim) : undefined;
  if (simd) expect(dots).toBeDefined();
  const rows = candidateRows(chunks, query, d, k, dots);
  return {
    rows,
    best: bestOf(
      rows,
      (r) => ids[r] as string,
      (r) => dotUnrolled(data, r * dim, query, d),
      k,
    ),
  };
}

function same(data: Float32Array, ids: string[], dim: number, query: Float32Array, k: number, per = 7) {
  const m: VectorMatrix = { ids, row: new Map(ids.map((id, r) => [id, r])), dim, data };
  const scan = scanSimilar(m, query, k);
  let kept = 0;
  // In JavaScript, and with the codes' sums made by WebAssembly SIMD (the query as integers), the codes held in its
  // memory or passed through it a chunk at a time (a process's first query).
  for (const simd of [false, 'held', 'by chunk'] as const) {
    const { rows, best } = quantizedScan(data, ids, dim, query, k, per, simd);
    expect(best.map((b) => b.key)).toEqual(scan.top);
    for (const b of best) expect(Object.is(b.value, scan.of(b.key))).toBe(true);
    kept = Math.max(kept, rows.length);
  }
  return kept;
}

describe('quantized first pass', () => {
  it('gives the float32 scan’s top k and similarities on random unit vectors, every k', () => {
    const rng = generator(3);
    const dim = 24;
    const n = 300;
    const data = new Float32Array(n * dim);
    for (let r = 0; r < n; r += 1) data.set(unit(Float32Array.from({ length: dim }, () => rng() * 2 - 1)), r * dim);
    const ids = Array.from({ length: n }, (_, r) => `id-${(r * 7919) % n}`);
    for (let t = 0; t < 20; t += 1) {
      const query = unit(Float32Array.from({ length: dim }, () => rng() * 2 - 1));
      for (const k of [0, 1, 5, 50, 299, 300, 301, 2.5]) same(data, ids, dim, query, k);
    }
  });

  it('keeps a small share of the rows when the scores spread (the reason it is faster)', () => {
    const rng = generator(5);
    const dim = 64;
    const n = 2000;
    const data = new Float32Array(n * dim);
    for (let r = 0; r < n; r += 1) data.set(unit(Float32Array.from({ length: dim }, () => rng() * 2 - 1)), r * dim);
    const ids = Array.from({ length: n }, (_, r) => `r${r}`);
    const query = unit(Float32Array.from({ length: dim }, () => rng() * 2 - 1));
    expect(same(data, ids, dim, query, 10, 1024)).toBeLessThan(n / 4);
  });

  it('settles ties, near-ties, duplicates and zero vectors as the float32 scan does', () => {
    const rng = generator(11);
    const dim = 8;
    const base = unit(Float32Array.from({ length: dim }, () => rng() * 2 - 1));
    const rows: Float32Array[] = [];
    for (let i = 0; i < 40; i += 1) {
      const v = Float32Array.from(base);
      // Duplicates, vectors one float32 step apart, and rows of zeros.
      if (i % 4 === 1) v[i % dim] = Math.fround((v[i % dim] as number) * (1 + 2 ** -23));
      if (i % 4 === 2) v.fill(0);
      if (i % 4 === 3) v[0] = -(v[0] as number);
      rows.push(v);
    }
    const data = new Float32Array(rows.length * dim);
    rows.forEach((v, r) => data.set(v, r * dim));
    const ids = rows.map((_, r) => `k${(r * 17) % 40}`);
    for (const query of [base, Float32Array.from(base, (x) => -x), new Float32Array(dim), base.subarray(0, 5)])
      for (const k of [1, 3, 10, 39, 40, 45]) same(data, ids, dim, query, k, 4);
  });

  it('sums int8 rows with an int16 query exactly with WebAssembly SIMD, any dimension', () => {
    for (const dim of [1, 7, 16, 33, 100]) {
      const rows = 37;
      const codes = Int8Array.from({ length: rows * dim }, (_, i) => ((i * 7919) % 255) - 127);
      const parts = [codes.subarray(0, 10 * dim), codes.subarray(10 * dim)];
      // A chunk at a time: chunks of other sizes (a larger one after a smaller, an empty one), the memory reused.
      const uneven = [codes.subarray(0, 3 * dim), codes.subarray(3 * dim, 3 * dim), codes.subarray(3 * dim)];
      for (const dots of [int8Dots(parts, dim), int8DotsByChunk(parts, dim), int8DotsByChunk(uneven, dim)]) {
        if (dots === undefined) throw new Error('no WebAssembly SIMD');
        const limit = dots.limit;
        for (const sign of [1, -1]) {
          const q = Int16Array.from({ length: dim }, (_, i) =>
            Math.max(-limit, Math.min(limit, sign * (((i * 104729) % 65535) - 32767))),
          );
          const want = Array.from({ length: rows }, (_, r) =>
            Array.from(q).reduce((sum, v, d) => sum + (codes[r * dim + d] as number) * v, 0),
          );
          expect(Array.from(dots.dots(q))).toEqual(want);
        }
      }
    }
  });

  it('holds no rows when it passes them a chunk at a time: a write is refused', () => {
    const dots = int8DotsByChunk([new Int8Array(16)], 16);
    if (dots === undefined) throw new Error('no WebAssembly SIMD');
    expect(dots.write(1, new Int8Array(16), 2)).toBe(false);
    expect(Array.from(dots.dots(new Int16Array(16).fill(1)))).toEqual([0]);
  });

  it('tells the floats a row was made from by their checksum', () => {
    const v = Float32Array.from([0.5, -0.25, 0.125]);
    const w = Float32Array.from(v);
    w[1] = Math.fround(-0.25 * (1 + 2 ** -23));
    expect(rowChecksum(v, 0, 3)).toEqual(rowChecksum(Float32Array.from(v), 0, 3));
    expect(rowChecksum(w, 0, 3)).not.toEqual(rowChecksum(v, 0, 3));
  });

  it('marks a row with a value that is not finite as unbounded', () => {
    const data = Float32Array.from([1, 0, Number.NaN, 0]);
    expect(allBounded([viewQuantized(quantizeRows(data, ['a', 'b'], 2).codes, 2, 2)])).toBe(false);
    // In any chunk, for an infinite value too; finite values (zeros included) are bounded.
    const finite = viewQuantized(quantizeRows(Float32Array.from([0, 0, 1, -2]), ['c', 'd'], 2).codes, 2, 2);
    const infinite = viewQuantized(
      quantizeRows(Float32Array.from([Number.POSITIVE_INFINITY, 1]), ['e'], 2).codes,
      1,
      2,
    );
    expect(allBounded([finite])).toBe(true);
    expect(allBounded([finite, infinite])).toBe(false);
  });
});
