/**
 * `credence status`'s integrity line (walk 19, item 5): a store without a quick check (PostgreSQL: the server checks
 * its own pages) printed "ok (quick check)" with no check run. It now runs the store's consistency check and says so.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../store/sqlite/index.js';
import type { Store } from '../store/types.js';
import { openCredence } from './engine.js';

const NOW = '2026-03-01T09:00:00Z';
const dirs: string[] = [];

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A SQLite store seen as a server store is: without `quickCheck`. */
function withoutQuickCheck(store: Store): Store {
  return new Proxy(store, {
    get(target, key) {
      if (key === 'quickCheck') return undefined;
      const value = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** A store file with one memory in scope p, opened through `wrap`; the engine and the file's path. */
async function seeded(wrap: (store: Store) => Store) {
  const dir = mkdtempSync(join(tmpdir(), 'credence-integrity-'));
  dirs.push(dir);
  const path = join(dir, 'c.db');
  const credence = await openCredence({ store: wrap(openSqliteStore({ path })), scope: 'p', now: NOW });
  await credence.remember([{ title: 'deploy runbook', text: 'deploy with the staging key' }]);
  return { credence, path };
}

/** Makes the kept count of memories disagree with the rows, as an UPDATE by hand would. */
function miscount(path: string): void {
  const raw = new Database(path);
  raw.prepare("UPDATE table_counts SET n = n + 5 WHERE name = 'memories'").run();
  raw.close();
}

describe('the integrity check credence status reports', () => {
  it('is the quick check on a store that has one (SQLite)', async () => {
    const { credence } = await seeded((s) => s);
    expect(await credence.integrity()).toEqual({ check: 'quick check', problems: [] });
    await credence.close();
  });

  it('is the consistency check on a store without one (as PostgreSQL), which finds a count off', async () => {
    const { credence, path } = await seeded(withoutQuickCheck);
    expect(await credence.integrity()).toEqual({ check: 'consistency check', problems: [] });
    miscount(path);
    expect(await credence.integrity()).toEqual({
      check: 'consistency check',
      problems: ['memories in scope p: counted 6, holds 1'],
    });
    await credence.close();
  });
});
