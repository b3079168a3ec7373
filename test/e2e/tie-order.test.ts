/**
 * Reproducible order (a newcomer's item): two stores built from the same input at the same --now list results of equal
 * score in the same order. A run's id is random, so ties ordered by id came out differently from store to store; they
 * are ordered by the item's text first (core/rank-order).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { openCredence } from '../../src/engine/engine.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';

const bin = fileURLToPath(new URL('../../bin/credence.cjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'credence-tie-order-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
mkdirSync(join(dir, '.git'));
writeFileSync(join(dir, '.git', 'config'), '[core]\n');

const NOW = '2026-06-01T00:00:00Z';
/** The same words in five orders: each run's intent scores the same for a query of those words. */
const INTENTS = [
  'ship api then web',
  'ship web then api',
  'api then ship web',
  'web then ship api',
  'then ship api web',
];
const runs = INTENTS.map((intent) =>
  JSON.stringify({ intent, startedAt: NOW, calls: [{ tool: 'build', status: 'success' }] }),
).join('\n');

function credence(db: string, args: string[], input?: string) {
  const r = spawnSync(process.execPath, [bin, '--db', join(dir, db), '--scope', 's', '--now', NOW, ...args], {
    cwd: dir,
    encoding: 'utf8',
    input,
    env: { ...process.env, HOME: dir, CREDENCE_EMBEDDINGS: '', CREDENCE_DATABASE_URL: '' },
  });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}

describe('results of equal score', () => {
  it('recall lists a tie in the same order in two stores built from the same input', () => {
    const listed = ['a.db', 'b.db'].map((db) => {
      credence(db, ['record', '--jsonl', '-'], runs);
      const results = JSON.parse(credence(db, ['recall', 'ship api web', '--json'])) as {
        id: string;
        title: string;
        score: number;
      }[];
      return results;
    });
    const [a, b] = listed as [(typeof listed)[number], (typeof listed)[number]];
    // The five runs tie, and their ids differ between the stores (random).
    expect(new Set(a.map((r) => r.score)).size).toBe(1);
    expect(a.map((r) => r.id)).not.toEqual(b.map((r) => r.id));
    expect(a.map((r) => r.title)).toEqual(b.map((r) => r.title));
    // By text: the order does not depend on the ids at all.
    expect(a.map((r) => r.title)).toEqual([...INTENTS].sort());
  });

  it("a search's past runs of equal similarity come in the same order from two stores", async () => {
    const listed = await Promise.all(
      [0, 1].map(async () => {
        const c = await openCredence({
          store: openSqliteStore({ path: ':memory:' }),
          scope: 's',
          now: Date.parse(NOW),
        });
        try {
          for (const intent of INTENTS)
            await c.recordExecution({
              intent,
              startedAt: Date.parse(NOW),
              calls: [{ tool: 'build', status: 'success' }],
            });
          return await c.similarExecutions('ship api web', { limit: 5 });
        } finally {
          await c.close();
        }
      }),
    );
    const [a, b] = listed as [(typeof listed)[number], (typeof listed)[number]];
    expect(a).toHaveLength(INTENTS.length);
    expect(a.map((m) => m.intent)).toEqual(b.map((m) => m.intent));
    expect(a.map((m) => m.intent)).toEqual([...INTENTS].sort());
  });

  it('runs of one intent started at one time rank alike in two stores whose ids come in opposite orders', async () => {
    // Six runs of the same task at the same time (one batch), each with its own tools: they tie on all but their
    // tools, so tools search, the DAG, the intent memory and recall must not fall back on the ids.
    const sets = [
      ['build', 'test'],
      ['build', 'deploy'],
      ['lint', 'fmt'],
      ['build', 'test', 'deploy'],
      ['fmt', 'docs'],
      ['audit', 'lint'],
    ];
    const at = Date.parse(NOW) - 3_600_000;
    const listed = await Promise.all(
      [1, -1].map(async (direction) => {
        let n = 0;
        const c = await openCredence({
          store: openSqliteStore({ path: ':memory:' }),
          scope: 's',
          now: Date.parse(NOW),
          // Ids in the order the runs are recorded, or in the opposite order.
          newId: () => `run-${String(500 + direction * n++).padStart(4, '0')}`,
        });
        try {
          for (const tools of sets)
            await c.recordExecution({
              intent: 'ship the api',
              startedAt: at,
              calls: tools.map((tool, i) => ({ tool, status: 'success', ...(i > 0 ? { consumes: [i - 1] } : {}) })),
            });
          const search = await c.searchTools('ship the api', { track: false });
          const dag = await c.suggestDag('ship the api', { track: false });
          const similar = await c.similarExecutions('ship the api', { limit: 3 });
          const recalled = await c.recall('ship the api', { track: false });
          return {
            search: search.map((r) => `${r.tool} ${r.score.toFixed(6)}`),
            dag: JSON.stringify(dag.dag),
            similar: similar.map((m) => m.tools.join('+')),
            recall: recalled.map((r) => `${r.title}: ${r.snippet} ${r.score.toFixed(6)}`),
          };
        } finally {
          await c.close();
        }
      }),
    );
    const [a, b] = listed as [(typeof listed)[number], (typeof listed)[number]];
    expect(a.similar).toHaveLength(3);
    expect(a.recall.length).toBeGreaterThan(1);
    expect(a).toEqual(b);
    // By tool sequence, not by the ids: the first three of the six in code-point order of their tools.
    expect(a.similar).toEqual(['audit+lint', 'build+deploy', 'build+test']);
  });
});
