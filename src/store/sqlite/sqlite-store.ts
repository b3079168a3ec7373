/**
 * @module store/sqlite/sqlite-store
 * The embedded default store: one SQLite file through better-sqlite3, in WAL mode with a busy
 * timeout so many processes can write at once (SPEC §10). Write transactions start IMMEDIATE so
 * two writers queue on the busy timeout instead of failing on a lock upgrade.
 */
import { closeSync, constants, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { openReadOnly } from './read-only-open.js';
import { CredenceError, isStoreBusy, storeBusyError } from '../../core/errors.js';
import type { ExecutionEdgeEvent } from '../../core/graph/execution-edges.js';
import { binEdges } from '../../core/calibration/reliability.js';
import { OUTCOME_KINDS, OUTCOMES, type EdgeType } from '../../core/types.js';
import { promptOfTurn, type TurnPromptSpan } from '../../core/runs/session-label.js';
import { STORE_POLICY, storePolicy, type StorePolicy } from '../policy.js';
import {
  aroundMethods,
  failuresMapped,
  callsPerTool,
  endedAt,
  foldWorkflows,
  workflowsOf,
  workflowsAfterDelete,
  unlearnedEdges,
  eventsLeft,
  nulSafeStore,
  observationFingerprint,
  toolWords,
} from '../shared.js';
import {
  floatsOf,
  json,
  parse,
  callsByExecution,
  toCall,
  toEdge,
  toEmbedding,
  toEmbeddingStamp,
  toExecution,
  toFit,
  toFeedback,
  toInstinct,
  toMemory,
  toObservation,
  toOutcomeBin,
  toOutcomeOfColumns,
  toShown,
  toSkill,
  toTool,
  toWorkflow,
  type Row,
  countMismatches,
  countsOf,
} from '../rows.js';
import {
  TABLES,
  sessionTombstoneId,
  type AppendReport,
  type ChangeSet,
  type DailyActivity,
  type HookEvent,
  type CallRecord,
  type EdgeFold,
  type EdgeUnlearn,
  type EmbeddingKind,
  type EmbeddingStamp,
  type EpochMs,
  type PastRunsReader,
  type StoredEmbedding,
  type StoredFit,
  type EdgeRecord,
  type ExecutionBatchItem,
  type ExecutionRecord,
  type ForgottenRecord,
  type RecordReport,
  type Outcome,
  type OutcomeBin,
  type OutcomeQuery,
  type SetOutcomeOptions,
  type OutcomeRecord,
  type ShownRecord,
  type Surface,
  type FeedbackRecord,
  type InsertReport,
  type InstinctRecord,
  type MemoryHit,
  type MemoryRecord,
  type ObservationRecord,
  type SkillRecord,
  type Store,
  type TableCounts,
  type ToolRecord,
  type ToolUpsert,
  type DumpRow,
  type DumpTable,
  type WorkflowMerge,
  type WorkflowMove,
  type WorkflowOf,
  type WorkflowRecord,
  type VectorChunk,
  type VectorIndexHeader,
  type BackupReport,
  type FullTextRow,
  type FullTextTable,
  type WriteWait,
} from '../types.js';
import { activityWindow, dailyActivityOf, type DayRow } from '../daily-activity.js';
import { ExecutionCallsCache, storedCall } from '../calls-cache.js';
import { backupSqlite } from './backup.js';
import { keepConnection } from './connection.js';
import { leaveOpenForExit } from './exit-without-close.js';
import { keepSideFilesWritable, unwritableCause } from './writable.js';
import { clearDamaged, damagedRefusal, isCorrupt, isDamagedError, markDamaged, markedDamaged } from './damaged.js';
import {
  LATEST_SCHEMA_VERSION,
  LAYERED_RUNS_LEARNED_DEPENDENCIES,
  MIGRATIONS,
  TEMPLATES_DECLARED,
} from './migrations.js';
import { openPieces, readWhole, writePieces } from './past-run-pieces.js';

export interface SqliteStoreOptions {
  /** Path of the database file, or ':memory:'. */
  path: string;
  /**
   * How long a writer waits for another process's lock before giving up, in ms.
   * @default 5000
   */
  busyTimeoutMs?: number;
  /** Open without writing (no migration); fails if the schema is missing. @default false */
  readonly?: boolean;
  /**
   * Open read-only when this user cannot write the existing file (unwritableCause: a `chmod 444` store, a backup on
   * a read-only mount) instead of refusing it: for callers that only read. @default false
   */
  readOnlyWhenUnwritable?: boolean;
  /** How text is scrubbed and how long hook keys are kept (store/policy). @default STORE_POLICY */
  policy?: Partial<StorePolicy>;
  /** A file in a read-only folder is read into memory up to this size (openReadOnly). @default IN_MEMORY_AT_MOST */
  inMemoryAtMost?: number;
}

/** Opens (creating and migrating when needed) a SQLite store. */
export function openSqliteStore(options: SqliteStoreOptions): SqliteStore {
  const path = options.path === ':memory:' ? ':memory:' : resolve(options.path);
  let db: Database.Database;
  if (path !== ':memory:' && existsSync(path) && statSync(path).isDirectory()) {
    throw new CredenceError(
      'STORE_UNAVAILABLE',
      `cannot open the database at ${path}: it is a directory; give the path of a file`,
      { details: { path } },
    );
  }
  let readonly = options.readonly ?? false;
  if (path !== ':memory:') {
    keepSideFilesWritable(path);
    let cause = readonly ? undefined : unwritableCause(path);
    if (cause !== undefined && options.readOnlyWhenUnwritable === true) {
      readonly = true;
      cause = undefined;
    }
    if (cause !== undefined)
      throw new CredenceError('STORE_UNAVAILABLE', `cannot write the database at ${path}: ${cause}`, {
        details: { path },
      });
  }
  const busyTimeoutMs = Math.max(0, Math.floor(options.busyTimeoutMs ?? 5000));
  let opened: Database.Database | undefined;
  try {
    if (path !== ':memory:' && !readonly) createPrivately(path);
    db = opened = readonly ? openReadOnly(path, { atMost: options.inMemoryAtMost }) : new Database(path);
    db.pragma(`busy_timeout = ${busyTimeoutMs}`);
    if (!readonly) {
      switchToWal(db, busyTimeoutMs);
      db.pragma('synchronous = NORMAL');
      db.pragma('cache_size = -32000');
      // Statement journals in memory: a multi-row upsert (edges, workflows) in a long write transaction copies the
      // pages it touches, already written earlier in the transaction, to its statement journal; in a temp file that
      // was ~290k pwrite calls for 20,000 runs in batches of 5,000 (issue 20: ~8% of recordExecutions' CPU).
      db.pragma('temp_store = MEMORY');
      // Fewer, larger checkpoints: hot pages (the edge B-tree) are copied back once, not every commit.
      db.pragma('wal_autocheckpoint = 10000');
    }
    db.pragma('foreign_keys = ON');
    // A deleted row's bytes are overwritten, not left in free pages: `forget` removes a secret from the file.
    db.pragma('secure_delete = ON');
    // Touch the file so that a path that is not a database fails here, with its name.
    db.pragma('user_version');
    // A read-only store's reader just made its -wal and -shm with the store's mode: fixed by a chmod of the store.
    if (readonly && path !== ':memory:') keepSideFilesWritable(path);
  } catch (error) {
    opened?.close();
    if (isCorrupt(error)) markDamaged(path, [(error as Error).message]);
    throw openFailure(path, error);
  }
  // Every open that may write checks the mark (sqlite/damaged): still damaged, a writer refuses the store, and a
  // reader that would record what it shows (readOnlyWhenUnwritable) gets it read-only, so nothing goes into it.
  let damaged: string[] = [];
  if (!readonly && markedDamaged(path)) {
    const problems = quickCheckOf(db);
    if (problems.length > 0) {
      db.close();
      if (options.readOnlyWhenUnwritable !== true) throw damagedRefusal(path, problems);
      readonly = true;
      damaged = problems;
      try {
        db = openReadOnly(path, { atMost: options.inMemoryAtMost });
      } catch (error) {
        throw openFailure(path, error);
      }
    } else clearDamaged(path);
  }
  try {
    migrate(db, path, readonly);
  } catch (error) {
    db.close();
    if (isCorrupt(error)) markDamaged(path, [(error as Error).message]);
    throw isDamagedError(error) || isStoreBusy(error) ? openFailure(path, error) : error;
  }
  const store = nulSafeStore(
    busyNamed(construct(db, path, options.policy === undefined ? STORE_POLICY : storePolicy(options.policy), damaged)),
  );
  keepConnection(store, db);
  return store;
}

/**
 * The store with each method's SQLITE_BUSY or SQLITE_LOCKED (another connection held the lock past the busy timeout)
 * thrown as CredenceError STORE_BUSY naming the file (`isStoreBusy`, retry), not the driver's "database is locked";
 * while exportRows is read too.
 */
function busyNamed<S extends SqliteStore>(store: S): S {
  const named = (error: unknown): never => {
    // A damaged page met by any statement: the next writer refuses the store (sqlite/damaged).
    if (isCorrupt(error)) markDamaged(store.location, [(error as Error).message]);
    throw isStoreBusy(error) ? storeBusyError(error, store.location) : error;
  };
  return aroundMethods(store, (method, target, args) => {
    try {
      return failuresMapped(method.apply(target, args), named);
    } catch (error) {
      return named(error);
    }
  });
}

/**
 * Creates the database's folders (0700) and the empty database file (0600) when they do not exist
 * yet, so the store is readable by its owner only; SQLite gives the -wal and -shm files the mode of
 * the database file. A folder or file that already exists is left as it is (never chmod-ed).
 */
function createPrivately(path: string): void {
  makeFolders(dirname(path), 0o700);
  try {
    closeSync(openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600));
  } catch (error) {
    // Another process created it first, or it was there: SQLite opens it as it is.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

/**
 * `folder` and its missing parents, made with `mode` one level at a time, the top first. Node's own
 * `mkdirSync(…, { recursive: true })` never returns where a folder exists but refuses a new entry with ENOENT (procfs:
 * `/proc/nope/x.db`, walk 17 item 13): here the first folder that cannot be made throws its error (ENOENT, EACCES, …).
 * One made meanwhile by another process is fine.
 */
function makeFolders(folder: string, mode: number): void {
  const missing: string[] = [];
  for (let f = folder; !existsSync(f) && dirname(f) !== f; f = dirname(f)) missing.push(f);
  for (const f of missing.reverse()) {
    try {
      mkdirSync(f, { mode });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

/** SQLite's quick check of `db` (the first 20 problems), empty when sound; a check that fails is its problem. */
function quickCheckOf(db: Database.Database): string[] {
  try {
    const rows = db.pragma('quick_check(20)') as { quick_check: string }[];
    return rows.map((r) => r.quick_check).filter((r) => r !== 'ok');
  } catch (error) {
    return [(error as Error).message];
  }
}

/**
 * `journal_mode = WAL`, tried again for up to `timeoutMs` while another connection holds the file's write lock: SQLite
 * refuses that switch at once (SQLITE_BUSY) without waiting on its busy timeout, as a new file another process is
 * still creating, or an old rollback-journal file being written, is. The thread waits, as the busy timeout does.
 */
function switchToWal(db: Database.Database, timeoutMs: number): void {
  const until = Date.now() + timeoutMs;
  for (let pause = 5; ; pause = Math.min(pause * 2, 100)) {
    try {
      db.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      const left = until - Date.now();
      if (!isStoreBusy(error) || left <= 0) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Math.min(pause, left));
    }
  }
}

/**
 * Why a store could not be opened: STORE_BUSY (retry) while another connection held the lock, else unavailable; a
 * CredenceError already naming the file (openReadOnly's refusal) as it is.
 */
export function openFailure(path: string, error: unknown): CredenceError {
  if (error instanceof CredenceError) return error;
  if (isStoreBusy(error)) return storeBusyError(error, path);
  const what = isDamagedError(error) ? 'it is damaged or is not a Credence (SQLite) database: ' : '';
  return new CredenceError(
    'STORE_UNAVAILABLE',
    `cannot open the database at ${path}: ${what}${(error as Error).message}`,
    { cause: error, details: { path } },
  );
}

function migrate(db: Database.Database, path: string, readonly: boolean): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > LATEST_SCHEMA_VERSION) {
    throw new CredenceError(
      'SCHEMA_TOO_NEW',
      `the database at ${path} has schema version ${current}, ` +
        `newer than this Credence knows (${LATEST_SCHEMA_VERSION}); upgrade Credence`,
      { details: { path, version: current } },
    );
  }
  if (current === LATEST_SCHEMA_VERSION) return;
  if (readonly) {
    throw new CredenceError(
      'STORE_UNAVAILABLE',
      `the database at ${path} needs a migration to version ${LATEST_SCHEMA_VERSION} but was opened read-only`,
    );
  }
  for (const migration of MIGRATIONS) {
    if (migration.version <= current) continue;
    db.transaction(() => {
      // Another process may have migrated while we waited for the lock.
      const seen = db.pragma('user_version', { simple: true }) as number;
      if (seen >= migration.version) return;
      db.exec(migration.sql);
      migration.after?.(db);
      db.pragma(`user_version = ${migration.version}`);
    }).immediate();
  }
}

/**
 * `new SqliteStore`, for `openSqliteStore` alone (the constructor is private, so its declaration names no driver type).
 */
let construct: (db: Database.Database, location: string, policy: StorePolicy, damaged: string[]) => SqliteStore;

export class SqliteStore implements Store {
  readonly kind = 'sqlite' as const;
  readonly vectorRanking = 'node' as const;
  readonly location: string;
  readonly readOnly: boolean;
  readonly damaged?: readonly string[];
  readonly #db: Database.Database;
  readonly #policy: StorePolicy;
  readonly #statements = new Map<string, Database.Statement>();
  /**
   * Edges this connection has read or written, per scope, so bulk recording does not read every
   * edge back from disk; `complete` once a large batch has loaded the whole scope (then a miss
   * means the edge does not exist). Valid only while no other connection has committed:
   * `PRAGMA data_version` changes exactly when another connection commits, and the cache is
   * dropped then. Only ever consulted inside a write transaction, which holds the lock.
   */
  #edgeCache = new Map<string, { edges: Map<string, EdgeRecord>; complete: boolean }>();
  #edgeCacheSize = 0;
  #dataVersion = -1;
  /** The calls of the executions appended to last (store/calls-cache). */
  readonly #calls = new ExecutionCallsCache();

  static {
    construct = (db, location, policy, damaged) => new SqliteStore(db, location, policy, damaged);
  }

  private constructor(db: Database.Database, location: string, policy: StorePolicy, damaged: string[]) {
    this.#db = db;
    this.#policy = policy;
    this.location = location;
    this.readOnly = db.readonly;
    if (damaged.length > 0) this.damaged = damaged;
  }

  #stmt(sql: string): Database.Statement {
    let statement = this.#statements.get(sql);
    if (statement === undefined) {
      statement = this.#db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  #edgeCacheFor(scope: string): { edges: Map<string, EdgeRecord>; complete: boolean } {
    const version = this.#db.pragma('data_version', { simple: true }) as number;
    if (version !== this.#dataVersion || this.#edgeCacheSize > 500_000) {
      this.#edgeCache.clear();
      this.#edgeCacheSize = 0;
      this.#dataVersion = version;
    }
    let forScope = this.#edgeCache.get(scope);
    if (forScope === undefined) {
      forScope = { edges: new Map(), complete: false };
      this.#edgeCache.set(scope, forScope);
    }
    return forScope;
  }

  #dataVersionNow(): number {
    return this.#db.pragma('data_version', { simple: true }) as number;
  }

  /**
   * Once a write transaction has committed, the cache learns the edges it wrote, unless another
   * connection committed in between (`data_version` moved since `versionInside`, read inside the
   * transaction): then what it wrote may already be stale, and the cache is dropped instead.
   */
  #cacheCommitted(scope: string, edges: ReadonlyMap<string, EdgeRecord>, versionInside: number): void {
    if (this.#dataVersionNow() !== versionInside) {
      this.#edgeCache.clear();
      this.#edgeCacheSize = 0;
      this.#dataVersion = -1;
      return;
    }
    const cache = this.#edgeCacheFor(scope);
    for (const [key, e] of edges) this.#cacheEdge(cache, key, e);
  }

  #cacheEdge(cache: { edges: Map<string, EdgeRecord> }, key: string, edge: EdgeRecord): void {
    if (!cache.edges.has(key)) this.#edgeCacheSize += 1;
    cache.edges.set(key, edge);
  }

  /**
   * `fn` in one write transaction; with `wait.busyWaitMs`, waiting that long (not the busy timeout) for another
   * connection's lock. The timeout is the connection's, set and put back around this synchronous call alone.
   */
  #write<T>(fn: () => T, wait: WriteWait = {}): T {
    if (wait.busyWaitMs === undefined) return this.#db.transaction(fn).immediate();
    const before = this.#db.pragma('busy_timeout', { simple: true }) as number;
    this.#db.pragma(`busy_timeout = ${Math.max(0, Math.floor(wait.busyWaitMs))}`);
    try {
      return this.#db.transaction(fn).immediate();
    } finally {
      this.#db.pragma(`busy_timeout = ${before}`);
    }
  }

  async schemaVersion(): Promise<number> {
    return this.#db.pragma('user_version', { simple: true }) as number;
  }

  async listScopes(): Promise<string[]> {
    // Each table's scopes by skipping from one to the next along its index on scope (a loose index scan): a few
    // lookups per scope instead of reading every row (issue 20: the dashboard asks on every page).
    const scopesOf = (t: string) => `SELECT scope FROM (
      WITH RECURSIVE s(scope) AS (
        SELECT (SELECT min(scope) FROM ${t})
        UNION ALL SELECT (SELECT min(scope) FROM ${t} WHERE scope > s.scope) FROM s WHERE s.scope IS NOT NULL
      ) SELECT scope FROM s WHERE scope IS NOT NULL)`;
    const union = TABLES.map(scopesOf).join(' UNION ');
    return (this.#stmt(`SELECT scope FROM (${union}) ORDER BY scope`).all() as Row[]).map((r) => String(r.scope));
  }

  async counts(scope?: string): Promise<TableCounts> {
    // Kept per scope by the tables' triggers (migration 13): ten small rows instead of counting every row.
    const rows = (
      scope === undefined
        ? this.#stmt('SELECT name, sum(n) AS n FROM table_counts GROUP BY name').all()
        : this.#stmt('SELECT name, n FROM table_counts WHERE scope = ?').all(scope)
    ) as Row[];
    return countsOf(rows);
  }

  async check(): Promise<string[]> {
    const rows = this.#db.pragma('integrity_check') as { integrity_check: string }[];
    const problems = rows.map((r) => r.integrity_check).filter((r) => r !== 'ok');
    const kept = this.#stmt('SELECT scope, name, n FROM table_counts WHERE n <> 0').all() as Row[];
    const counted = TABLES.flatMap(
      (t) => this.#db.prepare(`SELECT scope, '${t}' AS name, count(*) AS n FROM ${t} GROUP BY scope`).all() as Row[],
    );
    problems.push(...countMismatches(kept, counted));
    try {
      this.#db.prepare(`INSERT INTO memories_fts (memories_fts, rank) VALUES ('integrity-check', 1)`).run();
    } catch (error) {
      problems.push(`memories_fts: ${(error as Error).message}`);
    }
    return problems;
  }

  async quickCheck(): Promise<string[]> {
    const problems = quickCheckOf(this.#db);
    // Found damaged: writers refuse it from now on (sqlite/damaged); found sound, a mark left before goes.
    if (problems.length > 0) markDamaged(this.location, problems);
    else if (markedDamaged(this.location)) clearDamaged(this.location);
    return problems;
  }

  backup(file: string, options: { overwrite?: boolean; ifExists?: string } = {}): Promise<BackupReport> {
    return backupSqlite(this.#db, this.location, file, options);
  }

  async close(): Promise<void> {
    // A query process about to exit leaves a small write-ahead log for the next one (sqlite/exit-without-close).
    if (this.#db.open && !leaveOpenForExit(this.location, this.#db.readonly)) this.#db.close();
  }

  // ---- tools ---------------------------------------------------------------------------------

  async upsertTools(
    scope: string,
    tools: readonly ToolUpsert[],
    options: { at?: EpochMs } = {},
  ): Promise<{ inserted: number; updated: number }> {
    const now = options.at ?? Date.now();
    const exists = this.#stmt('SELECT 1 FROM tools WHERE scope = ? AND id = ?');
    const upsert = this.#stmt(`
      INSERT INTO tools (scope, id, description, input_schema, origin, annotations, created_at, updated_at)
      VALUES (@scope, @id, COALESCE(@description, ''), @inputSchema, @origin, @annotations, @now, @now)
      ON CONFLICT (scope, id) DO UPDATE SET
        description = COALESCE(@description, tools.description),
        input_schema = COALESCE(excluded.input_schema, tools.input_schema),
        origin = COALESCE(excluded.origin, tools.origin),
        annotations = COALESCE(excluded.annotations, tools.annotations),
        updated_at = excluded.updated_at
      RETURNING description`);
    return this.#write(() => {
      let inserted = 0;
      let updated = 0;
      for (const raw of tools) {
        const tool = this.#policy.scrub(raw);
        if (exists.get(scope, tool.id) === undefined) inserted += 1;
        else updated += 1;
        const stored = upsert.get({
          scope,
          id: tool.id,
          description: tool.description ?? null,
          inputSchema: tool.inputSchema === undefined ? null : json(tool.inputSchema),
          origin: tool.origin ?? null,
          annotations: tool.annotations === undefined ? null : json(tool.annotations),
          now,
        }) as { description: string };
        this.#indexTool(scope, tool.id, stored.description);
      }
      return { inserted, updated };
    });
  }

  async getTool(scope: string, id: string): Promise<ToolRecord | undefined> {
    const row = this.#stmt('SELECT * FROM tools WHERE scope = ? AND id = ?').get(scope, id) as Row | undefined;
    return row === undefined ? undefined : toTool(row);
  }

  async listTools(scope: string): Promise<ToolRecord[]> {
    return (this.#stmt('SELECT * FROM tools WHERE scope = ? ORDER BY id').all(scope) as Row[]).map(toTool);
  }

  // ---- edges ---------------------------------------------------------------------------------

  async putEdge(scope: string, raw: EdgeRecord): Promise<void> {
    const edge = this.#policy.scrub(raw);
    const cached = this.#edgeCache.get(scope);
    this.#write(() => {
      this.#stmt(`
        INSERT INTO edges (scope, from_tool, to_tool, type, source, count, successes, failures, first_seen, last_seen,
          declared)
        VALUES (@scope, @from, @to, @type, @source, @count, @successes, @failures, @firstSeen, @lastSeen, @declared)
        ON CONFLICT (scope, from_tool, to_tool, type) DO UPDATE SET
          source = excluded.source, count = excluded.count, successes = excluded.successes,
          failures = excluded.failures, first_seen = excluded.first_seen, last_seen = excluded.last_seen,
          declared = excluded.declared`).run({
        scope,
        ...edge,
        declared: edge.declared === true ? 1 : 0,
      });
      // The edge's ends are logged as tool changes at the revision its write reached (store/types `putEdge`).
      const log = this.#stmt(`
        INSERT INTO changes (scope, kind, id, seq, deleted)
        VALUES (?, 'tool', ?, (SELECT revision FROM revisions WHERE scope = ?), 0)
        ON CONFLICT (scope, kind, id) DO UPDATE SET seq = excluded.seq`);
      for (const tool of new Set([edge.from, edge.to])) log.run(scope, tool, scope);
    });
    if (cached !== undefined) this.#cacheEdge(cached, edgeKey(edge), edge);
  }

  async insertEdge(scope: string, raw: EdgeRecord): Promise<boolean> {
    const edge = this.#policy.scrub(raw);
    const inserted =
      this.#stmt(`
        INSERT INTO edges (scope, from_tool, to_tool, type, source, count, successes, failures, first_seen, last_seen,
          declared)
        VALUES (@scope, @from, @to, @type, @source, @count, @successes, @failures, @firstSeen, @lastSeen, @declared)
        ON CONFLICT (scope, from_tool, to_tool, type) DO NOTHING`).run({
        scope,
        ...edge,
        declared: edge.declared === true ? 1 : 0,
      }).changes > 0;
    const cached = this.#edgeCache.get(scope);
    if (inserted && cached !== undefined) this.#cacheEdge(cached, edgeKey(edge), edge);
    return inserted;
  }

  async getEdge(scope: string, key: { from: string; to: string; type: EdgeType }): Promise<EdgeRecord | undefined> {
    const row = this.#stmt('SELECT * FROM edges WHERE scope = ? AND from_tool = ? AND to_tool = ? AND type = ?').get(
      scope,
      key.from,
      key.to,
      key.type,
    ) as Row | undefined;
    return row === undefined ? undefined : toEdge(row);
  }

  async listEdges(scope: string, filter: { from?: string; to?: string } = {}): Promise<EdgeRecord[]> {
    // A statement for each filter given: with `(@to IS NULL OR to_tool = @to)` SQLite reads the whole scope by its
    // primary key, where `to_tool = @to` reads edges_to (issue 20: a patched graph snapshot reads by tool).
    const { from, to } = filter;
    const where = (from === undefined ? '' : ' AND from_tool = @from') + (to === undefined ? '' : ' AND to_tool = @to');
    const rows = this.#stmt(`SELECT * FROM edges WHERE scope = @scope${where} ORDER BY from_tool, to_tool, type`).all({
      scope,
      ...(from === undefined ? {} : { from }),
      ...(to === undefined ? {} : { to }),
    }) as Row[];
    return rows.map(toEdge);
  }

  // ---- executions ----------------------------------------------------------------------------

  async insertExecution(scope: string, raw: ExecutionRecord, options: { at?: EpochMs } = {}): Promise<void> {
    this.#write(() => {
      this.#insertExecution(scope, raw);
      this.#countCalls(scope, callsPerTool(raw.calls), options.at);
    });
  }

  /**
   * Adds calls to each tool's counter, creating unknown tools with an empty description, created `at` (the machine
   * clock when not given); returns the new ones.
   */
  #countCalls(scope: string, perTool: ReadonlyMap<string, number>, at: EpochMs | undefined): string[] {
    const toolExists = this.#stmt('SELECT 1 FROM tools WHERE scope = ? AND id = ?');
    const insertTool = this.#stmt(
      `INSERT INTO tools (scope, id, description, calls, created_at, updated_at) VALUES (?, ?, '', ?, ?, ?)`,
    );
    const countCalls = this.#stmt('UPDATE tools SET calls = calls + ? WHERE scope = ? AND id = ?');
    const now = at ?? Date.now();
    const newTools: string[] = [];
    for (const [tool, calls] of perTool) {
      if (toolExists.get(scope, tool) === undefined) {
        insertTool.run(scope, tool, calls, now, now);
        this.#indexTool(scope, tool, '');
        newTools.push(tool);
      } else countCalls.run(calls, scope, tool);
    }
    return newTools;
  }

  #indexTool(scope: string, id: string, description: string): void {
    this.#stmt(`
      INSERT INTO tool_terms (scope, id, words, description) VALUES (?, ?, ?, ?)
      ON CONFLICT (scope, id) DO UPDATE SET words = excluded.words, description = excluded.description
      WHERE tool_terms.description IS NOT excluded.description OR tool_terms.words IS NOT excluded.words`).run(
      scope,
      id,
      toolWords(id),
      description,
    );
  }

  async searchTools(
    scope: string,
    match: string,
    options: { limit?: number } = {},
  ): Promise<{ id: string; bm25: number }[]> {
    const rows = this.#ftsTop('tools_fts', 'tool_terms', scope, match, options.limit ?? 50, 'm.id AS id');
    return rows.map((r) => ({ id: String(r.id), bm25: Number(r.bm25) }));
  }

  async searchExecutions(
    scope: string,
    match: string,
    options: { limit?: number } = {},
  ): Promise<{ id: string; bm25: number }[]> {
    const rows = this.#ftsTop('executions_fts', 'executions', scope, match, options.limit ?? 20, 'm.id AS id');
    return rows.map((r) => ({ id: String(r.id), bm25: Number(r.bm25) }));
  }

  async searchObservations(
    scope: string,
    match: string,
    options: { limit?: number } = {},
  ): Promise<{ observation: ObservationRecord; bm25: number }[]> {
    const rows = this.#ftsTop('observations_fts', 'observations', scope, match, options.limit ?? 20, 'm.*');
    return rows.map((r) => ({ observation: toObservation(r), bm25: Number(r.bm25) }));
  }

  async putEmbeddings(
    scope: string,
    kind: EmbeddingKind,
    items: readonly StoredEmbedding[],
    wait?: WriteWait,
  ): Promise<void> {
    const put = this.#stmt(
      `
      INSERT INTO embeddings (scope, kind, ref_id, model_key, text_hash, vector) VALUES (?, ?, ?, ?, ?, ?)
      ON CONFLICT (scope, kind, ref_id) DO UPDATE SET model_key = excluded.model_key, ` +
        `text_hash = excluded.text_hash, vector = excluded.vector`,
    );
    this.#write(() => {
      for (const item of items)
        put.run(
          scope,
          kind,
          item.refId,
          item.modelKey,
          item.textHash,
          Buffer.from(item.vector.buffer, item.vector.byteOffset, item.vector.byteLength),
        );
    }, wait);
  }

  async getEmbeddings(scope: string, kind: EmbeddingKind): Promise<StoredEmbedding[]> {
    const rows = this.#stmt(
      'SELECT ref_id, model_key, text_hash, vector FROM embeddings WHERE scope = ? AND kind = ?',
    ).all(scope, kind) as Row[];
    return rows.map(toEmbedding);
  }

  async getEmbeddingStamps(scope: string, kind: EmbeddingKind): Promise<EmbeddingStamp[]> {
    const rows = this.#stmt('SELECT ref_id, model_key, text_hash FROM embeddings WHERE scope = ? AND kind = ?').all(
      scope,
      kind,
    ) as Row[];
    return rows.map(toEmbeddingStamp);
  }

  async calledTools(scope: string, ids?: readonly string[]): Promise<Map<string, number>> {
    const rows = (
      ids === undefined
        ? this.#stmt('SELECT id, calls FROM tools WHERE scope = ? AND calls > 0 ORDER BY id').all(scope)
        : this.#stmt(
            'SELECT t.id, t.calls FROM json_each(?) j CROSS JOIN tools t ON t.scope = ? AND t.id = j.value ' +
              'WHERE t.calls > 0 ORDER BY t.id',
          ).all(JSON.stringify(ids), scope)
    ) as Row[];
    return new Map(rows.map((r) => [String(r.id), Number(r.calls)]));
  }

  #insertExecution(scope: string, raw: ExecutionRecord, scrubbed = false): void {
    const execution = scrubbed ? raw : this.#policy.scrub(raw);
    const insertExecution = this.#stmt(`
      INSERT INTO executions (id, scope, intent, intent_kind, started_at, ended_at, confidence, summary, learned)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    insertExecution.run(
      execution.id,
      scope,
      execution.intent,
      execution.intentKind ?? null,
      execution.startedAt,
      execution.endedAt ?? null,
      execution.confidence ?? null,
      execution.summary ?? null,
      execution.learned === undefined ? null : json(execution.learned),
    );
    this.#insertCalls(scope, execution.id, execution.calls, 0);
  }

  /** Inserts (already scrubbed) calls of one execution at indexes `firstIndex`, `firstIndex + 1`, … */
  #insertCalls(scope: string, executionId: string, calls: readonly CallRecord[], firstIndex: number): void {
    const insertCall = this.#stmt(
      `
      INSERT INTO calls (execution_id, scope, idx, tool, status, retries, duration_ms, consumes, ` +
        `parent, at, intent, input, output, depends_on)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    calls.forEach((call, i) => {
      insertCall.run(
        executionId,
        scope,
        firstIndex + i,
        call.tool,
        call.status,
        call.retries,
        call.durationMs ?? null,
        call.consumes.length === 0 ? '[]' : json(call.consumes),
        call.parent ?? null,
        call.at ?? null,
        call.intent ?? null,
        call.input ?? null,
        call.output ?? null,
        call.dependsOn === undefined ? null : json(call.dependsOn),
      );
    });
  }

  /**
   * Folds edge events into `edges` (the edges this transaction has touched), reading each edge's
   * current state from there, else the cache, else the table. Call inside a write transaction.
   */
  #foldEvents(
    scope: string,
    events: readonly ExecutionEdgeEvent[],
    fold: EdgeFold,
    cache: { edges: Map<string, EdgeRecord>; complete: boolean },
    edges: Map<string, EdgeRecord>,
    lookedUp: ReadonlySet<string> = new Set(),
  ): void {
    const readEdge = this.#stmt('SELECT * FROM edges WHERE scope = ? AND from_tool = ? AND to_tool = ? AND type = ?');
    for (const event of events) {
      const key = edgeKey(event);
      let current = edges.get(key) ?? cache.edges.get(key);
      if (current === undefined && !cache.complete && !lookedUp.has(key)) {
        const row = readEdge.get(scope, event.from, event.to, event.type) as Row | undefined;
        if (row !== undefined) current = toEdge(row);
      }
      edges.set(key, fold(current, event));
    }
  }

  /**
   * Brings into the cache the scope's edges that the batch's events touch and the cache lacks; returns the keys
   * looked up (those absent from the table are new edges). One scan of the scope's edges when those are many
   * (SCAN_EDGES_FROM) and the scope holds fewer than twice as many (a scanned row costs about what a looked-up one
   * does); else the keys in order, ROWS_PER_STATEMENT a statement. A batch of 2,000 runs into the 55k edges of the
   * 100k store looks up ~5k of them: ~10 ms where the scan took ~190 ms (issue 20). Inside a write transaction.
   */
  #loadEdges(
    scope: string,
    items: readonly ExecutionBatchItem[],
    cache: { edges: Map<string, EdgeRecord>; complete: boolean },
  ): ReadonlySet<string> {
    if (cache.complete) return new Set();
    const missing = new Map<string, ExecutionEdgeEvent>();
    for (const item of items)
      for (const event of item.events) {
        const key = edgeKey(event);
        if (!cache.edges.has(key)) missing.set(key, event);
      }
    if (missing.size >= SCAN_EDGES_FROM && this.#edgesOf(scope) < 2 * missing.size) {
      for (const row of this.#stmt('SELECT * FROM edges WHERE scope = ?').all(scope) as Row[]) {
        const edge = toEdge(row);
        this.#cacheEdge(cache, edgeKey(edge), edge);
      }
      cache.complete = true;
      return new Set();
    }
    const keys = [...missing.values()].sort(byEdgeKey);
    const many = (n: number) =>
      this.#stmt(
        `SELECT e.* FROM (VALUES ${new Array(n).fill('(?, ?, ?)').join(', ')}) k JOIN edges e ` +
          'ON e.scope = ? AND e.from_tool = k.column1 AND e.to_tool = k.column2 AND e.type = k.column3',
      );
    for (let k = 0; k < keys.length; k += ROWS_PER_STATEMENT) {
      const chunk = keys.slice(k, k + ROWS_PER_STATEMENT);
      const values = chunk.flatMap((e) => [e.from, e.to, e.type]);
      for (const row of many(chunk.length).all(...values, scope) as Row[]) {
        const edge = toEdge(row);
        this.#cacheEdge(cache, edgeKey(edge), edge);
      }
    }
    return new Set(missing.keys());
  }

  #writeEdges(scope: string, edges: Iterable<EdgeRecord>): void {
    const values: unknown[] = [];
    // In key order: each row lands beside the last one in the b-tree instead of anywhere (a batch of 5,000 runs
    // writes ~24k edges: ~15% less time in SQLite). The order of writes changes nothing else.
    for (const e of [...edges].sort(byEdgeKey))
      values.push(scope, e.from, e.to, e.type, e.source, e.count, e.successes, e.failures, e.firstSeen, e.lastSeen);
    this.#insertRows(
      'INSERT INTO edges (scope, from_tool, to_tool, type, source, count, successes, failures, first_seen, last_seen)',
      10,
      values,
      `ON CONFLICT (scope, from_tool, to_tool, type) DO UPDATE SET
        source = excluded.source, count = excluded.count, successes = excluded.successes,
        failures = excluded.failures, first_seen = excluded.first_seen, last_seen = excluded.last_seen`,
    );
  }

  /**
   * Runs `head VALUES (…), (…), … tail` over `values` (row after row, `width` values a row), ROWS_PER_STATEMENT
   * rows a statement: one call into SQLite per many rows instead of one a row, which is most of a row's cost in a
   * bulk write (issue 20). The rows are written in order, as one statement each would write them.
   */
  #insertRows(head: string, width: number, values: readonly unknown[], tail = ''): void {
    const rows = values.length / width;
    const row = `(${new Array(width).fill('?').join(', ')})`;
    const full = Math.floor(rows / ROWS_PER_STATEMENT);
    if (full > 0) {
      const many = this.#stmt(`${head} VALUES ${new Array(ROWS_PER_STATEMENT).fill(row).join(', ')} ${tail}`);
      const size = ROWS_PER_STATEMENT * width;
      for (let k = 0; k < full; k += 1) many.run(values.slice(k * size, (k + 1) * size));
    }
    if (full * ROWS_PER_STATEMENT === rows) return;
    const one = this.#stmt(`${head} VALUES ${row} ${tail}`);
    for (let r = full * ROWS_PER_STATEMENT; r < rows; r += 1) one.run(values.slice(r * width, (r + 1) * width));
  }

  async recordExecutions(
    scope: string,
    batch: readonly ExecutionBatchItem[],
    fold: EdgeFold,
    options: { workflow?: WorkflowOf; at?: EpochMs } = {},
  ): Promise<RecordReport> {
    // Tool ids and edge ends are text like any other: scrubbed once, so every table agrees on them.
    const items = batch.map((item) => this.#policy.scrub(item));
    const report = this.#write(() => {
      const edges = new Map<string, EdgeRecord>();
      const cache = this.#edgeCacheFor(scope);
      const lookedUp = this.#loadEdges(scope, items, cache);
      // Every execution, then every call, in multi-row statements (the same rows #insertExecution writes).
      const executionRows: unknown[] = [];
      const callRows: unknown[] = [];
      for (const { execution: e } of items) {
        executionRows.push(
          e.id,
          scope,
          e.intent,
          e.intentKind ?? null,
          e.startedAt,
          e.endedAt ?? null,
          e.confidence ?? null,
          e.summary ?? null,
          e.learned === undefined ? null : json(e.learned),
        );
        e.calls.forEach((call, i) => {
          callRows.push(e.id, scope, i, call.tool, call.status, call.retries, call.durationMs ?? null);
          callRows.push(call.consumes.length === 0 ? '[]' : json(call.consumes), call.parent ?? null, call.at ?? null);
          callRows.push(call.intent ?? null, call.input ?? null, call.output ?? null);
          callRows.push(call.dependsOn === undefined ? null : json(call.dependsOn));
        });
      }
      this.#insertRows(
        'INSERT INTO executions (id, scope, intent, intent_kind, started_at, ended_at, confidence, summary, learned)',
        9,
        executionRows,
      );
      this.#insertRows(
        'INSERT INTO calls (execution_id, scope, idx, tool, status, retries, duration_ms, consumes, parent, at, ' +
          'intent, input, output, depends_on)',
        14,
        callRows,
      );
      for (const item of items) this.#foldEvents(scope, item.events, fold, cache, edges, lookedUp);
      const newTools = this.#countCalls(scope, callsPerTool(items.flatMap((item) => item.execution.calls)), options.at);
      this.#writeEdges(scope, edges.values());
      if (options.workflow !== undefined) this.#mergeWorkflows(scope, workflowsOf(items, options.workflow));
      return { newTools, edges, version: this.#dataVersionNow() };
    });
    this.#cacheCommitted(scope, report.edges, report.version);
    return { newTools: report.newTools, edges: [...report.edges.values()] };
  }

  async appendCalls(
    scope: string,
    rawHead: { id: string; intent: string; startedAt: EpochMs },
    build: (before: readonly CallRecord[]) => CallRecord[],
    learn: (before: readonly CallRecord[], after: readonly CallRecord[]) => readonly ExecutionEdgeEvent[],
    fold: EdgeFold,
    options: { dequeue?: readonly number[]; workflows?: WorkflowMove; at?: EpochMs } = {},
  ): Promise<AppendReport> {
    const head = this.#policy.scrub(rawHead);
    const report = this.#appending(scope, head.id, () => {
      // The hook events these calls came from leave the queue in the same transaction: never twice, never lost.
      this.#markHookEventsDone(scope, options.dequeue ?? []);
      // Inside the IMMEDIATE transaction: no other writer can append between this read and the inserts.
      const row = this.#stmt('SELECT intent, started_at, ended_at FROM executions WHERE scope = ? AND id = ?').get(
        scope,
        head.id,
      ) as Row | undefined;
      const before = this.#callsBefore(scope, head.id);
      const added = build(before).map((call) => storedCall(this.#policy.scrub(call)));
      const after = this.#calls.extend(scope, head.id, before, added);
      const events = learn(before, after).map((event) => this.#policy.scrub(event));
      const startedAt = row === undefined ? head.startedAt : Number(row.started_at);
      const ended = endedAt(added, row === undefined || row.ended_at == null ? startedAt : Number(row.ended_at));
      if (row === undefined) {
        // The insert trigger indexes the intent in executions_fts.
        this.#stmt('INSERT INTO executions (id, scope, intent, started_at, ended_at) VALUES (?, ?, ?, ?, ?)').run(
          head.id,
          scope,
          head.intent,
          startedAt,
          ended,
        );
      } else {
        this.#stmt('UPDATE executions SET ended_at = ? WHERE scope = ? AND id = ?').run(ended, scope, head.id);
      }
      this.#insertCalls(scope, head.id, added, before.length);
      const edges = new Map<string, EdgeRecord>();
      this.#foldEvents(scope, events, fold, this.#edgeCacheFor(scope), edges);
      const newTools = this.#countCalls(scope, callsPerTool(added), options.at);
      this.#writeEdges(scope, edges.values());
      if (options.workflows !== undefined) {
        const intent = row === undefined ? head.intent : String(row.intent);
        this.#mergeWorkflows(scope, options.workflows(before, after, { intent, startedAt }));
      }
      return {
        newTools,
        edges,
        execution: { id: head.id, created: row === undefined, firstIndex: before.length, calls: after.length },
        version: this.#dataVersionNow(),
        before,
        after,
      };
    });
    this.#cacheCommitted(scope, report.edges, report.version);
    this.#calls.committed(scope, head.id, report.before, report.after);
    return { newTools: report.newTools, edges: [...report.edges.values()], execution: report.execution };
  }

  /** Runs an append's write transaction; when it fails, the execution's kept calls are forgotten. */
  #appending<T>(scope: string, id: string, fn: () => T): T {
    try {
      return this.#write(fn);
    } catch (error) {
      this.#calls.failed(scope, id);
      throw error;
    }
  }

  /**
   * The calls already stored for an execution, inside the append's transaction: the kept list when its
   * last call is still the stored last one (store/calls-cache), else every row.
   */
  #callsBefore(scope: string, id: string): readonly CallRecord[] {
    const lastRow = this.#stmt(
      'SELECT * FROM calls WHERE scope = ? AND execution_id = ? ORDER BY idx DESC LIMIT 1',
    ).get(scope, id) as Row | undefined;
    const kept = this.#calls.get(
      scope,
      id,
      lastRow === undefined ? 0 : Number(lastRow.idx) + 1,
      lastRow === undefined ? undefined : toCall(lastRow),
    );
    if (kept !== undefined) return kept;
    return (
      this.#stmt('SELECT * FROM calls WHERE scope = ? AND execution_id = ? ORDER BY idx').all(scope, id) as Row[]
    ).map(toCall);
  }

  async getExecution(scope: string, id: string): Promise<ExecutionRecord | undefined> {
    const row = this.#stmt('SELECT * FROM executions WHERE scope = ? AND id = ?').get(scope, id) as Row | undefined;
    return row === undefined ? undefined : this.#toExecution(row);
  }

  async listExecutions(scope: string, options: { limit?: number; idPrefix?: string } = {}): Promise<ExecutionRecord[]> {
    const prefix = options.idPrefix;
    if (prefix === undefined || prefix === '') return this.#listExecutionsNow(scope, options.limit);
    // The ids from the prefix up to (not with) the prefix whose last character is the next one: a range of the
    // (scope, id) index, compared byte by byte as SQLite's default collation does.
    const next = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
    const rows = this.#stmt(
      'SELECT * FROM executions WHERE scope = ? AND id >= ? AND id < ? ORDER BY started_at DESC, rowid DESC LIMIT ?',
    ).all(scope, prefix, next, options.limit ?? -1) as Row[];
    return rows.map((row) => this.#toExecution(row));
  }

  #listExecutionsNow(scope: string, limit: number | undefined): ExecutionRecord[] {
    const rows = this.#stmt(
      'SELECT * FROM executions WHERE scope = ? ORDER BY started_at DESC, rowid DESC LIMIT ?',
    ).all(scope, limit ?? -1) as Row[];
    if (limit !== undefined && limit >= 0) return rows.map((row) => this.#toExecution(row));
    // Every execution of the scope: read all its calls in one query rather than one per execution.
    const calls = callsByExecution(
      this.#stmt('SELECT * FROM calls WHERE scope = ? ORDER BY execution_id, idx').all(scope) as Row[],
    );
    return rows.map((row) => this.#toExecution(row, calls.get(String(row.id)) ?? []));
  }

  #toExecution(row: Row, known?: CallRecord[]): ExecutionRecord {
    return toExecution(
      row,
      known ??
        (
          this.#stmt('SELECT * FROM calls WHERE scope = ? AND execution_id = ? ORDER BY idx').all(
            row.scope,
            row.id,
          ) as Row[]
        ).map(toCall),
    );
  }

  // ---- learned workflows ---------------------------------------------------------------------

  /** Folds merges into the scope's workflows (shared.mergeWorkflow). Call inside a write transaction. */
  #mergeWorkflows(scope: string, merges: readonly WorkflowMerge[]): void {
    if (merges.length === 0) return;
    // The named workflows read ROWS_PER_STATEMENT ids a statement, written back in multi-row statements.
    const ids = [...new Set(merges.map((m) => m.id))];
    const current = new Map<string, WorkflowRecord>();
    const full = Math.floor(ids.length / ROWS_PER_STATEMENT) * ROWS_PER_STATEMENT;
    const readMany = (n: number) =>
      this.#stmt(`SELECT * FROM workflows WHERE scope = ? AND id IN (${new Array(n).fill('?').join(', ')})`);
    for (let k = 0; k < ids.length; k += ROWS_PER_STATEMENT) {
      const chunk = ids.slice(k, k + ROWS_PER_STATEMENT);
      const read = k < full ? readMany(ROWS_PER_STATEMENT) : readMany(1);
      const rows = k < full ? [read.all(scope, ...chunk)] : chunk.map((id) => read.all(scope, id));
      for (const row of rows.flat() as Row[]) current.set(String(row.id), toWorkflow(row));
    }
    const remove = this.#stmt('DELETE FROM workflows WHERE scope = ? AND id = ?');
    const values: unknown[] = [];
    for (const [id, w] of foldWorkflows(current, merges)) {
      if (w === undefined) remove.run(scope, id);
      else {
        values.push(scope, w.id, w.key, json(w.tools), json(w.edges), json(w.intents), json(w.intentsAt));
        values.push(w.runs, w.successes, w.firstSeen, w.lastSeen);
      }
    }
    this.#insertRows(
      'INSERT OR REPLACE INTO workflows (scope, id, key, tools, edges, intents, intents_at, runs, successes, ' +
        'first_seen, last_seen)',
      11,
      values,
    );
  }

  async mergeWorkflows(
    scope: string,
    merges: readonly WorkflowMerge[],
    options: { replace?: boolean } = {},
  ): Promise<void> {
    const scrubbed = merges.map((m) => this.#policy.scrub(m));
    this.#write(() => {
      if (options.replace === true) this.#stmt('DELETE FROM workflows WHERE scope = ?').run(scope);
      this.#mergeWorkflows(scope, scrubbed);
    });
  }

  async rebuildWorkflows(scope: string, workflow: WorkflowOf, options: { ifPending?: boolean } = {}): Promise<boolean> {
    const built = (): boolean => this.#stmt('SELECT 1 FROM workflow_builds WHERE scope = ?').get(scope) !== undefined;
    // Read first: a built scope (the usual case) takes no write lock.
    if (options.ifPending === true && built()) return false;
    return this.#write(() => {
      if (options.ifPending === true && built()) return false;
      this.#stmt('DELETE FROM workflows WHERE scope = ?').run(scope);
      this.#stmt('INSERT OR REPLACE INTO workflow_builds (scope, schema_version) VALUES (?, ?)').run(
        scope,
        LATEST_SCHEMA_VERSION,
      );
      const executions = this.#listExecutionsNow(scope, -1);
      this.#mergeWorkflows(
        scope,
        workflowsOf(
          executions.reverse().map((execution) => ({ execution })),
          workflow,
        ),
      );
      return true;
    });
  }

  async listWorkflows(scope: string, options: { limit?: number } = {}): Promise<WorkflowRecord[]> {
    return (
      this.#stmt('SELECT * FROM workflows WHERE scope = ? ORDER BY last_seen DESC, id LIMIT ?').all(
        scope,
        options.limit ?? -1,
      ) as Row[]
    ).map(toWorkflow);
  }

  async deleteWorkflows(scope: string): Promise<number> {
    return this.#write(() => this.#stmt('DELETE FROM workflows WHERE scope = ?').run(scope).changes);
  }

  async clearWorkflowBuilds(): Promise<void> {
    this.#write(() => this.#stmt('DELETE FROM workflow_builds').run());
  }

  async deriveRestoredMarks(dumpSchema: number): Promise<void> {
    this.#write(() => {
      if (dumpSchema < 26) this.#db.prepare(LAYERED_RUNS_LEARNED_DEPENDENCIES).run();
      if (dumpSchema < 27) this.#db.prepare(TEMPLATES_DECLARED).run();
    });
  }

  // ---- observations --------------------------------------------------------------------------

  async insertObservations(scope: string, observations: readonly ObservationRecord[]): Promise<InsertReport> {
    const insert = this.#stmt(
      `
      INSERT INTO observations (id, scope, timestamp, type, context, observation, evidence, confidence, ` +
        `tags, content_hash)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT DO NOTHING`,
    );
    return this.#write(() => {
      let inserted = 0;
      for (const raw of observations) {
        const o = this.#policy.scrub(raw);
        const info = insert.run(
          o.id,
          scope,
          o.timestamp,
          o.type,
          json(o.context),
          o.observation,
          json(o.evidence),
          o.confidence,
          json(o.tags),
          observationFingerprint(o),
        );
        inserted += info.changes;
      }
      return { inserted, duplicates: observations.length - inserted };
    });
  }

  async listObservations(
    scope: string,
    options: { since?: number; limit?: number } = {},
  ): Promise<ObservationRecord[]> {
    const rows = this.#stmt(
      'SELECT * FROM observations WHERE scope = ? AND timestamp >= ? ORDER BY timestamp, id LIMIT ?',
    ).all(scope, options.since ?? Number.MIN_SAFE_INTEGER, options.limit ?? -1) as Row[];
    return rows.map(toObservation);
  }

  // ---- memories ------------------------------------------------------------------------------

  async upsertMemories(
    scope: string,
    memories: readonly MemoryRecord[],
  ): Promise<{ inserted: number; updated: number }> {
    const exists = this.#stmt('SELECT 1 FROM memories WHERE scope = ? AND id = ?');
    const upsert = this.#stmt(`
      INSERT INTO memories (id, scope, category, title, text, tags, path, confidence, intent, created_at, updated_at,
        life)
      VALUES (@id, @scope, @category, @title, @text, @tags, @path, @confidence, @intent, @createdAt, @updatedAt,
        @life)
      ON CONFLICT (scope, id) DO UPDATE SET
        category = excluded.category, title = excluded.title, text = excluded.text, tags = excluded.tags,
        path = excluded.path, confidence = excluded.confidence, intent = excluded.intent,
        updated_at = excluded.updated_at, life = excluded.life`);
    return this.#write(() => {
      let inserted = 0;
      let updated = 0;
      for (const raw of memories) {
        const m = this.#policy.scrub(raw);
        if (exists.get(scope, m.id) === undefined) inserted += 1;
        else updated += 1;
        upsert.run({
          id: m.id,
          scope,
          category: m.category,
          title: m.title,
          text: m.text,
          tags: m.tags.join('\n'),
          path: m.path ?? null,
          confidence: m.confidence ?? null,
          intent: m.intent ?? null,
          createdAt: m.createdAt,
          updatedAt: m.updatedAt,
          life: m.life === undefined ? null : JSON.stringify(m.life),
        });
      }
      return { inserted, updated };
    });
  }

  async getMemory(scope: string, id: string): Promise<MemoryRecord | undefined> {
    const row = this.#stmt('SELECT * FROM memories WHERE scope = ? AND id = ?').get(scope, id) as Row | undefined;
    return row === undefined ? undefined : toMemory(row);
  }

  async listMemories(scope: string): Promise<MemoryRecord[]> {
    return (this.#stmt('SELECT * FROM memories WHERE scope = ? ORDER BY rowid').all(scope) as Row[]).map(toMemory);
  }

  async searchMemories(scope: string, match: string, options: { limit?: number } = {}): Promise<MemoryHit[]> {
    const rows = this.#ftsTop('memories_fts', 'memories', scope, match, options.limit ?? 20, 'm.*');
    return rows.map((row) => ({ memory: toMemory(row), bm25: Number(row.bm25) }));
  }

  /**
   * The best `limit` full-text hits of a scope. FTS5 ranks its own top hits first (4 × limit), then
   * joins them to their rows: reading every matching row before sorting made recall several times
   * slower than the raw FTS5 query on a large store (docs/benchmarks.md). When fewer than `limit` of
   * those hits belong to the scope, the full join answers instead, so the result is the same.
   */
  #ftsTop(fts: string, table: string, scope: string, match: string, limit: number, columns: string): Row[] {
    const fast = this.#stmt(`
      SELECT ${columns}, h.bm25 AS bm25 FROM (
        SELECT rowid, bm25(${fts}) AS bm25 FROM ${fts} WHERE ${fts} MATCH ? ORDER BY bm25 LIMIT ?
      ) h CROSS JOIN ${table} m ON m.rowid = h.rowid
      WHERE m.scope = ? ORDER BY h.bm25 LIMIT ?`).all(match, limit * 4, scope, limit) as Row[];
    if (fast.length >= limit) return fast;
    return this.#stmt(`
      SELECT ${columns}, bm25(${fts}) AS bm25 FROM ${fts}
      JOIN ${table} m ON m.rowid = ${fts}.rowid
      WHERE ${fts} MATCH ? AND m.scope = ?
      ORDER BY bm25 LIMIT ?`).all(match, scope, limit) as Row[];
  }

  // ---- instincts, skills, feedback -----------------------------------------------------------

  async upsertInstinct(scope: string, raw: InstinctRecord): Promise<boolean> {
    const i = this.#policy.scrub(raw);
    return this.#write(() => {
      if (!this.#learnable(scope, 'instinct', i.id, i.slug, i)) return false;
      this.#stmt(
        `
      INSERT INTO instincts (id, scope, slug, text, confidence, status, evidence, created_at, updated_at)
      VALUES (@id, @scope, @slug, @text, @confidence, @status, @evidence, @createdAt, @updatedAt)
      ON CONFLICT (scope, id) DO UPDATE SET slug = excluded.slug, text = excluded.text, ` +
          `confidence = excluded.confidence,
        status = excluded.status, evidence = excluded.evidence, updated_at = excluded.updated_at`,
      ).run({
        ...i,
        scope,
        evidence: json(i.evidence),
      });
      return true;
    });
  }

  /**
   * Whether an instinct or skill may be written, in the write's transaction (walk 13: a teammate's evolve that read
   * before a forget brought the item back). With no tombstone of its id or file name, yes. With one, only when it is
   * learned again from new evidence: learned after the forget (`updatedAt` past the tombstone's time) from
   * observations that all still exist; the tombstone then goes. Else nothing is written and the tombstone stays.
   */
  #learnable(
    scope: string,
    kind: 'instinct' | 'skill',
    id: string,
    name: string,
    item: { evidence: readonly string[]; updatedAt: number },
  ): boolean {
    const where = 'WHERE scope = ? AND (id = ? OR (kind = ? AND name = ?))';
    const stones = this.#stmt(`SELECT at FROM forgotten ${where}`).all(scope, id, kind, name) as Row[];
    if (stones.length === 0) return true;
    const wanted = [...new Set(item.evidence)];
    if (wanted.length === 0 || stones.some((r) => Number(r.at) >= item.updatedAt)) return false;
    const found = this.#stmt(
      'SELECT count(*) AS n FROM observations WHERE scope = ? AND id IN (SELECT value FROM json_each(?))',
    ).get(scope, json(wanted)) as Row;
    if (Number(found.n) !== wanted.length) return false;
    this.#stmt(`DELETE FROM forgotten ${where}`).run(scope, id, kind, name);
    return true;
  }

  async recordForgotten(scope: string, records: readonly ForgottenRecord[]): Promise<void> {
    if (records.length === 0) return;
    this.#write(() => {
      const insert = this.#stmt(`
        INSERT INTO forgotten (scope, id, kind, name, at) VALUES (?, ?, ?, ?, ?)
        ON CONFLICT (scope, id) DO UPDATE SET kind = excluded.kind, name = excluded.name, at = excluded.at`);
      for (const raw of records) {
        const f = this.#policy.scrub(raw);
        insert.run(scope, f.id, f.kind, f.name, f.at);
      }
    });
  }

  async listForgotten(
    scope: string,
    options: { kind?: 'instinct' | 'skill'; names?: readonly string[] } = {},
  ): Promise<ForgottenRecord[]> {
    if (options.names?.length === 0) return [];
    const kind = options.kind === undefined ? '' : 'AND f.kind = @kind';
    const names = options.names === undefined ? '' : 'AND f.name IN (SELECT value FROM json_each(@names))';
    const rows = this.#stmt(`
      SELECT f.id, f.kind, f.name, f.at FROM forgotten f WHERE f.scope = @scope ${kind} ${names}
        AND f.kind IN ('instinct', 'skill')
        AND NOT (f.kind = 'skill' AND EXISTS (SELECT 1 FROM skills s WHERE s.scope = @scope AND s.name = f.name))
        AND NOT (f.kind = 'instinct' AND EXISTS (SELECT 1 FROM instincts i WHERE i.scope = @scope AND i.slug = f.name))
      ORDER BY f.kind, f.name, f.id`).all({
      scope,
      ...(options.kind === undefined ? {} : { kind: options.kind }),
      ...(options.names === undefined ? {} : { names: JSON.stringify(options.names) }),
    }) as Row[];
    return rows.map((r) => ({
      id: String(r.id),
      kind: r.kind === 'instinct' ? 'instinct' : 'skill',
      name: String(r.name),
      at: Number(r.at),
    }));
  }

  async listInstincts(scope: string): Promise<InstinctRecord[]> {
    return (
      this.#stmt('SELECT * FROM instincts WHERE scope = ? ORDER BY confidence DESC, slug').all(scope) as Row[]
    ).map(toInstinct);
  }

  async upsertSkill(scope: string, raw: SkillRecord): Promise<boolean> {
    const s = this.#policy.scrub(raw);
    return this.#write(() => {
      if (!this.#learnable(scope, 'skill', s.id, s.name, s)) return false;
      this.#stmt(
        `
      INSERT INTO skills (id, scope, name, description, rules, confidence, evidence, created_at, updated_at)
      VALUES (@id, @scope, @name, @description, @rules, @confidence, @evidence, @createdAt, @updatedAt)
      ON CONFLICT (scope, id) DO UPDATE SET name = excluded.name, description = excluded.description, ` +
          `rules = excluded.rules,
        confidence = excluded.confidence, evidence = excluded.evidence, updated_at = excluded.updated_at`,
      ).run({
        ...s,
        scope,
        rules: json(s.rules),
        evidence: json(s.evidence),
      });
      return true;
    });
  }

  async listSkills(scope: string): Promise<SkillRecord[]> {
    return (this.#stmt('SELECT * FROM skills WHERE scope = ? ORDER BY confidence DESC, name').all(scope) as Row[]).map(
      toSkill,
    );
  }

  async insertFeedback(scope: string, raw: FeedbackRecord): Promise<InsertReport> {
    const f = this.#policy.scrub(raw);
    const info = this.#stmt(`
      INSERT INTO feedback (id, scope, target_id, kind, note, at)
      VALUES (@id, @scope, @targetId, @kind, @note, @at) ON CONFLICT DO NOTHING`).run({
      ...f,
      scope,
      note: f.note ?? null,
    });
    return { inserted: info.changes, duplicates: 1 - info.changes };
  }

  async recordShown(scope: string, shown: readonly ShownRecord[], wait?: WriteWait): Promise<void> {
    const insert = this.#stmt(`
      INSERT INTO shown (scope, id, surface, target, query, at, confidence, outcome, outcome_at, verdict, verdict_at,
        session)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (scope, id) DO NOTHING`);
    const sessions = [...new Set(shown.flatMap((s) => (s.session === undefined ? [] : [s.session])))];
    this.#write(() => {
      // A forgotten session's prompts are not stored, checked in this transaction (a forget's comes before or after).
      const forgotten = new Set(sessions.length === 0 ? [] : this.#forgottenSessionsNow(scope, sessions));
      for (const raw of shown) {
        if (raw.session !== undefined && forgotten.has(raw.session)) continue;
        const s = this.#policy.scrub(raw);
        const outcome = s.outcome === undefined ? [null, null] : [s.outcome, s.outcomeAt ?? s.at];
        // An accepted or rejected outcome is the verdict too, as setOutcome makes it.
        const verdict = s.outcome === 'accepted' || s.outcome === 'rejected' ? outcome : [null, null];
        insert.run(
          scope,
          s.id,
          s.surface,
          s.target,
          s.query ?? null,
          s.at,
          s.confidence ?? null,
          ...outcome,
          ...verdict,
          raw.session ?? null,
        );
      }
    }, wait);
  }

  async forgetShownQueries(
    scope: string,
    sessions: readonly string[],
    prompts: readonly TurnPromptSpan[],
  ): Promise<number> {
    const wanted = prompts.filter((p) => p.intent !== '');
    return this.#write(() => {
      let cleared = 0;
      if (sessions.length > 0)
        cleared += this.#stmt(
          'UPDATE shown SET query = NULL WHERE scope = ? AND query IS NOT NULL ' +
            'AND session IN (SELECT value FROM json_each(?))',
        ).run(scope, json([...sessions])).changes;
      if (wanted.length === 0) return cleared;
      // Rows recorded before they held their session: a turn's intent, shown within the time of that turn's prompt.
      const clear = this.#stmt('UPDATE shown SET query = NULL WHERE scope = ? AND id = ?');
      const rows = this.#stmt(
        "SELECT id, query, at FROM shown WHERE scope = ? AND surface = 'recall' AND session IS NULL " +
          'AND query IS NOT NULL AND at BETWEEN ? AND ?',
      ).all(scope, Math.min(...wanted.map((p) => p.from)), Math.max(...wanted.map((p) => p.to))) as Row[];
      for (const r of rows)
        if (promptOfTurn(wanted, String(r.query), Number(r.at))) cleared += clear.run(scope, r.id).changes;
      return cleared;
    });
  }

  async getShown(scope: string, id: string): Promise<ShownRecord | undefined> {
    const r = this.#stmt('SELECT * FROM shown WHERE scope = ? AND id = ?').get(scope, id) as Row | undefined;
    return r === undefined ? undefined : toShown(r);
  }

  async setVerdict(scope: string, id: string, verdict: 'accepted' | 'rejected', at: number): Promise<boolean> {
    return (
      this.#stmt(
        'UPDATE shown SET verdict = @verdict, verdict_at = @at, outcome = @verdict, outcome_at = @at ' +
          'WHERE scope = @scope AND id = @id',
      ).run({ verdict, at, scope, id }).changes > 0
    );
  }

  async setOutcome(
    scope: string,
    id: string,
    outcome: Outcome,
    at: number,
    options: SetOutcomeOptions = {},
  ): Promise<boolean> {
    // Accepted and rejected are verdicts too (the metrics' precision reads those), when none was given: the first
    // verdict counts (tool search reads it back). An inferred outcome leaves a result with a verdict as it is.
    return (
      this.#stmt(`
        UPDATE shown SET
          outcome = CASE WHEN @inferred = 1 AND verdict IS NOT NULL THEN outcome ELSE @outcome END,
          outcome_at = CASE WHEN @inferred = 1 AND verdict IS NOT NULL THEN outcome_at ELSE @at END,
          verdict = CASE WHEN verdict IS NULL AND @outcome IN ('accepted', 'rejected') THEN @outcome ELSE verdict END,
          verdict_at = CASE WHEN verdict IS NULL AND @outcome IN ('accepted', 'rejected') THEN @at ELSE verdict_at END
        WHERE scope = @scope AND id = @id`).run({ outcome, at, scope, id, inferred: options.inferred === true ? 1 : 0 })
        .changes > 0
    );
  }

  async listOutcomes(scope: string, options: OutcomeQuery = {}): Promise<OutcomeRecord[]> {
    // With a kind, its own newest rows read from the index alone (shown_outcome_kinds); without, all by outcome_at.
    // Read newest first as arrays and turned around here ((outcome_at, id) is unique): no second sort, no row object.
    const rows = this.#stmt(`
        SELECT id, surface, target, confidence, outcome, at, outcome_at
        FROM shown ${options.kind === undefined ? '' : 'INDEXED BY shown_outcome_kinds'}
        WHERE scope = @scope AND outcome IS NOT NULL AND confidence IS NOT NULL
          AND ${options.kind === undefined ? '@kind IS NULL' : 'surface = @kind'}
          AND (@since IS NULL OR outcome_at >= @since)
          AND (@until IS NULL OR (outcome_at <= @until AND at <= @until))
        ORDER BY outcome_at DESC, id DESC LIMIT @limit`)
      .raw()
      .all({
        scope,
        kind: options.kind ?? null,
        since: options.since ?? null,
        until: options.until ?? null,
        limit: options.limit ?? -1,
      }) as unknown[][];
    const out: OutcomeRecord[] = new Array(rows.length);
    for (let i = 0; i < rows.length; i += 1) out[i] = toOutcomeOfColumns(rows[rows.length - 1 - i] as unknown[]);
    return out;
  }

  async outcomeBins(scope: string, options: { at: EpochMs; bins: number }): Promise<OutcomeBin[]> {
    // Each kind, bin and outcome summed over one range of shown_outcome_sums (scope, kind, outcome, confidence), in
    // the index's order: a GROUP BY on the bin, an expression, sorted every outcome first (16 -> 7 ms at 60,000).
    // The schema's checks bound the kinds and outcomes to these lists and the confidence to [0, 1].
    const edges = binEdges(options.bins);
    const sum = this.#stmt(`
      SELECT count(*), sum(confidence), sum(confidence * confidence)
      FROM shown INDEXED BY shown_outcome_sums
      WHERE scope = ? AND surface = ? AND outcome = ? AND outcome IS NOT NULL
        AND confidence IS NOT NULL AND confidence >= ? AND confidence < ? AND outcome_at <= ? AND at <= ?`).raw();
    const out: OutcomeBin[] = [];
    for (const kind of SORTED_KINDS) {
      for (let bin = 0; bin < options.bins; bin += 1) {
        for (const outcome of SORTED_OUTCOMES) {
          const r = sum.get(scope, kind, outcome, edges[bin], edges[bin + 1], options.at, options.at) as unknown[];
          if (Number(r[0]) === 0) continue;
          out.push(toOutcomeBin({ surface: kind, bin, outcome, n: r[0], sum_confidence: r[1], sum_squares: r[2] }));
        }
      }
    }
    return out;
  }

  async shownCounts(scope: string): Promise<{ surface: Surface; shown: number; accepted: number; rejected: number }[]> {
    const rows = this.#stmt(`
      SELECT surface, count(*) AS shown, sum(verdict = 'accepted') AS accepted, sum(verdict = 'rejected') AS rejected
      FROM shown WHERE scope = ? AND surface IN ('search', 'next', 'dag', 'recall')
      GROUP BY surface ORDER BY surface`).all(scope) as Row[];
    return rows.map((r) => ({
      surface: r.surface as Surface,
      shown: Number(r.shown),
      accepted: Number(r.accepted ?? 0),
      rejected: Number(r.rejected ?? 0),
    }));
  }

  // ---- aggregates (the dashboard) ------------------------------------------------------------

  async activityByDay(scope: string, window: { now: EpochMs; days: number }): Promise<DailyActivity> {
    const { now, after, today } = activityWindow(window);
    // A UTC calendar day: today's day number less the row's (floor, as instants may be before 1970).
    const runs = this.#stmt(`
      SELECT @today - CAST(floor(e.started_at / 86400000.0) AS INTEGER) AS back, count(*) AS executions,
        sum((SELECT count(*) FROM calls c WHERE c.scope = e.scope AND c.execution_id = e.id)) AS calls
      FROM executions e WHERE e.scope = @scope AND e.started_at <= @now AND e.started_at > @after
      GROUP BY back`).all({ scope, now, after, today }) as DayRow[];
    const observed = this.#stmt(`
      SELECT @today - CAST(floor(timestamp / 86400000.0) AS INTEGER) AS back, count(*) AS observations
      FROM observations WHERE scope = @scope AND timestamp <= @now AND timestamp > @after
      GROUP BY back`).all({ scope, now, after, today }) as DayRow[];
    return dailyActivityOf(window.days, [...runs, ...observed]);
  }

  async observationTypeCounts(scope: string): Promise<Partial<Record<ObservationRecord['type'], number>>> {
    const rows = this.#stmt('SELECT type, count(*) AS n FROM observations WHERE scope = ? GROUP BY type').all(
      scope,
    ) as Row[];
    return Object.fromEntries(rows.map((r) => [String(r.type), Number(r.n)]));
  }

  async deleteObservation(scope: string, id: string): Promise<boolean> {
    return this.#write(() => {
      const changed = this.#stmt('DELETE FROM observations WHERE scope = ? AND id = ?').run(scope, id).changes > 0;
      this.#stmt(`DELETE FROM embeddings WHERE scope = ? AND kind = 'observation' AND ref_id = ?`).run(scope, id);
      return changed;
    });
  }

  async deleteObservations(
    scope: string,
    ids: readonly string[],
    options: { secureDelete?: boolean } = {},
  ): Promise<number> {
    if (ids.length === 0) return 0;
    const plain = options.secureDelete === false;
    // One statement for the whole set, not one a row: SQLite opens a statement journal for each statement that
    // fires triggers, and FTS5 writes out its pending changes at each one (issue 20: 9,877 observations deleted
    // in ~73 ms instead of ~293 ms). The triggers still run for each row (full text, revision, change log).
    const list = json([...new Set(ids)]);
    return this.#write(() => {
      // A prune's bulk delete skips secure delete (9-24 times slower): both switches are set back in the same
      // transaction (the FTS5 option is a row of its config table, rolled back with it), so a forget always zeroes.
      if (plain) this.#secureDelete(false);
      try {
        const deleted = this.#stmt(
          'DELETE FROM observations WHERE scope = ? AND id IN (SELECT value FROM json_each(?))',
        ).run(scope, list).changes;
        this.#stmt(
          `DELETE FROM embeddings WHERE scope = ? AND kind = 'observation' ` +
            'AND ref_id IN (SELECT value FROM json_each(?))',
        ).run(scope, list);
        return deleted;
      } finally {
        if (plain) this.#secureDelete(true);
      }
    });
  }

  /** Secure delete on or off: the connection's pragma and the observations' full-text index's option. */
  #secureDelete(on: boolean): void {
    this.#db.pragma(`secure_delete = ${on ? 'ON' : 'OFF'}`);
    this.#db.exec(`INSERT INTO observations_fts (observations_fts, rank) VALUES ('secure-delete', ${on ? 1 : 0})`);
  }

  async deleteExecutions(
    scope: string,
    ids: readonly string[],
    options: { workflow?: WorkflowOf; unlearn?: EdgeUnlearn } = {},
  ): Promise<string[]> {
    if (ids.length === 0) return [];
    const list = json([...new Set(ids)]);
    const deletedIds = this.#write(() => {
      const rows = this.#stmt(
        'SELECT * FROM executions WHERE scope = ? AND id IN (SELECT value FROM json_each(?)) ' +
          'ORDER BY started_at, rowid',
      ).all(scope, list) as Row[];
      const deleted = rows.map((row) => this.#toExecution(row));
      const intents = new Set(deleted.map((e) => e.intent));
      // The calls go by the foreign key's cascade; the full text by the executions' trigger.
      this.#stmt('DELETE FROM executions WHERE scope = ? AND id IN (SELECT value FROM json_each(?))').run(scope, list);
      this.#stmt(
        `DELETE FROM embeddings WHERE scope = ? AND kind = 'execution' AND ref_id IN (SELECT value FROM json_each(?))`,
      ).run(scope, list);
      // Their calls come off their tools' call counts (`credence status`, the graph's central tools).
      const uncount = this.#stmt('UPDATE tools SET calls = max(0, calls - ?) WHERE scope = ? AND id = ?');
      for (const [tool, n] of callsPerTool(deleted.flatMap((e) => e.calls))) uncount.run(n, scope, tool);
      // An intent another run still has stays (runs are not linked to workflows: any run of the scope counts).
      const kept = this.#stmt('SELECT 1 FROM executions WHERE scope = ? AND intent = ? LIMIT 1');
      for (const i of intents) if (kept.get(scope, i) !== undefined) intents.delete(i);
      const update = this.#stmt('UPDATE workflows SET intents = ? WHERE scope = ? AND id = ?');
      for (const w of this.#stmt('SELECT id, intents FROM workflows WHERE scope = ?').all(scope) as Row[]) {
        const before = parse<string[]>(w.intents, []);
        const after = before.filter((i) => !intents.has(i));
        if (after.length !== before.length) update.run(json(after), scope, w.id);
      }
      // What the runs taught is taken back, from the runs left (read once, and only when needed).
      let left: ExecutionRecord[] | undefined;
      const remaining = (): ExecutionRecord[] => (left ??= this.#listExecutionsNow(scope, -1));
      if (options.workflow !== undefined) {
        const rebuilt = workflowsAfterDelete(deleted, remaining, options.workflow);
        const drop = this.#stmt('DELETE FROM workflows WHERE scope = ? AND id = ?');
        for (const id of rebuilt.ids) drop.run(scope, id);
        this.#mergeWorkflows(scope, rebuilt.merges);
      }
      if (options.unlearn !== undefined) this.#unlearnEdges(scope, deleted, remaining, options.unlearn);
      return deleted.map((e) => e.id).sort();
    });
    // Edges and calls were written behind the caches' backs: they read them again from the tables.
    this.#edgeCache.clear();
    this.#edgeCacheSize = 0;
    this.#calls.clear();
    return deletedIds;
  }

  /** Takes deleted executions' edge events back out of their edges (store/types EdgeUnlearn). In a transaction. */
  #unlearnEdges(
    scope: string,
    deleted: readonly ExecutionRecord[],
    remaining: () => readonly ExecutionRecord[],
    unlearn: EdgeUnlearn,
  ): void {
    const forgotten = unlearnedEdges(deleted, unlearn);
    if (forgotten.size === 0) return;
    let left: Map<string, ExecutionEdgeEvent[]> | undefined;
    const eventsOf = (key: string): ExecutionEdgeEvent[] =>
      (left ??= eventsLeft(remaining(), new Set(forgotten.keys()), unlearn)).get(key) ?? [];
    const read = this.#stmt('SELECT * FROM edges WHERE scope = ? AND from_tool = ? AND to_tool = ? AND type = ?');
    const remove = this.#stmt('DELETE FROM edges WHERE scope = ? AND from_tool = ? AND to_tool = ? AND type = ?');
    const written: EdgeRecord[] = [];
    const ends = new Set<string>();
    for (const [key, events] of forgotten) {
      const { from, to, type } = events[0] as ExecutionEdgeEvent;
      const row = read.get(scope, from, to, type) as Row | undefined;
      if (row === undefined) continue;
      const next = unlearn.unfold(toEdge(row), events, () => eventsOf(key));
      if (next === undefined) remove.run(scope, from, to, type);
      else written.push(next);
      ends.add(from).add(to);
    }
    this.#writeEdges(scope, written);
    // The edges' ends are logged as tool changes, as putEdge logs them: a graph snapshot reads them again.
    const log = this.#stmt(`
      INSERT INTO changes (scope, kind, id, seq, deleted)
      VALUES (?, 'tool', ?, (SELECT revision FROM revisions WHERE scope = ?), 0)
      ON CONFLICT (scope, kind, id) DO UPDATE SET seq = excluded.seq`);
    for (const tool of ends) log.run(scope, tool, scope);
  }

  async deleteInstinct(scope: string, id: string): Promise<boolean> {
    return this.#stmt('DELETE FROM instincts WHERE scope = ? AND id = ?').run(scope, id).changes > 0;
  }

  async deleteMemory(scope: string, id: string): Promise<boolean> {
    return this.#write(() => {
      const changed = this.#stmt('DELETE FROM memories WHERE scope = ? AND id = ?').run(scope, id).changes > 0;
      this.#stmt(`DELETE FROM embeddings WHERE scope = ? AND kind = 'memory' AND ref_id = ?`).run(scope, id);
      return changed;
    });
  }

  async deleteSkill(scope: string, id: string): Promise<boolean> {
    return this.#stmt('DELETE FROM skills WHERE scope = ? AND id = ?').run(scope, id).changes > 0;
  }

  async listFeedback(scope: string, targetId?: string): Promise<FeedbackRecord[]> {
    const rows = this.#stmt(
      'SELECT * FROM feedback WHERE scope = @scope AND (@target IS NULL OR target_id = @target) ORDER BY at, id',
    ).all({
      scope,
      target: targetId ?? null,
    }) as Row[];
    return rows.map(toFeedback);
  }

  async deleteFeedback(scope: string, targetId: string, ids?: readonly string[]): Promise<number> {
    return this.#stmt(
      'DELETE FROM feedback WHERE scope = @scope AND target_id = @target ' +
        'AND (@ids IS NULL OR id IN (SELECT value FROM json_each(@ids)))',
    ).run({
      scope,
      target: targetId,
      ids: ids === undefined ? null : JSON.stringify(ids),
    }).changes;
  }
  // ---- hook queue ----------------------------------------------------------------------------

  async enqueueHookEvents(
    scope: string,
    events: readonly (Omit<HookEvent, 'seq' | 'turn'> & { turn: number | 'current' | 'next' })[],
  ): Promise<number[]> {
    const insert = this.#stmt(
      'INSERT INTO hook_events (scope, session_id, turn, kind, at, payload, key) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    const seen = this.#stmt('SELECT turn FROM hook_events WHERE key = ?');
    const current = this.#stmt('SELECT turn FROM hook_sessions WHERE scope = ? AND session_id = ?');
    const next = this.#stmt(`
      INSERT INTO hook_sessions (scope, session_id, turn, updated_at) VALUES (?, ?, 1, ?)
      ON CONFLICT (scope, session_id) DO UPDATE SET turn = hook_sessions.turn + 1, updated_at = excluded.updated_at
      RETURNING turn`);
    return this.#write(() =>
      events.map((e) => {
        // Queued before (under the same key): not again, and no second turn for it.
        const before = e.key === undefined ? undefined : (seen.get(e.key) as Row | undefined);
        if (before !== undefined) return Number(before.turn);
        const turn =
          e.turn === 'next'
            ? Number((next.get(scope, e.session, e.at) as Row).turn)
            : e.turn === 'current'
              ? Number((current.get(scope, e.session) as Row | undefined)?.turn ?? 0)
              : e.turn;
        insert.run(
          scope,
          e.session,
          turn,
          e.kind,
          e.at,
          json(this.#policy.scrub({ payload: e.payload }).payload),
          e.key ?? null,
        );
        return turn;
      }),
    );
  }

  async claimHookEvents(scope: string, claimer: string, staleBefore: number, session?: string): Promise<HookEvent[]> {
    const claim = this.#stmt(
      `
      UPDATE hook_events SET claimed_by = @claimer, claimed_at = @now
      WHERE scope = @scope AND (@session IS NULL OR session_id = @session) AND done_at IS NULL
        AND (claimed_by IS NULL OR claimed_at < @stale)
        AND session_id NOT IN (
          SELECT session_id FROM hook_events
          WHERE scope = @scope AND done_at IS NULL AND claimed_by IS NOT NULL ` +
        `AND claimed_by <> @claimer AND claimed_at >= @stale)
      RETURNING seq, session_id, turn, kind, at, payload`,
    );
    const rows = this.#write(
      () => claim.all({ claimer, now: Date.now(), scope, session: session ?? null, stale: staleBefore }) as Row[],
    );
    return rows
      .map((r) => ({
        seq: Number(r.seq),
        session: String(r.session_id),
        turn: Number(r.turn),
        kind: String(r.kind),
        at: Number(r.at),
        payload: parse<unknown>(r.payload, null),
      }))
      .sort((a, b) => a.seq - b.seq);
  }

  async releaseHookEvents(scope: string, seqs: readonly number[]): Promise<void> {
    const release = this.#stmt(
      'UPDATE hook_events SET claimed_by = NULL, claimed_at = NULL WHERE scope = ? AND seq = ? AND done_at IS NULL',
    );
    this.#write(() => {
      for (const seq of seqs) release.run(scope, seq);
    });
  }

  async deleteHookEvents(scope: string, seqs: readonly number[]): Promise<void> {
    this.#write(() => this.#markHookEventsDone(scope, seqs));
  }

  async hasQueuedHookEvents(scope: string): Promise<boolean> {
    return this.#stmt('SELECT 1 FROM hook_events WHERE scope = ? AND done_at IS NULL LIMIT 1').get(scope) !== undefined;
  }

  /** Learned: out of the queue, payload dropped, key kept `hookKeyRetentionMs` (a week; then the row goes). */
  #markHookEventsDone(scope: string, seqs: readonly number[]): void {
    if (seqs.length === 0) return;
    const now = Date.now();
    const done = this.#stmt(
      `UPDATE hook_events SET done_at = ?, payload = 'null', claimed_by = NULL, claimed_at = NULL ` +
        `WHERE scope = ? AND seq = ?`,
    );
    for (const seq of seqs) done.run(now, scope, seq);
    this.#stmt('DELETE FROM hook_events WHERE done_at < ?').run(now - this.#policy.hookKeyRetentionMs);
  }

  async hookSession(scope: string, session: string): Promise<{ turn: number; state: Record<string, unknown> }> {
    const row = this.#stmt('SELECT turn, state FROM hook_sessions WHERE scope = ? AND session_id = ?').get(
      scope,
      session,
    ) as Row | undefined;
    return row === undefined
      ? { turn: 0, state: {} }
      : { turn: Number(row.turn), state: parse<Record<string, unknown>>(row.state, {}) };
  }

  async startHookTurn(scope: string, session: string, at: number): Promise<number> {
    const row = this.#write(
      () =>
        this.#stmt(`
          INSERT INTO hook_sessions (scope, session_id, turn, updated_at) VALUES (?, ?, 1, ?)
          ON CONFLICT (scope, session_id) DO UPDATE SET turn = hook_sessions.turn + 1, updated_at = excluded.updated_at
          RETURNING turn`).get(scope, session, at) as Row,
    );
    return Number(row.turn);
  }

  async setHookSessionState(scope: string, session: string, state: Record<string, unknown>, at: number): Promise<void> {
    this.#write(() =>
      this.#stmt(`
        INSERT INTO hook_sessions (scope, session_id, turn, state, updated_at) VALUES (?, ?, 0, ?, ?)
        ON CONFLICT (scope, session_id) DO UPDATE SET state = excluded.state, updated_at = excluded.updated_at`).run(
        scope,
        session,
        json(state),
        at,
      ),
    );
  }

  async forgetHookSession(scope: string, session: string): Promise<boolean> {
    return this.#write(() => {
      const state = this.#stmt('DELETE FROM hook_sessions WHERE scope = ? AND session_id = ?').run(scope, session);
      const events = this.#stmt(
        "UPDATE hook_events SET done_at = coalesce(done_at, ?), payload = 'null', claimed_by = NULL, " +
          'claimed_at = NULL WHERE scope = ? AND session_id = ?',
      ).run(Date.now(), scope, session);
      return state.changes + events.changes > 0;
    });
  }

  async recordForgottenSession(scope: string, session: string, at: number): Promise<void> {
    this.#write(() =>
      this.#stmt(`
        INSERT INTO forgotten (scope, id, kind, name, at) VALUES (?, ?, 'session', ?, ?)
        ON CONFLICT (scope, id) DO UPDATE SET kind = excluded.kind, name = excluded.name, at = excluded.at`).run(
        scope,
        sessionTombstoneId(session),
        session,
        at,
      ),
    );
  }

  async forgottenSessions(scope: string, sessions: readonly string[]): Promise<string[]> {
    if (sessions.length === 0) return [];
    return this.#forgottenSessionsNow(scope, sessions);
  }

  #forgottenSessionsNow(scope: string, sessions: readonly string[]): string[] {
    const rows = this.#stmt(`
      SELECT name FROM forgotten WHERE scope = ? AND kind = 'session'
        AND name IN (SELECT value FROM json_each(?)) ORDER BY name`).all(scope, json([...sessions])) as Row[];
    return rows.map((r) => String(r.name));
  }

  async hookSessionsStartingWith(scope: string, prefix: string): Promise<string[]> {
    const rows = this.#stmt(
      'SELECT session_id FROM hook_sessions WHERE scope = ? AND substr(session_id, 1, length(?)) = ?',
    ).all(scope, prefix, prefix) as Row[];
    return rows.map((r) => String(r.session_id)).sort();
  }

  // ---- fits measured on replays (migration 9) --------------------------------------------------

  async getFit(scope: string, name: string): Promise<StoredFit | undefined> {
    const row = this.#stmt('SELECT * FROM fits WHERE scope = ? AND name = ?').get(scope, name) as Row | undefined;
    return row === undefined ? undefined : toFit(row);
  }

  async putFit(scope: string, fit: StoredFit, wait?: WriteWait): Promise<void> {
    this.#write(
      () =>
        this.#stmt(`
        INSERT INTO fits (scope, name, runs, tools, revision, value, fitted_at) VALUES (?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (scope, name) DO UPDATE SET runs = excluded.runs, tools = excluded.tools,
          revision = excluded.revision, value = excluded.value, fitted_at = excluded.fitted_at`).run(
          scope,
          fit.name,
          fit.runs,
          fit.tools,
          fit.revision,
          fit.value,
          fit.fittedAt,
        ),
      wait,
    );
  }

  // ---- derived blobs: past runs (migration 11), graph snapshot (migration 12) ----------------

  async readPastRuns(scope: string): Promise<{ revision: number; data: Uint8Array } | undefined> {
    return readWhole((sql) => this.#stmt(sql), scope);
  }

  async writePastRuns(scope: string, revision: number, data: Uint8Array, wait?: WriteWait): Promise<boolean> {
    // In pieces (migration 14): a new process reads those a query needs (past-run-pieces.ts).
    return this.#write(() => writePieces((sql) => this.#stmt(sql), scope, revision, data), wait);
  }

  async openPastRuns(scope: string): Promise<PastRunsReader | undefined> {
    return openPieces((sql) => this.#stmt(sql), scope);
  }

  async readGraphSnapshot(
    scope: string,
    options: { bytes?: number } = {},
  ): Promise<{ revision: number; data: Uint8Array } | undefined> {
    if (options.bytes === undefined) {
      // Through a memory map, as the int8 copies are (issue 20: 4.9 MB of overflow pages at 100k, one read each).
      this.#stmt(`PRAGMA mmap_size = ${MAP_VECTOR_BYTES}`).get();
      try {
        return this.#readBlob('graph_snapshots', scope);
      } finally {
        this.#stmt('PRAGMA mmap_size = 0').get();
      }
    }
    // The front alone (status reads its statistics there): no copy of the whole blob (4.4 MB at 100k) to free after.
    const row = this.#stmt('SELECT revision, substr(data, 1, ?) AS data FROM graph_snapshots WHERE scope = ?').get(
      Math.max(0, Math.floor(options.bytes)),
      scope,
    ) as Row | undefined;
    return row === undefined ? undefined : { revision: Number(row.revision), data: row.data as Uint8Array };
  }

  async writeGraphSnapshot(scope: string, revision: number, data: Uint8Array, wait?: WriteWait): Promise<boolean> {
    return this.#writeBlob('graph_snapshots', scope, revision, data, wait);
  }

  #readBlob(table: 'past_runs' | 'graph_snapshots', scope: string) {
    const row = this.#stmt(`SELECT revision, data FROM ${table} WHERE scope = ?`).get(scope) as Row | undefined;
    return row === undefined ? undefined : { revision: Number(row.revision), data: row.data as Uint8Array };
  }

  /** Keeps `data` at `revision` unless the stored one is at a later revision; whether it was written. */
  #writeBlob(
    table: 'past_runs' | 'graph_snapshots',
    scope: string,
    revision: number,
    data: Uint8Array,
    wait?: WriteWait,
  ) {
    const blob = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    return this.#write(
      () =>
        this.#stmt(`
          INSERT INTO ${table} (scope, revision, data) VALUES (?, ?, ?)
          ON CONFLICT (scope) DO UPDATE SET revision = excluded.revision, data = excluded.data
          WHERE ${table}.revision <= excluded.revision`).run(scope, revision, blob).changes > 0,
      wait,
    );
  }

  // ---- dump and restore (sqlite-dump.ts) ------------------------------------------------------

  // sqlite-dump is loaded when a dump is written or restored: its row checks hold zod (the memory life's schema),
  // which a process that never dumps (a hook: bundles a store) would otherwise load and initialise at its start.
  async *exportRows(
    table: DumpTable,
    options: { batchSize?: number; descending?: boolean } = {},
  ): AsyncIterable<DumpRow[]> {
    const { exportSqliteRows } = await import('./sqlite-dump.js');
    yield* exportSqliteRows((sql) => this.#stmt(sql), table, options);
  }

  async importRows(table: DumpTable, rows: readonly DumpRow[]): Promise<number> {
    const { importSqliteRows } = await import('./sqlite-dump.js');
    const inserted = this.#write(() => importSqliteRows((sql) => this.#stmt(sql), table, rows, this.#policy.scrub));
    this.#calls.clear();
    // Edges written behind the cache's back: it learns them again from the table.
    if (table === 'edges') {
      this.#edgeCache.clear();
      this.#edgeCacheSize = 0;
    }
    return inserted;
  }

  // ---- revisions, the change log and persisted vector matrices (migration 8) ----------------

  async revision(scope: string): Promise<number> {
    const row = this.#stmt('SELECT revision FROM revisions WHERE scope = ?').get(scope) as Row | undefined;
    return row === undefined ? 0 : Number(row.revision);
  }

  async countEdges(scope: string): Promise<number> {
    return this.#edgesOf(scope);
  }

  /** The scope's edges as counted on write (migration 13), without reading their index. */
  #edgesOf(scope: string): number {
    const row = this.#stmt("SELECT n FROM table_counts WHERE scope = ? AND name = 'edges'").get(scope) as
      | Row
      | undefined;
    return Number(row?.n ?? 0);
  }

  async revisions(): Promise<Map<string, number>> {
    const rows = this.#stmt('SELECT scope, revision FROM revisions').all() as Row[];
    return new Map(rows.map((r) => [String(r.scope), Number(r.revision)]));
  }

  async fullTextRows(table: FullTextTable, after: number, limit: number): Promise<FullTextRow[]> {
    const columns = FULL_TEXT_COLUMNS[table];
    const rows = this.#stmt(
      `SELECT rowid, scope, id, ${columns.join(', ')} FROM ${table} WHERE rowid > ? ORDER BY rowid LIMIT ?`,
    ).all(after, limit) as Row[];
    return rows.map((r) => fullTextRow(r, columns));
  }

  async fullTextRowsByIds(table: FullTextTable, scope: string, ids: readonly string[]): Promise<FullTextRow[]> {
    if (ids.length === 0) return [];
    const columns = FULL_TEXT_COLUMNS[table];
    const rows = this.#stmt(
      `SELECT t.rowid AS rowid, t.scope AS scope, t.id AS id, ${columns.map((c) => `t.${c} AS ${c}`).join(', ')}
       FROM json_each(?) j CROSS JOIN ${table} t ON t.scope = ? AND t.id = j.value ORDER BY j.key`,
    ).all(JSON.stringify([...new Set(ids)]), scope) as Row[];
    return rows.map((r) => fullTextRow(r, columns));
  }

  async fullTextLogs(values: readonly number[]): Promise<number[]> {
    // Bound as doubles (never through text): FTS5's bm25 takes the same C `log` as `ln()`.
    const ln = this.#stmt('SELECT ln(?) AS v');
    return values.map((x) => Number((ln.get(x) as Row).v));
  }

  async changedSince(scope: string, kind: EmbeddingKind, since: number): Promise<ChangeSet> {
    // One read transaction: the revision and the log from one snapshot.
    return this.#db.transaction(() => {
      const row = this.#stmt('SELECT revision FROM revisions WHERE scope = ?').get(scope) as Row | undefined;
      const revision = row === undefined ? 0 : Number(row.revision);
      const changed: string[] = [];
      const removed: string[] = [];
      const rows = this.#stmt(
        'SELECT id, deleted FROM changes WHERE scope = ? AND kind = ? AND seq > ? AND seq <= ? ORDER BY seq, id',
      ).all(scope, kind, since, revision) as Row[];
      for (const r of rows) (Number(r.deleted) === 1 ? removed : changed).push(String(r.id));
      return { revision, changed, removed };
    })();
  }

  /** Rows of `table` by id, in the order of the (deduplicated) ids, in one statement. */
  #byIds(table: string, scope: string, ids: readonly string[]): Row[] {
    if (ids.length === 0) return [];
    return this.#stmt(
      `SELECT t.* FROM json_each(?) j CROSS JOIN ${table} t ON t.scope = ? AND t.id = j.value ORDER BY j.key`,
    ).all(JSON.stringify([...new Set(ids)]), scope) as Row[];
  }

  async getMemoriesByIds(scope: string, ids: readonly string[]): Promise<MemoryRecord[]> {
    return this.#byIds('memories', scope, ids).map(toMemory);
  }

  async highestIdNumber(scope: string, prefix: string): Promise<number | undefined> {
    if (prefix === '') throw new CredenceError('INVALID_INPUT', 'highestIdNumber: the id prefix is empty');
    // The ids in [prefix, prefix with its last character one higher): a range of the (scope, id) index.
    const upper = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
    const row = this.#stmt(
      'SELECT MAX(CAST(substr(id, ?) AS INTEGER)) AS n FROM memories WHERE scope = ? AND id >= ? AND id < ? ' +
        "AND length(id) - ? BETWEEN 1 AND 15 AND substr(id, ?) NOT GLOB '*[^0-9]*'",
    ).get(prefix.length + 1, scope, prefix, upper, prefix.length, prefix.length + 1) as Row | undefined;
    return row?.n === null || row?.n === undefined ? undefined : Number(row.n);
  }

  async getObservationsByIds(scope: string, ids: readonly string[]): Promise<ObservationRecord[]> {
    return this.#byIds('observations', scope, ids).map(toObservation);
  }

  async getToolsByIds(scope: string, ids: readonly string[]): Promise<ToolRecord[]> {
    return this.#byIds('tools', scope, ids).map(toTool);
  }

  async getExecutionsByIds(
    scope: string,
    ids: readonly string[],
    options: { calls?: boolean } = {},
  ): Promise<ExecutionRecord[]> {
    const rows = this.#byIds('executions', scope, ids);
    if (options.calls === false || rows.length === 0) return rows.map((r) => toExecution(r, []));
    const callRows = this.#stmt(
      `SELECT c.* FROM json_each(?) j CROSS JOIN calls c ON c.scope = ? AND c.execution_id = j.value
       ORDER BY j.key, c.idx`,
    ).all(JSON.stringify(rows.map((r) => String(r.id))), scope) as Row[];
    const calls = callsByExecution(callRows);
    return rows.map((r) => toExecution(r, calls.get(String(r.id)) ?? []));
  }

  async getEmbeddingsFor(scope: string, kind: EmbeddingKind, refIds: readonly string[]): Promise<StoredEmbedding[]> {
    if (refIds.length === 0) return [];
    const rows = this.#stmt(
      `SELECT e.ref_id, e.model_key, e.text_hash, e.vector FROM json_each(?) j
       CROSS JOIN embeddings e ON e.scope = ? AND e.kind = ? AND e.ref_id = j.value ORDER BY j.key`,
    ).all(JSON.stringify([...new Set(refIds)]), scope, kind) as Row[];
    return rows.map(toEmbedding);
  }

  async readVectorIndex(
    scope: string,
    name: string,
    options: { floats?: boolean; keyBytes?: boolean } = {},
  ): Promise<{ header: VectorIndexHeader; chunks: VectorChunk[] } | undefined> {
    if (options.floats === false) {
      // The int8 copies (12 MB a matrix at 100k rows) through a memory map, unmapped once read (issue 20): a quarter
      // less CPU than reading their overflow pages one by one; the mapped pages count in the RSS only meanwhile.
      this.#stmt(`PRAGMA mmap_size = ${MAP_VECTOR_BYTES}`).get();
      try {
        return this.#readVectorIndex(scope, name, options);
      } finally {
        this.#stmt('PRAGMA mmap_size = 0').get();
      }
    }
    return this.#readVectorIndex(scope, name, options);
  }

  #readVectorIndex(
    scope: string,
    name: string,
    options: { floats?: boolean; keyBytes?: boolean },
  ): { header: VectorIndexHeader; chunks: VectorChunk[] } | undefined {
    return this.#db.transaction(() => {
      const h = this.#stmt('SELECT * FROM vector_index WHERE scope = ? AND name = ?').get(scope, name) as
        | Row
        | undefined;
      if (h === undefined) return undefined;
      const header = toVectorHeader(h);
      // Without floats: the int8 copies alone, rows of their own (the floats' rows are not read).
      if (options.floats === false) {
        const codes = this.#stmt(
          `SELECT chunk, ${options.keyBytes === true ? 'CAST(ids AS BLOB) AS ids' : 'ids'}, data FROM vector_chunks ` +
            'WHERE scope = ? AND name = ? AND chunk < ? ORDER BY chunk',
        ).all(scope, codesName(name), header.chunks) as Row[];
        return { header, chunks: codes.map(toCodesChunk) };
      }
      const chunks = (
        this.#stmt(
          'SELECT chunk, ids, hashes, data FROM vector_chunks WHERE scope = ? AND name = ? AND chunk < ? ' +
            'ORDER BY chunk',
        ).all(scope, name, header.chunks) as Row[]
      ).map(toVectorChunk);
      return { header, chunks };
    })();
  }

  async readVectorChunks(
    scope: string,
    name: string,
    read: { chunks: readonly number[]; expect: { revision: number; generation: string } },
  ): Promise<VectorChunk[] | undefined> {
    return this.#db.transaction(() => {
      const h = this.#stmt('SELECT * FROM vector_index WHERE scope = ? AND name = ?').get(scope, name) as
        | Row
        | undefined;
      if (h === undefined || !sameVectorHeader(toVectorHeader(h), read.expect)) return undefined;
      return (
        this.#stmt(
          // The chunks by their key (IN): a join from json_each scanned every chunk of the matrix, blobs and all.
          `SELECT c.chunk, c.ids, c.hashes, c.data FROM vector_chunks c
           WHERE c.scope = ? AND c.name = ? AND c.chunk IN (SELECT value FROM json_each(?)) ORDER BY c.chunk`,
        ).all(scope, name, JSON.stringify([...new Set(read.chunks)])) as Row[]
      ).map(toVectorChunk);
    })();
  }

  async writeVectorChunks(
    scope: string,
    name: string,
    write: {
      expect: { revision: number; generation: string } | null;
      header: VectorIndexHeader;
      chunks: readonly VectorChunk[];
    },
    wait?: WriteWait,
  ): Promise<boolean> {
    const { header } = write;
    return this.#write(() => {
      const now = this.#stmt('SELECT * FROM vector_index WHERE scope = ? AND name = ?').get(scope, name) as
        | Row
        | undefined;
      if (!sameVectorHeader(now === undefined ? null : toVectorHeader(now), write.expect)) return false;
      this.#stmt(`
        INSERT INTO vector_index (scope, name, model_key, revision, dim, rows, chunks) VALUES (?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (scope, name) DO UPDATE SET model_key = excluded.model_key, revision = excluded.revision,
          dim = excluded.dim, rows = excluded.rows, chunks = excluded.chunks`).run(
        scope,
        name,
        `${header.modelKey}\n${header.generation}`,
        header.revision,
        header.dim,
        header.rows,
        header.chunks,
      );
      const put = this.#stmt(`
        INSERT INTO vector_chunks (scope, name, chunk, ids, hashes, data) VALUES (?, ?, ?, ?, ?, ?)
        ON CONFLICT (scope, name, chunk) DO UPDATE SET ids = excluded.ids, hashes = excluded.hashes,
          data = excluded.data`);
      const drop = this.#stmt('DELETE FROM vector_chunks WHERE scope = ? AND name = ? AND chunk = ?');
      for (const c of write.chunks) {
        put.run(scope, name, c.chunk, JSON.stringify(c.ids), JSON.stringify(c.hashes), chunkBytes(c.data));
        // The int8 copy of the rows just written, or none (an older copy would no longer match them).
        if (c.codes === undefined) drop.run(scope, codesName(name), c.chunk);
        else put.run(scope, codesName(name), c.chunk, c.codeKeys ?? '', '[]', chunkBytes(c.codes));
      }
      for (const n of [name, codesName(name)])
        this.#stmt('DELETE FROM vector_chunks WHERE scope = ? AND name = ? AND chunk >= ?').run(
          scope,
          n,
          header.chunks,
        );
      return true;
    }, wait);
  }

  async deleteVectorIndex(scope: string, name?: string): Promise<void> {
    this.#write(() => {
      for (const table of ['vector_index', 'vector_chunks'])
        this.#stmt(`DELETE FROM ${table} WHERE scope = ? AND (? IS NULL OR name = ? OR name = ?)`).run(
          scope,
          name ?? null,
          name ?? null,
          name === undefined ? null : codesName(name),
        );
    });
  }
}

/** Edges missing from the cache in one recording batch from which a scan of the scope's edges may pay. */
const SCAN_EDGES_FROM = 2000;

/** The memory map `readVectorIndex` reads the int8 copies through: the file's first GiB (a larger one reads on). */
const MAP_VECTOR_BYTES = 2 ** 30;

/** Rows a multi-row INSERT writes at once (at most 13 values a row: 650 parameters, far below SQLite's limit). */
const ROWS_PER_STATEMENT = 50;

const edgeKey = (e: { type: string; from: string; to: string }): string => `${e.type}\u0000${e.from}\u0000${e.to}`;

const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The kinds and outcomes in the order `outcomeBins` gives them (SQLite's binary collation). */
const SORTED_KINDS = [...OUTCOME_KINDS].sort(compareText);
const SORTED_OUTCOMES = [...OUTCOMES].sort(compareText);

/** An edge by its key, the scope aside: an event, a record. */
type EdgeEnds = { from: string; to: string; type: string };

/** The edges table's key order (scope aside): from, to, type. */
const byEdgeKey = (x: EdgeEnds, y: EdgeEnds): number =>
  compareText(x.from, y.from) || compareText(x.to, y.to) || compareText(x.type, y.type);

/** The header as stored: the model key and the generation share one column (`<model key>\n<generation>`). */
const toVectorHeader = (h: Row): VectorIndexHeader => ({
  ...splitModelKey(String(h.model_key)),
  revision: Number(h.revision),
  dim: Number(h.dim),
  rows: Number(h.rows),
  chunks: Number(h.chunks),
});

/**
 * A chunk as read: the blob viewed as float32 when it is aligned (a large blob is its own buffer), else copied;
 * read without floats, an empty array and the int8 copy when there is one.
 */
function toVectorChunk(r: Row): VectorChunk {
  const bytes = r.data as Uint8Array | undefined;
  const chunk: VectorChunk = {
    chunk: Number(r.chunk),
    ids: JSON.parse(String(r.ids)) as string[],
    hashes: JSON.parse(String(r.hashes)) as string[],
    data:
      bytes === undefined
        ? new Float32Array(0)
        : bytes.byteOffset % 4 === 0
          ? new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4)
          : floatsOf(bytes),
  };
  return chunk;
}

/** A chunk's int8 copy as read (no ids, hashes or floats). */
export const toCodesChunk = (r: Record<string, unknown>): VectorChunk => ({
  chunk: Number(r.chunk),
  ids: [],
  hashes: [],
  data: new Float32Array(0),
  codes: r.data as Uint8Array,
  // Read as a blob (`keyBytes`): the text's UTF-8 bytes.
  ...(r.ids instanceof Uint8Array ? { codeKeyBytes: r.ids } : { codeKeys: String(r.ids) }),
});

/** The name under which a matrix's int8 copies are kept, a chunk a row, beside its float chunks. */
export const codesName = (name: string): string => `${name}#q8`;

const chunkBytes = (data: Float32Array | Uint8Array): Buffer =>
  Buffer.from(data.buffer, data.byteOffset, data.byteLength);

/** The model key and the generation of a stored header's `model_key` column. */
export function splitModelKey(stored: string): { modelKey: string; generation: string } {
  const at = stored.lastIndexOf('\n');
  return at < 0
    ? { modelKey: stored, generation: '' }
    : { modelKey: stored.slice(0, at), generation: stored.slice(at + 1) };
}

/** Whether a stored header (or none) is the one a writer expects. */
export function sameVectorHeader(
  stored: Pick<VectorIndexHeader, 'revision' | 'generation'> | null,
  expect: { revision: number; generation: string } | null,
): boolean {
  if (stored === null || expect === null) return stored === expect;
  return stored.revision === expect.revision && stored.generation === expect.generation;
}

/** The columns of each full-text table's FTS5 entry, in the FTS5 table's order (migrations 1 and 2). */
const FULL_TEXT_COLUMNS: Readonly<Record<FullTextTable, readonly string[]>> = {
  memories: ['title', 'text', 'tags'],
  observations: ['observation', 'evidence', 'context', 'tags'],
  executions: ['intent'],
};

function fullTextRow(r: Row, columns: readonly string[]): FullTextRow {
  return {
    rowid: Number(r.rowid),
    scope: String(r.scope),
    id: String(r.id),
    columns: columns.map((c) => (r[c] == null ? '' : String(r[c]))),
  };
}
