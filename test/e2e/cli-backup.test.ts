/**
 * `credence backup FILE`: a consistent copy of a SQLite store in one file, made while a query's write-ahead log is
 * beside the database (store/sqlite/exit-without-close): the copy holds every row, the log's included, and passes
 * SQLite's integrity check; an existing file is refused unless --force, and a target with a log beside it always.
 * Drives the real binary.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CREDENCE_BIN, runCredence } from '../helpers.js';

const bin = CREDENCE_BIN;
const dir = mkdtempSync(join(tmpdir(), 'credence-backup-'));
const db = join(dir, 'live.db');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function credence(args: string[]) {
  return runCredence(['--db', db, '--scope', 'b', ...args], dir);
}

/** Row counts of a database file, and its integrity check, read by a connection of its own. */
function inspect(file: string): { memories: number; shown: number; integrity: string[] } {
  const d = new Database(file, { readonly: true });
  try {
    const count = (table: string) => (d.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    const integrity = (d.pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check);
    return { memories: count('memories'), shown: count('shown'), integrity };
  } finally {
    d.close();
  }
}

function remember(from: number, to: number): void {
  const lines = [];
  for (let i = from; i < to; i += 1)
    lines.push(JSON.stringify({ title: `deploy note ${i}`, text: `deploy step ${i}: drain the node first` }));
  const file = join(dir, `mem-${from}.jsonl`);
  writeFileSync(file, `${lines.join('\n')}\n`);
  const r = credence(['remember', '--jsonl', file]);
  expect(r.code, r.stderr).toBe(0);
}

beforeAll(() => {
  remember(0, 40);
  // A query leaves its shown rows in the write-ahead log for the next process.
  for (let i = 0; i < 3; i += 1) expect(credence(['recall', 'deploy', '--limit', '10']).code).toBe(0);
});

describe('credence backup', () => {
  it('copies every row, those still in the write-ahead log included, into one sound file', () => {
    expect(existsSync(`${db}-wal`)).toBe(true);
    const live = inspect(db);
    expect(live.shown).toBeGreaterThan(0);
    const copy = join(dir, 'copy.db');
    const r = credence(['backup', copy, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ file: copy, bytes: statSync(copy).size, from: db });
    // One file: nothing beside it, readable by its owner only.
    expect(existsSync(`${copy}-wal`) || existsSync(`${copy}-shm`) || existsSync(`${copy}-journal`)).toBe(false);
    expect(statSync(copy).mode & 0o777).toBe(0o600);
    expect(inspect(copy)).toEqual({ memories: 40, shown: live.shown, integrity: ['ok'] });
    // The copy is a store the command line opens.
    const status = spawnSync(process.execPath, [bin, '--db', copy, '--scope', 'b', 'status', '--json'], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, CREDENCE_DB: '', CREDENCE_DATABASE_URL: '', HOME: dir },
    });
    expect(status.status, status.stderr).toBe(0);
  });

  it('refuses an existing file unless --force, and a file with a log beside it always', () => {
    const copy = join(dir, 'again.db');
    expect(credence(['backup', copy]).code).toBe(0);
    const before = readFileSync(copy);
    remember(40, 45);
    const refused = credence(['backup', copy]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/exists; pass --force/);
    expect(readFileSync(copy).equals(before)).toBe(true);

    const forced = credence(['backup', copy, '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toMatch(/^backed up .* to .*again\.db \(\d+ bytes\)\n$/);
    expect(inspect(copy).memories).toBe(45);

    writeFileSync(`${copy}-wal`, 'a log of another life');
    const besideLog = credence(['backup', copy, '--force']);
    expect(besideLog.code).toBe(2);
    expect(besideLog.stderr).toMatch(/-wal is beside it/);
    expect(inspect(copy).memories).toBe(45);
  });

  it('refuses the database itself as its target', () => {
    const r = credence(['backup', db, '--force']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/the store's own database/);
    expect(inspect(db).memories).toBe(45);
  });

  it('names the folder that does not exist, or the file where a folder should be', () => {
    const missing = join(dir, 'no-such-folder');
    const r = credence(['backup', join(missing, 'x.db')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`the folder ${missing} does not exist`);
    expect(r.stderr).not.toContain('.partial');
    const file = join(dir, 'a-file');
    writeFileSync(file, 'x');
    const under = credence(['backup', join(file, 'x.db')]);
    expect(under.code).toBe(2);
    expect(under.stderr).toContain(`${file} is not a folder`);
    expect(existsSync(missing)).toBe(false);
  });
});
