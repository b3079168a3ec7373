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
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))
      throw new CredenceError('INVALID_INPUT', `${shown} is UTF-16 text: save it as UTF-8`);
    const lenient = bytes.toString('utf8');
    const line = lenient.slice(0, lenient.indexOf('\uFFFD')).split('\n').length;
    throw new CredenceError(
      'INVALID_INPUT',
      `${shown} is not UTF-8 text (line ${line} holds bytes that are not UTF-8; a Latin-1 file?): save it as UTF-8`,
    );
  }
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
