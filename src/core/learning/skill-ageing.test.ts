import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codeOf } from '../../../test/helpers.js';
import { SKILL_DEFAULTS, skillConfidence } from './skill-ageing.js';

describe('skillConfidence', () => {
  it('keeps the base when the skill is fresh and not repeated', () => {
    expect(skillConfidence({ base: 0.8, idleDays: 0, repetitions: 0 })).toEqual({
      value: 0.8,
      parts: { base: 0.8, idleWeeks: 0, ageingLoss: 0, repetitionGain: 0, permanent: false },
    });
  });

  it('loses 0.02 per whole idle week and nothing for a partial week', () => {
    expect(skillConfidence({ base: 0.8, idleDays: 6.9, repetitions: 0 }).value).toBe(0.8);
    expect(skillConfidence({ base: 0.8, idleDays: 7, repetitions: 0 }).value).toBe(0.78);
    expect(skillConfidence({ base: 0.8, idleDays: 20, repetitions: 0 })).toEqual({
      value: 0.76,
      parts: { base: 0.8, idleWeeks: 2, ageingLoss: 0.04, repetitionGain: 0, permanent: false },
    });
  });

  it('keeps a skill a skill through two months of idleness, unlike exponential recency', () => {
    // 8 idle weeks: 0.8 − 0.16 = 0.64; exp(−56/30) would have left 0.8 · 0.155 ≈ 0.12.
    expect(skillConfidence({ base: 0.8, idleDays: 56, repetitions: 0 }).value).toBe(0.64);
  });

  it('gains 0.1 per new repetition', () => {
    expect(skillConfidence({ base: 0.7, idleDays: 0, repetitions: 1 }).value).toBe(0.8);
    expect(skillConfidence({ base: 0.7, idleDays: 14, repetitions: 2 }).value).toBe(0.86);
  });

  it('never ages a permanent rule but still lets it gain', () => {
    expect(skillConfidence({ base: 0.9, idleDays: 365, repetitions: 0 })).toEqual({
      value: 0.9,
      parts: { base: 0.9, idleWeeks: 52, ageingLoss: 0, repetitionGain: 0, permanent: true },
    });
    expect(skillConfidence({ base: 0.9, idleDays: 365, repetitions: 1 }).value).toBe(1);
  });

  it('ages a skill just under the permanent threshold', () => {
    expect(skillConfidence({ base: 0.89, idleDays: 7, repetitions: 0 }).value).toBe(0.87);
  });

  it('clamps to [0, 1]', () => {
    expect(skillConfidence({ base: 0.1, idleDays: 700, repetitions: 0 }).value).toBe(0);
    expect(skillConfidence({ base: 0.8, idleDays: 0, repetitions: 5 }).value).toBe(1);
  });

  it('treats negative idle days as no idle time', () => {
    expect(skillConfidence({ base: 0.8, idleDays: -30, repetitions: 0 }).parts.idleWeeks).toBe(0);
  });

  it('uses the options given without changing the defaults', () => {
    expect(skillConfidence({ base: 0.8, idleDays: 7, repetitions: 0 }, { idleWeeklyLoss: 0.05 }).value).toBe(0.75);
    expect(skillConfidence({ base: 0.85, idleDays: 70, repetitions: 0 }, { permanentAt: 0.8 }).value).toBe(0.85);
    expect(SKILL_DEFAULTS).toEqual({ idleWeeklyLoss: 0.02, repetitionGain: 0.1, permanentAt: 0.9 });
    expect(Object.isFrozen(SKILL_DEFAULTS)).toBe(true);
  });

  it('rejects a bad base, idle time, repetition count or option with INVALID_INPUT', () => {
    expect(codeOf(() => skillConfidence({ base: 1.1, idleDays: 0, repetitions: 0 }))).toBe('INVALID_INPUT');
    expect(codeOf(() => skillConfidence({ base: 0.8, idleDays: Number.NaN, repetitions: 0 }))).toBe('INVALID_INPUT');
    expect(codeOf(() => skillConfidence({ base: 0.8, idleDays: 0, repetitions: -1 }))).toBe('INVALID_INPUT');
    expect(codeOf(() => skillConfidence({ base: 0.8, idleDays: 0, repetitions: 1.5 }))).toBe('INVALID_INPUT');
    expect(codeOf(() => skillConfidence({ base: 0.8, idleDays: 0, repetitions: 0 }, { repetitionGain: -0.1 }))).toBe(
      'INVALID_INPUT',
    );
  });

  const base = fc.double({ min: 0, max: 1, noNaN: true });
  const idleDays = fc.double({ min: -30, max: 5000, noNaN: true });
  const repetitions = fc.integer({ min: 0, max: 50 });

  it('always stays within [0, 1]', () => {
    fc.assert(
      fc.property(base, idleDays, repetitions, (b, d, r) => {
        const { value } = skillConfidence({ base: b, idleDays: d, repetitions: r });
        expect(value).toBeGreaterThanOrEqual(0);
        expect(value).toBeLessThanOrEqual(1);
      }),
    );
  });

  it('never increases with more idle time', () => {
    fc.assert(
      fc.property(base, idleDays, fc.double({ min: 0, max: 5000, noNaN: true }), repetitions, (b, d, extra, r) => {
        const sooner = skillConfidence({ base: b, idleDays: d, repetitions: r }).value;
        const later = skillConfidence({ base: b, idleDays: d + extra, repetitions: r }).value;
        expect(later).toBeLessThanOrEqual(sooner);
      }),
    );
  });

  it('never loses confidence to idle time once it is a permanent rule', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.9, max: 1, noNaN: true }), idleDays, (b, d) => {
        expect(skillConfidence({ base: b, idleDays: d, repetitions: 0 }).value).toBe(Math.round(b * 1e12) / 1e12);
      }),
    );
  });
});
