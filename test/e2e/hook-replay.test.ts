/**
 * A recorded Claude Code session (50 hook events: two sessions, three turns) replayed through the
 * real binary, one process per event as Claude Code runs them (issue 9): the newcomer's three steps
 * (install, `credence init --claude-code`, use Claude Code) end to end. Checks the executions of
 * each turn, the edges learned, the observations derived, and the context printed.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineStore, openCredence } from '../../src/engine/engine.js';
import { storeEnv } from '../pg.js';

const bin = fileURLToPath(new URL('../../bin/credence.cjs', import.meta.url));
const recorded = fileURLToPath(new URL('../fixtures/claude-code/session-50.jsonl', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'credence-replay-'));
const project = join(dir, 'shop');
const db = join(dir, 'credence.db');
const NOW = '2026-03-02T10:00:00Z';
const S1 = 'b6f3c1de-2a7e-4c4b-9a51-3f0e2d7c8a10';
const S2 = 'c9a0e2f1-7b3d-4e8a-8c61-0d5f4b2a9e77';
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// The SQLite file, or with CREDENCE_E2E_STORE=postgres a team store (test/pg.ts): the spool stays beside the file
// either way.
const store = storeEnv(db);
// Each stop's learning is waited for (it runs in a process of its own): the checks below read what it learned.
const env = { PATH: process.env.PATH ?? '', HOME: dir, ...store.env, CREDENCE_NOW: NOW, CREDENCE_HOOK_WAIT: '1' };
const run = (args: string[], input?: string) =>
  spawnSync(process.execPath, [bin, ...args], {
    cwd: project,
    env,
    encoding: 'utf8',
    ...(input === undefined ? {} : { input }),
  });

interface Step {
  event: string;
  code: number | null;
  stdout: string;
  stderr: string;
}

describe('a recorded Claude Code session replayed through credence hook claude-code', () => {
  const steps: Step[] = [];
  let scope = '';

  beforeAll(() => {
    mkdirSync(project);
    expect(spawnSync('git', ['init', '-q'], { cwd: project }).status).toBe(0);
    // Step 2 of docs/claude-code.md: install the hooks (step 1 is npm install, done by the test run itself).
    expect(run(['init', '--claude-code']).status).toBe(0);
    // Something to remember, so the prompt about the CLI's flags gets context.
    expect(
      run([
        'remember',
        '--title',
        'CLI flags are declared with commander in src/cli.ts',
        '--category',
        'decision',
        '--tags',
        'cli',
        'Every flag of the CLI is a commander option in src/cli.ts',
      ]).status,
    ).toBe(0);
    scope = JSON.parse(run(['status', '--json']).stdout).scope;
    const lines = readFileSync(recorded, 'utf8').trim().split('\n');
    for (const [i, line] of lines.entries()) {
      const event = JSON.parse(line.replaceAll('/PROJECT', project)) as { hook_event_name: string };
      // One event every 10 s, so that "tests ran after the last change" is a real question.
      const at = new Date(Date.parse(NOW) + i * 10_000).toISOString();
      const r = spawnSync(process.execPath, [bin, 'hook', 'claude-code'], {
        cwd: project,
        env: { ...env, CREDENCE_NOW: at },
        encoding: 'utf8',
        input: JSON.stringify(event),
      });
      steps.push({ event: event.hook_event_name, code: r.status, stdout: r.stdout, stderr: r.stderr });
      void run;
    }
  }, 120_000);

  it('runs all 50 events, each exiting 0 without a word on stderr', () => {
    expect(steps).toHaveLength(50);
    expect(steps.filter((s) => s.code !== 0)).toEqual([]);
    expect(steps.filter((s) => s.stderr !== '')).toEqual([]);
  });

  it('prints nothing for tool events and Stop, and valid hook JSON where it prints', () => {
    for (const s of steps) {
      if (s.event !== 'UserPromptSubmit' && s.event !== 'SessionStart') expect(s.stdout).toBe('');
      else if (s.stdout !== '') expect(JSON.parse(s.stdout).hookSpecificOutput.hookEventName).toBe(s.event);
    }
  });

  it('gives the prompt about the CLI flags the remembered decision as context, and records it as shown', async () => {
    const prompts = steps.filter((s) => s.event === 'UserPromptSubmit');
    const first = JSON.parse(prompts[0]?.stdout ?? '{}').hookSpecificOutput?.additionalContext as string;
    expect(first).toMatch(/^Credence memory for this prompt/);
    expect(first).toContain('- [DECISION, high] CLI flags are declared with commander in src/cli.ts');
    const metrics = JSON.parse(run(['metrics', '--json']).stdout);
    expect(
      metrics.suggestions.bySurface.find((x: { surface: string }) => x.surface === 'recall')?.shown,
    ).toBeGreaterThanOrEqual(1);
  });

  it("records each turn's calls, in order, as one execution named by the turn's prompt", async () => {
    const credence = await openCredence({ ...store.open, scope, now: NOW });
    try {
      const byId = new Map((await engineStore(credence).listExecutions(scope)).map((e) => [e.id, e]));
      const turn1 = byId.get(`cc-${S1}-1`);
      expect(turn1?.intent).toBe('Add a --verbose flag to the CLI that prints each step');
      expect(turn1?.calls.map((c) => `${c.tool}:${c.status}`)).toEqual([
        'Glob:success',
        'Read:success',
        'Grep:success',
        'Edit:success',
        'Read:success',
        'Bash:failure',
        'Read:success',
        'Edit:success',
        'Bash:success',
        'Bash:success',
      ]);
      // The second Read read what the Edit before it wrote.
      expect(turn1?.calls[4]?.consumes).toEqual([3]);
      expect(turn1?.calls[3]?.input).toContain('"file_path"');
      const turn2 = byId.get(`cc-${S1}-2`);
      expect(turn2?.calls.map((c) => c.tool)).toEqual(['Read', 'Edit', 'Write', 'Read', 'Bash', 'Bash']);
      expect(turn2?.calls[3]?.consumes).toEqual([2]);
      expect(byId.get(`cc-${S2}-1`)?.calls.map((c) => c.tool)).toEqual(['Grep', 'Bash', 'Read', 'Read']);
      expect(byId.size).toBe(3);
      // Nothing is left in the queue once the sessions have ended.
      expect(await engineStore(credence).claimHookEvents(scope, 'check', Date.now() + 1)).toEqual([]);
    } finally {
      await credence.close();
    }
  });

  it('learns sequence edges between consecutive tools and a write→read dependency on the same file', async () => {
    const credence = await openCredence({ ...store.open, scope, now: NOW });
    try {
      const edges = (await credence.edges()).map((e) => `${e.type} ${e.from} → ${e.to}`);
      expect(edges).toEqual(
        expect.arrayContaining([
          'sequence Read → Edit',
          'sequence Edit → Read',
          'sequence Glob → Read',
          'dependency Edit → Read',
          'dependency Write → Read',
        ]),
      );
      expect(edges.some((e) => e.startsWith('sequence Bash → Read'))).toBe(true);
    } finally {
      await credence.close();
    }
  });

  it('observes the failed test run, passing ones, the commit after tests and the correction in a prompt', async () => {
    const credence = await openCredence({ ...store.open, scope, now: NOW });
    try {
      const observations = await engineStore(credence).listObservations(scope);
      const said = observations.map((o) => `${o.type}: ${o.observation}`);
      expect(said.filter((s) => s.startsWith('error:')).length).toBeGreaterThanOrEqual(1);
      expect(said.some((s) => s.startsWith('success:') && s.includes('npm test'))).toBe(true);
      // Each commit, and the style of its message ("Add --verbose": seed 004's commit message style).
      expect(said.filter((s) => s.startsWith('pattern:')).sort()).toEqual([
        'pattern: commit messages are a capitalised subject without a type prefix',
        'pattern: commit messages are a capitalised subject without a type prefix',
        'pattern: committed after running tests',
        'pattern: committed after running tests',
      ]);
      expect(said.some((s) => s.startsWith('correction:') && s.includes('console.error'))).toBe(true);
    } finally {
      await credence.close();
    }
  });
});
