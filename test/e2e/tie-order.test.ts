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
});
