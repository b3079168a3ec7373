/**
 * What became of the memories the prompt hook showed (issue 24), through the Claude Code hook entry with payloads as
 * Claude Code sends them: a memory naming a path the agent then edits succeeded, one naming a command whose call
 * failed failed, one never used is rejected when the turn ends if another one was used (none used: nothing), one
 * naming nothing distinctive gets no outcome, and a correction right after that names a used memory counts against
 * it. The learning runs when the agent stops.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runClaudeCodeHook } from '../../src/hooks/claude-code.js';
import { resolveScope } from '../../src/platform/git-scope.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';

const bin = fileURLToPath(new URL('../../bin/credence.cjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'credence-hook-outcomes-'));
const project = join(dir, 'project');
const NOW = Date.parse('2026-03-02T10:00:00Z');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const MEMORIES = [
  {
    id: 'notes-script',
    category: 'decision',
    title: 'Release notes come from scripts/release-notes.mjs',
    text: 'The release notes are written by scripts/release-notes.mjs from the merged pull requests',
  },
  {
    id: 'notes-check',
    category: 'note',
    title: 'Release notes are checked with `npm run notes:check`',
    text: 'Before a release the notes are checked with `npm run notes:check` against the changelog',
  },
  {
    id: 'notes-template',
    category: 'note',
    title: 'Release notes are written and checked from docs/release-template.md',
    text: 'The release notes are written and checked against the sections of docs/release-template.md',
  },
  {
    id: 'notes-friday',
    category: 'note',
    title: 'Release notes are written and checked on Fridays',
    text: 'The release notes are written and checked by the team on Fridays before the release',
  },
];

/** One session's hook events, in order, each at its own minute. */
function session(db: string, id: string) {
  let minute = 0;
  const run = async (event: Record<string, unknown>) => {
    minute += 1;
    const env = { CREDENCE_DB: db, CREDENCE_NOW: new Date(NOW + minute * 60_000).toISOString() };
    const r = await runClaudeCodeHook(JSON.stringify({ session_id: id, cwd: project, ...event }), { env });
    expect(r.stderr).toBe('');
    return r;
  };
  return {
    prompt: (prompt: string) => run({ hook_event_name: 'UserPromptSubmit', prompt }),
    call: (tool: string, input: Record<string, unknown>, ok = true) =>
      run({
        hook_event_name: ok ? 'PostToolUse' : 'PostToolUseFailure',
        tool_name: tool,
        tool_input: input,
        tool_use_id: `t-${minute}`,
        ...(ok ? { tool_response: { success: true } } : { error: 'Exit code 1\nnotes:check found 2 problems' }),
      }),
    stop: () => run({ hook_event_name: 'Stop', stop_hook_active: false }),
  };
}

/** The recall shown records, oldest first (read straight from the file: the test looks, no surface does). */
function shownRows(db: string): { target: string; outcome: string | null }[] {
  const handle = new Database(db, { readonly: true });
  try {
    return handle.prepare("SELECT target, outcome FROM shown WHERE surface = 'recall' ORDER BY at, id").all() as {
      target: string;
      outcome: string | null;
    }[];
  } finally {
    handle.close();
  }
}

/** The latest showing's outcome of each memory, by memory id (undefined: shown, no outcome). */
function outcomes(db: string): Record<string, string | undefined> {
  const latest: Record<string, string | undefined> = {};
  for (const r of shownRows(db)) latest[r.target.replace(/^memory:/, '')] = r.outcome ?? undefined;
  return latest;
}

describe('outcomes of the memories the prompt hook showed (issue 24)', () => {
  beforeAll(async () => {
    mkdirSync(join(project, '.git'), { recursive: true });
    writeFileSync(join(project, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  });

  const fresh = async (name: string) => {
    const db = join(dir, `${name}.db`);
    const store = openSqliteStore({ path: db });
    await store.upsertMemories(
      resolveScope({ cwd: project }).scope,
      MEMORIES.map((m) => ({ ...m, tags: [], createdAt: NOW, updatedAt: NOW })),
    );
    await store.close();
    return db;
  };

  it('edited path succeeded, failed command failed, unused rejected at the stop, no identifier nothing', async () => {
    const db = await fresh('turn');
    const s = session(db, 's1');
    const shown = await s.prompt('how are the release notes written and checked?');
    const context = JSON.parse(shown.stdout).hookSpecificOutput.additionalContext as string;
    for (const m of MEMORIES) expect(context).toContain(m.title);
    await s.call('Edit', { file_path: join(project, 'scripts/release-notes.mjs'), old_string: 'a', new_string: 'b' });
    await s.call('Bash', { command: 'npm run notes:check', description: 'check the notes' }, false);
    await s.call('Bash', { command: 'git status' });
    // Until the agent stops, nothing is decided.
    expect(Object.values(outcomes(db)).filter((o) => o !== undefined)).toEqual([]);
    await s.stop();
    expect(outcomes(db)).toEqual({
      'notes-script': 'succeeded',
      'notes-check': 'failed',
      'notes-template': 'rejected',
      'notes-friday': undefined,
    });
  });

  it('a turn that used none of them, answered in prose or acting on something else, records nothing', async () => {
    const db = await fresh('prose');
    const s = session(db, 's5');
    await s.prompt('how are the release notes written and checked?');
    await s.stop();
    expect(shownRows(db).map((r) => r.outcome)).toEqual(MEMORIES.map(() => null));
    await s.prompt('and how are the release notes written and checked on a hotfix?');
    await s.call('Bash', { command: 'git status' });
    await s.stop();
    expect(shownRows(db).every((r) => r.outcome === null)).toBe(true);
  });

  it('a correction right after naming a used memory makes it failed; one naming nothing changes nothing', async () => {
    const db = await fresh('correction');
    const s = session(db, 's2');
    await s.prompt('how are the release notes written and checked?');
    await s.call('Read', { file_path: join(project, 'scripts/release-notes.mjs') });
    await s.call('Bash', { command: 'npm run notes:check' });
    await s.stop();
    expect(outcomes(db)).toMatchObject({ 'notes-script': 'succeeded', 'notes-check': 'succeeded' });
    await s.prompt("No, don't use scripts/release-notes.mjs, it is deprecated.");
    await s.stop();
    const after = outcomes(db);
    expect(after['notes-check']).toBe('succeeded');
    // The memory's showing in the turn before (the correction's own showing is another record) now failed.
    const first = shownRows(db).find((r) => r.target === 'memory:notes-script');
    expect(first?.outcome).toBe('failed');
  });

  it('a prompt that comes before a stop ends the turn before it', async () => {
    const db = await fresh('no-stop');
    const s = session(db, 's3');
    await s.prompt('how are the release notes written and checked?');
    await s.call('Edit', { file_path: join(project, 'docs/release-template.md'), old_string: 'a', new_string: 'b' });
    await s.prompt('thanks, now tell me about the deploy');
    await s.stop();
    expect(outcomes(db)).toMatchObject({ 'notes-template': 'succeeded', 'notes-script': 'rejected' });
  });

  it('through the hook processes: the stop hands the learning off, and the outcomes follow', async () => {
    const db = await fresh('processes');
    const env = { PATH: process.env.PATH ?? '', HOME: dir, CREDENCE_DB: db, CREDENCE_EMBEDDINGS: '' };
    const hook = (event: Record<string, unknown>) => {
      const r = spawnSync(process.execPath, [bin, 'hook', 'claude-code'], {
        cwd: project,
        env,
        encoding: 'utf8',
        input: JSON.stringify({ session_id: 's4', cwd: project, ...event }),
      });
      expect(r.status).toBe(0);
      expect(r.stderr).toBe('');
      return r.stdout;
    };
    expect(
      hook({ hook_event_name: 'UserPromptSubmit', prompt: 'how are the release notes written and checked?' }),
    ).toContain('scripts/release-notes.mjs');
    hook({
      hook_event_name: 'PostToolUse',
      tool_name: 'Write',
      tool_input: { file_path: join(project, 'scripts/release-notes.mjs'), content: 'export {};\n' },
      tool_response: { type: 'update' },
    });
    hook({ hook_event_name: 'Stop', stop_hook_active: false });
    const until = Date.now() + 60_000;
    while (outcomes(db)['notes-script'] === undefined && Date.now() < until)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(outcomes(db)).toMatchObject({ 'notes-script': 'succeeded', 'notes-check': 'rejected' });
  });

  it('malformed payloads still exit 0 from the hook process (a refused one with one line on stderr)', () => {
    const db = join(dir, 'malformed.db');
    for (const [input, refused] of [
      ['{', true],
      [JSON.stringify({ hook_event_name: 'Stop', cwd: project }), true],
      [JSON.stringify({ hook_event_name: 'UserPromptSubmit', session_id: 's', cwd: project, prompt: 42 }), true],
      [JSON.stringify({ hook_event_name: 'PostToolUse', session_id: 's', cwd: project, tool_input: 'x' }), true],
    ] as const) {
      const r = spawnSync(process.execPath, [bin, 'hook', 'claude-code'], {
        cwd: project,
        env: { PATH: process.env.PATH ?? '', HOME: dir, CREDENCE_DB: db },
        encoding: 'utf8',
        input,
      });
      expect(r.status).toBe(0);
      expect(r.stderr.split('\n').filter(Boolean).length).toBe(refused ? 1 : 0);
    }
  });
});
