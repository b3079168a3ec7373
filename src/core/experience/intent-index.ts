/**
 * @module core/experience/intent-index
 * Okapi BM25 over the intents of past runs, held in memory (issue 19): which past tasks were worded
 * like this one. Words are content words cut to their first 5 letters (`movies`, `movie` are one term),
 * the light stemming of the intent memory's term share. k1 = 1.2, b = 0.75 (the usual Okapi figures).
 * Pure: built from texts, it answers queries; it never reads a clock or a store.
 */
import { contentWords } from '../text/words.js';

const K1 = 1.2;
const B = 0.75;
const PREFIX = 5;

/** The index terms of a text. */
export function intentTerms(text: string): string[] {
  return contentWords(text).map((w) => (w.length > PREFIX ? w.slice(0, PREFIX) : w));
}

export interface IntentHit {
  /** Position of the text in the list the index was built from. */
  readonly index: number;
  readonly score: number;
}

export class IntentIndex {
  readonly #postings = new Map<string, { doc: number; tf: number }[]>();
  readonly #lengths: Int32Array;
  readonly #averageLength: number;
  readonly size: number;

  constructor(texts: readonly string[]) {
    this.size = texts.length;
    this.#lengths = new Int32Array(texts.length);
    let total = 0;
    texts.forEach((text, doc) => {
      const terms = intentTerms(text);
      this.#lengths[doc] = terms.length;
      total += terms.length;
      const tf = new Map<string, number>();
      for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
      for (const [term, n] of tf) {
        let list = this.#postings.get(term);
        if (list === undefined) this.#postings.set(term, (list = []));
        list.push({ doc, tf: n });
      }
    });
    this.#averageLength = texts.length === 0 ? 0 : total / texts.length;
  }

  /** Inverse document frequency of a term (0 when no text holds it). */
  idf(term: string): number {
    const df = this.#postings.get(term)?.length ?? 0;
    return df === 0 ? 0 : Math.log(1 + (this.size - df + 0.5) / (df + 0.5));
  }

  /** The `limit` best texts for `query`, best first (ties by position); `skip` leaves one text out. */
  search(query: string, limit: number, skip?: number): IntentHit[] {
    const scores = new Map<number, number>();
    for (const term of new Set(intentTerms(query))) {
      const list = this.#postings.get(term);
      if (list === undefined) continue;
      const idf = this.idf(term);
      for (const { doc, tf } of list) {
        if (doc === skip) continue;
        const norm = 1 - B + (B * (this.#lengths[doc] as number)) / (this.#averageLength || 1);
        scores.set(doc, (scores.get(doc) ?? 0) + (idf * tf * (K1 + 1)) / (tf + K1 * norm));
      }
    }
    return [...scores]
      .map(([index, score]) => ({ index, score }))
      .sort((a, b) => b.score - a.score || a.index - b.index)
      .slice(0, limit);
  }
}
