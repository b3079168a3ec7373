import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codeOf } from '../../../test/helpers.js';
import { CONFIDENCE_BANDS, LEARNED_KIND_THRESHOLDS, confidenceBand, learnedKind } from './bands.js';

describe('CONFIDENCE_BANDS', () => {
  it('covers [0, 1] with the five bands of seed 004, in order and without gaps', () => {
    expect(CONFIDENCE_BANDS.map((b) => [b.band, b.action, b.min, b.max])).toEqual([
      ['noise', 'ignore', 0, 0.3],
      ['tentative', 'suggest', 0.3, 0.5],
      ['probable', 'propose', 0.5, 0.7],
      ['certain', 'apply', 0.7, 0.9],
      ['established', 'permanent rule', 0.9, 1],
    ]);
    for (const band of CONFIDENCE_BANDS) {
      expect(band.description.length).toBeGreaterThan(0);
      expect(band.description).not.toContain('\n');
    }
  });

  it('cannot be changed at run time', () => {
    expect(Object.isFrozen(CONFIDENCE_BANDS)).toBe(true);
    expect(CONFIDENCE_BANDS.every((band) => Object.isFrozen(band))).toBe(true);
    expect(Object.isFrozen(LEARNED_KIND_THRESHOLDS)).toBe(true);
  });
});

describe('confidenceBand', () => {
  it.each([
    [0, 'noise'],
    [0.29, 'noise'],
    [0.3, 'tentative'],
    [0.49, 'tentative'],
    [0.5, 'probable'],
    [0.65, 'probable'],
    [0.7, 'certain'],
    [0.89, 'certain'],
    [0.9, 'established'],
    [1, 'established'],
  ] as const)('places %s in the %s band', (confidence, band) => {
    expect(confidenceBand(confidence).band).toBe(band);
  });

  it('returns the action and bounds of the band', () => {
    expect(confidenceBand(0.65)).toMatchObject({ band: 'probable', action: 'propose', min: 0.5, max: 0.7 });
  });

  it('does not let float noise drop a boundary value into the band below', () => {
    expect(0.7 - 0.4).toBeLessThan(0.3);
    expect(confidenceBand(0.7 - 0.4).band).toBe('tentative');
  });

  it('rejects NaN and values outside [0, 1] with INVALID_INPUT', () => {
    for (const bad of [Number.NaN, -0.01, 1.01, Number.POSITIVE_INFINITY]) {
      expect(codeOf(() => confidenceBand(bad))).toBe('INVALID_INPUT');
    }
  });

  it('places every confidence in [0, 1] inside the bounds of its band', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1, noNaN: true }), (c) => {
        const { min, max } = confidenceBand(c);
        expect(c).toBeGreaterThanOrEqual(min - 1e-12);
        if (max < 1) expect(c).toBeLessThan(max);
        else expect(c).toBeLessThanOrEqual(max);
      }),
    );
  });
});

describe('learnedKind', () => {
  it.each([
    [0, 'noise'],
    [0.49, 'noise'],
    [0.5, 'instinct'],
    [0.65, 'instinct'],
    [0.69, 'instinct'],
    [0.7, 'skill'],
    [0.89, 'skill'],
    [0.9, 'permanent-rule'],
    [1, 'permanent-rule'],
  ] as const)('calls a pattern at %s a %s', (confidence, kind) => {
    expect(learnedKind(confidence)).toBe(kind);
  });

  it('treats 0.69 − 0.19 as an instinct despite float noise', () => {
    expect(0.69 - 0.19).toBeLessThan(0.5);
    expect(learnedKind(0.69 - 0.19)).toBe('instinct');
  });

  it('rejects NaN and values outside [0, 1] with INVALID_INPUT', () => {
    expect(codeOf(() => learnedKind(Number.NaN))).toBe('INVALID_INPUT');
    expect(codeOf(() => learnedKind(2))).toBe('INVALID_INPUT');
  });
});
