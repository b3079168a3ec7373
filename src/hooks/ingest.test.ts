import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../store/sqlite/index.js';
import type { Store } from '../store/types.js';
import { sessionSummary } from '../engine/session-summary.js';
import { resolveScope } from '../platform/git-scope.js';
import { ingest, SESSION_ID_KEPT, sessionLabel, sessionRoots, turnRunId } from './ingest.js';
import { queueSpooled, SHOWN_KIND } from './queue.js';
import type { SpooledEvent } from './spool.js';

const base = mkdtempSync(join(tmpdir(), 'credence-ingest-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('the run ids of a session', () => {
  it('learns a session whose id is too long for a run id, every turn under one stable shortened name', async () => {
    // Before: `cc-<session>-<turn>` of a 300-character session id was refused ("id is 305 characters long").
    const cwd = join(base, 'p');
    mkdirSync(join(cwd, '.git'), { recursive: true });
    const store = openSqliteStore({ path: ':memory:' });
    try {
      const sessions = ['s', 'x'.repeat(300), `${'y'.repeat(4_990)}-tail`];
      for (const session of sessions)
        await store.enqueueHookEvents('p', [
          { session, turn: 'next', kind: 'prompt', at: 1_000, payload: { prompt: 'fix the build' } },
          { session, turn: 'current', kind: 'PostToolUse', at: 1_001, payload: { tool: 'Bash', status: 'success' } },
          { session, turn: 'next', kind: 'prompt', at: 1_002, payload: { prompt: 'and the tests' } },
          { session, turn: 'current', kind: 'PostToolUse', at: 1_003, payload: { tool: 'Read', status: 'success' } },
        ]);
      const lines: string[] = [];
      for (const session of sessions) {
        const r = await ingest(store, 'p', { cwd, now: 2_000, env: {}, claimer: 'me', session }, (l) => lines.push(l));
        expect(r.calls).toBe(2);
      }
      expect(lines).toEqual([]);
      const ids = (await store.listExecutions('p')).map((e) => e.id).sort();
      const long = sessionLabel('x'.repeat(300));
      expect(long).toMatch(/^x{64}~[0-9a-f]{16}$/);
      expect(ids).toEqual(
        [
          'cc-s-1',
          'cc-s-2',
          `cc-${long}-1`,
          `cc-${long}-2`,
          `cc-${sessionLabel(sessions[2] as string)}-1`,
          `cc-${sessionLabel(sessions[2] as string)}-2`,
        ].sort(),
      );
      for (const id of ids) expect(id.length).toBeLessThanOrEqual(256);
    } finally {
      await store.close();
    }
  });

  it('names the session_id in an error learning a session, and says a busy database as it is', async () => {
    const cwd = join(base, 'q');
    mkdirSync(join(cwd, '.git'), { recursive: true });
    const store = openSqliteStore({ path: ':memory:' });
    const failing = (error: Error): Store =>
      new Proxy(store, {
        get(target, key) {
          if (key === 'hookSession') return () => Promise.reject(error);
          const value = Reflect.get(target, key) as unknown;
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
    try {
      const session = 'w'.repeat(300);
      const event = {
        session,
        turn: 'current' as const,
        kind: 'PostToolUse',
        at: 1,
        payload: { tool: 'Bash', status: 'success' },
      };
      await store.enqueueHookEvents('p', [event]);
      const learn = (on: Store) => ingest(on, 'p', { cwd, now: 2, env: {}, claimer: 'me', session }, () => {});
      await expect(learn(failing(new Error('no room')))).rejects.toThrow(
        `session_id "${'w'.repeat(64)}"… (300 characters): no room`,
      );
      const busy = Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
      await expect(learn(failing(busy))).rejects.toThrow(/^database is locked$/);
      // Given back each time: learned once the store answers.
      expect((await learn(store)).calls).toBe(1);
    } finally {
      await store.close();
    }
  });

  it('keeps an id that fits as it is (stores keep their runs), and tells long ids apart', () => {
    const fits = 'z'.repeat(SESSION_ID_KEPT);
    expect(turnRunId(fits, 2 ** 31 - 1)).toBe(`cc-${fits}-2147483647`);
    expect(turnRunId(fits, 2 ** 31 - 1).length).toBeLessThanOrEqual(256);
    expect(turnRunId('0b9c-uuid', 3)).toBe('cc-0b9c-uuid-3');
    const a = `${'q'.repeat(300)}a`;
    const b = `${'q'.repeat(300)}b`;
    expect(sessionLabel(a)).not.toBe(sessionLabel(b));
    expect(sessionLabel(a)).toBe(sessionLabel(a));
    // Never a lone half of a surrogate pair where the id is cut.
    expect(sessionLabel(`${'q'.repeat(63)}😀${'q'.repeat(300)}`)).toMatch(/^q{63}~/);
  });
});

// Walk 5 item 4 (two clones of one repository on one machine, or a team's store: one scope). The learning process
// serves every clone's events, so its own project root is not theirs (the reverted ebfa390 stored paths relative to
// it: one file under two names, and older memories no longer followed). The calls are stored as they were named;
// each event's own root is queued with it and kept in its session's state, which SessionStart shows paths against.
describe('the project roots of the calls of two clones', () => {
  /** Clones of the team's repository (one origin: one scope, `p`), each under base/<who>/shop. */
  const clones = (...who: string[]) => {
    const roots = who.map((name) => {
      const root = join(base, name, 'shop');
      mkdirSync(join(root, '.git'), { recursive: true });
      mkdirSync(join(root, 'src'), { recursive: true });
      writeFileSync(join(root, '.git', 'config'), '[remote "origin"]\n\turl = https://git.example.com/team/shop\n');
      return root;
    });
    // The scope the clones' origin gives (a scope CREDENCE_SCOPE names keeps no root: queue.test.ts).
    return { roots, p: resolveScope({ cwd: roots[0] ?? base }).scope };
  };
  /** A prompt, then an edit of src/cart.ts from a folder inside the clone (its root is the clone's). */
  const editIn = (root: string, session: string, at: number): SpooledEvent[] => {
    const edit = { file_path: `${root}/src/cart.ts`, old_string: 'a', new_string: 'b' };
    const input = JSON.stringify(edit);
    return [
      { cwd: root, session, turn: 'next', kind: 'prompt', at, payload: { prompt: 'fix' } },
      {
        cwd: join(root, 'src'),
        session,
        turn: 'current',
        kind: 'PostToolUse',
        at: at + 10,
        payload: { tool: 'Edit', status: 'success', input, writes: [edit.file_path] },
      },
    ];
  };

  it("are kept in each session's state, the calls as they were named; SessionStart names the file once", async () => {
    const store = openSqliteStore({ path: ':memory:' });
    try {
      const { roots, p } = clones('ana', 'ben');
      const [ana, ben] = roots as [string, string];
      expect(await queueSpooled(store, [...editIn(ana, 's-0', 1_000), ...editIn(ben, 's-1', 1_001)])).toEqual([]);
      // The learning process runs in Ben's clone and learns the scope's every session (as a SessionStart's does).
      await ingest(store, p, { cwd: ben, now: 2_000, env: {}, claimer: 'me' }, () => {});
      expect((await store.hookSession(p, 's-0')).state.roots).toEqual([ana]);
      expect((await store.hookSession(p, 's-1')).state.roots).toEqual([ben]);
      const inputs = (await store.listExecutions(p)).flatMap((e) => e.calls.map((c) => JSON.parse(c.input ?? '{}')));
      expect(inputs.map((input) => input.file_path).sort()).toEqual([`${ana}/src/cart.ts`, `${ben}/src/cart.ts`]);
      for (const root of roots) {
        const text = await sessionSummary({ store, scope: p, now: 3_000, root });
        expect(text).toContain('Files changed: src/cart.ts (2).');
        expect(text).not.toContain(base);
      }
    } finally {
      await store.close();
    }
  });

  // Review A item 5: ingest kept a session's roots under its id, while SessionStart looks a session up by its runs'
  // name for it (sessionLabel: a hashed label past SESSION_ID_KEPT characters), so such a session's roots were lost.
  it('are found by SessionStart for a session whose id is too long for its run ids', async () => {
    const store = openSqliteStore({ path: ':memory:' });
    try {
      const { roots, p } = clones('long-ana', 'long-ben');
      const [ana, ben] = roots as [string, string];
      const long = 'L'.repeat(SESSION_ID_KEPT + 60);
      expect(await queueSpooled(store, [...editIn(ana, long, 1_000), ...editIn(ben, 's-ben', 1_100)])).toEqual([]);
      await ingest(store, p, { cwd: ben, now: 2_000, env: {}, claimer: 'me' }, () => {});
      const text = await sessionSummary({ store, scope: p, now: 3_000, root: ben });
      expect(text).toContain('Files changed: src/cart.ts (2).');
      expect(text).not.toContain(base);
    } finally {
      await store.close();
    }
  });

  // Review A item 7: nothing checked that ingest merges the roots a session kept before (a session learned in two
  // batches: its first batch's files must keep their names when the second batch ran in another folder).
  it('keep the roots stored before when a session is learned in two batches', async () => {
    const store = openSqliteStore({ path: ':memory:' });
    try {
      const { roots, p } = clones('two-ana', 'two-wt');
      const [ana, worktree] = roots as [string, string];
      const learn = async (events: SpooledEvent[], now: number) => {
        expect(await queueSpooled(store, events)).toEqual([]);
        await ingest(store, p, { cwd: ana, now, env: {}, claimer: 'me' }, () => {});
      };
      await learn(editIn(ana, 's-a', 1_000), 2_000);
      await learn(editIn(worktree, 's-a', 3_000), 4_000);
      expect((await store.hookSession(p, 's-a')).state.roots).toEqual([worktree, ana]);
      const text = await sessionSummary({ store, scope: p, now: 5_000 });
      expect(text).toContain('Files changed: src/cart.ts (2).');
      expect(text).not.toContain(base);
    } finally {
      await store.close();
    }
  });

  it('keep a few, the newest first, each once, after those a session kept before', () => {
    const call = (root?: string) => ({ tool: 'Read', status: 'success' as const, ...(root ? { root } : {}) });
    expect(sessionRoots(['/a', '/b'], [call('/c'), call(), call('/b'), call('/c')])).toEqual(['/c', '/b', '/a']);
    expect(sessionRoots(['/a', '/b', '/c', '/d'], [call('/e')])).toEqual(['/e', '/a', '/b', '/c']);
    expect(sessionRoots([], [call(), call('')])).toEqual([]);
  });
});

// Walk 13: a teammate forgot a session still live on another machine; the rest of it, in that machine's spool, was
// learned as the session's turn 1 again (prompt verbatim). A session's tombstone drops it wherever it is learned.
describe('a forgotten session', () => {
  it("drops the turns of it another machine's spool still held, and says so; other sessions are learned", async () => {
    const cwd = join(base, 'forgotten');
    mkdirSync(join(cwd, '.git'), { recursive: true });
    const store = openSqliteStore({ path: ':memory:' });
    const turn = (session: string, prompt: string, at: number) =>
      store.enqueueHookEvents('p', [
        { session, turn: 'next', kind: 'prompt', at, payload: { prompt } },
        { session, turn: 'current', kind: 'PostToolUse', at: at + 1, payload: { tool: 'Bash', status: 'success' } },
      ]);
    const learn = async (lines: string[]) =>
      ingest(store, 'p', { cwd, now: 9_000, env: {}, claimer: 'me' }, (l) => lines.push(l));
    try {
      await turn('live', 'fix the build', 1_000);
      await learn([]);
      expect((await store.listExecutions('p')).map((e) => e.id)).toEqual(['cc-live-1']);
      const { openCredence } = await import('../engine/engine.js');
      const credence = await openCredence({ store, scope: 'p', now: 5_000, cwd }, {});
      expect(await credence.forget('live')).toMatchObject({ kind: 'session', runsForgotten: ['cc-live-1'] });
      // The teammate's machine queues its spool afterwards: turn 2 of the forgotten session, and another session.
      await turn('live', 'my salary is 95k, draft my raise request', 6_000);
      await turn('other', 'run the tests', 6_000);
      const lines: string[] = [];
      await learn(lines);
      expect((await store.listExecutions('p')).map((e) => e.id)).toEqual(['cc-other-1']);
      expect(lines).toEqual([
        'session_id "live" was forgotten (credence forget): its 2 spooled events dropped, not learned',
      ]);
      expect((await store.hookSession('p', 'live')).state).toEqual({});
      expect(await store.forgottenSessions('p', ['live', 'other'])).toEqual(['live']);
      // Not an instinct's or a skill's tombstone: no file is taken out for it.
      expect(await store.listForgotten('p')).toEqual([]);
    } finally {
      await store.close();
    }
  });

  // Review D: the prompt hook's shown rows hold the prompt (`query`); forget left them, and the tombstone did not stop
  // a teammate's machine from storing more.
  it('keeps none of its prompts as shown rows, before or after the forget; other sessions keep theirs', async () => {
    const cwd = join(base, 'forgotten-shown');
    mkdirSync(join(cwd, '.git'), { recursive: true });
    const store = openSqliteStore({ path: ':memory:' });
    const shownEvent = (session: string, id: string, query: string, at: number): SpooledEvent => ({
      cwd,
      scope: 'p',
      session,
      turn: 'current',
      kind: SHOWN_KIND,
      at,
      payload: { shown: [{ id, surface: 'recall', target: 'memory:m1', query, at, identifiers: [] }] },
    });
    const learn = () => ingest(store, 'p', { cwd, now: 9_000, env: {}, claimer: 'me' }, () => {});
    try {
      const salary = 'my salary is 95k, draft my raise request';
      await store.enqueueHookEvents('p', [
        { session: 'live', turn: 'next', kind: 'prompt', at: 1_000, payload: { prompt: salary } },
        {
          session: 'live',
          turn: 'current',
          kind: 'PostToolUse',
          at: 1_001,
          payload: { tool: 'Bash', status: 'success' },
        },
      ]);
      await queueSpooled(store, [shownEvent('live', 'sh-1', salary, 1_000), shownEvent('other', 'sh-o', 'hi', 1_000)]);
      // A row stored before shown rows held their session: found by its prompt, the run's intent, shown before the
      // turn's first call.
      await store.recordShown('p', [{ id: 'sh-0', surface: 'recall', target: 'memory:m1', query: salary, at: 999 }]);
      await learn();
      const { openCredence } = await import('../engine/engine.js');
      const credence = await openCredence({ store, scope: 'p', now: 5_000, cwd }, {});
      expect(await credence.forget('live')).toMatchObject({ kind: 'session' });
      // The teammate's machine queues its spool afterwards: a later prompt of the forgotten session showed a memory.
      await queueSpooled(store, [shownEvent('live', 'sh-2', 'I am interviewing at Acme next week', 6_000)]);
      await learn();
      expect(await store.getShown('p', 'sh-1')).toMatchObject({ target: 'memory:m1', session: 'live' });
      expect.soft((await store.getShown('p', 'sh-1'))?.query, 'a prompt before the forget').toBeUndefined();
      expect.soft((await store.getShown('p', 'sh-0'))?.query, 'a prompt stored without its session').toBeUndefined();
      expect.soft(await store.getShown('p', 'sh-2'), 'a prompt after its tombstone').toBeUndefined();
      expect((await store.getShown('p', 'sh-o'))?.query).toBe('hi');
    } finally {
      await store.close();
    }
  });

  // Review D: the tombstone was read once, before learning; a forget landing while a teammate's machine learned the
  // session was missed, and its next turn (the prompt verbatim) was learned after the forget.
  it('a forget landing while a teammate learns it: nothing this learner wrote of the session stays', async () => {
    const cwd = join(base, 'forgotten-race');
    mkdirSync(join(cwd, '.git'), { recursive: true });
    const store = openSqliteStore({ path: ':memory:' });
    const turn = (session: string, prompt: string, at: number) =>
      store.enqueueHookEvents('p', [
        { session, turn: 'next', kind: 'prompt', at, payload: { prompt } },
        { session, turn: 'current', kind: 'PostToolUse', at: at + 1, payload: { tool: 'Bash', status: 'success' } },
      ]);
    try {
      await turn('live', 'fix the build', 1_000);
      await ingest(store, 'p', { cwd, now: 2_000, env: {}, claimer: 'me' }, () => {});
      const { openCredence } = await import('../engine/engine.js');
      const credence = await openCredence({ store, scope: 'p', now: 5_000, cwd }, {});
      await turn('live', 'No, use pnpm instead of npm for installs', 6_000);
      await turn('other', 'run the tests', 6_000);
      // The teammate's learner reads the tombstones (none yet); the forget lands right after, before it writes.
      let forgotten = false;
      const racing = new Proxy(store, {
        get(target, property) {
          const value: unknown = Reflect.get(target, property, target);
          if (typeof value !== 'function') return value;
          const method = value as (...args: unknown[]) => Promise<unknown>;
          if (property !== 'forgottenSessions') return method.bind(target);
          return async (...args: unknown[]) => {
            const found = await method.apply(target, args);
            if (!forgotten) {
              forgotten = true;
              await credence.forget('live');
            }
            return found;
          };
        },
      });
      const lines: string[] = [];
      await ingest(racing, 'p', { cwd, now: 9_000, env: {}, claimer: 'other' }, (l) => lines.push(l));
      expect(forgotten).toBe(true);
      expect((await store.listExecutions('p')).map((r) => r.id)).toEqual(['cc-other-1']);
      expect((await store.hookSession('p', 'live')).state).toEqual({});
      const tagged = (await store.listObservations('p')).filter((o) => o.tags.includes('session:live'));
      expect(tagged.map((o) => o.observation)).toEqual([]);
      expect(lines).toEqual([
        'session_id "live" was forgotten (credence forget) while this learned it: what this learned of it is ' +
          'forgotten too',
      ]);
    } finally {
      await store.close();
    }
  });

  it('a learner done just before the tombstone: the forget reads what it wrote after its tombstone', async () => {
    const cwd = join(base, 'forgotten-before-tombstone');
    mkdirSync(join(cwd, '.git'), { recursive: true });
    const store = openSqliteStore({ path: ':memory:' });
    const call = { tool: 'Bash', status: 'success' };
    const turn = (prompt: string, at: number) =>
      store.enqueueHookEvents('p', [
        { session: 'live', turn: 'next', kind: 'prompt', at, payload: { prompt } },
        { session: 'live', turn: 'current', kind: 'PostToolUse', at: at + 1, payload: call },
      ]);
    /** `store` with `around(name, run)` deciding when each call of `name` runs. */
    const intercepted = (name: string, around: (run: () => Promise<unknown>) => Promise<unknown>) =>
      new Proxy(store, {
        get(target, property) {
          const value: unknown = Reflect.get(target, property, target);
          if (typeof value !== 'function') return value;
          const method = value as (...args: unknown[]) => Promise<unknown>;
          if (property !== name) return method.bind(target);
          return (...args: unknown[]) => around(() => method.apply(target, args));
        },
      });
    try {
      await turn('fix the build', 1_000);
      await ingest(store, 'p', { cwd, now: 2_000, env: {}, claimer: 'me' }, () => {});
      await turn('my salary is 95k, draft my raise request', 6_000);
      // The teammate's learner has claimed the next turn, then waits; the forget reads what the session left, and
      // the learner learns the turn whole (its last read of the tombstones finds none) before the tombstone.
      let go = (): void => {};
      const gate = new Promise<void>((resolve) => {
        go = resolve;
      });
      let claimed = (): void => {};
      const claim = new Promise<void>((resolve) => {
        claimed = resolve;
      });
      const learner = ingest(
        intercepted('claimHookEvents', async (run) => {
          const events = await run();
          claimed();
          await gate;
          return events;
        }),
        'p',
        { cwd, now: 9_000, env: {}, claimer: 'other' },
        () => {},
      );
      await claim;
      let learned: string[] = [];
      const forgetting = intercepted('recordForgottenSession', async (run) => {
        go();
        await learner;
        learned = (await store.listExecutions('p')).map((r) => r.id);
        return run();
      });
      const { openCredence } = await import('../engine/engine.js');
      const credence = await openCredence({ store: forgetting, scope: 'p', now: 5_000, cwd }, {});
      expect(await credence.forget('live')).toMatchObject({ runsForgotten: ['cc-live-1', 'cc-live-2'] });
      expect(learned).toEqual(['cc-live-2', 'cc-live-1']);
      expect(await store.listExecutions('p')).toEqual([]);
      expect((await store.hookSession('p', 'live')).state).toEqual({});
    } finally {
      await store.close();
    }
  });
});

// Review G, item 1: an event dated ahead (a transcript from a clock gone wrong) was refused by the engine and stayed
// queued, so every later learner (each SessionStart) failed on it again.
describe('a queued event more than a day after now', () => {
  it('is learned dated now, with the other sessions, and leaves the queue', async () => {
    const cwd = join(base, 'ahead');
    mkdirSync(join(cwd, '.git'), { recursive: true });
    const store = openSqliteStore({ path: ':memory:' });
    const now = Date.parse('2026-04-01T00:00:00Z');
    const later = Date.parse('2099-03-01T10:00:00Z');
    try {
      for (const [session, at] of [
        ['far', later],
        ['sound', now - 60_000],
      ] as const)
        await store.enqueueHookEvents('p', [
          { session, turn: 'next', kind: 'prompt', at, payload: { prompt: 'run the tests' } },
          { session, turn: 'current', kind: 'PostToolUse', at: at + 1, payload: { tool: 'Bash', status: 'success' } },
        ]);
      const lines: string[] = [];
      const r = await ingest(store, 'p', { cwd, now, env: {}, claimer: 'me' }, (l) => lines.push(l));
      expect(lines).toEqual([]);
      expect(r.calls).toBe(2);
      const runs = await store.listExecutions('p');
      expect(runs.map((e) => [e.id, e.startedAt]).sort()).toEqual([
        ['cc-far-1', now],
        ['cc-sound-1', now - 59_999],
      ]);
      expect(await store.hasQueuedHookEvents('p')).toBe(false);
    } finally {
      await store.close();
    }
  });
});
