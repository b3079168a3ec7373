/**
 * @module core/recall/older-turns
 * Which of a question's top turns are likely an older version of a later turn of the same speaker (issue 23), with no
 * word list of slots: each states a fact of their own, and the later names a name the earlier names and one of its
 * own, said as a change tied to it (changeBeside: "I left Kestrel Insurance, joined Pinecrest Health") or held (stated
 * twice after), or is in its line of facts (factLines: joined through names or a frame) naming one of its own, or, both
 * among the top, another value of a kind the earlier names (valueKinds: words filling one frame in anyone's turns). A
 * question naming the later one's own name already knows it: that pair is left. Also the turns of the value before a
 * later value a question names (earlierValues), and the turn that first named a value (firstNamed). Pure.
 */
import {
  changeBeside,
  deniedIn,
  hedged,
  isStopWord,
  knownNames,
  leftIn,
  namesIn,
  negated,
  norm,
  OTHERS_THING,
  statesOwnFact,
  words,
} from './memory-life.js';

export const OLDER_TURN_DEFAULTS = Object.freeze({
  /** A frame (factLines): the words around a run of at most this many words that differ. */
  frameRun: 3,
  /** … and at least this many words around it. */
  frameWords: 3,
  /**
   * Frames are read in turns of at most this many words: a fact is stated in a sentence or a few, and a long paste
   * differing in a word or two (a log, a template) holds no value of its own; the work per turn stays bounded.
   */
  frameTurnWords: 120,
  /** A name joins a speaker's turns into a line when said beside at most this many of their other names. */
  lineNeighbours: 2,
  /** The top results whose turns may be marked older (a later version may come from anywhere in the pool). */
  window: 10,
});

export interface TurnCandidate {
  key: string;
  id: string;
  speaker: string;
  /** When it was said (ms). */
  at: number;
  text: string;
}

export interface OlderTurn {
  /** The later turn (its key and id) that likely holds now. */
  newerKey: string;
  newerId: string;
  /** The names both turns name, and those only the later one names (lower case). */
  shared: string[];
  own: string[];
  why: string;
  /**
   * The later turn names the earlier one's value again and says no change (nor a value held besides): it is the
   * later word on it, not shown to replace it ("Still at Acme Robotics, though I interviewed at Globex once").
   */
  again?: true;
}

/**
 * For each candidate of `top` (keys) likely an older version of a later candidate of the same speaker, that later
 * one (the latest such) and why. `candidates`: the question's turns, best first; `question`: as asked; `lines`:
 * each turn's line of facts (factLines), when read.
 */
export function olderTurns(
  candidates: readonly TurnCandidate[],
  top: ReadonlySet<string>,
  question: string,
  lines?: ReadonlyMap<string, string>,
  context?: readonly (Pick<TurnCandidate, 'text'> & { speaker?: string })[],
): Map<string, OlderTurn> {
  // A sentence's first word is a name when written with a capital inside a sentence of the question or a turn.
  const known = knownNames([question, ...candidates.map((c) => c.text)]);
  const speakers = speakersOf([...candidates, ...(context ?? [])]);
  const addressable = new Set([...known, ...speakers]);
  const own = candidates
    .filter((c) => statesOwnFact(c.text, addressable))
    .map((c) => ({ c, names: namesIn(c.text, known), values: [] as string[] }));
  const inLine = (a: TurnCandidate, b: TurnCandidate) =>
    lines?.get(a.key) !== undefined && lines?.get(a.key) === lines?.get(b.key);
  // Kinds of values (valueKinds) are read only for two top turns of a speaker sharing no name and no line, from the
  // context's turns no longer than they are (a frame joins turns whose lengths differ by less than `frameRun`).
  let longest = 0;
  const inTop = context === undefined ? [] : own.filter((t) => top.has(t.c.key));
  for (const a of inTop)
    for (const b of inTop)
      if (a.c.speaker === b.c.speaker && a.c.at < b.c.at && !inLine(a.c, b.c))
        if (![...a.names].some((n) => b.names.has(n)))
          longest = Math.max(longest, words(a.c.text).length, words(b.c.text).length);
  const frames = new Map<string, string>();
  const kinds =
    longest === 0 || context === undefined
      ? undefined
      : valueKinds(context, longest + OLDER_TURN_DEFAULTS.frameRun, { speakers, frames });
  if (kinds !== undefined) for (const t of own) t.values = valuesIn(t.c.text, kinds);
  const asked = new Set(words(question));
  // A value is held when the speaker states it as theirs in two turns after the older one: in the first person, with
  // no condition, plan, quote (hedged), not denied or left, a name in a position that holds it (heldIn; a value of a
  // kind fills a frame already), not naming another speaker (addressed anywhere: "I could
  // never do that, Ines, respect"), not about another person's thing ("My wife drives", "My brother took up kayaking").
  const saidAt = new Map<string, number[]>();
  for (const t of own) {
    const text = t.c.text;
    if (!FIRST_PERSON.test(text) || OTHERS_THING.test(text) || hedged(text)) continue;
    if (words(text).some((w) => speakers.has(w) && !words(t.c.speaker).includes(w))) continue;
    const said = new Set([...t.values, ...t.names]);
    const denied = deniedIn(text, said);
    const left = leftIn(text, said);
    for (const v of said) {
      if (
        denied.has(v) ||
        left.has(v) ||
        (t.names.has(v) && !t.values.includes(v) && !heldIn(text, v) && !namedIn(text, v))
      )
        continue;
      const key = `${t.c.speaker}\n${v}`;
      const at = saidAt.get(key);
      if (at === undefined) saidAt.set(key, [t.c.at]);
      else at.push(t.c.at);
    }
  }
  const held = (speaker: string, v: string, after: number) =>
    (saidAt.get(`${speaker}\n${v}`) ?? []).filter((at) => at > after).length >= 2;
  const common =
    context === undefined
      ? undefined
      : joinNames(context.map((c, i) => ({ key: `${i}`, speaker: c.speaker ?? '', text: c.text })));
  const out = new Map<string, OlderTurn>();
  for (const older of own) {
    if (!top.has(older.c.key) || (older.names.size === 0 && older.values.length === 0)) continue;
    let best: { c: TurnCandidate; shared: string[]; own: string[]; ground: string; again?: true } | undefined;
    for (const newer of own) {
      if (newer.c.speaker !== older.c.speaker || newer.c.at <= older.c.at) continue;
      if (norm(newer.c.text) === norm(older.c.text)) continue;
      // A condition, a plan, a quote or a comparison states nothing as now ("If I ever left Lisbon I would pick
      // Porto", "My cousin says Toyota is more reliable than Honda"): no later word on anything.
      if (COMPARES.test(newer.c.text)) continue;
      const shared = [...newer.names].filter((n) => older.names.has(n));
      // A later turn naming the earlier one's value again (a shared name the question does not name: "Ledger" in
      // "Where is Ledger's data?" is what both are about) holds it still, unless it says a change tied to it (the
      // value left, or a cue beside it: "I left Kestrel Insurance and joined Pinecrest Health") or names a value held
      // besides: a name said once beside it may be only mentioned ("Still at Acme Robotics, though I interviewed at
      // Globex once").
      // Tied to the value left: a shared name, else (a line of facts) any the earlier turn names.
      const change = changeBeside(newer.c.text, shared.length > 0 ? shared : [...older.names, ...older.values]);
      // A hedge is read by clause: changeBeside's; with no change tied, a hedge anywhere states nothing as now.
      if (change === undefined && hedged(newer.c.text)) continue;
      let ownNames = [...newer.names].filter((n) => !older.names.has(n));
      const heldOwn = ownNames.filter((n) => held(newer.c.speaker, n, older.c.at));
      const again = shared.some((n) => !asked.has(n)) && change === undefined && heldOwn.length === 0;
      const sameLine = inLine(older.c, newer.c);
      let byKind = false;
      // A denial says nothing of now ("I never liked Python much, Rust looks nicer") unless it says the change or
      // the value besides is held.
      if (change === undefined && heldOwn.length === 0) {
        if (negated(newer.c.text)) continue;
        // A turn of the same line saying no change holds no value of its own ("Rumour is Meadow Bank is hiring").
        if (shared.length === 0 && sameLine) continue;
        // Both about what the question asks: a name said beside many of the speaker's other names (a weekday:
        // joinNames) is no value of its own ("My team at Copperline ships every Thursday").
        if (!again && common !== undefined) ownNames = ownNames.filter((n) => common.has(`${newer.c.speaker}\n${n}`));
      }
      let ground =
        change !== undefined
          ? said(change)
          : heldOwn.length > 0
            ? `holds ${heldOwn.join(', ')} (said in two own turns after)`
            : shared.length > 0
              ? `both about ${shared.join(', ')}, the question's`
              : 'in the same line of facts';
      if (shared.length === 0 && !sameLine && top.has(newer.c.key)) {
        // Both in the top: the later names another value of a kind the earlier names one of (valueKinds).
        // The kinds of the values the earlier turn holds (not one it says it left: "uninstalled Helix").
        const gone = leftIn(older.c.text, older.values);
        const olderKinds = new Set(older.values.filter((v) => !gone.has(v)).map((v) => kinds?.get(v)));
        // A value said once may be only mentioned ("a talk about Zed"): a value held is said in two own turns after
        // the earlier one, or beside a change tied to the value of the kind it left ("sold my yoga gear …
        // birdwatching now"), not where it holds both ("Still playing tennis, though I tried golf once"). A
        // question naming a value of the kind asks about that one.
        const leftKinds = new Map<string | undefined, string>();
        for (const v of newer.values)
          if (older.values.includes(v)) {
            const c = changeBeside(newer.c.text, [v]);
            if (c !== undefined && !leftKinds.has(kinds?.get(v))) leftKinds.set(kinds?.get(v), said(c));
          }
        const other = newer.values.filter(
          (v) =>
            !older.values.includes(v) &&
            olderKinds.has(kinds?.get(v)) &&
            (held(newer.c.speaker, v, older.c.at) || leftKinds.has(kinds?.get(v))) &&
            ![...asked].some((w) => kinds?.get(w) === kinds?.get(v)),
        );
        if (other.length > 0) {
          const w = other[0] as string;
          const was = older.values.filter((v) => kinds?.get(v) === kinds?.get(w) && !gone.has(v));
          const frame = was.map((v) => frames.get(v < w ? `${v}\n${w}` : `${w}\n${v}`)).find((f) => f !== undefined);
          ground =
            `names ${other.join(', ')}, a value of the kind of ${was.join(', ')}` +
            `${frame === undefined ? '' : ` (said in the same words: "${frame}")`}, ` +
            (leftKinds.get(kinds?.get(w)) ?? `held: said in two own turns after`);
          ownNames = other;
          byKind = true;
        }
      }
      if ((shared.length === 0 && !sameLine && !byKind) || ownNames.length === 0) continue;
      if (ownNames.some((n) => asked.has(n))) continue;
      // The latest, of those shown to replace it when there are.
      if (
        best === undefined ||
        (best.again === true && !again) ||
        ((best.again === true) === again && newer.c.at > best.c.at)
      )
        best = { c: newer.c, shared, own: ownNames, ground, ...(again ? { again } : {}) };
    }
    if (best !== undefined)
      out.set(older.c.key, {
        newerKey: best.c.key,
        newerId: best.c.id,
        shared: best.shared.sort(),
        own: best.own.sort(),
        ...(best.again ? { again: true as const } : {}),
        why: best.again
          ? `said again later by ${older.c.speaker} (${best.c.id}: names ${best.shared.join(', ')} again, no change)`
          : `likely an older version: ${best.c.id}, said later by ${older.c.speaker}, ` +
            (best.shared.length > 0 ? `names ${best.shared.join(', ')} too and ${best.own.join(', ')} besides; ` : '') +
            (best.shared.length === 0 && !best.ground.startsWith('names ') ? `names ${best.own.join(', ')}; ` : '') +
            best.ground,
      });
  }
  return out;
}

/** How a change tied to a value was said: "left kestrel", "joined" beside kestrel. */
const said = (c: { value: string; cue: string; left: boolean }): string =>
  c.left ? `says "${c.cue} ${c.value}"` : `says "${c.cue}" beside ${c.value}`;

/** The words of the speakers' names (lower case): the names a turn may address. */
const speakersOf = (cs: readonly { speaker?: string }[]): Set<string> =>
  new Set(cs.flatMap((c) => words(c.speaker ?? '')));

/**
 * Whether a turn names `name` (lower case) where a name is held or placed: after a preposition ("I'm with Globex",
 * "the data team at Globex") or before "is my" / "is our". Looser than heldIn, and enough here: a value counts as
 * held only when the speaker says it so in two turns after the older one, with no denial, plan or other person.
 */
function namedIn(text: string, name: string): boolean {
  const ts = [...text.matchAll(/[\p{L}\p{N}]+/gu)].map((m) => m[0]);
  for (let i = 0; i < ts.length; i += 1) {
    if ((ts[i] as string).toLowerCase() !== name) continue;
    let j = i - 1;
    const skip = (w: string) => !HOLDING.has(w.toLowerCase()) && (/^\p{Lu}/u.test(w) || ARTICLES.has(w.toLowerCase()));
    while (j >= 0 && skip(ts[j] as string)) j -= 1;
    if (j >= 0 && HOLDING.has((ts[j] as string).toLowerCase())) return true;
    let k = i + 1;
    while (k < ts.length && /^\p{Lu}/u.test(ts[k] as string)) k += 1;
    if (
      /^(?:is|are|s) (?:my|our)$/.test(
        ts
          .slice(k, k + 2)
          .join(' ')
          .toLowerCase(),
      )
    )
      return true;
  }
  return false;
}
const HOLDING = new Set(['at', 'for', 'with', 'in', 'on', 'to', 'into', 'onto', 'using', 'via']);
const ARTICLES = new Set(['the', 'a', 'an', 'my', 'our']);

/** A first-person statement (I, me, my, we, us, our). */
const FIRST_PERSON = /\b(?:i|me|my|mine|we|us|our)\b/i;
/** A comparison ("more reliable than Honda"): the values compared, none said to hold. */
const COMPARES = /\bthan\b/i;

/** The words of a text that are values of a kind (valueKinds), each once. */
const valuesIn = (text: string, kinds: ReadonlyMap<string, string>): string[] => [
  ...new Set(words(text).filter((w) => kinds.has(w))),
];

/**
 * Of `values` a turn names, those its speaker states as theirs now: with no comparison,
 * condition, plan or quote (hedged), not about another person's thing ("My kids want to try salsa"), not addressing
 * another speaker (`speakers`: their names' words, lower case; `own`: this speaker's), not denied nor left ("I've
 * given up salsa and taken up swimming": swimming), and said in a holding position (heldIn): a mention holds nothing
 * ("Our biggest competitor is Globex", "I applied to Globex"). `lefts`: the words before each value in the frames
 * that formed its kind (valueKinds), a holding position too ("My weekend hobby is _").
 */
export function statedValues(
  text: string,
  values: readonly string[],
  own: readonly string[],
  speakers: ReadonlySet<string>,
  lefts?: ReadonlyMap<string, ReadonlySet<string>>,
): string[] {
  if (OTHERS_THING.test(text) || hedged(text) || COMPARES.test(text)) return [];
  if (words(text).some((w) => speakers.has(w) && !own.includes(w))) return [];
  const left = leftIn(text, values);
  return values.filter((v) => !left.has(v) && heldIn(text, v, lefts?.get(v)));
}

/**
 * Whether `value` (lower case) stands in a clause of `text` that holds it as the speaker's (holdsAt): after a
 * holding verb ("I took up pottery", "Started at Globex"), a word before it in the frame that formed its kind
 * (`lefts`), a preposition after a holding verb or copula ("I work at Globex", "I'm at Acme"; not after leaving or
 * mentioning: "done with Acme", "talked to Acme"), or as the subject of "is my" / "is our" ("Helix is my editor");
 * in a clause that is first person or opens with no thing nor other person ("The team at Globex is great" holds
 * nothing); not denied in its own part of the clause ("not", "never", "n't", "no longer": "Can't believe | I'm on
 * Helix now" holds Helix), not a step towards it (an application, an interview, a rejection, an offer, a dream),
 * not bounded in the past ("used to"; "ago" with no change verb: "We switched to pnpm two weeks ago" holds pnpm), not
 * a named other's ("My friend Sara works at Globex"). Words as memory-life's `words` reads them ("I'm" is i, m).
 */
export function heldIn(text: string, value: string, lefts?: ReadonlySet<string>): boolean {
  for (const clause of text.split(/[,.;:!?()]|\s[-–—]\s|\b(?:and|but|though|although)\b/i)) {
    const ts = clause.match(/[\p{L}\p{N}]+/gu) ?? [];
    const lower = words(clause);
    const at = lower.indexOf(value);
    if (at < 0) continue;
    if (NAMED_OTHER.test(clause) || OTHERS_THING.test(clause)) continue;
    // A clause opening with a name doing something is that one's ("Sam crushed me at chess", "Sara works at …"); an
    // acronym names no person ("CI runs on Buildkite").
    if (
      /^\p{Lu}\p{Ll}/u.test(ts[0] ?? '') &&
      at > 0 &&
      !FIRST_PERSON.test(ts[0] ?? '') &&
      /^(?:\p{Ll}+(?:ed|s)|beat|took|got|made)$/u.test(ts[1] ?? '') &&
      !/(?:ed|ing)$/.test(lower[0] ?? '')
    )
      continue;
    // Said of a thing or of others, with no first person: "The team at Globex is great".
    if (!FIRST_PERSON.test(clause) && OPENS_OTHER.has(lower[0] ?? '')) continue;
    // The value's part of the clause: from the last subject before it to the next after it. A denial or a bound
    // there is the value's ("Can't believe I'm on Helix now" denies the believing, not Helix).
    let start = at;
    while (start > 0 && !SUBJECTS.has(lower[start - 1] as string)) start -= 1;
    start = Math.max(0, start - 1);
    let end = at + 1;
    while (end < lower.length && !SUBJECTS.has(lower[end] as string)) end += 1;
    const part = lower.slice(start, end);
    if (part.some((w) => DENIED.has(w)) || /\bno longer\b/.test(part.join(' '))) continue;
    if (lower.some((w) => NOT_HELD.has(w)) || /\bused to\b/.test(lower.join(' '))) continue;
    // "Ago" bounds a value in the past unless it dates the change itself ("We switched to pnpm two weeks ago").
    if (lower.includes('ago') && !lower.some((w) => CHANGE_VERBS.has(w))) continue;
    if (holdsAt(ts, lower, at, start, lefts)) return true;
    // The value as the subject of "is my" / "is our": "Helix is my editor now".
    let k = at + 1;
    while (k < ts.length && /^\p{Lu}/u.test(ts[k] as string)) k += 1;
    if (COPULAS.has(lower[k] ?? '') && /^(?:my|our)$/.test(lower[k + 1] ?? '')) return true;
  }
  return false;
}

/**
 * Whether the words before a value (at `at` of a clause's words `lower`, as written `ts`; its part from `start`)
 * hold it: a holding verb ("I use Vim", "took up pottery", "joined Globex"), a word before it in the frame of its
 * kind (`lefts`), a copula when that frame has one, or a preposition after a holding verb or copula, with the
 * verb's object between ("I work at Globex", "we run on Postgres", "I'm at Acme", "moved the main store to MySQL")
 * or after a thing of the speaker's ("my desk at Copperleaf").
 * Leaving or only mentioning holds nothing: "done with Acme", "stopped deploying to Heroku", "talked to Acme",
 * "sent my CV to Acme", "a talk on Acme", "away from Acme".
 */
function holdsAt(
  ts: readonly string[],
  lower: readonly string[],
  at: number,
  start: number,
  lefts?: ReadonlySet<string>,
): boolean {
  const known = (w: string) => HOLD_VERBS.has(w) || HOLDING.has(w) || COPULAS.has(w) || LEAVING.has(w);
  let j = at - 1;
  while (
    j >= start &&
    (ARTICLES.has(lower[j] as string) ||
      FILLERS.has(lower[j] as string) ||
      (/^\p{Lu}/u.test(ts[j] as string) && !known(lower[j] as string) && !SUBJECTS.has(lower[j] as string)))
  )
    j -= 1;
  if (j < start) return false;
  const w = lower[j] as string;
  const leftBefore = (i: number) => [i - 1, i - 2].some((x) => x >= start && LEAVING.has(lower[x] as string));
  if (LEAVING.has(w)) return false;
  if (HOLD_VERBS.has(w) || lefts?.has(w) === true) return !leftBefore(j);
  if (AWAY.has(w)) return false;
  if (COPULAS.has(w)) return [...(lefts ?? [])].some((x) => COPULAS.has(x)) && !leftBefore(j);
  if (!HOLDING.has(w)) return false;
  for (let i = j - 1; i >= Math.max(start, j - 6); i -= 1) {
    const v = lower[i] as string;
    if (FOR_CHANGE.has(v) && i < j - 1 && FOR_WORDS.has(w)) return true;
    if (LEAVING.has(v)) return false;
    if (HOLD_VERBS.has(v) || NOW_COPULAS.has(v)) return !leftBefore(i);
  }
  // Or after a thing of the speaker's, with no leaving verb before: "My team at Copperleaf ships every week".
  return lower.slice(Math.max(start, j - 4), j).some((v) => v === 'my' || v === 'our');
}
/** Words that make a clause hold nothing of the speaker's now: a step towards a value, a past, a dream. */
const NOT_HELD = new Set(
  (
    'applied apply applying application interview interviewing interviewed rejected offer offered dreamt ' +
    'dreamed dream'
  ).split(' '),
);
/** A denial, of its own part of a clause: "Can't believe | I'm on Helix now" (n't is the word t). */
const DENIED = new Set(['not', 'never', 't']);
/** Verbs of a change that "ago" dates rather than bounds: "We switched to pnpm two weeks ago". */
const CHANGE_VERBS = new Set(
  'switched moved migrated joined started began took hired relocated transferred upgraded picked landed'.split(' '),
);
/** The subjects that open a part of a clause: "Can't believe | I'm on Helix now". */
const SUBJECTS = new Set(['i', 'we']);
/** Leaving or only mentioning: the value after them is not held ("done with Acme", "talked to Acme"). */
const LEAVING = new Set(
  (
    'done stopped stop stopping quit quitting left leaving leave talked talk talks talking sent send sending gave ' +
    'give given giving mentioned mention heard asked'
  ).split(' '),
);
/** Right before a value, a move away from it: "away from Acme", "off Heroku". */
const AWAY = new Set(['from', 'off', 'away', 'without']);
/** Leaving one value for another holds the other: "I left Acme for Globex", "swapped pottery for climbing". */
const FOR_CHANGE = new Set('left quit swapped swap traded ditched dropped replaced'.split(' '));
const FOR_WORDS = new Set(['for', 'with', 'to', 'into', 'onto']);
/** Another person named as a clause's subject: "my friend Sara", "our manager Ben". */
const NAMED_OTHER = /\b(?:[Mm]y|[Oo]ur) \p{Ll}+ \p{Lu}\p{L}+/u;
/** Words opening a clause about a thing or others: with no first person, it holds no value of the speaker's. */
const OPENS_OTHER = new Set(
  'the this that these those it its there everyone everybody people someone somebody you your'.split(' '),
);
/** Words between a holding word and its value: "are all climbing", "is mostly Rust". */
const FILLERS = new Set(['all', 'mostly', 'just', 'now', 'still', 'really', 'only', 'basically', 'pretty', 'much']);
const COPULAS = new Set(['is', 'are', 'am', 'was', 'were', 's', 'm', 're', 'be', 'being', 'been']);
/** Copulas of now: a preposition after them holds its value ("I'm at Acme", "our CI is on GitHub"). */
const NOW_COPULAS = new Set(['is', 'are', 'am', 's', 'm', 're', 'be', 'being', 'been']);
/** Verbs that hold the word after them: "I use Vim", "took up pottery", "joined Globex". */
const HOLD_VERBS = new Set(
  (
    'use uses using run runs running play plays playing drive drives driving do doing love loving joined join ' +
    'up chose picked prefer live lives living work works working switched switch moved migrated started start ' +
    'starting hired settled upgraded went relocated transferred landed deploy deploys deploying based'
  ).split(' '),
);

/** The values of a text by kind (valueKinds): each kind with its values said, in the order said, each once. */
export function valuesOfKinds(text: string, kinds: ReadonlyMap<string, string>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const v of valuesIn(text, kinds)) {
    const kind = kinds.get(v) as string;
    const list = out.get(kind);
    if (list === undefined) out.set(kind, [v]);
    else list.push(v);
  }
  return out;
}

/**
 * Values of one kind, with no word list: the words that fill the same frame (turnFrames: the same words around a
 * run of at most `frameRun` that differ) in two of `turns`, any speaker ("A student asked me how to install Kate
 * today" / "… Nano today": Kate and Nano are of a kind). The runs' words they share at either end are not the
 * value, nor words under 3 letters, nor a number ("Standup note 101: …" holds no value), nor a speaker's name
 * (`speakers`, lower case); runs of unequal length join nothing. Turns of `under` words or more are not read. Each
 * value word (lower case) with its kind (the same string for one kind); `frames`, when given, gets the frame that
 * first joined each pair (`a\nb`, sorted): "… install _ today"; `lefts`, when given, the word before each value in
 * the frames that joined it ("install").
 */
export function valueKinds(
  turns: readonly Pick<TurnCandidate, 'text'>[],
  under = Number.POSITIVE_INFINITY,
  options: { speakers?: ReadonlySet<string>; frames?: Map<string, string>; lefts?: Map<string, Set<string>> } = {},
): Map<string, string> {
  const { parent, root, join } = unionFind();
  const isValue = (w: string) =>
    w.length >= 3 && !/^\p{N}+$/u.test(w) && !isStopWord(w) && options.speakers?.has(w) !== true;
  const leftOf = (w: string, left: string | undefined) => {
    if (options.lefts === undefined || left === undefined) return;
    const set = options.lefts.get(w);
    if (set === undefined) options.lefts.set(w, new Set([left]));
    else set.add(left);
  };
  const unite = (a: string, b: string, frame: () => string, left?: string) => {
    if (a === b || !isValue(a) || !isValue(b)) return;
    join(a, b);
    leftOf(a, left);
    leftOf(b, left);
    const pair = a < b ? `${a}\n${b}` : `${b}\n${a}`;
    if (options.frames !== undefined && !options.frames.has(pair)) options.frames.set(pair, frame());
  };
  const { frameRun, frameWords } = OLDER_TURN_DEFAULTS;
  const ids = new Map<string, number>();
  const id = (w: string): number => {
    let x = ids.get(w);
    if (x === undefined) ids.set(w, (x = ids.size + 1));
    return x;
  };
  // A frame's key is a number: the hashes of its words before and after the run (collisions are checked word for
  // word), so a 300-word turn's 900 frames cost no strings. The first turn of each key is kept. A text read once is
  // not read again (a log pasted by many speakers holds no frame of its own).
  const M = 67_108_859;
  const seen = new Map<number, { ws: readonly string[]; start: number; end: number }>();
  const read = new Set<string>();
  for (const t of turns) {
    const ws = words(t.text);
    const n = ws.length;
    if (n - 1 < frameWords || n >= under || n > OLDER_TURN_DEFAULTS.frameTurnWords) continue;
    const text = ws.join(' ');
    if (read.has(text)) continue;
    read.add(text);
    const x = ws.map(id);
    const before = new Float64Array(n + 1);
    for (let i = 0; i < n; i += 1) before[i + 1] = ((before[i] as number) * 131 + (x[i] as number) + i) % M;
    const after = new Float64Array(n + 1);
    for (let j = n - 1; j >= 0; j -= 1) after[j] = ((after[j + 1] as number) * 137 + (x[j] as number) + n - j) % M;
    for (let i = 0; i < n; i += 1)
      for (let j = i + 1; j <= Math.min(n, i + frameRun); j += 1) {
        if (n - (j - i) < frameWords) continue;
        const key = (before[i] as number) * M + (after[j] as number);
        const other = seen.get(key);
        if (other === undefined) {
          seen.set(key, { ws, start: i, end: j });
          continue;
        }
        // The runs first (short), without the words they share at either end: values pair word by word, in runs
        // of one length only ("pottery for climbing" / "cycling for chess"); then the frame, word for word.
        let [a0, a1, b0, b1] = [other.start, other.end, i, j];
        while (a0 < a1 && b0 < b1 && other.ws[a0] === ws[b0]) [a0, b0] = [a0 + 1, b0 + 1];
        while (a0 < a1 && b0 < b1 && other.ws[a1 - 1] === ws[b1 - 1]) [a1, b1] = [a1 - 1, b1 - 1];
        if (a0 === a1 || a1 - a0 !== b1 - b0) continue;
        if (!sameFrame(other, { ws, start: i, end: j })) continue;
        const frame = () => {
          const left = ws.slice(Math.max(0, b0 - 5), b0).join(' ');
          const right = ws.slice(b1, b1 + 5).join(' ');
          return `${b0 > 5 ? '… ' : ''}${left} _ ${right}${n - b1 > 5 ? ' …' : ''}`.trim();
        };
        for (let k = 0; k < a1 - a0; k += 1)
          unite(other.ws[a0 + k] as string, ws[b0 + k] as string, frame, k === 0 ? ws[b0 - 1] : undefined);
      }
  }
  return new Map([...parent.keys()].map((v) => [v, root(v)] as const));
}

/** An earlier turn holding the value a later turn left, for a question naming what came after (earlierValues). */
export interface EarlierValue {
  /** The later turn: the first of its speaker's naming every name the question asks about. */
  laterKey: string;
  laterId: string;
  /** The names the later turn names besides the question's, which this one names too (lower case). */
  left: string[];
}

/**
 * For a question naming a value that came later ("Which town was Ines in before Perth?"; `nameWords`: the words of
 * the speakers' names it names, not values), the turns that held the value before it, with no word list: of each
 * speaker's turns stating a fact of their own, the first naming every other name the question names is where the
 * value came (it may name the one it left: "Said goodbye to Quito, the new address is in Perth"); the same speaker's
 * earlier turns naming a name it names besides the question's held that one. A question naming no name of a value,
 * or a first turn naming nothing besides, gives none.
 */
export function earlierValues(
  candidates: readonly TurnCandidate[],
  question: string,
  nameWords: readonly string[],
): Map<string, EarlierValue> {
  const out = new Map<string, EarlierValue>();
  const { asked, own, first } = firstNaming(candidates, question, nameWords);
  for (const later of first.values()) {
    const besides = [...later.names].filter((n) => !asked.includes(n));
    if (besides.length === 0) continue;
    for (const t of own) {
      if (t.c.speaker !== later.c.speaker || t.c.at >= later.c.at) continue;
      const left = besides.filter((n) => t.names.has(n)).sort();
      if (left.length === 0) continue;
      out.set(t.c.key, { laterKey: later.c.key, laterId: later.c.id, left });
    }
  }
  return out;
}

/**
 * For a question asking when a value came ("When did Ines get to Perth?"; `nameWords` as for earlierValues): the
 * first turn of all stating a fact of its speaker's and naming every name the question names but the speakers' (a
 * value is first named when it comes), or undefined when the question names none or no turn names them all.
 */
export function firstNamed(
  candidates: readonly TurnCandidate[],
  question: string,
  nameWords: readonly string[],
): TurnCandidate | undefined {
  let out: TurnCandidate | undefined;
  for (const { c } of firstNaming(candidates, question, nameWords).first.values())
    if (out === undefined || c.at < out.at) out = c;
  return out;
}

/** The names a question asks about (not the speakers'), the own-fact turns, and each speaker's first naming them. */
function firstNaming(candidates: readonly TurnCandidate[], question: string, nameWords: readonly string[]) {
  const skip = new Set(nameWords);
  const asked = [...namesIn(question)].filter((n) => !skip.has(n));
  const speakers = speakersOf(candidates);
  const own = candidates.filter((c) => statesOwnFact(c.text, speakers)).map((c) => ({ c, names: namesIn(c.text) }));
  const first = new Map<string, (typeof own)[number]>();
  if (asked.length > 0)
    for (const t of own) {
      if (!asked.every((n) => t.names.has(n))) continue;
      const was = first.get(t.c.speaker);
      if (was === undefined || t.c.at < was.c.at) first.set(t.c.speaker, t);
    }
  return { asked, own, first };
}

/** Sets of strings joined pairwise: `parent` (each one's link), `root` (its set's name), `join` (two made one). */
function unionFind() {
  const parent = new Map<string, string>();
  const root = (x: string): string => {
    let r = x;
    for (let up = parent.get(r); up !== undefined && up !== r; up = parent.get(r)) r = up;
    parent.set(x, r);
    return r;
  };
  const join = (a: string, b: string): void => {
    for (const x of [a, b]) if (!parent.has(x)) parent.set(x, x);
    const ra = root(a);
    const rb = root(b);
    if (ra !== rb) parent.set(ra, rb);
  };
  return { parent, root, join };
}

/**
 * A speaker's lines of facts, with no word list: the turns stating a fact of their own joined through the names they
 * share (a change names the value it left and the one it took: "Said goodbye to Quito, the new address is in Perth"
 * joins the Quito turns and the Perth turns) and through a frame they share (the same words around a run of at most
 * `frameRun` words that differ: "My free time goes into surfing" / "… into sailing", a value in lower case). Each turn
 * joined to something gets its line (the same string for one line). Which names join (joinNames) is learned from
 * `context`: the question's turns, of every speaker and life, of which `candidates` are some.
 */
export function factLines(
  candidates: readonly Pick<TurnCandidate, 'key' | 'speaker' | 'text'>[],
  context: readonly Pick<TurnCandidate, 'key' | 'speaker' | 'text'>[] = candidates,
): Map<string, string> {
  const { parent, root, join } = unionFind();
  const joined = (a: string, b: string) => a === b || (parent.has(a) && parent.has(b) && root(a) === root(b));
  const speakers = speakersOf(candidates);
  const own = candidates.filter((c) => statesOwnFact(c.text, speakers));
  const keys = joinNames(context);
  const ids = new Map<string, number>();
  const frames = new Map<string, { node: string; ws: readonly string[]; start: number; end: number }>();
  for (const c of own) {
    const node = `turn\n${c.key}`;
    for (const n of namesIn(c.text)) if (keys.has(`${c.speaker}\n${n}`)) join(node, `${c.speaker}\n${n}`);
    const ws = words(c.text);
    for (const { key, start, end } of turnFrames(ws, ids)) {
      const frame = `${c.speaker}\n${key}`;
      const other = frames.get(frame);
      if (other === undefined) frames.set(frame, { node, ws, start, end });
      else if (!joined(node, other.node) && sameFrame(other, { ws, start, end })) join(node, other.node);
    }
  }
  const out = new Map<string, string>();
  for (const c of own) {
    const node = `turn\n${c.key}`;
    if (parent.has(node)) out.set(c.key, root(node));
  }
  return out;
}

/**
 * The names that join a speaker's turns into a line (factLines), learned from the turns: a value is named beside at
 * most the value it left and the one that replaced it, so a name said beside more than `lineNeighbours` other names
 * of the speaker's ("Monday": lunch at Rosa's, the ledger on Postgres, the brother in Denver) is no value of one
 * fact and joins nothing. Names always said together ("Kestrel Insurance") count as one. Of `turns`, those stating
 * their speaker's fact are read. As `speaker\nname`.
 */
function joinNames(turns: readonly Pick<TurnCandidate, 'key' | 'speaker' | 'text'>[]): Set<string> {
  const speakers = speakersOf(turns);
  const own = turns.filter((c) => statesOwnFact(c.text, speakers));
  const turnsOf = new Map<string, string[]>();
  const namesOf = new Map<string, string[]>();
  for (const c of own) {
    const names = [...namesIn(c.text)].map((n) => `${c.speaker}\n${n}`);
    namesOf.set(c.key, names);
    for (const n of names) {
      const held = turnsOf.get(n);
      if (held === undefined) turnsOf.set(n, [c.key]);
      else held.push(c.key);
    }
  }
  // Names held by the same turns are one unit (numbered); a unit's neighbours are the same for each of its names.
  const unitIds = new Map<string, number>();
  const unit = new Map<string, number>();
  for (const [n, keys] of turnsOf) {
    const joined = keys.join('\n');
    let u = unitIds.get(joined);
    if (u === undefined) unitIds.set(joined, (u = unitIds.size));
    unit.set(n, u);
  }
  const { lineNeighbours } = OLDER_TURN_DEFAULTS;
  const joins = new Map<number, boolean>();
  const out = new Set<string>();
  for (const [n, turns] of turnsOf) {
    const u = unit.get(n) as number;
    let joinsLine = joins.get(u);
    if (joinsLine === undefined) {
      const beside = new Set<number>();
      scan: for (const t of turns)
        for (const m of namesOf.get(t) ?? []) {
          const v = unit.get(m) as number;
          if (v === u) continue;
          beside.add(v);
          if (beside.size > lineNeighbours) break scan;
        }
      joinsLine = beside.size <= lineNeighbours;
      joins.set(u, joinsLine);
    }
    if (joinsLine) out.add(n);
  }
  return out;
}

/**
 * The frames of a turn's words (factLines): for each run of at most `frameRun` words that may differ, with at least
 * `frameWords` words around it, a key naming the words before and after it by their counts and two rolling hashes
 * each, so that a key's length and the work per frame do not grow with the turn (a 300-word turn: 900 short keys).
 * `ids` numbers the words, shared by the turns compared; a key shared is checked word by word (sameFrame).
 */
export function turnFrames(
  ws: readonly string[],
  ids: Map<string, number> = new Map(),
): { key: string; start: number; end: number }[] {
  const { frameRun, frameWords, frameTurnWords } = OLDER_TURN_DEFAULTS;
  const n = ws.length;
  if (n - 1 < frameWords || n > frameTurnWords) return [];
  const id = (w: string): number => {
    let x = ids.get(w);
    if (x === undefined) ids.set(w, (x = ids.size + 1));
    return x;
  };
  const M1 = 1_000_000_007;
  const M2 = 998_244_353;
  const before: [number, number][] = [[0, 0]];
  for (let i = 0; i < n; i += 1) {
    const [a, b] = before[i] as [number, number];
    const x = id(ws[i] as string);
    before.push([(a * 131 + x) % M1, (b * 137 + x) % M2]);
  }
  const after: [number, number][] = Array.from({ length: n + 1 }, () => [0, 0]);
  for (let j = n - 1; j >= 0; j -= 1) {
    const [a, b] = after[j + 1] as [number, number];
    const x = id(ws[j] as string);
    after[j] = [(a * 131 + x) % M1, (b * 137 + x) % M2];
  }
  const out: { key: string; start: number; end: number }[] = [];
  for (let i = 0; i < n; i += 1)
    for (let j = i + 1; j <= Math.min(n, i + frameRun); j += 1) {
      if (n - (j - i) < frameWords) continue;
      out.push({
        key: `${i}\n${n - j}\n${(before[i] as number[]).join(',')}\n${(after[j] as number[]).join(',')}`,
        start: i,
        end: j,
      });
    }
  return out;
}

/** Two frames (turnFrames) with the same words before and after their runs, word for word. */
function sameFrame(
  a: { ws: readonly string[]; start: number; end: number },
  b: { ws: readonly string[]; start: number; end: number },
): boolean {
  if (a.start !== b.start || a.ws.length - a.end !== b.ws.length - b.end) return false;
  for (let i = 0; i < a.start; i += 1) if (a.ws[i] !== b.ws[i]) return false;
  for (let k = 1; k <= a.ws.length - a.end; k += 1) if (a.ws[a.ws.length - k] !== b.ws[b.ws.length - k]) return false;
  return true;
}

/** Words of a question asking for several answers (asksForSeveral). */
const SEVERAL = new RegExp(
  '\\b(all|every|each|list|ever|ones|kinds?|sorts?|types?|' +
    '(?:say|said|says|mention(?:ed|s)?|talk(?:ed|s)?) about)\\b',
  'i',
);

/**
 * A question whose answer is several turns at once, none replacing another: a list ("all", "every", "list",
 * "which ones"), what someone said or mentioned about something, what ever held. Its turns are not ordered in time.
 */
export function asksForSeveral(question: string): boolean {
  return SEVERAL.test(question);
}
