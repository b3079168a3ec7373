/**
 * @module engine/index/vector-index
 * A persistent, incremental vector index (issue 20): the vectors of one kind of item (memories, observations,
 * runs, tools) as a row-major matrix that lives with the data. A process reads the matrix the last one persisted
 * (chunks of {@link CHUNK_ROWS} rows, a few blobs instead of one row per item), then applies what changed since the
 * revision it reflects (the store's change log, migration 8): changed items are embedded again only when their text
 * changed, deleted ones leave, and only the chunks touched are written back. No text is hashed but the changed
 * ones'. A model change rebuilds the whole matrix.
 *
 * Rows are kept in no particular order (a deletion moves the last row into its place): every scan breaks ties by
 * key (vectors.ts), so the results do not depend on the order in which rows arrived.
 *
 * A store that ranks vectors itself (pgvector) keeps its embeddings table as the truth; the index then keeps the
 * keys only, and the store ranks (`storeSource`).
 */
import { createHash } from 'node:crypto';
import { resolveEmbeddingKey, type EmbeddingProvider } from '../../embed/index.js';
import type {
  EmbeddingKind,
  EmbeddingStore,
  RevisionStore,
  StoreMeta,
  VectorChunk,
  VectorIndexStore,
} from '../../store/types.js';
import { ensureEmbeddings } from '../search/search-index.js';
import { matrixSource, storeSource, type VectorMatrix, type VectorSource } from '../search/vectors.js';

/** Rows per persisted chunk: a write rewrites the chunks it touched, a read takes rows/1,024 blobs. */
export const CHUNK_ROWS = 1024;

/** One item an index holds: `key` is what callers rank, `id` its stored row, `text` what is embedded. */
export interface IndexItem {
  key: string;
  id: string;
  text: string;
}

/** What one index holds and how to read it. */
export interface IndexSpec {
  /** The persisted matrix's name in its scope (`recall:memory`, `search:tool`, …). */
  name: string;
  /** The stored kind: the embeddings' and the change log's. */
  kind: EmbeddingKind;
  /** Every item of the scope (a full build). */
  all(): Promise<IndexItem[]>;
  /** The items of these stored ids that exist (a delta). */
  byIds(ids: readonly string[]): Promise<IndexItem[]>;
}

export type IndexStore = EmbeddingStore & RevisionStore & VectorIndexStore & StoreMeta;

const textHash = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 16);

/** The stored id of a key: the key itself, or what follows `kind:`. */
const idOfKey = (key: string, prefixed: boolean): string => (prefixed ? key.slice(key.indexOf(':') + 1) : key);

/**
 * One index in memory: keys, text hashes and vectors by row, kept at `revision`. `refresh` brings it to the
 * store's revision; `source` is what search and recall rank against.
 */
export class VectorIndex {
  readonly #store: IndexStore;
  readonly #scope: string;
  readonly #embedder: EmbeddingProvider;
  readonly #spec: IndexSpec;
  /** Whether keys are `kind:id` (recall) rather than the id itself. */
  readonly #prefixed: boolean;
  readonly #inStore: boolean;
  #keys: string[] = [];
  #hashes: string[] = [];
  #row = new Map<string, number>();
  /** Stored id → key (a memory's key changes with its category). */
  #keyOf = new Map<string, string>();
  #dim = 0;
  #data = new Float32Array(0);
  #revision = -1;
  #modelKey = '';
  /** The persisted header's revision this process last read or wrote; undefined once another writer moved it. */
  #persisted: number | null | undefined = null;
  #pending: Promise<void> | undefined;
  #source: VectorSource | undefined;

  constructor(input: {
    store: IndexStore;
    scope: string;
    embedder: EmbeddingProvider;
    spec: IndexSpec;
    prefixed?: boolean;
  }) {
    this.#store = input.store;
    this.#scope = input.scope;
    this.#embedder = input.embedder;
    this.#spec = input.spec;
    this.#prefixed = input.prefixed ?? false;
    this.#inStore = input.store.vectorRanking !== 'node' && input.store.nearestEmbeddings !== undefined;
  }

  /** The revision the index reflects (-1 before its first load). */
  get revision(): number {
    return this.#revision;
  }

  /** Brings the index to the store's revision (one query when nothing changed); concurrent calls share one run. */
  refresh(): Promise<void> {
    this.#pending ??= this.#refresh().finally(() => {
      this.#pending = undefined;
    });
    return this.#pending;
  }

  /** The matrix as it is now (rows in no particular order). */
  matrix(): VectorMatrix {
    const n = this.#keys.length;
    return { ids: this.#keys, row: this.#row, dim: this.#dim, data: this.#data.subarray(0, n * this.#dim) };
  }

  /** What search and recall rank against, as the index is now. */
  source(): VectorSource {
    this.#source ??= this.#inStore
      ? storeSource({
          store: this.#store,
          scope: this.#scope,
          modelKey: this.#modelKey,
          keys: new Map(this.#keys.map((key) => [key, { kind: this.#spec.kind, refId: idOfKey(key, this.#prefixed) }])),
        })
      : matrixSource(this.matrix());
    return this.#source;
  }

  async #refresh(): Promise<void> {
    if (this.#revision < 0) {
      await this.#load();
      return;
    }
    const changes = await this.#store.changedSince(this.#scope, this.#spec.kind, this.#revision);
    if (changes.revision === this.#revision) return;
    await this.#apply(changes.revision, changes.changed, changes.removed);
  }

  /** The persisted matrix and what changed since it, or a full build when there is none (or another model's). */
  async #load(): Promise<void> {
    const modelKey = await resolveEmbeddingKey(this.#embedder);
    const persisted = this.#inStore ? undefined : await this.#store.readVectorIndex(this.#scope, this.#spec.name);
    this.#persisted = persisted?.header.revision ?? null;
    if (persisted !== undefined && persisted.header.modelKey === modelKey) {
      this.#modelKey = modelKey;
      this.#dim = persisted.header.dim;
      this.#data = new Float32Array(Math.max(persisted.header.rows, 1) * this.#dim);
      for (const chunk of persisted.chunks) {
        // Every chunk but the last is full: a chunk's rows follow the one before's.
        this.#data.set(chunk.data.subarray(0, chunk.ids.length * this.#dim), this.#keys.length * this.#dim);
        chunk.ids.forEach((key, i) => {
          this.#row.set(key, this.#keys.length);
          this.#keys.push(key);
          this.#hashes.push(chunk.hashes[i] as string);
          this.#keyOf.set(idOfKey(key, this.#prefixed), key);
        });
      }
      this.#revision = persisted.header.revision;
      this.#source = undefined;
      await this.#refresh();
      return;
    }
    await this.#build(modelKey);
  }

  /** Every item, embedded where the stored embedding is missing or stale, persisted whole. */
  async #build(modelKey: string): Promise<void> {
    const revision = await this.#store.revision(this.#scope);
    const items = await this.#spec.all();
    const vectors = await ensureEmbeddings(this.#store, this.#scope, this.#embedder, this.#spec.kind, items, {
      vectors: !this.#inStore,
    });
    this.#keys = [];
    this.#hashes = [];
    this.#row = new Map();
    this.#keyOf = new Map();
    this.#modelKey = modelKey;
    this.#dim = this.#inStore ? 0 : (vectors.values().next().value?.length ?? 0);
    this.#data = new Float32Array(Math.max(items.length, 1) * this.#dim);
    for (const item of items) {
      const v = vectors.get(item.id);
      if (!this.#inStore && v === undefined) continue;
      this.#put(item, textHash(item.text), v);
    }
    this.#revision = revision;
    this.#source = undefined;
    const all = Array.from({ length: Math.ceil(this.#keys.length / CHUNK_ROWS) }, (_, c) => c);
    await this.#persist(all);
  }

  /** Applies a delta: removed rows leave, changed items whose text changed are embedded again. */
  async #apply(revision: number, changed: readonly string[], removed: readonly string[]): Promise<void> {
    const touched = new Set<number>();
    for (const id of removed) this.#remove(id, touched);
    const items = await this.#spec.byIds(changed);
    const found = new Set(items.map((i) => i.id));
    // Changed, then deleted before this read: gone.
    for (const id of changed) if (!found.has(id)) this.#remove(id, touched);
    const stale: (IndexItem & { hash: string })[] = [];
    for (const item of items) {
      const hash = textHash(item.text);
      const r = this.#row.get(item.key);
      if (r !== undefined && this.#hashes[r] === hash) continue;
      stale.push({ ...item, hash });
    }
    if (stale.length > 0) {
      const vectors = await ensureEmbeddings(this.#store, this.#scope, this.#embedder, this.#spec.kind, stale, {
        vectors: !this.#inStore,
        only: true,
      });
      for (const item of stale) {
        const v = vectors.get(item.id);
        if (!this.#inStore && v === undefined) continue;
        if (!this.#inStore && this.#dim !== 0 && v !== undefined && v.length !== this.#dim) {
          // Another dimension under the same model key: start again.
          this.#revision = -1;
          await this.#build(this.#modelKey);
          return;
        }
        // A memory whose category changed has another key: the old row leaves.
        const old = this.#keyOf.get(item.id);
        if (old !== undefined && old !== item.key) this.#remove(item.id, touched);
        touched.add(Math.floor(this.#put(item, item.hash, v) / CHUNK_ROWS));
      }
    }
    this.#revision = revision;
    this.#source = undefined;
    await this.#persist([...touched]);
  }

  /** Adds or replaces a row; returns its index. */
  #put(item: IndexItem, hash: string, vector: Float32Array | undefined): number {
    let r = this.#row.get(item.key);
    if (r === undefined) {
      r = this.#keys.length;
      this.#keys.push(item.key);
      this.#hashes.push(hash);
      this.#row.set(item.key, r);
      this.#keyOf.set(item.id, item.key);
    } else this.#hashes[r] = hash;
    if (vector !== undefined && !this.#inStore) {
      if (this.#dim === 0) {
        this.#dim = vector.length;
        this.#data = new Float32Array(Math.max(this.#keys.length, 16) * this.#dim);
      }
      if ((r + 1) * this.#dim > this.#data.length) {
        const grown = new Float32Array(Math.max((r + 1) * this.#dim, this.#data.length * 2));
        grown.set(this.#data);
        this.#data = grown;
      }
      this.#data.set(vector.subarray(0, this.#dim), r * this.#dim);
    }
    return r;
  }

  /** Removes the row of a stored id: the last row moves into its place. */
  #remove(id: string, touched: Set<number>): void {
    const key = this.#keyOf.get(id);
    if (key === undefined) return;
    this.#keyOf.delete(id);
    const r = this.#row.get(key);
    if (r === undefined) return;
    const last = this.#keys.length - 1;
    if (r !== last) {
      const moved = this.#keys[last] as string;
      this.#keys[r] = moved;
      this.#hashes[r] = this.#hashes[last] as string;
      this.#row.set(moved, r);
      if (this.#dim > 0) this.#data.copyWithin(r * this.#dim, last * this.#dim, (last + 1) * this.#dim);
    }
    this.#keys.pop();
    this.#hashes.pop();
    this.#row.delete(key);
    touched.add(Math.floor(r / CHUNK_ROWS));
    touched.add(Math.floor(last / CHUNK_ROWS));
  }

  /** Writes the touched chunks and the header, unless another writer moved the persisted matrix meanwhile. */
  async #persist(chunks: readonly number[]): Promise<void> {
    if (this.#inStore || this.#persisted === undefined) return;
    const n = this.#keys.length;
    const count = Math.ceil(n / CHUNK_ROWS);
    const write: VectorChunk[] = chunks
      .filter((c) => c < count)
      .sort((a, b) => a - b)
      .map((c) => {
        const from = c * CHUNK_ROWS;
        const to = Math.min(n, from + CHUNK_ROWS);
        return {
          chunk: c,
          ids: this.#keys.slice(from, to),
          hashes: this.#hashes.slice(from, to),
          data: this.#data.slice(from * this.#dim, to * this.#dim),
        };
      });
    const header = { modelKey: this.#modelKey, revision: this.#revision, dim: this.#dim, rows: n, chunks: count };
    const wrote = await this.#store.writeVectorChunks(this.#scope, this.#spec.name, {
      expect: this.#persisted,
      header,
      chunks: write,
    });
    // Another process persisted its own: this one keeps its matrix in memory and stops writing.
    this.#persisted = wrote ? this.#revision : undefined;
  }
}

/**
 * Several indexes ranked as one (recall's memories, observations and runs): each part's `k` best merged into the
 * `k` best of all, ties by key, as one scan of all their rows would give; `owns` routes a key to its part.
 */
export function combinedSource(parts: readonly { owns: (key: string) => boolean; source: () => VectorSource }[]) {
  const partOf = (key: string) => parts.find((p) => p.owns(key));
  const split = (keys: Iterable<string>) => {
    const out = new Map<(typeof parts)[number], string[]>(parts.map((p) => [p, []]));
    for (const key of keys) {
      const part = partOf(key);
      if (part !== undefined) out.get(part)?.push(key);
    }
    return out;
  };
  const source: VectorSource = {
    get where() {
      return parts[0]?.source().where ?? 'memory';
    },
    scan: async (query, k, also = []) => {
      const alsoBy = split(also);
      const scans = await Promise.all(parts.map((p) => p.source().scan(query, k, alsoBy.get(p) ?? [])));
      const ranked = scans.flatMap((scan) => scan.top.map((key) => ({ key, value: scan.of(key) })));
      ranked.sort((a, b) => b.value - a.value || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
      return {
        of: (key) => {
          const i = parts.findIndex((p) => p.owns(key));
          return i < 0 ? 0 : (scans[i] as { of(id: string): number }).of(key);
        },
        top: ranked.slice(0, Math.max(0, k)).map((r) => r.key),
      };
    },
    similarity: async (query, ids) => {
      const by = split(ids);
      const out = new Map<string, number>();
      for (const p of parts) {
        const keys = by.get(p) ?? [];
        if (keys.length === 0) continue;
        for (const [key, value] of await p.source().similarity(query, keys)) out.set(key, value);
      }
      return out;
    },
  };
  return source;
}

/** A source that brings its index up to date before each use (`refresh`), then ranks with what `source` gives. */
export function liveSource(refresh: () => Promise<void>, source: () => VectorSource): VectorSource {
  return {
    get where() {
      return source().where;
    },
    get matrix() {
      return source().matrix;
    },
    scan: async (query, k, also) => {
      await refresh();
      return source().scan(query, k, also);
    },
    similarity: async (query, ids) => {
      await refresh();
      return source().similarity(query, ids);
    },
  };
}
