import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { cliIn } from '../../test/cli.js';

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

const dir = mkdtempSync(join(tmpdir(), 'credence-read-only-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
mkdirSync(join(dir, '.git'));
const db = join(dir, 's.db');
const credence = (...argv: string[]) => cliIn(dir, ['--db', db, '--now', '2026-05-02T09:00:00Z', ...argv]);

describe.skipIf(process.platform === 'win32')('a SQLite store this user cannot write (chmod 444)', () => {
  it('is read by status, export, dump and backup; recall and the writing commands refuse it, saying why', async () => {
    expect((await credence('remember', '--title', 'Deploy runbook', 'deploy with the staging key')).code).toBe(0);
    denied.add(db);
    try {
      const status = await credence('status', '--json');
      expect(status.stderr).toBe('');
      expect(status.code).toBe(0);
      expect(JSON.parse(status.stdout)).toMatchObject({ counts: { memories: 1 } });
      expect(await credence('export')).toMatchObject({ code: 0, stderr: '' });
      expect((await credence('dump', join(dir, 'd.jsonl'))).code).toBe(0);
      expect(existsSync(join(dir, 'd.jsonl'))).toBe(true);
      expect((await credence('backup', join(dir, 'b.db'))).code).toBe(0);
      expect(existsSync(join(dir, 'b.db'))).toBe(true);
      const refusal =
        `credence: cannot write the database at ${db}: the file is read-only for this user (mode 0600): ` +
        `make it writable (chmod u+w ${db})\n`;
      // recall records the rows it shows: it keeps the clear refusal, as does every command that writes.
      expect(await credence('recall', 'deploy')).toMatchObject({ stderr: refusal });
      expect(await credence('remember', '--title', 'More', 'more text')).toMatchObject({ stderr: refusal });
    } finally {
      denied.delete(db);
    }
  });
});
