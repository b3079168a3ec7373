/**
 * @module engine/index/fts5-postings
 * One full-text table's postings in memory (issue 20): every row of every scope, tokenised as SQLite's
 * `porter unicode61` does (core/text/fts5-tokenizer), so that a query is answered as the store's FTS5 answers it —
 * the same rows, the same `bm25()` to the last bit, the same order (ties by rowid) — without SQLite computing bm25
 * for every matching row. bm25's statistics (rows, tokens, rows per phrase) are table-wide, as FTS5's are; a
 * query ranks its scope's rows only. Per term: the rows holding it and how often (typed arrays); per row: its
 * tokens in order (phrases are counted from them, never across columns). A row written again takes a new slot; the
 * old one is dead until the slots are compacted (when the dead outnumber a third of the live).
 */
import { FTS5_BM25, fts5Tokens, type Fts5Match } from '../../core/text/fts5.js';
import type { FullTextRow } from '../../store/types.js';

// The engine loads this module when it first builds postings: the parser comes with it.
export { parseFts5Match } from '../../core/text/fts5.js';

/** One row found: its id, its rowid (equal scores fall by it) and FTS5's bm25 (negative; lower is better). */
export interface PostingHit {
  id: string;
  rowid: number;
  bm25: number;
}

/** Between two columns in a row's token list: a phrase never spans it. */
const COLUMN_BREAK = -1;

const grownInt = (a: Int32Array<ArrayBuffer>, need: number): Int32Array<ArrayBuffer> => {
  if (need <= a.length) return a;
  const b = new Int32Array(Math.max(need, a.length * 2));
  b.set(a);
  return b;
};
const grownFloat = (a: Float64Array<ArrayBuffer>, need: number): Float64Array<ArrayBuffer> => {
  if (need <= a.length) return a;
  const b = new Float64Array(Math.max(need, a.length * 2));
  b.set(a);
  return b;
};
const grownByte = (a: Uint8Array<ArrayBuffer>, need: number): Uint8Array<ArrayBuffer> => {
  if (need <= a.length) return a;
  const b = new Uint8Array(Math.max(need, a.length * 2));
  b.set(a);
  return b;
};

/** What FTS5 takes the logarithm of for a phrase's IDF: in `rowsWithPhrase` of `rows` rows (fts5_aux.c). */
const idfArgument = (rows: number, rowsWithPhrase: number): number =>
  (rows - rowsWithPhrase + 0.5) / (rowsWithPhrase + 0.5);

/**
 * A natural logarithm as the store's ranking computes it (SQLite's C library's `log` differs from `Math.log` in the
 * last bit now and then).
 */
export type StoreLog = (x: number) => number;

export class Fts5Postings {
  // Terms: id by text; per term, the live rows holding it (df) and its list of (slot, count) pairs.
  readonly #terms = new Map<string, number>();
  #df = new Int32Array(1024);
  #lists: Int32Array<ArrayBuffer>[] = [];
  #listLength = new Int32Array(1024);
  /** Scratch: a row's count of each term while it is added (zero between rows). */
  #counts = new Int32Array(1024);
  // Rows by slot.
  #slots = 0;
  #rowid = new Float64Array(1024);
  #scopeOf = new Int32Array(1024);
  #length = new Int32Array(1024);
  #alive = new Uint8Array(1024);
  #tokenStart = new Int32Array(1025);
  #ids: string[] = [];
  #tokens = new Int32Array(1 << 16);
  #tokenCount = 0;
  /** Per scope: the slot of each id. */
  #slotOf: Map<string, number>[] = [];
  readonly #scopes = new Map<string, number>();
  #scopeNames: string[] = [];
  #live = 0;
  #totalLength = 0;
  // Scratch of a query, by slot.
  #score = new Float64Array(0);
  #stamp = new Int32Array(0);
  #touched = new Int32Array(0);
  #epoch = 0;
  /** Per slot, bm25's length normalisation `k1·(1 − b + b·D/avgdl)`, for the average length `#normsAt`. */
  #norms = new Float64Array(0);
  #normsAt = Number.NaN;

  /** Live rows (FTS5's row count). */
  get rows(): number {
    return this.#live;
  }

  /** The tokens of every live row (FTS5's total size). */
  get totalLength(): number {
    return this.#totalLength;
  }

  /** Gives back the room arrays grew into (after a build: what is read stays, what was reserved goes). */
  trim(): void {
    const fitted = <T extends Int32Array<ArrayBuffer> | Float64Array<ArrayBuffer> | Uint8Array<ArrayBuffer>>(
      a: T,
      n: number,
    ): T => (a.length > n ? (a.slice(0, n) as T) : a);
    this.#tokens = fitted(this.#tokens, this.#tokenCount);
    for (let t = 0; t < this.#lists.length; t++)
      this.#lists[t] = fitted(this.#lists[t] as Int32Array<ArrayBuffer>, this.#listLength[t] as number);
    this.#score = new Float64Array(0);
    this.#stamp = new Int32Array(0);
    this.#touched = new Int32Array(0);
  }

  /** Adds a row, or replaces the row of the same scope and id. */
  put(row: FullTextRow): void {
    this.remove(row.scope, row.id);
    let scope = this.#scopes.get(row.scope);
    if (scope === undefined) {
      scope = this.#scopeNames.push(row.scope) - 1;
      this.#scopes.set(row.scope, scope);
      this.#slotOf.push(new Map());
    }
    const tokens: number[] = [];
    for (let c = 0; c < row.columns.length; c++) {
      if (c > 0) tokens.push(COLUMN_BREAK);
      for (const token of fts5Tokens(row.columns[c] ?? '')) tokens.push(this.#term(token));
    }
    this.#add(row.rowid, scope, row.id, tokens);
  }

  /** Removes the row of this scope and id, if held. */
  remove(scope: string, id: string): void {
    const s = this.#scopes.get(scope);
    if (s === undefined) return;
    const slots = this.#slotOf[s] as Map<string, number>;
    const slot = slots.get(id);
    if (slot === undefined) return;
    slots.delete(id);
    this.#normsAt = Number.NaN;
    this.#alive[slot] = 0;
    this.#live -= 1;
    this.#totalLength -= this.#length[slot] as number;
    for (const term of this.#distinct(slot)) this.#df[term] = (this.#df[term] as number) - 1;
    if (this.#slots - this.#live > 1024 && (this.#slots - this.#live) * 3 > this.#live) this.#compact();
  }

  /** The arguments of the logarithms {@link search} takes for `match` (one per phrase found in some row). */
  logArguments(match: Fts5Match): number[] {
    const out: number[] = [];
    for (const phrase of match.phrases) {
      const terms = this.#termsOf(phrase);
      if (terms === undefined) continue;
      const n = terms.length === 1 ? (this.#df[terms[0] as number] as number) : this.#phraseRows(terms).n;
      if (n > 0) out.push(idfArgument(this.#live, n));
    }
    return out;
  }

  /**
   * The best `limit` rows of `scope` for `match`, ranked by FTS5's bm25 then rowid, exactly as the store ranks them
   * when `log` is the store's; undefined for an expression these postings do not answer (one with AND: the store
   * answers it).
   */
  search(scope: string, match: Fts5Match, limit: number, log: StoreLog): PostingHit[] | undefined {
    if (!match.anyPhrase) return undefined;
    const s = this.#scopes.get(scope);
    if (s === undefined || limit <= 0 || this.#live === 0) return [];
    if (this.#score.length < this.#slots) {
      this.#score = new Float64Array(this.#rowid.length);
      this.#stamp = new Int32Array(this.#rowid.length);
      this.#touched = new Int32Array(this.#rowid.length);
      this.#epoch = 0;
    }
    this.#epoch += 1;
    const epoch = this.#epoch;
    const score = this.#score;
    const stamp = this.#stamp;
    // Each slot is touched once: the slots of the scope fit.
    const touched = this.#touched;
    let count = 0;
    const { k1, minIdf } = FTS5_BM25;
    const bm25Idf = (n: number): number => {
      const idf = log(idfArgument(rows, n));
      return idf <= 0 ? minIdf : idf;
    };
    const rows = this.#live;
    const avgdl = this.#totalLength / rows;
    const scopeOf = this.#scopeOf;
    const norms = this.#normsFor(avgdl);
    const add = (slot: number, f: number, idf: number): void => {
      const part = idf * ((f * (k1 + 1.0)) / (f + (norms[slot] as number)));
      if (stamp[slot] === epoch) score[slot] = (score[slot] as number) + part;
      else {
        stamp[slot] = epoch;
        score[slot] = part;
        touched[count++] = slot;
      }
    };
    // Phrase after phrase, so that each row's score sums its phrases in FTS5's order (an absent phrase adds 0).
    for (const phrase of match.phrases) {
      const terms = this.#termsOf(phrase);
      if (terms === undefined) continue;
      if (terms.length === 1) {
        const t = terms[0] as number;
        const n = this.#df[t] as number;
        if (n === 0) continue;
        const idf = bm25Idf(n);
        const list = this.#lists[t] as Int32Array;
        const end = this.#listLength[t] as number;
        const alive = this.#alive;
        for (let j = 0; j < end; j += 2) {
          const slot = list[j] as number;
          if (scopeOf[slot] === s && alive[slot] === 1) add(slot, list[j + 1] as number, idf);
        }
        continue;
      }
      const found = this.#phraseRows(terms);
      if (found.n === 0) continue;
      const idf = bm25Idf(found.n);
      for (let j = 0; j < found.n; j++) {
        const slot = found.slots[j] as number;
        if (scopeOf[slot] === s) add(slot, found.counts[j] as number, idf);
      }
    }
    return this.#top(touched.subarray(0, count), limit);
  }

  /**
   * Makes now what the next search would make first after rows were written (issue 20: a writer calls it, so the
   * query after a write does not): the length normalisations for the average length the rows have now.
   */
  prepare(): void {
    if (this.#live > 0) this.#normsFor(this.#totalLength / this.#live);
  }

  /**
   * Per slot, bm25's length normalisation for the average length `avgdl`, computed as FTS5 computes it, once per
   * average length (it moves with every write), into the same array while it has room.
   */
  #normsFor(avgdl: number): Float64Array {
    if (this.#normsAt === avgdl && this.#norms.length >= this.#slots) return this.#norms;
    const { k1, b } = FTS5_BM25;
    if (this.#norms.length < this.#slots) this.#norms = new Float64Array(this.#rowid.length);
    for (let slot = 0; slot < this.#slots; slot++)
      this.#norms[slot] = k1 * (1 - b + (b * (this.#length[slot] as number)) / avgdl);
    this.#normsAt = avgdl;
    return this.#norms;
  }

  /** The `limit` best of `touched` by bm25 (−score) then rowid. */
  #top(touched: Int32Array, limit: number): PostingHit[] {
    const score = this.#score;
    const rowid = this.#rowid;
    // Sorted best first; `worse(a, b)`: a ranks after b (a higher bm25, or the same and a later rowid).
    const worse = (a: number, b: number): boolean => {
      const sa = score[a] as number;
      const sb = score[b] as number;
      return sa < sb || (sa === sb && (rowid[a] as number) > (rowid[b] as number));
    };
    const top: number[] = [];
    for (const slot of touched) {
      if (top.length === limit) {
        if (!worse(top[limit - 1] as number, slot)) continue;
        top.pop();
      }
      let at = top.length;
      top.push(slot);
      while (at > 0 && worse(top[at - 1] as number, slot)) {
        top[at] = top[at - 1] as number;
        at -= 1;
      }
      top[at] = slot;
    }
    return top.map((slot) => ({
      id: this.#ids[slot] as string,
      rowid: rowid[slot] as number,
      bm25: -1.0 * (score[slot] as number),
    }));
  }

  /** The term ids of a phrase's words; undefined when it is empty or a word of it is in no row. */
  #termsOf(phrase: readonly string[]): number[] | undefined {
    if (phrase.length === 0) return undefined;
    const terms: number[] = [];
    for (const word of phrase) {
      const t = this.#terms.get(word);
      if (t === undefined) return undefined;
      terms.push(t);
    }
    return terms;
  }

  /** The live rows (every scope) holding a phrase of several words, and its instances in each. */
  #phraseRows(terms: readonly number[]): { slots: Int32Array; counts: Int32Array; n: number } {
    // The rarest word's rows are the candidates.
    let rarest = terms[0] as number;
    for (const t of terms) if ((this.#df[t] as number) < (this.#df[rarest] as number)) rarest = t;
    const list = this.#lists[rarest] as Int32Array;
    const end = this.#listLength[rarest] as number;
    const slots = new Int32Array(end >> 1);
    const counts = new Int32Array(end >> 1);
    let n = 0;
    for (let j = 0; j < end; j += 2) {
      const slot = list[j] as number;
      if (this.#alive[slot] !== 1) continue;
      const count = this.#instances(slot, terms);
      if (count === 0) continue;
      slots[n] = slot;
      counts[n] = count;
      n += 1;
    }
    return { slots, counts, n };
  }

  /** A multi-word phrase's instances in a row (overlapping ones too, as FTS5 counts them). */
  #instances(slot: number, terms: readonly number[]): number {
    const tokens = this.#tokens;
    const start = this.#tokenStart[slot] as number;
    const end = (this.#tokenStart[slot + 1] as number) - terms.length + 1;
    let count = 0;
    for (let i = start; i < end; i++) {
      let j = 0;
      while (j < terms.length && tokens[i + j] === terms[j]) j++;
      if (j === terms.length) count += 1;
    }
    return count;
  }

  #term(token: string): number {
    let t = this.#terms.get(token);
    if (t === undefined) {
      t = this.#terms.size;
      this.#terms.set(token, t);
      this.#df = grownInt(this.#df, t + 1);
      this.#listLength = grownInt(this.#listLength, t + 1);
      this.#counts = grownInt(this.#counts, t + 1);
      this.#lists.push(new Int32Array(4));
    }
    return t;
  }

  /** The distinct terms of a slot's row. */
  #distinct(slot: number): Set<number> {
    const terms = new Set<number>();
    const end = this.#tokenStart[slot + 1] as number;
    for (let i = this.#tokenStart[slot] as number; i < end; i++) {
      const t = this.#tokens[i] as number;
      if (t !== COLUMN_BREAK) terms.add(t);
    }
    return terms;
  }

  #add(rowid: number, scope: number, id: string, tokens: readonly number[]): void {
    this.#normsAt = Number.NaN;
    const slot = this.#slots;
    this.#slots += 1;
    this.#rowid = grownFloat(this.#rowid, slot + 1);
    this.#scopeOf = grownInt(this.#scopeOf, slot + 1);
    this.#length = grownInt(this.#length, slot + 1);
    this.#alive = grownByte(this.#alive, slot + 1);
    this.#tokenStart = grownInt(this.#tokenStart, slot + 2);
    this.#tokens = grownInt(this.#tokens, this.#tokenCount + tokens.length);
    this.#rowid[slot] = rowid;
    this.#scopeOf[slot] = scope;
    this.#alive[slot] = 1;
    this.#ids[slot] = id;
    (this.#slotOf[scope] as Map<string, number>).set(id, slot);
    let length = 0;
    // Each term's count in the row, in scratch kept by term (no map per row: a build adds 100,000s of rows).
    const counts = this.#counts;
    const distinct: number[] = [];
    for (const t of tokens) {
      this.#tokens[this.#tokenCount++] = t;
      if (t === COLUMN_BREAK) continue;
      length += 1;
      if ((counts[t] = (counts[t] as number) + 1) === 1) distinct.push(t);
    }
    this.#tokenStart[slot + 1] = this.#tokenCount;
    this.#length[slot] = length;
    this.#live += 1;
    this.#totalLength += length;
    for (const t of distinct) {
      const count = counts[t] as number;
      counts[t] = 0;
      this.#df[t] = (this.#df[t] as number) + 1;
      const at = this.#listLength[t] as number;
      let list = this.#lists[t] as Int32Array<ArrayBuffer>;
      if (at + 2 > list.length) {
        list = grownInt(list, at + 2);
        this.#lists[t] = list;
      }
      list[at] = slot;
      list[at + 1] = count;
      this.#listLength[t] = at + 2;
    }
  }

  /** Lays the live rows out again in new slots (rowid order kept), dropping the dead ones and their postings. */
  #compact(): void {
    const live: number[] = [];
    for (let slot = 0; slot < this.#slots; slot++) if (this.#alive[slot] === 1) live.push(slot);
    const old = {
      rowid: this.#rowid,
      scopeOf: this.#scopeOf,
      ids: this.#ids,
      tokens: this.#tokens,
      tokenStart: this.#tokenStart,
    };
    this.#slots = 0;
    this.#rowid = new Float64Array(Math.max(1024, live.length));
    this.#scopeOf = new Int32Array(this.#rowid.length);
    this.#length = new Int32Array(this.#rowid.length);
    this.#alive = new Uint8Array(this.#rowid.length);
    this.#tokenStart = new Int32Array(this.#rowid.length + 1);
    this.#ids = [];
    this.#tokens = new Int32Array(Math.max(1 << 16, this.#tokenCount));
    this.#tokenCount = 0;
    for (const slots of this.#slotOf) slots.clear();
    this.#live = 0;
    this.#totalLength = 0;
    this.#df.fill(0);
    this.#listLength.fill(0);
    this.#score = new Float64Array(0);
    this.#stamp = new Int32Array(0);
    for (const slot of live) {
      const tokens = old.tokens.subarray(old.tokenStart[slot] as number, old.tokenStart[slot + 1] as number);
      this.#add(old.rowid[slot] as number, old.scopeOf[slot] as number, old.ids[slot] as string, [...tokens]);
    }
  }
}
