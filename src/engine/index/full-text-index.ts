/**
 * @module engine/index/full-text-index
 * Recall's full-text search as a long-lived engine answers it (issue 20): the postings of memories, observations
 * and runs kept in memory (engine/index/fts5-postings), which rank exactly as the store's FTS5 does, without SQLite
 * computing bm25 for every matching row. They are built in the background, in slices, from the second recall of
 * the process on (a one-shot CLI process, which recalls once, never builds them); until they are ready, and for
 * an expression they do not answer, the store answers. Once built they stay current from the store's change log:
 * before each search, one read of every scope's revision (bm25's statistics cover every scope), then the rows
 * written or deleted since, by id. A revision gone back (a restore) builds them again.
 */
import type { Fts5Match } from '../../core/text/fts5.js';
import type {
  ExecutionStore,
  FullTextRow,
  FullTextStore,
  FullTextTable,
  MemoryHit,
  MemoryStore,
  ObservationRecord,
  ObservationStore,
  RevisionStore,
} from '../../store/types.js';
import type { FullTextSearch } from '../recall/recall.js';
import type { Fts5Postings, PostingHit } from './fts5-postings.js';

/** The tokenizer, the MATCH parser and the postings: loaded by the first build, never by a one-shot process. */
type Postings = typeof import('./fts5-postings.js');

export type FullTextIndexStore = FullTextStore & RevisionStore & MemoryStore & ObservationStore & ExecutionStore;

/** The logarithms kept, at most. */
const MAX_LOGS = 100_000;

/** Rows read per slice of a build; the event loop runs between slices. */
export const BUILD_SLICE_ROWS = 1000;

const TABLES: readonly { table: FullTextTable; kind: 'memory' | 'observation' | 'execution' }[] = [
  { table: 'memories', kind: 'memory' },
  { table: 'observations', kind: 'observation' },
  { table: 'executions', kind: 'execution' },
];

type State = 'idle' | 'building' | 'ready' | 'closed';

/** The next turn of the event loop; without keeping the process alive for it unless `keepAlive`. */
const yieldTurn = (keepAlive: boolean): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, 0);
    if (!keepAlive) timer.unref?.();
  });

export class FullTextIndex implements FullTextSearch {
  readonly #store: FullTextIndexStore;
  /** Undefined until built. */
  #postings: Record<FullTextTable, Fts5Postings> | undefined;
  #code: Postings | undefined;
  #state: State = 'idle';
  /** The revision of every scope the postings reflect. */
  #revisions = new Map<string, number>();
  #asked = 0;
  /** Someone awaits the build (`warm`): it keeps the process alive. */
  #awaited = false;
  #build: Promise<void> | undefined;
  #catchUp: Promise<boolean> | undefined;
  #parsed: { match: string; value: Fts5Match | undefined } | undefined;
  /** The store's logarithms by argument (they repeat: the same row counts, the same words). */
  readonly #logs = new Map<number, number>();

  readonly #sliceRows: number;

  constructor(store: FullTextIndexStore, options: { sliceRows?: number } = {}) {
    this.#store = store;
    this.#sliceRows = options.sliceRows ?? BUILD_SLICE_ROWS;
  }

  /** Whether the postings answer (built, not closed). */
  get ready(): boolean {
    return this.#state === 'ready';
  }

  /** Starts the build now (when not started) and resolves once the postings answer, or the index is closed. */
  async warm(): Promise<void> {
    this.#awaited = true;
    this.#start();
    await this.#build;
  }

  /**
   * One more recall in this process (the engine says so once per recall, whose three searches count once): from the
   * second on, the postings are built in the background. A one-shot process, which recalls once, never builds them.
   */
  asked(): void {
    this.#asked += 1;
    if (this.#asked >= 2) this.#start();
  }

  /**
   * Takes the rows written since into the postings now, when they are built (a writer calls it, issue 20: the query
   * after a write finds them current and their length normalisations made); nothing otherwise.
   */
  async catchUp(): Promise<void> {
    if (!(await this.#current())) return;
    const postings = this.#postings as Record<FullTextTable, Fts5Postings>;
    for (const { table } of TABLES) postings[table].prepare();
  }

  /** Stops a build under way; the store answers every search after. */
  close(): void {
    this.#state = 'closed';
  }

  async searchMemories(scope: string, match: string, options: { limit?: number } = {}): Promise<MemoryHit[]> {
    const hits = await this.#search('memories', scope, match, options.limit ?? 20);
    if (hits === undefined) return this.#store.searchMemories(scope, match, options);
    const memories = new Map(
      (
        await this.#store.getMemoriesByIds(
          scope,
          hits.map((h) => h.id),
        )
      ).map((m) => [m.id, m]),
    );
    return hits.flatMap((h) => {
      const memory = memories.get(h.id);
      return memory === undefined ? [] : [{ memory, bm25: h.bm25 }];
    });
  }

  async searchObservations(
    scope: string,
    match: string,
    options: { limit?: number } = {},
  ): Promise<{ observation: ObservationRecord; bm25: number }[]> {
    const hits = await this.#search('observations', scope, match, options.limit ?? 20);
    if (hits === undefined) return this.#store.searchObservations(scope, match, options);
    const found = new Map(
      (
        await this.#store.getObservationsByIds(
          scope,
          hits.map((h) => h.id),
        )
      ).map((o) => [o.id, o]),
    );
    return hits.flatMap((h) => {
      const observation = found.get(h.id);
      return observation === undefined ? [] : [{ observation, bm25: h.bm25 }];
    });
  }

  async searchExecutions(
    scope: string,
    match: string,
    options: { limit?: number } = {},
  ): Promise<{ id: string; bm25: number }[]> {
    const hits = await this.#search('executions', scope, match, options.limit ?? 20);
    if (hits === undefined) return this.#store.searchExecutions(scope, match, options);
    return hits.map((h) => ({ id: h.id, bm25: h.bm25 }));
  }

  /** The postings' hits, brought up to date first; undefined when the store must answer. */
  async #search(table: FullTextTable, scope: string, match: string, limit: number): Promise<PostingHit[] | undefined> {
    if (!(await this.#current())) return undefined;
    const parsed = this.#parse(match);
    if (parsed === undefined || !parsed.anyPhrase) return undefined;
    // The store's logarithms of the IDFs' arguments, then the search in the same turn (a catch-up may move them).
    for (;;) {
      const postings = (this.#postings as Record<FullTextTable, Fts5Postings>)[table];
      const missing = postings.logArguments(parsed).filter((x) => !this.#logs.has(x));
      if (missing.length === 0) return postings.search(scope, parsed, limit, (x) => this.#logs.get(x) as number);
      if (this.#logs.size + missing.length > MAX_LOGS) this.#logs.clear();
      const logs = await this.#store.fullTextLogs(missing);
      missing.forEach((x, i) => this.#logs.set(x, logs[i] as number));
    }
  }

  /** The MATCH expression parsed (the last one kept: recall's three searches share it); undefined if refused. */
  #parse(match: string): Fts5Match | undefined {
    if (this.#parsed?.match !== match) {
      let value: Fts5Match | undefined;
      try {
        value = (this.#code as Postings).parseFts5Match(match);
      } catch {
        value = undefined;
      }
      this.#parsed = { match, value };
    }
    return this.#parsed.value;
  }

  /** Whether the postings answer now: built, and at every scope's revision (one catch-up serves concurrent ones). */
  #current(): Promise<boolean> {
    if (this.#state !== 'ready') return Promise.resolve(false);
    this.#catchUp ??= this.#applyChanges().finally(() => {
      this.#catchUp = undefined;
    });
    return this.#catchUp;
  }

  #start(): void {
    if (this.#state !== 'idle') return;
    this.#state = 'building';
    this.#build = this.#buildAll().catch(() => {
      // A build that failed (the store closed under it) leaves the store answering.
      if (this.#state === 'building') this.#state = 'idle';
    });
  }

  /** Every row of the three tables, in slices; then whatever changed meanwhile, from the change log. */
  async #buildAll(): Promise<void> {
    this.#code ??= await import('./fts5-postings.js');
    const { Fts5Postings } = this.#code;
    const revisions = await this.#store.revisions();
    const built: Partial<Record<FullTextTable, Fts5Postings>> = {};
    for (const { table } of TABLES) {
      const postings = new Fts5Postings();
      let after = 0;
      for (;;) {
        await yieldTurn(this.#awaited);
        if (this.#state !== 'building') return;
        const rows = await this.#store.fullTextRows(table, after, this.#sliceRows);
        for (const row of rows) postings.put(row);
        if (rows.length < this.#sliceRows) break;
        after = (rows[rows.length - 1] as { rowid: number }).rowid;
      }
      postings.trim();
      built[table] = postings;
    }
    this.#postings = built as Record<FullTextTable, Fts5Postings>;
    this.#revisions = revisions;
    this.#state = 'ready';
  }

  /**
   * Applies every scope's changes since the revision the postings reflect; false (the store answers) on a restore.
   * Everything is read first, then applied in one turn of the event loop: a search resuming between two reads never
   * sees a table with a row removed and not yet put back.
   */
  async #applyChanges(): Promise<boolean> {
    const now = await this.#store.revisions();
    for (const [scope, known] of this.#revisions) {
      if ((now.get(scope) ?? 0) < known) return this.#rebuild();
    }
    const read: {
      scope: string;
      reached: number;
      tables: { table: FullTextTable; gone: string[]; rows: FullTextRow[] }[];
    }[] = [];
    for (const [scope, revision] of now) {
      const since = this.#revisions.get(scope) ?? 0;
      if (revision === since) continue;
      const entry = { scope, reached: revision, tables: [] as (typeof read)[number]['tables'] };
      for (const { table, kind } of TABLES) {
        const changes = await this.#store.changedSince(scope, kind, since);
        entry.reached = Math.min(entry.reached, changes.revision);
        const rows = await this.#store.fullTextRowsByIds(table, scope, changes.changed);
        const present = new Set(rows.map((r) => r.id));
        entry.tables.push({
          table,
          gone: [...changes.removed, ...changes.changed.filter((id) => !present.has(id))],
          rows,
        });
      }
      read.push(entry);
    }
    if (this.#state !== 'ready') return false;
    const postings = this.#postings as Record<FullTextTable, Fts5Postings>;
    for (const { scope, reached, tables } of read) {
      for (const { table, gone, rows } of tables) {
        for (const id of gone) postings[table].remove(scope, id);
        for (const row of rows) postings[table].put(row);
      }
      this.#revisions.set(scope, reached);
    }
    return true;
  }

  /** Drops the postings and builds them again in the background; the store answers meanwhile. */
  #rebuild(): false {
    if (this.#state === 'ready') {
      this.#state = 'idle';
      this.#start();
    }
    return false;
  }
}
