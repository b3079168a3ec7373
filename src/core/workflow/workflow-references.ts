/**
 * @module core/workflow/workflow-references
 * References between the tasks of an explicit workflow (SPEC §5, `execute_dag`), in every string at any
 * depth of `arguments` (keys never): `"$task_1"` is task_1's text content with trailing line breaks
 * removed (as `$(cat file)`, issue 17); `"$task_1.a.0"` a field path in its `structuredContent`, else
 * its text parsed as JSON, substituted as a copied value. Only a whole string matching
 * `/^\$([A-Za-z_][\w-]*)((?:\.[^.]+)*)$/` whose first segment is a task id is a reference; `$$` escapes
 * a `$`; anything else stays literal. A reference makes its task depend on the referenced one (so a
 * self-reference is a cycle). The syntax for users: docs/mcp.md.
 */
import type { WorkflowTask } from './task.js';

/** What a tool call returns, as far as references read it (an MCP `CallToolResult` fits). */
export interface ToolResultLike {
  content?: readonly { type: string; text?: string }[];
  structuredContent?: unknown;
  isError?: boolean;
}

/** One reference found in a task's arguments: `"$task_1.a.0"` is `{task: 'task_1', path: ['a', '0']}`. */
export interface WorkflowReference {
  task: string;
  path: string[];
  /** The string as written in the arguments. */
  text: string;
}

export type ResolvedArguments = { ok: true; value: unknown } | { ok: false; message: string };

const REFERENCE = /^\$([A-Za-z_][\w-]*)((?:\.[^.]+)*)$/;
const INDEX = /^\d+$/;

/** The reference a string is, or undefined when it is a literal (see the module comment). */
export function parseReference(text: string, taskIds: ReadonlySet<string>): WorkflowReference | undefined {
  if (text.startsWith('$$')) return undefined;
  const match = REFERENCE.exec(text);
  if (match === null) return undefined;
  const task = match[1] as string;
  if (!taskIds.has(task)) return undefined;
  const rest = match[2] ?? '';
  return { task, path: rest === '' ? [] : rest.slice(1).split('.'), text };
}

/** Every reference in `args` to a task of `taskIds`, in document order, one entry per occurrence. */
export function referencesIn(args: unknown, taskIds: ReadonlySet<string>): WorkflowReference[] {
  const found: WorkflowReference[] = [];
  const visit = (value: unknown): void => {
    if (typeof value === 'string') {
      const ref = parseReference(value, taskIds);
      if (ref !== undefined) found.push(ref);
    } else if (Array.isArray(value)) {
      value.forEach(visit);
    } else if (isPlainObject(value)) {
      Object.values(value).forEach(visit);
    }
  };
  visit(args);
  return found;
}

/**
 * Each task's effective dependencies: its `dependsOn` (as written, in order, including ids that are
 * not tasks, which `validateWorkflow` reports) followed by the tasks its arguments reference, without
 * repeats. A task that references itself lists itself.
 */
export function effectiveDependencies(tasks: readonly WorkflowTask[]): Map<string, string[]> {
  const taskIds = new Set(tasks.map((t) => t.id));
  const deps = new Map<string, string[]>();
  for (const t of tasks) {
    const mine = new Set([
      ...(deps.get(t.id) ?? []),
      ...(t.dependsOn ?? []),
      ...referencesIn(t.arguments, taskIds).map((r) => r.task),
    ]);
    deps.set(t.id, [...mine]);
  }
  return deps;
}

/**
 * `args` with every reference replaced by the value it names in `results` and every `$$` escape
 * undone; `args` itself is not modified. The first reference (in document order) that cannot
 * resolve makes the whole result `{ok: false, message}`, the message naming the reference and why
 * (`"$task_1.path" cannot resolve: task_1's result has no field "path"`); the caller adds which task
 * it was resolving for.
 *
 * @param taskIds the ids of the workflow's tasks, which decide what is a reference.
 * @default taskIds the keys of `results` — pass the workflow's ids so that a reference to a task
 *   without a result fails instead of passing through as a literal.
 */
export function resolveArguments(
  args: unknown,
  results: ReadonlyMap<string, ToolResultLike>,
  taskIds: ReadonlySet<string> = new Set(results.keys()),
): ResolvedArguments {
  let failure: string | undefined;
  const visit = (value: unknown): unknown => {
    if (failure !== undefined) return value;
    if (typeof value === 'string') {
      if (value.startsWith('$$')) return value.slice(1);
      const ref = parseReference(value, taskIds);
      if (ref === undefined) return value;
      const read = readReference(ref, results.get(ref.task));
      if (!read.ok) {
        failure = `"${ref.text}" cannot resolve: ${read.why}`;
        return value;
      }
      return read.value !== null && typeof read.value === 'object' ? structuredClone(read.value) : read.value;
    }
    if (Array.isArray(value)) return value.map(visit);
    if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, visit(v)]));
    return value;
  };
  const value = visit(args);
  return failure === undefined ? { ok: true, value } : { ok: false, message: failure };
}

/** The text content of a result: its text items joined with "\n"; undefined when it has none. */
export function resultText(result: ToolResultLike): string | undefined {
  const texts = (result.content ?? [])
    .filter((c) => c.type === 'text' && typeof c.text === 'string')
    .map((c) => c.text as string);
  return texts.length === 0 ? undefined : texts.join('\n');
}

type Read = { ok: true; value: unknown } | { ok: false; why: string };

/** `text` without the `\n` and `\r` characters at its end (a loop, not a regex: linear on any text). */
export function withoutFinalLineBreaks(text: string): string {
  let end = text.length;
  while (end > 0 && (text[end - 1] === '\n' || text[end - 1] === '\r')) end -= 1;
  return text.slice(0, end);
}

function readReference(ref: WorkflowReference, result: ToolResultLike | undefined): Read {
  if (result === undefined) return { ok: false, why: `${ref.task} has no result (it has not run)` };
  if (result.isError === true) return { ok: false, why: `${ref.task} failed` };
  const text = resultText(result);
  if (ref.path.length === 0) {
    return text === undefined
      ? { ok: false, why: `${ref.task}'s result has no text content` }
      : { ok: true, value: withoutFinalLineBreaks(text) };
  }
  let root: unknown = result.structuredContent;
  if (root === undefined) {
    if (text === undefined)
      return { ok: false, why: `${ref.task}'s result has neither structuredContent nor text content` };
    try {
      root = JSON.parse(text);
    } catch {
      return { ok: false, why: `${ref.task}'s result has no structuredContent and its text is not JSON` };
    }
  }
  let at = root;
  for (const [i, segment] of ref.path.entries()) {
    const next = field(at, segment);
    if (!next.found)
      return { ok: false, why: `${ref.task}'s result has no field "${ref.path.slice(0, i + 1).join('.')}"` };
    at = next.value;
  }
  return { ok: true, value: at };
}

function field(value: unknown, segment: string): { found: true; value: unknown } | { found: false } {
  if (Array.isArray(value)) {
    const index = Number(segment);
    return INDEX.test(segment) && index < value.length ? { found: true, value: value[index] } : { found: false };
  }
  if (value !== null && typeof value === 'object' && Object.hasOwn(value, segment)) {
    return { found: true, value: (value as Record<string, unknown>)[segment] };
  }
  return { found: false };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
