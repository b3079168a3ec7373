import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { buildFtsQuery, ftsOrQuery, MAX_FTS_GROUPS, MAX_PHRASE_WORDS } from './fts-query.js';
import { STOP_WORDS } from './words.js';

const db = new Database(':memory:');
db.exec(`CREATE VIRTUAL TABLE t USING fts5(title, text, tokenize='porter unicode61')`);
const ROWS: ReadonlyArray<readonly [number, string, string]> = [
  [1, 'JWT token refresh flow', 'How we refresh the auth token before it expires'],
  [2, 'Users table', 'The user id column is the primary key'],
  [3, 'Source layout', 'The entry point lives in src x ts next to the tests'],
  [4, 'Identifiers', 'The client calls refreshToken and reads user_id from the session'],
  [5, 'Tool names', 'filesystem:read_text_file reads a file; version v1.2.3 shipped'],
  [6, 'Unicode', 'Le café est fermé; die Straße ist lang; 中文 搜索'],
  [7, 'Auth notes', 'auth is separate from the token cache'],
  [8, 'Refreshing', 'refreshing the page clears state'],
];
const insert = db.prepare('INSERT INTO t (rowid, title, text) VALUES (?, ?, ?)');
for (const row of ROWS) insert.run(...row);
const select = db.prepare<[string], { rowid: number }>('SELECT rowid FROM t WHERE t MATCH ? ORDER BY rowid');

afterAll(() => db.close());

/** The rowids a query built from `text` finds (none when it builds to undefined). */
function rows(text: string, mode: 'or' | 'and' = 'and'): number[] {
  const q = buildFtsQuery(text, { mode });
  return q === undefined ? [] : select.all(q.match).map((r) => r.rowid);
}

const HOSTILE: readonly string[] = [
  '"',
  '""',
  '"""',
  '"auth',
  'auth"',
  'au"th to"ken',
  "'",
  "it's",
  "''; DROP TABLE t; --",
  ';DROP TABLE t;--',
  'auth /* comment */ token',
  '-- comment',
  'NEAR(auth token)',
  'NEAR(auth token, 2)',
  'auth NEAR/2 token',
  'NEAR',
  '*',
  'auth*',
  '* auth',
  '-auth',
  'auth -token',
  'auth - token',
  'a:b',
  'title:auth',
  'text : token',
  '{title text}: auth',
  '{a b}',
  '- title:auth',
  '(',
  ')',
  '(auth',
  'auth)',
  '((auth OR token)',
  '^auth',
  '^',
  'auth + token',
  '+',
  'AND',
  'OR',
  'NOT',
  'OR NOT',
  'auth AND',
  'AND auth',
  'auth OR OR token',
  'NOT auth',
  'auth NOT token',
  '\\',
  'C:\\Users\\me\\auth.ts',
  '\\"auth\\"',
  '%',
  '%auth%',
  '_',
  'auth_',
  '...',
  '::',
  '//',
  'a.',
  '.a',
  '🙂',
  '🙂 auth 🚀token👍',
  '👨‍👩‍👧‍👦 family',
  'auth\u200btoken',
  '\u200b\u200c\u200d\ufeff',
  '\u200fauth\u200e token\u202e',
  '\u0000auth\u0001token\u001f',
  '\u0000',
  'auth\ttoken\nrefresh\r\n',
  '\ud800 lone surrogate \udfff',
  'café straße 中文',
  'ÉCOLE Ünïcödé',
  'e\u0301te\u0301',
  '\u0301',
  'İstanbul ΣΊΣΥΦΟΣ',
  'مرحبا بالعالم',
  'auth '.repeat(5000),
  'x'.repeat(100_000),
  Array.from({ length: 2000 }, (_, i) => `word${i}`).join(' '),
  Array.from({ length: 200 }, (_, i) => `seg${i}`).join('/'),
  '!@#$%^&*()[]{}<>?,;\'"`~|=+',
  'the and of to a in is it',
  'how do we',
  '0',
  '١٢٣',
  'ﬁle ＡＢＣ',
  '"auth-token" OR "user_id"',
  'title:"auth" AND text:token*',
];

describe('buildFtsQuery: hostile strings', () => {
  it('has a long list of hostile strings', () => {
    expect(HOSTILE.length).toBeGreaterThanOrEqual(40);
  });

  it.each(HOSTILE.map((s) => [JSON.stringify(s.length > 60 ? `${s.slice(0, 60)}…` : s), s]))(
    '%s: never throws, in either mode, and SQLite accepts the result',
    (_, text) => {
      for (const mode of ['or', 'and'] as const) {
        const q = buildFtsQuery(text, { mode });
        if (q === undefined) continue;
        expect(() => select.all(q.match)).not.toThrow();
        // The only FTS5 syntax is ours: quoted strings, OR/AND and parentheses.
        expect(q.match).toMatch(/^(?:"[^"]*"|\(|\)| OR | AND )+$/u);
        expect(q.terms.length + q.phrases.length).toBeLessThanOrEqual(MAX_FTS_GROUPS);
      }
      expect(ftsOrQuery(text)).toBe(buildFtsQuery(text)?.match);
    },
  );

  it('the table survives the SQL-looking strings', () => {
    expect(db.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: ROWS.length });
  });

  it('turns user operators into plain words or nothing', () => {
    expect(buildFtsQuery('NEAR(auth token, 2)')?.terms).toEqual(['near', 'auth', 'token', '2']);
    expect(buildFtsQuery('auth NOT token')?.terms).toEqual(['auth', 'not', 'token']);
    expect(buildFtsQuery('auth* ^token -refresh +flow')?.match).toBe('"auth" OR "token" OR "refresh" OR "flow"');
    expect(buildFtsQuery('auth OR token AND refresh')?.terms).toEqual(['auth', 'token', 'refresh']);
    // A column filter is a phrase of plain words, not a filter: `title:refresh` does not limit to titles.
    expect(buildFtsQuery('title:auth')?.match).toBe('"title auth"');
    expect(rows('{title}: refreshing', 'or')).toEqual([1, 8]);
    // `-token` excludes nothing: it is the word "token".
    expect(rows('auth -token')).toEqual([1, 7]);
  });

  it('returns undefined for punctuation-only and stop-word-only text', () => {
    for (const text of [
      '',
      '   ',
      '  -- !! ** ',
      '!@#$%^&*()[]{}<>?,;\'"`~|=+',
      '"',
      '""',
      '🙂',
      '\u200b\u0000',
      '\u0301',
      'the and of to a in is it',
      'How do we?',
      'OR AND',
      "'' '' ''",
      '- * ^',
    ]) {
      expect(buildFtsQuery(text), JSON.stringify(text)).toBeUndefined();
      expect(buildFtsQuery(text, { mode: 'and' }), JSON.stringify(text)).toBeUndefined();
      expect(ftsOrQuery(text), JSON.stringify(text)).toBeUndefined();
    }
  });
});

describe('buildFtsQuery: words and phrases', () => {
  it('quotes each distinct content word and joins them with OR', () => {
    expect(buildFtsQuery('How do we refresh JWT tokens? JWT!')).toEqual({
      match: '"refresh" OR "jwt" OR "tokens"',
      terms: ['refresh', 'jwt', 'tokens'],
      phrases: [],
    });
    expect(ftsOrQuery('How do we refresh JWT tokens? JWT!')).toBe('"refresh" OR "jwt" OR "tokens"');
  });

  it('joins with AND in and-mode', () => {
    expect(buildFtsQuery('refresh jwt', { mode: 'and' })?.match).toBe('"refresh" AND "jwt"');
    expect(buildFtsQuery('auth refreshToken', { mode: 'and' })?.match).toBe(
      '"auth" AND ("refresh token" OR "refreshtoken")',
    );
  });

  it('makes one phrase of a compound joined by - _ . / : or \\', () => {
    const cases: ReadonlyArray<readonly [string, string[]]> = [
      ['auth-token', ['auth', 'token']],
      ['user_id', ['user', 'id']],
      ['a.b', ['a', 'b']],
      ['src/x.ts', ['src', 'x', 'ts']],
      ['filesystem:read_text_file', ['filesystem', 'read', 'text', 'file']],
      ['v1.2.3', ['v1', '2', '3']],
      ['C:\\Users\\me', ['c', 'users', 'me']],
      ['https://example.com/a', ['https', 'example', 'com', 'a']],
      ['to-do', ['to', 'do']],
    ];
    for (const [text, phrase] of cases) {
      const q = buildFtsQuery(text);
      expect(q, text).toEqual({ match: `"${phrase.join(' ')}"`, terms: [], phrases: [phrase] });
    }
  });

  it('finds the intended rows through phrases', () => {
    expect(rows('auth-token')).toEqual([1]);
    expect(rows('user_id')).toEqual([2, 4]);
    expect(rows('src/x.ts')).toEqual([3]);
    expect(rows('filesystem:read_text_file')).toEqual([5]);
    expect(rows('v1.2.3')).toEqual([5]);
    // A phrase needs its words adjacent, unlike the separate words.
    expect(rows('auth token')).toEqual([1, 7]);
    expect(rows('auth-token', 'or')).toEqual([1]);
  });

  it('splits camelCase into a phrase, and also matches the identifier as unicode61 indexes it', () => {
    expect(buildFtsQuery('refreshToken')).toEqual({
      match: '"refresh token" OR "refreshtoken"',
      terms: [],
      phrases: [['refresh', 'token']],
    });
    expect(buildFtsQuery('JWTToken')?.phrases).toEqual([['jwt', 'token']]);
    expect(buildFtsQuery('ÉcoleNormale')?.phrases).toEqual([['école', 'normale']]);
    expect(buildFtsQuery('src/authToken.ts')?.match).toBe('"src auth token ts" OR "src authtoken ts"');
    // Prose "refresh the auth token" has no adjacent "refresh token"; row 4 has the identifier.
    expect(rows('refreshToken')).toEqual([4]);
    expect(rows('auth refresh-token')).toEqual([]);
  });

  it('keeps stop words inside phrases and drops lone ones', () => {
    expect(buildFtsQuery('the a.b of it')).toEqual({ match: '"a b"', terms: [], phrases: [['a', 'b']] });
    expect(buildFtsQuery('getIt')?.phrases).toEqual([['get', 'it']]);
  });

  it('de-duplicates terms and phrases, case-insensitively', () => {
    expect(buildFtsQuery('Auth auth AUTH auth-token Auth-Token auth_token')).toEqual({
      match: '"auth" OR "auth token"',
      terms: ['auth'],
      phrases: [['auth', 'token']],
    });
    expect(buildFtsQuery('refreshToken refresh-token')?.match).toBe('"refresh token" OR "refreshtoken"');
    expect(buildFtsQuery('refreshToken refresh-token')?.phrases).toEqual([['refresh', 'token']]);
  });

  it('keeps Unicode letters and digits', () => {
    expect(buildFtsQuery('Café STRASSE straße 中文 ١٢٣')?.terms).toEqual(['café', 'strasse', 'straße', '中文', '١٢٣']);
    expect(rows('cafe')).toEqual([6]);
    expect(rows('CAFÉ fermé')).toEqual([6]);
    expect(rows('straße')).toEqual([6]);
    expect(rows('中文')).toEqual([6]);
    // Decomposed é is normalised and matches too.
    expect(rows('cafe\u0301')).toEqual([6]);
  });

  it('still applies porter stemming', () => {
    expect(rows('refreshing')).toEqual([1, 8]);
    expect(rows('refreshes tokens', 'and')).toEqual([1]);
    expect(rows('identifier')).toEqual([4]);
  });

  it('caps the number of groups, the words of a phrase, and the length of a word', () => {
    const essay = Array.from({ length: 500 }, (_, i) => `word${i}`).join(' ');
    const q = buildFtsQuery(essay);
    expect(q?.terms).toHaveLength(MAX_FTS_GROUPS);
    expect(q?.terms.at(-1)).toBe(`word${MAX_FTS_GROUPS - 1}`);

    const path = Array.from({ length: 40 }, (_, i) => `p${i}`).join('/');
    expect(buildFtsQuery(path)?.phrases[0]).toHaveLength(MAX_PHRASE_WORDS);

    expect(buildFtsQuery('x'.repeat(10_000))).toBeUndefined();
    expect(buildFtsQuery(`auth-${'x'.repeat(10_000)}-token`)?.terms).toEqual(['auth', 'token']);
  });

  // No wall-clock assertion (it would flake on a loaded machine): a quadratic blow-up shows as the
  // test's own timeout; speed is measured by `npm run bench`.
  it('caps a pasted essay at its word limit', { timeout: 20_000 }, () => {
    const big = 'lorem ipsum-dolor sit_amet, consectetur adipiscing elit. '.repeat(20_000);
    const q = buildFtsQuery(big);
    expect(q?.terms.length ?? 0).toBeLessThanOrEqual(64);
    expect(q?.phrases.length ?? 0).toBeGreaterThan(0);
  });
});

describe('buildFtsQuery: properties', () => {
  const fragments = fc.constantFrom(
    '"',
    "'",
    '*',
    '^',
    '-',
    ':',
    '(',
    ')',
    '{',
    '}',
    '+',
    '\\',
    '/',
    '.',
    '_',
    ' ',
    'AND',
    'OR',
    'NOT',
    'NEAR',
    'NEAR/2',
    'title:',
    'auth',
    'token',
    'é',
    '中文',
    '🙂',
    '\u200b',
    '\u0000',
    '\u0301',
    'the',
  );
  const texts = fc.oneof(
    fc.string({ unit: 'grapheme', maxLength: 60 }),
    fc.string({ unit: 'binary', maxLength: 60 }),
    fc.array(fragments, { maxLength: 20 }).map((parts) => parts.join('')),
    fc
      .array(fc.oneof(fragments, fc.string({ unit: 'grapheme-composite', maxLength: 5 })), { maxLength: 20 })
      .map((p) => p.join('')),
  );

  it('never throws, and SQLite never throws on its match', () => {
    fc.assert(
      fc.property(texts, fc.constantFrom('or' as const, 'and' as const), (text, mode) => {
        const q = buildFtsQuery(text, { mode });
        if (q === undefined) return;
        expect(q.match.length).toBeGreaterThan(0);
        expect(q.terms.length + q.phrases.length).toBeGreaterThan(0);
        select.all(q.match);
      }),
      { numRuns: 2000 },
    );
  });

  it('reads ASCII text with its ASCII patterns exactly as with the Unicode ones', () => {
    const ascii = fc.constantFrom(
      'refreshToken',
      'JWTToken',
      'parseHTMLDocument',
      'XMLHttpRequest2',
      'user_id',
      'src/x.ts',
      'a-b',
      'v1.2.3',
      'https://a.b/c',
      'filesystem:read_text_file',
      'C:\\dir\\file',
      'AND',
      'OR',
      'NOT',
      'the',
      '"',
      '*',
      '-',
      ':',
      '.',
      ' ',
      '\t',
      '\n',
      'A',
      'a',
      '9',
      'x'.repeat(130),
    );
    const texts = fc.oneof(
      fc.string({ unit: 'binary-ascii', maxLength: 80 }),
      fc.string({ unit: fc.constantFrom(...'aZ09-_./:\\ "Tt'), maxLength: 80 }),
      fc
        .array(fc.oneof(ascii, fc.string({ unit: 'grapheme-ascii', maxLength: 6 })), { maxLength: 24 })
        .map((parts) => parts.join('')),
    );
    fc.assert(
      fc.property(texts, fc.constantFrom('or' as const, 'and' as const), (text, mode) => {
        expect(buildFtsQuery(text, { mode })).toEqual(buildFtsQuery(text, { mode, patterns: 'unicode' }));
      }),
      { numRuns: 5000 },
    );
  });

  it('a word typed alone finds a row that contains it', () => {
    // A stop word typed alone is dropped by design (the query then holds only the other words), so none is drawn.
    const word = fc.stringMatching(/^[a-z]{3,12}$/).filter((w) => !STOP_WORDS.has(w));
    fc.assert(
      fc.property(word, (w) => {
        const q = buildFtsQuery(`"${w}*" NEAR(`);
        if (q === undefined) return;
        const rowid = 1000;
        insert.run(rowid, 'probe', `before ${w} after`);
        try {
          expect(select.all(q.match).map((r) => r.rowid)).toContain(rowid);
        } finally {
          db.prepare('DELETE FROM t WHERE rowid = ?').run(rowid);
        }
      }),
      { numRuns: 200 },
    );
  });
});
