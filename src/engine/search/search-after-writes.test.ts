import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freshPgliteStore, startPglite, type PgliteServer } from '../../../test/pglite.js';
import { openPgStore } from '../../store/postgres/pg-store.js';
import { openCredence, type Credence } from '../engine.js';
import { openSqliteStore } from '../../store/sqlite/sqlite-store.js';
import type { Store } from '../../store/types.js';
import { PAGERANK_DEFAULTS } from '../../core/graph/pagerank.js';

// Issue 20: the graph snapshot, tool search and DAG suggestion of an engine that has written (and kept what a
// write did not touch) answer exactly as a fresh engine over the same store (PageRank and what follows from it within
// what its iteration guarantees: after a write it starts from the last one's).

const NOW = '2026-03-03T10:00:00Z';
const dir = mkdtempSync(join(tmpdir(), 'credence-search-writes-'));
const servers: PgliteServer[] = [];
afterAll(async () => {
  for (const server of servers) await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** A store, and a way to open another over the same data (as another process would). */
interface Opened {
  store: Store;
  another(): Promise<Store>;
}
let files = 0;

const VERBS = ['fetch', 'parse', 'store', 'send', 'render', 'resize', 'translate', 'summarise'];
const THINGS = ['invoice', 'image', 'email', 'report', 'page', 'movie', 'weather', 'ticket'];
const TOOLS = VERBS.flatMap((v) => THINGS.slice(0, 4).map((t) => `${v}_${t}`));

/** A small seeded generator (a linear congruential one): the same seed, the same sequence of writes. */
function generator(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const pick = <T>(rng: () => number, items: readonly T[]): T => items[Math.floor(rng() * items.length)] as T;

function intentOf(rng: () => number): { intent: string; tools: string[] } {
  const thing = pick(rng, THINGS.slice(0, 4));
  const verbs = [pick(rng, VERBS), pick(rng, VERBS), pick(rng, VERBS)].filter((v, i, a) => a.indexOf(v) === i);
  return { intent: `${verbs.join(' then ')} the ${thing}`, tools: verbs.map((v) => `${v}_${thing}`) };
}

/** What the engine answers: the snapshot's statistics, two tool searches and a DAG, with nothing recorded. */
async function answers(credence: Credence, rng: () => number) {
  const asked = intentOf(rng);
  return {
    stats: await credence.graphStats({ top: 10 }),
    search: await credence.searchTools(asked.intent, { track: false }),
    context: await credence.searchTools(pick(rng, THINGS), { track: false, context: [asked.tools[0] as string] }),
    dag: await credence.suggestDag(asked.intent, { track: false }),
    similar: await credence.similarExecutions(asked.intent),
  };
}

/**
 * The same answers, numbers that follow from PageRank within what its iteration guarantees: after a write it starts
 * from the last PageRank (a fresh engine from the uniform vector), and each run stops within d/(1 − d)·tolerance
 * (L1) of the fixed point, so two runs differ by at most twice that, a tool's centrality (PageRank / max) by at most
 * twice that over the largest PageRank, and a score by no more. Everything else, and the order, exactly.
 */
function expectSameAnswers(actual: Answers, expected: Answers): void {
  const rankL1 = ((2 * PAGERANK_DEFAULTS.damping) / (1 - PAGERANK_DEFAULTS.damping)) * PAGERANK_DEFAULTS.tolerance;
  const maxRank = expected.stats.central[0]?.pageRank ?? 1;
  const bound = (2 * rankL1) / maxRank;
  const moved: string[] = [];
  const strip = (value: unknown, other: unknown, path: string): unknown => {
    if (typeof value === 'number' && typeof other === 'number' && value !== other) {
      if (Math.abs(value - other) <= bound) {
        moved.push(path.replace(/\[\d+\]/g, '[]'));
        return other;
      }
      return value;
    }
    if (Array.isArray(value) && Array.isArray(other)) return value.map((v, i) => strip(v, other[i], `${path}[${i}]`));
    if (value !== null && typeof value === 'object' && other !== null && typeof other === 'object')
      return Object.fromEntries(
        Object.entries(value).map(([k, v]) => [k, strip(v, (other as Record<string, unknown>)[k], `${path}.${k}`)]),
      );
    return value;
  };
  expect(strip(actual, expected, '')).toEqual(expected);
  // Only what PageRank feeds may move.
  for (const path of new Set(moved)) expect(path).toMatch(/(pageRank\w*|centrality|graph|score|[cC]onfidence)$/);
}

type Answers = Awaited<ReturnType<typeof answers>>;

async function writeOnce(credence: Credence, rng: () => number, step: number): Promise<string> {
  const kind = pick(rng, ['remember', 'observe', 'record', 'append', 'tools', 'edge', 'feedback'] as const);
  const at = new Date(Date.parse(NOW) - (1000 - step) * 60_000).toISOString();
  if (kind === 'remember') await credence.remember([{ title: `note ${step}`, text: `the ${pick(rng, THINGS)} rule` }]);
  else if (kind === 'observe')
    await credence.observe([
      {
        timestamp: at,
        type: 'preference',
        observation: `prefers ${pick(rng, VERBS)} first (${step})`,
        confidence: 0.6,
      },
    ]);
  else if (kind === 'record' || kind === 'append') {
    const { intent, tools } = intentOf(rng);
    const calls = tools.map((tool, i) => ({
      tool,
      status: 'success' as const,
      at,
      ...(i > 0 ? { consumes: [i - 1] } : {}),
    }));
    if (kind === 'record') await credence.recordExecution({ intent, startedAt: at, calls });
    else await credence.appendCalls({ id: `session-${step % 3}`, intent, startedAt: at }, calls);
  } else if (kind === 'tools')
    await credence.addTools([{ id: `${pick(rng, VERBS)}_${pick(rng, THINGS)}`, description: `added at step ${step}` }]);
  else if (kind === 'edge')
    await credence.declareEdge({ from: pick(rng, TOOLS), to: pick(rng, TOOLS), type: 'sequence' });
  else {
    const [shown] = await credence.searchTools(pick(rng, THINGS), { limit: 1 });
    if (shown?.shownId !== undefined) await credence.feedback(shown.shownId, rng() < 0.5 ? 'accepted' : 'rejected');
  }
  return kind;
}

async function seeded(store: Store): Promise<Credence> {
  const credence = await openCredence({ store, now: NOW, scope: 'writes', cwd: dir });
  await credence.addTools(
    TOOLS.map((id) => ({
      id,
      description: `${id.replace('_', ' the ')}: ${id.split('_')[0]} one ${id.split('_')[1]}`,
    })),
  );
  const rng = generator(7);
  for (let i = 0; i < 24; i += 1) {
    const { intent, tools } = intentOf(rng);
    const at = new Date(Date.parse(NOW) - (2000 - i) * 60_000).toISOString();
    await credence.recordExecution({
      intent,
      startedAt: at,
      calls: tools.map((tool, j) => ({ tool, status: 'success', at, ...(j > 0 ? { consumes: [j - 1] } : {}) })),
    });
  }
  return credence;
}

describe.each([
  [
    'SQLite',
    async (): Promise<Opened> => {
      const path = join(dir, `writes-${(files += 1)}.db`);
      return { store: openSqliteStore({ path }), another: async () => openSqliteStore({ path }) };
    },
  ],
  [
    'PostgreSQL on PGlite',
    async (): Promise<Opened> => {
      const server = await startPglite();
      servers.push(server);
      return {
        store: await freshPgliteStore(server),
        another: async () => openPgStore({ url: server.url, schema: 'public' }),
      };
    },
  ],
])('search and DAG after writes, %s (issue 20)', (_name, create) => {
  it('answer as a fresh engine over the same data after every kind of write, here or by another process', async () => {
    const opened = await create();
    const warm = await seeded(opened.store);
    // Another process writing into the same store: the warm engine learns of its writes from the change log.
    const other = await openCredence({ store: await opened.another(), now: NOW, scope: 'writes', cwd: dir });
    try {
      const rng = generator(20);
      const kinds = new Set<string>();
      for (let step = 0; step < 24; step += 1) {
        kinds.add(await writeOnce(rng() < 0.25 ? other : warm, rng, step));
        const seed = Math.floor(rng() * 1e9);
        // A fresh engine over a store of its own: nothing kept in this process is shared with it.
        const fresh = await openCredence({ store: await opened.another(), now: NOW, scope: 'writes', cwd: dir });
        try {
          const expected = await answers(fresh, generator(seed));
          expectSameAnswers(await answers(warm, generator(seed)), expected);
        } finally {
          await fresh.close();
        }
      }
      expect(kinds.size).toBeGreaterThanOrEqual(6);
    } finally {
      await other.close();
      await warm.close();
    }
  }, 180_000);

  it('keep the graph snapshot across a write of memories or observations, not across a recorded run', async () => {
    const credence = await seeded((await create()).store);
    try {
      const before = await credence.graphSnapshot();
      await credence.remember([{ title: 'a note', text: 'nothing about tools' }]);
      await credence.observe([
        { timestamp: NOW, type: 'preference', observation: 'likes short answers', confidence: 0.6 },
      ]);
      expect(await credence.graphSnapshot()).toBe(before);
      await credence.recordExecution({
        intent: 'fetch the invoice',
        startedAt: NOW,
        calls: [{ tool: 'fetch_invoice', status: 'success', at: NOW }],
      });
      const after = await credence.graphSnapshot();
      expect(after).not.toBe(before);
      expect(after.calls.get('fetch_invoice')).toBe((before.calls.get('fetch_invoice') ?? 0) + 1);
      expect(after.tools).toEqual(before.tools);
      await credence.addTools([{ id: 'archive_invoice', description: 'archive one invoice' }]);
      const added = await credence.graphSnapshot();
      expect(added.tools.map((t) => t.id)).toContain('archive_invoice');
      expect(added.tools.length).toBe(before.tools.length + 1);
    } finally {
      await credence.close();
    }
  }, 60_000);
});
