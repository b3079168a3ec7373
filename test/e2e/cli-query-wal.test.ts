/**
 * A command-line query ends without closing its SQLite connection while the write-ahead log is small (issue 20:
 * store/sqlite/exit-without-close): what it wrote (the shown rows) is read by the next process; any other command,
 * or a query finding a long log, closes as before (checkpointed, the log removed). Drives the real binary.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { runCredence } from '../helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'credence-query-wal-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function credence(db: string, args: string[]) {
  return runCredence(['--db', db, '--scope', 'w', ...args], dir);
}

/** A process that commits ~400 KB and ends without closing: a log past the bound is left. */
function leaveLongLog(db: string): void {
  const script = `
    const Database = require(process.env.DRIVER);
    const db = new Database(process.env.DB);
    db.exec('CREATE TABLE IF NOT EXISTS ballast (b BLOB)');
    db.prepare('INSERT INTO ballast VALUES (randomblob(400000))').run();
    process.exit(0);`;
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const r = spawnSync(process.execPath, ['-e', script], { env: { ...process.env, DRIVER: driver, DB: db } });
  expect(r.status).toBe(0);
}

describe('a query process and the write-ahead log', () => {
  it('recall leaves its log for the next process, which reads the rows it showed; runs (no query) closes it', () => {
    const db = join(dir, 'q.db');
    expect(credence(db, ['remember', '--title', 'deploy key', 'the deploy key lives in the vault']).code).toBe(0);
    expect(existsSync(`${db}-wal`)).toBe(false);

    const recall = credence(db, ['recall', 'deploy key', '--format', 'json']);
    expect(recall.code).toBe(0);
    const shown = (JSON.parse(recall.stdout) as { shownId?: string }[]).map((r) => r.shownId);
    expect(shown.length).toBeGreaterThan(0);
    expect(existsSync(`${db}-wal`)).toBe(true);

    const reader = new Database(db, { readonly: true });
    const ids = reader.prepare("SELECT id FROM shown WHERE scope = 'w' AND surface = 'recall'").all() as {
      id: string;
    }[];
    reader.close();
    expect(ids.map((r) => r.id).sort()).toEqual([...shown].sort());

    expect(credence(db, ['runs']).code).toBe(0);
    expect(existsSync(`${db}-wal`)).toBe(false);
  });

  it('a query that finds a long log closes as before: checkpointed and removed', () => {
    const db = join(dir, 'long.db');
    expect(credence(db, ['remember', '--title', 'build', 'the build runs on node twenty']).code).toBe(0);
    leaveLongLog(db);
    expect(existsSync(`${db}-wal`)).toBe(true);
    const recall = credence(db, ['recall', 'build node', '--format', 'json']);
    expect(recall.code).toBe(0);
    expect(JSON.parse(recall.stdout)).not.toHaveLength(0);
    expect(existsSync(`${db}-wal`)).toBe(false);
  });
});
