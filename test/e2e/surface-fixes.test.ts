/**
 * What a newcomer met at the surfaces (the real binary, spawned): `credence hook …` exits 0 on any command line (exit 2
 * from a PreToolUse hook would block the agent's tool call), the plugin's launcher too; a command that only reads fails
 * on a --db that does not exist instead of making one, while a command that writes, and the default store, still make
 * theirs; the scope's origin is said when it tells something.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isolatedEnv, runCredence } from '../helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'credence-surface-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const NOW = { CREDENCE_NOW: '2026-05-02T09:00:00Z' };

describe('credence hook always exits 0', () => {
  const lines: [string, string[], RegExp][] = [
    ['an unknown option', ['hook', 'claude-code', '--bogus'], /unknown option '--bogus'/],
    ['an unknown agent', ['hook', 'cursor'], /unknown command 'cursor'/],
    ['no agent', ['hook'], /no agent named/],
    ['an extra argument', ['hook', 'claude-code', 'extra'], /too many arguments/],
    ['an unknown global option', ['--bogus', 'hook', 'claude-code'], /unknown option '--bogus'/],
    ['a --learn without its event', ['hook', 'claude-code', '--learn'], /unknown option '--learn'/],
    ['a global option and an unknown one', ['--db', 'x.db', 'hook', 'claude-code', '--nope'], /unknown option/],
  ];
  for (const [what, args, named] of lines) {
    it(`${what}: exit 0, nothing on stdout, one line on stderr naming it`, () => {
      const r = runCredence(args, dir, { input: '{}', env: NOW });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe('');
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/^credence hook: /);
      expect(r.stderr).toMatch(named);
    });
  }

  it('the plugin launcher given an unknown agent exits 0 as well', () => {
    const launcher = join(__dirname, '..', '..', 'plugin', 'launch.cjs');
    const r = spawnSync(process.execPath, [launcher, 'hook', 'cursor'], {
      cwd: dir,
      input: '{}',
      encoding: 'utf8',
      env: isolatedEnv(dir, NOW),
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/unknown command 'cursor'/);
  });
});
