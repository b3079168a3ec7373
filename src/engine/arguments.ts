/**
 * @module engine/arguments
 * The engine's own arguments, checked where a library caller passes them (a surface has parsed them already): a text
 * that is no string, a list that is no array, a limit that is no whole number ≥ 1 is INVALID_INPUT naming the
 * argument and what it got (`query must be text, got a number`), never a TypeError from deep inside.
 */
import { CredenceError } from '../core/errors.js';
import { type InputLimitName, requireWithinLimit } from '../core/limits.js';
import { kindOf, shownValue } from '../schemas/index.js';

/** What a caller passed, in words: `none` for nothing, else `a number`, `null`, `an array` (schemas kindOf). */
const got = (value: unknown): string => (value === undefined ? 'none' : kindOf(value));

/** `value` is a string within its input limit. @throws CredenceError INVALID_INPUT, INPUT_TOO_LARGE */
export function requireText(name: string, value: unknown, limit: InputLimitName): asserts value is string {
  if (typeof value !== 'string') throw new CredenceError('INVALID_INPUT', `${name} must be text, got ${got(value)}`);
  requireWithinLimit(name, value, limit);
}

/** `value` is an array (its items are the caller's to check). @throws CredenceError INVALID_INPUT */
export function requireList(name: string, value: unknown): asserts value is readonly unknown[] {
  if (!Array.isArray(value)) throw new CredenceError('INVALID_INPUT', `${name} must be a list, got ${got(value)}`);
}

/**
 * `value` is a whole number from `min` to `max` (a count of days, a number of results): NaN, a fraction, a negative or
 * a huge one would answer with nothing, or abort the process making its answer. @throws CredenceError INVALID_INPUT
 */
export function requireWholeNumber(
  name: string,
  value: unknown,
  min: number,
  max = Number.POSITIVE_INFINITY,
): asserts value is number {
  if (!(typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max)) {
    const range = max === Number.POSITIVE_INFINITY ? `>= ${min}` : `from ${min} to ${max}`;
    throw new CredenceError('INVALID_INPUT', `${name} must be a whole number ${range}, got ${shownValue(value)}`);
  }
}

/** The latest instant a Date holds (±8.64e15 ms): beyond it a time cannot be shown (`Invalid time value`). */
export const LATEST_DATE_MS = 8.64e15;

/** `value` is a time in epoch milliseconds a Date can hold. @throws CredenceError INVALID_INPUT */
export function requireEpochMs(name: string, value: unknown): asserts value is number {
  if (!(typeof value === 'number' && Number.isFinite(value) && Math.abs(value) <= LATEST_DATE_MS))
    throw new CredenceError('INVALID_INPUT', `${name} must be a time in epoch milliseconds, got ${shownValue(value)}`);
}

/**
 * `value` is absent or an options object whose `limit`, if any, is a whole number ≥ 1 and whose `minConfidence`, if
 * any, a number from 0 to 1 (either ignored would answer with nothing, or everything, and no word of why).
 * @throws CredenceError INVALID_INPUT
 */
export function requireOptions(name: string, value: unknown): void {
  if (value === undefined) return;
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new CredenceError('INVALID_INPUT', `${name} must be an object of options, got ${kindOf(value)}`);
  const { limit, minConfidence } = value as { limit?: unknown; minConfidence?: unknown };
  if (limit !== undefined && !(typeof limit === 'number' && Number.isInteger(limit) && limit >= 1))
    throw new CredenceError('INVALID_INPUT', `${name}.limit must be a whole number >= 1, got ${shownValue(limit)}`);
  if (minConfidence !== undefined && !(typeof minConfidence === 'number' && minConfidence >= 0 && minConfidence <= 1))
    throw new CredenceError(
      'INVALID_INPUT',
      `${name}.minConfidence must be a number from 0 to 1, got ${shownValue(minConfidence)}`,
    );
}

/** A `bm25Weight` option, if given, is a weight from 0 to 1 (5 made scores above 1, read by labels and calibration). */
function requireWeight(name: string, options: object): void {
  const { bm25Weight } = options as { bm25Weight?: unknown };
  if (bm25Weight !== undefined && !(typeof bm25Weight === 'number' && bm25Weight >= 0 && bm25Weight <= 1))
    throw new CredenceError(
      'INVALID_INPUT',
      `${name}.bm25Weight must be a number from 0 to 1, got ${shownValue(bm25Weight)}`,
    );
}

/**
 * Recall's options past {@link requireOptions} (walk 18, item 6): `bm25Weight` a weight from 0 to 1, `asOf` a time
 * (epoch milliseconds, or a Date: an ISO string became NaN and answered nothing, as if no memory was true then).
 * @throws CredenceError INVALID_INPUT
 */
export function requireRecallOptions(name: string, value: unknown): void {
  requireOptions(name, value);
  if (value === undefined) return;
  requireWeight(name, value as object);
  const { asOf } = value as { asOf?: unknown };
  if (asOf === undefined || (asOf instanceof Date && Number.isFinite(asOf.getTime()))) return;
  if (!(typeof asOf === 'number' && Number.isFinite(asOf) && Math.abs(asOf) <= LATEST_DATE_MS)) {
    const hint = typeof asOf === 'string' ? ` (Date.parse(${JSON.stringify(asOf)}) gives one)` : '';
    throw new CredenceError(
      'INVALID_INPUT',
      `${name}.asOf must be a time in epoch milliseconds${hint}, got ${shownValue(asOf)}`,
    );
  }
}

/**
 * Tool search's and the DAG's options past {@link requireOptions}: `bm25Weight` a weight from 0 to 1, `context` (the
 * tools already used) a list of tool ids (a string threw a TypeError, `.filter is not a function`).
 * @throws CredenceError INVALID_INPUT
 */
export function requireContextOptions(name: string, value: unknown): void {
  requireOptions(name, value);
  if (value === undefined) return;
  requireWeight(name, value as object);
  const { context } = value as { context?: unknown };
  if (context === undefined) return;
  if (!Array.isArray(context))
    throw new CredenceError('INVALID_INPUT', `${name}.context must be a list of tool ids, got ${got(context)}`);
  context.forEach((tool, i) => {
    if (typeof tool !== 'string')
      throw new CredenceError('INVALID_INPUT', `${name}.context[${i}] must be a tool id (text), got ${got(tool)}`);
  });
}
