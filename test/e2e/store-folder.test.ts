/**
 * A store path whose folder cannot be made (walk 17, item 13): on procfs, `mkdir /proc/nope` fails with ENOENT while
 * `/proc` exists, and Node's recursive mkdir retried that for ever at full CPU. The command fails with one line naming
 * the store and the folder, and a hook fails open with one line. (Linux only: it needs /proc.)
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CREDENCE_BIN, isolatedEnv } from '../helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'credence-store-folder-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const DB = '/proc/credence-no-such-folder/x.db';

/** Runs the CLI; a process still running after a minute is killed (its status is then null, not an exit code). */
const run = (args: readonly string[], input?: string) => {
  const r = spawnSync(process.execPath, [CREDENCE_BIN, ...args], {
    cwd: dir,
    encoding: 'utf8',
    env: isolatedEnv(dir, { CREDENCE_DB: DB }),
    timeout: 60_000,
    ...(input === undefined ? {} : { input }),
  });
  return { code: r.status, stderr: r.stderr };
};

describe.skipIf(!existsSync('/proc/self'))('a store whose folder cannot be made', () => {
  it('init fails with one line naming the store and the folder', () => {
    const r = run(['init', '--db', DB]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `credence: cannot open the database at ${DB}: ENOENT: no such file or directory, ` +
        "mkdir '/proc/credence-no-such-folder'\n",
    );
  }, 120_000);

  it('a session start fails open with one line', () => {
    const payload = { session_id: 'u1', cwd: dir, hook_event_name: 'SessionStart', source: 'startup' };
    const r = run(['hook', 'claude-code'], JSON.stringify(payload));
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^credence hook: SessionStart: cannot open the database at [^\n]*ENOENT[^\n]*\n$/);
  }, 120_000);
});
