/**
 * Issue 21, "Done when": four Claude Code sessions of ordinary corrections (em dashes, "X, not Y", "no, don't …",
 * "we always …") replayed through the real hook command, one process per event as Claude Code runs them, then a
 * plain `credence evolve`: the skill is in `.claude/skills/<name>/SKILL.md` and the next SessionStart prints it.
 * Also the seed 004 example lines (French, no timestamp, `//` comments) imported as they are written.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeEnv } from '../pg.js';

const bin = fileURLToPath(new URL('../../bin/credence.cjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'credence-reach-e2e-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const DAY = 86_400_000;
const START = Date.parse('2026-03-02T09:00:00Z');

/** A fresh git project with Credence's Claude Code hooks installed, and a runner for the CLI and the hook. */
function claudeCodeProject(name: string) {
  const project = join(dir, name);
  mkdirSync(project);
  expect(spawnSync('git', ['init', '-q'], { cwd: project }).status).toBe(0);
  const store = storeEnv(join(dir, `${name}.db`));
  // Each stop's learning is waited for (it runs in a process of its own): evolve reads what it learned.
  // The plain `credence evolve` is what this file tests: the automatic one after each session is off.
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: dir,
    ...store.env,
    CREDENCE_HOOK_WAIT: '1',
    CREDENCE_AUTO_EVOLVE: '0',
    CREDENCE_EMBEDDINGS: '',
  };
  const run = (args: string[], at: number, input?: string) =>
    spawnSync(process.execPath, [bin, ...args], {
      cwd: project,
      env: { ...env, CREDENCE_NOW: new Date(at).toISOString() },
      encoding: 'utf8',
      ...(input === undefined ? {} : { input }),
    });
  return { project, run };
}

/** One Claude Code hook payload, as Claude Code sends it on stdin. */
function payload(project: string, session: string, event: string, extra: Record<string, unknown> = {}) {
  return JSON.stringify({
    session_id: session,
    transcript_path: `/home/dev/.claude/projects/-shop/${session}.jsonl`,
    cwd: project,
    permission_mode: 'default',
    hook_event_name: event,
    ...extra,
  });
}

/** What the user said in each session, besides the task itself: the same habit, in four ordinary ways. */
const SESSIONS = [
  {
    task: 'Add a discount field to the checkout form',
    correction: "No, don't use snake_case for variable names — we always use camelCase in this repo.",
  },
  { task: 'Write the order summary helper', correction: 'Use camelCase for the new variables, not snake_case.' },
  {
    task: 'Fix the cart total rounding',
    correction: 'We always use camelCase for variable names in this repo — rename user_id to userId.',
  },
  {
    task: 'Add the shipping estimate endpoint',
    correction: 'Please use camelCase for variable names, not snake_case – fix them in shipping.ts.',
  },
];

describe('four Claude Code sessions of corrections become a skill the agent loads', () => {
  const { project, run } = claudeCodeProject('shop');
  const hookRuns: { event: string; code: number | null; stderr: string }[] = [];
  let evolveOut = '';
  let nextStart = '';

  beforeAll(() => {
    expect(run(['init', '--claude-code'], START).status).toBe(0);
    SESSIONS.forEach((s, i) => {
      const session = `0000000${i}-2a7e-4c4b-9a51-3f0e2d7c8a10`;
      const at = START + i * DAY;
      const events: [string, Record<string, unknown>][] = [
        ['SessionStart', { source: 'startup' }],
        ['UserPromptSubmit', { prompt: s.task }],
        ['Stop', { stop_hook_active: false }],
        ['UserPromptSubmit', { prompt: s.correction }],
        ['Stop', { stop_hook_active: false }],
        ['SessionEnd', { reason: 'prompt_input_exit' }],
      ];
      events.forEach(([event, extra], k) => {
        const r = run(['hook', 'claude-code'], at + k * 60_000, payload(project, session, event, extra));
        hookRuns.push({ event, code: r.status, stderr: r.stderr });
      });
    });
    const last = START + (SESSIONS.length - 1) * DAY + 3_600_000;
    const evolved = run(['evolve'], last);
    expect(evolved.status, evolved.stderr).toBe(0);
    evolveOut = evolved.stdout;
    const start = run(
      ['hook', 'claude-code'],
      last + 60_000,
      payload(project, '00000009-2a7e-4c4b-9a51-3f0e2d7c8a10', 'SessionStart', { source: 'startup' }),
    );
    expect(start.status).toBe(0);
    nextStart = start.stdout;
  }, 180_000);

  it('runs every hook event, each exiting 0', () => {
    expect(hookRuns).toHaveLength(SESSIONS.length * 6);
    expect(hookRuns.filter((h) => h.code !== 0)).toEqual([]);
  });

  it('records each correction, em dashes and "X, not Y" included, and reads none as a contradiction', () => {
    const exported = run(['export'], START + 5 * DAY)
      .stdout.trim()
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as { type: string; observation: string });
    expect(exported.filter((o) => o.type === 'correction').map((o) => o.observation)).toEqual(
      SESSIONS.map((s) => s.correction),
    );
    expect(evolveOut).not.toContain('### Contradictions');
  });

  it('writes the skill to .claude/skills/<name>/SKILL.md, in the format Claude Code loads', () => {
    const skills = join(project, '.claude/skills');
    const names = readdirSync(skills).filter((n) => existsSync(join(skills, n, 'SKILL.md')));
    expect(names, evolveOut).toHaveLength(1);
    const name = names[0] as string;
    const text = readFileSync(join(skills, name, 'SKILL.md'), 'utf8');
    expect(text).toMatch(new RegExp(`^---\\nname: ${name}\\ndescription: "[^"\\n]*camelCase[^"\\n]*"\\n---\\n`));
    expect(existsSync(join(project, '.credence/skills'))).toBe(false);
    expect(evolveOut).toContain(`- ${name}: new skill`);
  });

  it('prints the skill in the next SessionStart context', () => {
    const name = readdirSync(join(project, '.claude/skills'))[0] as string;
    const output = JSON.parse(nextStart) as {
      hookSpecificOutput: { hookEventName: string; additionalContext: string };
    };
    expect(output.hookSpecificOutput.hookEventName).toBe('SessionStart');
    expect(output.hookSpecificOutput.additionalContext).toContain(`- [SKILL] ${name}: `);
    expect(output.hookSpecificOutput.additionalContext).toMatch(/camelCase/);
  });
});

describe('the seed 004 example lines, as the seed writes them', () => {
  // Example 1 and 2 of seed 004, with their // comments; example 2's lines have no timestamp.
  const seed = [
    '// Observation 1',
    '{"timestamp": "2026-02-01T10:00:00Z", "type": "correction", ' +
      '"observation": "Utilisateur demande nommage camelCase", "confidence": 0.4}',
    '',
    '// Observation 2',
    '{"timestamp": "2026-02-01T14:00:00Z", "type": "correction", ' +
      '"observation": "Correction: snake_case → camelCase", "confidence": 0.5}',
    '// Plusieurs observations de succès',
    '{"type": "success", "observation": "Tests exécutés avant commit", "confidence": 0.7}',
    '{"type": "success", "observation": "CI verte après commit", "confidence": 0.7}',
    '{"type": "error", "observation": "Commit sans tests = CI rouge", "confidence": 0.8}',
    '{"type": "correction", "observation": "Nommer les fichiers en kebab-case", "evidence": ["revue de la PR 12"]}',
  ].join('\n');

  it('imports every line: a missing time is the import time, a missing confidence f(type, evidence); once', () => {
    const { run } = claudeCodeProject('seed');
    const at = Date.parse('2026-02-02T09:00:00Z');
    const first = run(['import', '-'], at, seed);
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);
    expect(first.stdout).toContain('imported 6 observation(s), 0 already present');
    const lines = run(['export'], at)
      .stdout.trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { observation: string; timestamp: string; confidence: number });
    const byText = new Map(lines.map((l) => [l.observation, l]));
    expect(byText.get('Tests exécutés avant commit')?.timestamp).toBe('2026-02-02T09:00:00.000Z');
    expect(byText.get('Utilisateur demande nommage camelCase')?.timestamp).toBe('2026-02-01T10:00:00.000Z');
    // A correction with evidence and no stated confidence: 0.4 + 0.2.
    expect(byText.get('Nommer les fichiers en kebab-case')?.confidence).toBe(0.6);
    // The same file again, later: nothing twice.
    const again = run(['import', '-'], at + DAY, seed);
    expect(again.stdout).toContain('imported 0 observation(s), 6 already present');
  });
});
