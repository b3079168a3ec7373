import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openCredence, type Credence } from '../engine.js';
import { openSqliteStore } from '../../store/sqlite/sqlite-store.js';
import type { Store } from '../../store/types.js';

// Issue 20: in a long-lived engine (one that recalled twice: a server's), a remember or an observation brings
// recall's kept indexes (vectors, full-text postings) up to date in the write, so the query right after it reads no
// change log and embeds nothing, and answers as a fresh engine does.

const NOW = '2026-03-03T10:00:00Z';
const SCOPE = 'after-write';
const dir = mkdtempSync(join(tmpdir(), 'credence-after-write-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const TOPICS = ['redis cache eviction', 'kubernetes cluster deploy', 'invoice billing email', 'json parse token'];
const QUESTION = 'kubernetes cache eviction';

const note = (i: number) => ({
  id: `note-${i}`,
  category: 'note' as const,
  title: `${TOPICS[i % TOPICS.length]} ${i}`,
  text: `${TOPICS[(i * 3 + 1) % TOPICS.length]} note ${i}`,
});

const ask = (credence: Credence) => credence.recall(QUESTION, { track: false, limit: 8 });
const shown = (results: Awaited<ReturnType<typeof ask>>) => results.map((r) => [r.kind, r.id, r.score]);

/** The store with its change-log reads and its embedding writes counted. */
function counted(store: Store): { store: Store; reads: string[] } {
  const reads: string[] = [];
  const changedSince = store.changedSince.bind(store);
  store.changedSince = (scope, kind, revision) => {
    reads.push(`changedSince ${kind}`);
    return changedSince(scope, kind, revision);
  };
  const putEmbeddings = store.putEmbeddings.bind(store);
  store.putEmbeddings = (scope, kind, items) => {
    reads.push(`putEmbeddings ${kind}`);
    return putEmbeddings(scope, kind, items);
  };
  return { store, reads };
}

describe('recall right after a write, in a long-lived engine', () => {
  it('finds its indexes current: the write took the new memory and observation, the query reads no log', async () => {
    const path = join(dir, 'store.db');
    const { store, reads } = counted(openSqliteStore({ path }));
    const credence = await openCredence({ store, scope: SCOPE, now: NOW });
    try {
      await credence.remember(Array.from({ length: 12 }, (_, i) => note(i)));
      await credence.observe([
        { type: 'preference', observation: 'prefers redis for the cache', confidence: 0.7, timestamp: NOW },
      ]);
      await ask(credence);
      await ask(credence);
      await credence.warm();

      const writes = [
        () => credence.remember([{ id: 'hit-1', category: 'note', title: 'kubernetes cache', text: 'eviction' }]),
        () =>
          credence.observe([
            { type: 'correction', observation: 'kubernetes cache eviction by ttl', confidence: 0.8, timestamp: NOW },
          ]),
        () => credence.remember([{ ...note(3), text: 'kubernetes cache eviction, rewritten' }]),
      ];
      for (const write of writes) {
        await write();
        reads.length = 0;
        const answer = await ask(credence);
        expect(reads).toEqual([]);
        const fresh = await openCredence({ store: openSqliteStore({ path }), scope: SCOPE, now: NOW });
        try {
          expect(shown(answer)).toEqual(shown(await ask(fresh)));
        } finally {
          await fresh.close();
        }
      }
      expect(shown(await ask(credence)).map((r) => r[1])).toContain('hit-1');
    } finally {
      await credence.close();
    }
  });

  it('leaves a process that has not recalled twice as it was: its write reads no index', async () => {
    const path = join(dir, 'once.db');
    const { store, reads } = counted(openSqliteStore({ path }));
    const credence = await openCredence({ store, scope: SCOPE, now: NOW });
    try {
      await credence.remember(Array.from({ length: 4 }, (_, i) => note(i)));
      await ask(credence);
      reads.length = 0;
      await credence.remember([note(9)]);
      expect(reads).toEqual([]);
    } finally {
      await credence.close();
    }
  });
});

describe('tool search right after a recorded call, in a warmed engine', () => {
  it('patches the kept snapshot its warm-up prepared as a fresh engine builds it', async () => {
    const path = join(dir, 'graph.db');
    const T0 = Date.parse(NOW);
    const TOOLS = ['a_fetch', 'b_parse', 'c_store', 'd_send', 'e_log', 'é_resize'];
    const run = (c: Credence, tools: string[], i: number) =>
      c.recordExecution({
        intent: `run ${i}`,
        startedAt: new Date(T0 - (40 - i) * 3_600_000).toISOString(),
        calls: tools.map((tool, k) => ({ tool, status: 'success' as const, ...(k > 0 ? { consumes: [k - 1] } : {}) })),
      });
    const writer = await openCredence({ store: openSqliteStore({ path }), scope: SCOPE, now: NOW });
    for (let i = 0; i < 12; i += 1)
      await run(writer, [TOOLS[i % 6], TOOLS[(i * 5 + 1) % 6], TOOLS[(i + 3) % 6]] as string[], i);
    // Kept in the store: the server below starts from the decoded snapshot.
    await writer.graphSnapshot();
    await writer.close();

    const server = await openCredence({ store: openSqliteStore({ path }), scope: SCOPE, now: NOW });
    try {
      await server.searchTools('fetch and parse', { track: false });
      await server.warm();
      for (let i = 0; i < 4; i += 1) {
        const head = { id: 'session', intent: 'a session', startedAt: new Date(T0 - 60_000).toISOString() };
        await server.appendCalls(head, [{ tool: TOOLS[(i * 2) % 6] as string, status: 'success', at: NOW }]);
        const fresh = await openCredence({ store: openSqliteStore({ path }), scope: SCOPE, now: NOW });
        try {
          const [kept, built] = [await server.graphStats({ top: 3 }), await fresh.graphStats({ top: 3 })];
          const unranked = (s: typeof kept) => ({ ...s, central: s.central.map((c) => c.tool) });
          expect(unranked(kept)).toEqual(unranked(built));
        } finally {
          await fresh.close();
        }
      }
    } finally {
      await server.close();
    }
  });
});

describe('tool search right after a recorded call, in an engine that searched tools', () => {
  const T0 = Date.parse(NOW);
  const TOOLS = ['a_fetch', 'b_parse', 'c_store', 'd_send', 'e_log'];
  const head = { id: 'gateway-session', intent: 'a gateway session', startedAt: new Date(T0 - 60_000).toISOString() };
  const call = (i: number) => ({ tool: TOOLS[(i * 3) % 5] as string, status: 'success' as const, at: NOW });
  const search = (c: Credence) => c.searchTools('fetch and parse', { track: false, limit: 5 });
  // PageRank patched after a write starts from the last one's: within its tolerance of a build (graph-snapshot tests).
  const ranked = (results: Awaited<ReturnType<typeof search>>) =>
    results.map((r) => {
      const { centrality, ...parts } = r.parts as typeof r.parts & { centrality?: number };
      return [r.tool, r.score.toFixed(5), centrality?.toFixed(5), parts];
    });

  async function seeded(name: string): Promise<string> {
    const path = join(dir, name);
    const writer = await openCredence({ store: openSqliteStore({ path }), scope: SCOPE, now: NOW });
    for (let i = 0; i < 10; i += 1)
      await writer.recordExecution({
        intent: `fetch and parse ${i}`,
        startedAt: new Date(T0 - (30 - i) * 3_600_000).toISOString(),
        calls: [TOOLS[i % 5], TOOLS[(i + 1) % 5], TOOLS[(i * 2 + 3) % 5]].map((tool, k) => ({
          tool: tool as string,
          status: 'success' as const,
          ...(k > 0 ? { consumes: [k - 1] } : {}),
        })),
      });
    await writer.close();
    return path;
  }

  it('is brought up to date by the write: the search reads no change log and ranks as a fresh engine', async () => {
    const path = await seeded('gateway.db');
    const { store, reads } = counted(openSqliteStore({ path }));
    const server = await openCredence({ store, scope: SCOPE, now: NOW });
    try {
      await search(server);
      for (let i = 0; i < 4; i += 1) {
        await server.appendCalls(head, [call(i)]);
        reads.length = 0;
        const after = await search(server);
        expect(reads).toEqual([]);
        const fresh = await openCredence({ store: openSqliteStore({ path }), scope: SCOPE, now: NOW });
        try {
          expect(ranked(after)).toEqual(ranked(await search(fresh)));
        } finally {
          await fresh.close();
        }
      }
    } finally {
      await server.close();
    }
  });

  it('leaves an engine that has not searched tools as it was: its write reads no change log', async () => {
    const path = await seeded('no-search.db');
    const { store, reads } = counted(openSqliteStore({ path }));
    const hook = await openCredence({ store, scope: SCOPE, now: NOW });
    try {
      await hook.appendCalls(head, [call(0)]);
      expect(reads).toEqual([]);
    } finally {
      await hook.close();
    }
  });
});
