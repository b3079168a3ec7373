import { describe, expect, it } from 'vitest';
import { runQuality, runSucceeded } from './run-quality.js';

describe('runQuality', () => {
  it('is the run’s own confidence when it has one', () => {
    expect(runQuality({ confidence: 0.42, calls: [{ status: 'success', retries: 0 }] })).toBe(0.42);
  });

  it('is 1 for clean successful calls, the mean of each call’s outcome over 0.7 otherwise, a failed call 0', () => {
    expect(runQuality({ calls: [{ status: 'success', retries: 0 }] })).toBe(1);
    expect(runQuality({ calls: [{ status: 'failure', retries: 0 }] })).toBe(0);
    expect(runQuality({ calls: [{ status: 'success' }, { status: 'failure' }] })).toBeCloseTo(0.5, 12);
    expect(runQuality({ calls: [{ status: 'partial' }, { status: 'failure' }] })).toBeCloseTo(0.5 / 0.7 / 2, 12);
  });

  it('counts retries against a call', () => {
    expect(runQuality({ calls: [{ status: 'success', retries: 2 }] })).toBeCloseTo(0.5 / 0.7, 12);
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
  });

  it('needs at least half of the calls’ worth: one success among eight calls is a failed run', () => {
    const calls = (ok: number, failed: number) => [
      ...Array.from({ length: ok }, () => ({ status: 'success' as const })),
      ...Array.from({ length: failed }, () => ({ status: 'failure' as const })),
    ];
    expect(runSucceeded({ calls: calls(1, 7) })).toBe(false);
    expect(runSucceeded({ calls: calls(3, 5) })).toBe(false);
    expect(runSucceeded({ calls: calls(4, 4) })).toBe(true);
    // A call that succeeded after retries still carries the run.
    expect(runSucceeded({ calls: [{ status: 'success', retries: 3 }] })).toBe(true);
    // Half of the calls' worth is a success whatever the run's length (not 0.4999999999999999 at 14 and 6).
    const partials = (n: number, failed: number) => [
      ...Array.from({ length: n }, () => ({ status: 'partial' as const })),
      ...Array.from({ length: failed }, () => ({ status: 'failure' as const })),
    ];
    expect(runSucceeded({ calls: partials(7, 3) })).toBe(true);
    expect(runSucceeded({ calls: partials(14, 6) })).toBe(true);
  });
});
