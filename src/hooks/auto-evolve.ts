/**
 * @module hooks/auto-evolve
 * Learning by itself (issue 22 item 4): the learning process a Stop, SubagentStop or SessionEnd hands off to
 * runs `evolve` after the queue when enough observations arrived since its last run
 * ({@link AUTO_EVOLVE_DEFAULTS}: per session end, per stop). Never two at once: a lock folder `<db>.evolve.lock`
 * holding the owner's pid (a dead or stale owner's is taken over, an ownerless one after 5 s). Bounded in time:
 * past `timeoutMs` the process ends (writes are transactions, files placed together). Counts per scope in
 * `<db>.auto-evolve.json`. Off with `CREDENCE_AUTO_EVOLVE=0` or `"autoEvolve": false` in `.credence/observe.json`.
 */
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { prunedLine } from '../core/learning/observation-limits.js';
import type { Store } from '../store/types.js';
import { loadObserveConfig } from './ingest.js';
import type { HookEventName } from './payload.js';
import { breakAbandonedLock, localId, makeLock, processAlive } from './spool.js';

export const AUTO_EVOLVE_DEFAULTS = Object.freeze({
  /** New observations since the last automatic evolve that make a session end run it. @default 1 */
  sessionEndObservations: 1,
  /** New observations since the last automatic evolve that make a stop (or a subagent's) run it. @default 10 */
  stopObservations: 10,
  /** The learning process ends an evolve that runs longer (10k observations take ~0.6 s). @default 60 s */
  timeoutMs: 60_000,
  /** A lock older than the time bound and this margin is abandoned, whatever its pid says. @default 30 s */
  staleMarginMs: 30_000,
});

export const evolveLockFor = (db: string): string => `${db}.evolve.lock`;
export const evolveStateFor = (db: string): string => `${db}.auto-evolve.json`;

const OFF = new Set(['0', 'off', 'false', 'no']);

/** Whether automatic evolve is switched off, by the environment or by the project's observe.json (either). */
export function autoEvolveOff(env: NodeJS.ProcessEnv, root: string, report: (line: string) => void): boolean {
  if (OFF.has(env.CREDENCE_AUTO_EVOLVE?.trim().toLowerCase() ?? '')) return true;
  return !loadObserveConfig(root, report).autoEvolve;
}

/** The new observations that make `event` run evolve; undefined for an event that never does. */
export function autoEvolveThreshold(
  event: HookEventName,
  limits: Pick<typeof AUTO_EVOLVE_DEFAULTS, 'sessionEndObservations' | 'stopObservations'> = AUTO_EVOLVE_DEFAULTS,
): number | undefined {
  if (event === 'SessionEnd') return limits.sessionEndObservations;
  if (event === 'Stop' || event === 'SubagentStop') return limits.stopObservations;
  return undefined;
}

/**
 * Takes the evolve lock without waiting: the owner's token when taken, undefined when a live run
 * holds it. An abandoned lock (its process gone, or older than `staleMs`; one without an owner past a few
 * seconds) is moved away first, so that of two processes finding it abandoned one wins (spool, breakAbandonedLock).
 * The lock is placed with its owner in it (spool, makeLock): a stalled taker never writes into another's lock.
 */
export function takeEvolveLock(db: string, staleMs: number): string | undefined {
  const lock = evolveLockFor(db);
  const token = `${process.pid} ${localId()}`;
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const made = makeLock(lock, token);
    if (made === 'made') return token;
    if (made === 'failed') return undefined;
    if (breakAbandonedLock(lock, (pid, ageMs) => !processAlive(pid) || ageMs > staleMs) === 'held') return undefined;
  }
  return undefined;
}

/** Releases the lock while it is still `token`'s. */
export function releaseEvolveLock(db: string, token: string): void {
  const lock = evolveLockFor(db);
  try {
    if (readFileSync(join(lock, 'owner'), 'utf8') !== token) return;
    const away = `${lock}.done-${localId()}`;
    renameSync(lock, away);
    rmSync(away, { recursive: true, force: true });
  } catch {
    // Already gone.
  }
}

type EvolveState = Record<string, { observations: number; at: number }>;

function readState(db: string): EvolveState {
  try {
    const parsed = JSON.parse(readFileSync(evolveStateFor(db), 'utf8')) as unknown;
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as EvolveState) : {};
  } catch {
    return {};
  }
}

function writeState(db: string, state: EvolveState): void {
  const path = evolveStateFor(db);
  const temporary = `${path}.${localId()}`;
  writeFileSync(temporary, JSON.stringify(state), { mode: 0o600 });
  renameSync(temporary, path);
}

/** `run`'s outcome; `onTimeout` is called once if it has not settled within `ms` (the run goes on). */
export async function boundInTime<T>(run: Promise<T>, ms: number, onTimeout: () => void): Promise<T> {
  const timer = setTimeout(onTimeout, ms);
  timer.unref?.();
  try {
    return await run;
  } finally {
    clearTimeout(timer);
  }
}

export interface AutoEvolveContext {
  store: Store;
  scope: string;
  /** The event's cwd: the project whose folders evolve writes to. */
  cwd: string;
  now: number;
  env: NodeJS.ProcessEnv;
  /** The base of the hooks' files for the store (platform/paths, hookFilesBase): lock and counts go beside it. */
  db: string;
  event: HookEventName;
}

export type AutoEvolveOutcome =
  | { ran: false; why: 'not-this-event' | 'off' | 'too-few' | 'locked'; fresh?: number }
  | {
      ran: true;
      fresh: number;
      observations: number;
      instincts: number;
      skills: number;
      files: number;
    };

/**
 * Runs evolve for the event when it is on, enough observations are new since the last automatic run,
 * and no other run holds the lock. `onTimeout` is called when the run passes `timeoutMs` (the
 * learning process ends itself there); the run itself is not cancelled.
 */
export async function autoEvolve(
  ctx: AutoEvolveContext,
  report: (line: string) => void,
  options: { timeoutMs?: number; onTimeout?: () => void; limits?: Partial<typeof AUTO_EVOLVE_DEFAULTS> } = {},
): Promise<AutoEvolveOutcome> {
  const limits = { ...AUTO_EVOLVE_DEFAULTS, ...options.limits };
  const threshold = autoEvolveThreshold(ctx.event, limits);
  if (threshold === undefined) return { ran: false, why: 'not-this-event' };
  const { openCredence } = await import('../engine/engine.js');
  const credence = await openCredence({ store: ctx.store, scope: ctx.scope, now: ctx.now, cwd: ctx.cwd }, ctx.env);
  if (autoEvolveOff(ctx.env, credence.root, report)) return { ran: false, why: 'off' };
  const counted = async (): Promise<number> =>
    Object.values(await ctx.store.observationTypeCounts(ctx.scope)).reduce((a, b) => a + (b ?? 0), 0);
  const before = readState(ctx.db)[ctx.scope]?.observations ?? 0;
  const fresh = Math.max(0, (await counted()) - before);
  if (fresh < threshold) return { ran: false, why: 'too-few', fresh };
  const timeoutMs = options.timeoutMs ?? limits.timeoutMs;
  const token = takeEvolveLock(ctx.db, timeoutMs + limits.staleMarginMs);
  if (token === undefined) return { ran: false, why: 'locked', fresh };
  try {
    const r = await boundInTime(credence.evolve(), timeoutMs, () => {
      report(`evolve ran past ${timeoutMs} ms and was stopped: the next session end runs it again`);
      options.onTimeout?.();
    });
    // What its prune removed is said (in the learning log), as the CLI's evolve says it.
    const pruned = r.pruned === undefined ? undefined : prunedLine(r.pruned);
    if (pruned !== undefined) report(pruned);
    // Counted after the run: what evolve itself removed (pruning) is not new next time.
    writeState(ctx.db, { ...readState(ctx.db), [ctx.scope]: { observations: await counted(), at: ctx.now } });
    return {
      ran: true,
      fresh,
      observations: r.observations,
      instincts: r.newInstincts.length + r.updatedInstincts.length,
      skills: r.skillsUpdated.length,
      files: r.files.filter((f) => f.changed).length,
    };
  } finally {
    releaseEvolveLock(ctx.db, token);
  }
}
