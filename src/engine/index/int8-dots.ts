/**
 * @module engine/index/int8-dots
 * Integer dot products of int8 rows with an int16 query, sixteen values an instruction (WebAssembly SIMD:
 * `i16x8.extend_*_i8x16_s` then `i32x4.dot_i16x8_s`), for the int8 first pass (quantized.ts). The module is a few
 * dozen bytes written out below, instruction by instruction (no toolchain); where WebAssembly SIMD is missing,
 * `int8Dots` returns undefined and the first pass runs in JavaScript. Exact integer arithmetic: the caller keeps
 * dim × 127 × max|query| below 2³¹.
 */

import {
  compileWasm,
  instantiateWasm,
  leb,
  name,
  section,
  WASM_HEADER,
  type WasmMemory,
  ADD,
  GET,
  I32,
  SET,
} from '../../core/wasm.js';

// Opcodes (WebAssembly core and SIMD): locals 0-5 are the parameters codes, rows, stride, query, vectors, out;
// 6 row, 7 row pointer, 8 vector, 9 query pointer (i32); 10 sum, 11 codes (v128).
const SIMD = 0xfd;
const LOAD = [SIMD, 0x00];
const EXTEND_LOW = [SIMD, 0x87, 0x01];
const EXTEND_HIGH = [SIMD, 0x88, 0x01];
const DOT = [SIMD, 0xba, 0x01];
const ADD_I32X4 = [SIMD, 0xae, 0x01];
const LANE = [SIMD, 0x1b];

/** `dots(codes, rows, stride, query, vectors, out)`: out[r] = Σ over `vectors` × 16 values of codes[r]·query. */
const BODY = [
  ...[I32, 0, SET, 6],
  ...[0x02, 0x40, 0x03, 0x40], // block, loop: the rows
  ...[GET, 6, GET, 1, 0x4f, 0x0d, 1], // row ≥ rows: out
  ...[SIMD, 0x0c, ...new Array<number>(16).fill(0), SET, 10], // sum = 0
  ...[GET, 0, GET, 6, GET, 2, 0x6c, ADD, SET, 7], // row pointer = codes + row × stride
  ...[I32, 0, SET, 8, GET, 3, SET, 9],
  ...[0x02, 0x40, 0x03, 0x40], // block, loop: the vectors of 16 values
  ...[GET, 8, GET, 4, 0x4f, 0x0d, 1],
  ...[GET, 7, ...LOAD, 0, 0, SET, 11],
  ...[GET, 10, GET, 11, ...EXTEND_LOW, GET, 9, ...LOAD, 0, 0, ...DOT, ...ADD_I32X4],
  ...[GET, 11, ...EXTEND_HIGH, GET, 9, ...LOAD, 0, 16, ...DOT, ...ADD_I32X4, SET, 10],
  ...[GET, 7, I32, 16, ADD, SET, 7, GET, 9, I32, 32, ADD, SET, 9, GET, 8, I32, 1, ADD, SET, 8],
  ...[0x0c, 0, 0x0b, 0x0b], // br loop; end loop, block
  ...[GET, 5, GET, 6, I32, 2, 0x74, ADD], // &out[row]
  ...[GET, 10, ...LANE, 0, GET, 10, ...LANE, 1, ADD, GET, 10, ...LANE, 2, ADD, GET, 10, ...LANE, 3, ADD],
  ...[0x36, 2, 0], // i32.store
  ...[GET, 6, I32, 1, ADD, SET, 6],
  ...[0x0c, 0, 0x0b, 0x0b], // br loop; end loop, block
  0x0b,
];
const LOCALS = [2, 4, 0x7f, 2, 0x7b];

const MODULE = new Uint8Array([
  ...WASM_HEADER,
  ...section(1, [1, 0x60, 6, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0]),
  ...section(3, [1, 0]),
  ...section(5, [1, 0x00, 1]),
  ...section(7, [2, ...name('dots'), 0x00, 0, ...name('mem'), 0x02, 0]),
  ...section(10, [1, ...leb(LOCALS.length + BODY.length), ...LOCALS, ...BODY]),
]);

let compiled: object | null | undefined;

function module(): object | null {
  compiled ??= compileWasm(MODULE);
  return compiled;
}

/** Rows of int8 codes held in WebAssembly memory, and the integer dot products of all of them with a query. */
export interface Int8Dots {
  /** The largest query value that keeps every sum exact in 32 bits. */
  readonly limit: number;
  /** Σ codes[r][d] × query[d] for every row (`query` as integers, at most `limit` in magnitude). */
  dots(query: Int16Array): Int32Array;
  /** Puts the codes of rows from `row` on, and makes `rows` the count of rows; false past the room made. */
  write(row: number, codes: Int8Array, rows: number): boolean;
}

/**
 * The dot products of the rows of `chunks` as {@link int8Dots} gives them, one chunk at a time through WebAssembly
 * memory the size of the largest: for a process that answers one query, which would otherwise copy every code into
 * fresh memory (a page fault every 4 KiB) to read it once. It holds no rows: `write` is always false.
 */
export function int8DotsByChunk(chunks: readonly Int8Array[], dim: number): Int8Dots | undefined {
  const mod = module();
  if (mod === null || dim === 0) return undefined;
  const vectors = Math.ceil(dim / 16);
  const most = chunks.reduce((n, c) => Math.max(n, c.length / dim), 0);
  const rows = chunks.reduce((n, c) => n + c.length / dim, 0);
  const codesBytes = most * dim + 16;
  const queryAt = Math.ceil(codesBytes / 16) * 16;
  const outAt = queryAt + vectors * 32;
  const exports = instantiateWasm(mod);
  const memory = exports.mem as WasmMemory;
  const pages = Math.ceil((outAt + most * 4) / 65536);
  if (pages > 1) memory.grow(pages - 1);
  const codes = new Int8Array(memory.buffer, 0, most * dim);
  const run = exports.dots as (...args: number[]) => void;
  const query = new Int16Array(memory.buffer, queryAt, vectors * 16);
  const out = new Int32Array(memory.buffer, outAt, most);
  const all = new Int32Array(rows);
  return {
    limit: Math.min(32767, Math.floor((2 ** 31 - 1) / (127 * vectors * 16))),
    dots(q: Int16Array): Int32Array {
      query.fill(0);
      query.set(q.subarray(0, Math.min(q.length, dim)));
      let row = 0;
      for (const c of chunks) {
        const n = c.length / dim;
        codes.set(c);
        run(0, n, dim, queryAt, vectors, outAt);
        all.set(out.subarray(0, n), row);
        row += n;
      }
      return all;
    },
    write: () => false,
  };
}

/**
 * The rows of `chunks` (each `rows × dim` int8 codes, row-major) copied into WebAssembly memory with room for
 * `room` rows, or undefined where WebAssembly SIMD is not available.
 */
export function int8Dots(chunks: readonly Int8Array[], dim: number, room = 0): Int8Dots | undefined {
  const mod = module();
  if (mod === null || dim === 0) return undefined;
  const vectors = Math.ceil(dim / 16);
  let rows = chunks.reduce((n, c) => n + c.length / dim, 0);
  const capacity = Math.max(rows, room);
  // Codes, then 16 bytes a last row's last vector may read past its end, the query (int16, zeros after `dim`),
  // the sums.
  const codesBytes = capacity * dim + 16;
  const queryAt = Math.ceil(codesBytes / 16) * 16;
  const outAt = queryAt + vectors * 32;
  const bytes = outAt + capacity * 4;
  const exports = instantiateWasm(mod);
  const memory = exports.mem as WasmMemory;
  const pages = Math.ceil(bytes / 65536);
  if (pages > 1) memory.grow(pages - 1);
  const codes = new Int8Array(memory.buffer, 0, capacity * dim);
  let at = 0;
  for (const c of chunks) {
    codes.set(c, at);
    at += c.length;
  }
  const run = exports.dots as (...args: number[]) => void;
  const query = new Int16Array(memory.buffer, queryAt, vectors * 16);
  const out = new Int32Array(memory.buffer, outAt, capacity);
  return {
    limit: Math.min(32767, Math.floor((2 ** 31 - 1) / (127 * vectors * 16))),
    dots(q: Int16Array): Int32Array {
      query.fill(0);
      query.set(q.subarray(0, Math.min(q.length, dim)));
      run(0, rows, dim, queryAt, vectors, outAt);
      return out.subarray(0, rows);
    },
    write(row: number, values: Int8Array, count: number): boolean {
      if (count > capacity || row * dim + values.length > codes.length) return false;
      codes.set(values, row * dim);
      rows = count;
      return true;
    },
  };
}
