import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import {
  breakAbandonedLock,
  drainSpool,
  setAsideDirFor,
  spoolDirFor,
  spooledEventProblem,
  spoolEvent,
  type SpooledEvent,
} from './spool.js';

// The spool's directory readings, passed through unless a test stands in for the next one.
const listing = vi.hoisted(() => ({ next: undefined as ((dir: string) => string[]) | undefined }));
// A full disk for the next file written: it is made, then the write fails (EFBIG), as under `ulimit -f 0`.
const disk = vi.hoisted(() => ({ full: false, stall: undefined as ((path: string) => void) | undefined }));
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const readdirSync = ((...args: Parameters<typeof fs.readdirSync>) => {
    const instead = listing.next;
    listing.next = undefined;
    return instead === undefined ? fs.readdirSync(...args) : instead(String(args[0]));
  }) as typeof fs.readdirSync;
  const writeFileSync = ((...args: Parameters<typeof fs.writeFileSync>) => {
    // A writer stalled before it writes: what others do meanwhile.
    const stall = disk.stall;
    disk.stall = undefined;
    stall?.(String(args[0]));
    if (!disk.full) return fs.writeFileSync(...args);
    disk.full = false;
    fs.writeFileSync(args[0], '');
    throw Object.assign(new Error('EFBIG: file too large, write'), { code: 'EFBIG' });
  }) as typeof fs.writeFileSync;
  return { ...fs, default: { ...fs, readdirSync, writeFileSync }, readdirSync, writeFileSync };
});

const dir = mkdtempSync(join(tmpdir(), 'credence-spool-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const event = (n: number): SpooledEvent => ({
  cwd: dir,
  session: 's',
  turn: 'current',
  kind: 'PostToolUse',
  at: n,
  payload: { n },
});

describe('the hook spool', () => {
  it('reads back in arrival order, each event with its file name as key, and empties', async () => {
    const db = join(dir, 'order.db');
    for (let i = 0; i < 30; i += 1) spoolEvent(db, event(i));
    let got: SpooledEvent[] = [];
    const r = await drainSpool(
      db,
      'me',
      async (events) => void (got = events),
      () => {},
    );
    expect(r).toEqual({ count: 30, locked: true });
    expect(got.map((e) => e.at)).toEqual(Array.from({ length: 30 }, (_, i) => i));
    expect(new Set(got.map((e) => e.key)).size).toBe(30);
    expect(readdirSync(spoolDirFor(db))).toEqual([]);
  });

  it("keeps one process's events in order when the wall clock steps back", async () => {
    const db = join(dir, 'clock.db');
    const times = [5_000, 5_000, 4_000, 3_999, 6_000, 2_000];
    const now = vi.spyOn(Date, 'now');
    try {
      for (const [i, t] of times.entries()) {
        now.mockReturnValue(t);
        spoolEvent(db, event(i));
      }
    } finally {
      now.mockRestore();
    }
    let got: SpooledEvent[] = [];
    await drainSpool(
      db,
      'me',
      async (events) => void (got = events),
      () => {},
    );
    expect(got.map((e) => e.at)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it("never takes a session's event without the one before it when the folder is read while hooks write", async () => {
    // A directory listing is no snapshot: ext4 reads a folder in hash order, so of two files added
    // while it is read, the listing can hold the second and miss the first (seen in CI: the
    // 8-writer test learned a session's calls out of order).
    const db = join(dir, 'listing.db');
    spoolEvent(db, event(0));
    listing.next = (spool) => {
      const before = readdirSync(spool);
      spoolEvent(db, event(1));
      const between = readdirSync(spool);
      spoolEvent(db, event(2));
      // The reading passed event 1's place before it was there, and event 2's after.
      return [...before, ...readdirSync(spool).filter((name) => !between.includes(name))];
    };
    const got: number[] = [];
    const take = async (events: SpooledEvent[]): Promise<void> => void got.push(...events.map((e) => e.at));
    await drainSpool(db, 'me', take, () => {});
    await drainSpool(db, 'me', take, () => {});
    expect(listing.next).toBeUndefined();
    expect(got).toEqual([0, 1, 2]);
    expect(readdirSync(spoolDirFor(db))).toEqual([]);
  });

  it('makes the folders of a new database several levels deep, user-only, for its first event', async () => {
    const db = join(dir, 'new', 'deeper', 'still', 'first.db');
    spoolEvent(db, event(7));
    expect(statSync(join(dir, 'new', 'deeper')).mode & 0o777).toBe(0o700);
    let got: SpooledEvent[] = [];
    await drainSpool(
      db,
      'me',
      async (events) => void (got = events),
      () => {},
    );
    expect(got.map((e) => e.at)).toEqual([7]);
  });

  it('says why when a folder of the spool cannot be made, and never loops', () => {
    writeFileSync(join(dir, 'a-file'), '');
    expect(() => spoolEvent(join(dir, 'a-file', 'x', 'y.db'), event(1))).toThrow(/ENOTDIR/);
    // Under /proc a recursive mkdir can spin forever on Node 20: made by hand, each level is tried once.
    if (process.platform === 'linux') expect(() => spoolEvent('/proc/self/no/such/x.db', event(1))).toThrow(/ENOENT/);
  });

  it('gives the files back when queuing fails', async () => {
    const db = join(dir, 'back.db');
    spoolEvent(db, event(1));
    await expect(
      drainSpool(
        db,
        'me',
        async () => Promise.reject(new Error('SQLITE_BUSY')),
        () => {},
      ),
    ).rejects.toThrow('SQLITE_BUSY');
    let got: SpooledEvent[] = [];
    await drainSpool(
      db,
      'again',
      async (events) => void (got = events),
      () => {},
    );
    expect(got.map((e) => e.at)).toEqual([1]);
  });

  it('sets aside, each said on one line, a file that is no event, and queues the others', async () => {
    const db = join(dir, 'poison.db');
    spoolEvent(db, event(1));
    const bad: Record<string, string> = {
      null: 'null',
      array: '[]',
      empty: '{}',
      'no-cwd': JSON.stringify({ ...event(2), cwd: undefined }),
      'bad-turn': JSON.stringify({ ...event(3), turn: 'later' }),
      // Before the session rule, the whole batch failed (NOT NULL hook_events.session_id) and every event went back.
      'no-session': JSON.stringify({ ...event(5), session: undefined }),
      'not-json': '{"cwd": ',
    };
    // Named to sort first: learning stalled on the first of them (its cwd made the scope lookup throw).
    const names = Object.keys(bad).map((k, i) => `0000000000000000${i}-00000001-000000001-${k}.json`);
    Object.values(bad).forEach((text, i) => writeFileSync(join(spoolDirFor(db), names[i] as string), text));
    spoolEvent(db, event(4));
    const lines: string[] = [];
    let got: SpooledEvent[] = [];
    const r = await drainSpool(
      db,
      'me',
      async (events) => void (got = events),
      (l) => lines.push(l),
    );
    expect(got.map((e) => e.at)).toEqual([1, 4]);
    expect(r.count).toBe(2);
    expect(readdirSync(spoolDirFor(db))).toEqual([]);
    const aside = setAsideDirFor(db);
    expect(readdirSync(aside).sort()).toEqual([...names].sort());
    Object.values(bad).forEach((text, i) => expect(readFileSync(join(aside, names[i] as string), 'utf8')).toBe(text));
    expect(lines).toHaveLength(names.length);
    const said = (k: string) => lines.find((l) => l.startsWith(`spooled file ${names[Object.keys(bad).indexOf(k)]} `));
    expect(said('null')).toContain('holds null, not an event: set aside as');
    expect(said('array')).toContain('holds an array, not an event');
    expect(said('empty')).toContain('has no cwd');
    expect(said('no-cwd')).toContain('has no cwd');
    expect(said('bad-turn')).toContain('has no turn');
    expect(said('no-session')).toContain('has no session');
    expect(said('not-json')).toContain('is not JSON');
    expect(said('null')).toContain(join(aside, names[0] as string));
    // Said before the others are queued (a busy database gives them back): it claims no learning.
    for (const line of lines) expect(line).toMatch(/; the other events are not held back by it$/);
  });

  it('names the first field that makes a spooled value no event, and takes a whole one', () => {
    const whole = { ...event(1), scope: 'sc' };
    expect(spooledEventProblem(whole)).toBeUndefined();
    expect(spooledEventProblem({ ...whole, scope: undefined, payload: null, turn: 3 })).toBeUndefined();
    const cases: [Record<string, unknown>, string][] = [
      [{ cwd: undefined }, 'has no cwd (a non-empty string)'],
      [{ cwd: '' }, 'has no cwd (a non-empty string)'],
      [{ scope: '' }, 'has a scope that is no non-empty string'],
      [{ scope: 7 }, 'has a scope that is no non-empty string'],
      [{ session: undefined }, 'has no session (a non-empty string)'],
      [{ session: '' }, 'has no session (a non-empty string)'],
      [{ session: 12 }, 'has no session (a non-empty string)'],
      [{ kind: undefined }, 'has no kind (a non-empty string)'],
      [{ kind: '' }, 'has no kind (a non-empty string)'],
      [{ turn: -1 }, "has no turn ('current', 'next' or a whole number from 0)"],
      [{ at: undefined }, 'has no time `at` (a finite number)'],
      [{ at: '5' }, 'has no time `at` (a finite number)'],
      [{ at: Number.NaN }, 'has no time `at` (a finite number)'],
      [{ at: Number.POSITIVE_INFINITY }, 'has no time `at` (a finite number)'],
      [{ payload: undefined }, 'has no payload'],
    ];
    for (const [change, problem] of cases)
      expect(spooledEventProblem({ ...whole, ...change }), JSON.stringify(change)).toBe(problem);
  });

  it('sets aside an event the queue refuses, and deletes the ones it queued', async () => {
    const db = join(dir, 'refused.db');
    spoolEvent(db, event(1));
    spoolEvent(db, event(2));
    const lines: string[] = [];
    let refusedKey = '';
    const r = await drainSpool(
      db,
      'me',
      async (events, refuse) => {
        refusedKey = events[0]?.key ?? '';
        refuse({ key: refusedKey, problem: 'has a cwd that gives no scope' });
      },
      (l) => lines.push(l),
    );
    expect(r.count).toBe(1);
    expect(readdirSync(spoolDirFor(db))).toEqual([]);
    expect(readdirSync(setAsideDirFor(db))).toEqual([refusedKey]);
    expect(lines).toEqual([expect.stringMatching(/^spooled file \S+ has a cwd that gives no scope: set aside as /)]);
  });

  it('takes over at once a lock whose process is gone, and leaves a live one alone', async () => {
    const db = join(dir, 'lock.db');
    spoolEvent(db, event(1));
    const lock = join(spoolDirFor(db), '.drain.lock');
    mkdirSync(lock);
    writeFileSync(join(lock, 'owner'), '2147483646 dead');
    let got = 0;
    expect(
      (
        await drainSpool(
          db,
          'me',
          async (events) => void (got = events.length),
          () => {},
          { waitMs: 0 },
        )
      ).locked,
    ).toBe(true);
    expect(got).toBe(1);
    spoolEvent(db, event(2));
    mkdirSync(lock);
    writeFileSync(join(lock, 'owner'), `${process.pid} someone-else`);
    expect(
      await drainSpool(
        db,
        'me',
        async () => {},
        () => {},
        { waitMs: 20 },
      ),
    ).toEqual({ count: 0, locked: false });
    rmSync(lock, { recursive: true });
  });

  it('takes over an ownerless lock (its taker died before writing its pid) past a few seconds', async () => {
    const db = join(dir, 'ownerless.db');
    spoolEvent(db, event(1));
    const lock = join(spoolDirFor(db), '.drain.lock');
    mkdirSync(lock);
    const drain = () =>
      drainSpool(
        db,
        'me',
        async () => {},
        () => {},
        { waitMs: 0 },
      );
    expect(await drain()).toEqual({ count: 0, locked: false });
    const old = new Date(Date.now() - 2 * 3_600_000);
    utimesSync(lock, old, old);
    expect(await drain()).toEqual({ count: 1, locked: true });
    expect(readdirSync(spoolDirFor(db))).toEqual([]);
    // An owner file cut short (no pid in it) is no owner either.
    mkdirSync(lock);
    writeFileSync(join(lock, 'owner'), '');
    utimesSync(lock, old, old);
    spoolEvent(db, event(2));
    expect(await drain()).toEqual({ count: 1, locked: true });
  });

  it('holds an ownerless lock whose mtime is ahead of the clock (a file server ahead): it is fresh', () => {
    const db = join(dir, 'ahead.db');
    spoolEvent(db, event(1));
    const lock = join(spoolDirFor(db), '.drain.lock');
    mkdirSync(lock);
    const ahead = new Date(Date.now() + 10_000);
    utimesSync(lock, ahead, ahead);
    expect(breakAbandonedLock(lock, () => true)).toBe('held');
    expect(statSync(lock).isDirectory()).toBe(true);
    rmSync(lock, { recursive: true });
  });

  it('of two takers of an abandoned lock, the slower one leaves the lock the quicker one made', () => {
    const db = join(dir, 'two-takers.db');
    spoolEvent(db, event(1));
    const lock = join(spoolDirFor(db), '.drain.lock');
    mkdirSync(lock);
    writeFileSync(join(lock, 'owner'), '2147483646 dead');
    // While this taker judges the dead owner's lock, another moves it away and takes the lock anew.
    const found = breakAbandonedLock(lock, () => {
      renameSync(lock, `${lock}.stale-other`);
      rmSync(`${lock}.stale-other`, { recursive: true });
      mkdirSync(lock);
      writeFileSync(join(lock, 'owner'), `${process.pid} quicker`);
      return true;
    });
    expect(found).toBe('gone');
    expect(readFileSync(join(lock, 'owner'), 'utf8')).toBe(`${process.pid} quicker`);
    expect(readdirSync(spoolDirFor(db)).filter((name) => name.startsWith('.drain.lock'))).toEqual(['.drain.lock']);
    expect(breakAbandonedLock(lock, () => false)).toBe('held');
    rmSync(lock, { recursive: true });
  });

  it('a taker stalled before writing its owner never writes into the lock another took meanwhile', async () => {
    const db = join(dir, 'stalled.db');
    spoolEvent(db, event(1));
    const lock = join(spoolDirFor(db), '.drain.lock');
    // Past the ownerless grace, another takes the lock over (as it would a folder left ownerless) and writes its owner.
    disk.stall = () => {
      rmSync(lock, { recursive: true, force: true });
      mkdirSync(lock);
      writeFileSync(join(lock, 'owner'), `${process.pid} other`);
    };
    const drained = await drainSpool(
      db,
      'me',
      async () => {},
      () => {},
      { waitMs: 20 },
    );
    expect(drained).toEqual({ count: 0, locked: false });
    expect(readFileSync(join(lock, 'owner'), 'utf8')).toBe(`${process.pid} other`);
    expect(readdirSync(spoolDirFor(db)).filter((name) => name.startsWith('.drain.lock'))).toEqual(['.drain.lock']);
    rmSync(lock, { recursive: true });
  });

  it('a drain lock whose owner cannot be written (a full disk) is not taken and leaves nothing behind', async () => {
    const db = join(dir, 'full-lock.db');
    spoolEvent(db, event(1));
    const drain = () =>
      drainSpool(
        db,
        'me',
        async () => {},
        () => {},
        { waitMs: 0 },
      );
    disk.full = true;
    expect(await drain()).toEqual({ count: 0, locked: false });
    expect(readdirSync(spoolDirFor(db)).filter((name) => name.startsWith('.drain.lock'))).toEqual([]);
    expect(await drain()).toEqual({ count: 1, locked: true });
  });

  it('leaves nothing of a write that fails (a full disk); a drain deletes what a killed writer left', async () => {
    const db = join(dir, 'full.db');
    spoolEvent(db, event(1));
    disk.full = true;
    expect(() => spoolEvent(db, event(2))).toThrow(/EFBIG/);
    const spool = spoolDirFor(db);
    expect(readdirSync(spool)).toHaveLength(1);
    // Left by writers killed between writing and renaming: an hour ago, and one being written now.
    const old = new Date(Date.now() - 3_600_000);
    const killed = '.01795847164457000-00018290-000000001-vsvutq.json';
    const writing = '.01795847165011000-00018315-000000001-7ytaje.json';
    writeFileSync(join(spool, killed), '');
    utimesSync(join(spool, killed), old, old);
    writeFileSync(join(spool, writing), '{');
    expect(
      await drainSpool(
        db,
        'me',
        async () => {},
        () => {},
      ),
    ).toEqual({ count: 1, locked: true });
    expect(readdirSync(spool)).toEqual([writing]);
  });
});
