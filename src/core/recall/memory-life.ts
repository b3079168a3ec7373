/**
 * @module core/recall/memory-life
 * Whether a new memory repeats, replaces or disagrees with an older one (issue 23), without a model: the same
 * subject (same title, same path, a shared tag, or most of the smaller one's content words shared) and, for a
 * replacement, a change cue in the newer one ("moved to", "switched", "now", "no longer", "instead", "replaced").
 * Every decision says why in words. And what recall makes of a memory's life: valid at a date or not, the factor
 * a superseded memory's score is multiplied by, the label of a conflict. Pure.
 */
import type { ConfidenceLabel, MemoryLife } from '../types.js';
import type { ContextLine } from './memory-context.js';

export const MEMORY_LIFE_LIMITS = Object.freeze({
  /** Shared content words over the smaller memory's, for the same subject by words. @default 0.5 */
  wordShare: 0.5,
  /** At least this many content words shared, for the same subject by words. @default 2 */
  minShared: 2,
  /** Two texts whose words overlap this much (Jaccard) are the same memory. @default 0.9 */
  duplicate: 0.9,
  /** A turn repeated word for word merges when it has at least this many words. @default 4 */
  turnWords: 4,
  /** A superseded memory's score is multiplied by this (it stays, below what replaced it). @default 0.5 */
  supersededFactor: 0.5,
});

/** What a memory is, for these decisions. `at`: when it became true (its validFrom, else when it was written). */
export interface LifeSubject {
  id: string;
  title: string;
  text: string;
  tags: readonly string[];
  path?: string;
  /** A conversation's turn: only the same speaker's turns replace each other, and never by title. */
  speaker?: string;
  at: number;
}

export type LifeDecision =
  | { kind: 'duplicate'; why: string }
  | { kind: 'supersedes'; why: string }
  | { kind: 'conflict'; why: string };

const LIMITS = MEMORY_LIFE_LIMITS;

const CUE = new RegExp(
  '\\b(moved to|moved from|moved|switched|switching|now|no longer|instead|replaced|replacing|migrated|' +
    'changed to|stopped|' +
    'anymore|no more|relocated|swapped|dropped|gave up|given up|quit)\\b',
  'i',
);

/**
 * Cues that say a change in a person's own words ("I left Northwind", "I joined Helix", "I started pottery", "the
 * migration is done"), read on a conversation's turns only: in a note they are too often something else ("the left
 * pane", "the job queue started").
 */
const TURN_CUE = new RegExp(
  '\\b(left|leaving|joined|joining|started|starting|begin|took up|taken up|new job|migration|uninstalled|' +
    'settling into|settled into)\\b',
  'i',
);

/**
 * The change cue `text` holds ("moved to", "no longer" …), lower case, or undefined; `turn`: a turn's cues too, and
 * "for now" is none (a person's "for now" keeps the value open; a note's "We deploy to Fly.io for now" says it).
 */
export function changeCue(text: string, turn = false): string | undefined {
  const t = turn ? text.replace(/\bfor now\b/gi, '') : text;
  return (CUE.exec(t)?.[1] ?? (turn ? TURN_CUE.exec(t)?.[1] : undefined))?.toLowerCase();
}

/**
 * The value a turn says it left: the word after a leaving verb, and the next when it is a name's ("relocated from
 * Lisbon", "quit tennis", "dropped VS Code", "left Northwind", "migrated off Redis", "replaced CockroachDB with";
 * "from" only after a move: "an offer from" is where one goes), stemmed as content words are. An older turn of the
 * same speaker holding it said the value now replaced, in lower case or not (a hobby is no name).
 */
export function leftValues(text: string): Set<string> {
  return new Set(leftWith(text).keys());
}

/**
 * Of `values` (lower case, as written), those a turn says it left (leftValues), compared on the same stem as deniedIn
 * compares ("quit tennis" leaves tennis, not only "tenni").
 */
export function leftIn(text: string, values: Iterable<string>): Set<string> {
  const left = leftValues(text);
  return new Set([...values].filter((v) => left.has(stem(v))));
}

/** leftValues, each with the words that say it was left ("left", "moved from"), lower case. */
export function leftWith(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of text.matchAll(LEFT)) leftAt(text, m, out);
  // Or said after it, ending its clause: "Fernway is behind me now", "Harbor Robotics is behind us." (not "Kestrel is
  // behind us on payments"): the name before it in its clause, a capitalised run of up to 4 words, else one word.
  const ts = tokens(text);
  for (let j = 1; j + 2 < ts.length; j += 1) {
    if (!behindAt(ts, j)) continue;
    const clause = (ts[j] as Token).clause;
    const name: string[] = [];
    for (let k = j - 1; k >= 0 && name.length < 4; k -= 1) {
      const t = ts[k] as Token;
      if (t.clause !== clause || !/^\p{Lu}/u.test(t.raw)) break;
      name.unshift(t.w);
    }
    if (name.length === 0 && (ts[j - 1] as Token).clause === clause) name.push((ts[j - 1] as Token).w);
    for (const w of name) if (w.length >= 3 && !STOP.has(w) && !out.has(stem(w))) out.set(stem(w), 'behind me');
  }
  return out;
}
/**
 * Whether "is/are/was behind me/us" opens at word `at` and ends its clause (or "now" follows): a thing left behind
 * its speaker, not one that is late ("behind us on payments") or placed ("behind me in the queue").
 */
function behindAt(ts: readonly Token[], at: number): boolean {
  const [be, behind, who, next] = [ts[at], ts[at + 1], ts[at + 2], ts[at + 3]];
  if (be === undefined || behind === undefined || who === undefined) return false;
  if (!/^(?:is|are|was)$/.test(be.w) || behind.w !== 'behind' || !/^(?:me|us)$/.test(who.w)) return false;
  if (behind.clause !== be.clause || who.clause !== be.clause) return false;
  return next === undefined || next.clause !== be.clause || next.w === 'now';
}

/**
 * What one match of LEFT in `text` says was left, added to `out`: the word after the leaving verb, and the next when
 * it is a name's, its capital read on the text as written ("left Kestrel Insurance"; LEFT's flag i would read the
 * "and" of "left Fernway and joined Quillon" as a capital and Fernway as a modifier of "joined").
 */
function leftAt(text: string, m: RegExpMatchArray, out: Map<string, string>): void {
  const rest = text.slice((m.index as number) + m[0].length);
  if (modifier(m[2] as string, rest)) return;
  for (const part of [m[2], /^\s+(\p{Lu}[\p{L}\p{N}]*)/u.exec(rest)?.[1]]) {
    const w = part?.toLowerCase();
    if (w !== undefined && w.length >= 3 && !STOP.has(w) && !out.has(stem(w)))
      out.set(stem(w), (m[1] as string).toLowerCase().replace(/\s+/g, ' '));
  }
}

/**
 * Whether a name (`name`, as written) is a modifier of the noun after it (`rest`: the text after the name's word):
 * written with a capital, the rest of the name then a lower-case word that is no stop word, no adverb (-ly) and no
 * word of time ("my Acme Robotics badge", "the Acme Robotics climbing club": the badge and the club are the things;
 * "left Acme Robotics last May" leaves Acme Robotics). A change said of the modifier is not said of the name.
 */
function modifier(name: string, rest: string): boolean {
  if (!/^\p{Lu}/u.test(name)) return false;
  const next = /^(?:\s+\p{Lu}[\p{L}\p{N}]*)*\s+(\p{Ll}[\p{L}\p{N}]*)/u.exec(rest)?.[1];
  return next !== undefined && !STOP.has(next) && !LEAD.has(next) && !next.endsWith('ly');
}
/** Words of time and manner that may follow a name or open a clause with no subject ("Finally moved to Denver"). */
const LEAD = new Set(
  (
    'last after before behind back yesterday today tonight earlier since until during ago altogether anyway ' +
    'finally just already recently officially so well yeah yep oh actually honestly big news update week month ' +
    'year weeks months years days summer spring winter autumn fall out'
  ).split(' '),
);

/** A clause's bounds: a stop or a comma, and "and", "but", "though" (as deniedIn reads them). */
const JOINERS = new Set(['and', 'but', 'though', 'although']);
interface Token {
  w: string;
  raw: string;
  clause: number;
}
/** A text's words (as `words`), each with its spelling and the clause it is in. */
function tokens(text: string): Token[] {
  const out: Token[] = [];
  let clause = 0;
  for (const m of text.matchAll(/([,.;:!?])|([\p{L}\p{N}]+)/gu)) {
    if (m[1] !== undefined) {
      clause += 1;
      continue;
    }
    const raw = m[2] as string;
    const w = raw.toLowerCase();
    if (JOINERS.has(w)) clause += 1;
    out.push({ w, raw, clause });
  }
  return out;
}
const clauseText = (ts: readonly Token[], clause: number): string =>
  ts
    .filter((t) => t.clause === clause)
    .map((t) => t.raw)
    .join(' ');

/**
 * Whether the speaker is the subject of a cue at `at` (ts[at]): "I" or "we" before it in its clause ("Priya and I now
 * go climbing"), or no subject at all (nothing before it there but words of time and manner: "Finally moved to
 * Denver"), or what the fact is about: a name of `about` (lower case, stemmed) that is not the value changed, at
 * `value` with the capitalised words beside it ("Chatterbox left MySQL for Postgres"), or the value itself when the
 * cue names another ("Wayfarer left Postgres for Redis": the project's store changed). "Acme Robotics now has an
 * office", "The company moved us": the value or another is the subject.
 */
function ownCue(ts: readonly Token[], at: number, about?: ReadonlySet<string>, value?: number): boolean {
  const clause = (ts[at] as Token).clause;
  const before = ts.map((t, i) => ({ t, i })).filter(({ t, i }) => i < at && t.clause === clause && !JOINERS.has(t.w));
  if (before.some(({ t }) => t.w === 'i' || t.w === 'we')) return true;
  if (before.every(({ t }) => LEAD.has(t.w) || t.w.endsWith('ly'))) return true;
  if (about === undefined || value === undefined) return false;
  const run = new Set<number>([value]);
  const capital = (i: number) => /^\p{Lu}/u.test(ts[i]?.raw ?? '');
  for (let i = value - 1; capital(i); i -= 1) run.add(i);
  for (let i = value + 1; capital(i); i += 1) run.add(i);
  if (before.some(({ t, i }) => !run.has(i) && about.has(stem(t.w)))) return true;
  // The value itself the subject, a name the object: the fact's thing changed ("Wayfarer left Postgres for Redis");
  // with none ("Acme Robotics now has an office", "… moved us into …") it says nothing of the speaker's.
  const next = [at + 1, at + 2, at + 3].filter((i) => ts[i]?.clause === clause);
  return before.every(({ t, i }) => run.has(i) || t.w === 'the') && next.some((i) => capital(i) && !run.has(i));
}

/**
 * A change cue of a turn said by its speaker (ownCue), in a clause not hedged nor about another's thing: the cue, or
 * undefined. Where a turn names no value of the older one (a slot's change: "Finally moved to Denver").
 */
export function ownChangeCue(text: string, turn = true): string | undefined {
  const ts = tokens(turn ? text.replace(/\bfor now\b/gi, '') : text);
  for (let i = 0; i < ts.length; i += 1) {
    const cue = cueAt(ts, i, turn);
    if (cue !== undefined && speakersChange(ts, i)) return cue;
  }
  return undefined;
}

/** The change cue (changeCue) opening at word `at`, or undefined. */
function cueAt(ts: readonly Token[], at: number, turn: boolean): string | undefined {
  const cue = changeCue(
    ts
      .slice(at, at + 3)
      .map((t) => t.w)
      .join(' '),
    turn,
  );
  return cue === undefined || cue.split(' ')[0] !== (ts[at] as Token).w ? undefined : cue;
}

/** A cue at `at` said by the speaker (ownCue), in a clause neither hedged nor about another's thing. */
function speakersChange(ts: readonly Token[], at: number, about?: ReadonlySet<string>, value?: number): boolean {
  const clause = clauseText(ts, (ts[at] as Token).clause);
  return ownCue(ts, at, about, value) && !hedged(clause) && !OTHERS_THING.test(clause);
}
const LEFT = new RegExp(
  '\\b((?:moved|moving|move|relocated|relocating|switched|switching|migrated|migrating|away|came) from|left|leaving|' +
    'quit|stopped|dropped|given up|gave up|no more|off|uninstalled|replaced|swapped|last day at|ditched|' +
    '(?:said )?goodbye to|farewell to|so long(?!\\s+as\\b)|(?:handed in|gave|given) my notice (?:at|to)|' +
    '(?:got )?bored of|moved on from|sold my|ripped out|' +
    // "Traded rowing for pottery", "ripped Cassandra out": not "traded stories with the team" nor "ripped the tape".
    'traded(?=\\s+(?:my\\s+|the\\s+|our\\s+)?[\\p{L}\\p{N}]+\\s+for\\b)|' +
    'ripped(?=\\s+(?:the\\s+|my\\s+|our\\s+)?[\\p{L}\\p{N}]+(?:\\s+[\\p{L}\\p{N}]+)?\\s+out\\b))\\s+' +
    '(?:the\\s+|my\\s+|our\\s+)?([\\p{L}\\p{N}]+)',
  'giu',
);

/**
 * A turn stating no fact of its speaker's as holding: a condition, a wish or a plan ("If I ever left Lisbon I would
 * pick Porto", "Maybe I will try Rust"), or another's words ("Ben told me …", "My cousin says …"). Its cues say no
 * change.
 */
export const hedged = (text: string): boolean => HEDGE.test(text);
const HEDGE = new RegExp(
  '\\b(?:if|would|could|might|maybe|perhaps|someday|unless|wish|told me|tells me|says|according to|' +
    'thinking (?:about|of)|(?:will|gonna|going to|want to|plan to|planning to|hope to) ' +
    '(?:try|switch|move|start|leave|join|take up|pick))\\b',
  'i',
);

/** A turn denying something ("I never liked Python", "not for me"), unless it says a change ("not … anymore"). */
export const negated = (text: string): boolean => NEGATION.test(text) && !LASTING.test(text);
const NEGATION = /\b(?:never|not|nor)\b|n['’]t\b/i;
const LASTING = /\b(?:no longer|anymore|any more|no more)\b/i;

/**
 * The values of `values` (lower case) a turn denies: those in a clause holding a negation ("I never really got into
 * DynamoDB", "I don't miss PyCharm"; "no longer", "anymore" say a change). Clauses end at a stop or a comma and
 * before "and", "but", "though": "Been editing in Nano … and I don't miss PyCharm" denies PyCharm, not Nano.
 */
export function deniedIn(text: string, values: Iterable<string>): Set<string> {
  const out = new Set<string>();
  if (!negated(text)) return out;
  const olds = new Map([...values].map((v) => [stem(v), v] as const));
  for (const clause of text.split(/[,.;:!?]|\b(?:and|but|though|although)\b/i)) {
    if (!NEGATION.test(clause)) continue;
    for (const w of words(clause)) {
      const value = olds.get(stem(w));
      if (value !== undefined) out.add(value);
    }
  }
  return out;
}

/**
 * Where a turn says it left one of `values` (lower case): the value in its leftValues ("I left Kestrel Insurance":
 * `left`), or a change cue (changeCue, a turn's) within `near` words of it and no "still", "too", "also" or "again"
 * there ("Still rowing every week now" holds rowing). The value and the cue, or undefined. The cue is the speaker's
 * (ownCue: "Acme Robotics now has an office" says no change of theirs), in a clause neither hedged ("maybe", "if",
 * "says": read by clause, so "I quit Acme. My manager says …" still says it) nor about another's thing (OTHERS_THING:
 * "My Acme Robotics manager moved to Globex"); the value is no modifier of a noun ("the Acme Robotics climbing club")
 * and not denied ("I never left Lisbon"). `subject`: words both turns hold, besides the values (a project's name).
 */
export function changeBeside(
  text: string,
  values: Iterable<string>,
  near = 3,
  subject: Iterable<string> = [],
): { value: string; cue: string; left: boolean } | undefined {
  const denied = deniedIn(text, values);
  const olds = new Map([...values].filter((v) => !denied.has(v)).map((v) => [stem(v), v] as const));
  if (olds.size === 0) return undefined;
  const ts = tokens(text.replace(/\bfor now\b/gi, ''));
  const about = new Set([...olds.keys(), ...[...subject].map(stem)]);
  const fine = (at: number, value: number): boolean => speakersChange(ts, at, about, value);
  const valueFine = (at: number): boolean =>
    !hedged(clauseText(ts, (ts[at] as Token).clause)) &&
    !modifier(
      (ts[at] as Token).raw,
      ts
        .slice(at + 1)
        .filter((t) => t.clause === (ts[at] as Token).clause)
        .map((t) => ` ${t.raw}`)
        .join(''),
    );
  for (let i = 0; i < ts.length; i += 1) {
    const value = olds.get(stem((ts[i] as Token).w));
    if (value === undefined || !valueFine(i)) continue;
    // The value left: a leaving verb opening a phrase that ends with it ("left my Acme Robotics", "moved from X").
    for (let k = Math.max(0, i - 6); k < i; k += 1) {
      // With the words after it in its clause, which some leaving phrases need ("traded X for", "ripped X out").
      const phrase = ts
        .slice(k, i + 4)
        .filter((t, j) => k + j <= i || t.clause === (ts[i] as Token).clause)
        .map((t) => t.raw)
        .join(' ');
      const m = [...phrase.matchAll(LEFT)].find((x) => x.index === 0);
      const found = new Map<string, string>();
      if (m !== undefined) leftAt(phrase, m, found);
      const left = found.get(stem((ts[i] as Token).w));
      if (left !== undefined && (ts[k] as Token).clause === (ts[i] as Token).clause && fine(k, i))
        return { value, cue: left, left: true };
    }
    // Or said behind the speaker after it, ending its clause ("Fernway is behind me now").
    let after = i + 1;
    while (/^\p{Lu}/u.test(ts[after]?.raw ?? '') && ts[after]?.clause === (ts[i] as Token).clause) after += 1;
    if (ts[after]?.clause === (ts[i] as Token).clause && behindAt(ts, after) && valueFine(i))
      return { value, cue: 'behind me', left: true };
    // Or a move of it, or of a thing from it, in its clause ("We moved the main store of Ledger from Cassandra to
    // Redis": Ledger's store, and Cassandra, left).
    for (let k = i - 1; k >= 0 && (ts[k] as Token).clause === (ts[i] as Token).clause; k -= 1)
      if (MOVES.has((ts[k] as Token).w) && fine(k, i)) {
        const from = ts[i - 1]?.w === 'from';
        return { value, cue: from ? `${(ts[k] as Token).w} from` : (ts[k] as Token).w, left: from };
      }
    const lo = Math.max(0, i - near);
    const around = ts.slice(lo, i + near + 1);
    if (around.some((t) => HOLDS.has(t.w))) continue;
    for (let k = lo; k < lo + around.length; k += 1) {
      const cue = cueAt(ts, k, true);
      if (cue === undefined || k + cue.split(' ').length > i + near + 1) continue;
      if (fine(k, i)) return { value, cue, left: false };
    }
  }
  return undefined;
}
const HOLDS = new Set(['still', 'too', 'also', 'again']);
const MOVES = new Set(
  'moved switched migrated relocated move moving switching migrating replaced replacing swapped'.split(' '),
);

/**
 * A turn about another person's thing: he, she, they ("her car", "their club"), or "my <someone> <verb>" ("My wife
 * drives", "My brother took up kayaking", "My husband washed the Volvo"), "my <someone>'s".
 */
export const OTHERS_THING = new RegExp(
  "\\b(?:he|she|his|her|they|their|them)\\b|\\bmy \\p{L}+(?:['’]s\\b| (?!is\\b|was\\b|has\\b)\\p{L}+(?<![su])s\\b|" +
    ' \\p{L}+ed\\b| (?:took|bought|got|did|made|went|gave|ran|drove|came|found|began|saw|told|said|won|sold|wrote)\\b)',
  'iu',
);

/**
 * What a person's facts are about, for turns that change one without naming the old value ("Big news: I moved to
 * Denver" after "I live in Lisbon"): the words of where one lives and where one works (the slots people most often
 * say they changed). Two turns of one speaker holding a word of the same slot, the newer with a change cue, are
 * about the same thing.
 */
export const LIFE_SLOTS: Readonly<Record<string, readonly string[]>> = Object.freeze({
  home: [
    'live',
    'lives',
    'living',
    'lived',
    'home',
    'based',
    'flat',
    'apartment',
    'relocated',
    'relocate',
    'relocating',
    'settling',
    'settled',
  ],
  work: ['work', 'works', 'working', 'worked', 'job', 'employer', 'office', 'joined', 'hired'],
});
/**
 * Phrases that name a slot only in the turn saying the change ("moved to Denver"; "moved" alone is also "moved over
 * to Zed", "moved the store"): they make the newer turn's slot, never the older's.
 */
export const SLOT_CHANGES: Readonly<Record<string, RegExp>> = Object.freeze({
  home: /\b(?:moved|moving|move) (?:to|into|back to) \p{Lu}/u,
  work: /\b(?:joining|offer from|new job)\b/i,
});
const SLOT_OF = new Map(Object.entries(LIFE_SLOTS).flatMap(([slot, ws]) => ws.map((w) => [w, slot] as const)));

/** The slots (LIFE_SLOTS) a text's words name; `changing`: a change's phrases of a slot too (SLOT_CHANGES). */
export function slotsOf(text: string, changing = false): Set<string> {
  const out = new Set<string>();
  for (const w of words(text)) {
    const slot = SLOT_OF.get(w);
    if (slot !== undefined) out.add(slot);
  }
  if (changing) for (const [slot, phrase] of Object.entries(SLOT_CHANGES)) if (phrase.test(text)) out.add(slot);
  return out;
}

/**
 * The words a question about a slot asks it in, besides its own ("Where does Ravi work now?": job, employer, joined
 * …: the turn saying it may hold any of them): a one-sentence question holding a slot word gets the slot's other
 * words (LIFE_SLOTS); anything else none (a request of several sentences saying "work" asks for its own words).
 */
export function slotQuestionWords(question: string): string[] {
  const t = question.trim();
  if (!t.endsWith('?') || /[.!?]\s/.test(t)) return [];
  const own = new Set(words(t));
  return [...slotsOf(t)].flatMap((slot) => (LIFE_SLOTS[slot] ?? []).filter((w) => !own.has(w)));
}

/**
 * Whether a turn can say a fact of its speaker's: not a question ("Is Redis still a good choice?"), not addressed to
 * someone by name ("Tomas, how is Calgary?", "Brave move going to Zed, Femi."), which is about them. `known`: the
 * names a turn may address (addressee).
 */
export function statesOwnFact(text: string, known?: ReadonlySet<string>): boolean {
  return !text.trim().endsWith('?') && addressee(text, known) === undefined;
}

/**
 * Whom a turn addresses by name, lower case: its first word before a comma, or its last after one ("…, Femi."), when
 * a name: one of `known` (the dialogue's speakers, names known elsewhere: lower case) or written with a capital inside
 * a sentence of the turn (knownNames). "Yeah, …", "Honestly, …", "Thanks, …" address no one.
 */
export function addressee(text: string, known?: ReadonlySet<string>): string | undefined {
  const t = text.trim();
  const name = /^(\p{Lu}[\p{L}\p{N}]*),\s/u.exec(t)?.[1] ?? /,\s*(\p{Lu}[\p{L}\p{N}]*)[.!?]*$/u.exec(t)?.[1];
  const lower = name?.toLowerCase();
  if (lower === undefined || STOP.has(lower)) return undefined;
  return known?.has(lower) === true || knownNames([t]).has(lower) ? lower : undefined;
}

const STOP = new Set(
  (
    'the a an and or but of to in on at for with from by as is are was were be been being it its this that these ' +
    'those we our us you your i my me he she his her they them their there here not no yes do does did done have ' +
    'has had will would can could should shall may might must use used uses using about into over under than then ' +
    'so if when what which who whom how why all any some just also very more most much many one two new old ' +
    'moved move switched switching now longer instead replaced replacing migrated changed anymore relocated ' +
    'swapped dropped gave given quit'
  ).split(' '),
);

/** A stop word or a change cue (contentWords leaves them out). */
export const isStopWord = (w: string): boolean => STOP.has(w);

/** A text's words, lower case (letters and digits). */
export const words = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
/** A word without a plural or third-person s (stores → store), for matching only. */
const stem = (w: string): string => (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w);

/** The words that say what a memory is about: no stop word, no change cue, at least 3 characters. */
export function contentWords(text: string): Set<string> {
  return new Set(
    words(text)
      .filter((w) => w.length >= 3 && !STOP.has(w))
      .map(stem),
  );
}

/** The words contentWords reads, each as written (lower case, not stemmed): the values a turn may have left. */
const contentForms = (text: string): Set<string> => new Set(words(text).filter((w) => w.length >= 3 && !STOP.has(w)));

const jaccard = (a: ReadonlySet<string>, b: ReadonlySet<string>): number => {
  let shared = 0;
  for (const w of a) if (b.has(w)) shared += 1;
  const union = a.size + b.size - shared;
  return union === 0 ? 1 : shared / union;
};

/** A text's words joined by one space: two texts written alike have the same. */
export const norm = (text: string): string => words(text).join(' ');

/**
 * The names a text holds: words written with a capital inside a sentence (`Lisbon`, `Postgres`), lower case; not a
 * sentence's first word, not "I", not a word after a semicolon or colon ("Northwind is great: Lisbon office …"
 * names no Lisbon of a job), unless `known` holds it: a proper noun written with a capital inside a sentence
 * elsewhere (knownNames), so "Ledger's records sit in …" names Ledger where "… the records of Ledger" was said.
 */
export function namesIn(text: string, known?: ReadonlySet<string>): Set<string> {
  const names = new Set<string>();
  const start = /[.!?:;]/;
  for (const m of text.matchAll(/(^|[.!?:;]\s+|\s|\()(\p{Lu}[\p{L}\p{N}]{2,})/gu)) {
    const before = m[1] ?? '';
    const name = (m[2] as string).toLowerCase();
    const first = before === '' || start.test(before) || opensSentence(text, m.index + before.length);
    if (first && (known?.has(name) !== true || CAPITAL_NEXT.test(text.slice(m.index + m[0].length)))) continue;
    names.add(name);
  }
  return names;
}

const CAPITAL_NEXT = /^\s+\p{Lu}/u;
/** A sentence's last mark: a stop, an ellipsis, a closing quote or bracket, an emoji (with its joiners). */
const SENTENCE_END = /(?:[.!?:;…]|["'”’»)\]]|\p{Extended_Pictographic}[\uFE0F\u200D]*)$/u;

/**
 * Whether a word at `at` opens a sentence: nothing but spaces (and an opening bracket) before it, or a sentence's last
 * mark then spaces ("Best weekend ever 😂 Honestly …": Honestly opens one). Reads back only over those spaces and a
 * few characters, so a long text costs no more per word than a short one.
 */
function opensSentence(text: string, at: number): boolean {
  let i = at;
  if (i > 0 && text[i - 1] === '(') i -= 1;
  while (i > 0 && /\s/.test(text[i - 1] as string)) i -= 1;
  return i === 0 || SENTENCE_END.test(text.slice(Math.max(0, i - 8), i));
}

/**
 * The proper nouns `texts` write alone with a capital inside a sentence (namesIn), lower case: "… the records of
 * Ledger" knows Ledger; "… the offer from Helix Labs" knows neither word (a part of a longer name is not the word
 * alone). A sentence opens after a stop, an ellipsis, a closing quote or bracket, or an emoji; a stop word is no name.
 * namesIn reads a sentence's first word as a name when known and alone.
 */
export function knownNames(texts: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const t of texts)
    for (const m of t.matchAll(/(\p{Lu}[\p{L}\p{N}]*)((?:\s+\p{Lu}[\p{L}\p{N}]*)*)/gu)) {
      if ((m[2] ?? '') !== '') continue;
      const prev = m.index > 0 ? (t[m.index - 1] as string) : '';
      if ((prev !== '(' && !/\s/.test(prev)) || opensSentence(t, m.index)) continue;
      const name = (m[1] as string).toLowerCase();
      if (name.length >= 3 && !STOP.has(name)) out.add(name);
    }
  return out;
}

/**
 * The same subject, and how: `title`, `path`, `tag`, `words` (with the shared words) or `name` (a name both hold:
 * a replacement naming what it replaces, "relocated from Lisbon"), or undefined.
 */
export function sameSubject(
  a: LifeSubject,
  b: LifeSubject,
): { how: 'title' | 'path' | 'tag' | 'words' | 'name' | 'left' | 'slot'; shared: string[] } | undefined {
  if (a.speaker !== b.speaker) return undefined;
  const wa = contentWords(`${a.speaker === undefined ? a.title : ''} ${a.text}`);
  const wb = contentWords(`${b.speaker === undefined ? b.title : ''} ${b.text}`);
  const shared = [...wa].filter((w) => wb.has(w)).sort();
  if (a.speaker === undefined) {
    if (norm(a.title) !== '' && norm(a.title) === norm(b.title)) return { how: 'title', shared };
    if (a.path !== undefined && a.path === b.path) return { how: 'path', shared };
    // A tag is a topic many memories share (a session, a team): with 2 content words in common, not one.
    if (shared.length >= MEMORY_LIFE_LIMITS.minShared && a.tags.some((t) => b.tags.includes(t)))
      return { how: 'tag', shared };
  }
  const smaller = Math.min(wa.size, wb.size);
  if (shared.length >= MEMORY_LIFE_LIMITS.minShared && shared.length / smaller >= MEMORY_LIFE_LIMITS.wordShare)
    return { how: 'words', shared };
  const nb = namesIn(b.text);
  const names = [...namesIn(a.text)].filter((n) => nb.has(n)).sort();
  if (names.length > 0) return { how: 'name', shared: names };
  if (a.speaker === undefined) return undefined;
  // Turns: the newer names the value it left and the older says it ("quit tennis" / "Saturdays are for tennis").
  const left = [...leftIn(a.text, contentForms(b.text))].sort();
  if (left.length > 0) return { how: 'left', shared: left };
  // Or both say a value (a name) of the same slot ("moved to Denver" / "I live in Lisbon").
  // The older one's slot is named by its words, or by a change's phrase when it said a change ("the offer from").
  const slots = slotsOf(b.text, changeCue(b.text, true) !== undefined);
  const slot = [...slotsOf(a.text, true)].filter((x) => slots.has(x)).sort();
  if (slot.length > 0 && namesIn(a.text).size > 0 && nb.size > 0) return { how: 'slot', shared: slot };
  return undefined;
}

/**
 * The values the newer turn names of the older one's: the names both name, and those it says it left, as the older
 * writes them (lower case: "tennis", not its stem).
 */
function sharedValues(newer: LifeSubject, older: LifeSubject): string[] {
  const names = namesIn(older.text);
  return [
    ...new Set([
      ...[...namesIn(newer.text)].filter((n) => names.has(n)),
      ...leftIn(newer.text, contentForms(older.text)),
    ]),
  ];
}

/**
 * A turn that names only values the older turn names too says the same again ("I've been at Orbital Foods for two
 * years now" after "I joined Orbital Foods"): no replacement, whatever its cue.
 */
function restates(newer: LifeSubject, older: LifeSubject): boolean {
  if (newer.speaker === undefined) return false;
  const names = namesIn(newer.text);
  if (names.size === 0) return false;
  const olderNames = namesIn(older.text);
  if (![...names].every((n) => olderNames.has(n))) return false;
  const olderWords = contentWords(older.text);
  return ![...leftValues(newer.text)].some((w) => olderWords.has(w));
}

/**
 * The identifier-like tokens of a text, lower case: ticket ids (`PROJ-1028`), numbers, versions (`v2.4.1`), dates,
 * hashes: a run of letters, digits and `-_./#:` holding a digit, without the sentence's last dot or colon.
 */
const IDENTIFIER_LIKE = /[\p{L}\p{N}](?:[\p{L}\p{N}_#/:.-]*[\p{L}\p{N}])?/gu;

export function identifiers(text: string): Set<string> {
  const found = new Set<string>();
  for (const m of text.toLowerCase().matchAll(IDENTIFIER_LIKE)) if (/\p{N}/u.test(m[0])) found.add(m[0]);
  return found;
}

/** A text's words with each identifier one word of its digit runs (`v2.4.1` and `2.4.1` alike), for near-identity. */
const wordsOfIdentifiers = (text: string): string[] =>
  words(
    text
      .toLowerCase()
      .replace(IDENTIFIER_LIKE, (m) => (/\p{N}/u.test(m) ? ` id${digitKey(m).replaceAll(',', 'x')} ` : m)),
  );

/**
 * An identifier as its digit runs, leading zeros dropped, as a set (`v2.4.1` and `2.4.1`, `2026-11-28` and
 * `28/11/2026`, `node 20` and `20.x`, `9:30am` and `09:30` are one; `PROJ-1028` and `PROJ-1280` are two).
 */
const digitKey = (identifier: string): string =>
  [...new Set([...identifier.matchAll(/\p{Nd}+/gu)].map((m) => m[0].replace(/^0+(?=\p{Nd})/u, '')))].sort().join(',');

/** Each of two texts names an identifier the other lacks: they are about different things, however alike. */
const distinctIdentifiers = (a: string, b: string): boolean => {
  const ia = new Set([...identifiers(a)].map(digitKey));
  const ib = new Set([...identifiers(b)].map(digitKey));
  return [...ia].some((x) => !ib.has(x)) && [...ib].some((x) => !ia.has(x));
};

/**
 * Near-identical: the same words (Jaccard ≥ `duplicate`) in the texts, or the texts written alike, unless each names
 * an identifier the other lacks (`PROJ-1028` / `PROJ-1280`, two versions, two dates: two tickets, two releases).
 * Turns: the same speaker saying the same words again, at least `turnWords` of them (a "yes" twice is two turns).
 */
export function nearIdentical(a: LifeSubject, b: LifeSubject): boolean {
  if (a.speaker !== undefined || b.speaker !== undefined)
    return a.speaker === b.speaker && norm(a.text) === norm(b.text) && words(a.text).length >= LIMITS.turnWords;
  if (norm(a.text) === norm(b.text) && norm(a.text) !== '') return true;
  const wa = new Set(wordsOfIdentifiers(a.text));
  const wb = new Set(wordsOfIdentifiers(b.text));
  return (
    wa.size >= 3 &&
    wb.size >= 3 &&
    jaccard(wa, wb) >= MEMORY_LIFE_LIMITS.duplicate &&
    !distinctIdentifiers(a.text, b.text)
  );
}

/**
 * What the newer of two memories does to the older: repeats it (`duplicate`; a turn only word for word), replaces it
 * (the same subject and a change cue in the newer: `supersedes`), or disagrees with it, undecided (the same title,
 * most content words shared and each with a word of its own, no cue: `conflict`); undefined when they are about
 * different things or one simply adds to the other. A turn's change is tied to a value the older one holds
 * (changeBeside) and said by its speaker; `known`: the names a turn may address (the dialogue's speakers: addressee).
 * `holds`: whether a turn's text holds a value as its speaker's (older-turns' heldIn); given, a change tied to a value
 * the older turn already holds, and the newer holds too, is the same fact said again (a confirmation: "I started at
 * Globex on June 1st" after "I left Acme and now I work at Globex"), the later word on it, not its replacement.
 */
export function decideLife(
  newer: LifeSubject,
  older: LifeSubject,
  known?: ReadonlySet<string>,
  holds?: (text: string, value: string) => boolean,
): LifeDecision | undefined {
  if (nearIdentical(newer, older)) return { kind: 'duplicate', why: `near-identical to ${older.id}` };
  const subject = sameSubject(newer, older);
  if (subject === undefined) return undefined;
  const about =
    subject.how === 'words' || subject.how === 'name'
      ? `the same subject (${subject.shared.join(', ')})`
      : subject.how === 'left'
        ? `the value it left (${subject.shared.join(', ')})`
        : `the same ${subject.how}${subject.shared.length > 0 ? ` (${subject.shared.join(', ')})` : ''}`;
  // A turn's change is tied to a value the older holds (a name both name, the value left: changeBeside), said by its
  // speaker; naming none, a change of the speaker's (ownChangeCue: a turn's cues in a slot both name, "I moved to
  // Denver" after Lisbon). A note's cue is anywhere.
  const values = newer.speaker === undefined ? [] : sharedValues(newer, older);
  const olderWords = contentWords(older.text);
  const both = [...contentWords(newer.text)].filter((w) => olderWords.has(w));
  const slots = slotsOf(older.text);
  const slot = subject.how === 'slot' || [...slotsOf(newer.text, true)].some((x) => slots.has(x));
  const tied = newer.speaker !== undefined && values.length > 0 ? changeBeside(newer.text, values, 3, both) : undefined;
  const cue =
    newer.speaker === undefined
      ? (changeCue(newer.text) ?? changeCue(newer.title))
      : (tied?.cue ?? (values.length === 0 ? ownChangeCue(newer.text, slot) : undefined));
  // The change is toward a value the older turn holds already, and each value the older holds the newer holds too,
  // leaving none of the older's words: the older's value is not what changed (the same fact again). An older turn
  // holding another value besides ("I work at Initech, and Globex is our biggest client") held what changed.
  const again =
    tied !== undefined &&
    !tied.left &&
    holds?.(older.text, tied.value) === true &&
    [...namesIn(older.text)].every((v) => !holds(older.text, v) || holds(newer.text, v)) &&
    ![...leftValues(newer.text)].some((w) => olderWords.has(w));
  const turnsState =
    newer.speaker === undefined || (statesOwnFact(newer.text, known) && statesOwnFact(older.text, known));
  if (cue !== undefined && turnsState && !restates(newer, older) && !again)
    return { kind: 'supersedes', why: `${newer.id} says "${cue}" about ${about}` };
  if (subject.how === 'title' && norm(newer.text) !== norm(older.text)) {
    // A number of any length is a value ("24 hours" / "12 hours"), though too short to be a content word.
    const valueWords = (text: string) => new Set([...contentWords(text), ...words(text).filter((w) => /\d/.test(w))]);
    const wa = valueWords(newer.text);
    const wb = valueWords(older.text);
    const shared = [...wa].filter((w) => wb.has(w)).length;
    // Each says something the other does not (a value of its own): else one only repeats or adds to the other.
    const ownValues = shared < wa.size && shared < wb.size;
    if (ownValues && shared / Math.max(1, Math.min(wa.size, wb.size)) >= MEMORY_LIFE_LIMITS.wordShare)
      return {
        kind: 'conflict',
        why: `${newer.id} and ${older.id} say different things about ${about}, no change cue`,
      };
  }
  return undefined;
}

/** Whether a memory (true from `from`, until its `validTo`) was true at `asOf`. */
export function validAt(life: MemoryLife | undefined, from: number, asOf: number): boolean {
  return from <= asOf && (life?.validTo === undefined || life.validTo > asOf);
}

/**
 * Why a memory that nothing superseded is not true at the time recall asks about: its `validTo` has passed
 * (`ended`), or its `validFrom` is still ahead (`notYet`, a planned change).
 */
export type LifeWindow = 'ended' | 'notYet';

const current = { status: 'current' as const, factor: 1 };

/**
 * How recall counts a memory's life: its status, the factor on its score (`supersededFactor` when superseded, else
 * 1). As of a date (`asOf`), a memory superseded after it was current then (the dates asked filter the rest). Asked
 * about now, a question is answered as of now: a memory superseded by a change still ahead is current until then, and
 * one whose validity window does not hold `now` counts as superseded, `window` saying why.
 */
export function lifeStatus(
  life: MemoryLife | undefined,
  when: { asOf: number } | { now: number },
): { status: 'current' | 'superseded' | 'conflict'; factor: number; window?: LifeWindow } {
  const superseded = { status: 'superseded' as const, factor: MEMORY_LIFE_LIMITS.supersededFactor };
  const at = 'asOf' in when ? when.asOf : when.now;
  const ended = life?.validTo !== undefined && life.validTo <= at;
  if (life?.status === 'superseded') return ended || life.validTo === undefined ? superseded : { ...current };
  if ('now' in when && life?.validFrom !== undefined && life.validFrom > at) return { ...superseded, window: 'notYet' };
  if ('now' in when && ended) return { ...superseded, window: 'ended' };
  return life?.status === 'conflict' ? { status: 'conflict', factor: 1 } : { ...current };
}

/** A label as a memory's status leaves it: a superseded memory is `low`, a conflict one step lower. */
export function labelForStatus(label: ConfidenceLabel, status: 'current' | 'superseded' | 'conflict'): ConfidenceLabel {
  if (status === 'superseded') return 'low';
  if (status === 'conflict') return label === 'high' ? 'medium' : 'low';
  return label;
}

/**
 * The title a context line shows: a turn's title is only its speaker, so its line carries the speaker, the day and
 * what was said (`Caroline, 2023-05-07: I went to the support group …`); any other memory keeps its title.
 */
export function contextTitle(result: {
  title: string;
  snippet: string;
  times: { at: string };
  turn?: { speaker: string };
}): string {
  return result.turn === undefined
    ? result.title
    : `${result.turn.speaker}, ${result.times.at.slice(0, 10)}: ${result.snippet}`;
}

interface ContextResult {
  id: string;
  category: string;
  title: string;
  snippet: string;
  times: { at: string; validFrom?: string; validTo?: string };
  turn?: { speaker: string };
  tags: readonly string[];
  label: ConfidenceLabel;
  path: string | null;
  status: 'current' | 'superseded' | 'conflict';
  life?: { supersededBy?: string; conflictsWith?: readonly string[] };
  parts?: { newerTurn?: { id: string }; window?: LifeWindow };
}

/**
 * Why a superseded or conflicting result may no longer hold, in a few words: what replaced it (its title when it
 * is among the results, not a turn, and titled otherwise than this one; else its id) and since when, or what it
 * disagrees with: by id, and its title when it is among the results, so that two conflicting memories of one title
 * name each other apart (`in conflict with mem-…: Deploy target`); one whose validity window does not hold the time
 * asked about, when it ended (`ended 2025-09-01`) or from when it holds (`not yet true: from 2027-03-01`).
 */
function statusNote(r: ContextResult, results: readonly ContextResult[]): string | undefined {
  const memory = (id: string) => results.find((o) => o.id === id && o.turn === undefined);
  const named = (id: string) => {
    const other = memory(id);
    return other === undefined || other.title === r.title ? id : other.title;
  };
  const withTitle = (id: string) => {
    const other = memory(id);
    return other === undefined ? id : `${id}: ${other.title}`;
  };
  if (r.status === 'superseded' && r.parts?.window === 'notYet')
    return `not yet true: from ${(r.times.validFrom ?? r.times.at).slice(0, 10)}`;
  if (r.status === 'superseded' && r.parts?.window === 'ended') return `ended ${r.times.validTo?.slice(0, 10)}`;
  if (r.status === 'superseded') {
    const by = r.life?.supersededBy;
    const when = r.times.validTo?.slice(0, 10);
    return `superseded${by === undefined ? '' : ` by ${named(by)}`}${when === undefined ? '' : `, ${when}`}`;
  }
  if (r.status !== 'conflict') return undefined;
  const newer = r.parts?.newerTurn?.id;
  if (newer !== undefined) return `likely replaced by ${named(newer)}`;
  const with_ = r.life?.conflictsWith ?? [];
  return with_.length === 0 ? 'in conflict' : `in conflict with ${with_.map(withTitle).join('; ')}`;
}

/**
 * What the agent's context is made of: recall's results, a superseded memory left out unless `all` (issue 23);
 * a superseded (kept with `all`) or conflicting one says so (`note`): a conflict is always marked.
 */
export function agentContextLines(results: readonly ContextResult[], all = false): ContextLine[] {
  return results.filter((r) => all || r.status !== 'superseded').map((r) => contextLineOf(r, results));
}

/** One result's line of the agent's context; `results` name the memories its note points to. */
export function contextLineOf(r: ContextResult, results: readonly ContextResult[]): ContextLine {
  const note = statusNote(r, results);
  return {
    category: r.category,
    title: contextTitle(r),
    tags: r.tags,
    label: r.label,
    ...(r.path === null ? {} : { path: r.path }),
    ...(note === undefined ? {} : { note }),
  };
}
