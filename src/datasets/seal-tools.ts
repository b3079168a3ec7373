/**
 * @module datasets/seal-tools
 * The Seal-Tools data set (fairyshine/Seal-Tools, Apache-2.0) as Credence catalogue records and
 * executions, one JSON Lines line at a time (the caller reads the file, see `datasets/jsonl`).
 * `tool.jsonl` lines become tools with a JSON-Schema-like `inputSchema` (Python type names mapped).
 * `dev.jsonl` / `test_in_domain.jsonl` lines are queries with calls; response slots (`"API_call_k"`)
 * are numbered from 0 across a query, in call order, and a value holding one, at any depth, consumes
 * the call that produced it. A reference to a slot no earlier call produces is dropped.
 */
import { z } from 'zod';
import { CredenceError } from '../core/errors.js';
import type { CallInput, ExecutionInput } from '../core/types.js';
import { formatIssues, PLAIN_ISSUES } from '../schemas/format.js';
import type { ToolRecord } from '../store/types.js';

/** Recorded on every Seal-Tools catalogue record. */
export const SEAL_TOOLS_ORIGIN = 'seal-tools';

const SealToolsParameterSchema = z.object({
  type: z.string().optional(),
  description: z.string().optional(),
  default: z.unknown().optional(),
  example: z.unknown().optional(),
  examples: z.unknown().optional(),
  example_values: z.unknown().optional(),
  choices: z.array(z.unknown()).optional(),
  unit: z.string().optional(),
});
type SealToolsParameter = z.infer<typeof SealToolsParameterSchema>;

/** One line of `tool.jsonl`. Unknown fields (field, responses, example) are ignored. */
export const SealToolsToolSchema = z.object({
  api_name: z.string().trim().min(1, 'must be a non-empty API name'),
  api_description: z.string().default(''),
  parameters: z.record(z.string(), SealToolsParameterSchema).default({}),
  required: z.array(z.string()).default([]),
});
export type SealToolsTool = z.infer<typeof SealToolsToolSchema>;

/** One ground-truth call of a query. */
export const SealToolsCallSchema = z.object({
  api: z.string().trim().min(1, 'must be a non-empty API name'),
  parameters: z.record(z.string(), z.unknown()).default({}),
  responses: z.array(z.string()).default([]),
});

/** One line of `dev.jsonl` / `test_in_domain.jsonl`. */
export const SealToolsQuerySchema = z.object({
  id: z.union([z.string().min(1), z.number()]).optional(),
  query: z.string(),
  calling: z.array(SealToolsCallSchema),
});
export type SealToolsQuery = z.infer<typeof SealToolsQuerySchema>;

/** An execution with the query it came from (the line's `id`, or its 0-based line number). */
export type SealToolsExecution = Omit<ExecutionInput, 'id'> & { queryId: string };

const PYTHON_TYPES: Readonly<Record<string, string>> = Object.freeze({
  str: 'string',
  string: 'string',
  int: 'integer',
  integer: 'integer',
  float: 'number',
  number: 'number',
  bool: 'boolean',
  boolean: 'boolean',
  list: 'array',
  array: 'array',
  dict: 'object',
  object: 'object',
});

function examplesOf(parameter: SealToolsParameter): unknown[] | undefined {
  const found: unknown[] = [];
  for (const value of [parameter.examples, parameter.example_values]) {
    if (Array.isArray(value)) found.push(...(value as unknown[]));
    else if (value !== undefined) found.push(value);
  }
  if (parameter.example !== undefined) found.push(parameter.example);
  return found.length > 0 ? found : undefined;
}

function propertySchema(parameter: SealToolsParameter): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const type = parameter.type === undefined ? undefined : PYTHON_TYPES[parameter.type.trim().toLowerCase()];
  if (type !== undefined) out['type'] = type;
  if (parameter.description !== undefined) out['description'] = parameter.description;
  if (parameter.choices !== undefined && parameter.choices.length > 0) out['enum'] = [...parameter.choices];
  if (parameter.default !== undefined) out['default'] = parameter.default;
  const examples = examplesOf(parameter);
  if (examples !== undefined) out['examples'] = examples;
  if (parameter.unit !== undefined) out['unit'] = parameter.unit;
  return out;
}

/**
 * One line of `tool.jsonl` to a catalogue record: id = `api_name`, description = `api_description`,
 * `inputSchema` = `{ type: 'object', properties, required? }`, origin `'seal-tools'`. A malformed line
 * raises `INVALID_INPUT`.
 */
export function parseSealToolsTool(line: unknown): ToolRecord {
  const parsed = SealToolsToolSchema.safeParse(line, PLAIN_ISSUES);
  if (!parsed.success) {
    throw new CredenceError(
      'INVALID_INPUT',
      `Seal-Tools tool${nameOf(line, 'api_name')} is malformed: ${formatIssues(parsed.error)}`,
      {
        cause: parsed.error,
      },
    );
  }
  const tool = parsed.data;
  const properties: Record<string, Record<string, unknown>> = {};
  for (const [name, parameter] of Object.entries(tool.parameters)) properties[name] = propertySchema(parameter);
  const inputSchema =
    tool.required.length > 0
      ? { type: 'object', properties, required: [...tool.required] }
      : { type: 'object', properties };
  return { id: tool.api_name, description: tool.api_description, inputSchema, origin: SEAL_TOOLS_ORIGIN };
}

const SLOT = /^API_call_(\d+)$/;
const SLOT_REFERENCE = /API_call_(\d+)/g;

function collectSlots(value: unknown, into: number[]): void {
  if (typeof value === 'string') {
    for (const match of value.matchAll(SLOT_REFERENCE)) into.push(Number(match[1]));
  } else if (Array.isArray(value)) {
    for (const item of value) collectSlots(item, into);
  } else if (typeof value === 'object' && value !== null) {
    for (const item of Object.values(value)) collectSlots(item, into);
  }
}

/**
 * One line of `dev.jsonl` / `test_in_domain.jsonl` to an execution: `query` is the intent, each
 * `calling[]` entry a successful call, `"API_call_k"` references become `consumes` (sorted, unique,
 * always earlier; a reference to a slot of no earlier call is dropped). A malformed line raises
 * `INVALID_INPUT`.
 * @param lineNumber 0-based line number, the `queryId` of a line without an `id`.
 */
export function parseSealToolsQuery(line: unknown, lineNumber?: number): SealToolsExecution {
  const parsed = SealToolsQuerySchema.safeParse(line, PLAIN_ISSUES);
  const where = lineNumber === undefined ? '' : ` on line ${lineNumber}`;
  if (!parsed.success) {
    throw new CredenceError(
      'INVALID_INPUT',
      `Seal-Tools query${nameOf(line, 'id')}${where} is malformed: ${formatIssues(parsed.error)}`,
      {
        cause: parsed.error,
      },
    );
  }
  const query = parsed.data;
  const queryId = query.id !== undefined ? String(query.id) : lineNumber !== undefined ? String(lineNumber) : undefined;
  if (queryId === undefined) {
    throw new CredenceError('INVALID_INPUT', 'Seal-Tools query has no id and no line number was given to name it');
  }

  const owner = new Map<number, number>();
  query.calling.forEach((call, i) => {
    for (const response of call.responses) {
      const slot = SLOT.exec(response);
      if (slot !== null && !owner.has(Number(slot[1]))) owner.set(Number(slot[1]), i);
    }
  });

  const calls: CallInput[] = query.calling.map((call, i) => {
    const slots: number[] = [];
    collectSlots(call.parameters, slots);
    const consumes = new Set<number>();
    for (const slot of slots) {
      const producer = owner.get(slot);
      if (producer !== undefined && producer < i) consumes.add(producer);
    }
    return { tool: call.api, status: 'success', consumes: [...consumes].sort((a, b) => a - b) };
  });
  return { queryId, intent: query.query, calls };
}

function nameOf(line: unknown, key: string): string {
  if (typeof line !== 'object' || line === null) return '';
  const value = (line as Record<string, unknown>)[key];
  return typeof value === 'string' || typeof value === 'number' ? ` ${JSON.stringify(value)}` : '';
}
