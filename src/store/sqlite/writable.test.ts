import { chmodSync, existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { openSqliteStore } from './sqlite-store.js';
import { keepSideFilesWritable } from './writable.js';

// Paths this user may not write, as access(2) says for a user other than root (the tests may run as root).
const denied = vi.hoisted(() => new Set<string>());
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const accessSync = ((path: string, mode?: number) => {
    if (denied.has(String(path)) && mode !== undefined && (mode & fs.constants.W_OK) !== 0)
      throw Object.assign(new Error(`EACCES: permission denied, access '${path}'`), { code: 'EACCES' });
    return fs.accessSync(path, mode);
  }) as typeof fs.accessSync;
  return { ...fs, default: { ...fs, accessSync }, accessSync };
});

const dir = mkdtempSync(join(tmpdir(), 'credence-writable-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const mode = (path: string): number => statSync(path).mode & 0o777;
let n = 0;

/** A store with one memory, closed, its -wal and -shm gone. */
async function store(): Promise<string> {
  n += 1;
  const db = join(dir, `s${n}.db`);
  const s = openSqliteStore({ path: db });
  await s.upsertTools('s', [{ id: 'Read', description: 'read a file' }]);
  await s.close();
  return db;
}

describe.skipIf(process.platform === 'win32')('a SQLite store this user cannot write (walk 6, item 7)', () => {
  it('is read by a read-only open, whose -wal and -shm a chmod of the store makes writable again', async () => {
    const db = await store();
    chmodSync(db, 0o444);
    const reader = openSqliteStore({ path: db, readonly: true });
    expect(await reader.listTools('s')).toHaveLength(1);
    // SQLite made them with the store's mode, 0444: the owner may write them again.
    expect(mode(`${db}-shm`)).toBe(0o644);
    expect(mode(`${db}-wal`)).toBe(0o644);
    await reader.close();
    chmodSync(db, 0o644);
    const writer = openSqliteStore({ path: db });
    await writer.upsertTools('s', [{ id: 'Write', description: 'write a file' }]);
    await writer.close();
  });

  it('gets back the write bit of a -wal and -shm an older Credence left 0444', async () => {
    const db = await store();
    // A reader's -shm is not empty (SQLite itself gives an empty one the store's mode).
    writeFileSync(`${db}-shm`, Buffer.alloc(32_768));
    writeFileSync(`${db}-wal`, '');
    chmodSync(`${db}-shm`, 0o444);
    chmodSync(`${db}-wal`, 0o444);
    const writer = openSqliteStore({ path: db });
    expect(mode(`${db}-shm`) & 0o200).toBe(0o200);
    await writer.upsertTools('s', [{ id: 'Write', description: 'write a file' }]);
    await writer.close();
  });

  it("leaves another user's 0444 -wal and -shm as they are, even as root (only its own are chmodded)", async () => {
    const db = await store();
    writeFileSync(`${db}-shm`, Buffer.alloc(32_768));
    writeFileSync(`${db}-wal`, '');
    chmodSync(`${db}-shm`, 0o444);
    chmodSync(`${db}-wal`, 0o444);
    // This process is another user than the files' owner (root may chmod them; it must not).
    const getuid = vi.spyOn(process, 'getuid').mockReturnValue(statSync(db).uid + 1);
    try {
      keepSideFilesWritable(db);
    } finally {
      getuid.mockRestore();
    }
    expect(mode(`${db}-shm`)).toBe(0o444);
    expect(mode(`${db}-wal`)).toBe(0o444);
    keepSideFilesWritable(db);
    expect(mode(`${db}-wal`)).toBe(0o644);
    rmSync(`${db}-shm`);
    rmSync(`${db}-wal`);
  });

  it('is refused for writing before SQLite opens it, naming the file, its -shm or its folder and the fix', async () => {
    const db = await store();
    denied.add(db);
    expect(() => openSqliteStore({ path: db })).toThrow(
      `cannot write the database at ${db}: the file is read-only for this user (mode 0600): ` +
        `make it writable (chmod u+w ${db})`,
    );
    expect(existsSync(`${db}-wal`) || existsSync(`${db}-shm`)).toBe(false);
    // The hooks' read-only open still reads it.
    const reader = openSqliteStore({ path: db, readonly: true });
    expect(await reader.listTools('s')).toHaveLength(1);
    await reader.close();
    denied.delete(db);
    // Another user's -shm (this user cannot give it the write bit).
    writeFileSync(`${db}-shm`, '');
    denied.add(`${db}-shm`);
    expect(() => openSqliteStore({ path: db })).toThrow(
      new RegExp(
        `^cannot write the database at ${db}: its shm file ${db}-shm is read-only for this user .*` +
          `though the database file is writable: make it writable \\(chmod u\\+w ${db}-shm\\)$`,
      ),
    );
    denied.delete(`${db}-shm`);
    rmSync(`${db}-shm`);
    rmSync(`${db}-wal`, { force: true });
    denied.add(dir);
    try {
      expect(() => openSqliteStore({ path: db })).toThrow(
        new RegExp(
          `^cannot write the database at ${db}: its folder ${dir} is read-only for this user .*` +
            `make the folder writable \\(chmod u\\+w ${dir}\\)$`,
        ),
      );
    } finally {
      denied.delete(dir);
    }
  });
});
