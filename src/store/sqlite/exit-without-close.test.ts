import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { MemoryRecord } from '../types.js';
import { sqliteConnection } from './connection.js';
import { EXIT_WITHOUT_CLOSE, LEFT_OPEN, leaveOpenForExit, SMALL_WAL_BYTES } from './exit-without-close.js';
import { openSqliteStore } from './sqlite-store.js';

const dir = mkdtempSync(join(tmpdir(), 'credence-exit-'));
const flags = globalThis as unknown as Record<symbol, unknown>;
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const memory = (title: string): MemoryRecord => ({
  id: 'm1',
  category: 'note',
  title,
  text: 'written before the process ends',
  tags: [],
  createdAt: 1,
  updatedAt: 1,
});
afterEach(() => {
  delete flags[EXIT_WITHOUT_CLOSE];
  delete flags[LEFT_OPEN];
});

describe('leaveOpenForExit', () => {
  it('leaves nothing open unless the process said it ends with process.exit()', () => {
    const path = join(dir, 'unasked.db');
    writeFileSync(`${path}-wal`, '');
    expect(leaveOpenForExit(path, false)).toBe(false);
    expect(flags[LEFT_OPEN]).toBeUndefined();
  });

  it('leaves a file store with a small log open, and says so; never a read-only, in-memory or log-less one', () => {
    flags[EXIT_WITHOUT_CLOSE] = true;
    const path = join(dir, 'small.db');
    expect(leaveOpenForExit(path, false)).toBe(false);
    expect(leaveOpenForExit(':memory:', false)).toBe(false);
    writeFileSync(`${path}-wal`, Buffer.alloc(SMALL_WAL_BYTES));
    expect(leaveOpenForExit(path, true)).toBe(false);
    expect(flags[LEFT_OPEN]).toBeUndefined();
    expect(leaveOpenForExit(path, false)).toBe(true);
    expect(flags[LEFT_OPEN]).toBe(true);
  });

  it('closes a store whose log grew past the bound, so the next recovery stays short', () => {
    flags[EXIT_WITHOUT_CLOSE] = true;
    const path = join(dir, 'large.db');
    writeFileSync(`${path}-wal`, Buffer.alloc(SMALL_WAL_BYTES + 1));
    expect(leaveOpenForExit(path, false)).toBe(false);
    expect(flags[LEFT_OPEN]).toBeUndefined();
  });
});

describe('SqliteStore.close in a process that ends with process.exit()', () => {
  it('keeps the connection and its log; another connection reads what it wrote', async () => {
    flags[EXIT_WITHOUT_CLOSE] = true;
    const path = join(dir, 'kept.db');
    const store = openSqliteStore({ path });
    // The schema's pages written when the file was made: a log past the bound, checkpointed here.
    sqliteConnection(store).pragma('wal_checkpoint(TRUNCATE)');
    await store.upsertMemories('s', [memory('kept')]);
    await store.close();
    const db = sqliteConnection(store);
    expect(db.open).toBe(true);
    expect(existsSync(`${path}-wal`)).toBe(true);
    const other = new Database(path, { readonly: true });
    expect(other.prepare('SELECT title FROM memories WHERE id = ?').get('m1')).toEqual({ title: 'kept' });
    other.close();
    db.close();
  });

  it('closes as before when the process did not say so: the log is checkpointed and removed', async () => {
    const path = join(dir, 'closed.db');
    const store = openSqliteStore({ path });
    await store.upsertMemories('s', [memory('closed')]);
    await store.close();
    expect(sqliteConnection(store).open).toBe(false);
    expect(existsSync(`${path}-wal`)).toBe(false);
  });
});
