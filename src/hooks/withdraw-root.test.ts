import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openCredence } from '../engine/engine.js';
import { resolveScope } from '../platform/git-scope.js';
import { openSqliteStore } from '../store/sqlite/index.js';
import { runClaudeCodeHook } from './claude-code.js';
import { withdrawalRoot } from './context.js';
import { runSessionStartHook } from './session-start.js';

const base = mkdtempSync(join(tmpdir(), 'credence-withdraw-root-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const HOUR = 3_600_000;
const T0 = Date.parse('2026-02-02T09:00:00Z');
const RUFF = [1, 2, 3, 4].map((k) => `No, use ruff instead of flake8 for linting (${k})`);
const said = (end: number) =>
  RUFF.map((observation, k) => ({
    timestamp: new Date(end - (RUFF.length - k) * HOUR).toISOString(),
    type: 'correction' as const,
    observation,
    confidence: 0.7,
  }));

describe('withdrawalRoot: where a session start may take forgotten skills out', () => {
  it('the git top-level, CREDENCE_SCOPE or not; CLAUDE_PROJECT_DIR holding cwd; never HOME, never a bare cwd', () => {
    const dir = join(base, 'roots');
    const home = join(dir, 'home');
    const proj = join(dir, 'proj');
    mkdirSync(join(proj, '.git', 'x'), { recursive: true });
    mkdirSync(join(proj, 'src'), { recursive: true });
    mkdirSync(join(home, 'notes'), { recursive: true });
    expect(withdrawalRoot(join(proj, 'src'), { HOME: home })).toBe(proj);
    expect(withdrawalRoot(join(proj, 'src'), { HOME: home, CREDENCE_SCOPE: 's' })).toBe(proj);
    expect(withdrawalRoot(home, { HOME: home })).toBeUndefined();
    expect(withdrawalRoot(join(home, 'notes'), { HOME: home })).toBeUndefined();
    expect(withdrawalRoot(home, { HOME: home, CLAUDE_PROJECT_DIR: home })).toBeUndefined();
    const plain = join(dir, 'plain');
    mkdirSync(join(plain, 'a'), { recursive: true });
    expect(withdrawalRoot(join(plain, 'a'), { HOME: home, CLAUDE_PROJECT_DIR: plain })).toBe(plain);
    expect(withdrawalRoot(home, { HOME: home, CLAUDE_PROJECT_DIR: plain })).toBeUndefined();
    // A home folder under git (dotfiles) is still the home folder.
    mkdirSync(join(home, '.git'), { recursive: true });
    expect(withdrawalRoot(join(home, 'notes'), { HOME: home })).toBeUndefined();
    const link = join(dir, 'home-link');
    symlinkSync(home, link);
    expect(withdrawalRoot(home, { HOME: link })).toBeUndefined();
  });
});

/** A learned skill forgotten in the store, its file in `proj`, a copy the user keeps in `home/.claude/skills`. */
async function forgottenSkill(name: string, scopeEnv: string | undefined) {
  const dir = join(base, name);
  const db = join(dir, 'credence.db');
  const proj = join(dir, 'proj');
  const home = join(dir, 'home');
  mkdirSync(join(proj, '.git'), { recursive: true });
  mkdirSync(join(proj, '.claude'));
  mkdirSync(join(home, '.claude', 'skills'), { recursive: true });
  const store = openSqliteStore({ path: db });
  const scope = scopeEnv ?? resolveScope({ cwd: home }).scope;
  const c = await openCredence({ store, scope, now: () => T0, cwd: proj });
  await c.observe(said(T0));
  await c.evolve();
  const skill = (await store.listSkills(scope))[0];
  if (skill === undefined) throw new Error('no skill learned');
  const file = join(proj, `.claude/skills/${skill.name}/SKILL.md`);
  mkdirSync(join(home, '.claude/skills', skill.name), { recursive: true });
  const userLevel = join(home, '.claude/skills', skill.name, 'SKILL.md');
  writeFileSync(userLevel, readFileSync(file, 'utf8'));
  await (await openCredence({ store, scope, now: () => T0 + HOUR, cwd: proj })).forget(skill.id);
  // The project's file is back (another machine's clone): a session start there takes it out.
  mkdirSync(join(proj, `.claude/skills/${skill.name}`), { recursive: true });
  writeFileSync(file, readFileSync(userLevel, 'utf8'));
  await c.close();
  const env: NodeJS.ProcessEnv = {
    CREDENCE_DB: db,
    HOME: home,
    CREDENCE_NOW: new Date(T0 + 2 * HOUR).toISOString(),
    CREDENCE_AUTO_EVOLVE: '0',
    ...(scopeEnv === undefined ? {} : { CREDENCE_SCOPE: scopeEnv }),
  };
  return { proj, home, file, userLevel, env };
}

describe('a SessionStart in the home folder keeps the user-level skills (~/.claude/skills)', () => {
  for (const scopeEnv of [undefined, 's']) {
    it(`the start hook (CREDENCE_SCOPE ${scopeEnv ?? 'unset'})`, async () => {
      // Before: root ?? cwd made HOME the root, and the user-level SKILL.md of a forgotten skill was deleted.
      const s = await forgottenSkill(`start-${scopeEnv ?? 'global'}`, scopeEnv);
      const out = await runSessionStartHook({ event: 'SessionStart', session: 'x', cwd: s.home } as never, s.env);
      expect(existsSync(s.userLevel)).toBe(true);
      expect(out.stderr).not.toContain('took out');
    });
  }

  it('the learning hook (hooks/claude-code): keeps the user-level file, takes the project file out', async () => {
    const s = await forgottenSkill('learning-hook', 's');
    const start = (cwd: string) => JSON.stringify({ hook_event_name: 'SessionStart', session_id: 'x', cwd });
    await runClaudeCodeHook(start(s.home), { env: s.env });
    expect(existsSync(s.userLevel)).toBe(true);
    const out = await runClaudeCodeHook(start(s.proj), { env: s.env });
    expect(existsSync(s.file)).toBe(false);
    expect(out.stderr).toContain('took out the files of 1 skill');
  });
});
