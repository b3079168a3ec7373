/**
 * @module core/experience/intent-index
 * Okapi BM25 over the intents of past runs, held in memory (issue 19): which past tasks were worded
 * like this one. Words are content words cut to their first 5 letters (`movies`, `movie` are one term),
 * the light stemming of the intent memory's term share. k1 = 1.2, b = 0.75 (the usual Okapi figures).
 * Pure: built from texts (and texts added or removed since), it answers queries; it never reads a clock or a store.
 */
import { SHARE_PREFIX } from '../text/term-weights.js';
import { bm25Kernel } from './bm25-kernel.js';
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

/**
 * An index in typed arrays (issue 20), as a new process reads it back: each term's postings (doc, tf pairs) from
 * `starts[t]` to `starts[t + 1]` of `postings`, and each doc's length in terms. A term's list is made only when a
 * query or a change reads it.
 */
export interface PackedIntents {
  readonly terms: readonly string[];
  readonly starts: Int32Array;
  readonly postings: Int32Array;
  readonly lengths: Int32Array;
  /** Term `t`'s postings alone, where a reader reads them without `postings` whole (bytes kept in pieces). */
  readonly postingsOf?: (t: number) => Int32Array;
}

/**
 * The numbers of a typed array in an array, in a loop (issue 20: Array.from walks an iterator, a result object a
 * number while V8 runs it unoptimised: megabytes for a write's first change to a 100k-run index).
 */
function numbersOf(typed: Int32Array): number[] {
  const list: number[] = new Array(typed.length);
  for (let i = 0; i < typed.length; i += 1) list[i] = typed[i] as number;
  return list;
}

/** A term's postings: doc, tf, doc, tf, … (numbers in one array: no object per posting). */
type Postings = number[];

export interface IntentHit {
  /** The text's slot: its position in the list the index was built from, or what {@link IntentIndex.add} gave. */
  readonly index: number;
  readonly score: number;
}

/**
 * BM25 over texts that come and go (issue 20): each text has a slot (the constructor's texts take 0, 1, …; `add`
 * gives the next), and a removed text's slot stays empty. Document frequencies, the number of texts and their
 * mean length are those of the texts held now, so an index that added and removed answers exactly as one built
 * from what it holds.
 */
export class IntentIndex {
  /** Each term's postings; a number is the term's place in {@link #packed}, not read yet. */
  readonly #postings = new Map<string, Postings | number>();
  #packed?: PackedIntents;
  /** Terms per slot; -1 for an empty slot (as read back until a text is added: issue 20, no 100k-number array). */
  #lengths: number[] | Int32Array = [];
  #total = 0;
  #scores?: Float64Array;
  /**
   * K1 · the length norm of each slot, for the mean length it was computed at: `values` a view of the first `slots`
   * of `room` (room to grow: a text added at the same mean length, as a recorded call's run added again, fills its
   * slot alone, issue 20).
   */
  #k1Norms?: { total: number; size: number; values: Float64Array; room: Float64Array };
  /** Texts held. */
  size = 0;

  constructor(texts: readonly string[] = []) {
    for (const text of texts) this.add(text);
  }

  /** An index read back from {@link pack}: it answers as the one packed. */
  static unpack(packed: PackedIntents): IntentIndex {
    const index = new IntentIndex();
    index.#packed = packed;
    packed.terms.forEach((term, t) => index.#postings.set(term, t));
    // Copied natively and summed in a loop (issue 20: a push a text was a cost of its own for a one-query process).
    const { lengths } = packed;
    index.#lengths = lengths.slice();
    for (let doc = 0; doc < lengths.length; doc += 1) index.#total += lengths[doc] as number;
    index.size = lengths.length;
    return index;
  }

  /** The index in typed arrays, each held slot renumbered `docOf(slot)` (0 … size − 1, every held slot once). */
  pack(docOf: (slot: number) => number): PackedIntents {
    const terms: string[] = [];
    const starts: number[] = [0];
    const postings: number[] = [];
    for (const [term, entry] of this.#postings) {
      terms.push(term);
      if (typeof entry === 'number') {
        // Postings read back and never changed are copied as they lie.
        const packed = this.#packedPostings(entry);
        for (let at = 0; at < packed.length; at += 2)
          postings.push(docOf(packed[at] as number), packed[at + 1] as number);
      } else
        for (let at = 0; at < entry.length; at += 2) postings.push(docOf(entry[at] as number), entry[at + 1] as number);
      starts.push(postings.length);
    }
    const lengths = new Int32Array(this.size);
    this.#lengths.forEach((length, slot) => {
      if (length >= 0) lengths[docOf(slot)] = length;
    });
    return { terms, starts: Int32Array.from(starts), postings: Int32Array.from(postings), lengths };
  }

  /** The packed postings of term `t` (doc, tf, doc, tf, …). */
  #packedPostings(t: number): Int32Array {
    const packed = this.#packed as PackedIntents;
    if (packed.postingsOf !== undefined) return packed.postingsOf(t);
    return packed.postings.subarray(packed.starts[t] as number, packed.starts[t + 1] as number);
  }

  /** A term's postings (read from the packed arrays the first time). */
  #list(term: string): Postings {
    const entry = this.#postings.get(term);
    if (entry === undefined) return [];
    if (typeof entry !== 'number') return entry;
    const list: Postings = numbersOf(this.#packedPostings(entry));
    this.#postings.set(term, list);
    return list;
  }

  /** How many texts hold a term. */
  #df(term: string): number {
    const entry = this.#postings.get(term);
    if (entry === undefined) return 0;
    if (typeof entry !== 'number') return entry.length / 2;
    const { starts } = this.#packed as PackedIntents;
    return ((starts[entry + 1] as number) - (starts[entry] as number)) / 2;
  }

  /** Holds one more text; returns its slot. */
  add(text: string): number {
    const doc = this.#lengths.length;
    const terms = intentTerms(text);
    if (!Array.isArray(this.#lengths)) this.#lengths = numbersOf(this.#lengths);
    this.#lengths.push(terms.length);
    this.#total += terms.length;
    this.size += 1;
    const tf = new Map<string, number>();
    for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
    for (const [term, n] of tf) {
      const list = this.#list(term);
      if (list.length === 0) this.#postings.set(term, list);
      list.push(doc, n);
    }
    return doc;
  }

  /** Lets go of the text in `doc`'s slot, `text` being what was added there (nothing when the slot is empty). */
  remove(doc: number, text: string): void {
    const length = this.#lengths[doc];
    if (length === undefined || length < 0) return;
    for (const term of new Set(intentTerms(text))) {
      const held = this.#list(term);
      const list: Postings = [];
      for (let at = 0; at < held.length; at += 2)
        if (held[at] !== doc) list.push(held[at] as number, held[at + 1] as number);
      if (list.length === 0) this.#postings.delete(term);
      else this.#postings.set(term, list);
    }
    this.#lengths[doc] = -1;
    this.#total -= length;
    this.size -= 1;
  }

  /** K1 · (1 − b + b · length / mean length) per slot: computed again only when the texts held change. */
  #k1NormsNow(): Float64Array {
    const kept = this.#k1Norms;
    const lengths = this.#lengths;
    const slots = lengths.length;
    const same = kept !== undefined && kept.total === this.#total && kept.size === this.size;
    if (same && kept.values.length >= slots) return kept.values;
    const averageLength = this.size === 0 ? 0 : this.#total / this.size;
    // The same mean length: the slots held keep their norms (a slot's length moves only when it is emptied, and an
    // empty slot has no postings to score), the new ones are computed into the room left. A new view: the scoring
    // kernel copies the norms in again when handed another array (an array changed in place would not be).
    let from = 0;
    let room: Float64Array;
    if (same && kept.room.length >= slots) {
      from = kept.values.length;
      room = kept.room;
    } else room = new Float64Array(slots + (slots >> 4));
    // A loop, not forEach: no call a slot (100k in a one-query process, run cold).
    for (let doc = from; doc < slots; doc += 1)
      room[doc] = K1 * (1 - B + (B * (lengths[doc] as number)) / (averageLength || 1));
    const values = room.subarray(0, slots);
    this.#k1Norms = { total: this.#total, size: this.size, values, room };
    return values;
  }

  /** Inverse document frequency of a term (0 when no text holds it). */
  idf(term: string): number {
    const df = this.#df(term);
    return df === 0 ? 0 : Math.log(1 + (this.size - df + 0.5) / (df + 0.5));
  }

  /**
   * The `limit` best texts for `query`, best first; `skip` leaves one slot out. Ties go to the lower `rank` (by
   * default the slot itself).
   */
  search(query: string, limit: number, skip?: number, rank: (doc: number) => number = (doc) => doc): IntentHit[] {
    if (!(limit >= 1)) return [];
    const k1Norms = this.#k1NormsNow();
    // The terms searched: a term most texts hold ranks nothing and costs a pass over them (left to the others).
    const terms: { postings: ArrayLike<number>; idf: number }[] = [];
    for (const term of new Set(intentTerms(query))) {
      const df = this.#df(term);
      if (df === 0 || (df > COMMON_SHARE * this.size && this.size >= COMMON_FROM)) continue;
      const idf = this.idf(term);
      const entry = this.#postings.get(term);
      // Postings read back are scored where they lie, with no list made.
      const postings = typeof entry === 'number' ? this.#packedPostings(entry) : entry;
      if (postings !== undefined) terms.push({ postings, idf });
    }
    // Scores in one reused array, the texts touched listed once: no map or sort over every match. In WebAssembly
    // where it is (bm25-kernel.ts: the same operations), else in the loop below.
    const kernel = bm25Kernel();
    const scoring = kernel?.begin(
      k1Norms,
      terms.map((t) => t.postings),
    );
    let scores: Float64Array;
    let touched: ArrayLike<number>;
    if (scoring !== undefined) {
      for (const { postings, idf } of terms) scoring.add(postings, skip ?? -1, idf, K1 + 1);
      scores = scoring.scores;
      touched = scoring.touched;
    } else {
      if (this.#scores === undefined || this.#scores.length < this.#lengths.length)
        this.#scores = new Float64Array(Math.max(16, this.#lengths.length * 2));
      scores = this.#scores;
      const list: number[] = [];
      for (const { postings, idf } of terms)
        for (let at = 0; at < postings.length; at += 2) {
          const doc = postings[at] as number;
          if (doc === skip) continue;
          const tf = postings[at + 1] as number;
          if (scores[doc] === 0) list.push(doc);
          scores[doc] = (scores[doc] as number) + (idf * tf * (K1 + 1)) / (tf + (k1Norms[doc] as number));
        }
      touched = list;
    }
    // The best `limit`, kept sorted by insertion (limit is small), ties by rank; a hit is made only when it is kept.
    const best: { index: number; score: number; rank: number }[] = [];
    for (let i = 0; i < touched.length; i += 1) {
      const doc = touched[i] as number;
      const score = scores[doc] as number;
      scores[doc] = 0;
      if (score <= 0) continue;
      const order = rank(doc);
      const last = best.length === limit ? (best[limit - 1] as (typeof best)[number]) : undefined;
      if (last !== undefined && !(score > last.score || (score === last.score && order < last.rank))) continue;
      let at = best.length === limit ? limit - 1 : best.length;
      while (at > 0) {
        const above = best[at - 1] as (typeof best)[number];
        if (!(score > above.score || (score === above.score && order < above.rank))) break;
        best[at] = above;
        at -= 1;
      }
      best[at] = { index: doc, score, rank: order };
    }
    scoring?.done();
    return best.map(({ index, score }) => ({ index, score }));
  }
}
