import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { isCredenceError } from '../../core/errors.js';
import { runStoreContract } from '../contract.js';
import { LATEST_SCHEMA_VERSION, MIGRATIONS } from './migrations.js';
import { openSqliteStore } from './sqlite-store.js';
import { thrown } from '../../../test/helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'credence-sqlite-'));
let n = 0;
const nextPath = (): string => join(dir, `store-${++n}.db`);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

runStoreContract({ name: 'sqlite (file)', create: async () => openSqliteStore({ path: nextPath() }) });
runStoreContract({ name: 'sqlite (:memory:)', create: async () => openSqliteStore({ path: ':memory:' }) });

describe('SQLite store', () => {
  it('opens in WAL mode with a busy timeout', async () => {
    const store = openSqliteStore({ path: nextPath(), busyTimeoutMs: 1234 });
    expect(store.database.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(store.database.pragma('busy_timeout', { simple: true })).toBe(1234);
    await store.close();
  });

  it('migrates a new file to the latest schema version and reopens it without migrating again', async () => {
    const path = nextPath();
    const first = openSqliteStore({ path });
    expect(await first.schemaVersion()).toBe(LATEST_SCHEMA_VERSION);
    await first.upsertTools('p', [{ id: 'a', description: 'kept' }]);
    await first.close();
    const second = openSqliteStore({ path });
    expect(await second.listTools('p')).toEqual([{ id: 'a', description: 'kept' }]);
    await second.close();
  });

  it('refuses a database written by a newer schema and leaves it untouched', () => {
    const path = nextPath();
    const raw = new Database(path);
    raw.pragma(`user_version = ${LATEST_SCHEMA_VERSION + 1}`);
    raw.close();
    const caught = thrown(() => openSqliteStore({ path }));
    expect(isCredenceError(caught, 'SCHEMA_TOO_NEW')).toBe(true);
    const again = new Database(path);
    expect(again.pragma('user_version', { simple: true })).toBe(LATEST_SCHEMA_VERSION + 1);
    again.close();
  });

  it('names the path and the reason when the file is not a database', () => {
    const path = join(dir, 'not-a-db.db');
    writeFileSync(path, 'this is plain text, not SQLite '.repeat(200));
    const caught = thrown(() => openSqliteStore({ path }));
    expect(isCredenceError(caught, 'STORE_UNAVAILABLE')).toBe(true);
    expect((caught as Error).message).toContain(path);
    expect((caught as { details?: { path?: string } }).details?.path).toBe(path);
  });

  it('names the path when its folder cannot be created', () => {
    const blocker = join(dir, 'a-file');
    writeFileSync(blocker, 'x');
    const path = join(blocker, 'sub', 'credence.db');
    const caught = thrown(() => openSqliteStore({ path }));
    expect(isCredenceError(caught, 'STORE_UNAVAILABLE')).toBe(true);
    expect((caught as { details?: { path?: string } }).details?.path).toBe(path);
  });

  it('keeps a whole batch out when one row of it breaks a constraint', async () => {
    const store = openSqliteStore({ path: nextPath() });
    const good = { id: 'ok', timestamp: 1, type: 'pattern' as const, context: {}, observation: 'fine', evidence: [], confidence: 0.5, tags: [] };
    await store.insertObservations('p', [good]);
    await expect(store.insertObservations('p', [{ ...good, id: 'a', observation: 'new' }, { ...good, id: 'b', observation: 'bad', confidence: 7 }])).rejects.toThrow();
    expect((await store.listObservations('p')).map((o) => o.id)).toEqual(['ok']);
    await store.close();
  });

  it('lets two connections write to the same file', async () => {
    const path = nextPath();
    const a = openSqliteStore({ path });
    const b = openSqliteStore({ path });
    await a.upsertTools('p', [{ id: 'from-a', description: '' }]);
    await b.upsertTools('p', [{ id: 'from-b', description: '' }]);
    expect((await a.listTools('p')).map((t) => t.id)).toEqual(['from-a', 'from-b']);
    await a.close();
    await b.close();
  });

  it('migrates a version-1 database to version 2 and makes its existing tools searchable', async () => {
    const path = nextPath();
    const raw = new Database(path);
    const first = MIGRATIONS.find((m) => m.version === 1);
    raw.exec(first?.sql ?? '');
    raw.pragma('user_version = 1');
    raw.prepare(`INSERT INTO tools (scope, id, description, created_at, updated_at) VALUES ('p', 'SkyScrapperFlightSearch', 'flights', 1, 1)`).run();
    raw.close();
    const store = openSqliteStore({ path });
    expect(await store.schemaVersion()).toBe(LATEST_SCHEMA_VERSION);
    expect((await store.searchTools('p', '"scrapper"')).map((h) => h.id)).toEqual(['SkyScrapperFlightSearch']);
    expect(await store.check()).toEqual([]);
    await store.close();
  });
});
