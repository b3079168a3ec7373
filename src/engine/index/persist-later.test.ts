import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openCredence, type Credence } from '../engine.js';
import { openSqliteStore } from '../../store/sqlite/sqlite-store.js';
import type { Store } from '../../store/types.js';
import { quantizeRows } from './quantized.js';
import { ScopeIndexes } from './scope-indexes.js';

// Issue 20: a write's vector chunks are written back after the answer (the next turn of the event loop), not
// before it; a closing engine writes what is left, and a new process reads the matrix at the store's revision.

const NOW = '2026-03-03T10:00:00Z';
const SCOPE = 'later';
const dir = mkdtempSync(join(tmpdir(), 'credence-persist-later-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const TOPICS = ['redis cache eviction', 'kubernetes cluster deploy', 'invoice billing email', 'json parse token'];

const note = (i: number) => ({
  id: `note-${i}`,
  category: 'note' as const,
  title: `${TOPICS[i % TOPICS.length]} ${i}`,
  text: `${TOPICS[(i * 3 + 1) % TOPICS.length]} note ${i}`,
});

/** A memory close to the question asked. */
const hit = (i: number) => ({
  id: `hit-${i}`,
  category: 'note' as const,
  title: `kubernetes cache ${i}`,
  text: 'kubernetes cache',
});

const ask = (credence: Credence) => credence.recall('kubernetes cache', { track: false, limit: 5, bm25Weight: 0 });

/** The persisted memory matrix's revision and keys, as another process reads them. */
async function persisted(store: Store): Promise<{ revision: number; keys: string[] }> {
  const read = await store.readVectorIndex(SCOPE, 'recall:memory');
  return { revision: read?.header.revision ?? -1, keys: (read?.chunks ?? []).flatMap((c) => c.ids).sort() };
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('vector chunks written back after the answer', () => {
  it('a query right after a write answers first; the chunk is written on the next turn, or at close', async () => {
    const path = join(dir, 'store.db');
    const store = openSqliteStore({ path });
    const credence = await openCredence({ store, scope: SCOPE, now: NOW });
    await credence.remember(Array.from({ length: 6 }, (_, i) => note(i)));
    await ask(credence);
    await ask(credence);
    await turn();
    const before = await persisted(store);
    expect(before.revision).toBe(await store.revision(SCOPE));

    await credence.remember([hit(6)]);
    const answer = await ask(credence);
    expect(answer.map((r) => r.id)).toContain('hit-6');
    // Answered with the new row; the store still holds the matrix as it was.
    expect(await persisted(store)).toEqual(before);
    await turn();
    const after = await persisted(store);
    expect(after.revision).toBe(await store.revision(SCOPE));
    expect(after.keys).toEqual([...before.keys, 'memory:hit-6'].sort());

    // Two writes and queries in the same turn, then close: both rows written, once each.
    await credence.remember([hit(7)]);
    await ask(credence);
    await credence.remember([hit(8)]);
    const last = await ask(credence);
    const revision = await store.revision(SCOPE);
    await credence.close();

    const again = openSqliteStore({ path });
    try {
      const read = await persisted(again);
      expect(read.revision).toBe(revision);
      expect(read.keys).toEqual([...after.keys, 'memory:hit-7', 'memory:hit-8'].sort());
      // A new process reads that matrix, current, and answers as the engine did before it closed.
      const fresh = await openCredence({ store: again, scope: SCOPE, now: NOW });
      expect(await ask(fresh)).toEqual(last);
    } finally {
      await again.close();
    }
  });
});

describe('int8 copies after writes', () => {
  it('equal those made anew from the rows written back, after rows are added, changed, moved and removed', async () => {
    const store = openSqliteStore({ path: ':memory:' });
    try {
      const credence = await openCredence({ store, scope: SCOPE, now: NOW });
      const indexes = new ScopeIndexes({ store, scope: SCOPE, embedder: credence.embedder, chunkRows: 4 });
      const at = Date.parse(NOW);
      const memory = (i: number, version: number) => ({
        ...note(i + version),
        id: `m-${i}`,
        tags: [],
        createdAt: at,
        updatedAt: at,
      });
      await store.upsertMemories(
        SCOPE,
        Array.from({ length: 10 }, (_, i) => memory(i, 0)),
      );
      let s = 7;
      const next = () => {
        s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
        return s % 10;
      };
      for (let step = 0; step < 40; step += 1) {
        await indexes.refresh([indexes.memory]);
        const i = next();
        if (step % 3 === 0) await store.deleteMemory(SCOPE, `m-${i}`);
        else await store.upsertMemories(SCOPE, [memory(i, step)]);
      }
      await indexes.refresh([indexes.memory]);
      await indexes.flush();
      const rows = await store.readVectorIndex(SCOPE, 'recall:memory');
      const codes = await store.readVectorIndex(SCOPE, 'recall:memory', { floats: false });
      const dim = rows?.header.dim ?? 0;
      expect(rows?.header.chunks).toBeGreaterThan(1);
      expect(codes?.chunks.map((c) => [c.chunk, c.codeKeys, [...(c.codes ?? [])]])).toEqual(
        rows?.chunks.map((c) => {
          const made = quantizeRows(c.data, c.ids, dim);
          return [c.chunk, made.keys, [...made.codes]];
        }),
      );
    } finally {
      await store.close();
    }
  });
});
