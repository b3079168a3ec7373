/**
 * @module core/workflow/workflow
 * Validation of an explicit workflow (SPEC §5): `{tasks: [{id, tool, arguments?, dependsOn?}]}`. Every
 * problem is named (duplicate id, unknown tool, missing dependency, self-dependency, a cycle with its
 * tasks). A valid workflow comes back in parallel layers over the effective dependencies: `dependsOn` ∪
 * the tasks its arguments reference (core/workflow/workflow-references); a `$name` naming no task is a
 * literal string.
 */
import type { WorkflowTask } from './task.js';
import { effectiveDependencies } from './workflow-references.js';

export type { WorkflowTask };

export type WorkflowProblem =
  | { kind: 'duplicate-id'; task: string; message: string }
  | { kind: 'unknown-tool'; task: string; tool: string; message: string }
  | { kind: 'missing-dependency'; task: string; dependsOn: string; message: string }
  | { kind: 'cycle'; tasks: string[]; message: string };

export type WorkflowCheck = { ok: true; layers: string[][] } | { ok: false; problems: WorkflowProblem[] };

/**
 * The error code a program branches on for a workflow's problems (core/errors): the first problem's, an unknown tool
 * UNKNOWN_TOOL, a cycle CYCLE, any other (a duplicate id, a missing dependency) INVALID_INPUT.
 */
export function workflowProblemCode(problems: readonly WorkflowProblem[]): 'UNKNOWN_TOOL' | 'CYCLE' | 'INVALID_INPUT' {
  const kind = problems[0]?.kind;
  return kind === 'unknown-tool' ? 'UNKNOWN_TOOL' : kind === 'cycle' ? 'CYCLE' : 'INVALID_INPUT';
}

export function validateWorkflow(tasks: readonly WorkflowTask[], knownTools: ReadonlySet<string>): WorkflowCheck {
  const problems: WorkflowProblem[] = [];
  const ids = new Set<string>();
  for (const t of tasks) {
    if (ids.has(t.id)) problems.push({ kind: 'duplicate-id', task: t.id, message: `task id "${t.id}" is used twice` });
    ids.add(t.id);
    if (!knownTools.has(t.tool)) {
      problems.push({
        kind: 'unknown-tool',
        task: t.id,
        tool: t.tool,
        message: `task "${t.id}" names an unknown tool "${t.tool}": add it to the catalogue first`,
      });
    }
  }
  for (const t of tasks) {
    for (const d of t.dependsOn ?? []) {
      if (!ids.has(d))
        problems.push({
          kind: 'missing-dependency',
          task: t.id,
          dependsOn: d,
          message: `task "${t.id}" depends on "${d}", which is not a task of this workflow`,
        });
    }
  }
  // Kahn's algorithm by layers; what is left over sits on or behind a cycle.
  const deps = new Map(
    [...effectiveDependencies(tasks)].map(([id, ds]) => [id, new Set(ds.filter((d) => ids.has(d)))]),
  );
  const layers: string[][] = [];
  const done = new Set<string>();
  for (;;) {
    const layer = [...deps.entries()]
      .filter(([id, ds]) => !done.has(id) && [...ds].every((d) => done.has(d)))
      .map(([id]) => id);
    if (layer.length === 0) break;
    layer.sort();
    layers.push(layer);
    layer.forEach((id) => done.add(id));
  }
  if (done.size < deps.size) {
    const cycle = findCycle(deps, done);
    problems.push({
      kind: 'cycle',
      tasks: cycle,
      message: `the tasks form a cycle: ${[...cycle, cycle[0]].join(' → ')}`,
    });
  }
  return problems.length === 0 ? { ok: true, layers } : { ok: false, problems };
}

function findCycle(deps: ReadonlyMap<string, ReadonlySet<string>>, done: ReadonlySet<string>): string[] {
  const start = [...deps.keys()].filter((id) => !done.has(id)).sort()[0] as string;
  // Walk dependencies among the unfinished tasks until a task repeats: every unfinished task has one.
  const path: string[] = [];
  const at = new Map<string, number>();
  let current = start;
  while (!at.has(current)) {
    at.set(current, path.length);
    path.push(current);
    current = [...(deps.get(current) ?? [])].filter((d) => !done.has(d)).sort()[0] as string;
  }
  return path.slice(at.get(current)).reverse();
}
