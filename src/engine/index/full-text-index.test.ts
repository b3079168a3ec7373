import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { freshPgliteStore, startPglite, type PgliteServer } from '../../../test/pglite.js';
import { buildFtsQuery } from '../../core/text/fts-query.js';
import { openCredence } from '../engine.js';
import { openSqliteStore } from '../../store/sqlite/sqlite-store.js';
import type { Store } from '../../store/types.js';
import { FullTextIndex } from './full-text-index.js';

// Issue 20: the engine's full-text postings, kept across any sequence of writes (through the engine, in another
// scope, straight into the store as another process writes), answer every search exactly as the store's FTS5 does
// at that moment: the same rows, the same bm25 to the last bit, the same order.

const NOW = '2026-03-03T10:00:00Z';
const servers: PgliteServer[] = [];
afterAll(async () => {
  for (const server of servers) await server.stop();
});

const WORDS = ['redis', 'cache', 'caching', 'deploy', 'invoice', 'email', 'parse', 'token', 'refresh', 'the'];
const SHAPES = ['refreshToken', 'src/cache.ts', 'deploy-email', 'user_id'];

function generator(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}
const pick = <T>(rng: () => number, items: readonly T[]): T => items[Math.floor(rng() * items.length)] as T;
const words = (rng: () => number, n: number) =>
  Array.from({ length: n }, () => (rng() < 0.15 ? pick(rng, SHAPES) : pick(rng, WORDS))).join(' ');

/** What the postings and the store answer for a query, in both scopes and all three tables. */
async function both(index: FullTextIndex, store: Store, query: string, limit: number) {
  const match = buildFtsQuery(query)?.match;
  if (match === undefined) return { ours: [], theirs: [] };
  const ask = async (s: Pick<Store, 'searchMemories' | 'searchObservations' | 'searchExecutions'>) => {
    const out = [];
    for (const scope of ['ft', 'other']) {
      out.push((await s.searchMemories(scope, match, { limit })).map((h) => [h.memory.id, h.memory.text, h.bm25]));
      out.push((await s.searchObservations(scope, match, { limit })).map((h) => [h.observation.id, h.bm25]));
      out.push((await s.searchExecutions(scope, match, { limit })).map((h) => [h.id, h.bm25]));
    }
    return out;
  };
  return { ours: await ask(index), theirs: await ask(store) };
}

/** `kinds[i]` names the write of step i (0–7, as below). */
async function run(store: Store, seed: number, kinds: readonly number[], sliceRows: number) {
  const rng = generator(seed);
  const credence = await openCredence({ store, scope: 'ft', now: NOW });
  const other = await openCredence({ store, scope: 'other', now: NOW });
  await credence.remember([{ title: 'first', text: words(rng, 5) }]);
  await other.remember([{ title: 'elsewhere', text: words(rng, 5) }]);
  const index = new FullTextIndex(store, { sliceRows });
  await index.warm();
  expect(index.ready).toBe(true);
  const remembered: string[] = [];
  let compared = 0;
  for (const [step, kind] of kinds.entries()) {
    if (kind === 0 || remembered.length === 0) {
      remembered.push(...(await credence.remember([{ title: words(rng, 2), text: words(rng, 6), tags: ['x'] }])).ids);
    } else if (kind === 1) {
      // The same memory, its text changed.
      await credence.remember([{ id: pick(rng, remembered), title: words(rng, 2), text: words(rng, 4) }]);
    } else if (kind === 2) {
      await credence.forget(remembered.splice(Math.floor(rng() * remembered.length), 1)[0] as string);
    } else if (kind === 3) {
      await credence.observe([
        {
          timestamp: '2026-03-01T10:00:00Z',
          type: 'pattern',
          observation: words(rng, 5),
          evidence: [words(rng, 3)],
          confidence: 0.6,
        },
      ]);
    } else if (kind === 4) {
      await credence.recordExecution({
        intent: words(rng, 4),
        startedAt: Date.parse(NOW) - 3_600_000,
        calls: [{ tool: 'tool_a', status: 'success' }],
      });
    } else if (kind === 5) {
      await credence.appendCalls({ id: `session-${step % 2}`, intent: words(rng, 3) }, [
        { tool: 'tool_b', status: 'success' },
      ]);
    } else if (kind === 6) {
      // Another scope: bm25's statistics are the whole table's.
      await other.remember([{ title: words(rng, 2), text: words(rng, 6) }]);
      await other.recordExecution({ intent: words(rng, 3), startedAt: Date.parse(NOW), calls: [] });
    } else {
      // Another process, straight into the store: a memory written, an observation and a memory gone.
      await store.upsertMemories('ft', [
        {
          id: `direct-${step}`,
          category: 'note',
          title: words(rng, 2),
          text: words(rng, 5),
          tags: [],
          createdAt: Date.parse(NOW),
          updatedAt: Date.parse(NOW),
        },
      ]);
      const observations = await store.listObservations('ft');
      if (observations.length > 0) await store.deleteObservation('ft', pick(rng, observations).id);
      const gone = remembered.splice(Math.floor(rng() * remembered.length), 1)[0];
      if (gone !== undefined) await store.deleteMemory('ft', gone);
    }
    for (const query of [words(rng, 2), words(rng, 3)]) {
      const { ours, theirs } = await both(index, store, query, 1 + Math.floor(rng() * 6));
      expect(index.ready).toBe(true);
      expect(ours).toEqual(theirs);
      compared += theirs.flat().length;
    }
  }
  // A new index built on the store as it is now answers the same.
  const fresh = new FullTextIndex(store, { sliceRows });
  await fresh.warm();
  for (const query of ['redis cache', 'refreshToken deploy', 'src/cache.ts invoice']) {
    const a = await both(fresh, store, query, 5);
    expect(a.ours).toEqual(a.theirs);
  }
  return compared;
}

describe('the engine’s full-text postings (issue 20)', () => {
  it('answer as the store’s FTS5 after any sequence of writes, on SQLite', async () => {
    let compared = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 7 }), { minLength: 4, maxLength: 18 }),
        fc.integer({ min: 1, max: 1000 }),
        fc.integer({ min: 1, max: 4 }),
        async (kinds, seed, sliceRows) => {
          const store = openSqliteStore({ path: ':memory:' });
          try {
            compared += await run(store, seed, kinds, sliceRows);
          } finally {
            await store.close();
          }
        },
      ),
      { numRuns: 25, seed: 20 },
    );
    expect(compared).toBeGreaterThan(500);
  }, 120_000);

  it('answer as the store does on PostgreSQL (PGlite)', async () => {
    const server = await startPglite();
    servers.push(server);
    const store = await freshPgliteStore(server);
    try {
      expect(await run(store, 7, [0, 3, 4, 5, 6, 1, 7, 2, 0, 4], 2)).toBeGreaterThan(20);
    } finally {
      await store.close();
    }
  }, 120_000);

  it('are built once for a store that engines of several scopes share', async () => {
    const store = openSqliteStore({ path: ':memory:' });
    try {
      const a = await openCredence({ store, scope: 'a', now: NOW });
      const b = await openCredence({ store, scope: 'b', now: NOW });
      await a.remember([{ title: 'redis cache', text: 'eviction policy' }]);
      await b.remember([{ title: 'redis cluster', text: 'failover' }]);
      let reads = 0;
      const rows = store.fullTextRows.bind(store);
      store.fullTextRows = (...args) => {
        reads += 1;
        return rows(...args);
      };
      await a.warm();
      await b.warm();
      // One slice per table (each holds fewer rows than a slice), read once for both engines.
      expect(reads).toBe(3);
      // The shared postings rank each engine's own scope.
      expect((await b.recall('redis', { track: false, bm25Weight: 1 })).map((r) => r.title)).toEqual(['redis cluster']);
      expect((await a.recall('redis', { track: false, bm25Weight: 1 })).map((r) => r.title)).toEqual(['redis cache']);
    } finally {
      await store.close();
    }
  });

  it('leave a process that recalls once to the store, and build from its second recall on', async () => {
    const store = openSqliteStore({ path: ':memory:' });
    try {
      const credence = await openCredence({ store, scope: 'ft', now: NOW });
      await credence.remember([{ title: 'redis cache', text: 'eviction policy' }]);
      let reads = 0;
      const rows = store.fullTextRows.bind(store);
      store.fullTextRows = (...args) => {
        reads += 1;
        return rows(...args);
      };
      const first = await credence.recall('redis cache', { track: false });
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(reads).toBe(0);
      expect(await credence.recall('redis cache', { track: false })).toEqual(first);
      await credence.warm();
      expect(reads).toBeGreaterThan(0);
      expect(await credence.recall('redis cache', { track: false })).toEqual(first);
      // The same answer from the postings as from the store: the index, asked directly, agrees with the store.
      const index = new FullTextIndex(store);
      const match = buildFtsQuery('redis')?.match as string;
      await index.warm();
      expect(index.ready).toBe(true);
      expect(await index.searchMemories('ft', match)).toEqual(await store.searchMemories('ft', match));
    } finally {
      await store.close();
    }
  });
});
