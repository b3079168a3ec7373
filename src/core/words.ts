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
/** Made on first use: even building a Unicode property class costs a hook that never needs it. */
let nonWord: RegExp | undefined;
const NON_WORD = (): RegExp => (nonWord ??= /[^\p{L}\p{N}]+/u);
/**
 * NON_WORD for ASCII text, where it matches the same (`\p{L}` is `A-Za-z` there, `\p{N}` is `0-9`)
 * without the cost of compiling Unicode property classes on first use (a hook pays it every time).
 */
const ASCII_NON_WORD = /[^A-Za-z0-9]+/;
const ASCII = /^[\x00-\x7f]*$/;

/** Options of {@link splitWords}. */
export interface SplitWordsOptions {
  /** `'auto'` reads ASCII text with ASCII patterns (the same words, sooner); `'unicode'` never does. @default 'auto' */
  patterns?: 'auto' | 'unicode';
}

/** Splits camelCase, PascalCase, snake_case, kebab-case, dotted and `server:tool` text into lower-case words. */
export function splitWords(text: string, options: SplitWordsOptions = {}): string[] {
  const spaced = text.replace(IDENTIFIER_BOUNDARY, (_, a, b, c, d) => (a !== undefined ? `${a} ${b}` : `${c} ${d}`));
  return spaced
    .toLowerCase()
    .split(options.patterns !== 'unicode' && ASCII.test(text) ? ASCII_NON_WORD : NON_WORD())
    .filter((w) => w.length > 0);
}

/** The words of `text` that carry meaning: split as identifiers, stop words dropped. */
export function contentWords(text: string): string[] {
  return splitWords(text).filter((w) => !STOP_WORDS.has(w));
}

/** File extensions a file name in a request ends with (`.js` is left out: `node.js` names a runtime). */
const FILE_NAME = /(?<![\w@])(?:[\w.~-]*\/)*[\w-]*[A-Za-z0-9][\w-]*\.(?:json|jsonc|ya?ml|toml|ini|cfg|conf|env|md|mdx|txt|csv|tsv|xml|html?|css|scss|tsx?|jsx|mjs|cjs|py|rb|go|rs|java|kt|swift|c|h|cc|cpp|hpp|cs|php|sh|sql|log|lock|pdf|png|jpe?g|gif|svg|zip|gz|tar)(?![\w.])/gi;

/**
 * A request's file names are its arguments, not what the tool should do: "Read the deno.json file"
 * asks for a tool that reads files, not one whose description mentions JSON. Each file name
 * (`deno.json`, `src/app.ts`) becomes the word `file` before the tool search (issue 8, ADR-026).
 */
export function maskFileNames(text: string): string {
  return text.replace(FILE_NAME, 'file');
}
