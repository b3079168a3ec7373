/**
 * Two clones of one repository on one machine (or a team's store): one scope, each clone under its own folder (walk 5,
 * item 4). The real `credence hook claude-code`, one process per event: a call in each clone writes the same file, one
 * learning process (started from the second clone) learns both sessions, and the next SessionStart names the file once,
 * relative to its project, never by the first clone's absolute path (another user's home folder). The calls are stored
 * as they were made (absolute paths), so memories and their following still match them.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { engineStore, openCredence } from '../../src/engine/engine.js';
import { bin } from '../mcp-helpers.js';
import { storeEnv } from '../pg.js';

const dir = mkdtempSync(join(tmpdir(), 'credence-hook-clones-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const store = storeEnv(join(dir, 'team.db'));
const env = { PATH: process.env.PATH ?? '', HOME: dir, ...store.env, CREDENCE_NOW: '2026-03-02T10:00:00Z' };

/** A clone of the team's repository in `who`'s home folder (the same origin: the same scope). */
function clone(who: string, project = 'shop'): string {
  const root = join(dir, 'home', who, project);
  mkdirSync(join(root, 'src'), { recursive: true });
  for (const args of [
    ['init', '-q'],
    ['remote', 'add', 'origin', `https://git.example.com/team/${project}.git`],
  ])
    expect(spawnSync('git', args, { cwd: root }).status).toBe(0);
  return root;
}

function hook(root: string, event: Record<string, unknown>, extra: Record<string, string> = {}): string {
  const r = spawnSync(process.execPath, [bin, 'hook', 'claude-code'], {
    cwd: root,
    env: { ...env, ...extra },
    encoding: 'utf8',
    input: JSON.stringify({ cwd: root, ...event }),
  });
  expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: '' });
  return r.stdout;
}

describe('a session start after two clones of one repository wrote the same file', () => {
  it('names it once, relative to the project, and shows neither clone’s folder', async () => {
    const [ana, ben] = [clone('ana'), clone('ben')];
    for (const [root, session] of [
      [ana, 's-ana'],
      [ben, 's-ben'],
    ] as const) {
      hook(root, { session_id: session, hook_event_name: 'UserPromptSubmit', prompt: 'Fix the cart total' });
      hook(root, {
        session_id: session,
        hook_event_name: 'PostToolUse',
        tool_name: 'Edit',
        tool_input: { file_path: join(root, 'src', 'cart.ts'), old_string: 'a', new_string: 'b' },
        tool_response: { filePath: join(root, 'src', 'cart.ts') },
        tool_use_id: `toolu_${session}`,
      });
    }
    // Ben's session start learns what both sessions queued, in a process started from Ben's clone (waited for).
    const start = { session_id: 's-ben-2', hook_event_name: 'SessionStart', source: 'startup' };
    hook(ben, start, { CREDENCE_HOOK_WAIT: '1' });
    const credence = await openCredence({ ...store.open, cwd: ben });
    try {
      const calls = (await engineStore(credence).listExecutions(credence.scope)).flatMap((e) => e.calls);
      expect(calls.map((c) => JSON.parse(c.input ?? '{}').file_path).sort()).toEqual(
        [ana, ben].map((root) => join(root, 'src', 'cart.ts')),
      );
    } finally {
      await credence.close();
    }
    for (const root of [ben, ana]) {
      const printed = hook(root, { ...start, session_id: `s-${root === ana ? 'ana' : 'ben'}-3` });
      const context = String(JSON.parse(printed).hookSpecificOutput.additionalContext);
      expect(context).toContain('Files changed: src/cart.ts (2).');
      expect(context).not.toContain(join(dir, 'home'));
    }
  }, 120_000);
});

// Review A item 1: CREDENCE_SCOPE names one scope for two repositories (api, web). Each call was queued with its own
// repository's root, so their different src/index.ts were one file, `src/index.ts (2)`. Their calls now keep no root.
describe('a session start after two repositories under one CREDENCE_SCOPE wrote files of the same name', () => {
  it('names each by its path: two files, not one', () => {
    const work = { CREDENCE_SCOPE: 'work' };
    const [api, web] = [clone('cy', 'api'), clone('cy', 'web')];
    for (const root of [api, web]) {
      const session = `s-${root === api ? 'api' : 'web'}`;
      hook(root, { session_id: session, hook_event_name: 'UserPromptSubmit', prompt: 'Fix the entry point' }, work);
      hook(
        root,
        {
          session_id: session,
          hook_event_name: 'PostToolUse',
          tool_name: 'Write',
          tool_input: { file_path: join(root, 'src', 'index.ts'), content: 'x' },
          tool_response: {},
          tool_use_id: `toolu_${session}`,
        },
        work,
      );
    }
    const start = { session_id: 's-api-2', hook_event_name: 'SessionStart', source: 'startup' };
    hook(api, start, { ...work, CREDENCE_HOOK_WAIT: '1' });
    const printed = hook(api, { ...start, session_id: 's-api-3' }, work);
    const context = String(JSON.parse(printed).hookSpecificOutput.additionalContext);
    // Each by its path as the call named it (its end when long), one each.
    expect(context).toMatch(/^Files changed: [^\n]*\/api\/src\/index\.ts, [^\n]*\/web\/src\/index\.ts\.$/m);
  }, 120_000);
});
