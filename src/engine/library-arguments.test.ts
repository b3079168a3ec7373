import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { engineStore, openCredence } from './engine.js';
import { openSqliteStore } from '../store/sqlite/index.js';

// A newcomer's walk: the library's calls given a value of the wrong type threw TypeErrors from deep inside
// (`question.trim is not a function`), and `runs({ limit: 'x' })` the database's `datatype mismatch`.
describe('the library names an argument of the wrong type', () => {
  const wrong = (call: (c: any) => Promise<unknown>, message: string) => ({ call, message });
  const cases = {
    'recall of a number': wrong((c) => c.recall(123), 'query must be text, got a number'),
    'recall with options that are no object': wrong(
      (c) => c.recall('x', 5),
      'options must be an object of options, got a number',
    ),
    'recall with a limit that is text': wrong(
      (c) => c.recall('x', { limit: 'a' }),
      'options.limit must be a whole number >= 1, got "a"',
    ),
    'searchTools of null': wrong((c) => c.searchTools(null), 'query must be text, got null'),
    'suggestDag with a limit of 0': wrong(
      (c) => c.suggestDag('read a file', { limit: 0 }),
      'options.limit must be a whole number >= 1, got 0',
    ),
    'suggestNext of a number': wrong((c) => c.suggestNext(5), 'tool must be text, got a number'),
    'remember of one memory, not a list': wrong(
      (c) => c.remember({ title: 't', text: 'x' }),
      'memories must be a list, got an object',
    ),
    'observe of null': wrong((c) => c.observe(null), 'observations must be a list, got null'),
    'addTools of a string': wrong((c) => c.addTools('read_file'), 'tools must be a list, got a string'),
    'recordExecutions of one execution': wrong(
      (c) => c.recordExecutions({ intent: 'x', calls: [] }),
      'executions must be a list, got an object',
    ),
    'runs with a limit of 2.5': wrong(
      (c) => c.runs({ limit: 2.5 }),
      'options.limit must be a whole number >= 1, got 2.5',
    ),
    'forget of a number': wrong((c) => c.forget(7), 'id must be text, got a number'),
    'forget of an empty id': wrong((c) => c.forget(' '), 'id is empty: give the id of what to forget'),
    'feedback of undefined': wrong((c) => c.feedback(undefined, 'accepted'), 'id must be text, got none'),
    'recordOutcome of an array': wrong((c) => c.recordOutcome(['a'], 'accepted'), 'shownId must be text, got an array'),
    // Review B: entry points left unchecked, and a minConfidence that is text answered with nothing.
    'edges with a minConfidence that is text': wrong(
      (c) => c.edges({ minConfidence: 'a' }),
      'filter.minConfidence must be a number from 0 to 1, got "a"',
    ),
    'recall with a minConfidence of 2': wrong(
      (c) => c.recall('x', { minConfidence: 2 }),
      'options.minConfidence must be a number from 0 to 1, got 2',
    ),
    'workflows of null': wrong((c) => c.workflows(null), 'options must be an object of options, got null'),
    'declareEdge from a number': wrong(
      (c) => c.declareEdge({ from: 1, to: 'b', type: 'sequence' }),
      'from must be text, got a number',
    ),
    'validateWorkflow of null': wrong((c) => c.validateWorkflow(null), 'workflow.tasks must be a list, got none'),
    'calibration of null': wrong((c) => c.calibration(null), 'options must be an object of options, got null'),
    'evolve of a number': wrong((c) => c.evolve(5), 'options must be an object of options, got a number'),
    'forScope of a number': wrong((c) => c.forScope(5), 'scope must be text, got a number'),
    // Walk 18, item 6: options left unchecked answered nothing, scores above 1, or a TypeError.
    'recall as of an ISO string': wrong(
      (c) => c.recall('x', { asOf: '2026-01-15' }),
      'options.asOf must be a time in epoch milliseconds (Date.parse("2026-01-15") gives one), got "2026-01-15"',
    ),
    'recall as of NaN': wrong(
      (c) => c.recall('x', { asOf: Number.NaN }),
      'options.asOf must be a time in epoch milliseconds, got NaN',
    ),
    'recall with a bm25Weight of 5': wrong(
      (c) => c.recall('x', { bm25Weight: 5 }),
      'options.bm25Weight must be a number from 0 to 1, got 5',
    ),
    'recall with a bm25Weight that is text': wrong(
      (c) => c.recall('x', { bm25Weight: 'x' }),
      'options.bm25Weight must be a number from 0 to 1, got "x"',
    ),
    'searchTools with a bm25Weight of -1': wrong(
      (c) => c.searchTools('json', { bm25Weight: -1 }),
      'options.bm25Weight must be a number from 0 to 1, got -1',
    ),
    'searchTools with a context that is text': wrong(
      (c) => c.searchTools('json', { context: 'read_file' }),
      'options.context must be a list of tool ids, got a string',
    ),
    'searchTools with a context of a number': wrong(
      (c) => c.searchTools('json', { context: [5] }),
      'options.context[0] must be a tool id (text), got a number',
    ),
    'suggestDag with a context that is text': wrong(
      (c) => c.suggestDag('read json', { context: 'read_file' }),
      'options.context must be a list of tool ids, got a string',
    ),
    // Walk 7: messages written for the CLI, or showing the wrong value, in a library call.
    'recordOutcome at NaN': wrong(
      (c) => c.recordOutcome('sh-none', 'succeeded', { at: Number.NaN }),
      'at NaN is not a time (epoch milliseconds)',
    ),
    'evolve over a window of NaN': wrong(
      (c) => c.evolve({ sinceMs: Number.NaN, dryRun: true }),
      'sinceMs must be a number of milliseconds, got NaN',
    ),
    'workflows at a now that is text': wrong(
      (c) => c.workflows({ now: 'x' }),
      'options.now must be a time in epoch milliseconds, got "x"',
    ),
    'graphStats of the top -1': wrong(
      (c) => c.graphStats({ top: -1 }),
      'options.top must be a whole number >= 1, got -1',
    ),
    'graphStats of the top NaN': wrong(
      (c) => c.graphStats({ top: Number.NaN }),
      'options.top must be a whole number >= 1, got NaN',
    ),
    'graphStats of the top 1.5': wrong(
      (c) => c.graphStats({ top: 1.5 }),
      'options.top must be a whole number >= 1, got 1.5',
    ),
    // Walk 7: dailyActivity(1e8) aborted the process (heap), NaN, -3 and 1.5 threw a raw RangeError.
    ...Object.fromEntries(
      [
        [1e8, '100000000'],
        [Number.NaN, 'NaN'],
        [-3, '-3'],
        [1.5, '1.5'],
        [0, '0'],
        ['7', '"7"'],
      ].map(([days, shown]) => [
        `dailyActivity of ${String(days)} days`,
        wrong((c) => c.dailyActivity(days), `days must be a whole number from 1 to 3650, got ${shown}`),
      ]),
    ),
  };
  for (const [name, { call, message }] of Object.entries(cases))
    it(`${name}: INVALID_INPUT, "${message}", nothing stored`, async () => {
      const credence = await openCredence({ store: openSqliteStore({ path: ':memory:' }), scope: 'p', now: 0 });
      await credence.remember([{ title: 'kept', text: 'a memory already stored' }]);
      const before = await engineStore(credence).counts('p');
      await expect(call(credence)).rejects.toMatchObject({ code: 'INVALID_INPUT', message });
      expect(await engineStore(credence).counts('p')).toEqual(before);
      await credence.close();
    });
});

// Walk 18, item 2: the CLI refused a time ahead of the clock, the library and MCP stored it (edges that never decay).
describe('a time more than a day after now is refused, naming the field, nothing stored', () => {
  const NOW = Date.parse('2026-11-28T00:00:00Z');
  const LATER = '2099-01-01T00:00:00Z';
  const two = (call: Record<string, unknown> = {}) => [
    { tool: 'a', status: 'success' as const, ...call },
    { tool: 'b', status: 'success' as const },
  ];
  const cases: [string, (c: any) => Promise<unknown>, RegExp][] = [
    ["a run's startedAt", (c) => c.recordExecution({ intent: 'x', startedAt: LATER, calls: two() }), /startedAt: 2099/],
    [
      "a call's at",
      (c) => c.recordExecution({ intent: 'x', calls: two({ at: Date.parse(LATER) }) }),
      /calls\[0\]\.at: /,
    ],
    [
      'one run of a batch',
      (c) =>
        c.recordExecutions([
          { intent: 'x', calls: two() },
          { intent: 'y', startedAt: LATER, calls: two() },
        ]),
      /startedAt: 2099/,
    ],
    [
      "a workflow run's startedAt",
      (c) => {
        const at = Date.parse(LATER);
        const node = { name: 'a', intent: 'general', intentRule: 'default', status: 'success', retries: 0 };
        return c.recordRun({
          intent: 'x',
          startedAt: at,
          endedAt: at + 10,
          nodes: [{ ...node, startedAt: at, durationMs: 5, consumes: [] }],
        });
      },
      /startedAt: \d+ \(2099/,
    ],
    // Review G, item 2: the public append path (the MCP gateway, the hooks) stored them.
    [
      "an appended run's startedAt",
      (c) => c.appendCalls({ id: 's1', intent: 'x', startedAt: LATER }, two()),
      /invalid execution: startedAt: 2099/,
    ],
    [
      "an appended call's at",
      (c) => c.appendCalls({ id: 's1', intent: 'x' }, two({ at: Date.parse(LATER) })),
      /invalid execution: calls\[0\]\.at: \d+ \(2099/,
    ],
    [
      "an observation's timestamp",
      (c) => c.observe([{ type: 'correction', observation: 'o', confidence: 0.5, timestamp: LATER }]),
      /observations\[0\]\.timestamp: 2099/,
    ],
    [
      'observeNow with a timestamp',
      (c) => c.observeNow({ type: 'correction', observation: 'o', timestamp: LATER }),
      // The one observation's own field (the MCP tool has no `observations`: walk 20, item 8).
      /^invalid observation: timestamp: 2099/,
    ],
  ];
  for (const [name, call, message] of cases)
    it(name, async () => {
      const credence = await openCredence({ store: openSqliteStore({ path: ':memory:' }), scope: 'p', now: NOW });
      const before = await engineStore(credence).counts('p');
      await expect(call(credence)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
      await expect(call(credence)).rejects.toThrow(message);
      // The clock named is the one the engine runs by: its fixed `now`, not the machine's (review F, item 10).
      await expect(call(credence)).rejects.toThrow(/is after the clock now sets \(2026-11-28T00:00:00\.000Z\)/);
      expect(await engineStore(credence).counts('p')).toEqual(before);
      await credence.close();
    });

  it('appendCalls with a function of the stored calls: its call ahead is refused, named by its place', async () => {
    const credence = await openCredence({ store: openSqliteStore({ path: ':memory:' }), scope: 'p', now: NOW });
    await credence.appendCalls({ id: 's1', intent: 'x' }, [{ tool: 'a', status: 'success' }]);
    const before = await engineStore(credence).counts('p');
    const later = () => [{ tool: 'b', status: 'success' as const, at: LATER }];
    await expect(credence.appendCalls({ id: 's1', intent: 'x' }, later)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(/^invalid execution: calls\[1\]\.at: 2099-01-01T00:00:00Z is after the clock now/),
    });
    expect(await engineStore(credence).counts('p')).toEqual(before);
    await credence.close();
  });

  it("judges by a fixed `now` in the past, not the machine's clock (docs/library.md; review G, item 7)", async () => {
    const past = Date.parse('2026-02-02T00:00:00Z');
    const credence = await openCredence({ store: openSqliteStore({ path: ':memory:' }), scope: 'p', now: past });
    // Months after the fixed now: refused whatever the machine's clock says (it is later still as this is written).
    const live = new Date(NOW).toISOString();
    await expect(credence.recordExecution({ intent: 'x', startedAt: live, calls: two() })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(/startedAt: .*after the clock now sets \(2026-02-02/),
    });
    await credence.close();
  });

  it('a time within a day of now is taken (time zones, a clock a little behind)', async () => {
    const credence = await openCredence({ store: openSqliteStore({ path: ':memory:' }), scope: 'p', now: NOW });
    const soon = new Date(NOW + 3_600_000).toISOString();
    await credence.recordExecution({ intent: 'x', startedAt: soon, calls: two() });
    await credence.observe([{ type: 'correction', observation: 'o', confidence: 0.5, timestamp: soon }]);
    expect((await engineStore(credence).counts('p')).observations).toBe(1);
    await credence.close();
  });
});

describe('recall as of a time', () => {
  it('takes epoch milliseconds or a Date alike', async () => {
    const credence = await openCredence({ store: openSqliteStore({ path: ':memory:' }), scope: 'p', now: 0 });
    await credence.remember([{ title: 'kept', text: 'a memory already stored', validFrom: '1970-01-01T00:00:00Z' }]);
    const asOf = 1_000;
    const byNumber = await credence.recall('memory stored', { asOf, track: false });
    expect(byNumber.length).toBe(1);
    expect(await credence.recall('memory stored', { asOf: new Date(asOf) as unknown as number, track: false })).toEqual(
      byNumber,
    );
    await credence.close();
  });
});

// Walk 18: backup and restore told a library caller to pass --force, or to name a new --db file.
describe("backup and restore name the library's options", () => {
  it('an existing backup file: pass overwrite: true; a store that holds data: a new db file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'credence-library-backup-'));
    const credence = await openCredence({ db: join(dir, 'a.db'), scope: 'p', now: 0 });
    await credence.remember([{ title: 'kept', text: 'a memory already stored' }]);
    const file = join(dir, 'copy.db');
    writeFileSync(file, 'mine');
    await expect(credence.backup(file)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: `backup ${file}: the file exists; pass overwrite: true to replace it`,
    });
    const dump: string[] = [];
    await credence.dump((line) => {
      dump.push(line);
    });
    const lines = dump
      .join('')
      .split('\n')
      .filter((l) => l !== '');
    await expect(
      credence.restore(async function* () {
        yield* lines;
      }),
    ).rejects.toMatchObject({
      code: 'NOT_EMPTY',
      message: expect.stringContaining('restore into an empty store (a new db file or an empty database)'),
    });
    await credence.close();
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('dailyActivity', () => {
  it('counts up to ten years of days, one entry a day', async () => {
    const credence = await openCredence({ store: openSqliteStore({ path: ':memory:' }), scope: 'p', now: 0 });
    expect((await credence.dailyActivity(1)).executions).toHaveLength(1);
    expect((await credence.dailyActivity(3650)).executions).toHaveLength(3650);
    await credence.close();
  });
});
