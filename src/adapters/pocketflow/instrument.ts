/**
 * @module adapters/pocketflow/instrument
 * `instrumentFlow(flow, options)`: one line turns an existing PocketFlow flow into one whose every run
 * is recorded by Credence (SPEC §7, seed 002; issue 7). Each `run(shared)` names the reachable nodes and
 * derives their intents (bad options throw `INVALID_INPUT` before the flow starts), wraps their methods
 * for the run (./patch.ts, restored in `finally`), calls `flow.run` with the same semantics and return
 * value (the user's `shared` receives every write), and records the run (./recorder.ts) whether the flow
 * returned or threw; a node's error is re-thrown unchanged (a recording error after a successful flow unless
 * `onRecordError`). `followDag` / `followNext`: the next run says what became of a suggestion (issue 24).
 */
import { CredenceError } from '../../core/errors.js';
import { isBlankText } from '../../core/text/plain-text.js';
import { OutcomeFollower, type OutcomeDecision } from '../../core/outcome-follower.js';
import type { Outcome } from '../../core/types.js';
import type { RunInput, RunResult } from '../../engine/runs.js';
import {
  collectNodes,
  isFlowLike,
  isNodeLike,
  NodeNaming,
  type NodeDescription,
  type NodeLike,
  type NodeOptionsSource,
} from './nodes.js';
import { acquire, release, type WrapperFactory } from './patch.js';
import { messageOf, RunRecorder, wrapExec, wrapExecFallback, wrapRun } from './recorder.js';

/** What the adapter needs of the engine: `Credence.recordRun` (SPEC §7). */
export interface RunRecorderTarget {
  recordRun(run: RunInput): Promise<RunResult>;
  /** `Credence.recordOutcome`: needed only to follow suggestions (`followDag`, `followNext`). */
  recordOutcome?(shownId: string, outcome: Outcome, options?: { at?: number; inferred?: boolean }): Promise<unknown>;
  /** `Credence.now`: the engine's clock, which runs are timed by unless `now` is given. */
  readonly now?: () => number;
}

/** A PocketFlow flow (or lone node) as the adapter sees it: something with `run(shared)`. */
export interface RunnableFlow<S, R> {
  run(shared: S): Promise<R>;
}

export interface InstrumentFlowOptions {
  /** The Credence engine (anything with its `recordRun`). */
  readonly credence: RunRecorderTarget;
  /** The flow's intent: what a run of it is for, in words (recall finds past runs by it). */
  readonly intent: string;
  /** Per-node name, explicit intent and intent hints, keyed by node object or computed from it. */
  readonly nodes?: NodeOptionsSource;
  /**
   * The clock for start times and durations, epoch ms: with the engine's fixed `now`, every run starts then
   * (and takes 0 ms), so the same flow run twice records the same runs, edges and workflows.
   * @default the engine's clock (`credence.now`), else Date.now
   */
  readonly now?: () => number;
  /** Called with each recorded run (also available as `lastRun`). */
  readonly onRun?: (run: RunResult) => void;
  /** Receives a recording failure instead of it being thrown (see the module notes). */
  readonly onRecordError?: (error: unknown) => void;
}

/** An instrumented flow: run it instead of the flow. */
export interface InstrumentedFlow<S, R> {
  /** The flow as given. */
  readonly flow: RunnableFlow<S, R>;
  /** Runs the flow exactly as `flow.run(shared)` does, recording the run; returns the flow's result. */
  run(shared: S): Promise<R>;
  /** The result of the last recorded run of this handle (also after a failed flow). */
  readonly lastRun: RunResult | undefined;
  /** The name and intent the runs record for `node` (one of the flow's node objects), once known. */
  describe(node: object): NodeDescription | undefined;
  /**
   * A DAG `credence.suggestDag` gave for this flow: the next run says what became of it (every tool run:
   * succeeded, or failed when one's last run failed; some: rejected; none: nothing).
   */
  followDag(suggestion: { shownId?: string; dag: { tasks: readonly { tool: string }[] } }): void;
  /**
   * Next nodes `credence.suggestNext(after)` gave: the first node the next run runs after `after` (a second
   * `after` aside) decides them (the one run is used, the others rejected); a run without `after`, nothing.
   */
  followNext(after: string, suggestions: readonly { tool: string; shownId?: string }[]): void;
}

const WRAPPERS: Readonly<Record<string, WrapperFactory>> = Object.freeze({
  _run: (original, node) => wrapRun(original, node),
  exec: (original) => wrapExec(original),
  execFallback: (original) => wrapExecFallback(original),
});

const FLOW_WRAPPERS: Readonly<Record<string, WrapperFactory>> = Object.freeze({
  _run: (original, node) => wrapRun(original, node),
});

/**
 * Wraps a PocketFlow `Flow` (or a lone node) so that each `run(shared)` is recorded through
 * `options.credence.recordRun`. Validates the options and names the nodes now.
 * @throws CredenceError `INVALID_INPUT` for a flow without `run`/`_run`, an empty intent, or an
 * invalid node option (an intent outside the taxonomy, an empty name).
 */
export function instrumentFlow<S, R>(flow: RunnableFlow<S, R>, options: InstrumentFlowOptions): InstrumentedFlow<S, R> {
  if (!isNodeLike(flow) || typeof (flow as { run?: unknown }).run !== 'function') {
    throw new CredenceError(
      'INVALID_INPUT',
      'instrumentFlow expects a PocketFlow Flow or Node (an object with run and _run methods)',
    );
  }
  if (options === undefined || options === null || typeof options.credence?.recordRun !== 'function') {
    throw new CredenceError(
      'INVALID_INPUT',
      'instrumentFlow needs options.credence, an engine with recordRun (openCredence())',
    );
  }
  if (typeof options.intent !== 'string' || isBlankText(options.intent)) {
    throw new CredenceError(
      'INVALID_INPUT',
      'instrumentFlow needs options.intent, a non-empty description of what the flow is for',
    );
  }
  const root: NodeLike = flow;
  const naming = new NodeNaming(options.nodes);
  const { credence, intent, onRun, onRecordError } = options;
  const engineClock = credence.now;
  const now = options.now ?? (typeof engineClock === 'function' ? () => engineClock.call(credence) : Date.now);
  naming.register(collectNodes(root));
  let lastRun: RunResult | undefined;
  const follower = new OutcomeFollower();
  /** Whether a suggestion waits for the next run. */
  let following = false;

  const record = async (run: RunInput): Promise<RunResult> => {
    const result = await credence.recordRun(run);
    lastRun = result;
    onRun?.(result);
    return result;
  };

  const run = async (shared: S): Promise<R> => {
    const nodes = collectNodes(root);
    naming.register(nodes);
    const recorder = new RunRecorder((node) => naming.describe(node), now);
    const held: object[] = [];
    const startedAt = now();
    let outcome: { ok: true; value: R } | { ok: false; error: unknown };
    try {
      for (const node of nodes) if (acquire(node, isFlowLike(node) ? FLOW_WRAPPERS : WRAPPERS)) held.push(node);
      const tracked = recorder.track(shared);
      outcome = { ok: true, value: await recorder.runTop(() => flow.run(tracked)) };
    } catch (error) {
      outcome = { ok: false, error };
    } finally {
      for (const node of held) release(node);
    }
    const endedAt = now();
    // A flow that threw stopped before it finished: the run did not succeed, whatever its nodes' mean (engine/runs).
    const runInput: RunInput = {
      intent,
      startedAt,
      endedAt,
      nodes: recorder.close(endedAt),
      ...(outcome.ok ? {} : { error: messageOf(outcome.error) }),
    };
    try {
      await record(runInput);
      if (following) await recordOutcomes(followed(runInput, endedAt));
    } catch (recordError) {
      if (onRecordError !== undefined) onRecordError(recordError);
      else if (outcome.ok) throw recordError;
    }
    if (!outcome.ok) throw outcome.error;
    return outcome.value;
  };

  /** What the run says of the suggestions followed: its nodes (not the flows holding them), in order. */
  const followed = (runInput: RunInput, endedAt: number): OutcomeDecision[] => {
    following = false;
    const flows = new Set(runInput.nodes.flatMap((n) => (n.parent === undefined ? [] : [n.parent])));
    const decisions = runInput.nodes.flatMap((n, i) =>
      flows.has(i) ? [] : follower.called(n.name, n.status === 'success', n.startedAt + n.durationMs),
    );
    return [...decisions, ...follower.close(endedAt)];
  };
  const recordOutcomes = async (decisions: readonly OutcomeDecision[]): Promise<void> => {
    for (const d of decisions) await credence.recordOutcome?.(d.shownId, d.outcome, { at: d.at, inferred: true });
  };
  const needsOutcomes = (): void => {
    if (typeof credence.recordOutcome !== 'function')
      throw new CredenceError(
        'INVALID_INPUT',
        'following a suggestion needs options.credence with recordOutcome (a Credence engine)',
      );
  };

  return {
    flow,
    run,
    get lastRun() {
      return lastRun;
    },
    describe: (node) => naming.peek(node),
    followDag(suggestion) {
      needsOutcomes();
      checkDagSuggestion(suggestion);
      if (suggestion.shownId === undefined) return;
      following = true;
      const tools = suggestion.dag.tasks.map((t) => t.tool);
      follower.show({ kind: 'dag', at: now(), shownId: suggestion.shownId, tools });
    },
    followNext(after, suggestions) {
      needsOutcomes();
      checkNextSuggestions(after, suggestions);
      const items = suggestions.flatMap((s) => (s.shownId === undefined ? [] : [{ shownId: s.shownId, tool: s.tool }]));
      if (items.length === 0) return;
      following = true;
      // The next run starts again at the flow's first node: only a node run after `after` decides.
      follower.show({ kind: 'next', at: now(), after, items, awaitAfter: true });
    },
  };
}

/** What a caller passed, in words, for the refusals below. */
const kindOf = (value: unknown): string =>
  value === undefined ? 'none' : value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;

/**
 * A suggestion to follow is what `suggestDag` gives: `dag.tasks`, each with its `tool`, and `shownId` text when it was
 * recorded as shown (without one there is nothing to follow). Anything else (`{}`) was taken and never decided
 * (walk 18). @throws CredenceError INVALID_INPUT naming the field
 */
function checkDagSuggestion(suggestion: unknown): void {
  const s = suggestion as { shownId?: unknown; dag?: { tasks?: unknown } } | null;
  if (typeof s !== 'object' || s === null || Array.isArray(s))
    throw new CredenceError('INVALID_INPUT', `followDag takes a suggestion of suggestDag, got ${kindOf(s)}`);
  const tasks = s.dag?.tasks;
  if (!Array.isArray(tasks))
    throw new CredenceError(
      'INVALID_INPUT',
      `followDag: suggestion.dag.tasks must be a list (a suggestion of suggestDag), got ${kindOf(tasks)}`,
    );
  tasks.forEach((t: unknown, i) => {
    if (typeof (t as { tool?: unknown } | null)?.tool !== 'string')
      throw new CredenceError('INVALID_INPUT', `followDag: suggestion.dag.tasks[${i}].tool must be text`);
  });
  if (s.shownId !== undefined && typeof s.shownId !== 'string')
    throw new CredenceError('INVALID_INPUT', `followDag: suggestion.shownId must be text, got ${kindOf(s.shownId)}`);
}

/**
 * `after` is a node's name and `suggestions` the list `suggestNext(after)` gave, each with its `tool` (and `shownId`
 * text when recorded as shown): a string there threw a bare TypeError (walk 18). @throws CredenceError INVALID_INPUT
 */
function checkNextSuggestions(after: unknown, suggestions: unknown): void {
  if (typeof after !== 'string' || isBlankText(after))
    throw new CredenceError('INVALID_INPUT', `followNext: after must be the name of a node, got ${kindOf(after)}`);
  if (!Array.isArray(suggestions))
    throw new CredenceError(
      'INVALID_INPUT',
      `followNext: suggestions must be the list suggestNext gave, got ${kindOf(suggestions)}`,
    );
  suggestions.forEach((x: unknown, i) => {
    const s = x as { tool?: unknown; shownId?: unknown } | null;
    if (typeof s?.tool !== 'string')
      throw new CredenceError('INVALID_INPUT', `followNext: suggestions[${i}].tool must be text`);
    if (s.shownId !== undefined && typeof s.shownId !== 'string')
      throw new CredenceError('INVALID_INPUT', `followNext: suggestions[${i}].shownId must be text`);
  });
}
