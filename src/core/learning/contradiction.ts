/**
 * @module core/learning/contradiction
 * Contradictions of patterns (seed 004, "no recent contradiction"; SPEC §6: an observation asserting the
 * opposite preference, or a correction against an established pattern). Pure: no clock.
 * Each text's assertion (`assertionOf`): sign-free terms split into a preferred and a rejected part by clause
 * (— – ; : , break clauses; "X, not Y", "X over Y", "instead of" reject Y), a polarity, and per
 * `OPPOSITE_CONVENTIONS` family the alternatives it favours or rejects. x contradicts group g when g's near
 * members that disagree with x (opposite convention; else one prefers what the other rejects; errors by
 * polarity) outweigh the near members agreeing with x and hold ≥ `minSupport` observations. By (timestamp, id).
 */

import { CredenceError } from '../errors.js';
import { batchIdf } from '../text/term-weights.js';
import { OBSERVATION_TYPES, type ObservationType } from '../types.js';
import {
  aliasesOf,
  canonicalOrder,
  GENERIC_TERMS,
  GROUPING_DEFAULTS,
  patternText,
  stemWord,
} from './pattern-grouping.js';
import { STOP_WORDS, splitWords } from '../text/words.js';
import { NEGATIONS } from './negation-cues.js';

/** A family of conventions that exclude one another; alternatives are lists of words. */
export interface ConventionFamily {
  readonly name: string;
  readonly alternatives: Readonly<Record<string, readonly string[]>>;
  /** If given, the family counts only in a text holding one of these words. */
  readonly context?: readonly string[];
}

const CONVENTIONS: ConventionFamily[] = [
  {
    name: 'naming case',
    alternatives: { camelCase: ['camel'], snake_case: ['snake'], 'kebab-case': ['kebab'], PascalCase: ['pascal'] },
  },
  { name: 'indentation', alternatives: { tabs: ['tab', 'tabs'], spaces: ['space', 'spaces'] } },
  {
    name: 'quotes',
    alternatives: { 'single quotes': ['single'], 'double quotes': ['double'] },
    context: ['quote', 'quotes', 'quoted'],
  },
  {
    name: 'exports',
    alternatives: { 'named exports': ['named'], 'default exports': ['default'] },
    context: ['export', 'exports', 'exported'],
  },
  {
    name: 'git integration',
    alternatives: { merge: ['merge', 'merging', 'merged', 'merges'], rebase: ['rebase', 'rebasing', 'rebased'] },
  },
  { name: 'package manager', alternatives: { npm: ['npm'], yarn: ['yarn'], pnpm: ['pnpm'], bun: ['bun'] } },
  { name: 'test runner', alternatives: { jest: ['jest'], vitest: ['vitest'], mocha: ['mocha'], jasmine: ['jasmine'] } },
  {
    name: 'time zone',
    alternatives: { UTC: ['utc', 'gmt'], 'local time': ['local'] },
    context: ['utc', 'gmt', 'time', 'timezone', 'timestamp', 'timestamps', 'date', 'dates'],
  },
  {
    name: 'async style',
    alternatives: { 'async/await': ['async', 'await'], callbacks: ['callback', 'callbacks', 'promise', 'promises'] },
  },
  { name: 'language', alternatives: { TypeScript: ['typescript'], JavaScript: ['javascript'] } },
];

/** Opposite conventions of everyday software work (alternatives as words; stemmed on use). */
export const OPPOSITE_CONVENTIONS: readonly ConventionFamily[] = Object.freeze(
  CONVENTIONS.map((family) => Object.freeze({ ...family, alternatives: Object.freeze({ ...family.alternatives }) })),
);

export const CONTRADICTION_DEFAULTS = Object.freeze({
  /** Least sign-free term cosine for a member to count as saying the same thing as x. */
  nearThreshold: 0.35,
  /** Least share of a rejected part's weight that the other text must prefer for the two to disagree. */
  covered: 0.7,
  /** Fewest observations behind the disagreeing members: the pattern opposed must be established. */
  minSupport: 2,
  /** Terms in the members of more than this share of the groups are context, not content. */
  maxGroupShare: 0.25,
  /** Weight of a generic term (as in pattern grouping). */
  genericWeight: GROUPING_DEFAULTS.genericWeight,
  /** IDF is computed as if the batch held at least this many observations. */
  idfMinBatch: GROUPING_DEFAULTS.idfMinBatch,
});

export interface ContradictionOptions {
  /** @default 0.35 */
  readonly nearThreshold?: number;
  /** @default 0.8 */
  readonly covered?: number;
  /** @default 2 */
  readonly minSupport?: number;
  /** @default 0.25 */
  readonly maxGroupShare?: number;
  /** @default 0.25 */
  readonly genericWeight?: number;
  /** @default 100 */
  readonly idfMinBatch?: number;
  /** @default OPPOSITE_CONVENTIONS */
  readonly conventions?: readonly ConventionFamily[];
}

export interface ContradictionItem {
  readonly id: string;
  readonly text: string;
  readonly type: ObservationType;
  /** Milliseconds since the epoch. */
  readonly timestamp: number;
}

export type ContradictionKind = 'negation' | 'opposite-convention' | 'correction';

export interface Contradiction {
  readonly id: string;
  readonly timestamp: number;
  readonly kind: ContradictionKind;
  /** In plain words, naming the member it opposes. */
  readonly reason: string;
  /** Id of the closest member that says the opposite. */
  readonly opposes: string;
}

export interface GroupContradictions {
  /** Index of the group in the input. */
  readonly group: number;
  /** Contradicting observations, by timestamp then id. */
  readonly contradictions: Contradiction[];
}

/** The assertion of one text (see the module header), before the `error` swap. */
export interface Assertion {
  /** Sign-free terms: family words replaced by `~family`, negation words left out. */
  readonly terms: readonly string[];
  /** −1 when a negation covers topical words, else 1. */
  readonly polarity: 1 | -1;
  /** Whether the text holds a negation or selector cue at all. */
  readonly negated: boolean;
  /** Family name → alternatives the text favours. */
  readonly favoured: ReadonlyMap<string, ReadonlySet<string>>;
  /** Family name → alternatives the text rejects. */
  readonly rejected: ReadonlyMap<string, ReadonlySet<string>>;
  /** The negation cue that set a negative polarity ("don't", "never", …), for reasons. */
  readonly cue: string | undefined;
  /** Sign-free terms of the words the text prefers (outside any negation or selector). */
  readonly preferredTerms: readonly string[];
  /** Sign-free terms of the words the text rejects (under a negation, selector or replacement). */
  readonly rejectedTerms: readonly string[];
  /**
   * The order of two steps the text states, negation resolved (`orderOf`): "run the tests before you commit" and
   * "never commit before the tests pass" both put the tests earlier and the commit later. Undefined when none.
   */
  readonly order: StepOrder | undefined;
}

/** Two steps in order: the sign-free terms of the earlier one and of the later one. */
export interface StepOrder {
  readonly earlier: readonly string[];
  readonly later: readonly string[];
}

/** After one of these in a clause, "over" selects: "prefers await over callbacks" rejects callbacks. */
const PREFERRING = new Set([
  'use',
  'uses',
  'using',
  'want',
  'wants',
  'like',
  'likes',
  'prefer',
  'prefers',
  'preferred',
  'preferring',
  'favour',
  'favours',
  'favor',
  'favors',
  'choose',
  'chooses',
  'chose',
  'pick',
  'picks',
]);
/** Selector cues: they reject what they cover without negating the sentence. */
const SELECTORS: readonly (readonly string[])[] = [['instead', 'of'], ['rather', 'than'], ['from']];
/**
 * Verbs of replacement: what follows them is rejected up to the word that names the replacement
 * ("replaced the default export with a named one", "migrated the jest specs to vitest").
 */
const REPLACING = new Set(
  (
    'replace replaced replaces replacing switch switched switching migrate migrated migrating ' +
    'convert converted converting rewrite rewrote rewritten change changed rename renamed move moved ' +
    'remove removed removes drop dropped'
  ).split(' '),
);
/** Words that end a replacement's or a "from"'s scope and start the favoured part. */
const REPLACEMENT_TARGETS = new Set(['with', 'to', 'into', 'in', 'as', 'by', 'for']);
const CUE_WORDS = new Set([...NEGATIONS, ...SELECTORS].flat());
/** Words that end a negation's scope before the clause does ("don't X while working on Y"). */
const SCOPE_ENDS = new Set([
  'while',
  'during',
  'when',
  'whenever',
  'because',
  'since',
  'although',
  'though',
  'unless',
  'until',
  'whereas',
  'so',
  'if',
  'as',
  'then',
]);
/** "no" negates a noun phrase: its scope is at most this many words. */
const NO_SCOPE = 3;
const CUE_STEMS = new Set([...CUE_WORDS].map(stemWord));

const ARROW = /→|->|=>/;
/**
 * Clause ends: punctuation followed by a space or the end, a semicolon, a dash (em, en, or a hyphen between
 * spaces), or "but".
 */
const CLAUSE = /[.,;:!?](?=\s|$)|;|[—–]|\s-\s|\bbut\b|\(|\)/i;

interface FamilyIndex {
  /** stem → [family name, alternative] */
  readonly members: Map<string, [string, string]>;
  /** family name → context stems (absent: always on) */
  readonly context: Map<string, Set<string>>;
  /** Every context stem of every family. */
  readonly contextStems: Set<string>;
}

function indexFamilies(families: readonly ConventionFamily[]): FamilyIndex {
  const members = new Map<string, [string, string]>();
  const context = new Map<string, Set<string>>();
  for (const family of families) {
    for (const [alternative, words] of Object.entries(family.alternatives)) {
      for (const word of words) for (const w of splitWords(word)) members.set(stemWord(w), [family.name, alternative]);
    }
    if (family.context !== undefined)
      context.set(family.name, new Set(family.context.flatMap((w) => splitWords(w).map(stemWord))));
  }
  return { members, context, contextStems: new Set([...context.values()].flatMap((set) => [...set])) };
}

/**
 * The assertion of a text under a list of conventions, kept per list for the texts read lately (an evolve reads its
 * observations once to find contradictions and again to route those of a split: `Assertion` is read-only).
 */
function analysisOf(conventions: readonly ConventionFamily[]): (text: string) => Assertion {
  let kept = analyses.get(conventions);
  if (kept === undefined)
    analyses.set(conventions, (kept = { families: indexFamilies(conventions), byText: new Map() }));
  const { families, byText } = kept;
  return (text) => {
    let found = byText.get(text);
    if (found === undefined) {
      if (byText.size >= ANALYSES_KEPT) byText.clear();
      byText.set(text, (found = analyse(text, families)));
    }
    return found;
  };
}

const analyses = new WeakMap<readonly ConventionFamily[], { families: FamilyIndex; byText: Map<string, Assertion> }>();
const ANALYSES_KEPT = 50_000;

/** Cues by their first word, longest first. */
function byFirstWord(cues: readonly (readonly string[])[]): Map<string, (readonly string[])[]> {
  const map = new Map<string, (readonly string[])[]>();
  for (const cue of [...cues].sort((a, b) => b.length - a.length)) {
    const first = cue[0] as string;
    const list = map.get(first);
    if (list === undefined) map.set(first, [cue]);
    else list.push(cue);
  }
  return map;
}
const NEGATIONS_BY_FIRST = byFirstWord(NEGATIONS);
const SELECTORS_BY_FIRST = byFirstWord(SELECTORS);

function matchAt(
  words: readonly string[],
  k: number,
  cues: ReadonlyMap<string, (readonly string[])[]>,
): readonly string[] | undefined {
  return cues.get(words[k] as string)?.find((cue) => cue.every((w, j) => words[k + j] === w));
}

/** Cues that end a habit: what follows them is what was used ("stop using rg", "quit rg", "no more rg"). */
const ENDING_CUES = new Set(['stop', 'stops', 'stopped', 'stopping', 'quit', 'quits', 'quitting']);
/** Words that set a step at a moment or a manner: after "quit X" or "stop X", the stopping is the step. */
const MOMENT_WORDS = new Set(['before', 'after', 'when', 'whenever', 'while', 'once', 'until', 'with']);
/** Words that end the thing stopped before a moment word could set it ("quit rg and use git grep when …"). */
const THING_ENDS = new Set(['and', 'or', 'but', 'then', 'use', 'only', 'for', 'instead']);
/** Words that, after the thing stopped, join the next step of a task: "stop the dev server then run …". */
const STEP_JOINERS = new Set(['then', 'and']);
/**
 * Verbs of another action of a task, not of taking up a replacement: after "then"/"and" (or a clause opened by them)
 * they make the stopping a step ("stop the dev server and wait until …", "quit vim, then reopen the file"), while
 * "then git grep", "and use git grep", "and switch to …" name what replaces the thing (review F, item 3). `re`: the
 * first word of "re-run", "re-open".
 */
const STEP_VERBS = new Set(
  (
    'run rerun wait restart reopen start open check build rebuild deploy redeploy commit push pull apply reload ' +
    'refresh install reinstall update upgrade clear clean delete test retest verify resume continue save close kill ' +
    'launch seed execute compile recompile merge rebase fix edit reset watch wipe sleep pause reboot re'
  ).split(' '),
);
/** Words for a short while after "for a": "quit the dev server for a moment while …" stops it for that long only. */
const SHORT_WHILES = new Set(['moment', 'minute', 'minutes', 'second', 'seconds', 'sec', 'bit', 'while', 'few']);

/**
 * Whether words say that what they name replaces the thing stopped for good: "instead", "from now on", "for good",
 * "going forward" ("quit vitest and run jest instead", "stop npm and install with pnpm from now on": review G, item 5).
 */
function replacesForGood(words: readonly string[]): boolean {
  return words.some(
    (w, k) =>
      w === 'instead' ||
      (w === 'from' && words[k + 1] === 'now' && words[k + 2] === 'on') ||
      (w === 'for' && words[k + 1] === 'good') ||
      (w === 'going' && words[k + 1] === 'forward'),
  );
}

/** Whether words from `at` on open the next step of a task: "then run …", "and wait …", "and then restart …". */
function opensAStep(words: readonly string[], at: number): boolean {
  if (!STEP_JOINERS.has(words[at] as string)) return false;
  const verb = words[at] === 'and' && words[at + 1] === 'then' ? at + 2 : at + 1;
  return STEP_VERBS.has(words[verb] as string);
}

/**
 * Whether the thing stopped, from word `from` on, is stopped as a step of a task: set at a moment or a manner ("the
 * dev server before running migrations", "vim with :wq"), for a short while ("for a moment"), or followed by the next
 * step ("then run the migrations", "and wait until …"; `stepFollows`: the next clause opens one, "quit vim, then
 * reopen the file"). Not when something ends the thing first ("and use git grep", "then git grep", "only", "for
 * good"), nor in an idiom of ending ("once and for all", "until further notice": review E), nor when the clause
 * replaces it for good ("and run jest instead", "from now on": {@link replacesForGood}).
 */
function stoppedAsAStep(words: readonly string[], from: number, stepFollows: () => boolean): boolean {
  if (replacesForGood(words)) return false;
  for (let j = from; j < words.length; j += 1) {
    const w = words[j] as string;
    if (opensAStep(words, j)) return true;
    if (w === 'for' && (words[j + 1] === 'a' || words[j + 1] === 'an') && SHORT_WHILES.has(words[j + 2] as string))
      return true;
    if (THING_ENDS.has(w)) return false;
    if (!MOMENT_WORDS.has(w)) continue;
    if (w === 'once' && words[j + 1] === 'and') return false;
    if (w === 'until' && words[j + 1] === 'further') return false;
    return true;
  }
  return stepFollows();
}

/**
 * A gerund of five letters as its verb ("using" → "use", "doing" → "do"): `stemWord` leaves them whole, so that
 * "stop using rg" would not name the verb of "use rg". Longer gerunds are stemmed as they are; else undefined.
 */
function shortGerundBase(word: string): string | undefined {
  if (word.length !== 5 || !word.endsWith('ing') || !/[aeiouy]/.test(word.slice(0, 2))) return undefined;
  const base = word.slice(0, 2);
  return /[aeiouy]$/.test(base) ? base : `${base}e`;
}

/**
 * A clause's words with what its first negation turns down made explicit: a short gerund after it reads as its verb
 * ("stop using rg", "avoid using rg" as "… use rg"), and after a cue that ends a habit ("stop", "quit", "no more",
 * any negation in a clause saying "anymore") a noun reads as its use ("quit rg", "no rg anymore" as "… use rg"), so
 * that each rejects what "use rg" prefers, as "don't use rg" does.
 */
function readEndings(words: string[], stepFollows: () => boolean = () => false): string[] {
  const anymore = words.includes('anymore') || words.some((w, k) => w === 'any' && words[k + 1] === 'more');
  let out: string[] | undefined;
  for (let k = 0; k < words.length; k += 1) {
    const cue = matchAt(words, k, NEGATIONS_BY_FIRST);
    if (cue === undefined) continue;
    let next = k + cue.length;
    // "no more X" ends a habit as "quit X" does; "no more than three" is a bound.
    const noMore = cue.length === 1 && cue[0] === 'no' && words[next] === 'more' && words[next + 1] !== 'than';
    if (noMore) next += 1;
    while (NEGATION_FILLERS.has(words[next] as string)) next += 1;
    const word = words[next];
    if (word === undefined || word === 'use' || matchAt(words, next, NEGATIONS_BY_FIRST) !== undefined) break;
    const ends = noMore || anymore || ENDING_CUES.has(cue.join(' '));
    // Stopping or quitting a thing at a moment ("quit the dev server before running migrations", "quit vim with
    // :wq") or before the next step ("stop the dev server then run the migrations") is a step, not a habit ended: the
    // cue is no negation there (review D, item 9; review F, item 3). A gerund after it still ends one ("stop adding
    // comments when …"), as does a clause saying "anymore".
    if (
      ENDING_CUES.has(cue.join(' ')) &&
      !anymore &&
      !word.endsWith('ing') &&
      stoppedAsAStep(words, next + 1, stepFollows)
    )
      return [...words.slice(0, k), ...words.slice(k + cue.length)];
    const base = shortGerundBase(word);
    if (base !== undefined) (out = [...words])[next] = base;
    else if (ends && (stemWord(word) === word || !word.endsWith('ing'))) (out = [...words]).splice(next, 0, 'use');
    if (noMore) (out ??= [...words]).splice(k + 1, 1);
    // "quit vitest and run jest instead": the replacement is taken up, not turned down with the thing stopped.
    if (ENDING_CUES.has(cue.join(' ')) && replacesForGood(words)) {
      const read = (out ??= [...words]);
      const joiner = read.findIndex((w, j) => j > k && w === 'and' && opensAStep(read, j));
      if (joiner >= 0) read[joiner] = 'then';
    }
    break;
  }
  return out ?? words;
}

/** Whether a word is all digits. */
function isNumber(word: string): boolean {
  for (let i = 0; i < word.length; i += 1) {
    const c = word.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return word.length > 0;
}

/** The assertion of `text` (see the module header); `families` as `indexFamilies` makes them. */
function analyse(text: string, families: FamilyIndex): Assertion {
  // Words and stems once, per clause of each arrow segment (file paths removed, as for grouping).
  const segments = patternText(text)
    .split(ARROW)
    .map((segment) =>
      segment.split(CLAUSE).map((clause, c, all) => {
        const after = all[c + 1];
        const stepFollows = (): boolean => {
          const next = after === undefined ? undefined : splitWords(after);
          return next !== undefined && opensAStep(next, 0) && !replacesForGood(next);
        };
        const words = readEndings(splitWords(clause), stepFollows);
        return { words, stems: words.map(stemWord) };
      }),
    );
  const allStems = new Set(segments.flatMap((clauses) => clauses.flatMap((c) => c.stems)));
  const activeFamilies = new Map<string, boolean>();
  const active = (family: string): boolean => {
    let on = activeFamilies.get(family);
    if (on === undefined) {
      const ctx = families.context.get(family);
      on = ctx === undefined || [...ctx].some((stem) => allStems.has(stem));
      activeFamilies.set(family, on);
    }
    return on;
  };
  const favoured = new Map<string, Set<string>>();
  const rejected = new Map<string, Set<string>>();
  const put = (map: Map<string, Set<string>>, family: string, alternative: string) => {
    let set = map.get(family);
    if (set === undefined) map.set(family, (set = new Set()));
    set.add(alternative);
  };
  const preferredTerms = new Set<string>();
  const rejectedTerms = new Set<string>();
  const termsByWord = new Map<string, string[]>();
  const wordTerms = (word: string, stem: string): string[] => {
    let list = termsByWord.get(word);
    if (list === undefined) termsByWord.set(word, (list = termsOfWord(word, stem, families, active)));
    return list;
  };
  let polarity: 1 | -1 = 1;
  let cueText: string | undefined;
  let negated = false;
  segments.forEach((clauses, s) => {
    // A negation after a clause that prefers something only names the alternative it rejects ("use X, not Y").
    let preferredBefore = false;
    clauses.forEach(({ words, stems }, c) => {
      // The last clause before an arrow is rejected as a whole ("snake_case → camelCase").
      const beforeArrow = s < segments.length - 1 && c === clauses.length - 1;
      let scope: 'none' | 'negation' | 'selector' | 'replacing' = beforeArrow ? 'selector' : 'none';
      let scopeLeft = Number.POSITIVE_INFINITY;
      let cue: string | undefined;
      let topicalInNegation = false;
      let preferring = false;
      let negations = 0;
      const hits: [string, string, 'none' | 'negation' | 'rejecting'][] = [];
      const roles: [number, 'none' | 'negation' | 'rejecting'][] = [];
      for (let k = 0; k < words.length; k += 1) {
        const word = words[k] as string;
        if (scope !== 'none' && !beforeArrow && (SCOPE_ENDS.has(word) || scopeLeft <= 0)) {
          scope = 'none';
          scopeLeft = Number.POSITIVE_INFINITY;
        }
        if (scope === 'replacing' && REPLACEMENT_TARGETS.has(word)) {
          scope = 'none';
          continue;
        }
        if (scope === 'none' && REPLACING.has(word)) {
          scope = 'replacing';
          continue;
        }
        if (PREFERRING.has(word)) preferring = true;
        const selector = preferring && word === 'over' ? ['over'] : matchAt(words, k, SELECTORS_BY_FIRST);
        const negation = selector === undefined ? matchAt(words, k, NEGATIONS_BY_FIRST) : undefined;
        if (selector !== undefined || negation !== undefined) {
          const matched = (selector ?? negation) as readonly string[];
          if (negation !== undefined) negations += 1;
          if (matched[0] === 'from') scope = 'replacing';
          else if (scope !== 'negation')
            scope = selector !== undefined ? (scope === 'none' ? 'selector' : scope) : 'negation';
          if (!(negation !== undefined && scope === 'negation' && negations > 1)) {
            scopeLeft = matched.length === 1 && matched[0] === 'no' ? NO_SCOPE : Number.POSITIVE_INFINITY;
          }
          if (matched[0] !== 'from') {
            cue ??= matched.length === 2 && matched[1] === 't' ? `${matched[0]}'t` : matched.join(' ');
            negated = true;
          }
          k += matched.length - 1;
          continue;
        }
        scopeLeft -= 1;
        const stem = stems[k] as string;
        // What a replacement or a "from" covers names code that was changed (an identifier, a call), not a
        // preference: it counts for the families only.
        if (scope !== 'replacing' && !STOP_WORDS.has(word) && !isNumber(word))
          roles.push([k, scope === 'none' ? 'none' : scope === 'negation' ? 'negation' : 'rejecting']);
        const member = families.members.get(stem);
        if (member !== undefined && active(member[0])) {
          hits.push([
            member[0],
            member[1],
            scope === 'none' ? 'none' : scope === 'negation' ? 'negation' : 'rejecting',
          ]);
        } else if (scope === 'negation' && !CUE_WORDS.has(word) && !STOP_WORDS.has(word)) {
          if (!families.contextStems.has(stem) && !isNumber(stem)) topicalInNegation = true;
        }
      }
      // Two negations in a clause cancel ("never commit without tests", "rejected a message that
      // had no prefix").
      const cancelled = negations >= 2 && negations % 2 === 0;
      for (const [family, alternative, how] of hits) {
        put(how === 'rejecting' || (how === 'negation' && !cancelled) ? rejected : favoured, family, alternative);
      }
      for (const [k, how] of roles) {
        const into = how === 'rejecting' || (how === 'negation' && !cancelled) ? rejectedTerms : preferredTerms;
        for (const term of wordTerms(words[k] as string, stems[k] as string)) into.add(term);
      }
      if (topicalInNegation && !cancelled && !preferredBefore) {
        polarity = -1;
        cueText ??= cue;
      }
      if (roles.some(([, how]) => how === 'none')) preferredBefore = true;
    });
  });
  // Sign-free terms, as `observationTerms` makes them, negation words out, family words merged.
  const terms = new Set<string>();
  for (const clauses of segments) {
    for (const { words, stems } of clauses) {
      for (let k = 0; k < words.length; k += 1) {
        const word = words[k] as string;
        if (STOP_WORDS.has(word) || isNumber(word)) continue;
        for (const term of wordTerms(word, stems[k] as string)) terms.add(term);
      }
    }
  }
  const order = orderOf(segments, (word, stem) => wordTerms(word, stem));
  return {
    terms: [...terms],
    polarity,
    negated,
    favoured,
    rejected,
    cue: cueText,
    preferredTerms: [...preferredTerms],
    rejectedTerms: [...rejectedTerms],
    order,
  };
}

/** Order words: "A before B" puts A earlier, "A after B" and "A until B" put B earlier. */
const ORDER_WORDS: ReadonlyMap<string, 'before' | 'after' | 'until'> = new Map([
  ['before', 'before'],
  ['after', 'after'],
  ['until', 'until'],
  ['till', 'until'],
]);

/** Words between a negation and the verb it governs: "don't just commit", "never ever push". */
const NEGATION_FILLERS = new Set(['please', 'just', 'ever', 'even']);
/**
 * Verbs that take the step as their object and, negated, ask for it: "don't forget to commit before …", "never
 * hesitate to …", "never skip the tests before …" all state the step's own order ("be afraid/shy to" likewise).
 */
const NEGATED_ASKS = new Set([
  'forget',
  'hesitate',
  'skip',
  'neglect',
  'omit',
  'ignore',
  'bypass',
  'miss',
  'fail',
  'be',
]);
/** Verbs whose negation says neither order for sure ("don't wait for the tests before you commit"): no order read. */
const NEGATED_UNSURE = new Set(['worry', 'bother', 'wait']);
/** Words that open another clause: a negation before one governs only its own ("don't worry and commit before …"). */
const CLAUSE_JOINERS = new Set(['and', 'then', 'but', 'or', 'so']);
/** Joiners that, before a bare verb, join it to the negated one: "don't commit and push", "never merge or deploy". */
const VERB_JOINERS = new Set(['and', 'or']);
/** Words that open a clause of its own after a joiner: a subject ("and I …", "or the build …"). */
const CLAUSE_SUBJECTS = new Set(['i', 'we', 'you', 'they', 'he', 'she', 'it', 'the', 'this', 'that', 'there', 'my']);

/**
 * Where the first step starts and whether the negation at `negatedAt` (its cue `cueLength` words long) governs it:
 * only one directly before the step's own verb (after please/just) does. After a verb asking for the step ("don't
 * forget to", "never hesitate to", "don't be afraid to") or a clause joiner the plain order stands; after
 * worry/bother/wait no order is read (undefined).
 */
function firstStep(
  words: readonly string[],
  negatedAt: number,
  cueLength: number,
  at: number,
): { from: number; negated: boolean } | undefined {
  if (negatedAt < 0) return { from: 0, negated: false };
  let j = negatedAt + cueLength;
  while (j < at && NEGATION_FILLERS.has(words[j] as string)) j += 1;
  const verb = words[j] as string;
  // A bare verb after and/or shares the negation of a plain verb ("don't commit and push before …"); a joiner
  // before a subject or another negation, or after a verb asking for the step or worry/bother/wait, opens a clause.
  const shares = !NEGATED_ASKS.has(verb) && !NEGATED_UNSURE.has(verb);
  for (let k = at - 1; k > negatedAt; k -= 1) {
    const word = words[k] as string;
    if (!CLAUSE_JOINERS.has(word)) continue;
    const next = words[k + 1] as string;
    const opens = CLAUSE_SUBJECTS.has(next) || matchAt(words, k + 1, NEGATIONS_BY_FIRST) !== undefined;
    if (!shares || !VERB_JOINERS.has(word) || opens) return { from: k + 1, negated: false };
  }
  if (NEGATED_UNSURE.has(verb)) return undefined;
  if (!NEGATED_ASKS.has(verb)) return { from: j, negated: true };
  let from = verb === 'be' ? j + 2 : j + 1;
  if (words[from] === 'to') from += 1;
  return { from, negated: false };
}

/**
 * The first clause stating two steps in order, topical words on both sides of an order word, resolved against a
 * negation of the first step's verb (`firstStep`): ¬(A before B) says B before A ("never commit before the tests
 * pass" is "the tests pass before the commit"), and "don't A until B" says B before A too. "A until B" without a
 * negation states no order.
 */
function orderOf(
  segments: readonly (readonly { words: readonly string[]; stems: readonly string[] }[])[],
  termsOf: (word: string, stem: string) => readonly string[],
): StepOrder | undefined {
  for (const clauses of segments) {
    for (const { words, stems } of clauses) {
      const at = words.findIndex((w) => ORDER_WORDS.has(w));
      if (at < 0) continue;
      let negatedAt = -1;
      let cueLength = 0;
      for (let k = 0; k < at && negatedAt < 0; k += 1) {
        const cue = matchAt(words, k, NEGATIONS_BY_FIRST);
        if (cue !== undefined) [negatedAt, cueLength] = [k, cue.length];
      }
      const step = firstStep(words, negatedAt, cueLength, at);
      if (step === undefined) continue;
      const collect = (from: number, to: number): string[] => {
        const out = new Set<string>();
        for (let k = from; k < to; k += 1) {
          const word = words[k] as string;
          if (STOP_WORDS.has(word) || isNumber(word) || CUE_WORDS.has(word)) continue;
          for (const term of termsOf(word, stems[k] as string)) if (!GENERIC_TERMS.has(term)) out.add(term);
        }
        return [...out];
      };
      const first = collect(step.from, at);
      const second = collect(at + 1, words.length);
      if (first.length === 0 || second.length === 0) continue;
      const how = ORDER_WORDS.get(words[at] as string);
      if (how === 'until' && !step.negated) continue;
      const firstEarlier = how === 'until' ? false : (how === 'before') === !step.negated;
      return firstEarlier ? { earlier: first, later: second } : { earlier: second, later: first };
    }
  }
  return undefined;
}

/**
 * Whether two stated orders put the same steps the same way round: each shares a term of its earlier step with the
 * other's earlier step and a term of its later one with the other's later one, and none the other way round.
 */
export function sameOrder(x: StepOrder | undefined, y: StepOrder | undefined): boolean {
  if (x === undefined || y === undefined) return false;
  const meets = (a: readonly string[], b: readonly string[]) => a.some((t) => b.includes(t));
  return (
    meets(x.earlier, y.earlier) && meets(x.later, y.later) && !meets(x.earlier, y.later) && !meets(x.later, y.earlier)
  );
}

/** The sign-free terms of one word: its aliases' stems, a family word as `~family`, cue words left out. */
function termsOfWord(word: string, stem: string, families: FamilyIndex, active: (family: string) => boolean): string[] {
  const aliases = aliasesOf(word);
  const out: string[] = [];
  for (const s of aliases === undefined ? [stem] : aliases.map(stemWord)) {
    if (CUE_STEMS.has(s)) continue;
    const member = families.members.get(s);
    out.push(member !== undefined && active(member[0]) ? `~${member[0]}` : s);
  }
  return out;
}

/**
 * The assertion of `text` under the given families (exported for tests and reports; a skill's name reads it), as
 * `detectContradictions` reads it: the families indexed once per list, the text's assertion kept (`analysisOf`).
 */
export function assertionOf(text: string, conventions: readonly ConventionFamily[] = OPPOSITE_CONVENTIONS): Assertion {
  return analysisOf(conventions)(text);
}

/**
 * An assertion as stated by an observation of `type`. An `error` reports what went wrong: with a
 * negation ("commit without tests made CI red") its polarity is swapped; without one its polarity
 * is unknown (0: it neither agrees nor disagrees by sign). Its favoured and rejected alternatives
 * are swapped either way ("a merge commit was rejected" rejects merge).
 */
interface Stance {
  readonly polarity: 1 | 0 | -1;
  readonly favoured: ReadonlyMap<string, ReadonlySet<string>>;
  readonly rejected: ReadonlyMap<string, ReadonlySet<string>>;
  /**
   * The families in which an outcome (an error or a success) states a choice: those where its own words turn an
   * alternative down. Undefined for the other types (every family they name is a choice).
   */
  readonly chosenIn?: ReadonlySet<string>;
}

/**
 * An outcome records what happened to what it names ("tests failed: npm test" names the runner, it turns npm down no
 * more than "tests passed: npm test" picks it): a family counts as chosen there only where the text itself turns an
 * alternative down ("installed with yarn instead of npm and the build broke").
 */
function stanceOf(assertion: Assertion, type: ObservationType): Stance {
  if (type !== 'error' && type !== 'success') return assertion;
  const chosenIn = new Set(assertion.rejected.keys());
  if (type === 'success') return { ...assertion, chosenIn };
  const polarity = assertion.negated ? (assertion.polarity === 1 ? -1 : 1) : 0;
  return { polarity, favoured: assertion.rejected, rejected: assertion.favoured, chosenIn };
}

/** What a stance chooses in a family: favoured and not also rejected; undefined if nothing. */
function choice(stance: Stance, family: string): Set<string> | undefined {
  const favoured = stance.favoured.get(family);
  if (favoured === undefined) return undefined;
  const rejected = stance.rejected.get(family);
  const chosen = new Set([...favoured].filter((a) => rejected === undefined || !rejected.has(a)));
  return chosen.size > 0 ? chosen : undefined;
}

/** What a stance rejects in a family and does not also favour; undefined if nothing. */
function rejectedOnly(stance: Stance, family: string): Set<string> | undefined {
  const rejected = stance.rejected.get(family);
  if (rejected === undefined) return undefined;
  const favoured = stance.favoured.get(family);
  const only = new Set([...rejected].filter((a) => favoured === undefined || !favoured.has(a)));
  return only.size > 0 ? only : undefined;
}

/**
 * Whether two stances disagree, and how. On a family both mention: they disagree when one chooses
 * what the other rejects, or both choose and share no choice; a text choosing two alternatives at
 * once ("I used git merge, the user asked for git rebase") does not vote. Without a shared family,
 * `open`: the parts the texts prefer and reject decide (`partsVerdict`), or for an error the polarity
 * (`polarityVerdict`). `abstain` (no vote) when a shared family is chosen both ways; undefined when they agree.
 */
function disagreement(
  x: Stance,
  y: Stance,
): { kind: 'negation' | 'opposite-convention'; family: string | undefined } | 'abstain' | 'open' | undefined {
  // x contradicts only by what it chooses: a family an outcome x merely names is no choice of it.
  const families = new Set(
    [...x.favoured.keys(), ...x.rejected.keys()].filter(
      (f) => (y.favoured.has(f) || y.rejected.has(f)) && (x.chosenIn === undefined || x.chosenIn.has(f)),
    ),
  );
  let decided = false;
  for (const family of [...families].sort()) {
    const xc = choice(x, family);
    const yc = choice(y, family);
    if ((xc !== undefined && xc.size > 1) || (yc !== undefined && yc.size > 1)) return 'abstain';
    // An alternative a text both favours and rejects ("don't indent with 4 spaces, indent with 2 spaces") is
    // not what it turns down: the difference lies elsewhere, and such a text says nothing on the family.
    const xr = rejectedOnly(x, family);
    const yr = rejectedOnly(y, family);
    if ((xc === undefined && xr === undefined) || (yc === undefined && yr === undefined)) continue;
    decided = true;
    const clash =
      (xc !== undefined && yr !== undefined && [...xc].some((a) => yr.has(a))) ||
      (yc !== undefined && xr !== undefined && [...yc].some((a) => xr.has(a))) ||
      (xc !== undefined && yc !== undefined && ![...xc].some((a) => yc.has(a)));
    if (clash) return { kind: 'opposite-convention', family };
  }
  return decided ? undefined : 'open';
}

/** An error's verdict without a shared family: by polarity, none when either is unknown. */
function polarityVerdict(x: Stance, y: Stance): 'negation' | 'abstain' | undefined {
  if (x.polarity === 0 || y.polarity === 0) return 'abstain';
  return x.polarity !== y.polarity ? 'negation' : undefined;
}

/** The preferred (P) and rejected (R) terms of an assertion, as term ids with their weights' norms. */
interface Parts {
  readonly preferred: ReadonlySet<number>;
  readonly rejected: ReadonlySet<number>;
  readonly preferredNorm: number;
  readonly rejectedNorm: number;
  /** The preferred terms it does not also reject, and the other way round, with their norms. */
  readonly preferredOnly: ReadonlySet<number>;
  readonly rejectedOnly: ReadonlySet<number>;
  readonly preferredOnlyNorm: number;
  readonly rejectedOnlyNorm: number;
}

/**
 * Two statements without a shared family contradict when one prefers what the other rejects on the same
 * subject: the cosine of one's rejected part with the other's preferred part (the dispute) reaches `near` and
 * exceeds the cosine of the parts on the same side (the agreement: "use early returns, not nested ifs" and
 * "prefer early returns over nested if blocks" prefer and reject the same). Returns the dispute's cosine,
 * `agree` when the agreement reaches `near`, else undefined (neither: they do not vote).
 */
function partsVerdict(
  x: Parts,
  y: Parts,
  weight: Float64Array,
  options: { near: number; covering: number; xRejectedCovered: boolean },
): number | 'not-disputed' {
  const { near, covering } = options;
  const cos = (a: ReadonlySet<number>, an: number, b: ReadonlySet<number>, bn: number): number =>
    partsCosine(a, an, b, bn, weight);
  // A rejected part must be what the other side prefers, nearly whole: "don't declare variables with var" keeps
  // the subject of "declare variables with const" but rejects something it does not prefer. x's rejected part
  // is covered by what y's group prefers (`xRejectedCovered`), y's by x.
  const covered = (r: ReadonlySet<number>, rn: number, p: ReadonlySet<number>): boolean => {
    let dot = 0;
    for (const t of r) if (p.has(t)) dot += (weight[t] as number) ** 2;
    return rn > 0 && dot >= covering * rn * rn;
  };
  // The dispute is about a subject: at least two terms that one side rejects or both prefer and the other
  // prefers ("add a default export" and "add a changelog entry" share a verb only), one of them rejected and not
  // also preferred by the side that rejects it ("short functions, not long functions: split long functions"
  // rejects nothing it does not keep).
  const disputed = (r: Parts, p: Parts): boolean => {
    let shared = 0;
    let own = false;
    for (const t of r.rejected) {
      if (!p.preferredOnly.has(t)) continue;
      shared += 1;
      if (!r.preferred.has(t)) own = true;
    }
    for (const t of r.preferred) if (p.preferredOnly.has(t) && !r.rejected.has(t)) shared += 1;
    // A subject named on both sides ("don't split the work into small commits; one commit is fine") must be
    // the other's too ("split long functions into small helpers" is about functions).
    let subject = false;
    let onSubject = false;
    for (const t of r.rejected) {
      if (!r.preferred.has(t)) continue;
      subject = true;
      if (p.preferred.has(t) || p.rejected.has(t)) onSubject = true;
    }
    return shared >= 2 && own && (!subject || onSubject);
  };
  const dispute = Math.max(
    options.xRejectedCovered && disputed(x, y)
      ? cos(x.rejected, x.rejectedNorm, y.preferredOnly, y.preferredOnlyNorm)
      : 0,
    y.rejected.size > 0 && covered(y.rejected, y.rejectedNorm, x.preferredOnly) && disputed(y, x)
      ? cos(x.preferredOnly, x.preferredOnlyNorm, y.rejected, y.rejectedNorm)
      : 0,
  );
  if (dispute < near) return 'not-disputed';
  return dispute > partsAgreement(x, y, weight) ? dispute : 'not-disputed';
}

/**
 * How far two statements agree: the cosine of what each prefers alone, or of what each rejects alone ("indent
 * with two spaces, not 4 spaces" neither prefers nor rejects spaces as such).
 */
function partsAgreement(x: Parts, y: Parts, weight: Float64Array): number {
  return Math.max(
    partsCosine(x.preferredOnly, x.preferredOnlyNorm, y.preferredOnly, y.preferredOnlyNorm, weight),
    partsCosine(x.rejectedOnly, x.rejectedOnlyNorm, y.rejectedOnly, y.rejectedOnlyNorm, weight),
  );
}

function partsCosine(
  a: ReadonlySet<number>,
  an: number,
  b: ReadonlySet<number>,
  bn: number,
  weight: Float64Array,
): number {
  if (an === 0 || bn === 0) return 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let dot = 0;
  for (const t of small) if (large.has(t)) dot += (weight[t] as number) ** 2;
  return dot / (an * bn);
}

const describe = (stance: Stance, family: string): string => [...(choice(stance, family) ?? [])].sort().join(' / ');

type Resolved = {
  nearThreshold: number;
  covered: number;
  minSupport: number;
  maxGroupShare: number;
  genericWeight: number;
  idfMinBatch: number;
  conventions: readonly ConventionFamily[];
};

function resolveOptions(options: ContradictionOptions | undefined): Resolved {
  const resolved: Resolved = { ...CONTRADICTION_DEFAULTS, conventions: OPPOSITE_CONVENTIONS };
  if (options === undefined) return resolved;
  for (const key of ['nearThreshold', 'covered', 'genericWeight', 'maxGroupShare'] as const) {
    const value = options[key];
    if (value === undefined) continue;
    if (!Number.isFinite(value) || value < 0 || value > 1) {
      throw new CredenceError('INVALID_INPUT', `contradiction option ${key} must be in [0, 1], got ${String(value)}`, {
        details: { [key]: value },
      });
    }
    resolved[key] = value;
  }
  for (const key of ['idfMinBatch', 'minSupport'] as const) {
    const value = options[key];
    if (value === undefined) continue;
    if (!Number.isInteger(value) || value < 1) {
      throw new CredenceError(
        'INVALID_INPUT',
        `contradiction option ${key} must be an integer ≥ 1, got ${String(value)}`,
        { details: { [key]: value } },
      );
    }
    resolved[key] = value;
  }
  if (options.conventions !== undefined) resolved.conventions = options.conventions;
  return resolved;
}

const TYPE_SLOTS = 8;
const typeSlot = (type: ObservationType): number => {
  const slot = OBSERVATION_TYPES.indexOf(type);
  return slot < 0 ? TYPE_SLOTS - 1 : slot;
};

/** An inverted index as flat arrays: the entries of term t are `start[t]` … `start[t + 1] − 1`. */
interface Postings {
  readonly start: Int32Array;
  readonly proto: Int32Array;
  readonly weight: Float64Array;
}

/** Members of one group with the same text and type. */
interface Prototype {
  readonly group: number;
  readonly assertion: number;
  readonly stance: Stance;
  /** Interned stance id (equal stances, equal ids). */
  readonly stanceId: number;
  /** Whether its members are errors (read by polarity, not by their parts). */
  readonly error: boolean;
  /** Item indexes, canonical order. */
  readonly items: number[];
}

/**
 * For each group (same order as `groups`), the observations that contradict it (see the module
 * header). `items` are all the observations of the batch, grouped or not: a contradiction may sit
 * inside the group it opposes, in another group, or alone. Pure and deterministic.
 * @throws CredenceError INVALID_INPUT for a repeated or empty id, a non-finite timestamp, a group
 * naming an unknown id, an id in two groups, or an option out of range.
 */
export function detectContradictions(
  items: readonly ContradictionItem[],
  groups: readonly { readonly ids: readonly string[] }[],
  options?: ContradictionOptions,
): GroupContradictions[] {
  const resolved = resolveOptions(options);
  const indexOf = new Map<string, number>();
  items.forEach((item, i) => {
    if (typeof item.id !== 'string' || item.id.length === 0)
      throw new CredenceError('INVALID_INPUT', `observation at index ${i} needs a non-empty string id`);
    if (indexOf.has(item.id))
      throw new CredenceError('INVALID_INPUT', `observation id ${item.id} appears twice`, { details: { id: item.id } });
    if (!Number.isFinite(item.timestamp))
      throw new CredenceError(
        'INVALID_INPUT',
        `observation ${item.id} needs a finite timestamp, got ${String(item.timestamp)}`,
      );
    indexOf.set(item.id, i);
  });
  const groupOf = new Int32Array(items.length).fill(-1);
  groups.forEach((group, g) => {
    for (const id of group.ids) {
      const i = indexOf.get(id);
      if (i === undefined)
        throw new CredenceError('INVALID_INPUT', `group ${g} names observation ${id}, which is not among the items`, {
          details: { group: g, id },
        });
      if (groupOf[i] !== -1)
        throw new CredenceError('INVALID_INPUT', `observation ${id} is in groups ${groupOf[i]} and ${g}`, {
          details: { id },
        });
      groupOf[i] = g;
    }
  });
  const result: GroupContradictions[] = groups.map((_, g) => ({ group: g, contradictions: [] }));
  if (items.length === 0 || groups.length === 0) return result;

  // Assertions per distinct text; term weights as in pattern grouping.
  const analysed = analysisOf(resolved.conventions);
  const assertionIndex = new Map<string, number>();
  const assertions: Assertion[] = [];
  const itemAssertion = new Int32Array(items.length);
  items.forEach((item, i) => {
    let a = assertionIndex.get(item.text);
    if (a === undefined) {
      assertionIndex.set(item.text, (a = assertions.length));
      assertions.push(analysed(item.text));
    }
    itemAssertion[i] = a;
  });
  const termIdOf = new Map<string, number>();
  const assertionTerms = assertions.map((a) =>
    a.terms.map((term) => {
      let id = termIdOf.get(term);
      if (id === undefined) termIdOf.set(term, (id = termIdOf.size));
      return id;
    }),
  );
  const df = new Int32Array(termIdOf.size);
  for (let i = 0; i < items.length; i += 1)
    for (const t of assertionTerms[itemAssertion[i] as number] as number[]) df[t] = (df[t] as number) + 1;
  const names = [...termIdOf.keys()];
  const termWeight = batchIdf(names, df, items.length, {
    minBatch: resolved.idfMinBatch,
    genericWeight: resolved.genericWeight,
    generic: GENERIC_TERMS,
  });
  // A term no other observation of the batch holds can be neither shared nor opposed: it is left out of the parts
  // ("no longer limit the context to three files" against "max 3 files per context").
  const partIds = (terms: readonly string[]) =>
    new Set(terms.map((term) => termIdOf.get(term) as number).filter((t) => (df[t] as number) > 1));
  const partNorm = (ids: ReadonlySet<number>) => {
    let sum = 0;
    for (const t of ids) sum += (termWeight[t] as number) ** 2;
    return Math.sqrt(sum);
  };
  const parts: Parts[] = assertions.map((a) => {
    const preferred = partIds(a.preferredTerms);
    const rejected = partIds(a.rejectedTerms);
    const preferredOnly = new Set([...preferred].filter((t) => !rejected.has(t)));
    const rejectedOnly = new Set([...rejected].filter((t) => !preferred.has(t)));
    return {
      preferred,
      rejected,
      preferredNorm: partNorm(preferred),
      rejectedNorm: partNorm(rejected),
      preferredOnly,
      rejectedOnly,
      preferredOnlyNorm: partNorm(preferredOnly),
      rejectedOnlyNorm: partNorm(rejectedOnly),
    };
  });
  // Term vectors for the cosine of two texts; a word no other observation holds weighs nothing there either
  // ("no, don't use pnpm here — we use npm in this repo" is near "use pnpm for installs" in a small batch too).
  const shared = (t: number) => ((df[t] as number) > 1 ? (termWeight[t] as number) : 0);
  const vectors = assertionTerms.map((terms) => {
    const weights = new Map<number, number>();
    let norm = 0;
    for (const t of terms) norm += shared(t) ** 2;
    norm = Math.sqrt(norm);
    for (const t of terms) weights.set(t, norm === 0 ? 0 : shared(t) / norm);
    return weights;
  });
  // Stances are few: intern them and remember each pair's verdict.
  const stanceIds = new Map<string, number>();
  const stances: Stance[] = [];
  const familyKey = (map: ReadonlyMap<string, ReadonlySet<string>>) =>
    [...map]
      .map(([f, alts]) => `${f}=${[...alts].sort().join('|')}`)
      .sort()
      .join(';');
  const internStance = (stance: Stance): number => {
    const chosenIn = stance.chosenIn === undefined ? '*' : [...stance.chosenIn].sort().join('|');
    const key = `${stance.polarity}/${familyKey(stance.favoured)}/${familyKey(stance.rejected)}/${chosenIn}`;
    let id = stanceIds.get(key);
    if (id === undefined) {
      stanceIds.set(key, (id = stances.length));
      stances.push(stance);
    }
    return id;
  };
  // Every item's stance, interned up front, so that the verdict of a pair of stances is a table.
  const stanceMemo = new Map<number, number>();
  const itemStance = Int32Array.from(items, (item, i) => {
    const key = (itemAssertion[i] as number) * TYPE_SLOTS + typeSlot(item.type);
    let id = stanceMemo.get(key);
    if (id === undefined)
      stanceMemo.set(
        key,
        (id = internStance(stanceOf(assertions[itemAssertion[i] as number] as Assertion, item.type))),
      );
    return id;
  });
  const stanceCount = stances.length;
  const verdicts: (ReturnType<typeof disagreement> | 'agree')[] = new Array(stanceCount * stanceCount);
  /**
   * The verdict of x (assertion a, an error or not) on prototype p, and the cosine that makes a disagreement
   * near when the parts decided it (undefined: the cosine of the whole texts).
   */
  // Verdicts without a cosine of their own, shared (no allocation per candidate).
  const AGREE = { d: 'agree' } as const;
  const AGREE_BY_PARTS = { d: 'agree', byParts: true } as const;
  const ABSTAIN = { d: 'abstain' } as const;
  const NEGATION = { d: { kind: 'negation', family: undefined } } as const;
  // What each group's non-error members prefer (and do not also reject), between them; made on first use.
  const preferredOf = new Map<number, Set<number>>();
  const groupPreferred = (group: number): ReadonlySet<number> => {
    let set = preferredOf.get(group);
    if (set === undefined) {
      preferredOf.set(group, (set = new Set()));
      for (const p of prototypesOf[group] ?? []) {
        const proto = prototypes[p] as Prototype;
        if (!proto.error) for (const t of (parts[proto.assertion] as Parts).preferredOnly) set.add(t);
      }
    }
    return set;
  };
  const verdictOn = (
    x: Stance,
    xId: number,
    a: number,
    xError: boolean,
    p: Prototype,
    xRejectedCovered: (group: number) => boolean,
  ): {
    d: { kind: 'negation' | 'opposite-convention'; family: string | undefined } | 'abstain' | 'agree';
    sim?: number;
    byParts?: boolean;
  } => {
    const pair = xId * stanceCount + p.stanceId;
    let d = verdicts[pair];
    if (d === undefined) verdicts[pair] = d = disagreement(x, p.stance) ?? 'agree';
    if (d !== 'open') return d === 'agree' ? AGREE : d === 'abstain' ? ABSTAIN : { d };
    if (xError || p.error) {
      const v = polarityVerdict(x, p.stance);
      return v === undefined ? AGREE : v === 'abstain' ? ABSTAIN : NEGATION;
    }
    // Two steps stated the same way round agree, whatever negation says it ("never commit before the tests pass").
    if (sameOrder((assertions[a] as Assertion).order, (assertions[p.assertion] as Assertion).order)) return AGREE;
    const xp = parts[a] as Parts;
    const yp = parts[p.assertion] as Parts;
    // Neither rejects anything: they agree when near (the cosine of the whole texts).
    if (xp.rejected.size === 0 && yp.rejected.size === 0) return AGREE;
    const sim = partsVerdict(xp, yp, termWeight, {
      near: resolved.nearThreshold,
      covering: resolved.covered,
      xRejectedCovered: xp.rejected.size > 0 && xRejectedCovered(p.group),
    });
    // Not disputed: they agree if their parts do, which only counts when x is contested (`agreesByParts`).
    return sim === 'not-disputed' ? AGREE_BY_PARTS : { d: NEGATION.d, sim };
  };

  // Prototypes: the members of a group with one text and type; an inverted index on their terms.
  const order = canonicalOrder(items);
  const prototypes: Prototype[] = [];
  const prototypeOf = new Map<number, number>();
  const itemPrototype = new Int32Array(items.length).fill(-1);
  for (const i of order) {
    const g = groupOf[i] as number;
    if (g < 0) continue;
    const item = items[i] as ContradictionItem;
    const key = (g * assertions.length + (itemAssertion[i] as number)) * TYPE_SLOTS + typeSlot(item.type);
    let p = prototypeOf.get(key);
    if (p === undefined) {
      prototypeOf.set(key, (p = prototypes.length));
      const a = itemAssertion[i] as number;
      const stance = stanceOf(assertions[a] as Assertion, item.type);
      prototypes.push({
        group: g,
        assertion: a,
        stance,
        stanceId: itemStance[i] as number,
        error: item.type === 'error',
        items: [],
      });
    }
    (prototypes[p] as Prototype).items.push(i);
    itemPrototype[i] = p;
  }
  const prototypesOf: number[][] = groups.map(() => []);
  prototypes.forEach((p, k) => prototypesOf[p.group]?.push(k));
  // Weak terms: generic words, and words found in the members of more than `maxGroupShare` of the
  // groups (context such as a module name that follows every habit). They do not find candidates;
  // they are added to the cosine of the candidates where they can still change the verdict.
  const groupsWith = new Int32Array(termIdOf.size);
  const seenPairs = new Set<number>();
  for (const p of prototypes) {
    for (const t of assertionTerms[p.assertion] as number[]) {
      const pair = t * groups.length + p.group;
      if (seenPairs.has(pair)) continue;
      seenPairs.add(pair);
      groupsWith[t] = (groupsWith[t] as number) + 1;
    }
  }
  const spreadLimit = Math.max(resolved.minSupport, resolved.maxGroupShare * groups.length);
  const weak = Uint8Array.from(names, (term, t) =>
    GENERIC_TERMS.has(term) || (groupsWith[t] as number) > spreadLimit ? 1 : 0,
  );
  // Occurrences of each strong term among each group's members (key term × groups + group): a term most of
  // whose occurrences lie in one group, at least `minSupport` of them, defines that group's subject.
  const inGroup = new Map<number, number>();
  for (const p of prototypes) {
    for (const t of assertionTerms[p.assertion] as number[]) {
      if (weak[t] === 1) continue;
      const key = t * groups.length + p.group;
      inGroup.set(key, (inGroup.get(key) ?? 0) + p.items.length);
    }
  }
  // Whether a term defines some group (most of its occurrences in that one group).
  const mostInOneGroup = new Map<number, number>();
  for (const [key, count] of inGroup) {
    const t = Math.floor(key / groups.length);
    mostInOneGroup.set(t, Math.max(mostInOneGroup.get(t) ?? 0, count));
  }
  const definingTerms = (terms: readonly number[], group: number): number[] =>
    group < 0
      ? []
      : terms.filter((t) => {
          const count = mostInOneGroup.get(t) ?? 0;
          return count >= resolved.minSupport && 2 * count >= (df[t] as number);
        });
  const definingMemo: (number[] | undefined)[] = new Array(prototypes.length);
  const definingOf = (k: number): number[] => {
    const p = prototypes[k] as Prototype;
    let terms = definingMemo[k];
    if (terms === undefined) definingMemo[k] = terms = definingTerms(assertionTerms[p.assertion] as number[], p.group);
    return terms;
  };
  const weakNorms = Float64Array.from(vectors, (weights) => {
    let sum = 0;
    for (const [t, w] of weights) if (weak[t] === 1) sum += w * w;
    return Math.sqrt(sum);
  });

  // Postings of the strong terms, with the prototype's weight of the term, as flat arrays: one set
  // over all prototypes, one over those of negative polarity (the only ones a plain positive
  // statement can disagree with).
  const buildPostings = (keep: (p: Prototype) => boolean): Postings => {
    const start = new Int32Array(termIdOf.size + 1);
    for (const p of prototypes) {
      if (!keep(p)) continue;
      for (const t of assertionTerms[p.assertion] as number[])
        if (weak[t] === 0) start[t + 1] = (start[t + 1] as number) + 1;
    }
    for (let t = 0; t < termIdOf.size; t += 1) start[t + 1] = (start[t + 1] as number) + (start[t] as number);
    const fill = Int32Array.from(start);
    const proto = new Int32Array(start[termIdOf.size] as number);
    const weight = new Float64Array(proto.length);
    prototypes.forEach((p, k) => {
      if (!keep(p)) return;
      const weights = vectors[p.assertion] as Map<number, number>;
      for (const t of assertionTerms[p.assertion] as number[]) {
        if (weak[t] === 1) continue;
        const at = fill[t] as number;
        proto[at] = k;
        weight[at] = weights.get(t) ?? 0;
        fill[t] = at + 1;
      }
    });
    return { start, proto, weight };
  };
  const allPostings = buildPostings(() => true);
  // A statement that is no error and names no family disagrees only with an error of the other polarity, or with
  // a member that rejects something it prefers or prefers something it rejects: the errors through postings,
  // the members through indexes of their parts' terms.
  const errorPostings = {
    positive: buildPostings((p) => p.stance.polarity === 1 && p.error),
    negative: buildPostings((p) => p.stance.polarity === -1 && p.error),
  };
  const indexParts = (part: (x: Parts) => ReadonlySet<number>): Map<number, number[]> => {
    const index = new Map<number, number[]>();
    prototypes.forEach((p, k) => {
      if (p.error) return;
      for (const t of part(parts[p.assertion] as Parts)) {
        const list = index.get(t);
        if (list === undefined) index.set(t, [k]);
        else list.push(k);
      }
    });
    return index;
  };
  const rejecting = indexParts((x) => x.rejected);
  const preferring = indexParts((x) => x.preferredOnly);
  const acc = new Float64Array(prototypes.length);
  const mark = new Int32Array(prototypes.length).fill(-1);

  // Each distinct (text, type, own prototype) is judged once.
  const judged = new Map<number, { group: number; kind: ContradictionKind; reason: string; opposes: string } | null>();
  let stamp = 0;
  for (const i of order) {
    const item = items[i] as ContradictionItem;
    const own = itemPrototype[i] as number;
    const key = ((own + 1) * assertions.length + (itemAssertion[i] as number)) * TYPE_SLOTS + typeSlot(item.type);
    let verdict = judged.get(key);
    if (verdict === undefined) {
      const a = itemAssertion[i] as number;
      const terms = assertionTerms[a] as number[];
      const weights = vectors[a] as Map<number, number>;
      // Near members through the strong terms: the accumulated products are the strong part of the
      // cosine; the weak part (at most the product of the two weak norms) is added only where it can
      // still reach the threshold. A text with no strong term has no near member.
      const topical = terms.filter((t) => weak[t] === 0);
      const generic = terms.filter((t) => weak[t] === 1);
      let genericNorm = 0;
      for (const t of generic) genericNorm += (weights.get(t) ?? 0) ** 2;
      genericNorm = Math.sqrt(genericNorm);
      const stance = stanceOf(assertions[a] as Assertion, item.type);
      const xError = item.type === 'error';
      const plain = !xError && stance.favoured.size === 0 && stance.rejected.size === 0;
      const gather = (postings: Postings): number[] => {
        stamp += 1;
        const touched: number[] = [];
        for (const t of topical) {
          const w = weights.get(t) ?? 0;
          for (let at = postings.start[t] as number, end = postings.start[t + 1] as number; at < end; at += 1) {
            const p = postings.proto[at] as number;
            if (mark[p] !== stamp) {
              mark[p] = stamp;
              acc[p] = 0;
              touched.push(p);
            }
            acc[p] = (acc[p] as number) + w * (postings.weight[at] as number);
          }
        }
        return touched;
      };
      let touched = gather(
        plain ? (stance.polarity === 1 ? errorPostings.negative : errorPostings.positive) : allPostings,
      );
      if (plain) {
        // Members rejecting what x prefers, or preferring what it rejects: their verdict comes from the parts, not
        // from the cosine gathered.
        const add = (index: Map<number, number[]>, terms: ReadonlySet<number>) => {
          for (const t of terms) {
            for (const p of index.get(t) ?? []) {
              if (mark[p] === stamp) continue;
              mark[p] = stamp;
              acc[p] = 0;
              touched.push(p);
            }
          }
        };
        add(rejecting, (parts[a] as Parts).preferredOnly);
        add(preferring, (parts[a] as Parts).rejected);
      }
      const stanceId = itemStance[i] as number;
      const ownGroup = groupOf[i] as number;
      const defining = definingTerms(topical, ownGroup);
      // Whether x's rejected part is what a group's (non-error) members prefer between them, per group.
      const xParts = parts[a] as Parts;
      const coveredIn = new Map<number, boolean>();
      const xRejectedCovered = (group: number): boolean => {
        let covered = coveredIn.get(group);
        if (covered === undefined) {
          const preferred = groupPreferred(group);
          let dot = 0;
          for (const t of xParts.rejected) if (preferred.has(t)) dot += (termWeight[t] as number) ** 2;
          coveredIn.set(group, (covered = dot >= resolved.covered * xParts.rejectedNorm ** 2));
        }
        return covered;
      };
      const votes = new Map<
        number,
        {
          disagree: number;
          support: number;
          best: number;
          against: number;
          kind: 'negation' | 'opposite-convention';
          family: string | undefined;
        }
      >();
      const near = (p: number): number => {
        let sim = acc[p] as number;
        const other = (prototypes[p] as Prototype).assertion;
        if (sim + genericNorm * (weakNorms[other] as number) < resolved.nearThreshold) return -1;
        const otherWeights = vectors[other] as Map<number, number>;
        for (const t of generic) sim += (weights.get(t) ?? 0) * (otherWeights.get(t) ?? 0);
        return sim;
      };
      // Disagreeing near members first (most observations have none, and stop here) …
      const agreeingCandidates: number[] = [];
      let contested = false;
      for (const p of touched) {
        const proto = prototypes[p] as Prototype;
        const { d, sim: partsSim, byParts } = verdictOn(stance, stanceId, a, xError, proto, xRejectedCovered);
        if (d === 'abstain') continue;
        if (d === 'agree') {
          agreeingCandidates.push(byParts === true ? -1 - p : p);
          continue;
        }
        const count = proto.items.length - (p === own ? 1 : 0);
        if (count === 0) continue;
        const sim = partsSim ?? near(p);
        if (sim < resolved.nearThreshold) continue;
        // Another group's member without a word that defines x's own group, whose own group has a defining word x
        // lacks, speaks of another subject ("name the scheduler module with snake_case" and "name the renderer
        // module with camelCase").
        if (proto.group !== ownGroup && defining.length > 0) {
          const otherTerms = vectors[proto.assertion] as Map<number, number>;
          if (
            defining.some((t) => !otherTerms.has(t)) &&
            definingOf(p).some((t) => !(vectors[a] as Map<number, number>).has(t))
          )
            continue;
        }
        let vote = votes.get(proto.group);
        if (vote === undefined)
          votes.set(
            proto.group,
            (vote = { disagree: 0, support: 0, best: -1, against: -1, kind: 'negation', family: undefined }),
          );
        vote.disagree += count * sim;
        vote.support += count;
        if (vote.support >= resolved.minSupport) contested = true;
        if (sim > vote.best) Object.assign(vote, { best: sim, against: p, kind: d.kind, family: d.family });
      }
      // … then the agreement anywhere: near members of any group that say what x says.
      let agreeing = 0;
      if (contested) {
        if (plain) {
          // Only the negative members were gathered: gather all of them for the agreement.
          touched = gather(allPostings);
          agreeingCandidates.length = 0;
          for (const p of touched) {
            const v = verdictOn(stance, stanceId, a, xError, prototypes[p] as Prototype, xRejectedCovered);
            if (v.d === 'agree') agreeingCandidates.push(v.byParts === true ? -1 - p : p);
          }
        }
        // A candidate whose parts decided (encoded −1 − p) agrees only if its parts agree.
        for (const entry of agreeingCandidates) {
          const p = entry < 0 ? -1 - entry : entry;
          const proto = prototypes[p] as Prototype;
          const count = proto.items.length - (p === own ? 1 : 0);
          if (count === 0) continue;
          if (
            entry < 0 &&
            partsAgreement(parts[a] as Parts, parts[proto.assertion] as Parts, termWeight) < resolved.nearThreshold
          )
            continue;
          const sim = near(p);
          if (sim >= resolved.nearThreshold) agreeing += count * sim;
        }
      }
      let chosen: number | undefined;
      for (const [g, vote] of [...votes].sort((x, y) => x[0] - y[0])) {
        if (
          vote.disagree > agreeing &&
          vote.support >= resolved.minSupport &&
          (chosen === undefined || vote.disagree > (votes.get(chosen) as { disagree: number }).disagree)
        )
          chosen = g;
      }
      if (chosen === undefined) verdict = null;
      else {
        const vote = votes.get(chosen) as {
          against: number;
          kind: 'negation' | 'opposite-convention';
          family: string | undefined;
        };
        const against = prototypes[vote.against] as Prototype;
        const example = items[against.items[0] as number] as ContradictionItem;
        const assertion = assertions[a] as Assertion;
        const what =
          vote.kind === 'opposite-convention' && vote.family !== undefined
            ? describe(stance, vote.family) === ''
              ? `turns down ${describe(against.stance, vote.family) || "the group's choice"} (${vote.family})`
              : `favours ${describe(stance, vote.family)} ` +
                `over ${describe(against.stance, vote.family) || "the group's choice"} (${vote.family})`
            : `says the opposite${assertion.cue !== undefined ? ` ("${assertion.cue}")` : ''}`;
        verdict = {
          group: chosen,
          kind: item.type === 'correction' ? 'correction' : vote.kind,
          reason: `${item.type === 'correction' ? 'a correction that ' : ''}${what} of "${example.text}"`,
          opposes: example.id,
        };
      }
      judged.set(key, verdict);
    }
    if (verdict !== null) {
      (result[verdict.group] as GroupContradictions).contradictions.push({
        id: item.id,
        timestamp: item.timestamp,
        kind: verdict.kind,
        reason: verdict.reason,
        opposes: verdict.opposes,
      });
    }
  }
  return result;
}

/**
 * The id of the feedback event that records a detected contradiction (observation `observationId`) against an
 * instinct or a skill: one per pair, so that it lowers each thing it opposes once (−0.3, seed 004).
 */
export function contradictionEventId(targetId: string, observationId: string): string {
  return `contradiction:${targetId}:${observationId}`;
}

/**
 * Ages in days of contradictions at `now` (milliseconds), for `isSignificant`'s
 * `contradictionAgesDays`.
 */
export function contradictionAgesDays(
  contradictions: readonly { readonly timestamp: number }[],
  now: number,
): number[] {
  return contradictions.map((c) => (now - c.timestamp) / 86_400_000);
}
