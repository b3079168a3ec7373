/**
 * Crash atomicity and concurrent writers through the real binary (issue 17, red-team: "held"), on
 * SQLite and, when the test server is set, PostgreSQL (test/pg.ts):
 * - `credence record` killed with SIGKILL in the middle of a large file, round after round on one
 *   store: the store opens (SQLite: integrity_check clean), holds whole transactions only
 *   (`record` commits 5,000 executions at a time), every stored execution has all its calls, the
 *   edge counters equal what the stored executions carry, and the store takes writes after.
 * - 8 `credence record` processes at once: every execution, call and edge increment is counted
 *   exactly once.
 * The kill is sent when the store is seen to hold a first committed batch (no timing).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open/open-store.js';
import type { Store } from '../../src/store/types.js';
import { bin } from '../mcp-helpers.js';
import { pgSchemas, pgTestUrl } from '../pg.js';

const dir = mkdtempSync(join(tmpdir(), 'credence-security-crash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const url = pgTestUrl('the PostgreSQL half of the crash and writer tests');
const schema = pgSchemas(url);

/** `record` commits this many executions a transaction (src/cli/record.ts). */
const BATCH = 5_000;
const TOTAL = 12_000;
const ROUNDS = 2;
const WRITERS = 8;
const EACH = 25;

/** One execution: read → parse (consumes the read) → write (consumes the parse). */
const execution = (intent: string, at = '2026-03-01T00:00:00Z') =>
  JSON.stringify({
    intent,
    startedAt: at,
    calls: [
      { tool: 'read_file', status: 'success' },
      { tool: 'parse_json', status: 'success', consumes: [0] },
      { tool: 'write_file', status: 'success', consumes: [1] },
    ],
  });
const EDGES = [
  'sequence read_file→parse_json',
  'sequence parse_json→write_file',
  'dependency read_file→parse_json',
  'dependency parse_json→write_file',
];

interface Target {
  name: string;
  /** The CLI's store flags for the store named `name`. */
  args: (name: string) => string[];
  open: (name: string) => Promise<Store>;
}

const targets: Target[] = [
  {
    name: 'SQLite',
    args: (name) => ['--db', join(dir, `${name}.db`)],
    open: (name) => openStore({ db: join(dir, `${name}.db`) }, {}),
  },
];
if (url !== undefined) {
  const schemas = new Map<string, string>();
  const urlOf = (name: string) => {
    if (!schemas.has(name)) schemas.set(name, schema());
    const u = new URL(url);
    u.searchParams.set('schema', schemas.get(name) as string);
    return u.toString();
  };
  targets.push({
    name: 'PostgreSQL',
    args: (name) => ['--database-url', urlOf(name)],
    open: (name) => openStore({ databaseUrl: urlOf(name) }, {}),
  });
}

/** Runs `credence record --jsonl file`; resolves with its exit code and signal. */
function record(
  args: string[],
  file: string,
  onSpawn?: (kill: () => void) => void,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  const child = spawn(process.execPath, [bin, ...args, 'record', '--jsonl', file], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', HOME: dir },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  onSpawn?.(() => child.kill('SIGKILL'));
  return new Promise((resolve) => child.once('close', (code, signal) => resolve({ code, signal, stderr })));
}

/** The edge counters of a scope, by `type from→to`. */
async function edgeCounts(store: Store, scope: string): Promise<Map<string, number>> {
  return new Map((await store.listEdges(scope)).map((e) => [`${e.type} ${e.from}→${e.to}`, e.successes + e.failures]));
}

for (const target of targets) {
  describe(`crash atomicity and concurrent writers through credence record (${target.name})`, () => {
    it(`SIGKILLed mid-file ${ROUNDS} times: whole batches, consistent counters, the store takes writes`, async () => {
      const file = join(dir, 'big.jsonl');
      writeFileSync(file, Array.from({ length: TOTAL }, (_, i) => execution(`run ${i}`)).join('\n'));
      const args = [...target.args('killed'), '--scope', 'killed'];
      let expected = 0;
      let kills = 0;
      // A run that ends before its kill (a slow watcher) is checked too, and the round is run again.
      for (let attempt = 0; kills < ROUNDS && attempt < ROUNDS + 3; attempt += 1) {
        const watcher = await target.open('killed');
        let stop = false;
        const result = await record(args, file, (kill) => {
          // Kill as soon as the store shows this run's first committed batch.
          void (async () => {
            while (!stop) {
              if ((await watcher.counts('killed')).executions > expected) {
                kill();
                return;
              }
              await new Promise((r) => setTimeout(r, 10));
            }
          })();
        });
        stop = true;
        await watcher.close();
        const killed = result.signal === 'SIGKILL';
        if (killed) kills += 1;
        else expect(result.code, result.stderr).toBe(0);
        const store = await target.open('killed');
        try {
          if (target.name === 'SQLite') expect(await store.check()).toEqual([]);
          const counts = await store.counts('killed');
          // Whole batches only: this run added one or more, every execution with its calls and edges.
          expect(counts.executions % BATCH).toBe(0);
          expect(counts.executions).toBeGreaterThan(expected);
          if (killed) expect(counts.executions - expected).toBeLessThanOrEqual(TOTAL);
          else expect(counts.executions - expected).toBe(TOTAL);
          expect(counts.calls).toBe(3 * counts.executions);
          const edges = await edgeCounts(store, 'killed');
          expect(EDGES.map((e) => [e, edges.get(e)])).toEqual(EDGES.map((e) => [e, counts.executions]));
          expected = counts.executions;
        } finally {
          await store.close();
        }
      }
      expect(kills).toBe(ROUNDS);
      // The store takes writes after the crashes.
      const after = join(dir, 'after.jsonl');
      writeFileSync(after, execution('after the kills'));
      expect((await record(args, after)).code).toBe(0);
      const store = await target.open('killed');
      try {
        expect((await store.counts('killed')).executions).toBe(expected + 1);
        expect((await edgeCounts(store, 'killed')).get('sequence read_file→parse_json')).toBe(expected + 1);
      } finally {
        await store.close();
      }
    }, 120_000);

    it(`${WRITERS} record processes at once lose no execution, call or edge increment`, async () => {
      const args = [...target.args('writers'), '--scope', 'writers'];
      const files = Array.from({ length: WRITERS }, (_, w) => {
        const file = join(dir, `writer-${w}.jsonl`);
        writeFileSync(
          file,
          Array.from({ length: EACH }, (_, i) =>
            execution(
              `writer ${w} run ${i}`,
              `2026-03-01T00:${String(w).padStart(2, '0')}:${String(i).padStart(2, '0')}Z`,
            ),
          ).join('\n'),
        );
        return file;
      });
      const results = await Promise.all(files.map((file) => record(args, file)));
      expect(results.map((r) => [r.code, r.stderr])).toEqual(results.map(() => [0, '']));
      const store = await target.open('writers');
      try {
        const counts = await store.counts('writers');
        expect([counts.executions, counts.calls]).toEqual([WRITERS * EACH, 3 * WRITERS * EACH]);
        const edges = await edgeCounts(store, 'writers');
        expect(EDGES.map((e) => [e, edges.get(e)])).toEqual(EDGES.map((e) => [e, WRITERS * EACH]));
        const calls = [...(await store.calledTools('writers')).values()];
        expect(calls).toEqual([WRITERS * EACH, WRITERS * EACH, WRITERS * EACH]);
      } finally {
        await store.close();
      }
    }, 120_000);
  });
}
