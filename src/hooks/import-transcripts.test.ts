import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bashFailed, bashOk, TranscriptWriter } from '../../test/claude-transcripts.js';
import { rejection } from '../../test/helpers.js';
import { openCredence } from '../engine/engine.js';
import { sessionSummary } from '../engine/session-summary.js';
import { resolveScope } from '../platform/git-scope.js';
import { openSqliteStore } from '../store/sqlite/index.js';
import { claudeProjectDir, importTranscripts, type ImportOptions } from './import-transcripts.js';
import { runClaudeCodeHook } from './claude-code.js';

const SECRET = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';
const A = 'aaaa0000-1111-4222-8333-444455556666';
const B = 'bbbb0000-1111-4222-8333-444455556666';
const C = 'cccc0000-1111-4222-8333-444455556666';

let dir: string;
let project: string;
let transcripts: string;
let db: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'credence-import-'));
  project = join(dir, 'project');
  transcripts = join(dir, 'transcripts');
  mkdirSync(project);
  mkdirSync(transcripts);
  db = join(dir, 'c.db');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const run = (over: Partial<ImportOptions> = {}) => {
  const progress: string[] = [];
  return importTranscripts({
    dir: transcripts,
    env: { CREDENCE_DB: db },
    cwd: project,
    now: Date.parse('2026-04-01T00:00:00Z'),
    scope: 'demo',
    progress: (line) => progress.push(line),
    ...over,
  });
};

/** Session A: a failed test run, a fix, a correction, a passing run; session B: a commit; C shares B's file. */
function writeSessions(): void {
  const a = new TranscriptWriter(A, project, '2026-03-01T10:00:00Z')
    .raw(JSON.stringify({ type: 'summary', summary: 'Fix the failing tests', leafUuid: 'x' }))
    .prompt('run the tests and fix what fails')
    .call('Bash', { command: 'npm test' }, bashFailed(1, 'FAIL src/a.test.ts'))
    .call('Read', { file_path: `${project}/src/a.ts` }, { content: '1 export const a = 1' })
    .call('Edit', { file_path: `${project}/src/a.ts`, old_string: '1', new_string: '2' }, { content: 'updated' })
    .raw(JSON.stringify({ type: 'hologram', sessionId: A }))
    .prompt('No, use pnpm instead of npm in this repo.')
    .call('Bash', { command: `GITHUB_TOKEN=${SECRET} pnpm test` }, bashOk(`ok 3 tests ${SECRET}`))
    .raw('{"type":"user","message":{"role":"user","content":"cut in the mid');
  writeFileSync(join(transcripts, `${A}.jsonl`), a.text());
  const b = new TranscriptWriter(B, project, '2026-03-02T09:00:00Z')
    .prompt('commit the fix')
    .call('Bash', { command: 'git commit -m "fix: a"' }, bashOk('[main 1a2b3c] fix: a'))
    .answer('Committed.');
  const c = new TranscriptWriter(C, project, '2026-03-03T09:00:00Z')
    .prompt('show me the log')
    .call('Bash', { command: 'git log -1' }, bashOk('commit 1a2b3c'));
  writeFileSync(join(transcripts, `${B}.jsonl`), b.text() + c.text());
}

async function storeText(): Promise<{ text: string; counts: Record<string, number> }> {
  const credence = await openCredence({ db, scope: 'demo', cwd: project }, {});
  let text = '';
  try {
    await credence.dump((t) => {
      text += t;
    });
    return { text, counts: (await credence.counts()) as unknown as Record<string, number> };
  } finally {
    await credence.close();
  }
}

describe('credence import --claude-code', () => {
  it('names a call without a result by its file, line and tool, beside a malformed line', async () => {
    const w = new TranscriptWriter(A, project, '2026-03-01T10:00:00Z')
      .prompt('look at the repo')
      .call('Bash', { command: 'ls' }, bashOk('a b'))
      .call('Read', { file_path: `${project}/a.ts` }, { content: '1 a' });
    w.lines.pop(); // The Read call's result never came.
    w.raw('{"type":"user","message":');
    writeFileSync(join(transcripts, `${A}.jsonl`), w.text());
    const summary = await run();
    expect(summary.skipped).toEqual({ malformed: 1, 'call without result': 1 });
    expect(summary.problems).toEqual([
      expect.objectContaining({ file: `${A}.jsonl`, line: 5 }),
      { file: `${A}.jsonl`, line: 4, why: 'a "Read" call with no result after it in the file' },
    ]);
  });

  it('learns prompts, calls, failures, corrections at the transcript’s times; names lines it skipped', async () => {
    writeSessions();
    const summary = await run();
    expect(summary).toMatchObject({
      files: 2,
      sessions: 3,
      prompts: 4,
      toolCalls: 6,
      failures: 1,
      corrections: 1,
      alreadyImported: 0,
      sessionsLearnedByHooks: 0,
      skipped: { 'unknown type': 1, malformed: 1 },
    });
    expect(summary.problems).toEqual([
      { file: `${A}.jsonl`, line: 9, why: 'unknown line type "hologram"' },
      expect.objectContaining({ file: `${A}.jsonl`, line: 13 }),
    ]);
    const credence = await openCredence({ db, scope: 'demo', cwd: project }, {});
    try {
      const runs = await credence.runs({ limit: 10 });
      const byIntent = new Map(runs.map((r) => [r.intent, r]));
      expect(byIntent.get('run the tests and fix what fails')?.nodes.map((n) => `${n.tool}:${n.status}`)).toEqual([
        'Bash:failure',
        'Read:success',
        'Edit:success',
      ]);
      expect(byIntent.get('run the tests and fix what fails')?.startedAt).toBe('2026-03-01T10:00:36.000Z');
      expect([...byIntent.keys()].sort()).toEqual([
        'No, use pnpm instead of npm in this repo.',
        'commit the fix',
        'run the tests and fix what fails',
        'show me the log',
      ]);
      const observations = await credence.exportObservations();
      const types = observations.map((o) => `${o.type}@${o.timestamp}`);
      expect(types).toContain('correction@2026-03-01T10:01:18.000Z');
      expect(types.some((t) => t.startsWith('error@2026-03-01'))).toBe(true);
      expect(summary.observations).toBe(observations.length);
    } finally {
      await credence.close();
    }
    expect((await storeText()).text).not.toContain(SECRET);
  });

  it('adds nothing when the same files are imported again, and only the new lines of a grown transcript', async () => {
    writeSessions();
    await run();
    const before = await storeText();
    const again = await run();
    expect(again).toMatchObject({ prompts: 0, toolCalls: 0, failures: 0, corrections: 0, observations: 0 });
    expect(again.alreadyImported).toBe(10);
    expect((await storeText()).counts).toEqual(before.counts);

    const more = new TranscriptWriter(C, project, '2026-03-03T10:00:00Z')
      .prompt('run the tests once more')
      .call('Bash', { command: 'pnpm test' }, bashOk('ok'));
    appendFileSync(join(transcripts, `${B}.jsonl`), more.text());
    const grown = await run();
    expect(grown).toMatchObject({ prompts: 1, toolCalls: 1, alreadyImported: 10 });
  });

  it('leaves alone a session the live hooks learned already', async () => {
    writeSessions();
    const env = { CREDENCE_DB: db, CREDENCE_SCOPE: 'demo', CREDENCE_NOW: '2026-03-02T09:00:00Z' };
    const hook = { hook_event_name: 'UserPromptSubmit', session_id: B, cwd: project, prompt: 'commit the fix' };
    await runClaudeCodeHook(JSON.stringify(hook), { env });
    await runClaudeCodeHook(JSON.stringify({ ...hook, hook_event_name: 'SessionEnd' }), { env });
    const summary = await run();
    expect(summary.sessionsLearnedByHooks).toBe(1);
    expect(summary).toMatchObject({ sessions: 3, prompts: 3, toolCalls: 5 });
  });

  it('learns a long session in slices as one session would', async () => {
    const w = new TranscriptWriter(A, project, '2026-03-01T10:00:00Z').prompt('read every file');
    for (let i = 0; i < 1_200; i += 1) w.call('Read', { file_path: `${project}/f${i}.ts` }, { content: 'x' }, 1);
    writeFileSync(join(transcripts, `${A}.jsonl`), w.text());
    const summary = await run();
    expect(summary).toMatchObject({ sessions: 1, prompts: 1, toolCalls: 1_200 });
    const credence = await openCredence({ db, scope: 'demo', cwd: project }, {});
    try {
      const runs = await credence.runs();
      expect(runs.map((r) => [r.intent, r.nodes.length])).toEqual([['read every file', 1_200]]);
    } finally {
      await credence.close();
    }
  });

  it('import then a Stop (walk 6 item 1): the correction outlives months of tool output, and both say so', async () => {
    // A correction four months ago (past the purge age), one a month ago, then a session of 120 passing test runs:
    // past the cap of 100 observations.
    const now = Date.parse('2026-04-01T00:00:00Z');
    const old = new TranscriptWriter(C, project, '2025-12-01T10:00:00Z').prompt('No, use yarn instead of npm here.');
    const a = new TranscriptWriter(A, project, '2026-03-01T10:00:00Z').prompt('No, use pnpm instead of npm here.');
    const b = new TranscriptWriter(B, project, '2026-03-31T09:00:00Z').prompt('run the tests until they pass');
    for (let i = 0; i < 120; i += 1) b.call('Bash', { command: 'pnpm test' }, bashOk('ok 3 tests'));
    writeFileSync(join(transcripts, `${C}.jsonl`), old.text());
    writeFileSync(join(transcripts, `${A}.jsonl`), a.text() + b.text());
    const summary = await run({ now });
    expect(summary.corrections).toBe(2);
    // The month-old one is read by every evolve until the purge (review F, 3); the older one is past it.
    expect(summary.correctionsNotRead).toEqual({ corrections: 1, purgeAge: '90 days' });
    expect(summary.observations).toBeGreaterThan(100);
    const env = { CREDENCE_DB: db, CREDENCE_SCOPE: 'demo', CREDENCE_NOW: '2026-04-01T00:00:00Z' };
    const stop = { hook_event_name: 'Stop', session_id: B, cwd: project };
    const out = await runClaudeCodeHook(JSON.stringify(stop), { env, learnOnly: true });
    // The background evolve's prune says what it removed (the learning log's line).
    expect(out.stderr).toMatch(
      /^credence hook: evolve pruned \d+ observations \(1 past the purge age, \d+ over the limit, what tools produced/m,
    );
    expect(out.stderr).toMatch(/, 1 of them your own words$/m);
    const credence = await openCredence({ db, scope: 'demo', cwd: project }, {});
    try {
      const left = await credence.exportObservations();
      expect(left).toHaveLength(100);
      expect(left.filter((o) => o.type === 'correction').map((o) => o.observation)).toEqual([
        'No, use pnpm instead of npm here.',
      ]);
    } finally {
      await credence.close();
    }
  });

  it('refuses a folder that does not exist, naming it', async () => {
    const missing = join(dir, 'nowhere');
    const error = await rejection(run({ dir: missing }));
    expect(error.code).toBe('NOT_FOUND');
    expect(error.details?.dir).toBe(missing);
  });

  it('finds a project’s transcripts where Claude Code keeps them', () => {
    expect(claudeProjectDir('/home/u/my.proj_x', { CLAUDE_CONFIG_DIR: '/cfg' })).toBe(
      '/cfg/projects/-home-u-my-proj-x',
    );
  });
});

// Review A item 2: an imported session's calls were queued without their roots, though every transcript line has its
// cwd: a teammate's imported session showed the path in their clone. They are kept as the hooks keep them.
describe('credence import --claude-code of a clone’s sessions', () => {
  const clone = (who: string): string => {
    const root = join(dir, who, 'shop');
    mkdirSync(join(root, '.git'), { recursive: true });
    mkdirSync(join(root, 'src'), { recursive: true });
    writeFileSync(join(root, '.git', 'config'), '[remote "origin"]\n\turl = https://git.example.com/team/shop\n');
    return root;
  };

  it("keeps the session's root: SessionStart names its file relative to it; none under another --scope", async () => {
    const [ana, ben] = [clone('ana'), clone('ben')];
    const edit = { file_path: `${ana}/src/cart.ts`, old_string: 'a', new_string: 'b' };
    const w = new TranscriptWriter(A, ana, '2026-03-01T10:00:00Z')
      .prompt('fix the cart')
      .call('Edit', edit, { content: 'updated' });
    writeFileSync(join(transcripts, `${A}.jsonl`), w.text());
    const scope = resolveScope({ cwd: ben }).scope;
    // Imported from Ben's clone: one origin, one scope.
    expect(await run({ cwd: ben, scope: undefined })).toMatchObject({ scope, toolCalls: 1 });
    await run({ cwd: ben, scope: 'demo' });
    const store = openSqliteStore({ path: db });
    try {
      expect((await store.hookSession(scope, A)).state.roots).toEqual([ana]);
      const now = Date.parse('2026-03-02T00:00:00Z');
      const text = await sessionSummary({ store, scope, now, root: ben });
      expect(text).toContain('Files changed: src/cart.ts.');
      expect(text).not.toContain(dir);
      expect((await store.hookSession('demo', A)).state.roots).toBeUndefined();
    } finally {
      await store.close();
    }
  });
});
