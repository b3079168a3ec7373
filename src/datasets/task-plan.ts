/**
 * @module datasets/task-plan
 * Task-planning sets in the format of GNN4TaskPlan (RestBench-TMDB, and the same shape for its other
 * sets): a tool list `{ nodes: [{ id, desc }] }` and one request a line, `{ id, user_request,
 * task_nodes: [{ task }], task_links: [{ source, target }] }`, a link being a dependency between two
 * tools of the request. A request becomes an execution: its nodes in order as calls, each consuming the
 * earlier calls its links name. A link to a tool the request does not call is dropped and reported.
 */
import { z } from 'zod';
import { CredenceError } from '../core/errors.js';
import type { CallInput, ExecutionInput } from '../core/types.js';
import { formatIssues, PLAIN_ISSUES } from '../schemas/format.js';
import type { ToolRecord } from '../store/types.js';

const TaskPlanToolsSchema = z.object({
  nodes: z.array(
    z.object({ id: z.string().trim().min(1, 'must be a non-empty tool id'), desc: z.string().default('') }),
  ),
});

const TaskPlanRequestSchema = z.object({
  id: z.union([z.string().min(1), z.number()]),
  user_request: z.string(),
  task_nodes: z.array(z.object({ task: z.string().trim().min(1, 'must be a non-empty tool id') })),
  task_links: z.array(z.object({ source: z.string(), target: z.string() })).default([]),
});

/** An execution with its request id and the dependency links exactly as the request states them. */
export type TaskPlanExecution = Omit<ExecutionInput, 'id'> & {
  requestId: string;
  links: { from: string; to: string }[];
  /** Links naming a tool the request does not call (dropped). */
  dropped: number;
};

/** The tool list of a task-planning set as catalogue records (origin `origin`). */
export function parseTaskPlanTools(value: unknown, origin: string): ToolRecord[] {
  const parsed = TaskPlanToolsSchema.safeParse(value, PLAIN_ISSUES);
  if (!parsed.success)
    throw new CredenceError('INVALID_INPUT', `task-plan tool list is malformed: ${formatIssues(parsed.error)}`, {
      cause: parsed.error,
    });
  return parsed.data.nodes.map((n) => ({ id: n.id, description: n.desc, origin }));
}

/** One request line as an execution. A malformed line raises `INVALID_INPUT` naming its line number. */
export function parseTaskPlanRequest(value: unknown, line: number): TaskPlanExecution {
  const parsed = TaskPlanRequestSchema.safeParse(value, PLAIN_ISSUES);
  if (!parsed.success)
    throw new CredenceError(
      'INVALID_INPUT',
      `task-plan request on line ${line + 1} is malformed: ${formatIssues(parsed.error)}`,
      {
        cause: parsed.error,
      },
    );
  const r = parsed.data;
  const first = new Map<string, number>();
  r.task_nodes.forEach((n, i) => {
    if (!first.has(n.task)) first.set(n.task, i);
  });
  const links: { from: string; to: string }[] = [];
  let dropped = 0;
  const consumes = new Map<number, number[]>();
  for (const l of r.task_links) {
    const from = first.get(l.source);
    const to = first.get(l.target);
    if (from === undefined || to === undefined || from === to) {
      dropped += 1;
      continue;
    }
    links.push({ from: l.source, to: l.target });
    // A link against the node order (rare) is kept as ground truth but cannot be a `consumes`.
    if (from < to) consumes.set(to, [...(consumes.get(to) ?? []), from]);
  }
  const calls: CallInput[] = r.task_nodes.map((n, i) => ({
    tool: n.task,
    status: 'success',
    ...(consumes.has(i) ? { consumes: consumes.get(i) } : {}),
  }));
  return { requestId: String(r.id), intent: r.user_request, calls, links, dropped };
}
