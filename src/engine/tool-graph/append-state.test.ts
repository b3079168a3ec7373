import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freshPgliteStore, startPglite, type PgliteServer } from '../../../test/pglite.js';
import { observeEdge } from '../../core/graph/edge-promotion.js';
import { appendedEdgeEvents, type ExecutionCall, type ExecutionEdgeEvent } from '../../core/graph/execution-edges.js';
import { openPgStore } from '../../store/postgres/pg-store.js';
import { openSqliteStore } from '../../store/sqlite/sqlite-store.js';
import type { CallRecord, EdgeRecord, Store } from '../../store/types.js';
import { openCredence } from '../engine.js';
import { workflowMove } from '../workflows/workflows.js';
import { AppendTracker } from './append-state.js';

const T0 = Date.parse('2026-03-01T00:00:00Z');
const TOOLS = ['read_file', 'parse_json', 'write_file', 'grep', 'bash', 'fetch', 'edit'];
const dir = mkdtempSync(join(tmpdir(), 'credence-append-state-'));
const servers: PgliteServer[] = [];
afterAll(async () => {
  for (const server of servers) await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

function lcg(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2_147_483_648;
    return s / 2_147_483_648;
  };
}

/** A long session of calls as the store keeps them: failures, retries, consumes, parents, inputs, a missing time. */
function session(length: number, seed: number): CallRecord[] {
  const rng = lcg(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)] as T;
  return Array.from({ length }, (_, i) => {
    const consumes =
      i > 0 && rng() < 0.3 ? [...new Set([Math.floor(rng() * i), Math.floor(rng() * i)])].sort((a, b) => a - b) : [];
    // Failures first, so that the run's success turns over as it grows.
    const r = rng() - (i < 40 ? 0.6 : 0);
    return {
      tool: pick(TOOLS),
      status: r < 0.12 ? 'failure' : r < 0.18 ? 'partial' : 'success',
      retries: rng() < 0.1 ? 1 : 0,
      ...(rng() < 0.8 ? { durationMs: Math.floor(rng() * 50) } : {}),
      consumes,
      ...(i > 0 && rng() < 0.1 ? { parent: Math.floor(rng() * i) } : {}),
      ...(rng() < 0.95 ? { at: T0 + i * 1000 } : {}),
      ...(rng() < 0.3 ? { input: JSON.stringify({ path: `src/${pick(['a', 'b', 'c'])}.ts` }) } : {}),
    } as CallRecord;
  });
}

/** Cuts a session into appends of 1 to 6 calls. */
function slices(length: number, seed: number): [number, number][] {
  const rng = lcg(seed);
  const out: [number, number][] = [];
  for (let i = 0; i < length; ) {
    const n = 1 + Math.floor(rng() * 6);
    out.push([i, Math.min(length, i + n)]);
    i += n;
  }
  return out;
}

describe('what an append keeps of its execution (issue 20)', () => {
  it.each([
    ['the store hands back the same calls each time', 'kept'],
    ['the store reads the calls again each time', 'read'],
    ['every third append fails before it commits', 'failing'],
  ] as const)('gives the events and workflow moves of the whole lists when %s', (_name, mode) => {
    const store = {};
    const calls = session(400, mode.length);
    const intent = 'fix the parser';
    let stored: CallRecord[] = [];
    for (const [k, [from, to]] of slices(calls.length, 7).entries()) {
      const before = mode === 'read' ? stored.map((c) => structuredClone(c)) : stored;
      const after = [...before, ...calls.slice(from, to)];
      const tracker = new AppendTracker(store, 'p', 'session-1', T0);
      const asCall = (c: CallRecord): ExecutionCall => ({ ...c, at: c.at ?? T0 });
      expect(tracker.events(before, after)).toEqual(appendedEdgeEvents(before.map(asCall), after.map(asCall)));
      expect(tracker.workflows(before, after, { intent, startedAt: T0 })).toEqual(
        workflowMove(before, after, { intent, startedAt: T0 }),
      );
      if (mode === 'failing' && k % 3 === 2) continue;
      tracker.commit();
      stored = after;
    }
  });

  it('moves no workflow for an execution without an intent', () => {
    const store = {};
    const calls = session(30, 3);
    let before: CallRecord[] = [];
    for (const [from, to] of slices(calls.length, 2)) {
      const after = [...before, ...calls.slice(from, to)];
      const tracker = new AppendTracker(store, 'p', 'quiet', T0);
      expect(tracker.workflows(before, after, { intent: '  ', startedAt: T0 })).toEqual([]);
      tracker.events(before, after);
      tracker.commit();
      before = after;
    }
  });
});

describe('an appended call with dependsOn (a review: nothing checked the incremental shape read it)', () => {
  it('links a task to the tasks it depended on, as a rebuild from the stored calls does', async () => {
    const credence = await openCredence({ store: openSqliteStore({ path: ':memory:' }), scope: 'p', now: T0 });
    const head = { id: 'sess-1', intent: 'copy a file and stat another', startedAt: T0 };
    await credence.appendCalls(head, [
      { tool: 'read_file', status: 'success', dependsOn: [] },
      { tool: 'file_info', status: 'success', dependsOn: [] },
    ]);
    await credence.appendCalls(head, [{ tool: 'write_file', status: 'success', dependsOn: [0] }]);
    const shape = async () => (await credence.workflows()).map((w) => ({ tools: w.tools, edges: w.edges }));
    // The calls' order would link read_file → file_info → write_file: write_file depended on read_file alone.
    const expected = [{ tools: ['read_file', 'file_info', 'write_file'], edges: [['read_file', 'write_file']] }];
    expect(await shape()).toEqual(expected);
    await credence.rebuildWorkflows();
    expect(await shape()).toEqual(expected);
    await credence.close();
  });
});

describe('appended calls with dependsOn: the edges they teach (walk 14)', () => {
  it('gives the events of the whole lists when the tasks wait for calls stored by earlier appends', () => {
    const rng = lcg(17);
    // An explicit DAG's tasks, each waiting for zero to two earlier ones, often far back.
    const calls: CallRecord[] = Array.from({ length: 120 }, (_, i) => ({
      tool: TOOLS[Math.floor(rng() * TOOLS.length)] as string,
      status: rng() < 0.1 ? 'failure' : 'success',
      retries: 0,
      consumes: [],
      dependsOn: i === 0 ? [] : [...new Set([Math.floor(rng() * i), Math.floor(rng() * i)])].sort((a, b) => a - b),
      at: T0 + i * 1000,
    }));
    const asCall = (c: CallRecord): ExecutionCall => ({ ...c, at: c.at ?? T0 });
    const store = {};
    let before: CallRecord[] = [];
    for (const [from, to] of slices(calls.length, 4)) {
      const after = [...before, ...calls.slice(from, to)];
      const tracker = new AppendTracker(store, 'p', 'dag-1', T0);
      expect(tracker.events(before, after)).toEqual(appendedEdgeEvents(before.map(asCall), after.map(asCall)));
      tracker.commit();
      before = after;
    }
  });
});

const foldEdge = (current: EdgeRecord | undefined, event: ExecutionEdgeEvent): EdgeRecord => ({
  from: event.from,
  to: event.to,
  type: event.type,
  ...observeEdge(current, event),
});

/** The store appended to, another connection to it (another process), and a store for the reference. */
type Stores = [Store, Store, Store];

describe.each([
  [
    'SQLite',
    async (): Promise<Stores> => {
      const path = join(dir, 'mine.db');
      return [openSqliteStore({ path }), openSqliteStore({ path }), openSqliteStore({ path: join(dir, 'ref.db') })];
    },
  ],
  [
    'PostgreSQL on PGlite',
    async (): Promise<Stores> => {
      const [server, other] = [await startPglite(), await startPglite()];
      servers.push(server, other);
      const mine = await freshPgliteStore(server);
      return [mine, await openPgStore({ url: server.url, schema: 'public' }), await freshPgliteStore(other)];
    },
  ],
])('a long session appended call by call, %s (issue 20)', (_name, create) => {
  it('stores the execution, edges and workflows that reading every call on each append stored', async () => {
    const [mine, another, reference] = await create();
    const now = T0 + 3_600_000;
    const credence = await openCredence({ store: mine, scope: 'p', now });
    const elsewhere = await openCredence({ store: another, scope: 'p', now });
    const calls = session(600, 11);
    const head = { id: 'mcp-s-1', intent: 'MCP session (test)', startedAt: T0 };
    const asCall = (c: CallRecord): ExecutionCall => ({ ...c, at: c.at ?? T0 });
    for (const [k, [from, to]] of slices(calls.length, 5).entries()) {
      const added = calls.slice(from, to);
      // Now and then another process appends to the same execution: what this one kept is stale then.
      await (k % 17 === 9 ? elsewhere : credence).appendCalls(head, added);
      // As the engine appended before issue 20: every stored call read, the whole lists compared.
      await reference.appendCalls(
        'p',
        head,
        () => added.map((c) => ({ ...c, at: c.at ?? now })),
        (before, after) => appendedEdgeEvents(before.map(asCall), after.map(asCall)),
        foldEdge,
        { workflows: workflowMove },
      );
    }
    expect(await mine.getExecution('p', head.id)).toEqual(await reference.getExecution('p', head.id));
    expect(await mine.listEdges('p')).toEqual(await reference.listEdges('p'));
    expect((await mine.listEdges('p')).length).toBeGreaterThan(40);
    expect(await mine.listWorkflows('p')).toEqual(await reference.listWorkflows('p'));
    expect(await mine.listWorkflows('p')).toHaveLength(1);
    await credence.close();
    await elsewhere.close();
    await reference.close();
  });
});
