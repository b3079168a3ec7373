import { describe, expect, it } from 'vitest';
import { isCredenceError } from '../errors.js';
import { brierScore, calibrationError, measureCalibration, reliabilityTable } from './reliability.js';

describe('reliability table', () => {
  it('puts each confidence in its tenth of [0, 1], 1 in the last bin, and reports count, mean and rate', () => {
    const bins = reliabilityTable([
      { confidence: 0.05, outcome: 0 },
      { confidence: 0.15, outcome: 1 },
      { confidence: 0.11, outcome: 0 },
      { confidence: 1, outcome: 1 },
      { confidence: 0.95, outcome: 0 },
    ]);
    expect(bins).toHaveLength(10);
    expect(bins[0]).toEqual({ lo: 0, hi: 0.1, count: 1, meanConfidence: 0.05, observedRate: 0 });
    expect(bins[1]?.count).toBe(2);
    expect(bins[1]?.meanConfidence).toBeCloseTo(0.13, 12);
    expect(bins[1]?.observedRate).toBe(0.5);
    expect(bins[5]).toEqual({ lo: 0.5, hi: 0.6, count: 0, meanConfidence: null, observedRate: null });
    expect(bins[9]?.count).toBe(2);
    expect(bins[9]?.observedRate).toBe(0.5);
  });

  it('weights each bin gap by its share of the points (ECE) and averages squared errors (Brier)', () => {
    const points = [
      { confidence: 0.9, outcome: 1 },
      { confidence: 0.9, outcome: 0 },
      { confidence: 0.2, outcome: 0 },
      { confidence: 0.2, outcome: 0 },
    ];
    // Bin 9: |0.9 − 0.5| · 2/4; bin 2: |0.2 − 0| · 2/4.
    expect(calibrationError(reliabilityTable(points))).toBeCloseTo(0.3, 12);
    expect(brierScore(points)).toBeCloseTo((0.01 + 0.81 + 0.04 + 0.04) / 4, 12);
  });

  it('is perfect when every bin says what happened, and has no figures without points', () => {
    expect(
      calibrationError(
        reliabilityTable([
          { confidence: 1, outcome: 1 },
          { confidence: 0, outcome: 0 },
        ]),
      ),
    ).toBe(0);
    expect(measureCalibration([])).toMatchObject({ ece: null, brier: null });
  });

  it('names a confidence outside [0, 1] or an outcome that is not a number', () => {
    for (const bad of [
      { confidence: 1.2, outcome: 1 },
      { confidence: 0.5, outcome: Number.NaN },
    ]) {
      try {
        reliabilityTable([bad]);
        expect.unreachable();
      } catch (e) {
        expect(isCredenceError(e, 'INVALID_INPUT')).toBe(true);
      }
    }
  });
});
