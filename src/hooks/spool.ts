/**
 * @module hooks/spool
 * The hooks' first stop on disk: `<db>.hook-spool/`, one small JSON file an event, written under a
 * dot-name and renamed (never half read), named by microsecond time (arrival order). Tool events only
 * ever go here (no database, no lock: the agent never waits), as does any event meeting a busy database.
 * Draining: one drainer at a time (`.drain.lock` by mkdir, stale after `STALE_LOCK_MS`, ownerless after 5 s),
 * which lists until stable (`spoolListing`), claims files by rename, queues them in one transaction in name order,
 * then deletes them (renames back on failure); a dead drainer's claims are retaken after a minute, a file queued
 * twice is learned once, one that is no event is set aside (`<db>.hook-set-aside/`). Scrubbed, user-only files.
 */
import {
  type BigIntStats,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { CLAIMED, originalOf, spoolDirFor } from '../platform/hook-spool.js';

export { forgetSpooledSession, spoolDirFor } from '../platform/hook-spool.js';

/** An event on its way to the queue; its scope is worked out from `cwd` when it is queued. */
export interface SpooledEvent {
  /** The spool file's name, set when it is read back: the event's idempotency key in the queue. */
  key?: string;
  cwd: string;
  /** CREDENCE_SCOPE of the hook process, when it was set. */
  scope?: string;
  session: string;
  /** `next` for a prompt (it starts a turn), `current` for a call: resolved when it is queued. */
  turn: number | 'current' | 'next';
  kind: string;
  at: number;
  payload: unknown;
}

/** Where a spooled file that is no event is moved, under its own name (never deleted unread): beside the spool. */
export const setAsideDirFor = (db: string): string => `${db}.hook-set-aside`;

/** An event the queue would not take (its `key`), and why: it is set aside, and the others are queued. */
export interface RefusedEvent {
  key?: string;
  problem: string;
}

const nonEmpty = (v: unknown): boolean => typeof v === 'string' && v !== '';
const isTurn = (v: unknown): boolean =>
  v === 'current' || v === 'next' || (Number.isInteger(v) && (v as number) >= 0 && (v as number) < 2 ** 31);

/** What makes a spooled file's JSON no event (the first thing wrong), or undefined for an event. */
export function spooledEventProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return `holds ${value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`}, not an event`;
  const e = value as Record<string, unknown>;
  if (!nonEmpty(e.cwd)) return 'has no cwd (a non-empty string)';
  if (e.scope !== undefined && !nonEmpty(e.scope)) return 'has a scope that is no non-empty string';
  if (!nonEmpty(e.session)) return 'has no session (a non-empty string)';
  if (!nonEmpty(e.kind)) return 'has no kind (a non-empty string)';
  if (!isTurn(e.turn)) return "has no turn ('current', 'next' or a whole number from 0)";
  if (typeof e.at !== 'number' || !Number.isFinite(e.at)) return 'has no time `at` (a finite number)';
  if (e.payload === undefined) return 'has no payload';
  return undefined;
}

const LOCK = '.drain.lock';
const STALE_LOCK_MS = 30_000;
const ABANDONED_AFTER_MS = 60_000;
let written = 0;

let lastMicros = 0;

/**
 * A name that sorts in arrival order across processes, then unique: the epoch time in microseconds
 * (the clock's milliseconds × 1000: `performance` would load the perf_hooks modules, most of a
 * millisecond of a hook, and hooks that run one after another are always more than a millisecond
 * apart), the pid, a counter within the process. Within a process the time never goes back, even
 * when the wall clock does (a clock stepped back would otherwise sort a later event first).
 */
function stamp(): string {
  const micros = Math.max(Date.now() * 1000, lastMicros + 1);
  lastMicros = micros;
  written += 1;
  return (
    `${String(micros).padStart(17, '0')}-${String(process.pid).padStart(8, '0')}-` +
    `${String(written).padStart(9, '0')}-${Math.random().toString(36).slice(2, 8)}`
  );
}

/**
 * A folder and the folders above it that are missing (a new CREDENCE_DB several folders deep), made one level at a
 * time by hand: a recursive mkdir can spin forever under /proc on Node 20. Each level is tried once.
 */
function ensureDir(dir: string): void {
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return;
    if (code !== 'ENOENT' || dirname(dir) === dir) throw error;
    ensureDir(dirname(dir));
    try {
      mkdirSync(dir, { mode: 0o700 });
    } catch (again) {
      // Another hook made it in between.
      if ((again as NodeJS.ErrnoException).code !== 'EEXIST') throw again;
    }
  }
}

export function spoolEvent(db: string, event: SpooledEvent): void {
  const dir = spoolDirFor(db);
  ensureDir(dir);
  const name = `${stamp()}.json`;
  const temporary = join(dir, `.${name}`);
  try {
    writeFileSync(temporary, JSON.stringify(event), { encoding: 'utf8', mode: 0o600 });
    renameSync(temporary, join(dir, name));
  } catch (error) {
    // A write cut short (a full disk) leaves no part of the event behind.
    rmSync(temporary, { force: true });
    throw error;
  }
}

/** An event's file while it is written: a dot, then the name it is renamed to. */
const WRITING = /^\.\d{17}-\d{8}-\d{9}-[0-9a-z]*\.json$/;

/** Deletes what writers left under a dot-name more than a minute ago (killed between writing and renaming). */
function sweepUnfinished(dir: string): void {
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => WRITING.test(name));
  } catch {
    return;
  }
  for (const name of names) {
    try {
      if (Date.now() - statSync(join(dir, name)).mtimeMs > ABANDONED_AFTER_MS) unlinkSync(join(dir, name));
    } catch {
      // Gone, or renamed into place meanwhile.
    }
  }
}

/** Whether the spool holds an event, claimed or not (a file not under a dot-name); false when there is no spool. */
export function spoolHasEvents(db: string): boolean {
  try {
    return readdirSync(spoolDirFor(db)).some((name) => !name.startsWith('.'));
  } catch {
    return false;
  }
}

/**
 * Drains the spool when the drain lock can be had within `waitMs`, and deletes what writers left
 * unfinished. `locked: false` means another drainer kept it: the spool was left alone (and a caller
 * with an event of its own should spool it too, so that it stays behind the events before it). The
 * events are claimed and handed to `queue` in arrival order, and deleted once it has resolved (given
 * back when it throws); a file that is no event, or an event `queue` refuses (by `refuse`), is set
 * aside, with one `report` line each.
 */
export async function drainSpool(
  db: string,
  claimer: string,
  queue: (events: SpooledEvent[], refuse: (event: RefusedEvent) => void) => Promise<void>,
  report: (line: string) => void,
  options: { waitMs?: number } = {},
): Promise<{ count: number; locked: boolean }> {
  const dir = spoolDirFor(db);
  if (!existsSync(dir)) return { count: 0, locked: true };
  const lock = join(dir, LOCK);
  if (!(await takeLock(lock, claimer, options.waitMs ?? 2_000))) return { count: 0, locked: false };
  try {
    return { count: await drainLocked(db, claimer, queue, report), locked: true };
  } finally {
    sweepUnfinished(dir);
    releaseLock(lock, claimer);
  }
}

/** Whether a process of this pid is alive (one owned by another user counts). */
export const processAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** An ownerless lock folder (made by mkdir, then its owner file, as earlier versions did) this young is being taken. */
export const OWNERLESS_GRACE_MS = 5_000;

/** A lock folder's pid, from its `owner` file: undefined when there is none, or it names no pid (cut short). */
function ownerPid(lock: string): number | undefined {
  try {
    const pid = Number(readFileSync(join(lock, 'owner'), 'utf8').split(' ')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Looks at a lock folder another process made: `held`, `gone` (look again), or `taken` (it was abandoned and is
 * moved away: make it anew). `abandoned(pid, ageMs)` judges one with an owner; one without (its taker died between
 * mkdir and writing `owner`) is abandoned once its mtime is {@link OWNERLESS_GRACE_MS} old. Two takers at once:
 * each renames it to a name of its own, and only what is still the folder judged (same inode and times) is
 * deleted; a lock a quicker taker made in between is put back.
 */
export function breakAbandonedLock(lock: string, abandoned: (pid: number, ageMs: number) => boolean) {
  let seen: BigIntStats;
  try {
    seen = statSync(lock, { bigint: true });
  } catch {
    return 'gone';
  }
  const pid = ownerPid(lock);
  // A future mtime (a file server's clock ahead) is fresh, not stale: an ownerless lock is held until it ages.
  const age = Date.now() - Number(seen.mtimeMs);
  if (pid === undefined ? age <= OWNERLESS_GRACE_MS : !abandoned(pid, age)) return 'held';
  const away = `${lock}.stale-${localId()}`;
  try {
    renameSync(lock, away);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'gone' : 'held';
  }
  let moved: BigIntStats | undefined;
  try {
    moved = statSync(away, { bigint: true });
  } catch {
    moved = undefined;
  }
  const same = (a: BigIntStats, b: BigIntStats): boolean =>
    a.dev === b.dev && a.ino === b.ino && a.mtimeNs === b.mtimeNs && a.birthtimeNs === b.birthtimeNs;
  if (moved !== undefined && same(moved, seen)) {
    rmSync(away, { recursive: true, force: true });
    return 'taken';
  }
  // Put back by a rename, which never replaces a lock holding its owner (every lock is placed with it, makeLock):
  // no look first (a lock placed between a look and the rename would be replaced). A third taker may place its
  // lock in the two system calls between moving away and putting back: then the put-back fails, the moved lock
  // is removed and its holder finds it gone at release. Harmless: two drainers each claim a spooled file by
  // rename (one gets it) and a file queued twice is learned once; two evolves write in transactions.
  try {
    renameSync(away, lock);
  } catch {
    rmSync(away, { recursive: true, force: true });
  }
  return 'gone';
}

async function takeLock(lock: string, claimer: string, waitMs: number): Promise<boolean> {
  const until = Date.now() + waitMs;
  for (let looks = 0; ; looks += 1) {
    const made = makeLock(lock, `${process.pid} ${claimer}`);
    if (made === 'made') return true;
    const found =
      made === 'failed'
        ? 'held'
        : breakAbandonedLock(lock, (pid, ageMs) => !processAlive(pid) || ageMs > STALE_LOCK_MS);
    if (found === 'taken' || (found === 'gone' && looks < 100)) continue;
    if (Date.now() >= until) return false;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * Makes a lock folder with its `owner` already in it: built under a name of its own, then renamed into place, so
 * a taker never writes into a folder it did not make (one stalled between mkdir and its owner write would land it
 * in the lock of whoever took over meanwhile: two holders). A rename never replaces a lock holding its owner (not
 * empty), and the folder in place must then be the one made (inode) with this owner, else the taker backs off.
 * `made`; `exists` (another holds it: judge it); `failed` (the owner could not be written, a full disk: the own
 * folder is removed again, never left behind).
 */
export function makeLock(lock: string, owner: string): 'made' | 'exists' | 'failed' {
  const own = `${lock}.new-${localId()}`;
  let made: BigIntStats;
  try {
    mkdirSync(own, { mode: 0o700 });
  } catch {
    return 'failed';
  }
  let written = false;
  try {
    writeFileSync(join(own, 'owner'), owner, { mode: 0o600 });
    written = true;
    made = statSync(own, { bigint: true });
    // A rename would replace an empty folder: an ownerless lock (an earlier version's, mkdir then owner) is judged.
    if (existsSync(lock)) throw Object.assign(new Error('lock exists'), { code: 'EEXIST' });
    renameSync(own, lock);
  } catch (error) {
    rmSync(own, { recursive: true, force: true });
    const code = (error as NodeJS.ErrnoException).code;
    return written && (code === 'ENOTEMPTY' || code === 'EEXIST' || code === 'EPERM') ? 'exists' : 'failed';
  }
  try {
    const now = statSync(lock, { bigint: true });
    if (now.dev === made.dev && now.ino === made.ino && readFileSync(join(lock, 'owner'), 'utf8') === owner) {
      return 'made';
    }
  } catch {
    // Moved away already: not this taker's.
  }
  return 'exists';
}

/** Removes the lock only while it is still this drainer's (a takeover left it to another). */
function releaseLock(lock: string, claimer: string): void {
  try {
    if (readFileSync(join(lock, 'owner'), 'utf8') !== `${process.pid} ${claimer}`) return;
    const away = `${lock}.done-${claimer}`;
    renameSync(lock, away);
    rmSync(away, { recursive: true, force: true });
  } catch {
    // Already gone.
  }
}

/** How many times the spool is read again at most before a drain takes what it has. */
const MAX_READINGS = 10;

/**
 * The spool's files to take, in name order. A directory listing is no snapshot: a file added while
 * the folder is read may be in it or not (ext4 reads a folder in hash order), so one reading taken
 * while a session's hooks write can hold an event of the session and miss the one just before it,
 * and the later event would be queued (and learned) first. So the folder is read again, and what
 * sorts before the last name of the first reading and is new is taken too, until a reading adds
 * nothing: that reading began after every file taken was in place, and so after every event
 * written before any of them (hooks of one session run one after another, in name order).
 */
function spoolListing(dir: string): string[] {
  const visible = (): string[] => readdirSync(dir).filter((name) => !name.startsWith('.'));
  const taken = new Set(visible());
  if (taken.size === 0) return [];
  let last = '';
  for (const name of taken) if (originalOf(name) > last) last = originalOf(name);
  for (let reading = 1; reading < MAX_READINGS; reading += 1) {
    const added = visible().filter((name) => !taken.has(name) && originalOf(name) < last);
    if (added.length === 0) break;
    for (const name of added) taken.add(name);
  }
  return [...taken].sort();
}

/** Moves a claimed file that is no event aside, under its first name, and says so (or why it stays). */
function setAside(db: string, claimed: { original: string; path: string }, problem: string, say: (l: string) => void) {
  const where = join(setAsideDirFor(db), claimed.original);
  try {
    ensureDir(setAsideDirFor(db));
    renameSync(claimed.path, where);
    say(`spooled file ${claimed.original} ${problem}: set aside as ${where}; the other events are not held back by it`);
  } catch (error) {
    say(
      `spooled file ${claimed.original} ${problem}; it could not be set aside (${(error as Error).message}) ` +
        `and stays as ${claimed.path}; the other events are not held back by it`,
    );
  }
}

async function drainLocked(
  db: string,
  claimer: string,
  queue: (events: SpooledEvent[], refuse: (event: RefusedEvent) => void) => Promise<void>,
  report: (line: string) => void,
): Promise<number> {
  const dir = spoolDirFor(db);
  let names: string[];
  try {
    names = spoolListing(dir);
  } catch {
    return 0;
  }
  const claimed: { original: string; path: string }[] = [];
  for (const name of names) {
    const at = name.indexOf(CLAIMED);
    const original = originalOf(name);
    if (at >= 0) {
      try {
        if (Date.now() - statSync(join(dir, name)).mtimeMs < ABANDONED_AFTER_MS) continue;
      } catch {
        continue;
      }
    }
    const path = join(dir, `${original}${CLAIMED}${claimer}`);
    try {
      renameSync(join(dir, name), path);
      claimed.push({ original, path });
    } catch {
      // Another drainer claimed it first.
    }
  }
  if (claimed.length === 0) return 0;
  claimed.sort((a, b) => (a.original < b.original ? -1 : 1));
  const events: SpooledEvent[] = [];
  const taken: typeof claimed = [];
  for (const c of claimed) {
    let text: string;
    let value: unknown;
    try {
      text = readFileSync(c.path, 'utf8');
    } catch (error) {
      report(`spooled file ${c.original} cannot be read (${(error as Error).message}): left as ${c.path}`);
      continue;
    }
    try {
      value = JSON.parse(text);
    } catch (error) {
      setAside(db, c, `is not JSON (${(error as Error).message})`, report);
      continue;
    }
    const problem = spooledEventProblem(value);
    if (problem !== undefined) {
      setAside(db, c, problem, report);
      continue;
    }
    events.push({ ...(value as SpooledEvent), key: c.original });
    taken.push(c);
  }
  const refused: RefusedEvent[] = [];
  try {
    if (events.length > 0) await queue(events, (r) => void refused.push(r));
  } catch (error) {
    for (const c of taken) {
      try {
        renameSync(c.path, join(dir, c.original));
      } catch {
        // Left claimed: taken again once abandoned.
      }
    }
    throw error;
  }
  const why = new Map(refused.map((r) => [r.key, r.problem]));
  let queued = 0;
  for (const c of taken) {
    const problem = why.get(c.original);
    if (problem !== undefined) {
      setAside(db, c, problem, report);
      continue;
    }
    queued += 1;
    try {
      unlinkSync(c.path);
    } catch {
      // Already gone.
    }
  }
  return queued;
}

/**
 * A unique enough id for a claim or a shown record, without node:crypto (which costs a hook more to
 * load than everything else it does): 64 random bits first (a shown id keeps the first 16 hex
 * digits), then the time and the process.
 */
export function localId(): string {
  const random = () =>
    Math.floor(Math.random() * 0x100000000)
      .toString(16)
      .padStart(8, '0');
  return `${random()}${random()}${Date.now().toString(16)}${process.pid.toString(16)}`;
}
