import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveScope } from '../platform/git-scope.js';
import { openSqliteStore, type SqliteStore } from '../store/sqlite/sqlite-store.js';
import { parseHookPayload } from './payload.js';
import { INPUT_LIMITS } from '../core/limits.js';
import { promptContext, runPromptHook } from './prompt.js';
import { queueSpool, queueSpooled, SHOWN_KIND } from './queue.js';
import { spoolDirFor, type SpooledEvent } from './spool.js';

const dir = mkdtempSync(join(tmpdir(), 'credence-prompt-'));
const project = join(dir, 'project');
const NOW = Date.parse('2026-03-02T10:00:00Z');
const env = (db: string) => ({ CREDENCE_DB: db, CREDENCE_NOW: new Date(NOW).toISOString() });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const payload = (prompt: string) => {
  const parsed = parseHookPayload(
    JSON.stringify({ session_id: 's1', cwd: project, hook_event_name: 'UserPromptSubmit', prompt }),
  );
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.payload;
};
const spooled = (db: string): SpooledEvent[] =>
  readdirSync(spoolDirFor(db))
    .filter((name) => !name.startsWith('.'))
    .sort()
    .map((name) => JSON.parse(readFileSync(join(spoolDirFor(db), name), 'utf8')) as SpooledEvent);

describe('the prompt hook', () => {
  const db = join(dir, 'credence.db');
  let scope = '';

  beforeAll(async () => {
    mkdirSync(join(project, '.git'), { recursive: true });
    writeFileSync(join(project, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    scope = resolveScope({ cwd: project }).scope;
    const store = openSqliteStore({ path: db });
    await store.upsertMemories(scope, [
      {
        id: 'flags',
        category: 'decision',
        title: 'CLI flags are declared with commander',
        text: 'Every flag of the CLI is a commander option',
        tags: ['cli'],
        createdAt: NOW,
        updatedAt: NOW,
      },
      {
        id: 'deploy',
        category: 'note',
        title: 'Deploys run from the main branch',
        text: 'The release job deploys main on each tag',
        tags: [],
        createdAt: NOW,
        updatedAt: NOW,
      },
    ]);
    await store.close();
  });

  it('prints the context, spools the prompt and what it showed; queued next, it is stored as shown', async () => {
    const prompt = 'where are the CLI flags declared? my token is ghp_A1b2C3d4E5A1b2C3d4E5A1b2C3d4E5abcdef';
    const r = await runPromptHook(payload(prompt), env(db));
    expect(r.stderr).toBe('');
    const context = JSON.parse(r.stdout).hookSpecificOutput.additionalContext as string;
    expect(context).toContain(
      '- [DECISION, high] CLI flags are declared with commander: Every flag of the CLI is a commander option',
    );
    const store = openSqliteStore({ path: db });
    try {
      const events = spooled(db);
      expect(events.map((e) => e.kind)).toEqual(['prompt', SHOWN_KIND]);
      const payload = events[1]?.payload as { shown: { id: string; target: string; query: string }[] } | undefined;
      const shown = payload?.shown ?? [];
      expect(shown.map((s) => s.target)).toContain('memory:flags');
      expect(JSON.stringify(events)).not.toContain('ghp_A1b2');
      expect(await store.getShown(scope, shown[0]?.id ?? '')).toBeUndefined();
      // The next learning hook queues the spool: the shown records are stored then, under the prompt's scope.
      await queueSpool(store, db, () => {});
      for (const s of shown)
        expect(await store.getShown(scope, s.id)).toMatchObject({
          surface: 'recall',
          target: s.target,
          at: NOW,
          // With the confidence it was shown with (issue 24).
          confidence: expect.any(Number),
        });
      expect((await store.getShown(scope, shown[0]?.id ?? ''))?.query).not.toContain('ghp_A1b2');
    } finally {
      await store.close();
    }
  });

  it('prints nothing and spools no shown event when nothing is relevant', async () => {
    const db2 = join(dir, 'quiet.db');
    const store = openSqliteStore({ path: db2 });
    await store.close();
    const r = await runPromptHook(payload('zebra quokka'), env(db2));
    expect(r).toEqual({ stdout: '', stderr: '' });
    expect(spooled(db2).map((e) => e.kind)).toEqual(['prompt']);
  });

  it('prints nothing, and no error, when there is no database yet', async () => {
    const db3 = join(dir, 'fresh', 'credence.db');
    const r = await runPromptHook(payload('where are the CLI flags declared?'), env(db3));
    expect(r).toEqual({ stdout: '', stderr: '' });
    expect(existsSync(db3)).toBe(true);
  });

  it('says on one stderr line all that went wrong: the spool, then the database (a full disk)', async () => {
    // Neither the spool nor the database can be made under a file where their folder should be.
    writeFileSync(join(dir, 'a-file'), '');
    const db4 = join(dir, 'a-file', 'credence.db');
    const r = await runPromptHook(payload('where are the CLI flags declared?'), env(db4));
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')).toEqual([expect.any(String), '']);
    expect(r.stderr).toMatch(
      /^credence hook: cannot write to the spool of \S+a-file\/credence\.db \(ENOTDIR.*\): the prompt /,
    );
    expect(r.stderr).toMatch(/; UserPromptSubmit: .*a-file\/credence\.db/);
  });
});

describe('what the prompt hook tells the agent (issue 22 item 5)', () => {
  const at = (days: number) => NOW - days * 86_400_000;
  let store: SqliteStore;
  beforeAll(async () => {
    store = openSqliteStore({ path: ':memory:' });
    const long =
      'The staging cluster is rebuilt every night from the infra repository, so any change made by hand is lost. ' +
      "Don't edit the load balancer by hand: the rotation of the certificates runs through the cert-manager " +
      'job, which renews them thirty days before they expire and pages the on-call engineer when it fails. ' +
      'Old notes about the previous provider are kept in the wiki.';
    await store.upsertMemories('p', [
      {
        id: 'certs',
        category: 'decision',
        title: 'Certificates & staging',
        text: long,
        tags: ['ops'],
        createdAt: at(2),
        updatedAt: at(2),
      },
    ]);
    // The user's own words of earlier sessions: a prompt (a run's title) and a correction in a prompt.
    await store.insertExecution('p', {
      id: 'cc-s0-1',
      intent: 'How do the certificates get renewed on staging?',
      startedAt: at(3),
      calls: [],
    });
    await store.insertObservations('p', [
      {
        id: 'o-1',
        timestamp: at(3),
        type: 'correction',
        context: {},
        observation: "No, don't touch the kubelet flags of the certificates job on staging",
        evidence: [],
        confidence: 0.7,
        tags: ['hook', 'correction', 'no', 'source:user', 'claude-code'],
      },
    ]);
  });
  afterAll(() => store.close());

  it('gives the text around the prompt’s words, in plain text (no XML escaping), one line a memory', async () => {
    const { context, shown } = await promptContext(store, 'p', 'when are the certificates renewed?', NOW);
    const lines = context.split('\n');
    expect(lines[0]).toMatch(/^Credence memory for this prompt/);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^- \[DECISION, (high|medium)\] Certificates & staging: …/);
    expect(lines[1]).toContain("Don't edit the load balancer by hand: the rotation of the certificates");
    expect(lines[1]).toContain('renews them thirty days');
    expect(lines[1]).not.toContain('&apos;');
    expect(lines[1]).not.toContain('&amp;');
    expect((lines[1] ?? '').length).toBeLessThan(300);
    expect(shown.map((s) => s.target)).toEqual(['memory:certs']);
  });

  it('never gives back the user’s own past prompts: no run titled by one, no correction quoted from one', async () => {
    const { context } = await promptContext(store, 'p', 'renew the certificates on staging', NOW);
    expect(context).not.toContain('How do the certificates get renewed');
    expect(context).not.toContain('kubelet');
    expect(context).not.toContain('[EXECUTION');
    expect(context).toContain('Certificates & staging');
  });

  it('says the same thing observed again once', async () => {
    const repeated = openSqliteStore({ path: ':memory:' });
    await repeated.insertObservations(
      'r',
      [1, 2, 3].map((h) => ({
        id: `e${h}`,
        timestamp: at(h),
        type: 'error' as const,
        context: {},
        observation: 'tests failed: npm test',
        evidence: ['runner: npm test'],
        confidence: 0.6,
        tags: ['hook', 'source:tool-output'],
      })),
    );
    const { context, shown } = await promptContext(repeated, 'r', 'why did npm test fail?', NOW);
    expect(context.split('\n').slice(1)).toEqual([
      expect.stringMatching(/^- \[ERROR, (high|medium)\] tests failed: npm test: runner: npm test$/),
    ]);
    expect(shown).toHaveLength(1);
    await repeated.close();
  });

  it('says nothing when nothing is labelled high or medium', async () => {
    expect(await promptContext(store, 'p', 'quokka zebra', NOW)).toEqual({ context: '', shown: [] });
    // Only the user's own earlier words match: nothing is left to say.
    expect((await promptContext(store, 'p', 'the kubelet flags', NOW)).context).toBe('');
  });
});

describe('the identifiers a shown memory is followed by (issue 24)', () => {
  it('are those its shown line names and the prompt does not', async () => {
    const store = openSqliteStore({ path: ':memory:' });
    await store.upsertMemories('ids', [
      {
        id: 'flags',
        category: 'decision',
        title: 'CLI flags are declared with commander in src/cli/main.ts',
        text: 'Every flag of the CLI is a commander option, parsed by parseFlags in src/cli/flags.ts',
        tags: [],
        createdAt: NOW,
        updatedAt: NOW,
      },
    ]);
    const { shown } = await promptContext(store, 'ids', 'are the CLI flags declared in src/cli/main.ts?', NOW);
    expect(shown.map((s) => s.identifiers)).toEqual([['parseFlags', 'src/cli/flags.ts']]);
    await store.close();
  });
});

describe('queuing shown events', () => {
  let store: SqliteStore;
  beforeAll(() => {
    store = openSqliteStore({ path: ':memory:' });
  });
  afterAll(() => store.close());
  const event = (shown: unknown[]): SpooledEvent => ({
    cwd: dir,
    scope: 'sc',
    session: 's1',
    turn: 'current',
    kind: SHOWN_KIND,
    at: NOW,
    payload: { shown },
  });

  it('stores them as shown records, not as hook events, once even when queued twice', async () => {
    const e = event([{ id: 'sh-1', surface: 'recall', target: 'memory:a', query: 'q', at: NOW }]);
    await queueSpooled(store, [{ ...e, key: 'k1' }]);
    await queueSpooled(store, [{ ...e, key: 'k1' }]);
    // With the session whose prompt it was (forget <session> finds it).
    expect(await store.getShown('sc', 'sh-1')).toEqual({
      id: 'sh-1',
      surface: 'recall',
      target: 'memory:a',
      query: 'q',
      at: NOW,
      session: 's1',
    });
    expect(await store.claimHookEvents('sc', 'me', 0)).toEqual([]);
  });

  it('skips malformed entries and keeps the others', async () => {
    await queueSpooled(store, [
      event([
        null,
        { id: 'sh-2' },
        { id: 'sh-3', surface: 'tools', target: 'x', at: NOW },
        { id: 'sh-4', surface: 'recall', target: 'memory:b', at: NOW },
      ]),
    ]);
    expect(await store.getShown('sc', 'sh-2')).toBeUndefined();
    expect(await store.getShown('sc', 'sh-3')).toBeUndefined();
    expect(await store.getShown('sc', 'sh-4')).toMatchObject({ target: 'memory:b' });
  });
});

describe('the prompt hook on a long prompt (issue 17, input limits)', () => {
  it('recalls for the prompt cut to the query limit, and never fails on its length', async () => {
    const store = openSqliteStore({ path: ':memory:' });
    await store.upsertMemories('long', [
      {
        id: 'flags',
        category: 'decision',
        title: 'CLI flags are declared with commander',
        text: 'Every flag of the CLI is a commander option',
        tags: ['cli'],
        createdAt: NOW,
        updatedAt: NOW,
      },
    ]);
    const prompt = `How are CLI flags declared with commander? ${'Here is a long log line. '.repeat(8_000)}`;
    const { context, shown } = await promptContext(store, 'long', prompt, NOW);
    expect(context).toContain('CLI flags are declared with commander');
    expect(shown.length).toBeGreaterThan(0);
    for (const s of shown) {
      expect(typeof s.query).toBe('string');
      expect((s.query ?? '').length).toBeLessThanOrEqual(INPUT_LIMITS.query);
    }
    await store.close();
  });
});
