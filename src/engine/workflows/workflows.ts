/**
 * @module engine/workflows/workflows
 * Learned workflows (issue 19, item 1): every recorded run with an intent and a call merges into the workflow
 * of its shape (core/experience/workflow-shape), in the store transaction that records it; listing reads
 * them with their confidence now (core/experience/workflow-confidence). A store whose executions predate the
 * workflows table is rebuilt from them once, before its first write or read.
 */
import {
  workflowConfidence,
  workflowRecordBound,
  type WorkflowConfidenceParts,
  type WorkflowRecordParts,
} from '../../core/experience/workflow-confidence.js';
import { workflowId, workflowShape } from '../../core/experience/workflow-shape.js';
import { isStoppedDagRun } from '../../core/experience/stopped-dag-run.js';
import type { WorkflowTask } from '../../core/workflow/workflow.js';
import { effectiveDependencies } from '../../core/workflow/workflow-references.js';
import { runSucceeded } from '../../core/runs/run-quality.js';
import type {
  CallRecord,
  EpochMs,
  ExecutionRecord,
  ExecutionStore,
  WorkflowMerge,
  WorkflowMove,
  WorkflowOf,
  WorkflowRecord,
  WorkflowStore,
} from '../../store/types.js';

/** A learned workflow as users see it: the stored counts, the success rate and the confidence now, explained. */
export interface WorkflowView {
  id: string;
  /** Distinct tools, in the order of their first call. */
  tools: string[];
  /** Tool-level dependencies `[from, to]`. */
  edges: [string, string][];
  /** The latest distinct intents that led to it, newest first. */
  intents: string[];
  runs: number;
  successes: number;
  successRate: number;
  confidence: number;
  parts: WorkflowConfidenceParts;
  /** ISO 8601. */
  firstSeen: string;
  lastSeen: string;
}

/** When a run was last busy: its start, or the end of its latest call. */
const lastUse = (startedAt: EpochMs, calls: readonly CallRecord[]): EpochMs =>
  calls.reduce((t, c) => (c.at === undefined ? t : Math.max(t, c.at + (c.durationMs ?? 0))), startedAt);

/** What a run's merge is made of: its shape (with the shape's workflow id), whether it went well, its last use. */
export interface RunParts {
  shape: {
    readonly key: string;
    readonly tools: readonly string[];
    readonly edges: readonly (readonly [string, string])[];
  };
  id: string;
  succeeded: boolean;
  at: EpochMs;
}

/** One run's merge into the workflow of its shape (sign -1: out of it), from its parts. */
export function mergeOf(intent: string, parts: RunParts, sign: 1 | -1): WorkflowMerge {
  const m: WorkflowMerge = {
    id: parts.id,
    key: parts.shape.key,
    tools: parts.shape.tools,
    edges: parts.shape.edges,
    runs: sign,
    successes: sign * (parts.succeeded ? 1 : 0),
    at: parts.at,
  };
  if (sign > 0) m.intent = intent;
  return m;
}

/**
 * One run's merge into the workflow of its shape (sign -1: out of it), built as one object since recording makes
 * one per run. The id is hashed each time: about 1 µs, less than a cache of recent keys cost.
 */
function merge(
  intent: string,
  startedAt: EpochMs,
  calls: readonly CallRecord[],
  sign: 1 | -1,
  confidence?: number,
): WorkflowMerge {
  const shape = workflowShape(calls);
  const succeeded = runSucceeded(confidence === undefined ? { calls } : { calls, confidence });
  return mergeOf(intent, { shape, id: workflowId(shape.key), succeeded, at: lastUse(startedAt, calls) }, sign);
}

/** Whether a run merges into a workflow at all: it has an intent and a call. */
export const learnable = (intent: string, calls: { readonly length: number }): boolean =>
  intent.trim() !== '' && calls.length > 0;

/** The merge of one recorded execution into its workflow; none without an intent or a call. */
export const workflowOf: WorkflowOf = (e: ExecutionRecord) =>
  learnable(e.intent, e.calls) ? merge(e.intent, e.startedAt, e.calls, 1, e.confidence) : undefined;

/** Appended calls move their execution: out of the workflow of the calls before, into that of the calls after. */
export const workflowMove: WorkflowMove = (before, after, execution) => {
  if (!learnable(execution.intent, after)) return [];
  const moved = [merge(execution.intent, execution.startedAt, after, 1)];
  return learnable(execution.intent, before)
    ? [merge(execution.intent, execution.startedAt, before, -1), ...moved]
    : moved;
};

const ready = new WeakMap<WorkflowStore, Set<string>>();

/**
 * Makes sure the scope's workflows hold its executions: when the store has not marked them built from the
 * executions (a store from before the mark, emptied by migration 19 and maybe written since by an older server
 * that merged a run or two; a restored dump), they are rebuilt from the executions in one transaction
 * (idempotent). Whether the table is empty says nothing: an old server's one run made it look built. Checked once
 * per store and scope in a process.
 */
export async function ensureWorkflows(store: WorkflowStore, scope: string): Promise<void> {
  let scopes = ready.get(store);
  if (scopes === undefined) ready.set(store, (scopes = new Set()));
  if (scopes.has(scope)) return;
  await store.rebuildWorkflows(scope, workflowOf, { ifPending: true });
  scopes.add(scope);
}

/**
 * Forgets that this process saw the store's scopes built: after a restore took the store's marks away
 * (store/dump), the next use of each scope asks the store again and builds what it says is pending.
 */
export function forgetWorkflowsReady(store: WorkflowStore): void {
  ready.delete(store);
}

/** Rebuilds the scope's workflows from its executions (after executions were removed). */
export async function rebuildWorkflows(store: WorkflowStore, scope: string): Promise<void> {
  await store.rebuildWorkflows(scope, workflowOf);
}

const iso = (ms: number): string => new Date(ms).toISOString();

/** A stored workflow with its success rate and its confidence at `now`. */
export function viewWorkflow(w: WorkflowRecord, now: number): WorkflowView {
  const c = workflowConfidence({ runs: w.runs, successes: w.successes, lastSeen: w.lastSeen, now });
  return {
    id: w.id,
    tools: w.tools,
    edges: w.edges,
    intents: w.intents,
    runs: w.runs,
    successes: w.successes,
    successRate: c.parts.successRate,
    confidence: c.value,
    parts: c.parts,
    firstSeen: iso(w.firstSeen),
    lastSeen: iso(w.lastSeen),
  };
}

/** The scope's learned workflows, most recently used first, with their confidence at `now`. */
export async function listWorkflows(
  ctx: { store: WorkflowStore; scope: string },
  options: { limit?: number; now: number },
): Promise<WorkflowView[]> {
  await ensureWorkflows(ctx.store, ctx.scope);
  const stored = await ctx.store.listWorkflows(ctx.scope, options.limit === undefined ? {} : { limit: options.limit });
  return stored.map((w) => viewWorkflow(w, options.now));
}

/** A DAG's own record: the learned workflow its runs are merged into, and that record as a bound (walk 14, item 3). */
export interface DagRecord {
  /** The id of the workflow of the DAG's shape (its tools and the tool-level links of its dependencies). */
  workflow: string;
  /** The Wilson lower bound of its success rate times its decay (core/experience/workflow-confidence). */
  value: number;
  parts: WorkflowRecordParts;
  /**
   * How many of its runs stopped early (a task failed, those after it skipped): recorded with the tasks that ran, they
   * are filed under that smaller shape's workflow, and counted here among the runs, as failures. A run records no
   * mark of the DAG that planned it: a failed run of another DAG whose tasks are such a part of this one (the same
   * tools and dependencies) is counted too, as the same failure would have failed this DAG (review F, item 8).
   */
  stoppedEarly: number;
}

/**
 * The record of the learned workflow a DAG's run is merged into (the shape `execute_dag` records: each task linked
 * from the tasks it depends on or references), with the DAG's runs that stopped early counted as failures, read at
 * `now`; undefined when no run of that shape was recorded and none stopped early.
 */
export async function dagRecord(
  ctx: { store: WorkflowStore & Pick<ExecutionStore, 'listExecutions'>; scope: string },
  tasks: readonly WorkflowTask[],
  now: number,
): Promise<DagRecord | undefined> {
  const deps = effectiveDependencies(tasks);
  // In an order where each task comes after those it depends on (as its run records them), else as given.
  const ordered: WorkflowTask[] = [];
  const placed = new Set<string>();
  for (let moved = true; moved && ordered.length < tasks.length; ) {
    moved = false;
    for (const t of tasks)
      if (!placed.has(t.id) && (deps.get(t.id) ?? []).every((d) => placed.has(d) || !deps.has(d))) {
        ordered.push(t);
        placed.add(t.id);
        moved = true;
      }
  }
  for (const t of tasks) if (!placed.has(t.id)) ordered.push(t);
  const index = new Map(ordered.map((t, i) => [t.id, i]));
  const shape = workflowShape(
    ordered.map((t) => ({
      tool: t.tool,
      dependsOn: (deps.get(t.id) ?? []).map((id) => index.get(id) ?? -1).filter((i) => i >= 0),
    })),
  );
  const id = workflowId(shape.key);
  await ensureWorkflows(ctx.store, ctx.scope);
  const found = (await ctx.store.listWorkflows(ctx.scope)).find((w) => w.id === id);
  // The runs in which a task failed and those after it were skipped: recorded with the tasks that ran, they merged
  // into the workflow of that smaller shape, and count here as the DAG's failures (review E, item 1).
  const planned = ordered.map((t) => ({ id: t.id, tool: t.tool, dependsOn: deps.get(t.id) ?? [] }));
  const stopped = (await ctx.store.listExecutions(ctx.scope)).filter(
    (e) =>
      isStoppedDagRun(planned, e.calls) &&
      workflowOf(e)?.id !== id &&
      !runSucceeded(e.confidence === undefined ? { calls: e.calls } : { calls: e.calls, confidence: e.confidence }),
  );
  if (found === undefined && stopped.length === 0) return undefined;
  const lastSeen = stopped.reduce((t, e) => Math.max(t, lastUse(e.startedAt, e.calls)), found?.lastSeen ?? 0);
  const bound = workflowRecordBound({
    runs: (found?.runs ?? 0) + stopped.length,
    successes: found?.successes ?? 0,
    lastSeen,
    now,
  });
  return { workflow: id, value: bound.value, parts: bound.parts, stoppedEarly: stopped.length };
}
