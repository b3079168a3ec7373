/**
 * @module core/wasm
 * What the hand-written WebAssembly modules share (issue 20: hot loops of a one-query process, which run before
 * V8 optimises them and box every double they compute): the byte helpers a module is written with, instruction by
 * instruction (no toolchain), and its compilation, null where WebAssembly (or an instruction it uses) is missing.
 * Deterministic: a module computes what the JavaScript it stands for computes, in the same order.
 */

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
