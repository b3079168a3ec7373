/**
 * @module embed/word-vectors
 * The default, offline embedding provider (SPEC §8): sentences as a weighted average of the GloVe word
 * vectors of `data/word-vectors.bin` (embed/word-table). No network, no download. SIF (Arora, Liang & Ma,
 * ICLR 2017): words from `core/text/words` (identifiers split, stop words dropped; a missing word tried
 * as a compound of two table words), each weighted `a / (a + p(w))` with `p` from its frequency rank by
 * Zipf's law (a = 1e-3), summed; the common component, estimated from the table alone, is subtracted;
 * L2-normalised (no known word: the zero vector). Retrieval figures: docs/evaluation.md.
 */
import { contentWords } from '../core/text/words.js';
import { CredenceError } from '../core/errors.js';
import type { EmbeddingProvider } from './types.js';
import { l2Normalize } from './vector.js';
import { defaultWordTablePath, loadWordTable, type WordTable } from './word-table.js';

/** The model name of the shipped table (also in its header). */
export const WORD_VECTOR_MODEL = 'glove-100d-int8-100k';
/** The dimension of the shipped table. */
export const WORD_VECTOR_DIMENSION = 100;

export const WORD_VECTOR_DEFAULTS = Object.freeze({
  /** SIF smoothing `a` of `a / (a + p(w))`. */
  sifA: 1e-3,
  /** Shortest part of an out-of-vocabulary word split as a compound. */
  minCompoundPart: 3,
});

export interface WordVectorOptions {
  /** The table file. @default data/word-vectors.bin of the package */
  readonly path?: string;
  /** SIF smoothing `a`, > 0; smaller weighs frequent words down harder. @default 1e-3 */
  readonly sifA?: number;
}

const EULER_GAMMA = 0.5772156649015329;

/**
 * SIF weight of the word of frequency rank `rank` (1 = most frequent) in a vocabulary of
 * `vocabularySize` words: `a / (a + p)`, `p = 1 / (rank · (ln N + γ))` (Zipf's law).
 */
export function sifWeight(rank: number, vocabularySize: number, a: number = WORD_VECTOR_DEFAULTS.sifA): number {
  const p = 1 / (rank * (Math.log(vocabularySize) + EULER_GAMMA));
  return a / (a + p);
}

/** Row of `word` in the table, or of the two parts of a compound, or nothing. */
function lookup(table: WordTable, word: string): number[] {
  const row = table.row(word);
  if (row !== undefined) return [row];
  const min = WORD_VECTOR_DEFAULTS.minCompoundPart;
  let best: number[] = [];
  let bestRarer = Number.POSITIVE_INFINITY;
  for (let cut = min; cut <= word.length - min; cut += 1) {
    const left = table.row(word.slice(0, cut));
    const right = left === undefined ? undefined : table.row(word.slice(cut));
    if (left === undefined || right === undefined) continue;
    const rarer = Math.max(left, right);
    if (rarer < bestRarer) {
      bestRarer = rarer;
      best = [left, right];
    }
  }
  return best;
}

/** The table rows a text's words map to, in order (stop words and unknown words left out). */
export function wordRows(table: WordTable, text: string): number[] {
  const rows: number[] = [];
  for (const word of contentWords(text)) rows.push(...lookup(table, word));
  return rows;
}

/**
 * The unit common direction of `table` for SIF smoothing `a`, computed: `Σ_r p(r) · w(r) · v_r` over
 * all rows (r = row + 1, Zipf `p`, SIF `w`), normalised. A pass over the whole table: the build script
 * stores it in the table header, so a process does not pay it at load (docs/benchmarks.md).
 */
export function computeCommonDirection(table: WordTable, a: number = WORD_VECTOR_DEFAULTS.sifA): Float64Array {
  const { dimension, vectors } = table;
  const harmonic = Math.log(table.header.sourceWords) + EULER_GAMMA;
  const c = new Float64Array(dimension);
  for (let row = 0, n = table.count; row < n; row += 1) {
    const weight = sifWeight(row + 1, table.header.sourceWords, a) / ((row + 1) * harmonic);
    const base = row * dimension;
    for (let j = 0; j < dimension; j += 1) c[j] = (c[j] as number) + weight * (vectors[base + j] as number);
  }
  let norm = 0;
  for (let j = 0; j < dimension; j += 1) norm += (c[j] as number) ** 2;
  norm = Math.sqrt(norm);
  for (let j = 0; j < dimension; j += 1) c[j] = norm === 0 ? 0 : (c[j] as number) / norm;
  return c;
}

const commonDirections = new WeakMap<WordTable, Map<number, Float64Array>>();

/**
 * `computeCommonDirection`, taken from the table header when the build script stored it for this
 * `a` (the default), else computed once per table and `a`.
 */
export function commonDirection(table: WordTable, a: number = WORD_VECTOR_DEFAULTS.sifA): Float64Array {
  let byA = commonDirections.get(table);
  if (byA === undefined) commonDirections.set(table, (byA = new Map()));
  let c = byA.get(a);
  if (c === undefined) {
    const stored = table.header.commonDirection;
    c = stored !== undefined && stored.sifA === a ? Float64Array.from(stored.vector) : computeCommonDirection(table, a);
    byA.set(a, c);
  }
  return c;
}

/** The SIF sentence embedding of `text` over `table` (see the module header); L2-normalised. */
export function sentenceEmbedding(table: WordTable, text: string, options: { sifA?: number } = {}): Float32Array {
  const a = options.sifA ?? WORD_VECTOR_DEFAULTS.sifA;
  const { dimension } = table;
  const vocabularySize = table.header.sourceWords;
  const sum = new Float64Array(dimension);
  const rows = wordRows(table, text);
  if (rows.length === 0) return new Float32Array(dimension);
  for (const row of rows) {
    const weight = sifWeight(row + 1, vocabularySize, a);
    const v = table.rowVector(row);
    for (let j = 0; j < dimension; j += 1) sum[j] = (sum[j] as number) + weight * (v[j] as number);
  }
  const c = commonDirection(table, a);
  let projection = 0;
  for (let j = 0; j < dimension; j += 1) projection += (sum[j] as number) * (c[j] as number);
  const out = new Float32Array(dimension);
  for (let j = 0; j < dimension; j += 1) out[j] = (sum[j] as number) - projection * (c[j] as number);
  // The table's global scale is a common factor that normalisation removes.
  return l2Normalize(out);
}

/**
 * The offline default provider. The table is read on the first `embed` (or the first look at
 * `model` / `dimension` of a provider given another `path`), then cached for the process.
 * @throws CredenceError INVALID_INPUT for a `sifA` that is not a positive number.
 */
export function wordVectorProvider(options: WordVectorOptions = {}): EmbeddingProvider {
  const path = options.path ?? defaultWordTablePath();
  const sifA = options.sifA ?? WORD_VECTOR_DEFAULTS.sifA;
  if (!(sifA > 0) || !Number.isFinite(sifA)) {
    throw new CredenceError('INVALID_INPUT', `sifA must be a positive number, got ${String(sifA)}`, {
      details: { sifA },
    });
  }
  const shipped = options.path === undefined;
  const peek = (): WordTable | undefined => {
    try {
      return loadWordTable(path);
    } catch {
      return undefined;
    }
  };
  return {
    provider: 'word-vectors',
    get model(): string {
      return shipped ? WORD_VECTOR_MODEL : (peek()?.model ?? WORD_VECTOR_MODEL);
    },
    get dimension(): number | undefined {
      return shipped ? WORD_VECTOR_DIMENSION : peek()?.dimension;
    },
    async embed(texts: readonly string[]): Promise<Float32Array[]> {
      const table = loadWordTable(path);
      return texts.map((text) => sentenceEmbedding(table, text, { sifA }));
    },
  };
}
