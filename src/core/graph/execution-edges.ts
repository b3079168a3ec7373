/**
 * @module core/graph/execution-edges
 * What one execution teaches the tool graph (seed 000, SPEC §3): consecutive calls → `sequence` (a call with
 * `dependsOn`, an explicit DAG's task, follows the calls it waited for: siblings are not consecutive), a call using
 * an earlier call's output → `dependency`, a call inside another → `contains`, a failed call then a different tool
 * that succeeds doing the same job ({@link didSameJob}) → `alternative`. Each edge yields at most one event per
 * execution: a success when any occurrence joined two calls that ran, else a failure (which never promotes), dated
 * by the occurrence that decided it (as {@link appendedEdgeEvents} does call by call). Self-loops teach nothing and
 * are left out, except a dependency of a tool on its own earlier output (issue 8); graph algorithms drop them anyway.
 */
import { didSameJob } from './same-job.js';
import type { CallStatus, EdgeType } from '../types.js';

export interface ExecutionCall {
  tool: string;
  status: CallStatus;
  consumes?: readonly number[];
  parent?: number;
  /**
   * The earlier calls it waited for, when its recorder knew them (an explicit DAG): the calls it comes after,
   * in place of the one before it in the list; even empty (a root), it says so.
   */
  dependsOn?: readonly number[];
  /** When the call ran, epoch ms. */
  at: number;
  /** What the call was given, as JSON text: evidence that a call after a failure did the same job. */
  input?: string;
}

export interface ExecutionEdgeEvent {
  from: string;
  to: string;
  type: EdgeType;
  status: 'success' | 'failure';
  /**
   * When the edge was seen: the time of the call at its head (the consumer, the child, the next call)
   * in the occurrence that decided the status (the first success, else the first failure).
   */
  at: number;
  /**
   * Set on a success that an append gives an edge the same execution counted as a failure in an earlier append
   * ({@link appendedEdgeEvents}): that failure is taken back as the success is counted.
   */
  replacesFailure?: true;
}

const ran = (status: CallStatus): boolean => status !== 'failure';

/** The indexes of the calls call `i` follows: those it waited for (`dependsOn`), else the one before it. */
export const followed = (call: { readonly dependsOn?: readonly number[] }, i: number): readonly number[] =>
  call.dependsOn ?? (i > 0 ? [i - 1] : []);

/**
 * Whether `next`, following the failed call `failed`, is its fallback: another tool that succeeded doing the same job
 * ({@link didSameJob}), as the graph learns an `alternative` edge.
 */
export const isFallback = (
  failed: { readonly tool: string; readonly status: CallStatus; readonly input?: string },
  next: { readonly tool: string; readonly status: CallStatus; readonly input?: string },
): boolean =>
  failed.status === 'failure' && next.status === 'success' && failed.tool !== next.tool && didSameJob(failed, next);

/**
 * The edge events of one execution, in a stable order (by type, then from, then to). With `from`, only the
 * occurrences whose head (the consumer, the child, the next call) is at or after that index are seen: the
 * events that appending `calls.slice(from)` adds to an execution, before any is known from earlier appends.
 */
export function edgeEventsOf(calls: readonly ExecutionCall[], options: { from?: number } = {}): ExecutionEdgeEvent[] {
  const events = new Map<string, ExecutionEdgeEvent>();
  const see = (type: EdgeType, from: ExecutionCall, to: ExecutionCall, succeeded: boolean): void => {
    if (from.tool === to.tool && type !== 'dependency') return;
    const key = `${type}\u0000${from.tool}\u0000${to.tool}`;
    const previous = events.get(key);
    const status = succeeded ? 'success' : 'failure';
    if (previous === undefined) {
      events.set(key, { from: from.tool, to: to.tool, type, status, at: to.at });
    } else if (status === 'success' && previous.status === 'failure') {
      events.set(key, { ...previous, status, at: to.at });
    }
  };
  for (let i = Math.max(0, options.from ?? 0); i < calls.length; i += 1) {
    const call = calls[i] as ExecutionCall;
    for (const j of followed(call, i)) {
      const previous = calls[j];
      if (previous === undefined || j >= i) continue;
      see('sequence', previous, call, ran(previous.status) && ran(call.status));
      if (isFallback(previous, call)) see('alternative', previous, call, true);
    }
    for (const j of call.consumes ?? []) {
      const producer = calls[j];
      if (producer !== undefined && j < i) see('dependency', producer, call, ran(producer.status) && ran(call.status));
    }
    if (call.parent !== undefined) {
      const parent = calls[call.parent];
      if (parent !== undefined && call.parent < i)
        see('contains', parent, call, ran(parent.status) && ran(call.status));
    }
  }
  const order: Record<EdgeType, number> = { dependency: 0, contains: 1, alternative: 2, sequence: 3 };
  return [...events.values()].sort(
    (a, b) => order[a.type] - order[b.type] || a.from.localeCompare(b.from) || a.to.localeCompare(b.to),
  );
}

/** The identity of an edge event within one execution: its type and its two tools. */
export const edgeEventKey = (e: ExecutionEdgeEvent): string => `${e.type}\u0000${e.from}\u0000${e.to}`;
const keyOf = edgeEventKey;

/**
 * The edge events an append adds to a growing execution (an MCP session, a Claude Code session
 * recorded hook by hook): the events of `after`, the whole execution once the new calls are
 * appended, whose (type, from, to) is not among the events of `before`, the execution as it was (or was
 * there as a failure only and now succeeds: see below). `before` must be a prefix of `after`. Summed over the
 * appends, an edge is still counted once per execution, whether the execution was recorded whole or call by call.
 *
 * An edge counted as a failure by an earlier append (every occurrence so far failed) that succeeds in this one comes
 * back as a success that replaces that failure (`replacesFailure`, which {@link observeEdge} applies): the execution
 * then counts the edge as recording it whole does, a success, and forgetting it takes back that success alone.
 * Appending call by call (or in any slices) thus folds to exactly what {@link edgeEventsOf} on the whole execution
 * gives; only the edge's `firstSeen` may stay at the failure's time.
 */
export function appendedEdgeEvents(
  before: readonly ExecutionCall[],
  after: readonly ExecutionCall[],
): ExecutionEdgeEvent[] {
  const known = new Map(edgeEventsOf(before).map((e) => [keyOf(e), e.status]));
  return edgeEventsOf(after).flatMap((event) => {
    const was = known.get(keyOf(event));
    if (was === undefined) return [event];
    return was === 'failure' && event.status === 'success' ? [{ ...event, replacesFailure: true as const }] : [];
  });
}

/**
 * The edge events a stored execution taught when it was recorded, as forgetting it takes them back: those of
 * {@link edgeEventsOf}, only of the types it `learned` when its recording learned only these (the MCP gateway's
 * `execute_dag` learns a workflow run's dependencies alone; a store marks the runs recorded before it kept this whose
 * every call has `dependsOn` so). A run appended call by call counted each edge as recording it whole does
 * ({@link appendedEdgeEvents}).
 */
export function taughtEdgeEvents(calls: readonly ExecutionCall[], learned?: readonly EdgeType[]): ExecutionEdgeEvent[] {
  const events = edgeEventsOf(calls);
  return learned === undefined ? events : events.filter((e) => learned.includes(e.type));
}
