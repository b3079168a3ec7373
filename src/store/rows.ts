/**
 * @module store/rows
 * Rows of the store's tables as records: both backends name their columns alike (the SQLite schema's
 * names), so one set of readers serves both. Numbers come as JavaScript numbers from either driver.
 */
import type {
  EdgeType,
  FeedbackKind,
  Intent,
  MemoryCategory,
  MemoryLife,
  ObservationType,
  Outcome,
  OutcomeKind,
} from '../core/types.js';
import type {
  CallRecord,
  EdgeRecord,
  EmbeddingStamp,
  ExecutionRecord,
  FeedbackRecord,
  InstinctRecord,
  MemoryRecord,
  ObservationRecord,
  OutcomeBin,
  OutcomeRecord,
  ShownRecord,
  SkillRecord,
  StoredEmbedding,
  StoredFit,
  TableCounts,
  TableName,
  ToolRecord,
  WorkflowRecord,
} from './types.js';
import { TABLES } from './types.js';

export type Row = Record<string, unknown>;

/** A value as JSON text (`null` for undefined), for a JSON text column. */
export const json = (value: unknown): string => JSON.stringify(value ?? null);
/** A JSON text column's value, or `fallback` when it is empty. */
export const parse = <T>(text: unknown, fallback: T): T =>
  typeof text === 'string' && text !== '' ? (JSON.parse(text) as T) : fallback;
const optNum = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);

export function toTool(row: Row): ToolRecord {
  return {
    id: String(row.id),
    description: String(row.description),
    ...(row.input_schema == null ? {} : { inputSchema: parse<unknown>(row.input_schema, null) }),
    ...(row.origin == null ? {} : { origin: String(row.origin) }),
    ...(row.annotations == null ? {} : { annotations: parse<Record<string, unknown>>(row.annotations, {}) }),
  };
}

export function toEdge(row: Row): EdgeRecord {
  return {
    from: String(row.from_tool),
    to: String(row.to_tool),
    type: row.type as EdgeRecord['type'],
    source: row.source as EdgeRecord['source'],
    count: Number(row.count),
    successes: Number(row.successes),
    failures: Number(row.failures),
    firstSeen: optNum(row.first_seen) ?? null,
    lastSeen: optNum(row.last_seen) ?? null,
    ...(row.declared == null || Number(row.declared) === 0 ? {} : { declared: true }),
  };
}

export function toFit(row: Row): StoredFit {
  return {
    name: String(row.name),
    runs: Number(row.runs),
    tools: Number(row.tools),
    revision: Number(row.revision),
    value: String(row.value),
    fittedAt: Number(row.fitted_at),
  };
}

/** Call rows (ordered by execution, then index) as each execution's calls, by execution id. */
export function callsByExecution(rows: Iterable<Row>): Map<string, CallRecord[]> {
  const calls = new Map<string, CallRecord[]>();
  for (const row of rows) {
    const id = String(row.execution_id);
    const list = calls.get(id);
    if (list === undefined) calls.set(id, [toCall(row)]);
    else list.push(toCall(row));
  }
  return calls;
}

export function toCall(row: Row): CallRecord {
  return {
    tool: String(row.tool),
    status: row.status as CallRecord['status'],
    retries: Number(row.retries),
    ...(row.duration_ms == null ? {} : { durationMs: Number(row.duration_ms) }),
    consumes: parse<number[]>(row.consumes, []),
    ...(row.parent == null ? {} : { parent: Number(row.parent) }),
    ...(row.depends_on == null ? {} : { dependsOn: parse<number[]>(row.depends_on, []) }),
    ...(row.at == null ? {} : { at: Number(row.at) }),
    ...(row.intent == null ? {} : { intent: row.intent as Intent }),
    ...(row.input == null ? {} : { input: String(row.input) }),
    ...(row.output == null ? {} : { output: String(row.output) }),
  };
}

export function toExecution(row: Row, calls: CallRecord[]): ExecutionRecord {
  return {
    id: String(row.id),
    intent: String(row.intent),
    ...(row.intent_kind == null ? {} : { intentKind: row.intent_kind as Intent }),
    startedAt: Number(row.started_at),
    ...(row.ended_at == null ? {} : { endedAt: Number(row.ended_at) }),
    ...(row.confidence == null ? {} : { confidence: Number(row.confidence) }),
    ...(row.summary == null ? {} : { summary: String(row.summary) }),
    ...(row.learned == null ? {} : { learned: parse<EdgeType[]>(row.learned, []) }),
    calls,
  };
}

export function toObservation(row: Row): ObservationRecord {
  return {
    id: String(row.id),
    timestamp: Number(row.timestamp),
    type: row.type as ObservationType,
    context: parse(row.context, {}),
    observation: String(row.observation),
    evidence: parse<string[]>(row.evidence, []),
    confidence: Number(row.confidence),
    tags: parse<string[]>(row.tags, []),
  };
}

export function toMemory(row: Row): MemoryRecord {
  const tags = typeof row.tags === 'string' ? row.tags : '';
  return {
    id: String(row.id),
    category: row.category as MemoryCategory,
    title: String(row.title),
    text: String(row.text),
    tags: tags === '' ? [] : tags.split('\n'),
    ...(row.path == null ? {} : { path: String(row.path) }),
    ...(row.confidence == null ? {} : { confidence: Number(row.confidence) }),
    ...(row.intent == null ? {} : { intent: row.intent as Intent }),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    ...(row.life == null ? {} : { life: parse<MemoryLife>(row.life, {}) }),
  };
}

export function toInstinct(r: Row): InstinctRecord {
  return {
    id: String(r.id),
    slug: String(r.slug),
    text: String(r.text),
    confidence: Number(r.confidence),
    status: r.status as InstinctRecord['status'],
    evidence: parse<string[]>(r.evidence, []),
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}

export function toSkill(r: Row): SkillRecord {
  return {
    id: String(r.id),
    name: String(r.name),
    description: String(r.description),
    rules: parse<string[]>(r.rules, []),
    confidence: Number(r.confidence),
    evidence: parse<string[]>(r.evidence, []),
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}

export function toFeedback(r: Row): FeedbackRecord {
  return {
    id: String(r.id),
    targetId: String(r.target_id),
    kind: r.kind as FeedbackKind,
    ...(r.note == null ? {} : { note: String(r.note) }),
    at: Number(r.at),
  };
}

export function toShown(r: Row): ShownRecord {
  return {
    id: String(r.id),
    surface: r.surface as ShownRecord['surface'],
    target: String(r.target),
    ...(r.query == null ? {} : { query: String(r.query) }),
    at: Number(r.at),
    ...(r.verdict == null ? {} : { verdict: r.verdict as 'accepted' | 'rejected', verdictAt: Number(r.verdict_at) }),
    ...(r.confidence == null ? {} : { confidence: Number(r.confidence) }),
    ...(r.outcome == null ? {} : { outcome: r.outcome as Outcome, outcomeAt: Number(r.outcome_at) }),
    ...(r.session == null ? {} : { session: String(r.session) }),
  };
}

export function toOutcome(r: Row): OutcomeRecord {
  return {
    id: String(r.id),
    kind: r.surface as OutcomeKind,
    target: String(r.target),
    confidence: Number(r.confidence),
    outcome: r.outcome as Outcome,
    at: Number(r.at),
    outcomeAt: Number(r.outcome_at),
  };
}

/** An outcome read as columns (id, surface, target, confidence, outcome, at, outcome_at): as {@link toOutcome}. */
export function toOutcomeOfColumns(r: readonly unknown[]): OutcomeRecord {
  return {
    id: String(r[0]),
    kind: r[1] as OutcomeKind,
    target: String(r[2]),
    confidence: Number(r[3]),
    outcome: r[4] as Outcome,
    at: Number(r[5]),
    outcomeAt: Number(r[6]),
  };
}

/** One group of the outcome sums (`outcomeBins`): kind, bin and outcome with their count and sums. */
export function toOutcomeBin(r: Row): OutcomeBin {
  return {
    kind: r.surface as OutcomeKind,
    bin: Number(r.bin),
    outcome: r.outcome as Outcome,
    count: Number(r.n),
    sumConfidence: Number(r.sum_confidence),
    sumSquares: Number(r.sum_squares),
  };
}

/** A copy of stored float32 bytes as a Float32Array (a driver's Buffer may be unaligned and pooled). */
export function floatsOf(bytes: Uint8Array): Float32Array {
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return new Float32Array(copy.buffer);
}

export const toEmbeddingStamp = (row: Row): EmbeddingStamp => ({
  refId: String(row.ref_id),
  modelKey: String(row.model_key),
  textHash: String(row.text_hash),
});

export const toEmbedding = (row: Row): StoredEmbedding => ({
  ...toEmbeddingStamp(row),
  vector: floatsOf(row.vector as Uint8Array),
});

export function toWorkflow(row: Row): WorkflowRecord {
  return {
    id: String(row.id),
    key: String(row.key),
    tools: parse<string[]>(row.tools, []),
    edges: parse<[string, string][]>(row.edges, []),
    intents: parse<string[]>(row.intents, []),
    intentsAt: parse<number[]>(row.intents_at, []),
    runs: Number(row.runs),
    successes: Number(row.successes),
    firstSeen: Number(row.first_seen),
    lastSeen: Number(row.last_seen),
  };
}

/** A table's count per row `{ name, n }` of the kept counts (migration 13); a table with no row counts 0. */
export function countsOf(rows: Iterable<Row>): TableCounts {
  const counts = Object.fromEntries(TABLES.map((t) => [t, 0])) as TableCounts;
  for (const r of rows) {
    const name = String(r.name) as TableName;
    if (name in counts) counts[name] = Number(r.n);
  }
  return counts;
}

/** Where the kept counts (rows `{ scope, name, n }`) differ from the rows counted now; `check` reports them. */
export function countMismatches(kept: Iterable<Row>, counted: Iterable<Row>): string[] {
  const key = (r: Row) => `${String(r.name)}\u0000${String(r.scope)}`;
  const now = new Map([...counted].map((r) => [key(r), Number(r.n)]));
  const problems: string[] = [];
  for (const r of kept) {
    const n = now.get(key(r)) ?? 0;
    now.delete(key(r));
    if (Number(r.n) !== n)
      problems.push(`${String(r.name)} in scope ${String(r.scope)}: counted ${String(r.n)}, holds ${n}`);
  }
  for (const [k, n] of now) {
    const [name, scope] = k.split('\u0000');
    if (n !== 0) problems.push(`${name} in scope ${scope}: counted 0, holds ${n}`);
  }
  return problems;
}
