import { describe, expect, it } from 'vitest';
import {
  calibrationRow,
  eceNoise95,
  eceNoiseFloor,
  measureCalibrators,
  repeatedSplits,
  splitClaims,
  type QueryClaims,
} from '../eval/calibration/claims.js';

/** Queries whose claims at confidence c were right with rate c / 2 (over-confident by half), deterministic. */
function overConfident(n: number): QueryClaims[] {
  return Array.from({ length: n }, (_, i) => {
    const confidence = ((i % 10) + 0.5) / 10;
    // Right in the first ⌊confidence / 2 · 20⌋ of every 20 queries at this confidence.
    const right = Math.floor(i / 10) % 20 < Math.floor((confidence / 2) * 20) ? 1 : 0;
    return [{ confidence, outcome: right }];
  });
}

describe('section F calibration row', () => {
  it('splits the queries in halves and measures every calibrator on the half it did not learn from', () => {
    const row = calibrationRow(overConfident(4000), 4);
    expect(row).toMatchObject({ claims: 4000, train: 2000, test: 2000 });
    expect(row.raw.ece).toBeGreaterThan(0.2);
    expect(row.map.ece).toBeLessThan(0.05);
    expect(row.map.brier).toBeLessThan(row.raw.brier);
    expect(row.map.brier).toBeLessThan(row.constant.brier);
    expect(row.baseRate).toBeGreaterThan(0.15);
    expect(row.baseRate).toBeLessThan(0.35);
    // Chosen inside the training half: the map beats the over-confident seed there too.
    expect(row.selected).toEqual({ ...row.map, calibrator: 'map' });
  });

  it('gives each ECE its noise floor: a calibrated predictor’s mean ECE with the same predictions and n', () => {
    // Certain predictions are always right: nothing to be off by.
    expect(eceNoiseFloor([0, 1, 1, 0], 3)).toBe(0);
    // n claims at 0.5: the ECE is |share right − 0.5|, whose mean is ≈ √(0.25 / n) · √(2 / π).
    for (const n of [50, 400]) {
      const floor = eceNoiseFloor(Array(n).fill(0.5), 5);
      expect(floor).toBeCloseTo(Math.sqrt(0.25 / n) * Math.sqrt(2 / Math.PI), 2);
    }
    expect(eceNoiseFloor([], 1)).toBe(0);
  });

  it('cross-fits two-fold: each half predicted by the calibrator chosen and learned on the other, all pooled', () => {
    const row = calibrationRow(overConfident(4000), 4);
    expect(row.twoFold.claims).toBe(row.train + row.test);
    expect(row.twoFold.ece).toBeLessThan(0.05);
    expect(row.twoFold.brier).toBeLessThan(row.raw.brier);
    expect(row.twoFold.floor).toBeLessThan(row.floor.selected);
    // Claims whose confidence is always exactly right: no calibrator beats the seed, on either half, so the two-fold
    // figures are the raw confidences' over every claim, each held 1 / (n + 2) from certainty by the other half's
    // 100 outcomes (core/calibration boundByOutcomes: no finite count of outcomes says 0 or 1).
    const exact: QueryClaims[] = Array.from({ length: 200 }, (_, i) => [{ confidence: i % 2, outcome: i % 2 }]);
    const kept = calibrationRow(exact, 2);
    expect(kept.selected.calibrator).toBe('seed');
    expect(kept.twoFold.claims).toBe(200);
    expect(kept.twoFold.ece).toBeCloseTo(1 / 102, 9);
    expect(kept.twoFold.brier).toBeCloseTo((1 / 102) ** 2, 12);
  });

  it('gives the 95th percentile of a calibrated predictor’s ECE beside its mean', () => {
    for (const n of [50, 400]) {
      const predictions = Array(n).fill(0.5);
      // |share right − 0.5| is half-normal with σ = √(0.25 / n): its 95th percentile ≈ 1.96 σ.
      expect(eceNoise95(predictions, 5)).toBeGreaterThan(eceNoiseFloor(predictions, 5));
      expect(eceNoise95(predictions, 5)).toBeCloseTo(1.96 * Math.sqrt(0.25 / n), 1);
    }
  });

  it('keeps one query’s claims on one side of the split', () => {
    const queries: QueryClaims[] = Array.from({ length: 10 }, (_, i) => [
      { confidence: 0.5, outcome: i % 2 },
      { confidence: 0.6, outcome: i % 2 },
      { confidence: 0.7, outcome: i % 2 },
    ]);
    const row = calibrationRow(queries, 1);
    expect(row.train % 3).toBe(0);
    expect(row.train).toBe(15);
  });

  it('measures the selection over many seeded splits, the first being the one the row is read on', () => {
    const queries = overConfident(600);
    const one = repeatedSplits([{ seed: queries, shown: queries }], [7], 0.05);
    const row = calibrationRow(queries, 7);
    expect(one).toMatchObject({ splits: 1, ece: row.selected.ece, brier: row.selected.brier, aboveFirst: 0 });
    expect(one.seedBrier).toBe(row.raw.brier);
    const many = repeatedSplits([{ seed: queries, shown: queries }], [7, 8, 9, 10, 11], 0.05);
    expect(many.splits).toBe(5);
    // The map beats the over-confident seed on every split.
    expect(many.brierBetter).toBe(5);
    expect(many.brier).toBeLessThan(many.seedBrier);
    expect(many.aboveFirst).toBeLessThanOrEqual(4);
    // Claims always exactly right: every split keeps the seed, held 1 / (n + 2) from certainty by its training half's
    // outcomes (an ECE of about 0.01 everywhere), never strictly better than the raw seed.
    const exact: QueryClaims[] = Array.from({ length: 200 }, (_, i) => [{ confidence: i % 2, outcome: i % 2 }]);
    const splits = repeatedSplits([{ seed: exact, shown: exact }], [1, 2, 3], 0.05);
    expect(splits.ece).toBeGreaterThan(0);
    expect(splits.ece).toBeLessThan(0.011);
    expect(splits).toMatchObject({
      eceMet: 3,
      brierBetter: 0,
      aboveFirst: 0,
    });
  });

  it('pools the sets of a kind split by split, and compares with the seed formula, not the confidence shown', () => {
    const a = overConfident(400);
    const b = overConfident(300).map((q) => q.map((p) => ({ ...p, confidence: p.confidence / 2 })));
    const pooled = repeatedSplits(
      [
        { seed: a, shown: a },
        { seed: b, shown: b },
      ],
      [3],
      0.05,
    );
    const [ha, hb] = [splitClaims(a, 3), splitClaims(b, 3)];
    const direct = measureCalibrators([...ha.train, ...hb.train], [...ha.test, ...hb.test], 3);
    expect(pooled).toMatchObject({ ece: direct.selected.ece, brier: direct.selected.brier });
    // The confidence shown differs from the seed formula's (halved): the seed column is the formula's Brier.
    const halved = a.map((q) => q.map((p) => ({ ...p, confidence: p.confidence / 2 })));
    const shownHalved = repeatedSplits([{ seed: a, shown: halved }], [3], 0.05);
    expect(shownHalved.seedBrier).toBe(calibrationRow(a, 3).raw.brier);
    expect(shownHalved.seedBrier).not.toBe(calibrationRow(halved, 3).raw.brier);
  });
});
