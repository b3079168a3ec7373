/**
 * Eight hook writers at once, 500 PostToolUse events each and a Stop every 100 (issue 9), with the
 * database held locked for a moment mid-run: tool events go to the spool whatever the database is
 * doing; a Stop that meets the lock waits the short busy timeout, gives its claimed spool files
 * back and leaves the learning for later (a claim it cannot give back is leased as given up, and the
 * next learner of the session takes it over). At the end every event has been learned exactly once.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { engineStore, openCredence } from '../../src/engine/engine.js';
import { runClaudeCodeHook } from '../../src/hooks/claude-code.js';
import { drainSpool, type SpooledEvent } from '../../src/hooks/spool.js';

const bin = fileURLToPath(new URL('../../bin/credence.cjs', import.meta.url));
const spool = new URL('../../dist/src/hooks/spool.js', import.meta.url).href;
const writerDir = new URL('../fixtures/claude-code/', import.meta.url);
const writer = fileURLToPath(new URL('./writer.mjs', writerDir));
const dir = mkdtempSync(join(tmpdir(), 'credence-hook-writers-'));
const project = join(dir, 'project');
const db = join(dir, 'credence.db');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const WRITERS = 8;
const EVENTS = 500;

describe('8 hook processes writing at once, 500 events each', () => {
  it('loses no event and learns none twice when the database is locked for a moment mid-run', async () => {
    mkdirSync(project);
    expect(spawnSync('git', ['init', '-q'], { cwd: project }).status).toBe(0);
    expect(spawnSync(process.execPath, [bin, '--db', db, 'init'], { cwd: project, encoding: 'utf8' }).status).toBe(0);
    const sessions = Array.from({ length: WRITERS }, (_, i) => `writer-${i}`);
    // Another connection holds the write lock from the start until the Stops have met it.
    const holder = new Database(db);
    holder.exec('BEGIN EXCLUSIVE');
    let released = false;
    const release = (): void => {
      if (released) return;
      released = true;
      holder.exec('COMMIT');
      holder.close();
    };
    let busy = 0;
    let errors = '';
    const done = sessions.map(
      (session) =>
        new Promise<void>((resolve, reject) => {
          const child = spawn(process.execPath, [writer, db, project, session, String(EVENTS)], {
            stdio: ['ignore', 'pipe', 'inherit'],
          });
          child.stdout.setEncoding('utf8');
          let output = '';
          child.stdout.on('data', (chunk: string) => {
            output += chunk;
            busy += (chunk.match(/^busy$/gm) ?? []).length;
            if (chunk.includes('ERROR')) errors += chunk;
            if (busy >= WRITERS) release();
          });
          child.on('exit', (code) =>
            code === 0 && output.includes(`done ${session}`)
              ? resolve()
              : reject(new Error(`writer ${session} exited ${code}: ${output.slice(-300)}`)),
          );
        }),
    );
    await Promise.all(done);
    release();
    expect(errors).toBe('');
    expect(busy).toBeGreaterThanOrEqual(WRITERS);

    // Each session ends: its SessionEnd queues what is still in the spool, then learns it.
    for (const session of sessions) {
      const end = await runClaudeCodeHook(
        JSON.stringify({ session_id: session, cwd: project, hook_event_name: 'SessionEnd', reason: 'exit' }),
        {
          env: { CREDENCE_DB: db, HOME: dir, PATH: process.env.PATH ?? '' },
        },
      );
      expect(end.stderr).toBe('');
    }
    expect(readdirSync(`${db}.hook-spool`)).toEqual([]);
    const credence = await openCredence({ db, cwd: project });
    try {
      const executions = await engineStore(credence).listExecutions(credence.scope);
      expect(executions.map((e) => e.id).sort()).toEqual(sessions.map((s) => `cc-${s}-0`).sort());
      for (const e of executions) {
        expect(e.calls).toHaveLength(EVENTS);
        // In the order the session made them: Bash, Read, Bash, Read, …
        const misplaced = e.calls
          .map((c, i) => [i, c.tool, c.input] as const)
          .filter(([i, tool]) => tool !== (i % 2 === 0 ? 'Bash' : 'Read'));
        expect(misplaced.slice(0, 3)).toEqual([]);
      }
      expect(await engineStore(credence).claimHookEvents(credence.scope, 'check', Date.now() + 1)).toEqual([]);
    } finally {
      await credence.close();
    }
  }, 240_000);
});

describe('a learning process killed while it holds a session', () => {
  it('leaves the session to the next hook at once: its session end learns every event', async () => {
    const root = join(dir, 'killed');
    const file = join(dir, 'killed.db');
    mkdirSync(root);
    expect(spawnSync('git', ['init', '-q'], { cwd: root }).status).toBe(0);
    expect(spawnSync(process.execPath, [bin, '--db', file, 'init'], { cwd: root, encoding: 'utf8' }).status).toBe(0);
    const env = { CREDENCE_DB: file, HOME: dir, PATH: process.env.PATH ?? '' };
    const hook = (payload: Record<string, unknown>) =>
      runClaudeCodeHook(JSON.stringify({ session_id: 'k', cwd: root, ...payload }), { env });
    for (const tool of ['Bash', 'Read', 'Bash']) {
      const input = tool === 'Bash' ? { command: 'ls' } : { file_path: join(root, 'a.txt') };
      expect((await hook({ hook_event_name: 'PostToolUse', tool_name: tool, tool_input: input })).stderr).toBe('');
    }
    // It claims the session's events, then hangs mid-learning until it is killed.
    const stuck = spawn(process.execPath, [fileURLToPath(new URL('./stuck-learner.mjs', writerDir)), file, root, 'k'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve, reject) => {
      stuck.stdout.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('claimed')) resolve();
      });
      stuck.on('exit', (code) => reject(new Error(`the learner ended (${code}) before claiming`)));
    });
    const killed = new Promise((resolve) => stuck.on('exit', resolve));
    stuck.kill('SIGKILL');
    await killed;
    expect((await hook({ hook_event_name: 'SessionEnd', reason: 'exit' })).stderr).toBe('');
    const credence = await openCredence({ db: file, cwd: root });
    try {
      const executions = await engineStore(credence).listExecutions(credence.scope);
      expect(executions.map((e) => [e.id, e.calls.map((c) => c.tool)])).toEqual([['cc-k-0', ['Bash', 'Read', 'Bash']]]);
    } finally {
      await credence.close();
    }
    expect(readdirSync(`${file}.hook-spool`)).toEqual([]);
  }, 60_000);
});

describe('the spool drained over and over while hook processes write to it', () => {
  it("hands each session's events over in the order they were written", async () => {
    // A directory listing taken while files are added is no snapshot (ext4 reads a folder in hash
    // order, a few hundred names a system call): a drain must not take an event of a session
    // without the ones written before it. A drain every quarter second finds hundreds of files.
    const db = join(dir, 'drained.db');
    const writers = 4;
    const events = 3_000;
    const script =
      `import { spoolEvent } from ${JSON.stringify(spool)};
      const [db, session, n] = process.argv.slice(1);
      for (let i = 0; i < Number(n); i += 1) ` +
      `spoolEvent(db, { cwd: '/', session, turn: 'current', kind: 'PostToolUse', at: i, payload: { i } });`;
    let running = writers;
    const done = Array.from(
      { length: writers },
      (_, w) =>
        new Promise<void>((resolve, reject) => {
          const child = spawn(process.execPath, ['--input-type=module', '-e', script, db, `s${w}`, String(events)], {
            stdio: ['ignore', 'inherit', 'inherit'],
          });
          child.on('exit', (code) => {
            running -= 1;
            if (code === 0) resolve();
            else reject(new Error(`writer s${w} exited ${code}`));
          });
        }),
    );
    const finished = Promise.all(done);
    finished.catch(() => {});
    const seen = new Map(Array.from({ length: writers }, (_, w) => [`s${w}`, [] as number[]]));
    const take = async (list: SpooledEvent[]): Promise<void> => {
      for (const e of list) seen.get(e.session)?.push(e.at);
    };
    let drains = 0;
    while (running > 0) {
      await drainSpool(db, 'test', take, (line) => expect.fail(line));
      drains += 1;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    await finished;
    await drainSpool(db, 'test', take, (line) => expect.fail(line));
    expect(drains).toBeGreaterThan(1);
    for (const [, list] of seen) {
      expect(list).toHaveLength(events);
      // [position handed over, event]: the first few out of place.
      expect(list.flatMap((at, i) => (at === i ? [] : [[i, at]])).slice(0, 3)).toEqual([]);
    }
  }, 60_000);
});
