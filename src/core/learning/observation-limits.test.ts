import { describe, expect, it } from 'vitest';
import { isUsersOwn, ownWordsToRead, planPrune, prunedLine } from './observation-limits.js';

const DAY = 86_400_000;
const NOW = Date.parse('2026-11-27T13:00:00Z');
const LIMITS = { maxObservations: 3, purgeAfterDays: 90 };

/** An observation `daysAgo` old, the user's own words or a tool's output. */
const said = (id: string, daysAgo: number) => ({ id, timestamp: NOW - daysAgo * DAY, tags: ['source:user'] });
const tool = (id: string, daysAgo: number) => ({ id, timestamp: NOW - daysAgo * DAY, tags: ['source:tool-output'] });
const removed = (plan: ReturnType<typeof planPrune>) => plan.removed.map((r) => r.id);

describe('the limits of observations (seed 004 §6, walk 6 item 1)', () => {
  it('over the cap, removes what tools produced before what the user said, however old the user’s words', () => {
    // A correction six days old, then test passes every day since: the newest 3 kept were 3 test passes.
    const observations = [said('correction', 6), tool('t5', 5), tool('t4', 4), tool('t3', 3), tool('t2', 2)];
    const plan = planPrune(observations, [], LIMITS, NOW);
    expect(removed(plan)).toEqual(['t5', 't4']);
    expect(plan.removed[0]?.why).toBe(
      'over the limit of 3 observations (made automatically, oldest first: before any of your own words)',
    );
    expect(plan.removed.every((r) => r.by === 'limit' && !r.user)).toBe(true);
  });

  it('counts commits (Credence’s templates), agents’ notes and untagged hook output as automatic', () => {
    expect(isUsersOwn({ tags: ['hook', 'Bash', 'commit', 'source:template'] })).toBe(false);
    expect(isUsersOwn({ tags: ['source:agent'] })).toBe(false);
    expect(isUsersOwn({ tags: ['hook', 'Bash'] })).toBe(false);
    expect(isUsersOwn({ tags: ['hook', 'correction'] })).toBe(true);
    expect(isUsersOwn({ tags: [] })).toBe(true);
  });

  it('removes the user’s own words only when nothing else is left, oldest first', () => {
    const observations = [said('u1', 9), said('u2', 8), tool('t1', 1), said('u3', 7), said('u4', 6)];
    const plan = planPrune(observations, [], LIMITS, NOW);
    expect(removed(plan)).toEqual(['t1', 'u1']);
    expect(plan.removed[1]).toMatchObject({
      by: 'limit',
      user: true,
      why: 'over the limit of 3 observations (your own words, oldest first: nothing else was left to remove)',
    });
  });

  it('purges by age, whoever said it, and counts what is left against the cap', () => {
    const observations = [said('old-said', 120), tool('old-tool', 100), said('u', 50), tool('t', 1)];
    const plan = planPrune(observations, [], LIMITS, NOW);
    expect(plan.removed).toEqual([
      { id: 'old-said', why: 'older than 90 days', by: 'age', user: true },
      { id: 'old-tool', why: 'older than 90 days', by: 'age', user: false },
    ]);
  });

  it('never removes the last evidence of a live instinct or skill', () => {
    const observations = [tool('t1', 5), tool('t2', 4), tool('t3', 3), said('u', 2), tool('t4', 1)];
    const plan = planPrune(observations, [{ id: 'i', evidence: ['t1', 'gone'] }], LIMITS, NOW);
    expect(removed(plan)).toEqual(['t2', 't3']);
    expect(plan.protected).toBe(1);
    expect([...(plan.evidenceLeft.get('i') ?? [])]).toEqual(['t1']);
  });

  it('over the cap, removes tool output older than any window as it does the rest: read or not, oldest first', () => {
    const observations = [tool('ancient', 100), tool('t1', 30), tool('t2', 20), tool('t3', 2), tool('t4', 1)];
    expect(removed(planPrune(observations, [], LIMITS, NOW))).toEqual(['ancient', 't1']);
  });

  it('gives an evolve the user’s own words the cap keeps inside the purge age, older than its window', () => {
    const since = NOW - 7 * DAY;
    // Four corrections a week apart, one past the purge age, tool output in between; a cap of 3.
    const observations = [said('w0', 100), said('w1', 21), tool('t1', 20), said('w2', 14), said('w3', 7.5)];
    const read = ownWordsToRead([...observations, said('w4', 1)], LIMITS, NOW, since);
    // The newest 3 of the user's words inside 90 days are w2, w3, w4; w4 is in the window (read anyway).
    expect(read.map((o) => o.id)).toEqual(['w2', 'w3']);
    expect(ownWordsToRead(observations, { ...LIMITS, maxObservations: 100 }, NOW, since).map((o) => o.id)).toEqual([
      'w1',
      'w2',
      'w3',
    ]);
  });

  it('says in one line what it removed, the user’s own words apart, and nothing when it removed nothing', () => {
    const plan = planPrune(
      [said('old', 120), tool('t1', 30), said('u1', 20), said('u2', 3), said('u3', 2), said('u4', 1)],
      [],
      LIMITS,
      NOW,
    );
    expect(prunedLine({ observations: plan.removed, protected: plan.protected })).toBe(
      'evolve pruned 3 observations (1 past the purge age, 2 over the limit, what tools produced first), ' +
        '2 of them your own words',
    );
    expect(prunedLine({ observations: [], protected: 2 })).toBeUndefined();
    expect(prunedLine({ observations: plan.removed.slice(0, 1), protected: 2 })).toBe(
      'evolve pruned 1 observation (1 past the purge age), 1 of them your own words; ' +
        '2 kept as the last evidence of what was learned',
    );
  });
});
