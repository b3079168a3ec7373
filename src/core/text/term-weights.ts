/**
 * @module core/text/term-weights
 * How much a word counts, the one implementation of each measure (issue 18):
 * - `batchIdf`: a term's IDF over a batch of texts, `ln(1 + max(N, minBatch) / df)`, times
 *   `genericWeight` for the generic words of observation sentences (pattern grouping and
 *   contradiction detection, seed 004);
 * - `queryTermShare`: the share of a query's words a text holds, a shared 5-letter prefix counting
 *   as the same word (recall labels and the intent memory's similarity, SPEC §5).
 * Pure. FTS5's BM25 IDF (store/postgres) is a different formula, kept beside the tokenizer it matches.
 */
import { contentWords } from './words.js';

/** Options of {@link batchIdf}. */
export interface BatchIdfOptions {
  /** The batch counts as at least this many texts, so a small batch's words are not all common. */
  readonly minBatch: number;
  /** Factor of a generic term's weight. */
  readonly genericWeight: number;
  /** The generic terms (as terms: aliased and stemmed). */
  readonly generic: ReadonlySet<string>;
}

/**
 * Per term t (`terms[t]`, found in `df[t]` ≥ 1 of `itemCount` texts): `ln(1 + max(itemCount,
 * minBatch) / df[t])`, times `genericWeight` when the term is generic.
 */
export function batchIdf(
  terms: readonly string[],
  df: Int32Array,
  itemCount: number,
  options: BatchIdfOptions,
): Float64Array {
  const n = Math.max(itemCount, options.minBatch);
  return Float64Array.from(
    terms,
    (term, t) => Math.log(1 + n / (df[t] as number)) * (options.generic.has(term) ? options.genericWeight : 1),
  );
}

/** Length of the prefix two words share to count as one (light stemming). */
export const SHARE_PREFIX = 5;

/**
 * The share, in [0, 1], of `queryWords` (distinct content words) that `text` holds: a query word
 * counts when it is one of the text's content words or, from 5 letters on, when its first 5 letters
 * begin one of them (`commits` holds `committed`). 0 for no query word.
 */
export function queryTermShare(queryWords: readonly string[], text: string): number {
  return queryTermShareOf(queryWords, textTerms(text));
}

/** A text's content words and their 5-letter stems, for {@link queryTermShareOf} (kept to score many queries). */
export interface TextTerms {
  readonly words: ReadonlySet<string>;
  readonly stems: ReadonlySet<string>;
}

/** The terms {@link queryTermShare} reads from a text. */
export function textTerms(text: string): TextTerms {
  const words = new Set(contentWords(text));
  return { words, stems: new Set([...words].map((w) => w.slice(0, SHARE_PREFIX))) };
}

/** {@link queryTermShare} over terms read once. */
export function queryTermShareOf(queryWords: readonly string[], terms: TextTerms): number {
  if (queryWords.length === 0) return 0;
  const { words, stems } = terms;
  return (
    queryWords.filter((q) => words.has(q) || (q.length >= SHARE_PREFIX && stems.has(q.slice(0, SHARE_PREFIX)))).length /
    queryWords.length
  );
}
