/**
 * @module core/text/words
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
  const spaced = spaceIdentifierBoundaries(text);
  return spaced
    .toLowerCase()
    .split(options.patterns !== 'unicode' && ASCII.test(text) ? ASCII_NON_WORD : NON_WORD())
    .filter((w) => w.length > 0);
}

/** The words of `text` that carry meaning: split as identifiers, stop words dropped. */
export function contentWords(text: string): string[] {
  return splitWords(text).filter((w) => !STOP_WORDS.has(w));
}

/**
 * Counts the work of a hand-written scanner: one step per character visit. Tests pass one to show
 * that the work grows linearly with the text (issue 17: a query of 40 KB once took 148 s).
 */
export interface ScanMeter {
  steps: number;
}

const isUpper = (c: number): boolean => c >= 65 && c <= 90;
const isLower = (c: number): boolean => c >= 97 && c <= 122;
const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const isAlnum = (c: number): boolean => isDigit(c) || isUpper(c) || isLower(c);
/** `\w`: ASCII letters, digits and `_`. */
const isWordChar = (c: number): boolean => isAlnum(c) || c === 95;
/** A character of a file's base name: `\w` or `-`. */
const isNameChar = (c: number): boolean => isWordChar(c) || c === 45;
/** A character of a path: a base name's, `.`, `~` or `/`. */
const isPathChar = (c: number): boolean => isNameChar(c) || c === 46 || c === 126 || c === 47;

/**
 * `text` with a space at each word boundary inside an identifier, in one left-to-right pass: between
 * a lower-case letter or digit and a capital (`getUser` → `get User`), and before the last capital
 * of an acronym that starts a capitalised word (`HTMLDocument` → `HTML Document`). ASCII letters
 * only; other text passes through.
 */
function spaceIdentifierBoundaries(text: string, meter?: ScanMeter): string {
  const n = text.length;
  let out = '';
  let copied = 0;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if ((isLower(c) || isDigit(c)) && isUpper(text.charCodeAt(i + 1))) {
      // `aB`: a boundary between the two; the scan goes on after the capital.
      out += `${text.slice(copied, i + 1)} `;
      copied = i + 1;
      i += 2;
    } else if (isUpper(c)) {
      // A run of capitals `ABCd`: a boundary before its last capital when a lower-case letter
      // follows and at least two capitals stand before it; the scan goes on after that letter.
      let end = i + 1;
      while (isUpper(text.charCodeAt(end))) end++;
      if (meter !== undefined) meter.steps += end - i;
      if (end - i >= 2 && isLower(text.charCodeAt(end))) {
        out += `${text.slice(copied, end - 1)} `;
        copied = end - 1;
        i = end + 1;
      } else {
        i = end;
      }
      continue;
    } else {
      i++;
    }
    if (meter !== undefined) meter.steps++;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** Lower-case extensions a file name in a request ends with (`.js` is left out: `node.js` names a runtime). */
const FILE_EXTENSIONS: ReadonlySet<string> = new Set(
  (
    'json jsonc yaml yml toml ini cfg conf env md mdx txt csv tsv xml html htm css scss ts tsx jsx mjs cjs py rb go ' +
    'rs java kt swift c h cc cpp hpp cs php sh sql log lock pdf png jpg jpeg gif svg zip gz tar'
  ).split(' '),
);
const LONGEST_EXTENSION = Math.max(...[...FILE_EXTENSIONS].map((e) => e.length));

/**
 * A request's file names are its arguments, not what the tool should do: "Read the deno.json file"
 * asks for a tool that reads files, not one whose description mentions JSON. Each file name
 * (`deno.json`, `src/app.ts`) becomes the word `file` before the tool search (issue 8, ADR-026).
 *
 * A file name is a path (`dir/`, `./dir/`, `~/dir/` segments of `\w . ~ -`) and a base name of
 * `\w` and `-` holding a letter or digit, then `.` and one of {@link FILE_EXTENSIONS} (any case),
 * not followed by a word character or `.`, and not preceded by a word character or `@`. Of the
 * slashes a path could stop at, the last one whose base name makes a file name is taken.
 *
 * Linear time on any text (issue 17): a right-to-left pass notes, for every position, where the
 * `\w-` run from it ends and where its next letter or digit is, then one left-to-right pass
 * decides each candidate start in constant time. `meter` counts the steps.
 */
export function maskFileNames(text: string, meter?: ScanMeter): string {
  if (!text.includes('.')) return text;
  const n = text.length;
  const code = (i: number): number => text.charCodeAt(i); // NaN past the end: no class holds it
  // nameEnd[p]: end of the `\w-` run starting at p (p when none); nextAlnum[p]: the first letter or
  // digit at or after p within that run's reach (n when none); wordEnd[p]: end of the `\w` run.
  const nameEnd = new Int32Array(n + 1);
  const wordEnd = new Int32Array(n + 1);
  const nextAlnum = new Int32Array(n + 1);
  nameEnd[n] = n;
  wordEnd[n] = n;
  nextAlnum[n] = n;
  for (let p = n - 1; p >= 0; p--) {
    const c = code(p);
    nameEnd[p] = isNameChar(c) ? (nameEnd[p + 1] as number) : p;
    wordEnd[p] = isWordChar(c) ? (wordEnd[p + 1] as number) : p;
    nextAlnum[p] = isAlnum(c) ? p : (nextAlnum[p + 1] as number);
  }
  // The end of the file name whose base name starts at b, or -1.
  const fileNameEnd = (b: number): number => {
    const dot = nameEnd[b] as number;
    if (dot === b || code(dot) !== 46 || (nextAlnum[b] as number) >= dot) return -1;
    const end = wordEnd[dot + 1] as number;
    const length = end - dot - 1;
    if (length === 0 || length > LONGEST_EXTENSION || code(end) === 46) return -1;
    return FILE_EXTENSIONS.has(text.slice(dot + 1, end).toLowerCase()) ? end : -1;
  };
  // lastBase[p]: the last base-name start right after a `/` in the path run from p whose file name
  // holds (-1 when none): the run ends at the first character outside `\w . ~ / -`.
  const lastBase = new Int32Array(n + 1);
  lastBase[n] = -1;
  for (let p = n - 1; p >= 0; p--) {
    const later = lastBase[p + 1] as number;
    lastBase[p] = !isPathChar(code(p))
      ? -1
      : later !== -1
        ? later
        : code(p) === 47 && fileNameEnd(p + 1) !== -1
          ? p + 1
          : -1;
  }
  if (meter !== undefined) meter.steps += 2 * n;
  let out = '';
  let copied = 0;
  let s = 0;
  while (s < n) {
    if (meter !== undefined) meter.steps++;
    const before = s === 0 ? NaN : code(s - 1);
    if (isPathChar(code(s)) && !isWordChar(before) && before !== 64) {
      const base = lastBase[s] !== -1 ? (lastBase[s] as number) : s;
      const end = fileNameEnd(base);
      if (end !== -1) {
        out += `${text.slice(copied, s)}file`;
        copied = end;
        s = end;
        continue;
      }
    }
    s++;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** Exposed for tests: {@link spaceIdentifierBoundaries} with a step count. */
export const identifierBoundariesForTest = spaceIdentifierBoundaries;
