import { describe, expect, it } from 'vitest';
import { runQuality, runSucceeded } from './run-quality.js';

describe('runQuality', () => {
  it('is the run’s own confidence when it has one', () => {
    expect(runQuality({ confidence: 0.42, calls: [{ status: 'success', retries: 0 }] })).toBe(0.42);
  });

  it('is 1 for clean successful calls and the mean outcome over 0.7 otherwise', () => {
    expect(runQuality({ calls: [{ status: 'success', retries: 0 }] })).toBe(1);
    expect(runQuality({ calls: [{ status: 'failure', retries: 0 }] })).toBeCloseTo(0.3 / 0.7, 12);
    expect(runQuality({ calls: [{ status: 'success' }, { status: 'failure' }] })).toBeCloseTo(0.5 / 0.7, 12);
  });

  it('counts retries against a call', () => {
    expect(runQuality({ calls: [{ status: 'success', retries: 2 }] })).toBeCloseTo(0.5 / 0.7, 12);
  });

  // A review: a PocketFlow run whose second node threw had the seed's mean 0.5 and was learned as a success.
  it('is at most a failure’s for a run with its own confidence in which a call failed', () => {
    const failed = runQuality({ confidence: 0.5, calls: [{ status: 'success' }, { status: 'failure' }] });
    expect(failed).toBeCloseTo(0.3 / 0.7, 12);
    expect(runQuality({ confidence: 0.2, calls: [{ status: 'failure' }] })).toBe(0.2);
    expect(runQuality({ confidence: 0.6, calls: [{ status: 'success' }, { status: 'partial' }] })).toBe(0.6);
  });

  it('is 0 for a run without calls', () => {
    expect(runQuality({ calls: [] })).toBe(0);
  });
});

describe('runSucceeded', () => {
  it('holds at quality 0.5 and above', () => {
    expect(runSucceeded({ confidence: 0.5, calls: [] })).toBe(true);
    expect(runSucceeded({ confidence: 0.49, calls: [] })).toBe(false);
    expect(runSucceeded({ calls: [{ status: 'failure' }] })).toBe(false);
    expect(runSucceeded({ calls: [{ status: 'partial' }] })).toBe(true);
    expect(runSucceeded({ confidence: 0.57, calls: [{ status: 'success' }, { status: 'failure' }] })).toBe(false);
  });
});
