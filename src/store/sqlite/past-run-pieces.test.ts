import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from './sqlite-store.js';

// Issue 20, migration 14: the kept past runs in pieces, read a range at a time.

const dir = mkdtempSync(join(tmpdir(), 'credence-pieces-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const bytesOf = (n: number, seed: number) => Uint8Array.from({ length: n }, (_, i) => (i * seed + (i >> 7)) & 255);

describe('past runs in pieces (SQLite, migration 14)', () => {
  it('a reader whose pieces two later writes took away says so and reads nothing', async () => {
    const path = join(dir, 'gone.db');
    const store = openSqliteStore({ path });
    const first = bytesOf(9000, 7);
    await store.writePastRuns('p', 1, first);
    const reader = await store.openPastRuns('p');
    await store.writePastRuns('p', 2, bytesOf(9000, 11));
    // The previous generation stays: the reader reads on.
    expect([reader?.intact(), [...(reader?.read(4100, 3) ?? [])]]).toEqual([true, [...first.subarray(4100, 4103)]]);
    await store.writePastRuns('p', 3, bytesOf(50, 13));
    expect(reader?.intact()).toBe(false);
    expect(() => reader?.read(8500, 3)).toThrow(/replaced/);
    expect(() => reader?.read(0, 9000)).toThrow(/replaced/);
    // What it read before is kept.
    expect([...(reader?.read(4100, 3) ?? [])]).toEqual([...first.subarray(4100, 4103)]);
    expect([...((await store.readPastRuns('p'))?.data ?? [])]).toEqual([...bytesOf(50, 13)]);
    await store.close();
    // Two generations at most are kept.
    const raw = new Database(path, { readonly: true });
    expect(raw.prepare('SELECT DISTINCT generation FROM past_run_pieces ORDER BY 1').pluck().all()).toEqual([2, 3]);
    raw.close();
  });

  it('ranges read ahead in one go are held: read after their pieces were taken away, as they were', async () => {
    const store = openSqliteStore({ path: join(dir, 'ahead.db') });
    const data = bytesOf(30_000, 5);
    await store.writePastRuns('p', 1, data);
    const reader = await store.openPastRuns('p');
    // Within one piece, across two (3,990 + 20), one of a whole piece, nothing, and out of bounds (left alone).
    const ranges: [number, number][] = [
      [10, 5],
      [3990, 20],
      [12_000, 4000],
      [20_000, 0],
      [29_999, 5],
    ];
    reader?.prefetch?.(ranges);
    await store.writePastRuns('p', 2, bytesOf(10, 1));
    await store.writePastRuns('p', 3, bytesOf(10, 2));
    expect(reader?.intact()).toBe(false);
    for (const [offset, length] of ranges.slice(0, 3))
      expect([...(reader?.read(offset, length) ?? [])]).toEqual([...data.subarray(offset, offset + length)]);
    // A range of a piece not read ahead is gone.
    expect(() => reader?.read(25_000, 3)).toThrow(/replaced/);
    await store.close();
  });

  it('a blob kept whole before migration 14 goes with it (built again); one written whole is read whole', async () => {
    const path = join(dir, 'old.db');
    await openSqliteStore({ path }).close();
    // The store as version 13 left it: no pieces, the blob whole in past_runs (and what later migrations
    // add taken out again, so that they run once more as they would on such a store).
    const raw = new Database(path);
    raw.exec('DROP TABLE past_run_pieces');
    raw.exec('ALTER TABLE memories DROP COLUMN life'); // migration 15's
    raw.exec('ALTER TABLE calls DROP COLUMN depends_on'); // migration 18's
    raw.pragma('user_version = 13');
    raw.prepare('INSERT INTO past_runs (scope, revision, data) VALUES (?, ?, ?)').run('p', 3, Buffer.from([1, 2]));
    raw.close();
    const store = openSqliteStore({ path });
    expect(await store.readPastRuns('p')).toBeUndefined();
    await store.close();
    // A row of whole bytes (as an older writer's) is still read, whole or in ranges.
    const again = new Database(path);
    again
      .prepare('INSERT INTO past_runs (scope, revision, data) VALUES (?, ?, ?)')
      .run('q', 5, Buffer.from(bytesOf(20, 3)));
    again.close();
    const reopened = openSqliteStore({ path });
    expect([...((await reopened.readPastRuns('q'))?.data ?? [])]).toEqual([...bytesOf(20, 3)]);
    const reader = await reopened.openPastRuns('q');
    expect([reader?.revision, reader?.size, [...(reader?.read(16, 4) ?? [])]]).toEqual([
      5,
      20,
      [...bytesOf(20, 3)].slice(16),
    ]);
    await reopened.close();
  });
});
