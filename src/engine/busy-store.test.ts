/**
 * A robustness audit: while another process held a write transaction, recall, tool search and DAG suggestion
 * computed their answer and lost it, because recording what they showed had to succeed (5-10 s, then an error).
 * Two connections on one SQLite file, one holding BEGIN IMMEDIATE.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { isCredenceError, isStoreBusy, SIDE_WRITE_WAIT_MS } from '../core/errors.js';
import { openSqliteStore } from '../store/sqlite/index.js';
import { openCredence } from './engine.js';

const NOW = '2026-03-01T09:00:00Z';
const dirs: string[] = [];

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A store file with tools, a run and a memory; its path. */
async function seeded(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'credence-busy-'));
  dirs.push(dir);
  const path = join(dir, 'c.db');
  const credence = await openCredence({ store: openSqliteStore({ path }), scope: 'p', now: NOW });
  await credence.addTools([
    { id: 'read_file', description: 'Read a file from disk' },
    { id: 'jq', description: 'Filter JSON text' },
  ]);
  await credence.recordExecution({
    intent: 'read the config and filter it',
    calls: [
      { tool: 'read_file', status: 'success' },
      { tool: 'jq', status: 'success', consumes: [0] },
    ],
  });
  await credence.remember([{ title: 'deploy runbook', text: 'deploy with the staging key' }]);
  await credence.close();
  return path;
}

/** `fn` timed, in ms. */
async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const t0 = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - t0 };
}

describe('a read while another process holds the write lock', () => {
  it('recall, tool search and DAG suggestion answer, without shown ids and saying why, one line each', async () => {
    const path = await seeded();
    const warned: string[] = [];
    // The store's own busy timeout stays (20 s here, far from the reads' times on a loaded machine): only the reads'
    // writes on the side wait briefly.
    const credence = await openCredence({
      store: openSqliteStore({ path, busyTimeoutMs: 20_000 }),
      scope: 'p',
      now: NOW,
      warn: (line) => warned.push(line),
    });
    const other = new Database(path);
    other.exec('BEGIN IMMEDIATE');
    try {
      const recall = await timed(() => credence.recall('deploy runbook'));
      const search = await timed(() => credence.searchTools('read a file'));
      const dag = await timed(() => credence.suggestDag('read the config and filter it'));
      expect(recall.value.map((r) => r.title)).toContain('deploy runbook');
      expect(search.value.map((r) => r.tool)).toContain('read_file');
      expect(dag.value.mode).toBe('suggestion');
      for (const item of [...recall.value, ...search.value, dag.value]) {
        expect(item.shownId).toBeUndefined();
        expect(item.shownIdWhy).toMatch(/^not recorded as shown, so no shownId: the store is busy/);
      }
      // Not the busy timeout per write: a few short waits.
      for (const { ms } of [recall, search, dag]) expect(ms).toBeLessThan(10_000);
      expect(warned).toEqual([
        expect.stringMatching(/^recall: not recorded as shown, so no shownId: the store is busy \(another process/),
        expect.stringMatching(/^search: not recorded as shown/),
        expect.stringMatching(/^dag: not recorded as shown/),
      ]);
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    // The lock gone, what is shown is recorded again.
    const again = await credence.recall('deploy runbook');
    expect(again[0]?.shownId).toMatch(/^sh-/);
    expect(again[0]?.shownIdWhy).toBeUndefined();
    await credence.close();
  }, 60_000);

  it('a write still waits the busy timeout and fails as STORE_BUSY naming the file, not the short wait', async () => {
    const path = await seeded();
    const credence = await openCredence({ store: openSqliteStore({ path, busyTimeoutMs: 600 }), scope: 'p', now: NOW });
    const other = new Database(path);
    other.exec('BEGIN IMMEDIATE');
    try {
      const t0 = performance.now();
      const error = await credence.remember([{ title: 'x', text: 'y' }]).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isStoreBusy(error)).toBe(true);
      // A CredenceError a program can switch on (library.md), not the driver's SqliteError "database is locked".
      expect(isCredenceError(error, 'STORE_BUSY')).toBe(true);
      expect((error as Error).message).toBe(`the store ${path} is busy (another process is writing); retry`);
      expect(performance.now() - t0).toBeGreaterThanOrEqual(600 - 50);
      // The short wait was put back: the connection's timeout is the store's again.
      expect(SIDE_WRITE_WAIT_MS).toBeLessThan(600);
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    await credence.close();
  }, 30_000);
});
