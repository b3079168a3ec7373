/**
 * @module core/text/fts5
 * SQLite FTS5's full-text search reproduced for the PostgreSQL store, so both stores find and rank the
 * same rows with the same `bm25()` (checked against SQLite in fts5.test.ts, to 1e-9). Pure. Each row
 * keeps `fts5Document(columns)`; {@link parseFts5Match} reads a MATCH expression of `buildFtsQuery`'s
 * subset (quoted phrases, `AND`, `OR`, parentheses; no `AND` inside `OR`), whose `tsquery` finds
 * candidates, `matches` decides exactly and {@link fts5Bm25} scores from FTS5's table statistics.
 * Limits: a row beyond PostgreSQL's positions (16383, 256 per lexeme) is indexed unpositioned ({@link
 * FTS5_UNPOSITIONED}; still found, a phrase's IDF may differ); a token over 2046 bytes by its first 2000 + `#`.
 */

import { CredenceError } from '../errors.js';
import { fts5Tokens } from './fts5-tokenizer.js';

export { fts5Tokens } from './fts5-tokenizer.js';

/** The largest position PostgreSQL stores in a tsvector (larger ones are silently clamped). */
export const PG_MAX_POSITION = 16383;
/** PostgreSQL keeps at most this many positions per lexeme (silently drops the rest). */
export const PG_MAX_POSITIONS_PER_LEXEME = 256;
/** PostgreSQL rejects a lexeme longer than this many UTF-8 bytes. */
export const PG_MAX_LEXEME_BYTES = 2046;
/** The lexeme that marks a row indexed without positions. `#` is never part of a token. */
export const FTS5_UNPOSITIONED = '#unpositioned';

/** FTS5's bm25 constants (fts5_aux.c): term-frequency saturation and length normalisation. */
export const FTS5_BM25 = Object.freeze({ k1: 1.2, b: 0.75, minIdf: 1e-6 });

// ---- documents --------------------------------------------------------------------------------

/** A row's full-text entry for PostgreSQL. */
export interface Fts5Document {
  /** A tsvector literal (cast with `::tsvector`): every token with its 1-based positions. */
  tsvector: string;
  /** FTS5's document length: the row's token count over all columns (bm25's D). */
  length: number;
  /** False when the row exceeded PostgreSQL's position limits and was indexed without positions. */
  positional: boolean;
}

/**
 * The tsvector literal and FTS5 length of a row's columns (in the FTS5 table's column order).
 * Columns are laid out one after another with a one-position gap, so a phrase (`<->`) never spans
 * two columns, as in FTS5. Over PostgreSQL's position limits: no positions (module comment).
 */
export function fts5Document(columns: readonly string[]): Fts5Document {
  const positions = new Map<string, number[]>();
  let position = 0;
  let length = 0;
  let overflow = false;
  for (const column of columns) {
    const tokens = fts5Tokens(column);
    length += tokens.length;
    for (const token of tokens) {
      position++;
      const lexeme = pgLexeme(token);
      const list = positions.get(lexeme);
      if (list === undefined) positions.set(lexeme, [position]);
      else if (list.push(position) > PG_MAX_POSITIONS_PER_LEXEME) overflow = true;
    }
    position++;
  }
  if (position - 1 > PG_MAX_POSITION) overflow = true;
  const entries: string[] = [];
  if (overflow) {
    entries.push(quoteLexeme(FTS5_UNPOSITIONED));
    for (const lexeme of positions.keys()) entries.push(quoteLexeme(lexeme));
  } else {
    for (const [lexeme, list] of positions) entries.push(`${quoteLexeme(lexeme)}:${list.join(',')}`);
  }
  return { tsvector: entries.join(' '), length, positional: !overflow };
}

/** The lexeme PostgreSQL indexes for a token: the token, or its first ≤ 2000 bytes + `#` when too long. */
export function pgLexeme(token: string): string {
  // A UTF-16 code unit is at most 3 UTF-8 bytes: most tokens need no counting.
  if (token.length * 3 <= PG_MAX_LEXEME_BYTES || utf8Prefix(token, PG_MAX_LEXEME_BYTES) === token.length) return token;
  return `${token.slice(0, utf8Prefix(token, 2000))}#`;
}

/** The length (in code units) of the longest prefix of `text` within `maxBytes` UTF-8 bytes. */
function utf8Prefix(text: string, maxBytes: number): number {
  let bytes = 0;
  let end = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0) as number;
    bytes += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    if (bytes > maxBytes) break;
    end += ch.length;
  }
  return end;
}

/** A quoted lexeme for a tsvector or tsquery literal (`'` doubled, `\` escaped). */
function quoteLexeme(lexeme: string): string {
  return `'${lexeme.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;
}

// ---- MATCH expressions ------------------------------------------------------------------------

/** A parsed FTS5 MATCH expression (the subset of the module comment). */
export interface Fts5Match {
  /**
   * Every phrase, as its tokens, in the order FTS5 numbers them for bm25: expression order,
   * duplicates kept, empty phrases (`[]`) kept.
   */
  phrases: string[][];
  /**
   * A tsquery literal (cast with `::tsquery`) that every matching row's tsvector satisfies (phrases
   * as `<->` chains, OR as `|`, AND as `&`); undefined when nothing can match.
   */
  tsquery: string | undefined;
  /** Per phrase: a tsquery literal for the rows holding it (bm25's IDF), undefined for an empty one. */
  phraseTsqueries: (string | undefined)[];
  /** Does a row (its columns' tokens, from fts5Tokens, in table order) match, as FTS5 decides? */
  matches(columns: readonly (readonly string[])[]): boolean;
  /** Per phrase: its instances in the row, summed over columns, as FTS5's bm25 counts them. */
  hits(columns: readonly (readonly string[])[]): number[];
  /** True when the expression is one phrase or an OR of phrases: a row matches when it holds any of them. */
  anyPhrase: boolean;
}

type Node = { kind: 'phrase'; index: number } | { kind: 'and' | 'or'; children: Node[] };

type Lexeme = { kind: 'string'; text: string; at: number } | { kind: '(' | ')' | 'AND' | 'OR' | 'end'; at: number };

/**
 * Parses an FTS5 MATCH expression of the supported subset (quoted strings, AND, OR, parentheses;
 * module comment) into phrases, tsqueries and an evaluator. Anything else is a CredenceError
 * `INVALID_INPUT` naming the problem and where it is.
 */
export function parseFts5Match(match: string): Fts5Match {
  const lexemes = lex(match);
  const phrases: string[][] = [];
  let k = 0;
  const peek = (): Lexeme => lexemes[k] as Lexeme;
  const fail = (what: string, at: number): never => invalid(match, what, at);
  const describe = (l: Lexeme): string =>
    l.kind === 'end'
      ? 'unexpected end'
      : l.kind === 'string'
        ? 'a string where an operator belongs (implicit AND)'
        : `unexpected ${l.kind}`;

  // Each level returns its node and whether an AND is inside it (refused under an OR).
  const parseOr = (): { node: Node; hasAnd: boolean } => {
    const first = parseAnd();
    const children = [first];
    while (peek().kind === 'OR') {
      k++;
      children.push(parseAnd());
    }
    if (children.length === 1) return first;
    if (children.some((c) => c.hasAnd))
      fail(
        'AND inside OR (FTS5 counts its phrase instances by index position, not reproducible row by row)',
        peek().at,
      );
    return {
      node: { kind: 'or', children: children.flatMap((c) => (c.node.kind === 'or' ? c.node.children : [c.node])) },
      hasAnd: false,
    };
  };
  const parseAnd = (): { node: Node; hasAnd: boolean } => {
    const first = parsePrimary();
    const children = [first];
    while (peek().kind === 'AND') {
      k++;
      children.push(parsePrimary());
    }
    if (children.length === 1) return first;
    return {
      node: { kind: 'and', children: children.flatMap((c) => (c.node.kind === 'and' ? c.node.children : [c.node])) },
      hasAnd: true,
    };
  };
  const parsePrimary = (): { node: Node; hasAnd: boolean } => {
    const l = peek();
    if (l.kind === 'string') {
      k++;
      phrases.push(fts5Tokens(l.text));
      return { node: { kind: 'phrase', index: phrases.length - 1 }, hasAnd: false };
    }
    if (l.kind === '(') {
      k++;
      const inner = parseOr();
      if (peek().kind !== ')') fail(`${describe(peek())} (expected ")")`, peek().at);
      k++;
      return inner;
    }
    return fail(`${describe(l)} (expected a "string" or "(")`, l.at);
  };

  const { node: root } = parseOr();
  if (peek().kind !== 'end') fail(describe(peek()), peek().at);
  return compile(root, phrases);
}

function invalid(match: string, what: string, at: number): never {
  throw new CredenceError(
    'INVALID_INPUT',
    `FTS5 MATCH ${JSON.stringify(match)}: ${what} at offset ${at}; ` +
      'only "quoted" strings, AND, OR and ( ) are supported',
    {
      details: { match, offset: at },
    },
  );
}

/** Splits a MATCH expression into strings, parentheses and AND/OR; refuses everything else. */
function lex(match: string): Lexeme[] {
  const out: Lexeme[] = [];
  const fail = (what: string, at: number): never => invalid(match, what, at);
  let i = 0;
  while (i < match.length) {
    const c = match[i] as string;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
    } else if (c === '"') {
      const at = i;
      let text = '';
      i++;
      for (;;) {
        const end = match.indexOf('"', i);
        if (end < 0) fail('unterminated string', at);
        text += match.slice(i, end);
        if (match[end + 1] === '"') {
          text += '"';
          i = end + 2;
        } else {
          i = end + 1;
          break;
        }
      }
      out.push({ kind: 'string', text, at });
    } else if (c === '(' || c === ')') {
      out.push({ kind: c, at: i++ });
    } else if (isBareword(c.charCodeAt(0))) {
      const at = i;
      while (i < match.length && isBareword(match.charCodeAt(i))) i++;
      const word = match.slice(at, i);
      if (word === 'AND' || word === 'OR') out.push({ kind: word, at });
      else if (word === 'NOT' || word === 'NEAR') fail(`unsupported operator ${word}`, at);
      else fail(`bare word ${JSON.stringify(word)} (quote it)`, at);
    } else {
      fail(`unsupported character ${JSON.stringify(c)}`, i);
    }
  }
  if (out.length === 0) fail('empty expression', 0);
  out.push({ kind: 'end', at: match.length });
  return out;
}

/** FTS5's bare-word characters: ASCII letters, digits, `_`, U+001A, and everything non-ASCII. */
function isBareword(c: number): boolean {
  return c >= 0x80 || (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 0x1a;
}

/** Builds the tsqueries and the evaluator of a parsed expression. */
function compile(root: Node, phrases: string[][]): Fts5Match {
  const phraseTsqueries = phrases.map((p) => phraseTsquery(p));
  const toTsquery = (node: Node): string | undefined => {
    if (node.kind === 'phrase') return phraseTsqueries[node.index];
    const parts = node.children.map(toTsquery);
    if (node.kind === 'and') return parts.includes(undefined) ? undefined : `(${parts.join(' & ')})`;
    const some = parts.filter((p): p is string => p !== undefined);
    return some.length === 0 ? undefined : some.length === 1 ? some[0] : `(${some.join(' | ')})`;
  };

  // Phrases by first token, so that one pass over a column finds every phrase instance.
  const byFirst = new Map<string, number[]>();
  phrases.forEach((p, i) => {
    if (p.length === 0) return;
    const first = p[0] as string;
    const list = byFirst.get(first);
    if (list === undefined) byFirst.set(first, [i]);
    else list.push(i);
  });
  const hits = (columns: readonly (readonly string[])[]): number[] => {
    const counts = new Array<number>(phrases.length).fill(0);
    for (const tokens of columns) {
      for (let i = 0; i < tokens.length; i++) {
        const starting = byFirst.get(tokens[i] as string);
        if (starting === undefined) continue;
        for (const p of starting) {
          const phrase = phrases[p] as string[];
          if (i + phrase.length > tokens.length) continue;
          let j = 1;
          while (j < phrase.length && tokens[i + j] === phrase[j]) j++;
          if (j === phrase.length) counts[p] = (counts[p] as number) + 1;
        }
      }
    }
    return counts;
  };
  const evaluate = (node: Node, counts: readonly number[]): boolean => {
    if (node.kind === 'phrase') return (counts[node.index] as number) > 0;
    return node.kind === 'and'
      ? node.children.every((c) => evaluate(c, counts))
      : node.children.some((c) => evaluate(c, counts));
  };

  return {
    phrases,
    tsquery: toTsquery(root),
    phraseTsqueries,
    matches: (columns) => evaluate(root, hits(columns)),
    hits,
    anyPhrase: root.kind === 'phrase' || (root.kind === 'or' && root.children.every((c) => c.kind === 'phrase')),
  };
}

/**
 * One phrase's tsquery: its lexemes as a `<->` chain, or, for a row indexed without positions,
 * all of them (`'a' <-> 'b' | '#unpositioned' & 'a' & 'b'`). Undefined for an empty phrase.
 */
function phraseTsquery(tokens: readonly string[]): string | undefined {
  if (tokens.length === 0) return undefined;
  const lexemes = tokens.map((t) => quoteLexeme(pgLexeme(t)));
  if (lexemes.length === 1) return lexemes[0];
  return `(${lexemes.join(' <-> ')} | ${quoteLexeme(FTS5_UNPOSITIONED)} & ${lexemes.join(' & ')})`;
}

// ---- bm25 -------------------------------------------------------------------------------------

/** What {@link fts5Bm25} needs: the row's counts and the whole table's statistics. */
export interface Fts5Bm25Input {
  /** Per phrase: its instances in the row (Fts5Match.hits). */
  hits: readonly number[];
  /** The row's token count over all columns (Fts5Document.length). */
  length: number;
  /** The number of rows in the table (all scopes: FTS5's statistics are table-wide). */
  rows: number;
  /** The token count of the whole table (the sum of every row's length). */
  totalLength: number;
  /** Per phrase: the number of rows of the table holding it (0 for an empty phrase). */
  rowsWithPhrase: readonly number[];
}

/**
 * FTS5's `bm25()` with every column weight 1, operation for operation as fts5_aux.c computes it:
 * `-Σ idf·f·(k1+1) / (f + k1·(1 − b + b·D/avgdl))` with avgdl = totalLength / rows and
 * idf = ln((N − n + 0.5) / (n + 0.5)), raised to 1e-6 when not positive. Negative; lower is better.
 */
export function fts5Bm25(input: Fts5Bm25Input): number {
  const { hits, length, rows, totalLength, rowsWithPhrase } = input;
  if (hits.length !== rowsWithPhrase.length) {
    throw new CredenceError(
      'INVALID_INPUT',
      `fts5Bm25: ${hits.length} hit counts for ${rowsWithPhrase.length} phrases`,
    );
  }
  const { k1, b, minIdf } = FTS5_BM25;
  const avgdl = totalLength / rows;
  const D = length;
  let score = 0;
  for (let i = 0; i < hits.length; i++) {
    const nHit = rowsWithPhrase[i] as number;
    let idf = Math.log((rows - nHit + 0.5) / (nHit + 0.5));
    if (idf <= 0) idf = minIdf;
    const f = hits[i] as number;
    score += idf * ((f * (k1 + 1.0)) / (f + k1 * (1 - b + (b * D) / avgdl)));
  }
  return -1.0 * score;
}
