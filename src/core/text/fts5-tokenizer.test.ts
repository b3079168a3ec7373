import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { fts5Fold, fts5Tokens, FTS5_PORTER_MAX_TOKEN, isTokenChar, porterStem } from './fts5-tokenizer.js';

// The oracle: SQLite's own FTS5, through an instance vocabulary (one row per token occurrence).
const db = new Database(':memory:');
afterAll(() => db.close());
let tableNumber = 0;

/**
 * SQLite's tokens of each text, as UTF-8 hex (porter can cut a character in two, so the term is
 * not always valid UTF-8), with `columns` texts per row.
 */
function sqliteTokens(rows: readonly (readonly string[])[], tokenize = 'porter unicode61'): string[][][] {
  const t = `t${++tableNumber}`;
  const width = rows[0]?.length ?? 1;
  const cols = Array.from({ length: width }, (_, i) => `c${i}`);
  db.exec(`CREATE VIRTUAL TABLE ${t} USING fts5(${cols.join(', ')}, tokenize = '${tokenize}');
           CREATE VIRTUAL TABLE ${t}_v USING fts5vocab(${t}, 'instance');`);
  const insert = db.prepare(
    `INSERT INTO ${t} (rowid, ${cols.join(', ')}) VALUES (?, ${cols.map(() => '?').join(', ')})`,
  );
  db.transaction(() => rows.forEach((r, i) => insert.run(i + 1, ...r)))();
  const out = rows.map((r) => r.map((): string[] => []));
  const read = db.prepare<[], { doc: number; col: string; term: string }>(
    `SELECT doc, col, hex(term) AS term FROM ${t}_v ORDER BY doc, col, offset`,
  );
  for (const { doc, col, term } of read.iterate()) out[doc - 1]?.[Number(col.slice(1))]?.push(term);
  db.exec(`DROP TABLE ${t}_v; DROP TABLE ${t};`);
  return out;
}

/** A token's SQLite bytes as hex: a trailing U+FFFD marks a character whose last byte porter cut. */
function tokenHex(token: string): string {
  if (!token.endsWith('\uFFFD')) return Buffer.from(token, 'utf8').toString('hex').toUpperCase();
  const bytes = Buffer.from(token.slice(0, -1), 'utf8');
  return bytes
    .subarray(0, bytes.length - 1)
    .toString('hex')
    .toUpperCase();
}

/** Our tokens against SQLite's for every text; the texts where they differ (none expected). */
function differences(texts: readonly string[]): { text: string; ours: string[]; sqlite: string[] }[] {
  const theirs = sqliteTokens(texts.map((t) => [t]));
  const out: { text: string; ours: string[]; sqlite: string[] }[] = [];
  texts.forEach((text, i) => {
    const ours = fts5Tokens(text).map(tokenHex);
    const sqlite = theirs[i]?.[0] ?? [];
    if (ours.join(' ') !== sqlite.join(' ')) out.push({ text, ours, sqlite });
  });
  return out;
}

/** Every distinct whitespace-separated word of the repository's own texts (as a user's clone has them). */
function repositoryWords(): string[] {
  const root = join(import.meta.dirname, '..', '..', '..');
  const files = [join(root, 'README.md')];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (name === 'node_modules' || name === 'dist') continue;
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(ts|md|jsonl?|txt|mjs)$/.test(name)) files.push(path);
    }
  };
  for (const dir of ['src', 'test', 'data', 'eval', 'bench', 'examples', 'docs']) {
    try {
      walk(join(root, dir));
    } catch {
      // a folder the clone lacks
    }
  }
  const words = new Set<string>();
  for (const file of files)
    for (const word of readFileSync(file, 'utf8').split(/\s+/)) if (word !== '') words.add(word);
  return [...words];
}

const SUFFIXES = [
  's',
  'es',
  'ies',
  'sses',
  'ss',
  'ed',
  'eed',
  'ing',
  'ational',
  'tional',
  'enci',
  'anci',
  'izer',
  'logi',
  'bli',
  'alli',
  'entli',
  'eli',
  'ousli',
  'ization',
  'ation',
  'ator',
  'alism',
  'iveness',
  'fulness',
  'ousness',
  'aliti',
  'iviti',
  'biliti',
  'ical',
  'ness',
  'icate',
  'iciti',
  'ful',
  'ative',
  'alize',
  'al',
  'ance',
  'ence',
  'er',
  'ic',
  'able',
  'ible',
  'ant',
  'ement',
  'ment',
  'ent',
  'ion',
  'sion',
  'tion',
  'ou',
  'ism',
  'ate',
  'iti',
  'ous',
  'ive',
  'ize',
  'y',
  'e',
  'll',
  'at',
  'bl',
  'iz',
  'ing',
  'ying',
  'eing',
];

/** English-like words: a random stem (vowel-rich, with y, w, x) plus up to two Porter suffixes. */
const porterWord = fc
  .tuple(
    fc.array(fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzaeiouyyllsstwx'), { minLength: 0, maxLength: 9 }),
    fc.array(fc.constantFrom(...SUFFIXES), { maxLength: 2 }),
    fc.boolean(),
  )
  .map(([stem, suffixes, upper]) => {
    const w = stem.join('') + suffixes.join('');
    return upper ? w.toUpperCase() : w;
  });

/** Words mixing accented Latin, decomposed marks, digits, CJK (one cut by porter: 丸), astral letters and emoji. */
const mixedWord = fc
  .array(
    fc.constantFrom(
      ...'aeiouybcdlstxyzAEIOU0123456789éàñüÅØßÆœǖǕİıſµςΣΩЖжЯ日本語中丸',
      '\u0301',
      '\u0308',
      '\u0327',
      '\u0305',
      '\u20dd',
      'e\u0301',
      '\u{20000}',
      '\u{2A6C0}',
      '\u{1F642}',
      '\u{1F680}',
      '\u2705',
      '\u{10400}',
      'Ꭰ',
      'Ა',
      '\uFFFE',
      '\uD800',
      'ed',
      'ing',
      'ies',
      'ss',
      's',
      'ational',
      'ment',
      '-',
      "'",
      ' ',
    ),
    { minLength: 1, maxLength: 10 },
  )
  .map((parts) => parts.join(''));

describe('fts5Tokens against SQLite (tokenize = porter unicode61)', () => {
  it('classifies and folds every BMP and plane 1–2 code point as SQLite does, at a token start and inside one', () => {
    // Each code point c appears as `bcb` (inside a token) in one column and as `cb` (at a start) in the other.
    const rows: string[][] = [];
    for (let base = 0x80; base < 0x30000; base += 4096) {
      const inside: string[] = [];
      const start: string[] = [];
      for (let cp = base; cp < base + 4096; cp++) {
        if (cp >= 0xd800 && cp <= 0xdfff) continue;
        const ch = String.fromCodePoint(cp);
        inside.push(`b${ch}b`);
        start.push(`${ch}b`);
      }
      rows.push([inside.join(' '), start.join(' ')]);
    }
    const theirs = sqliteTokens(rows);
    let compared = 0;
    rows.forEach((row, r) =>
      row.forEach((text, c) => {
        const ours = fts5Tokens(text).map(tokenHex);
        compared += ours.length;
        expect(ours).toEqual(theirs[r]?.[c]);
      }),
    );
    expect(compared).toBeGreaterThan(390_000);
  });

  it('classifies the code points of planes 3–16 as SQLite does (every range boundary and a sample)', () => {
    const points = new Set<number>();
    for (let cp = 0x30000; cp <= 0x10ffff; cp += 61) points.add(cp);
    // Every change of class, found by bisection between samples, with its neighbours.
    let prev = 0x2ffff;
    for (let cp = 0x30000; cp <= 0x10ffff; cp++) {
      const token = isTokenChar(cp, false);
      if (token !== isTokenChar(prev, false)) for (let d = -2; d <= 2; d++) points.add(cp + d);
      prev = cp;
    }
    points.add(0x10ffff);
    const list = [...points].filter((cp) => cp >= 0x30000 && cp <= 0x10ffff).sort((a, b) => a - b);
    const chunks: string[][] = [];
    for (let i = 0; i < list.length; i += 2048)
      chunks.push([
        list
          .slice(i, i + 2048)
          .map((cp) => `b${String.fromCodePoint(cp)}b ${String.fromCodePoint(cp)}b`)
          .join(' '),
      ]);
    const theirs = sqliteTokens(chunks);
    chunks.forEach((c, i) => expect(fts5Tokens(c[0] as string).map(tokenHex)).toEqual(theirs[i]?.[0]));
    expect(list.length).toBeGreaterThan(14_000);
  });

  it('stems every word of the repository’s own texts as SQLite does', () => {
    const words = repositoryWords();
    expect(words.length).toBeGreaterThan(10_000);
    expect(differences(words)).toEqual([]);
  });

  it('stems generated English-like words (every Porter suffix) as SQLite does', () => {
    const words = fc.sample(porterWord, { numRuns: 30_000, seed: 20240611 });
    expect(differences(words)).toEqual([]);
  });

  it('tokenizes generated mixed-script words (accents, marks, digits, CJK, emoji, surrogates) as SQLite does', () => {
    const words = fc.sample(mixedWord, { numRuns: 20_000, seed: 20240612 });
    expect(differences(words)).toEqual([]);
  });

  it('matches SQLite on the edges its code has', () => {
    const edges = [
      'ies',
      'ied',
      'eeds',
      'eed',
      'yed',
      'ayed',
      'sky',
      'happy',
      'bed',
      'aed',
      'hopping',
      'hoping',
      'filing',
      'falling',
      'controlling',
      'generalizations',
      'oscillators',
      'triplicate',
      'electriciti',
      'adoption',
      'relational',
      'conditional',
      'allowance',
      'y',
      'ys',
      'yy',
      'a丸ed',
      'e丸ing',
      'a丸丸ed',
      'x丸ed',
      'a\u{20000}ed',
      'o\u{2A6C0}ing',
      '丸s',
      '日本s',
      'cafés',
      'CAFÉS',
      'naïve',
      'Straße',
      'ΣΊΣΥΦΟΣ',
      'e\u0301te\u0301',
      '\u0301abc',
      'a\u0305b',
      'x'.repeat(FTS5_PORTER_MAX_TOKEN) + 'ing',
      'x'.repeat(FTS5_PORTER_MAX_TOKEN - 3) + 'ing',
      'é'.repeat(31) + 'ing',
      'é'.repeat(32) + 'ing',
      'lone\uD800surrogate',
      'non\uFFFFchar',
      'emoji🙂inside',
      'rocket🚀split',
      '',
    ];
    expect(differences(edges)).toEqual([]);
  });
});

describe('fts5Tokens', () => {
  it('lower-cases, removes diacritics and stems (bytes: ß is a consonant, so Straße loses its e)', () => {
    expect(fts5Tokens('Refreshing the AUTH-tokens: café, naïve — Straße')).toEqual([
      'refresh',
      'the',
      'auth',
      'token',
      'cafe',
      'naiv',
      'straß',
    ]);
    expect(fts5Tokens('refreshToken user_id src/x.ts v1.2.3')).toEqual([
      'refreshtoken',
      'user',
      'id',
      'src',
      'x',
      'ts',
      'v1',
      '2',
      '3',
    ]);
  });

  it('keeps code points unassigned in Unicode 6.1 inside words, as SQLite does (🙂 is 7.0, 🚀 is 6.0)', () => {
    expect(fts5Tokens('ok🙂 go🚀now')).toEqual(['ok🙂', 'go', 'now']);
  });

  it('gives a token porter cut inside a character as that character followed by U+FFFD', () => {
    expect(fts5Tokens('a丸ed')).toEqual(['a丸\uFFFD']);
  });

  it('never throws, and makes tokens of letters, digits and the like only', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (text) => {
        for (const token of fts5Tokens(text)) {
          expect(token.length).toBeGreaterThan(0);
          expect(token).not.toMatch(/[\s'"\\:&|!()<>*\u0000-\u002f\u003a-\u0040\u005b-\u0060\u007b-\u007f]/u);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('folds and classifies single code points like unicode61', () => {
    expect(fts5Fold(0x41)).toBe(0x61);
    expect(fts5Fold(0xc9)).toBe(0x65); // É → e
    expect(fts5Fold(0x1d5)).toBe(0x1d6); // Ǖ → ǖ: two diacritics stay
    expect(fts5Fold(0x13a0)).toBe(0x13a0); // Cherokee: no case pair in Unicode 6.1
    expect(fts5Fold(0x10400)).toBe(0x10428); // Deseret
    expect(fts5Fold(0x301)).toBe(0); // a diacritic inside a token is dropped
    expect(isTokenChar(0x301, false)).toBe(false);
    expect(isTokenChar(0x301, true)).toBe(true);
    expect(isTokenChar(0x19b0, false)).toBe(false); // a letter since Unicode 8, a mark in 6.1
  });

  it('stems single tokens like SQLite’s porter', () => {
    expect(
      [
        'caresses',
        'ponies',
        'ties',
        'cats',
        'feed',
        'agreed',
        'plastered',
        'motoring',
        'sing',
        'conflated',
        'hopping',
        'filing',
        'happy',
        'relational',
        'generalization',
      ].map(porterStem),
    ).toEqual([
      'caress',
      'poni',
      'ti',
      'cat',
      'feed',
      'agre',
      'plaster',
      'motor',
      'sing',
      'conflat',
      'hop',
      'file',
      'happi',
      'relat',
      'gener',
    ]);
  });
});
