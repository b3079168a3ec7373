import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codeOf } from '../../test/helpers.js';
import { CredenceError } from './errors.js';
import {
  clampUnit,
  mergeNumberOptions,
  requireCount,
  requireFinite,
  requireInRange,
  requireNonNegative,
  requireNumber,
  requireUnit,
  roundTo12,
} from './validate.js';

/** The error `fn` throws, which must be a CredenceError. */
function caught(fn: () => unknown): CredenceError {
  try {
    fn();
  } catch (error) {
    if (error instanceof CredenceError) return error;
    throw new Error(`expected a CredenceError, got ${String(error)}`);
  }
  throw new Error('expected the call to throw');
}

const notANumber = 'x' as unknown as number;

describe('requireNumber', () => {
  it('accepts any number but NaN, infinities included', () => {
    for (const value of [0, -3.5, 1e300, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      expect(codeOf(() => requireNumber('n', value))).toBeUndefined();
    }
  });

  it('rejects NaN and non-numbers, naming the input, the value and what is valid', () => {
    expect(codeOf(() => requireNumber('n', notANumber))).toBe('INVALID_INPUT');
    const error = caught(() => requireNumber('threshold', Number.NaN));
    expect(error.code).toBe('INVALID_INPUT');
    expect(error.message).toBe('threshold must be a number, got NaN');
    expect(error.details).toEqual({ threshold: Number.NaN });
  });
});

describe('requireFinite', () => {
  it('accepts finite numbers of any sign', () => {
    for (const value of [0, -1, 1e300, -Number.MIN_VALUE])
      expect(codeOf(() => requireFinite('n', value))).toBeUndefined();
  });

  it('rejects NaN, infinities and non-numbers', () => {
    for (const value of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, notANumber]) {
      expect(codeOf(() => requireFinite('n', value))).toBe('INVALID_INPUT');
    }
  });

  it('says what the number should be, by default or as the caller words it', () => {
    expect(caught(() => requireFinite('score', Number.NaN)).message).toBe('score must be a finite number, got NaN');
    const error = caught(() => requireFinite('idleDays', Number.POSITIVE_INFINITY, 'a finite number of days'));
    expect(error.message).toBe('idleDays must be a finite number of days, got Infinity');
    expect(error.details).toEqual({ idleDays: Number.POSITIVE_INFINITY });
  });
});

describe('requireInRange', () => {
  it('accepts both bounds and what lies between', () => {
    expect(codeOf(() => requireInRange('d', -1, -1, 1))).toBeUndefined();
    expect(codeOf(() => requireInRange('d', 1, -1, 1))).toBeUndefined();
    expect(codeOf(() => requireInRange('d', 0.25, -1, 1))).toBeUndefined();
  });

  it('lets an infinite bound through, as an open-ended range', () => {
    expect(codeOf(() => requireInRange('w', Number.POSITIVE_INFINITY, 0, Infinity))).toBeUndefined();
    expect(codeOf(() => requireInRange('w', -0.1, 0, Infinity))).toBe('INVALID_INPUT');
  });

  it('rejects NaN, non-numbers and numbers outside, naming the range', () => {
    expect(codeOf(() => requireInRange('d', Number.NaN, -1, 1))).toBe('INVALID_INPUT');
    expect(codeOf(() => requireInRange('d', notANumber, -1, 1))).toBe('INVALID_INPUT');
    const error = caught(() => requireInRange('feedback delta explicit', 2, -1, 1));
    expect(error.message).toBe('feedback delta explicit must be a number in [-1, 1], got 2');
    expect(error.details).toEqual({ 'feedback delta explicit': 2 });
  });
});

describe('requireUnit', () => {
  it('accepts exactly the numbers of [0, 1]', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true }), (value) => {
        expect(codeOf(() => requireUnit('c', value))).toBe(value >= 0 && value <= 1 ? undefined : 'INVALID_INPUT');
      }),
    );
  });

  it('rejects NaN, infinities and non-numbers with the [0, 1] message', () => {
    for (const value of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, notANumber]) {
      expect(codeOf(() => requireUnit('c', value))).toBe('INVALID_INPUT');
    }
    expect(caught(() => requireUnit('confidence', 1.5)).message).toBe('confidence must be a number in [0, 1], got 1.5');
  });
});

describe('requireNonNegative', () => {
  it('accepts finite numbers >= 0', () => {
    for (const value of [0, 0.5, 1e300]) expect(codeOf(() => requireNonNegative('w', value))).toBeUndefined();
  });

  it('rejects negatives, NaN, infinities and non-numbers', () => {
    for (const value of [-1e-12, Number.NaN, Number.POSITIVE_INFINITY, notANumber]) {
      expect(codeOf(() => requireNonNegative('w', value))).toBe('INVALID_INPUT');
    }
    expect(caught(() => requireNonNegative('weight hybrid', -1)).message).toBe(
      'weight hybrid must be a finite number >= 0, got -1',
    );
  });
});

describe('requireCount', () => {
  it('accepts integers >= 0', () => {
    for (const value of [0, 1, 3, 2 ** 40]) expect(codeOf(() => requireCount('n', value))).toBeUndefined();
  });

  it('rejects negative or fractional numbers, NaN, infinities and non-numbers', () => {
    for (const value of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, notANumber]) {
      expect(codeOf(() => requireCount('n', value))).toBe('INVALID_INPUT');
    }
    const error = caught(() => requireCount('retries', -2));
    expect(error.message).toBe('retries must be an integer >= 0, got -2');
    expect(error.details).toEqual({ retries: -2 });
  });
});

describe('roundTo12', () => {
  it('removes float noise at the 12th decimal', () => {
    expect(roundTo12(0.7 - 0.4)).toBe(0.3);
    expect(roundTo12(0.4 + 0.2)).toBe(0.6);
    expect(roundTo12(0.3 / 0.4)).toBe(0.75);
  });

  it('leaves values with at most 12 decimals as they are', () => {
    expect(roundTo12(0.123456789012)).toBe(0.123456789012);
    expect(roundTo12(-2.5)).toBe(-2.5);
    expect(roundTo12(0)).toBe(0);
  });

  it('moves a value by at most half of 1e-12', () => {
    fc.assert(
      fc.property(fc.double({ min: -1000, max: 1000, noNaN: true }), (value) => {
        expect(Math.abs(roundTo12(value) - value)).toBeLessThanOrEqual(5e-13 + Math.abs(value) * Number.EPSILON * 2);
      }),
    );
  });
});

describe('clampUnit', () => {
  it('brings a number within [0, 1] and keeps one already there', () => {
    expect(clampUnit(-0.2)).toBe(0);
    expect(clampUnit(1.3)).toBe(1);
    expect(clampUnit(0.42)).toBe(0.42);
    expect(clampUnit(Number.POSITIVE_INFINITY)).toBe(1);
    expect(clampUnit(Number.NEGATIVE_INFINITY)).toBe(0);
  });

  it('keeps NaN as NaN', () => {
    expect(clampUnit(Number.NaN)).toBeNaN();
  });

  it('always lands in [0, 1] for a non-NaN number', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true }), (value) => {
        const clamped = clampUnit(value);
        expect(clamped).toBeGreaterThanOrEqual(0);
        expect(clamped).toBeLessThanOrEqual(1);
      }),
    );
  });
});

describe('mergeNumberOptions', () => {
  const DEFAULTS = Object.freeze({ a: 0.1, b: 0.2, c: 0.3 });

  it('returns a new copy of the defaults when no options are given', () => {
    const merged = mergeNumberOptions(DEFAULTS, undefined, () => {
      throw new Error('check must not run');
    });
    expect(merged).toEqual(DEFAULTS);
    expect(merged).not.toBe(DEFAULTS);
    merged.a = 0.9;
    expect(DEFAULTS.a).toBe(0.1);
  });

  it('takes each given number in place of the default and keeps the default for undefined', () => {
    const merged = mergeNumberOptions(DEFAULTS, { b: 0.5, c: undefined }, () => undefined);
    expect(merged).toEqual({ a: 0.1, b: 0.5, c: 0.3 });
  });

  it('checks each given number once, in the key order of the defaults', () => {
    const checked: [string, number][] = [];
    mergeNumberOptions(DEFAULTS, { c: 0.7, a: 0.6 }, (key, value) => {
      checked.push([key, value]);
    });
    expect(checked).toEqual([
      ['a', 0.6],
      ['c', 0.7],
    ]);
  });

  it('ignores keys the defaults do not have', () => {
    const options = { a: 0.4, z: 9 } as unknown as { a: number };
    expect(mergeNumberOptions(DEFAULTS, options, () => undefined)).toEqual({ a: 0.4, b: 0.2, c: 0.3 });
  });

  it('lets the check reject a number', () => {
    const check = (key: string, value: number) => requireUnit(`option ${key}`, value);
    expect(codeOf(() => mergeNumberOptions(DEFAULTS, { b: 2 }, check))).toBe('INVALID_INPUT');
    expect(caught(() => mergeNumberOptions(DEFAULTS, { b: 2 }, check)).message).toBe(
      'option b must be a number in [0, 1], got 2',
    );
  });
});
