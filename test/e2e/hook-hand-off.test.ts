/**
 * Stops and session starts hand their learning to a process of their own (issue 20): the hook
 * returns without waiting for the database, the learning follows, and what it has to say goes to
 * `<db>.hook-learn.log`, not to the agent. A session start prints its context from the read path,
 * even while another connection holds the write lock.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { engineStore, openCredence } from '../../src/engine/engine.js';

const bin = fileURLToPath(new URL('../../bin/credence.cjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'credence-hand-off-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
function project() {
  n += 1;
  const root = join(dir, `p${n}`);
  mkdirSync(root);
  expect(spawnSync('git', ['init', '-q'], { cwd: root }).status).toBe(0);
  const db = join(dir, `p${n}.db`);
  const env = { PATH: process.env.PATH ?? '', HOME: root, CREDENCE_DB: db, CREDENCE_EMBEDDINGS: '' };
  const hook = (event: Record<string, unknown>, extra: Record<string, string> = {}) => {
    const r = spawnSync(process.execPath, [bin, 'hook', 'claude-code'], {
      cwd: root,
      env: { ...env, ...extra },
      encoding: 'utf8',
      input: JSON.stringify({ session_id: 's-1', cwd: root, ...event }),
    });
    expect(r.status).toBe(0);
    return { stdout: r.stdout, stderr: r.stderr };
  };
  const run = (args: string[]) => spawnSync(process.execPath, [bin, ...args], { cwd: root, env, encoding: 'utf8' });
  return { root, db, hook, run };
}

/** Polls `check` until it returns a value (not undefined), for at most `seconds`. */
async function eventually<T>(check: () => T | undefined | Promise<T | undefined>, seconds = 60): Promise<T> {
  const until = Date.now() + seconds * 1000;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`nothing after ${seconds} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function executions(db: string, root: string): Promise<{ id: string; calls: number }[]> {
  const credence = await openCredence({ db, cwd: root });
  try {
    return (await engineStore(credence).listExecutions(credence.scope)).map((e) => ({
      id: e.id,
      calls: e.calls.length,
    }));
  } finally {
    await credence.close();
  }
}

const call = (i: number) => ({
  hook_event_name: 'PostToolUse',
  tool_name: 'Bash',
  tool_input: { command: `echo ${i}` },
  tool_response: { stdout: `${i}\n`, stderr: '' },
  tool_use_id: `toolu_${i}`,
});

describe('a stop hands its learning to a process of its own (issue 20)', () => {
  it('returns at once with the database locked; the learning logs "busy", and a later stop learns it all', async () => {
    const p = project();
    expect(p.run(['init']).status).toBe(0);
    p.hook({ hook_event_name: 'UserPromptSubmit', prompt: 'Run the tests' });
    p.hook(call(1));
    const holder = new Database(p.db);
    holder.exec('BEGIN EXCLUSIVE');
    try {
      // Learning in the hook itself would meet the lock and say so on stderr.
      expect(p.hook({ hook_event_name: 'Stop', stop_hook_active: false })).toEqual({ stdout: '', stderr: '' });
      const log = await eventually(() => {
        const text = existsSync(`${p.db}.hook-learn.log`) ? readFileSync(`${p.db}.hook-learn.log`, 'utf8') : '';
        return text.includes('busy') ? text : undefined;
      });
      expect(log).toMatch(/^credence hook: the database is busy/m);
    } finally {
      holder.exec('COMMIT');
      holder.close();
    }
    expect(await executions(p.db, p.root)).toEqual([]);
    p.hook(call(2));
    expect(p.hook({ hook_event_name: 'Stop', stop_hook_active: false })).toEqual({ stdout: '', stderr: '' });
    const learned = await eventually(async () => {
      const list = await executions(p.db, p.root);
      return list.length > 0 && list[0]?.calls === 2 ? list : undefined;
    });
    expect(learned).toEqual([{ id: 'cc-s-1-1', calls: 2 }]);
  }, 120_000);

  it('with CREDENCE_HOOK_WAIT=1 the hook waits for the learning and passes on what it says', async () => {
    const p = project();
    expect(p.run(['init']).status).toBe(0);
    p.hook({ hook_event_name: 'UserPromptSubmit', prompt: 'Run the tests' });
    p.hook(call(1));
    const holder = new Database(p.db);
    holder.exec('BEGIN EXCLUSIVE');
    try {
      const stop = p.hook({ hook_event_name: 'Stop', stop_hook_active: false }, { CREDENCE_HOOK_WAIT: '1' });
      expect(stop.stderr).toMatch(/^credence hook: the database is busy/);
    } finally {
      holder.exec('COMMIT');
      holder.close();
    }
    expect(p.hook({ hook_event_name: 'SessionEnd', reason: 'exit' }, { CREDENCE_HOOK_WAIT: '1' })).toEqual({
      stdout: '',
      stderr: '',
    });
    expect(await executions(p.db, p.root)).toEqual([{ id: 'cc-s-1-1', calls: 1 }]);
  }, 120_000);
});

describe('a session start prints its context from the read path (issue 20)', () => {
  it('starts no learning process when nothing is queued, and one when a call waits in the spool', async () => {
    const p = project();
    expect(p.run(['init']).status).toBe(0);
    const log = `${p.db}.hook-learn.log`;
    expect(p.hook({ hook_event_name: 'SessionStart', source: 'startup' })).toEqual({ stdout: '', stderr: '' });
    expect(existsSync(log)).toBe(false);
    p.hook(call(1));
    expect(p.hook({ hook_event_name: 'SessionStart', source: 'startup' })).toEqual({ stdout: '', stderr: '' });
    expect(existsSync(log)).toBe(true);
    const spool = `${p.db}.hook-spool`;
    await eventually(() => (readdirSync(spool).some((name) => !name.startsWith('.')) ? undefined : true));
  }, 120_000);

  it("prints the scope's skill while the write lock is held elsewhere, and what is queued is learned", async () => {
    const p = project();
    for (let i = 0; i < 3; i++) {
      p.hook({ hook_event_name: 'UserPromptSubmit', prompt: 'No, use pnpm instead of npm.', session_id: `s-${i}` });
      p.hook({ hook_event_name: 'Stop', stop_hook_active: false, session_id: `s-${i}` }, { CREDENCE_HOOK_WAIT: '1' });
    }
    expect(p.run(['evolve', '--json']).status).toBe(0);
    p.hook(call(1));
    const holder = new Database(p.db);
    holder.exec('BEGIN EXCLUSIVE');
    let start: { stdout: string; stderr: string };
    try {
      start = p.hook({ hook_event_name: 'SessionStart', source: 'startup' });
    } finally {
      holder.exec('COMMIT');
      holder.close();
    }
    expect(start.stderr).toBe('');
    const context = JSON.parse(start.stdout).hookSpecificOutput.additionalContext as string;
    expect(context).toContain('No, use pnpm instead of npm.');
    // Its learning met the lock or came after it; either way the call is learned, by it or by the session's end
    // (s-1's first prompt began its turn 1 above).
    p.hook({ hook_event_name: 'SessionEnd', reason: 'exit' }, { CREDENCE_HOOK_WAIT: '1' });
    const learned = await eventually(async () => {
      const list = await executions(p.db, p.root);
      return list.length > 0 ? list : undefined;
    });
    expect(learned).toEqual([{ id: 'cc-s-1-1', calls: 1 }]);
  }, 120_000);

  it('says one line on a damaged store and starts no learning that could only fail again (walk 17, item 10)', () => {
    const p = project();
    p.hook(call(1));
    p.hook({ hook_event_name: 'Stop', stop_hook_active: false }, { CREDENCE_HOOK_WAIT: '1' });
    p.hook(call(2));
    const bytes = readFileSync(p.db);
    bytes.fill(0x58, 100, 132);
    bytes.fill(0x58, 12288, 12334);
    writeFileSync(p.db, bytes);
    const start = p.hook({ hook_event_name: 'SessionStart', source: 'startup' }, { CREDENCE_HOOK_WAIT: '1' });
    expect(start.stdout).toBe('');
    expect(start.stderr).toMatch(/^credence hook: SessionStart: [^\n]*malformed[^\n]*\n$/);
  }, 120_000);

  it('on a store marked damaged: no learning at session start, and the refusal in one line (walk 20, item 9)', () => {
    const p = project();
    p.hook(call(1));
    p.hook({ hook_event_name: 'Stop', stop_hook_active: false }, { CREDENCE_HOOK_WAIT: '1' });
    // Page 4 (the index edges_to) no session start reads: the quick check of `status` finds it and marks the store.
    const bytes = readFileSync(p.db);
    const page = bytes.readUInt16BE(16) === 1 ? 65536 : bytes.readUInt16BE(16);
    bytes.fill(0xde, page * 3, page * 4);
    writeFileSync(p.db, bytes);
    expect(p.run(['status']).status).toBe(1);
    expect(existsSync(`${p.db}.damaged`)).toBe(true);
    p.hook(call(2));
    const start = p.hook({ hook_event_name: 'SessionStart', source: 'startup' }, { CREDENCE_HOOK_WAIT: '1' });
    expect(start.stderr).toBe(
      `credence hook: SessionStart: the database at ${p.db} is marked damaged: nothing queued is learned into it ` +
        '(`credence status` checks it again)\n',
    );
    const stop = p.hook({ hook_event_name: 'Stop', stop_hook_active: false }, { CREDENCE_HOOK_WAIT: '1' });
    expect(stop.stderr).toMatch(/^credence hook: Stop: cannot write the database at [^\n]* it is damaged [^\n]*\n$/);
  }, 120_000);
});
