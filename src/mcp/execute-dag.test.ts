import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openCredence, type Credence } from '../engine/engine.js';
import { openSqliteStore } from '../store/sqlite/index.js';
import type { ProbabilityInfo } from '../engine/calibration.js';
import type { DagSuggestion } from '../engine/search/search.js';
import { executeDag } from './execute-dag.js';
import type { DagRecord } from '../engine/workflows/workflows.js';
import { workflowRecordBound } from '../core/experience/workflow-confidence.js';
import type { Gateway } from './gateway.js';
import { fakeFsGateway, inProcessClient } from '../../test/mcp-helpers.js';

/** A context whose engine returns `suggestion` and whose one downstream tool is read-only and needs nothing. */
function context(suggestion: Partial<DagSuggestion & ProbabilityInfo>, record?: DagRecord) {
  const credence = {
    suggestDag: async () => ({ mode: 'suggestion', ...suggestion }),
    dagRecord: async () => record,
  } as unknown as Credence;
  const gateway = {
    tool: () => ({ tool: { annotations: { readOnlyHint: true }, inputSchema: { type: 'object' } } }),
  } as unknown as Gateway;
  return { credence, gateway, autoExecuteThreshold: 0.85 };
}

const dag = { tasks: [{ id: 't1', tool: 'memory:read_graph', dependsOn: [] }] };
const reasons = async (
  s: Partial<DagSuggestion & ProbabilityInfo>,
  args?: Record<string, Record<string, unknown>>,
): Promise<string[]> => {
  const result = await executeDag(context(s), {
    intent: 'read the graph',
    execute: true,
    ...(args === undefined ? {} : { arguments: args }),
  });
  return (result.structuredContent as { notExecutedBecause?: string[] }).notExecutedBecause ?? [];
};

/** The record of a workflow that ran `runs` times, `successes` of them well, just now. */
const recordOf = (runs: number, successes: number): DagRecord => {
  const bound = workflowRecordBound({ runs, successes, lastSeen: 0, now: 0 });
  return { workflow: 'wf-000000000001', value: bound.value, parts: bound.parts, stoppedEarly: 0 };
};

describe('execute_dag with an intent (issue 19)', () => {
  it('does not run when an argument names no task or tool of the suggestion (meant for another DAG)', async () => {
    // Below the threshold, so that nothing runs either way: the arguments' reason is added, or not.
    const unsure = { dag, confidence: 0.7, seedConfidence: 0.9 };
    const below = expect.stringContaining('confidence 0.700 is below the threshold 0.85');
    expect(await reasons(unsure, { t1: {}, 'memory:read_graph': {} })).toEqual([below]);
    expect(await reasons(unsure, { t9: { path: 'a.txt' } })).toEqual([
      'arguments names "t9": no task or tool of the suggested DAG (its tasks: t1 memory:read_graph)',
      below,
    ]);
  });

  it('does not run on a measured confidence alone: the seed formula must reach the threshold too', async () => {
    const why = await reasons({ dag, confidence: 0.92, seedConfidence: 0.6 });
    expect(why).toEqual([expect.stringContaining("the seed formula's confidence 0.600 is below the threshold 0.85")]);
    expect(await reasons({ dag, confidence: 0.7, seedConfidence: 0.9 })).toEqual([
      expect.stringContaining('confidence 0.700 is below the threshold 0.85'),
    ]);
  });

  it('does not run a DAG whose past runs are less alike than any the memory was measured on (walk 9)', async () => {
    const memory = (unlike: boolean): DagSuggestion['memory'] => ({
      backed: true,
      expected: 0.95,
      weight: 0.6,
      strength: unlike ? 0.66 : 1,
      agreement: 1,
      calibratedOn: 30,
      tools: [],
      neighbours: [],
      ...(unlike ? { unlike: { strength: 0.66, measuredFrom: 1, replays: 30 } } : {}),
    });
    const sure = { dag, confidence: 0.95, seedConfidence: 0.9 };
    expect(await reasons({ ...sure, memory: memory(true) })).toEqual([
      'the past runs behind it are less alike (strength 0.66) than any the memory was measured on: its confidence ' +
        'was measured on closer tasks',
    ]);
    // Measured on such runs: only the usual reasons hold it back (here the confidence, so nothing runs in the test).
    const unsure = { dag, confidence: 0.7, seedConfidence: 0.9, memory: memory(false) };
    expect(await reasons(unsure)).toEqual([expect.stringContaining('confidence 0.700 is below the threshold 0.85')]);
  });

  it('with enough DAG outcomes, does not run below the threshold of the learned probability (issue 24)', async () => {
    const learned = (probability: number) => ({
      probability,
      probabilityBasis: {
        kind: 'dag' as const,
        outcomes: 40,
        calibrator: 'map' as const,
        brier: { seed: 0.3, 'base-rate': 0.25, logistic: 0.22, map: 0.2 },
        tested: 32,
      },
    });
    expect(await reasons({ dag, confidence: 0.9, seedConfidence: 0.9, ...learned(0.6) })).toEqual([
      expect.stringContaining('the probability learned from 40 DAG outcomes, 0.600, is below the threshold 0.85'),
    ]);
    // A probability at the threshold holds nothing back: only the seed's reason is left.
    expect(await reasons({ dag, confidence: 0.9, seedConfidence: 0.6, ...learned(0.9) })).toEqual([
      expect.stringContaining("the seed formula's confidence 0.600"),
    ]);
  });
});

// Walk 14, item 3: once the learned graph covers a DAG (a 2-tool graph is "mature" after one run), its mean PageRank
// caps the seed formula below 0.85: after 11 successful runs at a measured 0.988 the DAG never ran by itself again.
describe('execute_dag lets a DAG’s own record stand in for a seed confidence below the threshold', () => {
  const sure = { dag, confidence: 0.988, seedConfidence: 0.843 };
  const seedWhy = (result: { structuredContent?: unknown }) =>
    (result.structuredContent as { notExecutedBecause?: string[] }).notExecutedBecause ?? [];

  it('runs on a long enough record of successes: the Wilson lower bound at 95 % reaches the threshold', async () => {
    // 16 successes in 16 runs: bound 0.855. (execute false, so that the test runs nothing: it is the only reason.)
    const result = await executeDag(context(sure, recordOf(16, 16)), { intent: 'x', execute: false });
    expect(seedWhy(result)).toEqual(['execute is false']);
    expect((result.structuredContent as { record?: DagRecord }).record?.parts).toMatchObject({
      runs: 16,
      successes: 16,
      lowerBound: expect.closeTo(0.8553, 4),
    });
  });

  it('does not on a short record, a failure too many, or none, and says which record and why', async () => {
    for (const [record, said] of [
      [recordOf(1, 1), 'ran 1 time, 1 succeeded: lower bound 0.270'],
      [recordOf(11, 11), 'ran 11 times, 11 succeeded: lower bound 0.803'],
      [recordOf(20, 19), 'ran 20 times, 19 succeeded: lower bound 0.804'],
      // Runs of a part of its tasks that failed, maybe another DAG's: said as such (review F, item 8).
      [
        { ...recordOf(40, 20), stoppedEarly: 20 },
        'ran 40 times \\(20 of them failed runs of only some of its tasks, the same tools and dependencies: a run of ' +
          "it stopped by a failed task, or another DAG's\\), 20 succeeded: lower bound 0\\.3",
      ],
    ] as const) {
      const why = seedWhy(await executeDag(context(sure, record), { intent: 'x', execute: false }));
      expect(why).toEqual([
        'execute is false',
        expect.stringMatching(
          new RegExp(
            "^the seed formula's confidence 0\\.843 is below the threshold 0\\.85 \\(the measured 0\\.988 alone runs " +
              `nothing\\), and this DAG's own record does not stand in for it: its workflow wf-0+1 ${said}`,
          ),
        ),
      ]);
    }
    expect(seedWhy(await executeDag(context(sure), { intent: 'x', execute: false }))).toEqual([
      'execute is false',
      expect.stringContaining('and this DAG has no record of its own to stand in for it'),
    ]);
  });

  it('still needs the measured confidence and any learned probability to reach the threshold', async () => {
    const low = seedWhy(
      await executeDag(context({ dag, confidence: 0.7, seedConfidence: 0.6 }, recordOf(40, 40)), {
        intent: 'x',
        execute: false,
      }),
    );
    expect(low).toEqual(['execute is false', expect.stringContaining('confidence 0.700 is below the threshold')]);
    const learned = {
      probability: 0.6,
      probabilityBasis: {
        kind: 'dag' as const,
        outcomes: 40,
        calibrator: 'map' as const,
        brier: { seed: 0.3, 'base-rate': 0.25, logistic: 0.22, map: 0.2 },
        tested: 32,
      },
    };
    const why = seedWhy(
      await executeDag(context({ ...sure, ...learned }, recordOf(40, 40)), { intent: 'x', execute: false }),
    );
    expect(why).toEqual([
      'execute is false',
      expect.stringContaining('the probability learned from 40 DAG outcomes, 0.600, is below the threshold 0.85'),
    ]);
  });

  it('reads the record of the workflow the DAG’s runs are recorded into, by its shape', async () => {
    const s = await gatewaySession();
    try {
      const tasks = [
        { id: 'a', tool: 'fs:read_file' },
        { id: 'b', tool: 'fs:write_file', arguments: { text: '$a' } },
      ];
      for (let i = 0; i < 3; i += 1) expect((await s.run('copy a file', tasks)).ok).toBe(true);
      await s.run('copy a file', [...tasks, { id: 'c', tool: 'fs:broken' }]);
      // The suggested DAG says its dependency with dependsOn, the runs said it with a reference: one shape.
      const record = await s.credence.dagRecord([
        { id: 't1', tool: 'fs:read_file' },
        { id: 't2', tool: 'fs:write_file', dependsOn: ['t1'] },
      ]);
      expect(record?.parts).toMatchObject({ runs: 3, successes: 3, decay: 1 });
      expect(record?.value).toBeCloseTo(workflowRecordBound({ runs: 3, successes: 3, lastSeen: 0, now: 0 }).value, 12);
      // The same tools side by side are another shape, never run.
      expect(
        await s.credence.dagRecord([
          { id: 't1', tool: 'fs:read_file' },
          { id: 't2', tool: 'fs:write_file' },
        ]),
      ).toBeUndefined();
    } finally {
      await s.close();
    }
  });

  // Review E, item 1: a run whose first task failed skipped the second and was recorded with the first call alone,
  // in the workflow of that one-call shape; the DAG's record read its own workflow only: 16 runs, 16 successes, 0.855.
  it('counts the runs in which an early task failed and those after it were skipped', async () => {
    const credence = await openCredence({
      store: openSqliteStore({ path: ':memory:' }),
      scope: 'p',
      now: Date.parse('2026-02-02T09:00:00Z'),
    });
    await credence.addTools(['flaky_fetch', 'read_file'].map((n) => ({ id: `fs:${n}`, description: `${n} on disk` })));
    const { client } = await inProcessClient(credence, flakyGateway());
    try {
      const tasks = [
        { id: 'a', tool: 'fs:flaky_fetch' },
        { id: 'b', tool: 'fs:read_file', dependsOn: ['a'] },
      ];
      let ok = 0;
      for (let i = 0; i < 32; i += 1) {
        const r = await client.callTool({
          name: 'execute_dag',
          arguments: { intent: 'fetch then read', workflow: { tasks } },
        });
        if ((r.structuredContent as { ok: boolean }).ok) ok += 1;
      }
      expect(ok).toBe(16);
      const record = await credence.dagRecord([
        { id: 't1', tool: 'fs:flaky_fetch' },
        { id: 't2', tool: 'fs:read_file', dependsOn: ['t1'] },
      ]);
      expect(record?.parts).toMatchObject({ runs: 32, successes: 16 });
      expect(record?.stoppedEarly).toBe(16);
      expect(record?.value).toBeLessThan(0.85);
      // A DAG the stopped runs are no part of (read_file first) counts none of them, and has no run of its own.
      expect(
        await credence.dagRecord([
          { id: 't1', tool: 'fs:read_file' },
          { id: 't2', tool: 'fs:flaky_fetch', dependsOn: ['t1'] },
        ]),
      ).toBeUndefined();
    } finally {
      await client.close();
      await credence.close();
    }
  });
});

/** A gateway of two tools, `fs:flaky_fetch` failing every other call and `fs:read_file`. */
function flakyGateway(): Gateway {
  let n = 0;
  return fakeFsGateway(['flaky_fetch', 'read_file'], [], (id) => id === 'fs:flaky_fetch' && (n += 1) % 2 === 1);
}

/** The engine and the gateway in-process, driven over MCP: `run(tasks)` calls execute_dag with a workflow. */
async function gatewaySession(file?: string) {
  const store = openSqliteStore(file === undefined ? { path: ':memory:' } : { path: file, busyTimeoutMs: 300 });
  const credence = await openCredence({ store, scope: 'p', now: Date.parse('2026-02-02T09:00:00Z') });
  const names = ['read_file', 'write_file', 'file_info', 'broken'];
  await credence.addTools(names.map((n) => ({ id: `fs:${n}`, description: `${n.replace('_', ' ')} on disk` })));
  const called: string[] = [];
  const { client } = await inProcessClient(credence, fakeFsGateway(names, called));
  const run = async (intent: string, tasks: Record<string, unknown>[]) => {
    const result = await client.callTool({ name: 'execute_dag', arguments: { intent, workflow: { tasks } } });
    return { isError: result.isError === true, ...(result.structuredContent as { ok: boolean; executionId: string }) };
  };
  const close = async () => {
    await client.close();
    await credence.close();
  };
  return { credence, store, run, called, close };
}

describe('execute_dag records what happened (newcomer walk 3)', () => {
  it('refuses a task no downstream server provides with the code UNSERVED_TOOL (walk 20, item 4)', async () => {
    const { credence, run, called, close } = await gatewaySession();
    try {
      await credence.addTools([{ id: 'web:fetch', description: 'fetch a page' }]);
      const result = (await run('fetch a page', [{ id: 'a', tool: 'web:fetch' }])) as {
        isError: boolean;
        code?: string;
      };
      expect(result).toMatchObject({ isError: true, code: 'UNSERVED_TOOL' });
      expect(called).toEqual([]);
    } finally {
      await close();
    }
  });

  it('a failed task, its skipped dependant, an independent sibling: a failed run, no invented edge', async () => {
    const { credence, run, called, close } = await gatewaySession();
    try {
      const result = await run('read the notes and stat a file', [
        { id: 'a', tool: 'fs:broken', arguments: { path: 'missing.txt' } },
        { id: 'b', tool: 'fs:read_file', arguments: { path: '$a' } },
        { id: 'c', tool: 'fs:file_info', arguments: { path: 'a.txt' } },
      ]);
      expect(result.isError).toBe(true);
      expect(called.sort()).toEqual(['fs:broken', 'fs:file_info']);
      const [stored] = await credence.runs();
      expect(stored?.nodes.map((n) => [n.tool, n.status])).toEqual([
        ['fs:broken', 'failure'],
        ['fs:file_info', 'success'],
      ]);
      // The calls alone (a failure worth 0, a success 1) are 0.5, a success: b was never done, so the run is a failure.
      expect(stored?.confidence).toBe(0);
      expect(stored?.summary).toBe('1 of 3 tasks succeeded; a failed, b skipped (dependency "a" failed)');
      const [workflow] = await credence.workflows();
      expect(workflow).toMatchObject({ runs: 1, successes: 0, edges: [] });
      // The stored run keeps its dependencies: a rebuild from the stored executions gives the same workflow.
      await credence.rebuildWorkflows();
      expect((await credence.workflows())[0]).toMatchObject({ runs: 1, successes: 0, edges: [] });
      expect((await credence.similarExecutions('read the notes and stat a file'))[0]?.quality).toBeLessThan(0.5);
    } finally {
      await close();
    }
  });

  // Fix B.3: a blank intent is refused by the recording; the tasks ran, so the run is recorded under the words
  // execute_dag gives a workflow without an intent, not lost.
  it('a blank intent records the run under the workflow its tasks name', async () => {
    const { credence, run, close } = await gatewaySession();
    try {
      for (const blank of ['   ', '\u200b\u0000']) {
        const result = await run(blank, [{ id: 'read', tool: 'fs:read_file', arguments: { path: 'a.txt' } }]);
        expect(result, JSON.stringify(blank)).toMatchObject({
          ok: true,
          recorded: true,
          intent: 'workflow: fs:read_file',
        });
      }
      expect((await credence.runs()).map((r) => r.intent)).toEqual([
        'workflow: fs:read_file',
        'workflow: fs:read_file',
      ]);
    } finally {
      await close();
    }
  });

  it('links a task to the tasks it depended on, never to a sibling of its layer', async () => {
    const { credence, run, close } = await gatewaySession();
    try {
      const result = await run('copy a file and stat another', [
        { id: 'read', tool: 'fs:read_file', arguments: { path: 'a.txt' } },
        { id: 'stat', tool: 'fs:file_info', arguments: { path: 'b.txt' } },
        { id: 'write', tool: 'fs:write_file', arguments: { path: 'c.txt' }, dependsOn: ['read'] },
      ]);
      expect(result.ok).toBe(true);
      const expected = { runs: 1, successes: 1, edges: [['fs:read_file', 'fs:write_file']] };
      expect((await credence.workflows())[0]).toMatchObject(expected);
      await credence.rebuildWorkflows();
      expect((await credence.workflows())[0]).toMatchObject(expected);
      expect((await credence.similarExecutions('copy a file and stat another'))[0]?.quality).toBeCloseTo(1, 9);
    } finally {
      await close();
    }
  });

  it('an argument that does not resolve leaves the run failed, not a lone success', async () => {
    const { credence, run, called, close } = await gatewaySession();
    try {
      const result = await run('read a file and write its first line', [
        { id: 'a', tool: 'fs:read_file', arguments: { path: 'a.txt' } },
        { id: 'b', tool: 'fs:write_file', arguments: { path: '$a.0' } },
      ]);
      expect(result.isError).toBe(true);
      expect(called).toEqual(['fs:read_file']);
      const [stored] = await credence.runs();
      expect(stored?.nodes.map((n) => [n.tool, n.status])).toEqual([['fs:read_file', 'success']]);
      expect(stored?.confidence).toBeLessThan(0.5);
      expect((await credence.workflows())[0]).toMatchObject({ runs: 1, successes: 0 });
      expect((await credence.similarExecutions('read a file and write its first line'))[0]?.quality).toBeLessThan(0.5);
    } finally {
      await close();
    }
  });

  it('links a stored call to its dependency by stored position, not by place in the workflow', async () => {
    // A review: remapping by the task's place in `tasks` left every test passing; b is dropped (never ran), c is 4th.
    const { credence, store, run, close } = await gatewaySession();
    try {
      await run('stat a file and write it', [
        { id: 'a', tool: 'fs:broken', arguments: { path: 'x' } },
        { id: 'b', tool: 'fs:read_file', arguments: { path: '$a' } },
        { id: 'd', tool: 'fs:write_file', arguments: { path: 'y' }, dependsOn: ['c'] },
        { id: 'c', tool: 'fs:file_info', arguments: { path: 'z' } },
      ]);
      const [stored] = await credence.runs();
      expect(stored?.summary).toBe('2 of 4 tasks succeeded; a failed, b skipped (dependency "a" failed)');
      const calls = (await store.getExecution('p', stored?.id ?? ''))?.calls ?? [];
      expect(calls.map((c) => [c.tool, c.dependsOn])).toEqual([
        ['fs:broken', []],
        ['fs:file_info', []],
        ['fs:write_file', [1]],
      ]);
      expect((await credence.workflows())[0]).toMatchObject({ edges: [['fs:file_info', 'fs:write_file']] });
    } finally {
      await close();
    }
  });

  it('a store busy when the run is recorded: the results come back, unrecorded, and no retry is asked', async () => {
    // A review: the tools ran, then STORE_BUSY "retry" dropped every result, and a retry wrote the file twice.
    const dir = mkdtempSync(join(tmpdir(), 'credence-dag-busy-'));
    const file = join(dir, 'd.db');
    const { credence, run, called, close } = await gatewaySession(file);
    const other = new Database(file);
    try {
      other.exec('BEGIN IMMEDIATE');
      const result = (await run('write the notes', [
        { id: 'w', tool: 'fs:write_file', arguments: { path: 'notes.txt' } },
      ])) as unknown as Record<string, unknown>;
      other.exec('ROLLBACK');
      expect(called).toEqual(['fs:write_file']);
      expect(result).toMatchObject({
        isError: false,
        ok: true,
        recorded: false,
        executionId: null,
        notRecordedBecause: expect.stringMatching(/^the store was busy .*do not run them again/),
        tasks: [{ id: 'w', status: 'success', result: { content: [{ type: 'text', text: 'ran fs:write_file' }] } }],
      });
      expect(JSON.stringify(result)).not.toMatch(/STORE_BUSY|retry/);
      expect(await credence.runs()).toEqual([]);
      const again = await run('write the notes', [{ id: 'w', tool: 'fs:write_file', arguments: { path: 'b.txt' } }]);
      expect(again).toMatchObject({ recorded: true, executionId: expect.any(String) });
      expect(again).not.toHaveProperty('notRecordedBecause');
    } finally {
      if (other.inTransaction) other.exec('ROLLBACK');
      other.close();
      await close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
