import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codeOf } from '../../../test/helpers.js';
import { DAY_MS, DECAY_DEFAULTS, decayFactor, idleDays } from './edge-decay.js';

const T0 = Date.UTC(2025, 0, 1);

describe('idleDays', () => {
  it('counts fractional days between last seen and now', () => {
    expect(idleDays(T0, T0 + 1.5 * DAY_MS)).toBe(1.5);
    expect(idleDays(T0, T0 + 6 * 3_600_000)).toBe(0.25);
  });

  it('is zero, never negative, when last seen is after now', () => {
    expect(idleDays(T0 + DAY_MS, T0)).toBe(0);
  });

  it('rejects non-finite instants as invalid input', () => {
    expect(codeOf(() => idleDays(Number.NaN, T0))).toBe('INVALID_INPUT');
    expect(codeOf(() => idleDays(T0, Number.POSITIVE_INFINITY))).toBe('INVALID_INPUT');
  });
});

describe('decayFactor', () => {
  it('defaults to a 60-day half-life held in frozen defaults', () => {
    expect(DECAY_DEFAULTS.halfLifeDays).toBe(60);
    expect(Object.isFrozen(DECAY_DEFAULTS)).toBe(true);
  });

  it('keeps full confidence at 0 idle days and halves it after 60', () => {
    expect(decayFactor(0)).toBe(1);
    expect(decayFactor(60)).toBe(0.5);
    expect(decayFactor(120)).toBe(0.25);
  });

  it('uses the half-life given in the options without changing the options object', () => {
    const options = { halfLifeDays: 30 };
    expect(decayFactor(30, options)).toBe(0.5);
    expect(options).toEqual({ halfLifeDays: 30 });
  });

  it('falls to zero after infinitely many idle days and turns off with an infinite half-life', () => {
    expect(decayFactor(Number.POSITIVE_INFINITY)).toBe(0);
    expect(decayFactor(1_000, { halfLifeDays: Number.POSITIVE_INFINITY })).toBe(1);
  });

  it('rejects negative or NaN idle days and a non-positive half-life', () => {
    expect(codeOf(() => decayFactor(-1))).toBe('INVALID_INPUT');
    expect(codeOf(() => decayFactor(Number.NaN))).toBe('INVALID_INPUT');
    expect(codeOf(() => decayFactor(1, { halfLifeDays: 0 }))).toBe('INVALID_INPUT');
    expect(codeOf(() => decayFactor(1, { halfLifeDays: -60 }))).toBe('INVALID_INPUT');
  });

  it('is monotone non-increasing in idle time and stays in [0, 1]', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1e6, noNaN: true }),
        fc.double({ min: 0, max: 1e6, noNaN: true }),
        fc.double({ min: 0.001, max: 1e4, noNaN: true }),
        (a, b, halfLifeDays) => {
          const [low, high] = a <= b ? [a, b] : [b, a];
          const dLow = decayFactor(low, { halfLifeDays });
          const dHigh = decayFactor(high, { halfLifeDays });
          expect(dHigh).toBeLessThanOrEqual(dLow);
          expect(dLow).toBeLessThanOrEqual(1);
          expect(dHigh).toBeGreaterThanOrEqual(0);
        },
      ),
    );
  });
});
