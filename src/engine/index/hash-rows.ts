/**
 * @module engine/index/hash-rows
 * The rows whose key hash is one of a few, over every chunk of an index at once, in WebAssembly (issue 20): a
 * one-query process looked for each wanted hash in each chunk with the typed array's own `indexOf` (a recall asks
 * for ~150 keys over 300 chunks: ~45M comparisons, ~8 ms). Here the wanted hashes go in a small open-addressing
 * table and the rows' hashes are read once. Where WebAssembly is missing, {@link hashRowFinder} is undefined.
 */
import {
  ADD,
  BLOCK,
  BR,
  BR_IF,
  END,
  EQ,
  GE_S,
  GET,
  I32,
  IF,
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
  I32_LOAD,
  I32_STORE,
} from '../../core/wasm.js';

const AND = 0x71;
const EQZ = 0x45;

/**
 * `find(n, hashes, table, mask, out)`: for each row i < n (ascending), its hash h (uint32 at hashes + 4i) is looked
 * up in the table (entries of 8 bytes: a used flag, a hash; from slot h & mask on to the first unused one); a row
 * whose hash is there is written to out (int32, in order). Returns how many were written.
 * Locals: 5 i, 6 h, 7 slot, 8 count, 9 entry.
 */
const FIND = [
  ...[1, 5, 0x7f],
  ...BLOCK,
  ...LOOP,
  ...[GET, 5, GET, 0, GE_S, BR_IF, 1],
  ...[GET, 1, GET, 5, I32, 2, SHL, ADD, I32_LOAD, 2, 0, TEE, 6, GET, 3, AND, SET, 7],
  ...BLOCK, // the probe: br 2 from the match leaves it
  ...LOOP,
  ...[GET, 2, GET, 7, I32, 3, SHL, ADD, TEE, 9, I32_LOAD, 2, 0, EQZ, BR_IF, 1],
  ...[GET, 9, I32_LOAD, 2, 4, GET, 6, EQ, ...IF],
  ...[GET, 4, GET, 8, I32, 2, SHL, ADD, GET, 5, I32_STORE, 2, 0],
  ...[GET, 8, I32, 1, ADD, SET, 8, BR, 2],
  END,
  ...[GET, 7, I32, 1, ADD, GET, 3, AND, SET, 7, BR, 0],
  ...[END, END],
  ...[GET, 5, I32, 1, ADD, SET, 5, BR, 0],
  ...[END, END],
  ...[GET, 8, END],
];

const MODULE = new Uint8Array([
  ...WASM_HEADER,
  ...section(1, [1, 0x60, 5, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 1, 0x7f]),
  ...section(3, [1, 0]),
  ...section(5, [1, 0x00, 1]),
  ...section(7, [2, ...name('find'), 0x00, 0, ...name('mem'), 0x02, 0]),
  ...section(10, [1, ...leb(FIND.length), ...FIND]),
]);

/** Finds rows by their key hashes. */
export interface HashRowFinder {
  /** The rows (numbered across the chunks, in order) whose hash is one of `wanted`, ascending. */
  find(chunks: readonly Uint32Array[], wanted: readonly number[]): Int32Array;
}

const instance = onceInstance(MODULE);

/** The finder in WebAssembly, or undefined where it is missing. One instance a process, its memory grown. */
export function hashRowFinder(): HashRowFinder | undefined {
  const exports = instance();
  if (exports === undefined) return undefined;
  const memory = exports.mem as WasmMemory;
  const find = exports.find as (n: number, hashes: number, table: number, mask: number, out: number) => number;
  return {
    find(chunks, wanted) {
      const n = chunks.reduce((sum, c) => sum + c.length, 0);
      let size = 2;
      while (size < 2 * wanted.length) size *= 2;
      const tableAt = 0;
      const hashesAt = tableAt + size * 8;
      const outAt = hashesAt + n * 4;
      const pages = Math.ceil((outAt + n * 4) / WASM_PAGE);
      const have = memory.buffer.byteLength / WASM_PAGE;
      if (pages > have) memory.grow(pages - have);
      const { buffer } = memory;
      const table = new Uint32Array(buffer, tableAt, size * 2);
      table.fill(0);
      for (const h of wanted) {
        let slot = (h & (size - 1)) >>> 0;
        while (table[2 * slot] !== 0 && table[2 * slot + 1] !== h) slot = (slot + 1) & (size - 1);
        table[2 * slot] = 1;
        table[2 * slot + 1] = h;
      }
      let at = hashesAt;
      for (const c of chunks) {
        new Uint32Array(buffer, at, c.length).set(c);
        at += c.length * 4;
      }
      const count = find(n, hashesAt, tableAt, size - 1, outAt);
      return new Int32Array(buffer, outAt, count).slice();
    },
  };
}
