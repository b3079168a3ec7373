/**
 * @module datasets/jsonl
 * JSON Lines text to values: one JSON value a line, blank lines skipped, 1-based line numbers. A
 * malformed line is reported with its number and the JSON parser's reason, and the other lines still
 * come back, so one bad line never hides a whole file. Pure: the caller reads the file.
 */
import { withoutBom } from '../core/text/plain-text.js';

export interface JsonLine {
  /** 1-based line number in the text. */
  line: number;
  value: unknown;
}

export interface JsonLineError {
  /** 1-based line number in the text. */
  line: number;
  /** The JSON parser's message. */
  reason: string;
}

export interface JsonLines {
  values: JsonLine[];
  errors: JsonLineError[];
}

/** Parses JSON Lines text (LF or CRLF, an optional byte-order mark) into values and per-line errors. */
export function readJsonLines(text: string): JsonLines {
  const values: JsonLine[] = [];
  const errors: JsonLineError[] = [];
  const lines = withoutBom(text).split(/\r?\n/);
  lines.forEach((raw, index) => {
    if (raw.trim() === '') return;
    const line = index + 1;
    try {
      values.push({ line, value: JSON.parse(raw) as unknown });
    } catch (error) {
      errors.push({ line, reason: error instanceof Error ? error.message : String(error) });
    }
  });
  return { values, errors };
}
