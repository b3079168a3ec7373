import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { observeEdge } from '../../core/graph/edge-promotion.js';
import { isCredenceError } from '../../core/errors.js';
import { appendedEdgeEvents, edgeEventsOf, type ExecutionCall } from '../../core/graph/execution-edges.js';
import { runStoreContract } from '../contract.js';
import type { CallRecord, EdgeFold } from '../types.js';
import { sqliteConnection } from './connection.js';
import { LATEST_SCHEMA_VERSION, MIGRATIONS } from './migrations.js';
import { openSqliteStore } from './sqlite-store.js';
import { thrown } from '../../../test/helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'credence-sqlite-'));
let n = 0;
const nextPath = (): string => join(dir, `store-${++n}.db`);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

runStoreContract({ name: 'sqlite (file)', create: async () => openSqliteStore({ path: nextPath() }) });
runStoreContract({ name: 'sqlite (:memory:)', create: async () => openSqliteStore({ path: ':memory:' }) });

describe('SQLite store', () => {
  it('opens in WAL mode with a busy timeout', async () => {
    const store = openSqliteStore({ path: nextPath(), busyTimeoutMs: 1234 });
    expect(sqliteConnection(store).pragma('journal_mode', { simple: true })).toBe('wal');
    expect(sqliteConnection(store).pragma('busy_timeout', { simple: true })).toBe(1234);
    await store.close();
  });

  it('puts the busy timeout back after a short-wait write, made or refused as busy', async () => {
    // A review: removing the try/finally around the short wait left every test passing.
    const path = nextPath();
    const store = openSqliteStore({ path, busyTimeoutMs: 1234 });
    const timeout = () => sqliteConnection(store).pragma('busy_timeout', { simple: true });
    expect(await store.writeGraphSnapshot('p', 1, new Uint8Array([1]), { busyWaitMs: 20 })).toBe(true);
    expect(timeout()).toBe(1234);
    const other = new Database(path);
    other.exec('BEGIN IMMEDIATE');
    try {
      const error = await store
        .writeGraphSnapshot('p', 2, new Uint8Array([2]), { busyWaitMs: 20 })
        .catch((e: unknown) => e);
      // STORE_BUSY, as the library's callers see it (walk 7), the driver's code in its details.
      expect((error as { code?: string }).code).toBe('STORE_BUSY');
      expect((error as { details?: { driverCode?: string } }).details?.driverCode).toMatch(/^SQLITE_BUSY/);
      expect(timeout()).toBe(1234);
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    await store.close();
  });

  it('migrates a new file to the latest schema version and reopens it without migrating again', async () => {
    const path = nextPath();
    const first = openSqliteStore({ path });
    expect(await first.schemaVersion()).toBe(LATEST_SCHEMA_VERSION);
    await first.upsertTools('p', [{ id: 'a', description: 'kept' }]);
    await first.close();
    const second = openSqliteStore({ path });
    expect(await second.listTools('p')).toEqual([{ id: 'a', description: 'kept' }]);
    await second.close();
  });

  it('refuses a database written by a newer schema and leaves it untouched', () => {
    const path = nextPath();
    const raw = new Database(path);
    raw.pragma(`user_version = ${LATEST_SCHEMA_VERSION + 1}`);
    raw.close();
    const caught = thrown(() => openSqliteStore({ path }));
    expect(isCredenceError(caught, 'SCHEMA_TOO_NEW')).toBe(true);
    const again = new Database(path);
    expect(again.pragma('user_version', { simple: true })).toBe(LATEST_SCHEMA_VERSION + 1);
    again.close();
  });

  it('names the path and the reason when the file is not a database', () => {
    const path = join(dir, 'not-a-db.db');
    writeFileSync(path, 'this is plain text, not SQLite '.repeat(200));
    const caught = thrown(() => openSqliteStore({ path }));
    expect(isCredenceError(caught, 'STORE_UNAVAILABLE')).toBe(true);
    expect((caught as Error).message).toContain(path);
    expect((caught as { details?: { path?: string } }).details?.path).toBe(path);
  });

  it('names the path when its folder cannot be created', () => {
    const blocker = join(dir, 'a-file');
    writeFileSync(blocker, 'x');
    const path = join(blocker, 'sub', 'credence.db');
    const caught = thrown(() => openSqliteStore({ path }));
    expect(isCredenceError(caught, 'STORE_UNAVAILABLE')).toBe(true);
    expect((caught as { details?: { path?: string } }).details?.path).toBe(path);
  });

  it('keeps a whole batch out when one row of it breaks a constraint', async () => {
    const store = openSqliteStore({ path: nextPath() });
    const good = {
      id: 'ok',
      timestamp: 1,
      type: 'pattern' as const,
      context: {},
      observation: 'fine',
      evidence: [],
      confidence: 0.5,
      tags: [],
    };
    await store.insertObservations('p', [good]);
    await expect(
      store.insertObservations('p', [
        { ...good, id: 'a', observation: 'new' },
        { ...good, id: 'b', observation: 'bad', confidence: 7 },
      ]),
    ).rejects.toThrow();
    expect((await store.listObservations('p')).map((o) => o.id)).toEqual(['ok']);
    await store.close();
  });

  it('lets two connections write to the same file', async () => {
    const path = nextPath();
    const a = openSqliteStore({ path });
    const b = openSqliteStore({ path });
    await a.upsertTools('p', [{ id: 'from-a', description: '' }]);
    await b.upsertTools('p', [{ id: 'from-b', description: '' }]);
    expect((await a.listTools('p')).map((t) => t.id)).toEqual(['from-a', 'from-b']);
    await a.close();
    await b.close();
  });

  it('two connections appending to one execution at once lose no call and count each edge once', async () => {
    const path = nextPath();
    const a = openSqliteStore({ path });
    const b = openSqliteStore({ path });
    const fold: EdgeFold = (current, event) => ({
      from: event.from,
      to: event.to,
      type: event.type,
      ...observeEdge(current, event),
    });
    const asCall = (c: CallRecord): ExecutionCall => ({ ...c, at: c.at ?? 0 });
    const learn = (before: readonly CallRecord[], after: readonly CallRecord[]) =>
      appendedEdgeEvents(before.map(asCall), after.map(asCall));
    const head = { id: 'shared-session', intent: 'two writers, one session', startedAt: 0 };
    // Each writer appends 200 calls, each consuming the call stored just before it (whoever wrote it).
    const writer = async (store: typeof a, tools: readonly string[]): Promise<number[]> => {
      const indexes: number[] = [];
      for (let i = 0; i < 200; i += 1) {
        const report = await store.appendCalls(
          'p',
          head,
          (before) => [
            {
              tool: tools[i % tools.length] as string,
              status: i % 7 === 3 ? 'partial' : 'success',
              retries: 0,
              consumes: before.length === 0 ? [] : [before.length - 1],
              at: before.length,
            },
          ],
          learn,
          fold,
        );
        indexes.push(report.execution.firstIndex);
      }
      return indexes;
    };
    const [fromA, fromB] = await Promise.all([
      writer(a, ['read_file', 'parse_json', 'grep']),
      writer(b, ['write_file', 'parse_json', 'ls', 'cat']),
    ]);
    const stored = await a.getExecution('p', 'shared-session');
    expect(stored?.calls).toHaveLength(400);
    expect([...fromA, ...fromB].sort((x, y) => x - y)).toEqual(Array.from({ length: 400 }, (_, i) => i));
    // The writers took turns rather than one after the other.
    expect(Math.max(...fromA)).toBeGreaterThan(Math.min(...fromB));
    expect(Math.max(...fromB)).toBeGreaterThan(Math.min(...fromA));
    const idx = (
      sqliteConnection(b)
        .prepare(`SELECT idx FROM calls WHERE scope = 'p' AND execution_id = 'shared-session' ORDER BY idx`)
        .all() as { idx: number }[]
    ).map((r) => r.idx);
    expect(idx).toEqual(Array.from({ length: 400 }, (_, i) => i));
    // Every call consumed the one stored right before it: no writer appended on a stale view.
    expect(stored?.calls.every((c, i) => (i === 0 ? c.consumes.length === 0 : c.consumes[0] === i - 1))).toBe(true);
    // The same calls recorded whole, in one go, give the same edges.
    const whole = openSqliteStore({ path: ':memory:' });
    const calls = stored?.calls ?? [];
    await whole.recordExecutions(
      'p',
      [{ execution: { ...head, calls }, events: edgeEventsOf(calls.map(asCall)) }],
      fold,
    );
    const sequence = async (store: typeof a) => (await store.listEdges('p')).filter((e) => e.type === 'sequence');
    expect(await sequence(b)).toEqual(await sequence(whole));
    expect(await a.listEdges('p')).toEqual(await whole.listEdges('p'));
    expect(await b.calledTools('p')).toEqual(await whole.calledTools('p'));
    await Promise.all([a.close(), b.close(), whole.close()]);
  });

  it('folds a large batch alike: scanning the scope, reading the edges it touches, or holding all', async () => {
    const fold: EdgeFold = (current, event) => ({
      from: event.from,
      to: event.to,
      type: event.type,
      ...observeEdge(current, event),
    });
    let seed = 7;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return Math.floor(seed / 65536) % n;
    };
    const batch = (prefix: string, runs: number) =>
      Array.from({ length: runs }, (_, r) => {
        const calls: CallRecord[] = Array.from({ length: 5 }, (_, i) => ({
          tool: `tool_${next(400)}`,
          status: next(10) === 0 ? 'failure' : 'success',
          retries: 0,
          consumes: i > 0 && next(2) === 0 ? [i - 1] : [],
          at: r * 10 + i,
        }));
        const events = edgeEventsOf(calls.map((c) => ({ ...c, at: c.at ?? 0 })));
        return { execution: { id: `${prefix}-${r}`, intent: `run ${r}`, startedAt: r * 10, calls }, events };
      });
    const prior = batch('prior', 4000);
    const big = batch('big', 1500);
    // The reference: one connection whose cache holds the whole scope once the first batch has scanned it (empty).
    const reference = openSqliteStore({ path: ':memory:' });
    await reference.recordExecutions('p', prior, fold);
    await reference.recordExecutions('p', big, fold);
    const expected = await reference.listEdges('p');
    const bigKeys = new Set(big.flatMap((item) => item.events.map((e) => `${e.type} ${e.from} ${e.to}`)));
    expect(bigKeys.size).toBeGreaterThan(2000);
    // A new connection records the large batch into a scope of many more edges than it touches: point reads.
    const path = nextPath();
    const first = openSqliteStore({ path });
    await first.recordExecutions('p', prior, fold);
    expect(await first.countEdges('p')).toBeGreaterThan(2 * bigKeys.size);
    const second = openSqliteStore({ path });
    await second.recordExecutions('p', big, fold);
    expect(await second.listEdges('p')).toEqual(expected);
    // A new connection records most of the runs into a scope of few edges: it scans them, then keeps them all.
    const scanned = nextPath();
    const small = openSqliteStore({ path: scanned });
    await small.recordExecutions('p', prior.slice(0, 20), fold);
    const large = openSqliteStore({ path: scanned });
    await large.recordExecutions('p', prior.slice(20), fold);
    await large.recordExecutions('p', big, fold);
    expect(await large.listEdges('p')).toEqual(expected);
    expect(await small.listEdges('p')).toEqual(expected);
    await Promise.all([reference, first, second, small, large].map((s) => s.close()));
  });

  it('counts a version-12 store as it migrates, then through a cascade; check names a drift', async () => {
    const path = nextPath();
    const raw = new Database(path);
    for (const m of MIGRATIONS.filter((m) => m.version <= 12)) {
      raw.exec(m.sql);
      m.after?.(raw);
    }
    raw.pragma('user_version = 12');
    const execution = raw.prepare('INSERT INTO executions (id, scope, intent, started_at) VALUES (?, ?, ?, 1)');
    const call = raw.prepare(
      'INSERT INTO calls (execution_id, scope, idx, tool, status, retries, consumes) ' +
        "VALUES (?, ?, ?, 'read_file', 'success', 0, '[]')",
    );
    for (const [scope, id, calls] of [
      ['p', 'r1', 3],
      ['p', 'r2', 2],
      ['q', 'r1', 4],
    ] as const) {
      execution.run(id, scope, `run ${id}`);
      for (let i = 0; i < calls; i += 1) call.run(id, scope, i);
    }
    raw.close();
    const store = openSqliteStore({ path });
    expect(await store.counts('p')).toMatchObject({ executions: 2, calls: 5 });
    expect(await store.counts('q')).toMatchObject({ executions: 1, calls: 4 });
    const db = sqliteConnection(store);
    // Deleting an execution deletes its calls (a foreign-key cascade): both counts follow.
    db.prepare("DELETE FROM executions WHERE scope = 'p' AND id = 'r1'").run();
    expect(await store.counts('p')).toMatchObject({ executions: 1, calls: 2 });
    expect(await store.counts()).toMatchObject({ executions: 2, calls: 6 });
    expect(await store.check()).toEqual([]);
    db.prepare("UPDATE table_counts SET n = n + 1 WHERE scope = 'q' AND name = 'calls'").run();
    expect(await store.check()).toEqual(['calls in scope q: counted 5, holds 4']);
    await store.close();
  });

  it("migrates a version-25 store to 26: a run whose every call has dependsOn learned execute_dag's", async () => {
    const path = nextPath();
    const first = openSqliteStore({ path });
    const call = (tool: string, dependsOn?: number[]): CallRecord => ({
      tool,
      status: 'success',
      retries: 0,
      consumes: [],
      ...(dependsOn === undefined ? {} : { dependsOn }),
    });
    const run = (id: string, calls: CallRecord[]) =>
      first.insertExecution('p', { id, intent: id, startedAt: 1, calls });
    await run('layered', [call('load', []), call('parse', [0])]);
    await run('chained', [call('load'), call('parse')]);
    await run('mixed', [call('load', []), call('parse')]);
    await run('empty', []);
    await first.close();
    // As schema 25 left it: no column for what a run learned.
    const raw = new Database(path);
    raw.exec('ALTER TABLE executions DROP COLUMN learned');
    raw.pragma('user_version = 25');
    raw.close();
    const store = openSqliteStore({ path });
    expect(await store.schemaVersion()).toBe(LATEST_SCHEMA_VERSION);
    const back = await store.getExecutionsByIds('p', ['layered', 'chained', 'mixed', 'empty']);
    expect(back.map((e) => [e.id, e.learned]).sort()).toEqual([
      ['chained', undefined],
      ['empty', undefined],
      ['layered', ['dependency']],
      ['mixed', undefined],
    ]);
    await store.close();
  });

  it('migrates a version-26 store to 27: the edges still templates are marked declared', async () => {
    const path = nextPath();
    const first = openSqliteStore({ path });
    const edge = (to: string, source: 'template' | 'inferred', count: number) => ({
      from: 'read_file',
      to,
      type: 'dependency' as const,
      source,
      count,
      successes: count,
      failures: 0,
      firstSeen: count === 0 ? null : 1,
      lastSeen: count === 0 ? null : 1,
    });
    await first.putEdge('p', edge('parse_json', 'template', 0));
    await first.putEdge('p', edge('write_file', 'inferred', 1));
    await first.close();
    // As schema 26 left it: no column for a declaration.
    const raw = new Database(path);
    raw.exec('ALTER TABLE edges DROP COLUMN declared');
    raw.pragma('user_version = 26');
    raw.close();
    const store = openSqliteStore({ path });
    expect(await store.schemaVersion()).toBe(LATEST_SCHEMA_VERSION);
    expect((await store.listEdges('p')).map((e) => [e.to, e.declared])).toEqual([
      ['parse_json', true],
      ['write_file', undefined],
    ]);
    await store.close();
  });

  it('migrates a version-15 store to 16: verdicts become outcomes, counts and checks hold, kinds widen', async () => {
    const path = nextPath();
    const raw = new Database(path);
    for (const m of MIGRATIONS.filter((m) => m.version <= 15)) {
      raw.exec(m.sql);
      m.after?.(raw);
    }
    raw.pragma('user_version = 15');
    const shown = raw.prepare(
      'INSERT INTO shown (scope, id, surface, target, at, verdict, verdict_at) VALUES (?, ?, ?, ?, 1, ?, ?)',
    );
    shown.run('p', 'sh-1', 'search', 'read_file', 'accepted', 5);
    shown.run('p', 'sh-2', 'dag', 'a -> b', null, null);
    shown.run('q', 'sh-1', 'recall', 'memory:m', 'rejected', 7);
    raw.close();
    const store = openSqliteStore({ path });
    expect(await store.schemaVersion()).toBe(LATEST_SCHEMA_VERSION);
    expect(await store.getShown('p', 'sh-1')).toMatchObject({ verdict: 'accepted', outcome: 'accepted', outcomeAt: 5 });
    expect((await store.getShown('p', 'sh-2'))?.outcome).toBeUndefined();
    expect(await store.getShown('q', 'sh-1')).toMatchObject({ outcome: 'rejected', outcomeAt: 7 });
    // Old rows have no confidence: none is an outcome to calibrate on.
    expect(await store.listOutcomes('p')).toEqual([]);
    expect(await store.counts('p')).toMatchObject({ shown: 2 });
    await store.recordShown('p', [{ id: 'sh-3', surface: 'instinct', target: 'instinct:i', at: 9, confidence: 0.5 }]);
    expect(await store.setOutcome('p', 'sh-3', 'validated', 10)).toBe(true);
    expect((await store.listOutcomes('p')).map((o) => [o.id, o.kind])).toEqual([['sh-3', 'instinct']]);
    expect(await store.counts('p')).toMatchObject({ shown: 3 });
    expect(await store.check()).toEqual([]);
    const db = sqliteConnection(store);
    expect(() =>
      db.prepare("INSERT INTO shown (scope, id, surface, target, at) VALUES ('p', 'x', 'nope', 't', 1)").run(),
    ).toThrow(/CHECK/);
    expect(() => db.prepare("UPDATE shown SET outcome = 'maybe' WHERE id = 'sh-3'").run()).toThrow(/CHECK/);
    await store.close();
  });

  it('migrates a version-1 database to version 2 and makes its existing tools searchable', async () => {
    const path = nextPath();
    const raw = new Database(path);
    const first = MIGRATIONS.find((m) => m.version === 1);
    raw.exec(first?.sql ?? '');
    raw.pragma('user_version = 1');
    raw
      .prepare(
        'INSERT INTO tools (scope, id, description, created_at, updated_at) ' +
          "VALUES ('p', 'SkyScrapperFlightSearch', 'flights', 1, 1)",
      )
      .run();
    raw.close();
    const store = openSqliteStore({ path });
    expect(await store.schemaVersion()).toBe(LATEST_SCHEMA_VERSION);
    expect((await store.searchTools('p', '"scrapper"')).map((h) => h.id)).toEqual(['SkyScrapperFlightSearch']);
    expect(await store.check()).toEqual([]);
    await store.close();
  });
});
