import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codeOf } from '../../../test/helpers.js';
import { LEARNED_KIND_THRESHOLDS, confidenceBand, learnedKind } from './bands.js';
import {
  LEARNING_DEFAULTS,
  agedConfidence,
  frequencyBonus,
  groupConfidence,
  isSignificant,
  recencyWeight,
} from './learning-confidence.js';

const confidence = fc.double({ min: 0, max: 1, noNaN: true });

describe('recencyWeight', () => {
  it('is 1 at age 0 and exp(−days / 30) after', () => {
    expect(recencyWeight(0)).toBe(1);
    expect(recencyWeight(30)).toBeCloseTo(Math.exp(-1), 12);
    expect(recencyWeight(7)).toBeCloseTo(0.79189, 5);
  });

  it('treats a negative age as 0', () => {
    expect(recencyWeight(-5)).toBe(1);
  });

  it('uses the time constant given in the options', () => {
    expect(recencyWeight(10, { recencyDays: 10 })).toBeCloseTo(Math.exp(-1), 12);
  });

  it('rejects a non-finite age or a non-positive time constant with INVALID_INPUT', () => {
    expect(codeOf(() => recencyWeight(Number.NaN))).toBe('INVALID_INPUT');
    expect(codeOf(() => recencyWeight(1, { recencyDays: 0 }))).toBe('INVALID_INPUT');
  });

  it('never increases as the latest observation gets older', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -100, max: 10_000, noNaN: true }),
        fc.double({ min: 0, max: 10_000, noNaN: true }),
        (age, extra) => {
          expect(recencyWeight(age + extra)).toBeLessThanOrEqual(recencyWeight(age));
        },
      ),
    );
  });
});

describe('frequencyBonus', () => {
  it('adds 0.1 per occurrence up to 1.3', () => {
    expect(frequencyBonus(0)).toBe(1);
    expect(frequencyBonus(1)).toBe(1.1);
    expect(frequencyBonus(2)).toBe(1.2);
    expect(frequencyBonus(3)).toBe(1.3);
    expect(frequencyBonus(10)).toBe(1.3);
  });

  it('rejects negative or fractional occurrences with INVALID_INPUT', () => {
    expect(codeOf(() => frequencyBonus(-1))).toBe('INVALID_INPUT');
    expect(codeOf(() => frequencyBonus(2.5))).toBe('INVALID_INPUT');
  });
});

describe('groupConfidence', () => {
  it('scores seed example 1 (camelCase: 0.4, 0.5, 0.6) at the latest observation as 0.65, a probable instinct', () => {
    // Observations at 2026-02-01T10:00Z, 2026-02-01T14:00Z, 2026-02-02T09:00Z; evolve runs at the last one.
    const result = groupConfidence({ confidences: [0.4, 0.5, 0.6], daysSinceLatest: 0 });
    expect(result).toEqual({ value: 0.65, parts: { mean: 0.5, recency: 1, frequency: 1.3, occurrences: 3 } });
    expect(result.value.toFixed(2)).toBe('0.65');
    expect(learnedKind(result.value)).toBe('instinct');
    expect(confidenceBand(result.value).band).toBe('probable');
  });

  it('scores seed example 2 (tests before commit: 0.7, 0.7, 0.8) at or above the skill threshold', () => {
    const result = groupConfidence({ confidences: [0.7, 0.7, 0.8], daysSinceLatest: 0 });
    expect(result.value).toBeCloseTo(0.953333, 6);
    expect(result.value).toBeGreaterThanOrEqual(LEARNED_KIND_THRESHOLDS.skill);
    // At age 0 the formula puts it in the established band; a week later it is a certain skill.
    expect(learnedKind(result.value)).toBe('permanent-rule');
    const weekLater = groupConfidence({ confidences: [0.7, 0.7, 0.8], daysSinceLatest: 7 });
    expect(weekLater.value).toBeCloseTo(0.754935, 6);
    expect(learnedKind(weekLater.value)).toBe('skill');
  });

  it('loses confidence as the latest observation ages', () => {
    const fresh = groupConfidence({ confidences: [0.4, 0.5, 0.6], daysSinceLatest: 0 }).value;
    const month = groupConfidence({ confidences: [0.4, 0.5, 0.6], daysSinceLatest: 30 }).value;
    expect(month).toBeCloseTo(0.65 * Math.exp(-1), 12);
    expect(month).toBeLessThan(fresh);
  });

  it('never reports more than 1, however strong and frequent the group', () => {
    expect(groupConfidence({ confidences: [1, 1, 1, 1], daysSinceLatest: 0 }).value).toBe(1);
  });

  it('rejects an empty group or a confidence outside [0, 1] with INVALID_INPUT', () => {
    expect(codeOf(() => groupConfidence({ confidences: [], daysSinceLatest: 0 }))).toBe('INVALID_INPUT');
    expect(codeOf(() => groupConfidence({ confidences: [0.5, 1.2], daysSinceLatest: 0 }))).toBe('INVALID_INPUT');
    expect(codeOf(() => groupConfidence({ confidences: [0.5], daysSinceLatest: Number.POSITIVE_INFINITY }))).toBe(
      'INVALID_INPUT',
    );
  });

  it('keeps its defaults frozen and the caller options untouched', () => {
    expect(Object.isFrozen(LEARNING_DEFAULTS)).toBe(true);
    const options = { recencyDays: 10 };
    groupConfidence({ confidences: [0.5], daysSinceLatest: 3 }, options);
    expect(options).toEqual({ recencyDays: 10 });
  });

  it('always stays within [0, 1]', () => {
    fc.assert(
      fc.property(
        fc.array(confidence, { minLength: 1, maxLength: 50 }),
        fc.double({ min: -1000, max: 1000, noNaN: true }),
        (confidences, daysSinceLatest) => {
          const { value } = groupConfidence({ confidences, daysSinceLatest });
          expect(value).toBeGreaterThanOrEqual(0);
          expect(value).toBeLessThanOrEqual(1);
        },
      ),
    );
  });
});

describe('isSignificant', () => {
  it('accepts seed example 1: three occurrences, mean 0.5, no contradiction', () => {
    expect(isSignificant({ confidences: [0.4, 0.5, 0.6], contradictionAgesDays: [] })).toEqual({
      significant: true,
      reasons: [],
    });
  });

  it('refuses a pattern seen fewer than 3 times and says so', () => {
    const result = isSignificant({ confidences: [0.9, 0.9], contradictionAgesDays: [] });
    expect(result.significant).toBe(false);
    expect(result.reasons).toHaveLength(1);
    expect(result.reasons[0]).toContain('2 occurrences');
  });

  it('refuses a pattern whose mean confidence is below 0.5 and says so', () => {
    const result = isSignificant({ confidences: [0.3, 0.4, 0.5], contradictionAgesDays: [] });
    expect(result.significant).toBe(false);
    expect(result.reasons).toHaveLength(1);
    expect(result.reasons[0]).toContain('0.4');
  });

  it('accepts a mean of 0.5 that float arithmetic computes a hair below it', () => {
    expect((0.6 + 0.7 + 0.2) / 3).toBeLessThan(0.5);
    expect(isSignificant({ confidences: [0.6, 0.7, 0.2], contradictionAgesDays: [] }).significant).toBe(true);
  });

  it('refuses a pattern contradicted in the last 7 days and accepts one contradicted earlier', () => {
    const recent = isSignificant({ confidences: [0.6, 0.6, 0.6], contradictionAgesDays: [30, 2] });
    expect(recent.significant).toBe(false);
    expect(recent.reasons).toHaveLength(1);
    expect(isSignificant({ confidences: [0.6, 0.6, 0.6], contradictionAgesDays: [7, 30] }).significant).toBe(true);
  });

  it('counts a contradiction dated in the future as recent', () => {
    expect(isSignificant({ confidences: [0.6, 0.6, 0.6], contradictionAgesDays: [-1] }).significant).toBe(false);
  });

  it('gives one reason per failed rule', () => {
    const result = isSignificant({ confidences: [0.1], contradictionAgesDays: [0] });
    expect(result.significant).toBe(false);
    expect(result.reasons).toHaveLength(3);
  });

  it('explains an empty group instead of throwing', () => {
    const result = isSignificant({ confidences: [], contradictionAgesDays: [] });
    expect(result.significant).toBe(false);
    expect(result.reasons).toHaveLength(2);
  });

  it('rejects a confidence outside [0, 1] or a non-finite age with INVALID_INPUT', () => {
    expect(codeOf(() => isSignificant({ confidences: [-0.1], contradictionAgesDays: [] }))).toBe('INVALID_INPUT');
    expect(codeOf(() => isSignificant({ confidences: [0.5], contradictionAgesDays: [Number.NaN] }))).toBe(
      'INVALID_INPUT',
    );
  });

  it('agrees with a direct reading of the three seed rules', () => {
    fc.assert(
      fc.property(
        fc.array(confidence, { maxLength: 10 }),
        fc.array(fc.double({ min: -10, max: 60, noNaN: true }), { maxLength: 5 }),
        (confidences, contradictionAgesDays) => {
          const n = confidences.length;
          const meanOk = n > 0 && confidences.reduce((a, b) => a + b, 0) / n >= 0.5 - 1e-9;
          const expected = n >= 3 && meanOk && contradictionAgesDays.every((age) => age >= 7);
          const { significant, reasons } = isSignificant({ confidences, contradictionAgesDays });
          expect(significant).toBe(expected);
          expect(reasons.length === 0).toBe(expected);
        },
      ),
    );
  });
});

describe('agedConfidence (issue 21: decay whatever the window)', () => {
  it('is the group formula at a later time: the stored value times the recency of the time since', () => {
    const at = groupConfidence({ confidences: [0.4, 0.5, 0.6], daysSinceLatest: 2 });
    const later = groupConfidence({ confidences: [0.4, 0.5, 0.6], daysSinceLatest: 2 + 120 });
    expect(agedConfidence(at.value, 120).value).toBeCloseTo(later.value, 12);
    expect(agedConfidence(0.65, 0)).toEqual({ value: 0.65, parts: { stored: 0.65, recency: 1 } });
  });

  it('never grows, and rejects a stored value outside [0, 1]', () => {
    expect(agedConfidence(0.65, -3).value).toBe(0.65);
    expect(agedConfidence(0.65, 120).value).toBeLessThan(0.02);
    expect(codeOf(() => agedConfidence(1.2, 1))).toBe('INVALID_INPUT');
  });
});
