/**
 * @module core/learning/term-match
 * Which of several texts sets is about what one set of texts is about, by the words they share
 * (issue 21: a contradiction of a split of a habit lowers the learned instinct or skill of that
 * habit). Each text is a unit vector of its grouping terms (`groupingTermSequence`: Porter-stemmed,
 * spellings as written) weighted by their IDF over a batch (`batchIdf`, generic words × 0.25, as the
 * grouping weighs them); a set is the mean of its texts' vectors; two sets are as alike as the
 * cosine of their means. Pure.
 * @throws CredenceError INVALID_INPUT (`termMatcher`) for `least` outside [0, 1].
 */
import { CredenceError } from '../errors.js';
import { batchIdf } from '../text/term-weights.js';
import {
  GROUPING_DEFAULTS,
  GROUPING_GENERIC_TERMS,
  groupingTermSequence,
  readAddedContext,
} from './pattern-grouping.js';

export const TERM_MATCH_DEFAULTS = Object.freeze({
  /** Least cosine of the best candidate: a quarter of the weight shared (below, a word or two in passing). */
  least: 0.25,
});

/** Options of {@link termMatcher}; every field defaults to `TERM_MATCH_DEFAULTS`. */
export interface TermMatchOptions {
  /** @default 0.25 */
  readonly least?: number;
}

type Profile = Map<string, number>;

/** Finds, among candidate sets of texts, the one most alike to a set of texts (see {@link termMatcher}). */
export type NearestByTerms = (
  texts: readonly string[],
  candidates: readonly (readonly string[])[],
) => { index: number; similarity: number } | undefined;

interface TermWeights {
  terms: (text: string) => string[];
  weightOf: (term: string) => number;
}

/** The weights of batches read lately, by array: an evolve reads one batch's to route and to tell slots apart. */
const weightsOf = new WeakMap<readonly string[], TermWeights>();

/** The distinct grouping terms of a text, and each term's weight over the distinct texts of `batch`. */
function batchTermWeights(batch: readonly string[]): TermWeights {
  let known = weightsOf.get(batch);
  if (known === undefined) weightsOf.set(batch, (known = readTermWeights(batch)));
  return known;
}

function readTermWeights(batch: readonly string[]): TermWeights {
  const termsOf = new Map<string, string[]>();
  const terms = (text: string): string[] => {
    let found = termsOf.get(text);
    if (found === undefined) termsOf.set(text, (found = [...new Set(groupingTermSequence(text))]));
    return found;
  };
  const df = new Map<string, number>();
  for (const text of new Set(batch)) for (const t of terms(text)) df.set(t, (df.get(t) ?? 0) + 1);
  const names = [...df.keys()];
  const idfOptions = {
    minBatch: GROUPING_DEFAULTS.idfMinBatch,
    genericWeight: GROUPING_DEFAULTS.genericWeight,
    generic: GROUPING_GENERIC_TERMS,
  };
  const idf = batchIdf(
    names,
    Int32Array.from(names, (t) => df.get(t) as number),
    termsOf.size,
    idfOptions,
  );
  const weights = new Map(names.map((t, k) => [t, idf[k] as number]));
  // A term the batch lacks weighs as one found in a single text.
  const aGeneric = GROUPING_GENERIC_TERMS.values().next().value as string;
  const [unseen = 0, unseenGeneric = 0] = batchIdf(['', aGeneric], Int32Array.of(1, 1), termsOf.size, idfOptions);
  return {
    terms,
    weightOf: (t: string): number => weights.get(t) ?? (GROUPING_GENERIC_TERMS.has(t) ? unseenGeneric : unseen),
  };
}

/** Whether a text fills a template a set of texts shares with another subject (see {@link slotReader}). */
export type SlotsDiffer = (text: string, texts: readonly string[]) => boolean;

/** Fewest topical terms two texts share, in one order, to be read as one template (a frame). */
const FRAME_TERMS = 2;

/** The longest sequence of terms both hold in the same order (both short: sentences). */
function commonOrder(a: readonly string[], b: readonly string[]): string[] {
  const width = b.length + 1;
  const table = new Int32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i -= 1)
    for (let j = b.length - 1; j >= 0; j -= 1)
      table[i * width + j] =
        a[i] === b[j]
          ? (table[(i + 1) * width + j + 1] as number) + 1
          : Math.max(table[(i + 1) * width + j] as number, table[i * width + j + 1] as number);
  const out: string[] = [];
  for (let i = 0, j = 0; i < a.length && j < b.length; ) {
    if (a[i] === b[j]) {
      out.push(a[i] as string);
      i += 1;
      j += 1;
    } else if ((table[(i + 1) * width + j] as number) >= (table[i * width + j + 1] as number)) i += 1;
    else j += 1;
  }
  return out;
}

/**
 * Whether a text fills a template another text shares with another subject (issue 21: "Name the renderer module
 * with camelCase" / "Files in the exporter module use PascalCase names"; "hey, remember to answer briefly" / "hey,
 * remember to ask before deleting files"). The frame is the topical terms both hold, in one order (the longest such
 * sequence), at least `FRAME_TERMS`; before, between or after its terms each text puts its own words, the slots. The
 * two differ when one slot holds, on each side, an unshared topical term weighing at least as much as the heaviest
 * term of the frame: what differs counts more than what is shared, however alike the texts' embeddings are. Words
 * added on one side only are detail, not another subject. Weights over the distinct texts of `batch` as
 * {@link termMatcher} reads them; a phrase the batch adds to many statements ("… during the payments review":
 * `added`, the grouping's `context`, else `addedContextTerms`) is neither frame nor slot. A text differs from a set
 * when it differs from one of its texts and shares a frame with no other.
 */
export function slotReader(batch: readonly string[], added?: readonly string[]): SlotsDiffer {
  const { terms, weightOf } = batchTermWeights(batch);
  const context = readAddedContext(batch, added);
  /** Undefined when the two share no frame; else whether a slot of it holds a different heavy term on each side. */
  const apart = (textA: string, textB: string): boolean | undefined => {
    const a = terms(textA);
    const b = terms(textB);
    // A context term is topical where a text holds it as a template's slot (either text: a pair tells it).
    const slotTerms = new Set([context.slotOf(textA), context.slotOf(textB)]);
    const topical = (t: string) => !GROUPING_GENERIC_TERMS.has(t) && (!context.terms.has(t) || slotTerms.has(t));
    const inA = new Set(a);
    const inB = new Set(b);
    const shared = a.filter((t) => inB.has(t) && topical(t));
    if (shared.length < FRAME_TERMS) return undefined;
    const frame = commonOrder(
      shared,
      b.filter((t) => inA.has(t) && topical(t)),
    );
    if (frame.length < FRAME_TERMS) return undefined;
    const bar = frame.reduce((max, t) => Math.max(max, weightOf(t)), 0);
    /** Per slot (before the frame's k-th term; the last after it), the heaviest term only this side holds. */
    const slots = (own: readonly string[], other: ReadonlySet<string>): number[] => {
      const heaviest = new Array<number>(frame.length + 1).fill(0);
      let k = 0;
      for (const t of own) {
        if (k < frame.length && t === frame[k]) k += 1;
        else if (!other.has(t) && topical(t)) heaviest[k] = Math.max(heaviest[k] as number, weightOf(t));
      }
      return heaviest;
    };
    const x = slots(a, inB);
    const y = slots(b, inA);
    return x.some((w, k) => w >= bar && (y[k] as number) >= bar);
  };
  return (text, texts) => {
    let differs = false;
    for (const other of texts) {
      const read = apart(text, other);
      if (read === false) return false;
      if (read === true) differs = true;
    }
    return differs;
  };
}

/**
 * A matcher whose term weights come from the distinct texts of `batch` (texts it is later given and
 * that the batch lacks weigh as if found once). It returns the candidate whose texts are most alike
 * to the texts given (ties: the first): its index and cosine, or undefined when none reaches `least`.
 * A candidate array is profiled once: give a changed set as a new array.
 */
export function termMatcher(batch: readonly string[], options: TermMatchOptions = {}): NearestByTerms {
  const least = options.least ?? TERM_MATCH_DEFAULTS.least;
  if (typeof least !== 'number' || !(least >= 0 && least <= 1))
    throw new CredenceError('INVALID_INPUT', `term match option least must be in [0, 1], got ${String(least)}`, {
      details: { least },
    });
  const { terms, weightOf } = batchTermWeights(batch);
  const profile = (set: readonly string[]): Profile => {
    const sum: Profile = new Map();
    const distinct = [...new Set(set)];
    for (const text of distinct) {
      const own = terms(text);
      const norm = Math.sqrt(own.reduce((s, t) => s + weightOf(t) ** 2, 0));
      if (norm === 0) continue;
      for (const t of own) sum.set(t, (sum.get(t) ?? 0) + weightOf(t) / norm / distinct.length);
    }
    return sum;
  };
  const cosine = (a: Profile, b: Profile): number => {
    let dot = 0;
    let na = 0;
    let nb = 0;
    for (const [t, x] of a) {
      na += x * x;
      dot += x * (b.get(t) ?? 0);
    }
    for (const x of b.values()) nb += x * x;
    return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
  };
  // A candidate set asked again (the same array) keeps its profile: the weights are the matcher's own.
  const profiles = new WeakMap<readonly string[], Profile>();
  const profileOf = (set: readonly string[]): Profile => {
    let found = profiles.get(set);
    if (found === undefined) profiles.set(set, (found = profile(set)));
    return found;
  };
  return (texts, candidates) => {
    const query = profile(texts);
    const sims = candidates.map((candidate) => cosine(query, profileOf(candidate)));
    let best = -1;
    sims.forEach((sim, index) => {
      if (sim > (sims[best] ?? 0)) best = index;
    });
    const bestSim = sims[best] ?? 0;
    return best < 0 || bestSim < least ? undefined : { index: best, similarity: bestSim };
  };
}
