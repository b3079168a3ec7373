/**
 * @module engine/search/vectors
 * Embedding matrices and cosine scans (the vectors are L2-normalised, so a dot product is the
 * cosine). Apart from the search index so that recall can use them without loading it.
 *
 * A `VectorSource` is what search and recall rank against: a matrix in memory (`matrixSource`), or
 * the store itself when the database ranks vectors (`storeSource`, pgvector). Both compute every
 * similarity with the same arithmetic from the same float32 values, so a result's score is the same
 * wherever its vector was found.
 */
import type { EmbeddingKind, EmbeddingStore, NearestEmbedding, StoreMeta } from '../../store/types.js';

export interface VectorMatrix {
  ids: string[];
  row: ReadonlyMap<string, number>;
  dim: number;
  /** The rows, row-major (unless `segments` holds them). */
  data: Float32Array;
  /**
   * The rows in segments of `segmentRows` rows each (the last may be shorter), instead of `data`: a persisted
   * index's chunks, read without copying them into one array.
   */
  segments?: readonly Float32Array[];
  segmentRows?: number;
  /**
   * False while `row` is not built (a process that asks once): looking up a few keys then passes over `ids`
   * instead of building a map of every key. @default true
   */
  readonly indexed?: boolean;
}

/** The array holding row `r` and the row's offset in it. */
function rowAt(m: VectorMatrix, r: number): [Float32Array, number] {
  if (m.segments === undefined) return [m.data, r * m.dim];
  const per = m.segmentRows as number;
  const segment = Math.floor(r / per);
  return [m.segments[segment] as Float32Array, (r - segment * per) * m.dim];
}

/** The rows of `keys` that `m` holds: by its map when built, else in one pass over its ids. */
export function rowsOf(m: VectorMatrix, keys: Iterable<string>): Map<string, number> {
  const out = new Map<string, number>();
  if (m.indexed !== false) {
    for (const key of keys) {
      const r = m.row.get(key);
      if (r !== undefined) out.set(key, r);
    }
    return out;
  }
  const wanted = new Set(keys);
  if (wanted.size === 0) return out;
  const { ids } = m;
  for (let r = 0; r < ids.length && out.size < wanted.size; r += 1)
    if (wanted.has(ids[r] as string)) out.set(ids[r] as string, r);
  return out;
}

export function toMatrix(ids: readonly string[], vectors: ReadonlyMap<string, Float32Array>): VectorMatrix {
  const present = ids.filter((id) => vectors.has(id));
  const dim = present.length === 0 ? 0 : (vectors.get(present[0] as string)?.length ?? 0);
  const data = new Float32Array(present.length * dim);
  present.forEach((id, i) => data.set((vectors.get(id) as Float32Array).subarray(0, dim), i * dim));
  return { ids: present, row: new Map(present.map((id, i) => [id, i])), dim, data };
}

export interface SimilarityScan {
  /** Similarity of the query to the row of `id` (0 for an id without a vector). */
  of(id: string): number;
  /** The ids of the `k` most similar rows, best first. */
  top: string[];
  /**
   * Where `of` may not yet know some keys a scan of each part alone would (a combined scan cut by the best floor of
   * its parts): makes `of` give them as that scan would. Awaited before `of` is asked of keys outside `top` and `also`.
   */
  settle?(keys: Iterable<string>): Promise<void>;
}

/**
 * A cosine as float32 sums give it, within [−1, 1]: two unit vectors' dot product can come out a few ulps past 1
 * (1.0000000037 for a text and itself, walk 14), a similarity no score built on it (a past run's, the memory's
 * strength) may carry.
 */
export const withinCosine = (s: number): number => (s > 1 ? 1 : s < -1 ? -1 : s);

/**
 * The dot product of `q` with `dim` values of `data` from `base`, in one running sum (`similarityOf`): a cosine of
 * unit vectors, so within [−1, 1] ({@link withinCosine}).
 */
export function dotPlain(data: Float32Array, base: number, q: Float32Array, dim: number): number {
  let s = 0;
  for (let d = 0; d < dim; d += 1) s += (data[base + d] as number) * (q[d] as number);
  return withinCosine(s);
}

/**
 * The same dot product in four running sums (`scanSimilar`): independent additions the CPU can
 * overlap (1.7× faster at 100k rows). Its rounding differs from `dotPlain` in the last bits; within [−1, 1] too.
 */
export function dotUnrolled(data: Float32Array, base: number, q: Float32Array, dim: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  const tail = dim - (dim % 4);
  let d = 0;
  for (; d < tail; d += 4) {
    s0 += (data[base + d] as number) * (q[d] as number);
    s1 += (data[base + d + 1] as number) * (q[d + 1] as number);
    s2 += (data[base + d + 2] as number) * (q[d + 2] as number);
    s3 += (data[base + d + 3] as number) * (q[d + 3] as number);
  }
  for (; d < dim; d += 1) s0 += (data[base + d] as number) * (q[d] as number);
  return withinCosine(s0 + s1 + s2 + s3);
}

/** Similarity of `query` to the rows of `ids` only (no scan of the whole matrix). */
export function similarityOf(
  m: VectorMatrix,
  query: Float32Array | undefined,
  ids: Iterable<string>,
): Map<string, number> {
  const out = new Map<string, number>();
  if (query === undefined || m.dim === 0) return out;
  const dim = Math.min(m.dim, query.length);
  for (const [id, r] of rowsOf(m, ids)) {
    const [data, base] = rowAt(m, r);
    out.set(id, dotPlain(data, base, query, dim));
  }
  return out;
}

/**
 * Scores every row against `query` in one pass and keeps the `k` best (a bounded insertion list), ties by key
 * (code-unit order), so the result does not depend on the order of the rows (an incremental index keeps none).
 */
export function scanSimilar(
  m: VectorMatrix,
  query: Float32Array | undefined,
  k: number,
  also: Iterable<string> = [],
): SimilarityScan {
  const n = query === undefined || m.dim === 0 ? 0 : m.ids.length;
  const values = new Float64Array(n);
  const dim = Math.min(m.dim, query?.length ?? 0);
  const best: number[] = [];
  const q = query as Float32Array;
  const { ids } = m;
  /** Whether row `a` (score `s`) ranks before row `b`. */
  const before = (s: number, a: number, b: number): boolean => {
    const t = values[b] as number;
    return s > t || (s === t && (ids[a] as string) < (ids[b] as string));
  };
  const per = m.segments === undefined ? n : (m.segmentRows as number);
  for (let from = 0, segment = 0; from < n; from += per, segment += 1) {
    const data = m.segments === undefined ? m.data : (m.segments[segment] as Float32Array);
    const to = Math.min(n, from + per);
    for (let i = from; i < to; i += 1) {
      const s = dotUnrolled(data, (i - from) * m.dim, q, dim);
      values[i] = s;
      if (best.length < k || before(s, i, best[best.length - 1] as number)) {
        let at = best.length;
        while (at > 0 && before(s, i, best[at - 1] as number)) at -= 1;
        best.splice(at, 0, i);
        if (best.length > k) best.pop();
      }
    }
  }
  // The rows asked about (the top and `also`) found once; another key is looked up when asked.
  const known = n === 0 ? new Map<string, number>() : rowsOf(m, also);
  for (const i of best) known.set(ids[i] as string, i);
  return {
    of: (id) => {
      const r = known.get(id) ?? (n === 0 ? undefined : m.row.get(id));
      return r === undefined || r >= n ? 0 : (values[r] as number);
    },
    top: best.map((i) => m.ids[i] as string),
  };
}

/** What search and recall rank vectors against: in memory, or in the store's database. */
export interface VectorSource {
  /** Where the similarities are found. */
  readonly where: 'memory' | 'store';
  /** The matrix itself, for a source in memory (benchmarks read it). */
  readonly matrix?: VectorMatrix;
  /**
   * The `k` most similar keys and the similarity of each of them and of every key of `also` (`scanSimilar`'s
   * arithmetic).
   */
  scan(query: Float32Array | undefined, k: number, also?: Iterable<string>): Promise<SimilarityScan>;
  /** The similarity of the keys `ids` only (`similarityOf`'s arithmetic). */
  similarity(query: Float32Array | undefined, ids: Iterable<string>): Promise<Map<string, number>>;
}

export function matrixSource(m: VectorMatrix): VectorSource {
  return {
    where: 'memory',
    matrix: m,
    scan: async (query, k, also) => scanSimilar(m, query, k, also),
    similarity: async (query, ids) => similarityOf(m, query, ids),
  };
}

/** Rows a nearest query first fetches beyond `k` (it fetches more when they cannot settle the top `k`). */
const NEAREST_MARGIN = 8;

/**
 * Vectors ranked by the store (pgvector): the database finds the nearest rows and returns their
 * stored vectors; the scores are computed here as `scanSimilar` and `similarityOf` compute them.
 * `keys` maps each key the caller knows to its stored row, in the order a matrix of them would
 * have; rows outside it (written since) are not results.
 *
 * The top `k` is the one the in-memory scan finds: the same scores, ties by key. The database
 * ranks in float32, so a fetch settles the top `k` only when `k` known keys came back and the
 * `k`-th is better than anything left unfetched can be (the last row's database score plus the
 * float32 error of an inner product of unit vectors); else twice as many rows are fetched.
 */
export function storeSource(input: {
  store: EmbeddingStore & StoreMeta;
  scope: string;
  modelKey: string;
  keys: ReadonlyMap<string, { kind: EmbeddingKind; refId: string }>;
}): VectorSource {
  const { store, scope, modelKey, keys } = input;
  const nearest = store.nearestEmbeddings?.bind(store);
  if (nearest === undefined)
    throw new Error(`the ${store.kind} store cannot rank vectors (vectorRanking ${store.vectorRanking})`);
  const kinds = [...new Set([...keys.values()].map((k) => k.kind))];
  const keyOf = new Map([...keys].map(([key, row]) => [`${row.kind}\u0000${row.refId}`, key]));
  const rowsOf = (ids: Iterable<string>) =>
    [...new Set(ids)]
      .map((id) => keys.get(id))
      .filter((r): r is { kind: EmbeddingKind; refId: string } => r !== undefined);
  const fetch = async (query: Float32Array, k: number, also: Iterable<string>) => {
    const rows = await nearest(scope, { kinds, modelKey, vector: query, k, also: rowsOf(also) });
    const known = rows
      .map((row) => ({ key: keyOf.get(`${row.kind}\u0000${row.refId}`), row }))
      .filter(
        (r): r is { key: string; row: NearestEmbedding } => r.key !== undefined && r.row.vector.length === query.length,
      );
    const ranked = rows.filter((r) => r.rank >= 0);
    return {
      known,
      fetched: ranked.length,
      last: ranked.length === 0 ? undefined : Math.min(...ranked.map((r) => r.score)),
    };
  };
  return {
    where: 'store',
    scan: async (query, k, also = []) => {
      if (query === undefined || keys.size === 0) return { of: () => 0, top: [] };
      const want = Math.max(0, Math.floor(k));
      const alsoKeys = [...also];
      // Float32 error bound of the database's inner product of two unit vectors, doubled.
      const slack = (query.length + 2) * 2 ** -23;
      let limit = want + NEAREST_MARGIN;
      for (;;) {
        const { known, fetched, last } = await fetch(query, limit, alsoKeys);
        const values = new Map<string, number>();
        const ranked: { key: string; value: number }[] = [];
        for (const { key, row } of known) {
          const value = dotUnrolled(row.vector, 0, query, query.length);
          values.set(key, value);
          if (row.rank >= 0) ranked.push({ key, value });
        }
        ranked.sort((a, b) => b.value - a.value || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
        const kth = ranked[want - 1]?.value;
        const exhausted = fetched < limit;
        const settled = want === 0 || (kth !== undefined && last !== undefined && kth > last + slack);
        if (exhausted || settled)
          return { of: (id) => values.get(id) ?? 0, top: ranked.slice(0, want).map((r) => r.key) };
        limit *= 2;
      }
    },
    similarity: async (query, ids) => {
      const out = new Map<string, number>();
      const wanted = [...ids];
      if (query === undefined || wanted.length === 0) return out;
      for (const { key, row } of (await fetch(query, 0, wanted)).known)
        out.set(key, dotPlain(row.vector, 0, query, query.length));
      return out;
    },
  };
}
