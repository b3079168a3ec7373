import { describe, expect, it } from 'vitest';
import { isCredenceError } from '../errors.js';
import { mulberry32 } from '../random.js';
import { binEdges, binOf, brierScore, calibrationError, measureCalibration, reliabilityTable } from './reliability.js';

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

describe('bin edges (a store sums each bin over a range of its confidence index)', () => {
  const below = (x: number) => {
    const bits = new BigInt64Array(new Float64Array([x]).buffer);
    bits[0] = (bits[0] as bigint) - 1n;
    return new Float64Array(bits.buffer)[0] as number;
  };
  it('puts every confidence in [0, 1] in the bin binOf gives it, at and just below each edge too', () => {
    const random = mulberry32(3);
    for (const bins of [1, 3, 7, 10, 13, 100]) {
      const edges = binEdges(bins);
      const byEdges = (c: number) => edges.findLastIndex((e) => e <= c);
      const probes = [0, 1, ...Array.from({ length: 2000 }, () => random())];
      for (let k = 1; k < bins; k += 1) probes.push(k / bins, edges[k] as number, below(edges[k] as number));
      for (const c of probes) expect([c, byEdges(c)]).toEqual([c, binOf(c, bins)]);
      for (let k = 1; k < bins; k += 1) {
        expect(binOf(edges[k] as number, bins)).toBe(k);
        expect(binOf(below(edges[k] as number), bins)).toBe(k - 1);
      }
    }
  });
  it('refuses a bin count that is not a positive integer, naming it', () => {
    expect(() => binEdges(0)).toThrow(/bins must be a positive integer, got 0/);
  });
});
