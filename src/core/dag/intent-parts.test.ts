import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { intentParts } from './intent-parts.js';
import { contentWords } from '../text/words.js';

describe('intentParts', () => {
  it('splits a two-part request at "and"', () => {
    expect(intentParts('find flights to London and a hotel there')).toEqual([
      'find flights to London',
      'a hotel there',
    ]);
  });

  it('splits at then, commas and semicolons, and drops parts with no content word', () => {
    expect(intentParts('read the config, parse it; then write it back and')).toEqual([
      'read the config',
      'parse it',
      'write it back',
    ]);
  });

  it('keeps a one-part intent whole', () => {
    expect(intentParts('Read the deno.json file.')).toEqual(['Read the deno.json file']);
    expect(intentParts('the')).toEqual(['the']);
  });
});

describe('intentParts on long blank runs (issue 17, red-team 1)', () => {
  it('splits as the old pattern (blanks around separators) did, on texts made of its pieces', () => {
    const OLD = new RegExp(
      String.raw`\s*(?:[;,!?]|\.(?=\s|$)|\band then\b|\bthen\b|\band also\b|\balso\b|` +
        String.raw`\bafter that\b|\bafterwards\b|\band\b|\bplus\b)\s*`,
      'i',
    );
    const texts = fc
      .array(
        fc.constantFrom(
          'read',
          'x',
          ' ',
          '  ',
          '\t',
          '\n',
          ',',
          '.',
          ' and ',
          'then',
          ' plus ',
          'after that',
          'AND',
          'also',
          ';',
        ),
        { maxLength: 20 },
      )
      .map((p) => p.join(''));
    fc.assert(
      fc.property(texts, (text) => {
        const parts = text
          .split(OLD)
          .map((p) => p.trim())
          .filter((p) => contentWords(p).length > 0);
        expect(intentParts(text)).toEqual(parts.length === 0 ? [text.trim()] : parts);
      }),
      { numRuns: 5_000 },
    );
  });

  it('reads 200 KB of blanks between two words without reading the blanks again from each one', () => {
    // The old `\s*…\s*` split took about 1 s on 30 KB and grew with the square of the length (some
    // 45 s here); a linear split takes milliseconds. The bound leaves a margin of 20× either way.
    for (const blank of [' ', ' \t', '\r\n ']) {
      const text = `read${blank.repeat(200_000 / blank.length)}write`;
      const started = performance.now();
      expect(intentParts(text)).toEqual([text.trim()]);
      expect(performance.now() - started).toBeLessThan(2_000);
    }
  });
});
