/**
 * @module core/experience/bm25-kernel
 * The intent index's scoring of a term's postings (intent-index.ts `search`) in WebAssembly (issue 20): a one-query
 * process (a CLI `dag` searches the intent and its parts over 100k runs, ~80k postings) runs that loop before V8
 * optimises it, and each posting boxed the four doubles it computed (~5 MB of garbage a DAG). The module does what
 * the loop does, operation by operation in the same order (IEEE doubles, nothing fused): the same scores to the
 * bit, the texts touched listed in the same order. Where WebAssembly is missing, {@link bm25Kernel} is undefined.
 */
import {
  ADD,
  BLOCK,
  compileWasm,
  CONVERT_S,
  END,
  F64_ADD,
  F64_DIV,
  F64_LOAD,
  F64_MUL,
  F64_STORE,
  GE_S,
  GET,
  I32,
  I32_LOAD,
  I32_STORE,
  IF,
  instantiateWasm,
  leb,
  LOOP,
  name,
  NE,
  section,
  SET,
  SHL,
  TEE,
  WASM_HEADER,
  WASM_PAGE,
  type WasmMemory,
  F64_ZERO,
} from '../wasm.js';

// Memory: the k1 norms (f64, one a slot), the scores (f64, one a slot, zero between searches), the texts touched
// (i32), then a term's postings (i32: doc, tf, doc, tf, …).

const F64_EQ = 0x61;

/**
 * `add(n, postings, skip, idf, k1p1, norms, scores, touched, count)`: for each posting (doc, tf) of the n numbers at
 * `postings`, a doc other than `skip` whose score is 0 is listed at touched[count++], and its score becomes
 * score + (idf · tf · k1p1) / (tf + norms[doc]). Returns the count.
 * Locals: 9 at, 10 doc (i32); 11 tf, 12 s (f64); 13 addr (i32).
 */
const ADD_TERM = [
  ...[3, 2, 0x7f, 2, 0x7c, 1, 0x7f],
  ...BLOCK,
  ...LOOP,
  ...[GET, 9, GET, 0, GE_S, 0x0d, 1],
  ...[GET, 1, GET, 9, I32, 2, SHL, ADD, TEE, 13, I32_LOAD, 2, 0, TEE, 10, GET, 2, NE, ...IF],
  ...[GET, 13, I32_LOAD, 2, 4, CONVERT_S, SET, 11],
  ...[GET, 6, GET, 10, I32, 3, SHL, ADD, TEE, 13, F64_LOAD, 3, 0, TEE, 12, ...F64_ZERO, F64_EQ, ...IF],
  ...[GET, 7, GET, 8, I32, 2, SHL, ADD, GET, 10, I32_STORE, 2, 0, GET, 8, I32, 1, ADD, SET, 8],
  END,
  ...[GET, 13, GET, 12, GET, 3, GET, 11, F64_MUL, GET, 4, F64_MUL],
  ...[GET, 11, GET, 5, GET, 10, I32, 3, SHL, ADD, F64_LOAD, 3, 0, F64_ADD, F64_DIV, F64_ADD, F64_STORE, 3, 0],
  END,
  ...[GET, 9, I32, 2, ADD, SET, 9, 0x0c, 0, END, END],
  ...[GET, 8, END],
];

const MODULE = new Uint8Array([
  ...WASM_HEADER,
  ...section(1, [1, 0x60, 9, 0x7f, 0x7f, 0x7f, 0x7c, 0x7c, 0x7f, 0x7f, 0x7f, 0x7f, 1, 0x7f]),
  ...section(3, [1, 0]),
  ...section(5, [1, 0x00, 1]),
  ...section(7, [2, ...name('add'), 0x00, 0, ...name('mem'), 0x02, 0]),
  ...section(10, [1, ...leb(ADD_TERM.length), ...ADD_TERM]),
]);

/** One search's scoring: terms added one after another, then the texts touched and their scores. */
export interface Bm25Scoring {
  /** Scores a term's postings (doc, tf, …): `skip` (-1: none) left out. */
  add(postings: ArrayLike<number>, skip: number, idf: number, k1p1: number): void;
  /** The texts touched, in the order first scored. */
  readonly touched: Int32Array;
  /** Each slot's score (read, then set back to 0 for every text touched: the next search starts from zeros). */
  readonly scores: Float64Array;
  /** Says every touched text's score is 0 again (else the next search sets every score to 0 first). */
  done(): void;
}

/** Scores searches in WebAssembly: `begin` with the slots' k1 norms and the postings the search will add. */
export interface Bm25Kernel {
  begin(norms: Float64Array, postings: readonly ArrayLike<number>[]): Bm25Scoring;
}

let compiled: object | null | undefined;
let kernel: Bm25Kernel | undefined;

/** The scoring in WebAssembly, or undefined where it is missing. One instance a process, its memory grown. */
export function bm25Kernel(): Bm25Kernel | undefined {
  if (kernel !== undefined) return kernel;
  compiled ??= compileWasm(MODULE);
  if (compiled === null) return undefined;
  const exports = instantiateWasm(compiled);
  const memory = exports.mem as WasmMemory;
  const add = exports.add as (...args: number[]) => number;
  /** The slots the layout is for, the norms copied in, and whether the scores may not all be 0. */
  let slots = -1;
  let normsIn: Float64Array | undefined;
  let dirty = false;
  kernel = {
    begin(norms, postings) {
      const n = norms.length;
      let most = 0;
      let all = 0;
      for (const p of postings) {
        most = Math.max(most, p.length);
        all += p.length;
      }
      const scoresAt = n * 8;
      const touchedAt = scoresAt + n * 8;
      // A posting lists at most one text: the touched can be no more than half the numbers added.
      const postingsAt = touchedAt + Math.ceil((all / 2 + 1) / 2) * 8;
      const pages = Math.ceil((postingsAt + most * 4) / WASM_PAGE);
      const have = memory.buffer.byteLength / WASM_PAGE;
      if (pages > have) memory.grow(pages - have);
      const { buffer } = memory;
      const scores = new Float64Array(buffer, scoresAt, n);
      if (slots !== n || dirty) {
        scores.fill(0);
        normsIn = undefined;
        slots = n;
      }
      if (normsIn !== norms) {
        new Float64Array(buffer, 0, n).set(norms);
        normsIn = norms;
      }
      dirty = true;
      let count = 0;
      const scoring: Bm25Scoring = {
        add(list, skip, idf, k1p1) {
          new Int32Array(buffer, postingsAt, list.length).set(list);
          count = add(list.length, postingsAt, skip, idf, k1p1, 0, scoresAt, touchedAt, count);
        },
        get touched() {
          return new Int32Array(buffer, touchedAt, count);
        },
        scores,
        done() {
          dirty = false;
        },
      };
      return scoring;
    },
  };
  return kernel;
}
