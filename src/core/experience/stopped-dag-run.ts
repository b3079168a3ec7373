/**
 * @module core/experience/stopped-dag-run
 * Whether a recorded run is a DAG's run that stopped early (review E, item 1). When a task of an explicit DAG fails,
 * the tasks after it are skipped and only those that reached their tool are recorded, so the run's shape is that of
 * the tasks that ran and it merges into another workflow than the DAG's. The DAG's own record reads those runs back
 * here: a run stopped early is a proper, non-empty part of the DAG's tasks, recorded with their dependencies
 * (`dependsOn`, which an explicit DAG's calls carry), each call a task of the same tool whose dependencies within the
 * DAG are exactly the calls it depended on (so every task that ran had all its own dependencies run before it). Pure.
 */

/** A DAG's task as the match reads it: its tool and its effective dependencies (ids; those not of a task ignored). */
export interface PlannedTask {
  readonly id: string;
  readonly tool: string;
  readonly dependsOn: readonly string[];
}

/** A recorded call as the match reads it. */
export interface StoppedRunCall {
  readonly tool: string;
  readonly dependsOn?: readonly number[];
}

/**
 * Whether `calls` are what the DAG `tasks` records when it stops before all its tasks reach their tool: fewer calls
 * than tasks, each matched to a distinct task of its tool whose dependencies are the tasks of the calls it depended
 * on. Whether the run failed is the caller's to check (a DAG run that stopped early is recorded as a failure).
 */
export function isStoppedDagRun(tasks: readonly PlannedTask[], calls: readonly StoppedRunCall[]): boolean {
  if (calls.length === 0 || calls.length >= tasks.length) return false;
  const ids = new Set(tasks.map((t) => t.id));
  const used = new Set<string>();
  const taskOf: string[] = [];
  for (const [i, call] of calls.entries()) {
    if (call.dependsOn === undefined) return false;
    const waited = new Set<string>();
    for (const j of call.dependsOn) {
      const id = j >= 0 && j < i ? taskOf[j] : undefined;
      if (id === undefined) return false;
      waited.add(id);
    }
    const match = tasks.find((t) => {
      if (used.has(t.id) || t.tool !== call.tool) return false;
      const own = new Set(t.dependsOn.filter((d) => ids.has(d) && d !== t.id));
      return own.size === waited.size && [...own].every((d) => waited.has(d));
    });
    if (match === undefined) return false;
    used.add(match.id);
    taskOf.push(match.id);
  }
  return true;
}
