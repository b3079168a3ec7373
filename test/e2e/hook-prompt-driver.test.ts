/**
 * The prompt hook's bundle carries better-sqlite3's JavaScript and loads the native addon from the
 * installed package (scripts/hook-sqlite.cjs); it must load the package the usual way whenever the
 * installed one is another version or has no addon in build/Release, and give the same context in
 * every case. Each case is a copy of the package (bin/, dist/hook-prompt.cjs) with its own
 * node_modules/better-sqlite3, whose index.js leaves a mark when it is loaded and then hands over
 * to the real package.
 */
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = join(root, 'bin', 'credence.cjs');
const realPackage = dirname(createRequire(join(root, 'package.json')).resolve('better-sqlite3/package.json'));
const realVersion = (JSON.parse(readFileSync(join(realPackage, 'package.json'), 'utf8')) as { version: string })
  .version;
const dir = mkdtempSync(join(tmpdir(), 'credence-prompt-driver-'));
const project = join(dir, 'project');
const db = join(dir, 'credence.db');
const env = { PATH: process.env.PATH ?? '', HOME: dir, CREDENCE_DB: db, CREDENCE_NOW: '2026-03-02T10:00:00Z' };
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const prompt = JSON.stringify({
  session_id: 's1',
  cwd: project,
  hook_event_name: 'UserPromptSubmit',
  prompt: 'which library declares the CLI flags?',
});
const hook = (entry: string) =>
  spawnSync(process.execPath, [entry, 'hook', 'claude-code'], { cwd: project, env, encoding: 'utf8', input: prompt });

/** A copy of the package whose better-sqlite3 has `version`, with or without the real addon folder. */
function installed(name: string, version: string, withAddon: boolean): { entry: string; mark: string } {
  const pkg = join(dir, name);
  mkdirSync(join(pkg, 'bin'), { recursive: true });
  mkdirSync(join(pkg, 'dist'));
  copyFileSync(bin, join(pkg, 'bin', 'credence.cjs'));
  copyFileSync(join(root, 'dist', 'hook-prompt.cjs'), join(pkg, 'dist', 'hook-prompt.cjs'));
  const sqlite = join(pkg, 'node_modules', 'better-sqlite3');
  mkdirSync(sqlite, { recursive: true });
  writeFileSync(join(sqlite, 'package.json'), JSON.stringify({ name: 'better-sqlite3', version, main: 'index.js' }));
  const mark = join(sqlite, 'loaded');
  writeFileSync(
    join(sqlite, 'index.js'),
    `require('node:fs').writeFileSync(${JSON.stringify(mark)}, '');\n` +
      `module.exports = require(${JSON.stringify(realPackage)});\n`,
  );
  if (withAddon) symlinkSync(join(realPackage, 'build'), join(sqlite, 'build'));
  return { entry: join(pkg, 'bin', 'credence.cjs'), mark };
}

describe('the prompt hook and the installed better-sqlite3', () => {
  let expected = '';

  beforeAll(() => {
    mkdirSync(project);
    expect(spawnSync('git', ['init', '-q'], { cwd: project }).status).toBe(0);
    const remember = spawnSync(
      process.execPath,
      [
        bin,
        'remember',
        '--title',
        'CLI flags are declared with commander',
        '--category',
        'decision',
        'Every flag of the CLI is a commander option',
      ],
      { cwd: project, env, encoding: 'utf8' },
    );
    expect(remember.status).toBe(0);
    const r = hook(bin);
    expect(r.stderr).toBe('');
    expected = r.stdout;
    expect(expected).toContain('[DECISION, high] CLI flags are declared with commander');
  });

  it('uses the bundled JavaScript with the addon of the installed package when that is the bundled version', () => {
    const { entry, mark } = installed('same-version', realVersion, true);
    const r = hook(entry);
    expect({ code: r.status, stderr: r.stderr, stdout: r.stdout }).toEqual({ code: 0, stderr: '', stdout: expected });
    expect(existsSync(mark)).toBe(false);
  });

  it('loads the installed package the usual way when it is another version', () => {
    const { entry, mark } = installed('other-version', '0.0.0-other', true);
    const r = hook(entry);
    expect({ code: r.status, stderr: r.stderr, stdout: r.stdout }).toEqual({ code: 0, stderr: '', stdout: expected });
    expect(existsSync(mark)).toBe(true);
  });

  it('loads the installed package the usual way when its addon is not in build/Release', () => {
    const { entry, mark } = installed('no-addon', realVersion, false);
    const r = hook(entry);
    expect({ code: r.status, stderr: r.stderr, stdout: r.stdout }).toEqual({ code: 0, stderr: '', stdout: expected });
    expect(existsSync(mark)).toBe(true);
  });
});
