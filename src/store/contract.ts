/**
 * @module store/contract
 * The contract every Store backend passes (STYLE §4): `runStoreContract({ name, create })` registers
 * the same vitest suite on every backend (SQLite, PostgreSQL, PGlite), one describe block per store
 * role (types.ts), plus the cases every write shares (scrubbing, NUL-safe text, scopes). A backend
 * that cannot meet a case declares it in `skip` with its reason; the reason is printed with the skipped test.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { forgetEdgeEvents, observeEdge, templateEdge } from '../core/graph/edge-promotion.js';
import { appendedEdgeEvents, edgeEventsOf, type ExecutionCall } from '../core/graph/execution-edges.js';
import type {
  CallRecord,
  EdgeFold,
  EdgeUnlearn,
  EdgeRecord,
  ExecutionRecord,
  MemoryRecord,
  ObservationRecord,
  Store,
  WorkflowMerge,
} from './types.js';
import type { EdgeType } from '../core/types.js';
import { DUMP_TABLES, type DumpRow, type DumpTable } from './types.js';
import { DUMP_COLUMNS } from './dump-rows.js';

export interface StoreContractOptions {
  name: string;
  /** A fresh, empty store for each test. */
  create: () => Promise<Store>;
  /** Test names this backend does not meet, with the reason. */
  skip?: Readonly<Record<string, string>>;
}

const T0 = Date.UTC(2026, 1, 2, 6, 0, 0);
const DAY = 86_400_000;

function observation(overrides: Partial<ObservationRecord> = {}): ObservationRecord {
  return {
    id: 'obs-1',
    timestamp: T0,
    type: 'correction',
    context: { task: 'rename variables', phase: 'implementation' },
    observation: 'User asks for camelCase naming',
    evidence: ['review comment on src/app.ts'],
    confidence: 0.4,
    tags: ['style'],
    ...overrides,
  };
}

function memory(overrides: Partial<MemoryRecord> = {}): MemoryRecord {
  return {
    id: 'mem-1',
    category: 'decision',
    title: 'JWT token refresh flow',
    text: 'Tokens are refreshed by the auth middleware five minutes before they expire.',
    tags: ['auth', 'jwt'],
    createdAt: T0,
    updatedAt: T0,
    ...overrides,
  };
}

function edge(overrides: Partial<EdgeRecord> = {}): EdgeRecord {
  return {
    from: 'read_file',
    to: 'parse_json',
    type: 'sequence',
    source: 'inferred',
    count: 1,
    successes: 1,
    failures: 0,
    firstSeen: T0,
    lastSeen: T0,
    ...overrides,
  };
}

/** The edge rule of SPEC §3 as a fold, as the engine passes it. */
const foldEdge: EdgeFold = (current, event) => ({
  from: event.from,
  to: event.to,
  type: event.type,
  ...observeEdge(current, event),
});
const asCall = (call: CallRecord): ExecutionCall => ({ ...call, at: call.at ?? T0 });
/** How the engine takes a deleted run's edge events back (SPEC §3's counters, run by run). */
const unlearnRun: EdgeUnlearn = {
  events: (e) => edgeEventsOf(e.calls.map(asCall)),
  unfold: (edge, forgotten, remaining) => {
    const state = forgetEdgeEvents(edge, forgotten, remaining);
    return state === undefined ? undefined : { from: edge.from, to: edge.to, type: edge.type, ...state };
  },
};
/** What the engine gives `appendCalls` to learn from: the edges the new calls add. */
const learnAppended = (before: readonly CallRecord[], after: readonly CallRecord[]) =>
  appendedEdgeEvents(before.map(asCall), after.map(asCall));
const sessionCall = (tool: string, i: number, extra: Partial<CallRecord> = {}): CallRecord => ({
  tool,
  status: 'success',
  retries: 0,
  consumes: [],
  at: T0 + 1000 * i,
  ...extra,
});
/** A session that repeats edges (read_file → parse_json twice) and has a dependency on a call two back. */
const SESSION: readonly CallRecord[] = [
  sessionCall('read_file', 0),
  sessionCall('parse_json', 1, { consumes: [0] }),
  sessionCall('read_file', 2),
  sessionCall('parse_json', 3, { consumes: [2] }),
  sessionCall('write_file', 4, { status: 'partial', consumes: [1, 3], durationMs: 500 }),
  sessionCall('read_file', 5, { status: 'failure' }),
  sessionCall('cat_file', 6, { consumes: [4] }),
];
const HEAD = { id: 'session-1', intent: 'read, parse and rewrite the config', startedAt: T0 };
const counters = (edges: readonly EdgeRecord[]) =>
  edges
    .map(
      (e) =>
        `${e.type} ${e.from}->${e.to} ${e.source} count=${e.count} ok=${e.successes} failed=${e.failures} ` +
        `first=${e.firstSeen} last=${e.lastSeen}`,
    )
    .sort();

/** A merge as the engine makes one: the run's tools in order, each after the one before. */
function wfMerge(tools: readonly string[], overrides: Partial<WorkflowMerge> = {}): WorkflowMerge {
  const key = tools.join('>');
  return {
    id: `wf-${key}`,
    key,
    tools,
    edges: tools.slice(1).map((t, i) => [tools[i] as string, t] as const),
    runs: 1,
    successes: 1,
    at: T0,
    ...overrides,
  };
}
/** How the engine merges a recorded execution: by its tools, a success when no call failed. */
const workflowOfRun = (e: ExecutionRecord): WorkflowMerge | undefined =>
  e.intent === '' || e.calls.length === 0
    ? undefined
    : wfMerge([...new Set(e.calls.map((c) => c.tool))], {
        intent: e.intent,
        successes: e.calls.some((c) => c.status === 'failure') ? 0 : 1,
        at: e.startedAt,
      });

export function runStoreContract(options: StoreContractOptions): void {
  const open: Store[] = [];
  const fresh = async (): Promise<Store> => {
    const store = await options.create();
    open.push(store);
    return store;
  };
  const test = (name: string, fn: () => Promise<void>): void => {
    const reason = options.skip?.[name];
    if (reason === undefined) it(name, fn);
    else it.skip(`${name} (skipped on ${options.name}: ${reason})`, fn);
  };

  describe(`Store contract: ${options.name}`, () => {
    afterEach(async () => {
      while (open.length > 0) await open.pop()?.close();
    });

    describe('StoreMeta: lifecycle, scopes and counts', () => {
      test('a new store is at a schema version and has every table empty', async () => {
        const store = await fresh();
        expect(await store.schemaVersion()).toBeGreaterThanOrEqual(1);
        const counts = await store.counts();
        expect(Object.values(counts).every((n) => n === 0)).toBe(true);
        expect(Object.keys(counts).sort()).toEqual(
          [
            'calls',
            'edges',
            'executions',
            'feedback',
            'instincts',
            'memories',
            'observations',
            'shown',
            'skills',
            'tools',
          ].sort(),
        );
        expect(await store.check()).toEqual([]);
      });

      test('lists the scopes that hold anything, once each, in code-point order', async () => {
        const store = await fresh();
        expect(await store.listScopes()).toEqual([]);
        await store.upsertTools('zeta', [{ id: 'read_file', description: 'Read a file' }]);
        await store.insertObservations('Alpha', [observation()]);
        await store.upsertMemories('beta', [memory()]);
        await store.putEdge('zeta', edge());
        expect(await store.listScopes()).toEqual(['Alpha', 'beta', 'zeta']);
        // Several scopes in one table, each found (the stores skip from one scope to the next along an index).
        for (const scope of ['mid', 'Alpha', 'a', 'zz']) await store.upsertTools(scope, [{ id: 't' }]);
        await store.upsertMemories('gamma', [memory()]);
        expect(await store.listScopes()).toEqual(['Alpha', 'a', 'beta', 'gamma', 'mid', 'zeta', 'zz']);
      });
    });

    describe('every write: scrubbing, NUL-safe text, scopes', () => {
      test('secrets are scrubbed from every text field before they are stored', async () => {
        const store = await fresh();
        const key = ['sk', 'ant', 'api03', 'Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0Lz'].join('-');
        const pat = 'ghp_' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8';
        await store.upsertTools('p', [
          { id: 'curl', description: `call with ${key}`, inputSchema: { example: `token ${pat}` } },
        ]);
        await store.insertObservations('p', [
          observation({ observation: `used ${key}`, evidence: [`git push https://me:${pat}@github.com/o/r`] }),
        ]);
        await store.upsertMemories('p', [memory({ text: `export ANTHROPIC_API_KEY=${key}` })]);
        await store.insertExecution('p', { id: 'e', intent: `deploy with ${pat}`, startedAt: T0, calls: [] });
        const everything = JSON.stringify([
          await store.listTools('p'),
          await store.listObservations('p'),
          await store.getMemory('p', 'mem-1'),
          await store.listExecutions('p'),
        ]);
        expect(everything).not.toContain(key);
        expect(everything).not.toContain(pat);
        expect(everything).toContain('REDACTED');
        expect(await store.searchMemories('p', '"Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0Lz"')).toEqual([]);
      });

      // Issue 17, red-team 4: PostgreSQL's text cannot hold U+0000, and one NUL failed a whole batch
      // there (100 valid observations dropped with 1 bad one) while SQLite stored all 101.
      test('text with NUL in every field is stored with U+FFFD for each NUL, and found by the key given', async () => {
        const store = await fresh();
        const n = (text: string): string => `${text}\u0000x`;
        const r = (text: string): string => `${text}\uFFFDx`;
        const scope = n('p');
        await store.upsertTools(scope, [
          {
            id: n('tool'),
            description: n('desc'),
            inputSchema: { [n('key')]: [n('value')] },
            origin: n('fs'),
            annotations: { title: n('t') },
          },
        ]);
        await store.putEdge(scope, edge({ from: n('tool'), to: n('other') }));
        const call: CallRecord = {
          tool: n('tool'),
          status: 'success',
          retries: 0,
          consumes: [],
          at: T0,
          input: n('{"a":1}'),
          output: n('out'),
        };
        await store.recordExecutions(
          scope,
          [
            {
              execution: { id: n('run'), intent: n('intent'), startedAt: T0, summary: n('summary'), calls: [call] },
              events: [],
            },
          ],
          foldEdge,
        );
        await store.appendCalls(
          scope,
          { id: n('live'), intent: n('live intent'), startedAt: T0 },
          () => [{ ...call, tool: n('later') }],
          () => [],
          foldEdge,
        );
        const valid = Array.from({ length: 100 }, (_, i) =>
          observation({ id: `obs-${i}`, observation: `valid observation ${i}` }),
        );
        const bad = observation({
          id: n('obs'),
          context: { task: n('task'), file: n('f.ts') },
          observation: n('seen'),
          evidence: [n('ev')],
          tags: [n('tag')],
        });
        expect(await store.insertObservations(scope, [...valid.slice(0, 50), bad, ...valid.slice(50)])).toEqual({
          inserted: 101,
          duplicates: 0,
        });
        await store.upsertMemories(scope, [
          memory({ id: n('mem'), title: n('title'), text: n('text'), tags: [n('tag')], path: n('a.md') }),
        ]);
        await store.upsertInstinct(scope, {
          id: n('ins'),
          slug: n('slug'),
          text: n('text'),
          confidence: 0.5,
          status: 'active',
          evidence: [n('ev')],
          createdAt: T0,
          updatedAt: T0,
        });
        await store.upsertSkill(scope, {
          id: n('sk'),
          name: n('name'),
          description: n('d'),
          rules: [n('rule')],
          confidence: 0.5,
          evidence: [n('ev')],
          createdAt: T0,
          updatedAt: T0,
        });
        expect(
          await store.insertFeedback(scope, {
            id: n('fb'),
            targetId: n('ins'),
            kind: 'validation',
            note: n('note'),
            at: T0,
          }),
        ).toEqual({ inserted: 1, duplicates: 0 });
        await store.recordShown(scope, [
          { id: n('shown'), surface: 'search', target: n('tool'), query: n('q'), at: T0 },
        ]);
        await store.putEmbeddings(scope, 'tool', [
          { refId: n('tool'), modelKey: n('model'), textHash: n('hash'), vector: new Float32Array([1, 0]) },
        ]);
        await store.enqueueHookEvents(scope, [
          {
            session: n('session'),
            turn: 'next',
            kind: n('PostToolUse'),
            at: T0,
            payload: { [n('k')]: n('v') },
            key: n('spool'),
          },
        ]);
        await store.setHookSessionState(scope, n('session'), { last: n('state') }, T0);

        // Nothing was dropped, and every field reads back with U+FFFD where the NUL was, in the scope as given.
        expect(await store.listScopes()).toEqual([r('p')]);
        expect(await store.listTools(scope)).toEqual([
          { id: r('later'), description: '' },
          {
            id: r('tool'),
            description: r('desc'),
            inputSchema: { [r('key')]: [r('value')] },
            origin: r('fs'),
            annotations: { title: r('t') },
          },
        ]);
        expect((await store.listEdges(scope)).map((e) => [e.from, e.to])).toEqual([[r('tool'), r('other')]]);
        const run = await store.getExecution(scope, n('run'));
        expect([run?.id, run?.intent, run?.summary, run?.calls]).toEqual([
          r('run'),
          r('intent'),
          r('summary'),
          [{ ...call, tool: r('tool'), input: r('{"a":1}'), output: r('out') }],
        ]);
        expect((await store.getExecution(scope, n('live')))?.calls.map((c) => c.tool)).toEqual([r('later')]);
        expect((await store.listObservations(scope)).filter((o) => o.id === r('obs'))).toEqual([
          {
            ...bad,
            id: r('obs'),
            context: { task: r('task'), file: r('f.ts') },
            observation: r('seen'),
            evidence: [r('ev')],
            tags: [r('tag')],
          },
        ]);
        expect((await store.counts(scope)).observations).toBe(101);
        expect(await store.getMemory(scope, n('mem'))).toEqual(
          memory({ id: r('mem'), title: r('title'), text: r('text'), tags: [r('tag')], path: r('a.md') }),
        );
        expect((await store.listInstincts(scope)).map((i) => [i.id, i.slug, i.text, i.evidence])).toEqual([
          [r('ins'), r('slug'), r('text'), [r('ev')]],
        ]);
        expect((await store.listSkills(scope)).map((s) => [s.id, s.name, s.description, s.rules, s.evidence])).toEqual([
          [r('sk'), r('name'), r('d'), [r('rule')], [r('ev')]],
        ]);
        expect((await store.listFeedback(scope, n('ins'))).map((f) => [f.id, f.targetId, f.note])).toEqual([
          [r('fb'), r('ins'), r('note')],
        ]);
        expect(await store.getShown(scope, n('shown'))).toEqual({
          id: r('shown'),
          surface: 'search',
          target: r('tool'),
          query: r('q'),
          at: T0,
        });
        expect(await store.getEmbeddingStamps(scope, 'tool')).toEqual([
          { refId: r('tool'), modelKey: r('model'), textHash: r('hash') },
        ]);
        expect(
          (await store.claimHookEvents(scope, n('me'), 0, n('session'))).map((e) => [e.session, e.kind, e.payload]),
        ).toEqual([[r('session'), r('PostToolUse'), { [r('k')]: r('v') }]]);
        expect(await store.hookSession(scope, n('session'))).toEqual({ turn: 1, state: { last: r('state') } });
        // Full text finds the text on both sides of the replaced NUL.
        expect((await store.searchMemories(scope, '"title"')).map((h) => h.memory.id)).toEqual([r('mem')]);
        expect((await store.searchObservations(scope, '"seen"')).map((h) => h.observation.id)).toEqual([r('obs')]);
        expect(await store.check()).toEqual([]);
      });

      test('scopes never mix, even under the same ids', async () => {
        const store = await fresh();
        await store.upsertTools('p', [{ id: 'a', description: 'in p' }]);
        await store.putEdge('p', edge());
        await store.insertObservations('p', [observation()]);
        expect(await store.listTools('q')).toEqual([]);
        expect(await store.listEdges('q')).toEqual([]);
        expect(await store.listObservations('q')).toEqual([]);
        // The same observation, id included, in another scope is stored there too.
        expect(await store.insertObservations('q', [observation()])).toEqual({ inserted: 1, duplicates: 0 });
        expect((await store.counts('q')).observations).toBe(1);
        expect((await store.counts()).observations).toBe(2);
        // Same ids in two scopes: executions, memories, instincts, skills, feedback each keep their own.
        for (const scope of ['p', 'q']) {
          await store.insertExecution(scope, {
            id: 'run-1',
            intent: `run in ${scope}`,
            startedAt: T0,
            calls: [{ tool: `tool_${scope}`, status: 'success', retries: 0, consumes: [] }],
          });
          await store.upsertMemories(scope, [memory({ title: `memory of ${scope}` })]);
          await store.upsertInstinct(scope, {
            id: 'i1',
            slug: 'same-slug',
            text: `instinct of ${scope}`,
            confidence: 0.6,
            status: 'active',
            evidence: [],
            createdAt: T0,
            updatedAt: T0,
          });
          await store.upsertSkill(scope, {
            id: 's1',
            name: 'same-name',
            description: `skill of ${scope}`,
            rules: [],
            confidence: 0.8,
            evidence: [],
            createdAt: T0,
            updatedAt: T0,
          });
          expect(await store.insertFeedback(scope, { id: 'fb-1', targetId: 'i1', kind: 'explicit', at: T0 })).toEqual({
            inserted: 1,
            duplicates: 0,
          });
        }
        for (const scope of ['p', 'q']) {
          expect((await store.getExecution(scope, 'run-1'))?.intent).toBe(`run in ${scope}`);
          expect((await store.getExecution(scope, 'run-1'))?.calls.map((c) => c.tool)).toEqual([`tool_${scope}`]);
          expect((await store.getMemory(scope, 'mem-1'))?.title).toBe(`memory of ${scope}`);
          expect((await store.listInstincts(scope)).map((i) => i.text)).toEqual([`instinct of ${scope}`]);
          expect((await store.listSkills(scope)).map((k) => k.description)).toEqual([`skill of ${scope}`]);
          expect(await store.listFeedback(scope)).toHaveLength(1);
          expect((await store.counts(scope)).calls).toBe(1);
        }
        // Deleting some events of a target leaves its others, and those of its id on another target, alone.
        await store.insertFeedback('p', { id: 'fb-2', targetId: 'i1', kind: 'contradiction', at: T0 });
        await store.insertFeedback('p', { id: 'fb-3', targetId: 's1', kind: 'contradiction', at: T0 });
        expect(await store.deleteFeedback('p', 'i1', ['fb-2', 'fb-3', 'fb-9'])).toBe(1);
        expect(await store.deleteFeedback('p', 'i1', [])).toBe(0);
        expect((await store.listFeedback('p')).map((f) => f.id)).toEqual(['fb-1', 'fb-3']);
        expect(await store.deleteFeedback('p', 's1')).toBe(1);
        // Deleting one target's feedback leaves another scope's alone.
        expect([await store.deleteFeedback('p', 'i1'), await store.deleteFeedback('p', 'i1')]).toEqual([1, 0]);
        expect([(await store.listFeedback('p')).length, (await store.listFeedback('q')).length]).toEqual([0, 1]);
        expect((await store.searchMemories('p', '"memory"')).map((h) => h.memory.title)).toEqual(['memory of p']);
      });

      test("a scope's counts are its rows: a table holding it alone, another scope alone or several", async () => {
        const store = await fresh();
        const run = (id: string, calls: number) => ({
          id,
          intent: 'count me',
          startedAt: T0,
          calls: Array.from({ length: calls }, (_, i) => ({
            tool: `t${i}`,
            status: 'success' as const,
            retries: 0,
            consumes: [],
          })),
        });
        await store.insertExecution('m', run('r1', 3));
        await store.insertExecution('m', run('r2', 2));
        expect(await store.counts('m')).toMatchObject({ executions: 2, calls: 5, tools: 3, observations: 0 });
        // A scope after, before and between the held one's.
        for (const other of ['z', 'a'])
          expect(await store.counts(other)).toMatchObject({ executions: 0, calls: 0, tools: 0 });
        await store.insertExecution('z', run('r1', 4));
        await store.insertExecution('a', run('r9', 1));
        expect(await store.counts('m')).toMatchObject({ executions: 2, calls: 5, tools: 3 });
        expect(await store.counts('z')).toMatchObject({ executions: 1, calls: 4, tools: 4 });
        expect(await store.counts('a')).toMatchObject({ executions: 1, calls: 1, tools: 1 });
        expect(await store.counts('n')).toMatchObject({ executions: 0, calls: 0, tools: 0 });
        expect(await store.counts()).toMatchObject({ executions: 4, calls: 10, tools: 8 });
      });

      test('counts follow every insert, re-write and delete, each scope its own; check finds them true', async () => {
        const store = await fresh();
        const instinct = (id: string) => ({
          id,
          slug: id,
          text: `instinct ${id}`,
          confidence: 0.5,
          status: 'active' as const,
          evidence: [],
          createdAt: T0,
          updatedAt: T0,
        });
        for (const scope of ['p', 'q']) {
          await store.insertObservations(scope, [
            observation({ id: 'o1' }),
            observation({ id: 'o2', observation: 'x' }),
          ]);
          await store.upsertMemories(scope, [memory({ id: 'm1' }), memory({ id: 'm2', title: 'another' })]);
          await store.upsertInstinct(scope, instinct('i1'));
          await store.upsertSkill(scope, {
            id: 's1',
            name: 's1',
            description: 'a skill',
            rules: [],
            confidence: 0.5,
            evidence: [],
            createdAt: T0,
            updatedAt: T0,
          });
          await store.recordShown(scope, [{ id: 'sh1', surface: 'search', target: 'read_file', at: T0 }]);
          await store.insertFeedback(scope, { id: 'f1', targetId: 'i1', kind: 'explicit', at: T0 });
        }
        await store.recordExecutions(
          'p',
          [1, 2].map((k) => ({
            execution: { ...HEAD, id: `run-${k}`, calls: SESSION.slice(0, 2 + k) },
            events: edgeEventsOf(SESSION.slice(0, 2 + k).map(asCall)),
          })),
          foldEdge,
        );
        await store.appendCalls('p', HEAD, () => SESSION.slice(0, 3), learnAppended, foldEdge);
        // Written again, not added: the same rows.
        await store.upsertMemories('p', [memory({ id: 'm1', title: 'renamed' })]);
        await store.upsertInstinct('p', { ...instinct('i1'), confidence: 0.7 });
        await store.upsertTools('p', [{ id: 'read_file', description: 'Read a file' }]);
        await store.insertObservations('p', [observation({ id: 'o1' })]);
        await store.deleteObservations('p', ['o1', 'o2', 'missing']);
        await store.deleteMemory('p', 'm2');
        await store.deleteInstinct('p', 'i1');
        await store.deleteSkill('q', 's1');
        const stored = await store.getExecution('p', HEAD.id);
        expect(await store.counts('p')).toEqual({
          tools: (await store.listTools('p')).length,
          edges: (await store.listEdges('p')).length,
          executions: 3,
          calls: 3 + 4 + (stored?.calls.length ?? 0),
          observations: 0,
          memories: 1,
          instincts: 0,
          skills: 1,
          feedback: 1,
          shown: 1,
        });
        expect(await store.counts('q')).toMatchObject({ observations: 2, memories: 2, instincts: 1, skills: 0 });
        expect(await store.counts()).toMatchObject({ observations: 2, memories: 3, executions: 3, skills: 1 });
        expect(await store.check()).toEqual([]);
      });
    });

    describe('ToolGraphStore: tools and edges', () => {
      test('re-adding a tool updates it and never duplicates it', async () => {
        const store = await fresh();
        expect(await store.upsertTools('p', [{ id: 'read_file', description: 'Read a file' }])).toEqual({
          inserted: 1,
          updated: 0,
        });
        expect(
          await store.upsertTools('p', [
            { id: 'read_file', description: 'Read a text file', inputSchema: { type: 'object' }, origin: 'fs' },
          ]),
        ).toEqual({ inserted: 0, updated: 1 });
        expect(await store.listTools('p')).toEqual([
          { id: 'read_file', description: 'Read a text file', inputSchema: { type: 'object' }, origin: 'fs' },
        ]);
        expect((await store.counts('p')).tools).toBe(1);
      });

      test("a tool's MCP annotations are kept, and a re-add without them keeps the stored ones", async () => {
        const store = await fresh();
        await store.upsertTools('p', [
          { id: 'fs:read', description: 'Read', annotations: { readOnlyHint: true, title: 'Read' } },
        ]);
        await store.upsertTools('p', [{ id: 'fs:read', description: 'Read a file' }]);
        expect(await store.getTool('p', 'fs:read')).toEqual({
          id: 'fs:read',
          description: 'Read a file',
          annotations: { readOnlyHint: true, title: 'Read' },
        });
        await store.upsertTools('p', [{ id: 'fs:read', annotations: { readOnlyHint: false } }]);
        expect((await store.getTool('p', 'fs:read'))?.annotations).toEqual({ readOnlyHint: false });
      });

      test('tools are found by the words of their id and description, within their scope', async () => {
        const store = await fresh();
        await store.upsertTools('p', [
          { id: 'SkyScrapperSearchAirport', description: 'Find the airports of a city' },
          { id: 'filesystem:read_text_file', description: 'Read the complete contents of a file' },
        ]);
        await store.upsertTools('q', [{ id: 'search_airport_q', description: 'airports' }]);
        expect((await store.searchTools('p', '"airport"')).map((h) => h.id)).toEqual(['SkyScrapperSearchAirport']);
        expect((await store.searchTools('p', '"reading" OR "text"')).map((h) => h.id)).toEqual([
          'filesystem:read_text_file',
        ]);
        // Re-adding with a new description re-indexes it.
        await store.upsertTools('p', [{ id: 'filesystem:read_text_file', description: 'Load a document' }]);
        expect(await store.searchTools('p', '"complete"')).toEqual([]);
        expect((await store.searchTools('p', '"document"')).map((h) => h.id)).toEqual(['filesystem:read_text_file']);
        // A tool that joins the catalogue by being called is searchable by its id.
        await store.insertExecution('p', {
          id: 'e1',
          intent: 'x',
          startedAt: T0,
          calls: [{ tool: 'TripadvisorSearchHotels', status: 'success', retries: 0, consumes: [] }],
        });
        expect((await store.searchTools('p', '"hotels"')).map((h) => h.id)).toEqual(['TripadvisorSearchHotels']);
      });

      test('an edge is stored once per (from, to, type) and filtered by its ends', async () => {
        const store = await fresh();
        await store.putEdge('p', edge());
        await store.putEdge('p', edge({ source: 'observed', count: 3, successes: 3 }));
        await store.putEdge('p', edge({ type: 'dependency' }));
        await store.putEdge('p', edge({ from: 'parse_json', to: 'write_file' }));
        expect(await store.getEdge('p', { from: 'read_file', to: 'parse_json', type: 'sequence' })).toEqual(
          edge({ source: 'observed', count: 3, successes: 3 }),
        );
        expect((await store.listEdges('p', { from: 'read_file' })).map((e) => e.type)).toEqual([
          'dependency',
          'sequence',
        ]);
        expect((await store.listEdges('p', { to: 'write_file' })).map((e) => e.from)).toEqual(['parse_json']);
        expect((await store.listEdges('p', { from: 'read_file', to: 'parse_json' })).map((e) => e.type)).toEqual([
          'dependency',
          'sequence',
        ]);
        expect(await store.listEdges('p', { from: 'parse_json', to: 'parse_json' })).toEqual([]);
        expect(await store.listEdges('q', { to: 'write_file' })).toEqual([]);
        expect(await store.listEdges('p')).toHaveLength(3);
        expect(await store.getEdge('p', { from: 'x', to: 'y', type: 'sequence' })).toBeUndefined();
      });

      test('insertEdge stores a template edge only where there is none, never over a learned one', async () => {
        const store = await fresh();
        const template = edge({ source: 'template', count: 0, successes: 0, firstSeen: null, lastSeen: null });
        expect(await store.insertEdge('p', template)).toBe(true);
        expect(await store.getEdge('p', template)).toEqual(template);
        await store.putEdge('p', edge({ count: 3, successes: 3 }));
        expect(await store.insertEdge('p', template)).toBe(false);
        expect(await store.getEdge('p', template)).toEqual(edge({ count: 3, successes: 3 }));
        // Another scope is another edge.
        expect(await store.insertEdge('q', template)).toBe(true);
      });

      test('a declared edge keeps its mark through the runs confirming it and their forget (review E, 7)', async () => {
        const store = await fresh();
        const key = { from: 'read_file', to: 'parse_json', type: 'dependency' as const };
        await store.insertEdge('p', { ...key, ...templateEdge(), declared: true });
        await store.insertEdge('p', { ...key, type: 'contains', ...templateEdge() });
        const execution: ExecutionRecord = {
          id: 'r1',
          intent: 'parse the config',
          startedAt: T0,
          calls: [
            { tool: 'read_file', status: 'success', retries: 0, consumes: [], at: T0 },
            { tool: 'parse_json', status: 'success', retries: 0, consumes: [0], at: T0 + 1 },
          ],
        };
        await store.recordExecutions('p', [{ execution, events: edgeEventsOf(execution.calls.map(asCall)) }], foldEdge);
        expect(await store.getEdge('p', key)).toMatchObject({ source: 'inferred', count: 1, declared: true });
        expect((await store.getEdge('p', { ...key, type: 'contains' }))?.declared).toBeUndefined();
        await store.deleteExecutions('p', ['r1'], { unlearn: unlearnRun });
        expect(await store.getEdge('p', key)).toEqual({ ...key, ...templateEdge(), declared: true });
        // Written as given: the mark too.
        await store.putEdge('p', edge({ ...key, count: 2, successes: 2 }));
        expect((await store.getEdge('p', key))?.declared).toBeUndefined();
      });

      test('a template edge keeps null dates', async () => {
        const store = await fresh();
        await store.putEdge('p', edge({ source: 'template', count: 0, successes: 0, firstSeen: null, lastSeen: null }));
        const stored = await store.getEdge('p', { from: 'read_file', to: 'parse_json', type: 'sequence' });
        expect(stored?.lastSeen).toBeNull();
        expect(stored?.firstSeen).toBeNull();
      });
    });

    describe('ExecutionStore: executions, their calls and what recording them learns', () => {
      test('an execution keeps the edge types it learned when it learned only some (review E, 6)', async () => {
        const store = await fresh();
        const run = (id: string, learned?: EdgeType[]): ExecutionRecord => ({
          id,
          intent: 'fan out the load',
          startedAt: T0,
          ...(learned === undefined ? {} : { learned }),
          calls: [
            { tool: 'load', status: 'success', retries: 0, consumes: [], dependsOn: [] },
            { tool: 'branch_a', status: 'success', retries: 0, consumes: [0], dependsOn: [0] },
          ],
        });
        await store.insertExecution('p', run('one', ['dependency']));
        await store.insertExecution('p', run('two'));
        await store.recordExecutions(
          'p',
          [run('three', ['dependency', 'contains']), run('four')].map((execution) => ({ execution, events: [] })),
          foldEdge,
        );
        const back = await store.getExecutionsByIds('p', ['one', 'two', 'three', 'four']);
        expect(back.map((e) => [e.id, e.learned]).sort()).toEqual([
          ['four', undefined],
          ['one', ['dependency']],
          ['three', ['dependency', 'contains']],
          ['two', undefined],
        ]);
      });

      test('an execution comes back with its calls in order', async () => {
        const store = await fresh();
        await store.insertExecution('p', {
          id: 'exec-1',
          intent: 'Read the deno.json file',
          intentKind: 'research',
          startedAt: T0,
          endedAt: T0 + 1000,
          confidence: 0.7,
          summary: 'read then parsed',
          calls: [
            { tool: 'read_file', status: 'success', retries: 0, consumes: [], durationMs: 12, at: T0 },
            { tool: 'parse_json', status: 'partial', retries: 2, consumes: [0], parent: 0, dependsOn: [0] },
          ],
        });
        const back = await store.getExecution('p', 'exec-1');
        // Known dependencies come back as given, and a call without them has none (not an empty list).
        expect(back?.calls.map((c) => c.dependsOn)).toEqual([undefined, [0]]);
        expect(back?.calls.map((c) => [c.tool, c.status, c.retries, c.consumes])).toEqual([
          ['read_file', 'success', 0, []],
          ['parse_json', 'partial', 2, [0]],
        ]);
        expect(back?.calls[1]?.parent).toBe(0);
        expect(back?.confidence).toBe(0.7);
        expect((await store.counts('p')).calls).toBe(2);
        // Calls are counted per tool, and a tool the catalogue did not know joins it.
        expect(await store.calledTools('p')).toEqual(
          new Map([
            ['parse_json', 1],
            ['read_file', 1],
          ]),
        );
        // By id: the tools named that were called (none twice, unknown ones and other scopes' left out).
        await store.upsertTools('p', [{ id: 'never_called', description: 'x' }]);
        expect(await store.calledTools('p', ['read_file', 'nope', 'never_called', 'read_file'])).toEqual(
          new Map([['read_file', 1]]),
        );
        expect(await store.calledTools('q', ['read_file'])).toEqual(new Map());
        expect(await store.calledTools('p', [])).toEqual(new Map());
        expect((await store.getTool('p', 'parse_json'))?.description).toBe('');
        expect(await store.listExecutions('p', { limit: 5 })).toHaveLength(1);
      });

      test('listExecutions puts runs started at one instant latest recorded first, whatever their ids', async () => {
        const store = await fresh();
        const run = (id: string): ExecutionRecord => ({ id, intent: `run ${id}`, startedAt: T0, calls: [] });
        // One run alone, then two in one batch (recorded in their order), then one more alone; then a later one.
        await store.insertExecution('p', run('run-c'));
        await store.recordExecutions(
          'p',
          [
            { execution: run('run-a'), events: [] },
            { execution: run('run-d'), events: [] },
          ],
          foldEdge,
        );
        await store.insertExecution('p', run('run-b'));
        await store.insertExecution('p', { ...run('run-0'), startedAt: T0 + 1 });
        expect((await store.listExecutions('p')).map((e) => e.id)).toEqual([
          'run-0',
          'run-b',
          'run-d',
          'run-a',
          'run-c',
        ]);
        expect((await store.listExecutions('p', { limit: 3 })).map((e) => e.id)).toEqual(['run-0', 'run-b', 'run-d']);
        expect((await store.listExecutions('p', { idPrefix: 'run-' })).map((e) => e.id)).toEqual([
          'run-0',
          'run-b',
          'run-d',
          'run-a',
          'run-c',
        ]);
      });

      test('listExecutions with an id prefix gives only those runs, newest first, with their calls', async () => {
        const store = await fresh();
        const ids = ['cc-s1-1', 'rec-1', 'cc-s1-2', 'cc.', 'cc', 'cd-1', 'cc-s2-1'];
        for (const [i, id] of ids.entries())
          await store.insertExecution('p', {
            id,
            intent: 'a turn',
            startedAt: T0 + i * 1000,
            calls: [{ tool: 'read_file', status: 'success', retries: 0, consumes: [] }],
          });
        await store.insertExecution('q', { id: 'cc-other-1', intent: 'elsewhere', startedAt: T0, calls: [] });
        const turns = await store.listExecutions('p', { idPrefix: 'cc-' });
        expect(turns.map((e) => e.id)).toEqual(['cc-s2-1', 'cc-s1-2', 'cc-s1-1']);
        expect(turns[0]?.calls.map((c) => c.tool)).toEqual(['read_file']);
        expect((await store.listExecutions('p', { idPrefix: 'cc-', limit: 2 })).map((e) => e.id)).toEqual([
          'cc-s2-1',
          'cc-s1-2',
        ]);
        expect(await store.listExecutions('p', { idPrefix: 'zz' })).toEqual([]);
        expect(await store.listExecutions('p', { idPrefix: '' })).toHaveLength(ids.length);
      });

      test('recordExecutions stores runs, counts calls, adds unknown tools and folds edge events at once', async () => {
        const store = await fresh();
        await store.upsertTools('p', [{ id: 'read_file', description: 'Read a file' }]);
        const fold = (
          current: EdgeRecord | undefined,
          event: { from: string; to: string; type: EdgeRecord['type']; status: string; at: number },
        ): EdgeRecord => ({
          from: event.from,
          to: event.to,
          type: event.type,
          source: 'inferred',
          count: (current?.count ?? 0) + (event.status === 'success' ? 1 : 0),
          successes: (current?.successes ?? 0) + (event.status === 'success' ? 1 : 0),
          failures: (current?.failures ?? 0) + (event.status === 'failure' ? 1 : 0),
          firstSeen: current?.firstSeen ?? event.at,
          lastSeen: event.at,
        });
        const run = (id: string) => ({
          execution: {
            id,
            intent: 'read then parse',
            startedAt: T0,
            calls: [
              { tool: 'read_file', status: 'success' as const, retries: 0, consumes: [] },
              { tool: 'parse_json', status: 'success' as const, retries: 0, consumes: [0] },
            ],
          },
          events: [
            { from: 'read_file', to: 'parse_json', type: 'sequence' as const, status: 'success' as const, at: T0 },
          ],
        });
        const report = await store.recordExecutions('p', [run('r1'), run('r2')], fold);
        expect(report.newTools).toEqual(['parse_json']);
        expect(report.edges).toEqual([expect.objectContaining({ from: 'read_file', to: 'parse_json', count: 2 })]);
        expect(await store.calledTools('p')).toEqual(
          new Map([
            ['parse_json', 2],
            ['read_file', 2],
          ]),
        );
        expect((await store.counts('p')).executions).toBe(2);
        // A later batch reads the stored edge back before folding.
        await store.recordExecutions('p', [run('r3')], fold);
        expect((await store.getEdge('p', { from: 'read_file', to: 'parse_json', type: 'sequence' }))?.count).toBe(3);
        // All or nothing: a batch that fails (a repeated run id) leaves nothing behind.
        await expect(store.recordExecutions('p', [run('r4'), run('r1')], fold)).rejects.toThrow();
        expect((await store.counts('p')).executions).toBe(3);
        expect((await store.getEdge('p', { from: 'read_file', to: 'parse_json', type: 'sequence' }))?.count).toBe(3);
        expect(await store.calledTools('p')).toEqual(
          new Map([
            ['parse_json', 3],
            ['read_file', 3],
          ]),
        );
      });

      test('appendCalls creates the execution on the first append, later calls at the next indexes', async () => {
        const store = await fresh();
        const first = await store.appendCalls('p', HEAD, () => SESSION.slice(0, 2), learnAppended, foldEdge);
        expect(first.execution).toEqual({ id: 'session-1', created: true, firstIndex: 0, calls: 2 });
        // The head of a later append is not used: the intent and start were set at creation.
        const later = await store.appendCalls(
          'p',
          { ...HEAD, intent: 'something else', startedAt: T0 + DAY },
          () => SESSION.slice(2, 5),
          learnAppended,
          foldEdge,
        );
        expect(later.execution).toEqual({ id: 'session-1', created: false, firstIndex: 2, calls: 5 });
        const back = await store.getExecution('p', 'session-1');
        expect(back?.calls).toEqual(SESSION.slice(0, 5));
        expect(back).toMatchObject({ intent: HEAD.intent, startedAt: T0, endedAt: T0 + 4000 + 500 });
        // An append that adds no call leaves the execution as it was.
        const none = await store.appendCalls('p', HEAD, () => [], learnAppended, foldEdge);
        expect(none).toEqual({
          newTools: [],
          edges: [],
          execution: { id: 'session-1', created: false, firstIndex: 5, calls: 5 },
        });
        expect((await store.counts('p')).executions).toBe(1);
        expect((await store.counts('p')).calls).toBe(5);
        expect((await store.getExecution('p', 'session-1'))?.endedAt).toBe(T0 + 4500);
        // The intent is searchable once, as for a recorded execution.
        expect(await store.searchExecutions('p', '"config"')).toEqual([{ id: 'session-1', bm25: expect.any(Number) }]);
        expect(await store.check()).toEqual([]);
      });

      test('appendCalls gives build the calls already stored, so a new call can consume an earlier one', async () => {
        const store = await fresh();
        const seen: (readonly CallRecord[])[] = [];
        // The lists are lent for the call (a store may grow them for the next append): kept as copies.
        const build = (calls: readonly CallRecord[]) => (before: readonly CallRecord[]) => {
          seen.push([...before]);
          return [...calls];
        };
        await store.appendCalls('p', HEAD, build(SESSION.slice(0, 3)), learnAppended, foldEdge);
        await store.appendCalls(
          'p',
          HEAD,
          (before) => {
            seen.push([...before]);
            const producer = before.findLastIndex((c) => c.tool === 'read_file');
            return [sessionCall('parse_json', 3, { consumes: [producer] })];
          },
          learnAppended,
          foldEdge,
        );
        expect(seen).toEqual([[], SESSION.slice(0, 3)]);
        expect((await store.getExecution('p', 'session-1'))?.calls[3]?.consumes).toEqual([2]);
        expect((await store.getEdge('p', { from: 'read_file', to: 'parse_json', type: 'dependency' }))?.count).toBe(1);
      });

      test('appendCalls counts each edge once per execution across appends, as one recording does', async () => {
        const appended = await fresh();
        const whole = await fresh();
        for (const id of ['session-1', 'session-2']) {
          for (let i = 0; i < SESSION.length; i += 1) {
            await appended.appendCalls('p', { ...HEAD, id }, () => SESSION.slice(i, i + 1), learnAppended, foldEdge);
          }
          await whole.recordExecutions(
            'p',
            [{ execution: { ...HEAD, id, calls: [...SESSION] }, events: edgeEventsOf(SESSION.map(asCall)) }],
            foldEdge,
          );
        }
        const edges = await appended.listEdges('p');
        expect(counters(edges)).toEqual(counters(await whole.listEdges('p')));
        // read_file → parse_json occurs twice in each session and is counted once per session.
        expect(
          edges.find((e) => e.type === 'sequence' && e.from === 'read_file' && e.to === 'parse_json'),
        ).toMatchObject({ count: 2, successes: 2 });
        expect(await appended.calledTools('p')).toEqual(await whole.calledTools('p'));
        expect((await appended.counts('p')).executions).toBe(2);
      });

      test('appendCalls adds unknown tools to the catalogue and counts their calls', async () => {
        const store = await fresh();
        await store.upsertTools('p', [{ id: 'read_file', description: 'Read a file' }]);
        expect(
          (await store.appendCalls('p', HEAD, () => SESSION.slice(0, 2), learnAppended, foldEdge)).newTools,
        ).toEqual(['parse_json']);
        expect(
          (await store.appendCalls('p', HEAD, () => SESSION.slice(2, 5), learnAppended, foldEdge)).newTools,
        ).toEqual(['write_file']);
        expect(await store.calledTools('p')).toEqual(
          new Map([
            ['parse_json', 2],
            ['read_file', 2],
            ['write_file', 1],
          ]),
        );
        expect((await store.getTool('p', 'read_file'))?.description).toBe('Read a file');
        expect((await store.searchTools('p', '"write"')).map((h) => h.id)).toEqual(['write_file']);
      });

      test('appendCalls scrubs secrets from the intent and the tool ids, as recordExecutions does', async () => {
        const store = await fresh();
        const pat = 'ghp_' + 'Q1w2E3r4T5y6U7i8O9p0A1s2D3f4G5h6J7k8';
        const tool = `curl -H "Authorization: token ${pat}"`;
        const head = { ...HEAD, intent: `deploy with ${pat}` };
        await store.appendCalls('p', head, () => [sessionCall(tool, 0)], learnAppended, foldEdge);
        let before: readonly CallRecord[] = [];
        await store.appendCalls(
          'p',
          head,
          (stored) => ((before = stored), [sessionCall('jq', 1, { consumes: [0] })]),
          learnAppended,
          foldEdge,
        );
        const everything = JSON.stringify([
          await store.listTools('p'),
          await store.listEdges('p'),
          await store.listExecutions('p'),
          [...(await store.calledTools('p')).keys()],
          before,
        ]);
        expect(everything).not.toContain(pat);
        expect(everything).toContain('REDACTED');
        // The scrubbed id is the same in every table.
        const scrubbedId = (await store.listEdges('p', { to: 'jq' }))[0]?.from;
        expect((await store.listTools('p')).map((t) => t.id)).toContain(scrubbedId);
        expect((await store.getExecution('p', 'session-1'))?.calls[0]?.tool).toBe(scrubbedId);
      });

      test('appendCalls stores nothing when build or learn throws', async () => {
        const store = await fresh();
        const fail = (): never => {
          throw new Error('no calls to give');
        };
        await expect(store.appendCalls('p', HEAD, fail, learnAppended, foldEdge)).rejects.toThrow('no calls to give');
        expect(Object.values(await store.counts('p')).every((n) => n === 0)).toBe(true);
        expect(await store.getExecution('p', 'session-1')).toBeUndefined();
        expect(await store.searchExecutions('p', '"config"')).toEqual([]);
        await store.appendCalls('p', HEAD, () => SESSION.slice(0, 2), learnAppended, foldEdge);
        const stored = {
          execution: await store.getExecution('p', 'session-1'),
          edges: await store.listEdges('p'),
          called: await store.calledTools('p'),
          counts: await store.counts('p'),
        };
        await expect(store.appendCalls('p', HEAD, fail, learnAppended, foldEdge)).rejects.toThrow('no calls to give');
        await expect(store.appendCalls('p', HEAD, () => SESSION.slice(2, 4), fail, foldEdge)).rejects.toThrow(
          'no calls to give',
        );
        expect({
          execution: await store.getExecution('p', 'session-1'),
          edges: await store.listEdges('p'),
          called: await store.calledTools('p'),
          counts: await store.counts('p'),
        }).toEqual(stored);
        // The edges this store cached are still right after the rollbacks.
        await store.appendCalls('p', HEAD, () => SESSION.slice(2, 4), learnAppended, foldEdge);
        expect((await store.getEdge('p', { from: 'read_file', to: 'parse_json', type: 'sequence' }))?.count).toBe(1);
        expect((await store.getEdge('p', { from: 'parse_json', to: 'read_file', type: 'sequence' }))?.count).toBe(1);
      });

      test('recorded tool ids and edges are scrubbed like every other text', async () => {
        const store = await fresh();
        const pat = 'ghp_' + 'Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2';
        const tool = `curl -H "Authorization: token ${pat}"`;
        await store.recordExecutions(
          'p',
          [
            {
              execution: {
                id: 'r',
                intent: 'x',
                startedAt: T0,
                calls: [
                  { tool, status: 'success', retries: 0, consumes: [] },
                  { tool: 'jq', status: 'success', retries: 0, consumes: [0] },
                ],
              },
              events: [{ from: tool, to: 'jq', type: 'dependency', status: 'success', at: T0 }],
            },
          ],
          (_c, e) => ({
            from: e.from,
            to: e.to,
            type: e.type,
            source: 'inferred',
            count: 1,
            successes: 1,
            failures: 0,
            firstSeen: e.at,
            lastSeen: e.at,
          }),
        );
        const everything = JSON.stringify([
          await store.listTools('p'),
          await store.listEdges('p'),
          await store.listExecutions('p'),
          [...(await store.calledTools('p')).keys()],
        ]);
        expect(everything).not.toContain(pat);
        // The scrubbed id is the same in every table.
        const scrubbedId = (await store.listEdges('p'))[0]?.from;
        expect((await store.listTools('p')).map((t) => t.id)).toContain(scrubbedId);
      });

      test('execution intents are searchable: the intent memory', async () => {
        const store = await fresh();
        await store.insertExecution('p', { id: 'e1', intent: 'find flights to London', startedAt: T0, calls: [] });
        await store.insertExecution('p', { id: 'e2', intent: 'book a hotel room', startedAt: T0, calls: [] });
        await store.insertExecution('q', { id: 'e3', intent: 'flight to Paris', startedAt: T0, calls: [] });
        expect((await store.searchExecutions('p', '"flight"')).map((h) => h.id)).toEqual(['e1']);
      });
    });

    describe('WorkflowStore: learned workflows', () => {
      test('deleting executions takes their calls, full text and intents out of the learned workflows', async () => {
        const store = await fresh();
        const run = (id: string, intent: string): ExecutionRecord => ({
          id,
          intent,
          startedAt: T0,
          calls: [{ tool: 'search', status: 'success', retries: 0, consumes: [] }],
        });
        await store.insertExecution('p', run('cc-s1-1', 'rotate the staging credentials'));
        await store.insertExecution('p', run('cc-s2-1', 'find the build logs'));
        await store.mergeWorkflows('p', [
          wfMerge(['search', 'fetch'], { intent: 'rotate the staging credentials', at: T0 }),
          wfMerge(['search', 'fetch'], { intent: 'find the build logs', at: T0 + 1 }),
        ]);
        expect(await store.deleteExecutions('p', ['cc-s1-1', 'absent'])).toEqual(['cc-s1-1']);
        expect(await store.getExecution('p', 'cc-s1-1')).toBeUndefined();
        expect(await store.searchExecutions('p', '"staging"')).toEqual([]);
        expect((await store.counts('p')).calls).toBe(1);
        expect((await store.listWorkflows('p'))[0]?.intents).toEqual(['find the build logs']);
        expect(await store.deleteExecutions('p', [])).toEqual([]);
      });

      test('deleting runs takes back what they taught: edge and call counts, workflows from runs left', async () => {
        const store = await fresh();
        const run = (id: string, at: number, parse: CallRecord['status']): ExecutionRecord => ({
          id,
          intent: `read the config ${id}`,
          startedAt: at,
          calls: [
            { tool: 'read_file', status: 'success', retries: 0, consumes: [], at },
            { tool: 'parse_json', status: parse, retries: 0, consumes: [0], at: at + 1 },
          ],
        });
        const record = (execution: ExecutionRecord) =>
          store.recordExecutions('p', [{ execution, events: edgeEventsOf(execution.calls.map(asCall)) }], foldEdge, {
            workflow: workflowOfRun,
          });
        // Declared by hand and seen failing only: the declaration outlives the run.
        await store.insertEdge('p', { from: 'read_file', to: 'write_file', type: 'dependency', ...templateEdge() });
        await record(run('r1', T0, 'success'));
        await record(run('r2', T0 + 10, 'success'));
        await record(run('r3', T0 + 20, 'failure'));
        await record(run('r4', T0 + 30, 'success'));
        await record({
          id: 'r5',
          intent: 'write the config',
          startedAt: T0 + 40,
          calls: [
            { tool: 'read_file', status: 'success', retries: 0, consumes: [], at: T0 + 40 },
            { tool: 'write_file', status: 'failure', retries: 0, consumes: [0], at: T0 + 41 },
          ],
        });
        const parse = async () => counters(await store.listEdges('p', { to: 'parse_json' }));
        expect(await parse()).toEqual([
          `dependency read_file->parse_json observed count=3 ok=3 failed=1 first=${T0 + 1} last=${T0 + 31}`,
          `sequence read_file->parse_json observed count=3 ok=3 failed=1 first=${T0 + 1} last=${T0 + 31}`,
        ]);
        const forget = (ids: string[]) =>
          store.deleteExecutions('p', ids, { workflow: workflowOfRun, unlearn: unlearnRun });
        // The latest confirmation goes: the edge is dated by the runs left, and its count no longer earns `observed`.
        expect(await forget(['r4'])).toEqual(['r4']);
        expect(await parse()).toEqual([
          `dependency read_file->parse_json inferred count=2 ok=2 failed=1 first=${T0 + 1} last=${T0 + 11}`,
          `sequence read_file->parse_json inferred count=2 ok=2 failed=1 first=${T0 + 1} last=${T0 + 11}`,
        ]);
        const wf = async () => (await store.listWorkflows('p')).map((w) => [w.key, w.runs, w.successes, w.lastSeen]);
        expect(await wf()).toEqual([
          ['read_file>write_file', 1, 0, T0 + 40],
          ['read_file>parse_json', 3, 2, T0 + 20],
        ]);
        expect((await store.calledTools('p')).get('read_file')).toBe(4);
        expect(await forget(['r3', 'r1'])).toEqual(['r1', 'r3']);
        expect(await parse()).toEqual([
          `dependency read_file->parse_json inferred count=1 ok=1 failed=0 first=${T0 + 11} last=${T0 + 11}`,
          `sequence read_file->parse_json inferred count=1 ok=1 failed=0 first=${T0 + 11} last=${T0 + 11}`,
        ]);
        expect(await wf()).toEqual([
          ['read_file>write_file', 1, 0, T0 + 40],
          ['read_file>parse_json', 1, 1, T0 + 10],
        ]);
        // Nothing left of what the runs taught: the edges and the workflows go; the declared edge stays declared.
        expect(await forget(['r2', 'r5'])).toEqual(['r2', 'r5']);
        expect(await parse()).toEqual([]);
        expect(await wf()).toEqual([]);
        expect(counters(await store.listEdges('p'))).toEqual([
          'dependency read_file->write_file template count=0 ok=0 failed=0 first=null last=null',
        ]);
        expect(await store.calledTools('p')).toEqual(new Map());
        expect((await store.counts('p')).edges).toBe(1);
      });

      test('deleting a run keeps an intent in the workflows while another run still has it', async () => {
        const store = await fresh();
        const run = (id: string): ExecutionRecord => ({
          id,
          intent: 'run the tests',
          startedAt: T0,
          calls: [{ tool: 'search', status: 'success', retries: 0, consumes: [] }],
        });
        await store.insertExecution('p', run('cc-a-1'));
        await store.insertExecution('p', run('cc-b-1'));
        await store.mergeWorkflows('p', [wfMerge(['search', 'fetch'], { intent: 'run the tests', at: T0 })]);
        expect(await store.deleteExecutions('p', ['cc-a-1'])).toEqual(['cc-a-1']);
        expect((await store.listWorkflows('p'))[0]?.intents).toEqual(['run the tests']);
        expect(await store.deleteExecutions('p', ['cc-b-1'])).toEqual(['cc-b-1']);
        expect((await store.listWorkflows('p'))[0]?.intents).toEqual([]);
      });

      test('merges add runs and successes, widen first and last use, keep 5 latest intents', async () => {
        const store = await fresh();
        const intents = ['find a', 'find b', 'find a', 'find c', 'find d', 'find e', 'find f'];
        await store.mergeWorkflows(
          'p',
          intents.map((intent, i) => wfMerge(['search', 'fetch'], { intent, at: T0 + i * DAY, successes: i % 2 })),
        );
        await store.mergeWorkflows('p', [wfMerge(['search', 'fetch'], { intent: 'old one', at: T0 - DAY })]);
        const [w, ...rest] = await store.listWorkflows('p');
        expect(rest).toEqual([]);
        expect(w).toEqual({
          id: 'wf-search>fetch',
          key: 'search>fetch',
          tools: ['search', 'fetch'],
          edges: [['search', 'fetch']],
          intents: ['find f', 'find e', 'find d', 'find c', 'find a'],
          intentsAt: [6, 5, 4, 3, 2].map((i) => T0 + i * DAY),
          runs: 8,
          successes: 4,
          firstSeen: T0 - DAY,
          lastSeen: T0 + 6 * DAY,
        });
        expect(await store.listWorkflows('q')).toEqual([]);
      });

      test('the 5 latest intents are by time, whatever order runs are merged in (walk 19)', async () => {
        // Run i at day i; merged out of time order (a teammate's late record), one at a time and all at once.
        const order = [1, 2, 3, 9, 8, 7, 6, 5, 4, 0];
        const merge = (i: number) => wfMerge(['search', 'fetch'], { intent: `fix file ${i}`, at: T0 + i * DAY });
        const oneByOne = await fresh();
        for (const i of order) await oneByOne.mergeWorkflows('p', [merge(i)]);
        await oneByOne.mergeWorkflows('q', order.map(merge));
        // An intent seen again, earlier than its latest run, keeps its place.
        await oneByOne.mergeWorkflows('p', [wfMerge(['search', 'fetch'], { intent: 'fix file 8', at: T0 })]);
        for (const scope of ['p', 'q']) {
          const [w] = await oneByOne.listWorkflows(scope);
          expect([w?.intents, w?.intentsAt]).toEqual([
            [9, 8, 7, 6, 5].map((i) => `fix file ${i}`),
            [9, 8, 7, 6, 5].map((i) => T0 + i * DAY),
          ]);
        }
      });

      test('workflows list most recently used first, up to a limit', async () => {
        const store = await fresh();
        await store.mergeWorkflows('p', [
          wfMerge(['a'], { at: T0 + 2 }),
          wfMerge(['b'], { at: T0 + 3 }),
          wfMerge(['c'], { at: T0 + 1 }),
        ]);
        expect((await store.listWorkflows('p')).map((w) => w.key)).toEqual(['b', 'a', 'c']);
        expect((await store.listWorkflows('p', { limit: 2 })).map((w) => w.key)).toEqual(['b', 'a']);
      });

      test('a merge leaving no run deletes; replace and deleteWorkflows empty the scope only', async () => {
        const store = await fresh();
        await store.mergeWorkflows('p', [wfMerge(['a']), wfMerge(['b']), wfMerge(['c'], { runs: -1, successes: -1 })]);
        await store.mergeWorkflows('q', [wfMerge(['a'])]);
        await store.mergeWorkflows('p', [wfMerge(['a'], { runs: -1, successes: -1 })]);
        expect((await store.listWorkflows('p')).map((w) => w.key)).toEqual(['b']);
        await store.mergeWorkflows('p', [wfMerge(['c'])], { replace: true });
        expect((await store.listWorkflows('p')).map((w) => w.key)).toEqual(['c']);
        expect(await store.deleteWorkflows('p')).toBe(1);
        expect(await store.listWorkflows('p')).toEqual([]);
        expect((await store.listWorkflows('q')).map((w) => w.key)).toEqual(['a']);
      });

      test('a workflow intent is stored scrubbed of secrets', async () => {
        const store = await fresh();
        const pat = 'ghp_' + 'W1w2E3r4T5y6U7i8O9p0A1s2D3f4G5h6J7k8';
        await store.mergeWorkflows('p', [wfMerge(['a'], { intent: `push with ${pat}` })]);
        expect(JSON.stringify(await store.listWorkflows('p'))).not.toContain(pat);
      });

      test('recording executions merges each into its workflow in the same write', async () => {
        const store = await fresh();
        const run = (id: string, intent: string, tools: string[], at: number): ExecutionRecord => ({
          id,
          intent,
          startedAt: at,
          calls: tools.map((tool, i) => sessionCall(tool, i)),
        });
        await store.recordExecutions(
          'p',
          [
            { execution: run('r1', 'find a', ['search', 'fetch'], T0), events: [] },
            { execution: run('r2', 'find b', ['search', 'fetch'], T0 + 1), events: [] },
            { execution: run('r3', 'mail it', ['send'], T0 + 2), events: [] },
            { execution: run('r4', '', ['send'], T0 + 3), events: [] },
          ],
          foldEdge,
          { workflow: workflowOfRun },
        );
        expect(
          (await store.listWorkflows('p')).map((w) => [w.key, w.runs, w.successes, w.intents, w.lastSeen]),
        ).toEqual([
          ['send', 1, 1, ['mail it'], T0 + 2],
          ['search>fetch', 2, 2, ['find b', 'find a'], T0 + 1],
        ]);
        await store.recordExecutions('p', [{ execution: run('r5', 'x', ['send'], T0), events: [] }], foldEdge);
        expect((await store.listWorkflows('p')).map((w) => w.runs)).toEqual([1, 2]);
      });

      test('appended calls move their execution from its old workflow to its new one, in the same write', async () => {
        const store = await fresh();
        const move = (before: readonly CallRecord[], after: readonly CallRecord[], e: { intent: string }) => [
          ...(before.length === 0 ? [] : [{ ...wfMerge(before.map((c) => c.tool)), runs: -1, successes: -1 }]),
          wfMerge(
            after.map((c) => c.tool),
            { intent: e.intent },
          ),
        ];
        await store.appendCalls('p', HEAD, () => [sessionCall('Read', 0)], learnAppended, foldEdge, {
          workflows: move,
        });
        expect((await store.listWorkflows('p')).map((w) => [w.key, w.runs, w.intents])).toEqual([
          ['Read', 1, [HEAD.intent]],
        ]);
        await store.appendCalls(
          'p',
          { ...HEAD, intent: 'ignored: the execution exists' },
          () => [sessionCall('Edit', 1)],
          learnAppended,
          foldEdge,
          { workflows: move },
        );
        expect((await store.listWorkflows('p')).map((w) => [w.key, w.runs, w.intents])).toEqual([
          ['Read>Edit', 1, [HEAD.intent]],
        ]);
      });

      test('workflows rebuild from the executions, oldest first; ifPending only a scope not marked built', async () => {
        const store = await fresh();
        const calls = [sessionCall('search', 0), sessionCall('fetch', 1, { status: 'failure' })];
        await store.insertExecution('p', { id: 'e2', intent: 'find b', startedAt: T0 + 1, calls });
        await store.insertExecution('p', { id: 'e1', intent: 'find a', startedAt: T0, calls });
        await store.insertExecution('p', { id: 'e3', intent: 'nothing run', startedAt: T0, calls: [] });
        await store.insertExecution('q', { id: 'e4', intent: 'elsewhere', startedAt: T0, calls });
        // As an older server leaves an upgraded store: one run merged into workflows that were never built.
        const one = workflowOfRun({ id: 'e2', intent: 'find b', startedAt: T0 + 1, calls });
        await store.mergeWorkflows('p', one === undefined ? [] : [one]);
        expect((await store.listWorkflows('p')).map((w) => w.runs)).toEqual([1]);
        expect(await store.rebuildWorkflows('p', workflowOfRun, { ifPending: true })).toBe(true);
        const rebuilt = await store.listWorkflows('p');
        expect(rebuilt.map((w) => [w.key, w.runs, w.successes, w.intents, w.firstSeen, w.lastSeen])).toEqual([
          ['search>fetch', 2, 0, ['find b', 'find a'], T0, T0 + 1],
        ]);
        expect(await store.rebuildWorkflows('p', workflowOfRun, { ifPending: true })).toBe(false);
        expect(await store.rebuildWorkflows('q', workflowOfRun, { ifPending: true })).toBe(true);
        expect(await store.rebuildWorkflows('p', workflowOfRun)).toBe(true);
        expect(await store.listWorkflows('p')).toEqual(rebuilt);
        expect((await store.listWorkflows('q')).map((w) => w.runs)).toEqual([1]);
      });

      test("clearWorkflowBuilds takes every scope's mark: each is built again at its next use", async () => {
        const store = await fresh();
        // Read while empty, as `credence workflows` on a new store does: both scopes marked built from no runs.
        expect(await store.rebuildWorkflows('p', workflowOfRun, { ifPending: true })).toBe(true);
        expect(await store.rebuildWorkflows('q', workflowOfRun, { ifPending: true })).toBe(true);
        const calls = [sessionCall('search', 0), sessionCall('fetch', 1)];
        await store.insertExecution('p', { id: 'e1', intent: 'find a', startedAt: T0, calls });
        expect(await store.rebuildWorkflows('p', workflowOfRun, { ifPending: true })).toBe(false);
        await store.clearWorkflowBuilds();
        expect(await store.rebuildWorkflows('p', workflowOfRun, { ifPending: true })).toBe(true);
        expect(await store.rebuildWorkflows('q', workflowOfRun, { ifPending: true })).toBe(true);
        expect((await store.listWorkflows('p')).map((w) => [w.key, w.runs])).toEqual([['search>fetch', 1]]);
      });
    });

    describe('RevisionStore and VectorIndexStore: revisions, the change log, persisted matrices', () => {
      test('every write to an indexed row bumps its revision and logs its id; deletions as tombstones', async () => {
        const store = await fresh();
        expect(await store.revision('p')).toBe(0);
        expect(await store.changedSince('p', 'memory', 0)).toEqual({ revision: 0, changed: [], removed: [] });
        await store.upsertMemories('p', [memory({ id: 'a' }), memory({ id: 'b', title: 'Other' })]);
        const r1 = await store.revision('p');
        expect(r1).toBeGreaterThan(0);
        expect(await store.revision('q')).toBe(0);
        expect((await store.changedSince('p', 'memory', 0)).changed.sort()).toEqual(['a', 'b']);
        await store.upsertMemories('p', [memory({ id: 'a', text: 'new text' })]);
        const r2 = await store.revision('p');
        expect(r2).toBeGreaterThan(r1);
        expect(await store.changedSince('p', 'memory', r1)).toEqual({ revision: r2, changed: ['a'], removed: [] });
        await store.deleteMemory('p', 'b');
        const r3 = await store.revision('p');
        expect(await store.changedSince('p', 'memory', r2)).toEqual({ revision: r3, changed: [], removed: ['b'] });
        // Written then deleted since r1: removed only.
        expect(await store.changedSince('p', 'memory', r1)).toEqual({ revision: r3, changed: ['a'], removed: ['b'] });
        expect(await store.changedSince('p', 'observation', 0)).toEqual({ revision: r3, changed: [], removed: [] });

        await store.insertObservations('p', [observation({ id: 'o1' })]);
        await store.insertExecution('p', { id: 'e1', intent: 'deploy', startedAt: T0, calls: [] });
        const r4 = await store.revision('p');
        expect((await store.changedSince('p', 'observation', r3)).changed).toEqual(['o1']);
        expect((await store.changedSince('p', 'execution', r3)).changed).toEqual(['e1']);
        await store.appendCalls(
          'p',
          { id: 'e1', intent: 'deploy', startedAt: T0 },
          () => [SESSION[0] as CallRecord],
          learnAppended,
          foldEdge,
        );
        const r5 = await store.revision('p');
        expect(r5).toBeGreaterThan(r4);
        expect((await store.changedSince('p', 'execution', r4)).changed).toEqual(['e1']);
        // appendCalls met an unknown tool: it joined the catalogue, logged as a tool change.
        expect((await store.changedSince('p', 'tool', r4)).changed).toEqual(['read_file']);
        await store.upsertTools('p', [{ id: 'grep', description: 'search text' }]);
        expect((await store.changedSince('p', 'tool', r5)).changed).toEqual(['grep']);
        const r6 = await store.revision('p');
        await store.putEdge('p', edge());
        expect(await store.revision('p')).toBeGreaterThan(r6);
        // A replaced edge names its tools in the log, as a recorded call does: a patched graph snapshot reads it again.
        const r7 = await store.revision('p');
        await store.putEdge('p', edge({ firstSeen: T0 - 86_400_000, lastSeen: T0 - 86_400_000 }));
        expect(await store.revision('p')).toBeGreaterThan(r7);
        expect((await store.changedSince('p', 'tool', r7)).changed.sort()).toEqual(['parse_json', 'read_file']);
        await store.deleteObservation('p', 'o1');
        expect((await store.changedSince('p', 'observation', r6)).removed).toEqual(['o1']);
      });

      test('a restore (importRows) logs its rows as changes', async () => {
        const store = await fresh();
        await store.importRows('memories', [
          {
            scope: 'p',
            id: 'm1',
            category: 'note',
            title: 't',
            text: 'x',
            tags: '',
            path: null,
            confidence: null,
            intent: null,
            created_at: T0,
            updated_at: T0,
          },
        ]);
        expect(await store.changedSince('p', 'memory', 0)).toMatchObject({ changed: ['m1'], removed: [] });
        expect(await store.revision('p')).toBeGreaterThan(0);
      });

      test('rows are read by id in batches, in the order asked, missing ids left out', async () => {
        const store = await fresh();
        await store.upsertMemories('p', [memory({ id: 'a' }), memory({ id: 'b', title: 'B' })]);
        await store.upsertMemories('q', [memory({ id: 'c' })]);
        expect((await store.getMemoriesByIds('p', ['b', 'zz', 'a', 'c', 'b'])).map((m) => m.id)).toEqual(['b', 'a']);
        expect(await store.getMemoriesByIds('p', [])).toEqual([]);
        expect(await store.getMemoriesByIds('p', ['a'])).toEqual([await store.getMemory('p', 'a')]);
        // The highest number after a prefix: digits only, this scope only, not read as text ('10' > '9').
        await store.upsertMemories(
          'p',
          ['t-s-9', 't-s-10', 't-s-2x', 't-s-', 't-st-99', 't-s.5'].map((id) => memory({ id })),
        );
        await store.upsertMemories('q', [memory({ id: 't-s-50' })]);
        expect(await store.highestIdNumber('p', 't-s-')).toBe(10);
        expect(await store.highestIdNumber('p', 't-none-')).toBeUndefined();
        await store.insertObservations('p', [observation({ id: 'o1' }), observation({ id: 'o2', observation: 'x' })]);
        expect((await store.getObservationsByIds('p', ['o2', 'o1'])).map((o) => o.id)).toEqual(['o2', 'o1']);
        const run: ExecutionRecord = { id: 'e1', intent: 'deploy', startedAt: T0, calls: SESSION.slice(0, 3) };
        await store.insertExecution('p', run);
        await store.insertExecution('p', { id: 'e2', intent: 'other', startedAt: T0, calls: [] });
        expect(await store.getExecutionsByIds('p', ['e2', 'e1'])).toEqual([
          await store.getExecution('p', 'e2'),
          await store.getExecution('p', 'e1'),
        ]);
        expect((await store.getExecutionsByIds('p', ['e1'], { calls: false }))[0]?.calls).toEqual([]);
        await store.upsertTools('p', [{ id: 't1', description: 'one' }]);
        expect((await store.getToolsByIds('p', ['t1', 'nope'])).map((t) => t.description)).toEqual(['one']);
        const vector = new Float32Array([0.6, 0.8]);
        await store.putEmbeddings('p', 'memory', [
          { refId: 'a', modelKey: 'k', textHash: 'h', vector },
          { refId: 'b', modelKey: 'k', textHash: 'h2', vector },
        ]);
        expect((await store.getEmbeddingsFor('p', 'memory', ['b', 'x'])).map((e) => [e.refId, e.textHash])).toEqual([
          ['b', 'h2'],
        ]);
      });

      test('countEdges counts the edges of the scope alone', async () => {
        const store = await fresh();
        expect(await store.countEdges('p')).toBe(0);
        await store.putEdge('p', edge());
        await store.putEdge('p', edge({ type: 'dependency' }));
        await store.putEdge('p', edge({ count: 9 }));
        await store.putEdge('q', edge());
        expect(await store.countEdges('p')).toBe(2);
        expect(await store.countEdges('q')).toBe(1);
        expect(await store.countEdges('r')).toBe(0);
      });

      test('a persisted matrix round-trips by chunks, written only over the revision it was read at', async () => {
        const store = await fresh();
        expect(await store.readVectorIndex('p', 'memory')).toBeUndefined();
        const header = { modelKey: 'k:2', generation: 'g1', revision: 3, dim: 2, rows: 3, chunks: 2 };
        const c0 = { chunk: 0, ids: ['a', 'b'], hashes: ['h1', 'h2'], data: new Float32Array([1, 0, 0, 1]) };
        const c1 = { chunk: 1, ids: ['c'], hashes: ['h3'], data: new Float32Array([0.6, 0.8]) };
        expect(await store.writeVectorChunks('p', 'memory', { expect: null, header, chunks: [c0, c1] })).toBe(true);
        const back = await store.readVectorIndex('p', 'memory');
        expect(back?.header).toEqual(header);
        expect(back?.chunks.map((c) => [c.chunk, c.ids, c.hashes, [...c.data]])).toEqual([
          [0, ['a', 'b'], ['h1', 'h2'], [1, 0, 0, 1]],
          [1, ['c'], ['h3'], [[0.6, 0.8].map(Math.fround)].flat()],
        ]);
        // Another writer moved it: a write from the old revision is refused, nothing changes.
        const stale = { expect: { revision: 2, generation: 'g1' }, header: { ...header, revision: 4 }, chunks: [] };
        expect(await store.writeVectorChunks('p', 'memory', stale)).toBe(false);
        expect(await store.writeVectorChunks('p', 'memory', { ...stale, expect: null })).toBe(false);
        // Another build at the same revision (another generation) is not this one.
        expect(
          await store.writeVectorChunks('p', 'memory', { ...stale, expect: { revision: 3, generation: 'g0' } }),
        ).toBe(false);
        expect((await store.readVectorIndex('p', 'memory'))?.header).toEqual(header);
        // A write touching one chunk and shrinking to one chunk drops the rest.
        const shrink = { modelKey: 'k:2', generation: 'g1', revision: 5, dim: 2, rows: 2, chunks: 1 };
        const expectNow = { revision: 3, generation: 'g1' };
        expect(await store.writeVectorChunks('p', 'memory', { expect: expectNow, header: shrink, chunks: [] })).toBe(
          true,
        );
        expect((await store.readVectorIndex('p', 'memory'))?.chunks.map((c) => c.ids)).toEqual([['a', 'b']]);
        expect(await store.readVectorIndex('q', 'memory')).toBeUndefined();
        await store.deleteVectorIndex('p');
        expect(await store.readVectorIndex('p', 'memory')).toBeUndefined();
      });

      test('a matrix is read without its floats (int8 copies alone), some chunks whole at its revision', async () => {
        const store = await fresh();
        const header = { modelKey: 'k:2', generation: 'g1', revision: 3, dim: 2, rows: 3, chunks: 2 };
        const codes = new Uint8Array([1, 2, 3, 250]);
        const c0 = { chunk: 0, ids: ['a', 'b'], hashes: ['h1', 'h2'], data: new Float32Array([1, 0, 0, 1]) };
        const coded = { ...c0, codes, codeKeys: 'ab' };
        const c1 = { chunk: 1, ids: ['c'], hashes: ['h3'], data: new Float32Array([0.6, 0.8]) };
        expect(await store.writeVectorChunks('p', 'memory', { expect: null, header, chunks: [coded, c1] })).toBe(true);
        await store.writeVectorChunks('p', 'other', { expect: null, header, chunks: [coded] });
        const light = await store.readVectorIndex('p', 'memory', { floats: false });
        expect(light?.header).toEqual(header);
        // The chunks that have a copy: chunk 1 was written without one.
        expect(light?.chunks.map((c) => [c.chunk, c.ids, c.data.length, [...(c.codes ?? [])], c.codeKeys])).toEqual([
          [0, [], 0, [1, 2, 3, 250], 'ab'],
        ]);
        const at = { revision: 3, generation: 'g1' };
        const some = await store.readVectorChunks('p', 'memory', { chunks: [1, 1, 7], expect: at });
        expect(some?.map((c) => [c.chunk, c.ids, c.hashes, [...c.data]])).toEqual([
          [1, ['c'], ['h3'], [0.6, 0.8].map(Math.fround)],
        ]);
        expect(await store.readVectorChunks('p', 'memory', { chunks: [0], expect: { ...at, generation: 'g0' } })).toBe(
          undefined,
        );
        // Chunk 0 written again without its copy: the old copy, made from other floats, is gone.
        const next = { ...header, revision: 4 };
        await store.writeVectorChunks('p', 'memory', { expect: at, header: next, chunks: [c0] });
        expect((await store.readVectorIndex('p', 'memory', { floats: false }))?.chunks).toEqual([]);
        await store.deleteVectorIndex('p', 'memory');
        expect(await store.readVectorIndex('p', 'memory', { floats: false })).toBeUndefined();
        expect((await store.readVectorIndex('p', 'other', { floats: false }))?.chunks[0]?.codes?.length).toBe(4);
      });
    });

    describe('EmbeddingStore: vectors', () => {
      test('embeddings round-trip with the key of the model that made them', async () => {
        const store = await fresh();
        const vector = new Float32Array([0.6, 0.8, 0]);
        await store.putEmbeddings('p', 'tool', [
          { refId: 'a', modelKey: 'word-vectors:glove:3', textHash: 'h1', vector },
        ]);
        await store.putEmbeddings('p', 'tool', [
          { refId: 'a', modelKey: 'ollama:nomic:3', textHash: 'h2', vector: new Float32Array([1, 0, 0]) },
        ]);
        const back = await store.getEmbeddings('p', 'tool');
        expect(back.map((e) => [e.refId, e.modelKey, e.textHash, [...e.vector]])).toEqual([
          ['a', 'ollama:nomic:3', 'h2', [1, 0, 0]],
        ]);
        expect(await store.getEmbeddings('p', 'memory')).toEqual([]);
        expect(await store.getEmbeddings('q', 'tool')).toEqual([]);
        // The stamps alone: enough to tell a stale vector without reading any.
        expect(await store.getEmbeddingStamps('p', 'tool')).toEqual([
          { refId: 'a', modelKey: 'ollama:nomic:3', textHash: 'h2' },
        ]);
        expect(await store.getEmbeddingStamps('q', 'tool')).toEqual([]);
      });

      test('a store ranking vectors finds the nearest by inner product (ties by kind, id) and rows asked', async () => {
        const store = await fresh();
        if (store.vectorRanking === 'node') {
          // Ranking in Node: the callers read the vectors; a store that has the method refuses it.
          if (store.nearestEmbeddings !== undefined) {
            await expect(
              store.nearestEmbeddings('p', { kinds: ['tool'], modelKey: 'm', vector: new Float32Array([1]), k: 1 }),
            ).rejects.toThrow(/ranks vectors in Node/);
          }
          return;
        }
        const nearest = store.nearestEmbeddings?.bind(store);
        if (nearest === undefined) throw new Error(`vectorRanking ${store.vectorRanking} without nearestEmbeddings`);
        const key = 'test:unit:3';
        const put = (kind: 'tool' | 'memory', refId: string, v: number[], modelKey = key) =>
          store.putEmbeddings('p', kind, [{ refId, modelKey, textHash: 'h', vector: new Float32Array(v) }]);
        await put('tool', 'b', [0.6, 0.8, 0]);
        await put('tool', 'a', [0.6, 0.8, 0]);
        await put('memory', 'a', [0.6, 0.8, 0]);
        await put('tool', 'far', [0, 0, 1]);
        await put('tool', 'other-model', [0.6, 0.8, 0], 'test:other:3');
        await store.putEmbeddings('q', 'tool', [
          { refId: 'other-scope', modelKey: key, textHash: 'h', vector: new Float32Array([0.6, 0.8, 0]) },
        ]);
        const rows = await nearest('p', {
          kinds: ['tool', 'memory'],
          modelKey: key,
          vector: new Float32Array([0.6, 0.8, 0]),
          k: 3,
          also: [{ kind: 'tool', refId: 'far' }],
        });
        expect(rows.map((r) => [r.kind, r.refId, r.rank, [...r.vector]])).toEqual([
          ['memory', 'a', 0, [0.6000000238418579, 0.800000011920929, 0]],
          ['tool', 'a', 1, [0.6000000238418579, 0.800000011920929, 0]],
          ['tool', 'b', 2, [0.6000000238418579, 0.800000011920929, 0]],
          ['tool', 'far', -1, [0, 0, 1]],
        ]);
      });
    });

    describe('ObservationStore: observations', () => {
      test('observations import once: the same content again is a duplicate, even under another id', async () => {
        const store = await fresh();
        const batch = [observation(), observation({ id: 'obs-2', timestamp: T0 + DAY, confidence: 0.5 })];
        expect(await store.insertObservations('p', batch)).toEqual({ inserted: 2, duplicates: 0 });
        expect(await store.insertObservations('p', batch)).toEqual({ inserted: 0, duplicates: 2 });
        expect(await store.insertObservations('p', [observation({ id: 'other-id' })])).toEqual({
          inserted: 0,
          duplicates: 1,
        });
        expect((await store.counts('p')).observations).toBe(2);
        const since = await store.listObservations('p', { since: T0 + 1 });
        expect(since.map((o) => o.id)).toEqual(['obs-2']);
        expect((await store.listObservations('p'))[0]).toEqual(observation());
      });

      test('observations are found by full text within their scope', async () => {
        const store = await fresh();
        await store.insertObservations('p', [
          observation(),
          observation({
            id: 'obs-2',
            observation: 'Tests run before every commit',
            tags: ['workflow'],
            evidence: ['ci log'],
            context: { task: 'ship the release' },
          }),
        ]);
        await store.insertObservations('q', [observation({ id: 'obs-q', observation: 'camelCase everywhere' })]);
        const hits = await store.searchObservations('p', '"camelcase"');
        expect(hits.map((h) => h.observation.id)).toEqual(['obs-1']);
        expect(hits[0]?.observation).toEqual(observation());
        expect((await store.searchObservations('p', '"workflow"')).map((h) => h.observation.id)).toEqual(['obs-2']);
        // Evidence and the task are searchable too.
        expect((await store.searchObservations('p', '"review" AND "comment"')).map((h) => h.observation.id)).toEqual([
          'obs-1',
        ]);
        expect((await store.searchObservations('p', '"rename"')).map((h) => h.observation.id)).toEqual(['obs-1']);
      });
    });

    describe('StatsStore: aggregates counted in the database', () => {
      test('runs, calls and observations per day equal a count over every row, at day edges too', async () => {
        const store = await fresh();
        const now = T0 + 0.25 * DAY;
        const days = 7;
        // Instants at and around day boundaries, before the window, after now, and in another scope.
        const offsets = [0, 1, DAY - 1, DAY, DAY + 1, 2.5 * DAY, 6 * DAY, 7 * DAY - 1, 7 * DAY, 9 * DAY, -1, -DAY];
        const call = (tool: string) => ({ tool, status: 'success' as const, retries: 0, consumes: [] });
        for (const [i, back] of offsets.entries()) {
          const calls = Array.from({ length: i % 4 }, (_, k) => call(`tool_${k}`));
          await store.insertExecution('p', { id: `run-${i}`, intent: `task ${i}`, startedAt: now - back, calls });
        }
        await store.insertExecution('q', { id: 'elsewhere', intent: 'other', startedAt: now, calls: [call('x')] });
        await store.insertObservations(
          'p',
          offsets.map((back, i) => observation({ id: `obs-${i}`, observation: `seen ${i}`, timestamp: now - back })),
        );
        await store.insertObservations('q', [observation({ id: 'obs-q', timestamp: now })]);
        // The oracle: the UTC calendar day of every row, counted back from now's date, in JavaScript.
        const expected = {
          executions: Array(days).fill(0),
          calls: Array(days).fill(0),
          observations: Array(days).fill(0),
        };
        const dayOf = (at: number) => (at > now ? -1 : Math.floor(now / DAY) - Math.floor(at / DAY));
        for (const e of await store.listExecutions('p')) {
          const d = dayOf(e.startedAt);
          if (d < 0 || d >= days) continue;
          expected.executions[d] += 1;
          expected.calls[d] += e.calls.length;
        }
        for (const o of await store.listObservations('p')) {
          const d = dayOf(o.timestamp);
          if (d >= 0 && d < days) expected.observations[d] += 1;
        }
        const got = await store.activityByDay('p', { now, days });
        expect(got).toEqual(expected);
        expect(got.executions).toEqual([2, 3, 1, 0, 0, 0, 1]);
        expect(await store.activityByDay('empty', { now, days: 3 })).toEqual({
          executions: [0, 0, 0],
          calls: [0, 0, 0],
          observations: [0, 0, 0],
        });
      });

      test('a day is a UTC calendar day: runs at 09:00Z and 21:00Z on one date count on that date', async () => {
        const store = await fresh();
        const at = (iso: string) => Date.parse(iso);
        await store.insertExecution('p', {
          id: 'morning',
          intent: 'a',
          startedAt: at('2026-11-20T09:00:00Z'),
          calls: [],
        });
        await store.insertExecution('p', {
          id: 'evening',
          intent: 'b',
          startedAt: at('2026-11-20T21:00:00Z'),
          calls: [],
        });
        await store.insertExecution('p', {
          id: 'today',
          intent: 'c',
          startedAt: at('2026-11-27T00:30:00Z'),
          calls: [],
        });
        const got = await store.activityByDay('p', { now: at('2026-11-27T20:00:00Z'), days: 10 });
        // Day 0 is 2026-11-27 (00:00Z to now), day 7 is 2026-11-20.
        expect(got.executions).toEqual([1, 0, 0, 0, 0, 0, 0, 2, 0, 0]);
        // At midnight exactly, day 0 is the new date.
        const midnight = await store.activityByDay('p', { now: at('2026-11-28T00:00:00Z'), days: 10 });
        expect(midnight.executions).toEqual([0, 1, 0, 0, 0, 0, 0, 0, 2, 0]);
      });

      test('observations are counted per type in their scope', async () => {
        const store = await fresh();
        await store.insertObservations('p', [
          observation(),
          observation({ id: 'obs-2', observation: 'second', type: 'pattern' }),
          observation({ id: 'obs-3', observation: 'third', type: 'pattern' }),
        ]);
        await store.insertObservations('q', [observation({ id: 'obs-q', observation: 'other', type: 'error' })]);
        expect(await store.observationTypeCounts('p')).toEqual({ correction: 1, pattern: 2 });
        expect(await store.observationTypeCounts('none')).toEqual({});
      });
    });

    describe('MemoryStore: memories', () => {
      test('memories are found by full text with porter stemming, within their scope only', async () => {
        const store = await fresh();
        await store.upsertMemories('p', [
          memory(),
          memory({ id: 'mem-2', title: 'Database migrations', text: 'Run migrations before deploy.', tags: ['db'] }),
        ]);
        await store.upsertMemories('q', [memory({ id: 'mem-q', title: 'Other project token refresh' })]);
        const hits = await store.searchMemories('p', '"refreshing"');
        expect(hits.map((h) => h.memory.id)).toEqual(['mem-1']);
        expect(hits[0]?.bm25).toBeLessThan(0);
        expect(hits[0]?.memory.tags).toEqual(['auth', 'jwt']);
        expect((await store.searchMemories('p', '"jwt"')).map((h) => h.memory.id)).toEqual(['mem-1']);
        expect(await store.searchMemories('p', '"nothing"')).toEqual([]);
        expect((await store.listMemories('p')).map((m) => m.id)).toEqual(['mem-1', 'mem-2']);
      });

      test('updating a memory re-indexes it', async () => {
        const store = await fresh();
        await store.upsertMemories('p', [memory()]);
        expect(
          await store.upsertMemories('p', [
            memory({ text: 'Sessions now use opaque cookies.', title: 'Session cookies', tags: [] }),
          ]),
        ).toEqual({
          inserted: 0,
          updated: 1,
        });
        expect(await store.searchMemories('p', '"refreshed"')).toEqual([]);
        expect((await store.searchMemories('p', '"cookies"')).map((h) => h.memory.id)).toEqual(['mem-1']);
        expect(await store.check()).toEqual([]);
      });

      test("a memory keeps a user's own category (runbook, bug, pattern): stored, found, dumped as given", async () => {
        const store = await fresh();
        const own = ['runbook', 'bug', 'pattern', 'a-32-character-category-name-xyz'];
        await store.upsertMemories(
          'p',
          own.map((category, i) =>
            memory({ id: `mem-${category}`, category, title: `Deploy step ${i}`, text: `Restart the worker ${i}.` }),
          ),
        );
        for (const category of own) expect((await store.getMemory('p', `mem-${category}`))?.category).toBe(category);
        expect((await store.searchMemories('p', '"restart"')).map((h) => h.memory.category).sort()).toEqual(
          [...own].sort(),
        );
        const dumped: string[] = [];
        for await (const batch of store.exportRows('memories')) dumped.push(...batch.map((r) => String(r.category)));
        expect(dumped.sort()).toEqual([...own].sort());
        expect(await store.check()).toEqual([]);
      });

      test("a memory's life (issue 23) is stored, read, rewritten, dumped and restored as given", async () => {
        const store = await fresh();
        const life = {
          validFrom: 1_000,
          validTo: 2_000,
          status: 'superseded' as const,
          supersededBy: 'mem-2',
          why: 'mem-2 says "moved" about the same title (main, store)',
          seen: 3,
          lastSeen: 1_500,
          sources: ['notes/db.md'],
          turn: { speaker: 'Caroline', session: 's1', index: 4 },
        };
        await store.upsertMemories('p', [memory({ life }), memory({ id: 'mem-2', title: 'Database' })]);
        expect((await store.getMemory('p', 'mem-1'))?.life).toEqual(life);
        expect((await store.getMemory('p', 'mem-2'))?.life).toBeUndefined();
        expect((await store.searchMemories('p', '"refreshing"'))[0]?.memory.life).toEqual(life);
        // A status change is a write: the row is rewritten, the change logged for the kept indexes.
        const before = await store.revision('p');
        await store.upsertMemories('p', [memory({ life: { seen: 4 } })]);
        expect((await store.getMemoriesByIds('p', ['mem-1']))[0]?.life).toEqual({ seen: 4 });
        expect(await store.revision('p')).toBeGreaterThan(before);
        await store.upsertMemories('p', [memory({ life })]);
        const rows: DumpRow[] = [];
        for await (const batch of store.exportRows('memories')) rows.push(...batch);
        const copy = await fresh();
        await copy.importRows('memories', rows);
        expect((await copy.getMemory('p', 'mem-1'))?.life).toEqual(life);
        expect((await copy.getMemory('p', 'mem-2'))?.life).toBeUndefined();
        expect(await copy.check()).toEqual([]);
      });
    });

    describe('LearningStore: instincts and skills', () => {
      test('instincts and skills are upserted by id and listed by confidence', async () => {
        const store = await fresh();
        const base = { status: 'active' as const, evidence: ['obs-1'], createdAt: T0, updatedAt: T0 };
        await store.upsertInstinct('p', {
          id: 'i1',
          slug: 'use-camelcase',
          text: 'Use camelCase',
          confidence: 0.65,
          ...base,
        });
        await store.upsertInstinct('p', {
          id: 'i2',
          slug: 'atomic-commits',
          text: 'Atomic commits',
          confidence: 0.55,
          ...base,
        });
        await store.upsertInstinct('p', {
          id: 'i1',
          slug: 'use-camelcase',
          text: 'Use camelCase',
          confidence: 0.75,
          ...base,
          status: 'promoted',
        });
        expect((await store.listInstincts('p')).map((i) => [i.id, i.confidence, i.status])).toEqual([
          ['i1', 0.75, 'promoted'],
          ['i2', 0.55, 'active'],
        ]);
        await store.upsertSkill('p', {
          id: 's1',
          name: 'testing-discipline',
          description: 'Run the tests before every commit',
          rules: ['always run tests before commit'],
          confidence: 0.95,
          evidence: ['obs-4'],
          createdAt: T0,
          updatedAt: T0,
        });
        expect((await store.listSkills('p'))[0]?.rules).toEqual(['always run tests before commit']);
        expect(await store.listSkills('q')).toEqual([]);
      });

      test('observations are deleted as a set, with their vectors, in their scope only', async () => {
        const store = await fresh();
        const texts = ['Prefer tabs', 'Run the linter', 'Pin versions', 'Squash commits'];
        const rows = texts.map((text, i) => observation({ id: `obs-${i}`, observation: text }));
        await store.insertObservations('p', rows);
        await store.insertObservations('q', rows);
        const vector = { modelKey: 'm', textHash: 'h', vector: new Float32Array([1, 0]) };
        await store.putEmbeddings('p', 'observation', [
          { refId: 'obs-0', ...vector },
          { refId: 'obs-2', ...vector },
        ]);
        expect(await store.deleteObservations('p', ['obs-0', 'obs-2', 'obs-2', 'missing'])).toBe(2);
        expect(await store.deleteObservations('p', [])).toBe(0);
        expect((await store.listObservations('p')).map((o) => o.id).sort()).toEqual(['obs-1', 'obs-3']);
        expect((await store.listObservations('q')).map((o) => o.id).sort()).toEqual([
          'obs-0',
          'obs-1',
          'obs-2',
          'obs-3',
        ]);
        expect(await store.getEmbeddingStamps('p', 'observation')).toEqual([]);
        expect(await store.searchObservations('p', '"linter"')).toHaveLength(1);
        expect(await store.searchObservations('p', '"tabs"')).toEqual([]);
        expect(await store.check()).toEqual([]);
      });

      test('an observation, an instinct and a skill can be deleted, in their scope only', async () => {
        const store = await fresh();
        await store.insertObservations('p', [observation()]);
        await store.insertObservations('q', [observation()]);
        expect(await store.deleteObservation('p', 'obs-1')).toBe(true);
        expect(await store.deleteObservation('p', 'obs-1')).toBe(false);
        expect((await store.listObservations('q')).map((o) => o.id)).toEqual(['obs-1']);
        expect(await store.searchObservations('p', '"camelcase"')).toEqual([]);
        await store.upsertInstinct('p', {
          id: 'i1',
          slug: 's',
          text: 't',
          confidence: 0.6,
          status: 'active',
          evidence: [],
          createdAt: T0,
          updatedAt: T0,
        });
        expect(await store.deleteInstinct('p', 'i1')).toBe(true);
        expect(await store.listInstincts('p')).toEqual([]);
        await store.upsertSkill('p', {
          id: 's1',
          name: 'n',
          description: 'd',
          rules: [],
          confidence: 0.8,
          evidence: [],
          createdAt: T0,
          updatedAt: T0,
        });
        expect(await store.deleteSkill('q', 's1')).toBe(false);
        expect(await store.deleteSkill('p', 's1')).toBe(true);
        await store.upsertMemories('p', [memory()]);
        expect(await store.deleteMemory('p', 'mem-1')).toBe(true);
        expect(await store.searchMemories('p', '"jwt"')).toEqual([]);
      });
      test('a forgotten instinct or skill leaves a tombstone until it is learned again', async () => {
        const store = await fresh();
        const skill = (id: string, name: string) => ({
          id,
          name,
          description: 'd',
          rules: [],
          confidence: 0.8,
          evidence: ['obs-new'],
          createdAt: T0 + 10,
          updatedAt: T0 + 10,
        });
        // Learned again means from new evidence, after the forget: an observation that exists.
        await store.insertObservations('p', [observation({ id: 'obs-new', timestamp: T0 + 10 })]);
        await store.recordForgotten('p', [
          { id: 'skill-ruff', kind: 'skill', name: 'ruff', at: T0 },
          { id: 'instinct-use-ruff', kind: 'instinct', name: 'use-ruff', at: T0 + 1 },
          { id: 'skill-black', kind: 'skill', name: 'black', at: T0 + 2 },
        ]);
        await store.recordForgotten('p', [{ id: 'skill-ruff', kind: 'skill', name: 'ruff', at: T0 + 5 }]);
        await store.recordForgotten('p', []);
        expect(await store.listForgotten('p')).toEqual([
          { id: 'instinct-use-ruff', kind: 'instinct', name: 'use-ruff', at: T0 + 1 },
          { id: 'skill-black', kind: 'skill', name: 'black', at: T0 + 2 },
          { id: 'skill-ruff', kind: 'skill', name: 'ruff', at: T0 + 5 },
        ]);
        expect(await store.listForgotten('q')).toEqual([]);
        // Of one kind, among some names (a session start asks for the names in its skills folder only).
        expect(await store.listForgotten('p', { kind: 'skill', names: ['ruff', 'use-ruff', 'flake8'] })).toEqual([
          { id: 'skill-ruff', kind: 'skill', name: 'ruff', at: T0 + 5 },
        ]);
        expect((await store.listForgotten('p', { kind: 'instinct' })).map((f) => f.id)).toEqual(['instinct-use-ruff']);
        expect((await store.listForgotten('p', { names: ['use-ruff', 'black'] })).map((f) => f.id)).toEqual([
          'instinct-use-ruff',
          'skill-black',
        ]);
        expect(await store.listForgotten('p', { kind: 'skill', names: [] })).toEqual([]);
        // Learned again under its id, or under another id with the same file name: the tombstone goes.
        await store.upsertSkill('p', skill('skill-ruff', 'ruff'));
        await store.upsertSkill('p', skill('skill-black-2', 'black'));
        expect((await store.listForgotten('p')).map((f) => f.id)).toEqual(['instinct-use-ruff']);
        // A skill of another scope, or a skill named as the instinct, clears nothing.
        await store.upsertSkill('q', skill('instinct-use-ruff', 'use-ruff'));
        await store.upsertSkill('p', skill('skill-use-ruff', 'use-ruff'));
        expect((await store.listForgotten('p')).map((f) => f.id)).toEqual(['instinct-use-ruff']);
        await store.upsertInstinct('p', {
          id: 'instinct-use-ruff',
          slug: 'use-ruff',
          text: 'Use ruff',
          confidence: 0.6,
          status: 'active',
          evidence: ['obs-new'],
          createdAt: T0 + 10,
          updatedAt: T0 + 10,
        });
        expect(await store.listForgotten('p')).toEqual([]);
        // A tombstone recorded while an item of its name lives (a forget racing a relearn) is not listed: the file
        // is the live item's.
        await store.recordForgotten('p', [{ id: 'skill-old-ruff', kind: 'skill', name: 'ruff', at: T0 + 9 }]);
        expect(await store.listForgotten('p')).toEqual([]);
        expect(await store.deleteSkill('p', 'skill-ruff')).toBe(true);
        expect((await store.listForgotten('p')).map((f) => f.id)).toEqual(['skill-old-ruff']);
      });
      test("a forgotten session's tombstone is found by its id, and is no instinct's or skill's", async () => {
        const store = await fresh();
        expect(await store.forgottenSessions('p', ['s1'])).toEqual([]);
        await store.recordForgottenSession('p', 's1', T0);
        await store.recordForgottenSession('p', 's1', T0 + 1);
        await store.recordForgottenSession('q', 's2', T0);
        expect(await store.forgottenSessions('p', ['s2', 's1', 'x'])).toEqual(['s1']);
        expect(await store.forgottenSessions('p', [])).toEqual([]);
        expect(await store.listForgotten('p')).toEqual([]);
      });
      test('an evolve that read an item before a forget does not bring it back (walk 13, two machines)', async () => {
        const store = await fresh();
        const ids = ['obs-a', 'obs-b'];
        await store.insertObservations(
          'p',
          ids.map((id, k) => observation({ id, timestamp: T0 + k })),
        );
        const instinct = {
          id: 'instinct-run-prettier',
          slug: 'run-prettier',
          text: 'Run prettier',
          confidence: 0.6,
          status: 'active' as const,
          evidence: ids,
          createdAt: T0,
          updatedAt: T0 + 10,
        };
        const skill = {
          id: 'skill-prettier',
          name: 'prettier',
          description: 'd',
          rules: ['Run prettier'],
          confidence: 0.8,
          evidence: ids,
          createdAt: T0,
          updatedAt: T0 + 10,
        };
        expect(await store.upsertInstinct('p', instinct)).toBe(true);
        expect(await store.upsertSkill('p', skill)).toBe(true);
        // Machine 2's evolve has read them and learned at T0 + 20; machine 1 forgets both at T0 + 30 as engine/forget
        // does: the tombstones, then the rows, then the evidence; machine 2 writes after each step.
        const read = { instinct: { ...instinct, confidence: 0.7, updatedAt: T0 + 20 } };
        const readSkill = { ...skill, confidence: 0.9, updatedAt: T0 + 20 };
        await store.recordForgotten('p', [
          { id: instinct.id, kind: 'instinct', name: 'run-prettier', at: T0 + 30 },
          { id: skill.id, kind: 'skill', name: 'prettier', at: T0 + 30 },
        ]);
        expect(await store.upsertInstinct('p', read.instinct)).toBe(false);
        expect(await store.upsertSkill('p', readSkill)).toBe(false);
        expect((await store.listSkills('p')).map((k) => k.confidence)).toEqual([0.8]);
        await store.deleteInstinct('p', instinct.id);
        await store.deleteSkill('p', skill.id);
        // Review D: a write between the row's delete and its tombstone brought it back; with the tombstone first,
        // none is taken.
        expect(await store.upsertInstinct('p', read.instinct)).toBe(false);
        expect(await store.upsertSkill('p', readSkill)).toBe(false);
        expect(await store.listSkills('p')).toEqual([]);
        await store.deleteObservations('p', ids);
        expect(await store.upsertInstinct('p', read.instinct)).toBe(false);
        expect(await store.upsertSkill('p', readSkill)).toBe(false);
        expect(await store.listInstincts('p')).toEqual([]);
        expect(await store.listSkills('p')).toEqual([]);
        expect((await store.listForgotten('p')).map((f) => f.id)).toEqual([instinct.id, skill.id]);
        // Learned later, but with no evidence, or from evidence that no longer exists: still refused.
        const later = { updatedAt: T0 + 40, evidence: [] as string[] };
        expect(await store.upsertInstinct('p', { ...instinct, ...later })).toBe(false);
        expect(await store.upsertSkill('p', { ...skill, ...later, evidence: ['obs-a'] })).toBe(false);
        expect((await store.listForgotten('p')).map((f) => f.id)).toEqual([instinct.id, skill.id]);
        // Learned again from new evidence after the forget: written, and the tombstone goes.
        await store.insertObservations('p', [observation({ id: 'obs-c', timestamp: T0 + 40 })]);
        const again = { updatedAt: T0 + 40, evidence: ['obs-c'] };
        expect(await store.upsertInstinct('p', { ...instinct, ...again })).toBe(true);
        expect(await store.upsertSkill('p', { ...skill, ...again, name: 'prettier' })).toBe(true);
        expect((await store.listInstincts('p')).map((i) => i.evidence)).toEqual([['obs-c']]);
        expect(await store.listForgotten('p')).toEqual([]);
      });
    });

    describe('FeedbackStore: shown results, verdicts and feedback', () => {
      test('a feedback event is recorded once per id', async () => {
        const store = await fresh();
        const event = { id: 'fb-1', targetId: 'i1', kind: 'validation' as const, at: T0 };
        expect(await store.insertFeedback('p', event)).toEqual({ inserted: 1, duplicates: 0 });
        expect(await store.insertFeedback('p', event)).toEqual({ inserted: 0, duplicates: 1 });
        expect(await store.listFeedback('p', 'i1')).toEqual([event]);
        expect(await store.listFeedback('p', 'other')).toEqual([]);
      });

      test("a session's shown rows: none stored once it is forgotten; forgetShownQueries takes prompts", async () => {
        const store = await fresh();
        const row = (id: string, query: string, session?: string) => ({
          id,
          surface: 'recall' as const,
          target: 'memory:m1',
          query,
          at: T0,
          ...(session === undefined ? {} : { session }),
        });
        const salary = 'my salary is 95k, draft my raise request\nthanks';
        await store.recordShown('p', [row('sh-1', salary, 'live'), row('sh-2', 'hi', 'other'), row('sh-0', salary)]);
        await store.recordShown('p', [row('sh-3', 'an older prompt', undefined), row('sh-4', 'fix it', 'live')]);
        // The same words without a session, a day later (a recall of another surface): not the turn's prompt.
        await store.recordShown('p', [{ ...row('sh-8', salary), at: T0 + 86_400_000 }]);
        expect(await store.getShown('p', 'sh-1')).toEqual({ ...row('sh-1', salary, 'live') });
        // The session's own rows, and a row without a session whose query's first line is one of its turns' intents,
        // shown within the time of that turn's prompt.
        const turn = { intent: 'my salary is 95k, draft my raise request', from: T0 - 1000, to: T0 + 1000 };
        expect(await store.forgetShownQueries('p', ['live'], [turn])).toBe(3);
        expect(await store.getShown('p', 'sh-1')).toEqual({
          id: 'sh-1',
          surface: 'recall',
          target: 'memory:m1',
          at: T0,
          session: 'live',
        });
        expect((await store.getShown('p', 'sh-0'))?.query).toBeUndefined();
        expect((await store.getShown('p', 'sh-4'))?.query).toBeUndefined();
        expect((await store.getShown('p', 'sh-2'))?.query).toBe('hi');
        expect((await store.getShown('p', 'sh-3'))?.query).toBe('an older prompt');
        expect((await store.getShown('p', 'sh-8'))?.query).toBe(salary);
        expect(await store.forgetShownQueries('q', ['other'], [{ intent: 'hi', from: T0, to: T0 }])).toBe(0);
        // Forgotten: its rows are not stored, another session's and a surface's without a session are.
        await store.recordForgottenSession('p', 'live', T0 + 1);
        await store.recordShown('p', [row('sh-5', 'later', 'live'), row('sh-6', 'later', 'other'), row('sh-7', 'q')]);
        expect(await store.getShown('p', 'sh-5')).toBeUndefined();
        expect((await store.getShown('p', 'sh-6'))?.query).toBe('later');
        expect((await store.getShown('p', 'sh-7'))?.query).toBe('q');
        // Another scope's session of that id is not forgotten.
        await store.recordShown('q', [row('sh-5', 'later', 'live')]);
        expect((await store.getShown('q', 'sh-5'))?.query).toBe('later');
      });

      test('shown results take one verdict each, and are counted per surface', async () => {
        const store = await fresh();
        await store.recordShown('p', [
          { id: 'sh-1', surface: 'search', target: 'read_file', query: 'read a file', at: T0 },
          { id: 'sh-2', surface: 'search', target: 'write_file', at: T0 },
          { id: 'sh-3', surface: 'recall', target: 'memory:mem-1', at: T0 },
        ]);
        expect(await store.setVerdict('p', 'sh-1', 'accepted', T0 + 1)).toBe(true);
        expect(await store.setVerdict('p', 'sh-2', 'rejected', T0 + 2)).toBe(true);
        expect(await store.setVerdict('p', 'nope', 'accepted', T0)).toBe(false);
        expect(await store.setVerdict('q', 'sh-1', 'accepted', T0)).toBe(false);
        expect(await store.getShown('p', 'sh-1')).toEqual({
          id: 'sh-1',
          surface: 'search',
          target: 'read_file',
          query: 'read a file',
          at: T0,
          verdict: 'accepted',
          verdictAt: T0 + 1,
          outcome: 'accepted',
          outcomeAt: T0 + 1,
        });
        expect(await store.shownCounts('p')).toEqual([
          { surface: 'recall', shown: 1, accepted: 0, rejected: 0 },
          { surface: 'search', shown: 2, accepted: 1, rejected: 1 },
        ]);
      });

      test('a shown claim keeps the confidence it was shown with and its latest outcome', async () => {
        const store = await fresh();
        await store.recordShown('p', [
          { id: 'sh-1', surface: 'search', target: 'read_file', at: T0, confidence: 0.8 },
          { id: 'sh-2', surface: 'dag', target: 'read_file -> parse_json', at: T0, confidence: 0.55 },
          { id: 'sh-3', surface: 'recall', target: 'memory:mem-1', at: T0 },
          { id: 'sh-4', surface: 'instinct', target: 'instinct:in-1', at: T0 + 1, confidence: 0.6 },
          {
            id: 'sh-5',
            surface: 'skill',
            target: 'skill:sk-1',
            at: T0 + 1,
            confidence: 0.9,
            outcome: 'validated',
            outcomeAt: T0 + 3,
          },
        ]);
        expect(await store.setOutcome('p', 'sh-1', 'failed', T0 + 5)).toBe(true);
        expect(await store.setOutcome('p', 'sh-1', 'succeeded', T0 + 6, { inferred: true })).toBe(true);
        expect(await store.setOutcome('p', 'sh-2', 'rejected', T0 + 4)).toBe(true);
        expect(await store.setOutcome('p', 'sh-3', 'accepted', T0 + 4)).toBe(true);
        expect(await store.setOutcome('p', 'sh-4', 'contradicted', T0 + 4)).toBe(true);
        expect(await store.setOutcome('p', 'nope', 'accepted', T0)).toBe(false);
        expect(await store.setOutcome('q', 'sh-1', 'accepted', T0)).toBe(false);
        // The latest outcome counts; succeeded is no verdict, rejected is one.
        expect(await store.getShown('p', 'sh-1')).toMatchObject({ confidence: 0.8, outcome: 'succeeded' });
        expect((await store.getShown('p', 'sh-1'))?.verdict).toBeUndefined();
        expect(await store.getShown('p', 'sh-2')).toMatchObject({ verdict: 'rejected', verdictAt: T0 + 4 });
        // The first verdict counts: a later outcome is the outcome, not the verdict.
        expect(await store.setOutcome('p', 'sh-2', 'accepted', T0 + 4)).toBe(true);
        expect(await store.getShown('p', 'sh-2')).toMatchObject({ verdict: 'rejected', outcome: 'accepted' });
        expect(await store.setOutcome('p', 'sh-2', 'rejected', T0 + 4)).toBe(true);
        // An inferred outcome (followed from calls) leaves one with a verdict as it is, and sets one without.
        expect(await store.setOutcome('p', 'sh-2', 'succeeded', T0 + 5, { inferred: true })).toBe(true);
        expect(await store.getShown('p', 'sh-2')).toMatchObject({ outcome: 'rejected', outcomeAt: T0 + 4 });
        expect(await store.setOutcome('p', 'nope', 'failed', T0 + 5, { inferred: true })).toBe(false);
        // Only claims with both a confidence and an outcome, by outcomeAt then id (sh-3 was shown without one).
        expect(await store.listOutcomes('p')).toEqual([
          {
            id: 'sh-5',
            kind: 'skill',
            target: 'skill:sk-1',
            confidence: 0.9,
            outcome: 'validated',
            at: T0 + 1,
            outcomeAt: T0 + 3,
          },
          {
            id: 'sh-2',
            kind: 'dag',
            target: 'read_file -> parse_json',
            confidence: 0.55,
            outcome: 'rejected',
            at: T0,
            outcomeAt: T0 + 4,
          },
          {
            id: 'sh-4',
            kind: 'instinct',
            target: 'instinct:in-1',
            confidence: 0.6,
            outcome: 'contradicted',
            at: T0 + 1,
            outcomeAt: T0 + 4,
          },
          {
            id: 'sh-1',
            kind: 'search',
            target: 'read_file',
            confidence: 0.8,
            outcome: 'succeeded',
            at: T0,
            outcomeAt: T0 + 6,
          },
        ]);
        // Shown with an outcome: accepted or rejected is its verdict too.
        await store.recordShown('p', [
          { id: 'sh-6', surface: 'next', target: 'jq', at: T0, confidence: 0.3, outcome: 'rejected', outcomeAt: T0 },
          { id: 'sh-7', surface: 'next', target: 'sed', at: T0, confidence: 0.3, outcome: 'failed', outcomeAt: T0 },
        ]);
        expect(await store.getShown('p', 'sh-6')).toMatchObject({ verdict: 'rejected', verdictAt: T0 });
        expect((await store.getShown('p', 'sh-7'))?.verdict).toBeUndefined();
        const ids = async (options: Parameters<typeof store.listOutcomes>[1]) =>
          (await store.listOutcomes('p', options)).map((o) => o.id);
        expect(await ids({ kind: 'dag' })).toEqual(['sh-2']);
        expect(await ids({ kind: 'next' })).toEqual(['sh-6', 'sh-7']);
        expect(await ids({ since: T0 + 4 })).toEqual(['sh-2', 'sh-4', 'sh-1']);
        expect(await ids({ limit: 2 })).toEqual(['sh-4', 'sh-1']);
        expect(await ids({ kind: 'next', limit: 1 })).toEqual(['sh-7']);
        expect(await ids({ kind: 'skill', since: T0 + 4 })).toEqual([]);
        // Known at a time: settled (and shown) by then, the newest of those before the limit.
        expect(await ids({ until: T0 + 4 })).toEqual(['sh-6', 'sh-7', 'sh-5', 'sh-2', 'sh-4']);
        expect(await ids({ until: T0 + 4, limit: 2 })).toEqual(['sh-2', 'sh-4']);
        expect(await ids({ until: T0 + 3, since: T0 + 1 })).toEqual(['sh-5']);
        expect(await ids({ kind: 'search', until: T0 + 5 })).toEqual([]);
        expect(await store.listOutcomes('q')).toEqual([]);
        // Metrics count the four surfaces only.
        expect((await store.shownCounts('p')).map((c) => c.surface)).toEqual(['dag', 'next', 'recall', 'search']);
      });

      test('outcomeBins sums the outcomes known at a time per kind, bin and outcome, as listed', async () => {
        const store = await fresh();
        const kinds = ['search', 'dag', 'recall'] as const;
        const outcomes = ['accepted', 'failed', 'validated'] as const;
        // 90 claims: confidences over [0, 1] with both ends and bin edges, shown and settled at different times.
        const rows = Array.from({ length: 90 }, (_, i) => ({
          id: `b-${i}`,
          surface: kinds[i % 3] as (typeof kinds)[number],
          target: 't',
          at: T0 + (i % 7),
          confidence: i % 11 === 0 ? 1 : i % 13 === 0 ? 0 : (i * 0.173) % 1,
          outcome: outcomes[(i >> 1) % 3] as (typeof outcomes)[number],
          outcomeAt: T0 + 5 + (i % 9),
        }));
        await store.recordShown('p', rows);
        await store.recordShown('p', [{ id: 'none', surface: 'dag', target: 't', at: T0 }]);
        for (const at of [T0 + 8, T0 + 20]) {
          const known = (await store.listOutcomes('p')).filter((o) => o.outcomeAt <= at && o.at <= at);
          const expected = new Map<string, { count: number; sumConfidence: number; sumSquares: number }>();
          for (const o of known) {
            const key = `${o.kind}/${Math.min(9, Math.floor(o.confidence * 10))}/${o.outcome}`;
            const e = expected.get(key) ?? { count: 0, sumConfidence: 0, sumSquares: 0 };
            expected.set(key, {
              count: e.count + 1,
              sumConfidence: e.sumConfidence + o.confidence,
              sumSquares: e.sumSquares + o.confidence ** 2,
            });
          }
          const sums = await store.outcomeBins('p', { at, bins: 10 });
          expect(sums.map((b) => `${b.kind}/${b.bin}/${b.outcome}`).sort()).toEqual([...expected.keys()].sort());
          // In kind, bin, outcome order (the report adds a bin's outcomes up in it).
          const order = sums.map((b) => `${b.kind}/${String(b.bin).padStart(2, '0')}/${b.outcome}`);
          expect(order).toEqual([...order].sort());
          for (const b of sums) {
            const e = expected.get(`${b.kind}/${b.bin}/${b.outcome}`);
            expect(b.count).toBe(e?.count);
            expect(b.sumConfidence).toBeCloseTo(e?.sumConfidence as number, 12);
            expect(b.sumSquares).toBeCloseTo(e?.sumSquares as number, 12);
          }
        }
        expect(await store.outcomeBins('q', { at: T0 + 20, bins: 10 })).toEqual([]);
      });
    });

    describe('FitStore: fits measured on replays', () => {
      test('a fit is read back as put, per scope and name, and a put replaces it', async () => {
        const store = await fresh();
        expect(await store.getFit('p', 'calibration')).toBeUndefined();
        const fit = {
          name: 'calibration',
          runs: 120,
          tools: 4076,
          revision: 7,
          value: '{"a":[0.5,1e-9]}',
          fittedAt: T0,
        };
        await store.putFit('p', fit);
        await store.putFit('p', { ...fit, name: 'selection', value: '"per-intent"' });
        expect(await store.getFit('p', 'calibration')).toEqual(fit);
        expect(await store.getFit('q', 'calibration')).toBeUndefined();
        const refit = { ...fit, runs: 150, tools: 4100, revision: 9, value: '{"a":[0.25]}', fittedAt: T0 + 5 };
        await store.putFit('p', refit);
        expect(await store.getFit('p', 'calibration')).toEqual(refit);
        expect((await store.getFit('p', 'selection'))?.value).toBe('"per-intent"');
      });
    });

    describe('PastRunsStore: past runs persisted per scope', () => {
      test('the bytes are read back as written, per scope; a write from an earlier revision is refused', async () => {
        const store = await fresh();
        expect(await store.readPastRuns('p')).toBeUndefined();
        const bytes = new Uint8Array([0, 1, 2, 255, 128, 7]);
        expect(await store.writePastRuns('p', 4, bytes)).toBe(true);
        const back = await store.readPastRuns('p');
        expect([back?.revision, [...(back?.data ?? [])]]).toEqual([4, [0, 1, 2, 255, 128, 7]]);
        expect(await store.readPastRuns('q')).toBeUndefined();
        expect(await store.writePastRuns('p', 3, new Uint8Array([9]))).toBe(false);
        expect([...((await store.readPastRuns('p'))?.data ?? [])]).toEqual([0, 1, 2, 255, 128, 7]);
        expect(await store.writePastRuns('p', 4, new Uint8Array([5, 5]))).toBe(true);
        expect(await store.writePastRuns('p', 6, new Uint8Array(0))).toBe(true);
        expect(await store.readPastRuns('p')).toMatchObject({ revision: 6 });
        expect((await store.readPastRuns('p'))?.data.byteLength).toBe(0);
      });

      test('a reader reads any range of the bytes it was opened on, also after a later write', async () => {
        const store = await fresh();
        expect(await store.openPastRuns?.('p')).toBeUndefined();
        // Bytes over several of SQLite's pieces (4,000 bytes each), with a partial last one.
        const bytes = Uint8Array.from({ length: 10_007 }, (_, i) => (i * 31 + (i >> 8)) & 255);
        expect(await store.writePastRuns('p', 4, bytes)).toBe(true);
        const reader = await store.openPastRuns?.('p');
        expect([reader?.revision, reader?.size, reader?.intact()]).toEqual([4, 10_007, true]);
        const ranges: [number, number][] = [
          [0, 8],
          [3990, 20],
          [4000, 4000],
          [1, 10_006],
          [10_000, 7],
          [5, 0],
        ];
        const read = () => ranges.map(([from, length]) => [...(reader?.read(from, length) ?? [])]);
        const expected = ranges.map(([from, length]) => [...bytes.subarray(from, from + length)]);
        expect(read()).toEqual(expected);
        expect(await store.writePastRuns('p', 5, new Uint8Array([1, 2, 3]))).toBe(true);
        expect([reader?.intact(), read()]).toEqual([true, expected]);
        expect([...((await store.readPastRuns('p'))?.data ?? [])]).toEqual([1, 2, 3]);
        const now = await store.openPastRuns?.('p');
        expect([now?.revision, now?.size, [...(now?.read(1, 2) ?? [])]]).toEqual([5, 3, [2, 3]]);
      });
    });

    describe('GraphSnapshotStore: the graph snapshot persisted per scope', () => {
      test('the bytes are read back as written, per scope; a write from an earlier revision is refused', async () => {
        const store = await fresh();
        expect(await store.readGraphSnapshot('p')).toBeUndefined();
        expect(await store.writeGraphSnapshot('p', 4, new Uint8Array([0, 1, 255, 128]))).toBe(true);
        const back = await store.readGraphSnapshot('p');
        expect([back?.revision, [...(back?.data ?? [])]]).toEqual([4, [0, 1, 255, 128]]);
        expect(await store.readGraphSnapshot('q')).toBeUndefined();
        expect(await store.writeGraphSnapshot('p', 3, new Uint8Array([9]))).toBe(false);
        expect([...((await store.readGraphSnapshot('p'))?.data ?? [])]).toEqual([0, 1, 255, 128]);
        expect(await store.writeGraphSnapshot('p', 6, new Uint8Array([5]))).toBe(true);
        expect(await store.readGraphSnapshot('p')).toMatchObject({ revision: 6 });
      });

      test('the front of the bytes is read alone when asked, all of them when fewer', async () => {
        const store = await fresh();
        expect(await store.readGraphSnapshot('p', { bytes: 2 })).toBeUndefined();
        const bytes = Uint8Array.from({ length: 10_000 }, (_, i) => (i * 7) % 256);
        await store.writeGraphSnapshot('p', 3, bytes);
        const front = await store.readGraphSnapshot('p', { bytes: 4096 });
        expect([front?.revision, [...(front?.data ?? [])]]).toEqual([3, [...bytes.subarray(0, 4096)]]);
        expect([...((await store.readGraphSnapshot('p', { bytes: 20_000 }))?.data ?? [])]).toEqual([...bytes]);
        expect((await store.readGraphSnapshot('p', { bytes: 0 }))?.data.byteLength).toBe(0);
      });
    });

    describe('HookQueueStore: the hook queue and sessions', () => {
      test("forgetting a hook session drops its turn, its state and its events' payloads, not another's", async () => {
        const store = await fresh();
        await store.startHookTurn('p', 's1', 1);
        await store.setHookSessionState('p', 's1', { intent: 'the deploy notes' }, 2);
        await store.setHookSessionState('p', 's2', { intent: 'other' }, 2);
        await store.enqueueHookEvents('p', [
          { session: 's1', turn: 'current', kind: 'prompt', at: 3, payload: { prompt: 'the deploy notes' } },
          { session: 's2', turn: 'current', kind: 'prompt', at: 3, payload: { prompt: 'other' } },
        ]);
        expect(await store.forgetHookSession('p', 's1')).toBe(true);
        expect(await store.hookSession('p', 's1')).toEqual({ turn: 0, state: {} });
        expect((await store.claimHookEvents('p', 'z', 0)).map((e) => e.session)).toEqual(['s2']);
        expect(await store.hookSession('p', 's2')).toMatchObject({ state: { intent: 'other' } });
        expect(await store.forgetHookSession('p', 'nobody')).toBe(false);
      });

      test('hook sessions are found by the start of their id, every character as it is', async () => {
        const store = await fresh();
        await store.setHookSessionState('p', 'ab%_x-1', {}, 1);
        await store.setHookSessionState('p', 'ab%_x-2', {}, 1);
        await store.startHookTurn('p', 'abcd', 1);
        await store.setHookSessionState('q', 'ab%_x-3', {}, 1);
        expect(await store.hookSessionsStartingWith('p', 'ab%_')).toEqual(['ab%_x-1', 'ab%_x-2']);
        expect(await store.hookSessionsStartingWith('p', 'ab')).toEqual(['ab%_x-1', 'ab%_x-2', 'abcd']);
        expect(await store.hookSessionsStartingWith('p', 'zz')).toEqual([]);
      });

      test('hook events queue in order, are claimed once (a stale claim again), and go when deleted', async () => {
        const store = await fresh();
        expect(
          await store.enqueueHookEvents('p', [{ session: 's1', turn: 'next', kind: 'prompt', at: 9, payload: {} }]),
        ).toEqual([1]);
        await store.deleteHookEvents(
          'p',
          (await store.claimHookEvents('p', 'z', 0)).map((e) => e.seq),
        );
        await store.enqueueHookEvents('p', [
          {
            session: 's1',
            turn: 'current',
            kind: 'PostToolUse',
            at: 10,
            payload: { tool: 'Bash', input: 'curl -H "Authorization: Bearer sk-ant-abcdefghijklmnopqrstuvwx"' },
          },
          { session: 's2', turn: 1, kind: 'PostToolUse', at: 11, payload: { tool: 'Read' } },
          { session: 's1', turn: 1, kind: 'PostToolUseFailure', at: 12, payload: { tool: 'Edit' } },
        ]);
        const first = await store.claimHookEvents('p', 'a', 0, 's1');
        expect(first.map((e) => [e.session, e.kind, e.at])).toEqual([
          ['s1', 'PostToolUse', 10],
          ['s1', 'PostToolUseFailure', 12],
        ]);
        expect(JSON.stringify(first[0]?.payload)).not.toContain('sk-ant-abcdefghijklmnopqrstuvwx');
        expect(await store.claimHookEvents('p', 'b', 0, 's1')).toEqual([]);
        // A claim older than staleBefore was left by a process that died: it can be taken again.
        expect((await store.claimHookEvents('p', 'c', Date.now() + 1000, 's1')).length).toBe(2);
        await store.deleteHookEvents(
          'p',
          first.map((e) => e.seq),
        );
        const left = await store.claimHookEvents('p', 'd', Date.now() + 1000);
        expect(left).toHaveLength(1);
        // While 'd' holds a live claim on s2, nobody else learns s2; once released, they can.
        await store.enqueueHookEvents('p', [
          { session: 's2', turn: 'current', kind: 'PostToolUse', at: 13, payload: {} },
        ]);
        expect(await store.claimHookEvents('p', 'e', 0, 's2')).toEqual([]);
        await store.releaseHookEvents(
          'p',
          left.map((e) => e.seq),
        );
        expect((await store.claimHookEvents('p', 'e', 0, 's2')).map((e) => e.at)).toEqual([11, 13]);
        // An append takes its hook events out of the queue in the same transaction.
        const mine = await store.claimHookEvents('p', 'e', 0, 's2');
        void mine;
        await store.appendCalls(
          'p',
          { id: 'x', intent: 'i', startedAt: 1 },
          () => [{ tool: 'Read', status: 'success', retries: 0, consumes: [] }],
          () => [],
          (_c, e) => ({
            from: e.from,
            to: e.to,
            type: e.type,
            source: 'inferred',
            count: 1,
            successes: 1,
            failures: 0,
            firstSeen: 1,
            lastSeen: 1,
          }),
          { dequeue: left.map((e) => e.seq) },
        );
        expect((await store.claimHookEvents('p', 'f', Date.now() + 1000, 's2')).map((e) => e.at)).toEqual([13]);
      });

      test('a hook event queued twice under one key is queued once, even after it was learned', async () => {
        const store = await fresh();
        const e = { session: 's', turn: 'next' as const, kind: 'prompt', at: 1, payload: {}, key: 'spool-file-1' };
        expect(await store.enqueueHookEvents('p', [e])).toEqual([1]);
        expect(await store.enqueueHookEvents('p', [e])).toEqual([1]);
        const claimed = await store.claimHookEvents('p', 'a', 0);
        expect(claimed).toHaveLength(1);
        await store.deleteHookEvents(
          'p',
          claimed.map((c) => c.seq),
        );
        expect(await store.enqueueHookEvents('p', [e])).toEqual([1]);
        expect(await store.claimHookEvents('p', 'b', Date.now() + 1000)).toEqual([]);
        expect((await store.hookSession('p', 's')).turn).toBe(1);
      });

      test('a scope has queued hook events until every one is learned, claimed or not', async () => {
        const store = await fresh();
        expect(await store.hasQueuedHookEvents('p')).toBe(false);
        await store.enqueueHookEvents('p', [
          { session: 's', turn: 'next', kind: 'prompt', at: 1, payload: {} },
          { session: 't', turn: 'next', kind: 'prompt', at: 2, payload: {} },
        ]);
        expect(await store.hasQueuedHookEvents('p')).toBe(true);
        expect(await store.hasQueuedHookEvents('q')).toBe(false);
        const claimed = await store.claimHookEvents('p', 'a', 0, 's');
        expect(await store.hasQueuedHookEvents('p')).toBe(true);
        await store.deleteHookEvents(
          'p',
          claimed.map((c) => c.seq),
        );
        expect(await store.hasQueuedHookEvents('p')).toBe(true);
        const rest = await store.claimHookEvents('p', 'b', 0);
        await store.deleteHookEvents(
          'p',
          rest.map((c) => c.seq),
        );
        expect(await store.hasQueuedHookEvents('p')).toBe(false);
      });

      test('a hook session counts its turns and keeps its state', async () => {
        const store = await fresh();
        expect(await store.hookSession('p', 's')).toEqual({ turn: 0, state: {} });
        expect(await store.startHookTurn('p', 's', 1)).toBe(1);
        expect(await store.startHookTurn('p', 's', 2)).toBe(2);
        await store.setHookSessionState('p', 's', { lastTestAt: 5 }, 3);
        expect(await store.hookSession('p', 's')).toEqual({ turn: 2, state: { lastTestAt: 5 } });
        expect(await store.hookSession('q', 's')).toEqual({ turn: 0, state: {} });
      });
    });
  });

  // ---- DumpStore (issue 10): exportRows / importRows ----------------------------------------

  describe(`Store contract: ${options.name} — DumpStore: dump rows`, () => {
    afterEach(async () => {
      while (open.length > 0) await open.pop()?.close();
    });

    /** Every table's rows, read whole, in `batchSize` batches. */
    const exportAll = async (store: Store, batchSize?: number): Promise<Record<DumpTable, DumpRow[]>> => {
      const all = {} as Record<DumpTable, DumpRow[]>;
      for (const table of DUMP_TABLES) {
        all[table] = [];
        for await (const batch of store.exportRows(table, batchSize === undefined ? undefined : { batchSize })) {
          expect(batch.length).toBeGreaterThan(0);
          if (batchSize !== undefined) expect(batch.length).toBeLessThanOrEqual(batchSize);
          all[table].push(...batch);
        }
      }
      return all;
    };
    const codeOf = async (fn: () => Promise<unknown>): Promise<string | undefined> => {
      try {
        await fn();
      } catch (error) {
        return (error as { code?: string }).code ?? 'no code';
      }
      return undefined;
    };

    /** A store with something in every table, in two scopes. */
    const filled = async (): Promise<Store> => {
      const store = await fresh();
      await store.upsertTools('p', [
        {
          id: 'read_file',
          description: 'Read a text file',
          inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
          origin: 'fs',
          annotations: { readOnlyHint: true },
        },
        { id: 'ParseJson', description: 'Parse JSON text' },
      ]);
      await store.upsertTools('q', [{ id: 'send_mail', description: 'Send an email' }]);
      await store.recordExecutions(
        'p',
        [
          {
            execution: {
              id: 'run-1',
              intent: 'read and parse the config',
              startedAt: T0,
              endedAt: T0 + 900,
              confidence: 0.75,
              summary: 'ok',
              calls: [...SESSION],
            },
            events: edgeEventsOf(SESSION.map(asCall)),
          },
        ],
        foldEdge,
      );
      await store.appendCalls(
        'q',
        { ...HEAD, id: 'session-q' },
        () => [sessionCall('send_mail', 0, { input: '{"to":"a@b.c"}', output: 'sent', intent: 'implementation' })],
        learnAppended,
        foldEdge,
      );
      await store.mergeWorkflows('p', [wfMerge(['read_file', 'ParseJson'], { intent: 'read and parse the config' })]);
      await store.putEdge(
        'p',
        edge({
          from: 'ParseJson',
          to: 'write_file',
          type: 'dependency',
          source: 'template',
          count: 0,
          successes: 0,
          firstSeen: null,
          lastSeen: null,
        }),
      );
      await store.insertObservations('p', [
        observation(),
        observation({
          id: 'obs-2',
          observation: 'Tests run before every commit',
          type: 'pattern',
          tags: ['workflow'],
          confidence: 0.65,
        }),
      ]);
      await store.insertObservations('q', [observation({ id: 'obs-q', observation: 'Dates in ISO 8601' })]);
      await store.upsertMemories('p', [
        memory(),
        memory({
          id: 'mem-2',
          category: 'note',
          title: 'Release checklist',
          text: 'Bump the version, tag, publish.',
          tags: [],
          path: 'docs/release.md',
          confidence: 0.5,
          intent: 'documentation',
        }),
      ]);
      await store.upsertInstinct('p', {
        id: 'in-1',
        slug: 'camel-case',
        text: 'Use camelCase',
        confidence: 0.5,
        status: 'active',
        evidence: ['obs-1'],
        createdAt: T0,
        updatedAt: T0 + 1,
      });
      await store.upsertSkill('p', {
        id: 'sk-1',
        name: 'testing-first',
        description: 'Run tests first',
        rules: ['run the tests', 'then commit'],
        confidence: 0.8,
        evidence: ['obs-2'],
        createdAt: T0,
        updatedAt: T0,
      });
      await store.insertFeedback('p', { id: 'fb-1', targetId: 'in-1', kind: 'explicit', note: 'yes', at: T0 + 5 });
      await store.insertFeedback('p', { id: 'fb-2', targetId: 'sk-1', kind: 'validation', at: T0 + 6 });
      await store.recordShown('p', [
        { id: 'sh-1', surface: 'search', target: 'read_file', query: 'read a file', at: T0 },
        { id: 'sh-2', surface: 'recall', target: 'memory:mem-1', at: T0 + 1, confidence: 0.7 },
        { id: 'sh-3', surface: 'instinct', target: 'instinct:in-1', at: T0 + 1, confidence: 0.45 },
      ]);
      await store.setVerdict('p', 'sh-1', 'accepted', T0 + 2);
      await store.setOutcome('p', 'sh-2', 'failed', T0 + 3);
      await store.setOutcome('p', 'sh-3', 'validated', T0 + 4);
      await store.putEmbeddings('p', 'tool', [
        { refId: 'read_file', modelKey: 'test:m:3', textHash: 'h1', vector: new Float32Array([0.6, 0.8, -0.125]) },
      ]);
      await store.putEmbeddings('p', 'memory', [
        { refId: 'mem-1', modelKey: 'test:m:3', textHash: 'h2', vector: new Float32Array([1, 0, 0]) },
      ]);
      await store.putFit('p', {
        name: 'calibration',
        runs: 40,
        tools: 12,
        revision: 3,
        value: '{"points":[[0.2,0.1],[0.8,0.7]]}',
        fittedAt: T0,
      });
      await store.recordForgotten('p', [{ id: 'sk-old', kind: 'skill', name: 'old-rule', at: T0 + 7 }]);
      await store.startHookTurn('p', 'sess-1', T0);
      await store.setHookSessionState('p', 'sess-1', { mode: 'observing' }, T0 + 1);
      await store.enqueueHookEvents('p', [
        {
          session: 'sess-1',
          turn: 'current',
          kind: 'PostToolUse',
          at: T0 + 2,
          payload: { tool: 'Bash' },
          key: 'spool-1',
        },
        {
          session: 'sess-1',
          turn: 'current',
          kind: 'PostToolUse',
          at: T0 + 3,
          payload: { tool: 'Read' },
          key: 'spool-2',
        },
        { session: 'sess-1', turn: 'current', kind: 'Stop', at: T0 + 4, payload: {} },
      ]);
      const claimed = await store.claimHookEvents('p', 'worker', 0, 'sess-1');
      await store.deleteHookEvents(
        'p',
        claimed.slice(0, 1).map((e) => e.seq),
      );
      return store;
    };

    test("a tool is written at the writer's `at`, every way it is written (walk 18, item 5)", async () => {
      const store = await fresh();
      const at = (day: number) => T0 - day * DAY;
      await store.upsertTools('p', [{ id: 'added', description: 'x' }], { at: at(9) });
      await store.upsertTools('p', [{ id: 'added', description: 'y' }], { at: at(8) });
      await store.insertExecution(
        'p',
        { id: 'run-0', intent: 'one', startedAt: T0, calls: [sessionCall('inserted', 0)] },
        { at: at(7) },
      );
      const run = { id: 'run-1', intent: 'two', startedAt: T0, calls: [sessionCall('recorded', 0)] };
      await store.recordExecutions('p', [{ execution: run, events: [] }], foldEdge, { at: at(6) });
      await store.appendCalls('p', HEAD, () => [sessionCall('appended', 0)], learnAppended, foldEdge, { at: at(5) });
      const rows = [];
      for await (const batch of store.exportRows('tools')) rows.push(...batch);
      expect(
        rows.map((r) => [r.id, r.created_at, r.updated_at]).sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
      ).toEqual([
        ['added', at(9), at(8)],
        ['appended', at(5), at(5)],
        ['inserted', at(7), at(7)],
        ['recorded', at(6), at(6)],
      ]);
    });

    test('a new store exports no rows from any table', async () => {
      const store = await fresh();
      const all = await exportAll(store);
      expect(DUMP_TABLES.filter((t) => all[t].length > 0)).toEqual([]);
      expect(await store.importRows('tools', [])).toBe(0);
    });

    test('rows imported from another store export the same, every table, every scope, in order', async () => {
      const source = await filled();
      const rows = await exportAll(source);
      expect(DUMP_TABLES.filter((t) => rows[t].length === 0)).toEqual([]);
      expect(new Set(rows.tools.map((r) => r.scope))).toEqual(new Set(['p', 'q']));
      const target = await fresh();
      for (const table of DUMP_TABLES) expect(await target.importRows(table, rows[table])).toBe(rows[table].length);
      expect(await exportAll(target)).toEqual(rows);
      // Small batches page through the same rows.
      expect(await exportAll(target, 2)).toEqual(rows);
      expect(await target.counts()).toEqual(await source.counts());
    });

    test('exported rows have every column of their table, blobs as hex and base64', async () => {
      const rows = await exportAll(await filled());
      for (const table of DUMP_TABLES) {
        for (const row of rows[table])
          expect(Object.keys(row).sort()).toEqual(DUMP_COLUMNS[table].map((c) => c.name).sort());
      }
      expect(rows.observations.map((r) => r.content_hash)).toEqual(
        rows.observations.map(() => expect.stringMatching(/^[0-9a-f]{32}$/)),
      );
      const vector = rows.embeddings.find((r) => r.ref_id === 'read_file')?.vector;
      const bytes = Buffer.from(String(vector), 'base64');
      expect([...new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4)]).toEqual(
        [0.6, 0.8, -0.125].map(Math.fround),
      );
      expect(rows.tools.find((r) => r.id === 'read_file')).toMatchObject({
        scope: 'p',
        origin: 'fs',
        calls: 3,
        annotations: '{"readOnlyHint":true}',
      });
      expect(rows.shown.find((r) => r.id === 'sh-1')).toMatchObject({
        verdict: 'accepted',
        verdict_at: T0 + 2,
        query: 'read a file',
      });
      expect(rows.hook_events.map((r) => [r.key, r.done_at === null])).toEqual([
        ['spool-1', false],
        ['spool-2', true],
        [null, true],
      ]);
    });

    test('a restored store answers reads and full-text searches as the original does', async () => {
      const source = await filled();
      const rows = await exportAll(source);
      const target = await fresh();
      for (const table of DUMP_TABLES) await target.importRows(table, rows[table]);
      for (const store of [source, target]) expect(await store.check()).toEqual([]);
      const reads = async (store: Store) => ({
        tools: await store.searchTools('p', '"parse"'),
        toolWords: await store.searchTools('p', '"json"'),
        executions: await store.searchExecutions('p', '"config"'),
        observations: await store.searchObservations('p', '"commit"'),
        memories: (await store.searchMemories('p', '"release"')).map((h) => h.memory.id),
        listed: await store.listTools('p'),
        run: await store.getExecution('p', 'run-1'),
        session: await store.getExecution('q', 'session-q'),
        edges: await store.listEdges('p'),
        embeddings: await store.getEmbeddings('p', 'tool'),
        called: [...(await store.calledTools('p'))],
        instincts: await store.listInstincts('p'),
        skills: await store.listSkills('p'),
        feedback: await store.listFeedback('p'),
        shown: await store.shownCounts('p'),
        outcomes: await store.listOutcomes('p'),
        hook: await store.hookSession('p', 'sess-1'),
      });
      const before = await reads(source);
      expect(before.tools.map((h) => h.id).sort()).toEqual(['ParseJson', 'parse_json']);
      expect(before.memories).toEqual(['mem-2']);
      expect(before.outcomes.map((o) => [o.id, o.confidence, o.outcome])).toEqual([
        ['sh-2', 0.7, 'failed'],
        ['sh-3', 0.45, 'validated'],
      ]);
      expect(await reads(target)).toEqual(before);
    });

    test('a restored store goes on learning where the original left off', async () => {
      const source = await filled();
      const target = await fresh();
      for (const table of DUMP_TABLES)
        for await (const batch of source.exportRows(table)) await target.importRows(table, batch);
      for (const store of [source, target]) {
        await store.appendCalls(
          'q',
          { ...HEAD, id: 'session-q' },
          () => [sessionCall('read_file', 1)],
          learnAppended,
          foldEdge,
        );
        await store.enqueueHookEvents('p', [
          { session: 'sess-1', turn: 'next', kind: 'prompt', at: T0 + 9, payload: {}, key: 'spool-1' },
        ]);
      }
      // A tool the append created is stamped with the wall clock of each store's own write.
      const unstamped = (all: Record<DumpTable, DumpRow[]>) => ({
        ...all,
        tools: all.tools.map((t) => ({ ...t, created_at: 0, updated_at: 0 })),
      });
      expect(unstamped(await exportAll(target))).toEqual(unstamped(await exportAll(source)));
    });

    test("rows of a dump older than 26/27 get the migrations' learned and declared marks (review F, 4)", async () => {
      const source = await fresh();
      const run = (id: string, dependsOn?: number[]): ExecutionRecord => ({
        id,
        intent: 'fan out the load',
        startedAt: T0,
        calls: [
          { tool: 'load', status: 'success', retries: 0, consumes: [], ...(dependsOn && { dependsOn: [] }) },
          { tool: 'branch_a', status: 'success', retries: 0, consumes: [0], ...(dependsOn && { dependsOn }) },
        ],
      });
      await source.insertExecution('p', run('layered', [0]));
      await source.insertExecution('p', run('listed'));
      await source.insertEdge('p', { from: 'load', to: 'branch_a', type: 'sequence', ...templateEdge() });
      await source.putEdge('p', edge({ from: 'load', to: 'branch_a', type: 'dependency' }));
      const rows = await exportAll(source);
      // As schema 25 wrote them: neither mark.
      const old = (table: DumpTable) => rows[table].map(({ learned, declared, ...row }) => row);
      const marks = async (store: Store) => ({
        runs: (await store.getExecutionsByIds('p', ['layered', 'listed'])).map((e) => [e.id, e.learned]),
        edges: (await store.listEdges('p')).map((e) => [e.type, e.source, e.declared]),
      });
      const restored = async (dumpSchema: number) => {
        const target = await fresh();
        for (const table of DUMP_TABLES) await target.importRows(table, old(table));
        await target.deriveRestoredMarks(dumpSchema);
        return marks(target);
      };
      expect(await restored(25)).toEqual({
        runs: [
          ['layered', ['dependency']],
          ['listed', undefined],
        ],
        edges: [
          ['dependency', 'inferred', undefined],
          ['sequence', 'template', true],
        ],
      });
      // A dump that could carry the marks is read as written.
      expect(await restored(27)).toEqual({
        runs: [
          ['layered', undefined],
          ['listed', undefined],
        ],
        edges: [
          ['dependency', 'inferred', undefined],
          ['sequence', 'template', undefined],
        ],
      });
    });

    test('importRows is all or none: a row the schema refuses fails the call, the table unchanged', async () => {
      const store = await fresh();
      const good = {
        scope: 'p',
        from_tool: 'a',
        to_tool: 'b',
        type: 'sequence',
        source: 'observed',
        count: 1,
        successes: 1,
        failures: 0,
        first_seen: T0,
        last_seen: T0,
      };
      expect(await codeOf(() => store.importRows('edges', [good, { ...good, to_tool: 'c', type: 'nonsense' }]))).toBe(
        'INVALID_INPUT',
      );
      expect(await codeOf(() => store.importRows('edges', [good, good]))).toBe('INVALID_INPUT');
      expect(await codeOf(() => store.importRows('edges', [good, { ...good, to_tool: 'c', colour: 'red' }]))).toBe(
        'INVALID_INPUT',
      );
      expect(await codeOf(() => store.importRows('edges', [good, { ...good, to_tool: 'c', count: 'many' }]))).toBe(
        'INVALID_INPUT',
      );
      expect(
        await codeOf(() =>
          store.importRows('calls', [{ scope: 'p', execution_id: 'missing', idx: 0, tool: 'a', status: 'success' }]),
        ),
      ).toBe('INVALID_INPUT');
      const all = await exportAll(store);
      expect(DUMP_TABLES.filter((t) => all[t].length > 0)).toEqual([]);
      expect(await store.importRows('edges', [good])).toBe(1);
      expect(await codeOf(() => store.importRows('edges', [good]))).toBe('INVALID_INPUT');
      expect(await store.listEdges('p')).toEqual([edge({ from: 'a', to: 'b', source: 'observed' })]);
    });

    test('imported rows come after the rows already there, and columns left out take their defaults', async () => {
      const store = await fresh();
      await store.upsertMemories('p', [memory({ id: 'mem-0' })]);
      const row = (id: string): DumpRow => ({
        scope: 'p',
        id,
        category: 'note',
        title: `Note ${id}`,
        text: 'text',
        created_at: T0,
        updated_at: T0,
      });
      expect(await store.importRows('memories', [row('mem-b'), row('mem-a')])).toBe(2);
      expect((await store.listMemories('p')).map((m) => m.id)).toEqual(['mem-0', 'mem-b', 'mem-a']);
      expect(await store.getMemory('p', 'mem-b')).toEqual({
        id: 'mem-b',
        category: 'note',
        title: 'Note mem-b',
        text: 'text',
        tags: [],
        createdAt: T0,
        updatedAt: T0,
      });
    });

    test('imported text is scrubbed like every other write; a scrubbed observation is fingerprinted anew', async () => {
      const store = await fresh();
      const secret = 'sk-ant-abcdefghijklmnopqrstuvwx';
      await store.importRows('memories', [
        {
          scope: 'p',
          id: 'm',
          category: 'note',
          title: 'key',
          text: `the key is ${secret}`,
          created_at: T0,
          updated_at: T0,
        },
      ]);
      expect((await store.getMemory('p', 'm'))?.text).not.toContain(secret);
      const leaky = observation({ id: 'obs-leak', observation: `export ANTHROPIC_API_KEY=${secret}` });
      const [exported] = await exportAll(
        await (async () => {
          const s = await fresh();
          await s.insertObservations('p', [observation({ id: 'obs-leak', observation: leaky.observation })]);
          return s;
        })(),
      ).then((all) => all.observations);
      await store.importRows('observations', [
        { ...exported, observation: leaky.observation, content_hash: '00'.repeat(16) } as DumpRow,
      ]);
      const stored = await store.listObservations('p');
      expect(stored.map((o) => o.observation.includes(secret))).toEqual([false]);
      // The same observation inserted again is recognised as already there.
      expect(await store.insertObservations('p', [leaky])).toEqual({ inserted: 0, duplicates: 1 });
    });
  });
}
