/**
 * Many processes recording executions into one store at once (issue 10): every edge's counters
 * end exactly equal to the edge events all writers recorded, and every tool's call counter to the
 * calls — on PostgreSQL (row locks in one order, atomic upserts) and on SQLite (IMMEDIATE
 * transactions) alike. The writers are real processes (bench/store-writer).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runWriter } from '../../bench/stores.js';
import { openStore } from '../../src/store/open/open-store.js';
import { pgSchemas, pgTestUrl } from '../pg.js';

const dir = mkdtempSync(join(tmpdir(), 'credence-writers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const url = pgTestUrl('the PostgreSQL concurrent-writer test');
const schema = pgSchemas(url);

const WRITERS = 8;
const EXECUTIONS = 40;

async function checkWriters(
  target: string[],
  env: NodeJS.ProcessEnv,
  open: { db?: string; databaseUrl?: string },
): Promise<void> {
  const reports = await Promise.all(
    Array.from({ length: WRITERS }, (_, i) =>
      runWriter([...target, '--scope', 'writers', '--seed', String(i + 1), '--executions', String(EXECUTIONS)]),
    ),
  );
  const expected = new Map<string, { successes: number; failures: number }>();
  for (const r of reports) {
    expect(r.executions).toBe(EXECUTIONS);
    for (const [key, tally] of Object.entries(r.edges)) {
      const sum = expected.get(key) ?? { successes: 0, failures: 0 };
      expected.set(key, { successes: sum.successes + tally.successes, failures: sum.failures + tally.failures });
    }
  }
  const store = await openStore(open, env);
  try {
    const edges = await store.listEdges('writers');
    const stored = new Map(
      edges.map((e) => [`${e.type} ${e.from}→${e.to}`, { successes: e.successes, failures: e.failures }]),
    );
    expect(stored.size).toBe(expected.size);
    for (const [key, tally] of expected) expect({ key, ...stored.get(key) }).toEqual({ key, ...tally });
    // An edge's count is its successful observations.
    for (const e of edges) expect(e.count).toBe(e.successes);
    expect((await store.counts('writers')).executions).toBe(WRITERS * EXECUTIONS);
    const calls = [...(await store.calledTools('writers')).values()].reduce((a, b) => a + b, 0);
    expect(calls).toBe(reports.reduce((n, r) => n + r.calls, 0));
  } finally {
    await store.close();
  }
}

describe(`${WRITERS} processes recording ${EXECUTIONS} executions each into one store`, () => {
  it('SQLite: edge counters equal the recorded edge events, no increment lost', async () => {
    const db = join(dir, 'writers.db');
    await checkWriters(['--db', db], {}, { db });
  }, 120_000);

  it.skipIf(url === undefined)(
    'PostgreSQL: edge counters equal the recorded edge events, no increment lost',
    async () => {
      const name = schema();
      await checkWriters(
        ['--database-url', url as string, '--schema', name],
        { CREDENCE_DATABASE_SCHEMA: name },
        { databaseUrl: url as string },
      );
    },
    120_000,
  );
});
