/**
 * A robustness audit: with another process holding a write transaction, `recall` exited 1 after 5 s with
 * "database is locked (SQLITE_BUSY)", its answer lost; a busy store was told as a failure, not as busy.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { CredenceError } from '../core/errors.js';
import { Credence } from '../engine/engine.js';
import { cliIn } from '../../test/cli.js';
import { EXIT } from './main.js';

const dir = mkdtempSync(join(tmpdir(), 'credence-cli-busy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
mkdirSync(join(dir, '.git'));
const db = join(dir, 'b.db');

const credence = (...argv: string[]) => cliIn(dir, ['--db', db, '--now', '2026-05-02T09:00:00Z', ...argv]);

describe('the command line with another process writing to the store', () => {
  it('recall answers (exit 0, one line on stderr); a write exits 75 saying the store is busy', async () => {
    expect((await credence('remember', '--title', 'Deploy runbook', 'deploy with the staging key')).code).toBe(0);
    const other = new Database(db);
    other.exec('BEGIN IMMEDIATE');
    try {
      const recall = await credence('recall', 'deploy runbook', '--json');
      expect(recall.code).toBe(0);
      const results = JSON.parse(recall.stdout) as { title: string; shownId?: string; shownIdWhy?: string }[];
      expect(results.map((r) => r.title)).toEqual(['Deploy runbook']);
      expect(results[0]?.shownId).toBeUndefined();
      expect(results[0]?.shownIdWhy).toMatch(/^not recorded as shown, so no shownId: the store is busy/);
      expect(recall.stderr.split('\n').filter((l) => l !== '')).toEqual([
        expect.stringMatching(/^credence: recall: not recorded as shown, so no shownId: the store is busy/),
      ]);
      const write = await credence('remember', '--title', 'Another', 'text');
      expect(write.code).toBe(EXIT.busy);
      expect(EXIT.busy).toBe(75);
      expect(write.stderr).toBe(`credence: the store ${db} is busy (another process is writing); retry\n`);
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
  }, 30_000);

  it('record: a store busy after a batch was stored exits 1 naming what was stored and where to resume', async () => {
    // A review: batch 2 met the lock, record exited 75 "retry", and the retry stored the first 5000 executions twice.
    const lines = Array.from({ length: 5003 }, (_, i) =>
      JSON.stringify({ intent: `task ${i}`, calls: [{ tool: 'fs:read', status: 'success' }] }),
    );
    const file = join(dir, 'big.jsonl');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const other = new Database(db);
    const original = Credence.prototype.recordExecutions;
    let calls = 0;
    const spy = vi.spyOn(Credence.prototype, 'recordExecutions').mockImplementation(function (this: Credence, ...a) {
      calls += 1;
      if (calls === 2) other.exec('BEGIN IMMEDIATE'); // another process takes the lock between the batches
      return original.apply(this, a);
    });
    try {
      const record = await credence('record', '--jsonl', file);
      expect(record.code).toBe(EXIT.failure);
      expect(record.stderr).toBe(
        'credence: the store became busy (another process is writing) after 5000 execution(s) were recorded; ' +
          'the same command would record them again: record the input from line 5001 on\n',
      );
      expect(record.stderr).not.toMatch(/retry/);
    } finally {
      spy.mockRestore();
      if (other.inTransaction) other.exec('ROLLBACK');
      other.close();
    }
    const stored = new Database(db, { readonly: true });
    expect(stored.prepare('SELECT count(*) AS n FROM executions').get()).toEqual({ n: 5000 });
    stored.close();
    // Busy before anything was stored: nothing to resume, a retry is right (75).
    const locker = new Database(db);
    locker.exec('BEGIN IMMEDIATE');
    try {
      const first = await credence('record', '--jsonl', file);
      expect(first.code).toBe(EXIT.busy);
      expect(first.stderr).toMatch(/is busy \(another process is writing\); retry\n$/);
    } finally {
      locker.exec('ROLLBACK');
      locker.close();
    }
  }, 60_000);
});

describe('the command line with the PostgreSQL server going down part way', () => {
  it('record: a server gone down after a batch was stored exits 1 naming what was stored, where to go on', async () => {
    // Walk 19, item 2: the server shut down during batch 5 of a `record`; the process died with a stack trace, and
    // the retry it invited stored the first 20,000 executions twice.
    const lines = Array.from({ length: 5003 }, (_, i) =>
      JSON.stringify({ intent: `job ${i}`, calls: [{ tool: 'fs:read', status: 'success' }] }),
    );
    const file = join(dir, 'down.jsonl');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const gone = join(dir, 'down.db');
    const original = Credence.prototype.recordExecutions;
    let calls = 0;
    const spy = vi.spyOn(Credence.prototype, 'recordExecutions').mockImplementation(function (this: Credence, ...a) {
      calls += 1;
      if (calls === 2)
        return Promise.reject(
          new CredenceError(
            'STORE_UNAVAILABLE',
            'the PostgreSQL store at postgres://team:***@db:5432/credence is unreachable (57P01): ' +
              'the server is down or out of reach; retry later',
            { details: { unreachable: true } },
          ),
        );
      return original.apply(this, a);
    });
    try {
      const record = await cliIn(dir, ['--db', gone, '--now', '2026-05-02T09:00:00Z', 'record', '--jsonl', file]);
      expect(record.code).toBe(EXIT.failure);
      expect(record.stderr).toBe(
        'credence: the PostgreSQL store at postgres://team:***@db:5432/credence is unreachable (57P01): ' +
          'the server is down or out of reach, after 5000 execution(s) were recorded; once it is back, ' +
          'the same command would record them again: record the input from line 5001 on\n',
      );
    } finally {
      spy.mockRestore();
    }
  }, 60_000);
});
