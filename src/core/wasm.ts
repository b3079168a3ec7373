/**
 * @module core/wasm
 * What the hand-written WebAssembly modules share (issue 20: hot loops of a one-query process, which run before
 * V8 optimises them and box every double they compute): the byte helpers a module is written with, instruction by
 * instruction (no toolchain), and its compilation, null where WebAssembly (or an instruction it uses) is missing.
 * Deterministic: a module computes what the JavaScript it stands for computes, in the same order.
 */

/** Instruction bytes the modules are written with (WebAssembly core spec opcodes; blocks with an empty type). */
export const GET = 0x20;
export const SET = 0x21;
export const TEE = 0x22;
export const I32 = 0x41;
export const ADD = 0x6a;
export const SUB = 0x6b;
export const SHL = 0x74;
export const EQ = 0x46;
export const NE = 0x47;
export const GE_S = 0x4e;
export const I32_LOAD = 0x28;
export const I32_STORE = 0x36;
export const F64_LOAD = 0x2b;
export const F64_STORE = 0x39;
export const F64_ADD = 0xa0;
export const F64_SUB = 0xa1;
export const F64_MUL = 0xa2;
export const F64_DIV = 0xa3;
export const F64_GT = 0x64;
export const CONVERT_S = 0xb7;
export const BLOCK = [0x02, 0x40];
export const LOOP = [0x03, 0x40];
export const IF = [0x04, 0x40];
export const END = 0x0b;
export const BR = 0x0c;
export const BR_IF = 0x0d;

/** LEB128 of an unsigned integer. */
export function leb(n: number): number[] {
  const out: number[] = [];
  let v = n >>> 0;
  do {
    let byte = v & 0x7f;
    v >>>= 7;
    if (v !== 0) byte |= 0x80;
    out.push(byte);
  } while (v !== 0);
  return out;
}

/** `f64.const 0`. */
export const F64_ZERO = [0x44, 0, 0, 0, 0, 0, 0, 0, 0];

/** br to the loop's start; end loop; end block (a loop in a block, its exit a br_if 1). */
export const AGAIN = [BR, 0, END, END];

/** The address of element `i` (a local) of 2^`shift`-byte values from `base` (a local). */
export const at = (base: number, i: number, shift: number): number[] => [GET, base, GET, i, I32, shift, SHL, ADD];

/** `local += 1`. */
export const inc = (local: number): number[] => [GET, local, I32, 1, ADD, SET, local];

/** A section of a module: its id, its length and its body. */
export const section = (id: number, body: number[]): number[] => [id, ...leb(body.length), ...body];

/** A name (an export's) as a module writes it. */
export const name = (s: string): number[] => [...leb(s.length), ...[...s].map((c) => c.charCodeAt(0))];

/** What is used of the WebAssembly API (the project's TypeScript libraries do not declare it). */
export interface Wasm {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
}

/** A module's memory. */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}

/** Bytes a page of WebAssembly memory holds. */
export const WASM_PAGE = 65536;

/** The 8 bytes every module starts with: the magic `\0asm` and version 1. */
export const WASM_HEADER = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];

/**
 * A module's one instance in a process, made when first asked for: a function giving its exports, or undefined
 * where WebAssembly is missing or refuses the module.
 */
export function onceInstance(bytes: Uint8Array): () => Record<string, unknown> | undefined {
  let compiled: object | null | undefined;
  let exports: Record<string, unknown> | undefined;
  return () => {
    compiled ??= compileWasm(bytes);
    if (compiled === null) return undefined;
    exports ??= instantiateWasm(compiled);
    return exports;
  };
}

/** `bytes` compiled, or null where WebAssembly is missing or refuses them. */
export function compileWasm(bytes: Uint8Array): object | null {
  const wasm = (globalThis as { WebAssembly?: Wasm }).WebAssembly;
  try {
    return wasm?.validate(bytes) === true ? new wasm.Module(bytes) : null;
  } catch {
    return null;
  }
}

/** A new instance of a compiled module (no imports): its exports. */
export function instantiateWasm(module: object): Record<string, unknown> {
  return new (globalThis as unknown as { WebAssembly: Wasm }).WebAssembly.Instance(module, {}).exports;
}
