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
import { GROUPING_DEFAULTS, GROUPING_GENERIC_TERMS, groupingTermSequence } from './pattern-grouping.js';

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
  const weightOf = (t: string): number => weights.get(t) ?? (GROUPING_GENERIC_TERMS.has(t) ? unseenGeneric : unseen);
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
