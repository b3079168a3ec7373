/**
 * @module core/limits
 * The longest text Credence accepts in each input field, in one place (issue 17, red-team 1). The
 * engine checks them on every public method, so every surface refuses the same inputs with the same
 * `INPUT_TOO_LARGE` error; the MCP schemas reuse the numbers. Lengths are JavaScript string lengths
 * (UTF-16 code units), generous for each field's purpose (a query is a paragraph, a memory may be a
 * whole notes file) and small enough that one request cannot hold a single-process server for long.
 * The values are listed in docs/cli.md and docs/security.md.
 */

import { CredenceError } from './errors.js';

export const INPUT_LIMITS = Object.freeze({
  query: 4_000,
  intent: 4_000,
  toolName: 256,
  toolDescription: 16_000,
  memoryTitle: 500,
  memoryText: 100_000,
  observation: 10_000,
  evidence: 10_000,
  tag: 200,
  callText: 100_000,
  summary: 10_000,
  note: 2_000,
  id: 256,
  path: 4_096,
});

export type InputLimitName = keyof typeof INPUT_LIMITS;

/**
 * Throws `INPUT_TOO_LARGE` when `value` is longer than `INPUT_LIMITS[limit]`. `field` names the
 * input as the caller knows it (`query`, `tools[3].description`). Non-strings pass (their shape is
 * checked elsewhere).
 * @throws CredenceError INPUT_TOO_LARGE naming the field, its length and the limit.
 */
export function requireWithinLimit(field: string, value: unknown, limit: InputLimitName): void {
  if (typeof value !== 'string') return;
  const max = INPUT_LIMITS[limit];
  if (value.length <= max) return;
  throw new CredenceError('INPUT_TOO_LARGE', `${field} is ${value.length} characters long; the limit is ${max}`, {
    details: { field, length: value.length, limit: max },
  });
}

/** `text` cut to the `limit` (for a surface that must not fail, such as a hook's recall). */
export function withinLimit(text: string, limit: InputLimitName): string {
  const max = INPUT_LIMITS[limit];
  return text.length <= max ? text : text.slice(0, max);
}

/** Which limit each text field of a record takes; `[]` marks a list of texts, `.` a nested field. */
type FieldLimits = Readonly<Record<string, InputLimitName>>;

const MEMORY_FIELDS: FieldLimits = Object.freeze({
  id: 'id',
  title: 'memoryTitle',
  text: 'memoryText',
  'tags[]': 'tag',
  path: 'path',
  category: 'tag',
  source: 'path',
  supersedes: 'id',
  speaker: 'memoryTitle',
  session: 'id',
});
const OBSERVATION_FIELDS: FieldLimits = Object.freeze({
  id: 'id',
  observation: 'observation',
  'evidence[]': 'evidence',
  'tags[]': 'tag',
  'context.task': 'intent',
  'context.file': 'path',
});
const TOOL_FIELDS: FieldLimits = Object.freeze({ id: 'toolName', description: 'toolDescription', origin: 'toolName' });
const EXECUTION_FIELDS: FieldLimits = Object.freeze({ id: 'id', intent: 'intent', summary: 'summary', scope: 'id' });
const CALL_FIELDS: FieldLimits = Object.freeze({ tool: 'toolName', input: 'callText', output: 'callText' });

const fieldOf = (record: unknown, name: string): unknown =>
  record !== null && typeof record === 'object' ? (record as Record<string, unknown>)[name] : undefined;

/** One field of a {@link FieldLimits}, its path split once (the checks run for every call of every run). */
interface FieldCheck {
  readonly path: string;
  readonly names: readonly string[];
  readonly list: boolean;
  readonly limit: InputLimitName;
  readonly max: number;
}

const checksOf = new WeakMap<FieldLimits, readonly FieldCheck[]>();

function fieldChecks(fields: FieldLimits): readonly FieldCheck[] {
  let checks = checksOf.get(fields);
  if (checks === undefined) {
    checks = Object.entries(fields).map(([path, limit]) => {
      const list = path.endsWith('[]');
      const names = (list ? path.slice(0, -2) : path).split('.');
      return { path: list ? path.slice(0, -2) : path, names, list, limit, max: INPUT_LIMITS[limit] };
    });
    checksOf.set(fields, checks);
  }
  return checks;
}

const tooLong = (value: unknown, max: number): boolean => typeof value === 'string' && value.length > max;

/**
 * Checks the text fields of one record (of unknown shape: a schema checks the shape after). The field's name
 * (`where.path`) is written only for the error: a record within its limits costs a few reads.
 */
function requireFieldsWithinLimits(where: string | (() => string), record: unknown, fields: FieldLimits): void {
  const at = () => (typeof where === 'string' ? where : where());
  for (const check of fieldChecks(fields)) {
    if (check.list) {
      const list = fieldOf(record, check.names[0] as string);
      if (!Array.isArray(list)) continue;
      list.forEach((item, i) => {
        if (tooLong(item, check.max)) requireWithinLimit(`${at()}.${check.path}[${i}]`, item, check.limit);
      });
    } else {
      let value = record;
      for (const name of check.names) value = fieldOf(value, name);
      if (tooLong(value, check.max)) requireWithinLimit(`${at()}.${check.path}`, value, check.limit);
    }
  }
}

/** `memories[i]`: id, title, text, tags, path. @throws CredenceError INPUT_TOO_LARGE */
export const requireMemoryWithinLimits = (where: string, memory: unknown): void =>
  requireFieldsWithinLimits(where, memory, MEMORY_FIELDS);
/** `observations[i]`: observation, evidence, tags, context. @throws CredenceError INPUT_TOO_LARGE */
export const requireObservationWithinLimits = (where: string, observation: unknown): void =>
  requireFieldsWithinLimits(where, observation, OBSERVATION_FIELDS);
/** `tools[i]`: id, description, origin. @throws CredenceError INPUT_TOO_LARGE */
export const requireToolWithinLimits = (where: string, tool: unknown): void =>
  requireFieldsWithinLimits(where, tool, TOOL_FIELDS);
/** A call: tool, input, output. @throws CredenceError INPUT_TOO_LARGE */
export const requireCallWithinLimits = (where: string, call: unknown): void =>
  requireFieldsWithinLimits(where, call, CALL_FIELDS);
/** `executions[i]`: intent, summary, scope and every call. @throws CredenceError INPUT_TOO_LARGE */
export function requireExecutionWithinLimits(where: string, execution: unknown): void {
  requireFieldsWithinLimits(where, execution, EXECUTION_FIELDS);
  const calls = fieldOf(execution, 'calls');
  if (Array.isArray(calls))
    calls.forEach((call, i) => requireFieldsWithinLimits(() => `${where}.calls[${i}]`, call, CALL_FIELDS));
}
