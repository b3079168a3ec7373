/**
 * @module store/types
 * The Store interface every backend implements (SQLite, PostgreSQL), and the records it keeps
 * (SPEC §2). `Store` is composed of small roles (ToolGraphStore, ExecutionStore, MemoryStore, …):
 * a use case depends on the roles it needs. Store methods are async; the math stays in core/ and
 * is sync (STYLE §4). Every record carries a scope; nothing is read across scopes unless a method says so.
 */
import type { ExecutionEdgeEvent } from '../core/graph/execution-edges.js';
import type { TurnPromptSpan } from '../core/runs/session-label.js';
import type {
  CallStatus,
  EdgeSource,
  EdgeType,
  FeedbackKind,
  Intent,
  MemoryCategory,
  MemoryLife,
  ObservationPhase,
  ObservationType,
  Outcome,
  OutcomeKind,
} from '../core/types.js';

export { OUTCOME_KINDS, OUTCOMES } from '../core/types.js';
export type { Outcome, OutcomeKind } from '../core/types.js';

/** Times are epoch milliseconds throughout the store. */
export type EpochMs = number;

export interface ToolRecord {
  id: string;
  description: string;
  inputSchema?: unknown;
  origin?: string;
  /** MCP tool annotations (readOnlyHint, destructiveHint, …) as the tool's server declared them. */
  annotations?: Record<string, unknown>;
}

/** A catalogue entry to add or update: without a description, an existing one is kept. */
export type ToolUpsert = Omit<ToolRecord, 'description'> & { description?: string };

export interface EdgeRecord {
  from: string;
  to: string;
  type: EdgeType;
  source: EdgeSource;
  count: number;
  successes: number;
  failures: number;
  firstSeen: EpochMs | null;
  lastSeen: EpochMs | null;
  /**
   * Declared by hand (`credence edge add`, `declareEdge`) when no edge was there: it stays, a template again, when
   * forgetting runs leaves it no success. Absent: learned from runs only.
   */
  declared?: true;
}

export interface CallRecord {
  tool: string;
  status: CallStatus;
  retries: number;
  durationMs?: number;
  /** Indexes of earlier calls in the same execution whose output this call used. */
  consumes: number[];
  /** Index of the call this one was made inside, if any. */
  parent?: number;
  /** Indexes of earlier calls it waited for, when they are known (an explicit DAG; `[]`: none). */
  dependsOn?: number[];
  at?: EpochMs;
  /** The call's intent, when its recorder derived one (a workflow node, SPEC §7). */
  intent?: Intent;
  /** What the call was given, as JSON text (scrubbed, truncated), when its recorder kept it (hooks). */
  input?: string;
  /** What it gave back, as text (scrubbed, truncated), when kept. */
  output?: string;
}

export interface ExecutionRecord {
  id: string;
  intent: string;
  intentKind?: Intent;
  startedAt: EpochMs;
  endedAt?: EpochMs;
  confidence?: number;
  summary?: string;
  /**
   * The edge types its recording taught the graph, when it taught only these (the gateway's `execute_dag` runs
   * learn their dependencies alone); absent: every type. Forgetting it takes back these alone.
   */
  learned?: EdgeType[];
  calls: CallRecord[];
}

export interface ObservationContext {
  task?: string;
  file?: string;
  phase?: ObservationPhase;
}

/** A learning observation, field for field the seed 004 schema (SPEC §6). */
export interface ObservationRecord {
  id: string;
  timestamp: EpochMs;
  type: ObservationType;
  context: ObservationContext;
  observation: string;
  evidence: string[];
  confidence: number;
  tags: string[];
}

export interface MemoryRecord {
  id: string;
  category: MemoryCategory;
  title: string;
  text: string;
  tags: string[];
  path?: string;
  /** Stored confidence, where the memory has one (instincts, skills, runs). */
  confidence?: number;
  intent?: Intent;
  createdAt: EpochMs;
  updatedAt: EpochMs;
  /** When it was true, what superseded it, how often it was remembered, its turn (migration 15, issue 23). */
  life?: MemoryLife;
}

export interface InstinctRecord {
  id: string;
  slug: string;
  text: string;
  confidence: number;
  status: 'active' | 'promoted' | 'retired';
  /** Ids of the observations it was derived from. */
  evidence: string[];
  createdAt: EpochMs;
  updatedAt: EpochMs;
}

export interface SkillRecord {
  id: string;
  name: string;
  description: string;
  rules: string[];
  confidence: number;
  evidence: string[];
  createdAt: EpochMs;
  updatedAt: EpochMs;
}

export interface FeedbackRecord {
  id: string;
  targetId: string;
  kind: FeedbackKind;
  note?: string;
  at: EpochMs;
}

export interface MemoryHit {
  memory: MemoryRecord;
  /** SQLite FTS5 bm25(): negative, more negative is better. */
  bm25: number;
}

export const SURFACES = ['search', 'next', 'dag', 'recall'] as const;
export type Surface = (typeof SURFACES)[number];

/**
 * One result a surface returned: a tool, a DAG or a memory, with the verdict given on it later; or an instinct or
 * skill whose outcome was recorded (kind `instinct` / `skill`, issue 24).
 */
export interface ShownRecord {
  id: string;
  /** The surface that showed it, or `instinct` / `skill` for a learned thing's outcome. */
  surface: OutcomeKind;
  /** What was shown: a tool id, a memory key (`memory:<id>`, `observation:<id>` …), or a DAG's tool list. */
  target: string;
  query?: string;
  at: EpochMs;
  verdict?: 'accepted' | 'rejected';
  verdictAt?: EpochMs;
  /** The confidence it was shown with, 0..1 (none on rows recorded before migration 16). */
  confidence?: number;
  /** What became of it, the latest outcome (issue 24). */
  outcome?: Outcome;
  outcomeAt?: EpochMs;
  /**
   * The Claude Code session whose prompt (`query`) it was shown for: the prompt hook's rows (none on other surfaces'
   * rows, nor on rows recorded before schema 24). A forgotten session's are not stored (`recordShown`).
   */
  session?: string;
}

/** A shown claim with both the confidence it was shown with and what became of it (issue 24). */
export interface OutcomeRecord {
  /** The shown id. */
  id: string;
  kind: OutcomeKind;
  target: string;
  confidence: number;
  outcome: Outcome;
  /** When it was shown. */
  at: EpochMs;
  outcomeAt: EpochMs;
}

/**
 * Outcomes of one kind, one bin of the confidence shown and one outcome, summed (the calibration report's table,
 * ECE and Brier, aggregated in the store: issue 24).
 */
export interface OutcomeBin {
  kind: OutcomeKind;
  /** min(bins − 1, ⌊confidence · bins⌋). */
  bin: number;
  outcome: Outcome;
  count: number;
  sumConfidence: number;
  /** Σ confidence². */
  sumSquares: number;
}

export interface OutcomeQuery {
  kind?: OutcomeKind;
  /** Outcomes recorded at or after this time. */
  since?: EpochMs;
  /** Only outcomes known at this time (shown and settled at or before it), applied before `limit`. */
  until?: EpochMs;
  /** The newest this many (by the time of the outcome), returned oldest first. */
  limit?: number;
}

export interface SetOutcomeOptions {
  /**
   * Followed from the calls after a showing (the gateway, the hooks, PocketFlow), not given by a user: a shown
   * result that has a verdict keeps its outcome (true is still returned: it was found).
   */
  inferred?: boolean;
}

export const TABLES = [
  'tools',
  'edges',
  'executions',
  'calls',
  'observations',
  'memories',
  'instincts',
  'skills',
  'feedback',
  'shown',
] as const;
export type TableName = (typeof TABLES)[number];
export type TableCounts = Record<TableName, number>;

export interface InsertReport {
  inserted: number;
  /** Rows already present (same id or same content) that were left as they were. */
  duplicates: number;
}

/**
 * A learned workflow (issue 19): the recorded runs of one shape (core/experience/workflow-shape), merged.
 * `id` is `workflowId(key)`; `intents` the latest 5 distinct intents, newest first, and `intentsAt` when each last led
 * to it (the latest run with it), so that a run merged out of time order takes its place among them (walk 19).
 */
export interface WorkflowRecord {
  id: string;
  key: string;
  tools: string[];
  edges: [string, string][];
  intents: string[];
  intentsAt: EpochMs[];
  runs: number;
  successes: number;
  firstSeen: EpochMs;
  lastSeen: EpochMs;
}

/**
 * What one run (or the change of one run) adds to its workflow: `runs` and `successes` are added (an appended
 * run that changes shape leaves its old workflow with -1), `at` moves first/last use, `intent` joins the latest
 * intents. A workflow left with no run is deleted.
 */
export interface WorkflowMerge {
  id: string;
  key: string;
  tools: readonly string[];
  edges: readonly (readonly [string, string])[];
  intent?: string;
  runs: number;
  successes: number;
  at: EpochMs;
}

/** How many distinct intents a learned workflow keeps. */
export const WORKFLOW_INTENTS_KEPT = 5;

/** How a recorded execution merges into its workflow: the merge, or undefined when it has none (no intent, no call). */
export type WorkflowOf = (execution: ExecutionRecord) => WorkflowMerge | undefined;

/** How appended calls move their execution between workflows: given the calls before and after, and its intent. */
export type WorkflowMove = (
  before: readonly CallRecord[],
  after: readonly CallRecord[],
  execution: { intent: string; startedAt: EpochMs },
) => readonly WorkflowMerge[];

/** One execution to record with the edge events it yields (core/graph/execution-edges). */
export interface ExecutionBatchItem {
  execution: ExecutionRecord;
  events: readonly ExecutionEdgeEvent[];
}

/** Folds one edge event into the edge's current state (core/graph/edge-promotion). Pure. */
export type EdgeFold = (current: EdgeRecord | undefined, event: ExecutionEdgeEvent) => EdgeRecord;

/**
 * How deleted executions are taken back out of the tool graph: `events` gives the edge events a stored execution
 * taught; `unfold` the state of one edge once the deleted executions' events of it (`forgotten`) are taken back,
 * given the events of it in the executions left (`remaining`, read only when asked: it reads every execution left),
 * or undefined when nothing of the edge is left (its row goes). Pure.
 */
export interface EdgeUnlearn {
  events: (execution: ExecutionRecord) => readonly ExecutionEdgeEvent[];
  unfold: (
    edge: EdgeRecord,
    forgotten: readonly ExecutionEdgeEvent[],
    remaining: () => readonly ExecutionEdgeEvent[],
  ) => EdgeRecord | undefined;
}

export interface RecordReport {
  /** Tools the executions named that the catalogue did not know; added with an empty description. */
  newTools: string[];
  /** The final state of every edge the batch touched. */
  edges: EdgeRecord[];
}

/** What one `appendCalls` did: the record report, and where the new calls went. */
export type AppendReport = RecordReport & {
  execution: { id: string; created: boolean; firstIndex: number; calls: number };
};

export type EmbeddingKind = 'tool' | 'execution' | 'memory' | 'observation';

/** A stored vector with what made it: `modelKey` is provider:model:dimension, so a change re-embeds. */
export interface StoredEmbedding {
  refId: string;
  modelKey: string;
  /** Hash of the text that was embedded, so an edited text re-embeds. */
  textHash: string;
  vector: Float32Array;
}

/** A stored embedding without its vector: enough to tell whether it is current. */
export type EmbeddingStamp = Omit<StoredEmbedding, 'vector'>;

/**
 * Where a store's vectors are ranked. `node`: callers read them (`getEmbeddings`) and scan them
 * in process. `pgvector`: the database ranks them (`nearestEmbeddings`), so a process never loads
 * a scope's vectors whole.
 */
export type VectorRanking = 'node' | 'pgvector';

/** A nearest-vector query: the `k` largest inner products with `vector`, plus the rows of `also`. */
export interface NearestQuery {
  kinds: readonly EmbeddingKind[];
  /** Only vectors of this provider:model:dimension are ranked. */
  modelKey: string;
  vector: Float32Array;
  k: number;
  /** Rows returned as well, wherever they rank (their similarity is wanted). */
  also?: readonly { kind: EmbeddingKind; refId: string }[];
}

/** A row a nearest-vector query returned, with its stored vector (the caller computes the score). */
export interface NearestEmbedding {
  kind: EmbeddingKind;
  refId: string;
  vector: Float32Array;
  /** Its place among the nearest (0 = nearest), or -1 for a row returned only because `also` named it. */
  rank: number;
  /**
   * The inner product as the database computed it (float32 arithmetic: close to, not always equal to, the caller's);
   * NaN for an `also` row.
   */
  score: number;
}

/** A hook event waiting to be learned from (Claude Code's PostToolUse and friends). */
export interface HookEvent {
  seq: number;
  /** An idempotency key (a spool file's name): an event queued twice under one key is queued once. */
  key?: string;
  session: string;
  turn: number;
  kind: string;
  at: EpochMs;
  payload: unknown;
}

/**
 * Every table a dump holds (`credence dump`), parents first, so that restoring in this order
 * satisfies every reference (calls after their executions). Derived tables (the full-text indexes,
 * `tool_terms`) are not dumped: a backend rebuilds them as rows are imported.
 */
export const DUMP_TABLES = [
  'tools',
  'edges',
  'executions',
  'calls',
  'workflows',
  'observations',
  'memories',
  'instincts',
  'skills',
  'feedback',
  'shown',
  'embeddings',
  'hook_sessions',
  'hook_events',
  'fits',
  'forgotten',
] as const;
export type DumpTable = (typeof DUMP_TABLES)[number];

/**
 * A row as column → value, with the column names of the schema (the SQLite one; PostgreSQL uses
 * the same names): integers and reals as numbers, text as strings, NULL as null; BLOB columns as
 * strings (`observations.content_hash` as lowercase hex, `embeddings.vector` as base64 of the
 * little-endian float32 bytes). No `rowid` or `seq`: a row's place in the export is its order.
 * See `DUMP_COLUMNS` (store/dump-rows) for each table's columns.
 */
export type DumpRow = Record<string, string | number | null>;

/** What the store is and its lifecycle: kind, location, schema, scopes, counts, check, close. */
export interface StoreMeta {
  readonly kind: 'sqlite' | 'postgres';
  /** Where the data lives: a file path or a redacted server URL. */
  readonly location: string;
  /** Opened read-only (a SQLite file this user cannot write, opened so for a reader): every write fails. */
  readonly readOnly?: boolean;
  /** Opened read-only because the file is marked damaged and its quick check still fails: SQLite's problems. */
  readonly damaged?: readonly string[];
  schemaVersion(): Promise<number>;
  /** Every scope that holds a row of any learned table, in code-point order. */
  listScopes(): Promise<string[]>;
  /** Row counts per table, for one scope or (scope undefined) the whole store. */
  counts(scope?: string): Promise<TableCounts>;
  /** Runs the backend's own consistency check; returns the problems found (empty when sound). */
  check(): Promise<string[]>;
  /**
   * A fast check that the store's file is readable (SQLite's `quick_check`): the problems found, empty when sound.
   * A server store has none (its server checks its own pages).
   */
  quickCheck?(): Promise<string[]>;
  /**
   * Writes a consistent copy of the whole store to `file`, one file that opens as a store (SQLite: its online backup,
   * the write-ahead log's committed rows included); an existing file is refused unless `overwrite`. A server store
   * has no such file: it rejects (`INVALID_INPUT`), naming `credence dump` and the server's own tools. `ifExists`: what
   * the refusal of an existing file says to do, naming the caller's option (default: pass overwrite: true).
   */
  backup(file: string, options?: { overwrite?: boolean; ifExists?: string }): Promise<BackupReport>;
  close(): Promise<void>;
}

/** What `backup` wrote: the file (an absolute path) and its size. */
export interface BackupReport {
  file: string;
  bytes: number;
}

/** The tool catalogue and the edges between tools (SPEC §3–§4). */
export interface ToolGraphStore {
  /**
   * `at`: the writer's clock (the engine's `now`), a new tool's `createdAt` and every written one's `updatedAt`; the
   * machine clock when not given.
   */
  upsertTools(
    scope: string,
    tools: readonly ToolUpsert[],
    options?: { at?: EpochMs },
  ): Promise<{ inserted: number; updated: number }>;
  getTool(scope: string, id: string): Promise<ToolRecord | undefined>;
  listTools(scope: string): Promise<ToolRecord[]>;
  /** BM25 over tool ids (split into words) and descriptions; `match` is a safe FTS5 expression. */
  searchTools(scope: string, match: string, options?: { limit?: number }): Promise<{ id: string; bm25: number }[]>;
  /**
   * Writes an edge as given, replacing the stored one (restores, tests); learning folds instead. Its two tools are
   * logged as changed (`changedSince(scope, 'tool', …)`; a removed one stays removed), as a recorded call's are: a
   * graph snapshot patched from the log reads the edge again, whichever way its confidence moved.
   */
  putEdge(scope: string, edge: EdgeRecord): Promise<void>;
  /**
   * Stores an edge only when the scope has none with its key (a declared template edge): never
   * overwrites what was learned meanwhile. True when it was stored.
   */
  insertEdge(scope: string, edge: EdgeRecord): Promise<boolean>;
  getEdge(scope: string, key: { from: string; to: string; type: EdgeType }): Promise<EdgeRecord | undefined>;
  listEdges(scope: string, filter?: { from?: string; to?: string }): Promise<EdgeRecord[]>;
}

/** Recorded executions and their calls; recording one folds its edge events into the tool graph. */
export interface ExecutionStore {
  /** `at`: when a tool its calls name joins the catalogue (as `upsertTools`'s). */
  insertExecution(scope: string, execution: ExecutionRecord, options?: { at?: EpochMs }): Promise<void>;
  /**
   * Records executions in one transaction: each execution with its calls, every unknown tool into
   * the catalogue, and every edge event folded into its edge with `fold`. All or nothing.
   */
  recordExecutions(
    scope: string,
    batch: readonly ExecutionBatchItem[],
    fold: EdgeFold,
    /**
     * `workflow` merges each execution (as stored, scrubbed) into its learned workflow, in the same transaction;
     * `at`: when an unknown tool joins the catalogue (as `upsertTools`'s).
     */
    options?: { workflow?: WorkflowOf; at?: EpochMs },
  ): Promise<RecordReport>;
  /**
   * Appends calls to one execution in one transaction, creating it from `head` when it does not exist:
   * `build(before)` gets the calls already stored and returns the new ones (so a caller can point
   * `consumes` at earlier calls it finds there), `learn(before, after)` gives the edge events the new
   * calls add, folded into their edges with `fold`. Unknown tools join the catalogue; `endedAt` moves on.
   * The intent and start are set at creation: `head` is ignored for an execution that exists. The
   * calls are stored at the next indexes (`firstIndex` on); `execution.calls` counts the execution's
   * calls after the append. Every text is scrubbed as `recordExecutions` scrubs it, and `build` and
   * `learn` see the calls as stored. Two writers appending to one execution never lose a call or
   * count an edge twice; when `build` or `learn` throws, nothing is stored. The `before` and `after`
   * lists are lent for the call: a store may keep them and grow them for the next append (so that an
   * append reads and copies no more than its new calls), so a callback copies what it keeps.
   */
  appendCalls(
    scope: string,
    head: { id: string; intent: string; startedAt: EpochMs },
    build: (before: readonly CallRecord[]) => CallRecord[],
    learn: (before: readonly CallRecord[], after: readonly CallRecord[]) => readonly ExecutionEdgeEvent[],
    fold: EdgeFold,
    /**
     * `dequeue`: hook events (by seq) the calls came from, deleted from the queue in the same transaction;
     * `workflows`: how the calls move the execution between learned workflows, merged in the same transaction;
     * `at`: when an unknown tool joins the catalogue (as `upsertTools`'s).
     */
    options?: { dequeue?: readonly number[]; workflows?: WorkflowMove; at?: EpochMs },
  ): Promise<AppendReport>;
  getExecution(scope: string, id: string): Promise<ExecutionRecord | undefined>;
  /**
   * Deletes executions with their calls (their full text and embeddings go with them), takes their calls off their
   * tools' call counts and their intents out of the learned workflows' example intents (`credence forget <run id>`),
   * in one transaction. With `workflow`, the workflows the deleted runs had merged into are built again from the
   * runs left (those with none left go); with `unlearn`, each edge they taught has their events taken back
   * (see {@link EdgeUnlearn}). Returns the ids it deleted, sorted: not those another delete at the same moment took.
   */
  deleteExecutions(
    scope: string,
    ids: readonly string[],
    options?: { workflow?: WorkflowOf; unlearn?: EdgeUnlearn },
  ): Promise<string[]>;
  /**
   * The scope's executions, newest first (`started_at`, then the latest recorded: runs that started at the same
   * instant, as a flow run at a fixed `now` records them, come in the order they were recorded, whatever their ids),
   * with their calls. `idPrefix`: only those whose id
   * starts with it (the Claude Code hooks' turns, `cc-`), found by the id's index.
   */
  listExecutions(scope: string, options?: { limit?: number; idPrefix?: string }): Promise<ExecutionRecord[]>;
  /** BM25 over execution intents (the intent memory); `match` is a safe FTS5 expression. */
  searchExecutions(scope: string, match: string, options?: { limit?: number }): Promise<{ id: string; bm25: number }[]>;
  /**
   * How many recorded calls each tool has had (tools never called are absent); with `ids`, those tools' alone (a
   * graph snapshot patches its counts with the tools the change log names).
   */
  calledTools(scope: string, ids?: readonly string[]): Promise<Map<string, number>>;
}

/** Learned workflows (issue 19): recorded runs merged by shape. */
export interface WorkflowStore {
  /**
   * Folds merges into their workflows in one transaction (see {@link WorkflowMerge}); `replace` first deletes
   * every workflow of the scope (a rebuild from the executions).
   */
  mergeWorkflows(scope: string, merges: readonly WorkflowMerge[], options?: { replace?: boolean }): Promise<void>;
  /** The scope's workflows, most recently used first (ties by id). */
  listWorkflows(scope: string, options?: { limit?: number }): Promise<WorkflowRecord[]>;
  /**
   * Rebuilds the scope's workflows from its executions in one transaction (each as stored, through `workflow`,
   * oldest first), and marks the scope built; with `ifPending`, only when it has no mark yet (an upgraded store, a
   * restored dump), whatever its workflows table holds. True when rebuilt.
   */
  rebuildWorkflows(scope: string, workflow: WorkflowOf, options?: { ifPending?: boolean }): Promise<boolean>;
  /** Deletes every workflow of the scope; returns how many there were. */
  deleteWorkflows(scope: string): Promise<number>;
  /**
   * Takes every scope's build mark away (`restore`: a read of the empty store before it marked its scope built), so
   * that each scope's workflows are built again from its executions at its next use.
   */
  clearWorkflowBuilds(): Promise<void>;
}

/**
 * How long one write waits for another connection's write lock: SQLite waits `busyWaitMs` (not the store's busy
 * timeout) before it fails with SQLITE_BUSY; PostgreSQL ignores it. For a write a read makes on the side (what was
 * shown, an embedding kept for next time), which the read can do without.
 */
export interface WriteWait {
  busyWaitMs?: number;
}

/** Stored vectors, and where they are ranked. */
export interface EmbeddingStore {
  putEmbeddings(scope: string, kind: EmbeddingKind, items: readonly StoredEmbedding[], wait?: WriteWait): Promise<void>;
  getEmbeddings(scope: string, kind: EmbeddingKind): Promise<StoredEmbedding[]>;
  /** The stored embeddings of `kind` without their vectors. */
  getEmbeddingStamps(scope: string, kind: EmbeddingKind): Promise<EmbeddingStamp[]>;
  /** The stored embeddings of `kind` for these ids only. */
  getEmbeddingsFor(scope: string, kind: EmbeddingKind, refIds: readonly string[]): Promise<StoredEmbedding[]>;
  /** Where vectors are ranked; `nearestEmbeddings` exists when it is not `node`. */
  readonly vectorRanking: VectorRanking;
  /** Why vectors are ranked there, when the store has a choice (PostgreSQL). */
  readonly vectorReason?: string;
  /** Ranks stored vectors in the database (pgvector): the nearest by inner product, ties by kind and id. */
  nearestEmbeddings?(scope: string, query: NearestQuery): Promise<NearestEmbedding[]>;
}

/**
 * What changed in a scope since a revision (migration 8): the ids of one kind written (inserted or updated) or
 * deleted after `since`, up to `revision`, the scope's revision when it was read (one snapshot). An id written and
 * then deleted is in `removed` only.
 */
export interface ChangeSet {
  revision: number;
  changed: string[];
  removed: string[];
}

/**
 * Revisions and the change log (migration 8, issue 20): every write to a memory, observation, execution or tool
 * (and edge) bumps its scope's revision, whichever method or process made it, so an index built at a revision
 * learns what to update from the change log instead of reading everything again. Batch reads by id serve them.
 */
export interface RevisionStore {
  /** The scope's revision: 0 before its first write; grows with every write to an indexed table. */
  revision(scope: string): Promise<number>;
  /** The ids of `kind` written or deleted after revision `since` (see {@link ChangeSet}). */
  changedSince(scope: string, kind: EmbeddingKind, since: number): Promise<ChangeSet>;
  /** The memories of these ids that exist, in the order of `ids` (an id twice, once). */
  getMemoriesByIds(scope: string, ids: readonly string[]): Promise<MemoryRecord[]>;
  getObservationsByIds(scope: string, ids: readonly string[]): Promise<ObservationRecord[]>;
  /** Executions by id, with their calls unless `calls: false` (then `calls` is empty). */
  getExecutionsByIds(scope: string, ids: readonly string[], options?: { calls?: boolean }): Promise<ExecutionRecord[]>;
  getToolsByIds(scope: string, ids: readonly string[]): Promise<ToolRecord[]>;
  /** How many edges the scope holds (an index count: a kept graph snapshot checks it missed no edge written). */
  countEdges(scope: string): Promise<number>;
}

/** The tables recall searches by full text (FTS5 in SQLite, its replica in PostgreSQL). */
export type FullTextTable = 'memories' | 'observations' | 'executions';

/** One row of a full-text table as its full-text entry reads it: the texts of its columns, in the FTS5 order. */
export interface FullTextRow {
  rowid: number;
  scope: string;
  id: string;
  columns: string[];
}

/**
 * The rows behind full-text search (issue 20), for the engine's postings kept in memory, which must rank exactly as
 * the store does: bm25's statistics cover every scope of a table, and equal scores fall by rowid.
 */
export interface FullTextStore {
  /** Every written scope's revision (see {@link RevisionStore}). */
  revisions(): Promise<Map<string, number>>;
  /** The rows of `table` in every scope with a rowid above `after`, in rowid order, at most `limit`. */
  fullTextRows(table: FullTextTable, after: number, limit: number): Promise<FullTextRow[]>;
  /** The rows of these ids in `scope` that exist. */
  fullTextRowsByIds(table: FullTextTable, scope: string, ids: readonly string[]): Promise<FullTextRow[]>;
  /**
   * Natural logarithms as the store's bm25 computes them (SQLite's: the C library's `log`, which differs from
   * `Math.log` in the last bit now and then), so that a score computed outside it is the store's to the last bit.
   */
  fullTextLogs(values: readonly number[]): Promise<number[]>;
}

/**
 * A persisted vector matrix's header: which model it holds, the revision it reflects, its shape, and its generation
 * (a token a full build draws anew: two matrices built apart never pass for one another, whatever their revision).
 */
export interface VectorIndexHeader {
  modelKey: string;
  generation: string;
  revision: number;
  dim: number;
  rows: number;
  chunks: number;
}

/**
 * One chunk of a persisted matrix: its rows' ids, the hash of each row's text, and the rows (row-major float32;
 * empty when read without them). `codes` is the rows' int8 copy (engine/index/quantized), kept beside them.
 */
export interface VectorChunk {
  chunk: number;
  ids: string[];
  hashes: string[];
  data: Float32Array;
  /** The int8 copy: written with the chunk (none written: any stored copy is dropped), read with `floats: false`. */
  codes?: Uint8Array;
  /** Text stored with `codes` (the rows' keys as the engine lays them out), read with them. */
  codeKeys?: string;
  /** That text as its UTF-8 bytes instead, when read with `keyBytes` from a store that can (no string made). */
  codeKeyBytes?: Uint8Array;
}

/**
 * Persisted vector matrices (migration 8): one per scope and name (`memory`, `tool`, …), in chunks, so a process
 * reads a few blobs instead of every embedding row, and a write rewrites only the chunks it touched. Derived data:
 * not dumped, rebuilt from the embeddings when missing.
 */
export interface VectorIndexStore {
  /**
   * The header and every chunk. `floats: false` reads the int8 copies alone (`codes` and `codeKeys`; `ids`,
   * `hashes` and `data` empty), a quarter of the bytes: the chunks that have one (fewer than `header.chunks` when
   * some were written without).
   * `keyBytes` with it: `codeKeyBytes` in place of `codeKeys` where the store can give them.
   */
  readVectorIndex(
    scope: string,
    name: string,
    options?: { floats?: boolean; keyBytes?: boolean },
  ): Promise<{ header: VectorIndexHeader; chunks: VectorChunk[] } | undefined>;
  /**
   * Some chunks whole (floats, no codes), read only when the stored header is still at `expect`'s revision and
   * generation: undefined otherwise (another writer moved it since `expect` was read).
   */
  readVectorChunks(
    scope: string,
    name: string,
    read: { chunks: readonly number[]; expect: { revision: number; generation: string } },
  ): Promise<VectorChunk[] | undefined>;
  /**
   * Writes the header and the given chunks (and drops chunks from `header.chunks` on) in one transaction, only when
   * the stored header is still at `expect`'s revision and generation (null: none stored): false, nothing written,
   * when another writer moved or replaced it meanwhile.
   */
  writeVectorChunks(
    scope: string,
    name: string,
    write: {
      expect: { revision: number; generation: string } | null;
      header: VectorIndexHeader;
      chunks: readonly VectorChunk[];
    },
    wait?: WriteWait,
  ): Promise<boolean>;
  /** Deletes the scope's persisted matrices (one by name, or all): the next index rebuilds them. */
  deleteVectorIndex(scope: string, name?: string): Promise<void>;
}

/** Learning observations (SPEC §6). */
export interface ObservationStore {
  /** Inserts in one transaction; an observation whose content is already stored is a duplicate. */
  insertObservations(scope: string, observations: readonly ObservationRecord[]): Promise<InsertReport>;
  listObservations(scope: string, options?: { since?: EpochMs; limit?: number }): Promise<ObservationRecord[]>;
  /** BM25 over observation texts and tags; `match` is a safe FTS5 expression. */
  searchObservations(
    scope: string,
    match: string,
    options?: { limit?: number },
  ): Promise<{ observation: ObservationRecord; bm25: number }[]>;
  /** Deletes an observation; false when it did not exist. */
  deleteObservation(scope: string, id: string): Promise<boolean>;
  /** Deletes observations (and their vectors) in one transaction; returns how many existed. */
  /**
   * `secureDelete: false` (a prune's bulk delete; SQLite): the freed space is not zeroed, much faster; a forget keeps
   * the default, so the forgotten text leaves the file.
   */
  deleteObservations(scope: string, ids: readonly string[], options?: { secureDelete?: boolean }): Promise<number>;
}

/** Memories (notes, runs, files) and their full-text search. */
export interface MemoryStore {
  upsertMemories(scope: string, memories: readonly MemoryRecord[]): Promise<{ inserted: number; updated: number }>;
  getMemory(scope: string, id: string): Promise<MemoryRecord | undefined>;
  listMemories(scope: string): Promise<MemoryRecord[]>;
  /**
   * Full-text search. `match` is an FTS5 expression that the caller built from user text with
   * the query-safety rules (SPEC §8); the store never builds one from raw user input.
   */
  searchMemories(scope: string, match: string, options?: { limit?: number }): Promise<MemoryHit[]>;
  deleteMemory(scope: string, id: string): Promise<boolean>;
  /**
   * The highest whole number (1 to 15 digits) that follows `prefix` in the scope's memory ids, or undefined when no
   * id is `prefix` and digits: a session's last turn place (`turn-<session>-`). One read of the ids, in one query.
   */
  highestIdNumber(scope: string, prefix: string): Promise<number | undefined>;
}

/**
 * What `forget` removed of what was learned (a tombstone): every machine sharing the store takes the item's file out
 * of its own project at its next `evolve` or session start (engine/learning/forgotten-files).
 */
export interface ForgottenRecord {
  /** The forgotten instinct's or skill's id. */
  id: string;
  kind: 'instinct' | 'skill';
  /** The skill's name or the instinct's slug: what its file is named after. */
  name: string;
  /** When it was forgotten. */
  at: EpochMs;
}

/** The id of a forgotten session's tombstone: never an instinct's or skill's id. */
export const sessionTombstoneId = (session: string): string => `session:${session}`;

/** What evolve derives from observations: instincts and skills. */
export interface LearningStore {
  /**
   * Upserts an instinct; true when written. A tombstone of its id, or of an instinct of its slug, refuses it (false,
   * nothing written) unless it is learned again from new evidence: `updatedAt` after the tombstone and every evidence
   * id an observation that exists (checked in the write's transaction); the tombstone then goes.
   */
  upsertInstinct(scope: string, instinct: InstinctRecord): Promise<boolean>;
  listInstincts(scope: string): Promise<InstinctRecord[]>;
  deleteInstinct(scope: string, id: string): Promise<boolean>;
  /** Upserts a skill; true when written. A tombstone of its id or name refuses it as {@link upsertInstinct} says. */
  upsertSkill(scope: string, skill: SkillRecord): Promise<boolean>;
  listSkills(scope: string): Promise<SkillRecord[]>;
  deleteSkill(scope: string, id: string): Promise<boolean>;
  /** Records tombstones of forgotten instincts and skills (the same id again replaces its tombstone). */
  recordForgotten(scope: string, records: readonly ForgottenRecord[]): Promise<void>;
  /**
   * The scope's tombstones, by kind then name, in one query; one whose name a live item of its kind holds is left out
   * (its file is that item's now). `kind` and `names` keep those of that kind and among those names (an indexed look
   * up: a session start asks only for the names in its skills folder); `names: []` is none.
   */
  listForgotten(
    scope: string,
    options?: { kind?: 'instinct' | 'skill'; names?: readonly string[] },
  ): Promise<ForgottenRecord[]>;
}

/** Results shown with their verdicts, and feedback events. */
export interface FeedbackStore {
  /**
   * Stores shown rows, once per id. A row of a forgotten session (its `session` has a tombstone,
   * recordForgottenSession) is not stored: checked in the write's own transaction, so that a forget landing at the
   * same moment either sees the row or refuses it.
   */
  recordShown(scope: string, shown: readonly ShownRecord[], wait?: WriteWait): Promise<void>;
  /**
   * `forget <session>`: the queries (the prompts) of the rows shown for these sessions go, the rows stay (what was
   * shown and what became of it, the calibration's history). A row without a session (recorded before rows held
   * their session, schema 24; or a recall of another surface) is taken only when it can be the prompt hook's row of
   * one of the session's turns: surface `recall`, its query's turn intent (core/runs/session-label `turnIntent`)
   * that of a turn in `prompts` and its time within that turn's span. Returns how many rows lost their query.
   */
  forgetShownQueries(scope: string, sessions: readonly string[], prompts: readonly TurnPromptSpan[]): Promise<number>;
  getShown(scope: string, id: string): Promise<ShownRecord | undefined>;
  /** Sets the verdict of a shown result; false when the id is unknown. */
  setVerdict(scope: string, id: string, verdict: 'accepted' | 'rejected', at: EpochMs): Promise<boolean>;
  /**
   * Sets what became of a shown result (its latest outcome); accepted / rejected also set its verdict when it has
   * none (the first verdict counts). False when the id is unknown. `inferred`: see {@link SetOutcomeOptions}.
   */
  setOutcome(scope: string, id: string, outcome: Outcome, at: EpochMs, options?: SetOutcomeOptions): Promise<boolean>;
  /**
   * Shown results having both a confidence and an outcome, ordered by outcomeAt then id; with `limit`, the latest
   * that many (still in that order).
   */
  listOutcomes(scope: string, options?: OutcomeQuery): Promise<OutcomeRecord[]>;
  /** The outcomes known at `at` (shown and settled at or before it), summed per kind, bin and outcome. */
  outcomeBins(scope: string, options: { at: EpochMs; bins: number }): Promise<OutcomeBin[]>;
  /** Shown results per surface with their verdicts, for metrics (the four surfaces only). */
  shownCounts(scope: string): Promise<{ surface: Surface; shown: number; accepted: number; rejected: number }[]>;
  /** Records a feedback event once; the same id twice is a duplicate, not a second event. */
  insertFeedback(scope: string, feedback: FeedbackRecord): Promise<InsertReport>;
  listFeedback(scope: string, targetId?: string): Promise<FeedbackRecord[]>;
  /**
   * Deletes the feedback events on `targetId` (a forgotten instinct or skill), or only those of them whose id is in
   * `ids` (contradictions a changed mind reversed, evolve); returns how many went.
   */
  deleteFeedback(scope: string, targetId: string, ids?: readonly string[]): Promise<number>;
}

/** Runs and observations of a scope per day back from an instant (the dashboard's timeline). */
export interface DailyActivity {
  /** Index `i` holds what happened `i` days before `now`: `now - at` in [i, i + 1) days. */
  executions: number[];
  /** The calls of those executions, counted on the day the execution started. */
  calls: number[];
  observations: number[];
}

/** Aggregates the dashboard reads instead of every row (issue 20). */
export interface StatsStore {
  /** Executions (with their calls) and observations per day over the `days` days up to `now`, counted in SQL. */
  activityByDay(scope: string, window: { now: EpochMs; days: number }): Promise<DailyActivity>;
  /** Observations per type (types with none are absent). */
  observationTypeCounts(scope: string): Promise<Partial<Record<ObservationType, number>>>;
}

/** The queue of hook events and the hook sessions' turns and state. */
export interface HookQueueStore {
  /**
   * Queues hook events (payloads scrubbed) in one transaction, all or none. A turn given as `next`
   * starts the session's next turn (a prompt), `current` joins the turn it is in; returns the turn
   * of each event.
   */
  enqueueHookEvents(
    scope: string,
    events: readonly (Omit<HookEvent, 'seq' | 'turn'> & { turn: number | 'current' | 'next' })[],
  ): Promise<number[]>;
  /**
   * Claims a session's queued events (or the scope's, without `session`) for `claimer`, oldest
   * first: events nobody claimed, or claimed before `staleBefore` by a process that never finished.
   * A session some other claimer is learning from (a live claim) is left alone, so that one
   * session's events are always learned in order.
   */
  claimHookEvents(scope: string, claimer: string, staleBefore: EpochMs, session?: string): Promise<HookEvent[]>;
  /** Gives claimed events back (learning them failed): the next claim takes them. */
  releaseHookEvents(scope: string, seqs: readonly number[]): Promise<void>;
  /**
   * Marks events learned: they leave the queue, and their keys are kept for a week, so that an
   * event queued again (a drainer that died before deleting its spool file) is not learned twice.
   */
  deleteHookEvents(scope: string, seqs: readonly number[]): Promise<void>;
  /**
   * Whether the scope has queued events not learned yet, claimed or not (a read: a session start hands off its
   * learning only when there is some, or a spool to queue).
   */
  hasQueuedHookEvents(scope: string): Promise<boolean>;
  /** A hook session's current turn (0 before its first prompt) and its observing state. */
  hookSession(scope: string, session: string): Promise<{ turn: number; state: Record<string, unknown> }>;
  /** Starts the session's next turn and returns its number. */
  startHookTurn(scope: string, session: string, at: EpochMs): Promise<number>;
  setHookSessionState(scope: string, session: string, state: Record<string, unknown>, at: EpochMs): Promise<void>;
  /**
   * Forgets a hook session: its turn and state go, and its events' payloads (the prompts); their keys stay a week, so
   * that a spool file queued again is not learned. True when the session had a state or an event.
   */
  forgetHookSession(scope: string, session: string): Promise<boolean>;
  /**
   * Records a forgotten session's tombstone (table `forgotten`, kind `session`, id {@link sessionTombstoneId}): a turn
   * of it still in another machine's spool is dropped where it is learned (walk 13). Never listed by listForgotten.
   */
  recordForgottenSession(scope: string, session: string, at: EpochMs): Promise<void>;
  /** Those of `sessions` that have a tombstone (forgotten), in one query. */
  forgottenSessions(scope: string, sessions: readonly string[]): Promise<string[]>;
  /**
   * The sessions of the scope with a hook turn or state whose id starts with `prefix` (as strings: every character of
   * `prefix`, none taken as a pattern). `forget` of a turn's run finds a long session from its run id's label with it.
   */
  hookSessionsStartingWith(scope: string, prefix: string): Promise<string[]>;
}

/** Every row out and in, for `credence dump` and restore. */
export interface DumpStore {
  /**
   * Every row of a table, all scopes, in insertion order: rowid (or seq) order where the table has
   * one (executions, observations, memories, hook_events), else primary-key order with text
   * compared bytewise (the "C" collation), in batches of at most `batchSize` rows (default 500).
   * Each row has every column of the table (`DUMP_COLUMNS`), nulls included.
   */
  exportRows(table: DumpTable, options?: { batchSize?: number; descending?: boolean }): AsyncIterable<DumpRow[]>;
  /**
   * Inserts rows exactly as given, in one transaction per call, all or none, after the rows
   * already there (so rows keep their relative order); derived indexes (full text, tool words) are
   * built from them. Text is scrubbed of secrets as every write is; constraints apply (a duplicate
   * key or a bad value fails the whole call). A column left out takes its default. Returns how many
   * rows were inserted.
   */
  importRows(table: DumpTable, rows: readonly DumpRow[]): Promise<number>;
  /**
   * Gives the rows restored from a dump written at schema `dumpSchema` the marks the migrations since derive from a
   * store's rows in place: below 26, a run whose every call names what it waited for taught only its dependencies
   * (`learned`, execute_dag's), below 27, an edge still a template was declared by hand (`declared`). So the same data
   * forgets the same way whether its store was upgraded or dumped and restored.
   */
  deriveRestoredMarks(dumpSchema: number): Promise<void>;
}

/**
 * The whole store every backend implements: the roles above, composed. A use case asks for the
 * narrowest role it needs (`ToolGraphStore & ExecutionStore`, …); the engine holds a `Store`.
 */
/**
 * A fit measured on a scope's replayed past runs (the DAG's calibration, the way it is chosen; issue 20), kept so a
 * new process reuses it instead of replaying hundreds of runs: its value as JSON, with the number of past runs and
 * tools and the revision it was measured at. Derived data: not dumped, measured again when missing.
 */
export interface StoredFit {
  name: string;
  runs: number;
  tools: number;
  revision: number;
  /** The fit, as JSON. */
  value: string;
  fittedAt: EpochMs;
}

/** Fits measured on replays (migration 9), one per scope and name; a put replaces the stored one. */
export interface FitStore {
  getFit(scope: string, name: string): Promise<StoredFit | undefined>;
  putFit(scope: string, fit: StoredFit, wait?: WriteWait): Promise<void>;
}

/**
 * The scope's past runs as the DAG's memory reads them (migration 11, issue 20): one blob per scope, with the
 * revision it reflects, so a new process reads it and the change log since instead of every run and call. Derived
 * data: not dumped, built again when missing.
 */
export interface PastRunsStore {
  readPastRuns(scope: string): Promise<{ revision: number; data: Uint8Array } | undefined>;
  /** Keeps `data` at `revision` unless the stored one is at a later revision; whether it was written. */
  writePastRuns(scope: string, revision: number, data: Uint8Array, wait?: WriteWait): Promise<boolean>;
  /**
   * The kept bytes to read a range at a time, as a query needs them (SQLite keeps them in pieces, migration 14, so
   * a new process reads a few of ~20 MB at 100k). A reader reads the bytes it was opened on; once two later ones
   * were written it may find them gone: `intact` is then false and `read` throws.
   */
  openPastRuns?(scope: string): Promise<PastRunsReader | undefined>;
}

/** Kept past runs read a range at a time ({@link PastRunsStore.openPastRuns}). */
export interface PastRunsReader {
  readonly revision: number;
  /** How many bytes there are. */
  readonly size: number;
  /** `length` bytes from `offset` (within `size`). */
  read(offset: number, length: number): Uint8Array;
  /** Whether the bytes it was opened on are still there to read. */
  intact(): boolean;
  /** Reads ahead, in one go, the bytes of ranges (offset, length) a query is about to read (optional). */
  prefetch?(ranges: readonly (readonly [number, number])[]): void;
}

/**
 * The scope's graph snapshot (migration 12, issue 20): one blob per scope with the revision it reflects, so a new
 * process patches it from the change log instead of reading every edge. Derived data: not dumped, built when missing.
 */
export interface GraphSnapshotStore {
  /** The kept snapshot and its revision; with `bytes`, its first `bytes` bytes only (all of it when shorter). */
  readGraphSnapshot(
    scope: string,
    options?: { bytes?: number },
  ): Promise<{ revision: number; data: Uint8Array } | undefined>;
  /** Keeps `data` at `revision` unless the stored one is at a later revision; whether it was written. */
  writeGraphSnapshot(scope: string, revision: number, data: Uint8Array, wait?: WriteWait): Promise<boolean>;
}

export interface Store
  extends StoreMeta,
    FitStore,
    PastRunsStore,
    GraphSnapshotStore,
    ToolGraphStore,
    ExecutionStore,
    WorkflowStore,
    EmbeddingStore,
    ObservationStore,
    MemoryStore,
    LearningStore,
    FeedbackStore,
    HookQueueStore,
    DumpStore,
    RevisionStore,
    FullTextStore,
    VectorIndexStore,
    StatsStore {}
