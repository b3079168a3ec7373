/**
 * @module core/learning/pattern-grouping
 * Groups observations that mean the same thing (seed 004 "Pattern Detection", SPEC §6). Pure: the caller embeds the
 * texts (`patternText`). sim = w · cos(v_x, centroid_g) + (1 − w) · cos(t_x, terms_g) (w 0.5), t Porter-stemmed
 * terms, spellings merged, IDF over distinct texts, generic words × 0.25, as are phrases the batch adds to several
 * statements (`addedPhrases`) but where one is a template's slot (`contextSlots`), and code identifiers a template
 * names in passing (`incidentalFillers`, `details`) or renamed into a case (`renamedIdentifier`); sides about different
 * heavy terms lose the vector part; a template slot filled otherwise never joins (`slotTags`). Passes: assign, merge,
 * reassign, link lone ones, link wordings, join agreeing profiles (`mergeProfiles`). Order-free. docs/evaluation.md.
 */

import { CredenceError } from '../errors.js';
import { batchIdf } from '../text/term-weights.js';
import type { ObservationType } from '../types.js';
import { contentWords } from '../text/words.js';
import { porterStem } from '../text/fts5-tokenizer.js';
import { NEGATION_WORDS } from './negation-cues.js';
import { renamedIn } from './rename.js';
import { GENERIC_WORDS } from '../text/generic-words.js';

export const GROUPING_DEFAULTS = Object.freeze({
  /** Weight w of the embedding cosine; 1 − w goes to the IDF-weighted term cosine. */
  vectorWeight: 0.5,
  /** Least similarity for an observation to join a group. */
  joinThreshold: 0.5,
  /** Least similarity of two groups to merge. */
  mergeThreshold: 0.5,
  /** Least similarity of a lone observation to one member of a group for it to join that group. */
  linkThreshold: 0.5,
  /** Terms found in more than this share of the observations are not used to find candidates. */
  maxDocumentShare: 0.05,
  /** Candidate groups scored in full per observation. */
  candidateLimit: 8,
  /** Weight of a generic term (`GENERIC_TERMS`) relative to a topical one. */
  genericWeight: 0.25,
  /** IDF is computed as if the batch held at least this many observations (see the header). */
  idfMinBatch: 100,
  /** Fewest members of a returned group; smaller clusters are singletons. */
  minGroupSize: 2,
  /** Longest label, in characters (longer texts end with "…"). */
  labelLength: 120,
  /**
   * Slot guard: when each side holds, unshared, a term weighing at least this share of its
   * heaviest term, the two differ in what they are about (the slot of a shared template: the
   * module, the tool): the embedding cosine, which the shared frame dominates, does not count,
   * and the term cosine counts `slotPenalty` of itself.
   */
  slotShare: 0.75,
  /** Factor of the term cosine of two sides the slot guard holds apart. */
  slotPenalty: 0.5,
});

/** Options of `groupObservations`; every field defaults to `GROUPING_DEFAULTS`. */
export interface GroupingOptions {
  /** @default 0.5 */
  readonly vectorWeight?: number;
  /** @default 0.5 */
  readonly joinThreshold?: number;
  /** @default 0.5 */
  readonly mergeThreshold?: number;
  /** @default 0.5 */
  readonly linkThreshold?: number;
  /** @default 0.05 */
  readonly maxDocumentShare?: number;
  /** @default 8 */
  readonly candidateLimit?: number;
  /** @default 0.25 */
  readonly genericWeight?: number;
  /** @default 100 */
  readonly idfMinBatch?: number;
  /** @default 2 */
  readonly minGroupSize?: number;
  /** @default 120 */
  readonly labelLength?: number;
  /** @default 0.75 */
  readonly slotShare?: number;
  /** @default 0.5 */
  readonly slotPenalty?: number;
}

/** One observation to group. */
export interface GroupingItem {
  readonly id: string;
  readonly text: string;
  /** L2-normalised embedding of `text`; all given vectors have one dimension. */
  readonly vector?: Float32Array;
  readonly type: ObservationType;
  /** Milliseconds since the epoch (any consistent unit works: only the order is used). */
  readonly timestamp: number;
  readonly confidence: number;
  readonly tags?: readonly string[];
}

export interface ObservationGroup {
  /** Member ids in (timestamp, id) order. */
  readonly ids: string[];
  /** Id of the member closest to the group's centroid. */
  readonly representative: string;
  /** A short human title: the representative's text. */
  readonly label: string;
}

/** Why two groups became one by what their members say as groups (`mergeProfiles`, the last pass). */
export interface ProfileJoin {
  /** An observation of each group joined (the first of each, in timestamp order). */
  readonly ids: readonly [string, string];
  /** The terms (stemmed) both groups' cores hold that weigh in the profiles: held by some groups, not most. */
  readonly terms: string[];
  /** Cosine of the two profiles, at least `PROFILE_AGREEMENT`, at most 1. */
  readonly agreement: number;
}

/** A wording whose code identifier was read as a detail of a template (`incidentalFillers`), so it joined the frame. */
export interface PassingDetail {
  /** An observation of the wording (the first, in timestamp order). */
  readonly id: string;
  /** The terms (stemmed) of the identifier, weighed there as generic ones ("max", "retri" of max_retries). */
  readonly terms: string[];
  /** When the wording renames the identifier, the naming case it keeps ("camel", "snake"; `renamedIdentifier`). */
  readonly renamedTo?: string;
}

export interface Grouping {
  readonly groups: ObservationGroup[];
  readonly singletons: string[];
  /** Groups joined by the profile pass, each with why (see `ProfileJoin`), in the order they were joined. */
  readonly profileJoins: ProfileJoin[];
  /** Wordings joined by what they say around an identifier, the identifier read as a detail (`PassingDetail`). */
  readonly details: PassingDetail[];
  /** Terms of phrases the batch adds to statements it holds (where, when: `addedContextTerms`), weighed as generic. */
  readonly context: string[];
}

type Resolved = { -readonly [K in keyof typeof GROUPING_DEFAULTS]: number };

function resolveOptions(options: GroupingOptions | undefined): Resolved {
  const resolved: Resolved = { ...GROUPING_DEFAULTS };
  if (options === undefined) return resolved;
  for (const key of Object.keys(GROUPING_DEFAULTS) as (keyof Resolved)[]) {
    const value = options[key];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      throw new CredenceError('INVALID_INPUT', `grouping option ${key} must be a finite number, got ${String(value)}`, {
        details: { [key]: value },
      });
    }
    resolved[key] = value;
  }
  const unit = [
    'vectorWeight',
    'joinThreshold',
    'mergeThreshold',
    'linkThreshold',
    'maxDocumentShare',
    'genericWeight',
    'slotShare',
    'slotPenalty',
  ] as const;
  for (const key of unit) {
    if (resolved[key] < 0 || resolved[key] > 1) {
      throw new CredenceError('INVALID_INPUT', `grouping option ${key} must be in [0, 1], got ${resolved[key]}`, {
        details: { [key]: resolved[key] },
      });
    }
  }
  for (const key of ['candidateLimit', 'minGroupSize', 'labelLength', 'idfMinBatch'] as const) {
    if (!Number.isInteger(resolved[key]) || resolved[key] < 1) {
      throw new CredenceError('INVALID_INPUT', `grouping option ${key} must be an integer ≥ 1, got ${resolved[key]}`, {
        details: { [key]: resolved[key] },
      });
    }
  }
  return resolved;
}

const VOWEL = /[aeiouy]/;

/**
 * A light English suffix stemmer, enough to match the forms an observation takes (commit, commits,
 * committed, committing → commit; rebase, rebasing → rebas; dependencies → dependency): -ies → -y,
 * -sses → -ss, a plural -s (not -ss, -us, -is), then -ing or -ed when a vowel stays before it (with
 * a doubled final consonant undoubled), then a final -e. Words of three letters or fewer, and words
 * with digits, are kept as they are. Not Porter: a few forms still differ (used / use).
 */
export function stemWord(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  let w = word;
  if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us') && !w.endsWith('is')) w = w.slice(0, -1);
  let stripped = false;
  if (w.endsWith('ing') && w.length >= 6 && VOWEL.test(w.slice(0, -3))) {
    w = w.slice(0, -3);
    stripped = true;
  } else if (w.endsWith('ed') && w.length >= 5 && VOWEL.test(w.slice(0, -2))) {
    w = w.slice(0, -2);
    stripped = true;
  }
  if (stripped && /([^aeioulsz])\1$/.test(w)) w = w.slice(0, -1);
  if (w.endsWith('e') && w.length >= 4) w = w.slice(0, -1);
  return w;
}

/**
 * Word forms mapped before stemming: common irregular verbs to their base form, and a few
 * abbreviations of software work to their words (PR → pull request).
 */
export const TERM_ALIASES: Readonly<Record<string, readonly string[]>> = Object.freeze({
  ran: ['run'],
  wrote: ['write'],
  written: ['write'],
  broke: ['break'],
  broken: ['break'],
  went: ['go'],
  gone: ['go'],
  made: ['make'],
  kept: ['keep'],
  took: ['take'],
  taken: ['take'],
  found: ['find'],
  got: ['get'],
  gotten: ['get'],
  gave: ['give'],
  given: ['give'],
  said: ['say'],
  told: ['tell'],
  brought: ['bring'],
  began: ['begin'],
  begun: ['begin'],
  chose: ['choose'],
  chosen: ['choose'],
  forgot: ['forget'],
  forgotten: ['forget'],
  sent: ['send'],
  spent: ['spend'],
  built: ['build'],
  held: ['hold'],
  caught: ['catch'],
  thought: ['think'],
  saw: ['see'],
  seen: ['see'],
  threw: ['throw'],
  thrown: ['throw'],
  knew: ['know'],
  known: ['know'],
  fell: ['fall'],
  fallen: ['fall'],
  hid: ['hide'],
  hidden: ['hide'],
  pr: ['pull', 'request'],
  prs: ['pull', 'request'],
  repo: ['repository'],
  repos: ['repository'],
  config: ['configuration'],
  configs: ['configuration'],
  env: ['environment'],
  deps: ['dependency'],
  docs: ['documentation'],
});

/** The words `word` stands for (`TERM_ALIASES`), or undefined (own keys only: "constructor" is a word). */
export function aliasesOf(word: string): readonly string[] | undefined {
  return Object.hasOwn(TERM_ALIASES, word) ? TERM_ALIASES[word] : undefined;
}

export { GENERIC_WORDS };

/** `GENERIC_WORDS` as terms (aliased and stemmed like `observationTerms`). */
export const GENERIC_TERMS: ReadonlySet<string> = new Set(
  GENERIC_WORDS.flatMap((w) => (aliasesOf(w) ?? [w]).map(stemWord)),
);

/** `GENERIC_WORDS` as grouping terms (aliased, Porter-stemmed). */
export const GROUPING_GENERIC_TERMS: ReadonlySet<string> = new Set(
  GENERIC_WORDS.flatMap((w) => (aliasesOf(w) ?? [w]).map(porterStem)),
);

const PATH_CHAR = /^[\w.@~/-]+$/;

/**
 * Whether a whitespace-separated token is a file path: made of word characters, `.`, `@`, `~`,
 * `-` and `/` only (surrounding brackets and punctuation aside), with a slash and either an
 * extension after its last slash or two slashes (`src/api/users.ts`, `lib/cache.js`, `a/b/c`; not
 * `async/await`). Linear in the token: no backtracking pattern.
 */
function isPath(token: string): boolean {
  let start = 0;
  let end = token.length;
  while (start < end && '("\'`'.includes(token[start] as string)) start += 1;
  while (end > start && '.,;:!?)"\'`'.includes(token[end - 1] as string)) end -= 1;
  const core = token.slice(start, end);
  const firstSlash = core.indexOf('/');
  if (firstSlash < 0 || !PATH_CHAR.test(core)) return false;
  const lastSlash = core.lastIndexOf('/');
  if (lastSlash !== firstSlash) return true;
  const dot = core.lastIndexOf('.');
  return dot > lastSlash && /^[A-Za-z0-9]{1,6}$/.test(core.slice(dot + 1));
}

/**
 * A redaction marker the scrubber left for a secret (`[REDACTED:stripe-key]`, core/security/scrub): an opaque
 * placeholder, not a word of the statement. Read as a word it made "use the staging key [REDACTED:stripe-key]" and
 * "don't use my token [REDACTED:github-token]" share a subject ("redacted … key"), so it is read as nothing.
 */
const REDACTION_MARKER = /\[REDACTED:[A-Za-z0-9_-]*\]/g;

/** `text` without its redaction markers (`REDACTION_MARKER`). */
export function withoutMarkers(text: string): string {
  return text.includes('[REDACTED:') ? text.replace(REDACTION_MARKER, ' ') : text;
}

/** `text` without its file paths (see `isPath`), words separated by single spaces. */
function stripPaths(text: string): string {
  const tokens = text.split(/\s+/).filter((token) => token.length > 0);
  if (!text.includes('/')) return tokens.join(' ');
  return tokens.filter((token) => !isPath(token)).join(' ');
}

/**
 * The distinct terms of an observation, in first-seen order: file paths and redaction markers removed (a path is
 * where it happened, not what; a marker is no word), `contentWords` (identifiers split, stop words dropped),
 * numbers dropped, `TERM_ALIASES` applied, each word stemmed (`stemWord`).
 */
export function observationTerms(text: string): string[] {
  return [...new Set(observationTermSequence(text))];
}

/**
 * "stop" / "avoid" as a negation, read as the generic "never": "avoid" always, "stop" before a gerund or a practice
 * ("stop adding comments", "stop using npm", "stop console.log"). "stop" before a determiner or a thing it acts on
 * ("stop the containers", "stop docker containers") keeps its own term: that habit is about stopping, apart from
 * starting. Linear: one pass over the words.
 */
const STOP_OR_AVOID = /\b(?:stop|avoid)\b(?!['’])(\s+[A-Za-z]+)?/gi;
const STOPPED_THING = new RegExp(
  '^\\s+(?:the|a|an|this|that|these|those|all|any|every|my|your|our|its|their|containers?|servers?|services?|' +
    'docker|builds?|process(?:es)?|jobs?|daemons?|watchers?|workers?)$',
  'i',
);

/** `text` with "stop" / "avoid" as a negation written "never" (see `STOP_OR_AVOID`). */
function negationsRead(text: string): string {
  if (!/\b(?:stop|avoid)\b/i.test(text)) return text;
  return text.replace(STOP_OR_AVOID, (match: string, next: string | undefined) =>
    match.slice(0, 4).toLowerCase() === 'stop' && next !== undefined && STOPPED_THING.test(next)
      ? match
      : `never${next ?? ''}`,
  );
}

/** The terms of `observationTerms` in text order, repeats kept, with `stem` for each word. */
function termSequence(text: string, stem: (word: string) => string): string[] {
  const plain = withoutMarkers(text);
  const words = contentWords(negationsRead(plain.includes('/') ? stripPaths(plain) : plain));
  const terms: string[] = [];
  for (const word of words) {
    if (/^\d+$/.test(word)) continue;
    for (const w of aliasesOf(word) ?? [word]) terms.push(stem(w));
  }
  return terms;
}

/** `observationTerms` in text order, repeats kept. */
function observationTermSequence(text: string): string[] {
  return termSequence(text, stemWord);
}

/**
 * The terms grouping reads, in text order: as `observationTerms` but with the Porter stemmer
 * (SQLite FTS5's, `core/text/fts5-tokenizer`), which also joins derived forms (indentation,
 * indented → indent; validation, validate → valid).
 */
export function groupingTermSequence(text: string): string[] {
  let sequence = groupingTerms.get(text);
  if (sequence === undefined) {
    if (groupingTerms.size >= GROUPING_TERMS_KEPT) groupingTerms.clear();
    groupingTerms.set(text, (sequence = termSequence(text, porterStem)));
  }
  return sequence.slice();
}

/**
 * The grouping terms of texts read lately (a text's terms depend on it alone): an evolve reads each text's terms when
 * it groups and again when it routes a contradiction by the words shared (`term-match`). Emptied when full.
 */
const groupingTerms = new Map<string, readonly string[]>();
const GROUPING_TERMS_KEPT = 50_000;

/**
 * The text to embed for grouping: the observation without its file paths and redaction markers (as
 * `observationTerms` sees it). Callers pass `embed(patternText(text))` as the vector.
 */
export function patternText(text: string): string {
  return stripPaths(withoutMarkers(text));
}

/** Indexes of `items` sorted by (timestamp, id): the one order every pass uses. */
export function canonicalOrder(items: readonly { readonly id: string; readonly timestamp: number }[]): number[] {
  return items
    .map((_, i) => i)
    .sort((a, b) => {
      const x = items[a] as { id: string; timestamp: number };
      const y = items[b] as { id: string; timestamp: number };
      return x.timestamp - y.timestamp || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0);
    });
}

function validate(items: readonly GroupingItem[]): number {
  const seen = new Set<string>();
  let dimension = 0;
  items.forEach((item, index) => {
    if (typeof item.id !== 'string' || item.id.length === 0) {
      throw new CredenceError(
        'INVALID_INPUT',
        `observation at index ${index} needs a non-empty string id, got ${String(item.id)}`,
      );
    }
    if (seen.has(item.id))
      throw new CredenceError('INVALID_INPUT', `observation id ${item.id} appears twice`, { details: { id: item.id } });
    seen.add(item.id);
    if (typeof item.text !== 'string')
      throw new CredenceError('INVALID_INPUT', `observation ${item.id} needs a text, got ${String(item.text)}`);
    if (!Number.isFinite(item.timestamp)) {
      throw new CredenceError(
        'INVALID_INPUT',
        `observation ${item.id} needs a finite timestamp, got ${String(item.timestamp)}`,
      );
    }
    if (item.vector !== undefined) {
      if (dimension === 0) dimension = item.vector.length;
      else if (item.vector.length !== dimension) {
        throw new CredenceError(
          'INVALID_INPUT',
          `observation ${item.id} has a vector of dimension ${item.vector.length}, the others ${dimension}`,
          {
            details: { id: item.id, dimension: item.vector.length, expected: dimension },
          },
        );
      }
    }
  });
  return dimension;
}

/**
 * The distinct observations of a batch: items with the same terms are one unit, weighted by how
 * many items it holds (a habit observed by a hook repeats its wording; this is also what keeps the
 * work proportional to distinct texts).
 */
interface Units {
  /** Item indexes of each unit, in canonical order; units are ordered by their first item. */
  readonly members: number[][];
  readonly termIds: Int32Array[];
  /** IDF weights of the unit's terms, normalised to unit length. */
  readonly weights: Float64Array[];
  /** Sum of the members' non-zero vectors, or undefined. */
  readonly vectors: (Float64Array | undefined)[];
  readonly vectorNorms: Float64Array;
  /** Unit document frequency of each term id (distinct observations holding it). */
  readonly df: Int32Array;
  /** Slot tags of each unit, (frame, filler, first term, last term) flattened (see `slotTags`). */
  readonly slots: Int32Array[];
  /** Each unit's heaviest (normalised) term weight. */
  readonly heaviest: Float64Array;
  /** Each term id's text (after spellings are merged). */
  readonly names: readonly string[];
  /** Term ids of phrases added to statements (`addedPhrases`), weighed as generic. */
  readonly context: ReadonlySet<number>;
  /** Each unit's context term that is its slot instead (`contextSlots`), weighed as topical there; −1 if none. */
  readonly slotTerm: Int32Array;
  /** Per unit, the terms it names in passing (`incidentalFillers`), weighed there as generic ones; empty mostly. */
  readonly passing: readonly (readonly number[])[];
}

/** Longest run of terms read as one slot of a template (e.g. SCREAMING_SNAKE_CASE). */
const SLOT_WIDTH = 3;
/** Fewest times a wording is said as it is to state a template's slot (said twice: said on purpose). */
const SLOT_REPEATS = 2;
/** Longest term sequence read as a template (a sentence, not a document): longer ones have no slot. */
const SLOT_SENTENCE = 40;

/**
 * Where each unit fills a slot of a template another unit shares: for every run of 1 to 3 terms of
 * its term sequence holding a heavy term (at least `slotShare` of its heaviest), the frame (the
 * terms before and after the run, at least one) and the filler (the run). Two units with one frame
 * and fillers that differ at both ends say the same sentence with one slot changed ("Always use
 * ripgrep" / "Always use jq", "Name the ledger module with PascalCase" / "… the mailer module with
 * snake_case"): they are about different things and never share a group (a filler that only grows
 * at one end is the same sentence said longer). Callers pass an empty sequence for a unit that
 * states no slot. Tags: (frame, filler, first term, last term) flattened, frames two fillers share.
 */
function slotTags(
  sequences: readonly number[][],
  termIds: readonly Int32Array[],
  weights: readonly Float64Array[],
  options: Resolved,
): Int32Array[] {
  const frameIds = new Map<string, number>();
  const fillerIds = new Map<string, number>();
  const id = (map: Map<string, number>, key: string) => {
    let n = map.get(key);
    if (n === undefined) map.set(key, (n = map.size));
    return n;
  };
  const tags: number[][] = sequences.map((sequence, u) => {
    const terms = termIds[u] as Int32Array;
    const w = weights[u] as Float64Array;
    let heaviest = 0;
    for (let k = 0; k < w.length; k += 1) heaviest = Math.max(heaviest, w[k] as number);
    const heavy = new Set<number>();
    for (let k = 0; k < terms.length; k += 1)
      if ((w[k] as number) >= options.slotShare * heaviest) heavy.add(terms[k] as number);
    const out: number[] = [];
    if (sequence.length > SLOT_SENTENCE) return out;
    for (let i = 0; i < sequence.length; i += 1) {
      for (let end = i + 1; end <= Math.min(sequence.length, i + SLOT_WIDTH); end += 1) {
        if (i === 0 && end === sequence.length) continue;
        const run = sequence.slice(i, end);
        if (!run.some((t) => heavy.has(t))) continue;
        const frame = `${sequence.slice(0, i).join(',')}|${sequence.slice(end).join(',')}`;
        out.push(id(frameIds, frame), id(fillerIds, run.join(',')), run[0] as number, run[run.length - 1] as number);
      }
    }
    return out;
  });
  // Only frames two different fillers share matter.
  const fillersOf = new Map<number, Set<number>>();
  for (const t of tags)
    for (let k = 0; k < t.length; k += 4) {
      let set = fillersOf.get(t[k] as number);
      if (set === undefined) fillersOf.set(t[k] as number, (set = new Set()));
      set.add(t[k + 1] as number);
    }
  return tags.map((t) => {
    const kept: number[] = [];
    for (let k = 0; k < t.length; k += 4)
      if ((fillersOf.get(t[k] as number) as Set<number>).size > 1) kept.push(...t.slice(k, k + 4));
    return Int32Array.from(kept);
  });
}

/** Fewest different statements a phrase must be added to, as they are said, for its terms to be context. */
const ADDED_STATEMENTS = 2;
/** Fewest topical terms two wordings that fill a slot with one context term share to be one statement's. */
const FRAME_SHARED = 3;
/** The grouping terms of the words that negate alone (`NEGATION_WORDS`): a phrase holding one is never context. */
const NEGATION_TERMS: ReadonlySet<string> = new Set([...NEGATION_WORDS].map((word) => porterStem(word)));

/** A 32-bit mix of a term id: a set of terms hashes to the XOR of its terms' mixes. */
function mixId(t: number): number {
  let h = Math.imul(t + 0x9e3779b9, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) | 0;
}

/**
 * Terms of phrases the batch adds to statements it also holds as they are: a run of 1 to `SLOT_WIDTH`
 * terms whose removal leaves the term set of another unit ("… during the payments review", "… while
 * working on auth"), added so to at least `ADDED_STATEMENTS` statements that are not all one statement
 * said longer (one of them does not hold the shortest). Such a phrase says where or when something was
 * observed, not what: its terms weigh as generic ones, so that a slot (the module, the tool) rather than
 * the context it was said in decides what a wording is about. A phrase added only to wordings of one
 * statement ("Always use jq" / "Always use jq during the auth review", each "… for reading JSON output")
 * is part of what they say; one holding a negation ("Never use X" / "Use X": `NEGATION_TERMS`) says the opposite
 * of it. Learned from the batch, no list of places.
 */
function addedPhrases(
  sequences: readonly number[][],
  sets: readonly number[][],
  names: readonly string[],
): Set<number> {
  const termCount = names.length;
  const hashOf = (terms: readonly number[]) => terms.reduce((h, t) => h ^ mixId(t), 0);
  const byHash = new Map<number, number[]>();
  sets.forEach((terms, u) => {
    const h = hashOf(terms);
    const list = byHash.get(h);
    if (list === undefined) byHash.set(h, [u]);
    else list.push(u);
  });
  // Each phrase (its added terms, sorted) → the statements (units) it was added to.
  const phrases = new Map<string, Set<number>>();
  // Times each term is in the sequence read, less the run taken out.
  const counts = new Int32Array(termCount);
  const none: readonly number[] = [];
  sequences.forEach((sequence, u) => {
    if (sequence.length > SLOT_SENTENCE) return;
    const own = sets[u] as number[];
    const whole = hashOf(own);
    for (const t of sequence) counts[t] = (counts[t] as number) + 1;
    for (let i = 0; i < sequence.length; i += 1) {
      let h = whole;
      const added: number[] = [];
      for (let end = i + 1; end <= Math.min(sequence.length, i + SLOT_WIDTH); end += 1) {
        const t = sequence[end - 1] as number;
        counts[t] = (counts[t] as number) - 1;
        if (counts[t] === 0) {
          added.push(t);
          h ^= mixId(t);
        }
        if (added.length === 0 || added.length === own.length) continue;
        for (const b of byHash.get(h) ?? none) {
          const base = sets[b] as number[];
          if (base.length !== own.length - added.length || !base.every((x) => (counts[x] as number) > 0)) continue;
          const key = [...added].sort((x, y) => x - y).join(' ');
          let bases = phrases.get(key);
          if (bases === undefined) phrases.set(key, (bases = new Set()));
          bases.add(b);
        }
      }
      for (let end = i; end < Math.min(sequence.length, i + SLOT_WIDTH); end += 1) {
        const t = sequence[end] as number;
        counts[t] = (counts[t] as number) + 1;
      }
    }
    for (const t of sequence) counts[t] = 0;
  });
  const context = new Set<number>();
  for (const [key, bases] of phrases) {
    if (bases.size < ADDED_STATEMENTS) continue;
    // A negation added to statements says their opposite ("Never use X" / "Use X"), not where they were said.
    if (key.split(' ').some((t) => NEGATION_TERMS.has(names[Number(t)] as string))) continue;
    let shortest = sets[bases.values().next().value as number] as number[];
    for (const b of bases) if ((sets[b] as number[]).length < shortest.length) shortest = sets[b] as number[];
    const other = [...bases].some((b) => {
      const base = sets[b] as number[];
      return base !== shortest && !shortest.every((t) => base.includes(t));
    });
    if (other) for (const t of key.split(' ')) context.add(Number(t));
  }
  return context;
}

/**
 * Where a context term is what a statement says rather than where it was said: the statement holds no other
 * context term and fills a template's slot with the term alone, where a unit said at least `SLOT_REPEATS` times as
 * it is (`stated`) fills it with a run of 1 to `SLOT_WIDTH` terms starting and ending otherwise; the frame (the terms
 * around the slot, no context among them) is no statement of the batch; and another stated wording of it holds the
 * term so too, sharing `FRAME_SHARED` topical terms with it ("Name the billing module with snake_case" / "Files in the
 * billing module use snake_case names", and the search module's; said besides "… while working on billing"). There
 * the term tells statements apart and weighs as it would without context. Returns a term sequence's such term.
 */
function contextSlots(
  sequences: readonly number[][],
  sets: readonly number[][],
  context: ReadonlySet<number>,
  stated: (unit: number) => boolean,
  generic: (t: number) => boolean,
): (sequence: readonly number[]) => number | undefined {
  if (context.size === 0) return () => undefined;
  const statements = new Set(sets.map((set) => [...set].sort((x, y) => x - y).join(' ')));
  const frameKey = (sequence: readonly number[], i: number, end: number) =>
    `${sequence.slice(0, i).join(',')}|${sequence.slice(end).join(',')}`;
  // Each frame (the terms before | after a run, no context term among them) → the first and last terms of its runs.
  const frames = new Map<string, Set<string>>();
  sequences.forEach((sequence, u) => {
    if (sequence.length > SLOT_SENTENCE || !stated(u)) return;
    if ((sets[u] as number[]).filter((t) => context.has(t)).length > 1) return;
    for (let i = 0; i < sequence.length; i += 1)
      for (let end = i + 1; end <= Math.min(sequence.length, i + SLOT_WIDTH); end += 1) {
        if (i === 0 && end === sequence.length) continue;
        if (sequence.some((t, k) => (k < i || k >= end) && context.has(t))) continue;
        const key = frameKey(sequence, i, end);
        let ends = frames.get(key);
        if (ends === undefined) frames.set(key, (ends = new Set()));
        ends.add(`${sequence[i]} ${sequence[end - 1]}`);
      }
  });
  /** The context term a sequence fills a frame's slot with alone, or undefined (the first condition above). */
  const fills = (sequence: readonly number[]): number | undefined => {
    const held = [...new Set(sequence.filter((t) => context.has(t)))];
    if (held.length !== 1 || sequence.length > SLOT_SENTENCE || sequence.length < 2) return undefined;
    const t = held[0] as number;
    const at = sequence.indexOf(t);
    if (sequence.lastIndexOf(t) !== at) return undefined;
    const ends = frames.get(frameKey(sequence, at, at + 1));
    if (ends === undefined) return undefined;
    const frame = [...new Set(sequence.filter((x) => x !== t))].sort((x, y) => x - y);
    if (statements.has(frame.join(' '))) return undefined;
    for (const e of ends) {
      const [first, last] = e.split(' ').map(Number);
      if (first !== t && last !== t) return t;
    }
    return undefined;
  };
  // Each context term → the stated units that fill a slot with it: their term sets, and their topical terms.
  const fillers = new Map<number, [string, Set<number>][]>();
  sequences.forEach((sequence, u) => {
    const t = stated(u) ? fills(sequence) : undefined;
    if (t === undefined) return;
    let list = fillers.get(t);
    if (list === undefined) fillers.set(t, (list = []));
    const set = sets[u] as number[];
    list.push([[...set].sort((x, y) => x - y).join(' '), new Set(set.filter((x) => x !== t && !generic(x)))]);
  });
  return (sequence) => {
    const t = fills(sequence);
    if (t === undefined) return undefined;
    const distinct = [...new Set(sequence)];
    const key = [...distinct].sort((x, y) => x - y).join(' ');
    const own = distinct.filter((x) => x !== t && !generic(x));
    const wording = (fillers.get(t) ?? []).some(([otherKey, other]) => {
      const shared = own.filter((x) => other.has(x)).length;
      return otherKey !== key && shared >= FRAME_SHARED && shared * 2 >= Math.max(own.length, other.size);
    });
    return wording ? t : undefined;
  };
}

/** Whether term id t is a generic word (`GROUPING_GENERIC_TERMS`), read through the batch's term `names`. */
const genericIn =
  (names: readonly string[]) =>
  (t: number): boolean =>
    GROUPING_GENERIC_TERMS.has(names[t] as string);

/** Each term → the holders whose terms hold it, in the holders' order, each holder once. */
function holdersOf(holders: Iterable<readonly [number, Iterable<number>]>): Map<number, number[]> {
  const holding = new Map<number, number[]>();
  for (const [h, terms] of holders)
    for (const t of terms) {
      let list = holding.get(t);
      if (list === undefined) holding.set(t, (list = []));
      if (list[list.length - 1] !== h) list.push(h);
    }
  return holding;
}

/** Fewest different fillers of a template for a filler said nowhere else to be read as incidental. */
const INCIDENTAL_FILLERS = 3;

/** A word written as code names things (`max_retries`, `apiClient`, `v2`): an underscore, an inner capital, a digit. */
const IDENTIFIER_WORD = /^(?=.*[A-Za-z])(?:.*_.*|.*[a-z][A-Z].*|.*\d.*)$/;

/** The grouping terms of `text` that come from words written as code identifiers (`IDENTIFIER_WORD`). */
function identifierTerms(text: string): Set<string> {
  const terms = new Set<string>();
  for (const token of stripPaths(text).split(' ')) {
    const word = token.replace(/^[^A-Za-z0-9_]+|[^A-Za-z0-9_]+$/g, '');
    if (IDENTIFIER_WORD.test(word)) for (const t of termSequence(word, porterStem)) terms.add(t);
  }
  return terms;
}

/** A rename `text` states (`renamedIn` over the text without its paths, identifiers split and Porter-stemmed). */
function renamedIdentifier(text: string): { terms: string[]; cases: string } | undefined {
  return renamedIn(stripPaths(text), (word) => termSequence(word, porterStem));
}

/** The naming case a text renames an identifier into (`renamedIdentifier`: "camel", "snake", …), or undefined. */
export function renamedCaseOf(text: string): string | undefined {
  return renamedIdentifier(text)?.cases;
}

/**
 * What templates say in passing: a run of 1 to `SLOT_WIDTH` topical terms (context and generic terms aside) said
 * together in one statement only, that statement said at least `SLOT_REPEATS` times (a one-off remark has no
 * template), where the run fills a slot inside a frame (terms on both sides) that the batch fills with at least
 * `INCIDENTAL_FILLERS` such runs, no two of them starting or ending alike (else a frame word was read into the run),
 * and where one side of the frame is said in a statement outside it holding nothing of the other side ("Renamed
 * max_retries / api_client / row_count to camelCase at the user's request", camelCase said without "renamed" too).
 * The frame says what the habit is; the filler (this identifier) is a detail. A subject recurs in other frames of
 * its habit ("Name the ledger module …", "Files in the ledger module …"), and a frame said nowhere else ("Always use
 * <tool>": no topical term; "Name the <module> module with PascalCase") has its slot for its subject: neither is
 * incidental. Only a run written as code identifiers (`identifier`: the unit's terms from `IDENTIFIER_WORD` words)
 * is a detail: a plain word in the slot is what the habit is about ("Run prettier / eslint / tsc before committing",
 * "Never edit the lockfile / applied migrations by hand"), even where one side of the frame is said elsewhere.
 * Returns, for each statement (its topical terms in order, joined by commas), the terms it says in passing: they
 * weigh there as generic ones.
 */
function incidentalFillers(
  sequences: readonly number[][],
  context: ReadonlySet<number>,
  generic: (t: number) => boolean,
  stated: (unit: number) => boolean,
  identifier: (unit: number) => ReadonlySet<number>,
): Map<string, Set<number>> {
  const topical = (t: number) => !generic(t) && !context.has(t);
  // The distinct statements: topical term sequences, context and generic words left out; said on purpose or not.
  const index = new Map<string, number>();
  const statements: number[][] = [];
  const onPurpose: boolean[] = [];
  const coded: Set<number>[] = [];
  sequences.forEach((sequence, u) => {
    const kept = sequence.filter(topical);
    const key = kept.join(',');
    if (kept.length < 2 || kept.length > SLOT_SENTENCE) return;
    let s = index.get(key);
    if (s !== undefined) onPurpose[s] ||= stated(u);
    else {
      index.set(key, (s = statements.length));
      statements.push(kept);
      onPurpose.push(stated(u));
      coded.push(new Set());
    }
    for (const t of identifier(u)) (coded[s] as Set<number>).add(t);
  });
  const holding = holdersOf(statements.entries());
  /** Whether the terms of `run` are said together in statement s alone. */
  const once = (run: readonly number[]) => {
    let fewest = holding.get(run[0] as number) as number[];
    for (const t of run) if ((holding.get(t) as number[]).length < fewest.length) fewest = holding.get(t) as number[];
    let n = 0;
    for (const s of fewest) if (run.every((t) => (statements[s] as number[]).includes(t))) n += 1;
    return n === 1;
  };
  // Each frame (topical terms before | after a run) → its fillers (the runs, joined) → [run, statement].
  const frames = new Map<string, Map<string, [number[], number]>>();
  statements.forEach((statement, s) => {
    if (onPurpose[s] !== true) return;
    for (let i = 0; i < statement.length; i += 1)
      for (let end = i + 1; end <= Math.min(statement.length, i + SLOT_WIDTH); end += 1) {
        if (i === 0 || end === statement.length) continue;
        const run = statement.slice(i, end);
        if (!run.every((t) => (coded[s] as Set<number>).has(t)) || !once(run)) continue;
        const key = `${statement.slice(0, i).join(',')}|${statement.slice(end).join(',')}`;
        let fillers = frames.get(key);
        if (fillers === undefined) frames.set(key, (fillers = new Map()));
        fillers.set(run.join(','), [run, s]);
      }
  });
  const out = new Map<string, Set<number>>();
  for (const [key, fillers] of frames) {
    if (fillers.size < INCIDENTAL_FILLERS) continue;
    // Fillers that share their first or last term with another are a frame term and a filler read as one run.
    const firsts = new Map<number, number>();
    const lasts = new Map<number, number>();
    for (const [run] of fillers.values()) {
      firsts.set(run[0] as number, (firsts.get(run[0] as number) ?? 0) + 1);
      lasts.set(run[run.length - 1] as number, (lasts.get(run[run.length - 1] as number) ?? 0) + 1);
    }
    const cut = [...fillers.values()].filter(
      ([run]) => firsts.get(run[0] as number) === 1 && lasts.get(run[run.length - 1] as number) === 1,
    );
    if (cut.length < INCIDENTAL_FILLERS) continue;
    const instances = new Set([...fillers.values()].map(([, s]) => s));
    const [before, after] = key.split('|').map((side) => side.split(',').map(Number)) as [number[], number[]];
    // One side of the frame said in a statement outside it that holds nothing of the other side.
    const saidAlone = (side: number[], other: number[]) =>
      (holding.get(side[0] as number) as number[]).some((s) => {
        const statement = statements[s] as number[];
        return (
          !instances.has(s) && side.every((x) => statement.includes(x)) && !other.some((x) => statement.includes(x))
        );
      });
    if (!saidAlone(before, after) && !saidAlone(after, before)) continue;
    for (const [run, s] of cut) {
      const statementKey = (statements[s] as number[]).join(',');
      let terms = out.get(statementKey);
      if (terms === undefined) out.set(statementKey, (terms = new Set()));
      for (const t of run) terms.add(t);
    }
  }
  return out;
}

/**
 * The terms of phrases `texts` adds to statements they also hold as they are (`addedPhrases`): where or when
 * something was observed ("… during the payments review"), as the grouping of the same texts weighs them.
 */
export function addedContextTerms(texts: readonly string[]): Set<string> {
  return new Set(readAddedContext(texts).terms);
}

/** The context of a batch of texts as the grouping reads it (see {@link readAddedContext}). */
export interface AddedContext {
  /** Terms of phrases the texts add to statements they also hold as they are (`addedContextTerms`). */
  readonly terms: ReadonlySet<string>;
  /** The context term a text holds as a template's slot, weighed as topical there (`contextSlots`), if any. */
  readonly slotOf: (text: string) => string | undefined;
}

/**
 * The context of `texts` (`addedContextTerms`, or `known`: the terms the grouping of them returned) and where a
 * context term is a template's slot instead (`contextSlots`; a text is stated when said at least twice, and a text
 * given later is read as stated).
 */
export function readAddedContext(texts: readonly string[], known?: readonly string[]): AddedContext {
  const ids = new Map<string, number>();
  const names: string[] = [];
  const idOf = (term: string) => {
    let id = ids.get(term);
    if (id === undefined) {
      ids.set(term, (id = names.length));
      names.push(term);
    }
    return id;
  };
  const sequences: number[][] = [];
  const sets: number[][] = [];
  // Each distinct term set → its unit, and the times the texts say it.
  const seen = new Map<string, number>();
  const said: number[] = [];
  const times = new Map<string, number>();
  for (const text of texts) times.set(text, (times.get(text) ?? 0) + 1);
  for (const [text, n] of times) {
    const sequence = groupingTermSequence(text).map(idOf);
    const set = [...new Set(sequence)].sort((x, y) => x - y);
    const key = set.join(' ');
    if (set.length === 0) continue;
    const u = seen.get(key);
    if (u !== undefined) {
      said[u] = (said[u] as number) + n;
      continue;
    }
    seen.set(key, sequences.length);
    said.push(n);
    sequences.push(sequence);
    sets.push(set);
  }
  const context =
    known === undefined ? addedPhrases(sequences, sets, names) : new Set(known.filter((t) => ids.has(t)).map(idOf));
  const slot = contextSlots(sequences, sets, context, (u) => (said[u] as number) >= SLOT_REPEATS, genericIn(names));
  const terms = new Set([...context].map((t) => names[t] as string));
  // Each text's slot read once: a reader asks it of the same label and learned texts pair after pair.
  const slots = new Map<string, string | undefined>();
  return {
    terms,
    slotOf: (text) => {
      if (terms.size === 0) return undefined;
      if (!slots.has(text)) {
        const t = slot(groupingTermSequence(text).map((term) => ids.get(term) ?? -1));
        slots.set(text, t === undefined ? undefined : names[t]);
      }
      return slots.get(text);
    },
  };
}

function isZero(v: Float32Array): boolean {
  for (let j = 0; j < v.length; j += 1) if (v[j] !== 0) return false;
  return true;
}

/** Shortest stem a spelling variant maps to, and most letters a longer form adds to it. */
const VARIANT_STEM = 6;
const VARIANT_TAIL = 3;
/** Shortest part of a compound written as one word. */
const COMPOUND_PART = 3;
/** Shortest term read as a typo of another. */
const TYPO_LENGTH = 5;

/** The forms of `word` with one letter dropped, or two neighbouring letters swapped. */
function oneEdit(word: string): string[] {
  const out: string[] = [];
  for (let k = 0; k < word.length; k += 1) out.push(word.slice(0, k) + word.slice(k + 1));
  for (let k = 0; k + 1 < word.length; k += 1)
    if (word[k] !== word[k + 1]) out.push(word.slice(0, k) + word[k + 1] + word[k] + word.slice(k + 2));
  return out;
}

/**
 * How a batch's terms are spelled alike, found in the batch itself (no word list). `counts` holds
 * every term and how many distinct observations hold it; `adjacent` the pairs "a b" of terms
 * written side by side somewhere in the batch. A term of at least 5 letters one edit (a letter
 * dropped or added, two neighbours swapped) from a term held by more observations is a typo of it
 * ("idnent" → "indent"); a term that is a term of the batch of at least 6 letters plus at most 3
 * letters is that term ("postgres" → "postgre", the start of "PostgreSQL"); a term that is two
 * adjacent terms written as one stands for both ("dockercompos" → "docker", "compos"). Generic
 * terms and terms with digits are left as they are. Returns term → the terms it stands for.
 */
export function spellingVariants(
  counts: ReadonlyMap<string, number>,
  adjacent: ReadonlySet<string> = new Set(),
  generic: ReadonlySet<string> = GROUPING_GENERIC_TERMS,
): Map<string, readonly string[]> {
  const usable = (term: string) => !generic.has(term) && !/\d/.test(term);
  const out = new Map<string, readonly string[]>();
  for (const [term, count] of counts) {
    if (!usable(term)) continue;
    let mapped: readonly string[] | undefined;
    if (term.length >= TYPO_LENGTH) {
      // A typo: the most common term one edit away that more observations hold (ties: first in order).
      let best: string | undefined;
      const consider = (other: string) => {
        const n = counts.get(other);
        // A typo of a generic word ("pleae") is that word.
        if (n === undefined || n <= count || /\d/.test(other) || other.length < TYPO_LENGTH - 1) return;
        if (best === undefined || n > (counts.get(best) as number) || (n === counts.get(best) && other < best))
          best = other;
      };
      for (const other of oneEdit(term)) consider(other);
      if (best !== undefined) mapped = [best];
    }
    for (let k = Math.max(VARIANT_STEM, term.length - VARIANT_TAIL); k < term.length && !mapped; k += 1) {
      const stem = term.slice(0, k);
      if (counts.has(stem) && usable(stem)) mapped = [stem];
    }
    for (let k = COMPOUND_PART; k <= term.length - COMPOUND_PART && !mapped; k += 1) {
      if (adjacent.has(`${term.slice(0, k)} ${term.slice(k)}`)) mapped = [term.slice(0, k), term.slice(k)];
    }
    if (mapped !== undefined) out.set(term, mapped);
  }
  // Typos with a letter missing: the longer, more common form, found from its own one-letter drops.
  for (const [term, count] of counts) {
    if (!usable(term) || term.length < TYPO_LENGTH) continue;
    for (let k = 0; k < term.length; k += 1) {
      const short = term.slice(0, k) + term.slice(k + 1);
      const n = counts.get(short);
      if (n === undefined || n >= count || out.has(short) || !usable(short) || short.length < TYPO_LENGTH) continue;
      out.set(short, [term]);
    }
  }
  // A variant of a variant stands for what that one stands for (one step: the maps point to more
  // common or shorter terms, so chains are short and end).
  const resolve = (term: string, depth: number): readonly string[] => {
    const parts = out.get(term);
    if (parts === undefined || depth > 3) return [term];
    return parts.flatMap((p) => (p === term ? [p] : resolve(p, depth + 1)));
  };
  const resolved = new Map<string, readonly string[]>();
  for (const term of out.keys()) resolved.set(term, [...new Set(resolve(term, 0))]);
  return resolved;
}

function buildUnits(
  items: readonly GroupingItem[],
  order: readonly number[],
  dimension: number,
  options: Resolved,
): Units {
  // Terms of each distinct text, and the pairs of terms found side by side (for compounds); a renamed identifier's.
  const textTerms = new Map<string, string[]>();
  const renamedTerms = new Map<string, string[]>();
  const adjacent = new Set<string>();
  for (const i of order) {
    const text = (items[i] as GroupingItem).text;
    if (textTerms.has(text)) continue;
    const sequence = groupingTermSequence(text);
    const renamed = renamedIdentifier(text);
    if (renamed !== undefined) {
      sequence.push(...groupingTermSequence(renamed.cases));
      renamedTerms.set(text, renamed.terms);
    }
    for (let k = 1; k < sequence.length; k += 1) adjacent.add(`${sequence[k - 1]} ${sequence[k]}`);
    textTerms.set(text, sequence);
  }
  // How many distinct term sets (the units below, before spellings are merged) hold each term.
  const counts = new Map<string, number>();
  const seenSets = new Set<string>();
  for (const sequence of textTerms.values()) {
    const terms = [...new Set(sequence)];
    const key = terms.sort().join(' ');
    if (seenSets.has(key)) continue;
    seenSets.add(key);
    for (const t of terms) counts.set(t, (counts.get(t) ?? 0) + 1);
  }
  const variants = spellingVariants(counts, adjacent);
  const termIdOf = new Map<string, number>();
  const termNames: string[] = [];
  const unitOf = new Map<string, number>();
  const members: number[][] = [];
  const rawTerms: number[][] = [];
  const sequences: number[][] = [];
  const byText = new Map<string, { terms: number[]; sequence: number[]; key: string }>();
  for (const i of order) {
    const text = (items[i] as GroupingItem).text;
    let known = byText.get(text);
    if (known === undefined) {
      const sequence = (textTerms.get(text) as string[])
        .flatMap((t) => variants.get(t) ?? [t])
        .map((term) => {
          let id = termIdOf.get(term);
          if (id === undefined) {
            termIdOf.set(term, (id = termIdOf.size));
            termNames.push(term);
          }
          return id;
        });
      const ids = [...new Set(sequence)];
      known = { terms: ids, sequence, key: [...ids].sort((a, b) => a - b).join(' ') };
      byText.set(text, known);
    }
    const { terms } = known;
    // An observation with no term says nothing to group on: it stays a unit of its own.
    const key = terms.length === 0 ? `\u0000${i}` : known.key;
    let u = unitOf.get(key);
    if (u === undefined) {
      unitOf.set(key, (u = members.length));
      members.push([]);
      rawTerms.push(terms);
      sequences.push(known.sequence);
    }
    (members[u] as number[]).push(i);
  }
  // A term weighs by the distinct observations (units) it is in, not by how often one of them
  // repeats: a template shared by several habits is in many units, the slot that tells them apart
  // in the units of one habit only.
  const df = new Int32Array(termIdOf.size);
  for (const terms of rawTerms) for (const t of terms) df[t] = (df[t] as number) + 1;
  const context = addedPhrases(sequences, rawTerms, termNames);
  const idf = (generic: ReadonlySet<string>) =>
    batchIdf(termNames, df, rawTerms.length, {
      minBatch: options.idfMinBatch,
      genericWeight: options.genericWeight,
      generic,
    });
  const topicalWeight = idf(GROUPING_GENERIC_TERMS);
  const termWeight =
    context.size === 0
      ? topicalWeight
      : idf(new Set([...GROUPING_GENERIC_TERMS, ...[...context].map((t) => termNames[t] as string)]));
  // A context term that is a stated unit's slot weighs there as it would without context.
  const slotOf = contextSlots(
    sequences,
    rawTerms,
    context,
    (u) => (members[u] as number[]).length >= SLOT_REPEATS,
    genericIn(termNames),
  );
  // Runs a template says in passing (an identifier it was said about) weigh in their statement as generic terms.
  const generic = genericIn(termNames);
  const identifier = (u: number) => {
    const ids = new Set<number>();
    for (const term of identifierTerms((items[(members[u] as number[])[0] as number] as GroupingItem).text))
      for (const name of variants.get(term) ?? [term]) {
        const id = termIdOf.get(name);
        if (id !== undefined) ids.add(id);
      }
    return ids;
  };
  const incidental = incidentalFillers(
    sequences,
    context,
    generic,
    (u) => (members[u] as number[]).length >= SLOT_REPEATS,
    identifier,
  );
  /** The term ids of the identifier unit u renames (`renamedIdentifier`), or undefined. */
  const renamedOf = (u: number): Set<number> | undefined => {
    const terms = renamedTerms.get((items[(members[u] as number[])[0] as number] as GroupingItem).text);
    if (terms === undefined) return undefined;
    const ids = new Set<number>();
    for (const term of terms)
      for (const name of variants.get(term) ?? [term]) {
        const id = termIdOf.get(name);
        if (id !== undefined) ids.add(id);
      }
    return ids;
  };
  const passingTerms: number[][] = [];
  const termIds: Int32Array[] = [];
  const weights: Float64Array[] = [];
  const vectors: (Float64Array | undefined)[] = [];
  const vectorNorms = new Float64Array(members.length);
  const slotTerm = new Int32Array(members.length).fill(-1);
  rawTerms.forEach((terms, u) => {
    const slot = (members[u] as number[]).length >= SLOT_REPEATS ? slotOf(sequences[u] as number[]) : undefined;
    if (slot !== undefined) slotTerm[u] = slot;
    const template =
      incidental.size === 0
        ? undefined
        : incidental.get((sequences[u] as number[]).filter((t) => !generic(t) && !context.has(t)).join(','));
    const renamed = renamedOf(u);
    const passing = renamed === undefined ? template : new Set([...(template ?? []), ...renamed]);
    passingTerms.push(passing === undefined ? [] : terms.filter((t) => passing.has(t)));
    const w = Float64Array.from(terms, (t) =>
      passing?.has(t) === true
        ? (topicalWeight[t] as number) * options.genericWeight
        : ((t === slot ? topicalWeight : termWeight)[t] as number),
    );
    let norm = 0;
    for (let k = 0; k < w.length; k += 1) norm += (w[k] as number) ** 2;
    norm = Math.sqrt(norm);
    for (let k = 0; k < w.length; k += 1) w[k] = norm === 0 ? 0 : (w[k] as number) / norm;
    termIds.push(Int32Array.from(terms));
    weights.push(w);
    let sum: Float64Array | undefined;
    if (dimension > 0) {
      for (const i of members[u] as number[]) {
        const v = (items[i] as GroupingItem).vector;
        if (v === undefined || isZero(v)) continue;
        sum ??= new Float64Array(dimension);
        for (let j = 0; j < dimension; j += 1) sum[j] = (sum[j] as number) + (v[j] as number);
      }
    }
    let vn = 0;
    if (sum !== undefined) for (let j = 0; j < dimension; j += 1) vn += (sum[j] as number) ** 2;
    vectors.push(sum !== undefined && vn > 0 ? sum : undefined);
    vectorNorms[u] = Math.sqrt(vn);
  });
  // Only a wording said at least `SLOT_REPEATS` times as it is states a template's slot.
  const slots = slotTags(
    sequences.map((sequence, u) => ((members[u] as number[]).length >= SLOT_REPEATS ? sequence : [])),
    termIds,
    weights,
    options,
  );
  const heaviest = Float64Array.from(weights, (w) => w.reduce((max, x) => Math.max(max, x), 0));
  return {
    members,
    termIds,
    weights,
    vectors,
    vectorNorms,
    df,
    slots,
    heaviest,
    names: termNames,
    context,
    slotTerm,
    passing: passingTerms,
  };
}

/** A cluster under construction: sums of its items' term weights and vectors. */
interface Cluster {
  units: number[];
  size: number;
  terms: Map<number, number>;
  termNorm2: number;
  vector: Float64Array | undefined;
  vectorNorm2: number;
  alive: boolean;
  /** Its `TOP_TERMS` heaviest terms, heaviest first (ties: lower id), kept as terms are added. */
  top: number[];
  /** Its units' slot tags: frame → filler → [units, first term, last term]. */
  slots: Map<number, Map<number, [number, number, number]>>;
}

/** Heaviest terms of a cluster the slot guard reads. */
const TOP_TERMS = 8;

/** Heavier first, then lower id. */
const heavier = (cluster: Cluster, a: number, b: number): boolean => {
  const wa = cluster.terms.get(a) as number;
  const wb = cluster.terms.get(b) as number;
  return wa > wb || (wa === wb && a < b);
};

/** Keeps `cluster.top` after term t's weight grew (weights only grow between rebuilds). */
function keepTop(cluster: Cluster, t: number): void {
  const top = cluster.top;
  let k = top.indexOf(t);
  if (k < 0) {
    if (top.length < TOP_TERMS) k = top.push(t) - 1;
    else if (heavier(cluster, t, top[TOP_TERMS - 1] as number)) top[(k = TOP_TERMS - 1)] = t;
    else return;
  }
  while (k > 0 && heavier(cluster, t, top[k - 1] as number)) {
    top[k] = top[k - 1] as number;
    top[(k -= 1)] = t;
  }
}

function dot(a: Float64Array, b: Float64Array): number {
  let sum = 0;
  for (let j = 0; j < a.length; j += 1) sum += (a[j] as number) * (b[j] as number);
  return sum;
}

/** The grouping engine over one batch (internal; `groupObservations` is the API). */
class Grouper {
  readonly clusters: Cluster[] = [];
  /** term id → clusters whose term sums contain it (may hold dead clusters, skipped on use). */
  readonly postings: number[][];
  readonly clusterOf: Int32Array;
  private readonly acc: Float64Array;
  private readonly mark: Int32Array;
  private stamp = 0;
  private readonly maxDf: number;

  constructor(
    readonly units: Units,
    readonly dimension: number,
    readonly options: Resolved,
    itemCount: number,
  ) {
    this.postings = Array.from({ length: units.df.length }, () => []);
    const n = units.members.length;
    this.clusterOf = new Int32Array(n).fill(-1);
    this.acc = new Float64Array(n);
    this.mark = new Int32Array(n);
    this.maxDf = Math.max(options.idfMinBatch, Math.floor(options.maxDocumentShare * itemCount));
  }

  newCluster(): number {
    this.clusters.push({
      units: [],
      size: 0,
      terms: new Map(),
      termNorm2: 0,
      vector: undefined,
      vectorNorm2: 0,
      alive: true,
      top: [],
      slots: new Map(),
    });
    return this.clusters.length - 1;
  }

  add(c: number, u: number): void {
    const cluster = this.clusters[c] as Cluster;
    const count = (this.units.members[u] as number[]).length;
    cluster.units.push(u);
    cluster.size += count;
    this.clusterOf[u] = c;
    const tags = this.units.slots[u] as Int32Array;
    for (let k = 0; k < tags.length; k += 4) {
      let fillers = cluster.slots.get(tags[k] as number);
      if (fillers === undefined) cluster.slots.set(tags[k] as number, (fillers = new Map()));
      const known = fillers.get(tags[k + 1] as number);
      if (known === undefined) fillers.set(tags[k + 1] as number, [1, tags[k + 2] as number, tags[k + 3] as number]);
      else known[0] += 1;
    }
    const terms = this.units.termIds[u] as Int32Array;
    const weights = this.units.weights[u] as Float64Array;
    for (let k = 0; k < terms.length; k += 1) {
      const t = terms[k] as number;
      const w = count * (weights[k] as number);
      const old = cluster.terms.get(t);
      if (old === undefined) {
        cluster.terms.set(t, w);
        (this.postings[t] as number[]).push(c);
        cluster.termNorm2 += w * w;
      } else {
        cluster.terms.set(t, old + w);
        cluster.termNorm2 += 2 * old * w + w * w;
      }
      keepTop(cluster, t);
    }
    const v = this.units.vectors[u];
    if (v !== undefined) {
      if (cluster.vector === undefined) cluster.vector = new Float64Array(this.dimension);
      const sum = cluster.vector;
      let cross = 0;
      let self = 0;
      for (let j = 0; j < sum.length; j += 1) {
        const x = v[j] as number;
        cross += (sum[j] as number) * x;
        self += x * x;
        sum[j] = (sum[j] as number) + x;
      }
      cluster.vectorNorm2 += 2 * cross + self;
    }
  }

  /** Rebuilds a cluster's sums from its units (after a merge or a reassignment). */
  rebuild(c: number, units: readonly number[]): void {
    const cluster = this.clusters[c] as Cluster;
    Object.assign(cluster, {
      units: [],
      size: 0,
      terms: new Map(),
      termNorm2: 0,
      vector: undefined,
      vectorNorm2: 0,
      top: [],
      slots: new Map(),
    });
    for (const u of units) this.add(c, u);
  }

  /**
   * Whether a group is about something `has` lacks: one of its heaviest terms (`cluster.top`, at
   * least `slotShare` of the heaviest) is not in it.
   */
  private clusterSlot(cluster: Cluster, has: (t: number) => boolean): boolean {
    const top = cluster.top;
    const heaviest = cluster.terms.get(top[0] as number) ?? 0;
    for (const t of top) {
      if ((cluster.terms.get(t) as number) < this.options.slotShare * heaviest) break;
      if (!has(t)) return true;
    }
    return false;
  }

  /**
   * Whether unit u is about something `has` lacks: none of its heaviest terms (at least
   * `slotShare` of the heaviest) is in it. One observation is read by what it shares at all, a
   * group by everything it is about.
   */
  private unitSlot(u: number, has: (t: number) => boolean): boolean {
    const terms = this.units.termIds[u] as Int32Array;
    const weights = this.units.weights[u] as Float64Array;
    const heavy = this.options.slotShare * (this.units.heaviest[u] as number);
    for (let k = 0; k < terms.length; k += 1)
      if ((weights[k] as number) >= heavy && has(terms[k] as number)) return false;
    return terms.length > 0;
  }

  /** Whether unit u fills a slot of cluster c's templates with another filler (see `slotTags`). */
  fillsOtherSlot(u: number, c: number): boolean {
    const cluster = this.clusters[c] as Cluster;
    if (cluster.slots.size === 0) return false;
    const tags = this.units.slots[u] as Int32Array;
    for (let k = 0; k < tags.length; k += 4) {
      const fillers = cluster.slots.get(tags[k] as number);
      if (fillers === undefined) continue;
      for (const [, first, last] of fillers.values()) if (first !== tags[k + 2] && last !== tags[k + 3]) return true;
    }
    return false;
  }

  /**
   * Whether two clusters hold units that fill one slot with different fillers; with `counts`, only
   * fillers whose first or last term it accepts count (a slot filled with context is no clash).
   */
  slotsClash(a: number, b: number, counts?: (t: number) => boolean): boolean {
    const x = this.clusters[a] as Cluster;
    const y = this.clusters[b] as Cluster;
    const [small, large] = x.slots.size <= y.slots.size ? [x.slots, y.slots] : [y.slots, x.slots];
    for (const [frame, fillers] of small) {
      const other = large.get(frame);
      if (other === undefined) continue;
      for (const [, first, last] of fillers.values())
        for (const [, f, l] of other.values()) {
          if (f === first || l === last) continue;
          if (counts === undefined || counts(f) || counts(l) || counts(first) || counts(last)) return true;
        }
    }
    return false;
  }

  private mix(semantic: number | undefined, lexical: number, slots = false): number {
    if (slots) return lexical * this.options.slotPenalty;
    if (semantic === undefined) return lexical;
    const w = this.options.vectorWeight;
    return w * semantic + (1 - w) * lexical;
  }

  /**
   * Combined similarity of unit u to cluster c; with `leaveOut`, to c without u (u must be in c):
   * the similarity to the rest of its own group, NaN when u is alone in it.
   */
  unitSimilarity(u: number, c: number, leaveOut = false): number {
    const cluster = this.clusters[c] as Cluster;
    const terms = this.units.termIds[u] as Int32Array;
    const weights = this.units.weights[u] as Float64Array;
    const count = leaveOut ? (this.units.members[u] as number[]).length : 0;
    if (leaveOut && cluster.size === count) return Number.NaN;
    let lexical = 0;
    let norm2 = cluster.termNorm2;
    let sum = 0;
    // The unit side of the slot guard, read in the same pass (see `unitSlot`).
    const heavy = this.options.slotShare * (this.units.heaviest[u] as number);
    let heavyShared = false;
    let heavyUnshared = false;
    for (let k = 0; k < terms.length; k += 1) {
      const w = weights[k] as number;
      const s = cluster.terms.get(terms[k] as number) ?? 0;
      if (w >= heavy) {
        if (s > 0) heavyShared = true;
        else heavyUnshared = true;
      }
      if (leaveOut) {
        // |S − count·w|² = |S|² − 2·count·w·S + count²·w².
        norm2 += -2 * count * w * s + count * count * w * w;
        sum += w * (s - count * w);
      } else sum += w * s;
    }
    if (norm2 > 1e-12) lexical = sum / Math.sqrt(norm2);
    const v = this.units.vectors[u];
    let semantic: number | undefined;
    if (v !== undefined && cluster.vector !== undefined) {
      const cross = dot(v, cluster.vector);
      const vn = this.units.vectorNorms[u] as number;
      const rest2 = leaveOut ? cluster.vectorNorm2 - 2 * cross + vn * vn : cluster.vectorNorm2;
      if (rest2 > 1e-12) semantic = (leaveOut ? cross - vn * vn : cross) / (vn * Math.sqrt(rest2));
    }
    const slots = !leaveOut && heavyUnshared && !heavyShared && this.clusterSlot(cluster, (t) => terms.includes(t));
    return this.mix(semantic, lexical, slots);
  }

  /** Combined similarity of two clusters' centroids. */
  clusterSimilarity(a: number, b: number): number {
    const x = this.clusters[a] as Cluster;
    const y = this.clusters[b] as Cluster;
    let lexical = 0;
    if (x.termNorm2 > 0 && y.termNorm2 > 0) {
      const [small, large] = x.terms.size <= y.terms.size ? [x.terms, y.terms] : [y.terms, x.terms];
      let sum = 0;
      for (const [t, w] of small) sum += w * (large.get(t) ?? 0);
      lexical = sum / Math.sqrt(x.termNorm2 * y.termNorm2);
    }
    const semantic =
      x.vector === undefined || y.vector === undefined || x.vectorNorm2 <= 0 || y.vectorNorm2 <= 0
        ? undefined
        : dot(x.vector, y.vector) / Math.sqrt(x.vectorNorm2 * y.vectorNorm2);
    const slots = this.clusterSlot(x, (t) => y.terms.has(t)) && this.clusterSlot(y, (t) => x.terms.has(t));
    return this.mix(semantic, lexical, slots);
  }

  /**
   * The live clusters sharing a term with unit u, through the postings of its terms (terms in more
   * than `maxDocumentShare` of the batch only when it has no rarer one), the best
   * `candidateLimit` by lexical score.
   */
  /** Whether a unit has a term rare enough to search by: then its common terms are skipped. */
  hasRareTerm(terms: Int32Array): boolean {
    for (let k = 0; k < terms.length; k += 1)
      if ((this.units.df[terms[k] as number] as number) <= this.maxDf) return true;
    return false;
  }

  candidates(u: number): number[] {
    const terms = this.units.termIds[u] as Int32Array;
    const weights = this.units.weights[u] as Float64Array;
    const stamp = (this.stamp += 1);
    const touched: number[] = [];
    const rareOnly = this.hasRareTerm(terms);
    for (let k = 0; k < terms.length; k += 1) {
      const t = terms[k] as number;
      if (rareOnly && (this.units.df[t] as number) > this.maxDf) continue;
      const w = weights[k] as number;
      for (const c of this.postings[t] as number[]) {
        const cluster = this.clusters[c] as Cluster;
        if (!cluster.alive) continue;
        if (this.mark[c] !== stamp) {
          this.mark[c] = stamp;
          this.acc[c] = 0;
          touched.push(c);
        }
        this.acc[c] = (this.acc[c] as number) + w * (cluster.terms.get(t) ?? 0);
      }
    }
    return this.top(touched, (c) => (this.acc[c] as number) / Math.sqrt((this.clusters[c] as Cluster).termNorm2 || 1));
  }

  /** The `candidateLimit` best of `list` by `score` (ties: lower index), in no particular order. */
  private top(list: number[], score: (c: number) => number): number[] {
    const limit = this.options.candidateLimit;
    if (list.length <= limit) return list;
    const scores = list.map(score);
    const picked: number[] = [];
    const pickedScores: number[] = [];
    for (let k = 0; k < list.length; k += 1) {
      const c = list[k] as number;
      const s = scores[k] as number;
      if (picked.length === limit) {
        let worst = 0;
        for (let m = 1; m < limit; m += 1) {
          const ws = pickedScores[worst] as number;
          const ms = pickedScores[m] as number;
          if (ms < ws || (ms === ws && (picked[m] as number) > (picked[worst] as number))) worst = m;
        }
        const ws = pickedScores[worst] as number;
        if (s > ws || (s === ws && c < (picked[worst] as number))) {
          picked[worst] = c;
          pickedScores[worst] = s;
        }
      } else {
        picked.push(c);
        pickedScores.push(s);
      }
    }
    return picked;
  }

  /**
   * The best of `candidates` for unit u: [cluster, similarity], or [-1, -Infinity]. Its own
   * cluster, if among them, is scored with u left out.
   */
  best(u: number, candidates: readonly number[]): [number, number] {
    let bestCluster = -1;
    let bestSim = Number.NEGATIVE_INFINITY;
    const own = this.clusterOf[u] as number;
    for (const c of candidates) {
      if (c !== own && this.fillsOtherSlot(u, c)) continue;
      const sim = this.unitSimilarity(u, c, c === own);
      if (Number.isNaN(sim)) continue;
      if (sim > bestSim || (sim === bestSim && c < bestCluster)) {
        bestSim = sim;
        bestCluster = c;
      }
    }
    return [bestCluster, bestSim];
  }

  /** Combined similarity of two units. */
  unitPairSimilarity(a: number, b: number): number {
    const ta = this.units.termIds[a] as Int32Array;
    const wa = this.units.weights[a] as Float64Array;
    const tb = this.units.termIds[b] as Int32Array;
    const wb = this.units.weights[b] as Float64Array;
    let lexical = 0;
    for (let i = 0; i < ta.length; i += 1) {
      const t = ta[i] as number;
      for (let j = 0; j < tb.length; j += 1) if (tb[j] === t) lexical += (wa[i] as number) * (wb[j] as number);
    }
    const va = this.units.vectors[a];
    const vb = this.units.vectors[b];
    const semantic =
      va === undefined || vb === undefined
        ? undefined
        : dot(va, vb) / ((this.units.vectorNorms[a] as number) * (this.units.vectorNorms[b] as number));
    const slots = this.unitSlot(a, (t) => tb.includes(t)) && this.unitSlot(b, (t) => ta.includes(t));
    return this.mix(semantic, lexical, slots);
  }

  /**
   * The unit of a group of ≥ 2 items most similar to unit u, among the `candidateLimit` units that
   * share most term weight with it (through `unitPostings`, rare terms as in `candidates`):
   * [unit, similarity], or [-1, -Infinity].
   */
  nearestUnit(u: number, unitPostings: readonly (readonly number[])[]): [number, number] {
    const terms = this.units.termIds[u] as Int32Array;
    const weights = this.units.weights[u] as Float64Array;
    const stamp = (this.stamp += 1);
    const touched: number[] = [];
    const rareOnly = this.hasRareTerm(terms);
    for (let k = 0; k < terms.length; k += 1) {
      const t = terms[k] as number;
      if (rareOnly && (this.units.df[t] as number) > this.maxDf) continue;
      for (const v of unitPostings[t] as readonly number[]) {
        if (this.mark[v] !== stamp) {
          this.mark[v] = stamp;
          this.acc[v] = 0;
          touched.push(v);
        }
        const tv = this.units.termIds[v] as Int32Array;
        const k2 = tv.indexOf(t);
        this.acc[v] =
          (this.acc[v] as number) + (weights[k] as number) * ((this.units.weights[v] as Float64Array)[k2] as number);
      }
    }
    let bestUnit = -1;
    let bestSim = Number.NEGATIVE_INFINITY;
    for (const v of this.top(touched, (v) => this.acc[v] as number)) {
      const sim = this.unitPairSimilarity(u, v);
      if (sim > bestSim || (sim === bestSim && v < bestUnit)) {
        bestSim = sim;
        bestUnit = v;
      }
    }
    return [bestUnit, bestSim];
  }

  /**
   * Other live clusters of ≥ 2 items sharing one of cluster c's core terms (its `candidateLimit`
   * heaviest terms), for the merge pass.
   */
  mergeCandidates(c: number): number[] {
    const cluster = this.clusters[c] as Cluster;
    const core = [...cluster.terms.entries()]
      .sort((p, q) => q[1] - p[1] || p[0] - q[0])
      .slice(0, this.options.candidateLimit)
      .map(([t]) => t);
    const found = new Set<number>();
    for (const t of core) {
      for (const other of this.postings[t] as number[]) {
        const o = this.clusters[other] as Cluster;
        if (other !== c && o.alive && o.size >= 2) found.add(other);
      }
    }
    return [...found].sort((p, q) => p - q);
  }
}

/** Share of a group's observations a term must be in to be part of what the group says (its core). */
const CORE_SHARE = 0.5;
/** Fewest groups a term must be in before its spread can make it context (see `linkWordings`). */
const CONTEXT_GROUPS = 3;
/** Fewest different statements a phrase must be added to for it to be read as context. */
const CONTEXT_STATEMENTS = 2;

/** Whether two words are one edit apart (a letter dropped or added, two neighbours swapped), both ≥ 4 letters. */
function oneEditApart(a: string, b: string): boolean {
  if (a === b || Math.min(a.length, b.length) < TYPO_LENGTH - 1 || Math.abs(a.length - b.length) > 1) return false;
  return a.length >= b.length ? oneEdit(a).includes(b) : oneEdit(b).includes(a);
}

/** The terms each live group of ≥ 2 items holds, with the share of its items holding it. */
function groupShares(g: Grouper): Map<number, Map<number, number>> {
  const shares = new Map<number, Map<number, number>>();
  for (const [c, cluster] of g.clusters.entries()) {
    if (!cluster.alive || cluster.size < 2) continue;
    const share = new Map<number, number>();
    for (const u of cluster.units) {
      const count = (g.units.members[u] as number[]).length;
      for (const t of g.units.termIds[u] as Int32Array) share.set(t, (share.get(t) ?? 0) + count / cluster.size);
    }
    shares.set(c, share);
  }
  return shares;
}

/**
 * Pairs of groups one of which says what the other says plus a phrase the batch adds to several
 * statements (where or when it happened: "… during the payments review"): the phrase's terms are
 * added to `context`. `cores` maps each group to its sorted core terms.
 */
function addedContext(cores: ReadonlyMap<number, number[]>, context: Set<number>): [number, number][] {
  const holding = holdersOf(cores);
  const added = new Map<string, { bases: Set<number>; pairs: [number, number][]; terms: number[] }>();
  for (const [b, base] of cores) {
    if (base.length < 2) continue;
    let rarest = holding.get(base[0] as number) as number[];
    for (const t of base) if ((holding.get(t) as number[]).length < rarest.length) rarest = holding.get(t) as number[];
    for (const a of rarest) {
      const core = cores.get(a) as number[];
      if (a === b || core.length <= base.length || !base.every((t) => core.includes(t))) continue;
      const extra = core.filter((t) => !base.includes(t));
      const key = extra.join(' ');
      let entry = added.get(key);
      if (entry === undefined) added.set(key, (entry = { bases: new Set(), pairs: [], terms: extra }));
      entry.bases.add(b);
      entry.pairs.push([a, b]);
    }
  }
  const pairs: [number, number][] = [];
  for (const entry of added.values()) {
    if (entry.bases.size < CONTEXT_STATEMENTS) continue;
    for (const t of entry.terms) context.add(t);
    pairs.push(...entry.pairs);
  }
  return pairs;
}

/** The terms the units of clusters `a` and `b` state as their slot (a context term counts there). */
function slotTermsOf(g: Grouper, units: Units, a: number, b: number): Set<number> {
  const out = new Set<number>();
  for (const c of [a, b])
    for (const u of (g.clusters[c] as Cluster).units)
      if ((units.slotTerm[u] as number) >= 0) out.add(units.slotTerm[u] as number);
  return out;
}

/**
 * Joins of a grouper's clusters as passes make them: `find` gives the cluster a cluster went into, `join`
 * moves the higher-numbered one's units into the lower one (so the result does not depend on the order).
 */
function clusterJoins(g: Grouper): { find: (c: number) => number; join: (a: number, b: number) => void } {
  const root = Int32Array.from(g.clusters, (_, c) => c);
  const find = (c: number): number => {
    while (root[c] !== c) c = root[c] = root[root[c] as number] as number;
    return c;
  };
  const join = (a: number, b: number): void => {
    const [keep, drop] = a < b ? [a, b] : [b, a];
    const merged = [...(g.clusters[keep] as Cluster).units, ...(g.clusters[drop] as Cluster).units].sort(
      (p, q) => p - q,
    );
    Object.assign(g.clusters[drop] as Cluster, { alive: false, units: [], size: 0 });
    root[drop] = keep;
    g.rebuild(keep, merged);
  };
  return { find, join };
}

/**
 * Pass 5: wordings of one statement joined. Two groups of ≥ 2 items that say the same thing up to
 * where it happened, or up to one misspelt word, become one group. A group's core is its terms
 * (generic ones aside) that at least `CORE_SHARE` of its observations hold. Context is learned
 * from the batch, with no list: a phrase that turns one group's core into another's and is added
 * so to at least `CONTEXT_STATEMENTS` different statements, or a term in at least
 * `CONTEXT_GROUPS` groups and outside the core of at least half of them. Two groups join when
 * one is the other plus such a phrase, when their cores less context are equal, or when those
 * differ by one term each whose words are one edit apart (a typo the spelling pass left: "rebae" /
 * "rebase"); never when they fill a template's slot with different topical terms (`slotsClash`).
 * Order-free: pairs are merged in cluster order.
 */
function linkWordings(g: Grouper, items: readonly GroupingItem[]): void {
  const { units } = g;
  const shares = groupShares(g);
  const generic = genericIn(units.names);
  const groupsWith = new Map<number, number>();
  const outsideCore = new Map<number, number>();
  const fullCores = new Map<number, number[]>();
  for (const [c, share] of shares) {
    const core: number[] = [];
    for (const [t, x] of share) {
      groupsWith.set(t, (groupsWith.get(t) ?? 0) + 1);
      if (x < CORE_SHARE - 1e-12) outsideCore.set(t, (outsideCore.get(t) ?? 0) + 1);
      else if (!generic(t)) core.push(t);
    }
    fullCores.set(
      c,
      core.sort((a, b) => a - b),
    );
  }
  const context = new Set<number>();
  for (const [t, n] of groupsWith) if (n >= CONTEXT_GROUPS && (outsideCore.get(t) ?? 0) * 2 >= n) context.add(t);
  const pairs: [number, number, number[]][] = addedContext(fullCores, context).map(([a, b]) => [a, b, []]);
  const cores = new Map<number, number[]>();
  for (const [c, core] of fullCores) {
    const topical = core.filter((t) => !context.has(t));
    if (topical.length >= 2) cores.set(c, topical);
  }
  // Equal cores, and cores one term apart (bucketed by the core less that term).
  const same = new Map<string, number>();
  const lessOne = new Map<string, [number, number][]>();
  for (const [c, core] of cores) {
    const key = core.join(' ');
    const first = same.get(key);
    if (first === undefined) same.set(key, c);
    else pairs.push([first, c, []]);
    core.forEach((t, k) => {
      const rest = [...core.slice(0, k), ...core.slice(k + 1)].join(' ');
      let bucket = lessOne.get(rest);
      if (bucket === undefined) lessOne.set(rest, (bucket = []));
      bucket.push([c, t]);
    });
  }
  const typoPairs: [number, number, number, number][] = [];
  for (const bucket of lessOne.values())
    for (let i = 0; i < bucket.length; i += 1)
      for (let j = i + 1; j < bucket.length; j += 1) {
        const [a, ta] = bucket[i] as [number, number];
        const [b, tb] = bucket[j] as [number, number];
        if (ta !== tb) typoPairs.push([a, ta, b, tb]);
      }
  if (typoPairs.length > 0) {
    // The words each term of a possible typo was written as, read from the texts of its groups.
    const idOf = new Map<string, number>();
    for (const [, ta, , tb] of typoPairs) idOf.set(units.names[ta] as string, ta).set(units.names[tb] as string, tb);
    const wordsOf = new Map<number, Set<string>>();
    for (const c of new Set(typoPairs.flatMap(([a, , b]) => [a, b])))
      for (const u of (g.clusters[c] as Cluster).units) {
        const text = (items[(units.members[u] as number[])[0] as number] as GroupingItem).text;
        for (const word of contentWords(text.includes('/') ? stripPaths(text) : text)) {
          const t = idOf.get(porterStem(word));
          if (t === undefined) continue;
          let set = wordsOf.get(t);
          if (set === undefined) wordsOf.set(t, (set = new Set()));
          set.add(word);
        }
      }
    for (const [a, ta, b, tb] of typoPairs) {
      const wb = [...(wordsOf.get(tb) ?? [])];
      if ([...(wordsOf.get(ta) ?? [])].some((x) => wb.some((y) => oneEditApart(x, y)))) pairs.push([a, b, [ta, tb]]);
    }
  }
  pairs.sort((p, q) => Math.min(p[0], p[1]) - Math.min(q[0], q[1]) || Math.max(p[0], p[1]) - Math.max(q[0], q[1]));
  const { find, join } = clusterJoins(g);
  for (const [a0, b0, typo] of pairs) {
    const a = find(a0);
    const b = find(b0);
    if (a === b) continue;
    // Context fills no slot, but where a unit of either states its context term as its slot (`contextSlots`).
    const slotTerms = slotTermsOf(g, units, a, b);
    const counts = (t: number) => !generic(t) && (!context.has(t) || slotTerms.has(t)) && !typo.includes(t);
    if (g.slotsClash(a, b, counts)) continue;
    join(a, b);
  }
}

/** Fewest items of a group compared by what its members say (`mergeProfiles`): two say too little to compare. */
const PROFILE_GROUP = 3;
/** Fewest terms two groups' profiles share to be compared: one word in common is as often a coincidence. */
const PROFILE_SHARED = 2;
/** Least cosine of two groups' profiles for them to join (`mergeProfiles`; set on the dev half of the eval). */
const PROFILE_AGREEMENT = 0.75;

/** How far two groups' profiles agree (`mergeProfiles`), and on which terms. */
export interface ProfileAgreement {
  /** Cosine of the profiles over both whole cores, each term weighed by its share times `weight`; at most 1. */
  readonly agreement: number;
  /** The terms both hold that weigh (weight > 0): a term every group holds is no shared word. */
  readonly shared: number;
  /** Whether they agree enough to join: `PROFILE_SHARED` shared terms and `PROFILE_AGREEMENT`. */
  readonly joins: boolean;
}

/**
 * The agreement of two profiles (term → share of the group's items), each term weighed by `weight` (ln(groups /
 * groups holding it)): the norms run over each whole core, so what one group says alone counts against the join.
 */
export function profileAgreement<K>(
  x: ReadonlyMap<K, number>,
  y: ReadonlyMap<K, number>,
  weight: (term: K) => number,
): ProfileAgreement {
  const norm = (core: ReadonlyMap<K, number>) => {
    let n2 = 0;
    for (const [t, share] of core) n2 += (share * weight(t)) ** 2;
    return Math.sqrt(n2);
  };
  const nx = norm(x);
  const ny = norm(y);
  let d = 0;
  let shared = 0;
  for (const [t, share] of x) {
    const other = y.get(t);
    const w = weight(t);
    if (other === undefined || w <= 0) continue;
    d += share * other * w ** 2;
    shared += 1;
  }
  const agreement = shared < PROFILE_SHARED || nx === 0 || ny === 0 ? 0 : Math.min(1, d / (nx * ny));
  return { agreement, shared, joins: agreement >= PROFILE_AGREEMENT };
}

/**
 * Pass 6: groups joined by what their members say as groups. A group's profile is its core terms (held by at least
 * `CORE_SHARE` of its items; generic and context terms aside), each weighed by its share of the items times
 * ln(groups / groups holding it). A term of one group only weighs most (ln(groups)): what one group says and the
 * other does not counts against their join ("Start the database with docker compose" / "Never prune docker volumes,
 * the database lives there"); a term many groups hold weighs little (commit, tests), one every group holds nothing
 * and is no shared term. Two groups of at least `PROFILE_GROUP` items sharing `PROFILE_SHARED` terms of weight whose
 * profiles agree at `PROFILE_AGREEMENT` join, best pair first, unless they fill a template's slot with different
 * topical terms (`slotsClash`: the module, the tool). The pairs are scored once, on the groups as pass 5 left them,
 * and found through the terms fewer than half the profiled groups hold (near-linear). Returns each join with the
 * terms both profiles weigh and their agreement (`ProfileJoin`); `idOf` names a unit by an observation.
 */
function mergeProfiles(g: Grouper, idOf: (unit: number) => string): ProfileJoin[] {
  const { units } = g;
  const generic = genericIn(units.names);
  /** A cluster's core terms and their shares. */
  const coreOf = (c: number) => {
    const cluster = g.clusters[c] as Cluster;
    const share = new Map<number, number>();
    for (const u of cluster.units) {
      const count = (units.members[u] as number[]).length;
      for (const t of units.termIds[u] as Int32Array)
        if (!generic(t) && !units.context.has(t)) share.set(t, (share.get(t) ?? 0) + count / cluster.size);
    }
    const core = new Map<number, number>();
    for (const [t, x] of share) if (x >= CORE_SHARE - 1e-12) core.set(t, x);
    return core;
  };
  const cores = new Map<number, Map<number, number>>();
  for (const [c, cluster] of g.clusters.entries())
    if (cluster.alive && cluster.size >= PROFILE_GROUP) cores.set(c, coreOf(c));
  const holding = holdersOf([...cores].map(([c, core]) => [c, core.keys()] as const));
  // Weights are read once, on the groups (and lone observations) as pass 5 left them.
  const spread = new Map<number, number>();
  let groupCount = 0;
  for (const cluster of g.clusters) {
    if (!cluster.alive) continue;
    groupCount += 1;
    const terms = new Set<number>();
    for (const u of cluster.units) for (const t of units.termIds[u] as Int32Array) terms.add(t);
    for (const t of terms) spread.set(t, (spread.get(t) ?? 0) + 1);
  }
  // Every core term weighs, one group's own too (ln(groups)): what one group says alone counts against a join.
  const weights = new Map<number, number>();
  for (const t of holding.keys()) weights.set(t, Math.log(groupCount / (spread.get(t) as number)));
  const weight = (t: number) => weights.get(t) ?? 0;
  // Pairs come from the words fewer than half the profiled groups hold: a pair needs two distinctive shared words,
  // and a word most groups hold would pair nearly all of them (quadratic).
  const distinctive = (t: number) => (weights.get(t) ?? 0) > 0 && (holding.get(t) as number[]).length * 2 < cores.size;
  const pairs: [number, number, number][] = [];
  for (const [a, core] of cores) {
    const seen = new Set<number>();
    for (const t of core.keys()) {
      if (!distinctive(t)) continue;
      for (const b of holding.get(t) as number[]) {
        if (b <= a || seen.has(b)) continue;
        seen.add(b);
        const { agreement, joins } = profileAgreement(core, cores.get(b) as Map<number, number>, weight);
        if (joins) pairs.push([agreement, a, b]);
      }
    }
  }
  if (pairs.length === 0) return [];
  pairs.sort((p, q) => q[0] - p[0] || p[1] - q[1] || p[2] - q[2]);
  const { find, join } = clusterJoins(g);
  const joins: ProfileJoin[] = [];
  for (const [, a0, b0] of pairs) {
    const a = find(a0);
    const b = find(b0);
    if (a === b) continue;
    // As in pass 5: context fills no slot, but where a unit of either states its context term as its slot.
    const slotTerms = slotTermsOf(g, units, a, b);
    const counts = (t: number) => !generic(t) && (!units.context.has(t) || slotTerms.has(t));
    if (g.slotsClash(a, b, counts)) continue;
    // A group grown by an earlier join is read again: what it says now must still agree.
    const x = a === a0 ? (cores.get(a) as Map<number, number>) : coreOf(a);
    const y = b === b0 ? (cores.get(b) as Map<number, number>) : coreOf(b);
    const { agreement, joins: agree } = profileAgreement(x, y, weight);
    if (!agree) continue;
    const terms = [...x.keys()]
      .filter((t) => y.has(t) && (weights.get(t) ?? 0) > 0)
      .map((t) => units.names[t] as string);
    const first = (c: number) => idOf(Math.min(...(g.clusters[c] as Cluster).units));
    joins.push({ ids: [first(a), first(b)], terms: terms.sort(), agreement });
    join(a, b);
  }
  return joins;
}

/**
 * Groups observations that mean the same thing (see the module header for the algorithm and its
 * thresholds). Pure and deterministic: the same set of observations gives the same groups whatever
 * their order.
 * @throws CredenceError INVALID_INPUT for an empty or repeated id, a missing text, a non-finite
 * timestamp, vectors of different dimensions, or an option out of range.
 */
export function groupObservations(items: readonly GroupingItem[], options?: GroupingOptions): Grouping {
  const resolved = resolveOptions(options);
  const dimension = validate(items);
  if (items.length === 0) return { groups: [], singletons: [], profileJoins: [], details: [], context: [] };
  const order = canonicalOrder(items);
  const rank = new Int32Array(items.length);
  order.forEach((i, r) => (rank[i] = r));
  const units = buildUnits(items, order, dimension, resolved);
  const unitCount = units.members.length;
  const g = new Grouper(units, dimension, resolved, units.members.length);

  // Pass 1: online assignment, units in the order of their first item.
  for (let u = 0; u < unitCount; u += 1) {
    const [c, sim] = g.best(u, g.candidates(u));
    g.add(c >= 0 && sim >= resolved.joinThreshold ? c : g.newCluster(), u);
  }

  // Pass 2: merge clusters of ≥ 2 items, best pair first, re-scored when their turn comes.
  const pairs: [number, number, number][] = [];
  for (const [a, cluster] of g.clusters.entries()) {
    if (cluster.size < 2) continue;
    for (const b of g.mergeCandidates(a)) {
      if (b <= a || g.slotsClash(a, b)) continue;
      const sim = g.clusterSimilarity(a, b);
      if (sim >= resolved.mergeThreshold) pairs.push([sim, a, b]);
    }
  }
  pairs.sort((p, q) => q[0] - p[0] || p[1] - q[1] || p[2] - q[2]);
  const { find, join } = clusterJoins(g);
  for (const [, a0, b0] of pairs) {
    const a = find(a0);
    const b = find(b0);
    if (a === b || g.slotsClash(a, b) || g.clusterSimilarity(a, b) < resolved.mergeThreshold) continue;
    join(a, b);
  }

  // Pass 3: one reassignment step against frozen centroids (each unit scored against its own group
  // without itself); a unit that reaches no group at the join threshold stands alone.
  const target = new Int32Array(unitCount);
  for (let u = 0; u < unitCount; u += 1) {
    const own = g.clusterOf[u] as number;
    const candidates = g.candidates(u);
    if (!candidates.includes(own)) candidates.push(own);
    const [c, sim] = g.best(u, candidates);
    target[u] = c >= 0 && sim >= resolved.joinThreshold ? c : -1 - u;
  }
  const next = new Map<number, number[]>();
  for (let u = 0; u < unitCount; u += 1) {
    const c = target[u] as number;
    let list = next.get(c);
    if (list === undefined) next.set(c, (list = []));
    list.push(u);
  }
  for (const [c, cluster] of g.clusters.entries()) {
    if (!cluster.alive) continue;
    const list = next.get(c);
    if (list === undefined) {
      Object.assign(cluster, { alive: false, units: [], size: 0 });
      continue;
    }
    // Units that moved in from two groups may fill a slot differently: the later one stands alone.
    g.rebuild(c, []);
    for (const u of list) {
      if (g.fillsOtherSlot(u, c)) target[u] = -1 - u;
      else g.add(c, u);
    }
  }
  for (let u = 0; u < unitCount; u += 1) if ((target[u] as number) < 0) g.add(g.newCluster(), u);

  // Pass 4: a lone observation joins the group of its most similar member unit, if that unit is in
  // a group of ≥ 2 items and the pair is similar enough (single link, with a higher bar than the
  // centroid join: a paraphrase close to one wording of a group but not to its average).
  const unitPostings: number[][] = Array.from({ length: units.df.length }, () => []);
  for (let u = 0; u < unitCount; u += 1) {
    if ((g.clusters[g.clusterOf[u] as number] as Cluster).size < 2) continue;
    for (const t of units.termIds[u] as Int32Array) (unitPostings[t] as number[]).push(u);
  }
  const attach: [number, number][] = [];
  for (let u = 0; u < unitCount; u += 1) {
    if ((g.clusters[g.clusterOf[u] as number] as Cluster).size !== 1) continue;
    const [v, sim] = g.nearestUnit(u, unitPostings);
    if (v >= 0 && sim >= resolved.linkThreshold && !g.fillsOtherSlot(u, g.clusterOf[v] as number))
      attach.push([u, g.clusterOf[v] as number]);
  }
  for (const [u, c] of attach) {
    // Two lone observations attached to one group may fill its slot differently: the first stays.
    if (g.fillsOtherSlot(u, c)) continue;
    const alone = g.clusterOf[u] as number;
    Object.assign(g.clusters[alone] as Cluster, { alive: false, units: [], size: 0 });
    g.add(c, u);
  }

  linkWordings(g, items);
  /** A unit named by its first observation. */
  const firstId = (u: number) => (items[(units.members[u] as number[])[0] as number] as GroupingItem).id;
  const profileJoins = mergeProfiles(g, firstId);

  // Output.
  const groups: ObservationGroup[] = [];
  const singletons: number[] = [];
  const itemsOf = (list: readonly number[]) =>
    list.flatMap((u) => units.members[u] as number[]).sort((p, q) => (rank[p] as number) - (rank[q] as number));
  for (const [c, cluster] of g.clusters.entries()) {
    if (!cluster.alive) continue;
    const members = itemsOf(cluster.units);
    if (members.length < resolved.minGroupSize) {
      singletons.push(...members);
      continue;
    }
    let representative = cluster.units[0] as number;
    let bestSim = Number.NEGATIVE_INFINITY;
    for (const u of cluster.units) {
      const sim = g.unitSimilarity(u, c);
      if (sim > bestSim + 1e-12) {
        bestSim = sim;
        representative = u;
      }
    }
    const item = items[(units.members[representative] as number[])[0] as number] as GroupingItem;
    const text = item.text.trim();
    groups.push({
      ids: members.map((i) => (items[i] as GroupingItem).id),
      representative: item.id,
      label: text.length <= resolved.labelLength ? text : `${text.slice(0, resolved.labelLength - 1).trimEnd()}…`,
    });
  }
  groups.sort(
    (a, b) =>
      b.ids.length - a.ids.length ||
      (a.representative < b.representative ? -1 : a.representative > b.representative ? 1 : 0),
  );
  singletons.sort((a, b) => (rank[a] as number) - (rank[b] as number));
  return {
    groups,
    singletons: singletons.map((i) => (items[i] as GroupingItem).id),
    profileJoins,
    details: units.passing.flatMap((terms, u) => {
      if (terms.length === 0) return [];
      const renamed = renamedIdentifier((items[(units.members[u] as number[])[0] as number] as GroupingItem).text);
      const detail = { id: firstId(u), terms: terms.map((t) => units.names[t] as string) };
      return [renamed === undefined ? detail : { ...detail, renamedTo: renamed.cases }];
    }),
    context: [...units.context].map((t) => units.names[t] as string).sort(),
  };
}
