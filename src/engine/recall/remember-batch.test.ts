import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MemoryInput } from '../../schemas/index.js';
import { openSqliteStore } from '../../store/sqlite/index.js';
import { REMEMBER_INDEX_BATCH, type RememberReport, rememberMemories } from './remember.js';

const DAY = 86_400_000;
const APRIL = Date.parse('2026-04-01T00:00:00Z');
const day = (n: number): string => new Date(APRIL + n * DAY).toISOString();

/**
 * Memories whose decisions are all kinds: facts that change (a cue, by title, tag, path, words or a name; one true
 * before the one it follows), repeats exactly and written alike, the same title saying otherwise, turns said again
 * and changed, ids of one's own, a named supersession; between them, notes about other things.
 */
function inputs(): MemoryInput[] {
  const out: MemoryInput[] = [];
  const people = ['Ana', 'Bo', 'Cy', 'Di', 'Ed', 'Fay'];
  const cities = ['Lisbon', 'Denver', 'Porto', 'Tallinn', 'Osaka', 'Quito', 'Boston'];
  for (let i = 0; out.length < REMEMBER_INDEX_BATCH + 60; i += 1) {
    const who = people[i % people.length] as string;
    const city = cities[i % cities.length] as string;
    const next = cities[(i + 3) % cities.length] as string;
    out.push({ title: `Service s${i}`, text: `Service s${i} handles invoices batch ${i} for team t${i % 5}` });
    switch (i % 12) {
      case 0:
        out.push({ title: `${who}'s city`, text: `${who} lives in ${city} these days` });
        break;
      case 1:
        out.push({ title: `${who} home`, text: `I finally relocated from ${city} to ${next}`, validFrom: day(i) });
        break;
      case 2:
        out.push({ title: 'Main store', text: `We use Postgres ${i} for the main store` });
        out.push({ title: 'Main store', text: `We use MySQL ${i} for the main store` });
        break;
      case 3:
        out.push({ title: 'Queue', text: `Jobs now wait in the Redis queue ${i}`, tags: ['ops'], validFrom: day(-i) });
        break;
      case 4:
        out.push({ title: `Cache ${i}`, text: 'The cache host keeps sessions in Redis memory', tags: ['ops'] });
        out.push({ title: `Cache moved ${i}`, text: 'Sessions moved to the cache host disk', tags: ['ops'] });
        break;
      case 5:
        out.push({
          title: `Deploy ${i}`,
          text: i % 24 === 5 ? `Releases ship from runner r${i}` : `Now builds leave by gate g${i}`,
          path: 'docs/deploy.md',
        });
        break;
      case 6:
        out.push({ title: 'Main store', text: 'we use postgres for the main store.' });
        out.push({ id: `own-${i}`, title: `Own ${i}`, text: `Service s${i} handles invoices batch ${i} for team t1` });
        // The same id again: once as it was (seen twice), once with another text (updated).
        out.push({ id: `own-${i}`, title: `Own ${i}`, text: `Service s${i} handles invoices batch ${i} for team t1` });
        out.push({ id: `own-${i}`, title: `Own ${i}`, text: `Service s${i} now handles refunds for team t2` });
        break;
      case 7:
        out.push({
          speaker: who,
          session: `s${i % 3}`,
          index: i,
          at: day(i),
          text: `I work at the ${city} office now`,
        });
        out.push({
          speaker: who,
          session: `s${i % 3}`,
          index: i + 1,
          at: day(i),
          text: `I work at the ${city} office`,
        });
        break;
      case 8:
        out.push({ speaker: who, session: 's1', index: i, at: day(i), text: `I moved to ${next} last spring` });
        for (const n of [1, 2])
          out.push({
            speaker: who,
            session: 's2',
            index: i + n,
            at: day(i),
            text: `Shall we book the ${city} tickets`,
          });
        break;
      case 9:
        out.push({ title: `Build ${i}`, text: `The build host no longer runs nightly jobs ${i % 2}`, tags: ['ci'] });
        break;
      case 10:
        out.push({ id: `named-${i}`, title: `Named ${i}`, text: `Team t${i % 5} reviews invoices weekly` });
        out.push({
          title: `Named after ${i}`,
          text: `Team t${i % 5} reviews invoices daily`,
          supersedes: `named-${i}`,
        });
        break;
      default:
        out.push({
          title: `Billing ${i}`,
          text: `Service s${i} handles invoices batch ${i} for team t${i % 5} again`,
        });
    }
  }
  return out;
}

async function remembered(root: string, batches: readonly (readonly MemoryInput[])[]) {
  const store = openSqliteStore({ path: ':memory:' });
  const ctx = { store, scope: 'batch', root, now: APRIL + 100 * DAY };
  const reports: RememberReport[] = [];
  for (const batch of batches) reports.push(await rememberMemories(ctx, batch));
  const rows = (await store.listMemories('batch')).map(({ updatedAt: _u, ...m }) => m);
  await store.close();
  return {
    rows: rows.sort((a, b) => a.id.localeCompare(b.id)),
    ids: reports.flatMap((r) => r.ids),
    counts: ['inserted', 'updated', 'merged'].map((k) => reports.reduce((n, r) => n + (r[k as 'merged'] ?? 0), 0)),
    superseded: reports.flatMap((r) => r.superseded),
    conflicts: reports.flatMap((r) => r.conflicts),
  };
}

describe('remember: a batch decides as one memory at a time does (issue 23)', () => {
  it('the same merges, supersessions, conflicts and rows, whether remembered in one call or one by one', async () => {
    const root = mkdtempSync(join(tmpdir(), 'credence-batch-'));
    writeFileSync(join(root, 'deploy.md'), 'x');
    const all = inputs().map((m) => (m.path === undefined ? m : { ...m, path: 'deploy.md' }));
    expect(all.length).toBeGreaterThanOrEqual(REMEMBER_INDEX_BATCH);
    const batch = await remembered(root, [all]);
    const single = await remembered(
      root,
      all.map((m) => [m]),
    );
    expect(batch).toEqual(single);
    // Every kind of decision is among them.
    expect(batch.counts[2]).toBeGreaterThan(5);
    expect(batch.rows.some((m) => m.id.startsWith('own-') && m.life?.seen === 2 && m.text.includes('refunds'))).toBe(
      true,
    );
    expect(batch.superseded.length).toBeGreaterThan(20);
    expect(batch.conflicts.length).toBeGreaterThan(5);
    expect(batch.superseded.some((s) => s.why.includes('the same path'))).toBe(true);
    expect(batch.superseded.some((s) => s.why.includes('the same tag'))).toBe(true);
    expect(
      batch.rows.filter((m) => m.life?.turn !== undefined && m.life.status === 'superseded').length,
    ).toBeGreaterThan(0);
  });
});
