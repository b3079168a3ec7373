/**
 * @module core/validate
 * The input checks and number helpers the core modules share (internal to core, not re-exported by
 * `core/index`).
 *
 * Every check throws `CredenceError('INVALID_INPUT')` with a message that names the bad value and
 * what would be valid (`<name> must be <what>, got <value>`), and `details: { [name]: value }`.
 * `name` is the input as the caller knows it (`confidence`, `weight hybrid`,
 * `confidence at index 2`). The checks also reject non-numbers, for callers without types.
 */

import { CredenceError } from './errors.js';

function invalidNumber(name: string, expected: string, value: unknown): CredenceError {
  return new CredenceError('INVALID_INPUT', `${name} must be ${expected}, got ${String(value)}`, {
    details: { [name]: value },
  });
}

/**
 * A number, not NaN; ±Infinity passes.
 * @throws CredenceError INVALID_INPUT for NaN or a non-number.
 */
export function requireNumber(name: string, value: number): void {
  if (typeof value !== 'number' || Number.isNaN(value)) throw invalidNumber(name, 'a number', value);
}

/**
 * A finite number. `expected` says what the number is, for the message.
 * @param expected @default 'a finite number' (e.g. 'a finite number of days').
 * @throws CredenceError INVALID_INPUT for NaN, ±Infinity or a non-number.
 */
export function requireFinite(name: string, value: number, expected = 'a finite number'): void {
  if (!Number.isFinite(value)) throw invalidNumber(name, expected, value);
}

/**
 * A number in the closed interval [min, max]; a bound may be ±Infinity, which then passes.
 * @throws CredenceError INVALID_INPUT for NaN, a non-number or a number outside [min, max].
 */
export function requireInRange(name: string, value: number, min: number, max: number): void {
  if (typeof value !== 'number' || Number.isNaN(value) || value < min || value > max) {
    throw invalidNumber(name, `a number in [${min}, ${max}]`, value);
  }
}

/**
 * A number in [0, 1] (a confidence, a score, a weight); so never NaN nor ±Infinity.
 * @throws CredenceError INVALID_INPUT otherwise.
 */
export function requireUnit(name: string, value: number): void {
  requireInRange(name, value, 0, 1);
}

/**
 * A finite number ≥ 0.
 * @throws CredenceError INVALID_INPUT for a negative number, NaN, ±Infinity or a non-number.
 */
export function requireNonNegative(name: string, value: number): void {
  if (!Number.isFinite(value) || value < 0) throw invalidNumber(name, 'a finite number >= 0', value);
}

/**
 * A count: an integer ≥ 0.
 * @throws CredenceError INVALID_INPUT for a negative or fractional number, NaN, ±Infinity or a
 * non-number.
 */
export function requireCount(name: string, value: number): void {
  if (!Number.isInteger(value) || value < 0) throw invalidNumber(name, 'an integer >= 0', value);
}

/**
 * `value` rounded to 12 decimals, which removes float noise such as 0.7 − 0.4 = 0.29999999999999993
 * before a value is compared or shown.
 */
export function roundTo12(value: number): number {
  return Math.round(value * 1e12) / 1e12;
}

/** `value` brought within [0, 1]; NaN stays NaN. */
export function clampUnit(value: number): number {
  return Math.min(1, Math.max(0, value));
}

/**
 * `defaults` with the numbers `options` gives in their place, as a new object. Each given number
 * (`undefined` keeps the default) is passed to `check` first, in the key order of `defaults`.
 * @throws whatever `check` throws.
 */
export function mergeNumberOptions<K extends string>(
  defaults: Readonly<Record<K, number>>,
  options: Readonly<Partial<Record<K, number>>> | undefined,
  check: (key: K, value: number) => void,
): Record<K, number> {
  const merged = { ...defaults } as Record<K, number>;
  if (options === undefined) return merged;
  for (const key of Object.keys(defaults) as K[]) {
    const value = options[key];
    if (value === undefined) continue;
    check(key, value);
    merged[key] = value;
  }
  return merged;
}
