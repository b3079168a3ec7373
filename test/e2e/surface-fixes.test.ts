/**
 * What a newcomer met at the surfaces (the real binary, spawned): `credence hook …` exits 0 on any command line (exit 2
 * from a PreToolUse hook would block the agent's tool call), the plugin's launcher too; a command that only reads fails
 * on a --db that does not exist instead of making one, while a command that writes, and the default store, still make
 * theirs; the scope's origin is said when it tells something.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
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

describe('the plugin launcher fails open on a Credence that breaks as it loads', () => {
  it("a project's install whose bin throws: a hook exits 0 with one line; another command exits 1", () => {
    const project = join(dir, 'broken-project');
    const broken = join(project, 'node_modules', 'credence');
    mkdirSync(join(broken, 'bin'), { recursive: true });
    mkdirSync(join(broken, 'dist'), { recursive: true });
    writeFileSync(join(broken, 'bin', 'credence.cjs'), "throw new Error('this install is broken');\n");
    writeFileSync(join(broken, 'dist', 'cli.cjs'), '');
    const driver = join(__dirname, '..', '..', 'node_modules', 'better-sqlite3');
    symlinkSync(driver, join(project, 'node_modules', 'better-sqlite3'));
    const launcher = join(__dirname, '..', '..', 'plugin', 'launch.cjs');
    const env = isolatedEnv(project, { ...NOW, CLAUDE_PROJECT_DIR: project, CREDENCE_DB: join(dir, 'broken.db') });
    const launch = (args: string[]) =>
      spawnSync(process.execPath, [launcher, ...args], { cwd: project, env, input: '{}', encoding: 'utf8' });
    const hook = launch(['hook', 'claude-code']);
    expect(hook.status, hook.stderr).toBe(0);
    expect(hook.stdout).toBe('');
    expect(hook.stderr.trimEnd().split('\n')).toEqual([
      expect.stringMatching(/^credence hook: .*this install is broken/),
    ]);
    const status = launch(['status']);
    expect(status.status).toBe(1);
    expect(status.stderr).toMatch(/this install is broken/);
  });
});

describe('a store named by --db that does not exist', () => {
  const missing = join(dir, 'no-such-folder', 'x.db');
  for (const args of [['status'], ['recall', 'tea'], ['tools', 'search', 'tea'], ['edges'], ['dump', '-']]) {
    it(`${args.join(' ')} (it only reads) exits 2 naming the path and makes nothing`, () => {
      const r = runCredence(['--db', missing, ...args], dir, { env: NOW });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/^credence: no store at .*x\.db \(named by --db\): .*credence init/);
      expect(existsSync(join(dir, 'no-such-folder'))).toBe(false);
    });
  }

  it('CREDENCE_DB is the configured store: a first status makes it and answers, as the default path does', () => {
    const configured = join(dir, 'configured', 'first.db');
    const r = runCredence(['status'], dir, { env: { ...NOW, CREDENCE_DB: configured } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(configured);
    expect(existsSync(configured)).toBe(true);
  });

  it('a command that writes still makes it; then reading it works', () => {
    const db = join(dir, 'made', 'here.db');
    const w = runCredence(['--db', db, 'remember', '--title', 'tea', 'green tea in the morning'], dir, { env: NOW });
    expect(w.code, w.stderr).toBe(0);
    expect(existsSync(db)).toBe(true);
    const r = runCredence(['--db', db, 'recall', 'tea', '--json'], dir, { env: NOW });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('green tea');
  });

  it('an in-memory store (--db :memory:, there is no file to miss) is read, not refused', () => {
    const r = runCredence(['--db', ':memory:', 'status'], dir, { env: NOW });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/:memory:/);
  });

  it('the default store (no --db, no CREDENCE_DB) is made on a first recall, which answers empty', () => {
    const home = join(dir, 'fresh-home');
    const r = runCredence(['recall', 'tea', '--json'], dir, { env: NOW, home });
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(home, '.credence', 'credence.db'))).toBe(true);
  });
});

describe('status says where the scope came from when that tells something', () => {
  it('from --scope, from CREDENCE_SCOPE, or the default outside a git repository', () => {
    const db = join(dir, 'scope.db');
    expect(runCredence(['--db', db, 'init'], dir, { env: NOW }).code).toBe(0);
    const line = (args: string[], env: Record<string, string> = {}) =>
      runCredence(['--db', db, ...args, 'status'], dir, { env: { ...NOW, ...env } }).stdout.match(/^scope .*$/m)?.[0];
    expect(line(['--scope', 'demo'])).toBe('scope          demo (from --scope)');
    expect(line([], { CREDENCE_SCOPE: 'team' })).toBe('scope          team (from CREDENCE_SCOPE)');
    expect(line([])).toBe('scope          global (default: not in a git repository)');
  });
});
