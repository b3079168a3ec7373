/**
 * @module store/dump-rows
 * The columns of every dumped table (`DUMP_TABLES`), as both backends name them, and what every
 * backend does the same way with a dumped row: check it against its table (a dump file is a trust
 * boundary) and scrub its text before it is stored (SPEC §10).
 */
import { formatIssues, PLAIN_ISSUES } from '../schemas/format.js';
import { MemoryLifeSchema } from '../schemas/memory.js';
import { observationFingerprint, scrubRecord } from './shared.js';
import type { DumpRow, DumpTable, ObservationRecord } from './types.js';

/**
 * How a column's value travels in a dump row: `text` a string, `json` a string holding JSON (its
 * strings are scrubbed as values, the way the store scrubbed them before serialising), `integer`
 * and `real` numbers, `hex` and `base64` the bytes of a BLOB.
 */
export type DumpColumnKind = 'text' | 'json' | 'integer' | 'real' | 'hex' | 'base64';

export interface DumpColumn {
  readonly name: string;
  readonly kind: DumpColumnKind;
  /** NOT NULL without a default: a row must give it. */
  readonly required: boolean;
  /** May hold NULL. */
  readonly nullable: boolean;
}

const col = (name: string, kind: DumpColumnKind, how: 'required' | 'default' | 'nullable'): DumpColumn =>
  Object.freeze({ name, kind, required: how === 'required', nullable: how === 'nullable' });

/** Each table's columns, in schema order (a row's keys come out in this order). */
export const DUMP_COLUMNS: Readonly<Record<DumpTable, readonly DumpColumn[]>> = Object.freeze({
  tools: [
    col('scope', 'text', 'required'),
    col('id', 'text', 'required'),
    col('description', 'text', 'default'),
    col('input_schema', 'json', 'nullable'),
    col('origin', 'text', 'nullable'),
    col('calls', 'integer', 'default'),
    col('created_at', 'integer', 'required'),
    col('updated_at', 'integer', 'required'),
    col('annotations', 'json', 'nullable'),
  ],
  edges: [
    col('scope', 'text', 'required'),
    col('from_tool', 'text', 'required'),
    col('to_tool', 'text', 'required'),
    col('type', 'text', 'required'),
    col('source', 'text', 'required'),
    col('count', 'integer', 'default'),
    col('successes', 'integer', 'default'),
    col('failures', 'integer', 'default'),
    col('first_seen', 'integer', 'nullable'),
    col('last_seen', 'integer', 'nullable'),
    col('declared', 'integer', 'default'),
  ],
  executions: [
    col('scope', 'text', 'required'),
    col('id', 'text', 'required'),
    col('intent', 'text', 'required'),
    col('intent_kind', 'text', 'nullable'),
    col('started_at', 'integer', 'required'),
    col('ended_at', 'integer', 'nullable'),
    col('confidence', 'real', 'nullable'),
    col('summary', 'text', 'nullable'),
    col('learned', 'json', 'nullable'),
  ],
  calls: [
    col('scope', 'text', 'required'),
    col('execution_id', 'text', 'required'),
    col('idx', 'integer', 'required'),
    col('tool', 'text', 'required'),
    col('status', 'text', 'required'),
    col('retries', 'integer', 'default'),
    col('duration_ms', 'real', 'nullable'),
    col('consumes', 'json', 'default'),
    col('parent', 'integer', 'nullable'),
    col('at', 'integer', 'nullable'),
    col('intent', 'text', 'nullable'),
    col('input', 'text', 'nullable'),
    col('output', 'text', 'nullable'),
    col('depends_on', 'json', 'nullable'),
  ],
  workflows: [
    col('scope', 'text', 'required'),
    col('id', 'text', 'required'),
    col('key', 'text', 'required'),
    col('tools', 'json', 'default'),
    col('edges', 'json', 'default'),
    col('intents', 'json', 'default'),
    col('intents_at', 'json', 'default'),
    col('runs', 'integer', 'default'),
    col('successes', 'integer', 'default'),
    col('first_seen', 'integer', 'required'),
    col('last_seen', 'integer', 'required'),
  ],
  observations: [
    col('scope', 'text', 'required'),
    col('id', 'text', 'required'),
    col('timestamp', 'integer', 'required'),
    col('type', 'text', 'required'),
    col('context', 'json', 'default'),
    col('observation', 'text', 'required'),
    col('evidence', 'json', 'default'),
    col('confidence', 'real', 'required'),
    col('tags', 'json', 'default'),
    col('content_hash', 'hex', 'required'),
  ],
  memories: [
    col('scope', 'text', 'required'),
    col('id', 'text', 'required'),
    col('category', 'text', 'required'),
    col('title', 'text', 'required'),
    col('text', 'text', 'required'),
    col('tags', 'text', 'default'),
    col('path', 'text', 'nullable'),
    col('confidence', 'real', 'nullable'),
    col('intent', 'text', 'nullable'),
    col('created_at', 'integer', 'required'),
    col('updated_at', 'integer', 'required'),
    col('life', 'json', 'nullable'),
  ],
  instincts: [
    col('scope', 'text', 'required'),
    col('id', 'text', 'required'),
    col('slug', 'text', 'required'),
    col('text', 'text', 'required'),
    col('confidence', 'real', 'required'),
    col('status', 'text', 'required'),
    col('evidence', 'json', 'default'),
    col('created_at', 'integer', 'required'),
    col('updated_at', 'integer', 'required'),
  ],
  skills: [
    col('scope', 'text', 'required'),
    col('id', 'text', 'required'),
    col('name', 'text', 'required'),
    col('description', 'text', 'required'),
    col('rules', 'json', 'default'),
    col('confidence', 'real', 'required'),
    col('evidence', 'json', 'default'),
    col('created_at', 'integer', 'required'),
    col('updated_at', 'integer', 'required'),
  ],
  feedback: [
    col('scope', 'text', 'required'),
    col('id', 'text', 'required'),
    col('target_id', 'text', 'required'),
    col('kind', 'text', 'required'),
    col('note', 'text', 'nullable'),
    col('at', 'integer', 'required'),
  ],
  shown: [
    col('scope', 'text', 'required'),
    col('id', 'text', 'required'),
    col('surface', 'text', 'required'),
    col('target', 'text', 'required'),
    col('query', 'text', 'nullable'),
    col('at', 'integer', 'required'),
    col('verdict', 'text', 'nullable'),
    col('verdict_at', 'integer', 'nullable'),
    col('confidence', 'real', 'nullable'),
    col('outcome', 'text', 'nullable'),
    col('outcome_at', 'integer', 'nullable'),
    col('session', 'text', 'nullable'),
  ],
  embeddings: [
    col('scope', 'text', 'required'),
    col('kind', 'text', 'required'),
    col('ref_id', 'text', 'required'),
    col('model_key', 'text', 'required'),
    col('text_hash', 'text', 'required'),
    col('vector', 'base64', 'required'),
  ],
  hook_sessions: [
    col('scope', 'text', 'required'),
    col('session_id', 'text', 'required'),
    col('turn', 'integer', 'default'),
    col('state', 'json', 'default'),
    col('updated_at', 'integer', 'required'),
  ],
  hook_events: [
    col('scope', 'text', 'required'),
    col('session_id', 'text', 'required'),
    col('turn', 'integer', 'required'),
    col('kind', 'text', 'required'),
    col('at', 'integer', 'required'),
    col('payload', 'json', 'required'),
    col('claimed_by', 'text', 'nullable'),
    col('claimed_at', 'integer', 'nullable'),
    col('key', 'text', 'nullable'),
    col('done_at', 'integer', 'nullable'),
  ],
  // Fits measured on replays (issue 20) are kept until the runs change by a tenth: a restored store answers as its
  // source only with them.
  fits: [
    col('scope', 'text', 'required'),
    col('name', 'text', 'required'),
    col('runs', 'integer', 'required'),
    col('tools', 'integer', 'required'),
    col('revision', 'integer', 'required'),
    col('value', 'json', 'required'),
    col('fitted_at', 'integer', 'required'),
  ],
  // What forget removed (tombstones): a restored store still has the other machines take the forgotten files out.
  forgotten: [
    col('scope', 'text', 'required'),
    col('id', 'text', 'required'),
    col('kind', 'text', 'required'),
    col('name', 'text', 'required'),
    col('at', 'integer', 'required'),
  ],
});

const HEX = /^(?:[0-9a-f]{2})*$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Why `row` cannot be a row of `table` (an unknown column, a missing required one, a value of the
 * wrong type), or undefined when it can. Constraints the schema checks itself (allowed values,
 * unique keys) are left to the store.
 */
export function dumpRowProblem(table: DumpTable, row: unknown): string | undefined {
  if (row === null || typeof row !== 'object' || Array.isArray(row))
    return `a ${table} row must be an object of column values`;
  const columns = DUMP_COLUMNS[table];
  const known = new Set(columns.map((c) => c.name));
  const values = row as Record<string, unknown>;
  const unknown = Object.keys(values).filter((name) => !known.has(name));
  if (unknown.length > 0)
    return (
      `${table} has no column ${unknown.map((n) => JSON.stringify(n)).join(', ')} ` +
      `(columns: ${[...known].join(', ')})`
    );
  for (const column of columns) {
    const value = values[column.name];
    if (value === undefined) {
      if (column.required) return `${table}.${column.name} is missing`;
      continue;
    }
    if (value === null) {
      if (!column.nullable) return `${table}.${column.name} cannot be null`;
      continue;
    }
    const problem = valueProblem(column, value);
    if (problem !== undefined) return `${table}.${column.name} ${problem}, got ${JSON.stringify(value).slice(0, 80)}`;
  }
  if (table === 'memories' && typeof values.life === 'string') {
    const life = MemoryLifeSchema.safeParse(JSON.parse(values.life), PLAIN_ISSUES);
    if (!life.success) return `memories.life ${formatIssues(life.error)}`;
  }
  return undefined;
}

function valueProblem(column: DumpColumn, value: unknown): string | undefined {
  switch (column.kind) {
    case 'integer':
    case 'real':
      return typeof value === 'number' && Number.isFinite(value) ? undefined : 'must be a finite number';
    case 'text':
      return typeof value === 'string' ? undefined : 'must be a string';
    case 'json':
      if (typeof value !== 'string') return 'must be a string of JSON';
      try {
        JSON.parse(value);
        return undefined;
      } catch {
        return 'must be a string of JSON';
      }
    case 'hex':
      return typeof value === 'string' && HEX.test(value) ? undefined : 'must be lowercase hex bytes';
    case 'base64':
      return typeof value === 'string' && value.length % 4 === 0 && BASE64.test(value)
        ? undefined
        : 'must be base64 bytes';
  }
}

/**
 * The row with its text scrubbed of secrets, the way the store scrubs what it is given: text
 * columns as text, JSON columns as the values they hold (re-serialised only when something was
 * redacted). The row itself when nothing changed (the common case: a dump of a store holds only
 * scrubbed text). An observation whose content changed gets its content hash again.
 */
export function scrubDumpRow(table: DumpTable, row: DumpRow, scrub: <T>(record: T) => T = scrubRecord): DumpRow {
  let out: DumpRow | undefined;
  for (const column of DUMP_COLUMNS[table]) {
    const value = row[column.name];
    if (typeof value !== 'string') continue;
    let scrubbed = value;
    if (column.kind === 'text') scrubbed = scrub(value);
    else if (column.kind === 'json') {
      const parsed: unknown = JSON.parse(value);
      const clean = scrub(parsed);
      if (clean !== parsed) {
        const text = JSON.stringify(clean);
        if (text !== JSON.stringify(parsed)) scrubbed = text;
      }
    }
    if (scrubbed !== value) {
      out ??= { ...row };
      out[column.name] = scrubbed;
    }
  }
  if (out === undefined) return row;
  if (table === 'observations') out.content_hash = observationFingerprint(observationOf(out)).toString('hex');
  return out;
}

/** The observation a (checked) observations row holds, as the fingerprint reads it. */
function observationOf(row: DumpRow): Omit<ObservationRecord, 'id'> {
  const json = <T>(value: unknown, fallback: T): T => (typeof value === 'string' ? (JSON.parse(value) as T) : fallback);
  return {
    timestamp: Number(row.timestamp),
    type: row.type as ObservationRecord['type'],
    context: json(row.context, {}),
    observation: String(row.observation),
    evidence: json(row.evidence, []),
    confidence: Number(row.confidence),
    tags: json(row.tags, []),
  };
}
