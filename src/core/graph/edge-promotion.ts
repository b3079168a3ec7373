/**
 * @module core/graph/edge-promotion
 * How an edge's source and counters change as executions confirm it: seed 000 ("Promotion Rules"), SPEC §3.
 *     template ── seen in an execution ──→ inferred (count 1) ── count ≥ 3 ──→ observed
 * `count` counts executions in which the edge was seen succeeding: call {@link observeEdge} once per
 * execution (the caller de-duplicates). A `partial` call counts; a `failure` only adds to `failures`.
 * A source never moves backwards.
 */

import { CredenceError } from '../errors.js';
import { CALL_STATUSES, EDGE_SOURCES } from '../types.js';
import type { CallStatus, EdgeSource } from '../types.js';
import { requireCount, requireFinite } from '../validate.js';

export const PROMOTION_DEFAULTS = Object.freeze({
  /** Count at which an edge becomes `observed` (seed 000: "Confirmed by 3+ executions"). */
  observedAtCount: 3,
});

export interface PromotionOptions {
  /**
   * Count at which an edge becomes `observed`; an integer ≥ 1.
   * @default 3
   */
  readonly observedAtCount?: number;
}

/** What is learned about one edge (from, to, type are the caller's key). */
export interface EdgeState {
  readonly source: EdgeSource;
  /** Executions in which the edge was seen succeeding (success or partial). */
  readonly count: number;
  readonly successes: number;
  readonly failures: number;
  /** Epoch ms of the first execution that saw the edge, succeeding or failing; null if never seen. */
  readonly firstSeen: number | null;
  /** Epoch ms of the latest execution that confirmed the edge (success or partial); null if never. */
  readonly lastSeen: number | null;
  /** Declared by a user: it stays declared (a template) when forgetting runs leaves it no success. */
  readonly declared?: true;
}

/** One execution in which the edge was seen. */
export interface EdgeEvent {
  readonly status: CallStatus;
  /** Epoch ms of the call (or of the ingest when the call has no time). */
  readonly at: number;
  /**
   * A success of an execution that had counted the edge as a failure (an earlier append of it saw only failures):
   * that failure is taken back (`failures` - 1, never below 0) as the success is counted.
   */
  readonly replacesFailure?: boolean;
}

/** A template edge declared by hand and not yet seen: source template, all counters 0, dates null. */
export function templateEdge(): EdgeState {
  return { source: 'template', count: 0, successes: 0, failures: 0, firstSeen: null, lastSeen: null };
}

/**
 * Whether an edge has been confirmed: it succeeded at least once, or a user declared it. An edge
 * created by a failure alone (`inferred`, count 0, lastSeen null) is **unconfirmed**: it records that
 * the pair was tried, but it should not be used as an inferred edge until a success confirms it.
 */
export function isConfirmed(state: EdgeState): boolean {
  return state.count >= 1 || state.source === 'template';
}

/**
 * The source an edge with `count` successful executions has, given its current `source`: `observed`
 * from `observedAtCount`, at least `inferred` from count 1, and never lower than `source`.
 */
export function promotedSource(source: EdgeSource, count: number, options: PromotionOptions = {}): EdgeSource {
  const { observedAtCount } = resolvePromotionOptions(options);
  requireSource(source);
  requireCount('count', count);
  const earned: EdgeSource = count >= observedAtCount ? 'observed' : count >= 1 ? 'inferred' : 'template';
  return rank(earned) > rank(source) ? earned : source;
}

/**
 * The edge's state after one more execution in which it was seen. `state` undefined means the edge
 * does not exist yet. Returns a new object; `state` is not touched.
 *
 * - success / partial: count + 1, successes + 1, lastSeen = the latest confirmation time, firstSeen
 *   set if null (kept at the earliest time), source promoted (see {@link promotedSource}).
 *   With `replacesFailure`, failures - 1 as well (the execution's earlier failure becomes this success).
 * - failure: failures + 1 only. On a missing edge it creates an unconfirmed edge
 *   `{ source: 'inferred', count: 0, successes: 0, failures: 1, firstSeen: at, lastSeen: null }`.
 *
 * Events given out of time order are tolerated: `lastSeen` never moves back and `firstSeen` never
 * moves forward.
 * @throws CredenceError INVALID_INPUT for an unknown status, a non-finite time, or a malformed state.
 */
export function observeEdge(state: EdgeState | undefined, event: EdgeEvent, options: PromotionOptions = {}): EdgeState {
  const resolved = resolvePromotionOptions(options);
  if (!(CALL_STATUSES as readonly string[]).includes(event.status)) {
    throw new CredenceError(
      'INVALID_INPUT',
      `event status must be one of ${CALL_STATUSES.join(', ')}, got ${JSON.stringify(event.status)}`,
      { details: { status: event.status } },
    );
  }
  requireFinite('event time', event.at, 'a finite epoch time in ms');
  if (state !== undefined) requireState(state);

  if (event.status === 'failure') {
    if (state === undefined) {
      return { source: 'inferred', count: 0, successes: 0, failures: 1, firstSeen: event.at, lastSeen: null };
    }
    return { ...state, failures: state.failures + 1 };
  }

  const previous = state ?? {
    source: 'inferred' as const,
    count: 0,
    successes: 0,
    failures: 0,
    firstSeen: null,
    lastSeen: null,
  };
  const count = previous.count + 1;
  return {
    source: promotedSource(previous.source, count, resolved),
    count,
    successes: previous.successes + 1,
    failures: event.replacesFailure === true ? Math.max(0, previous.failures - 1) : previous.failures,
    firstSeen: previous.firstSeen === null ? event.at : Math.min(previous.firstSeen, event.at),
    lastSeen: previous.lastSeen === null ? event.at : Math.max(previous.lastSeen, event.at),
    ...(previous.declared === true ? { declared: true } : {}),
  };
}

/**
 * The edge's state once some executions that saw it are forgotten (`credence forget` of a run): each forgotten event
 * is taken back from the counters (a success or partial from `count` and `successes`, a failure from `failures`,
 * never below 0), the source is what the count left earns (`observed` from `observedAtCount`, `inferred` from 1; with
 * no success left, `template` for an edge declared and not yet confirmed, else `inferred`), and the dates are those of
 * the executions left: `remaining()` gives the events of the edge in the executions still stored, read only when a
 * forgotten event held a date (`lastSeen` is the latest remaining confirmation, `firstSeen` the earliest remaining
 * sighting; a date no remaining execution explains, an edge restored or written as given, is kept). A `declared` edge
 * with no success left is a template again, its failures kept. Undefined when nothing is left: no success, no
 * failure, not declared (the row goes). `state` is not touched.
 */
export function forgetEdgeEvents(
  state: EdgeState,
  forgotten: readonly EdgeEvent[],
  remaining: () => readonly EdgeEvent[],
  options: PromotionOptions = {},
): EdgeState | undefined {
  requireState(state);
  const confirmed = (e: EdgeEvent): boolean => e.status !== 'failure';
  const taken = forgotten.filter(confirmed);
  const count = Math.max(0, state.count - taken.length);
  const successes = Math.max(0, state.successes - taken.length);
  const failures = Math.max(0, state.failures - (forgotten.length - taken.length));
  if (state.source === 'template' || (count === 0 && (failures === 0 || state.declared === true))) {
    // Never confirmed (a declared edge seen failing only), or nothing left of what the executions taught: a declared
    // edge is a template again (with the failures left), what no one declared goes.
    if (state.source !== 'template' && state.declared !== true) return undefined;
    return { ...templateEdge(), failures, ...(state.declared === true ? { declared: true } : {}) };
  }
  let left: readonly EdgeEvent[] | undefined;
  const others = (): readonly EdgeEvent[] => (left ??= remaining());
  const lastSeen =
    count === 0
      ? null
      : state.lastSeen !== null && taken.some((e) => e.at === state.lastSeen)
        ? (latest(others().filter(confirmed)) ?? state.lastSeen)
        : state.lastSeen;
  const firstSeen =
    state.firstSeen !== null && forgotten.some((e) => e.at === state.firstSeen)
      ? (earliest(others()) ?? state.firstSeen)
      : state.firstSeen;
  const earned = promotedSource('inferred', count, options);
  return { source: earned, count, successes, failures, firstSeen, lastSeen };
}

const latest = (events: readonly EdgeEvent[]): number | undefined =>
  events.reduce<number | undefined>((t, e) => (t === undefined || e.at > t ? e.at : t), undefined);
const earliest = (events: readonly EdgeEvent[]): number | undefined =>
  events.reduce<number | undefined>((t, e) => (t === undefined || e.at < t ? e.at : t), undefined);

/** Position of a source in template < inferred < observed. */
function rank(source: EdgeSource): number {
  return EDGE_SOURCES.indexOf(source);
}

function resolvePromotionOptions(options: PromotionOptions): { observedAtCount: number } {
  const observedAtCount = options.observedAtCount ?? PROMOTION_DEFAULTS.observedAtCount;
  if (!Number.isInteger(observedAtCount) || observedAtCount < 1) {
    throw new CredenceError(
      'INVALID_INPUT',
      `observedAtCount must be an integer >= 1, got ${String(observedAtCount)}`,
      {
        details: { observedAtCount },
      },
    );
  }
  return { observedAtCount };
}

function requireSource(source: EdgeSource): void {
  if (!(EDGE_SOURCES as readonly string[]).includes(source)) {
    throw new CredenceError(
      'INVALID_INPUT',
      `edge source must be one of ${EDGE_SOURCES.join(', ')}, got ${JSON.stringify(source)}`,
      { details: { source } },
    );
  }
}

function requireState(state: EdgeState): void {
  requireSource(state.source);
  requireCount('count', state.count);
  requireCount('successes', state.successes);
  requireCount('failures', state.failures);
}
