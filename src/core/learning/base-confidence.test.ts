import { describe, expect, it } from 'vitest';
import { isCredenceError } from '../errors.js';
import { OBSERVATION_TYPES } from '../types.js';
import { baseConfidence } from './base-confidence.js';
import { groupConfidence } from './learning-confidence.js';

describe('baseConfidence: f(type, evidence) of seed 004', () => {
  it('starts an observation at 0.3, at 0.4 with evidence, and adds 0.2 for a user correction', () => {
    expect(baseConfidence({ type: 'pattern' }).value).toBe(0.3);
    expect(baseConfidence({ type: 'success', evidence: ['CI run 42 green'] }).value).toBe(0.4);
    expect(baseConfidence({ type: 'correction' }).value).toBe(0.5);
    expect(baseConfidence({ type: 'correction', evidence: ['diff of src/a.ts'] }).parts).toEqual({
      stated: undefined,
      initial: 0.4,
      correction: 0.2,
      evidence: 1,
    });
    expect(baseConfidence({ type: 'correction', evidence: ['diff'] }).value).toBe(0.6);
  });

  it('does not count blank evidence', () => {
    expect(baseConfidence({ type: 'error', evidence: ['', '  '] }).value).toBe(0.3);
  });

  it('keeps a stated confidence, so the seed example 1 instinct is still 0.65', () => {
    const stated = [
      baseConfidence({ type: 'correction', stated: 0.4 }).value,
      baseConfidence({ type: 'correction', stated: 0.5 }).value,
      baseConfidence({ type: 'pattern', stated: 0.6 }).value,
    ];
    expect(groupConfidence({ confidences: stated, daysSinceLatest: 0 }).value).toBe(0.65);
    // Three corrections stated by nobody give the same instinct.
    const derived = [0, 1, 2].map(() => baseConfidence({ type: 'correction' }).value);
    expect(groupConfidence({ confidences: derived, daysSinceLatest: 0 }).value).toBe(0.65);
  });

  it('stays in [0, 1] for every type and refuses a stated confidence outside it', () => {
    for (const type of OBSERVATION_TYPES)
      for (const evidence of [[], ['e'], ['e', 'f', 'g']]) {
        const { value } = baseConfidence({ type, evidence });
        expect(value).toBeGreaterThanOrEqual(0);
        expect(value).toBeLessThanOrEqual(1);
      }
    let error: unknown;
    try {
      baseConfidence({ type: 'pattern', stated: 1.5 });
    } catch (e) {
      error = e;
    }
    expect(isCredenceError(error, 'INVALID_INPUT')).toBe(true);
  });
});
