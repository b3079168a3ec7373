/**
 * @module core/text/plain-text
 * Two small rules of text read from outside, each in one place: a byte order mark before a file's text
 * (an editor's "UTF-8 with BOM") is no part of it, and the characters that break a line of plain text or hide
 * in it (C0 and C1 controls, zero-width and direction marks, line and paragraph separators, the BOM) become
 * spaces before a field is shown on one line; a text of only those and spaces is blank (isBlankText); a text cut
 * to a length is cut by characters, never inside one. Pure.
 */

/** `text` without a leading byte order mark (U+FEFF). */
export const withoutBom = (text: string): string => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);

const CONTROL = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]/g;

/** `text` with each control, zero-width, direction or separator character replaced by a space. */
export const controlsToSpaces = (text: string): string => text.replace(CONTROL, ' ');

/** Spaces, controls (NUL too), format characters (zero-width, direction marks, BOM) and others that show nothing. */
const INVISIBLE = /^[\s\p{Z}\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}]*$/u;

/**
 * Whether `text` shows nothing: empty, or only white space and invisible characters (U+200B, NUL, U+2060, a BOM…).
 * The one test of a blank intent (the record schemas, execute_dag, the PocketFlow adapter): recall finds a run by it.
 */
export const isBlankText = (text: string): boolean => INVISIBLE.test(text);

/** `text` at most `max` characters (code points: an emoji is never split), its last one `…` when it was cut. */
export function cutChars(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}
