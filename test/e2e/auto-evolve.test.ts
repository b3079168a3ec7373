/**
 * Learning by itself (issue 22 item 4), through the real binary: three sessions in which the user
 * corrects the agent the same way end with a skill in `.claude/skills` and in the next session's
 * context, without anyone running `credence evolve`; with `CREDENCE_AUTO_EVOLVE=0`, the same sessions
 * learn the corrections and no skill.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../../bin/credence.cjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'credence-auto-evolve-e2e-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
function project(extra: Record<string, string> = {}) {
  n += 1;
  const root = join(dir, `p${n}`);
  mkdirSync(join(root, '.claude'), { recursive: true });
  expect(spawnSync('git', ['init', '-q'], { cwd: root }).status).toBe(0);
  const db = join(dir, `p${n}.db`);
  // CREDENCE_HOOK_WAIT: each stop's learning (and its evolve) has ended when the hook returns.
  const env = { PATH: process.env.PATH ?? '', HOME: root, CREDENCE_DB: db, CREDENCE_HOOK_WAIT: '1', ...extra };
  const hook = (at: string, session: string, event: Record<string, unknown>) => {
    const r = spawnSync(process.execPath, [bin, 'hook', 'claude-code'], {
      cwd: root,
      env: { ...env, CREDENCE_NOW: at },
      encoding: 'utf8',
      input: JSON.stringify({ session_id: session, cwd: root, ...event }),
    });
    expect(r.status).toBe(0);
    return r.stdout;
  };
  /** A session: the agent installs with npm, the user corrects it, the agent stops, the session ends. */
  const session = (day: number) => {
    const at = `2026-03-0${day}T10:00:00Z`;
    const s = `s${day}`;
    hook(at, s, { hook_event_name: 'SessionStart', source: 'startup' });
    hook(at, s, { hook_event_name: 'UserPromptSubmit', prompt: 'Install the dependencies' });
    hook(at, s, {
      hook_event_name: 'PostToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'npm install' },
      tool_response: { stdout: 'added 12 packages', stderr: '' },
    });
    hook(at, s, { hook_event_name: 'UserPromptSubmit', prompt: 'No, use pnpm instead of npm.' });
    hook(at, s, { hook_event_name: 'Stop' });
    hook(at, s, { hook_event_name: 'SessionEnd', reason: 'exit' });
  };
  const start = (day: number) => {
    const out = hook(`2026-03-0${day}T10:00:00Z`, `s${day}`, { hook_event_name: 'SessionStart', source: 'startup' });
    return out === '' ? '' : (JSON.parse(out).hookSpecificOutput.additionalContext as string);
  };
  const skills = () =>
    existsSync(join(root, '.claude', 'skills')) ? readdirSync(join(root, '.claude', 'skills')) : [];
  return { root, db, session, start, skills };
}

describe('sessions end with a skill nobody asked evolve for (issue 22 item 4)', () => {
  it('three sessions of the same correction: a skill in .claude/skills and in the next session start', () => {
    const p = project();
    p.session(1);
    expect(p.skills()).toEqual([]);
    p.session(2);
    p.session(3);
    expect(p.skills()).toHaveLength(1);
    const context = p.start(4);
    expect(context).toMatch(/\[SKILL\] [^\n]*pnpm[^\n]*\[confidence:0\.\d\d\]/);
    // With the summary of the recent sessions, within 1,500 characters, the same for the same store and time.
    expect(context).toContain('Recent sessions: 3 (2026-03-01 to 2026-03-03), 3 turns, 3 tool calls.');
    expect(context).toContain('- No, use pnpm instead of npm.');
    expect(context.length).toBeLessThanOrEqual(1500);
    expect(p.start(4)).toBe(context);
  });

  it('with CREDENCE_AUTO_EVOLVE=0 the same sessions leave no skill', () => {
    const p = project({ CREDENCE_AUTO_EVOLVE: '0' });
    for (const day of [1, 2, 3]) p.session(day);
    expect(p.skills()).toEqual([]);
    expect(p.start(4)).not.toContain('[SKILL]');
  });
});
