import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contentWords, splitWords, maskFileNames } from './words.js';

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
      fc.array(fc.constantFrom('getUserID', 'JWTToken', 'user_id', 'a-b.c:d', ' ', '!', '\u007f', '\u0000', 'Q9', 'the'), { maxLength: 20 }).map((p) => p.join('')),
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
    expect(contentWords('Find me the flights to London and a hotel there')).toEqual(['find', 'flights', 'london', 'hotel']);
  });
});

describe('maskFileNames', () => {
  it('turns file names into the word file', () => {
    expect(maskFileNames('Read the deno.json file')).toBe('Read the file file');
    expect(maskFileNames('open src/app.ts and ./docs/README.md')).toBe('open file and file');
    expect(maskFileNames('parse config.YAML')).toBe('parse file');
  });
  it('leaves runtimes, versions, abbreviations and addresses alone', () => {
    for (const text of ['install node.js', 'bump to v1.2', 'e.g. a list', 'mail bob@example.com', 'see example.com', 'a sentence. Another']) {
      expect(maskFileNames(text)).toBe(text);
    }
  });
});
