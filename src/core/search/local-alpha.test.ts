import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codeOf } from '../../../test/helpers.js';
import { ALPHA_DEFAULTS, clampAlpha, coldStartAlpha, heatAlpha, localAlpha } from './local-alpha.js';

describe('coldStartAlpha', () => {
  it('starts at 1.00, gives the seed 0.92 at 2 observations and reaches the 0.85 floor at 4', () => {
    expect(coldStartAlpha(0)).toBe(1);
    expect(coldStartAlpha(2)).toBe(0.92);
    expect(coldStartAlpha(4)).toBe(0.85);
    expect(coldStartAlpha(40)).toBe(0.85);
  });

  it('rejects negative, fractional or NaN observations', () => {
    expect(codeOf(() => coldStartAlpha(-1))).toBe('INVALID_INPUT');
    expect(codeOf(() => coldStartAlpha(1.5))).toBe('INVALID_INPUT');
    expect(codeOf(() => coldStartAlpha(Number.NaN))).toBe('INVALID_INPUT');
  });
});

describe('heatAlpha', () => {
  it('keeps α at 1 for a cold tool and lowers it to 0.5 for the hottest', () => {
    expect(heatAlpha(0)).toBe(1);
    expect(heatAlpha(0.4)).toBe(0.8);
    expect(heatAlpha(0.9)).toBeCloseTo(0.55, 12);
    expect(heatAlpha(1)).toBe(0.5);
  });

  it('clamps heat outside [0, 1] first', () => {
    expect(heatAlpha(-3)).toBe(1);
    expect(heatAlpha(7)).toBe(0.5);
  });

  it('rejects NaN heat', () => {
    expect(codeOf(() => heatAlpha(Number.NaN))).toBe('INVALID_INPUT');
  });
});

describe('localAlpha', () => {
  it('uses the cold-start rule under 5 observations and ignores heat there', () => {
    const result = localAlpha({ observations: 2, heat: 1 });
    expect(result).toEqual({
      alpha: 0.92,
      rule: 'cold-start',
      parts: { observations: 2, heat: null, coldStartObservations: 5 },
    });
  });

  it('uses heat diffusion from 5 observations on', () => {
    const result = localAlpha({ observations: 5, heat: 0.9 });
    expect(result.rule).toBe('heat-diffusion');
    expect(result.alpha).toBeCloseTo(0.55, 12);
    expect(result.parts).toEqual({ observations: 5, heat: 0.9, coldStartObservations: 5 });
  });

  it('treats an established tool with no heat as isolated', () => {
    const result = localAlpha({ observations: 50 });
    expect(result).toEqual({
      alpha: 1,
      rule: 'heat-diffusion',
      parts: { observations: 50, heat: 0, coldStartObservations: 5 },
    });
  });

  it('honours options without changing them or the frozen defaults', () => {
    const options = { coldStartObservations: 10, heatWeight: 0.4 };
    expect(localAlpha({ observations: 8 }, options).rule).toBe('cold-start');
    expect(localAlpha({ observations: 10, heat: 1 }, options).alpha).toBe(0.6);
    expect(options).toEqual({ coldStartObservations: 10, heatWeight: 0.4 });
    expect(Object.isFrozen(ALPHA_DEFAULTS)).toBe(true);
    expect(ALPHA_DEFAULTS).toEqual({
      min: 0.5,
      max: 1.0,
      coldStartObservations: 5,
      coldStartFloor: 0.85,
      coldStartStep: 0.04,
      heatWeight: 0.5,
    });
  });

  it('rejects negative observations, NaN heat and inconsistent bounds', () => {
    expect(codeOf(() => localAlpha({ observations: -2 }))).toBe('INVALID_INPUT');
    expect(codeOf(() => localAlpha({ observations: 9, heat: Number.NaN }))).toBe('INVALID_INPUT');
    expect(codeOf(() => localAlpha({ observations: 1 }, { min: 0.9, max: 0.6 }))).toBe('INVALID_INPUT');
  });

  it('always returns α within [0.5, 1] with the default options', () => {
    fc.assert(
      fc.property(
        fc.nat({ max: 10_000 }),
        fc.option(fc.double({ noNaN: true }), { nil: undefined }),
        (observations, heat) => {
          const { alpha } = localAlpha(heat === undefined ? { observations } : { observations, heat });
          expect(alpha).toBeGreaterThanOrEqual(0.5);
          expect(alpha).toBeLessThanOrEqual(1);
        },
      ),
    );
  });
});

describe('clampAlpha', () => {
  it('brings α within [0.5, 1] by default and within the given bounds otherwise', () => {
    expect(clampAlpha(0.2)).toBe(0.5);
    expect(clampAlpha(1.4)).toBe(1);
    expect(clampAlpha(0.7)).toBe(0.7);
    expect(clampAlpha(0.2, { min: 0.3, max: 0.6 })).toBe(0.3);
    expect(clampAlpha(0.9, { min: 0.3, max: 0.6 })).toBe(0.6);
  });

  it('rejects NaN', () => {
    expect(codeOf(() => clampAlpha(Number.NaN))).toBe('INVALID_INPUT');
  });
});
