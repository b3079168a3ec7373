/**
 * What a second newcomer walk met at the surfaces (the real binary, spawned): every date option refuses a day the
 * calendar does not have, as `--now` does; the plugin launcher knows a hook after global options; a hook names a bad
 * `--now` and runs on the clock; a missing --db store says how to make that one; `--db ""` is refused; evolve's
 * refusal says nothing internal; import names its skipped lines by file, then line, and exits 0.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isolatedEnv, runCredence } from '../helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'credence-surface-2-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const NOW = { CREDENCE_NOW: '2026-05-02T09:00:00Z' };
const db = join(dir, 'store.db');

describe('a date option given a day the calendar does not have', () => {
  const lines: [string, string[]][] = [
    ['--as-of 2026-02-30', ['recall', 'tea', '--as-of', '2026-02-30']],
    ['--as-of 2026-04-31', ['recall', 'tea', '--as-of', '2026-04-31']],
    ['--valid-from 2026-02-30', ['remember', '--title', 'tea', '--valid-from', '2026-02-30', 'green tea']],
    ['--since 2026-02-30', ['export', '--since', '2026-02-30']],
    ['--at 2026-02-31', ['observe', '--type', 'pattern', '--observation', 'ran the tests first', '--at', '2026-02-31']],
    ['--now 2026-02-30', ['--now', '2026-02-30', 'status']],
  ];
  for (const [what, args] of lines) {
    it(`${what}: exit 2 naming the value`, () => {
      runCredence(['--db', db, 'init'], dir, { env: NOW });
      const r = runCredence(['--db', db, ...args], dir, { env: NOW });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/^credence: .*20\d\d-0\d-3[01]/);
    });
  }

  it('a real day is still read: --as-of 2026-02-28, --valid-from 2024-02-29', () => {
    const w = runCredence(
      ['--db', db, 'remember', '--title', 'leap', '--valid-from', '2024-02-29', 'leap day tea'],
      dir,
      {
        env: NOW,
      },
    );
    expect(w.code, w.stderr).toBe(0);
    const r = runCredence(['--db', db, 'recall', 'leap day tea', '--as-of', '2026-02-28', '--json'], dir, { env: NOW });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('leap day tea');
  });
});

describe('the plugin launcher when no Credence can run', () => {
  // A copy of the launcher in a folder of its own: its plugin root holds no Credence, nor does the project or PATH.
  const plugin = join(dir, 'bare-plugin');
  const project = join(dir, 'bare-project');
  mkdirSync(join(plugin, 'plugin'), { recursive: true });
  mkdirSync(project, { recursive: true });
  copyFileSync(join(__dirname, '..', '..', 'plugin', 'launch.cjs'), join(plugin, 'plugin', 'launch.cjs'));
  const launch = (args: string[]) =>
    spawnSync(process.execPath, [join(plugin, 'plugin', 'launch.cjs'), ...args], {
      cwd: project,
      input: '{}',
      encoding: 'utf8',
      env: isolatedEnv(project, { ...NOW, CLAUDE_PROJECT_DIR: project, PATH: '' }),
    });
  for (const args of [
    ['hook', 'claude-code'],
    ['--db', join(dir, 'l.db'), 'hook', 'claude-code'],
    ['--scope=x', 'hook', 'claude-code'],
  ]) {
    it(`${args.join(' ')}: a hook, exit 0 with one credence hook: line`, () => {
      const r = launch(args);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toBe('');
      expect(r.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(/^credence hook: no Credence here/)]);
    });
  }

  it('another command (global options, then status) exits 1', () => {
    const r = launch(['--db', join(dir, 'l.db'), 'status']);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^credence: no Credence here/);
  });
});

describe('a hook given a --now that is no date', () => {
  for (const args of [
    ['--now', 'bad', 'hook', 'claude-code'],
    ['hook', 'claude-code', '--now', 'notadate'],
  ]) {
    it(`${args.join(' ')}: exit 0, one line naming the value, the event still learned on the clock`, () => {
      const hookDb = join(dir, `hook-${args[1]}.db`);
      const prompt = JSON.stringify({
        hook_event_name: 'UserPromptSubmit',
        session_id: `s-${args[1]}`,
        cwd: dir,
        prompt: 'where is the deploy script',
      });
      const r = runCredence(['--db', hookDb, ...args], dir, { input: prompt });
      expect(r.code, r.stderr).toBe(0);
      const bad = args[args.indexOf('--now') + 1] as string;
      expect(r.stderr.trimEnd().split('\n')).toEqual([
        expect.stringMatching(new RegExp(`^credence hook: --now .*"${bad}" \\(ignored`)),
      ]);
      expect(existsSync(hookDb)).toBe(true);
    });
  }
});

describe('--db', () => {
  it('a store named by --db that does not exist: the hint gives `credence init --db` with the path', () => {
    const missing = join(dir, 'nowhere', 'x.db');
    const r = runCredence(['--db', missing, 'recall', 'tea'], dir, { env: NOW });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`\`credence init --db ${missing}\``);
  });

  it('an empty --db is refused (exit 2) and nothing is written to the default store', () => {
    const home = join(dir, 'empty-db-home');
    for (const args of [
      ['--db', '', 'remember', '--title', 't', 'x'],
      ['--db=', 'status'],
    ]) {
      const r = runCredence(args, dir, { env: NOW, home });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toBe('credence: --db needs a path\n');
    }
    expect(existsSync(join(home, '.credence'))).toBe(false);
  });
});

describe('evolve with --since after --now', () => {
  it('exit 2 with the window named, nothing internal', () => {
    const r = runCredence(['--db', db, '--now', '2026-01-01', 'evolve', '--since', '2026-02-01'], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('credence: since must not be after now: a window of -31 days reads nothing\n');
  });
});

describe('import --claude-code with lines it skips', () => {
  it('names them by file, then line, and exits 0 (skipped transcript lines are reported, not rejected)', () => {
    const folder = join(dir, 'transcripts');
    mkdirSync(folder, { recursive: true });
    const base = { sessionId: 'T1', cwd: dir };
    const lines = [
      { ...base, type: 'user', timestamp: '2026-04-20T10:00:00Z', message: { role: 'user', content: 'fix the test' } },
      {
        ...base,
        type: 'assistant',
        timestamp: '2026-04-20T10:00:05Z',
        message: {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'tu1', name: 'Grep', input: { pattern: 'f' } }],
        },
      },
      {
        ...base,
        type: 'user',
        timestamp: '2026-04-20T10:00:06Z',
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'tu1', content: 'found' }] },
      },
      {
        ...base,
        type: 'assistant',
        timestamp: '2026-04-20T10:00:07Z',
        message: {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'tu2', name: 'Read', input: { file_path: 'a' } }],
        },
      },
    ].map((l) => JSON.stringify(l));
    writeFileSync(
      join(folder, 'sess1.jsonl'),
      [...lines, '{not json', '{"type":"weird-type","sessionId":"T1"}'].join('\n'),
    );
    const r = runCredence(['--db', join(dir, 'import.db'), 'import', '--claude-code', folder], dir, { env: NOW });
    expect(r.code, r.stderr).toBe(0);
    const named = r.stdout.split('\n').filter((l) => /^ {2}sess1\.jsonl:\d+:/.test(l));
    expect(named.map((l) => l.split(':')[1])).toEqual(['4', '5', '6']);
  });
});
