/**
 * @module core/text/fts5-tokenizer
 * The tokens SQLite's FTS5 makes with `tokenize = 'porter unicode61'`, so the PostgreSQL store indexes
 * the very same tokens. Pure. Written from SQLite 3.53's behaviour and checked against it code point by
 * code point (fts5-tokenizer.test.ts); no SQLite code copied. unicode61 classifies by Unicode 6.1
 * ({@link SEPARATORS}: later emoji are word characters), drops SQLite's 25 combining diacritics inside a
 * token ({@link isDiacritic}), folds case as of 6.1 ({@link FOLD_BLOCKS}) and strips one diacritic
 * from Latin letters. porter is SQLite's own variant, on UTF-8 bytes (3–64 bytes; non-ASCII bytes are
 * consonants); where it cuts a multi-byte character the token ends in U+FFFD.
 */

/** Tokens longer than this many UTF-8 bytes are not stemmed (SQLite's FTS5_PORTER_MAX_TOKEN). */
export const FTS5_PORTER_MAX_TOKEN = 64;

/**
 * The non-ASCII code points unicode61 treats as separators (Unicode 6.1 categories M, P, S, Z, Cc,
 * Cf, Cs, plus U+FFFE/U+FFFF), as ranges: comma-separated `gap+extra` in base 36, where `gap` counts
 * the token characters since the previous range (from U+0080) and the range covers `extra + 1` code
 * points. Recorded from SQLite by probing every code point; fts5-tokenizer.test.ts checks it.
 */
const SEPARATORS =
  '0+15,1+6,2,1+2,2,3,n,v,cq+3,c+d,5+6,1,1+3k,5,8,5+1,1,32,3v+7,5s+5,15+1,4,1+1i,17+1,b+4,1+l,2+1,' +
  '17+k,a+3,2,2r,1+e,2+6,f+1,1+d,1,1,u+q,2j+a,1m+8,2+3,s+3,1+8,1+2,1+4,2+e,q+2,2,3p+q,1+3,1i+2,1+h,' +
  '1+6,a+3,a,g+2,1k,1+6,2+1,2+2,9,a+1,e+1,6+1,5+2,1k,1+4,4+1,2+2,3,u+1,3,b+2,1k,1+7,1+2,1+2,k+1,c+1,' +
  'f+2,1k,1+6,2+1,2+2,8+1,a+1,c,h,1n+4,3+2,1+3,9,r+7,6+2,1m+6,1+2,1+3,7+1,b+1,r,2+1,1k,1+6,1+2,1+3,' +
  '7+1,b+1,u+1,1m+6,1+2,1+3,9,a+1,l,8+1,1y,4+5,1,1+7,i+2,1o,2+6,4,7+8,a+1,2d,2+5,1+1,b+5,1f+u,k+b,' +
  '1d+m,5+a,1+z,1+e,1+c,28+j,b+5,6+3,4+2,1+2,2+6,3+3,d+b,1,a+5,2j,gx+b,13+9,2u,h8+1,h,q+1,26+2,10+2,' +
  't+4,r+1,u+1,1s+y,1+3,1,y+e,4a,3a+b,4+b,4,3+1,2y+g,7+1,k+x,n+4,2+1,1h+9,1+s,2,w+6,1+5,2a+4,1b+g,' +
  'l+y,3+2,u+c,1k+d,8+3,10+j,3+4,1q+1,1s+7,8+o,4,4+2,5n+12,l+3,cd,1+2,b+2,d+2,d+2,d+1,1+2s,5+5,a+4,' +
  'b+4,h+p,m+w,f+1,1+3,1+1,a,1+2,5+5,1,1,1,4,b+1,4+4,5+3,1,1s+gz,c+12,p+a,29+25,m+e7,1+38,u+qg,3+9,' +
  'az+5,4+2,7+3,1+1,34,e,2o+26,1+b,1w+p,1+2g,c+5x,q+b,4+4,3+o,9+6,5+1,5+2,2h+3,3,2i,44+1,4+9,w+z,' +
  's+u,b+t,8,f+v,a+12,f+1q,1+73,534+1r,h3k+1i,1j+1,7h+2,2n+f,w,28+7,8+m,9+1,2v+1,3b,3,4,n+8,a+3,' +
  '1m+3,8+1,1e+g,9+1,g+h,6+2,17+9,n+c,b,w+3,1b+q,g+1,21+d,c,8+1,e+3,n+2,1,1g,1+2,2+1,5+1,1,s+1,b+6,' +
  '3+1,6k+a,8pe+1kv,5cu,a,3s+f,ak+1,58+1,2+p,6+6,9+y,1+i,1+3,43,1+e,a+6,q+5,q+a,3e+6,1+6,a+6,74+2,' +
  '1g+8,1l+g,6+b,1g+19,bl,1c,w6,5j,v,5d+2,1+1,5+3,14+2,4,g+8,12,55+6,xs+2,1h+l,1e+2,19+h,1q+2,10+d,' +
  'b+3,1o+2,1c+d,4+3,yq+c,2pk+3,esd+19,g+3,j1p+6t,a+12,2+50,y+1x,56+2e,oa,p,v,p,v,p,v,p,v,p,4ks+1,' +
  '7i+17,4+2r,c+e,2+d,2+e,1+e,1c+u,1+1n,4+16,23+s,d+16,5+8,7+1,4u+w,f+5,1+1x,3+j,c+10,1+4,l+g,f+1q,' +
  '1,1+51,1+3,3+1p,2+3,c+n,43+1x,4+a,1c+1x,1m+37,gwi5,u+2n,3k+6n';

/** Combining marks SQLite drops inside a token (U+0300–U+0331 as `sqlite3Fts5UnicodeIsdiacritic`). */
const DIACRITIC_RANGES: readonly (readonly [number, number])[] = [
  [0x300, 0x304],
  [0x306, 0x30c],
  [0x30f, 0x30f],
  [0x311, 0x311],
  [0x31b, 0x31b],
  [0x323, 0x328],
  [0x32d, 0x32e],
  [0x330, 0x331],
];

/**
 * The blocks whose upper-case letters SQLite folds (the case pairs of Unicode 6.1), less the letters
 * added later: JavaScript's `toLowerCase` is applied inside these only, so the case pairs a newer
 * Unicode (a newer Node.js) adds elsewhere change nothing. The tests compare every BMP code point.
 */
const FOLD_BLOCKS: readonly (readonly [number, number])[] = [
  [0x00c0, 0x037e], // Latin-1, Latin Extended-A/B, IPA, Greek (U+037F came in 7.0)
  [0x0380, 0x0527], // Greek, Cyrillic, Cyrillic Supplement (U+0528– came in 7.0)
  [0x0531, 0x0556], // Armenian
  [0x10a0, 0x10cd], // Georgian
  [0x1e00, 0x1fff], // Latin Extended Additional, Greek Extended
  [0x2126, 0x2183], // letterlike symbols, Roman numerals
  [0x2c00, 0x2c2e], // Glagolitic (U+2C2F came in 14.0)
  [0x2c60, 0x2cf2], // Latin Extended-C, Coptic
  [0xa640, 0xa697], // Cyrillic Extended-B (U+A698– came in 7.0)
  [0xa722, 0xa793], // Latin Extended-D up to 6.0's letters
  [0xa7a0, 0xa7aa], //   and 6.1's
  [0xff21, 0xff3a], // fullwidth Latin
];

/** Where Unicode case folding (SQLite) differs from lower case (JavaScript), plus İ, folded then stripped. */
const FOLD_EXTRA: ReadonlyMap<number, number> = new Map([
  [0x00b5, 0x03bc],
  [0x03c2, 0x03c3],
  [0x03d0, 0x03b2],
  [0x03d1, 0x03b8],
  [0x03d5, 0x03c6],
  [0x03d6, 0x03c0],
  [0x03f0, 0x03ba],
  [0x03f1, 0x03c1],
  [0x03f5, 0x03b5],
  [0x1fbe, 0x03b9],
  [0x0130, 0x69],
  [0x017f, 0x73],
  [0x1e9b, 0x73],
]);

/** Deseret capitals, the only folded code points above the BMP. */
const DESERET_FIRST = 0x10400;
const DESERET_LAST = 0x10427;
/** The last code point whose diacritic SQLite removes (Latin Extended Additional). */
const LAST_DIACRITIC_FOLD = 0x1eff;

// ---- classification tables, built once ------------------------------------------------------

/** 1 where an ASCII character is a token character. */
const ASCII_TOKEN = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  ASCII_TOKEN[c] = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) ? 1 : 0;
}

/** Per BMP code point: 0 token character, 1 separator, 2 diacritic (separator at a token's start). */
const BMP_CLASS = new Uint8Array(0x10000);
/** Separator ranges above the BMP, as [first, last] pairs, sorted. */
const ASTRAL_SEPARATORS: number[] = [];
{
  let next = 0x80;
  for (const part of SEPARATORS.split(',')) {
    const [gap, extra] = part.split('+');
    const first = next + parseInt(gap as string, 36);
    const last = first + (extra === undefined ? 0 : parseInt(extra, 36));
    for (let c = first; c <= Math.min(last, 0xffff); c++) BMP_CLASS[c] = 1;
    if (last > 0xffff) ASTRAL_SEPARATORS.push(Math.max(first, 0x10000), last);
    next = last + 1;
  }
  for (let c = 0; c < 0x80; c++) BMP_CLASS[c] = ASCII_TOKEN[c] === 1 ? 0 : 1;
  for (const [first, last] of DIACRITIC_RANGES) for (let c = first; c <= last; c++) BMP_CLASS[c] = 2;
}

function isAstralSeparator(cp: number): boolean {
  let lo = 0;
  let hi = ASTRAL_SEPARATORS.length / 2 - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (cp < (ASTRAL_SEPARATORS[2 * mid] as number)) hi = mid - 1;
    else if (cp > (ASTRAL_SEPARATORS[2 * mid + 1] as number)) lo = mid + 1;
    else return true;
  }
  return false;
}

/** Is `cp` one of the combining diacritics unicode61 keeps (and drops) inside a token? */
export function isDiacritic(cp: number): boolean {
  return cp < 0x10000 && BMP_CLASS[cp] === 2;
}

/** Does unicode61 start or continue a token with code point `cp` (a diacritic only continues one)? */
export function isTokenChar(cp: number, inside: boolean): boolean {
  if (cp < 0x10000) {
    const k = BMP_CLASS[cp] as number;
    return k === 0 || (k === 2 && inside);
  }
  return !isAstralSeparator(cp);
}

/** BMP folds, computed on first use: -1 not yet known, 0 dropped, else the folded code point. */
const BMP_FOLD = new Int32Array(0x10000).fill(-1);

/** unicode61's fold of a token character (`remove_diacritics 1`): a code point, or 0 when dropped. */
export function fts5Fold(cp: number): number {
  if (cp < 0x80) return cp >= 65 && cp <= 90 ? cp + 32 : cp;
  if (cp >= 0x10000) return cp >= DESERET_FIRST && cp <= DESERET_LAST ? cp + 40 : cp;
  let folded = BMP_FOLD[cp] as number;
  if (folded < 0) {
    folded = computeFold(cp);
    BMP_FOLD[cp] = folded;
  }
  return folded;
}

function computeFold(cp: number): number {
  if (BMP_CLASS[cp] === 2) return 0;
  let c = FOLD_EXTRA.get(cp) ?? cp;
  if (c === cp && FOLD_BLOCKS.some(([first, last]) => cp >= first && cp <= last)) {
    const lower = String.fromCharCode(cp).toLowerCase();
    if (lower.length === 1) c = lower.charCodeAt(0);
  }
  if (c >= 0x80 && c <= LAST_DIACRITIC_FOLD) {
    // An ASCII letter with exactly one combining diacritic loses it (SQLite's "simple" removal).
    const d = String.fromCharCode(c).normalize('NFD');
    if (d.length === 2) {
      const base = d.charCodeAt(0);
      const mark = d.charCodeAt(1);
      if (base >= 97 && base <= 122 && mark >= 0x300 && mark <= 0x36f) c = base;
    }
  }
  return c;
}

// ---- tokenizer --------------------------------------------------------------------------------

/**
 * The tokens FTS5's `porter unicode61` tokenizer makes of `text`, in order: lower-cased,
 * diacritics removed, porter-stemmed (module comment). Their count is FTS5's token count for the
 * text (a column's length for bm25).
 */
export function fts5Tokens(text: string): string[] {
  const tokens: string[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    let c = text.charCodeAt(i);
    if (c < 0x80) {
      if (ASCII_TOKEN[c] === 0) {
        i++;
        continue;
      }
    } else {
      const cp = codePointAt(text, i, c);
      if (!isTokenChar(cp, false)) {
        i += cp > 0xffff ? 2 : 1;
        continue;
      }
    }
    // A token starts at i: scan to its end, noting whether it needs folding.
    const start = i;
    let ascii = true;
    let upper = false;
    while (i < n) {
      c = text.charCodeAt(i);
      if (c < 0x80) {
        if (ASCII_TOKEN[c] === 0) break;
        if (c <= 90 && c >= 65) upper = true;
        i++;
      } else {
        const cp = codePointAt(text, i, c);
        if (!isTokenChar(cp, true)) break;
        ascii = false;
        i += cp > 0xffff ? 2 : 1;
      }
    }
    const raw = text.slice(start, i);
    const token = ascii ? (upper ? raw.toLowerCase() : raw) : foldToken(raw);
    tokens.push(porterStem(token));
  }
  return tokens;
}

/** The code point at `i` (whose code unit is `c`); a lone surrogate stays a surrogate (a separator). */
function codePointAt(text: string, i: number, c: number): number {
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
    const d = text.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
  }
  return c;
}

function foldToken(raw: string): string {
  let out = '';
  for (const ch of raw) {
    const f = fts5Fold(ch.codePointAt(0) as number);
    if (f !== 0) out += String.fromCodePoint(f);
  }
  return out;
}

// ---- porter -----------------------------------------------------------------------------------

/** The word being stemmed: UTF-8 bytes (ASCII letters are their own bytes), room for growth. */
const W = new Uint8Array(FTS5_PORTER_MAX_TOKEN + 64);
/** The lowest index of W a rule has rewritten (W.length when none has). */
let touched = 0;
const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder();

/** FTS5's porter stem of one unicode61 token. */
export function porterStem(token: string): string {
  let n = token.length;
  let ascii = true;
  for (let i = 0; i < n; i++) {
    if (token.charCodeAt(i) >= 0x80) {
      ascii = false;
      break;
    }
  }
  if (ascii) {
    if (n < 3 || n > FTS5_PORTER_MAX_TOKEN) return token;
    for (let i = 0; i < n; i++) W[i] = token.charCodeAt(i);
  } else {
    const bytes = utf8.encode(token);
    if (bytes.length < 3 || bytes.length > FTS5_PORTER_MAX_TOKEN) return token;
    W.set(bytes);
    n = bytes.length;
  }
  touched = W.length;
  const stemmed = stemBytes(n);
  if (stemmed === n && touched >= n) return token;
  if (ascii) {
    // The stem is the token's first min(touched, stemmed) letters and what the rules wrote after them.
    let tail = '';
    for (let i = touched; i < stemmed; i++) tail += String.fromCharCode(W[i] as number);
    return token.slice(0, Math.min(touched, stemmed)) + tail;
  }
  return decodeStem(stemmed);
}

/** The stem in W[0, n) as a string; a cut last character (module comment) becomes itself + U+FFFD. */
function decodeStem(n: number): string {
  let lead = n - 1;
  while (lead > 0 && ((W[lead] as number) & 0xc0) === 0x80) lead--;
  const b = W[lead] as number;
  const size = b < 0x80 ? 1 : b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2;
  if (lead + size === n) return fromUtf8.decode(W.subarray(0, n));
  // Step 1b removed the last byte of a character whose last two bytes were equal: restore it.
  const whole = new Uint8Array(size);
  whole.set(W.subarray(lead, n));
  whole[size - 1] = W[n - 1] as number;
  return fromUtf8.decode(W.subarray(0, lead)) + fromUtf8.decode(whole) + '\uFFFD';
}

function isVowel(c: number, yIsVowel: boolean): boolean {
  return c === 97 || c === 101 || c === 105 || c === 111 || c === 117 || (yIsVowel && c === 121);
}

/** Past the first vowel-then-consonant in W[from, from + len): the length to its end, or 0. */
function gobbleVC(from: number, len: number, prevConsonant: boolean): number {
  let consonant = prevConsonant;
  let i = 0;
  for (; i < len; i++) {
    consonant = !isVowel(W[from + i] as number, consonant);
    if (!consonant) break;
  }
  for (i++; i < len; i++) {
    consonant = !isVowel(W[from + i] as number, consonant);
    if (consonant) return i + 1;
  }
  return 0;
}

/** Porter's measure m of W[0, n) is above 0. */
function mGt0(n: number): boolean {
  return gobbleVC(0, n, false) !== 0;
}

function mGt1(n: number): boolean {
  const k = gobbleVC(0, n, false);
  return k !== 0 && gobbleVC(k, n - k, true) !== 0;
}

function mEq1(n: number): boolean {
  const k = gobbleVC(0, n, false);
  return k !== 0 && gobbleVC(k, n - k, true) === 0;
}

/** *o: W[0, n) ends consonant-vowel-consonant, the last not w, x or y. */
function endsCvc(n: number): boolean {
  const last = W[n - 1];
  if (last === 119 || last === 120 || last === 121) return false;
  let mask = 0;
  let consonant = false;
  for (let i = 0; i < n; i++) {
    consonant = !isVowel(W[i] as number, consonant);
    mask = ((mask << 1) | (consonant ? 1 : 0)) & 7;
  }
  return mask === 5;
}

/** *v*: W[0, n) holds a vowel (y counts anywhere but first). */
function hasVowel(n: number): boolean {
  for (let i = 0; i < n; i++) if (isVowel(W[i] as number, i > 0)) return true;
  return false;
}

function endsWith(n: number, suffix: string): boolean {
  const k = suffix.length;
  if (n <= k) return false;
  for (let i = 0; i < k; i++) if (W[n - k + i] !== suffix.charCodeAt(i)) return false;
  return true;
}

/** Replaces the last `cut` bytes of W[0, n) by `by`; the new length. */
function replace(n: number, cut: number, by: string): number {
  const at = n - cut;
  for (let i = 0; i < by.length; i++) W[at + i] = by.charCodeAt(i);
  if (at < touched) touched = at;
  return at + by.length;
}

type Condition = (stemLength: number) => boolean;
/** A rule: suffix, replacement, condition on the stem. Per step, the first suffix that matches decides. */
type Rule = readonly [string, string, Condition];

const mGt1SorT: Condition = (n) => (W[n - 1] === 115 || W[n - 1] === 116) && mGt1(n);

const STEP2: readonly Rule[] = [
  ['ational', 'ate', mGt0],
  ['tional', 'tion', mGt0],
  ['enci', 'ence', mGt0],
  ['anci', 'ance', mGt0],
  ['izer', 'ize', mGt0],
  ['logi', 'log', mGt0],
  ['bli', 'ble', mGt0],
  ['alli', 'al', mGt0],
  ['entli', 'ent', mGt0],
  ['eli', 'e', mGt0],
  ['ousli', 'ous', mGt0],
  ['ization', 'ize', mGt0],
  ['ation', 'ate', mGt0],
  ['ator', 'ate', mGt0],
  ['alism', 'al', mGt0],
  ['iveness', 'ive', mGt0],
  ['fulness', 'ful', mGt0],
  ['ousness', 'ous', mGt0],
  ['aliti', 'al', mGt0],
  ['iviti', 'ive', mGt0],
  ['biliti', 'ble', mGt0],
];
const STEP3: readonly Rule[] = [
  ['ical', 'ic', mGt0],
  ['ness', '', mGt0],
  ['icate', 'ic', mGt0],
  ['iciti', 'ic', mGt0],
  ['ful', '', mGt0],
  ['ative', '', mGt0],
  ['alize', 'al', mGt0],
];
const STEP4: readonly Rule[] = [
  ['al', '', mGt1],
  ['ance', '', mGt1],
  ['ence', '', mGt1],
  ['er', '', mGt1],
  ['ic', '', mGt1],
  ['able', '', mGt1],
  ['ible', '', mGt1],
  ['ant', '', mGt1],
  ['ement', '', mGt1],
  ['ment', '', mGt1],
  ['ent', '', mGt1],
  ['ion', '', mGt1SorT],
  ['ou', '', mGt1],
  ['ism', '', mGt1],
  ['ate', '', mGt1],
  ['iti', '', mGt1],
  ['ous', '', mGt1],
  ['ive', '', mGt1],
  ['ize', '', mGt1],
];

/**
 * Rules grouped by the suffix's second-last letter, keeping their order: SQLite picks the group by
 * the word's second-last byte, then the first suffix of the group that matches decides (so
 * `-ization` failing its condition does not fall back to `-ation`).
 */
function bySecondLast(rules: readonly Rule[]): readonly (readonly Rule[] | undefined)[] {
  const groups: Rule[][] = [];
  for (const rule of rules) (groups[rule[0].charCodeAt(rule[0].length - 2)] ??= []).push(rule);
  return groups;
}
const STEP2_BY = bySecondLast(STEP2);
const STEP3_BY = bySecondLast(STEP3);
const STEP4_BY = bySecondLast(STEP4);

function applyStep(n: number, groups: readonly (readonly Rule[] | undefined)[]): number {
  const group = n >= 2 ? groups[W[n - 2] as number] : undefined;
  if (group === undefined) return n;
  for (const [suffix, by, condition] of group) {
    if (!endsWith(n, suffix)) continue;
    return condition(n - suffix.length) ? replace(n, suffix.length, by) : n;
  }
  return n;
}

/** Stems W[0, n) in place (3 ≤ n ≤ 64); the stem's length. */
function stemBytes(length: number): number {
  let n = length;
  // Step 1a: -sses → -ss, -ies → -i (a three-letter -ies → -ie), -ss stays, -s goes.
  if (W[n - 1] === 115) {
    if (W[n - 2] === 101) {
      n = (n > 4 && W[n - 4] === 115 && W[n - 3] === 115) || (n > 3 && W[n - 3] === 105) ? n - 2 : n - 1;
    } else if (W[n - 2] !== 115) {
      n--;
    }
  }
  // Step 1b: (m>0) -eed → -ee; (*v*) -ed, -ing go, and then the word is tidied.
  let cut = false;
  if (endsWith(n, 'eed')) {
    if (mGt0(n - 3)) n = replace(n, 3, 'ee');
  } else if (endsWith(n, 'ed')) {
    if (hasVowel(n - 2)) {
      n = replace(n, 2, '');
      cut = true;
    }
  } else if (endsWith(n, 'ing')) {
    if (hasVowel(n - 3)) {
      n = replace(n, 3, '');
      cut = true;
    }
  }
  if (cut) {
    if (endsWith(n, 'at')) n = replace(n, 2, 'ate');
    else if (endsWith(n, 'bl')) n = replace(n, 2, 'ble');
    else if (endsWith(n, 'iz')) n = replace(n, 2, 'ize');
    else {
      const c = W[n - 1] as number;
      if (!isVowel(c, false) && c !== 108 && c !== 115 && c !== 122 && n >= 2 && c === W[n - 2]) {
        n = replace(n, 1, '');
      } else if (mEq1(n) && endsCvc(n)) {
        n = replace(n, 0, 'e');
      }
    }
  }
  // Step 1c: (*v*) -y → -i.
  if (W[n - 1] === 121 && hasVowel(n - 1)) n = replace(n, 1, 'i');
  // Steps 2 to 4.
  n = applyStep(n, STEP2_BY);
  n = applyStep(n, STEP3_BY);
  n = applyStep(n, STEP4_BY);
  // Step 5a: (m>1 or (m=1 and not *o)) -e goes.
  if (W[n - 1] === 101 && (mGt1(n - 1) || (mEq1(n - 1) && !endsCvc(n - 1)))) n = replace(n, 1, '');
  // Step 5b: (m>1) -ll → -l.
  if (n > 1 && W[n - 1] === 108 && W[n - 2] === 108 && mGt1(n - 1)) n = replace(n, 1, '');
  return n;
}
