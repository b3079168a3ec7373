/**
 * @module engine/workflow-exec
 * Runs an explicit workflow (SPEC §5, `execute_dag`) once `validateWorkflow` accepted it: layer after
 * layer, a layer's tasks concurrently, each task's references (core/workflow/workflow-references)
 * replaced by the referenced results before its tool is called through `call` (the caller's; tested
 * with a fake). A call that throws or returns `isError` fails its task; an unresolvable reference fails
 * it without a call; a task whose effective dependency failed or was skipped is skipped. A failure
 * reaches a task's dependants, never its siblings.
 */
import { CredenceError } from '../core/errors.js';
import type { WorkflowTask } from '../core/workflow/workflow.js';
import {
  effectiveDependencies,
  referencesIn,
  resolveArguments,
  resultText,
  type ToolResultLike,
} from '../core/workflow/workflow-references.js';

export interface TaskOutcome {
  id: string;
  tool: string;
  status: 'success' | 'failure' | 'skipped';
  /** The arguments the tool was called with, references substituted; absent when it was not called. */
  arguments?: unknown;
  /** What the tool returned (an `isError` result included); absent when it threw or was not called. */
  result?: ToolResultLike;
  /** Why the task failed or was skipped. */
  error?: string;
  /** `options.now()` when the task's turn came (epoch ms). */
  startedAt: number;
  /** Whether its tool was called (false when skipped, or when a reference did not resolve). */
  called: boolean;
  /** 0 when the task was not called. */
  durationMs: number;
  /** Its layer's index in `layers`, from 0. */
  layer: number;
  /** The ids of the tasks its arguments reference, in order of first appearance. */
  consumes: string[];
}

export interface WorkflowRun {
  /** True when every task succeeded. */
  ok: boolean;
  /** One outcome per task: layer after layer, within a layer in the order of `tasks`. */
  tasks: TaskOutcome[];
}

export type ToolCaller = (tool: string, args: unknown, task: WorkflowTask) => Promise<ToolResultLike>;

export interface RunWorkflowOptions {
  /** The clock for `startedAt` and `durationMs`. */
  now: () => number;
  /**
   * The most tool calls of one layer in flight at once (an integer ≥ 1).
   * @default Infinity (every task of a layer at once)
   */
  concurrency?: number;
}

/**
 * Runs `tasks` in `layers` (as `validateWorkflow` returns them) through `call`. Tool failures are
 * outcomes, never rejections; it throws a CredenceError (INVALID_INPUT) before calling anything when
 * the layers do not fit the tasks: a task missing from the layers or listed twice, an id that is not
 * a task, a dependency that is not a task or does not sit in an earlier layer, a bad `concurrency`.
 */
export async function runWorkflow(
  tasks: readonly WorkflowTask[],
  layers: readonly (readonly string[])[],
  call: ToolCaller,
  options: RunWorkflowOptions,
): Promise<WorkflowRun> {
  const concurrency = options.concurrency ?? Infinity;
  if (concurrency !== Infinity && !(Number.isInteger(concurrency) && concurrency >= 1)) {
    throw new CredenceError('INVALID_INPUT', `concurrency must be an integer of at least 1, got ${concurrency}`);
  }
  const byId = new Map<string, WorkflowTask>();
  const order = new Map<string, number>();
  for (const [i, t] of tasks.entries()) {
    if (byId.has(t.id)) throw new CredenceError('INVALID_INPUT', `task id "${t.id}" is used twice`);
    byId.set(t.id, t);
    order.set(t.id, i);
  }
  const deps = effectiveDependencies(tasks);
  checkLayers(byId, layers, deps);

  const taskIds = new Set(byId.keys());
  const outcomes = new Map<string, TaskOutcome>();
  const results = new Map<string, ToolResultLike>();

  const runTask = async (task: WorkflowTask, layer: number): Promise<TaskOutcome> => {
    const startedAt = options.now();
    const consumes = [...new Set(referencesIn(task.arguments, taskIds).map((r) => r.task))];
    const base = { id: task.id, tool: task.tool, startedAt, layer, consumes };
    const called = { ...base, called: true };
    for (const d of deps.get(task.id) ?? []) {
      const before = outcomes.get(d);
      if (before !== undefined && before.status !== 'success') {
        return {
          ...base,
          called: false,
          status: 'skipped',
          error: `dependency "${d}" ${before.status === 'failure' ? 'failed' : 'was skipped'}`,
          durationMs: 0,
        };
      }
    }
    const resolved = resolveArguments(task.arguments, results, taskIds);
    if (!resolved.ok)
      return {
        ...base,
        called: false,
        status: 'failure',
        error: `task "${task.id}": ${resolved.message}`,
        durationMs: 0,
      };
    const args = resolved.value;
    let result: ToolResultLike;
    try {
      result = await call(task.tool, args, task);
    } catch (error) {
      return {
        ...called,
        status: 'failure',
        arguments: args,
        error: error instanceof Error ? error.message : String(error),
        durationMs: options.now() - startedAt,
      };
    }
    const durationMs = options.now() - startedAt;
    if (result === null || typeof result !== 'object') {
      return { ...called, status: 'failure', arguments: args, error: 'the tool returned no result', durationMs };
    }
    if (result.isError === true) {
      return {
        ...called,
        status: 'failure',
        arguments: args,
        result,
        error: resultText(result) ?? 'the tool reported an error without a message',
        durationMs,
      };
    }
    return { ...called, status: 'success', arguments: args, result, durationMs };
  };

  const all: TaskOutcome[] = [];
  for (const [layer, ids] of layers.entries()) {
    const inOrder = [...ids]
      .sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0))
      .map((id) => byId.get(id) as WorkflowTask);
    const done = await mapBounded(inOrder, concurrency, (task) => runTask(task, layer));
    for (const outcome of done) {
      outcomes.set(outcome.id, outcome);
      if (outcome.result !== undefined) results.set(outcome.id, outcome.result);
    }
    all.push(...done);
  }
  return { ok: all.every((o) => o.status === 'success'), tasks: all };
}

function checkLayers(
  byId: ReadonlyMap<string, WorkflowTask>,
  layers: readonly (readonly string[])[],
  deps: ReadonlyMap<string, readonly string[]>,
): void {
  const layerOf = new Map<string, number>();
  for (const [i, ids] of layers.entries()) {
    for (const id of ids) {
      if (!byId.has(id))
        throw new CredenceError('INVALID_INPUT', `the layers name "${id}", which is not a task of this workflow`);
      if (layerOf.has(id)) throw new CredenceError('INVALID_INPUT', `the layers list task "${id}" twice`);
      layerOf.set(id, i);
    }
  }
  for (const [id, ds] of deps) {
    const at = layerOf.get(id);
    if (at === undefined) throw new CredenceError('INVALID_INPUT', `task "${id}" is in none of the layers`);
    for (const d of ds) {
      const depAt = layerOf.get(d);
      if (depAt === undefined)
        throw new CredenceError(
          'INVALID_INPUT',
          `task "${id}" depends on "${d}", which is not a task of this workflow`,
        );
      if (depAt >= at)
        throw new CredenceError(
          'INVALID_INPUT',
          `task "${id}" (layer ${at}) depends on "${d}" (layer ${depAt}), which must run in an earlier layer`,
        );
    }
  }
}

/** `fn` over `items` with at most `limit` calls in flight, results in the order of `items`. */
async function mapBounded<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
