import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { openCredence } from '../engine/engine.js';
import { openSqliteStore } from '../store/sqlite/index.js';
import {
  AUTO_EVOLVE_DEFAULTS,
  autoEvolve,
  autoEvolveThreshold,
  boundInTime,
  evolveLockFor,
  releaseEvolveLock,
  takeEvolveLock,
} from './auto-evolve.js';
import type { HookEventName } from './payload.js';

// A full disk for the next file written: it is made, then the write fails (EFBIG), as under `ulimit -f 0`.
const disk = vi.hoisted(() => ({ full: false }));
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const writeFileSync = ((...args: Parameters<typeof fs.writeFileSync>) => {
    if (!disk.full) return fs.writeFileSync(...args);
    disk.full = false;
    fs.writeFileSync(args[0], '');
    throw Object.assign(new Error('EFBIG: file too large, write'), { code: 'EFBIG' });
  }) as typeof fs.writeFileSync;
  return { ...fs, default: { ...fs, writeFileSync }, writeFileSync };
});

const base = mkdtempSync(join(tmpdir(), 'credence-auto-evolve-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const NOW = Date.parse('2026-03-01T12:00:00Z');
let n = 0;

/** A Claude Code project (`.git`, `.claude`) with its own SQLite file. */
function project() {
  n += 1;
  const root = join(base, `p${n}`);
  mkdirSync(join(root, '.git'), { recursive: true });
  mkdirSync(join(root, '.claude'));
  const db = join(base, `p${n}.db`);
  const store = openSqliteStore({ path: db });
  afterAll(() => store.close());
  let made = 0;
  /** `count` new preference observations of one habit, an hour apart before NOW. */
  const observe = async (count: number, text = 'Use pnpm for installs') => {
    const credence = await openCredence({ store, scope: 's', now: NOW, cwd: root });
    await credence.observe(
      Array.from({ length: count }, () => {
        made += 1;
        return {
          type: 'preference' as const,
          observation: `${text} (${made})`,
          confidence: 0.7,
          timestamp: new Date(NOW - made * 3_600_000).toISOString(),
        };
      }),
    );
  };
  const run = (event: HookEventName, env: NodeJS.ProcessEnv = {}, options = {}) =>
    autoEvolve({ store, scope: 's', cwd: root, now: NOW, env, db, event }, () => {}, options);
  return { root, db, store, observe, run };
}

describe('automatic evolve after a session (issue 22 item 4)', () => {
  it('a session end runs it from one new observation, a stop from ten; neither again without new ones', async () => {
    expect(autoEvolveThreshold('SessionEnd')).toBe(AUTO_EVOLVE_DEFAULTS.sessionEndObservations);
    expect(autoEvolveThreshold('Stop')).toBe(10);
    expect(autoEvolveThreshold('SessionStart')).toBeUndefined();
    const p = project();
    expect(await p.run('SessionEnd')).toEqual({ ran: false, why: 'too-few', fresh: 0 });
    await p.observe(9);
    expect(await p.run('Stop')).toEqual({ ran: false, why: 'too-few', fresh: 9 });
    expect(await p.run('SubagentStop')).toEqual({ ran: false, why: 'too-few', fresh: 9 });
    await p.observe(1);
    const ran = await p.run('Stop');
    expect(ran).toMatchObject({ ran: true, fresh: 10, observations: 10 });
    // What it learned is stored, and the skill is where Claude Code reads it.
    expect((await p.store.listSkills('s')).length + (await p.store.listInstincts('s')).length).toBeGreaterThan(0);
    expect(await p.run('SessionEnd')).toEqual({ ran: false, why: 'too-few', fresh: 0 });
    await p.observe(1);
    expect(await p.run('Stop')).toEqual({ ran: false, why: 'too-few', fresh: 1 });
    expect(await p.run('SessionEnd')).toMatchObject({ ran: true, fresh: 1 });
    expect(await p.run('SessionStart')).toEqual({ ran: false, why: 'not-this-event' });
  });

  it('writes the learned skill into .claude/skills', async () => {
    const p = project();
    await p.observe(6);
    expect(await p.run('SessionEnd')).toMatchObject({ ran: true, skills: 1 });
    const skills = readdirSync(join(p.root, '.claude', 'skills'));
    expect(skills.length).toBe(1);
    expect(existsSync(join(p.root, '.claude', 'skills', skills[0] as string, 'SKILL.md'))).toBe(true);
  });

  it('is off with CREDENCE_AUTO_EVOLVE=0 (off, false, no) or "autoEvolve": false in observe.json', async () => {
    const p = project();
    await p.observe(3);
    for (const value of ['0', 'off', 'FALSE', ' no ']) {
      expect(await p.run('SessionEnd', { CREDENCE_AUTO_EVOLVE: value })).toEqual({ ran: false, why: 'off' });
    }
    mkdirSync(join(p.root, '.credence'));
    writeFileSync(join(p.root, '.credence', 'observe.json'), '{"autoEvolve": false}');
    expect(await p.run('SessionEnd')).toEqual({ ran: false, why: 'off' });
    expect(await p.run('SessionEnd', { CREDENCE_AUTO_EVOLVE: '1' })).toEqual({ ran: false, why: 'off' });
    expect(await p.store.listInstincts('s')).toEqual([]);
    writeFileSync(join(p.root, '.credence', 'observe.json'), '{"autoEvolve": true}');
    expect(await p.run('SessionEnd')).toMatchObject({ ran: true, fresh: 3 });
  });

  it('two at once: one runs, the other finds the lock and leaves', async () => {
    const p = project();
    await p.observe(4);
    const outcomes = await Promise.all([p.run('SessionEnd'), p.run('SessionEnd')]);
    expect(outcomes.filter((o) => o.ran)).toHaveLength(1);
    expect(outcomes.filter((o) => !o.ran)).toEqual([{ ran: false, why: 'locked', fresh: 4 }]);
    expect(existsSync(evolveLockFor(p.db))).toBe(false);
  });

  it('a lock whose owner cannot be written (a full disk) is not taken and leaves nothing behind', () => {
    const p = project();
    disk.full = true;
    expect(takeEvolveLock(p.db, 60_000)).toBeUndefined();
    const lock = evolveLockFor(p.db);
    expect(readdirSync(base).filter((name) => join(base, name).startsWith(lock))).toEqual([]);
    const token = takeEvolveLock(p.db, 60_000);
    expect(token).toBeDefined();
    releaseEvolveLock(p.db, token as string);
  });

  it('a live process’s lock is left alone; a dead one’s, or one past the time bound, is taken over', async () => {
    const p = project();
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      mkdirSync(evolveLockFor(p.db));
      writeFileSync(join(evolveLockFor(p.db), 'owner'), `${child.pid} other`);
      expect(takeEvolveLock(p.db, 60_000)).toBeUndefined();
      await p.observe(2);
      expect(await p.run('SessionEnd')).toEqual({ ran: false, why: 'locked', fresh: 2 });
      // Past the time bound and its margin, the lock is abandoned whoever holds it.
      const token = takeEvolveLock(p.db, -1);
      expect(token).toBeDefined();
      releaseEvolveLock(p.db, token as string);
      expect(existsSync(evolveLockFor(p.db))).toBe(false);
    } finally {
      child.kill();
    }
    await new Promise((resolve) => child.on('exit', resolve));
    mkdirSync(evolveLockFor(p.db));
    writeFileSync(join(evolveLockFor(p.db), 'owner'), `${child.pid} other`);
    expect(await p.run('SessionEnd')).toMatchObject({ ran: true, fresh: 2 });
  });

  it('an ownerless lock (its taker died before writing its pid) is left a few seconds, then taken over', async () => {
    const p = project();
    await p.observe(3);
    mkdirSync(evolveLockFor(p.db));
    expect(await p.run('SessionEnd')).toEqual({ ran: false, why: 'locked', fresh: 3 });
    const old = new Date(Date.now() - 2 * 3_600_000);
    utimesSync(evolveLockFor(p.db), old, old);
    expect(await p.run('SessionEnd')).toMatchObject({ ran: true, fresh: 3 });
    expect(existsSync(evolveLockFor(p.db))).toBe(false);
    expect(readdirSync(base).filter((name) => name.includes('.evolve.lock'))).toEqual([]);
  });

  it('a run past its time bound calls onTimeout once (the process ends there); one within, never', async () => {
    let called = 0;
    let finish: (value: string) => void = () => {};
    const slow = new Promise<string>((resolve) => {
      finish = resolve;
    });
    const bounded = boundInTime(slow, 1, () => {
      called += 1;
      finish('done');
    });
    expect(await bounded).toBe('done');
    expect(called).toBe(1);
    expect(await boundInTime(Promise.resolve('quick'), 60_000, () => (called += 1))).toBe('quick');
    expect(called).toBe(1);
  });
});
