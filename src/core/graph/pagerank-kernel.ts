/**
 * @module core/graph/pagerank-kernel
 * PageRank's power iteration (pagerank.ts) in WebAssembly (issue 20): a long-lived engine computes it again after
 * each recorded call that moves the tool graph, a path that runs too seldom for V8 to optimise, so each iteration
 * boxed every double it computed over the 10k tools and their edges (about 10 MB of garbage over 20 writes, and
 * a major collection falling into the next query). The module computes what the JavaScript loop computes,
 * operation by operation in the same order (IEEE doubles, nothing fused), so the scores are the same to the bit.
 * Where WebAssembly is missing, {@link pageRankKernel} is undefined and the loop runs in JavaScript.
 */
import {
  ADD,
  BLOCK,
  CONVERT_S,
  END,
  F64_ADD,
  F64_DIV,
  F64_LOAD,
  F64_MUL,
  F64_STORE,
  F64_SUB,
  GE_S,
  GET,
  I32,
  I32_LOAD,
  leb,
  LOOP,
  name,
  onceInstance,
  section,
  SET,
  SHL,
  TEE,
  WASM_HEADER,
  WASM_PAGE,
  type WasmMemory,
  AGAIN,
  at,
  inc,
} from '../wasm.js';

// Memory: the iteration's sum at 0, then the step of each stored edge, x and next (f64), then the CSR offsets
// and targets and the dangling nodes (i32).

const F64_ABS = 0x99;
/** br_if out of the loop's block, when `i` (a local) reached `n` (a local). */
const until = (i: number, n: number): number[] => [GET, i, GET, n, GE_S, 0x0d, 1];
/** The address of element `i` (a local) of 2^`shift`-byte values from `base` (a local). */
const zero = (local: number): number[] => [I32, 0, SET, local];

/**
 * `iterate(n, offsets, targets, step, x, next, dangling, danglingCount, teleport, d)`: one power iteration from x
 * into next (the dangling nodes' mass, next filled with teleport + d · mass / n, every edge's x[u] · step[e] added
 * to next at its target in row order), then Σ |next[v] − x[v]| (returned) and Σ next[v] (stored at 0), in index
 * order. Locals: 10 u, 11 e, 12 end, 13 k, 14 v, 15 an address (i32); 16 mass, 17 fill, 18 xu, 19 residual,
 * 20 sum, 21 value (f64).
 */
const ITERATE = [
  ...[2, 6, 0x7f, 6, 0x7c],
  ...zero(13),
  ...BLOCK,
  ...LOOP,
  ...until(13, 7),
  ...[GET, 16, GET, 4, ...at(6, 13, 2), I32_LOAD, 2, 0, I32, 3, SHL, ADD, F64_LOAD, 3, 0, F64_ADD, SET, 16],
  ...inc(13),
  ...AGAIN,
  ...[GET, 8, GET, 9, GET, 16, F64_MUL, GET, 0, CONVERT_S, F64_DIV, F64_ADD, SET, 17],
  ...zero(10),
  ...BLOCK,
  ...LOOP,
  ...until(10, 0),
  ...[...at(5, 10, 3), GET, 17, F64_STORE, 3, 0],
  ...inc(10),
  ...AGAIN,
  ...zero(10),
  ...BLOCK,
  ...LOOP,
  ...until(10, 0),
  ...[...at(4, 10, 3), F64_LOAD, 3, 0, SET, 18],
  ...[...at(1, 10, 2), TEE, 15, I32_LOAD, 2, 0, SET, 11, GET, 15, I32_LOAD, 2, 4, SET, 12],
  ...BLOCK,
  ...LOOP,
  ...until(11, 12),
  ...[GET, 5, ...at(2, 11, 2), I32_LOAD, 2, 0, I32, 3, SHL, ADD, TEE, 15],
  ...[GET, 15, F64_LOAD, 3, 0, GET, 18, ...at(3, 11, 3), F64_LOAD, 3, 0, F64_MUL, F64_ADD, F64_STORE, 3, 0],
  ...inc(11),
  ...AGAIN,
  ...inc(10),
  ...AGAIN,
  ...zero(14),
  ...BLOCK,
  ...LOOP,
  ...until(14, 0),
  ...[...at(5, 14, 3), F64_LOAD, 3, 0, SET, 21],
  ...[GET, 19, GET, 21, ...at(4, 14, 3), F64_LOAD, 3, 0, F64_SUB, F64_ABS, F64_ADD, SET, 19],
  ...[GET, 20, GET, 21, F64_ADD, SET, 20],
  ...inc(14),
  ...AGAIN,
  ...[I32, 0, GET, 20, F64_STORE, 3, 0, GET, 19, END],
];

/** `divide(x, n, sum)`: x[v] = x[v] / sum for every v. Locals: 3 v, 4 an address. */
const DIVIDE = [
  ...[1, 2, 0x7f],
  ...zero(3),
  ...BLOCK,
  ...LOOP,
  ...until(3, 1),
  ...[...at(0, 3, 3), TEE, 4, GET, 4, F64_LOAD, 3, 0, GET, 2, F64_DIV, F64_STORE, 3, 0],
  ...inc(3),
  ...AGAIN,
  END,
];

const MODULE = new Uint8Array([
  ...WASM_HEADER,
  ...section(1, [
    ...[2, 0x60, 10, ...new Array<number>(8).fill(0x7f), 0x7c, 0x7c, 1, 0x7c],
    ...[0x60, 3, 0x7f, 0x7f, 0x7c, 0],
  ]),
  ...section(3, [2, 0, 1]),
  ...section(5, [1, 0x00, 1]),
  ...section(7, [3, ...name('iterate'), 0x00, 0, ...name('divide'), 0x00, 1, ...name('mem'), 0x02, 0]),
  ...section(10, [2, ...leb(ITERATE.length), ...ITERATE, ...leb(DIVIDE.length), ...DIVIDE]),
]);

/** The kernel's memory for one PageRank: views to fill, and the iteration over them. */
export interface PageRankKernel {
  /** Each stored edge's step, d · w / outWeight, to fill. */
  readonly step: Float64Array;
  /** The two iterates (x and next take turns): `vectors[0]` holds the start. */
  readonly vectors: readonly [Float64Array, Float64Array];
  /** The dangling nodes, to fill. */
  readonly dangling: Int32Array;
  /** One iteration from `vectors[from]` into the other; returns the L1 change, and the new iterate's sum. */
  iterate(from: 0 | 1, teleport: number, d: number): { residual: number; sum: number };
  /** `vectors[which]` divided by `sum`. */
  divide(which: 0 | 1, sum: number): void;
}

const instance = onceInstance(MODULE);

/**
 * A kernel for `graph`'s PageRank with `danglingCount` dangling nodes (its offsets and targets copied in), or
 * undefined where WebAssembly is missing. One instance a process, its memory grown as graphs need.
 */
export function pageRankKernel(
  graph: { readonly offsets: Int32Array; readonly targets: Int32Array },
  danglingCount: number,
): PageRankKernel | undefined {
  const exports = instance();
  if (exports === undefined) return undefined;
  const n = graph.offsets.length - 1;
  const edges = graph.targets.length;
  const stepAt = 8;
  const xAt = [stepAt + edges * 8, stepAt + edges * 8 + n * 8] as const;
  const offsetsAt = xAt[1] + n * 8;
  const targetsAt = offsetsAt + (n + 1) * 4;
  const danglingAt = targetsAt + edges * 4;
  const memory = exports.mem as WasmMemory;
  const pages = Math.ceil((danglingAt + danglingCount * 4) / WASM_PAGE);
  const have = memory.buffer.byteLength / WASM_PAGE;
  if (pages > have) memory.grow(pages - have);
  const { buffer } = memory;
  new Int32Array(buffer, offsetsAt, n + 1).set(graph.offsets);
  new Int32Array(buffer, targetsAt, edges).set(graph.targets);
  const run = exports.iterate as (...args: number[]) => number;
  const divide = exports.divide as (x: number, n: number, sum: number) => void;
  const sum = new Float64Array(buffer, 0, 1);
  return {
    step: new Float64Array(buffer, stepAt, edges),
    vectors: [new Float64Array(buffer, xAt[0], n), new Float64Array(buffer, xAt[1], n)],
    dangling: new Int32Array(buffer, danglingAt, danglingCount),
    iterate(from, teleport, d) {
      const into = from === 0 ? 1 : 0;
      const args = [n, offsetsAt, targetsAt, stepAt, xAt[from], xAt[into], danglingAt, danglingCount, teleport, d];
      const residual = run(...args);
      return { residual, sum: sum[0] as number };
    },
    divide: (which, by) => divide(xAt[which], n, by),
  };
}
