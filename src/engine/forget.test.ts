import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { prune } from './forget.js';
import { openSqliteStore } from '../store/sqlite/index.js';
import type { ObservationRecord } from '../store/types.js';

const DAY = 86_400_000;
const NOW = Date.parse('2026-06-01T00:00:00Z');
const root = mkdtempSync(join(tmpdir(), 'credence-prune-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const obs = (id: string, daysAgo: number): ObservationRecord => ({
  id,
  timestamp: NOW - daysAgo * DAY,
  type: 'pattern',
  context: {},
  observation: `observation ${id}`,
  evidence: [],
  confidence: 0.5,
  tags: [],
});

describe('prune (the seed limits)', () => {
  it('purges old and surplus observations, oldest first, but never the last evidence of a live instinct', async () => {
    const store = openSqliteStore({ path: ':memory:' });
    await store.insertObservations('p', [
      obs('ancient', 200),
      obs('old-evidence', 120),
      obs('a', 5),
      obs('b', 4),
      obs('c', 3),
      obs('d', 2),
    ]);
    await store.upsertInstinct('p', {
      id: 'i1',
      slug: 's',
      text: 't',
      confidence: 0.6,
      status: 'active',
      evidence: ['old-evidence'],
      createdAt: NOW,
      updatedAt: NOW,
    });
    const report = await prune({ store, scope: 'p', layout: { root } }, NOW, {
      maxObservations: 3,
      purgeAfterDays: 90,
    });
    expect(report.observations).toEqual([
      { id: 'ancient', why: 'older than 90 days' },
      { id: 'a', why: 'over the limit of 3 observations' },
      { id: 'b', why: 'over the limit of 3 observations' },
    ]);
    expect(report.protected).toBe(1);
    expect((await store.listObservations('p')).map((o) => o.id)).toEqual(['old-evidence', 'c', 'd']);
    await store.close();
  });

  it('retires the least confident instincts over the active limit', async () => {
    const store = openSqliteStore({ path: ':memory:' });
    for (const [id, confidence] of [
      ['i1', 0.6],
      ['i2', 0.55],
      ['i3', 0.65],
    ] as const) {
      await store.upsertInstinct('p', {
        id,
        slug: id,
        text: id,
        confidence,
        status: 'active',
        evidence: [],
        createdAt: NOW,
        updatedAt: NOW,
      });
    }
    const report = await prune({ store, scope: 'p', layout: { root } }, NOW, { maxActiveInstincts: 2 });
    expect(report.retiredInstincts).toEqual([{ id: 'i2', confidence: 0.55 }]);
    expect((await store.listInstincts('p')).map((i) => [i.id, i.status])).toEqual([
      ['i3', 'active'],
      ['i1', 'active'],
      ['i2', 'retired'],
    ]);
    await store.close();
  });
});
