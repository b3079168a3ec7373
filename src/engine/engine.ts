/**
 * @module engine/engine
 * The composition root (STYLE): a Credence instance wires a store, the scope and the clock to the
 * pure core. Every surface (CLI, MCP, hooks, adapters) goes through it.
 */
import {
  LATEST_DATE_MS,
  requireEpochMs,
  requireContextOptions,
  requireList,
  requireOptions,
  requireRecallOptions,
  requireText,
  requireWholeNumber,
} from './arguments.js';
import { shownValue } from '../schemas/index.js';
import { ownWordsToRead } from '../core/learning/observation-limits.js';
import { CredenceError, isStoreBusy, SIDE_WRITE_WAIT_MS } from '../core/errors.js';
import * as limits from '../core/limits.js';
import { prepareHeat } from '../core/graph/heat-diffusion.js';
import { defaultDbPath } from '../platform/paths.js';
import { forgetSpooledSession } from '../platform/hook-spool.js';
import { aheadOfClock, aheadOfClockReason, fixedClockName, MACHINE_CLOCK, parseIsoInstant } from '../core/time.js';
import { isBlankText } from '../core/text/plain-text.js';
import { resolveScope, type ResolvedScope } from '../platform/git-scope.js';
import { NEWEST_SCHEMA_VERSION, openStore, schemaOnOpening } from '../store/open/open-store.js';
import { DUMP_TABLES, type Store, type TableCounts } from '../store/types.js';
import { heldStore } from '../store/shared.js';
import type { ExecutionInput } from '../core/types.js';
import * as graph from './tool-graph/tool-graph.js';
import { validateWorkflow, type WorkflowCheck, type WorkflowTask } from '../core/workflow/workflow.js';
import {
  checkedEmbedder,
  createEmbeddingProvider,
  resolveEmbeddingConfig,
  type EmbeddingProvider,
} from '../embed/index.js';
import { buildSearchIndex, type SearchIndex } from './search/search-index.js';
import * as search from './search/search.js';
import { keepPastRuns } from './search/experience.js';
import {
  recall,
  type RecallContext,
  type RecallIndex,
  type RecallRequest,
  type RecallResult,
} from './recall/recall.js';
import { rememberMemories, type RememberReport } from './recall/remember.js';
import { ScopeIndexes } from './index/scope-indexes.js';
import { FullTextIndex } from './index/full-text-index.js';
import type { MemoryInput, ObservationInput, ToolInput } from '../schemas/index.js';
import { addObservations, parseObservation, toObservationLine, withObservationDefaults } from './observations.js';
import {
  giveFeedback,
  listOutcomes,
  metrics,
  recordOutcome,
  recordShown,
  type FeedbackResult,
  type Metrics,
  type ShownItem,
  type Verdict,
} from './feedback-service.js';
import type { EpochMs, Outcome, OutcomeKind, OutcomeQuery, OutcomeRecord, Surface, WriteWait } from '../store/types.js';
import { afterPrune, EVOLVE_DEFAULTS, evolve, type EvolveReport } from './learning/evolve.js';
import { agentSkillsDir } from './learning/skill-location.js';
import { scoreRun, toRunListing, type RunInput, type RunListing, type RunResult } from './runs.js';
import { forget, LIMIT_DEFAULTS, prune, type ForgetResult, type LimitOptions, type PruneReport } from './forget.js';
import {
  dagRecord,
  forgetWorkflowsReady,
  listWorkflows,
  rebuildWorkflows,
  type DagRecord,
  type WorkflowView,
} from './workflows/workflows.js';
import type { BackupReport, DailyActivity, ToolRecord } from '../store/types.js';
import {
  buildGraphSnapshot,
  graphStats,
  patchCatalogue,
  preparePatch,
  snapshotAt,
  type GraphSnapshot,
  type GraphStats,
} from './tool-graph/graph-snapshot.js';
import {
  PERSIST_AFTER_TOOLS,
  persistSnapshot,
  readPersistedSnapshot,
  readPersistedStats,
} from './tool-graph/persisted-snapshot.js';
import { learningView, type LearningView } from './learning/learning-view.js';
import { parseOutcomeKind } from '../core/outcomes.js';
import {
  CalibrationMaps,
  probabilityFields,
  type CalibrationReport,
  type ProbabilityFields,
  type ProbabilityInfo,
} from './calibration.js';
import { importSession, type ImportedEvent, type SessionImport } from './import-sessions.js';
import { randomUuids } from './random-id.js';
import {
  checkDump,
  restoreDump,
  salvageDump,
  writeDump,
  type DumpHeader,
  type DumpReport,
  type RestoreReport,
  type SalvageReport,
} from '../store/dump.js';
import { readOnlyRefusal, readOnlyStore } from './read-only-store.js';

/** The most days `dailyActivity` counts (ten years): one entry a day, so a huge count would exhaust the heap. */
export const MAX_ACTIVITY_DAYS = 3650;

/** Tools written since the last snapshot up to which its catalogue is patched rather than read whole. */
const PATCH_TOOLS_AT_MOST = 1000;

export interface CredenceOptions {
  /**
   * Path of the SQLite file (blank is INVALID_INPUT, not the default).
   * @default process.env.CREDENCE_DB, else ~/.credence/credence.db
   */
  db?: string;
  /**
   * A PostgreSQL server to use instead of the SQLite file (SPEC §10).
   * @default process.env.CREDENCE_DATABASE_URL (unless `db` is given)
   */
  databaseUrl?: string;
  /** An already open store; `db` and `databaseUrl` are ignored when given. */
  store?: Store;
  /**
   * A SQLite file this user cannot write (`chmod 444`, a read-only mount) is opened read-only rather than refused:
   * for a caller that only reads (status, export, dump, backup); a write then fails (attempt to write a readonly
   * database). @default false
   */
  readOnlyWhenUnwritable?: boolean;
  /**
   * The clock: a fixed instant (ISO text, Date or epoch ms) up to a day after the system clock (a later one is
   * INVALID_INPUT: `evolve` would prune observations as if that time had passed), or a function returning epoch ms.
   * @default process.env.CREDENCE_NOW (checked the same way), else the system clock
   */
  now?: string | number | Date | (() => number);
  /** Scope name; default: the git top-level of `cwd` (SPEC §2). Blank is INVALID_INPUT. */
  scope?: string;
  /** @default process.cwd() */
  cwd?: string;
  /**
   * Makes record ids.
   * @default v4 UUIDs from /dev/urandom (random-id.ts), else crypto.randomUUID
   */
  newId?: () => string;
  /**
   * The embedding provider for search and recall.
   * @default the one configured by CREDENCE_EMBEDDINGS (the offline word-vector table when unset)
   */
  embedder?: EmbeddingProvider;
  /**
   * Where a line about something that did not stop the call goes (a result not recorded as shown).
   * @default standard error, as `credence: <line>`
   */
  warn?: (line: string) => void;
}

/** Whether a call records its results as shown (SPEC §6 metrics). @default true */
export interface Tracking {
  track?: boolean;
}

/**
 * A result's record of being shown: its `shownId` for feedback, or `shownIdWhy` when it could not be recorded
 * (another process was writing): the result is still the answer, and no feedback can name it.
 */
export interface Shown {
  shownId?: string;
  shownIdWhy?: string;
}

const NOT_TRACKED =
  'not recorded as shown, so no shownId: the store is busy (another process is writing); the answer is complete';
const READ_ONLY_NOT_TRACKED = 'not recorded as shown, so no shownId: the store is read-only; the answer is complete';

export interface Status {
  db: string;
  store: Store['kind'];
  scope: string;
  scopeSource: ResolvedScope['source'];
  schemaVersion: number;
  /** Where vectors are ranked (`pgvector` in the database, or `node`), and why. */
  vectors: { ranking: Store['vectorRanking']; reason: string };
  now: string;
  counts: TableCounts;
  graph: GraphStats;
}

/**
 * An observation stated now: the seed 004 line without `timestamp` (default now) or `confidence` (default the base
 * confidence of its type and evidence, core/learning/base-confidence: 0.3, 0.4 with evidence, +0.2 for a correction).
 */
export type ObservationDraft = Omit<ObservationInput, 'timestamp' | 'confidence'> & {
  timestamp?: string;
  confidence?: number;
};

/**
 * What openCredence's messages call its options: the fields (`now`, `db`, `databaseUrl`) by default; the CLI passes
 * its flags (`--now`, `--db`, `--database-url`). @internal
 */
export interface OptionNames {
  now: string;
  db: string;
  databaseUrl: string;
  /** What replaces an existing file in `backup`: `overwrite: true`, the CLI's `--force`. */
  overwrite: string;
  /**
   * What messages call the clock when `now` is a reading of it rather than a time the caller fixed (the hooks and
   * `import --claude-code` read the machine's clock, or CREDENCE_NOW, once): without it, a `now` given is named as
   * the clock `now` sets.
   */
  clock?: string;
}

const FIELD_NAMES: OptionNames = { now: 'now', db: 'db', databaseUrl: 'databaseUrl', overwrite: 'overwrite: true' };

/** The field names, with `clock` naming the clock a `now` given was read from (OptionNames.clock). @internal */
export const namesWithClock = (clock: string): OptionNames => ({ ...FIELD_NAMES, clock });

/** A fixed clock as given, in words (shownValue; a Date that holds no time said so). */
const shownNow = (value: unknown): string => (value instanceof Date ? 'an invalid Date' : shownValue(value));

/**
 * Turns a fixed clock (`now`, `--now`, CREDENCE_NOW: ISO text, a Date or epoch ms) into epoch ms. Text that is no
 * date, and a time more than a day after the machine's `clock` (aheadOfClock: a mistyped year would make `evolve`
 * prune every observation as if that time had passed), are INVALID_INPUT naming `name`.
 */
export function parseNow(value: string | number | Date, name = 'now', clock: number = Date.now()): number {
  const ms =
    value instanceof Date
      ? value.getTime()
      : typeof value === 'number'
        ? value
        : typeof value === 'string'
          ? (parseIsoInstant(value) ?? Number.NaN)
          : Number.NaN;
  const notATime = () =>
    new CredenceError(
      'INVALID_INPUT',
      `${name} must be an ISO 8601 date such as 2026-02-02T06:00:00Z` +
        `${typeof value === 'string' ? '' : ', a Date or epoch milliseconds'}, got ${shownNow(value)}`,
    );
  if (!Number.isFinite(ms)) throw notATime();
  if (aheadOfClock(ms, clock))
    throw aheadOfMachine(name, value instanceof Date ? value.toISOString() : String(value), clock);
  if (ms < -LATEST_DATE_MS) throw notATime();
  return ms;
}

/** A clock reading `shown` (named `name`) more than a day after the machine's `clock`, as INVALID_INPUT. */
const aheadOfMachine = (name: string, shown: string, clock: number): CredenceError =>
  new CredenceError(
    'INVALID_INPUT',
    `${name} ${shown} is after this machine's clock (${new Date(clock).toISOString()}): Credence does not run ` +
      'ahead of time (evolve would prune observations as if that time had passed); give a time up to now',
  );

/** What messages call the clock `makeClock` makes: the machine's, or the one a `now` option or CREDENCE_NOW sets. */
function clockNameOf(now: CredenceOptions['now'], env: NodeJS.ProcessEnv, name: string): string {
  if (typeof now === 'function') return `the clock ${name}() gives`;
  if (now !== undefined) return fixedClockName(name);
  return env.CREDENCE_NOW !== undefined && env.CREDENCE_NOW !== '' ? fixedClockName('CREDENCE_NOW') : MACHINE_CLOCK;
}

/**
 * The time Credence would run at with this `now` option (`--now`, named `name`) and environment, and what messages
 * call that clock: for a surface checking the times of its input before it opens the store, by the engine's clock.
 */
export function resolveClock(
  now: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  name = 'now',
): { now: number; name: string } {
  return { now: makeClock(now, env, name)(), name: clockNameOf(now, env, name) };
}

function makeClock(now: CredenceOptions['now'], env: NodeJS.ProcessEnv, name: string): () => number {
  if (typeof now === 'function')
    return () => {
      // A clock that returns no time would fail later as `RangeError: Invalid time value`, naming nothing; one ahead
      // of the machine's would make evolve prune observations for good, as a fixed one would (parseNow).
      const ms = now();
      requireEpochMs(`${name}()`, ms);
      const clock = Date.now();
      if (aheadOfClock(ms, clock)) throw aheadOfMachine(`${name}()`, new Date(ms).toISOString(), clock);
      return ms;
    };
  const fromEnv = env.CREDENCE_NOW !== undefined && env.CREDENCE_NOW !== '' ? env.CREDENCE_NOW : undefined;
  const fixed = now ?? fromEnv;
  if (fixed === undefined) return () => Date.now();
  const ms = parseNow(fixed, now === undefined ? 'CREDENCE_NOW' : name);
  return () => ms;
}

export { defaultDbPath };

const stores = new WeakMap<Credence, Store>();
/** One set of full-text postings per store: they hold every scope (bm25's statistics are the whole table's). */
const fullTextIndexes = new WeakMap<Store, FullTextIndex>();

/**
 * The store under an engine, for the engine's own use cases that write fixtures as they are (the
 * demo) and for tests and benches. @internal: not exported by the package; surfaces (CLI, MCP,
 * web, hooks) call the engine's methods instead.
 */
export function engineStore(credence: Credence): Store {
  return stores.get(credence) as Store;
}

export class Credence {
  /** Closed: surfaces call the engine's methods, never the store (issue 18). */
  readonly #store: Store;
  readonly scope: string;
  readonly scopeSource: ResolvedScope['source'];
  /**
   * The project's top-level folder (or the working directory outside a repository): file-backed memories live inside
   * it.
   */
  readonly root: string;
  readonly now: () => number;
  readonly newId: () => string;
  readonly #makeEmbedder: () => EmbeddingProvider;
  readonly #warn: (line: string) => void;
  readonly #clockName: string;
  /** What its messages call the options (openCredence's `names`). */
  readonly #names: OptionNames;
  /** Whether the read-only store's "not recorded" line was said (once an engine). */
  #saidReadOnly = false;
  readonly #lent: boolean;
  #embedder: EmbeddingProvider | undefined;
  #index: Promise<SearchIndex> | undefined;
  #recallIndex: Promise<RecallIndex> | undefined;
  #scopeIndexes: ScopeIndexes | undefined;
  /** Recall's full-text postings (issue 20), built in the background by a process that recalls more than once. */
  #fullText: FullTextIndex | undefined;
  #snapshot: Promise<GraphSnapshot> | undefined;
  /** The store's revision the graph snapshot and the search index reflect. */
  #graphRevision: number | undefined;
  /** The last snapshot built and the revision read before it: its catalogue serves the next while no tool changes. */
  #lastSnapshot: { snapshot: GraphSnapshot; revision: number } | undefined;
  /** A revision the search index was built at or after. */
  #indexListedAt: number | undefined;
  /** The revision of the graph snapshot kept in the store (or last tried) and the tools patched since. */
  #persisted: { revision: number; tools: number } | undefined;
  /** The scope's learned confidence → probability maps, per kind of claim (issue 24). */
  readonly #calibrationMaps = new CalibrationMaps();

  constructor(init: {
    store: Store;
    scope: ResolvedScope;
    root: string;
    now: () => number;
    /** What messages call the clock `now` reads (core/time MACHINE_CLOCK, the default, or the --now one). */
    clockName?: string;
    newId?: () => string;
    embedder: () => EmbeddingProvider;
    warn?: (line: string) => void;
    /** The store is its opener's (forScope): close leaves it open. */
    lent?: boolean;
    /** What its messages call the options (openCredence's `names`): the library's fields by default. */
    names?: OptionNames;
  }) {
    // After close, every method rejects with CredenceError CLOSED (store/shared heldStore), not a driver's error.
    // A read-only store: reads skip their side writes, and a write is refused naming it (engine/read-only-store).
    this.#store = heldStore(init.store.readOnly === true ? readOnlyStore(init.store) : init.store, init.lent !== true);
    this.#lent = init.lent === true;
    stores.set(this, init.store);
    this.scope = init.scope.scope;
    this.scopeSource = init.scope.source;
    this.root = init.root;
    this.now = init.now;
    this.#clockName = init.clockName ?? MACHINE_CLOCK;
    // v4 UUIDs read from the system's random source (random-id.ts): node:crypto's module costs a one-query process
    // ~10 ms to load and Web Crypto's ~4 ms (issue 20), and status makes none.
    this.newId = init.newId ?? randomUuids();
    this.#makeEmbedder = init.embedder;
    this.#warn = init.warn ?? ((line) => process.stderr.write(`credence: ${line}\n`));
    this.#names = init.names ?? FIELD_NAMES;
  }

  /**
   * The store was opened read-only (a file this user cannot write, opened so for a reader: `readOnlyWhenUnwritable`):
   * reads answer without recording what they show (one warning line says so), and every write fails.
   */
  get readOnly(): boolean {
    return this.#store.readOnly === true;
  }

  /** The embedding provider, created on first use (status and record never load it). */
  get embedder(): EmbeddingProvider {
    this.#embedder ??= this.#makeEmbedder();
    return this.#embedder;
  }

  /** Drops the cached search index; every write through this engine calls it. */
  invalidate(): void {
    this.#index = undefined;
    this.#recallIndex = undefined;
    this.#snapshot = undefined;
  }

  /**
   * A write of memories, observations or verdicts drops what it can change, no more: none of them touches a tool,
   * an edge or a call, so the graph snapshot stays; the search index stays too unless verdicts were given (tool
   * search reads the verdicts on what it showed). The store's revision it moves is taken as seen.
   */
  async #besideGraph<T>(verdicts: boolean, write: () => Promise<T>): Promise<T> {
    this.#recallIndex = undefined;
    if (verdicts) this.#index = undefined;
    const before = await this.#revision();
    const result = await write();
    // (A graph write by another process between the two reads is seen at the revision's next move.)
    if (before === this.#graphRevision) this.#graphRevision = await this.#revision();
    return result;
  }

  /** The store's revision of the scope (issue 20). */
  #revision(): Promise<number> {
    return this.#store.revision(this.scope);
  }

  /**
   * Drops the graph snapshot and the search index when the store's revision moved since they were built: a write
   * by another process (a hook, the CLI beside a server) is seen as this engine's own are.
   */
  async #catchUp(): Promise<void> {
    const revision = await this.#revision();
    if (revision === this.#graphRevision) return;
    this.#snapshot = undefined;
    this.#index = undefined;
    this.#graphRevision = revision;
  }

  /**
   * The scope's graph snapshot (graph-snapshot): confident edges, PageRank, heat, density and
   * tier, computed once and kept until a write touches the graph (or {@link invalidate}). `status`, the
   * dashboard, tool search and DAG suggestion all read this one.
   */
  async graphSnapshot(): Promise<GraphSnapshot> {
    await this.#catchUp();
    if (this.#snapshot === undefined) {
      const building = this.#buildSnapshot();
      this.#snapshot = building;
      building.catch(() => {
        if (this.#snapshot === building) this.#snapshot = undefined;
      });
    }
    return this.#snapshot;
  }

  /**
   * A snapshot built anew, patched from the last one where the change log tells what moved (issue 20): its catalogue
   * with the tools written since read again by id, its edges with those out of these tools read again (a recorded
   * call moves the counter of every tool it calls, so an edge it folds links two tools the log names, as an edge
   * rewritten as given does: store `putEdge`); a declared edge (here or by another process) shows in the scope's
   * edge count, and the snapshot is then built from every edge. A process's first snapshot patches the one kept in
   * the store.
   */
  async #buildSnapshot(): Promise<GraphSnapshot> {
    const revision = await this.#revision();
    // A process with no snapshot yet patches the one kept in the store (issue 20), if any.
    let last = this.#lastSnapshot;
    if (last === undefined) {
      const stored = await readPersistedSnapshot(this.#store, this.scope);
      if (stored !== undefined && stored.revision <= revision) last = stored;
    }
    if (last !== undefined && this.#lastSnapshot === undefined) this.#persisted = { revision: last.revision, tools: 0 };
    let tools: ToolRecord[] | undefined;
    let fromTools: { changed: string[]; removed: string[] } | undefined;
    // Nothing written since the last snapshot (a new process over the kept one): no log or edge count to read.
    const current = last?.revision === revision;
    // Nor any confidence moved: that snapshot, as it is (issue 20: a process answering one query decodes no more).
    const same = current && last !== undefined ? snapshotAt(last.snapshot, this.now()) : undefined;
    if (same !== undefined) {
      this.#lastSnapshot = { snapshot: same, revision };
      return same;
    }
    if (last !== undefined) {
      // A recorded call moves its tool's counter: a write names a few tools, read again by id.
      const since = current
        ? { changed: [], removed: [] }
        : await this.#store.changedSince(this.scope, 'tool', last.revision);
      if (since.changed.length <= PATCH_TOOLS_AT_MOST) {
        const changed = await this.#store.getToolsByIds(this.scope, since.changed);
        tools = patchCatalogue(last.snapshot.tools, changed, since.removed);
        fromTools = { changed: since.changed, removed: since.removed };
      }
    }
    const patch = last !== undefined && fromTools !== undefined ? { snapshot: last.snapshot, ...fromTools } : undefined;
    const build = (patched: boolean) =>
      buildGraphSnapshot({
        store: this.#store,
        scope: this.scope,
        now: this.now(),
        ...(tools === undefined ? {} : { tools }),
        ...(patched && patch !== undefined ? { patch } : {}),
      });
    let snapshot: GraphSnapshot | undefined;
    if (fromTools !== undefined) {
      const [patched, edges] = await Promise.all([build(true), current ? -1 : this.#store.countEdges(this.scope)]);
      if (current || patched.edges.length === edges) snapshot = patched;
    }
    const everyEdge = snapshot === undefined;
    snapshot ??= await build(false);
    this.#lastSnapshot = { snapshot, revision };
    // Stored after a build from every edge, and once many tools were patched since the stored one.
    if (!everyEdge && this.#persisted !== undefined) this.#persisted.tools += fromTools?.changed.length ?? 0;
    if (everyEdge || this.#persisted === undefined || this.#persisted.tools >= PERSIST_AFTER_TOOLS) {
      await persistSnapshot(this.#store, this.scope, revision, snapshot);
      this.#persisted = { revision, tools: 0 };
    }
    return snapshot;
  }

  /** Which backend holds the data, and where (a file path, or a URL without its password). */
  /** Why a write is refused when the store was opened read-only (readOnlyRefusal), else undefined. */
  readOnlyRefusal(): CredenceError | undefined {
    return this.readOnly ? readOnlyRefusal(this.#store) : undefined;
  }

  get storeInfo(): { kind: Store['kind']; location: string } {
    return { kind: this.#store.kind, location: this.#store.location };
  }

  /** Rows per table, in this scope or (`scope: null`) in the whole store. */
  counts(scope: string | null = this.scope): Promise<TableCounts> {
    return this.#store.counts(scope ?? undefined);
  }

  /** Every scope that holds a row in the store. */
  scopes(): Promise<string[]> {
    return this.#store.listScopes();
  }

  /**
   * An engine over the same store, clock and embedder for another scope (the dashboard's `?scope=`). Closing it
   * leaves the store open (this engine's close closes it); its methods then reject with CLOSED. Its embedder is this
   * engine's own, built once on first use by either (not one more model load per scope).
   */
  async forScope(scope: string): Promise<Credence> {
    requireText('scope', scope, 'id');
    requireScopeShown(scope, "such as 'global' for the scope every project shares");
    return new Credence({
      store: engineStore(this),
      lent: true,
      scope: resolveScope({ cwd: this.root, override: scope }),
      root: this.root,
      now: this.now,
      clockName: this.#clockName,
      newId: this.newId,
      embedder: () => this.embedder,
      warn: this.#warn,
      names: this.#names,
    });
  }

  /** The tables a dump holds, in the order it holds them (store/types). */
  static readonly dumpTables = DUMP_TABLES;

  /**
   * Checks a whole dump (header, every line, the counts) before any store is opened, so a bad dump
   * creates no database; the header it returns is {@link restore}'s `checked` (store/dump). `into`: the kind of
   * store it is for. A SQLite store is created at the newest schema on opening, so a dump of a newer one is refused
   * here (SCHEMA_TOO_NEW) and leaves no file; a PostgreSQL server's version is known once connected (checked then).
   * A dump newer than any schema this Credence knows is refused so whatever the store, before its tables are read.
   */
  static checkDump(lines: AsyncIterable<string>, options: { into?: Store['kind'] } = {}): Promise<DumpHeader> {
    const newestSchema = options.into === undefined ? undefined : schemaOnOpening(options.into);
    return checkDump(lines, {
      knownSchema: NEWEST_SCHEMA_VERSION,
      ...(newestSchema === undefined ? {} : { newestSchema }),
    });
  }

  /** The whole store (every scope) as dump lines given to `write` (store/dump). */
  dump(write: (text: string) => void | Promise<void>): Promise<DumpReport> {
    return writeDump(this.#store, write, { now: this.now() });
  }

  /** What a damaged store still holds, as a dump, and what could not be read (`credence dump --salvage`). */
  salvage(write: (text: string) => void | Promise<void>): Promise<SalvageReport> {
    return salvageDump(this.#store, write, { now: this.now() });
  }

  /**
   * A consistent copy of the whole store in one file (`credence backup`; SQLite's online backup, what is still in the
   * write-ahead log included); an existing file is refused unless `overwrite`. A PostgreSQL store rejects, naming
   * `credence dump` (store/types `backup`).
   */
  async backup(file: string, options: { overwrite?: boolean } = {}): Promise<BackupReport> {
    // A copy of a damaged file would pass the damage on (and --force would replace a sound backup with it).
    const problems = (await this.#store.quickCheck?.()) ?? [];
    if (problems.length > 0)
      throw new CredenceError(
        'STORE_UNAVAILABLE',
        `the database ${this.#store.location} is damaged (${problems.slice(0, 3).join('; ')}); ` +
          `no backup was written (${file} is left as it was): save what is readable with credence dump --salvage`,
      );
    // An existing file: the message names the option as this caller spells it (walk 18).
    return this.#store.backup(file, { ...options, ifExists: `pass ${this.#names.overwrite} to replace it` });
  }

  /**
   * The store's integrity check (`credence status`) and the problems it found, empty when sound: SQLite's quick check
   * of its file (`quick check`); a server store, which checks its own pages, has none, so its consistency check runs
   * (`consistency check`: the schema version, the kept row counts against the rows, a sample of the full-text entries).
   */
  async integrity(): Promise<{ check: 'quick check' | 'consistency check'; problems: string[] }> {
    const quick = await this.#store.quickCheck?.();
    if (quick !== undefined) return { check: 'quick check', problems: quick };
    return { check: 'consistency check', problems: await this.#store.check() };
  }

  /**
   * Loads a dump into this empty store; `lines` opens its lines afresh each call, `checked` is its header when already
   * checked (store/dump).
   */
  restore(lines: () => AsyncIterable<string>, options: { checked?: DumpHeader } = {}): Promise<RestoreReport> {
    this.invalidate();
    // The restore takes the store's marks of built workflows away; this process's memory of them goes too.
    return restoreDump(this.#store, lines, { ...options, db: this.#names.db }).finally(() =>
      forgetWorkflowsReady(this.#store),
    );
  }

  /** A tool of the catalogue by its id ({@link graph.storedId}), or undefined. */
  tool(id: string): Promise<ToolRecord | undefined> {
    return this.#store.getTool(this.scope, graph.storedId(id));
  }

  /**
   * Instincts, skills with their confidence now, feedback, and the observations they cite (unless `evidence: false`)
   * of the scope (the dashboard).
   */
  async learningView(options: { evidence?: boolean; evidencePerItem?: number } = {}): Promise<
    Omit<LearningView, 'instincts' | 'skills'> & {
      instincts: (LearningView['instincts'][number] & ProbabilityFields)[];
      skills: (LearningView['skills'][number] & ProbabilityFields)[];
    }
  > {
    const view = await learningView({ store: this.#store, scope: this.scope, now: this.now() }, options);
    // Each instinct and skill with the learned probability beside its confidence (issue 24).
    const ctx = this.#calibrationContext;
    const instinct = await this.#calibrationMaps.of(ctx, 'instinct');
    const skill = await this.#calibrationMaps.of(ctx, 'skill');
    return {
      ...view,
      instincts: view.instincts.map((i) => ({ ...i, ...probabilityFields(instinct, 'instinct', i.confidence) })),
      skills: view.skills.map((k) => ({ ...k, ...probabilityFields(skill, 'skill', k.current) })),
    };
  }

  /**
   * Runs, their calls and observations per day over the `days` days up to `now` (the clock), counted by the store.
   * `days` is a whole number from 1 to {@link MAX_ACTIVITY_DAYS} (ten years). @throws CredenceError INVALID_INPUT
   */
  async dailyActivity(days: number, now: number = this.now()): Promise<DailyActivity> {
    requireWholeNumber('days', days, 1, MAX_ACTIVITY_DAYS);
    return this.#store.activityByDay(this.scope, { now, days });
  }

  /**
   * The scope's persistent vector indexes (engine/index, issue 20): kept for the engine's life, each brought up to
   * date from the store's change log before a query, whoever wrote.
   */
  get #indexes(): ScopeIndexes {
    this.#scopeIndexes ??= new ScopeIndexes({
      store: this.#store,
      scope: this.scope,
      embedder: this.embedder,
      root: this.root,
    });
    return this.#scopeIndexes;
  }

  async #recallContext(): Promise<RecallContext> {
    // One more recall: from a process's second, its full-text postings are built in the background.
    const fullText = this.#fullTextIndex;
    fullText.asked();
    // The vectors stay current by themselves; recall reads its candidates by id.
    this.#recallIndex ??= Promise.resolve({ vectors: this.#indexes.recallVectors(), root: this.root });
    return {
      store: this.#store,
      scope: this.scope,
      embedder: this.embedder,
      index: await this.#recallIndex,
      fullText,
      now: this.now(),
    };
  }

  get #fullTextIndex(): FullTextIndex {
    if (this.#fullText === undefined) {
      // Shared by the engines over one store; it answers CLOSED once the store is closed, whichever engine closed.
      const store = engineStore(this);
      this.#fullText = fullTextIndexes.get(store) ?? new FullTextIndex(heldStore(store, false));
      fullTextIndexes.set(store, this.#fullText);
    }
    return this.#fullText;
  }

  /**
   * Builds now what a long-lived process keeps for recall (the full-text postings, otherwise built in the background
   * from its second recall on) and resolves once recall uses them; the vector indexes asked twice settle first (their
   * floats and key maps, otherwise made at a later query), both a slice at a time. The graph snapshot, when one was
   * read, makes what its first patch would (issue 20: a decoded one's edges and density's vertices).
   */
  async warm(): Promise<void> {
    await this.#scopeIndexes?.settle();
    await this.#fullTextIndex.warm();
    if (this.#snapshot !== undefined) preparePatch(await this.#snapshot);
  }

  /**
   * Adds or updates memories (`{id?, category?, title, text?, tags?, path?}`), or a conversation's turns
   * (`{speaker, session, at, text}`); a path is kept relative to the project root, and a memory without text reads it
   * from that file, inside the root only. A near-identical memory merges into the existing one; a later one about the
   * same subject with a change cue supersedes the older (recall/remember, issue 23). Each memory is checked again at
   * run time (INVALID_INPUT naming the bad field), so a surface may pass JSON it parsed as it is; with `rejected`, a
   * wrong one is told by its position and the others are remembered (a file's lines: one call, one batch of turns).
   */
  async remember(
    memories: readonly MemoryInput[],
    options: { rejected?: (position: number, reason: string) => void } = {},
  ): Promise<RememberReport> {
    requireList('memories', memories);
    const kept: number[] = [];
    memories.forEach((m, i) => {
      try {
        limits.requireMemoryWithinLimits(`memories[${i}]`, m);
        kept.push(i);
      } catch (error) {
        if (options.rejected === undefined) throw error;
        options.rejected(i, (error as Error).message);
      }
    });
    const context = {
      store: this.#store,
      scope: this.scope,
      root: this.root,
      now: this.now(),
      clockName: this.#clockName,
    };
    const told = options.rejected;
    const rejected =
      told === undefined ? {} : { rejected: (p: number, e: Error) => told(kept[p] as number, e.message) };
    const batch = kept.map((i) => memories[i] as MemoryInput);
    const report = await this.#besideGraph(false, () => rememberMemories(context, batch, rejected));
    await this.#recallTakesWrite();
    return report;
  }

  /**
   * After a write of memories or observations: recall's indexes a long-lived engine keeps (vectors asked twice,
   * full-text postings once built) take it now, so the query after it finds them current (issue 20). A failure
   * here leaves them to catch up at that query, which reads the change log again.
   */
  async #recallTakesWrite(): Promise<void> {
    await Promise.all([this.#scopeIndexes?.catchUp(), this.#fullText?.catchUp()]).catch(() => undefined);
  }

  /** Records observations (the seed 004 schema, checked at run time too); the same content twice is stored once. */
  observe(observations: readonly ObservationInput[]): Promise<{ inserted: number; duplicates: number; ids: string[] }> {
    return this.#observe(observations, (i) => `observations[${i}].`);
  }

  /** {@link observe}, its errors naming each observation's fields after `at(i)` (`observations[0].`, or nothing). */
  async #observe(
    observations: readonly ObservationInput[],
    at: (i: number) => string,
  ): Promise<{ inserted: number; duplicates: number; ids: string[] }> {
    requireList('observations', observations);
    observations.forEach((o, i) => limits.requireObservationWithinLimits(`observations[${i}]`, o));
    const checked = observations.map(parseObservation);
    // A time more than a day after the clock would keep what it teaches from decaying until then (walk 18, item 2).
    const now = this.now();
    checked.forEach((o, i) => {
      const ahead = aheadOfClockReason(o.timestamp, now, undefined, this.#clockName);
      if (ahead !== undefined)
        throw new CredenceError('INVALID_INPUT', `invalid observation: ${at(i)}timestamp: ${ahead}`);
    });
    const report = await this.#besideGraph(false, () => addObservations(this.#store, this.scope, checked));
    await this.#recallTakesWrite();
    return report;
  }

  /**
   * Records one observation stated now: its time defaults to the clock, its confidence to seed 004's f(type, evidence).
   */
  observeNow(observation: ObservationDraft): Promise<{ inserted: number; duplicates: number; ids: string[] }> {
    // One observation, its fields named as given (the MCP tool `observe`), not as a list's first (walk 20, item 8).
    return this.#observe([withObservationDefaults(observation, this.now()) as ObservationInput], () => '');
  }

  /**
   * Records what a surface returned (SPEC §6 metrics), each item with the confidence it was shown with
   * (issue 24); one shown id per item.
   */
  recordShown(surface: OutcomeKind, items: readonly ShownItem[], wait?: WriteWait): Promise<string[]> {
    return recordShown(this.#feedback, surface, items, wait);
  }

  /**
   * What became of a shown result (issue 24): its latest outcome; an unknown id or outcome is an error. `inferred`
   * (followed from calls, not given by a user): a result with a verdict keeps its outcome.
   */
  async recordOutcome(
    shownId: string,
    outcome: Outcome,
    options: { at?: EpochMs; inferred?: boolean } = {},
  ): Promise<{ id: string; outcome: Outcome; at: EpochMs }> {
    requireText('shownId', shownId, 'id');
    this.#calibrationMaps.invalidate();
    return recordOutcome(this.#feedback, graph.storedId(shownId), outcome, options);
  }

  /** Outcomes with the confidence each claim was shown with, by outcomeAt then id (issue 24). */
  listOutcomes(options: OutcomeQuery = {}): Promise<OutcomeRecord[]> {
    return listOutcomes(this.#feedback, options);
  }

  /** A verdict on a shown result, an instinct or a skill; the same event id counts once. */
  async feedback(
    id: string,
    verdict: Verdict,
    options: { eventId?: string; note?: string; confirm?: boolean } = {},
  ): Promise<FeedbackResult> {
    requireText('id', id, 'id');
    limits.requireWithinLimit('note', options.note, 'note');
    this.#calibrationMaps.invalidate();
    // Every id is stored scrubbed of secrets: the lookup key is scrubbed the same way (tool-graph storedId).
    return this.#besideGraph(true, () => giveFeedback(this.#feedback, graph.storedId(id), verdict, options));
  }

  /** Observations per type, instinct → skill conversion, suggestion precision. */
  metrics(): Promise<Metrics> {
    return metrics(this.#feedback);
  }

  /**
   * How often the confidences shown were right (issue 24): per kind of claim, the reliability table, ECE and Brier
   * of the outcomes recorded at or before now, and with enough of them the learned map and its cross-fitted figures.
   */
  async calibration(options: { kind?: OutcomeKind } = {}): Promise<CalibrationReport> {
    requireOptions('options', options);
    const kind = options.kind === undefined ? undefined : parseOutcomeKind(options.kind);
    return this.#calibrationMaps.report(this.#calibrationContext, kind === undefined ? {} : { kind });
  }

  get #calibrationContext() {
    return { store: this.#store, scope: this.scope, now: this.now() };
  }

  get #feedback() {
    return { store: this.#store, scope: this.scope, now: this.now, newId: this.newId, clockName: this.#clockName };
  }

  /**
   * Groups recent observations into patterns and writes instincts and skills (SPEC §6). Files go
   * under the project root (`.credence/` by default); skills go to `.claude/skills` in a project with a
   * `.claude/` folder (Claude Code loads them there), unless `skillsDir` says otherwise.
   */
  async evolve(
    options: {
      dryRun?: boolean;
      sinceMs?: number;
      minConfidence?: number;
      dir?: string;
      skillsDir?: string;
      instinctsDir?: string;
      limits?: LimitOptions;
    } = {},
  ): Promise<EvolveReport & { pruned?: PruneReport }> {
    requireOptions('options', options);
    const layout = this.#layout(options);
    if (options.dryRun !== true) this.invalidate();
    const ctx = { store: this.#store, scope: this.scope, embedder: this.embedder, now: this.now() };
    // Beside its window the run reads the user's own words the cap keeps, at any age inside the purge (at most the
    // cap's 100): a correction said once a week is learned once said often enough. Tool output older than the window
    // goes over the cap unread, as automatic evidence (core/learning/observation-limits).
    const bounds = { ...LIMIT_DEFAULTS, ...options.limits };
    const since = ctx.now - (options.sinceMs ?? EVOLVE_DEFAULTS.sinceMs);
    // One listing serves both: the window's observations and the older words (evolve reads no other list).
    const from = Math.min(since, ctx.now - bounds.purgeAfterDays * 86_400_000);
    const listed = Number.isFinite(from)
      ? { since: from, observations: await this.#store.listObservations(this.scope, { since: from }) }
      : undefined;
    const alsoRead = listed === undefined ? [] : ownWordsToRead(listed.observations, bounds, ctx.now, since);
    const report = await evolve(ctx, {
      layout,
      ...(options.dryRun === undefined ? {} : { dryRun: options.dryRun }),
      ...(options.sinceMs === undefined ? {} : { sinceMs: options.sinceMs }),
      ...(options.minConfidence === undefined ? {} : { minConfidence: options.minConfidence }),
      ...(alsoRead.length === 0 ? {} : { alsoRead }),
      ...(listed === undefined ? {} : { listed }),
    });
    if (options.dryRun === true) return report;
    const pruned = await prune({ store: this.#store, scope: this.scope, layout }, ctx.now, options.limits);
    // What the prune deleted is no longer there to read: the report says so, not a --since that reads nothing.
    return { ...(await afterPrune(ctx, report, options.sinceMs, pruned.observations, alsoRead)), pruned };
  }

  /**
   * Deletes an observation (or instinct, skill, memory, run, learned workflow by its runs, Claude Code session) and
   * what was derived only from it (a run: what it taught the tool graph and its workflow). With `hookFiles` (the base
   * of the hooks' files of this store: platform/hook-spool storeHookFiles), a Claude Code session's events still in
   * the hooks' spool go first (the next drain would learn them again): `spooledEventsForgotten` in a session's
   * result, and a session whose only trace is there is forgotten too.
   */
  async forget(
    id: string,
    options: { dir?: string; skillsDir?: string; instinctsDir?: string; hookFiles?: string } = {},
  ): Promise<ForgetResult> {
    requireText('id', id, 'id');
    // An empty id names nothing: NOT_FOUND ("nothing has the id \"\"") said the store was looked through (walk 18).
    if (isBlankText(id)) throw new CredenceError('INVALID_INPUT', 'id is empty: give the id of what to forget');
    this.invalidate();
    const spooled = options.hookFiles === undefined ? undefined : forgetSpooledSession(options.hookFiles, id);
    let result: ForgetResult;
    try {
      result = await forget(
        { store: this.#store, scope: this.scope, layout: this.#layout(options) },
        graph.storedId(id),
        this.now(),
      );
    } catch (error) {
      if (spooled === undefined || spooled === 0 || !(error instanceof CredenceError) || error.code !== 'NOT_FOUND')
        throw error;
      const none = { derivedRemoved: [], derivedUpdated: [], derivedForgotten: [], files: [] };
      result = { id, kind: 'session', ...none, evidenceForgotten: [], runsForgotten: [] };
    }
    return result.kind === 'session' && spooled !== undefined ? { ...result, spooledEventsForgotten: spooled } : result;
  }

  #layout(options: { dir?: string; skillsDir?: string; instinctsDir?: string }) {
    // Skills go where the agent reads them: .claude/skills in a Claude Code project (learning/skill-location).
    const { skillsDir } = agentSkillsDir(this.root, options.skillsDir);
    return {
      root: this.root,
      ...(options.dir === undefined ? {} : { dir: options.dir }),
      ...(skillsDir === undefined ? {} : { skillsDir }),
      ...(options.instinctsDir === undefined ? {} : { instinctsDir: options.instinctsDir }),
    };
  }

  /** Observations of the scope as the seed's lines, oldest first. */
  async exportObservations(options: { since?: number } = {}): Promise<Record<string, unknown>[]> {
    return (await this.#store.listObservations(this.scope, options)).map(toObservationLine);
  }

  /**
   * The memories that matter for `query`, labelled (SPEC §8). Each result is recorded as shown and
   * carries its `shownId` for feedback (SPEC §6), unless `track: false`.
   */
  async recall(
    query: string,
    request: RecallRequest & Tracking = {},
  ): Promise<(RecallResult & ProbabilityInfo & Shown)[]> {
    requireText('query', query, 'query');
    requireRecallOptions('options', request);
    const results = await recall(await this.#recallContext(), query, request);
    return this.#track(
      'recall',
      results,
      (r) => `${r.kind}:${r.id}`,
      query,
      request,
      (r) => r.score,
    );
  }

  /** Says once that a read-only store does not record what is shown (nor anything a read would keep). */
  #warnReadOnly(): void {
    if (this.#saidReadOnly) return;
    this.#saidReadOnly = true;
    const what = this.#store.damaged === undefined ? 'read-only' : 'damaged';
    this.#warn(`${what} store: not recorded (what is shown gets no shownId): ${this.#store.location}`);
  }

  /** Records what a surface returned and puts each item's shown id on it. */
  async #track<T extends object>(
    surface: Surface,
    items: readonly T[],
    target: (item: T) => string,
    query: string,
    request: Tracking,
    confidence: (item: T) => number,
  ): Promise<(T & ProbabilityFields & Shown)[]> {
    if (items.length === 0) return [];
    // The learned probability beside each item's confidence, or why there is none (issue 24).
    const learned = await this.#calibrationMaps.of(this.#calibrationContext, surface);
    const probable = items.map((item) => ({ ...item, ...probabilityFields(learned, surface, confidence(item)) }));
    if (request.track === false) return probable;
    if (this.readOnly) {
      this.#warnReadOnly();
      return probable.map((item) => ({ ...item, shownIdWhy: READ_ONLY_NOT_TRACKED }));
    }
    let ids: string[];
    try {
      // A short wait: the answer is ready and does not need the write (a busy store must not hold it 5 s).
      ids = await this.recordShown(
        surface,
        items.map((item) => ({ target: target(item), query, confidence: confidence(item) })),
        { busyWaitMs: SIDE_WRITE_WAIT_MS },
      );
    } catch (error) {
      if (!isStoreBusy(error)) throw error;
      // The answer still goes out, without shown ids: one line says so, and each item says why it has none.
      this.#warn(`${surface}: ${NOT_TRACKED}`);
      return probable.map((item) => ({ ...item, shownIdWhy: NOT_TRACKED }));
    }
    return probable.map((item, i) => ({ ...item, shownId: ids[i] as string }));
  }

  async #searchContext(): Promise<search.SearchContext> {
    await this.#catchUp();
    if (this.#index === undefined) {
      // The revision the index is read at or after (its list of runs can seed the kept past runs).
      this.#indexListedAt = this.#graphRevision;
      const building = this.graphSnapshot().then((snapshot) =>
        buildSearchIndex({
          store: this.#store,
          scope: this.scope,
          embedder: this.embedder,
          graph: snapshot,
          vectors: { tools: this.#indexes.toolVectors(), executions: this.#indexes.executionVectors() },
        }),
      );
      this.#index = building;
      building.catch(() => {
        if (this.#index === building) this.#index = undefined;
      });
    }
    const ctx = {
      store: this.#store,
      scope: this.scope,
      embedder: this.embedder,
      index: await this.#index,
      now: this.now,
    };
    // The scope's past runs, kept across writes and brought up to date from the change log (issue 20).
    await keepPastRuns(ctx, this.#indexListedAt);
    return ctx;
  }

  /**
   * Hybrid tool search (SPEC §4): each result `{tool, score, semantic, graph, alpha, alphaRule, parts}`,
   * with `hybrid`, `memory` and `feedback` when past runs or verdicts moved it (issue 19), recorded as shown
   * with its `shownId` unless `track: false`.
   */
  async searchTools(
    query: string,
    request: search.ToolSearchRequest & Tracking = {},
  ): Promise<(search.LearnedToolResult & ProbabilityInfo & Shown)[]> {
    requireText('query', query, 'query');
    requireContextOptions('options', request);
    const results = await search.searchTools(await this.#searchContext(), query, request);
    // A tool result has no confidence of its own: its hybrid score (0..1) is what it was shown with.
    return this.#track(
      'search',
      results,
      (r) => r.tool,
      query,
      request,
      (r) => r.score,
    );
  }

  /** A workflow DAG for an intent (SPEC §5); a suggestion is recorded as shown, as a whole, unless `track: false`. */
  async suggestDag(
    intent: string,
    request: search.DagRequest & Tracking = {},
  ): Promise<search.DagSuggestion & ProbabilityInfo & Shown> {
    requireText('intent', intent, 'intent');
    requireContextOptions('options', request);
    const s = await search.suggestDag(await this.#searchContext(), intent, request);
    if (s.mode !== 'suggestion') return s;
    const [tracked] = await this.#track(
      'dag',
      [s],
      (x) => `dag:${x.dag.tasks.map((t) => t.tool).join(',')}`,
      intent,
      request,
      (x) => x.confidence,
    );
    return tracked ?? s;
  }

  /** Past executions whose intents resemble `text` (the intent memory). */
  async similarExecutions(text: string, options: { limit?: number } = {}): Promise<search.MemoryMatch[]> {
    requireText('intent', text, 'intent');
    requireOptions('options', options);
    return search.similarExecutions(await this.#searchContext(), text, options);
  }

  /** Checks an explicit workflow against the catalogue: unknown tool, missing dependency, cycle. */
  async validateWorkflow(workflow: { tasks: readonly WorkflowTask[] }): Promise<WorkflowCheck> {
    requireList('workflow.tasks', (workflow as { tasks?: unknown } | null | undefined)?.tasks);
    const known = new Set((await this.#store.listTools(this.scope)).map((t) => t.id));
    // The catalogue holds tool ids scrubbed of secrets; each task's tool is checked (and named in a problem) the same
    // way.
    return validateWorkflow(
      workflow.tasks.map((t) => ({ ...t, tool: graph.storedId(t.tool) })),
      known,
    );
  }

  get #graph(): graph.GraphContext {
    return { store: this.#store, scope: this.scope, now: this.now, newId: this.newId, clockName: this.#clockName };
  }

  /** The scope's tool catalogue, by id (`credence tools`). */
  async listTools(): Promise<ToolRecord[]> {
    return this.#store.listTools(this.scope);
  }

  /** Adds or updates tools in the catalogue (`{ id, description, inputSchema?, origin? }`, checked at run time too). */
  async addTools(tools: readonly ToolInput[]): Promise<{ inserted: number; updated: number }> {
    requireList('tools', tools);
    tools.forEach((t, i) => limits.requireToolWithinLimits(`tools[${i}]`, t));
    this.invalidate();
    return graph.addTools(this.#graph, tools);
  }

  /** Records one execution and learns its edges (issue 3). Throws INVALID_INPUT on a bad shape. */
  async recordExecution(execution: ExecutionInput): Promise<graph.RecordResult> {
    limits.requireExecutionWithinLimits('execution', execution);
    this.invalidate();
    return graph.recordExecutions(this.#graph, [execution]);
  }

  /**
   * Appends calls to a growing execution (an MCP session, a Claude Code session), creating it on the
   * first append; learns only the edges the new calls add, so an edge counts once per execution.
   * Throws INVALID_INPUT on a bad shape or a `consumes`/`parent` that names no earlier call. An engine that searched
   * tools (a server, the gateway, whose calls are written in the background) brings tool search up to date in the
   * write (issue 20): the graph snapshot patched at what the calls changed, the search index, the past runs.
   */
  async appendCalls(
    head: graph.AppendHead,
    calls: graph.AppendCalls,
    options: { dequeue?: readonly number[] } = {},
  ): Promise<graph.AppendResult> {
    limits.requireWithinLimit('id', head.id, 'id');
    limits.requireWithinLimit('intent', head.intent, 'intent');
    if (Array.isArray(calls)) calls.forEach((c, i) => limits.requireCallWithinLimits(`calls[${i}]`, c));
    const searched = this.#index !== undefined;
    this.invalidate();
    const appended = await graph.appendCalls(this.#graph, head, calls, options);
    if (searched) await this.#toolSearchTakesWrite();
    return appended;
  }

  /**
   * After recorded calls, in an engine that searched tools: its kept vectors take the grown run, the graph snapshot is
   * patched, the search index and the past runs made again, heat's transition probabilities over the patched graph,
   * now rather than at the next search (issue 20). A failure here leaves them to that search, as before.
   */
  async #toolSearchTakesWrite(): Promise<void> {
    await this.#scopeIndexes?.catchUpTools().catch(() => undefined);
    await this.#searchContext().then(
      (ctx) => prepareHeat(ctx.index.undirected),
      () => undefined,
    );
  }

  /**
   * Learns one past session (issue 22, `credence import`): queues its events an earlier import did not
   * take, in the hooks' queue, runs `learn` (the hooks' ingest of the session) and marks how far it
   * reached (engine/import-sessions). A session the live hooks learned is left alone.
   */
  async importSession(
    session: string,
    events: readonly ImportedEvent[],
    learn: () => Promise<void>,
  ): Promise<SessionImport> {
    this.invalidate();
    return importSession(this.#store, this.scope, { session, events, now: this.now() }, learn);
  }

  /** Records many executions, one transaction per scope. */
  async recordExecutions(
    executions: readonly ExecutionInput[],
    options: graph.RecordOptions = {},
  ): Promise<graph.RecordResult> {
    requireList('executions', executions);
    executions.forEach((e, i) => limits.requireExecutionWithinLimits(`executions[${i}]`, e));
    this.invalidate();
    return graph.recordExecutions(this.#graph, executions, options);
  }

  /**
   * Records a workflow run (SPEC §7): scores its nodes and the run, and stores it as an execution
   * whose calls are the nodes, so the graph learns (sequence, dependency for downstream use,
   * contains for nested flows) and recall finds the run by its intent and summary.
   */
  async recordRun(run: RunInput): Promise<RunResult> {
    limits.requireWithinLimit('intent', run?.intent, 'intent');
    // A malformed run is scoreRun's to name (INVALID_INPUT); the limits only read what is there.
    if (Array.isArray(run?.nodes))
      run.nodes.forEach((n, i) => limits.requireWithinLimit(`nodes[${i}].name`, n?.name, 'toolName'));
    const scored = scoreRun(run);
    const recorded = await this.recordExecutions(
      [
        {
          intent: run.intent,
          startedAt: run.startedAt,
          summary: scored.summary,
          ...(scored.confidence === null ? {} : { confidence: scored.confidence }),
          intentKind: scored.intentKind,
          calls: run.nodes.map((n) => ({
            tool: n.name,
            status: n.status,
            retries: n.retries,
            durationMs: n.durationMs,
            consumes: n.consumes,
            ...(n.parent === undefined ? {} : { parent: n.parent }),
            at: n.startedAt,
            intent: n.intent,
          })),
        },
      ],
      { edges: false },
    );
    return { executionId: recorded.executions[0]?.id ?? '', ...scored };
  }

  /** Recent runs, newest first, with intent, confidence, quality and node outcomes (`credence runs`). */
  async runs(options: { limit?: number } = {}): Promise<RunListing[]> {
    requireOptions('options', options);
    return (await this.#store.listExecutions(this.scope, { limit: options.limit ?? 20 })).map(toRunListing);
  }

  /**
   * Learned workflows (issue 19): recorded runs merged by shape, most recently used first, with their success
   * rate and confidence at `now` (default the clock), explained (`credence workflows`, MCP `list_workflows`).
   */
  async workflows(options: { limit?: number; now?: number } = {}): Promise<WorkflowView[]> {
    requireOptions('options', options);
    if (options.now !== undefined) requireEpochMs('options.now', options.now);
    return listWorkflows(
      { store: this.#store, scope: this.scope },
      { now: options.now ?? this.now(), ...(options.limit === undefined ? {} : { limit: options.limit }) },
    );
  }

  /**
   * The record of the learned workflow a DAG of tasks is run into: its runs, successes and the Wilson lower bound of
   * its success rate times its decay at `now` (default the clock); undefined when no run of that shape was recorded.
   * `execute_dag` lets a strong record stand in for a seed confidence below its threshold (walk 14, item 3).
   */
  async dagRecord(tasks: readonly WorkflowTask[], options: { now?: number } = {}): Promise<DagRecord | undefined> {
    requireOptions('options', options);
    if (options.now !== undefined) requireEpochMs('options.now', options.now);
    return dagRecord({ store: this.#store, scope: this.scope }, tasks, options.now ?? this.now());
  }

  /** Rebuilds the scope's learned workflows from its executions (a use case that removes executions calls it). */
  async rebuildWorkflows(): Promise<void> {
    this.invalidate();
    await rebuildWorkflows(this.#store, this.scope);
  }

  /** Declares a template edge (`credence edge add`). */
  async declareEdge(edge: { from: string; to: string; type: string }) {
    requireOptions('edge', edge);
    requireText('from', edge.from, 'toolName');
    requireText('to', edge.to, 'toolName');
    requireText('type', edge.type, 'id');
    this.invalidate();
    return graph.declareEdge(this.#graph, edge);
  }

  /** Edges with their confidence now (`credence edges`). */
  async edges(filter: { from?: string; to?: string; minConfidence?: number } = {}): Promise<graph.EdgeView[]> {
    requireOptions('filter', filter);
    return graph.listEdges(this.#graph, filter);
  }

  /** Density, its tier, and the most central tools of the scope's graph. */
  async graphStats(options: { top?: number } = {}): Promise<GraphStats> {
    requireOptions('options', options);
    // A top of -1 dropped the last tool; NaN or 1.5 went through.
    if (options.top !== undefined) requireWholeNumber('options.top', options.top, 1);
    // A process with no snapshot yet reads the kept one's statistics alone when nothing was written since (issue 20).
    const revision = this.#lastSnapshot === undefined ? await this.#revision() : undefined;
    const kept =
      revision === undefined
        ? undefined
        : await readPersistedStats(this.#store, this.scope, revision, this.now(), options.top);
    return kept ?? graphStats(await this.graphSnapshot(), options);
  }

  /** Ranked next-tool suggestions after `tool` (`credence next`), recorded as shown unless `track: false`. */
  async suggestNext(
    tool: string,
    options: { limit?: number } & Tracking = {},
  ): Promise<(graph.NextSuggestion & ProbabilityInfo & Shown)[]> {
    requireText('tool', tool, 'toolName');
    requireOptions('options', options);
    const suggestions = await graph.suggestNext(this.#graph, tool, options);
    return this.#track(
      'next',
      suggestions,
      (s) => s.tool,
      tool,
      options,
      (s) => s.confidence,
    );
  }

  async status(): Promise<Status> {
    return {
      db: this.#store.location,
      store: this.#store.kind,
      scope: this.scope,
      scopeSource: this.scopeSource,
      schemaVersion: await this.#store.schemaVersion(),
      vectors: { ranking: this.#store.vectorRanking, reason: this.#store.vectorReason ?? 'ranked in Node' },
      now: new Date(this.now()).toISOString(),
      counts: await this.#store.counts(this.scope),
      graph: await this.graphStats(),
    };
  }

  async close(): Promise<void> {
    if (!this.#lent) fullTextIndexes.get(engineStore(this))?.close();
    // The vector chunks a write changed are written back after the answer: before the store closes, at the latest.
    try {
      await this.#scopeIndexes?.flush();
    } finally {
      await this.#store.close();
    }
  }
}

/**
 * A `db` or `scope` given blank is INVALID_INPUT naming it: taken as not given, it opened the user's global store, or
 * the default scope (a config value left empty, `process.env.AGENT_DB ?? ''`, wrote into ~/.credence).
 */
function requireNotBlank(options: CredenceOptions): void {
  const blank = (value: unknown) => typeof value === 'string' && value.trim() === '';
  if (blank(options.db))
    throw new CredenceError(
      'INVALID_INPUT',
      "db is empty: give the path of a SQLite file (or ':memory:'), or leave db out for the default store",
    );
  if (options.scope !== undefined) requireScopeShown(options.scope, 'or leave scope out for the default');
}

/**
 * A scope given that shows nothing (empty, spaces, a zero-width space: core/text isBlankText) is INVALID_INPUT: taken
 * as not given, it meant the default scope, and `forScope('')` wrote into `global` (walk 18, item 4).
 */
function requireScopeShown(scope: unknown, otherwise: string): void {
  if (typeof scope === 'string' && isBlankText(scope))
    throw new CredenceError('INVALID_INPUT', `scope is empty: name a scope, ${otherwise}`);
}

/** Opens Credence over a store (the embedded SQLite file by default). */
export async function openCredence(
  options: CredenceOptions = {},
  env: NodeJS.ProcessEnv = process.env,
  names: OptionNames = FIELD_NAMES,
): Promise<Credence> {
  requireOptions('options', options);
  requireNotBlank(options);
  const now = makeClock(options.now, env, names.now);
  const scope = resolveScope({ cwd: options.cwd ?? process.cwd(), override: options.scope ?? env.CREDENCE_SCOPE });
  const store =
    options.store ??
    (await openStore(
      {
        ...(options.db === undefined ? {} : { db: options.db }),
        ...(options.databaseUrl === undefined ? {} : { databaseUrl: options.databaseUrl }),
        names: { db: names.db, databaseUrl: names.databaseUrl },
        ...(options.readOnlyWhenUnwritable === true ? { readOnlyWhenUnwritable: true } : {}),
      },
      env,
    ));
  // A provider from outside has its answers checked (PROVIDER_UNAVAILABLE naming what is wrong, embed/checked).
  const embedder = options.embedder === undefined ? undefined : checkedEmbedder(options.embedder);
  return new Credence({
    store,
    scope,
    root: scope.root ?? options.cwd ?? process.cwd(),
    now,
    clockName: names.clock ?? clockNameOf(options.now, env, names.now),
    ...(options.newId === undefined ? {} : { newId: options.newId }),
    embedder: () => embedder ?? createEmbeddingProvider(resolveEmbeddingConfig(env)),
    ...(options.warn === undefined ? {} : { warn: options.warn }),
    names,
  });
}
