/**
 * @module store/postgres/pg-store
 * The team store: the same Store on PostgreSQL (SPEC §10), selected by `CREDENCE_DATABASE_URL` or
 * `--database-url`. A pool serves every method; a multi-row write is one transaction. Concurrent writers
 * lose no update: edge counters fold under row locks in one global order, call counters are atomic
 * upserts, appends lock their execution, the hook queue is serialised per scope by an advisory lock,
 * and deadlocks or serialisation failures are retried. Full-text ranks as SQLite's FTS5 (store/postgres/
 * fts5); vectors are float32 `bytea`, ranked in the database through pgvector when present
 * (`?vectors=node|pgvector|auto`), else in Node as on SQLite.
 */
import pg from 'pg';
import { CredenceError } from '../../core/errors.js';
import type { ExecutionEdgeEvent } from '../../core/graph/execution-edges.js';
import type { EdgeType } from '../../core/types.js';
import { promptOfTurn, type TurnPromptSpan } from '../../core/runs/session-label.js';
import { STORE_POLICY, storePolicy, type StorePolicy } from '../policy.js';
import { activityWindow, dailyActivityOf, type DayRow } from '../daily-activity.js';
import {
  aroundMethods,
  callsPerTool,
  endedAt,
  foldWorkflows,
  workflowsAfterDelete,
  unlearnedEdges,
  eventsLeft,
  nulSafeStore,
  observationFingerprint,
  workflowsOf,
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
  toOutcome,
  toOutcomeBin,
  toShown,
  toSkill,
  toTool,
  toWorkflow,
  type Row,
  countMismatches,
  countsOf,
} from '../rows.js';
import {
  sessionTombstoneId,
  TABLES,
  type AppendReport,
  type ChangeSet,
  type DailyActivity,
  type CallRecord,
  type DumpRow,
  type DumpTable,
  type EdgeFold,
  type EdgeUnlearn,
  type EdgeRecord,
  type EmbeddingKind,
  type EmbeddingStamp,
  type NearestEmbedding,
  type NearestQuery,
  type VectorRanking,
  type EpochMs,
  type PastRunsReader,
  type ExecutionBatchItem,
  type ExecutionRecord,
  type ForgottenRecord,
  type FeedbackRecord,
  type HookEvent,
  type InsertReport,
  type InstinctRecord,
  type MemoryHit,
  type MemoryRecord,
  type ObservationRecord,
  type RecordReport,
  type Outcome,
  type OutcomeBin,
  type OutcomeQuery,
  type SetOutcomeOptions,
  type OutcomeRecord,
  type ShownRecord,
  type Surface,
  type SkillRecord,
  type Store,
  type StoredEmbedding,
  type StoredFit,
  type TableCounts,
  type ToolRecord,
  type ToolUpsert,
  type WorkflowMerge,
  type WorkflowMove,
  type WorkflowOf,
  type WorkflowRecord,
  type VectorChunk,
  type VectorIndexHeader,
  type BackupReport,
  type FullTextRow,
  type FullTextTable,
} from '../types.js';
import {
  FTS5_UNPOSITIONED,
  fts5Bm25,
  fts5Document,
  fts5Tokens,
  parseFts5Match,
  pgLexeme,
} from '../../core/text/fts5.js';
import {
  PG_LATEST_SCHEMA_VERSION,
  PG_LAYERED_RUNS_LEARNED_DEPENDENCIES,
  PG_MIGRATIONS,
  PG_TEMPLATES_DECLARED,
} from './migrations.js';
import { codesName, sameVectorHeader, splitModelKey, toCodesChunk } from '../sqlite/sqlite-store.js';
import {
  quoteIdent,
  vectorLiteral,
  PG_VECTOR_MODES,
  setUpVectors,
  type PgVectorMode,
  type PgVectorState,
} from './pgvector.js';
import { ExecutionCallsCache, storedCall } from '../calls-cache.js';
import { exportPgRows, importPgRows } from './pg-dump.js';
import { FTS_COLUMNS, ftsTexts, indexTools, type FtsTable } from './search-columns.js';
import { redactUrl, urlProblem, withSchema } from '../../core/security/redact-url.js';
import { SCHEMA_NAME } from '../../platform/paths.js';

export interface PgStoreOptions {
  /**
   * A PostgreSQL connection URL: `postgres://user:password@host:5432/database`; a `schema`
   * parameter (`?schema=team_a`) names the schema, as `schema` does, and `?vectors=` as `vectors` does.
   */
  url: string;
  /**
   * The schema (namespace) holding Credence's tables; created when missing. @default the URL's `schema`, else 'public'
   */
  schema?: string;
  /** Connections in the pool. @default 10 */
  poolSize?: number;
  /**
   * How long a new connection may take (the TCP connect, TLS and the login) before it fails as the server
   * unreachable, in ms; the hooks give 2 s, under their own time limits. @default 10000
   */
  connectTimeoutMs?: number;
  /**
   * How long a statement may wait for a lock another session holds (PostgreSQL's `lock_timeout`) before it fails,
   * named as such (`details.lockTimeout`), in ms: the hooks give 1 s, under their own time limits (walk 13: a
   * `VACUUM FULL memories` held a prompt 19 s). @default none (wait as long as the lock is held)
   */
  lockTimeoutMs?: number;
  /** How text is scrubbed and how long hook keys are kept (store/policy). @default STORE_POLICY */
  policy?: Partial<StorePolicy>;
  /**
   * Where vectors are ranked: `auto` by pgvector when the server has it (creating the extension
   * when this role may), else in Node; `pgvector` requires it; `node` never uses it.
   * @default the URL's `vectors`, else 'auto'
   */
  vectors?: PgVectorMode;
}

type Queryable = pg.Pool | pg.PoolClient;

/** bigint (int8) comes back as a JavaScript number: epoch milliseconds and counters fit in 2^53. */
const TYPES = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === 20 && format !== 'binary'
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

/** SQLSTATEs after which a transaction is simply run again: serialization_failure, deadlock_detected. */
const RETRYABLE = new Set(['40001', '40P01']);

/**
 * The URL with its password and secret query parameters hidden, for messages and `status` (core/security/redact-url).
 */
export { redactUrl };

/** Credence's own query parameters (`schema`, `vectors`; not libpq's) taken out of the URL. */
function splitParams(url: string): { url: string; schema?: string; vectors?: string } {
  try {
    const parsed = new URL(url);
    const schema = parsed.searchParams.get('schema');
    const vectors = parsed.searchParams.get('vectors');
    if (schema === null && vectors === null) return { url };
    parsed.searchParams.delete('schema');
    parsed.searchParams.delete('vectors');
    return { url: parsed.toString(), ...(schema === null ? {} : { schema }), ...(vectors === null ? {} : { vectors }) };
  } catch {
    return { url };
  }
}

/** Network errors of a server down or out of reach (not of a wrong host name or a refused login). */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'EPIPE',
  'EAI_AGAIN',
]);
/** SQLSTATEs of a connection lost or a server shutting down or starting: admin/crash shutdown, cannot connect now. */
const UNREACHABLE_STATES = new Set(['57P01', '57P02', '57P03', '08000', '08001', '08003', '08006']);

/**
 * A driver error that says the server at `location` is down or out of reach (refused, reset, no answer within
 * `timeoutMs`, shutting down), as STORE_UNAVAILABLE naming it unreachable (`details.unreachable`: retry later);
 * undefined for any other error.
 */
function unreachableError(error: unknown, location: string, timeoutMs: number): CredenceError | undefined {
  if (!(error instanceof Error)) return undefined;
  const code = (error as { code?: unknown }).code;
  const timedOut = /connection timeout|timeout exceeded when trying to connect/i.test(error.message);
  const why = timedOut
    ? `no answer within ${timeoutMs / 1000} s`
    : typeof code === 'string' &&
        (UNREACHABLE_CODES.has(code) ||
          UNREACHABLE_STATES.has(code) ||
          // A stopped server behind a unix socket took its socket file with it (review C).
          (code === 'ENOENT' && (error as { syscall?: unknown }).syscall === 'connect'))
      ? code
      : // The next statement on a connection the server ended between two statements of a transaction (item 1).
        /^Connection terminated|has encountered a connection error and is not queryable/i.test(error.message)
        ? 'connection lost'
        : undefined;
  if (why === undefined) return undefined;
  return new CredenceError(
    'STORE_UNAVAILABLE',
    `the PostgreSQL store at ${location} is unreachable (${why}): the server is down or out of reach; retry later`,
    {
      cause: error,
      details: { location, unreachable: true, ...(typeof code === 'string' ? { driverCode: code } : {}) },
    },
  );
}

/**
 * A statement that gave up waiting for a lock (SQLSTATE 55P03, `lock_timeout`): the server answered, but another
 * session holds a table (VACUUM FULL, LOCK TABLE, a migration, a long transaction). STORE_UNAVAILABLE (retry later),
 * `details.lockTimeout`; undefined for any other error.
 */
function lockTimeoutError(
  error: unknown,
  location: string,
  lockTimeoutMs: number | undefined,
): CredenceError | undefined {
  if (lockTimeoutMs === undefined || !(error instanceof Error)) return undefined;
  if ((error as { code?: unknown }).code !== '55P03') return undefined;
  return new CredenceError(
    'STORE_UNAVAILABLE',
    `the PostgreSQL store at ${location} answered, but a query waited on a lock for more than ` +
      `${lockTimeoutMs / 1000} s (another session holds a table: VACUUM FULL, LOCK TABLE, a long transaction); ` +
      'retry later',
    { cause: error, details: { location, lockTimeout: true, driverCode: '55P03' } },
  );
}

/** Opens (creating and migrating when needed) a PostgreSQL store. */
export async function openPgStore(options: PgStoreOptions): Promise<PgStore> {
  const shown = redactUrl(options.url);
  // A URL's scheme is case-insensitive (RFC 3986 §3.1): `POSTGRES://` is read as `postgres://` (walk 19).
  const scheme = /^postgres(ql)?:\/\//i.exec(options.url)?.[0];
  if (scheme === undefined) {
    throw new CredenceError(
      'INVALID_INPUT',
      `the database URL ${shown} is not a PostgreSQL URL (postgres://user:password@host:5432/database)`,
    );
  }
  const given = scheme.toLowerCase() + options.url.slice(scheme.length);
  const problem = urlProblem(given);
  if (problem !== undefined) {
    throw new CredenceError('INVALID_INPUT', `the database URL ${shown} cannot be read: ${problem}`);
  }
  const { url, schema: fromUrl, vectors: vectorsFromUrl } = splitParams(given);
  const schema = options.schema ?? fromUrl ?? 'public';
  const vectors = options.vectors ?? vectorsFromUrl ?? 'auto';
  if (!(PG_VECTOR_MODES as readonly string[]).includes(vectors)) {
    throw new CredenceError(
      'INVALID_INPUT',
      `vectors=${vectors} in the database URL is not one of ${PG_VECTOR_MODES.join(', ')}`,
    );
  }
  if (!SCHEMA_NAME.test(schema)) {
    throw new CredenceError(
      'INVALID_INPUT',
      `the PostgreSQL schema name "${schema}" is not a plain identifier (lower-case letters, digits, _; at most 63)`,
    );
  }
  const connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
  if (!Number.isInteger(connectTimeoutMs) || connectTimeoutMs < 1) {
    throw new CredenceError('INVALID_INPUT', `connectTimeoutMs must be a whole number >= 1, got ${connectTimeoutMs}`);
  }
  const lockTimeoutMs = options.lockTimeoutMs;
  if (lockTimeoutMs !== undefined && (!Number.isInteger(lockTimeoutMs) || lockTimeoutMs < 1)) {
    throw new CredenceError('INVALID_INPUT', `lockTimeoutMs must be a whole number >= 1, got ${lockTimeoutMs}`);
  }
  // The schema named where the store is, as in the URL: one from CREDENCE_DATABASE_SCHEMA is shown too.
  const location = options.schema === undefined || options.schema === fromUrl ? shown : withSchema(shown, schema);
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    types: TYPES,
    // Quoted, so that a name PostgreSQL reserves (user, order) is a schema like any other.
    options: `-c search_path="${schema}"` + (lockTimeoutMs === undefined ? '' : ` -c lock_timeout=${lockTimeoutMs}`),
    application_name: 'credence',
    connectionTimeoutMillis: connectTimeoutMs,
  });
  // An idle connection the server drops must not crash the process: the pool replaces it.
  pool.on('error', () => {});
  let state: PgVectorState;
  try {
    state = await migrate(pool, schema, location, vectors as PgVectorMode);
  } catch (error) {
    await pool.end().catch(() => {});
    if (error instanceof CredenceError) throw error;
    throw (
      lockTimeoutError(error, location, lockTimeoutMs) ??
      unreachableError(error, location, connectTimeoutMs) ??
      new CredenceError(
        'STORE_UNAVAILABLE',
        `cannot open the PostgreSQL store at ${location}: ${(error as Error).message}`,
        {
          cause: error,
          details: { location },
        },
      )
    );
  }
  const store = new PgStore(
    pool,
    location,
    schema,
    state,
    options.policy === undefined ? STORE_POLICY : storePolicy(options.policy),
  );
  return nulSafeStore(unreachableNamed(store, location, connectTimeoutMs, lockTimeoutMs));
}

/**
 * The store with each method's failure from a server gone down or out of reach meanwhile named as such
 * ({@link unreachableError}: STORE_UNAVAILABLE, retry later), not a driver error every surface calls internal:
 * a promise's, and a row stream's (`exportRows`, read by `credence dump`) failing between batches.
 */
function unreachableNamed<S extends object>(
  store: S,
  location: string,
  timeoutMs: number,
  lockTimeoutMs: number | undefined,
): S {
  const named = (error: unknown): never => {
    throw lockTimeoutError(error, location, lockTimeoutMs) ?? unreachableError(error, location, timeoutMs) ?? error;
  };
  return aroundMethods(store, (method, target, args) => {
    const result = method.apply(target, args);
    if (result instanceof Promise) return result.catch(named);
    return isAsyncIterable(result) ? namedStream(result, named) : result;
  });
}

const isAsyncIterable = (value: unknown): value is AsyncIterable<unknown> =>
  typeof value === 'object' && value !== null && Symbol.asyncIterator in value;

async function* namedStream<T>(stream: AsyncIterable<T>, named: (error: unknown) => never): AsyncGenerator<T> {
  try {
    yield* stream;
  } catch (error) {
    named(error);
  }
}

/**
 * A connection taken from the pool, heard while it is out of it: the server ending it meanwhile (a shutdown, a
 * failover, `pg_terminate_backend`) is then the error its statement (or the next one) fails with, not an 'error'
 * event nobody hears, which ends the process (the pool hears its idle connections only; walk 19, items 1 and 2).
 * `release` gives it back (the pool drops a connection that was lost).
 */
async function checkOut(pool: pg.Pool): Promise<{ client: pg.PoolClient; release: () => void }> {
  const client = await pool.connect();
  let lost: Error | undefined;
  const heard = (error: Error): void => {
    lost ??= error;
  };
  client.on('error', heard);
  return {
    client,
    release: () => {
      client.removeListener('error', heard);
      client.release(lost);
    },
  };
}

async function migrate(pool: pg.Pool, schema: string, location: string, vectors: PgVectorMode): Promise<PgVectorState> {
  const { client, release } = await checkOut(pool);
  try {
    await client.query('BEGIN');
    // One migrator per database and schema: the others wait here, then find the work done.
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`credence:migrate:${schema}`]);
    // Created under the lock: two processes creating one schema at once would collide.
    if ((await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema])).rowCount === 0)
      await client.query(`CREATE SCHEMA "${schema}"`);
    // Created only when missing, so that a role allowed to read and write (not to create) can open a set-up store.
    if ((await client.query(`SELECT to_regclass('credence_meta') AS t`)).rows[0]?.t == null) {
      await client.query('CREATE TABLE credence_meta (key text PRIMARY KEY, value text NOT NULL)');
    }
    const row = (await client.query(`SELECT value FROM credence_meta WHERE key = 'schema_version'`)).rows[0] as
      | Row
      | undefined;
    const current = row === undefined ? 0 : Number(row.value);
    if (current > PG_LATEST_SCHEMA_VERSION) {
      throw new CredenceError(
        'SCHEMA_TOO_NEW',
        `the PostgreSQL store at ${location} has schema version ${current}, ` +
          `newer than this Credence knows (${PG_LATEST_SCHEMA_VERSION}); upgrade Credence`,
        { details: { location, version: current } },
      );
    }
    for (const migration of PG_MIGRATIONS) {
      if (migration.version <= current) continue;
      await client.query(migration.sql);
      await client.query(
        `INSERT INTO credence_meta (key, value) VALUES ('schema_version', $1) ` +
          `ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
        [String(migration.version)],
      );
    }
    const state = await setUpVectors(client, vectors, location, schema);
    await client.query('COMMIT');
    return state;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    release();
  }
}

/**
 * A row's query words laid out at their positions (`word:3,9 other:4` from the tsvector), every
 * other position empty: one column in which the row's phrases sit exactly where FTS5 sees them.
 * Undefined for a row indexed without positions.
 */
function wordsByPosition(hits: string): string[] | undefined {
  const placed: string[] = [];
  for (const entry of hits.split(' ')) {
    const colon = entry.lastIndexOf(':');
    const word = entry.slice(0, colon);
    const positions = entry.slice(colon + 1);
    if (word === FTS5_UNPOSITIONED || positions === '') return undefined;
    for (const p of positions.split(',')) placed[Number(p)] = word;
  }
  for (let i = 0; i < placed.length; i += 1) placed[i] ??= '';
  return placed;
}

const edgeKey = (e: { type: string; from: string; to: string }): string => `${e.type}\u0000${e.from}\u0000${e.to}`;
const byCodePoint = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export class PgStore implements Store {
  readonly kind = 'postgres' as const;
  readonly location: string;
  readonly schema: string;
  readonly vectorRanking: VectorRanking;
  /** Why vectors are ranked where they are, for `credence status`. */
  readonly vectorReason: string;
  readonly #pool: pg.Pool;
  readonly #policy: StorePolicy;
  /** The calls of the executions appended to last (store/calls-cache). */
  readonly #calls = new ExecutionCallsCache();
  /** The qualified `<#>` operator and vector type, when pgvector ranks. */
  readonly #vectorSql: { op: string; type: string } | undefined;
  #closed = false;

  constructor(
    pool: pg.Pool,
    location: string,
    schema: string,
    vectors: PgVectorState = { ranking: 'node', reason: 'ranked in Node' },
    policy: StorePolicy = STORE_POLICY,
  ) {
    this.#pool = pool;
    this.#policy = policy;
    this.location = location;
    this.schema = schema;
    this.vectorRanking = vectors.ranking;
    this.vectorReason = vectors.reason;
    const ext = vectors.extensionSchema === undefined ? undefined : quoteIdent(vectors.extensionSchema);
    this.#vectorSql =
      vectors.ranking === 'pgvector' && ext !== undefined
        ? { op: `OPERATOR(${ext}.<#>)`, type: `${ext}.vector` }
        : undefined;
  }

  /** The connection pool, for benchmarks and tools that need raw SQL. */
  get pool(): pg.Pool {
    return this.#pool;
  }

  async #rows(sql: string, values: unknown[] = [], on: Queryable = this.#pool): Promise<Row[]> {
    return (await on.query(sql, values)).rows as Row[];
  }

  /** Runs `fn` in one transaction, again after a deadlock or serialisation failure (`fn` must be safe to re-run). */
  async #tx<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt += 1) {
      const { client, release } = await checkOut(this.#pool);
      try {
        await client.query('BEGIN');
        const result = await fn(client);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        const code = (error as { code?: string }).code;
        if (code !== undefined && RETRYABLE.has(code) && attempt < 20) {
          await new Promise((r) => setTimeout(r, 2 + Math.random() * 10 * (attempt + 1)));
          continue;
        }
        throw error;
      } finally {
        release();
      }
    }
  }

  async schemaVersion(): Promise<number> {
    const row = (await this.#rows(`SELECT value FROM credence_meta WHERE key = 'schema_version'`))[0];
    return row === undefined ? 0 : Number(row.value);
  }

  async listScopes(): Promise<string[]> {
    // Each table's scopes by skipping from one to the next along its index on scope (a loose index scan): a few
    // lookups per scope instead of reading every row (issue 20: the dashboard asks on every page).
    const scopesOf = (t: string) => `(
      WITH RECURSIVE s(scope) AS (
        SELECT (SELECT min(scope) FROM ${t})
        UNION ALL SELECT (SELECT min(scope) FROM ${t} WHERE scope > s.scope) FROM s WHERE s.scope IS NOT NULL
      ) SELECT scope FROM s WHERE scope IS NOT NULL)`;
    const union = TABLES.map(scopesOf).join(' UNION ');
    return (await this.#rows(`SELECT scope FROM (${union}) u ORDER BY scope`)).map((r) => String(r.scope));
  }

  async counts(scope?: string): Promise<TableCounts> {
    // Kept per scope by the tables' triggers (migration 13): ten small rows instead of counting every row.
    const rows =
      scope === undefined
        ? await this.#rows('SELECT name, sum(n) AS n FROM table_counts GROUP BY name')
        : await this.#rows('SELECT name, n FROM table_counts WHERE scope = $1', [scope]);
    return countsOf(rows);
  }

  /** A server store has no file to copy: a dump, or the server's own tools (pg_dump), back it up. */
  async backup(): Promise<BackupReport> {
    throw new CredenceError(
      'INVALID_INPUT',
      `credence backup copies a SQLite file, and this store is PostgreSQL (${this.location}): back it up with ` +
        '`credence dump FILE` (put back with `credence restore FILE` into an empty store) or with pg_dump',
    );
  }

  async check(): Promise<string[]> {
    const problems: string[] = [];
    const version = await this.schemaVersion();
    if (version !== PG_LATEST_SCHEMA_VERSION)
      problems.push(`schema version ${version}, expected ${PG_LATEST_SCHEMA_VERSION}`);
    const counted = TABLES.map((t) => `SELECT scope, '${t}' AS name, count(*) AS n FROM ${t} GROUP BY scope`);
    problems.push(
      ...countMismatches(
        await this.#rows('SELECT scope, name, n FROM table_counts WHERE n <> 0'),
        await this.#rows(counted.join(' UNION ALL ')),
      ),
    );
    // Every searched row's index entry must match its text: recompute a sample's token count.
    for (const table of Object.keys(FTS_COLUMNS) as FtsTable[]) {
      for (const row of await this.#rows(`SELECT * FROM ${table} ORDER BY rowid DESC LIMIT 200`)) {
        const length = ftsTexts(table, row).reduce((n, text) => n + fts5Tokens(text).length, 0);
        if (length !== Number(row.fts_len)) {
          problems.push(
            `${table} row ${String(row.id)}: its full-text entry counts ${String(row.fts_len)} tokens, ` +
              `its text ${length}`,
          );
          break;
        }
      }
    }
    return problems;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#pool.end();
  }

  // ---- tools ---------------------------------------------------------------------------------

  async upsertTools(
    scope: string,
    tools: readonly ToolUpsert[],
    options: { at?: EpochMs } = {},
  ): Promise<{ inserted: number; updated: number }> {
    const now = options.at ?? Date.now();
    return this.#tx(async (c) => {
      let inserted = 0;
      let updated = 0;
      for (const raw of tools) {
        const tool = this.#policy.scrub(raw);
        const [stored] = await this.#rows(
          `INSERT INTO tools (scope, id, description, input_schema, origin, annotations, created_at, updated_at)
           VALUES ($1, $2, COALESCE($3, ''), $4, $5, $6, $7, $7)
           ON CONFLICT (scope, id) DO UPDATE SET
             description = COALESCE($3, tools.description),
             input_schema = COALESCE(excluded.input_schema, tools.input_schema),
             origin = COALESCE(excluded.origin, tools.origin),
             annotations = COALESCE(excluded.annotations, tools.annotations),
             updated_at = excluded.updated_at
           RETURNING description, (xmax = 0) AS inserted`,
          [
            scope,
            tool.id,
            tool.description ?? null,
            tool.inputSchema === undefined ? null : json(tool.inputSchema),
            tool.origin ?? null,
            tool.annotations === undefined ? null : json(tool.annotations),
            now,
          ],
          c,
        );
        if (stored?.inserted === true) inserted += 1;
        else updated += 1;
        await indexTools(c, scope, [{ id: tool.id, description: String(stored?.description ?? '') }]);
      }
      return { inserted, updated };
    });
  }

  async getTool(scope: string, id: string): Promise<ToolRecord | undefined> {
    const row = (await this.#rows('SELECT * FROM tools WHERE scope = $1 AND id = $2', [scope, id]))[0];
    return row === undefined ? undefined : toTool(row);
  }

  async listTools(scope: string): Promise<ToolRecord[]> {
    return (await this.#rows('SELECT * FROM tools WHERE scope = $1 ORDER BY id', [scope])).map(toTool);
  }

  /**
   * Adds calls to each tool's counter (an atomic upsert: concurrent writers add, never overwrite),
   * creating unknown tools with an empty description, created `at` (the machine clock when not given); returns the
   * new ones. Tools in id order, so two writers take the row locks in the same order.
   */
  async #countCalls(
    c: Queryable,
    scope: string,
    perTool: ReadonlyMap<string, number>,
    at: EpochMs | undefined,
  ): Promise<string[]> {
    if (perTool.size === 0) return [];
    const ids = [...perTool.keys()].sort(byCodePoint);
    const now = at ?? Date.now();
    const rows = await this.#rows(
      `INSERT INTO tools (scope, id, description, calls, created_at, updated_at)
       SELECT $1, v.id, '', v.n, $4, $4 FROM unnest($2::text[], $3::bigint[]) ` +
        `WITH ORDINALITY AS v(id, n, o) ORDER BY v.o
       ON CONFLICT (scope, id) DO UPDATE SET calls = tools.calls + excluded.calls
       RETURNING id, (xmax = 0) AS inserted`,
      [scope, ids, ids.map((id) => perTool.get(id)), now],
      c,
    );
    const created = new Set(rows.filter((r) => r.inserted === true).map((r) => String(r.id)));
    // Reported in the order the calls named them, as the SQLite store reports them.
    const newTools = [...perTool.keys()].filter((id) => created.has(id));
    await indexTools(
      c,
      scope,
      newTools.map((id) => ({ id, description: '' })),
    );
    return newTools;
  }

  async searchTools(
    scope: string,
    match: string,
    options: { limit?: number } = {},
  ): Promise<{ id: string; bm25: number }[]> {
    const hits = await this.#ftsTop('tool_terms', scope, match, options.limit ?? 50);
    return hits.map((h) => ({ id: String(h.row.id), bm25: h.bm25 }));
  }

  async searchExecutions(
    scope: string,
    match: string,
    options: { limit?: number } = {},
  ): Promise<{ id: string; bm25: number }[]> {
    const hits = await this.#ftsTop('executions', scope, match, options.limit ?? 20);
    return hits.map((h) => ({ id: String(h.row.id), bm25: h.bm25 }));
  }

  async searchObservations(
    scope: string,
    match: string,
    options: { limit?: number } = {},
  ): Promise<{ observation: ObservationRecord; bm25: number }[]> {
    const hits = await this.#ftsTop('observations', scope, match, options.limit ?? 20);
    return hits.map((h) => ({ observation: toObservation(h.row), bm25: h.bm25 }));
  }

  async searchMemories(scope: string, match: string, options: { limit?: number } = {}): Promise<MemoryHit[]> {
    const hits = await this.#ftsTop('memories', scope, match, options.limit ?? 20);
    return hits.map((h) => ({ memory: toMemory(h.row), bm25: h.bm25 }));
  }

  /**
   * The best `limit` full-text hits of a scope, ranked by FTS5's bm25 (ties by insertion order).
   * The tsvector finds the candidates and gives, for each, the positions of the query's words,
   * from which its phrase hits are counted exactly as FTS5 counts them (phrases never span columns:
   * columns sit apart in the position space); the statistics (rows, tokens, rows per phrase) cover
   * the whole table, as FTS5's do. Only the top rows are read whole. A row indexed without
   * positions (over PostgreSQL's limits), or a query word too long to be its own lexeme, is
   * tokenised again from its text instead.
   */
  async #ftsTop(table: FtsTable, scope: string, match: string, limit: number): Promise<{ row: Row; bm25: number }[]> {
    const query = parseFts5Match(match);
    if (query.tsquery === undefined || limit <= 0) return [];
    const words = [...new Set(query.phrases.flat())];
    const ownLexemes = words.every((w) => pgLexeme(w) === w);
    const candidates = await this.#rows(
      `SELECT m.rowid, m.fts_len,
         (SELECT string_agg(u.lexeme || ':' || coalesce(array_to_string(u.positions, ','), ''), ' ')
            FROM unnest(m.fts) u WHERE u.lexeme = ANY($3::text[])) AS hits
       FROM ${table} m WHERE m.scope = $1 AND m.fts @@ $2::tsquery`,
      [scope, query.tsquery, [...words.map(pgLexeme), FTS5_UNPOSITIONED]],
    );
    if (candidates.length === 0) return [];
    const values: string[] = [];
    const phraseCounts = query.phraseTsqueries.map((q) => {
      if (q === undefined) return '0';
      values.push(q);
      return `(SELECT count(*) FROM ${table} WHERE fts @@ $${values.length}::tsquery)`;
    });
    const stats = (
      await this.#rows(
        `SELECT (SELECT count(*) FROM ${table}) AS n, ` +
          `(SELECT coalesce(sum(fts_len), 0) FROM ${table}) ` +
          `AS total${phraseCounts.map((p, i) => `, ${p} AS p${i}`).join('')}`,
        values,
      )
    )[0] as Row;
    const rowsWithPhrase = query.phraseTsqueries.map((_, i) => Number(stats[`p${i}`] ?? 0));
    const bm25Of = (tokens: readonly (readonly string[])[], length: number): number | undefined =>
      query.matches(tokens)
        ? fts5Bm25({
            hits: query.hits(tokens),
            length,
            rows: Number(stats.n),
            totalLength: Number(stats.total),
            rowsWithPhrase,
          })
        : undefined;
    const scored: { rowid: number; bm25: number; row?: Row }[] = [];
    const retokenise: number[] = [];
    for (const c of candidates) {
      const rowid = Number(c.rowid);
      const placed = ownLexemes ? wordsByPosition(String(c.hits ?? '')) : undefined;
      if (placed === undefined) {
        retokenise.push(rowid);
        continue;
      }
      const bm25 = bm25Of([placed], Number(c.fts_len));
      if (bm25 !== undefined) scored.push({ rowid, bm25 });
    }
    if (retokenise.length > 0) {
      for (const row of await this.#rows(`SELECT * FROM ${table} WHERE rowid = ANY($1::bigint[])`, [retokenise])) {
        const bm25 = bm25Of(ftsTexts(table, row).map(fts5Tokens), Number(row.fts_len));
        if (bm25 !== undefined) scored.push({ rowid: Number(row.rowid), bm25, row });
      }
    }
    scored.sort((a, b) => a.bm25 - b.bm25 || a.rowid - b.rowid);
    const top = scored.slice(0, limit);
    const missing = top.filter((t) => t.row === undefined).map((t) => t.rowid);
    const rows = new Map<number, Row>();
    if (missing.length > 0)
      for (const row of await this.#rows(`SELECT * FROM ${table} WHERE rowid = ANY($1::bigint[])`, [missing]))
        rows.set(Number(row.rowid), row);
    return top.map((t) => ({ row: t.row ?? (rows.get(t.rowid) as Row), bm25: t.bm25 }));
  }

  // ---- edges ---------------------------------------------------------------------------------

  async putEdge(scope: string, raw: EdgeRecord): Promise<void> {
    const e = this.#policy.scrub(raw);
    await this.#tx(async (client) => {
      await client.query(
        `INSERT INTO edges (scope, from_tool, to_tool, type, source, count, successes, failures, first_seen, last_seen,
           declared)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
         ON CONFLICT (scope, from_tool, to_tool, type) DO UPDATE SET
           source = excluded.source, count = excluded.count, successes = excluded.successes,
           failures = excluded.failures, first_seen = excluded.first_seen, last_seen = excluded.last_seen,
           declared = excluded.declared`,
        [
          ...[scope, e.from, e.to, e.type, e.source, e.count, e.successes, e.failures, e.firstSeen, e.lastSeen],
          e.declared === true ? 1 : 0,
        ],
      );
      // The edge's ends are logged as tool changes at the revision its write reached (store/types `putEdge`).
      await client.query(
        `INSERT INTO changes (scope, kind, id, seq, deleted)
         SELECT $1, 'tool', t.id, r.revision, false FROM unnest($2::text[]) AS t(id), revisions r WHERE r.scope = $1
         ON CONFLICT (scope, kind, id) DO UPDATE SET seq = excluded.seq`,
        [scope, [...new Set([e.from, e.to])]],
      );
    });
  }

  async insertEdge(scope: string, raw: EdgeRecord): Promise<boolean> {
    const e = this.#policy.scrub(raw);
    const result = await this.#pool.query(
      `INSERT INTO edges (scope, from_tool, to_tool, type, source, count, successes, failures, first_seen, last_seen,
         declared)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
       ON CONFLICT (scope, from_tool, to_tool, type) DO NOTHING`,
      [
        ...[scope, e.from, e.to, e.type, e.source, e.count, e.successes, e.failures, e.firstSeen, e.lastSeen],
        e.declared === true ? 1 : 0,
      ],
    );
    return (result.rowCount ?? 0) > 0;
  }

  async getEdge(scope: string, key: { from: string; to: string; type: EdgeType }): Promise<EdgeRecord | undefined> {
    const row = (
      await this.#rows('SELECT * FROM edges WHERE scope = $1 AND from_tool = $2 AND to_tool = $3 AND type = $4', [
        scope,
        key.from,
        key.to,
        key.type,
      ])
    )[0];
    return row === undefined ? undefined : toEdge(row);
  }

  async listEdges(scope: string, filter: { from?: string; to?: string } = {}): Promise<EdgeRecord[]> {
    // A condition for each filter given, so that a filter by tool reads an index, not the whole scope (issue 20).
    const params: string[] = [scope];
    const where = [filter.from, filter.to]
      .map((value, i) =>
        value === undefined ? '' : ` AND ${i === 0 ? 'from_tool' : 'to_tool'} = $${params.push(value)}`,
      )
      .join('');
    const rows = await this.#rows(
      `SELECT * FROM edges WHERE scope = $1${where} ORDER BY from_tool, to_tool, type`,
      params,
    );
    return rows.map(toEdge);
  }

  /**
   * Folds edge events into their edges under row locks, so that concurrent writers never lose an
   * increment: every edge the events name gets a row (a zero placeholder when new, known to be
   * ours by RETURNING), all of them are locked in key order, folded here, and written back.
   */
  async #foldEdges(
    c: pg.PoolClient,
    scope: string,
    events: readonly ExecutionEdgeEvent[],
    fold: EdgeFold,
  ): Promise<Map<string, EdgeRecord>> {
    const folded = new Map<string, EdgeRecord>();
    if (events.length === 0) return folded;
    const keys = new Map<string, { from: string; to: string; type: string }>();
    for (const e of events) keys.set(edgeKey(e), { from: e.from, to: e.to, type: e.type });
    const sorted = [...keys.keys()]
      .sort(byCodePoint)
      .map((k) => keys.get(k) as { from: string; to: string; type: string });
    const columns = [sorted.map((k) => k.type), sorted.map((k) => k.from), sorted.map((k) => k.to)];
    const placeholders = await this.#rows(
      `INSERT INTO edges (scope, type, from_tool, to_tool, source, count, successes, failures)
       SELECT $1, v.type, v.from_tool, v.to_tool, 'inferred', 0, 0, 0
       FROM unnest($2::text[], $3::text[], $4::text[]) WITH ORDINALITY AS v(type, from_tool, to_tool, o) ORDER BY v.o
       ON CONFLICT (scope, from_tool, to_tool, type) DO NOTHING
       RETURNING type, from_tool, to_tool`,
      [scope, ...columns],
      c,
    );
    const fresh = new Set(
      placeholders.map((r) => edgeKey({ type: String(r.type), from: String(r.from_tool), to: String(r.to_tool) })),
    );
    const locked = await this.#rows(
      `SELECT e.* FROM edges e JOIN unnest($2::text[], $3::text[], $4::text[]) AS v(type, from_tool, to_tool)
         ON e.scope = $1 AND e.type = v.type AND e.from_tool = v.from_tool AND e.to_tool = v.to_tool
       ORDER BY e.type, e.from_tool, e.to_tool FOR UPDATE OF e`,
      [scope, ...columns],
      c,
    );
    const current = new Map<string, EdgeRecord>();
    for (const row of locked) {
      const edge = toEdge(row);
      const key = edgeKey(edge);
      if (!fresh.has(key)) current.set(key, edge);
    }
    for (const event of events) {
      const key = edgeKey(event);
      folded.set(key, fold(folded.get(key) ?? current.get(key), event));
    }
    await this.#updateEdges(c, scope, [...folded.values()]);
    return folded;
  }

  /** Writes edges back over their (locked) rows. */
  async #updateEdges(c: pg.PoolClient, scope: string, edges: readonly EdgeRecord[]): Promise<void> {
    if (edges.length === 0) return;
    await c.query(
      `UPDATE edges e SET source = v.source, count = v.count, successes = v.successes, failures = v.failures,
         first_seen = v.first_seen, last_seen = v.last_seen
       FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], ` +
        `$6::bigint[], $7::bigint[], $8::bigint[], $9::float8[], $10::float8[])
         AS v(type, from_tool, to_tool, source, count, successes, failures, first_seen, last_seen)
       WHERE e.scope = $1 AND e.type = v.type AND e.from_tool = v.from_tool AND e.to_tool = v.to_tool`,
      [
        scope,
        edges.map((e) => e.type),
        edges.map((e) => e.from),
        edges.map((e) => e.to),
        edges.map((e) => e.source),
        edges.map((e) => e.count),
        edges.map((e) => e.successes),
        edges.map((e) => e.failures),
        edges.map((e) => e.firstSeen),
        edges.map((e) => e.lastSeen),
      ],
    );
  }

  // ---- executions ----------------------------------------------------------------------------

  async insertExecution(scope: string, raw: ExecutionRecord, options: { at?: EpochMs } = {}): Promise<void> {
    const execution = this.#policy.scrub(raw);
    await this.#tx(async (c) => {
      await this.#insertExecutions(c, scope, [execution]);
      await this.#countCalls(c, scope, callsPerTool(execution.calls), options.at);
    });
  }

  /** Inserts (already scrubbed) executions with their calls. */
  async #insertExecutions(c: Queryable, scope: string, executions: readonly ExecutionRecord[]): Promise<void> {
    if (executions.length === 0) return;
    const docs = executions.map((e) => fts5Document([e.intent]));
    await c.query(
      `INSERT INTO executions (scope, id, intent, intent_kind, started_at, ended_at, confidence, summary, fts, ` +
        `fts_len, learned)
       SELECT $1, v.id, v.intent, v.kind, v.started, v.ended, v.confidence, v.summary, v.fts::tsvector, v.len, v.learned
       FROM unnest($2::text[], $3::text[], $4::text[], $5::float8[], $6::float8[], ` +
        `$7::float8[], $8::text[], $9::text[], $10::int[], $11::text[])
         WITH ORDINALITY AS v(id, intent, kind, started, ended, confidence, summary, fts, len, learned, o)
       ORDER BY v.o`,
      [
        scope,
        executions.map((e) => e.id),
        executions.map((e) => e.intent),
        executions.map((e) => e.intentKind ?? null),
        executions.map((e) => e.startedAt),
        executions.map((e) => e.endedAt ?? null),
        executions.map((e) => e.confidence ?? null),
        executions.map((e) => e.summary ?? null),
        docs.map((d) => d.tsvector),
        docs.map((d) => d.length),
        executions.map((e) => (e.learned === undefined ? null : json(e.learned))),
      ],
    );
    await this.#insertCalls(
      c,
      scope,
      executions.flatMap((e) => e.calls.map((call, idx) => ({ executionId: e.id, idx, call }))),
    );
  }

  /** Inserts (already scrubbed) calls at the given indexes. */
  async #insertCalls(
    c: Queryable,
    scope: string,
    calls: readonly { executionId: string; idx: number; call: CallRecord }[],
  ): Promise<void> {
    if (calls.length === 0) return;
    const col = <T>(f: (call: CallRecord) => T): T[] => calls.map((x) => f(x.call));
    await c.query(
      `INSERT INTO calls (scope, execution_id, idx, tool, status, retries, duration_ms, consumes, ` +
        `parent, at, intent, input, output, depends_on)
       SELECT $1, * FROM unnest($2::text[], $3::int[], $4::text[], $5::text[], $6::int[], $7::float8[], ` +
        `$8::text[], $9::int[], $10::float8[], $11::text[], $12::text[], $13::text[], $14::text[])`,
      [
        scope,
        calls.map((x) => x.executionId),
        calls.map((x) => x.idx),
        col((call) => call.tool),
        col((call) => call.status),
        col((call) => call.retries),
        col((call) => call.durationMs ?? null),
        col((call) => (call.consumes.length === 0 ? '[]' : json(call.consumes))),
        col((call) => call.parent ?? null),
        col((call) => call.at ?? null),
        col((call) => call.intent ?? null),
        col((call) => call.input ?? null),
        col((call) => call.output ?? null),
        col((call) => (call.dependsOn === undefined ? null : json(call.dependsOn))),
      ],
    );
  }

  async recordExecutions(
    scope: string,
    batch: readonly ExecutionBatchItem[],
    fold: EdgeFold,
    options: { workflow?: WorkflowOf; at?: EpochMs } = {},
  ): Promise<RecordReport> {
    const items = batch.map((item) => this.#policy.scrub(item));
    return this.#tx(async (c) => {
      await this.#insertExecutions(
        c,
        scope,
        items.map((i) => i.execution),
      );
      // Edges before tools, in every transaction: one lock order, no deadlock between writers.
      const edges = await this.#foldEdges(
        c,
        scope,
        items.flatMap((i) => i.events),
        fold,
      );
      // Workflows after edges and before tools: one lock order in every transaction.
      if (options.workflow !== undefined) await this.#mergeWorkflows(c, scope, workflowsOf(items, options.workflow));
      const newTools = await this.#countCalls(
        c,
        scope,
        callsPerTool(items.flatMap((i) => i.execution.calls)),
        options.at,
      );
      return { newTools, edges: [...edges.values()] };
    });
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
    // When the append fails, the execution's kept calls are forgotten (their spare list may have grown).
    const report = await this.#tx(async (c) => {
      await this.#markHookEventsDone(c, scope, options.dequeue ?? []);
      const doc = fts5Document([head.intent]);
      const created =
        (
          await this.#rows(
            `INSERT INTO executions (scope, id, intent, started_at, ended_at, fts, fts_len) ` +
              `VALUES ($1, $2, $3, $4, $4, $5::tsvector, $6)
             ON CONFLICT (scope, id) DO NOTHING RETURNING rowid`,
            [scope, head.id, head.intent, head.startedAt, doc.tsvector, doc.length],
            c,
          )
        ).length > 0;
      // The execution's row lock: a second writer appending to it waits here until this one commits.
      const row = (
        await this.#rows(
          'SELECT intent, started_at, ended_at FROM executions WHERE scope = $1 AND id = $2 FOR UPDATE',
          [scope, head.id],
          c,
        )
      )[0] as Row;
      // The kept calls when the stored last call is still their last (store/calls-cache), else every row.
      const lastRow = (
        await this.#rows(
          'SELECT * FROM calls WHERE scope = $1 AND execution_id = $2 ORDER BY idx DESC LIMIT 1',
          [scope, head.id],
          c,
        )
      )[0];
      const before =
        this.#calls.get(
          scope,
          head.id,
          lastRow === undefined ? 0 : Number(lastRow.idx) + 1,
          lastRow === undefined ? undefined : toCall(lastRow),
        ) ??
        (
          await this.#rows(
            'SELECT * FROM calls WHERE scope = $1 AND execution_id = $2 ORDER BY idx',
            [scope, head.id],
            c,
          )
        ).map(toCall);
      const added = build(before).map((call) => storedCall(this.#policy.scrub(call)));
      const after = this.#calls.extend(scope, head.id, before, added);
      const events = learn(before, after).map((event) => this.#policy.scrub(event));
      const startedAt = Number(row.started_at);
      const ended = endedAt(added, created || row.ended_at == null ? startedAt : Number(row.ended_at));
      await c.query('UPDATE executions SET ended_at = $3 WHERE scope = $1 AND id = $2', [scope, head.id, ended]);
      await this.#insertCalls(
        c,
        scope,
        added.map((call, i) => ({ executionId: head.id, idx: before.length + i, call })),
      );
      const edges = await this.#foldEdges(c, scope, events, fold);
      if (options.workflows !== undefined)
        await this.#mergeWorkflows(
          c,
          scope,
          options.workflows(before, after, { intent: String(row.intent), startedAt }),
        );
      const newTools = await this.#countCalls(c, scope, callsPerTool(added), options.at);
      return {
        newTools,
        edges: [...edges.values()],
        execution: { id: head.id, created, firstIndex: before.length, calls: after.length },
        before,
        after,
      };
    }).catch((error: unknown) => {
      this.#calls.failed(scope, head.id);
      throw error;
    });
    this.#calls.committed(scope, head.id, report.before, report.after);
    return { newTools: report.newTools, edges: report.edges, execution: report.execution };
  }

  async getExecution(scope: string, id: string): Promise<ExecutionRecord | undefined> {
    const row = (await this.#rows('SELECT * FROM executions WHERE scope = $1 AND id = $2', [scope, id]))[0];
    if (row === undefined) return undefined;
    const calls = (
      await this.#rows('SELECT * FROM calls WHERE scope = $1 AND execution_id = $2 ORDER BY idx', [scope, id])
    ).map(toCall);
    return toExecution(row, calls);
  }

  // ---- learned workflows ---------------------------------------------------------------------

  /**
   * Folds merges into the scope's workflows under row locks (as edges are folded): a placeholder row for each
   * new id, every named row locked in id order, folded here, written back or deleted.
   */
  async #mergeWorkflows(c: pg.PoolClient, scope: string, merges: readonly WorkflowMerge[]): Promise<void> {
    if (merges.length === 0) return;
    const ids = [...new Set(merges.map((m) => m.id))].sort(byCodePoint);
    const fresh = new Set(
      (
        await this.#rows(
          `INSERT INTO workflows (scope, id, key, first_seen, last_seen)
           SELECT $1, v.id, '', 0, 0 FROM unnest($2::text[]) WITH ORDINALITY AS v(id, o) ORDER BY v.o
           ON CONFLICT (scope, id) DO NOTHING RETURNING id`,
          [scope, ids],
          c,
        )
      ).map((r) => String(r.id)),
    );
    const locked = await this.#rows(
      'SELECT * FROM workflows WHERE scope = $1 AND id = ANY($2::text[]) ORDER BY id FOR UPDATE',
      [scope, ids],
      c,
    );
    const current = new Map<string, WorkflowRecord>();
    for (const row of locked) if (!fresh.has(String(row.id))) current.set(String(row.id), toWorkflow(row));
    const folded = foldWorkflows(current, merges);
    const kept = [...folded.values()].filter((w): w is WorkflowRecord => w !== undefined);
    const gone = [...folded.entries()].filter(([, w]) => w === undefined).map(([id]) => id);
    if (gone.length > 0)
      await c.query('DELETE FROM workflows WHERE scope = $1 AND id = ANY($2::text[])', [scope, gone]);
    if (kept.length === 0) return;
    await c.query(
      `UPDATE workflows w SET key = v.key, tools = v.tools, edges = v.edges, intents = v.intents,
         intents_at = v.intents_at, runs = v.runs, successes = v.successes, first_seen = v.first_seen,
         last_seen = v.last_seen
       FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[],
           $7::bigint[], $8::bigint[], $9::float8[], $10::float8[], $11::text[])
         AS v(id, key, tools, edges, intents, runs, successes, first_seen, last_seen, intents_at)
       WHERE w.scope = $1 AND w.id = v.id`,
      [
        scope,
        kept.map((w) => w.id),
        kept.map((w) => w.key),
        kept.map((w) => json(w.tools)),
        kept.map((w) => json(w.edges)),
        kept.map((w) => json(w.intents)),
        kept.map((w) => w.runs),
        kept.map((w) => w.successes),
        kept.map((w) => w.firstSeen),
        kept.map((w) => w.lastSeen),
        kept.map((w) => json(w.intentsAt)),
      ],
    );
  }

  async mergeWorkflows(
    scope: string,
    merges: readonly WorkflowMerge[],
    options: { replace?: boolean } = {},
  ): Promise<void> {
    const scrubbed = merges.map((m) => this.#policy.scrub(m));
    await this.#tx(async (c) => {
      if (options.replace === true) await c.query('DELETE FROM workflows WHERE scope = $1', [scope]);
      await this.#mergeWorkflows(c, scope, scrubbed);
    });
  }

  async rebuildWorkflows(scope: string, workflow: WorkflowOf, options: { ifPending?: boolean } = {}): Promise<boolean> {
    const built = async (on: Queryable): Promise<boolean> =>
      (await this.#rows('SELECT 1 FROM workflow_builds WHERE scope = $1', [scope], on)).length > 0;
    // Read first: a built scope (the usual case) takes no transaction.
    if (options.ifPending === true && (await built(this.#pool))) return false;
    return this.#tx(async (c) => {
      // One rebuilder per scope at a time; the others wait here, then (ifPending) find the work done.
      await c.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`credence:workflows:${scope}`]);
      if (options.ifPending === true && (await built(c))) return false;
      await c.query('DELETE FROM workflows WHERE scope = $1', [scope]);
      await c.query(
        'INSERT INTO workflow_builds (scope, schema_version) VALUES ($1, $2) ' +
          'ON CONFLICT (scope) DO UPDATE SET schema_version = EXCLUDED.schema_version',
        [scope, PG_LATEST_SCHEMA_VERSION],
      );
      const executions = await this.#listExecutions(scope, undefined, c);
      await this.#mergeWorkflows(
        c,
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
      await this.#rows('SELECT * FROM workflows WHERE scope = $1 ORDER BY last_seen DESC, id LIMIT $2', [
        scope,
        options.limit ?? null,
      ])
    ).map(toWorkflow);
  }

  async deleteWorkflows(scope: string): Promise<number> {
    return (await this.#pool.query('DELETE FROM workflows WHERE scope = $1', [scope])).rowCount ?? 0;
  }

  async clearWorkflowBuilds(): Promise<void> {
    await this.#pool.query('DELETE FROM workflow_builds');
  }

  async deriveRestoredMarks(dumpSchema: number): Promise<void> {
    await this.#tx(async (c) => {
      if (dumpSchema < 26) await c.query(PG_LAYERED_RUNS_LEARNED_DEPENDENCIES);
      if (dumpSchema < 27) await c.query(PG_TEMPLATES_DECLARED);
    });
  }

  async listExecutions(scope: string, options: { limit?: number; idPrefix?: string } = {}): Promise<ExecutionRecord[]> {
    return this.#listExecutions(scope, options.limit, this.#pool, options.idPrefix);
  }

  async #listExecutions(
    scope: string,
    limit: number | undefined,
    on: Queryable = this.#pool,
    idPrefix?: string,
  ): Promise<ExecutionRecord[]> {
    const rows =
      idPrefix === undefined || idPrefix === ''
        ? await this.#rows(
            'SELECT * FROM executions WHERE scope = $1 ORDER BY started_at DESC, rowid DESC LIMIT $2',
            [scope, limit ?? null],
            on,
          )
        : await this.#rows(
            'SELECT * FROM executions WHERE scope = $1 AND starts_with(id, $3) ' +
              'ORDER BY started_at DESC, rowid DESC LIMIT $2',
            [scope, limit ?? null, idPrefix],
            on,
          );
    if (rows.length === 0) return [];
    const callRows =
      limit === undefined
        ? await this.#rows('SELECT * FROM calls WHERE scope = $1 ORDER BY execution_id, idx', [scope], on)
        : await this.#rows(
            'SELECT * FROM calls WHERE scope = $1 AND execution_id = ANY($2::text[]) ORDER BY execution_id, idx',
            [scope, rows.map((r) => r.id)],
            on,
          );
    const calls = callsByExecution(callRows);
    return rows.map((row) => toExecution(row, calls.get(String(row.id)) ?? []));
  }

  async putEmbeddings(scope: string, kind: EmbeddingKind, items: readonly StoredEmbedding[]): Promise<void> {
    if (items.length === 0) return;
    // With pgvector the mirror column is sent as written (the trigger would rebuild it from the bytes, slower).
    const vec = this.#vectorSql !== undefined;
    await this.#pool.query(
      `INSERT INTO embeddings (scope, kind, ref_id, model_key, text_hash, vector${vec ? ', vec' : ''})
       SELECT $1, $2, v.ref_id, v.model_key, v.text_hash, ` +
        `decode(v.vector, 'base64')${vec ? `, v.vec::${this.#vectorSql?.type}` : ''}
       FROM unnest($3::text[], $4::text[], $5::text[], $6::text[]${vec ? ', $7::text[]' : ''}) ` +
        `AS v(ref_id, model_key, text_hash, vector${vec ? ', vec' : ''})
       ON CONFLICT (scope, kind, ref_id) DO UPDATE SET model_key = excluded.model_key, ` +
        `text_hash = excluded.text_hash, vector = excluded.vector${vec ? ', vec = excluded.vec' : ''}`,
      [
        scope,
        kind,
        items.map((i) => i.refId),
        items.map((i) => i.modelKey),
        items.map((i) => i.textHash),
        items.map((i) => Buffer.from(i.vector.buffer, i.vector.byteOffset, i.vector.byteLength).toString('base64')),
        ...(vec ? [items.map((i) => vectorLiteral(i.vector))] : []),
      ],
    );
  }

  async getEmbeddings(scope: string, kind: EmbeddingKind): Promise<StoredEmbedding[]> {
    const rows = await this.#rows(
      'SELECT ref_id, model_key, text_hash, vector FROM embeddings WHERE scope = $1 AND kind = $2',
      [scope, kind],
    );
    return rows.map(toEmbedding);
  }

  async getEmbeddingStamps(scope: string, kind: EmbeddingKind): Promise<EmbeddingStamp[]> {
    const rows = await this.#rows(
      'SELECT ref_id, model_key, text_hash FROM embeddings WHERE scope = $1 AND kind = $2',
      [scope, kind],
    );
    return rows.map(toEmbeddingStamp);
  }

  /**
   * The `k` rows with the largest inner product (pgvector's `<#>`, exact: no approximate index),
   * ties by kind and id, and the rows `also` names; each with its stored float32 vector, from which
   * the caller computes the score exactly as the in-process scan does.
   */
  async nearestEmbeddings(scope: string, query: NearestQuery): Promise<NearestEmbedding[]> {
    const sql = this.#vectorSql;
    if (sql === undefined)
      throw new CredenceError(
        'STORE_UNAVAILABLE',
        `the PostgreSQL store at ${this.location} ranks vectors in Node: ${this.vectorReason}`,
      );
    if (query.vector.length === 0 || query.kinds.length === 0) return [];
    // The rows asked for, one primary-key lookup per kind (a join on (kind, id) pairs was planned as
    // a scan of the scope on a table without statistics, most of a recall's time: docs/benchmarks.md).
    const also = new Map<string, Set<string>>();
    for (const a of query.also ?? []) also.set(a.kind, (also.get(a.kind) ?? new Set()).add(a.refId));
    const values: unknown[] = [
      scope,
      [...query.kinds],
      query.modelKey,
      vectorLiteral(query.vector),
      Math.max(0, Math.floor(query.k)),
    ];
    const asked = [...also].map(([kind, ids]) => {
      values.push(kind, [...ids]);
      return (
        `UNION ALL
       SELECT e.kind, e.ref_id, e.vector, -1, NULL::float8 FROM embeddings e
       WHERE e.scope = $1 AND e.kind = $${values.length - 1} ` +
        `AND e.ref_id = ANY($${values.length}::text[]) AND e.model_key = $3
         AND NOT EXISTS (SELECT 1 FROM nearest n WHERE n.kind = e.kind AND n.ref_id = e.ref_id)`
      );
    });
    const rows = await this.#rows(
      `WITH q AS (SELECT $4::text::${sql.type} AS v),
       nearest AS MATERIALIZED (
         SELECT e.kind, e.ref_id, e.vector, -(e.vec ${sql.op} q.v) AS score
         FROM embeddings e, q
         WHERE e.scope = $1 AND e.kind = ANY($2::text[]) AND e.model_key = $3 AND e.vec IS NOT NULL
         ORDER BY e.vec ${sql.op} q.v, e.kind, e.ref_id
         LIMIT $5
       )
       -- Ranked after the LIMIT, so that the scan above is a top-N sort, not a sort of the scope.
       SELECT kind, ref_id, vector, ` +
        `(row_number() OVER (ORDER BY score DESC, kind, ref_id) - 1)::int AS rank, score FROM nearest
       ${asked.join('\n       ')}`,
      values,
    );
    return rows.map((r) => ({
      kind: String(r.kind) as EmbeddingKind,
      refId: String(r.ref_id),
      vector: floatsOf(r.vector as Buffer),
      rank: Number(r.rank),
      score: r.score === null ? Number.NaN : Number(r.score),
    }));
  }

  async calledTools(scope: string, ids?: readonly string[]): Promise<Map<string, number>> {
    const rows =
      ids === undefined
        ? await this.#rows('SELECT id, calls FROM tools WHERE scope = $1 AND calls > 0 ORDER BY id', [scope])
        : await this.#rows('SELECT id, calls FROM tools WHERE scope = $1 AND calls > 0 AND id = ANY($2) ORDER BY id', [
            scope,
            [...ids],
          ]);
    return new Map(rows.map((r) => [String(r.id), Number(r.calls)]));
  }

  // ---- observations --------------------------------------------------------------------------

  async insertObservations(scope: string, observations: readonly ObservationRecord[]): Promise<InsertReport> {
    if (observations.length === 0) return { inserted: 0, duplicates: 0 };
    const scrubbed = observations.map((o) => this.#policy.scrub(o));
    const text = scrubbed.map((o) => ({ context: json(o.context), evidence: json(o.evidence), tags: json(o.tags) }));
    const docs = scrubbed.map((o, i) => {
      const t = text[i] as { context: string; evidence: string; tags: string };
      return fts5Document([o.observation, t.evidence, t.context, t.tags]);
    });
    const rows = await this.#rows(
      `INSERT INTO observations (scope, id, timestamp, type, context, observation, evidence, confidence, ` +
        `tags, content_hash, fts, fts_len)
       SELECT $1, v.id, v.ts, v.type, v.context, v.observation, v.evidence, v.confidence, ` +
        `v.tags, decode(v.hash, 'hex'), v.fts::tsvector, v.len
       FROM unnest($2::text[], $3::float8[], $4::text[], $5::text[], $6::text[], $7::text[], ` +
        `$8::float8[], $9::text[], $10::text[], $11::text[], $12::int[])
         WITH ORDINALITY AS v(id, ts, type, context, observation, evidence, confidence, tags, hash, fts, len, o)
       ORDER BY v.o
       ON CONFLICT DO NOTHING
       RETURNING 1`,
      [
        scope,
        scrubbed.map((o) => o.id),
        scrubbed.map((o) => o.timestamp),
        scrubbed.map((o) => o.type),
        text.map((t) => t.context),
        scrubbed.map((o) => o.observation),
        text.map((t) => t.evidence),
        scrubbed.map((o) => o.confidence),
        text.map((t) => t.tags),
        scrubbed.map((o) => observationFingerprint(o).toString('hex')),
        docs.map((d) => d.tsvector),
        docs.map((d) => d.length),
      ],
    );
    return { inserted: rows.length, duplicates: observations.length - rows.length };
  }

  async listObservations(
    scope: string,
    options: { since?: number; limit?: number } = {},
  ): Promise<ObservationRecord[]> {
    const rows = await this.#rows(
      'SELECT * FROM observations WHERE scope = $1 AND timestamp >= $2 ORDER BY timestamp, id LIMIT $3',
      [scope, options.since ?? Number.MIN_SAFE_INTEGER, options.limit ?? null],
    );
    return rows.map(toObservation);
  }

  // ---- memories ------------------------------------------------------------------------------

  async upsertMemories(
    scope: string,
    memories: readonly MemoryRecord[],
  ): Promise<{ inserted: number; updated: number }> {
    if (memories.length === 0) return { inserted: 0, updated: 0 };
    // One row per id, the last one winning, as one-by-one upserts would leave it.
    const byId = new Map<string, MemoryRecord>();
    for (const raw of memories) {
      const m = this.#policy.scrub(raw);
      const first = byId.get(m.id);
      // A later copy updates the first; the created time stays the first's, as an upsert keeps it.
      byId.set(m.id, first === undefined ? m : { ...m, createdAt: first.createdAt });
    }
    const list = [...byId.values()];
    const tags = list.map((m) => m.tags.join('\n'));
    const docs = list.map((m, i) => fts5Document([m.title, m.text, tags[i] as string]));
    return this.#tx(async (c) => {
      const rows = await this.#rows(
        `INSERT INTO memories (scope, id, category, title, text, tags, path, confidence, ` +
          `intent, created_at, updated_at, fts, fts_len, life)
         SELECT $1, v.id, v.category, v.title, v.text, v.tags, v.path, v.confidence, ` +
          `v.intent, v.created, v.updated, v.fts::tsvector, v.len, v.life
         FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], ` +
          `$8::float8[], $9::text[], $10::float8[], $11::float8[], $12::text[], $13::int[], $14::text[])
           WITH ORDINALITY AS v(id, category, title, text, tags, path, confidence, intent, ` +
          `created, updated, fts, len, life, o)
         ORDER BY v.o
         ON CONFLICT (scope, id) DO UPDATE SET
           category = excluded.category, title = excluded.title, text = excluded.text, tags = excluded.tags,
           path = excluded.path, confidence = excluded.confidence, intent = excluded.intent,
           updated_at = excluded.updated_at, fts = excluded.fts, fts_len = excluded.fts_len, life = excluded.life
         RETURNING (xmax = 0) AS inserted`,
        [
          scope,
          list.map((m) => m.id),
          list.map((m) => m.category),
          list.map((m) => m.title),
          list.map((m) => m.text),
          tags,
          list.map((m) => m.path ?? null),
          list.map((m) => m.confidence ?? null),
          list.map((m) => m.intent ?? null),
          list.map((m) => m.createdAt),
          list.map((m) => m.updatedAt),
          docs.map((d) => d.tsvector),
          docs.map((d) => d.length),
          list.map((m) => (m.life === undefined ? null : JSON.stringify(m.life))),
        ],
        c,
      );
      const inserted = rows.filter((r) => r.inserted === true).length;
      return { inserted, updated: memories.length - inserted };
    });
  }

  async getMemory(scope: string, id: string): Promise<MemoryRecord | undefined> {
    const row = (await this.#rows('SELECT * FROM memories WHERE scope = $1 AND id = $2', [scope, id]))[0];
    return row === undefined ? undefined : toMemory(row);
  }

  async listMemories(scope: string): Promise<MemoryRecord[]> {
    return (await this.#rows('SELECT * FROM memories WHERE scope = $1 ORDER BY rowid', [scope])).map(toMemory);
  }

  // ---- instincts, skills, feedback, shown ------------------------------------------------------

  async upsertInstinct(scope: string, raw: InstinctRecord): Promise<boolean> {
    const i = this.#policy.scrub(raw);
    return this.#tx(async (c) => {
      if (!(await this.#learnable(c, scope, 'instinct', i))) return false;
      await c.query(
        `INSERT INTO instincts (scope, id, slug, text, confidence, status, evidence, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         ON CONFLICT (scope, id) DO UPDATE SET slug = excluded.slug, text = excluded.text, ` +
          `confidence = excluded.confidence,
           status = excluded.status, evidence = excluded.evidence, updated_at = excluded.updated_at`,
        [scope, i.id, i.slug, i.text, i.confidence, i.status, json(i.evidence), i.createdAt, i.updatedAt],
      );
      return true;
    });
  }

  /**
   * Whether an instinct or skill may be written, in the write's transaction (walk 13: a teammate's evolve that read
   * before a forget brought the item back). With no tombstone of its id or file name, yes. With one, only when it is
   * learned again from new evidence: learned after the forget (`updatedAt` past the tombstone's time) from
   * observations that all still exist (locked until the write commits, so a forget's delete waits); the tombstone
   * then goes. Else nothing is written and the tombstone stays.
   */
  async #learnable(
    c: pg.PoolClient,
    scope: string,
    kind: 'instinct' | 'skill',
    item: { id: string; slug?: string; name?: string; evidence: readonly string[]; updatedAt: number },
  ): Promise<boolean> {
    const name = item.slug ?? item.name ?? '';
    const stones = await this.#rows(
      `SELECT at FROM forgotten WHERE scope = $1 AND (id = $2 OR (kind = $3 AND name = $4)) FOR UPDATE`,
      [scope, item.id, kind, name],
      c,
    );
    if (stones.length === 0) return true;
    const wanted = [...new Set(item.evidence)];
    if (wanted.length === 0 || stones.some((r) => Number(r.at) >= item.updatedAt)) return false;
    const found = await this.#rows(
      'SELECT id FROM observations WHERE scope = $1 AND id = ANY($2::text[]) FOR SHARE',
      [scope, wanted],
      c,
    );
    if (found.length !== wanted.length) return false;
    await c.query('DELETE FROM forgotten WHERE scope = $1 AND (id = $2 OR (kind = $3 AND name = $4))', [
      scope,
      item.id,
      kind,
      name,
    ]);
    return true;
  }

  async listInstincts(scope: string): Promise<InstinctRecord[]> {
    return (await this.#rows('SELECT * FROM instincts WHERE scope = $1 ORDER BY confidence DESC, slug', [scope])).map(
      toInstinct,
    );
  }

  async upsertSkill(scope: string, raw: SkillRecord): Promise<boolean> {
    const s = this.#policy.scrub(raw);
    return this.#tx(async (c) => {
      if (!(await this.#learnable(c, scope, 'skill', s))) return false;
      await c.query(
        `INSERT INTO skills (scope, id, name, description, rules, confidence, evidence, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         ON CONFLICT (scope, id) DO UPDATE SET name = excluded.name, description = excluded.description, ` +
          `rules = excluded.rules,
           confidence = excluded.confidence, evidence = excluded.evidence, updated_at = excluded.updated_at`,
        [scope, s.id, s.name, s.description, json(s.rules), s.confidence, json(s.evidence), s.createdAt, s.updatedAt],
      );
      return true;
    });
  }

  async listSkills(scope: string): Promise<SkillRecord[]> {
    return (await this.#rows('SELECT * FROM skills WHERE scope = $1 ORDER BY confidence DESC, name', [scope])).map(
      toSkill,
    );
  }

  async recordForgotten(scope: string, records: readonly ForgottenRecord[]): Promise<void> {
    if (records.length === 0) return;
    // One row per id (the last given), as SQLite's one statement per record leaves it.
    const scrubbed = [...new Map(records.map((r) => [r.id, this.#policy.scrub(r)])).values()];
    await this.#pool.query(
      `INSERT INTO forgotten (scope, id, kind, name, at)
       SELECT $1, f.id, f.kind, f.name, f.at FROM unnest($2::text[], $3::text[], $4::text[], $5::float8[])
         AS f(id, kind, name, at)
       ON CONFLICT (scope, id) DO UPDATE SET kind = excluded.kind, name = excluded.name, at = excluded.at`,
      [
        scope,
        scrubbed.map((f) => f.id),
        scrubbed.map((f) => f.kind),
        scrubbed.map((f) => f.name),
        scrubbed.map((f) => f.at),
      ],
    );
  }

  async listForgotten(
    scope: string,
    options: { kind?: 'instinct' | 'skill'; names?: readonly string[] } = {},
  ): Promise<ForgottenRecord[]> {
    if (options.names?.length === 0) return [];
    const rows = await this.#rows(
      `SELECT f.id, f.kind, f.name, f.at FROM forgotten f WHERE f.scope = $1 AND f.kind IN ('instinct', 'skill')
         AND ($2::text IS NULL OR f.kind = $2) AND ($3::text[] IS NULL OR f.name = ANY($3::text[]))
         AND NOT (f.kind = 'skill' AND EXISTS (SELECT 1 FROM skills s WHERE s.scope = $1 AND s.name = f.name))
         AND NOT (f.kind = 'instinct' AND EXISTS (SELECT 1 FROM instincts i WHERE i.scope = $1 AND i.slug = f.name))
       ORDER BY f.kind, f.name, f.id`,
      [scope, options.kind ?? null, options.names === undefined ? null : [...options.names]],
    );
    return rows.map((r) => ({
      id: String(r.id),
      kind: r.kind === 'instinct' ? 'instinct' : 'skill',
      name: String(r.name),
      at: Number(r.at),
    }));
  }

  async insertFeedback(scope: string, raw: FeedbackRecord): Promise<InsertReport> {
    const f = this.#policy.scrub(raw);
    const rows = await this.#rows(
      `INSERT INTO feedback (scope, id, target_id, kind, note, at) VALUES ($1, $2, $3, $4, $5, $6) ` +
        `ON CONFLICT DO NOTHING RETURNING 1`,
      [scope, f.id, f.targetId, f.kind, f.note ?? null, f.at],
    );
    return { inserted: rows.length, duplicates: 1 - rows.length };
  }

  async listFeedback(scope: string, targetId?: string): Promise<FeedbackRecord[]> {
    const rows = await this.#rows(
      'SELECT * FROM feedback WHERE scope = $1 AND ($2::text IS NULL OR target_id = $2) ORDER BY at, id',
      [scope, targetId ?? null],
    );
    return rows.map(toFeedback);
  }

  async deleteFeedback(scope: string, targetId: string, ids?: readonly string[]): Promise<number> {
    const result = await this.#pool.query(
      'DELETE FROM feedback WHERE scope = $1 AND target_id = $2 AND ($3::text[] IS NULL OR id = ANY($3::text[]))',
      [scope, targetId, ids === undefined ? null : [...ids]],
    );
    return result.rowCount ?? 0;
  }

  async recordShown(scope: string, shown: readonly ShownRecord[]): Promise<void> {
    if (shown.length === 0) return;
    const list = shown.map((s) => ({ ...this.#policy.scrub(s), session: s.session }));
    const insert = (on: Queryable) =>
      on.query(
        `INSERT INTO shown (scope, id, surface, target, query, at, confidence, outcome, outcome_at, session,
           verdict, verdict_at)
         SELECT $1, u.*,
           CASE WHEN outcome IN ('accepted', 'rejected') THEN outcome END,
           CASE WHEN outcome IN ('accepted', 'rejected') THEN outcome_at END
         FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::float8[], $7::float8[], $8::text[],
           $9::float8[], $10::text[]) AS u (id, surface, target, query, at, confidence, outcome, outcome_at, session)
         WHERE u.session IS NULL OR NOT EXISTS (
           SELECT 1 FROM forgotten f WHERE f.scope = $1 AND f.kind = 'session' AND f.name = u.session)
         ON CONFLICT (scope, id) DO NOTHING`,
        [
          scope,
          list.map((s) => s.id),
          list.map((s) => s.surface),
          list.map((s) => s.target),
          list.map((s) => s.query ?? null),
          list.map((s) => s.at),
          list.map((s) => s.confidence ?? null),
          list.map((s) => s.outcome ?? null),
          list.map((s) => (s.outcome === undefined ? null : (s.outcomeAt ?? s.at))),
          list.map((s) => s.session ?? null),
        ],
      );
    if (list.every((s) => s.session === undefined)) {
      await insert(this.#pool);
      return;
    }
    // A session's rows: the scope's session lock, shared (recordForgottenSession takes it alone), then the insert in
    // a statement of its own, which sees a tombstone committed while it waited; a forget's update after its
    // tombstone sees these rows.
    await this.#tx(async (c) => {
      await c.query('SELECT pg_advisory_xact_lock_shared(hashtext($1))', [`credence:sessions:${scope}`]);
      await insert(c);
    });
  }

  async forgetShownQueries(
    scope: string,
    sessions: readonly string[],
    prompts: readonly TurnPromptSpan[],
  ): Promise<number> {
    const wanted = prompts.filter((p) => p.intent !== '');
    return this.#tx(async (c) => {
      let cleared = 0;
      if (sessions.length > 0)
        cleared +=
          (
            await c.query(
              'UPDATE shown SET query = NULL WHERE scope = $1 AND query IS NOT NULL AND session = ANY($2::text[])',
              [scope, [...sessions]],
            )
          ).rowCount ?? 0;
      if (wanted.length === 0) return cleared;
      // Rows recorded before they held their session: a turn's intent, shown within the time of that turn's prompt.
      const rows = await this.#rows(
        "SELECT id, query, at FROM shown WHERE scope = $1 AND surface = 'recall' AND session IS NULL " +
          'AND query IS NOT NULL AND at BETWEEN $2 AND $3',
        [scope, Math.min(...wanted.map((p) => p.from)), Math.max(...wanted.map((p) => p.to))],
        c,
      );
      const ids = rows.filter((r) => promptOfTurn(wanted, String(r.query), Number(r.at))).map((r) => String(r.id));
      if (ids.length > 0)
        cleared +=
          (await c.query('UPDATE shown SET query = NULL WHERE scope = $1 AND id = ANY($2::text[])', [scope, ids]))
            .rowCount ?? 0;
      return cleared;
    });
  }

  async getShown(scope: string, id: string): Promise<ShownRecord | undefined> {
    const r = (await this.#rows('SELECT * FROM shown WHERE scope = $1 AND id = $2', [scope, id]))[0];
    return r === undefined ? undefined : toShown(r);
  }

  async setVerdict(scope: string, id: string, verdict: 'accepted' | 'rejected', at: number): Promise<boolean> {
    const result = await this.#pool.query(
      'UPDATE shown SET verdict = $3, verdict_at = $4, outcome = $3, outcome_at = $4 WHERE scope = $1 AND id = $2',
      [scope, id, verdict, at],
    );
    return (result.rowCount ?? 0) > 0;
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
    const result = await this.#pool.query(
      `UPDATE shown SET
         outcome = CASE WHEN $5::boolean AND verdict IS NOT NULL THEN outcome ELSE $3 END,
         outcome_at = CASE WHEN $5::boolean AND verdict IS NOT NULL THEN outcome_at ELSE $4 END,
         verdict = CASE WHEN verdict IS NULL AND $3 IN ('accepted', 'rejected') THEN $3 ELSE verdict END,
         verdict_at = CASE WHEN verdict IS NULL AND $3 IN ('accepted', 'rejected') THEN $4 ELSE verdict_at END
       WHERE scope = $1 AND id = $2`,
      [scope, id, outcome, at, options.inferred === true],
    );
    return (result.rowCount ?? 0) > 0;
  }

  async listOutcomes(scope: string, options: OutcomeQuery = {}): Promise<OutcomeRecord[]> {
    const rows = await this.#rows(
      `SELECT * FROM (
         SELECT id, surface, target, confidence, outcome, at, outcome_at FROM shown
         WHERE scope = $1 AND outcome IS NOT NULL AND confidence IS NOT NULL
           AND ${options.kind === undefined ? '$2::text IS NULL' : 'surface = $2'}
           AND ($3::float8 IS NULL OR outcome_at >= $3)
           AND ($5::float8 IS NULL OR (outcome_at <= $5 AND at <= $5))
         ORDER BY outcome_at DESC, id DESC LIMIT $4
       ) latest ORDER BY outcome_at, id`,
      [scope, options.kind ?? null, options.since ?? null, options.limit ?? null, options.until ?? null],
    );
    return rows.map(toOutcome);
  }

  async outcomeBins(scope: string, options: { at: EpochMs; bins: number }): Promise<OutcomeBin[]> {
    const rows = await this.#rows(
      `SELECT surface, LEAST($3::int - 1, floor(confidence * $3::int)::int) AS bin, outcome, count(*) AS n,
         sum(confidence) AS sum_confidence, sum(confidence * confidence) AS sum_squares
       FROM shown
       WHERE scope = $1 AND outcome IS NOT NULL AND confidence IS NOT NULL AND outcome_at <= $2 AND at <= $2
       GROUP BY surface, outcome, bin ORDER BY surface, bin, outcome`,
      [scope, options.at, options.bins],
    );
    return rows.map(toOutcomeBin);
  }

  async shownCounts(scope: string): Promise<{ surface: Surface; shown: number; accepted: number; rejected: number }[]> {
    const rows = await this.#rows(
      `SELECT surface, count(*) AS shown, count(*) FILTER (WHERE verdict = 'accepted') AS accepted, ` +
        `count(*) FILTER (WHERE verdict = 'rejected') AS rejected
       FROM shown WHERE scope = $1 AND surface IN ('search', 'next', 'dag', 'recall')
       GROUP BY surface ORDER BY surface`,
      [scope],
    );
    return rows.map((r) => ({
      surface: r.surface as Surface,
      shown: Number(r.shown),
      accepted: Number(r.accepted),
      rejected: Number(r.rejected),
    }));
  }

  // ---- aggregates (the dashboard) ------------------------------------------------------------

  async activityByDay(scope: string, window: { now: EpochMs; days: number }): Promise<DailyActivity> {
    const { now, after, today } = activityWindow(window);
    // A UTC calendar day: today's day number less the row's.
    const runs = await this.#rows(
      `SELECT $4::bigint - floor(e.started_at / 86400000.0)::bigint AS back, count(*) AS executions,
         sum((SELECT count(*) FROM calls c WHERE c.scope = e.scope AND c.execution_id = e.id)) AS calls
       FROM executions e WHERE e.scope = $1 AND e.started_at <= $2 AND e.started_at > $3
       GROUP BY back`,
      [scope, now, after, today],
    );
    const observed = await this.#rows(
      `SELECT $4::bigint - floor(timestamp / 86400000.0)::bigint AS back, count(*) AS observations
       FROM observations WHERE scope = $1 AND timestamp <= $2 AND timestamp > $3
       GROUP BY back`,
      [scope, now, after, today],
    );
    return dailyActivityOf(window.days, [...runs, ...observed] as unknown as DayRow[]);
  }

  async observationTypeCounts(scope: string): Promise<Partial<Record<ObservationRecord['type'], number>>> {
    const rows = await this.#rows('SELECT type, count(*) AS n FROM observations WHERE scope = $1 GROUP BY type', [
      scope,
    ]);
    return Object.fromEntries(rows.map((r) => [String(r.type), Number(r.n)]));
  }

  async deleteObservation(scope: string, id: string): Promise<boolean> {
    return this.#tx(async (c) => {
      const result = await c.query('DELETE FROM observations WHERE scope = $1 AND id = $2', [scope, id]);
      await c.query(`DELETE FROM embeddings WHERE scope = $1 AND kind = 'observation' AND ref_id = $2`, [scope, id]);
      return (result.rowCount ?? 0) > 0;
    });
  }

  async deleteObservations(scope: string, ids: readonly string[]): Promise<number> {
    if (ids.length === 0) return 0;
    const unique = [...new Set(ids)];
    return this.#tx(async (c) => {
      const result = await c.query('DELETE FROM observations WHERE scope = $1 AND id = ANY($2::text[])', [
        scope,
        unique,
      ]);
      await c.query(`DELETE FROM embeddings WHERE scope = $1 AND kind = 'observation' AND ref_id = ANY($2::text[])`, [
        scope,
        unique,
      ]);
      return result.rowCount ?? 0;
    });
  }

  async deleteInstinct(scope: string, id: string): Promise<boolean> {
    return (
      ((await this.#pool.query('DELETE FROM instincts WHERE scope = $1 AND id = $2', [scope, id])).rowCount ?? 0) > 0
    );
  }

  async deleteMemory(scope: string, id: string): Promise<boolean> {
    return this.#tx(async (c) => {
      const result = await c.query('DELETE FROM memories WHERE scope = $1 AND id = $2', [scope, id]);
      await c.query(`DELETE FROM embeddings WHERE scope = $1 AND kind = 'memory' AND ref_id = $2`, [scope, id]);
      return (result.rowCount ?? 0) > 0;
    });
  }

  async deleteExecutions(
    scope: string,
    ids: readonly string[],
    options: { workflow?: WorkflowOf; unlearn?: EdgeUnlearn } = {},
  ): Promise<string[]> {
    if (ids.length === 0) return [];
    const list = [...new Set(ids)];
    return this.#tx(async (c) => {
      // The runs are locked first: a concurrent forget of one of them finds it gone, and takes nothing back twice.
      const held = await this.#rows(
        'SELECT * FROM executions WHERE scope = $1 AND id = ANY($2::text[]) ORDER BY started_at, rowid FOR UPDATE',
        [scope, list],
        c,
      );
      if (held.length === 0) return [];
      const callRows = await this.#rows(
        'SELECT * FROM calls WHERE scope = $1 AND execution_id = ANY($2::text[]) ORDER BY execution_id, idx',
        [scope, held.map((r) => r.id)],
        c,
      );
      const calls = callsByExecution(callRows);
      const deleted = held.map((row) => toExecution(row, calls.get(String(row.id)) ?? []));
      // The calls go by the foreign key's cascade; the full text is a column of the row.
      await c.query('DELETE FROM executions WHERE scope = $1 AND id = ANY($2::text[])', [scope, list]);
      await c.query(`DELETE FROM embeddings WHERE scope = $1 AND kind = 'execution' AND ref_id = ANY($2::text[])`, [
        scope,
        list,
      ]);
      const intents = new Set(deleted.map((e) => e.intent));
      // An intent another run still has stays (runs are not linked to workflows: any run of the scope counts).
      const still = await c.query(
        'SELECT DISTINCT intent FROM executions WHERE scope = $1 AND intent = ANY($2::text[])',
        [scope, [...intents]],
      );
      for (const r of still.rows) intents.delete(String(r.intent));
      // What the runs taught is taken back, computed from the runs left, under the locks recording takes and in its
      // order (edges, workflows, tools), all taken before the runs left are read: a run recorded meanwhile into one
      // of them waits, then folds into what this wrote.
      const forgotten =
        options.unlearn === undefined
          ? new Map<string, ExecutionEdgeEvent[]>()
          : unlearnedEdges(deleted, options.unlearn);
      const edges = await this.#lockEdges(
        c,
        scope,
        [...forgotten.values()].map((events) => events[0] as ExecutionEdgeEvent),
      );
      const merged = new Set(
        options.workflow === undefined
          ? []
          : workflowsOf(
              deleted.map((execution) => ({ execution })),
              options.workflow,
            ).map((m) => m.id),
      );
      const workflows = await this.#rows(
        'SELECT id, intents FROM workflows WHERE scope = $1 ORDER BY id FOR UPDATE',
        [scope],
        c,
      );
      const remaining = edges.length > 0 || merged.size > 0 ? await this.#listExecutions(scope, undefined, c) : [];
      if (options.unlearn !== undefined && edges.length > 0)
        await this.#unlearnEdges(c, scope, edges, forgotten, remaining, options.unlearn);
      for (const w of workflows) {
        const before = parse<string[]>(w.intents, []);
        const after = before.filter((i) => !intents.has(i));
        if (after.length !== before.length)
          await c.query('UPDATE workflows SET intents = $1 WHERE scope = $2 AND id = $3', [json(after), scope, w.id]);
      }
      if (options.workflow !== undefined && merged.size > 0) {
        const rebuilt = workflowsAfterDelete(deleted, () => remaining, options.workflow);
        await c.query('DELETE FROM workflows WHERE scope = $1 AND id = ANY($2::text[])', [scope, rebuilt.ids]);
        await this.#mergeWorkflows(c, scope, rebuilt.merges);
      }
      // Their calls come off their tools' call counts (`credence status`, the graph's central tools), in id order.
      const perTool = callsPerTool(deleted.flatMap((e) => e.calls));
      const tools = [...perTool.keys()].sort(byCodePoint);
      await c.query(
        `UPDATE tools t SET calls = GREATEST(0, t.calls - v.n)
         FROM unnest($2::text[], $3::bigint[]) AS v(id, n) WHERE t.scope = $1 AND t.id = v.id`,
        [scope, tools, tools.map((t) => perTool.get(t))],
      );
      return deleted.map((e) => e.id).sort(byCodePoint);
    });
  }

  /** Locks the stored edges of these keys, in key order (as recording locks them). */
  async #lockEdges(
    c: pg.PoolClient,
    scope: string,
    keys: readonly { from: string; to: string; type: string }[],
  ): Promise<EdgeRecord[]> {
    if (keys.length === 0) return [];
    const rows = await this.#rows(
      `SELECT e.* FROM edges e JOIN unnest($2::text[], $3::text[], $4::text[]) AS v(type, from_tool, to_tool)
         ON e.scope = $1 AND e.type = v.type AND e.from_tool = v.from_tool AND e.to_tool = v.to_tool
       ORDER BY e.type, e.from_tool, e.to_tool FOR UPDATE OF e`,
      [scope, keys.map((k) => k.type), keys.map((k) => k.from), keys.map((k) => k.to)],
      c,
    );
    return rows.map(toEdge);
  }

  /** Takes deleted executions' edge events back out of their (locked) edges (store/types EdgeUnlearn). */
  async #unlearnEdges(
    c: pg.PoolClient,
    scope: string,
    edges: readonly EdgeRecord[],
    forgotten: ReadonlyMap<string, readonly ExecutionEdgeEvent[]>,
    remaining: readonly ExecutionRecord[],
    unlearn: EdgeUnlearn,
  ): Promise<void> {
    let left: Map<string, ExecutionEdgeEvent[]> | undefined;
    const eventsOf = (key: string): ExecutionEdgeEvent[] =>
      (left ??= eventsLeft(remaining, new Set(forgotten.keys()), unlearn)).get(key) ?? [];
    const kept: EdgeRecord[] = [];
    const gone: EdgeRecord[] = [];
    const ends = new Set<string>();
    for (const edge of edges) {
      const key = edgeKey(edge);
      const next = unlearn.unfold(edge, forgotten.get(key) ?? [], () => eventsOf(key));
      if (next === undefined) gone.push(edge);
      else kept.push(next);
      ends.add(edge.from).add(edge.to);
    }
    if (gone.length > 0)
      await c.query(
        `DELETE FROM edges e USING unnest($2::text[], $3::text[], $4::text[]) AS v(type, from_tool, to_tool)
         WHERE e.scope = $1 AND e.type = v.type AND e.from_tool = v.from_tool AND e.to_tool = v.to_tool`,
        [scope, gone.map((e) => e.type), gone.map((e) => e.from), gone.map((e) => e.to)],
      );
    await this.#updateEdges(c, scope, kept);
    // The edges' ends are logged as tool changes, as putEdge logs them: a graph snapshot reads them again.
    await c.query(
      `INSERT INTO changes (scope, kind, id, seq, deleted)
       SELECT $1, 'tool', t.id, r.revision, false FROM unnest($2::text[]) AS t(id), revisions r WHERE r.scope = $1
       ON CONFLICT (scope, kind, id) DO UPDATE SET seq = excluded.seq`,
      [scope, [...ends].sort(byCodePoint)],
    );
  }

  async deleteSkill(scope: string, id: string): Promise<boolean> {
    return ((await this.#pool.query('DELETE FROM skills WHERE scope = $1 AND id = $2', [scope, id])).rowCount ?? 0) > 0;
  }

  // ---- hook queue ----------------------------------------------------------------------------

  /** Serialises the queue work of one scope (enqueue, claim, release, done) across every process. */
  async #lockHookQueue(c: pg.PoolClient, scope: string): Promise<void> {
    await c.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`credence:hooks:${scope}`]);
  }

  async enqueueHookEvents(
    scope: string,
    events: readonly (Omit<HookEvent, 'seq' | 'turn'> & { turn: number | 'current' | 'next' })[],
  ): Promise<number[]> {
    return this.#tx(async (c) => {
      await this.#lockHookQueue(c, scope);
      const turns: number[] = [];
      for (const e of events) {
        // Queued before (under the same key): not again, and no second turn for it.
        const before =
          e.key === undefined
            ? undefined
            : (await this.#rows('SELECT turn FROM hook_events WHERE key = $1', [e.key], c))[0];
        if (before !== undefined) {
          turns.push(Number(before.turn));
          continue;
        }
        const turn =
          e.turn === 'next'
            ? await this.#nextTurn(c, scope, e.session, e.at)
            : e.turn === 'current'
              ? Number(
                  (
                    await this.#rows(
                      'SELECT turn FROM hook_sessions WHERE scope = $1 AND session_id = $2',
                      [scope, e.session],
                      c,
                    )
                  )[0]?.turn ?? 0,
                )
              : e.turn;
        await c.query(
          'INSERT INTO hook_events (scope, session_id, turn, kind, at, payload, key) ' +
            'VALUES ($1, $2, $3, $4, $5, $6, $7)',
          [
            scope,
            e.session,
            turn,
            e.kind,
            e.at,
            json(this.#policy.scrub({ payload: e.payload }).payload),
            e.key ?? null,
          ],
        );
        turns.push(turn);
      }
      return turns;
    });
  }

  async #nextTurn(c: Queryable, scope: string, session: string, at: number): Promise<number> {
    const row = (
      await this.#rows(
        `INSERT INTO hook_sessions (scope, session_id, turn, updated_at) VALUES ($1, $2, 1, $3)
         ON CONFLICT (scope, session_id) DO UPDATE SET turn = hook_sessions.turn + 1, updated_at = excluded.updated_at
         RETURNING turn`,
        [scope, session, at],
        c,
      )
    )[0] as Row;
    return Number(row.turn);
  }

  async claimHookEvents(scope: string, claimer: string, staleBefore: number, session?: string): Promise<HookEvent[]> {
    const rows = await this.#tx(async (c) => {
      await this.#lockHookQueue(c, scope);
      return this.#rows(
        `UPDATE hook_events SET claimed_by = $2, claimed_at = $3
         WHERE scope = $1 AND ($4::text IS NULL OR session_id = $4) AND done_at IS NULL
           AND (claimed_by IS NULL OR claimed_at < $5)
           AND session_id NOT IN (
             SELECT session_id FROM hook_events
             WHERE scope = $1 AND done_at IS NULL AND claimed_by IS NOT NULL AND claimed_by <> $2 AND claimed_at >= $5)
         RETURNING seq, session_id, turn, kind, at, payload`,
        [scope, claimer, Date.now(), session ?? null, staleBefore],
        c,
      );
    });
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
    if (seqs.length === 0) return;
    await this.#tx(async (c) => {
      await this.#lockHookQueue(c, scope);
      await c.query(
        'UPDATE hook_events SET claimed_by = NULL, claimed_at = NULL ' +
          'WHERE scope = $1 AND seq = ANY($2::bigint[]) AND done_at IS NULL',
        [scope, [...seqs]],
      );
    });
  }

  async deleteHookEvents(scope: string, seqs: readonly number[]): Promise<void> {
    if (seqs.length === 0) return;
    await this.#tx((c) => this.#markHookEventsDone(c, scope, seqs));
  }

  async hasQueuedHookEvents(scope: string): Promise<boolean> {
    const queued = await this.#rows('SELECT 1 FROM hook_events WHERE scope = $1 AND done_at IS NULL LIMIT 1', [scope]);
    return queued.length > 0;
  }

  /** Learned: out of the queue, payload dropped, key kept `hookKeyRetentionMs` (a week; then the row goes). */
  async #markHookEventsDone(c: pg.PoolClient, scope: string, seqs: readonly number[]): Promise<void> {
    if (seqs.length === 0) return;
    await this.#lockHookQueue(c, scope);
    const now = Date.now();
    await c.query(
      `UPDATE hook_events SET done_at = $3, payload = 'null', claimed_by = NULL, claimed_at = NULL ` +
        `WHERE scope = $1 AND seq = ANY($2::bigint[])`,
      [scope, [...seqs], now],
    );
    await c.query('DELETE FROM hook_events WHERE done_at < $1', [now - this.#policy.hookKeyRetentionMs]);
  }

  async hookSession(scope: string, session: string): Promise<{ turn: number; state: Record<string, unknown> }> {
    const row = (
      await this.#rows('SELECT turn, state FROM hook_sessions WHERE scope = $1 AND session_id = $2', [scope, session])
    )[0];
    return row === undefined
      ? { turn: 0, state: {} }
      : { turn: Number(row.turn), state: parse<Record<string, unknown>>(row.state, {}) };
  }

  async startHookTurn(scope: string, session: string, at: number): Promise<number> {
    return this.#nextTurn(this.#pool, scope, session, at);
  }

  async setHookSessionState(scope: string, session: string, state: Record<string, unknown>, at: number): Promise<void> {
    await this.#pool.query(
      `INSERT INTO hook_sessions (scope, session_id, turn, state, updated_at) VALUES ($1, $2, 0, $3, $4)
       ON CONFLICT (scope, session_id) DO UPDATE SET state = excluded.state, updated_at = excluded.updated_at`,
      [scope, session, json(state), at],
    );
  }

  async forgetHookSession(scope: string, session: string): Promise<boolean> {
    return this.#tx(async (c) => {
      const state = await c.query('DELETE FROM hook_sessions WHERE scope = $1 AND session_id = $2', [scope, session]);
      const events = await c.query(
        `UPDATE hook_events SET done_at = coalesce(done_at, $3), payload = 'null', claimed_by = NULL, ` +
          'claimed_at = NULL WHERE scope = $1 AND session_id = $2',
        [scope, session, Date.now()],
      );
      return (state.rowCount ?? 0) + (events.rowCount ?? 0) > 0;
    });
  }

  async recordForgottenSession(scope: string, session: string, at: number): Promise<void> {
    await this.#tx(async (c) => {
      // Alone on the scope's session lock: a recordShown of the session's rows in flight commits first (recordShown).
      await c.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`credence:sessions:${scope}`]);
      await c.query(
        `INSERT INTO forgotten (scope, id, kind, name, at) VALUES ($1, $2, 'session', $3, $4)
         ON CONFLICT (scope, id) DO UPDATE SET kind = excluded.kind, name = excluded.name, at = excluded.at`,
        [scope, sessionTombstoneId(session), session, at],
      );
    });
  }

  async forgottenSessions(scope: string, sessions: readonly string[]): Promise<string[]> {
    if (sessions.length === 0) return [];
    const rows = await this.#rows(
      `SELECT name FROM forgotten WHERE scope = $1 AND kind = 'session' AND name = ANY($2::text[]) ORDER BY name`,
      [scope, [...sessions]],
    );
    return rows.map((r) => String(r.name));
  }

  async hookSessionsStartingWith(scope: string, prefix: string): Promise<string[]> {
    const rows = await this.#rows(
      'SELECT session_id FROM hook_sessions WHERE scope = $1 AND left(session_id, char_length($2)) = $2',
      [scope, prefix],
    );
    return rows.map((r) => String(r.session_id)).sort();
  }

  // ---- fits measured on replays (migration 9) --------------------------------------------------

  async getFit(scope: string, name: string): Promise<StoredFit | undefined> {
    const row = (await this.#rows('SELECT * FROM fits WHERE scope = $1 AND name = $2', [scope, name]))[0];
    return row === undefined ? undefined : toFit(row);
  }

  async putFit(scope: string, fit: StoredFit): Promise<void> {
    await this.#pool.query(
      `INSERT INTO fits (scope, name, runs, tools, revision, value, fitted_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (scope, name) DO UPDATE SET runs = excluded.runs, tools = excluded.tools,
         revision = excluded.revision, value = excluded.value, fitted_at = excluded.fitted_at`,
      [scope, fit.name, fit.runs, fit.tools, fit.revision, fit.value, fit.fittedAt],
    );
  }

  // ---- derived blobs: past runs (migration 11), graph snapshot (migration 12) ----------------

  async readPastRuns(scope: string): Promise<{ revision: number; data: Uint8Array } | undefined> {
    return this.#readBlob('past_runs', scope);
  }

  async writePastRuns(scope: string, revision: number, data: Uint8Array): Promise<boolean> {
    return this.#writeBlob('past_runs', scope, revision, data);
  }

  async openPastRuns(scope: string): Promise<PastRunsReader | undefined> {
    // Read whole (the server sends it so): the reader keeps the bytes it read, so they stay intact.
    const stored = await this.#readBlob('past_runs', scope);
    if (stored === undefined) return undefined;
    const { revision, data } = stored;
    return {
      revision,
      size: data.byteLength,
      read: (offset, length) => data.subarray(offset, offset + length),
      intact: () => true,
    };
  }

  async readGraphSnapshot(
    scope: string,
    options: { bytes?: number } = {},
  ): Promise<{ revision: number; data: Uint8Array } | undefined> {
    if (options.bytes === undefined) return this.#readBlob('graph_snapshots', scope);
    const [row] = await this.#rows(
      'SELECT revision, substring(data FROM 1 FOR $2) AS data FROM graph_snapshots WHERE scope = $1',
      [scope, Math.max(0, Math.floor(options.bytes))],
    );
    return row === undefined ? undefined : { revision: Number(row.revision), data: row.data as Uint8Array };
  }

  async writeGraphSnapshot(scope: string, revision: number, data: Uint8Array): Promise<boolean> {
    return this.#writeBlob('graph_snapshots', scope, revision, data);
  }

  async #readBlob(table: 'past_runs' | 'graph_snapshots', scope: string) {
    const row = (await this.#rows(`SELECT revision, data FROM ${table} WHERE scope = $1`, [scope]))[0];
    return row === undefined ? undefined : { revision: Number(row.revision), data: row.data as Uint8Array };
  }

  /** Keeps `data` at `revision` unless the stored one is at a later revision; whether it was written. */
  async #writeBlob(table: 'past_runs' | 'graph_snapshots', scope: string, revision: number, data: Uint8Array) {
    const result = await this.#pool.query(
      `INSERT INTO ${table} (scope, revision, data) VALUES ($1, $2, $3)
       ON CONFLICT (scope) DO UPDATE SET revision = excluded.revision, data = excluded.data
       WHERE ${table}.revision <= excluded.revision`,
      [scope, revision, Buffer.from(data.buffer, data.byteOffset, data.byteLength)],
    );
    return (result.rowCount ?? 0) > 0;
  }

  // ---- dump and restore ----------------------------------------------------------------------

  exportRows(table: DumpTable, options: { batchSize?: number } = {}): AsyncIterable<DumpRow[]> {
    return exportPgRows(this.#pool, table, options);
  }

  async importRows(table: DumpTable, rows: readonly DumpRow[]): Promise<number> {
    this.#calls.clear();
    return this.#tx((c) => importPgRows(c, table, rows, this.#policy.scrub));
  }

  // ---- revisions, the change log and persisted vector matrices (migration 8) ----------------

  async revision(scope: string): Promise<number> {
    const [row] = await this.#rows('SELECT revision FROM revisions WHERE scope = $1', [scope]);
    return row === undefined ? 0 : Number(row.revision);
  }

  async countEdges(scope: string): Promise<number> {
    // As counted on write (migration 13), without reading the edges' index.
    const [row] = await this.#rows("SELECT n FROM table_counts WHERE scope = $1 AND name = 'edges'", [scope]);
    return Number(row?.n ?? 0);
  }

  async revisions(): Promise<Map<string, number>> {
    const rows = await this.#rows('SELECT scope, revision FROM revisions');
    return new Map(rows.map((r) => [String(r.scope), Number(r.revision)]));
  }

  async fullTextRows(table: FullTextTable, after: number, limit: number): Promise<FullTextRow[]> {
    const rows = await this.#rows(
      `SELECT rowid, scope, id, ${FTS_COLUMNS[table].join(', ')} FROM ${table}
       WHERE rowid > $1 ORDER BY rowid LIMIT $2`,
      [after, limit],
    );
    return rows.map((r) => ({
      rowid: Number(r.rowid),
      scope: String(r.scope),
      id: String(r.id),
      columns: ftsTexts(table, r),
    }));
  }

  async fullTextRowsByIds(table: FullTextTable, scope: string, ids: readonly string[]): Promise<FullTextRow[]> {
    return (await this.#byIds(table, scope, ids)).map((r) => ({
      rowid: Number(r.rowid),
      scope: String(r.scope),
      id: String(r.id),
      columns: ftsTexts(table, r),
    }));
  }

  async fullTextLogs(values: readonly number[]): Promise<number[]> {
    // This store's bm25 is the JavaScript replica (core/text/fts5): its logarithm is Math.log.
    return values.map((x) => Math.log(x));
  }

  async changedSince(scope: string, kind: EmbeddingKind, since: number): Promise<ChangeSet> {
    // One statement, one snapshot: the revision and the log agree.
    const rows = await this.#rows(
      `WITH r AS (SELECT COALESCE((SELECT revision FROM revisions WHERE scope = $1), 0) AS revision)
       SELECT r.revision, c.id, c.deleted FROM r
       LEFT JOIN changes c ON c.scope = $1 AND c.kind = $2 AND c.seq > $3 AND c.seq <= r.revision
       ORDER BY c.seq, c.id`,
      [scope, kind, since],
    );
    const changed: string[] = [];
    const removed: string[] = [];
    for (const r of rows) if (r.id != null) (r.deleted === true ? removed : changed).push(String(r.id));
    return { revision: Number(rows[0]?.revision ?? 0), changed, removed };
  }

  /** Rows of `table` by id, in the order of the (deduplicated) ids, in one statement. */
  async #byIds(table: string, scope: string, ids: readonly string[]): Promise<Row[]> {
    if (ids.length === 0) return [];
    return this.#rows(
      `SELECT t.* FROM unnest($2::text[]) WITH ORDINALITY AS j (id, n) JOIN ${table} t ON t.scope = $1 AND t.id = j.id
       ORDER BY j.n`,
      [scope, [...new Set(ids)]],
    );
  }

  async getMemoriesByIds(scope: string, ids: readonly string[]): Promise<MemoryRecord[]> {
    return (await this.#byIds('memories', scope, ids)).map(toMemory);
  }

  async highestIdNumber(scope: string, prefix: string): Promise<number | undefined> {
    if (prefix === '') throw new CredenceError('INVALID_INPUT', 'highestIdNumber: the id prefix is empty');
    const rows = await this.#rows(
      'SELECT MAX(substr(id, $2)::bigint) AS n FROM memories WHERE scope = $1 AND starts_with(id, $3) ' +
        "AND substr(id, $2) ~ '^[0-9]{1,15}$'",
      [scope, prefix.length + 1, prefix],
    );
    const n = rows[0]?.n;
    return n === null || n === undefined ? undefined : Number(n);
  }

  async getObservationsByIds(scope: string, ids: readonly string[]): Promise<ObservationRecord[]> {
    return (await this.#byIds('observations', scope, ids)).map(toObservation);
  }

  async getToolsByIds(scope: string, ids: readonly string[]): Promise<ToolRecord[]> {
    return (await this.#byIds('tools', scope, ids)).map(toTool);
  }

  async getExecutionsByIds(
    scope: string,
    ids: readonly string[],
    options: { calls?: boolean } = {},
  ): Promise<ExecutionRecord[]> {
    const rows = await this.#byIds('executions', scope, ids);
    if (options.calls === false || rows.length === 0) return rows.map((r) => toExecution(r, []));
    const callRows = await this.#rows(
      'SELECT * FROM calls WHERE scope = $1 AND execution_id = ANY($2::text[]) ORDER BY execution_id, idx',
      [scope, rows.map((r) => String(r.id))],
    );
    const calls = callsByExecution(callRows);
    return rows.map((r) => toExecution(r, calls.get(String(r.id)) ?? []));
  }

  async getEmbeddingsFor(scope: string, kind: EmbeddingKind, refIds: readonly string[]): Promise<StoredEmbedding[]> {
    if (refIds.length === 0) return [];
    const rows = await this.#rows(
      `SELECT e.ref_id, e.model_key, e.text_hash, e.vector FROM unnest($3::text[]) WITH ORDINALITY AS j (id, n)
       JOIN embeddings e ON e.scope = $1 AND e.kind = $2 AND e.ref_id = j.id ORDER BY j.n`,
      [scope, kind, [...new Set(refIds)]],
    );
    return rows.map(toEmbedding);
  }

  async readVectorIndex(
    scope: string,
    name: string,
    options: { floats?: boolean } = {},
  ): Promise<{ header: VectorIndexHeader; chunks: VectorChunk[] } | undefined> {
    return this.#tx(async (c) => {
      await c.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
      const [h] = await this.#rows('SELECT * FROM vector_index WHERE scope = $1 AND name = $2', [scope, name], c);
      if (h === undefined) return undefined;
      const header: VectorIndexHeader = {
        ...splitModelKey(String(h.model_key)),
        revision: Number(h.revision),
        dim: Number(h.dim),
        rows: Number(h.rows),
        chunks: Number(h.chunks),
      };
      // Without floats: the int8 copies alone, rows of their own (the floats' rows are not read).
      if (options.floats === false) {
        const codes = await this.#rows(
          'SELECT chunk, ids, data FROM vector_chunks WHERE scope = $1 AND name = $2 AND chunk < $3 ORDER BY chunk',
          [scope, codesName(name), header.chunks],
          c,
        );
        return { header, chunks: codes.map(toCodesChunk) };
      }
      const chunks = (
        await this.#rows(
          'SELECT chunk, ids, hashes, data FROM vector_chunks WHERE scope = $1 AND name = $2 AND chunk < $3 ' +
            'ORDER BY chunk',
          [scope, name, header.chunks],
          c,
        )
      ).map(pgVectorChunk);
      return { header, chunks };
    });
  }

  async readVectorChunks(
    scope: string,
    name: string,
    read: { chunks: readonly number[]; expect: { revision: number; generation: string } },
  ): Promise<VectorChunk[] | undefined> {
    return this.#tx(async (c) => {
      await c.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
      const [h] = await this.#rows(
        'SELECT revision, model_key FROM vector_index WHERE scope = $1 AND name = $2',
        [scope, name],
        c,
      );
      const stored = h === undefined ? null : { revision: Number(h.revision), ...splitModelKey(String(h.model_key)) };
      if (stored === null || !sameVectorHeader(stored, read.expect)) return undefined;
      return (
        await this.#rows(
          'SELECT chunk, ids, hashes, data FROM vector_chunks WHERE scope = $1 AND name = $2 AND chunk = ANY($3) ' +
            'ORDER BY chunk',
          [scope, name, [...new Set(read.chunks)]],
          c,
        )
      ).map(pgVectorChunk);
    });
  }

  async writeVectorChunks(
    scope: string,
    name: string,
    write: {
      expect: { revision: number; generation: string } | null;
      header: VectorIndexHeader;
      chunks: readonly VectorChunk[];
    },
  ): Promise<boolean> {
    const { header } = write;
    return this.#tx(async (c) => {
      // The header row is locked (or, when missing, the insert below conflicts) until commit: one writer at a time.
      const [now] = await this.#rows(
        'SELECT revision, model_key FROM vector_index WHERE scope = $1 AND name = $2 FOR UPDATE',
        [scope, name],
        c,
      );
      const stored =
        now === undefined ? null : { revision: Number(now.revision), ...splitModelKey(String(now.model_key)) };
      if (!sameVectorHeader(stored, write.expect)) return false;
      const wrote = await c.query(
        `INSERT INTO vector_index (scope, name, model_key, revision, dim, rows, chunks)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (scope, name) DO UPDATE SET model_key = excluded.model_key, revision = excluded.revision,
           dim = excluded.dim, rows = excluded.rows, chunks = excluded.chunks
         WHERE $8::boolean`,
        [
          scope,
          name,
          `${header.modelKey}\n${header.generation}`,
          header.revision,
          header.dim,
          header.rows,
          header.chunks,
          write.expect !== null,
        ],
      );
      // None stored when read, one stored since (a concurrent first writer): theirs stays.
      if (wrote.rowCount === 0) return false;
      const put = (n: string, chunk: number, ids: string, hashes: string, data: Float32Array | Uint8Array) =>
        c.query(
          `INSERT INTO vector_chunks (scope, name, chunk, ids, hashes, data) VALUES ($1, $2, $3, $4, $5, $6)
           ON CONFLICT (scope, name, chunk) DO UPDATE SET ids = excluded.ids, hashes = excluded.hashes,
             data = excluded.data`,
          [scope, n, chunk, ids, hashes, Buffer.from(data.buffer, data.byteOffset, data.byteLength)],
        );
      for (const chunk of write.chunks) {
        await put(name, chunk.chunk, JSON.stringify(chunk.ids), JSON.stringify(chunk.hashes), chunk.data);
        // The int8 copy of the rows just written, or none (an older copy would no longer match them).
        if (chunk.codes !== undefined) await put(codesName(name), chunk.chunk, chunk.codeKeys ?? '', '[]', chunk.codes);
        else
          await c.query('DELETE FROM vector_chunks WHERE scope = $1 AND name = $2 AND chunk = $3', [
            scope,
            codesName(name),
            chunk.chunk,
          ]);
      }
      await c.query('DELETE FROM vector_chunks WHERE scope = $1 AND name IN ($2, $3) AND chunk >= $4', [
        scope,
        name,
        codesName(name),
        header.chunks,
      ]);
      return true;
    });
  }

  async deleteVectorIndex(scope: string, name?: string): Promise<void> {
    await this.#tx(async (c) => {
      for (const table of ['vector_index', 'vector_chunks'])
        await c.query(`DELETE FROM ${table} WHERE scope = $1 AND ($2::text IS NULL OR name IN ($2, $3))`, [
          scope,
          name ?? null,
          name === undefined ? null : codesName(name),
        ]);
    });
  }
}

/** A chunk as read, with its floats. */
function pgVectorChunk(r: Record<string, unknown>): VectorChunk {
  return {
    chunk: Number(r.chunk),
    ids: JSON.parse(String(r.ids)) as string[],
    hashes: JSON.parse(String(r.hashes)) as string[],
    data: floatsOf(r.data as Uint8Array),
  };
}
