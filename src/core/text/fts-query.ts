/**
 * @module core/text/fts-query
 * Builds the FTS5 MATCH expression for user text (`porter unicode61` tables), so user text never reaches
 * MATCH raw (SPEC §8: tokens quoted; `a-b`, `a.b`, paths become phrases). Pure. Chunks of words joined by
 * `-`, `_`, `.`, `/`, `:` or `\` become phrases; everything else separates, so the user's FTS5 syntax
 * has no effect. camelCase also matches unsplit (`("refresh token" OR "refreshtoken")`); lone stop
 * words drop; groups are de-duplicated and capped ({@link MAX_FTS_GROUPS}, {@link MAX_PHRASE_WORDS},
 * {@link MAX_WORD_LENGTH}). Every word is double-quoted and holds only letters, digits and marks, so the
 * only syntax is ours; groups are joined by `OR` or `AND`. Nothing left → `undefined` (no rows).
 */

import { STOP_WORDS } from './words.js';

/** At most this many groups (distinct words and phrases) go into one query. */
export const MAX_FTS_GROUPS = 64;
/** A phrase keeps at most its first this-many words. */
export const MAX_PHRASE_WORDS = 16;
/** A word longer than this many UTF-16 units is treated as a separator. */
export const MAX_WORD_LENGTH = 128;

/** How the groups of a query are combined. */
export type FtsQueryMode = 'or' | 'and';

/** Options of {@link buildFtsQuery}. */
export interface FtsQueryOptions {
  /** `'or'` (default): any group may match, BM25 ranks. `'and'`: every group must match. */
  mode?: FtsQueryMode;
  /**
   * Which patterns read the text: `'auto'` takes the ASCII ones for ASCII text (the same result,
   * sooner), `'unicode'` always the Unicode ones. @default 'auto'
   */
  patterns?: 'auto' | 'unicode';
}

/** A safe FTS5 query and what it is made of. */
export interface FtsQuery {
  /** The expression for `MATCH ?` (always bind it as a parameter). */
  match: string;
  /** The distinct single words searched for (lower-case, stop words dropped). */
  terms: string[];
  /** The distinct multi-word phrases searched for, camelCase split (`refreshToken` → `['refresh', 'token']`). */
  phrases: string[][];
}

/** The patterns that read a text: chunks, the words of a chunk, camelCase boundaries inside a word. */
interface TextPatterns {
  chunk: RegExp;
  word: RegExp;
  /** lower|digit → Upper, and the last capital of an acronym before a capitalised word (`JWTToken`). */
  camel: RegExp;
}

/** Made on first use: even building a Unicode property class costs a hook that never needs it. */
let unicodePatterns: TextPatterns | undefined;
const UNICODE_PATTERNS = (): TextPatterns =>
  (unicodePatterns ??= {
    chunk: /[\p{L}\p{N}][\p{L}\p{N}\p{M}]*(?:[-_./:\\]+[\p{L}\p{N}][\p{L}\p{N}\p{M}]*)*/gu,
    word: /[\p{L}\p{N}][\p{L}\p{N}\p{M}]*/gu,
    camel: /(?<=[\p{Ll}\p{N}]\p{M}*)(?=\p{Lu})|(?<=\p{Lu}\p{M}*)(?=\p{Lu}\p{M}*\p{Ll})/u,
  });

/**
 * The same patterns for ASCII text, where they match exactly what the Unicode ones match (`\p{L}`
 * is `A-Za-z` there, `\p{N}` is `0-9`, `\p{Lu}` and `\p{Ll}` are `A-Z` and `a-z`, and no `\p{M}`
 * is ASCII): the Unicode property classes cost a few milliseconds to compile on first use, which a
 * hook that runs on every prompt pays each time.
 */
const ASCII_PATTERNS: TextPatterns = {
  chunk: /[A-Za-z0-9][A-Za-z0-9]*(?:[-_./:\\]+[A-Za-z0-9][A-Za-z0-9]*)*/g,
  word: /[A-Za-z0-9][A-Za-z0-9]*/g,
  camel: /(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/,
};

const ASCII = /^[\x00-\x7f]*$/;

interface Group {
  /** Words with camelCase split: the meaning, reported in `terms` / `phrases`. */
  split: string[];
  /** Words as unicode61 sees them (camelCase kept whole), or undefined when equal to `split`. */
  joined: string[] | undefined;
}

/**
 * The safe FTS5 MATCH expression for `text` (rules in the module comment), or `undefined` when no
 * searchable word is left. Never throws; the result never makes FTS5 throw.
 */
export function buildFtsQuery(text: string, options: FtsQueryOptions = {}): FtsQuery | undefined {
  const mode: FtsQueryMode = options.mode === 'and' ? 'and' : 'or';
  const groups: Group[] = [];
  const seen = new Set<string>();
  const add = (group: Group): void => {
    const key = `${group.split.join(' ')}\u0000${group.joined?.join(' ') ?? ''}`;
    if (seen.has(key)) return;
    seen.add(key);
    groups.push(group);
  };

  const source = String(text);
  // ASCII text is its own NFC form.
  const patterns = options.patterns !== 'unicode' && ASCII.test(source) ? ASCII_PATTERNS : UNICODE_PATTERNS();
  for (const chunk of (patterns === ASCII_PATTERNS ? source : source.normalize('NFC')).matchAll(patterns.chunk)) {
    if (groups.length >= MAX_FTS_GROUPS) break;
    // An overlong word splits the chunk into runs of ordinary words.
    let run: string[] = [];
    for (const [word] of chunk[0].matchAll(patterns.word)) {
      if (word.length > MAX_WORD_LENGTH) {
        pushRun(run, add, patterns.camel);
        run = [];
      } else {
        run.push(word);
      }
    }
    pushRun(run, add, patterns.camel);
  }

  const kept = groups.slice(0, MAX_FTS_GROUPS);
  if (kept.length === 0) return undefined;

  const alternatives = kept.map((g) => (g.joined === undefined ? [quote(g.split)] : [quote(g.split), quote(g.joined)]));
  const match =
    mode === 'or'
      ? [...new Set(alternatives.flat())].join(' OR ')
      : alternatives.map((a) => (a.length === 1 ? a[0] : `(${a.join(' OR ')})`)).join(' AND ');

  const terms = [...new Set(kept.filter((g) => g.split.length === 1).map((g) => g.split[0] as string))];
  const phraseKeys = new Set<string>();
  const phrases: string[][] = [];
  for (const g of kept) {
    if (g.split.length < 2) continue;
    const key = g.split.join(' ');
    if (phraseKeys.has(key)) continue;
    phraseKeys.add(key);
    phrases.push(g.split);
  }
  return { match, terms, phrases };
}

/**
 * A safe OR-query over the words and phrases of `text`, or `undefined` when nothing searchable is
 * left: exactly `buildFtsQuery(text)?.match`.
 */
export function ftsOrQuery(text: string): string | undefined {
  return buildFtsQuery(text)?.match;
}

/** Turns a run of raw words (one chunk, original case) into a group, unless it is a lone stop word. */
function pushRun(raw: string[], add: (group: Group) => void, camel: RegExp): void {
  if (raw.length === 0) return;
  const joined = raw.map((w) => w.toLowerCase()).slice(0, MAX_PHRASE_WORDS);
  const split = raw
    .flatMap((w) => w.split(camel))
    .filter((w) => w.length > 0)
    .map((w) => w.toLowerCase())
    .slice(0, MAX_PHRASE_WORDS);
  if (split.length === 1 && STOP_WORDS.has(split[0] as string)) return;
  const same = split.length === joined.length && split.every((w, i) => w === joined[i]);
  add({ split, joined: same ? undefined : joined });
}

/** One FTS5 string: the words hold only letters, digits and marks, so no quote can occur inside. */
function quote(words: readonly string[]): string {
  return `"${words.join(' ').replaceAll('"', '')}"`;
}
