/**
 * @module engine/index/bound-select
 * The int8 first pass's selection (quantized.ts `candidateRows`, with integer dot products) in WebAssembly (issue
 * 20): a one-query process runs that loop over 100k rows before V8 optimises it, and the unoptimised loop boxed
 * each of the ten or so doubles it computed a row (megabytes of garbage a scan). The module does what the loop does,
 * operation by operation in the same order (IEEE doubles, nothing fused; `f64.min` is `Math.min` on these values),
 * and keeps the k best lower bounds as the loop's sorted array does, so the rows kept are the same. Where
 * WebAssembly is missing, {@link boundSelector} is undefined and the loop runs in JavaScript.
 */
import {
  ADD,
  BLOCK,
  BR,
  BR_IF,
  CONVERT_S,
  END,
  EQ,
  F64_ADD,
  F64_GT,
  F64_LOAD,
  F64_MUL,
  F64_STORE,
  F64_SUB,
  GE_S,
  GET,
  I32,
  I32_LOAD,
  I32_STORE,
  IF,
  leb,
  LOOP,
  name,
  onceInstance,
  section,
  SET,
  SHL,
  SUB,
  TEE,
  WASM_HEADER,
  WASM_PAGE,
  type WasmMemory,
  at,
} from '../../core/wasm.js';

const LE_S = 0x4c;
const F32_LOAD = 0x2a;
const F64_MIN = 0xa4;
const F64_LT = 0x63;
const F64_LE = 0x65;
const F64_GE = 0x66;
const PROMOTE = 0xbb;
const add = (local: number, by: number): number[] => [GET, local, I32, by & 0x7f, ADD, SET, local];

/**
 * `scan(rows, rowBase, k, scales, errors, ints, lows, kept, highs, step, qNorm, half, slack)`: for each row r of a
 * chunk, s = scales[r], approx = s · (step · ints[r]), bound = min(qNorm · errors[r], half · s) + slack · s,
 * high = approx + bound; a row whose high reaches the floor is kept (rowBase + r, and its high) and its low,
 * approx − bound, lifts the k best lows (ascending at `lows`; the floor is the k-th once there are k). The count
 * of lows, of rows kept and the floor carry over from chunk to chunk at bytes 0, 4 and 8.
 * Locals: 13 r, 14 len, 15 count, 16 at (i32); 17 s, 18 approx, 19 bound, 20 high, 21 low, 22 floor (f64).
 */
const SCAN = [
  ...[2, 4, 0x7f, 6, 0x7c],
  ...[I32, 0, I32_LOAD, 2, 0, SET, 14, I32, 0, I32_LOAD, 2, 4, SET, 15, I32, 0, F64_LOAD, 3, 8, SET, 22],
  ...[I32, 0, SET, 13],
  ...BLOCK,
  ...LOOP,
  ...[GET, 13, GET, 0, GE_S, BR_IF, 1],
  ...BLOCK, // a row: br 0 leaves it (next row)
  ...[...at(3, 13, 2), F32_LOAD, 2, 0, PROMOTE, SET, 17],
  ...[GET, 17, GET, 9, ...at(5, 13, 2), I32_LOAD, 2, 0, CONVERT_S, F64_MUL, F64_MUL, SET, 18],
  ...[GET, 10, ...at(4, 13, 2), F32_LOAD, 2, 0, PROMOTE, F64_MUL, GET, 11, GET, 17, F64_MUL, F64_MIN],
  ...[GET, 12, GET, 17, F64_MUL, F64_ADD, SET, 19],
  ...[GET, 18, GET, 19, F64_ADD, TEE, 20, GET, 22, F64_LT, BR_IF, 0],
  ...[...at(7, 15, 2), GET, 1, GET, 13, ADD, I32_STORE, 2, 0],
  ...[...at(8, 15, 3), GET, 20, F64_STORE, 3, 0],
  ...add(15, 1),
  ...[GET, 18, GET, 19, F64_SUB, SET, 21],
  // Full: a low at or below the k-th best changes nothing; else the k-th best goes (the rest move down one).
  ...[GET, 14, GET, 2, EQ, ...IF],
  ...[GET, 21, GET, 6, F64_LOAD, 3, 0, F64_LE, BR_IF, 1],
  ...[I32, 0, SET, 16],
  ...BLOCK,
  ...LOOP,
  ...[GET, 16, I32, 1, ADD, GET, 14, GE_S, BR_IF, 1],
  ...[...at(6, 16, 3), GET, 6, GET, 16, I32, 3, SHL, ADD, F64_LOAD, 3, 8, F64_STORE, 3, 0],
  ...add(16, 1),
  ...[BR, 0, END, END],
  ...[GET, 14, I32, 1, SUB, SET, 14],
  END,
  // The low goes in after every low not above it (those above move up one).
  ...[GET, 14, SET, 16],
  ...BLOCK,
  ...LOOP,
  ...[GET, 16, I32, 0, LE_S, BR_IF, 1],
  ...[GET, 6, GET, 16, I32, 1, SUB, I32, 3, SHL, ADD, F64_LOAD, 3, 0, GET, 21, F64_GT, I32, 0, EQ, BR_IF, 1],
  ...[...at(6, 16, 3), GET, 6, GET, 16, I32, 1, SUB, I32, 3, SHL, ADD, F64_LOAD, 3, 0, F64_STORE, 3, 0],
  ...[GET, 16, I32, 1, SUB, SET, 16],
  ...[BR, 0, END, END],
  ...[...at(6, 16, 3), GET, 21, F64_STORE, 3, 0],
  ...add(14, 1),
  ...[GET, 14, GET, 2, EQ, ...IF, GET, 6, F64_LOAD, 3, 0, SET, 22, END],
  END, // the row
  ...add(13, 1),
  ...[BR, 0, END, END],
  ...[I32, 0, GET, 14, I32_STORE, 2, 0, I32, 0, GET, 15, I32_STORE, 2, 4, I32, 0, GET, 22, F64_STORE, 3, 8],
  END,
];

/**
 * `finish(kept, highs)`: the rows kept whose high reaches the final floor, moved to the front of `kept` in order;
 * returns how many. Locals: 2 i, 3 j, 4 count (i32); 5 floor (f64).
 */
const FINISH = [
  ...[2, 3, 0x7f, 1, 0x7c],
  ...[I32, 0, I32_LOAD, 2, 4, SET, 4, I32, 0, F64_LOAD, 3, 8, SET, 5],
  ...BLOCK,
  ...LOOP,
  ...[GET, 2, GET, 4, GE_S, BR_IF, 1],
  ...[...at(1, 2, 3), F64_LOAD, 3, 0, GET, 5, F64_GE, ...IF],
  ...[...at(0, 3, 2), ...at(0, 2, 2), I32_LOAD, 2, 0, I32_STORE, 2, 0],
  ...add(3, 1),
  END,
  ...add(2, 1),
  ...[BR, 0, END, END],
  ...[GET, 3, END],
];

const MODULE = new Uint8Array([
  ...WASM_HEADER,
  ...section(1, [
    ...[2, 0x60, 13, ...new Array<number>(9).fill(0x7f), ...new Array<number>(4).fill(0x7c), 0],
    ...[0x60, 2, 0x7f, 0x7f, 1, 0x7f],
  ]),
  ...section(3, [2, 0, 1]),
  ...section(5, [1, 0x00, 1]),
  ...section(7, [3, ...name('scan'), 0x00, 0, ...name('finish'), 0x00, 1, ...name('mem'), 0x02, 0]),
  ...section(10, [2, ...leb(SCAN.length), ...SCAN, ...leb(FINISH.length), ...FINISH]),
]);

/** What the selection reads of a chunk. */
export interface BoundRows {
  readonly rows: number;
  readonly scales: Float32Array;
  readonly errors: Float32Array;
}

/** The selection over chunks, given the rows' integer dot products with the query and the bound's terms. */
export interface BoundSelector {
  select(
    chunks: readonly BoundRows[],
    ints: Int32Array,
    k: number,
    terms: { step: number; qNorm: number; half: number; slack: number },
  ): number[];
  /**
   * The same pass, without the final cut: every row kept on the way (a high that reached the floor of its time), its
   * high, and the final floor (the k-th best low; -Infinity while fewer than k). `select` keeps those whose high
   * reaches the floor.
   */
  bounds(
    chunks: readonly BoundRows[],
    ints: Int32Array,
    k: number,
    terms: { step: number; qNorm: number; half: number; slack: number },
  ): { rows: number[]; highs: number[]; floor: number };
}

const instance = onceInstance(MODULE);

/** The selection in WebAssembly, or undefined where it is missing. One instance a process, its memory grown. */
export function boundSelector(): BoundSelector | undefined {
  const exports = instance();
  if (exports === undefined) return undefined;
  const memory = exports.mem as WasmMemory;
  const scan = exports.scan as (...args: number[]) => void;
  const finish = exports.finish as (kept: number, highs: number) => number;
  /** Runs the pass over every chunk; the rows kept start at `keptAt`, their highs at `highsAt`. */
  const pass = (
    chunks: readonly BoundRows[],
    ints: Int32Array,
    k: number,
    { step, qNorm, half, slack }: { step: number; qNorm: number; half: number; slack: number },
  ): { keptAt: number; highsAt: number } => {
    const n = chunks.reduce((sum, c) => sum + c.rows, 0);
    const most = chunks.reduce((m, c) => Math.max(m, c.rows), 0);
    const lowsAt = 16;
    const scalesAt = Math.ceil((lowsAt + k * 8) / 16) * 16;
    const errorsAt = scalesAt + most * 4;
    const intsAt = errorsAt + most * 4;
    const highsAt = Math.ceil((intsAt + most * 4) / 8) * 8;
    const keptAt = highsAt + n * 8;
    const pages = Math.ceil((keptAt + n * 4) / WASM_PAGE);
    const have = memory.buffer.byteLength / WASM_PAGE;
    if (pages > have) memory.grow(pages - have);
    const { buffer } = memory;
    new Int32Array(buffer, 0, 2).fill(0);
    new Float64Array(buffer, 8, 1)[0] = Number.NEGATIVE_INFINITY;
    let row = 0;
    for (const chunk of chunks) {
      new Float32Array(buffer, scalesAt, chunk.rows).set(chunk.scales.subarray(0, chunk.rows));
      new Float32Array(buffer, errorsAt, chunk.rows).set(chunk.errors.subarray(0, chunk.rows));
      new Int32Array(buffer, intsAt, chunk.rows).set(ints.subarray(row, row + chunk.rows));
      scan(chunk.rows, row, k, scalesAt, errorsAt, intsAt, lowsAt, keptAt, highsAt, step, qNorm, half, slack);
      row += chunk.rows;
    }
    return { keptAt, highsAt };
  };
  return {
    select(chunks, ints, k, terms) {
      const { keptAt, highsAt } = pass(chunks, ints, k, terms);
      const count = finish(keptAt, highsAt);
      const kept = new Int32Array(memory.buffer, keptAt, count);
      const out: number[] = new Array(count);
      for (let i = 0; i < count; i += 1) out[i] = kept[i] as number;
      return out;
    },
    bounds(chunks, ints, k, terms) {
      const { keptAt, highsAt } = pass(chunks, ints, k, terms);
      const { buffer } = memory;
      const count = new Int32Array(buffer, 4, 1)[0] as number;
      const floor = new Float64Array(buffer, 8, 1)[0] as number;
      const kept = new Int32Array(buffer, keptAt, count);
      const high = new Float64Array(buffer, highsAt, count);
      const rows: number[] = new Array(count);
      const highs: number[] = new Array(count);
      for (let i = 0; i < count; i += 1) {
        rows[i] = kept[i] as number;
        highs[i] = high[i] as number;
      }
      return { rows, highs, floor };
    },
  };
}
