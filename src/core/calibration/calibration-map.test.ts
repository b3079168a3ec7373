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

/** mulberry32 (T. Ettinger): a seeded generator, so every simulated outcome is the same on every run. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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
    expect(applyCalibrationMap(fitCalibrationMap(wrong(2), { priorStrength: 0 }), 0.8)).toBe(0);
  });

  it('pools adjacent violators: a dip below a lower confidence is averaged with it', () => {
    const points = [
      { confidence: 0.2, outcome: 1 },
      { confidence: 0.4, outcome: 0 },
      { confidence: 0.6, outcome: 1 },
      { confidence: 0.6, outcome: 1 },
    ];
    const map = fitCalibrationMap(points, { priorStrength: 0 });
    expect(map.knots).toEqual([
      { confidence: 0, probability: 0.5 },
      { confidence: expect.closeTo(0.3, 12), probability: 0.5 },
      { confidence: 0.6, probability: 1 },
      { confidence: 1, probability: 1 },
    ]);
    expect(applyCalibrationMap(map, 0.45)).toBeCloseTo(0.75, 12);
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
