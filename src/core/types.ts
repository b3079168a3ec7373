/**
 * @module core/types
 * Plain data types of the Credence model (SPEC §2). No behaviour lives here.
 */

/** Kinds of tool-graph edges (seed 000). */
export const EDGE_TYPES = ['dependency', 'contains', 'alternative', 'sequence'] as const;
export type EdgeType = (typeof EDGE_TYPES)[number];

/** How an edge was learned (seed 000). */
export const EDGE_SOURCES = ['template', 'inferred', 'observed'] as const;
export type EdgeSource = (typeof EDGE_SOURCES)[number];

/** Outcome of one call in an execution (SPEC §2, seed 002). */
export const CALL_STATUSES = ['success', 'failure', 'partial'] as const;
export type CallStatus = (typeof CALL_STATUSES)[number];

/** Intent taxonomy (seed 002). */
export const INTENTS = ['research', 'implementation', 'testing', 'debugging', 'documentation', 'general'] as const;
export type Intent = (typeof INTENTS)[number];

/** Observation types (seed 004). */
export const OBSERVATION_TYPES = ['pattern', 'correction', 'preference', 'error', 'success'] as const;
export type ObservationType = (typeof OBSERVATION_TYPES)[number];

/** Phases an observation can be made in (seed 004). */
export const OBSERVATION_PHASES = ['planning', 'implementation', 'review'] as const;
export type ObservationPhase = (typeof OBSERVATION_PHASES)[number];

/** Memory categories recall can return (SPEC §2, §8): the two a user starts with, and the four Credence derives. */
export const MEMORY_CATEGORIES = ['note', 'decision', 'observation', 'execution', 'instinct', 'skill'] as const;
/** The categories of what Credence derives itself (observations, runs, evolve): never given to `remember`. */
export const RESERVED_MEMORY_CATEGORIES = ['observation', 'execution', 'instinct', 'skill'] as const;
/**
 * A category a user may give: a short lowercase word, a letter then letters, digits or `-`, at most 32 (`runbook`,
 * `bug`, `pattern`).
 */
export const MEMORY_CATEGORY_PATTERN = /^[a-z][a-z0-9-]{0,31}$/;
/** A built-in category or a user's own word matching {@link MEMORY_CATEGORY_PATTERN}. */
export type MemoryCategory = (typeof MEMORY_CATEGORIES)[number] | (string & {});

/**
 * A memory's life (issue 23), besides when it was written: when it was true, whether a later memory superseded it
 * or disagrees with it (and why), how often it was remembered and from where, and the turn of a conversation it is.
 * Absent fields: a current memory, remembered once, true from when it was written.
 */
export interface MemoryLife {
  /** When it became true (epoch ms): a turn's time, or given; default the time it was written. */
  validFrom?: number;
  /** When it stopped being true: the time of the memory that superseded it. */
  validTo?: number;
  /** `superseded`: a later memory replaced it; `conflict`: a memory of the same subject disagrees, undecided. */
  status?: 'superseded' | 'conflict';
  /** The memory that superseded it. */
  supersededBy?: string;
  /** The memories it replaced (kept, linked). */
  supersedes?: string[];
  /** The memories it disagrees with, undecided. */
  conflictsWith?: string[];
  /** Why it was superseded or is in conflict, in words (the cue and the shared subject). */
  why?: string;
  /** How many times it was remembered (a near-identical memory merges into it). @default 1 */
  seen?: number;
  /** When it was last remembered again. */
  lastSeen?: number;
  /** Where it came from (paths, ids or sources given), each once. */
  sources?: string[];
  /** The turn of a conversation it is. */
  turn?: { speaker: string; session: string; index: number };
}

/** Recall labels (seed 003). */
export type ConfidenceLabel = 'high' | 'medium' | 'low';

/** Learned-confidence bands (seed 004). */
export type ConfidenceBand = 'noise' | 'tentative' | 'probable' | 'certain' | 'established';

/** Feedback verdicts that move a learned thing's confidence (seed 004, SPEC §6). */
export const FEEDBACK_KINDS = ['explicit', 'validation', 'correction', 'contradiction'] as const;
export type FeedbackKind = (typeof FEEDBACK_KINDS)[number];

/**
 * The verdicts on a shown result, an instinct or a skill (`feedback` in the CLI, MCP and dashboard). The last three
 * are outcomes (issue 24): `succeeded` / `failed` say a shown result was used and how it went; `contradicted` is
 * `contradicts` in the outcome's word.
 */
export const VERDICTS = Object.freeze([
  'accepted',
  'rejected',
  'contradicts',
  'validated',
  'succeeded',
  'failed',
  'contradicted',
] as const);
export type Verdict = (typeof VERDICTS)[number];

/** The kinds of claim whose outcomes are recorded (issue 24): the four surfaces, and instincts and skills. */
export const OUTCOME_KINDS = Object.freeze(['search', 'next', 'dag', 'recall', 'instinct', 'skill'] as const);
export type OutcomeKind = (typeof OUTCOME_KINDS)[number];

/**
 * What became of a shown claim (issue 24): taken or not (accepted, rejected), used and then succeeded or failed,
 * or later found true or false (validated, contradicted). Positive: accepted, succeeded, validated.
 */
export const OUTCOMES = Object.freeze([
  'accepted',
  'rejected',
  'succeeded',
  'failed',
  'validated',
  'contradicted',
] as const);
export type Outcome = (typeof OUTCOMES)[number];

/** A score with the parts that made it: every confidence in Credence is explainable. */
export interface Explained<P extends object = Record<string, number | string>> {
  readonly value: number;
  readonly parts: P;
}

/** One call of an execution as it is recorded (issue 3, SPEC §2). */
export interface CallInput {
  tool: string;
  status: CallStatus;
  /** @default 0 */
  retries?: number;
  durationMs?: number;
  /** Indexes of earlier calls in the same execution whose output this call used. */
  consumes?: number[];
  /** Index of the earlier call this one was made inside (a sub-flow, a capability). */
  parent?: number;
  /**
   * Indexes of the earlier calls this one waited for, when the run's dependencies are known (an explicit
   * DAG, `execute_dag`): the learned workflow then links it to these and its `consumes` only, never to the
   * call before it (`[]`: it depended on nothing).
   */
  dependsOn?: number[];
  /** When the call ran (ISO 8601 or epoch ms); default: the execution's start. */
  at?: string | number;
  /** The call's intent (a workflow node's, SPEC §7). */
  intent?: Intent;
  /** What the call was given, as JSON text (scrubbed and truncated before it is stored). */
  input?: string;
  /** What it gave back, as text. */
  output?: string;
}

/** One execution as `credence record` and `recordExecution()` take it. */
export interface ExecutionInput {
  /**
   * The run's own id at its source (a recorder's run id, a data set's query id). An execution is stored once per id and
   * scope: recording the same id again records nothing new (engine/tool-graph `alreadyRecorded`), so a retry is safe.
   */
  id?: string | number;
  intent: string;
  scope?: string;
  /** ISO 8601 or epoch ms; default: the clock. */
  startedAt?: string | number;
  calls: CallInput[];
  /** The run's own summary and confidence, when its recorder scored it (a workflow run, SPEC §7). */
  summary?: string;
  confidence?: number;
  intentKind?: Intent;
}
