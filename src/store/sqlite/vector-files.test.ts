import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { VectorChunk } from '../types.js';
import { sqliteConnection } from './connection.js';
import { openSqliteStore } from './sqlite-store.js';
import { vectorFilePath } from './vector-files.js';

const dir = mkdtempSync(join(tmpdir(), 'credence-vector-files-'));
let n = 0;
const nextPath = (): string => join(dir, `store-${++n}.db`);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const header = { modelKey: 'k:2', generation: 'g1', revision: 3, dim: 2, rows: 3, chunks: 2 };
const chunk = (c: number, ids: string[], codes: number[], keys: string): VectorChunk => ({
  chunk: c,
  ids,
  hashes: ids.map((id) => `h-${id}`),
  data: new Float32Array(ids.length * 2),
  codes: new Uint8Array(codes),
  codeKeys: keys,
});
const light = { floats: false, keyBytes: true } as const;
const utf8 = new TextDecoder();
/** What a read without floats gives: each chunk's number, int8 copy and keys. */
const shown = (read: { chunks: VectorChunk[] } | undefined) =>
  read?.chunks.map((c) => [c.chunk, [...(c.codes ?? [])], utf8.decode(c.codeKeyBytes ?? new Uint8Array(0))]);

async function stored(path: string) {
  const store = openSqliteStore({ path });
  const chunks = [chunk(0, ['a', 'b'], [1, 2, 3, 4, 5, 6, 7, 8], 'ab'), chunk(1, ['c'], [9, 10, 11, 12], 'c')];
  expect(await store.writeVectorChunks('p', 'memory', { expect: null, header, chunks })).toBe(true);
  return store;
}

describe('int8 copies kept in a file beside the database', () => {
  it('are written by a first read; the next process reads the file while the matrix is unchanged', async () => {
    const path = nextPath();
    const store = await stored(path);
    const file = vectorFilePath(path, 'p', 'memory') as string;
    expect(existsSync(file)).toBe(false);
    const first = await store.readVectorIndex('p', 'memory', light);
    expect(shown(first)).toEqual([
      [0, [1, 2, 3, 4, 5, 6, 7, 8], 'ab'],
      [1, [9, 10, 11, 12], 'c'],
    ]);
    expect(existsSync(file)).toBe(true);
    // Readable by the owner only, as the database is.
    if (process.platform !== 'win32') {
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(statSync(dirname(file)).mode & 0o777).toBe(0o700);
    }
    // The copies changed behind the store's back (no write through it): the file, which matches the header and the
    // count of writes, is what the next reader takes.
    sqliteConnection(store)
      .prepare("UPDATE vector_chunks SET data = X'00000000' WHERE scope = 'p' AND name = 'memory#q8' AND chunk = 1")
      .run();
    await store.close();
    const next = openSqliteStore({ path });
    const again = await next.readVectorIndex('p', 'memory', light);
    expect(again?.header).toEqual(header);
    expect(shown(again)).toEqual(shown(first));
    // Each copy lies where its floats can be viewed (a multiple of 4 bytes into its buffer).
    expect(again?.chunks.every((c) => (c.codes?.byteOffset ?? 1) % 4 === 0)).toBe(true);
    await next.close();
  });

  it('are read from the database again after a write, even one at the same revision and generation', async () => {
    const path = nextPath();
    const store = await stored(path);
    await store.readVectorIndex('p', 'memory', light);
    const at = { revision: header.revision, generation: header.generation };
    const rewritten = chunk(1, ['d'], [20, 21, 22, 23], 'd');
    expect(await store.writeVectorChunks('p', 'memory', { expect: at, header, chunks: [rewritten] })).toBe(true);
    const after = await store.readVectorIndex('p', 'memory', light);
    expect(shown(after)).toEqual([
      [0, [1, 2, 3, 4, 5, 6, 7, 8], 'ab'],
      [1, [20, 21, 22, 23], 'd'],
    ]);
    // And the file now copies that state: a new process reads the same.
    await store.close();
    const next = openSqliteStore({ path });
    expect(shown(await next.readVectorIndex('p', 'memory', light))).toEqual(shown(after));
    await next.close();
  });

  it('ignores a damaged or foreign file, and a read-only store writes none', async () => {
    const path = nextPath();
    const store = await stored(path);
    const want = shown(await store.readVectorIndex('p', 'memory', light));
    const file = vectorFilePath(path, 'p', 'memory') as string;
    const whole = readFileSync(file);
    for (const bad of [whole.subarray(0, whole.byteLength - 3), Buffer.from('not a copy'), Buffer.alloc(0)]) {
      writeFileSync(file, bad);
      expect(shown(await store.readVectorIndex('p', 'memory', light))).toEqual(want);
      // Written again whole by that read.
      expect(readFileSync(file).equals(whole)).toBe(true);
    }
    rmSync(file);
    await store.close();
    const readonly = openSqliteStore({ path, readonly: true });
    expect(shown(await readonly.readVectorIndex('p', 'memory', light))).toEqual(want);
    expect(existsSync(file)).toBe(false);
    await readonly.close();
  });

  it('are read from a store written before writes were counted, and go with the matrix', async () => {
    const path = nextPath();
    const store = await stored(path);
    // As an older Credence left it: the header and chunks, no count row.
    sqliteConnection(store).prepare("DELETE FROM vector_index WHERE scope = 'p' AND name = 'memory#q8'").run();
    const want = [
      [0, [1, 2, 3, 4, 5, 6, 7, 8], 'ab'],
      [1, [9, 10, 11, 12], 'c'],
    ];
    expect(shown(await store.readVectorIndex('p', 'memory', light))).toEqual(want);
    expect(shown(await store.readVectorIndex('p', 'memory', light))).toEqual(want);
    const file = vectorFilePath(path, 'p', 'memory') as string;
    expect(existsSync(file)).toBe(true);
    await store.deleteVectorIndex('p', 'memory');
    expect(existsSync(file)).toBe(false);
    expect(await store.readVectorIndex('p', 'memory', light)).toBeUndefined();
    await store.close();
  });

  it('keeps no file for a store in memory', async () => {
    const store = openSqliteStore({ path: ':memory:' });
    const chunks = [chunk(0, ['a', 'b'], [1, 2, 3, 4, 5, 6, 7, 8], 'ab')];
    await store.writeVectorChunks('p', 'memory', { expect: null, header: { ...header, rows: 2, chunks: 1 }, chunks });
    expect(shown(await store.readVectorIndex('p', 'memory', light))).toEqual([[0, [1, 2, 3, 4, 5, 6, 7, 8], 'ab']]);
    expect(existsSync(vectorFilePath(':memory:', 'p', 'memory') as string)).toBe(false);
    await store.close();
  });
});
