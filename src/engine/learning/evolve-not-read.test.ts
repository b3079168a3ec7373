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
