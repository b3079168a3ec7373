/**
 * @module hooks/ingest
 * Learning from the hook queue, in arrival order, one session at a time: each turn's calls are appended to the
 * execution `cc-<session>-<turn>` (intent: the prompt's first line, ≤ 200 characters); consecutive calls teach
 * `sequence` edges, and a call reading a file an earlier call of the turn wrote teaches a `dependency` edge. The
 * observing rules (hooks/signals, `.credence/observe.json`) turn failures, test runs, commits and corrections into
 * observations; the session's observing state (and the project roots its calls ran in) is kept between runs. Events are
 * claimed before they are learned and deleted after, under a lease (hooks/lease): a claim its learner abandoned is
 * taken over at once, any other after a minute. Shown memories are followed (issue 24).
 */
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import {
  endRecallTurn,
  followRecallCall,
  followRecallPrompt,
  followRecallShown,
  recallFollowStateOf,
  type RecallDecision,
  type RecallFollowState,
} from '../core/outcome-follower.js';
import {
  bashExitCode,
  detectCorrection,
  filePathsOf,
  observationsFor,
  parseObserveConfig,
  type ObserveConfig,
  type ObservationDraft,
  type SessionObserveState,
} from './signals.js';
import type { CallInput } from '../core/types.js';
import { CredenceError } from '../core/errors.js';
import { aheadOfClock } from '../core/time.js';
import { SESSION_ID_KEPT, sessionLabel, sessionTag, turnIntent } from '../core/runs/session-label.js';
import { SESSION_ROOTS_KEPT, SESSION_ROOTS_STATE, sessionRootsOf } from '../engine/session-summary.js';
import { abandoned, dropLease, leasesOf, writeLease } from './lease.js';
import { isBusy, SHOWN_KIND } from './queue.js';
import type { CallRecord, HookEvent, Store } from '../store/types.js';

export interface IngestOptions {
  cwd: string;
  now: number;
  env: NodeJS.ProcessEnv;
  claimer: string;
  /** Only this session's events; all of the scope's without it. */
  session?: string;
  /** The session whose turn just ended (a Stop or SessionEnd): the memories its turn showed are decided. */
  endsTurnOf?: string;
  /** The database file whose spool keeps the learners' leases (hooks/lease); without it, no lease. */
  db?: string;
  /** Says so when another learner, still running, holds events of `session` (a SessionEnd). */
  sayHeld?: boolean;
  /** What messages call the clock `now` was read from (hooks/fast eventClock): this machine's, or CREDENCE_NOW's. */
  clockName?: string;
}

const STALE_CLAIM_MS = 60_000;

/** A call as the tool events queue it (hooks/claude-code `callEventOf`). */
interface QueuedCall {
  tool: string;
  status: 'success' | 'failure';
  /** JSON text, long strings cut so that it stays parseable. */
  input?: string;
  output?: string;
  error?: string;
  interrupted?: boolean;
  /** Read from the event before anything was cut (hooks/fast). */
  reads?: string[];
  writes?: string[];
  exitCode?: number;
  /** A test run's total coverage, read before the output was cut (hooks/fast). */
  coverage?: number;
  /** The root of the project the call ran in (the git top-level of its event's cwd), set when it is queued. */
  root?: string;
}

/** The roots a session's calls ran in, the newest first, after those kept before (each once, at most a few). */
export function sessionRoots(kept: readonly string[], calls: readonly QueuedCall[]): string[] {
  const seen = calls.flatMap((c) => (typeof c.root === 'string' && c.root !== '' ? [c.root] : []));
  return [...new Set([...seen.reverse(), ...kept])].slice(0, SESSION_ROOTS_KEPT);
}

const parsed = (text: string | undefined): unknown => {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

/** `.credence/observe.json` of the project, or the defaults; a broken file is reported and the defaults used. */
export function loadObserveConfig(root: string, report: (line: string) => void): ObserveConfig {
  const path = join(root, '.credence', 'observe.json');
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return parseObserveConfig({});
  }
  try {
    return parseObserveConfig(JSON.parse(text));
  } catch (error) {
    report(`${path}: ${(error as Error).message}; the default triggers are used`);
    return parseObserveConfig({});
  }
}

export { SESSION_ID_KEPT, sessionLabel };

/** A session id as an error names it: quoted, a long one cut, with its length. */
const namedSession = (session: string): string =>
  session.length <= 80
    ? JSON.stringify(session)
    : `${JSON.stringify(session.slice(0, 64))}… (${session.length} characters)`;

/** The run of a session's turn: `cc-<session>-<turn>`, the session as {@link sessionLabel} names it. */
export const turnRunId = (session: string, turn: number): string => `cc-${sessionLabel(session)}-${turn}`;

export async function ingest(
  store: Store,
  scope: string,
  options: IngestOptions,
  report: (line: string) => void,
): Promise<{ events: number; calls: number; observations: number }> {
  const held = new Map<number, HookEvent>();
  // The lease is dated when its last claim was made, given up or not: a takeover counts as stale only the claims up
  // to then, never a claim another learner made after (once this one's had gone stale).
  let claimedAt = 0;
  const lease = (givenUp: boolean, seqs: readonly number[]): void => {
    if (options.db === undefined) return;
    const sessions = [...new Set(seqs.map((seq) => held.get(seq)?.session ?? ''))].filter((x) => x !== '');
    if (!givenUp) claimedAt = Date.now();
    if (sessions.length === 0) dropLease(options.db, options.claimer);
    else {
      const base = { claimer: options.claimer, scope, sessions, pid: process.pid, host: hostname(), at: claimedAt };
      writeLease(options.db, givenUp ? { ...base, givenUp } : base);
    }
  };
  const done: number[] = [];
  let learning: string | undefined;
  let calls = 0;
  let observed = 0;
  try {
    // Each claim is leased as soon as it is made, so that a failure from here on leaves nothing unaccounted.
    await claimEvents(store, scope, options, (claimed) => {
      for (const e of claimed) held.set(e.seq, e);
      lease(false, [...held.keys()]);
    });
    if (options.sayHeld === true && options.session !== undefined) sayHeld(scope, options.session, options, report);
    // An event more than a day ahead of now (a transcript or a spool from a clock gone wrong) is dated now, as the live
    // hooks date theirs (fast eventTime): the engine refuses such a time, and a refused event stays queued, failing
    // every later learner on it (review G, item 1).
    const events = [...held.values()]
      .map((e) => (aheadOfClock(e.at, options.now) ? { ...e, at: options.now } : e))
      .sort((a, b) => a.seq - b.seq);
    if (events.length === 0) {
      if (options.endsTurnOf !== undefined) await endTurnAlone(store, scope, options.endsTurnOf, options, report);
      return { events: 0, calls: 0, observations: 0 };
    }
    const { namesWithClock, openCredence } = await import('../engine/engine.js');
    const credence = await openCredence(
      { store, scope, now: options.now, cwd: options.cwd },
      options.env,
      options.clockName === undefined ? undefined : namesWithClock(options.clockName),
    );
    const config = loadObserveConfig(credence.root, report);
    const bySession = new Map<string, HookEvent[]>();
    for (const e of events) bySession.set(e.session, [...(bySession.get(e.session) ?? []), e]);
    // A forgotten session (its tombstone, engine/forget): turns of it this spool still held, a teammate's live session
    // forgotten by another machine, are dropped, not learned; their keys stay, so the spool queued again is not either.
    for (const session of await store.forgottenSessions(scope, [...bySession.keys()])) {
      const seqs = (bySession.get(session) ?? []).map((e) => e.seq);
      await store.forgetHookSession(scope, session);
      done.push(...seqs);
      bySession.delete(session);
      report(
        `session_id ${namedSession(session)} was forgotten (credence forget): ` +
          `its ${seqs.length} spooled event${seqs.length === 1 ? '' : 's'} dropped, not learned`,
      );
    }
    for (const [session, list] of bySession) {
      learning = session;
      const stored = await store.hookSession(scope, session);
      let state = stored.state as SessionObserveState & { intents?: Record<string, string> };
      const intents: Record<string, string> = { ...(state.intents ?? {}) };
      let followed = recallFollowStateOf(stored.state[RECALL_STATE]);
      const decisions: RecallDecision[] = [];
      const otherSeqs: number[] = [];
      const turns = new Map<number, { at: number; calls: (QueuedCall & { at: number })[]; seqs: number[] }>();
      const promptSeqs: number[] = [];
      const sessionCalls: QueuedCall[] = [];
      const drafts: (ObservationDraft & { at: number })[] = [];
      const learnedIds: string[] = [];
      for (const e of list) {
        const payload = (e.payload ?? {}) as Record<string, unknown>;
        if (e.kind === 'prompt') {
          promptSeqs.push(e.seq);
          const prompt = typeof payload.prompt === 'string' ? payload.prompt : '';
          if (prompt.trim() !== '') intents[String(e.turn)] = turnIntent(prompt);
          const next = followRecallPrompt(followed, detectCorrection(prompt)?.text, e.at);
          followed = next.state;
          decisions.push(...next.decisions);
          const r = observationsFor({ kind: 'prompt', prompt }, state, config, e.at);
          drafts.push(...r.observations.map((o) => ({ ...o, at: e.at })));
          state = { ...r.nextState, intents };
        } else if (e.kind === 'PostToolUse' || e.kind === 'PostToolUseFailure') {
          const call = payload as unknown as QueuedCall;
          sessionCalls.push(call);
          followed = followRecallCall(followed, callText(call), call.status === 'success');
          const turn = turns.get(e.turn) ?? { at: e.at, calls: [], seqs: [] };
          turn.calls.push({ ...call, at: e.at });
          turn.seqs.push(e.seq);
          turns.set(e.turn, turn);
          const input = parsed(call.input);
          const exitCode =
            call.exitCode ??
            bashExitCode({ tool_response: parsed(call.output), error: call.error }, call.status === 'failure');
          const r = observationsFor(
            {
              kind: 'call',
              tool: call.tool,
              input,
              status: call.status,
              ...(call.error === undefined ? {} : { error: call.error }),
              ...(exitCode === undefined ? {} : { exitCode }),
              ...(call.interrupted === true ? { interrupted: true } : {}),
              ...(call.writes === undefined ? {} : { writes: call.writes }),
              ...(call.reads === undefined ? {} : { reads: call.reads }),
              ...(typeof call.coverage === 'number' ? { coverage: call.coverage } : {}),
            },
            state,
            config,
            e.at,
          );
          drafts.push(...r.observations.map((o) => ({ ...o, at: e.at })));
          state = { ...r.nextState, intents };
        } else {
          if (e.kind === SHOWN_KIND) followed = followRecallShown(followed, followedOf(payload));
          otherSeqs.push(e.seq);
        }
      }
      if (options.endsTurnOf === session) {
        const ended = endRecallTurn(followed, options.now);
        followed = ended.state;
        decisions.push(...ended.decisions);
      }
      // Observations and the session's state first: they can be derived again without harm (an
      // observation is stored once by its content), while the calls leave the queue with the last
      // write, so that a failure anywhere before it leaves every event to be learned next time.
      if (drafts.length > 0) {
        const report2 = await credence.observe(
          drafts.map(({ at, ...o }) => ({
            ...o,
            timestamp: new Date(at).toISOString(),
            // The session it came from: `forget <session>` takes only its own (engine/forget).
            tags: [...(o.tags ?? []), 'claude-code', sessionTag(session)],
          })),
        );
        observed += report2.inserted;
        learnedIds.push(...report2.ids);
      }
      // Keep the intents of the last few turns only.
      const recent = Object.fromEntries(
        Object.entries(intents)
          .sort((a, b) => Number(b[0]) - Number(a[0]))
          .slice(0, 5),
      );
      // The roots are kept where SessionStart looks for them: under the session as its run ids name it (a session
      // id too long for them has its roots under its label, apart from its state).
      const label = sessionLabel(session);
      const rootsState = label === session ? stored.state : (await store.hookSession(scope, label)).state;
      const roots = sessionRoots(sessionRootsOf(rootsState), sessionCalls);
      const kept = roots.length === 0 ? {} : { [SESSION_ROOTS_STATE]: roots };
      await store.setHookSessionState(
        scope,
        session,
        { ...state, intents: recent, [RECALL_STATE]: followed, ...(label === session ? kept : {}) },
        options.now,
      );
      if (label !== session && roots.length > 0)
        await store.setHookSessionState(scope, label, { ...rootsState, ...kept }, options.now);
      await recordDecisions(credence, decisions, report);
      const ordered = [...turns].sort((a, b) => a[0] - b[0]);
      for (const [k, [turn, t]] of ordered.entries()) {
        const dequeue = k === ordered.length - 1 ? [...t.seqs, ...promptSeqs, ...otherSeqs] : t.seqs;
        await credence.appendCalls(
          {
            id: turnRunId(session, turn),
            intent: intents[String(turn)] ?? `Claude Code session ${sessionLabel(session)}`,
            startedAt: t.at,
          },
          (before: readonly CallRecord[]) => withDependencies(before, t.calls),
          // They leave the queue in the same transaction: never appended twice, never lost.
          { dequeue },
        );
        done.push(...dequeue);
        calls += t.calls.length;
      }
      if (ordered.length === 0) {
        await store.deleteHookEvents(scope, [...promptSeqs, ...otherSeqs]);
        done.push(...promptSeqs, ...otherSeqs);
      }
      // A forget that landed while this learned the session (its tombstone was read once, before): read again after
      // the last write, so that a forget after this read finds every write (engine/forget reads after its tombstone),
      // and one before it has them forgotten here (review D).
      if ((await store.forgottenSessions(scope, [session])).length > 0)
        await forgetWhileLearned(credence, session, learnedIds, report);
    }
    learning = undefined;
    lease(false, []);
    return { events: events.length, calls, observations: observed };
  } catch (error) {
    // Which session could not be learned (a busy database is said as it is: the hooks read it so).
    if (learning !== undefined && error instanceof Error && !isBusy(error))
      error.message = `session_id ${namedSession(learning)}: ${error.message}`;
    // What was not learned goes back to the queue for the next invocation; when even that is refused,
    // the lease says the claim is given up, and the next learner takes it over.
    const left = [...held.keys()].filter((seq) => !done.includes(seq));
    try {
      if (left.length > 0) await store.releaseHookEvents(scope, left);
      lease(false, []);
    } catch {
      lease(true, left);
    }
    throw error;
  }
}

/**
 * Claims the queued events not held by another learner (nor by one whose claim is older than a
 * minute), then takes over the sessions of abandoned leases: with the claims up to the lease's time
 * counted as stale, which are the abandoned learner's own (a session is held by one learner at a time).
 */
async function claimEvents(
  store: Store,
  scope: string,
  options: IngestOptions,
  hold: (claimed: HookEvent[]) => void,
): Promise<void> {
  // By the clock, as claims are stamped: `now` is the events' time, which a replay (CREDENCE_NOW) fixes in the past.
  hold(await store.claimHookEvents(scope, options.claimer, Date.now() - STALE_CLAIM_MS, options.session));
  if (options.db === undefined) return;
  for (const lease of leasesOf(options.db, scope, options.claimer)) {
    // A claim made now must count as newer than the lease's own: not within the lease's millisecond.
    if (!abandoned(lease) || !(await clockPast(lease.at))) continue;
    const taken = lease.sessions.filter((s) => options.session === undefined || s === options.session);
    for (const session of taken) hold(await store.claimHookEvents(scope, options.claimer, lease.at + 1, session));
    const rest = lease.sessions.filter((s) => !taken.includes(s));
    if (rest.length === 0) dropLease(options.db, lease.claimer);
    else if (taken.length > 0) writeLease(options.db, { ...lease, sessions: rest });
  }
}

/** Waits for the clock to pass `at` (a millisecond or two at most); false when it is further behind (set back). */
async function clockPast(at: number): Promise<boolean> {
  if (at - Date.now() > 2) return false;
  while (Date.now() <= at) await new Promise((resolve) => setImmediate(resolve));
  return true;
}

/** Says which running learner holds events of the session: they are learned when it is done. */
function sayHeld(scope: string, session: string, options: IngestOptions, report: (line: string) => void): void {
  if (options.db === undefined) return;
  for (const lease of leasesOf(options.db, scope, options.claimer)) {
    if (!lease.sessions.includes(session) || abandoned(lease)) continue;
    report(
      `events of session ${session} are being learned by process ${lease.pid} (claimed at ` +
        `${new Date(lease.at).toISOString()}): it learns them, or the next hook does if it stops`,
    );
  }
}

/**
 * What a learner wrote of a session forgotten while it learned it goes, as `forget <session>` takes it (its runs, the
 * hooks' state, the observations of its calls, its prompts' shown words), with the corrections it learned from its
 * prompts: learned after the forget, they were never named as left, and a teammate's machine that saw the tombstone
 * first learns none.
 */
async function forgetWhileLearned(
  credence: { forget(id: string): Promise<unknown> },
  session: string,
  learned: readonly string[],
  report: (line: string) => void,
): Promise<void> {
  for (const id of [session, ...learned]) {
    try {
      await credence.forget(id);
    } catch (error) {
      // Gone already (the forget took it, or the session's forget took an observation of its calls).
      if (!(error instanceof CredenceError) || error.code !== 'NOT_FOUND') throw error;
    }
  }
  report(
    `session_id ${namedSession(session)} was forgotten (credence forget) while this learned it: ` +
      'what this learned of it is forgotten too',
  );
}

/** Where a session's state keeps the memories followed (core/outcome-follower). */
const RECALL_STATE = 'recallFollow';

const followedOf = (payload: Record<string, unknown>): { shownId: string; identifiers: string[] }[] =>
  recallFollowStateOf({ open: payload.followed }).open;

/** What of a call can name a memory's identifier: its tool's name, the strings of its input, the paths it touched. */
function callText(call: QueuedCall): string {
  const strings: string[] = [call.tool, ...(call.reads ?? []), ...(call.writes ?? [])];
  const walk = (v: unknown, depth: number): void => {
    if (typeof v === 'string') strings.push(v);
    else if (depth < 8 && typeof v === 'object' && v !== null) for (const x of Object.values(v)) walk(x, depth + 1);
  };
  walk(parsed(call.input), 0);
  return strings.join('\n');
}

/** The outcomes decided, in order (a later one on a shown id replaces one before); one that fails is reported. */
async function recordDecisions(
  credence: {
    recordOutcome(id: string, outcome: RecallDecision['outcome'], o: { at: number; inferred: true }): Promise<unknown>;
  },
  decisions: readonly RecallDecision[],
  report: (line: string) => void,
): Promise<void> {
  for (const d of decisions) {
    try {
      await credence.recordOutcome(d.shownId, d.outcome, { at: d.at, inferred: true });
    } catch (error) {
      report(`the outcome of shown memory ${d.shownId} was not recorded: ${(error as Error).message}`);
    }
  }
}

/** A turn that ended with nothing new queued: the memories it showed, followed before, are decided now. */
async function endTurnAlone(
  store: Store,
  scope: string,
  session: string,
  options: IngestOptions,
  report: (line: string) => void,
): Promise<void> {
  const stored = await store.hookSession(scope, session);
  const followed: RecallFollowState = recallFollowStateOf(stored.state[RECALL_STATE]);
  if (followed.open.length === 0) return;
  const ended = endRecallTurn(followed, options.now);
  await store.setHookSessionState(scope, session, { ...stored.state, [RECALL_STATE]: ended.state }, options.now);
  const { openCredence } = await import('../engine/engine.js');
  const credence = await openCredence({ store, scope, now: options.now, cwd: options.cwd }, options.env);
  await recordDecisions(credence, ended.decisions, report);
}

/**
 * The new calls as CallInputs: each that reads a path consumes the latest earlier call of the turn
 * (stored or new) that wrote it.
 */
export function withDependencies(
  before: readonly CallRecord[],
  calls: readonly (QueuedCall & { at: number })[],
): CallInput[] {
  const writer = new Map<string, number>();
  before.forEach((c, i) => {
    if (c.status !== 'failure') for (const w of filePathsOf(c.tool, parsed(c.input)).writes) writer.set(w, i);
  });
  return calls.map((c, k) => {
    const index = before.length + k;
    const paths =
      c.reads !== undefined || c.writes !== undefined
        ? { reads: c.reads ?? [], writes: c.writes ?? [] }
        : filePathsOf(c.tool, parsed(c.input));
    const consumes = [
      ...new Set(paths.reads.map((r) => writer.get(r)).filter((i): i is number => i !== undefined)),
    ].sort((a, b) => a - b);
    // A failed write changed nothing.
    if (c.status === 'success') for (const w of paths.writes) writer.set(w, index);
    return {
      tool: c.tool,
      status: c.status,
      at: c.at,
      ...(consumes.length === 0 ? {} : { consumes }),
      ...(c.input === undefined ? {} : { input: c.input }),
      ...(c.output === undefined ? {} : { output: c.output }),
    };
  });
}
