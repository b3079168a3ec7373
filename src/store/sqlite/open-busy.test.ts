/**
 * Walk 7, item 9: opening a new file that another connection holds locked failed in ~20 ms with STORE_UNAVAILABLE
 * (isStoreBusy false): SQLite refuses the switch to WAL at once, without its busy timeout. Now it waits the busy
 * timeout, opening once the lock is gone, and fails as STORE_BUSY past it.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { isCredenceError, isStoreBusy } from '../../core/errors.js';
import { openSqliteStore } from './sqlite-store.js';
import { LATEST_SCHEMA_VERSION } from './migrations.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** An empty SQLite file (no schema yet, a rollback journal), as another process has just created it. */
function emptyFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'credence-open-busy-'));
  dirs.push(dir);
  const path = join(dir, 'c.db');
  new Database(path).close();
  return path;
}

describe('opening a file another connection holds locked', () => {
  it('fails as STORE_BUSY naming the file once the busy timeout has passed, not at once as unavailable', () => {
    const path = emptyFile();
    const other = new Database(path);
    other.exec('BEGIN IMMEDIATE');
    try {
      const t0 = performance.now();
      let error: unknown;
      try {
        openSqliteStore({ path, busyTimeoutMs: 300 });
      } catch (e) {
        error = e;
      }
      expect(isCredenceError(error, 'STORE_BUSY')).toBe(true);
      expect(isStoreBusy(error)).toBe(true);
      expect((error as Error).message).toBe(`the store ${path} is busy (another process is writing); retry`);
      expect(performance.now() - t0).toBeGreaterThanOrEqual(250);
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
  });

  it('opens (and creates the schema) once another process lets the lock go within the busy timeout', async () => {
    const path = emptyFile();
    const holder = spawn(
      process.execPath,
      [
        '-e',
        "const db = new (require('better-sqlite3'))(process.argv[1]); db.exec('BEGIN IMMEDIATE'); " +
          "console.log('locked'); setTimeout(() => { db.exec('ROLLBACK'); db.close(); }, 400);",
        path,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise((done) => holder.stdout.once('data', done));
    const store = openSqliteStore({ path, busyTimeoutMs: 10_000 });
    expect(await store.schemaVersion()).toBe(LATEST_SCHEMA_VERSION);
    await store.close();
    await new Promise((done) => holder.once('exit', done));
  }, 30_000);
});
