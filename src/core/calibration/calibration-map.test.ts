import { describe, expect, it } from 'vitest';
import { isCredenceError } from '../errors.js';
import {
  applyCalibrationMap,
  CALIBRATION_MAP_DEFAULTS,
  crossFitCalibration,
  fitCalibrationMap,
  type CalibrationMap,
} from './calibration-map.js';
import type { CalibrationPoint } from './reliability.js';
import { mulberry32 as seeded } from '../random.js';

/** True rate per tenth of [0, 1]: the curve at the bin's centre. */
const CURVES: Record<string, (c: number) => number> = {
  'over-confident': (c) => 0.15 + 0.6 * c,
  'under-confident': (c) => Math.min(1, 0.05 + 1.1 * c ** 0.6),
  'S-shaped': (c) => 1 / (1 + Math.exp(-10 * (c - 0.5))),
};
const trueRate = (curve: (c: number) => number, c: number) => curve((Math.min(9, Math.floor(c * 10)) + 0.5) / 10);

/** `n` outcomes at uniform confidences, each right with its bin's true rate. */
function simulate(curve: (c: number) => number, n: number, seed: number): CalibrationPoint[] {
  const random = seeded(seed);
  return Array.from({ length: n }, () => {
    const confidence = random();
    return { confidence, outcome: random() < trueRate(curve, confidence) ? 1 : 0 };
  });
}

/** Mean over the ten bins of |the map's mean over the bin − the bin's true rate|. */
function binError(map: CalibrationMap, curve: (c: number) => number): number {
  let sum = 0;
  for (let b = 0; b < 10; b += 1) {
    let mapped = 0;
    for (let k = 0; k < 20; k += 1) mapped += applyCalibrationMap(map, (b + (k + 0.5) / 20) / 10);
    sum += Math.abs(mapped / 20 - curve((b + 0.5) / 10));
  }
  return sum / 10;
}

const SEEDS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];

/**
 * The isotonic map written the plain way, as a reference: the outcomes grouped by exact confidence in a Map, then
 * any adjacent pair out of order merged, again and again until none is; flat beyond the ends, shrunk to the prior.
 */
function referenceKnots(points: readonly CalibrationPoint[], s: number): { confidence: number; probability: number }[] {
  const groups = new Map<number, { n: number; held: number }>();
  for (const p of points) {
    const g = groups.get(p.confidence) ?? { n: 0, held: 0 };
    g.n += 1;
    g.held += p.outcome;
    groups.set(p.confidence, g);
  }
  const blocks = [...groups.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([c, g]) => ({ n: g.n, sumC: c * g.n, held: g.held }));
  let merged = true;
  while (merged) {
    merged = false;
    for (let i = 0; i + 1 < blocks.length; i += 1) {
      const a = blocks[i] as (typeof blocks)[number];
      const b = blocks[i + 1] as (typeof blocks)[number];
      if (a.held / a.n > b.held / b.n) {
        blocks.splice(i, 2, { n: a.n + b.n, sumC: a.sumC + b.sumC, held: a.held + b.held });
        merged = true;
        break;
      }
    }
  }
  const n = points.length;
  const at = blocks.map((b) => ({ confidence: b.sumC / b.n, rate: b.held / b.n }));
  const first = at[0] as (typeof at)[number];
  const last = at.at(-1) as (typeof at)[number];
  if (first.confidence > 0) at.unshift({ confidence: 0, rate: first.rate });
  if (last.confidence < 1) at.push({ confidence: 1, rate: last.rate });
  return at.map((k) => ({ confidence: k.confidence, probability: (n * k.rate + s * k.confidence) / (n + s) }));
}

describe('learned calibration map', () => {
  for (const [name, curve] of Object.entries(CURVES)) {
    it(`recovers an ${name} true rate per bin within 0.05 from 500 outcomes (mean of ${SEEDS.length} seeds)`, () => {
      const errors = SEEDS.map((seed) => binError(fitCalibrationMap(simulate(curve, 500, seed)), curve));
      expect(errors.reduce((s, e) => s + e, 0) / errors.length).toBeLessThanOrEqual(0.05);
      // No single draw strays far.
      expect(Math.max(...errors)).toBeLessThanOrEqual(0.08);
    });
  }

  it('is monotone, stays in [0, 1] and ignores the order the outcomes come in', () => {
    for (const curve of Object.values(CURVES)) {
      const points = simulate(curve, 300, 11);
      const map = fitCalibrationMap(points);
      const reversed = fitCalibrationMap([...points].reverse());
      expect(reversed).toEqual(map);
      let previous = -1;
      for (let c = 0; c <= 1.000001; c += 0.01) {
        const p = applyCalibrationMap(map, Math.min(1, c));
        expect(p).toBeGreaterThanOrEqual(previous - 1e-12);
        expect(p).toBeGreaterThanOrEqual(0);
        expect(p).toBeLessThanOrEqual(1);
        previous = p;
      }
    }
  });

  it('stays near the seed confidence with few outcomes and follows the outcomes with many', () => {
    // Every claim at 0.8 was wrong.
    const wrong = (n: number) => Array.from({ length: n }, () => ({ confidence: 0.8, outcome: 0 }));
    const s = CALIBRATION_MAP_DEFAULTS.priorStrength;
    expect(applyCalibrationMap(fitCalibrationMap(wrong(2)), 0.8)).toBeCloseTo((s * 0.8) / (2 + s), 12);
    expect(applyCalibrationMap(fitCalibrationMap(wrong(1000)), 0.8)).toBeLessThan(0.01);
    // Without the prior, two wrong outcomes say what the rule of succession says of them, 1/4, not 0.
    expect(applyCalibrationMap(fitCalibrationMap(wrong(2), { priorStrength: 0 }), 0.8)).toBe(1 / 4);
  });

  it('pools adjacent violators: a dip below a lower confidence is averaged with it', () => {
    const points = [
      { confidence: 0.2, outcome: 1 },
      { confidence: 0.4, outcome: 0 },
      { confidence: 0.6, outcome: 1 },
      { confidence: 0.6, outcome: 1 },
    ];
    const map = fitCalibrationMap(points, { priorStrength: 0, minBlock: 1 });
    // The top step held 2 of 2: kept at the rule of succession's 3/4 for two outcomes, not 1.
    expect(map.knots).toEqual([
      { confidence: 0, probability: 0.5 },
      { confidence: expect.closeTo(0.3, 12), probability: 0.5 },
      { confidence: 0.6, probability: 0.75 },
      { confidence: 1, probability: 0.75 },
    ]);
    expect(applyCalibrationMap(map, 0.45)).toBeCloseTo(0.625, 12);
  });

  it('never lets one or two outcomes at an end decide the map there (walk 9: 0.997 where 31 of 44 held)', () => {
    const random = seeded(9);
    // 320 outcomes right 70 % of the time at confidences in [0.5, 0.95), then two right ones at the very top.
    const points = Array.from({ length: 320 }, () => ({
      confidence: 0.5 + 0.45 * random(),
      outcome: random() < 0.7 ? 1 : 0,
    }));
    points.push({ confidence: 0.975, outcome: 1 }, { confidence: 0.977, outcome: 1 });
    const map = fitCalibrationMap(points);
    expect(applyCalibrationMap(map, 0.976)).toBeLessThan(0.85);
    expect(applyCalibrationMap(map, 1)).toBeLessThan(0.85);
    // Each end step stands on at least minBlock outcomes: the two join the step below them, whose mean is lower.
    expect(map.knots.at(-2)?.confidence).toBeLessThan(0.975);
    // With minBlock 1 the top three (right at 0.950, 0.975, 0.977) make the top step alone, at rate 1: the map says
    // what the rule of succession allows three outcomes, 4/5.
    const one = fitCalibrationMap(points, { minBlock: 1 });
    expect(one.knots.slice(-3).map((k) => k.confidence)).toEqual([0.975, 0.977, 1]);
    expect(applyCalibrationMap(one, 0.976)).toBe(4 / 5);
    expect(() => fitCalibrationMap(points, { minBlock: 0 })).toThrow(/minBlock must be an integer ≥ 1/);
  });

  it('never says 1 or 0: ten right answers at the top say at most 11/12, two wrong at the bottom at least 1/4', () => {
    const random = seeded(9);
    const points = Array.from({ length: 320 }, () => ({
      confidence: 0.5 + 0.45 * random(),
      outcome: random() < 0.7 ? 1 : 0,
    }));
    // Above a wrong answer at 0.955, ten right answers at 0.960 … 0.969 pass minBlock as a step of their own (review C:
    // the map said 0.999 at 0.97 and 1 at 1).
    const ten = Array.from({ length: 10 }, (_, i) => ({ confidence: 0.96 + i * 0.001, outcome: 1 }));
    const top = [...points, { confidence: 0.955, outcome: 0 }, ...ten];
    const map = fitCalibrationMap(top);
    expect(applyCalibrationMap(map, 0.97)).toBe(11 / 12);
    expect(applyCalibrationMap(map, 1)).toBe(11 / 12);
    // One more right answer next below them counts with them (a step of the same rate): 12/13.
    const more = fitCalibrationMap([...top, { confidence: 0.959, outcome: 1 }]);
    expect(applyCalibrationMap(more, 1)).toBe(12 / 13);
    // At the bottom, no prior to lean on (priorStrength 0) and nothing but wrong answers below 0.5: never 0.
    const wrong = [0.1, 0.2, ...Array.from({ length: 10 }, () => 0.5)].map((confidence, i) => ({
      confidence,
      outcome: i < 2 ? 0 : 1,
    }));
    const bottom = fitCalibrationMap(wrong, { priorStrength: 0, minBlock: 1 });
    expect(applyCalibrationMap(bottom, 0)).toBe(1 / 4);
    expect(applyCalibrationMap(bottom, 1)).toBe(11 / 12);
  });

  it('bounds only its end steps: 500 claims that held 95 % keep their rate under ten right answers above them', () => {
    // Review D, item 6: one interval for the whole map capped the 500 at 0.8 at the 11/12 of the ten at 0.99.
    const points = [
      ...Array.from({ length: 500 }, (_, i) => ({ confidence: 0.8, outcome: i < 475 ? 1 : 0 })),
      ...Array.from({ length: 10 }, () => ({ confidence: 0.99, outcome: 1 })),
    ];
    const s = CALIBRATION_MAP_DEFAULTS.priorStrength;
    const n = points.length;
    const map = fitCalibrationMap(points);
    expect(applyCalibrationMap(map, 0.8)).toBeCloseTo((n * 0.95 + s * 0.8) / (n + s), 12);
    // The top step itself says no more than ten right answers allow, and never less than the step below it.
    expect(applyCalibrationMap(map, 1)).toBeCloseTo(Math.max(applyCalibrationMap(map, 0.8), 11 / 12), 12);
    // The same at the bottom: ten wrong answers below 500 claims that held 5 % do not lift those to 1/12.
    const low = [
      ...Array.from({ length: 10 }, () => ({ confidence: 0.01, outcome: 0 })),
      ...Array.from({ length: 500 }, (_, i) => ({ confidence: 0.2, outcome: i < 25 ? 1 : 0 })),
    ];
    const bottom = fitCalibrationMap(low);
    expect(applyCalibrationMap(bottom, 0.2)).toBeCloseTo((n * 0.05 + s * 0.2) / (n + s), 12);
    expect(applyCalibrationMap(bottom, 0)).toBeLessThanOrEqual(applyCalibrationMap(bottom, 0.2));
    expect(applyCalibrationMap(bottom, 0)).toBeGreaterThan(0);
  });

  it('pools the low end too: two wrong answers at 0.01 and 0.02 join the block above them, not a step of 0', () => {
    // Blocks in order: 0 of 1 at 0.01, 0 of 1 at 0.02, 6 of 10 at 0.5, 9 of 10 at 0.9 (no violators to pool).
    const points = [
      { confidence: 0.01, outcome: 0 },
      { confidence: 0.02, outcome: 0 },
      ...Array.from({ length: 10 }, (_, i) => ({ confidence: 0.5, outcome: i < 6 ? 1 : 0 })),
      ...Array.from({ length: 10 }, (_, i) => ({ confidence: 0.9, outcome: i < 9 ? 1 : 0 })),
    ];
    const s = CALIBRATION_MAP_DEFAULTS.priorStrength;
    const n = points.length;
    const shrink = (c: number, rate: number) => (n * rate + s * c) / (n + s);
    // The first step must stand on 10 outcomes: the two wrong ones join the 10 at 0.5, 6 of 12 held, at their mean.
    const low = (0.01 + 0.02 + 10 * 0.5) / 12;
    const map = fitCalibrationMap(points);
    expect(map.knots.map((k) => k.confidence)).toEqual([0, expect.closeTo(low, 12), expect.closeTo(0.9, 12), 1]);
    const at0 = shrink(0, 0.5);
    const expected = at0 + (0.015 / low) * (shrink(low, 0.5) - at0);
    expect(applyCalibrationMap(map, 0.015)).toBeCloseTo(expected, 12);
    expect(applyCalibrationMap(map, 0.015)).toBeGreaterThan(0.3);
    // With minBlock 1 the two wrong answers make the bottom step alone: nearly 0 there.
    expect(applyCalibrationMap(fitCalibrationMap(points, { minBlock: 1 }), 0.015)).toBeLessThan(0.3);
  });

  it('pools tied confidences whatever order they come in: 0.1 held 2 of 5 times, one failure at 0.7', () => {
    const at = (outcomes: number[]) => outcomes.map((outcome) => ({ confidence: 0.1, outcome }));
    const failed = { confidence: 0.7, outcome: 0 };
    const orders = [
      [...at([0, 0, 0, 1, 1]), failed],
      [failed, ...at([1, 1, 0, 0, 0])],
      [...at([0, 1]), failed, ...at([0, 1, 0])],
    ];
    for (const order of orders) {
      const map = fitCalibrationMap(order, { priorStrength: 0 });
      // 2 of 5 at 0.1 over 0 of 1 at 0.7 violates order: one block, 2 of 6 held, flat.
      expect(applyCalibrationMap(map, 0.1)).toBeCloseTo(1 / 3, 12);
      expect(applyCalibrationMap(map, 0.7)).toBeCloseTo(1 / 3, 12);
    }
  });

  it('fits as a plain pool-adjacent-violators reference on tied confidences, in any order', () => {
    const random = seeded(41);
    // 40 rounded confidences, 1,000 outcomes: every confidence tied many times, sums that rounding moves.
    const points = Array.from({ length: 1000 }, () => {
      const confidence = Math.round(random() * 40) / 40;
      return { confidence, outcome: random() < 0.2 + 0.5 * confidence ? 1 : 0 };
    });
    const shuffled = points
      .map((p) => ({ p, k: random() }))
      .sort((a, b) => a.k - b.k)
      .map((x) => x.p);
    for (const priorStrength of [0, 10]) {
      const expected = referenceKnots(points, priorStrength);
      for (const order of [points, [...points].reverse(), shuffled]) {
        const { knots } = fitCalibrationMap(order, { priorStrength });
        expect(knots).toHaveLength(expected.length);
        knots.forEach((k, i) => {
          expect(k.confidence).toBeCloseTo(expected[i]?.confidence as number, 12);
          expect(k.probability).toBeCloseTo(expected[i]?.probability as number, 12);
        });
      }
    }
  });

  it('leaves a confidence as it is when learned from nothing, and refuses a negative prior', () => {
    expect(applyCalibrationMap(fitCalibrationMap([]), 0.37)).toBe(0.37);
    try {
      fitCalibrationMap([], { priorStrength: -1 });
      expect.unreachable();
    } catch (e) {
      expect(isCredenceError(e, 'INVALID_INPUT')).toBe(true);
    }
  });

  it('measures itself on the later half of the outcomes, learned on the earlier', () => {
    const curve = CURVES['over-confident'] as (c: number) => number;
    const points = simulate(curve, 600, 21);
    const fitted = crossFitCalibration(points);
    expect(fitted).toMatchObject({ train: 300, test: 300 });
    // The raw confidence's Brier on the same later half is worse than the map's.
    const later = points.slice(300);
    const raw = later.reduce((s, p) => s + (p.confidence - p.outcome) ** 2, 0) / later.length;
    expect(fitted?.brier).toBeLessThan(raw);
    expect(fitted?.seed.brier).toBeCloseTo(raw, 12);
    expect(fitted?.ece).toBeLessThan(0.1);
    expect(crossFitCalibration(points.slice(0, 1))).toBeUndefined();
  });
});
