import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from './sqlite-store.js';

const dir = mkdtempSync(join(tmpdir(), 'credence-mode-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const mode = (path: string): number => statSync(path).mode & 0o777;

describe.skipIf(process.platform === 'win32')('the SQLite store on disk (issue 17, red-team 8)', () => {
  it('creates its folders 0700 and its database, -wal and -shm files 0600', async () => {
    const db = join(dir, 'home', '.credence', 'credence.db');
    const store = openSqliteStore({ path: db });
    try {
      await store.upsertTools('s', [{ id: 'Read', description: 'read a file' }]);
      expect(mode(join(dir, 'home', '.credence'))).toBe(0o700);
      expect(mode(join(dir, 'home'))).toBe(0o700);
      expect(mode(db)).toBe(0o600);
      expect(existsSync(`${db}-wal`)).toBe(true);
      expect(mode(`${db}-wal`)).toBe(0o600);
      expect(mode(`${db}-shm`)).toBe(0o600);
    } finally {
      await store.close();
    }
  });

  it('leaves a folder and a database file the user already had as they were', async () => {
    const folder = join(dir, 'mine');
    mkdirSync(folder);
    chmodSync(folder, 0o755);
    const db = join(folder, 'credence.db');
    writeFileSync(db, '');
    chmodSync(db, 0o644);
    const store = openSqliteStore({ path: db });
    await store.close();
    expect(mode(folder)).toBe(0o755);
    expect(mode(db)).toBe(0o644);
  });
});
