import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
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
  it('is read by status, export, dump, backup and the commands showing what is learned; writers refuse', async () => {
    expect((await credence('remember', '--title', 'Deploy runbook', 'deploy with the staging key')).code).toBe(0);
    const tools = join(dir, 'tools.jsonl');
    writeFileSync(tools, '{"id":"deploy_app","description":"deploy the app to staging"}\n');
    expect((await credence('tools', 'add', '--jsonl', tools)).code).toBe(0);
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
      expect(await credence('remember', '--title', 'More', 'more text')).toMatchObject({ stderr: refusal });
      // The commands that show what was learned answer; those that record what they show say they did not.
      const notRecorded = `credence: read-only store: not recorded (what is shown gets no shownId): ${db}\n`;
      const recall = await credence('recall', 'deploy');
      expect(recall).toMatchObject({ code: 0, stderr: notRecorded });
      expect(recall.stdout).toContain('Deploy runbook');
      const search = await credence('tools', 'search', 'deploy');
      expect(search).toMatchObject({ code: 0, stderr: notRecorded });
      expect(search.stdout).toContain('deploy_app');
      for (const argv of [['next', 'deploy_app'], ['dag', 'deploy'], ['edges'], ['runs'], ['calibration']])
        expect(await credence(...argv), argv.join(' ')).toMatchObject({ code: 0 });
      expect(await credence('metrics')).toMatchObject({ code: 0, stderr: '' });
      expect(await credence('workflows')).toMatchObject({ code: 0, stderr: '' });
    } finally {
      denied.delete(db);
    }
    // Nothing was recorded as shown while it was read-only.
    expect(JSON.parse((await credence('status', '--json')).stdout)).toMatchObject({ counts: { shown: 0 } });
  });
});

// chmod does not bind root: SQLite would make the -shm in the folder anyway, so this runs as another user only.
const asRoot = process.getuid?.() === 0;

describe.skipIf(process.platform === 'win32' || asRoot)(
  `a store in a read-only folder with no -wal or -shm beside it${asRoot ? ' (skipped: run as root)' : ''}`,
  () => {
    it('is read by status, export, dump and backup, from memory; the writing commands refuse it', async () => {
      const folder = join(dir, 'mount');
      mkdirSync(folder);
      const copy = join(folder, 'c.db');
      const at = (...argv: string[]) => cliIn(dir, ['--db', copy, '--now', '2026-05-02T09:00:00Z', ...argv]);
      expect((await at('remember', '--title', 'Deploy runbook', 'deploy with the staging key')).code).toBe(0);
      expect(readdirSync(folder)).toEqual(['c.db']);
      chmodSync(copy, 0o444);
      chmodSync(folder, 0o555);
      try {
        const status = await at('status', '--json');
        expect(status.stderr).toBe('');
        expect(JSON.parse(status.stdout)).toMatchObject({ integrity: { ok: true }, counts: { memories: 1 } });
        expect(status.code).toBe(0);
        expect(await at('export')).toMatchObject({ code: 0, stderr: '' });
        expect((await at('dump', join(dir, 'm.jsonl'))).code).toBe(0);
        expect(existsSync(join(dir, 'm.jsonl'))).toBe(true);
        expect((await at('backup', join(dir, 'm.db'))).code).toBe(0);
        expect(existsSync(join(dir, 'm.db'))).toBe(true);
        // Nothing was made beside it.
        expect(readdirSync(folder)).toEqual(['c.db']);
        expect(await at('remember', '--title', 'More', 'more text')).toMatchObject({
          code: 1,
          stderr:
            `credence: cannot write the database at ${copy}: the file is read-only for this user (mode 0444): ` +
            `make it writable (chmod u+w ${copy})\n`,
        });
        chmodSync(folder, 0o755);
        chmodSync(copy, 0o644);
        chmodSync(folder, 0o555);
        expect(await at('remember', '--title', 'More', 'more text')).toMatchObject({
          code: 1,
          stderr: expect.stringContaining(`its folder ${folder} is read-only for this user (mode 0555)`),
        });
      } finally {
        chmodSync(folder, 0o755);
      }
    });
  },
);
