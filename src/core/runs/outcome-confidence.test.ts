import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codeOf } from '../../../test/helpers.js';
import {
  OUTCOME_DEFAULTS,
  adjustForDownstreamUse,
  adjustForRetries,
  confidenceFromOutcome,
  outcomeConfidence,
} from './outcome-confidence.js';
import { CALL_STATUSES } from '../types.js';
import type { CallStatus } from '../types.js';

describe('confidenceFromOutcome', () => {
  it('gives success 0.7, partial 0.5 and failure 0.3', () => {
    expect(confidenceFromOutcome('success')).toBe(0.7);
    expect(confidenceFromOutcome('partial')).toBe(0.5);
    expect(confidenceFromOutcome('failure')).toBe(0.3);
  });

  it('uses the bases given in the options', () => {
    expect(confidenceFromOutcome('success', { success: 0.8 })).toBe(0.8);
    expect(confidenceFromOutcome('failure', { success: 0.8 })).toBe(0.3);
  });

  it('rejects an unknown status with INVALID_INPUT', () => {
    expect(codeOf(() => confidenceFromOutcome('skipped' as CallStatus))).toBe('INVALID_INPUT');
  });

  it('rejects an option outside [0, 1] with INVALID_INPUT', () => {
    expect(codeOf(() => confidenceFromOutcome('success', { success: 1.5 }))).toBe('INVALID_INPUT');
    expect(codeOf(() => confidenceFromOutcome('success', { retryPenalty: Number.NaN }))).toBe('INVALID_INPUT');
  });

  it('keeps its defaults frozen and the caller options untouched', () => {
    expect(Object.isFrozen(OUTCOME_DEFAULTS)).toBe(true);
    const options = { success: 0.9 };
    outcomeConfidence({ status: 'success', retries: 1 }, options);
    expect(options).toEqual({ success: 0.9 });
  });
});

describe('adjustForRetries', () => {
  it('takes 0.1 away per retry', () => {
    expect(adjustForRetries(0.7, 1)).toBe(0.6);
    expect(adjustForRetries(0.7, 2)).toBe(0.5);
    expect(adjustForRetries(0.7, 3)).toBe(0.4);
  });

  it('leaves the confidence alone with no retries', () => {
    expect(adjustForRetries(0.7, 0)).toBe(0.7);
    expect(adjustForRetries(0.05, 0)).toBe(0.05);
  });

  it('never goes below the floor of 0.1', () => {
    expect(adjustForRetries(0.7, 6)).toBe(0.1);
    expect(adjustForRetries(0.7, 9)).toBe(0.1);
    expect(adjustForRetries(0.3, 50)).toBe(0.1);
  });

  it('never raises a confidence that is already below the floor', () => {
    expect(adjustForRetries(0.05, 1)).toBe(0.05);
  });

  it('rejects negative or fractional retries with INVALID_INPUT', () => {
    expect(codeOf(() => adjustForRetries(0.7, -1))).toBe('INVALID_INPUT');
    expect(codeOf(() => adjustForRetries(0.7, 1.5))).toBe('INVALID_INPUT');
    expect(codeOf(() => adjustForRetries(0.7, Number.NaN))).toBe('INVALID_INPUT');
  });

  it('rejects a confidence outside [0, 1] with INVALID_INPUT', () => {
    expect(codeOf(() => adjustForRetries(1.2, 1))).toBe('INVALID_INPUT');
  });
});

describe('adjustForDownstreamUse', () => {
  it('adds 0.05 per downstream use', () => {
    expect(adjustForDownstreamUse(0.5, 0)).toBe(0.5);
    expect(adjustForDownstreamUse(0.5, 1)).toBe(0.55);
    expect(adjustForDownstreamUse(0.5, 3)).toBe(0.65);
  });

  it('adds at most 0.2', () => {
    expect(adjustForDownstreamUse(0.5, 4)).toBe(0.7);
    expect(adjustForDownstreamUse(0.5, 5)).toBe(0.7);
    expect(adjustForDownstreamUse(0.5, 100)).toBe(0.7);
  });

  it('never goes above 1', () => {
    expect(adjustForDownstreamUse(0.95, 4)).toBe(1);
  });

  it('rejects negative or fractional uses with INVALID_INPUT', () => {
    expect(codeOf(() => adjustForDownstreamUse(0.5, -2))).toBe('INVALID_INPUT');
    expect(codeOf(() => adjustForDownstreamUse(0.5, 0.5))).toBe('INVALID_INPUT');
  });
});

describe('outcomeConfidence', () => {
  it('is the status base when there are no other signals', () => {
    expect(outcomeConfidence({ status: 'success' })).toEqual({
      value: 0.7,
      parts: { base: 0.7, retryPenalty: 0, downstreamBoost: 0 },
    });
    expect(outcomeConfidence({ status: 'partial' }).value).toBe(0.5);
    expect(outcomeConfidence({ status: 'failure' }).value).toBe(0.3);
  });

  it('prints 0.7 − 0.1 · 3 as 0.4', () => {
    expect(String(outcomeConfidence({ status: 'success', retries: 3 }).value)).toBe('0.4');
  });

  it('drops a success retried 9 times to the floor 0.1 and reports the penalty actually applied', () => {
    expect(outcomeConfidence({ status: 'success', retries: 9 })).toEqual({
      value: 0.1,
      parts: { base: 0.7, retryPenalty: 0.6, downstreamBoost: 0 },
    });
  });

  it('caps the downstream boost at 0.2 with 5 uses', () => {
    expect(outcomeConfidence({ status: 'success', downstreamUses: 5 })).toEqual({
      value: 0.9,
      parts: { base: 0.7, retryPenalty: 0, downstreamBoost: 0.2 },
    });
  });

  it('applies the boost after the retry floor', () => {
    // failure 0.3, 5 retries → floor 0.1, then +0.1 for two uses = 0.2 (boosting first would give 0.1).
    expect(outcomeConfidence({ status: 'failure', retries: 5, downstreamUses: 2 })).toEqual({
      value: 0.2,
      parts: { base: 0.3, retryPenalty: 0.2, downstreamBoost: 0.1 },
    });
  });

  it('clamps to 1 when custom options would go above it', () => {
    expect(outcomeConfidence({ status: 'success', downstreamUses: 10 }, { success: 0.95 }).value).toBe(1);
  });

  it('rejects negative or non-integer retries and uses with INVALID_INPUT', () => {
    expect(codeOf(() => outcomeConfidence({ status: 'success', retries: -1 }))).toBe('INVALID_INPUT');
    expect(codeOf(() => outcomeConfidence({ status: 'success', retries: 0.5 }))).toBe('INVALID_INPUT');
    expect(codeOf(() => outcomeConfidence({ status: 'success', downstreamUses: -3 }))).toBe('INVALID_INPUT');
  });

  it('always stays within [0, 1] and its parts add up to the value', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...CALL_STATUSES),
        fc.integer({ min: 0, max: 100 }),
        fc.integer({ min: 0, max: 100 }),
        (status, retries, downstreamUses) => {
          const { value, parts } = outcomeConfidence({ status, retries, downstreamUses });
          expect(value).toBeGreaterThanOrEqual(0);
          expect(value).toBeLessThanOrEqual(1);
          expect(value).toBeCloseTo(parts.base - parts.retryPenalty + parts.downstreamBoost, 12);
        },
      ),
    );
  });

  it('never rises with more retries', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...CALL_STATUSES),
        fc.integer({ min: 0, max: 100 }),
        fc.integer({ min: 0, max: 100 }),
        fc.integer({ min: 0, max: 100 }),
        (status, a, b, downstreamUses) => {
          const [fewer, more] = a <= b ? [a, b] : [b, a];
          expect(outcomeConfidence({ status, retries: more, downstreamUses }).value).toBeLessThanOrEqual(
            outcomeConfidence({ status, retries: fewer, downstreamUses }).value,
          );
        },
      ),
    );
  });
});
