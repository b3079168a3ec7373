/**
 * @module datasets/nestful
 * The NESTFUL data set (IBM/NESTFUL, Apache-2.0) as Credence catalogue records and executions.
 * Spec files (`*-spec.json`) list APIs whose parameters, in their three upstream spellings (executable,
 * glaive, sgd), become one JSON-Schema-like `inputSchema`. Data files hold samples whose calls carry a
 * `label: "varN"`; an argument holds `$varN$` or `$varN.field$` (fields may hold spaces or brackets),
 * whole or inside text, at any depth. The final `var_result` pseudo-call and references to it are
 * dropped. Upstream irregularities (commit 053cbde), reported in `problems`: a repeated label resolves to
 * the nearest earlier call, a missing leading `$` is repaired, a reference to no earlier call is dropped.
 */
import { z } from 'zod';
import { CredenceError } from '../core/errors.js';
import type { CallInput, ExecutionInput } from '../core/types.js';
import { formatIssues, PLAIN_ISSUES } from '../schemas/format.js';
import type { ToolRecord } from '../store/types.js';

/** The pseudo-call that ends every NESTFUL sample; it is in no spec. */
export const NESTFUL_RESULT_CALL = 'var_result';

const NestfulParameterSchema = z.object({
  type: z.string().optional(),
  description: z.string().optional(),
  required: z.boolean().optional(),
  optional: z.boolean().optional(),
  enum: z.array(z.unknown()).optional(),
  /** A list, or (4 times in the executable spec) a range text such as `"1-100"`. */
  allowed_values: z.union([z.array(z.unknown()), z.string()]).optional(),
  possible_values: z.array(z.unknown()).optional(),
  default: z.unknown().optional(),
  default_value: z.unknown().optional(),
  example: z.unknown().optional(),
  format: z.string().optional(),
  items: z.unknown().optional(),
  properties: z.unknown().optional(),
});

const NestfulParametersSchema = z.record(z.string(), NestfulParameterSchema);

/** One API of a `*-spec.json` file. Unknown fields (method, host, output_parameters...) are ignored. */
export const NestfulApiSchema = z.object({
  name: z.string().trim().min(1, 'must be a non-empty API name'),
  description: z.string().default(''),
  path_parameters: NestfulParametersSchema.optional(),
  query_parameters: NestfulParametersSchema.optional(),
  parameters: NestfulParametersSchema.optional(),
  arguments: NestfulParametersSchema.optional(),
});
export type NestfulApi = z.infer<typeof NestfulApiSchema>;
type NestfulParameter = z.infer<typeof NestfulParameterSchema>;

/** One call of a sample's `output`. */
export const NestfulCallSchema = z.object({
  name: z.string().trim().min(1, 'must be a non-empty API name'),
  arguments: z.record(z.string(), z.unknown()).default({}),
  label: z.string().optional(),
});

/** One sample of a `*-data.json` file. */
export const NestfulSampleSchema = z.object({
  input: z.string(),
  output: z.array(NestfulCallSchema),
});
export type NestfulSample = z.infer<typeof NestfulSampleSchema>;

/** An execution with the sample it came from (`<idPrefix>-<index>`, or the bare 0-based index). */
export type NestfulExecution = Omit<ExecutionInput, 'id'> & { sampleId: string };

/**
 * Something irregular in one sample (0-based index in the file): a dropped or repaired reference, or a skipped sample.
 */
export interface NestfulProblem {
  sample: number;
  reason: string;
}

export interface NestfulData {
  executions: NestfulExecution[];
  problems: NestfulProblem[];
}

/** Parameter groups in the order their properties are listed; on a name clash the first wins. */
const PARAMETER_GROUPS = ['path_parameters', 'query_parameters', 'parameters', 'arguments'] as const;

const JSON_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object', 'null']);

function normaliseType(raw: string | undefined): { type?: string; format?: string } {
  if (raw === undefined) return {};
  const lower = raw.trim().toLowerCase();
  if (JSON_TYPES.has(lower)) return { type: lower };
  if (lower === 'enum') return { type: 'string' };
  if (lower.startsWith('date')) return { type: 'string', format: 'date' };
  return {};
}

/** A numeric range written as text, `"1-100"`. */
const RANGE = /^(-?\d+(?:\.\d+)?)\s*-\s*(-?\d+(?:\.\d+)?)$/;

function propertySchema(parameter: NestfulParameter): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const { type, format } = normaliseType(parameter.type);
  if (type !== undefined) out['type'] = type;
  const fmt = parameter.format ?? format;
  if (fmt !== undefined) out['format'] = fmt;
  const allowed = parameter.allowed_values;
  const allowedText = typeof allowed === 'string' && allowed.trim() !== '' ? allowed.trim() : undefined;
  const range = allowedText === undefined ? null : RANGE.exec(allowedText);
  if (range !== null) {
    out['minimum'] = Number(range[1]);
    out['maximum'] = Number(range[2]);
  }
  const note = allowedText !== undefined && range === null ? `allowed: ${allowedText}` : undefined;
  if (parameter.description !== undefined || note !== undefined) {
    out['description'] = [parameter.description, note === undefined ? undefined : `(${note})`]
      .filter((t) => t !== undefined)
      .join(' ');
  }
  const values = [parameter.enum, Array.isArray(allowed) ? allowed : undefined, parameter.possible_values].find(
    (v) => v !== undefined && v.length > 0,
  );
  if (values !== undefined) out['enum'] = [...values];
  const fallback = parameter.default !== undefined ? parameter.default : parameter.default_value;
  if (fallback !== undefined) out['default'] = fallback;
  if (parameter.example !== undefined) out['examples'] = [parameter.example];
  if (parameter.items !== undefined) out['items'] = parameter.items;
  if (parameter.properties !== undefined) out['properties'] = parameter.properties;
  return out;
}

/** The `inputSchema` of one API: `{ type: 'object', properties, required? }` (required only when some are). */
function inputSchemaOf(api: NestfulApi): Record<string, unknown> {
  const properties: Record<string, Record<string, unknown>> = {};
  const required: string[] = [];
  for (const group of PARAMETER_GROUPS) {
    for (const [name, parameter] of Object.entries(api[group] ?? {})) {
      if (Object.hasOwn(properties, name)) continue;
      properties[name] = propertySchema(parameter);
      if (parameter.required === true && parameter.optional !== true) required.push(name);
    }
  }
  return required.length > 0 ? { type: 'object', properties, required } : { type: 'object', properties };
}

/**
 * A NESTFUL `*-spec.json` document to catalogue records (id = API name). An API listed more than
 * once is kept the first time (the glaive spec repeats five names, identically: 70 entries, 64
 * APIs). A malformed document or API raises `INVALID_INPUT` naming its position.
 * @param origin recorded on every tool, e.g. `'nestful:executable'`. @default 'nestful'
 */
export function parseNestfulSpec(json: unknown, origin = 'nestful'): ToolRecord[] {
  if (!Array.isArray(json)) {
    throw new CredenceError('INVALID_INPUT', `a NESTFUL spec must be a JSON array of APIs, got ${describe(json)}`);
  }
  const tools: ToolRecord[] = [];
  const seen = new Set<string>();
  json.forEach((entry, index) => {
    const parsed = NestfulApiSchema.safeParse(entry, PLAIN_ISSUES);
    if (!parsed.success) {
      throw new CredenceError(
        'INVALID_INPUT',
        `NESTFUL spec entry ${index}${nameOf(entry)} is malformed: ${formatIssues(parsed.error)}`,
        {
          cause: parsed.error,
        },
      );
    }
    const api = parsed.data;
    if (seen.has(api.name)) return;
    seen.add(api.name);
    tools.push({ id: api.name, description: api.description, inputSchema: inputSchemaOf(api), origin });
  });
  return tools;
}

const REFERENCE = /\$(var\d+)(?:\.[^$]*)?\$/g;
/** A whole value that lost its leading `$` (`"var1.product_id$"`, seen once upstream). */
const REFERENCE_MISSING_DOLLAR = /^(var\d+)(?:\.[^$]*)?\$$/;

interface Reference {
  label: string;
  /** The raw value, when it had to be repaired to be read as a reference. */
  repaired?: string;
}

function collectReferences(value: unknown, into: Reference[]): void {
  if (typeof value === 'string') {
    let found = false;
    for (const match of value.matchAll(REFERENCE)) {
      found = true;
      into.push({ label: match[1] as string });
    }
    const missing = found ? null : REFERENCE_MISSING_DOLLAR.exec(value);
    if (missing !== null) into.push({ label: missing[1] as string, repaired: value });
  } else if (Array.isArray(value)) {
    for (const item of value) collectReferences(item, into);
  } else if (typeof value === 'object' && value !== null) {
    for (const item of Object.values(value)) collectReferences(item, into);
  }
}

function toExecution(
  sample: NestfulSample,
  index: number,
  sampleId: string,
  problems: NestfulProblem[],
): NestfulExecution {
  const resultLabels = new Set(
    sample.output.flatMap((c) => (c.name === NESTFUL_RESULT_CALL && c.label !== undefined ? [c.label] : [])),
  );
  const kept = sample.output.filter((c) => c.name !== NESTFUL_RESULT_CALL);
  const positions = new Map<string, number[]>();
  kept.forEach((call, i) => {
    if (call.label === undefined) return;
    const list = positions.get(call.label) ?? [];
    list.push(i);
    positions.set(call.label, list);
  });

  const calls: CallInput[] = kept.map((call, i) => {
    const references: Reference[] = [];
    collectReferences(call.arguments, references);
    const consumes = new Set<number>();
    for (const ref of references) {
      const at = positions.get(ref.label) ?? [];
      const earlier = at.filter((p) => p < i);
      if (earlier.length > 0) {
        consumes.add(Math.max(...earlier));
        if (ref.repaired !== undefined) {
          problems.push({
            sample: index,
            reason:
              `call ${i} (${call.name}): argument ${JSON.stringify(ref.repaired)} lacks its leading '$'; ` +
              `read as a reference to ${ref.label}`,
          });
        }
      } else if (at.length > 0) {
        problems.push({
          sample: index,
          reason:
            `call ${i} (${call.name}) references ${ref.label}, ` +
            `which only call ${at.join(', ')} at or after it carries; consume dropped`,
        });
      } else if (!resultLabels.has(ref.label)) {
        problems.push({
          sample: index,
          reason: `call ${i} (${call.name}) references unknown label ${ref.label}; consume dropped`,
        });
      }
    }
    return { tool: call.name, status: 'success', consumes: [...consumes].sort((a, b) => a - b) };
  });
  return { sampleId, intent: sample.input, calls };
}

/**
 * A NESTFUL `*-data.json` document to executions: `input` is the intent, each call of `output` a
 * successful call, `$varN...$` references become `consumes` (sorted, unique, always earlier), the
 * `var_result` pseudo-call is dropped. A malformed sample is skipped and a bad reference dropped,
 * both reported in `problems`; a document that is not an array raises `INVALID_INPUT`.
 * @param idPrefix gives `sampleId` = `<idPrefix>-<index>`; without it the bare 0-based index.
 */
export function parseNestfulData(json: unknown, idPrefix?: string): NestfulData {
  if (!Array.isArray(json)) {
    throw new CredenceError('INVALID_INPUT', `NESTFUL data must be a JSON array of samples, got ${describe(json)}`);
  }
  const executions: NestfulExecution[] = [];
  const problems: NestfulProblem[] = [];
  json.forEach((entry, index) => {
    const parsed = NestfulSampleSchema.safeParse(entry, PLAIN_ISSUES);
    if (!parsed.success) {
      problems.push({ sample: index, reason: `sample skipped: ${formatIssues(parsed.error)}` });
      return;
    }
    const sampleId = idPrefix === undefined ? String(index) : `${idPrefix}-${index}`;
    executions.push(toExecution(parsed.data, index, sampleId, problems));
  });
  return { executions, problems };
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    return `${typeof value} ${JSON.stringify(value).slice(0, 60)}`;
  return typeof value;
}

function nameOf(entry: unknown): string {
  if (typeof entry === 'object' && entry !== null && 'name' in entry && typeof entry.name === 'string')
    return ` (${JSON.stringify(entry.name)})`;
  return '';
}
