/**
 * A robustness audit: with another process holding a write transaction, `recall` exited 1 after 5 s with
 * "database is locked (SQLITE_BUSY)", its answer lost; a busy store was told as a failure, not as busy.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { EXIT, main } from './main.js';

const dir = mkdtempSync(join(tmpdir(), 'credence-cli-busy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
mkdirSync(join(dir, '.git'));
const db = join(dir, 'b.db');

async function credence(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(['--db', db, '--now', '2026-05-02T09:00:00Z', ...argv], {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    env: { HOME: dir },
    cwd: dir,
  });
  return { code, stdout, stderr };
}

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
});
