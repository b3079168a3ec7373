import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { openSqliteStore } from '../store/sqlite/index.js';
import type { Store } from '../store/types.js';
import { ingest } from './ingest.js';
import { abandoned } from './lease.js';
import { spoolDirFor } from './spool.js';

const base = mkdtempSync(join(tmpdir(), 'credence-lease-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
let n = 0;

/** A project and its SQLite file with `calls` tool events of session `s` queued (Bash, Read, …). */
async function queued(calls: number) {
  n += 1;
  const cwd = join(base, `p${n}`);
  mkdirSync(join(cwd, '.git'), { recursive: true });
  const db = join(base, `p${n}.db`);
  mkdirSync(spoolDirFor(db));
  const store = openSqliteStore({ path: db });
  afterAll(() => store.close());
  await store.enqueueHookEvents(
    'p',
    Array.from({ length: calls }, (_, i) => ({
      session: 's',
      turn: 'current' as const,
      kind: 'PostToolUse',
      at: 1_000 + i,
      payload: { tool: i % 2 === 0 ? 'Bash' : 'Read', status: 'success', input: `{"i":${i}}` },
    })),
  );
  const learn = (claimer: string, on: Store = store, say: string[] = [], now = Date.now()) =>
    ingest(on, 'p', { cwd, now, env: {}, claimer, session: 's', db, sayHeld: true }, (l) => say.push(l));
  const learned = async () => (await store.listExecutions('p')).map((e) => [e.id, e.calls.map((c) => c.tool)]);
  return { db, store, learn, learned };
}

const busy = () => Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });

/** The store with `hookSession` (the first read of a learning) and the release of claims both refused. */
const refusing = (store: Store): Store =>
  new Proxy(store, {
    get(target, key) {
      if (key === 'hookSession' || key === 'releaseHookEvents') return () => Promise.reject(busy());
      const value = Reflect.get(target, key) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });

describe('the leases of the hook queue', () => {
  it('a learner that could not give its claim back leaves the session to the next learner at once', async () => {
    const q = await queued(3);
    await expect(q.learn('first', refusing(q.store))).rejects.toThrow('database is locked');
    // The claim is fresh (a minute from stale): without the given-up lease nobody could learn the session now.
    const say: string[] = [];
    expect((await q.learn('second', q.store, say)).calls).toBe(3);
    expect(say).toEqual([]);
    expect(await q.learned()).toEqual([['cc-s-0', ['Bash', 'Read', 'Bash']]]);
    expect(await q.store.claimHookEvents('p', 'check', Date.now() + 1)).toEqual([]);
    expect(readdirSync(spoolDirFor(q.db))).toEqual([]);
  });

  it('a session end meeting a running learner of its session says so; its events are learned once', async () => {
    const q = await queued(2);
    // The first learner has claimed the session and waits, mid-learning, until let go.
    const slow = gatedAt(q.store, false);
    const first = q.learn('first', slow.proxy);
    await slow.inside;
    const say: string[] = [];
    expect((await q.learn('second', q.store, say)).calls).toBe(0);
    expect(say).toHaveLength(1);
    expect(say[0]).toMatch(new RegExp(`^events of session s are being learned by process ${process.pid} `));
    slow.go();
    expect((await first).calls).toBe(2);
    expect(await q.learned()).toEqual([['cc-s-0', ['Bash', 'Read']]]);
    expect(readdirSync(spoolDirFor(q.db))).toEqual([]);
  });

  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('a claim with no lease (another machine, an older version) is taken a minute later by the clock', async () => {
    const q = await queued(2);
    const clock = Date.parse('2026-06-01T10:00:00Z');
    vi.useFakeTimers({ toFake: ['Date'], now: clock });
    expect(await q.store.claimHookEvents('p', 'elsewhere', 0, 's')).toHaveLength(2);
    // A replay's events are dated long before (CREDENCE_NOW): the claim's age is still read on the clock.
    const replayed = Date.parse('2026-03-01T10:00:00Z');
    vi.setSystemTime(clock + 59_000);
    expect((await q.learn('early', q.store, [], replayed)).calls).toBe(0);
    vi.setSystemTime(clock + 61_000);
    expect((await q.learn('late', q.store, [], replayed)).calls).toBe(2);
    expect(await q.learned()).toEqual([['cc-s-0', ['Bash', 'Read']]]);
  });

  it("takes a given-up claim over only once the clock has left the lease's millisecond", async () => {
    // A claim stamped in that millisecond could be another taker's, made just before: it must not count as stale.
    const q = await queued(2);
    const T = Date.parse('2026-06-01T10:00:00Z');
    let clock = T;
    vi.spyOn(Date, 'now').mockImplementation(() => clock);
    await expect(q.learn('first', refusing(q.store))).rejects.toThrow('database is locked');
    const takeovers: number[] = [];
    const watched = new Proxy(q.store, {
      get(target, key) {
        const value = Reflect.get(target, key) as unknown;
        if (key === 'claimHookEvents') {
          return (scope: string, claimer: string, staleBefore: number, session?: string) => {
            if (staleBefore > clock - 60_000) takeovers.push(Date.now());
            return target.claimHookEvents(scope, claimer, staleBefore, session);
          };
        }
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const second = q.learn('second', watched);
    for (let turn = 0; turn < 5; turn += 1) await new Promise((resolve) => setImmediate(resolve));
    expect(takeovers).toEqual([]);
    clock = T + 1;
    expect((await second).calls).toBe(2);
    expect(takeovers).toEqual([T + 1]);
  });

  it("leaves a live claim made after the given-up learner's alone: the lease keeps its claim's time", async () => {
    const q = await queued(3);
    const T = Date.parse('2026-06-01T10:00:00Z');
    let clock = T;
    vi.spyOn(Date, 'now').mockImplementation(() => clock);
    // The first learner claims at T and stalls in its first read, which then fails, as does its release.
    const stalled = gatedAt(q.store, true);
    const first = q.learn('first', stalled.proxy).catch(() => 'gave up');
    await stalled.inside;
    // Over a minute later its claim is stale: the second claims the session the ordinary way and is learning it.
    clock = T + 61_000;
    const live = gatedAt(q.store, false);
    const second = q.learn('second', live.proxy);
    await live.inside;
    clock = T + 62_000;
    stalled.go();
    expect(await first).toBe('gave up');
    // A third learner finds the given-up lease: the second's live claim is not its to take.
    expect((await q.learn('third')).calls).toBe(0);
    live.go();
    expect((await second).calls).toBe(3);
    expect(await q.learned()).toEqual([['cc-s-0', ['Bash', 'Read', 'Bash']]]);
  });

  it("reads a lease's pid only on the host that wrote it", () => {
    const gone = { claimer: 'c', scope: 'p', sessions: ['s'], pid: 2 ** 22 + 7, at: 0 };
    expect(abandoned({ ...gone, host: hostname() })).toBe(true);
    expect(abandoned(gone)).toBe(true);
    expect(abandoned({ ...gone, host: `${hostname()}-elsewhere` })).toBe(false);
    expect(abandoned({ ...gone, host: `${hostname()}-elsewhere`, givenUp: true })).toBe(true);
  });
});

/**
 * The store with its first read of a learning (`hookSession`) held until `go`; with `fails`, that read then fails
 * busy and the release of claims is refused (the learner gives up).
 */
function gatedAt(store: Store, fails: boolean) {
  let go: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    go = resolve;
  });
  let reached: () => void = () => {};
  const inside = new Promise<void>((resolve) => {
    reached = resolve;
  });
  const proxy = new Proxy(store, {
    get(target, key) {
      const value = Reflect.get(target, key) as unknown;
      if (key === 'hookSession') {
        return async (...args: [string, string]) => {
          reached();
          await gate;
          if (fails) throw busy();
          return target.hookSession(...args);
        };
      }
      if (fails && key === 'releaseHookEvents') return () => Promise.reject(busy());
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { proxy, inside, go: () => go() };
}
