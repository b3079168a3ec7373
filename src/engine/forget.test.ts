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
    const deletes: unknown[] = [];
    const spied = Object.assign(Object.create(store) as typeof store, {
      deleteObservations: (scope: string, ids: readonly string[], options?: { secureDelete?: boolean }) => {
        deletes.push(options);
        return store.deleteObservations(scope, ids, options);
      },
    });
    const report = await prune({ store: spied, scope: 'p', layout: { root } }, NOW, {
      maxObservations: 3,
      purgeAfterDays: 90,
    });
    // A prune is no privacy action: its bulk delete skips secure delete (9-24 times slower; a forget keeps it).
    expect(deletes).toEqual([{ secureDelete: false }]);
    const own = 'over the limit of 3 observations (your own words, oldest first: nothing else was left to remove)';
    expect(report.observations).toEqual([
      { id: 'ancient', why: 'older than 90 days', by: 'age', user: true },
      { id: 'a', why: own, by: 'limit', user: true },
      { id: 'b', why: own, by: 'limit', user: true },
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

describe('prune in one set (issue 20)', () => {
  /**
   * The rule applied one observation at a time, a naive oracle over plain lists: past the purge age first, then over
   * the cap what tools produced before what the user said (walk 6 item 1), each oldest first.
   */
  function oraclePrune(
    observations: readonly ObservationRecord[],
    live: readonly { id: string; evidence: readonly string[] }[],
    limits: { maxObservations: number; purgeAfterDays: number },
  ): string[] {
    const existing = new Set(observations.map((o) => o.id));
    const left = live.map((l) => new Set(l.evidence.filter((id) => existing.has(id))));
    const removed: string[] = [];
    let kept = observations.length;
    const oldest = [...observations].sort((a, b) => a.timestamp - b.timestamp || (a.id < b.id ? -1 : 1));
    const young = (o: ObservationRecord) => o.timestamp >= NOW - limits.purgeAfterDays * DAY;
    const users = (o: ObservationRecord) => o.tags.includes('source:user');
    const order = [
      ...oldest.filter((o) => !young(o)),
      ...oldest.filter((o) => young(o) && !users(o)),
      ...oldest.filter((o) => young(o) && users(o)),
    ];
    for (const o of order) {
      if (young(o) && kept <= limits.maxObservations) continue;
      if (left.some((ev) => ev.has(o.id) && ev.size === 1)) continue;
      removed.push(o.id);
      for (const ev of left) ev.delete(o.id);
      kept -= 1;
    }
    return removed;
  }

  it('deletes exactly what pruning one observation at a time deleted, and keeps the evidence lists true', async () => {
    let seed = 20;
    const rng = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    const store = openSqliteStore({ path: ':memory:' });
    const observations = Array.from({ length: 600 }, (_, i) => ({
      ...obs(`o${i}`, Math.floor(rng() * 150)),
      tags: [rng() < 0.3 ? 'source:user' : 'source:tool-output'],
    }));
    await store.insertObservations('p', observations);
    const pick = () => Array.from({ length: 1 + Math.floor(rng() * 4) }, () => `o${Math.floor(rng() * 620)}`);
    const statuses = ['active', 'active', 'retired', 'promoted'] as const;
    const instincts = Array.from({ length: 40 }, (_, i) => ({
      id: `i${i}`,
      slug: `i${i}`,
      text: `instinct ${i}`,
      confidence: Math.round(rng() * 100) / 100,
      status: statuses[i % 4] as (typeof statuses)[number],
      evidence: [...new Set(pick())],
      createdAt: NOW,
      updatedAt: NOW,
    }));
    for (const i of instincts) await store.upsertInstinct('p', i);
    const skills = Array.from({ length: 25 }, (_, i) => ({
      id: `s${i}`,
      name: `s${i}`,
      description: `skill ${i}`,
      rules: [`rule ${i}`],
      confidence: 0.8,
      evidence: [...new Set(pick())],
      createdAt: NOW,
      updatedAt: NOW,
    }));
    for (const s of skills) await store.upsertSkill('p', s);
    const limits = { maxObservations: 120, purgeAfterDays: 90 };
    const live = [...instincts.filter((i) => i.status === 'active'), ...skills];
    const expected = oraclePrune(observations, live, limits);

    const report = await prune({ store, scope: 'p', layout: { root } }, NOW, { ...limits, maxActiveInstincts: 1000 });
    expect(report.observations.map((r) => r.id)).toEqual(expected);
    expect(expected.length).toBeGreaterThan(400);
    expect(report.protected).toBeGreaterThan(0);
    const removed = new Set(expected);
    expect((await store.listObservations('p')).map((o) => o.id).sort()).toEqual(
      observations
        .map((o) => o.id)
        .filter((id) => !removed.has(id))
        .sort(),
    );
    const existing = new Set((await store.listObservations('p')).map((o) => o.id));
    for (const i of await store.listInstincts('p')) {
      const before = instincts.find((x) => x.id === i.id)?.evidence ?? [];
      expect(i.evidence).toEqual(i.status === 'active' ? before.filter((id) => existing.has(id)) : before);
    }
    for (const s of await store.listSkills('p')) {
      const before = skills.find((x) => x.id === s.id)?.evidence ?? [];
      expect(s.evidence).toEqual(before.filter((id) => existing.has(id)));
    }
    await store.close();
  });
});
