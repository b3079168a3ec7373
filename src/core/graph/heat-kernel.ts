/**
 * @module core/graph/heat-kernel
 * The products of heat diffusion (heat-diffusion.ts) in WebAssembly (issue 20): a process that answers one tool
 * search diffuses heat from each tool it shows over the 10k-tool graph before V8 optimises the loop, and the
 * unoptimised loop boxed every double it summed (about 1.4 MB of garbage and a millisecond or more a diffusion).
 * The module computes what the JavaScript loop computes, operation by operation in the same order (IEEE doubles,
 * nothing fused), so the heat is the same to the bit. Where WebAssembly is missing, {@link heatKernel} is
 * undefined and the JavaScript loop runs.
 */
import {
  ADD,
  BLOCK,
  END,
  F64_ADD,
  F64_DIV,
  F64_GT,
  F64_LOAD,
  F64_MUL,
  F64_STORE,
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
  F64_ZERO,
  at,
  inc,
} from '../wasm.js';
import type { GraphIndex } from './graph-index.js';

// Memory: the transition probabilities (f64, one a stored edge), heat and two term vectors (f64, one a node), then
// the CSR offsets and targets (i32) and three lists of rows (i32, one a node).

const LT_S = 0x48;
/** br_if to the block around the loop. */
const EXIT = [0x0d, 1];
/** The address of element `i` (a local) of 2^`shift`-byte values from `base` (a local). */

/**
 * `step(list, count, offsets, targets, probability, term, next, heat, factor)`: for each row v (the `count` rows
 * listed at `list`, or 0 … count − 1 when `list` < 0), sum = Σ probability[e] · term[targets[e]] over its edges in
 * order, next[v] = factor · sum, heat[v] = heat[v] + next[v]. Locals: 9 i, 10 v, 11 e, 12 end, 13 sum, 14 value,
 * 15 an address.
 */
const STEP = [
  ...[3, 4, 0x7f, 2, 0x7c, 1, 0x7f],
  ...[I32, 0, SET, 9],
  ...BLOCK,
  ...LOOP,
  ...[GET, 9, GET, 1, GE_S, ...EXIT],
  ...[GET, 0, I32, 0, LT_S, 0x04, 0x7f, GET, 9, 0x05, ...at(0, 9, 2), I32_LOAD, 2, 0, END, SET, 10],
  ...at(2, 10, 2),
  ...[TEE, 15, I32_LOAD, 2, 0, SET, 11, GET, 15, I32_LOAD, 2, 4, SET, 12],
  ...[...F64_ZERO, SET, 13],
  ...BLOCK,
  ...LOOP,
  ...[GET, 11, GET, 12, GE_S, ...EXIT],
  ...[GET, 13, ...at(4, 11, 3), F64_LOAD, 3, 0],
  ...[GET, 5, ...at(3, 11, 2), I32_LOAD, 2, 0, I32, 3, SHL, ADD, F64_LOAD, 3, 0],
  ...[F64_MUL, F64_ADD, SET, 13],
  ...inc(11),
  ...AGAIN,
  ...[GET, 8, GET, 13, F64_MUL, SET, 14],
  ...[...at(6, 10, 3), GET, 14, F64_STORE, 3, 0],
  ...[...at(7, 10, 3), TEE, 15, GET, 15, F64_LOAD, 3, 0, GET, 14, F64_ADD, F64_STORE, 3, 0],
  ...inc(9),
  ...AGAIN,
  END,
];

/**
 * `normalize(heat, n)`: the largest heat (from 0), every heat divided by it, and the sum of the heat so divided,
 * in index order (returned). Locals: 2 v, 3 an address, 4 max, 5 x, 6 total.
 */
const NORMALIZE = [
  ...[2, 2, 0x7f, 3, 0x7c],
  ...[I32, 0, SET, 2],
  ...BLOCK,
  ...LOOP,
  ...[GET, 2, GET, 1, GE_S, ...EXIT],
  ...[...at(0, 2, 3), F64_LOAD, 3, 0, TEE, 5, GET, 4, F64_GT, 0x04, 0x40, GET, 5, SET, 4, END],
  ...inc(2),
  ...AGAIN,
  ...[I32, 0, SET, 2],
  ...BLOCK,
  ...LOOP,
  ...[GET, 2, GET, 1, GE_S, ...EXIT],
  ...[...at(0, 2, 3), TEE, 3, GET, 3, F64_LOAD, 3, 0, GET, 4, F64_DIV, F64_STORE, 3, 0],
  ...inc(2),
  ...AGAIN,
  ...[I32, 0, SET, 2],
  ...BLOCK,
  ...LOOP,
  ...[GET, 2, GET, 1, GE_S, ...EXIT],
  ...[GET, 6, ...at(0, 2, 3), F64_LOAD, 3, 0, F64_ADD, SET, 6],
  ...inc(2),
  ...AGAIN,
  ...[GET, 6, END],
];

const MODULE = new Uint8Array([
  ...WASM_HEADER,
  ...section(1, [2, 0x60, 9, ...new Array<number>(8).fill(0x7f), 0x7c, 0, 0x60, 2, 0x7f, 0x7f, 1, 0x7c]),
  ...section(3, [2, 0, 1]),
  ...section(5, [1, 0x00, 1]),
  ...section(7, [3, ...name('step'), 0x00, 0, ...name('normalize'), 0x00, 1, ...name('mem'), 0x02, 0]),
  ...section(10, [2, ...leb(STEP.length), ...STEP, ...leb(NORMALIZE.length), ...NORMALIZE]),
]);

/** The views of the kernel's memory for the graph loaded, and the byte offsets the kernel is given. */
export interface HeatKernel {
  readonly heat: Float64Array;
  /** The two term vectors (`term` and `next` take turns). */
  readonly terms: readonly [Float64Array, Float64Array];
  readonly termAt: readonly [number, number];
  /** Three lists of rows (support, stale, rows take turns). */
  readonly lists: readonly [Int32Array, Int32Array, Int32Array];
  readonly listAt: readonly [number, number, number];
  /** One product over the rows listed at `list` (`count` of them), or over rows 0 … count − 1 when `list` < 0. */
  step(list: number, count: number, term: number, next: number, factor: number): void;
  /** Heat divided by its largest value; returns the sum of the heat so divided (in index order). */
  normalize(): number;
}

const instance = onceInstance(MODULE);
/** The one instance of a process, and the graph and probabilities its memory holds. */
let held:
  | { exports: Record<string, unknown>; graph?: GraphIndex; probability?: Float64Array; kernel?: HeatKernel }
  | undefined;

/**
 * The kernel with `graph` loaded (its offsets, targets and `probability`, the transition probability of each stored
 * edge), heat and terms zeroed; undefined where WebAssembly is missing. One instance a process, loaded again only
 * for another graph or other probabilities.
 */
export function heatKernel(graph: GraphIndex, probability: Float64Array): HeatKernel | undefined {
  const exports = instance();
  if (exports === undefined) return undefined;
  held ??= { exports };
  if (held.graph !== graph || held.probability !== probability || held.kernel === undefined) {
    held.kernel = load(held.exports, graph, probability);
    held.graph = graph;
    held.probability = probability;
  }
  const k = held.kernel;
  k.heat.fill(0);
  k.terms[0].fill(0);
  k.terms[1].fill(0);
  return k;
}

function load(exports: Record<string, unknown>, graph: GraphIndex, probability: Float64Array): HeatKernel {
  const n = graph.ids.length;
  const edges = graph.targets.length;
  const heatAt = edges * 8;
  const termAt = [heatAt + n * 8, heatAt + 2 * n * 8] as const;
  const offsetsAt = heatAt + 3 * n * 8;
  const targetsAt = offsetsAt + (n + 1) * 4;
  const listAt = [targetsAt + edges * 4, targetsAt + edges * 4 + n * 4, targetsAt + edges * 4 + 2 * n * 4] as const;
  const bytes = listAt[2] + n * 4;
  const memory = exports.mem as WasmMemory;
  const pages = Math.ceil(bytes / WASM_PAGE);
  const have = memory.buffer.byteLength / WASM_PAGE;
  if (pages > have) memory.grow(pages - have);
  const { buffer } = memory;
  new Float64Array(buffer, 0, edges).set(probability);
  new Int32Array(buffer, offsetsAt, n + 1).set(graph.offsets);
  new Int32Array(buffer, targetsAt, edges).set(graph.targets);
  const run = exports.step as (...args: number[]) => void;
  const normalize = exports.normalize as (heat: number, n: number) => number;
  return {
    heat: new Float64Array(buffer, heatAt, n),
    terms: [new Float64Array(buffer, termAt[0], n), new Float64Array(buffer, termAt[1], n)],
    termAt,
    lists: [
      new Int32Array(buffer, listAt[0], n),
      new Int32Array(buffer, listAt[1], n),
      new Int32Array(buffer, listAt[2], n),
    ],
    listAt,
    step: (list, count, term, next, factor) => run(list, count, offsetsAt, targetsAt, 0, term, next, heatAt, factor),
    normalize: () => normalize(heatAt, n),
  };
}
