/**
 * Eight hook writers at once, 500 PostToolUse events each, with the database held locked for a
 * moment mid-run (issue 9): events that meet the lock wait the short busy timeout, then go to the
 * spool; the next invocation queues the spool first. Not one event is lost, none is counted twice.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { openCredence } from '../../src/engine.js';
import { runClaudeCodeHook } from '../../src/hooks/claude-code.js';

const bin = fileURLToPath(new URL('../../bin/credence.cjs', import.meta.url));
const writer = fileURLToPath(new URL('../fixtures/claude-code/writer.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'credence-hook-writers-'));
const project = join(dir, 'project');
const db = join(dir, 'credence.db');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const WRITERS = 8;
const EVENTS = 500;

describe('8 hook processes writing at once, 500 events each', () => {
  it('loses not one event when the database is locked for a moment mid-run (the spool)', async () => {
    mkdirSync(project);
    expect(spawnSync('git', ['init', '-q'], { cwd: project }).status).toBe(0);
    expect(spawnSync(process.execPath, [bin, '--db', db, 'init'], { cwd: project, encoding: 'utf8' }).status).toBe(0);
    const sessions = Array.from({ length: WRITERS }, (_, i) => `writer-${i}`);
    let started = 0;
    let spooled = 0;
    let lost = '';
    const lockHeld = { release: () => {} };
    let locked = false;
    const lockOnce = (): void => {
      if (locked) return;
      locked = true;
      // Another connection takes the write lock and keeps it until the writers have spooled.
      const holder = new Database(db);
      holder.exec('BEGIN EXCLUSIVE');
      lockHeld.release = () => {
        lockHeld.release = () => {};
        holder.exec('COMMIT');
        holder.close();
      };
    };
    const done = sessions.map(
      (session) =>
        new Promise<void>((resolve, reject) => {
          const child = spawn(process.execPath, [writer, db, project, session, String(EVENTS)], { stdio: ['ignore', 'pipe', 'inherit'] });
          child.stdout.setEncoding('utf8');
          let buffer = '';
          child.stdout.on('data', (chunk: string) => {
            buffer += chunk;
            if (/spooled \d+/.test(chunk)) spooled += (chunk.match(/spooled \d+/g) ?? []).length;
            if (chunk.includes('LOST')) lost += chunk;
            // Hold the lock until several events have met it, then let the writers on.
            if (spooled >= WRITERS) lockHeld.release();
          });
          child.on('exit', (code) => (code === 0 && buffer.includes('done') ? resolve() : reject(new Error(`writer ${session} exited ${code}: ${buffer.slice(-300)}`))));
          started += 1;
        }),
    );
    // Take the lock once the writers are under way: after the first rows are queued.
    const watch = new Database(db, { readonly: true });
    while (!locked) {
      const queued = Number((watch.prepare('SELECT count(*) AS n FROM hook_events').get() as { n: number }).n);
      if (queued >= 200) lockOnce();
      else await new Promise((r) => setTimeout(r, 5));
    }
    watch.close();
    await Promise.all(done);
    lockHeld.release();
    expect(started).toBe(WRITERS);
    expect(lost).toBe('');
    expect(spooled).toBeGreaterThanOrEqual(WRITERS);

    // Each session ends: its SessionEnd queues what is in the spool first, then learns everything.
    for (const session of sessions) {
      const end = await runClaudeCodeHook(JSON.stringify({ session_id: session, cwd: project, hook_event_name: 'SessionEnd', reason: 'exit' }), {
        env: { CREDENCE_DB: db, HOME: dir, PATH: process.env.PATH ?? '' },
      });
      expect(end.stderr).toBe('');
    }
    const credence = await openCredence({ db, cwd: project });
    try {
      const executions = await credence.store.listExecutions(credence.scope);
      expect(executions.map((e) => e.id).sort()).toEqual(sessions.map((s) => `cc-${s}-0`).sort());
      for (const e of executions) expect(e.calls).toHaveLength(EVENTS);
      expect(executions.reduce((n, e) => n + e.calls.length, 0)).toBe(WRITERS * EVENTS);
      expect(await credence.store.claimHookEvents(credence.scope, 'check', Date.now() + 1)).toEqual([]);
    } finally {
      await credence.close();
    }
  }, 240_000);
});
