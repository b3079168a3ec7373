import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { buildFtsQuery, type FtsQueryMode } from './fts-query.js';
import { isCredenceError } from '../errors.js';
import {
  FTS5_UNPOSITIONED,
  fts5Bm25,
  fts5Document,
  fts5Tokens,
  parseFts5Match,
  PG_MAX_LEXEME_BYTES,
  PG_MAX_POSITION,
  PG_MAX_POSITIONS_PER_LEXEME,
  pgLexeme,
} from './fts5.js';

// The oracle: SQLite's FTS5 with the SQLite store's tokenizer, one fresh table per case.
const db = new Database(':memory:');
afterAll(() => db.close());
let tableNumber = 0;

interface Ranked {
  rowid: number;
  bm25: number;
}

/** FTS5's matches of `match` over `rows` (each row: its column texts), ordered by bm25. */
function sqliteSearch(rows: readonly (readonly string[])[], match: string): Ranked[] {
  const t = `t${++tableNumber}`;
  const width = rows[0]?.length ?? 1;
  const cols = Array.from({ length: width }, (_, i) => `c${i}`);
  db.exec(`CREATE VIRTUAL TABLE ${t} USING fts5(${cols.join(', ')}, tokenize = 'porter unicode61')`);
  try {
    const insert = db.prepare(
      `INSERT INTO ${t} (rowid, ${cols.join(', ')}) VALUES (?, ${cols.map(() => '?').join(', ')})`,
    );
    rows.forEach((r, i) => insert.run(i + 1, ...r));
    return db
      .prepare<[string], Ranked>(`SELECT rowid, bm25(${t}) AS bm25 FROM ${t} WHERE ${t} MATCH ? ORDER BY bm25, rowid`)
      .all(match);
  } finally {
    db.exec(`DROP TABLE ${t}`);
  }
}

/** The same search the PostgreSQL store runs, from fts5.ts alone (statistics counted from the rows). */
function ourSearch(rows: readonly (readonly string[])[], match: string): Ranked[] {
  const query = parseFts5Match(match);
  const tokens = rows.map((r) => r.map(fts5Tokens));
  const lengths = rows.map((r) => fts5Document(r).length);
  const totalLength = lengths.reduce((a, b) => a + b, 0);
  const hits = tokens.map((t) => query.hits(t));
  const rowsWithPhrase = query.phrases.map((_, p) => hits.filter((h) => (h[p] as number) > 0).length);
  const out: Ranked[] = [];
  tokens.forEach((t, i) => {
    if (!query.matches(t)) return;
    out.push({
      rowid: i + 1,
      bm25: fts5Bm25({
        hits: hits[i] as number[],
        length: lengths[i] as number,
        rows: rows.length,
        totalLength,
        rowsWithPhrase,
      }),
    });
  });
  return out.sort((a, b) => a.bm25 - b.bm25 || a.rowid - b.rowid);
}

/** Same rows, bm25 equal within 1e-9, and the same order wherever SQLite's scores differ by more. */
function expectSameRanking(ours: readonly Ranked[], theirs: readonly Ranked[]): void {
  expect(ours.map((r) => r.rowid).sort((a, b) => a - b)).toEqual(theirs.map((r) => r.rowid).sort((a, b) => a - b));
  const mine = new Map(ours.map((r) => [r.rowid, r.bm25]));
  for (const r of theirs) expect(Math.abs((mine.get(r.rowid) as number) - r.bm25)).toBeLessThan(1e-9);
  for (let i = 1; i < theirs.length; i++) {
    const [a, b] = [theirs[i - 1] as Ranked, theirs[i] as Ranked];
    if (b.bm25 - a.bm25 > 1e-9) expect(mine.get(a.rowid) as number).toBeLessThan(mine.get(b.rowid) as number);
  }
}

/** Words that stem together, camelCase, snake_case, a path, accents, stop words: hits and phrases happen. */
const VOCABULARY = [
  'run',
  'running',
  'runs',
  'runner',
  'refresh',
  'refreshing',
  'token',
  'tokens',
  'refreshToken',
  'auth',
  'cache',
  'cached',
  'user',
  'user_id',
  'id',
  'the',
  'a',
  'of',
  'error',
  'errors',
  'café',
  'cafe',
  'src/x.ts',
  'x',
  'conditional',
  'condition',
  'Straße',
  '中文',
  'v1.2.3',
  'token-refresh',
  'AND',
  'OR',
];
const word = fc.constantFrom(...VOCABULARY);
const text = fc.array(word, { maxLength: 12 }).chain((words) =>
  fc
    .array(fc.constantFrom(' ', ' ', ' ', '-', ', ', '. ', '_', '"', "'"), {
      minLength: words.length,
      maxLength: words.length,
    })
    .map((seps) => words.map((w, i) => w + (seps[i] ?? ' ')).join('')),
);
const table = fc
  .integer({ min: 1, max: 4 })
  .chain((width) => fc.array(fc.array(text, { minLength: width, maxLength: width }), { minLength: 1, maxLength: 25 }));
const queryText = fc
  .array(word, { minLength: 1, maxLength: 4 })
  .chain((words) =>
    fc
      .array(fc.constantFrom(' ', '-', '.', ' '), { minLength: words.length, maxLength: words.length })
      .map((seps) => words.map((w, i) => w + (seps[i] ?? '')).join('')),
  );

/**
 * MATCH expressions outside buildFtsQuery's shapes: nested ORs and ANDs (no AND under an OR), empty and repeated
 * phrases.
 */
const phrase = fc
  .array(fc.constantFrom(...VOCABULARY, '🚀'), { maxLength: 3 })
  .map((ws) => `"${ws.join(' ').replaceAll('"', '""')}"`);
const { anyExpr } = fc.letrec<{ anyExpr: string; orExpr: string; andExpr: string }>((tie) => ({
  orExpr: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    phrase,
    fc.array(tie('orExpr'), { minLength: 2, maxLength: 3 }).map((xs) => `(${xs.join(' OR ')})`),
  ),
  andExpr: fc.array(tie('anyExpr'), { minLength: 2, maxLength: 3 }).map((xs) => `(${xs.join(' AND ')})`),
  anyExpr: fc.oneof({ depthSize: 'small', withCrossShrink: true }, tie('orExpr'), tie('andExpr')),
}));

describe('full-text search against SQLite FTS5 (porter unicode61, bm25)', () => {
  for (const mode of ['or', 'and'] as const satisfies readonly FtsQueryMode[]) {
    it(`finds the same rows with the same bm25 for buildFtsQuery's '${mode}' queries over generated tables`, () => {
      let matched = 0;
      let cases = 0;
      fc.assert(
        fc.property(table, queryText, (rows, q) => {
          const built = buildFtsQuery(q, { mode });
          if (built === undefined) return;
          const theirs = sqliteSearch(rows, built.match);
          matched += theirs.length;
          if (theirs.length > 0) cases++;
          expectSameRanking(ourSearch(rows, built.match), theirs);
        }),
        { numRuns: 400, seed: mode === 'or' ? 101 : 202 },
      );
      // The generator must make matches happen, not just empty results.
      expect(cases).toBeGreaterThan(100);
      expect(matched).toBeGreaterThan(300);
    });
  }

  it('finds the same rows with the same bm25 for nested AND/OR expressions with empty and repeated phrases', () => {
    fc.assert(
      fc.property(table, anyExpr, (rows, match) => {
        expectSameRanking(ourSearch(rows, match), sqliteSearch(rows, match));
      }),
      { numRuns: 300, seed: 303 },
    );
  });

  it('counts overlapping instances of repeated-word phrases as FTS5 does', () => {
    const tiny = fc
      .array(fc.constantFrom('run', 'runs', 'running', 'a', 'b'), { maxLength: 10 })
      .map((ws) => ws.join(' '));
    const tinyTable = fc.array(fc.tuple(tiny, tiny), { minLength: 1, maxLength: 12 });
    const tinyQuery = fc
      .array(fc.constantFrom('run', 'runs', 'a', 'b'), { minLength: 1, maxLength: 4 })
      .map((ws) => ws.join('-'));
    fc.assert(
      fc.property(tinyTable, tinyQuery, fc.constantFrom<FtsQueryMode>('or', 'and'), (rows, q, mode) => {
        const built = buildFtsQuery(q, { mode });
        if (built !== undefined) expectSameRanking(ourSearch(rows, built.match), sqliteSearch(rows, built.match));
      }),
      { numRuns: 300, seed: 505 },
    );
  });

  it('counts row lengths and the table total as FTS5 does, for any text', () => {
    const anyText = fc.oneof(
      text,
      fc.string({ unit: 'grapheme', maxLength: 40 }),
      fc.string({ unit: 'binary', maxLength: 40 }),
    );
    fc.assert(
      fc.property(
        fc.array(fc.array(anyText, { minLength: 3, maxLength: 3 }), { minLength: 1, maxLength: 10 }),
        (rows) => {
          const t = `t${++tableNumber}`;
          db.exec(
            `CREATE VIRTUAL TABLE ${t} USING fts5(a, b, c, tokenize = 'porter unicode61'); ` +
              `CREATE VIRTUAL TABLE ${t}_v USING fts5vocab(${t}, 'instance');`,
          );
          const insert = db.prepare(`INSERT INTO ${t} (rowid, a, b, c) VALUES (?, ?, ?, ?)`);
          rows.forEach((r, i) => insert.run(i + 1, ...r));
          const counts = new Map(
            db
              .prepare<[], { doc: number; n: number }>(`SELECT doc, count(*) AS n FROM ${t}_v GROUP BY doc`)
              .all()
              .map((r) => [r.doc, r.n]),
          );
          db.exec(`DROP TABLE ${t}_v; DROP TABLE ${t}`);
          rows.forEach((r, i) => expect(fts5Document(r).length).toBe(counts.get(i + 1) ?? 0));
        },
      ),
      { numRuns: 200, seed: 404 },
    );
  });

  it('pins bm25 of a small table to SQLite’s values', () => {
    const rows = [
      ['JWT token refresh flow', 'How we refresh the auth token before it expires', 'auth'],
      ['Users table', 'The user id column is the primary key', ''],
      ['Identifiers', 'The client calls refreshToken and reads user_id from the session', 'auth token'],
      ['Refreshing', 'refreshing the page clears state', ''],
      ['Deploy', 'ship the build on friday', ''],
      ['Cache', 'the cache holds rendered pages', ''],
    ];
    const match = (buildFtsQuery('refreshToken auth') as { match: string }).match;
    expect(match).toBe('"refresh token" OR "refreshtoken" OR "auth"');
    const theirs = sqliteSearch(rows, match);
    expect(theirs.map((r) => r.rowid)).toEqual([3, 1]);
    expect(theirs[0]?.bm25).toBeCloseTo(-1.5666238595740516, 12);
    expect(theirs[1]?.bm25).toBeCloseTo(-0.70856474673132175, 12);
    expectSameRanking(ourSearch(rows, match), theirs);
  });
});

describe('parseFts5Match', () => {
  it('numbers phrases in expression order, duplicates and empty phrases included', () => {
    const q = parseFts5Match('"Running" OR ("refresh token" OR "refreshtoken") OR "runs" OR ""');
    expect(q.phrases).toEqual([['run'], ['refresh', 'token'], ['refreshtoken'], ['run'], []]);
    expect(q.phraseTsqueries).toEqual([
      "'run'",
      `('refresh' <-> 'token' | '${FTS5_UNPOSITIONED}' & 'refresh' & 'token')`,
      "'refreshtoken'",
      "'run'",
      undefined,
    ]);
    expect(
      q.hits([
        ['run', 'fast'],
        ['refresh', 'token', 'run'],
      ]),
    ).toEqual([2, 1, 0, 2, 0]);
  });

  it('writes OR as |, AND as & and an empty phrase as nothing', () => {
    expect(parseFts5Match('"a" AND ("b" OR "c d")').tsquery).toBe(
      `('a' & ('b' | ('c' <-> 'd' | '${FTS5_UNPOSITIONED}' & 'c' & 'd')))`,
    );
    expect(parseFts5Match('"auth" OR ""').tsquery).toBe("'auth'");
    expect(parseFts5Match('"auth" AND ""').tsquery).toBeUndefined();
  });

  it('matches nothing for the empty phrase (the demo’s fallback)', () => {
    const q = parseFts5Match('""');
    expect(q.tsquery).toBeUndefined();
    expect(q.phrases).toEqual([[]]);
    expect(q.matches([['anything']])).toBe(false);
    expect(sqliteSearch([['anything']], '""')).toEqual([]);
  });

  it('reads "" inside a string as a quote, as FTS5 does', () => {
    expect(parseFts5Match('"say ""hello"" twice"').phrases).toEqual([['sai', 'hello', 'twice']]);
  });

  it('counts overlapping phrase instances and never across columns', () => {
    const q = parseFts5Match('"a a" OR "x y"');
    expect(q.hits([['a', 'a', 'a'], ['x'], ['y']])).toEqual([2, 0]);
    expect(q.matches([['x'], ['y']])).toBe(false);
  });

  it('refuses everything outside the subset with INVALID_INPUT, as SQLite refuses or reads it otherwise', () => {
    const refused = [
      '',
      '   ',
      '()',
      '"a" OR',
      'OR "a"',
      '"a" AND',
      '"unterminated',
      'auth',
      '"a" or "b"',
      '"a" "b"',
      '"a" NOT "b"',
      'NEAR("a" "b")',
      '"a"*',
      '^"a"',
      'title:"a"',
      '{title text}: "a"',
      '"a" + "b"',
      '-"a"',
      '("a"',
      '"a")',
      '("a" AND "b") OR "c"',
      '"a" OR "b" AND "c"',
      '"a" AND ("b" OR ("c" AND "d"))',
      '"a"\u000bOR "b"',
    ];
    for (const match of refused) {
      let error: unknown;
      try {
        parseFts5Match(match);
      } catch (e) {
        error = e;
      }
      expect(isCredenceError(error, 'INVALID_INPUT'), match).toBe(true);
    }
  });

  it('refuses AND inside OR because FTS5 then counts a phrase only where its iterator stands', () => {
    // Row 1 holds "a" and "c": FTS5 scores it as if it held "c" alone, since the AND moved "a" on to row 2.
    const rows = [['a c'], ['a b'], ['q'], ['r'], ['c']];
    const nested = sqliteSearch(rows, '("a" AND "b") OR "c"');
    const cOnly = sqliteSearch(rows, '"c" OR ""');
    expect(nested.find((r) => r.rowid === 1)?.bm25).toBe(cOnly.find((r) => r.rowid === 1)?.bm25);
    expect(() => parseFts5Match('("a" AND "b") OR "c"')).toThrow();
  });

  it('accepts the whitespace and spacing FTS5 accepts', () => {
    for (const match of ['"a"\t\nOR\r"b"', '"a"OR"b"', '("a")AND("b")', ' ( "a" ) ']) {
      expect(() => parseFts5Match(match)).not.toThrow();
      expect(() => sqliteSearch([['a b']], match)).not.toThrow();
    }
  });

  it('parses every query buildFtsQuery writes', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 80 }),
        fc.constantFrom<FtsQueryMode>('or', 'and'),
        (t, mode) => {
          const built = buildFtsQuery(t, { mode });
          if (built !== undefined) expect(() => parseFts5Match(built.match)).not.toThrow();
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe('fts5Document', () => {
  /** A tsvector entry: a quoted lexeme ('' and \\ escaped) and, maybe, positions. */
  const ENTRY = /^'(?:[^'\\]|''|\\\\)+'(?::\d+(?:,\d+)*)?$/u;

  it('lays columns out with a gap so that a phrase never spans two columns', () => {
    const doc = fts5Document(['Refresh the token', '', 'token refresh']);
    expect(doc).toEqual({ tsvector: "'refresh':1,7 'the':2 'token':3,6", length: 5, positional: true });
    expect(parseFts5Match('"token token"').tsquery).toBe(
      `('token' <-> 'token' | '${FTS5_UNPOSITIONED}' & 'token' & 'token')`,
    );
  });

  it('writes safe literals whatever the text holds (quotes, backslashes, SQL)', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary', maxLength: 30 }), { maxLength: 4 }), (cols) => {
        const doc = fts5Document([...cols, `it's a \\ back'slash"; DROP TABLE t; --`]);
        for (const entry of doc.tsvector.split(' ')) expect(entry).toMatch(ENTRY);
      }),
      { numRuns: 500 },
    );
    // Quotes and backslashes in a query separate words: no lexeme ever holds one.
    const q = parseFts5Match(`"it's" OR "a\\b"`);
    expect(q.phrases).toEqual([
      ['it', 's'],
      ['a', 'b'],
    ]);
    expect(q.tsquery).toBe(
      `(('it' <-> 's' | '${FTS5_UNPOSITIONED}' & 'it' & 's') | ('a' <-> 'b' | '${FTS5_UNPOSITIONED}' & 'a' & 'b'))`,
    );
  });

  it('indexes a row past PostgreSQL’s 16383 positions without positions, and every phrase query still finds it', () => {
    const long = fts5Document([`${'filler '.repeat(PG_MAX_POSITION)} refresh token`]);
    expect(long.positional).toBe(false);
    expect(long.length).toBe(PG_MAX_POSITION + 2);
    expect(long.tsvector.split(' ').sort()).toEqual([`'${FTS5_UNPOSITIONED}'`, "'filler'", "'refresh'", "'token'"]);
    expect(parseFts5Match('"refresh token"').tsquery).toContain(`'${FTS5_UNPOSITIONED}' & 'refresh' & 'token'`);
  });

  it('indexes a row with a lexeme past 256 positions without positions', () => {
    expect(fts5Document(['run '.repeat(PG_MAX_POSITIONS_PER_LEXEME)]).positional).toBe(true);
    expect(fts5Document(['run '.repeat(PG_MAX_POSITIONS_PER_LEXEME + 1)]).positional).toBe(false);
  });

  it('shortens a token past PostgreSQL’s lexeme limit the same way in documents and queries', () => {
    const blob = 'Ab9'.repeat(1000);
    const lexeme = pgLexeme(fts5Tokens(blob)[0] as string);
    expect(lexeme.endsWith('#')).toBe(true);
    expect(Buffer.byteLength(lexeme)).toBeLessThanOrEqual(PG_MAX_LEXEME_BYTES);
    expect(fts5Document([blob]).tsvector).toBe(`'${lexeme}':1`);
    expect(parseFts5Match(`"${blob}"`).tsquery).toBe(`'${lexeme}'`);
    expect(pgLexeme('丸'.repeat(682))).toBe('丸'.repeat(682));
    expect(pgLexeme('丸'.repeat(683)).length).toBe(667);
  });
});

describe('fts5Bm25', () => {
  it('scores as fts5_aux.c: idf floored at 1e-6, saturating in hits, normalised by length', () => {
    const base = { length: 10, rows: 100, totalLength: 1000 };
    const one = fts5Bm25({ ...base, hits: [1], rowsWithPhrase: [10] });
    expect(one).toBeCloseTo(-Math.log(90.5 / 10.5), 12);
    expect(fts5Bm25({ ...base, hits: [1], rowsWithPhrase: [60] })).toBeCloseTo(-1e-6, 15);
    expect(fts5Bm25({ ...base, hits: [3], rowsWithPhrase: [10] })).toBeLessThan(one);
    expect(fts5Bm25({ ...base, length: 40, hits: [1], rowsWithPhrase: [10] })).toBeGreaterThan(one);
    expect(fts5Bm25({ ...base, hits: [0, 1], rowsWithPhrase: [0, 10] })).toBe(one);
  });

  it('refuses hit counts that do not match the phrases', () => {
    expect(() => fts5Bm25({ hits: [1], length: 1, rows: 1, totalLength: 1, rowsWithPhrase: [] })).toThrow();
  });
});
