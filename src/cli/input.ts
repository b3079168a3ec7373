/** @module cli/input — reading a file argument or `-` for standard input, as JSON lines. */
import { readFileSync } from 'node:fs';
import { CredenceError } from '../core/errors.js';
import { readJsonLines } from '../datasets/jsonl.js';

/** The whole text of FILE, or of standard input for `-`; a missing file is a clear error. */
export function readInput(file: string): string {
  try {
    return readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (error) {
    throw new CredenceError(
      'INVALID_INPUT',
      `cannot read ${file === '-' ? 'standard input' : file}: ${(error as Error).message}`,
      { cause: error },
    );
  }
}

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
  for (const p of problems) stderr(`line ${p.line}: ${p.reason}\n`);
}
