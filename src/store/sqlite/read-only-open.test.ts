import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { openReadOnly } from './read-only-open.js';
import { openFailure, openSqliteStore } from './sqlite-store.js';

const dir = mkdtempSync(join(tmpdir(), 'credence-ro-open-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A read-only folder's open as SQLite fails it (no -shm can be made), simulated: chmod does not bind root. */
const readOnlyFolder = (): Database.Database =>
  ({
    pragma() {
      throw Object.assign(new Error('unable to open database file'), { code: 'SQLITE_CANTOPEN' });
    },
    close() {},
  }) as unknown as Database.Database;

async function aStore(name: string): Promise<string> {
  const path = join(dir, name);
  const store = openSqliteStore({ path });
  await store.counts();
  await store.close();
  return path;
}

/** What a command would show: openReadOnly's refusal as openSqliteStore passes it on. */
function refusal(path: string, atMost?: number): string {
  try {
    openReadOnly(path, { atMost, open: readOnlyFolder }).close();
  } catch (error) {
    return openFailure(path, error).message;
  }
  return 'opened';
}

describe('a store in a read-only folder (the folder simulated, so this runs as root too)', () => {
  it('without a -wal: read whole into memory, read-only, nothing made beside it', async () => {
    const path = await aStore('a.db');
    const before = readdirSync(dir)
      .filter((f) => f.startsWith('a.db'))
      .sort();
    const db = openReadOnly(path, { open: readOnlyFolder });
    try {
      expect(db.memory).toBe(true);
      expect(db.readonly).toBe(true);
      expect(db.pragma('user_version', { simple: true })).toBeGreaterThan(0);
      expect(() => db.exec('CREATE TABLE t (x)')).toThrow(/readonly/);
    } finally {
      db.close();
    }
    expect(
      readdirSync(dir)
        .filter((f) => f.startsWith('a.db'))
        .sort(),
    ).toEqual(before);
  });

  it('with a -wal holding commits: refused once, naming the copy that reads it', async () => {
    const path = await aStore('w.db');
    writeFileSync(`${path}-wal`, Buffer.alloc(4096, 1));
    const message = refusal(path);
    expect(message).toBe(
      `cannot open the database at ${path}: its folder is read-only and SQLite cannot make its -shm there, while ` +
        'its -wal holds commits not yet in the file: copy the file with its -wal to a writable folder and open ' +
        'the copy',
    );
    expect(message.split('cannot open the database')).toHaveLength(2);
  });

  it('over the in-memory limit: refused, naming the size and the limit', async () => {
    const path = await aStore('big.db');
    expect(existsSync(`${path}-wal`)).toBe(false);
    const message = refusal(path, 1024);
    expect(message).toMatch(
      new RegExp(
        `^cannot open the database at ${path.replaceAll('.', '\\.')}: its folder is read-only and SQLite cannot ` +
          'make its -shm there \\(the file is \\d+ bytes, over the 1024 \\(0 MiB\\) read into memory at most\\): ' +
          'copy the file to a writable folder and open the copy$',
      ),
    );
    expect(refusal(path)).toBe('opened');
  });
});
