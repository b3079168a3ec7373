/** @module cli/parse — option values checked once, with messages that name the flag and the value. */
import { CredenceError } from '../core/errors.js';
import { shownText } from '../core/security/scrub.js';

/** A whole number ≥ 1 for --limit. */
export function parseLimit(text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1)
    throw new CredenceError('INVALID_INPUT', `--limit must be a whole number ≥ 1, got ${shownText(text)}`);
  return value;
}

/** A comma-separated list, blanks dropped. */
export const parseList = (text: string): string[] =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

/** A whole number ≥ 0 for `flag`. */
export function parseCount(flag: string, text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0)
    throw new CredenceError('INVALID_INPUT', `${flag} must be a whole number ≥ 0, got ${shownText(text)}`);
  return n;
}

/** `--db PATH`: an empty path (`--db ""`) is refused, not read as no --db (which would use another store). */
export function parseDbPath(text: string): string {
  if (text.trim() === '') throw new CredenceError('INVALID_INPUT', '--db needs a path');
  return text;
}
