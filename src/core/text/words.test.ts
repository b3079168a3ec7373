import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contentWords, identifierBoundariesForTest, maskFileNames, splitWords, type ScanMeter } from './words.js';

describe('splitWords', () => {
  it('splits tool identifiers of every common shape', () => {
    expect(splitWords('SkyScrapperSearchAirport')).toEqual(['sky', 'scrapper', 'search', 'airport']);
    expect(splitWords('filesystem:read_text_file')).toEqual(['filesystem', 'read', 'text', 'file']);
    expect(splitWords('get-user.v2')).toEqual(['get', 'user', 'v2']);
    expect(splitWords('parseHTMLDocument')).toEqual(['parse', 'html', 'document']);
  });

  it('keeps letters of any script and drops punctuation', () => {
    expect(splitWords('Réserver un hôtel, à Paris!')).toEqual(['réserver', 'un', 'hôtel', 'à', 'paris']);
  });

  it('reads ASCII text with its ASCII pattern exactly as with the Unicode one', () => {
    const texts = fc.oneof(
      fc.string({ unit: 'binary-ascii', maxLength: 80 }),
      fc
        .array(
          fc.constantFrom('getUserID', 'JWTToken', 'user_id', 'a-b.c:d', ' ', '!', '\u007f', '\u0000', 'Q9', 'the'),
          { maxLength: 20 },
        )
        .map((p) => p.join('')),
    );
    fc.assert(
      fc.property(texts, (text) => {
        expect(splitWords(text)).toEqual(splitWords(text, { patterns: 'unicode' }));
      }),
      { numRuns: 5000 },
    );
  });
});

describe('contentWords', () => {
  it('drops stop words', () => {
    expect(contentWords('Find me the flights to London and a hotel there')).toEqual([
      'find',
      'flights',
      'london',
      'hotel',
    ]);
  });
});

describe('maskFileNames', () => {
  it('turns file names into the word file', () => {
    expect(maskFileNames('Read the deno.json file')).toBe('Read the file file');
    expect(maskFileNames('open src/app.ts and ./docs/README.md')).toBe('open file and file');
    expect(maskFileNames('parse config.YAML')).toBe('parse file');
  });
  it('leaves runtimes, versions, abbreviations and addresses alone', () => {
    for (const text of [
      'install node.js',
      'bump to v1.2',
      'e.g. a list',
      'mail bob@example.com',
      'see example.com',
      'a sentence. Another',
    ]) {
      expect(maskFileNames(text)).toBe(text);
    }
  });
});

/**
 * The patterns words.ts used before issue 17, kept as oracles for short texts (they backtrack polynomially on long
 * ones).
 */
const OLD_FILE_NAME = new RegExp(
  String.raw`(?<![\w@])(?:[\w.~-]*\/)*[\w-]*[A-Za-z0-9][\w-]*\.(?:json|jsonc|ya?ml|toml|ini|cfg|conf|env|` +
    'md|mdx|txt|csv|tsv|xml|html?|css|scss|tsx?|jsx|mjs|cjs|py|rb|go|rs|java|kt|swift|c|h|cc|cpp|' +
    String.raw`hpp|cs|php|sh|sql|log|lock|pdf|png|jpe?g|gif|svg|zip|gz|tar)(?![\w.])`,
  'gi',
);
const OLD_BOUNDARY = /([a-z0-9])([A-Z])|([A-Z]+)([A-Z][a-z])/g;

/** Text made of pieces that file names and identifiers are made of. */
const pieces = (alphabet: readonly string[]) =>
  fc.array(fc.constantFrom(...alphabet), { maxLength: 24 }).map((p) => p.join(''));

/** The attack inputs of issue 17 (red-team 1) and other worst cases of the old patterns. */
const base64 = (n: number): string => {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  let s = '';
  for (let i = 0; s.length < n; i++) s += alphabet[(i * 7919 + (i >> 3)) % 64];
  return s;
};
const joinedUuids = (n: number): string => {
  let s = '';
  for (let i = 0; s.length < n; i++) s += `123e4567-e89b-12d3-a456-${String(426614174000 + i)}`;
  return s.slice(0, n);
};
const ADVERSARIAL: Record<string, (n: number) => string> = {
  base64,
  joinedUuids,
  slashes: (n) => 'ab/'.repeat(n / 3),
  dotsAndSlashes: (n) => 'a.b/'.repeat(n / 4),
  dashes: (n) => 'a-'.repeat(n / 2) + '.json.',
  capitals: (n) => 'A'.repeat(n),
  capitalsThenDot: (n) => `${'AB'.repeat(n / 2)}.md.`,
  fileNames: (n) => 'x.json '.repeat(n / 7),
};

describe('linear time on any text (issue 17, red-team 1)', () => {
  it('maskFileNames is the old pattern, on every short text', () => {
    fc.assert(
      fc.property(
        pieces([
          'a',
          'B',
          '1',
          '_',
          '-',
          '.',
          '/',
          '~',
          '@',
          ' ',
          'json',
          'JSONC',
          'md',
          'ts',
          'x',
          'jpeg',
          'é',
          '.js',
        ]),
        (text) => {
          expect(maskFileNames(text)).toBe(text.replace(OLD_FILE_NAME, 'file'));
        },
      ),
      { numRuns: 20_000 },
    );
  });

  it('splitWords spaces identifiers as the old pattern did, on every short text', () => {
    fc.assert(
      fc.property(pieces(['a', 'b', 'B', 'C', 'D', '1', ' ', '_', 'é', 'É']), (text) => {
        const old = text.replace(OLD_BOUNDARY, (_, a, b, c, d) => (a !== undefined ? `${a} ${b}` : `${c} ${d}`));
        expect(identifierBoundariesForTest(text)).toBe(old);
      }),
      { numRuns: 20_000 },
    );
  });

  it.each(Object.entries(ADVERSARIAL))(
    'maskFileNames and splitWords do at most 5 steps a character on %s input, at 4 KB and at 40 KB',
    (_, make) => {
      for (const n of [4_000, 40_000]) {
        const text = make(n);
        const mask: ScanMeter = { steps: 0 };
        maskFileNames(text, mask);
        const split: ScanMeter = { steps: 0 };
        identifierBoundariesForTest(text, split);
        expect(mask.steps).toBeLessThanOrEqual(5 * text.length);
        expect(split.steps).toBeLessThanOrEqual(5 * text.length);
      }
    },
  );

  it('answers the red-team inputs (20 and 40 KB of base64, 10 KB of joined UUIDs) at once', () => {
    // The old pattern took 17 s, 148 s and 18 s on these; the test's timeout is the backstop.
    for (const text of [base64(20_000), base64(40_000), joinedUuids(10_000), base64(400_000)]) {
      expect(maskFileNames(text)).toBe(text);
      expect(splitWords(text).length).toBeGreaterThan(0);
    }
    expect(maskFileNames(`${joinedUuids(10_000)} notes.md`)).toBe(`${joinedUuids(10_000)} file`);
  });
});
