/**
 * @module core/words
 * Words of free text and of tool identifiers, for full-text search and meaning (SPEC §4, §8):
 * `SkyScrapperSearchAirport`, `filesystem:read_text_file`, `get-user.v2` all become plain
 * lower-case words. Pure.
 */

/** Common English words that carry no meaning for search. */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a an and are as at be been but by can could do does for from had has have how i if in into is it its ' +
    'me my of on or our please should so some that the their them then there these they this to us was ' +
    'we were what when where which while who will with would you your'
  ).split(' '),
);

const IDENTIFIER_BOUNDARY = /([a-z0-9])([A-Z])|([A-Z]+)([A-Z][a-z])/g;
const NON_WORD = /[^\p{L}\p{N}]+/u;

/** Splits camelCase, PascalCase, snake_case, kebab-case, dotted and `server:tool` text into lower-case words. */
export function splitWords(text: string): string[] {
  const spaced = text.replace(IDENTIFIER_BOUNDARY, (_, a, b, c, d) => (a !== undefined ? `${a} ${b}` : `${c} ${d}`));
  return spaced
    .toLowerCase()
    .split(NON_WORD)
    .filter((w) => w.length > 0);
}

/** The words of `text` that carry meaning: split as identifiers, stop words dropped. */
export function contentWords(text: string): string[] {
  return splitWords(text).filter((w) => !STOP_WORDS.has(w));
}
