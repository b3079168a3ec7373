/** @module cli/input — reading a file argument or `-` for standard input, as JSON lines. */
import { readFileSync } from 'node:fs';
import { CredenceError } from '../core/errors.js';
import { readJsonLines } from '../datasets/jsonl.js';

/**
 * The whole text of FILE, or of standard input for `-`, as UTF-8 (a leading byte order mark dropped); a missing file,
 * or bytes that are not UTF-8 (a Latin-1 or UTF-16 file), is a clear error naming the line, never text changed.
 */
export function readInput(file: string): string {
  const shown = file === '-' ? 'standard input' : file;
  let bytes: Buffer;
  try {
    bytes = readFileSync(file === '-' ? 0 : file);
  } catch (error) {
    throw new CredenceError('INVALID_INPUT', `cannot read ${shown}: ${(error as Error).message}`, { cause: error });
  }
  const utf16 = `${shown} is UTF-16 text: save it as UTF-8`;
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))
    throw new CredenceError('INVALID_INPUT', utf16);
  const strict = new TextDecoder('utf-8', { fatal: true });
  let text: string;
  try {
    text = strict.decode(bytes);
  } catch {
    // The first line that does not decode (a U+FFFD written in UTF-8 before it is text, not the culprit).
    let line = 1;
    for (let start = 0; start < bytes.length; line += 1) {
      const end = bytes.indexOf(0x0a, start);
      const stop = end === -1 ? bytes.length : end;
      try {
        strict.decode(bytes.subarray(start, stop));
      } catch {
        break;
      }
      start = stop + 1;
    }
    throw new CredenceError(
      'INVALID_INPUT',
      `${shown} is not UTF-8 text (line ${line} holds bytes that are not UTF-8; a Latin-1 file?): save it as UTF-8`,
    );
  }
  // UTF-16 without a byte order mark decodes as UTF-8 with a NUL beside every Latin letter.
  if (text.includes('\u0000'))
    throw new CredenceError(
      'INVALID_INPUT',
      `${shown} holds NUL bytes (UTF-16 text without a byte order mark?): save it as UTF-8`,
    );
  return text;
}

/** Lines of problems printed one by one; the rest are counted in one line (a file of bad lines floods no one). */
export const SHOWN_PROBLEMS = 20;

export interface LineProblem {
  line: number;
  reason: string;
}

/**
 * Parses JSON lines and checks each with `parse`; bad lines are reported with their number and
 * reason, and the good ones still come back.
 */
export function checkedLines<T>(
  text: string,
  parse: (value: unknown) => T,
): { items: { line: number; value: T }[]; problems: LineProblem[] } {
  const { values, errors } = readJsonLines(text);
  const problems: LineProblem[] = errors.map((e) => ({ line: e.line, reason: `malformed JSON: ${e.reason}` }));
  const items: { line: number; value: T }[] = [];
  for (const { line, value } of values) {
    try {
      items.push({ line, value: parse(value) });
    } catch (error) {
      problems.push({ line, reason: (error as Error).message });
    }
  }
  problems.sort((a, b) => a.line - b.line);
  return { items, problems };
}

export function reportProblems(stderr: (text: string) => void, problems: readonly LineProblem[]): void {
  for (const p of problems.slice(0, SHOWN_PROBLEMS)) stderr(`credence: line ${p.line}: ${p.reason}\n`);
  const more = problems.length - SHOWN_PROBLEMS;
  if (more > 0) stderr(`credence: … and ${more} more lines with a problem (the first ${SHOWN_PROBLEMS} are shown)\n`);
}
