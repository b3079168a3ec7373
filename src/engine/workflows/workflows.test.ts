import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../../core/graph/edge-decay.js';
import { workflowConfidence } from '../../core/experience/workflow-confidence.js';
import { engineStore, openCredence, type Credence } from '../engine.js';
import { openSqliteStore } from '../../store/sqlite/index.js';
import { restoreDump, writeDump } from '../../store/dump.js';
import { workflowOf } from './workflows.js';
import type { CallInput } from '../../core/types.js';
import type { ExecutionRecord } from '../../store/types.js';

const T0 = Date.parse('2026-03-01T00:00:00Z');
const open = (): Promise<Credence> =>
  openCredence({ store: openSqliteStore({ path: ':memory:' }), scope: 'p', now: T0 + 1000, newId: counter() });
function counter(): () => string {
  let n = 0;
  return () => `id-${++n}`;
}
const call = (tool: string, status: CallInput['status'] = 'success', consumes: number[] = []): CallInput => ({
  tool,
  status,
  consumes,
});
const person = (intent: string, at: number, status: CallInput['status'] = 'success') => ({
  intent,
  startedAt: at,
  calls: [call('SearchPeople', status), call('GetPersonMovieCredit', status, [0])],
});

describe('learned workflows', () => {
  it('merge runs of one shape: two workflows from four runs, with counts, intents and success rate', async () => {
    const credence = await open();
    await credence.recordExecution(person("find Greta Gerwig's movies", T0));
    await credence.recordExecutions([
      person("find Tom Hanks's movies", T0 + 10, 'failure'),
      { intent: 'search for a movie', startedAt: T0 + 20, calls: [call('SearchMovie')] },
      person("find Meryl Streep's movies", T0 + 30),
    ]);
    const list = await credence.workflows();
    expect(list.map((w) => [w.tools, w.edges, w.runs, w.successes, w.intents])).toEqual([
      [
        ['SearchPeople', 'GetPersonMovieCredit'],
        [['SearchPeople', 'GetPersonMovieCredit']],
        3,
        2,
        ["find Meryl Streep's movies", "find Tom Hanks's movies", "find Greta Gerwig's movies"],
      ],
      [['SearchMovie'], [], 1, 1, ['search for a movie']],
    ]);
    const [people] = list;
    expect(people?.id).toMatch(/^wf-[0-9a-f]{12}$/);
    expect(people?.successRate).toBeCloseTo(2 / 3, 12);
    expect(people?.confidence).toBe(
      workflowConfidence({ runs: 3, successes: 2, lastSeen: T0 + 30, now: T0 + 1000 }).value,
    );
    expect(people?.lastSeen).toBe(new Date(T0 + 30).toISOString());
    expect(await credence.workflows({ limit: 1 })).toEqual([people]);
    await credence.close();
  });

  it('read confidence at the time asked, decayed like edges', async () => {
    const credence = await open();
    await credence.recordExecution(person('find movies', T0));
    const [now] = await credence.workflows();
    const [later] = await credence.workflows({ now: T0 + 60 * DAY_MS });
    expect(later?.parts.decay).toBe(0.5);
    expect(later?.confidence).toBeCloseTo((now?.confidence ?? 0) / 2, 12);
    await expect(credence.workflows({ limit: 0 })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await credence.close();
  });

  it('take in explicit workflow runs by their own confidence, and leave out runs without intent or calls', async () => {
    const credence = await open();
    const node = (name: string, status: 'success' | 'failure', consumes: number[] = []) => ({
      name,
      intent: 'general' as const,
      intentRule: 'default' as const,
      status,
      retries: 0,
      startedAt: T0,
      durationMs: 5,
      consumes,
    });
    await credence.recordRun({
      intent: 'fetch and summarise',
      startedAt: T0,
      endedAt: T0 + 10,
      nodes: [node('fetch', 'failure'), node('summarise', 'failure', [0])],
    });
    await credence.recordExecution({ intent: 'nothing ran', startedAt: T0, calls: [] });
    const list = await credence.workflows();
    expect(list.map((w) => [w.tools, w.runs, w.successes])).toEqual([[['fetch', 'summarise'], 1, 0]]);
    await credence.close();
  });

  it('follow a growing execution (hooks, gateway sessions): it counts once, in the shape it has now', async () => {
    const credence = await open();
    const head = { id: 'cc-s-1', intent: 'fix the failing test', startedAt: T0 };
    await credence.appendCalls(head, [call('Read')]);
    await credence.appendCalls(head, [call('Edit'), call('Bash')]);
    const list = await credence.workflows();
    expect(list.map((w) => [w.tools, w.runs, w.intents])).toEqual([[['Read', 'Edit', 'Bash'], 1, [head.intent]]]);
    await credence.close();
  });

  it('keep the 5 latest intents of runs recorded out of time order, as a rebuild (a restore) gives them', async () => {
    // Walk 19: runs 1-20, run i at day i % 10 (so 11-20 come as late records of days 1-10), one record each.
    const credence = await open();
    for (let i = 1; i <= 20; i += 1)
      await credence.recordExecution(person(`lint and fix file ${i}`, T0 - (10 - (i % 10)) * DAY_MS + i));
    const recorded = (await credence.workflows()).map((w) => w.intents);
    expect(recorded).toEqual([[19, 9, 18, 8, 17].map((i) => `lint and fix file ${i}`)]);
    await credence.rebuildWorkflows();
    expect((await credence.workflows()).map((w) => w.intents)).toEqual(recorded);
    await credence.close();
  });

  it('are rebuilt from the executions of a store that has none yet (an upgraded store), once', async () => {
    const credence = await open();
    const store = engineStore(credence);
    const calls = [
      { tool: 'SearchPeople', status: 'success' as const, retries: 0, consumes: [] },
      { tool: 'GetPersonMovieCredit', status: 'success' as const, retries: 0, consumes: [0] },
    ];
    await store.insertExecution('p', { id: 'old-1', intent: 'find films of Agnès Varda', startedAt: T0, calls });
    await store.insertExecution('p', { id: 'old-2', intent: 'find films of Wim Wenders', startedAt: T0 + 1, calls });
    const first = await credence.workflows();
    expect(first.map((w) => [w.runs, w.intents])).toEqual([
      [2, ['find films of Wim Wenders', 'find films of Agnès Varda']],
    ]);
    expect(await credence.workflows()).toEqual(first);
    await credence.recordExecution(person('find films of Jane Campion', T0 + 2));
    expect((await credence.workflows()).map((w) => w.runs)).toEqual([3]);
    await store.deleteWorkflows('p');
    await credence.rebuildWorkflows();
    expect((await credence.workflows()).map((w) => w.runs)).toEqual([3]);
    await credence.close();
  });

  it('rebuild before the first write to an upgraded store, so no older run is left out', async () => {
    const credence = await open();
    await engineStore(credence).insertExecution('p', {
      id: 'old-1',
      intent: 'find films of Agnès Varda',
      startedAt: T0,
      calls: [{ tool: 'SearchPeople', status: 'success', retries: 0, consumes: [] }],
    });
    await credence.recordExecution({ intent: 'find a person', startedAt: T0 + 5, calls: [call('SearchPeople')] });
    expect((await credence.workflows()).map((w) => [w.runs, w.intents])).toEqual([
      [2, ['find a person', 'find films of Agnès Varda']],
    ]);
    await credence.close();
  });
});

/**
 * A run recorded in a SQLite file, the file then set back as an older Credence left it (`sql`, then `user_version`),
 * and opened again: its workflows' [runs, successes] as recorded and once the migrations ran.
 */
async function countedAgainAt(
  run: Parameters<Credence['recordExecution']>[0],
  sql: string,
  version: number,
): Promise<{ before: number[][]; after: number[][] }> {
  const dir = mkdtempSync(join(tmpdir(), 'credence-wf-migrated-'));
  try {
    const path = join(dir, 'old.db');
    const counts = async (c: Credence) => (await c.workflows()).map((w) => [w.runs, w.successes]);
    const first = await openCredence({ store: openSqliteStore({ path }), scope: 'p', now: T0 });
    await first.recordExecution(run);
    const before = await counts(first);
    await first.close();
    const raw = new Database(path);
    raw.exec(sql);
    raw.pragma(`user_version = ${version}`);
    raw.close();
    const again = await openCredence({ store: openSqliteStore({ path }), scope: 'p', now: T0 });
    const after = await counts(again);
    await again.close();
    return { before, after };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// A review: a store whose workflows were counted before a failed call was worth nothing kept the old success counts
// (a workflow of one success among eight calls at 100 %), and nothing rebuilt them. Migration 19 empties them; they
// are built again from the executions at first use.
describe('workflows counted under the old quality rule', () => {
  it('are counted again from the stored executions after the store migrates to version 19', async () => {
    const failing = Array.from({ length: 7 }, (): CallInput => ({ tool: 'upload', status: 'failure' }));
    const run = { intent: 'upload the report', startedAt: T0, calls: [call('build_report'), ...failing] };
    // As an older Credence left it: the run counted a success, the schema at 18.
    const counts = await countedAgainAt(run, 'UPDATE workflows SET successes = runs; DROP TABLE workflow_builds', 18);
    expect(counts).toEqual({ before: [[1, 0]], after: [[1, 0]] });
  });
});

// Walk 11, item 1: migration 19 emptied the workflows and they were rebuilt only while the table stayed empty. An
// older server still running (the MCP server of an open session) recorded one run into the emptied table, the scope
// looked built, and its earlier runs were gone from its workflows for good. The rebuild now follows a mark per scope.
describe('workflows an older server wrote into after the upgrade emptied them', () => {
  it('are built again from every stored execution, not only the run written meanwhile', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'credence-wf22-'));
    try {
      const path = join(dir, 'hit.db');
      const first = await openCredence({ store: openSqliteStore({ path }), scope: 'p', now: T0 });
      for (const [i, intent] of ['find Nolan films', 'find Gerwig films', 'find Lee films'].entries())
        await first.recordExecution(person(intent, T0 + i));
      await first.recordExecution({ intent: 'lint', startedAt: T0 + 5, calls: [call('lint')] });
      await first.close();
      // As an upgrade under a running older server left it: migration 19 emptied the workflows (schema 21, no
      // mark), then the old server recorded a run of its own and merged it, the old way, into the empty table.
      const raw = new Database(path);
      raw.exec('DELETE FROM workflows; DROP TABLE workflow_builds');
      raw.pragma('user_version = 21');
      raw.close();
      const oldServer = openSqliteStore({ path });
      const recorded: ExecutionRecord = {
        id: 'old-run',
        intent: 'find Bigelow films',
        startedAt: T0 + 9,
        calls: [
          { tool: 'SearchPeople', status: 'success', retries: 0, consumes: [] },
          { tool: 'GetPersonMovieCredit', status: 'success', retries: 0, consumes: [0] },
        ],
      };
      await oldServer.insertExecution('p', recorded);
      const merge = workflowOf(recorded);
      await oldServer.mergeWorkflows('p', merge === undefined ? [] : [merge]);
      await oldServer.close();
      const again = await openCredence({ store: openSqliteStore({ path }), scope: 'p', now: T0 + 10 });
      expect((await again.workflows()).map((w) => [w.tools, w.runs]).sort()).toEqual([
        [['SearchPeople', 'GetPersonMovieCredit'], 4],
        [['lint'], 1],
      ]);
      await again.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** The dump of a store holding one run, 'upload the report', whose seven uploads failed (a failed run). */
async function failingUploadDump(): Promise<string> {
  const failing = Array.from({ length: 7 }, (): CallInput => ({ tool: 'upload', status: 'failure' }));
  const source = await openCredence({ store: openSqliteStore({ path: ':memory:' }), scope: 'p', now: T0 });
  await source.recordExecution({
    intent: 'upload the report',
    startedAt: T0,
    calls: [{ tool: 'build_report', status: 'success' }, ...failing],
  });
  let text = '';
  await writeDump(engineStore(source), (chunk) => void (text += chunk), { now: T0 });
  await source.close();
  return text;
}

// Review B: a dump made at schema 18 holds workflows counted with a failed call worth 0.3 / 0.7; restored as they were,
// their successes stayed wrong, since a workflows table that holds rows is never built again.
describe('a dump older than schema 19', () => {
  it('restores everything but its workflows, which the engine builds again from the executions', async () => {
    const text = await failingUploadDump();
    // As an older Credence wrote it: schema 18, the run counted a success.
    const [head, ...rows] = text.split('\n');
    const old = [
      JSON.stringify({ ...JSON.parse(head as string), schemaVersion: 18 }),
      ...rows.map((line) => line.replace(/"successes":0/, '"successes":1')),
    ].join('\n');
    expect(old).toContain('"successes":1');
    const target = await openCredence({ store: openSqliteStore({ path: ':memory:' }), scope: 'p', now: T0 });
    const report = await restoreDump(engineStore(target), async function* () {
      yield* old.split('\n');
    });
    expect(report).toMatchObject({ schemaVersion: 18, tables: { executions: 1, workflows: 0 } });
    expect((await target.workflows()).map((w) => [w.runs, w.successes])).toEqual([[1, 0]]);
    await target.close();
  });

  // Review D: a read of the new, empty store (`credence workflows`) marked its scope built from no runs; restored
  // into it afterwards, the dump's executions were never built (workflow_builds is not a dump table).
  it('has its workflows built even when the empty store was read before the restore', async () => {
    const text = await failingUploadDump();
    const [head, ...rows] = text.split('\n');
    const old = [JSON.stringify({ ...JSON.parse(head as string), schemaVersion: 18 }), ...rows].join('\n');
    const dir = mkdtempSync(join(tmpdir(), 'credence-restore-marked-'));
    const path = join(dir, 'new.db');
    try {
      const target = await openCredence({ store: openSqliteStore({ path }), scope: 'p', now: T0 });
      expect(await target.workflows()).toEqual([]);
      await restoreDump(engineStore(target), async function* () {
        yield* old.split('\n');
      });
      await target.close();
      // A new process, as after `credence restore`: its first read builds them.
      const later = await openCredence({ store: openSqliteStore({ path }), scope: 'p', now: T0 });
      expect((await later.workflows()).map((w) => [w.runs, w.successes])).toEqual([[1, 0]]);
      await later.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // Review E, item 10: the store's mark was taken away, but the engine that read the empty store kept its own memory
  // of the scope built, so a restore through the library and a read by the same engine built nothing.
  it('has its workflows built at the next read of the engine that restored them', async () => {
    const source = await openCredence({ store: openSqliteStore({ path: ':memory:' }), scope: 'p', now: T0 });
    await source.recordExecution({
      intent: 'upload the report',
      startedAt: T0,
      calls: [
        { tool: 'build_report', status: 'success' },
        { tool: 'upload', status: 'success' },
      ],
    });
    let text = '';
    await writeDump(engineStore(source), (chunk) => void (text += chunk), { now: T0 });
    await source.close();
    const [head, ...rows] = text.split('\n');
    const old = [JSON.stringify({ ...JSON.parse(head as string), schemaVersion: 18 }), ...rows];
    const target = await openCredence({ store: openSqliteStore({ path: ':memory:' }), scope: 'p', now: T0 });
    expect(await target.workflows()).toEqual([]);
    await target.restore(async function* () {
      yield* old;
    });
    expect((await target.workflows()).map((w) => [w.runs, w.successes])).toEqual([[1, 1]]);
    await target.close();
  });
});

// Walk 14, item 2: a run whose last call failed (fetch ok, translate failed) was a success of its workflow through
// `record` (the mean of its calls' worth, 0.5), and a failure through execute_dag or PocketFlow. One rule now: a run
// with a failure standing (no later call of its tool did not fail) is a failure, whichever surface recorded it.
describe('a run left with a failure standing', () => {
  const translate = (intent: string, at: number, ...tail: CallInput[]) => ({
    intent,
    startedAt: at,
    calls: [call('fetch_weather'), call('translate_text', 'failure', [0]), ...tail],
  });

  it('is a failure of its workflow, recorded whole or appended call by call, until a retry works', async () => {
    const credence = await open();
    await credence.recordExecution(translate('translate the weather report for Paris', T0));
    await credence.appendCalls({ id: 'gw-1', intent: 'translate the weather report for Rome', startedAt: T0 + 1 }, [
      call('fetch_weather'),
    ]);
    await credence.appendCalls({ id: 'gw-1', intent: 'translate the weather report for Rome', startedAt: T0 + 1 }, [
      call('translate_text', 'failure', [0]),
    ]);
    expect((await credence.workflows()).map((w) => [w.tools, w.runs, w.successes])).toEqual([
      [['fetch_weather', 'translate_text'], 2, 0],
    ]);
    // The agent tried again and the translation came back: the run did what it was for.
    await credence.appendCalls({ id: 'gw-1', intent: 'translate the weather report for Rome', startedAt: T0 + 1 }, [
      call('translate_text', 'success', [0]),
    ]);
    await credence.recordExecution(
      translate('translate the weather report for Oslo', T0 + 2, call('translate_text', 'success', [0])),
    );
    expect((await credence.workflows()).map((w) => [w.runs, w.successes])).toEqual([[3, 2]]);
    await credence.close();
  });

  it('is counted again after the store migrates to version 25', async () => {
    // As Credence at schema 24 left it: the run counted a success (quality 0.5), the scope marked built.
    const counts = await countedAgainAt(
      translate('translate the weather report', T0),
      'UPDATE workflows SET successes = runs',
      24,
    );
    expect(counts).toEqual({ before: [[1, 0]], after: [[1, 0]] });
  });
});
