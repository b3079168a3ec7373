/**
 * @module engine/tool-graph/append-state
 * What an append to a growing execution needs of the calls stored before it, kept from one append to the next
 * (issue 20): the edge events already counted, and the shape, summed outcomes and last use of its workflow. A
 * gateway session appends one call at a time; deriving these from every stored call made an append cost as much
 * as the session was long. Used only when the store hands back the very calls it handed back last time
 * (store/calls-cache), else computed again from `before`. The results are `appendedEdgeEvents` and `workflowMove`
 * on the whole lists (append-state.test compares them on long random sessions).
 */
import { edgeKey, shapeKey, shapeSources, workflowId } from '../../core/experience/workflow-shape.js';
import {
  edgeEventKey,
  edgeEventsOf,
  type ExecutionCall,
  type ExecutionEdgeEvent,
} from '../../core/graph/execution-edges.js';
import { callOutcome, qualityOfCalls, RUN_SUCCESS_QUALITY, StandingFailures } from '../../core/runs/run-quality.js';
import type { CallRecord, EpochMs, WorkflowMerge } from '../../store/types.js';
import { learnable, mergeOf, type RunParts } from '../workflows/workflows.js';

/** How many executions per store the state is kept for (the sessions a process appends to at once). */
const KEPT = 16;

/** The calls of an execution so far, as an append reads them. */
interface Known {
  count: number;
  /** The last call, the very object the store handed over (undefined without calls). */
  last: CallRecord | undefined;
  /** The edge events the calls gave, by key (edgeEventKey), with the status the execution counted them with. */
  events: Map<string, ExecutionEdgeEvent['status']>;
  tools: string[];
  seenTools: Set<string>;
  edges: [string, string][];
  seenEdges: Set<string>;
  /** The shape of `tools` and `edges` with its workflow id, once asked for; undefined after either grew. */
  shape:
    | { key: string; id: string; tools: readonly string[]; edges: readonly (readonly [string, string])[] }
    | undefined;
  /** The calls' outcome confidences summed in call order (core/runs/run-quality). */
  outcomes: number;
  /** The tools whose latest call failed (core/runs/run-quality): the run is a failure while one stands. */
  standing: StandingFailures;
  /** The latest end (`at` + duration) of a call with a time; -Infinity without one. */
  latestEnd: number;
}

interface RunSnapshot {
  shape: NonNullable<Known['shape']>;
  outcomes: number;
  standing: number;
  latestEnd: number;
  count: number;
}

interface Step {
  before: readonly CallRecord[];
  after: readonly CallRecord[];
  known: Known;
  events: ExecutionEdgeEvent[];
  was: RunSnapshot | undefined;
}

const kept = new WeakMap<object, Map<string, Known>>();

function empty(): Known {
  return {
    count: 0,
    last: undefined,
    events: new Map(),
    tools: [],
    seenTools: new Set(),
    edges: [],
    seenEdges: new Set(),
    shape: undefined,
    outcomes: 0,
    standing: new StandingFailures(),
    latestEnd: Number.NEGATIVE_INFINITY,
  };
}

/** Folds call `i` of `calls` into the shape (as core/experience/workflow-shape reads it), outcomes and last use. */
function addCall(known: Known, calls: readonly CallRecord[], i: number): void {
  const call = calls[i] as CallRecord;
  if (!known.seenTools.has(call.tool)) {
    known.seenTools.add(call.tool);
    known.tools.push(call.tool);
    known.shape = undefined;
  }
  for (const j of shapeSources(call, i)) {
    const from = j >= 0 && j < i ? calls[j]?.tool : undefined;
    if (from === undefined || from === call.tool) continue;
    const key = edgeKey(from, call.tool);
    if (known.seenEdges.has(key)) continue;
    known.seenEdges.add(key);
    known.edges.push([from, call.tool]);
    known.shape = undefined;
  }
  known.outcomes += callOutcome(call);
  known.standing.add(call);
  if (call.at !== undefined) known.latestEnd = Math.max(known.latestEnd, call.at + (call.durationMs ?? 0));
  known.count = i + 1;
  known.last = call;
}

function shapeOf(known: Known): NonNullable<Known['shape']> {
  if (known.shape === undefined) {
    const key = shapeKey(known.tools, known.edges);
    known.shape = {
      key,
      id: workflowId(key),
      tools: Object.freeze([...known.tools]),
      edges: Object.freeze(known.edges.map(([f, t]) => Object.freeze([f, t] as const))),
    };
  }
  return known.shape;
}

/**
 * The edge events whose head is one of the calls from index `n` on: {@link edgeEventsOf} over the few calls
 * they can reach (the call before the first of them, and the earlier calls they consume, wait for or sit in),
 * renumbered.
 */
function eventsFrom(after: readonly CallRecord[], n: number, asCall: (c: CallRecord) => ExecutionCall) {
  if (n === 0) return edgeEventsOf(after.map(asCall));
  const reached = new Set<number>();
  for (let i = n; i < after.length; i += 1) {
    const call = after[i] as CallRecord;
    for (const j of [...call.consumes, ...(call.dependsOn ?? [])]) if (j >= 0 && j < n - 1) reached.add(j);
    if (call.parent !== undefined && call.parent >= 0 && call.parent < n - 1) reached.add(call.parent);
  }
  const earlier = [...reached].sort((a, b) => a - b);
  const position = new Map(earlier.map((j, k) => [j, k]));
  position.set(n - 1, earlier.length);
  const first = earlier.length + 1;
  // Order is kept (a call before another stays before it); a call that is not there stays absent.
  const at = (j: number): number => (j >= n ? first + (j - n) : (position.get(j) ?? -1));
  const calls: ExecutionCall[] = [...earlier, n - 1].map((j) => asCall(after[j] as CallRecord));
  for (let i = n; i < after.length; i += 1) {
    const call = asCall(after[i] as CallRecord);
    calls.push({
      ...call,
      consumes: (call.consumes ?? []).map(at),
      ...(call.parent === undefined ? {} : { parent: at(call.parent) }),
      ...(call.dependsOn === undefined ? {} : { dependsOn: call.dependsOn.map(at) }),
    });
  }
  return edgeEventsOf(calls, { from: first });
}

/**
 * One append's view of its execution: `events` and `workflows` are the store's `learn` and `workflows`
 * callbacks; `commit()` keeps what they learned once the store has committed the append.
 */
export class AppendTracker {
  readonly #kept: Map<string, Known>;
  readonly #key: string;
  readonly #asCall: (c: CallRecord) => ExecutionCall;
  #step: Step | undefined;

  /** `startedAt`: the time of a call stored without one, as the append's edge events date it. */
  constructor(store: object, scope: string, id: string, startedAt: EpochMs) {
    let forStore = kept.get(store);
    if (forStore === undefined) kept.set(store, (forStore = new Map()));
    this.#kept = forStore;
    this.#key = `${scope}\u0000${id}`;
    this.#asCall = (c) => ({ ...c, at: c.at ?? startedAt });
  }

  /** What `before` is known to hold: the kept state when it describes these very calls, else read from them. */
  #knownOf(before: readonly CallRecord[]): Known {
    const known = this.#kept.get(this.#key);
    // Until the store commits, nothing is kept: a failed append leaves the next one to read its calls again.
    this.#kept.delete(this.#key);
    if (known !== undefined && known.count === before.length && known.last === before.at(-1)) return known;
    const fresh = empty();
    for (const e of edgeEventsOf(before.map(this.#asCall))) fresh.events.set(edgeEventKey(e), e.status);
    for (let i = 0; i < before.length; i += 1) addCall(fresh, before, i);
    return fresh;
  }

  #advance(before: readonly CallRecord[], after: readonly CallRecord[]): Step {
    if (this.#step !== undefined && this.#step.before === before && this.#step.after === after) return this.#step;
    const known = this.#knownOf(before);
    const was =
      before.length === 0
        ? undefined
        : {
            shape: shapeOf(known),
            outcomes: known.outcomes,
            standing: known.standing.size,
            latestEnd: known.latestEnd,
            count: known.count,
          };
    const all = eventsFrom(after, before.length, this.#asCall);
    // A new edge counts; one counted as a failure so far that succeeds now replaces that failure (appendedEdgeEvents).
    const events: ExecutionEdgeEvent[] = [];
    for (const e of all) {
      const was = known.events.get(edgeEventKey(e));
      if (was === undefined) events.push(e);
      else if (was === 'failure' && e.status === 'success') events.push({ ...e, replacesFailure: true });
      if (was !== 'success') known.events.set(edgeEventKey(e), e.status === 'success' ? 'success' : (was ?? e.status));
    }
    for (let i = before.length; i < after.length; i += 1) addCall(known, after, i);
    this.#step = { before, after, known, events, was };
    return this.#step;
  }

  /** The edge events the new calls add: `appendedEdgeEvents(before, after)` (core/graph/execution-edges). */
  events(before: readonly CallRecord[], after: readonly CallRecord[]): ExecutionEdgeEvent[] {
    return this.#advance(before, after).events;
  }

  /** How the new calls move the execution between workflows: `workflowMove(before, after, execution)`. */
  workflows(
    before: readonly CallRecord[],
    after: readonly CallRecord[],
    execution: { intent: string; startedAt: EpochMs },
  ): WorkflowMerge[] {
    if (!learnable(execution.intent, after)) return [];
    const step = this.#advance(before, after);
    const { known, was } = step;
    const parts = (run: RunSnapshot): RunParts => ({
      shape: run.shape,
      id: run.shape.id,
      succeeded: qualityOfCalls(run.outcomes, run.count, run.standing) >= RUN_SUCCESS_QUALITY,
      at: Math.max(execution.startedAt, run.latestEnd),
    });
    const now = {
      shape: shapeOf(known),
      outcomes: known.outcomes,
      standing: known.standing.size,
      latestEnd: known.latestEnd,
      count: known.count,
    };
    const moved = mergeOf(execution.intent, parts(now), 1);
    return was !== undefined && learnable(execution.intent, before)
      ? [mergeOf(execution.intent, parts(was), -1), moved]
      : [moved];
  }

  /** Keeps the state of the execution after this append (call once the store has committed it). */
  commit(): void {
    const step = this.#step;
    if (step === undefined) return;
    this.#kept.delete(this.#key);
    this.#kept.set(this.#key, step.known);
    if (this.#kept.size > KEPT) this.#kept.delete(this.#kept.keys().next().value as string);
  }
}
