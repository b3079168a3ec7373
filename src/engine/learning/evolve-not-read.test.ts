/**
 * What evolve says of the observations it did not read: a `--since` that still reaches the oldest when pasted later,
 * nothing suggested for observations its own prune deleted (said as deleted instead), and no window after now.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openCredence } from '../engine.js';
import { openSqliteStore } from '../../store/sqlite/index.js';
import { formatEvolveReport } from './evolve.js';

const DAY = 86_400_000;
const root = mkdtempSync(join(tmpdir(), 'credence-evolve-not-read-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function scope(clock: { now: number }, ages: number[], at: number) {
  const c = await openCredence({
    store: openSqliteStore({ path: ':memory:' }),
    scope: 's',
    now: () => clock.now,
    cwd: root,
  });
  await c.observe(
    ages.map((age, i) => ({
      timestamp: new Date(at - age).toISOString(),
      type: 'success' as const,
      observation: `tests passed in package ${i}`,
      confidence: 0.8,
      // Tool output: older than the window, it is not read (the user's own words are, up to the purge age).
      tags: ['source:tool-output'],
    })),
  );
  return c;
}

describe('evolve: observations not read', () => {
  it('suggests a --since that still reads the oldest observation when pasted moments later', async () => {
    const t0 = Date.parse('2026-10-01T10:00:00Z');
    // Run one second before the observation is 30 days old; the suggestion is pasted two seconds later.
    const clock = { now: t0 + 30 * DAY - 1000 };
    const c = await scope(clock, [0], t0);
    try {
      const first = await c.evolve({ dryRun: true });
      expect(first.notRead?.observations).toBe(1);
      const days = Number(first.notRead?.since.replace(/d$/, ''));
      clock.now += 2000;
      const again = await c.evolve({ dryRun: true, sinceMs: days * DAY });
      expect(again.observations).toBe(1);
      expect(again.notRead).toBeUndefined();
    } finally {
      await c.close();
    }
  });

  it('says the observations its prune deleted were deleted, and suggests a --since only for those left', async () => {
    const now = Date.parse('2026-11-27T12:00:00Z');
    // One observation past the 90-day purge age, one 40 days old: both before the 7-day window.
    const c = await scope({ now }, [120 * DAY, 40 * DAY], now);
    try {
      const r = await c.evolve({});
      expect(r.pruned?.observations.map((p) => p.why)).toEqual(['older than 90 days']);
      expect(r.notRead).toEqual({ observations: 1, window: '7 days', since: '41d' });
      expect(r.purged).toEqual({ observations: 1, window: '7 days' });
      const text = formatEvolveReport(r);
      expect(text).toContain('1 observation older than 7 days was not read; pass --since 41d to include it.');
      expect(text).toContain("1 observation older than 7 days was deleted by this run's prune (see Pruned)");
      // The suggestion reads what is left.
      const wider = await c.evolve({ dryRun: true, sinceMs: 41 * DAY });
      expect(wider.observations).toBe(1);
      expect(wider.notRead).toBeUndefined();
    } finally {
      await c.close();
    }
  });

  it('suggests nothing when the prune deleted every observation it did not read', async () => {
    const now = Date.parse('2026-11-27T12:00:00Z');
    const c = await scope({ now }, [120 * DAY], now);
    try {
      const r = await c.evolve({});
      expect(r.notRead).toBeUndefined();
      expect(r.purged).toEqual({ observations: 1, window: '7 days' });
      expect(formatEvolveReport(r)).not.toContain('--since');
    } finally {
      await c.close();
    }
  });

  it('a dry run deletes nothing and says nothing was deleted', async () => {
    const now = Date.parse('2026-11-27T12:00:00Z');
    const c = await scope({ now }, [120 * DAY], now);
    try {
      const r = await c.evolve({ dryRun: true });
      expect(r.notRead).toEqual({ observations: 1, window: '7 days', since: '121d' });
      expect(r.purged).toBeUndefined();
    } finally {
      await c.close();
    }
  });

  it('rejects a window that starts after now', async () => {
    const now = Date.parse('2026-11-27T12:00:00Z');
    const c = await scope({ now }, [0], now);
    try {
      await expect(c.evolve({ dryRun: true, sinceMs: -10 * DAY })).rejects.toMatchObject({
        code: 'INVALID_INPUT',
        message: expect.stringMatching(/^since must not be after now: a window of -10 days reads nothing/),
      });
    } finally {
      await c.close();
    }
  });
});

describe('evolve: the user’s words are kept longest and read at any age (walk 6 item 1, review F)', () => {
  const now = Date.parse('2026-11-27T13:00:00Z');
  async function store(
    lines: { age: number; type: 'correction' | 'success' | 'pattern'; text: string; tags: string[] }[],
  ) {
    const c = await openCredence({ store: openSqliteStore({ path: ':memory:' }), scope: 's', now, cwd: root });
    await c.observe(
      lines.map((l) => ({
        timestamp: new Date(now - l.age).toISOString(),
        type: l.type,
        observation: l.text,
        confidence: l.type === 'correction' ? 0.7 : 0.6,
        tags: l.tags,
      })),
    );
    return c;
  }
  const testPasses = (n: number, age: number) =>
    Array.from({ length: n }, (_, i) => ({
      age: age - i * 60_000,
      type: 'success' as const,
      text: `tests passed: pnpm test run ${i % 3}`,
      tags: ['source:tool-output', 'test'],
    }));

  const correction = { age: 6 * DAY, type: 'correction' as const, text: 'No, use pnpm instead of npm.', tags: [] };

  it('keeps a correction said once while 120 test passes push past the cap (t/prune-obs.jsonl)', async () => {
    const c = await store([correction, ...testPasses(120, 5 * DAY)]);
    try {
      const r = await c.evolve({});
      expect(r.pruned?.observations).toHaveLength(21);
      expect(r.pruned?.observations.every((p) => !p.user)).toBe(true);
      const left = await c.exportObservations();
      expect(left).toHaveLength(100);
      expect(left.map((o) => o.observation)).toContain('No, use pnpm instead of npm.');
    } finally {
      await c.close();
    }
  });

  it('learns a correction said once a week: each evolve reads the user’s kept words of every age (review F, 3)', () =>
    (async () => {
      // Said 20, 13 and 6 days ago: one in each 7-day window, 40 test passes a day around them.
      const said = [20, 13, 6].map((d) => ({ ...correction, age: d * DAY + 3_600_000 }));
      const c = await store([...said, ...testPasses(120, 3 * DAY)]);
      try {
        const dry = await c.evolve({ dryRun: true });
        expect(dry.ownWordsRead).toEqual({ observations: 2, window: '7 days' });
        expect(formatEvolveReport(dry)).toContain(
          '2 of your own words (corrections, preferences) older than 7 days were read as well',
        );
        // A dry run prunes nothing and says nothing of a prune (review F, 6).
        expect(formatEvolveReport(dry)).not.toMatch(/prune/i);
        const r = await c.evolve({});
        const learned = [...r.newInstincts.map((i) => i.text), ...r.skillsUpdated.map((s) => s.rule)];
        expect(learned.join('\n')).toMatch(/pnpm instead of npm/);
        expect(r.pruned?.observations.every((p) => !p.user)).toBe(true);
      } finally {
        await c.close();
      }
    })());

  it('prunes tool output older than its window unread, as automatic evidence (review F, 2, 4)', async () => {
    const commit = { age: 0, type: 'pattern' as const, text: 'committed after running tests', tags: [] as string[] };
    const commits = [20, 19, 18].map((d) => ({ ...commit, age: d * DAY, tags: ['hook', 'commit', 'source:template'] }));
    const c = await store([...commits, ...testPasses(3, DAY)]);
    try {
      const r = await c.evolve({ limits: { maxObservations: 3 } });
      // The window's three are read; the month-old commits are not, and go over the cap.
      expect(r.observations).toBe(3);
      expect(r.ownWordsRead).toBeUndefined();
      expect(r.newInstincts.map((i) => i.text)).not.toContain('committed after running tests');
      expect(r.pruned?.observations.map((p) => p.by)).toEqual(['limit', 'limit', 'limit']);
      expect(await c.exportObservations()).toHaveLength(3);
    } finally {
      await c.close();
    }
  });
});
