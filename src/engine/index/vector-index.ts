/**
 * @module engine/index/vector-index
 * A persistent, incremental vector index (issue 20): one kind's vectors (memories, observations, runs, tools) as a
 * matrix persisted in chunks of {@link CHUNK_ROWS} rows. A process reads the chunks, then applies the store's change
 * log since their revision: a changed item is embedded again only when its text changed, a deleted one leaves, and
 * only the chunks touched are written back; a model change rebuilds. Rows keep no order (a deletion moves the last
 * row into its place), so every scan breaks ties by key. A store that ranks vectors itself (pgvector) keeps its
 * embeddings table as the truth, and the index keeps the keys only. How it works: docs/how-it-works.md.
 */
import { isStoreBusy, SIDE_WRITE_WAIT_MS } from '../../core/errors.js';
import { createHash, randomUUID } from 'node:crypto';
import { resolveEmbeddingKey, type EmbeddingProvider } from '../../embed/index.js';
import type {
  EmbeddingKind,
  EmbeddingStore,
  RevisionStore,
  StoreMeta,
  VectorChunk,
  VectorIndexHeader,
  VectorIndexStore,
} from '../../store/types.js';
import { ensureEmbeddings } from '../search/search-index.js';
import {
  dotPlain,
  dotUnrolled,
  matrixSource,
  rowsOf,
  storeSource,
  type VectorMatrix,
  type SimilarityScan,
  type VectorSource,
} from '../search/vectors.js';
import { hashRowFinder } from './hash-rows.js';
import { int8Dots, int8DotsByChunk, type Int8Dots } from './int8-dots.js';
import {
  allBounded,
  bestOf,
  candidateBounds,
  candidateRows,
  keyHash,
  quantizedRowCount,
  quantizeRows,
  requantizeRows,
  rowChecksum,
  viewQuantized,
  type QuantizedRows,
} from './quantized.js';

/** Rows per persisted chunk: a write rewrites the chunks it touched, a read takes rows/1,024 blobs. */
export const CHUNK_ROWS = 1024;

/** Queries an index answers, waiting to settle, before it settles then (`settleLater`). */
export const SETTLE_AFTER = 8;

/** Chunks of floats read, and keys put in a map, per slice of `settleInSlices` (the event loop runs between). */
const SETTLE_SLICE_CHUNKS = 4;
const SETTLE_SLICE_KEYS = 8192;

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
  /**
   * Ids whose text may have changed outside the store (an instinct's or skill's file, edited by hand): checked again
   * (their text hashed) when a process loads the persisted matrix.
   */
  recheck?(): Promise<string[]>;
}

export type IndexStore = EmbeddingStore & RevisionStore & VectorIndexStore & StoreMeta;

const textHash = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 16);

/** The stored id of a key: the key itself, or what follows `kind:`. */
const idOfKey = (key: string, prefixed: boolean): string => (prefixed ? key.slice(key.indexOf(':') + 1) : key);

const utf8 = new TextDecoder();

/**
 * A chunk's keys end to end: its text, or the bytes of that text when every key is ASCII (a byte a code unit, so
 * the offsets cut the bytes as they cut the text, and a key is decoded when asked, not every key of the chunk).
 */
type KeyText = string | Uint8Array;

/** The keys of a chunk read with `keyBytes`: the bytes as they are when they are ASCII (as many as the offsets). */
function keyTextOf(chunk: VectorChunk, length: number): KeyText {
  const bytes = chunk.codeKeyBytes;
  if (bytes === undefined) return chunk.codeKeys ?? '';
  // UTF-8 takes more bytes than UTF-16 takes code units for any character past ASCII: as many means all ASCII.
  return bytes.byteLength === length ? bytes : utf8.decode(bytes);
}

const sliceKey = (text: KeyText, from: number, to: number): string =>
  typeof text === 'string' ? text.slice(from, to) : utf8.decode(text.subarray(from, to));

/**
 * The int8 copies of a matrix read without its floats and their keys' texts, when every chunk has one of the
 * header's shape (every chunk but the last of the first one's rows, as many rows as the header says): undefined
 * otherwise.
 */
function codedChunks(persisted: {
  header: VectorIndexHeader;
  chunks: VectorChunk[];
}): { codes: QuantizedRows[]; texts: KeyText[] } | undefined {
  const { header, chunks } = persisted;
  if (chunks.length !== header.chunks) return undefined;
  const out: QuantizedRows[] = [];
  const texts: KeyText[] = [];
  for (const [c, chunk] of chunks.entries()) {
    const rows = chunk.codes === undefined ? undefined : quantizedRowCount(chunk.codes.byteLength, header.dim);
    if (chunk.chunk !== c || rows === undefined || (c > 0 && c < chunks.length - 1 && rows !== out[0]?.rows))
      return undefined;
    const q = viewQuantized(chunk.codes as Uint8Array, rows, header.dim);
    const text = keyTextOf(chunk, q.offsets[rows] as number);
    if (q.offsets[rows] !== text.length) return undefined;
    out.push(q);
    texts.push(text);
  }
  const first = out[0]?.rows ?? 0;
  if (out.length > 1 && (out.at(-1)?.rows ?? 0) > first) return undefined;
  return out.reduce((n, q) => n + q.rows, 0) === header.rows ? { codes: out, texts } : undefined;
}

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
  #keyList: string[] = [];
  /**
   * The keys of a matrix read without its floats, as each chunk's text (the int8 copies' offsets cut it): a key is
   * sliced when asked, and a string of every key is made only when something needs them all.
   */
  #keyTexts: KeyText[] | undefined;
  #hashes: string[] = [];
  /** Key → row, built when first needed (a process that answers one query never builds it). */
  #row: Map<string, number> | undefined;
  /** Stored id → key (a memory's key changes with its category), built when first needed. */
  #keyOf: Map<string, string> | undefined;
  #dim = 0;
  /** The rows in segments of {@link CHUNK_ROWS} (the persisted chunks, read as they are). */
  #segments: Float32Array[] = [];
  #revision = -1;
  #modelKey = '';
  /** The generation of the matrix this index holds (drawn anew by a full build). */
  #generation = '';
  /** The persisted header's revision this process last read or wrote; undefined once another writer moved it. */
  #persisted: { revision: number; generation: string } | null | undefined = null;
  #pending: Promise<void> | undefined;
  /** How many queries brought the index up to date (`refresh`). */
  #queries = 0;
  /** Rows per segment and persisted chunk: {@link CHUNK_ROWS}, or what the persisted matrix was written with. */
  #per: number;
  readonly #chunkRows: number;
  #source: VectorSource | undefined;
  /**
   * The int8 copy of each chunk (quantized.ts), which every scan reads first: the rows that may rank are then
   * scored from their floats, held (`#segments`) or, while the index holds the copies alone (a process that loaded a
   * current matrix), read for those rows only. The floats are read whole for a delta that changes rows.
   */
  #codes: QuantizedRows[] | undefined;
  /** Whether the index holds the int8 copies alone (the floats not read: `#segments` empty). */
  #floatless = false;
  /** The int8 copies' codes in WebAssembly memory (SIMD dot products), made at the first scan; null: none. */
  #simd: Int8Dots | null | undefined;
  /** Whether `#simd` goes through the codes a chunk at a time (`int8DotsByChunk`) rather than holding them. */
  #simdByChunk = false;
  /** Rows whose floats were written since the int8 copies were last made (`#put`, `#remove`): made again alone. */
  #fresh = new Set<number>();
  /** The bytes of the int8 copies made here since the last write (`#requantize`), for `#persist` to write. */
  #made = new Map<number, { codes: Uint8Array; keys: string }>();
  /** Moves when the rows held are replaced or their floats read: a scan that awaited meanwhile starts again. */
  #epoch = 0;
  #reading: Promise<boolean> | undefined;
  /** The timer of a `settleLater`, the queries asked while it waits, whether it fired, and the settle running. */
  #later: ReturnType<typeof setTimeout> | undefined;
  #waited = 0;
  #turned = false;
  #settling: Promise<void> | undefined;
  /**
   * What a delta changed and is not yet written back (`#persistLater`): the chunks, whether anything is (the header's
   * revision moves with every delta), the turn of the event loop it is written on, and the write under way.
   */
  #dirty = new Set<number>();
  #unwritten = false;
  #flushLater: ReturnType<typeof setImmediate> | undefined;
  #writing: Promise<void> | undefined;
  /** The `settleInSlices` under way: a query meanwhile ranks against the index as it is, without waiting. */
  #slicing: Promise<void> | undefined;

  constructor(input: {
    store: IndexStore;
    scope: string;
    embedder: EmbeddingProvider;
    spec: IndexSpec;
    prefixed?: boolean;
    /** Rows per chunk of a matrix this index writes anew. @default CHUNK_ROWS */
    chunkRows?: number;
  }) {
    this.#store = input.store;
    this.#scope = input.scope;
    this.#embedder = input.embedder;
    this.#spec = input.spec;
    this.#prefixed = input.prefixed ?? false;
    this.#per = input.chunkRows ?? CHUNK_ROWS;
    this.#chunkRows = this.#per;
    this.#inStore = input.store.vectorRanking !== 'node' && input.store.nearestEmbeddings !== undefined;
  }

  get #keys(): string[] {
    const texts = this.#keyTexts;
    if (texts !== undefined) {
      this.#keyTexts = undefined;
      this.#keyList = (this.#codes as QuantizedRows[]).flatMap((q, c) =>
        Array.from({ length: q.rows }, (_, i) =>
          sliceKey(texts[c] as KeyText, q.offsets[i] as number, q.offsets[i + 1] as number),
        ),
      );
    }
    return this.#keyList;
  }

  set #keys(keys: string[]) {
    this.#keyList = keys;
    this.#keyTexts = undefined;
  }

  /** How many rows the index holds. */
  #count(): number {
    return this.#keyTexts === undefined ? this.#keyList.length : (this.#codes ?? []).reduce((n, q) => n + q.rows, 0);
  }

  /** The key of row `r`. */
  #keyAt(r: number): string {
    const texts = this.#keyTexts;
    if (texts === undefined) return this.#keyList[r] as string;
    const c = Math.floor(r / this.#per);
    const q = (this.#codes as QuantizedRows[])[c] as QuantizedRows;
    const i = r - c * this.#per;
    return sliceKey(texts[c] as KeyText, q.offsets[i] as number, q.offsets[i + 1] as number);
  }

  /**
   * The rows of these keys: by the key hashes of the int8 copies (a pass over 4 bytes a row, no map of every key),
   * else by the matrix.
   */
  #rowsOfKeys(keys: Iterable<string>): Map<string, number> {
    if (this.#codes === undefined || (this.#keyTexts === undefined && this.#row !== undefined))
      return rowsOf(this.matrix(), keys);
    const wanted = new Map<number, string[]>();
    for (const key of keys) {
      const h = keyHash(key);
      const same = wanted.get(h);
      if (same === undefined) wanted.set(h, [key]);
      else if (!same.includes(key)) same.push(key);
    }
    const out = new Map<string, number>();
    if (wanted.size === 0) return out;
    const codes = this.#codes as QuantizedRows[];
    const finder = wanted.size > 1 ? hashRowFinder() : undefined;
    if (finder !== undefined) {
      // Every row's hash read once in WebAssembly (hash-rows.ts); the keys of the rows found are then compared in
      // the order the search below gives (chunk by chunk, each hash as asked, its rows in order).
      const found = finder.find(
        codes.map((q) => q.hashes.subarray(0, q.rows)),
        [...wanted.keys()],
      );
      let f = 0;
      let row = 0;
      for (const q of codes) {
        const end = row + q.rows;
        const from = f;
        while (f < found.length && (found[f] as number) < end) f += 1;
        if (f > from)
          for (const [h, same] of wanted)
            for (let i = from; i < f; i += 1) {
              const r = found[i] as number;
              if (q.hashes[r - row] !== h) continue;
              const key = this.#keyAt(r);
              if (same.includes(key)) out.set(key, r);
            }
        row = end;
      }
      return out;
    }
    // Each hash looked for by the typed array's own search (native code: a process answering one query runs a loop
    // of its own over every row before it is optimised, several times slower), then the rows' keys compared.
    let row = 0;
    for (const q of codes) {
      const { hashes } = q;
      for (const [h, same] of wanted) {
        for (let i = hashes.indexOf(h); i >= 0; i = hashes.indexOf(h, i + 1)) {
          const key = this.#keyAt(row + i);
          if (same.includes(key)) out.set(key, row + i);
        }
      }
      row += q.rows;
    }
    return out;
  }

  /** The revision the index reflects (-1 before its first load). */
  get revision(): number {
    return this.#revision;
  }

  /** Whether the index is loaded and was asked twice or more (a long-lived process's: a writer keeps it current). */
  get kept(): boolean {
    return this.#revision >= 0 && this.#queries >= 2;
  }

  /** Brings the index to the store's revision (one query when nothing changed); concurrent calls share one run. */
  /** Counts a query about to rank against the index (from its second, lookups use a map of every key). */
  asked(): void {
    this.#queries += 1;
    if (this.#later !== undefined) this.#waited += 1;
  }

  /**
   * From a process's second query on (a server's), the index holds its floats and its key maps: a write then
   * updates a few rows in place instead of reading every float first. A process that answers one query reads the
   * int8 copies alone.
   */
  async settle(): Promise<void> {
    if (this.#queries < 2 || this.#inStore) return;
    if (this.#floatless) await this.#readFloats();
    this.#rows();
    this.#ids();
    // The codes held in WebAssembly memory now, not at the next query.
    if (!this.#floatless && this.#simdByChunk) this.#makeSimd();
  }

  /** Whether `settle` has work left (floats or key maps to make). */
  #unsettled(): boolean {
    return this.#queries >= 2 && !this.#inStore && (this.#floatless || this.#row === undefined || !this.#keyOf);
  }

  /**
   * Marks the index to `settle` before its first query once the work at hand is done, that is once the event loop
   * has turned (a timer that only sets a flag: no store read runs beside a caller's, and the process is not kept
   * alive): neither the request that asked a second time (a first `/api/ask` asks the runs' index four times) nor a
   * process that answers one command waits for it, a server's next request does. A caller that keeps asking
   * without a pause (a loop in process) settles at its {@link SETTLE_AFTER}th query from here.
   */
  settleLater(): void {
    if (this.#later !== undefined || this.#turned || !this.#unsettled()) return;
    this.#waited = 0;
    this.#later = setTimeout(() => {
      this.#later = undefined;
      this.#turned = true;
    }, 0);
    this.#later.unref?.();
  }

  /**
   * `settle` a slice at a time, `pause()` awaited before each (a server's warm-up, issue 20): the floats a few chunks
   * a read, the key maps a few thousand keys a turn. A query meanwhile ranks against the index as it is, never
   * waiting for the rest; a write meanwhile leaves the maps to the next `settle`.
   */
  async settleInSlices(pause: () => Promise<void>): Promise<void> {
    if (!this.#unsettled()) return;
    this.#slicing ??= this.#settleSliced(pause).finally(() => {
      this.#slicing = undefined;
    });
    await this.#slicing;
  }

  async #settleSliced(pause: () => Promise<void>): Promise<void> {
    if (this.#floatless) {
      this.#reading ??= this.#readAllFloats(pause).finally(() => {
        this.#reading = undefined;
      });
      await this.#reading;
    }
    if (this.#row === undefined) {
      const row = await this.#mapInSlices((key, r) => [key, r], pause);
      if (row !== undefined && this.#row === undefined) this.#row = row;
    }
    if (this.#keyOf === undefined) {
      const ids = await this.#mapInSlices((key) => [idOfKey(key, this.#prefixed), key], pause);
      if (ids !== undefined && this.#keyOf === undefined) this.#keyOf = ids;
    }
    if (this.#unsettled()) return;
    if (this.#simdByChunk && !this.#floatless) this.#makeSimd();
    // Settled: a `settleLater` pending has nothing left to do.
    if (this.#later !== undefined) clearTimeout(this.#later);
    this.#later = undefined;
    this.#turned = false;
  }

  /**
   * A map of every key made `SETTLE_SLICE_KEYS` at a time; undefined when the rows moved meanwhile (a write, a
   * load: whatever changed them made its own maps, or the next `settle` makes them).
   */
  async #mapInSlices<V>(
    entry: (key: string, r: number) => [string, V],
    pause: () => Promise<void>,
  ): Promise<Map<string, V> | undefined> {
    const keys = this.#keys;
    const epoch = this.#epoch;
    const n = keys.length;
    const map = new Map<string, V>();
    for (let from = 0; from < n; from += SETTLE_SLICE_KEYS) {
      await pause();
      if (this.#epoch !== epoch || this.#keyList !== keys || keys.length !== n || this.#pending !== undefined)
        return undefined;
      const to = Math.min(n, from + SETTLE_SLICE_KEYS);
      for (let r = from; r < to; r += 1) {
        const [key, value] = entry(keys[r] as string, r);
        map.set(key, value);
      }
    }
    return map;
  }

  /** Before a query: settles when marked by `settleLater` and the event loop has turned since, or it waited long. */
  async settled(): Promise<void> {
    if (this.#slicing !== undefined) return;
    if (!this.#turned && !(this.#later !== undefined && this.#waited >= SETTLE_AFTER)) return;
    if (this.#later !== undefined) clearTimeout(this.#later);
    this.#later = undefined;
    this.#turned = false;
    await this.#settleNow();
  }

  #settleNow(): Promise<void> {
    this.#settling ??= this.settle().finally(() => {
      this.#settling = undefined;
    });
    return this.#settling;
  }

  refresh(): Promise<void> {
    this.#pending ??= this.#refresh().finally(() => {
      this.#pending = undefined;
    });
    return this.#pending;
  }

  /** The matrix as it is now (rows in no particular order); its floats are read first when the index has none. */
  async floats(): Promise<VectorMatrix> {
    if (this.#floatless) await this.#readFloats();
    return this.matrix();
  }

  /** The matrix as it is now (rows in no particular order; no rows' floats while it holds their int8 copies). */
  matrix(): VectorMatrix {
    const index = this;
    return {
      ids: this.#keys,
      get row() {
        return index.#rows();
      },
      // The lookups of a process's first query pass over the keys; from its second query, the map is built once
      // and kept (a process that answers one query never builds it, a server builds it once).
      get indexed() {
        return index.#row !== undefined || index.#queries > 1;
      },
      dim: this.#dim,
      data: new Float32Array(0),
      segments: this.#segments,
      segmentRows: this.#per,
    };
  }

  #rows(): Map<string, number> {
    this.#row ??= new Map(this.#keys.map((key, r) => [key, r]));
    return this.#row;
  }

  #ids(): Map<string, string> {
    this.#keyOf ??= new Map(this.#keys.map((key) => [idOfKey(key, this.#prefixed), key]));
    return this.#keyOf;
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
      : this.#codes !== undefined && (this.#floatless || allBounded(this.#codes))
        ? this.#codedSource()
        : matrixSource(this.matrix());
    return this.#source;
  }

  /**
   * Ranks against the int8 copies: the rows that may be among the `k` best, then every asked row scored from its
   * float32 values as `scanSimilar` and `similarityOf` score it (the same results, to the bit).
   */
  #codedSource(): BoundedSource {
    const exact = async () => {
      await this.#readFloats();
      return matrixSource(this.matrix());
    };
    const source: BoundedSource = {
      where: 'memory',
      bound: (query, k, also = []) => {
        const codes = this.#codes;
        if (query === undefined || this.#dim === 0 || codes === undefined || !query.every(Number.isFinite)) return;
        const dim = Math.min(this.#dim, query.length);
        if (isZero(query, dim) && allBounded(codes)) return;
        if (this.#simd === undefined || (this.#simdByChunk && !this.#floatless)) this.#makeSimd();
        const epoch = this.#epoch;
        const { rows, highs, floor } = candidateBounds(codes, query, dim, k, this.#simd ?? undefined);
        return {
          floor,
          finish: async (cut) => {
            // Only rows whose high reaches the cut (at least this matrix's floor) can rank among the k best of all.
            const top = rows.filter((_, i) => (highs[i] as number) >= cut);
            const asked = this.#rowsOfKeys(also);
            const values = await this.#values([...top, ...asked.values()], query, dim);
            // Another writer replaced the rows, or their floats cannot be read as they were: the one-phase scan.
            if (values === undefined || this.#epoch !== epoch) return this.source().scan(query, k, also);
            // Of the best k of those, the ones that reach the cut: the best of this matrix in its own order (every row
            // at least that good is among `top`), each one of those a scan of this matrix alone gives.
            const ranked = bestOf(
              top,
              (r) => this.#keyAt(r),
              (r) => values.get(r) as number,
              k,
            ).filter((r) => r.value >= cut);
            const of = new Map<string, number>();
            for (const [key, r] of asked) of.set(key, values.get(r) as number);
            for (const { key, value } of ranked) of.set(key, value);
            // The rest of this matrix's own k best, asked for by key: from the one-phase scan, made when needed.
            let alone: Promise<{ of(id: string): number }> | undefined;
            return {
              of: (id) => of.get(id) ?? 0,
              top: ranked.map((r) => r.key),
              settle: async (ids) => {
                const missing = [...ids].filter((id) => !of.has(id));
                if (missing.length === 0 || ranked.length === Math.floor(k)) return;
                alone ??= this.source().scan(query, k, also);
                const all = await alone;
                for (const id of missing) of.set(id, all.of(id));
              },
            };
          },
        };
      },
      scan: async (query, k, also = []) => {
        const codes = this.#codes;
        if (query === undefined || this.#dim === 0 || codes === undefined) return (await exact()).scan(query, k, also);
        if (!query.every(Number.isFinite)) return (await exact()).scan(query, k, also);
        const dim = Math.min(this.#dim, query.length);
        if (isZero(query, dim) && allBounded(codes)) return this.#zeroScan(k);
        // While the index holds the int8 copies alone (a process's first query), the codes go through WebAssembly
        // memory a chunk at a time; once it holds its floats (a server), they are kept there, with room for a few
        // more rows: a long-lived index writes added rows in place.
        if (this.#simd === undefined || (this.#simdByChunk && !this.#floatless)) this.#makeSimd();
        const top = candidateRows(codes, query, dim, k, this.#simd ?? undefined);
        const asked = this.#rowsOfKeys(also);
        const values = new Map<number, number>();
        if (!this.#floatless) {
          for (const r of [...top, ...asked.values()]) values.set(r, this.#dot(r, query, dim, dotUnrolled));
        } else {
          const epoch = this.#epoch;
          const floats = await this.#rowFloats([...top, ...asked.values()]);
          if (this.#epoch !== epoch) return this.source().scan(query, k, also);
          if (floats === undefined) return (await exact()).scan(query, k, also);
          for (const [r, v] of floats) values.set(r, dotUnrolled(v, 0, query, dim));
        }
        const ranked = bestOf(
          top,
          (r) => this.#keyAt(r),
          (r) => values.get(r) as number,
          k,
        );
        const of = new Map<string, number>();
        for (const [key, r] of asked) of.set(key, values.get(r) as number);
        for (const { key, value } of ranked) of.set(key, value);
        return { of: (id) => of.get(id) ?? 0, top: ranked.map((r) => r.key) };
      },
      similarity: async (query, ids) => {
        const out = new Map<string, number>();
        if (query === undefined || this.#dim === 0) return out;
        const asked = this.#rowsOfKeys(ids);
        if (!this.#floatless) {
          const dim = Math.min(this.#dim, query.length);
          for (const [key, r] of asked) out.set(key, this.#dot(r, query, dim, dotPlain));
          return out;
        }
        const epoch = this.#epoch;
        const floats = await this.#rowFloats([...asked.values()]);
        if (this.#epoch !== epoch) return this.source().similarity(query, ids);
        if (floats === undefined) return (await exact()).similarity(query, ids);
        const dim = Math.min(this.#dim, query.length);
        for (const [key, r] of asked) out.set(key, dotPlain(floats.get(r) as Float32Array, 0, query, dim));
        return out;
      },
    };
    return source;
  }

  /**
   * The dot products (`scanSimilar`'s) of these rows with `query`: from the floats held, else read for these rows
   * (undefined when they cannot be read as they were).
   */
  async #values(rows: readonly number[], query: Float32Array, dim: number): Promise<Map<number, number> | undefined> {
    const values = new Map<number, number>();
    if (!this.#floatless) {
      for (const r of rows) values.set(r, this.#dot(r, query, dim, dotUnrolled));
      return values;
    }
    const floats = rows.length === 0 ? new Map<number, Float32Array>() : await this.#rowFloats(rows);
    if (floats === undefined) return undefined;
    for (const [r, v] of floats) values.set(r, dotUnrolled(v, 0, query, dim));
    return values;
  }

  /**
   * A query of zeros scores every row 0 (all are finite, `allBounded`): the `k` best are the `k` smallest keys, as
   * a full scan ties them, and no row's values are read (a text of no known word, such as a DAG part '2013', would
   * else keep every row through the int8 pass and read them all).
   */
  #zeroScan(k: number): { of: (id: string) => number; top: string[] } {
    const want = Math.max(0, Math.floor(k));
    const texts = this.#keyTexts;
    if (texts?.every((t) => typeof t !== 'string'))
      return { of: () => 0, top: this.#smallestKeys(want, texts as Uint8Array[]) };
    const top: string[] = [];
    const n = this.#count();
    for (let r = 0; r < n && want > 0; r += 1) {
      const key = this.#keyAt(r);
      if (top.length === want && key >= (top[want - 1] as string)) continue;
      let at = top.length;
      while (at > 0 && key < (top[at - 1] as string)) at -= 1;
      top.splice(at, 0, key);
      if (top.length > want) top.pop();
    }
    return { of: () => 0, top };
  }

  /**
   * The `want` smallest keys (code-unit order), from the ASCII bytes of each chunk's keys as read: each chunk's text
   * decoded once and cut by its offsets (a zero scan over 100k rows decoded each key alone, or compared its bytes in
   * a loop of its own: native string comparisons are several times faster in a process that answers one query).
   */
  #smallestKeys(want: number, texts: readonly Uint8Array[]): string[] {
    const top: string[] = [];
    const codes = this.#codes as QuantizedRows[];
    for (const [c, bytes] of texts.entries()) {
      const { offsets, rows } = codes[c] as QuantizedRows;
      // ASCII: a byte a code unit, so the offsets cut the text as they cut the bytes.
      const text = utf8.decode(bytes);
      for (let i = 0; i < rows && want > 0; i += 1) {
        const key = text.slice(offsets[i] as number, offsets[i + 1] as number);
        const n = top.length;
        if (n === want && key >= (top[n - 1] as string)) continue;
        // Where it sorts: after every kept key it is not before (the first of equal keys stays first).
        let lo = 0;
        let hi = n;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if (key < (top[mid] as string)) hi = mid;
          else lo = mid + 1;
        }
        top.splice(lo, 0, key);
        if (top.length > want) top.pop();
      }
    }
    return top;
  }

  /**
   * The SIMD dot products of the int8 copies: the codes passed a chunk at a time while the index holds them alone,
   * else held in WebAssembly memory with room for a few more rows (a long-lived index writes added rows in place).
   */
  #makeSimd(): void {
    const chunks = (this.#codes ?? []).map((q) => q.codes);
    this.#simdByChunk = this.#floatless;
    this.#simd =
      (this.#floatless ? int8DotsByChunk(chunks, this.#dim) : int8Dots(chunks, this.#dim, this.#count() + this.#per)) ??
      null;
  }

  /** Row `r`'s dot product with `query`, from the floats held, by `dot` (`scanSimilar`'s or `similarityOf`'s). */
  #dot(r: number, query: Float32Array, dim: number, dot: typeof dotPlain): number {
    const c = Math.floor(r / this.#per);
    return dot(this.#segments[c] as Float32Array, (r - c * this.#per) * this.#dim, query, dim);
  }

  /**
   * The float32 values of these rows, while the index holds their int8 copies: from the embeddings table where the
   * stored vector is the row's (same model, same checksum of its bits), else from the persisted
   * chunks of this matrix. Undefined when neither holds them as they were (another writer replaced the matrix).
   */
  async #rowFloats(rows: readonly number[]): Promise<Map<number, Float32Array> | undefined> {
    const codes = this.#codes as QuantizedRows[];
    const dim = this.#dim;
    const per = this.#per;
    const out = new Map<number, Float32Array>();
    const wanted = [...new Set(rows)];
    const same = (r: number, v: Float32Array) => {
      const q = codes[Math.floor(r / per)] as QuantizedRows;
      const at = r % per;
      const [h1, h2] = rowChecksum(v, 0, dim);
      return q.sums[2 * at] === h1 && q.sums[2 * at + 1] === h2;
    };
    const idOf = new Map(wanted.map((r) => [idOfKey(this.#keyAt(r), this.#prefixed), r]));
    const stored = await this.#store.getEmbeddingsFor(this.#scope, this.#spec.kind, [...idOf.keys()]);
    for (const e of stored) {
      const r = idOf.get(e.refId);
      if (r === undefined || e.modelKey !== this.#modelKey) continue;
      if (e.vector.length < dim) continue;
      const v = e.vector.length === dim ? e.vector : e.vector.slice(0, dim);
      if (same(r, v)) out.set(r, v);
    }
    const missing = wanted.filter((r) => !out.has(r));
    if (missing.length === 0) return out;
    const expect = this.#persisted;
    if (expect === null || expect === undefined) return undefined;
    const chunks = await this.#store.readVectorChunks(this.#scope, this.#spec.name, {
      chunks: missing.map((r) => Math.floor(r / per)),
      expect,
    });
    if (chunks === undefined) return undefined;
    const byChunk = new Map(chunks.map((c) => [c.chunk, c.data]));
    for (const r of missing) {
      const data = byChunk.get(Math.floor(r / per));
      const base = (r % per) * dim;
      if (data === undefined || data.length < base + dim) return undefined;
      const v = data.slice(base, base + dim);
      if (!same(r, v)) return undefined;
      out.set(r, v);
    }
    return out;
  }

  /**
   * Reads the floats of the matrix this index holds (its chunks, unless another writer replaced them: then the
   * index loads again from what is persisted now, floats and all: true).
   */
  #readFloats(): Promise<boolean> {
    this.#reading ??= this.#readAllFloats().finally(() => {
      this.#reading = undefined;
    });
    return this.#reading;
  }

  /** With `pause`, a few chunks a read, `pause()` awaited before each (each read checks the matrix is the same). */
  async #readAllFloats(pause?: () => Promise<void>): Promise<boolean> {
    if (!this.#floatless) return false;
    const expect = this.#persisted;
    const count = Math.ceil(this.#count() / this.#per);
    const all = Array.from({ length: count }, (_, c) => c);
    const slice = pause === undefined ? Math.max(1, count) : SETTLE_SLICE_CHUNKS;
    let chunks: VectorChunk[] | undefined;
    if (expect !== null && expect !== undefined) {
      chunks = [];
      for (let from = 0; chunks !== undefined && (from < count || from === 0); from += slice) {
        if (pause !== undefined) await pause();
        const read = await this.#store.readVectorChunks(this.#scope, this.#spec.name, {
          chunks: all.slice(from, from + slice),
          expect,
        });
        if (read === undefined) chunks = undefined;
        else chunks.push(...read);
      }
    }
    if (chunks === undefined || chunks.length !== count) {
      this.#reset();
      await this.#load(true);
      return true;
    }
    // The same rows: their int8 copies (and their SIMD memory) stay.
    this.#epoch += 1;
    this.#keys = chunks.flatMap((c) => c.ids);
    this.#segments = chunks.map((c) => c.data);
    this.#hashes = chunks.flatMap((c) => c.hashes);
    this.#floatless = false;
    this.#source = undefined;
    return false;
  }

  /** Forgets everything held: the next load starts again. */
  #reset(): void {
    this.#epoch += 1;
    this.#made = new Map();
    this.#fresh = new Set();
    this.#simd = undefined;
    this.#keys = [];
    this.#hashes = [];
    this.#row = undefined;
    this.#keyOf = undefined;
    this.#dim = 0;
    this.#segments = [];
    this.#codes = undefined;
    this.#floatless = false;
    this.#revision = -1;
    this.#generation = '';
    this.#persisted = null;
    this.#dirty = new Set();
    this.#unwritten = false;
    this.#per = this.#chunkRows;
    this.#source = undefined;
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

  /**
   * The persisted matrix and what changed since it, or a full build when there is none (or another model's). Its
   * int8 copies without its floats when every chunk has one (unless `floats`).
   */
  async #load(floats = false): Promise<void> {
    const modelKey = await resolveEmbeddingKey(this.#embedder);
    const read = (withFloats: boolean) =>
      this.#inStore
        ? undefined
        : this.#store.readVectorIndex(
            this.#scope,
            this.#spec.name,
            withFloats ? {} : { floats: false, keyBytes: true },
          );
    let persisted = await read(floats);
    const coded = !floats && persisted !== undefined ? codedChunks(persisted) : undefined;
    const codes = coded?.codes;
    /** Chunks to write again: the matrix was persisted without its int8 copies (by an older writer). */
    let again: number[] = [];
    if (!floats && persisted !== undefined && persisted.header.modelKey === modelKey && codes === undefined) {
      persisted = await read(true);
      again = (persisted?.chunks ?? []).map((c) => c.chunk);
    }
    const header = persisted?.header;
    this.#persisted = header === undefined ? null : { revision: header.revision, generation: header.generation };
    if (persisted !== undefined && persisted.header.modelKey === modelKey) {
      this.#modelKey = modelKey;
      this.#generation = persisted.header.generation;
      this.#dim = persisted.header.dim;
      if (codes !== undefined) {
        // The int8 copies, the keys as their texts, no hashes (read for the rows a delta names: `#moves`).
        this.#per = persisted.header.chunks > 1 ? (codes[0]?.rows ?? 0) : Math.max(this.#per, codes[0]?.rows ?? 0);
        this.#codes = codes;
        this.#floatless = true;
        this.#simd = undefined;
        this.#keyList = [];
        this.#keyTexts = coded?.texts;
        this.#hashes = new Array<string>(persisted.header.rows);
      } else {
        // Every chunk but the last is full: chunk c holds rows c × (the first chunk's rows) on, as they were read.
        const first = persisted.chunks[0]?.ids.length ?? 0;
        this.#per = persisted.header.chunks > 1 ? first : Math.max(this.#per, first);
        for (const chunk of persisted.chunks) {
          this.#segments.push(chunk.data);
          for (const key of chunk.ids) this.#keys.push(key);
          for (const hash of chunk.hashes) this.#hashes.push(hash);
        }
        this.#requantize(persisted.chunks.map((c) => c.chunk));
      }
      this.#revision = persisted.header.revision;
      this.#source = undefined;
      // A row with a value that is not finite has no bound: the floats are scanned.
      if (this.#floatless && !allBounded(this.#codes ?? []) && (await this.#readFloats())) return;
      const [changes, recheck] = await Promise.all([
        this.#store.changedSince(this.#scope, this.#spec.kind, this.#revision),
        this.#spec.recheck?.() ?? [],
      ]);
      if (changes.revision !== this.#revision || recheck.length > 0)
        await this.#apply(changes.revision, [...changes.changed, ...recheck], changes.removed);
      if (again.length > 0 && this.#revision >= 0) await this.#persist(again);
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
    this.#segments = [];
    this.#codes = undefined;
    this.#simd = undefined;
    this.#modelKey = modelKey;
    this.#generation = randomUUID();
    this.#dim = this.#inStore ? 0 : (vectors.values().next().value?.length ?? 0);
    for (const item of items) {
      const v = vectors.get(item.id);
      if (!this.#inStore && v === undefined) continue;
      this.#put(item, textHash(item.text), v);
    }
    this.#revision = revision;
    this.#source = undefined;
    const all = Array.from({ length: Math.ceil(this.#keys.length / this.#per) }, (_, c) => c);
    this.#requantize(all);
    await this.#persist(all);
  }

  /** Applies a delta: removed rows leave, changed items whose text changed are embedded again. */
  async #apply(revision: number, changed: readonly string[], removed: readonly string[]): Promise<void> {
    const touched = new Set<number>();
    const items = await this.#spec.byIds(changed);
    const found = new Set(items.map((i) => i.id));
    const gone = [...removed, ...changed.filter((id) => !found.has(id))];
    if (this.#floatless && (await this.#moves(items, gone))) {
      // Rows change: the floats first (the chunks written back hold them).
      // Loaded again from what is persisted now (another writer replaced the matrix): that load applied the delta.
      if (await this.#readFloats()) return;
    }
    for (const id of removed) this.#remove(id, touched);
    // Changed, then deleted before this read: gone.
    for (const id of changed) if (!found.has(id)) this.#remove(id, touched);
    const stale: (IndexItem & { hash: string })[] = [];
    for (const item of items) {
      const hash = textHash(item.text);
      const r = this.#rows().get(item.key);
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
        const old = this.#ids().get(item.id);
        if (old !== undefined && old !== item.key) this.#remove(item.id, touched);
        touched.add(Math.floor(this.#put(item, item.hash, v) / this.#per));
      }
    }
    this.#revision = revision;
    this.#source = undefined;
    this.#requantize(touched);
    this.#persistLater(touched);
  }

  /**
   * Writes back the chunks a delta touched after the answer, on the next turn of the event loop (issue 20: a query
   * right after a write no longer waits for it); {@link flush} writes them at once (a closing engine awaits it).
   */
  #persistLater(chunks: Iterable<number>): void {
    for (const c of chunks) this.#dirty.add(c);
    this.#unwritten = true;
    if (this.#flushLater !== undefined) return;
    this.#flushLater = setImmediate(() => {
      this.#flushLater = undefined;
      // A store closed meanwhile: the next process applies the change log to what was written before.
      this.flush().catch(() => undefined);
    });
  }

  /** Writes back what deltas changed and is not written yet (after a read of the floats under way); then resolves. */
  async flush(): Promise<void> {
    if (this.#flushLater !== undefined) clearImmediate(this.#flushLater);
    this.#flushLater = undefined;
    while (this.#unwritten) {
      // A read of the persisted chunks under way expects them as they are: written after it.
      if (this.#reading !== undefined) await this.#reading.catch(() => undefined);
      else await this.#persist([]);
    }
    await this.#writing;
  }

  /**
   * Makes the int8 copies of these chunks again from the floats held (rows changed, moved, added) and drops the
   * copies past the last row; the SIMD memory gets them in place, or is made again at the next scan when they no
   * longer fit in it.
   */
  #requantize(chunks: Iterable<number>): void {
    const fresh = this.#fresh;
    this.#fresh = new Set();
    if (this.#inStore || this.#dim === 0 || this.#floatless) return;
    const n = this.#keys.length;
    const per = this.#per;
    const count = Math.ceil(n / per);
    const codes = this.#codes ?? [];
    codes.length = Math.min(codes.length, count);
    const simd = this.#simd;
    let fits = simd !== undefined && simd !== null;
    for (const c of new Set(chunks)) {
      if (c >= count) continue;
      const from = c * per;
      const to = Math.min(n, from + per);
      const data = (this.#segments[c] as Float32Array).subarray(0, (to - from) * this.#dim);
      // The rows no write changed keep their copy (a write changes a few rows of a chunk of 1,024).
      const kept = codes[c];
      const made = requantizeRows(
        data,
        this.#keys.slice(from, to),
        this.#dim,
        kept === undefined ? undefined : { rows: kept, fresh: (i) => fresh.has(from + i) },
      );
      this.#made.set(c, made);
      const q = viewQuantized(made.codes, to - from, this.#dim);
      codes[c] = q;
      if (fits) fits = (simd as Int8Dots).write(from, q.codes, n);
    }
    // Every chunk has its copy (a chunk never made one would leave a hole: then none is used).
    this.#codes = codes.length === count && codes.every((q) => q !== undefined) ? codes : undefined;
    if (fits && this.#codes !== undefined) (simd as Int8Dots).write(0, new Int8Array(0), n);
    else this.#simd = undefined;
    this.#source = undefined;
  }

  /**
   * Whether applying a delta would change a row: an id gone that has one, a new item, or an item whose text changed
   * (the hashes of its chunk read first, while the index holds the int8 copies alone; true when they cannot be).
   */
  async #moves(items: readonly IndexItem[], gone: readonly string[]): Promise<boolean> {
    if (gone.some((id) => this.#ids().has(id))) return true;
    const rows: number[] = [];
    for (const item of items) {
      const r = this.#rows().get(item.key);
      if (r === undefined || this.#ids().get(item.id) !== item.key) return true;
      rows.push(r);
    }
    const unknown = [
      ...new Set(rows.filter((r) => this.#hashes[r] === undefined).map((r) => Math.floor(r / this.#per))),
    ];
    const expect = this.#persisted;
    if (unknown.length > 0) {
      if (expect === null || expect === undefined) return true;
      const chunks = await this.#store.readVectorChunks(this.#scope, this.#spec.name, { chunks: unknown, expect });
      if (chunks === undefined || chunks.length !== unknown.length) return true;
      for (const chunk of chunks) {
        const from = chunk.chunk * this.#per;
        if (chunk.ids.some((key, i) => this.#keys[from + i] !== key)) return true;
        chunk.hashes.forEach((hash, i) => {
          this.#hashes[from + i] = hash;
        });
      }
    }
    return items.some((item, i) => this.#hashes[rows[i] as number] !== textHash(item.text));
  }

  /** Adds or replaces a row; returns its index. */
  #put(item: IndexItem, hash: string, vector: Float32Array | undefined): number {
    const rows = this.#rows();
    let r = rows.get(item.key);
    if (r === undefined) {
      r = this.#keys.length;
      this.#keys.push(item.key);
      this.#hashes.push(hash);
      rows.set(item.key, r);
      this.#ids().set(item.id, item.key);
    } else this.#hashes[r] = hash;
    if (vector !== undefined && !this.#inStore) {
      if (this.#dim === 0) this.#dim = vector.length;
      const [segment, base] = this.#writable(r);
      segment.set(vector.subarray(0, this.#dim), base);
      this.#fresh.add(r);
    }
    return r;
  }

  /** The segment of row `r`, made whole (a chunk as read holds its rows only) or added, and the row's offset. */
  #writable(r: number): [Float32Array, number] {
    const per = this.#per;
    const c = Math.floor(r / per);
    while (this.#segments.length <= c) this.#segments.push(new Float32Array(per * this.#dim));
    let segment = this.#segments[c] as Float32Array;
    if (segment.length < per * this.#dim) {
      const whole = new Float32Array(per * this.#dim);
      whole.set(segment);
      segment = whole;
      this.#segments[c] = whole;
    }
    return [segment, (r - c * per) * this.#dim];
  }

  /** Removes the row of a stored id: the last row moves into its place. */
  #remove(id: string, touched: Set<number>): void {
    const ids = this.#ids();
    const rows = this.#rows();
    const key = ids.get(id);
    if (key === undefined) return;
    ids.delete(id);
    const r = rows.get(key);
    if (r === undefined) return;
    const last = this.#keys.length - 1;
    if (r !== last) {
      const moved = this.#keys[last] as string;
      this.#keys[r] = moved;
      this.#hashes[r] = this.#hashes[last] as string;
      rows.set(moved, r);
      if (this.#dim > 0 && !this.#inStore) {
        const [to, toBase] = this.#writable(r);
        const lastSegment = this.#segments[Math.floor(last / this.#per)] as Float32Array;
        const from = (last - Math.floor(last / this.#per) * this.#per) * this.#dim;
        to.set(lastSegment.subarray(from, from + this.#dim), toBase);
        this.#fresh.add(r);
      }
    }
    this.#keys.pop();
    this.#hashes.pop();
    rows.delete(key);
    touched.add(Math.floor(r / this.#per));
    touched.add(Math.floor(last / this.#per));
  }

  /** Writes the touched chunks and the header, unless another writer moved the persisted matrix meanwhile. */
  async #persist(chunks: readonly number[]): Promise<void> {
    // One write at a time, each of the matrix as it is when it starts (with every chunk a delta left unwritten).
    while (this.#writing !== undefined) await this.#writing;
    const made = this.#made;
    this.#made = new Map();
    const dirty = [...new Set([...chunks, ...this.#dirty])];
    this.#dirty = new Set();
    this.#unwritten = false;
    if (this.#inStore || this.#persisted === undefined) return;
    const n = this.#keys.length;
    const count = Math.ceil(n / this.#per);
    const write: VectorChunk[] = dirty
      .filter((c) => c < count)
      .sort((a, b) => a - b)
      .map((c) => {
        const from = c * this.#per;
        const to = Math.min(n, from + this.#per);
        // A copy: a delta applied while the store writes changes the rows in place.
        const data = (this.#segments[c] as Float32Array).slice(0, (to - from) * this.#dim);
        const ids = this.#keys.slice(from, to);
        const { codes, keys } = made.get(c) ?? quantizeRows(data, ids, this.#dim);
        return { chunk: c, ids, hashes: this.#hashes.slice(from, to), data, codes, codeKeys: keys };
      });
    const at = { revision: this.#revision, generation: this.#generation };
    const header = { modelKey: this.#modelKey, ...at, dim: this.#dim, rows: n, chunks: count };
    const expect = this.#persisted;
    const writing = this.#store
      .writeVectorChunks(
        this.#scope,
        this.#spec.name,
        { expect, header, chunks: write },
        { busyWaitMs: SIDE_WRITE_WAIT_MS },
      )
      // Another process writing (busy past a short wait): not written, as when it had persisted its own.
      .catch((error: unknown) => (isStoreBusy(error) ? false : Promise.reject(error)))
      .then((wrote) => {
        // Another process persisted its own: this one keeps its matrix in memory and stops writing (unless the
        // index loaded again meanwhile).
        if (this.#persisted === expect) this.#persisted = wrote ? at : undefined;
      });
    const tracked: Promise<void> = writing
      .catch(() => undefined)
      .then(() => {
        if (this.#writing === tracked) this.#writing = undefined;
      });
    this.#writing = tracked;
    await writing;
  }
}

/**
 * A source whose scan can go in two steps (the int8 copies): `bound` makes the first pass and gives the k-th best
 * lower bound it found (undefined: scan in one step), and `finish` ranks the rows whose upper bound reaches `cut`.
 */
export interface BoundedSource extends VectorSource {
  bound?(
    query: Float32Array | undefined,
    k: number,
    also?: Iterable<string>,
  ): { floor: number; finish(cut: number): Promise<SimilarityScan> } | undefined;
}

/**
 * Several indexes ranked as one (recall's memories, observations and runs): each part's `k` best merged into the
 * `k` best of all, ties by key, as one scan of all their rows would give; `owns` routes a key to its part. Where
 * every part scans in two steps (`bound`), the best floor of them all cuts each part's rows before any float is
 * read: a part then gives only its rows that can be among the k best of all (a part's other rows of its own k best
 * are given by key through `settle`, as a scan of each part alone would).
 */
export function combinedSource(parts: readonly { owns: (key: string) => boolean; source: () => BoundedSource }[]) {
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
      const sources = parts.map((p) => p.source());
      const bounds = [];
      for (const [i, s] of sources.entries()) {
        const b = s.bound?.(query, k, alsoBy.get(parts[i] as (typeof parts)[number]) ?? []);
        if (b === undefined) break;
        bounds.push(b);
      }
      const cut = Math.max(...bounds.map((b) => b.floor));
      // A floor that is not a number (none seen) would cut every part's rows: each part then scans alone.
      const scans: SimilarityScan[] = await Promise.all(
        bounds.length === parts.length && parts.length > 0 && !Number.isNaN(cut)
          ? bounds.map((b) => b.finish(cut))
          : sources.map((s, i) => s.scan(query, k, alsoBy.get(parts[i] as (typeof parts)[number]) ?? [])),
      );
      const ranked = scans.flatMap((scan) => scan.top.map((key) => ({ key, value: scan.of(key) })));
      ranked.sort((a, b) => b.value - a.value || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
      return {
        of: (key) => {
          const i = parts.findIndex((p) => p.owns(key));
          return i < 0 ? 0 : (scans[i] as { of(id: string): number }).of(key);
        },
        top: ranked.slice(0, Math.max(0, k)).map((r) => r.key),
        settle: async (keys) => {
          const by = split(keys);
          await Promise.all(parts.map((p, i) => scans[i]?.settle?.(by.get(p) ?? [])));
        },
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

/** Whether the first `dim` values of `query` are all zero. */
function isZero(query: Float32Array, dim: number): boolean {
  for (let d = 0; d < dim; d += 1) if (query[d] !== 0) return false;
  return true;
}
