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
  '\\b(moved to|moved from|moved|switched|switching|now|no longer|instead|replaced|replacing|migrated|changed to|' +
    'anymore|no more|relocated|swapped|dropped|gave up|given up|quit)\\b',
  'i',
);

/** The change cue `text` holds ("moved to", "no longer" …), lower case, or undefined. */
export function changeCue(text: string): string | undefined {
  return CUE.exec(text)?.[1]?.toLowerCase();
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
 * sentence's first word, not "I".
 */
export function namesIn(text: string): Set<string> {
  const names = new Set<string>();
  for (const m of text.matchAll(/(^|[.!?:;]\s+|\s|\()(\p{Lu}[\p{L}\p{N}]{2,})/gu)) {
    const before = m[1] ?? '';
    if (before === '' || /[.!?:;]/.test(before)) continue;
    names.add((m[2] as string).toLowerCase());
  }
  return names;
}

/**
 * The same subject, and how: `title`, `path`, `tag`, `words` (with the shared words) or `name` (a name both hold:
 * a replacement naming what it replaces, "relocated from Lisbon"), or undefined.
 */
export function sameSubject(
  a: LifeSubject,
  b: LifeSubject,
): { how: 'title' | 'path' | 'tag' | 'words' | 'name'; shared: string[] } | undefined {
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
  return undefined;
}

/**
 * Near-identical: the same words (Jaccard ≥ `duplicate`) in the texts, or the texts written alike. Turns: the same
 * speaker saying the same words again, at least `turnWords` of them (a "yes" twice is two turns).
 */
export function nearIdentical(a: LifeSubject, b: LifeSubject): boolean {
  if (a.speaker !== undefined || b.speaker !== undefined)
    return a.speaker === b.speaker && norm(a.text) === norm(b.text) && words(a.text).length >= LIMITS.turnWords;
  if (norm(a.text) === norm(b.text) && norm(a.text) !== '') return true;
  const wa = new Set(words(a.text));
  const wb = new Set(words(b.text));
  return wa.size >= 3 && wb.size >= 3 && jaccard(wa, wb) >= MEMORY_LIFE_LIMITS.duplicate;
}

/**
 * What the newer of two memories does to the older: repeats it (`duplicate`; a turn only word for word), replaces it
 * (the same subject and a change cue in the newer: `supersedes`), or disagrees with it, undecided (the same title,
 * most content words shared and each with a word of its own, no cue: `conflict`); undefined when they are about
 * different things or one simply adds to the other.
 */
export function decideLife(newer: LifeSubject, older: LifeSubject): LifeDecision | undefined {
  if (nearIdentical(newer, older)) return { kind: 'duplicate', why: `near-identical to ${older.id}` };
  const subject = sameSubject(newer, older);
  if (subject === undefined) return undefined;
  const about =
    subject.how === 'words' || subject.how === 'name'
      ? `the same subject (${subject.shared.join(', ')})`
      : `the same ${subject.how}${subject.shared.length > 0 ? ` (${subject.shared.join(', ')})` : ''}`;
  const cue = changeCue(newer.text) ?? changeCue(newer.speaker === undefined ? newer.title : '');
  if (cue !== undefined) return { kind: 'supersedes', why: `${newer.id} says "${cue}" about ${about}` };
  if (subject.how === 'title' && norm(newer.text) !== norm(older.text)) {
    const wa = contentWords(newer.text);
    const wb = contentWords(older.text);
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
 * How recall counts a memory's life: its status (as of `asOf`: a memory superseded later was current then), the
 * factor on its score (`supersededFactor` when superseded, else 1).
 */
export function lifeStatus(
  life: MemoryLife | undefined,
  asOf?: number,
): { status: 'current' | 'superseded' | 'conflict'; factor: number } {
  const status =
    life?.status === undefined
      ? 'current'
      : life.status === 'superseded' && asOf !== undefined && life.validTo !== undefined && life.validTo > asOf
        ? 'current'
        : life.status;
  return { status, factor: status === 'superseded' ? MEMORY_LIFE_LIMITS.supersededFactor : 1 };
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

/** What the agent's context is made of: recall's results, a superseded memory left out unless `all` (issue 23). */
export function agentContextLines(
  results: readonly {
    category: string;
    title: string;
    snippet: string;
    times: { at: string };
    turn?: { speaker: string };
    tags: readonly string[];
    label: ConfidenceLabel;
    path: string | null;
    status: 'current' | 'superseded' | 'conflict';
  }[],
  all = false,
): ContextLine[] {
  return results
    .filter((r) => all || r.status !== 'superseded')
    .map((r) => ({
      category: r.category,
      title: contextTitle(r),
      tags: r.tags,
      label: r.label,
      ...(r.path === null ? {} : { path: r.path }),
    }));
}
