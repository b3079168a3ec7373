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
      type: 'correction' as const,
      observation: `Use pnpm not npm in package ${i}`,
      confidence: 0.8,
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

describe('evolve: what its prune removes is read first, and the user’s words are kept longest (walk 6 item 1)', () => {
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

  it('keeps a correction said once while 120 test passes push past the cap (t/prune-obs.jsonl)', async () => {
    const correction = { age: 6 * DAY, type: 'correction' as const, text: 'No, use pnpm instead of npm.', tags: [] };
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

  it('reads the observations older than its window that its prune removes, before removing them', async () => {
    // Three commits a month ago (Credence's template words, automatic), then a week of test passes: over a cap of 3,
    // the commits go first. They were never read by an evolve: this run reads them, and learns the habit.
    const commit = {
      age: 0,
      type: 'pattern' as const,
      text: 'committed after running tests',
      tags: ['hook', 'Bash', 'commit', 'source:template'],
    };
    const commits = [20, 19, 18].map((d) => ({ ...commit, age: d * DAY }));
    const c = await store([...commits, ...testPasses(3, DAY)]);
    try {
      const dry = await c.evolve({ dryRun: true, limits: { maxObservations: 3 } });
      expect(dry.readBeforePrune).toEqual({ observations: 3, window: '7 days' });
      expect(dry.observations).toBe(6);
      expect(dry.notRead).toBeUndefined();
      const r = await c.evolve({ limits: { maxObservations: 3 } });
      expect(r.readBeforePrune).toEqual({ observations: 3, window: '7 days' });
      const learned = [...r.newInstincts.map((i) => i.text), ...r.skillsUpdated.map((s) => s.rule)];
      expect(learned).toContain('committed after running tests');
      expect(formatEvolveReport(r)).toContain(
        "3 observations older than 7 days were read as well: this run's prune removes them",
      );
      // The habit keeps its last evidence; nothing is left that no evolve has read.
      expect(r.pruned?.unread).toBe(0);
      expect(await c.exportObservations()).toHaveLength(3);
    } finally {
      await c.close();
    }
  });
});
