/**
 * @module core/experience/intent-index
 * Okapi BM25 over the intents of past runs, held in memory (issue 19): which past tasks were worded
 * like this one. Words are content words cut to their first 5 letters (`movies`, `movie` are one term),
 * the light stemming of the intent memory's term share. k1 = 1.2, b = 0.75 (the usual Okapi figures).
 * Pure: built from texts, it answers queries; it never reads a clock or a store.
 */
import { SHARE_PREFIX } from '../text/term-weights.js';
import { contentWords } from '../text/words.js';

const K1 = 1.2;
const B = 0.75;
/** A term in more than this share of the texts is not searched (from COMMON_FROM texts on). */
const COMMON_SHARE = 0.5;
const COMMON_FROM = 20;

/** The index terms of a text. */
export function intentTerms(text: string): string[] {
  return contentWords(text).map((w) => (w.length > SHARE_PREFIX ? w.slice(0, SHARE_PREFIX) : w));
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
  #scores?: Float64Array;
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
    // Scores in one reused array, the texts touched listed once: no map or sort over every match.
    this.#scores ??= new Float64Array(this.size);
    const scores = this.#scores;
    const touched: number[] = [];
    for (const term of new Set(intentTerms(query))) {
      const list = this.#postings.get(term);
      // A term most texts hold ranks nothing and costs a pass over them: left to the other terms.
      if (list === undefined || (list.length > COMMON_SHARE * this.size && this.size >= COMMON_FROM)) continue;
      const idf = this.idf(term);
      for (const { doc, tf } of list) {
        if (doc === skip) continue;
        if (scores[doc] === 0) touched.push(doc);
        const norm = 1 - B + (B * (this.#lengths[doc] as number)) / (this.#averageLength || 1);
        scores[doc] = (scores[doc] as number) + (idf * tf * (K1 + 1)) / (tf + K1 * norm);
      }
    }
    // The best `limit`, kept sorted by insertion (limit is small), ties by position.
    const best: IntentHit[] = [];
    const before = (a: IntentHit, b: IntentHit) => a.score > b.score || (a.score === b.score && a.index < b.index);
    for (const doc of touched) {
      const hit = { index: doc, score: scores[doc] as number };
      scores[doc] = 0;
      if (hit.score <= 0 || (best.length === limit && !before(hit, best[limit - 1] as IntentHit))) continue;
      let at = best.length === limit ? limit - 1 : best.length;
      while (at > 0 && before(hit, best[at - 1] as IntentHit)) {
        best[at] = best[at - 1] as IntentHit;
        at -= 1;
      }
      best[at] = hit;
    }
    return best;
  }
}
