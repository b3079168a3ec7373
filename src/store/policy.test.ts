import { afterEach, describe, expect, it, vi } from 'vitest';
import { isCredenceError } from '../core/errors.js';
import { STORE_POLICY, storePolicy } from './policy.js';
import { openSqliteStore } from './sqlite/sqlite-store.js';

const T0 = Date.UTC(2026, 1, 2, 6, 0, 0);
const HOUR = 3_600_000;

afterEach(() => {
  vi.useRealTimers();
});

/** Queues `key`, learns it and deletes it at `at`; returns the turns the queue gave. */
async function learnKey(store: ReturnType<typeof openSqliteStore>, key: string, at: number): Promise<number[]> {
  vi.setSystemTime(at);
  const turns = await store.enqueueHookEvents('p', [
    { session: 's', turn: 'current', kind: 'PostToolUse', at, payload: {}, key },
  ]);
  const claimed = await store.claimHookEvents('p', 'worker', 0, 's');
  await store.deleteHookEvents(
    'p',
    claimed.map((e) => e.seq),
  );
  return turns;
}

describe('store policy', () => {
  it('a store scrubs what it is given with the policy it was opened with, on every write path', async () => {
    const scrub = <T>(record: T): T => JSON.parse(JSON.stringify(record).replaceAll('hunter2', '[gone]')) as T;
    const store = openSqliteStore({ path: ':memory:', policy: { scrub } });
    try {
      await store.upsertMemories('p', [
        {
          id: 'm',
          category: 'note',
          title: 'pw hunter2',
          text: 'the password is hunter2',
          tags: [],
          createdAt: T0,
          updatedAt: T0,
        },
      ]);
      await store.importRows('memories', [
        {
          scope: 'p',
          id: 'm2',
          category: 'note',
          title: 'restored hunter2',
          text: 'hunter2 again',
          tags: '[]',
          created_at: T0,
          updated_at: T0,
        },
      ]);
      const memories = await store.listMemories('p');
      expect(memories.map((m) => [m.title, m.text])).toEqual([
        ['pw [gone]', 'the password is [gone]'],
        ['restored [gone]', '[gone] again'],
      ]);
    } finally {
      await store.close();
    }
  });

  it("a learned hook event's key is kept as long as the policy says, then the same key queues again", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const short = openSqliteStore({ path: ':memory:', policy: { hookKeyRetentionMs: HOUR } });
    const usual = openSqliteStore({ path: ':memory:' });
    try {
      for (const store of [short, usual]) {
        await learnKey(store, 'spool-1', T0);
        // Two hours later another event is learned (which drops keys past their time), and spool-1 comes again.
        await learnKey(store, 'spool-2', T0 + 2 * HOUR);
        vi.setSystemTime(T0 + 2 * HOUR + 1);
        await store.enqueueHookEvents('p', [
          { session: 's', turn: 'current', kind: 'PostToolUse', at: T0, payload: {}, key: 'spool-1' },
        ]);
      }
      expect(await short.claimHookEvents('p', 'worker', 0, 's')).toHaveLength(1);
      expect(await usual.claimHookEvents('p', 'worker', 0, 's')).toHaveLength(0);
    } finally {
      await short.close();
      await usual.close();
    }
  });

  it('defaults to scrubbing secrets and keeping hook keys a week; a bad retention is refused by name', () => {
    expect(STORE_POLICY.hookKeyRetentionMs).toBe(7 * 24 * HOUR);
    expect(STORE_POLICY.scrub({ text: 'AKIAIOSFODNN7EXAMPLE' }).text).not.toContain('AKIAIOSFODNN7EXAMPLE');
    expect(storePolicy({ hookKeyRetentionMs: HOUR })).toEqual({ scrub: STORE_POLICY.scrub, hookKeyRetentionMs: HOUR });
    let error: unknown;
    try {
      storePolicy({ hookKeyRetentionMs: -1 });
    } catch (caught) {
      error = caught;
    }
    expect(isCredenceError(error) && error.code).toBe('INVALID_INPUT');
  });
});
