import { describe, expect, it } from 'vitest';
import { isCredenceError } from '../errors.js';
import { applyLogisticCalibration, fitLogisticCalibration, LOGISTIC_DEFAULTS, testCalibration } from './logistic.js';
import type { CalibrationPoint } from './reliability.js';
import { mulberry32 as seeded } from '../random.js';

const logit = (c: number) => Math.log(c / (1 - c));
const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/** `n` outcomes at uniform confidences in (0, 1), each right with probability `rate(confidence)`. */
function draw(rate: (c: number) => number, n: number, seed: number): CalibrationPoint[] {
  const random = seeded(seed);
  return Array.from({ length: n }, () => {
    const confidence = 0.01 + 0.98 * random();
    return { confidence, outcome: random() < rate(confidence) ? 1 : 0 };
  });
}

/** Known logistic curves on the log-odds: over-confident (a < 1), under-confident (a > 1), shifted (b ≠ 0). */
const CURVES: Record<string, { a: number; b: number }> = {
  'over-confident': { a: 0.5, b: -0.3 },
  'under-confident': { a: 1.8, b: 0.2 },
  'shifted down': { a: 1, b: -0.8 },
};

/** The gradient of the log posterior the fit maximises (the Bernoulli log-likelihood plus the Gaussian prior). */
function gradient(points: readonly CalibrationPoint[], a: number, b: number, tau: number): [number, number] {
  let ga = -tau * (a - 1);
  let gb = -tau * b;
  for (const p of points) {
    const x = logit(Math.min(1 - LOGISTIC_DEFAULTS.clamp, Math.max(LOGISTIC_DEFAULTS.clamp, p.confidence)));
    const r = p.outcome - sigmoid(a * x + b);
    ga += r * x;
    gb += r;
  }
  return [ga, gb];
}

const SEEDS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];

describe('logistic calibration on the log-odds', () => {
  for (const [name, truth] of Object.entries(CURVES)) {
    it(`recovers an ${name} logistic curve within 0.05 from 500 outcomes (mean of ${SEEDS.length} seeds)`, () => {
      const curve = (c: number) => sigmoid(truth.a * logit(c) + truth.b);
      // Per seed, the mean of |learned − true| over 49 confidences from 0.02 to 0.98.
      const errors = SEEDS.map((seed) => {
        const fit = fitLogisticCalibration(draw(curve, 500, seed));
        let sum = 0;
        for (let k = 1; k <= 49; k += 1) sum += Math.abs(applyLogisticCalibration(fit, k / 50) - curve(k / 50));
        return sum / 49;
      });
      expect(errors.reduce((s, e) => s + e, 0) / errors.length).toBeLessThanOrEqual(0.05);
      // No single draw strays far.
      expect(Math.max(...errors)).toBeLessThanOrEqual(0.08);
    });
  }

  it('is the maximum a posteriori: the gradient of the log posterior is 0 at the fit', () => {
    const points = draw((c) => 0.2 + 0.5 * c, 800, 31);
    for (const priorPrecision of [0.1, 2.5, 40]) {
      const fit = fitLogisticCalibration(points, { priorPrecision });
      const [ga, gb] = gradient(points, fit.a, fit.b, priorPrecision);
      expect(Math.abs(ga)).toBeLessThan(1e-8);
      expect(Math.abs(gb)).toBeLessThan(1e-8);
    }
  });

  it('keeps the slope at 0 or above: confidences that point the wrong way give a flat probability', () => {
    // Right mostly when the confidence is low.
    const points = draw((c) => 1 - c, 500, 5);
    const fit = fitLogisticCalibration(points);
    expect(fit.a).toBe(0);
    // On a = 0 the intercept is the best one: the gradient in b is 0, and in a it points below 0 (held back).
    const [ga, gb] = gradient(points, 0, fit.b, LOGISTIC_DEFAULTS.priorPrecision);
    expect(Math.abs(gb)).toBeLessThan(1e-8);
    expect(ga).toBeLessThan(0);
    expect(applyLogisticCalibration(fit, 0.1)).toBeCloseTo(applyLogisticCalibration(fit, 0.9), 12);
  });

  it('is monotone, stays in [0, 1] and ignores the order the outcomes come in', () => {
    const random = seeded(17);
    for (const [i, rate] of [(c: number) => c, () => 0.4, (c: number) => c * c, (c: number) => 1 - c].entries()) {
      // Saturated confidences too: 0 and 1 are read at the clamp.
      const points = draw(rate, 300, 40 + i).map((p) =>
        random() < 0.1 ? { ...p, confidence: random() < 0.5 ? 0 : 1 } : p,
      );
      const fit = fitLogisticCalibration(points);
      const shuffled = points
        .map((p) => ({ p, k: random() }))
        .sort((a, b) => a.k - b.k)
        .map((x) => x.p);
      expect(fitLogisticCalibration(shuffled)).toEqual(fit);
      expect(fitLogisticCalibration([...points].reverse())).toEqual(fit);
      let previous = -1;
      for (let k = 0; k <= 100; k += 1) {
        const p = applyLogisticCalibration(fit, k / 100);
        expect(p).toBeGreaterThanOrEqual(previous);
        expect(p).toBeGreaterThan(0);
        expect(p).toBeLessThan(1);
        previous = p;
      }
    }
  });

  it('is the identity learned from nothing, and stays near the seed confidence with few outcomes', () => {
    const none = fitLogisticCalibration([]);
    expect(none).toEqual({ a: 1, b: 0, outcomes: 0, priorPrecision: LOGISTIC_DEFAULTS.priorPrecision });
    for (const c of [0, 0.013, 0.37, 0.5, 0.99, 1]) expect(applyLogisticCalibration(none, c)).toBe(c);
    // One claim at 0.8, wrong: the probability moves, but the seed keeps most of its say.
    const wrong = (n: number) => Array.from({ length: n }, () => ({ confidence: 0.8, outcome: 0 }));
    // The curve learned, before the bound of its one outcome (the rule of succession's [1/3, 2/3]).
    const curve = (fit: { a: number; b: number }, c: number) => sigmoid(fit.a * logit(c) + fit.b);
    const one = curve(fitLogisticCalibration(wrong(1)), 0.8);
    expect(one).toBeLessThan(0.8);
    expect(one).toBeGreaterThan(0.7);
    expect(applyLogisticCalibration(fitLogisticCalibration(wrong(1)), 0.8)).toBe(2 / 3);
    // The prior is what holds it: a weaker one lets the same outcome move it further.
    expect(curve(fitLogisticCalibration(wrong(1), { priorPrecision: 0.5 }), 0.8)).toBeLessThan(one);
    // Many decide.
    expect(applyLogisticCalibration(fitLogisticCalibration(wrong(1000)), 0.8)).toBeLessThan(0.02);
  });

  it('names bad input: a point or a confidence that is not a number in [0, 1], a prior that is not > 0', () => {
    const fit = fitLogisticCalibration([{ confidence: 0.5, outcome: 1 }]);
    const bad: (() => unknown)[] = [
      () => fitLogisticCalibration([{ confidence: Number.NaN, outcome: 1 }]),
      () =>
        fitLogisticCalibration([
          { confidence: 0.5, outcome: 1 },
          { confidence: 1.2, outcome: 0 },
        ]),
      () => fitLogisticCalibration([{ confidence: 0.5, outcome: -1 }]),
      () => fitLogisticCalibration([], { priorPrecision: 0 }),
      () => fitLogisticCalibration([], { priorPrecision: Number.NaN }),
      () => applyLogisticCalibration(fit, Number.NaN),
      () => applyLogisticCalibration(fit, -0.1),
      () => applyLogisticCalibration(fit, 1.5),
    ];
    for (const f of bad) {
      try {
        f();
        expect.unreachable();
      } catch (e) {
        expect(isCredenceError(e, 'INVALID_INPUT')).toBe(true);
      }
    }
  });
});

describe("Cox's test of calibration", () => {
  /** The Bernoulli log-likelihood of σ(a · logit(c) + b). */
  const logLikelihood = (points: readonly CalibrationPoint[], a: number, b: number) =>
    points.reduce((s, p) => {
      const q = sigmoid(a * logit(p.confidence) + b);
      return s + (p.outcome === 1 ? Math.log(q) : Math.log(1 - q));
    }, 0);

  it('fails a calibrated confidence about as often as its level says, and refutes a miscalibrated one', () => {
    // 200 draws of 300 calibrated outcomes: p below 5 % in about 5 % of them (χ² with 2 degrees of freedom).
    const pValues = Array.from({ length: 200 }, (_, i) => testCalibration(draw((c) => c, 300, 40 + i)).pValue);
    const below = pValues.filter((p) => p < 0.05).length;
    expect(below).toBeGreaterThanOrEqual(4);
    expect(below).toBeLessThanOrEqual(18);
    for (let seed = 1; seed <= 10; seed += 1) {
      expect(testCalibration(draw((c) => 0.1 + 0.5 * c, 300, seed)).pValue).toBeLessThan(1e-6);
    }
  });

  it('is twice the log-likelihood ratio of the best curve against the identity, its p-value e^(−statistic / 2)', () => {
    const points = draw((c) => sigmoid(0.6 * logit(c) + 0.4), 400, 3);
    const t = testCalibration(points);
    expect(t.outcomes).toBe(400);
    expect(t.pValue).toBeCloseTo(Math.exp(-t.statistic / 2), 12);
    // No (a, b) near the best does better than the statistic says; the best is found to within 1e-6.
    const best = t.statistic / 2 + logLikelihood(points, 1, 0);
    for (const [da, db] of [
      [0.01, 0],
      [-0.01, 0],
      [0, 0.01],
      [0, -0.01],
    ] as const) {
      const fit = fitLogisticCalibration(points, { priorPrecision: 1e-9 });
      expect(logLikelihood(points, fit.a + da, fit.b + db)).toBeLessThanOrEqual(best + 1e-6);
    }
    expect(logLikelihood(points, fitLogisticCalibration(points, { priorPrecision: 1e-9 }).a, 0)).toBeLessThan(best);
    // The order the outcomes come in changes nothing.
    expect(testCalibration(points.slice().reverse())).toEqual(t);
  });

  it('tests one confidence shown every time, and has nothing to test without outcomes', () => {
    // 100 claims at 0.8 of which half held: a and b are one number there, and the test still refutes it.
    const same = Array.from({ length: 100 }, (_, i) => ({ confidence: 0.8, outcome: i % 2 }));
    expect(testCalibration(same).pValue).toBeLessThan(1e-6);
    const held = Array.from({ length: 100 }, (_, i) => ({ confidence: 0.8, outcome: i % 5 === 0 ? 0 : 1 }));
    expect(testCalibration(held).statistic).toBeCloseTo(0, 9);
    expect(testCalibration([])).toEqual({ statistic: 0, pValue: 1, outcomes: 0 });
    expect(() => testCalibration([{ confidence: 1.5, outcome: 1 }])).toThrow(/confidence must be a number in \[0, 1\]/);
  });
});
