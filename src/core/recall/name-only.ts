/**
 * @module core/recall/name-only
 * Turns found by a speaker's name alone (issue 23). A turn's title is its speaker, so a question naming a speaker
 * ("Which town was Ana in before Perth?") finds all their turns through that word, and BM25 ranks those holding no
 * other question word by length (short small talk first). Such turns get the lowest of their BM25 ratios (0 for a
 * question, a turn addressed to someone, or a named speaker's turn another said word for word, naming no name), so
 * meaning, time and life order them; a turn matched by a name alone (any speaker's) is no evidence for a label
 * through the links it brings. No word list: the question's own words and the turns'. Pure.
 */
import { queryTermShare } from '../text/term-weights.js';
import type { RecallLabel } from './recall-label.js';
import { isStopWord, namesIn, norm, statesOwnFact, words } from './memory-life.js';

export interface NameOnlyCandidate {
  key: string;
  /** The turn's speaker; undefined for anything that is not a turn (never counted). */
  speaker?: string;
  text: string;
  /** Its BM25 ratio to the best hit; undefined when BM25 did not find it. */
  ratio: number | undefined;
}

export interface NameOnlyMatches {
  /** The named speakers' turns found by the name alone, and the BM25 ratio each is scored with instead of its own. */
  ratios: ReadonlyMap<string, number>;
  /** Every turn BM25 found with none of the question's words but the named speakers' names in its text. */
  bare: ReadonlySet<string>;
  /**
   * The named speakers' turns found by the name alone that another speaker among the candidates said in the same
   * words, naming no name ("Ha, that sounds about right."): no fact of theirs; their ratio is 0.
   */
  common: ReadonlySet<string>;
}

/**
 * Of `candidates`, the turns BM25 found holding none of `queryWords` (as searched: lower case) but the words of the
 * `named` speakers' names (`nameWords`). With no speaker named, none.
 */
export function nameOnlyMatches(
  candidates: readonly NameOnlyCandidate[],
  named: ReadonlySet<string>,
  nameWords: readonly string[],
  queryWords: readonly string[],
): NameOnlyMatches {
  const ratios = new Map<string, number>();
  const bare = new Set<string>();
  if (named.size === 0) return { ratios, bare, common: new Set() };
  const names = new Set(nameWords);
  // A word of one letter is no word of the question's ("Omar's" gives "s", as does "How's"): it matches nothing.
  const others = queryWords.filter((w) => !names.has(w) && w.length > 1);
  let lowest = Number.POSITIVE_INFINITY;
  const own: NameOnlyCandidate[] = [];
  for (const c of candidates) {
    if (c.speaker === undefined || c.ratio === undefined) continue;
    if (others.length > 0 && queryTermShare(others, c.text) > 0) continue;
    bare.add(c.key);
    if (!named.has(c.speaker)) continue;
    own.push(c);
    lowest = Math.min(lowest, c.ratio);
  }
  const speakers = new Set(candidates.flatMap((c) => words(c.speaker ?? '')));
  // A question, or a reply opening or closing with a word and a comma (a name or an interjection: "Ha, lovely.",
  // "Ana, enjoy Perth!"), states no fact of the speaker's here.
  const states = (text: string) => statesOwnFact(text, speakers) && !reply(text);
  for (const c of own) ratios.set(c.key, states(c.text) ? lowest : 0);
  // Found by the name alone and said by another in the same words, naming no name: small talk, no fact of theirs.
  const saidBy = new Map<string, Set<string>>();
  for (const c of candidates)
    if (c.speaker !== undefined) saidBy.set(norm(c.text), (saidBy.get(norm(c.text)) ?? new Set()).add(c.speaker));
  const common = new Set<string>();
  for (const c of candidates)
    if (
      c.speaker !== undefined &&
      named.has(c.speaker) &&
      bare.has(c.key) &&
      (saidBy.get(norm(c.text))?.size ?? 0) > 1 &&
      namesIn(c.text).size === 0
    ) {
      common.add(c.key);
      ratios.set(c.key, 0);
    }
  return { ratios, bare, common };
}

/**
 * Of the named speakers' turns found by the name alone (`matches.ratios`), those naming no value (section E, dev 3):
 * no name written with a capital inside a sentence (namesIn) but the speakers' (`speakers`, the words of their names,
 * lower case), and no word that fills a value's frame in the conversation's turns (`kinds`: older-turns valueKinds).
 * Such a turn ("Morning everyone!", "Long weekend coming up, finally.") holds nothing a question about one of the
 * speaker's facts asks for: its ratio is 0, as a question's is, so their turns naming a value go above it. No word
 * list: the names and frames are the conversation's own. The keys set to 0, and the matches with them.
 */
export function withValuelessAtZero(
  matches: NameOnlyMatches,
  textOf: (key: string) => string,
  speakers: ReadonlySet<string>,
  kinds: ReadonlyMap<string, string>,
): { matches: NameOnlyMatches; valueless: ReadonlySet<string> } {
  const valueless = new Set<string>();
  const ratios = new Map(matches.ratios);
  for (const [key, ratio] of matches.ratios) {
    if (ratio === 0) continue;
    const text = textOf(key);
    const names = [...namesIn(text)].some((n) => !speakers.has(n));
    if (names || words(text).some((x) => kinds.has(x) && !speakers.has(x))) continue;
    valueless.add(key);
    ratios.set(key, 0);
  }
  return { matches: { ...matches, ratios }, valueless };
}

/**
 * The label of a named speaker's turn found by the name alone (walk 15, item 8: "Does Ana like tennis?" gave three
 * of Ana's turns "medium", and the prompt hook passed them to the agent): the name says whose turn it is, not that it
 * answers, so such a turn's "medium" is "low" unless `backed` (a link of its life to a match, or, for a question asking
 * when, the change it made). "High" needs its own evidence (core/recall/recall-label) and is left as it is.
 */
export function nameOnlyLabel(label: RecallLabel, backed: boolean): RecallLabel {
  if (backed || label.label !== 'medium') return label;
  const why = "only the speaker's name the question names: none of its other words, no link of its life to a match";
  return { ...label, label: 'low', withheld: label.withheld === undefined ? why : `${label.withheld}; ${why}` };
}

/** A turn opening "Word, …" or closing "…, Word." with a capitalised word, no stop word ("Yes, …" states a fact). */
function reply(text: string): boolean {
  const t = text.trim();
  const word = /^(\p{Lu}[\p{L}\p{N}]*),\s/u.exec(t)?.[1] ?? /,\s*(\p{Lu}[\p{L}\p{N}]*)[.!?]*$/u.exec(t)?.[1];
  return word !== undefined && !isStopWord(word.toLowerCase());
}
