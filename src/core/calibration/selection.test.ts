import { describe, expect, it } from 'vitest';
import { crossFitCalibration, fitCalibrationMap, type CalibrationMapOptions } from './calibration-map.js';
import { fitLogisticCalibration, type LogisticOptions } from './logistic.js';
import { CALIBRATORS, learnCalibrator, learnFromOutcomes, SELECTION_DEFAULTS, selectCalibrator } from './selection.js';
import { boundByOutcomes, type CalibrationPoint } from './reliability.js';
import { mulberry32 as seeded } from '../random.js';

/** `n` outcomes at uniform confidences, each right with probability `rate(confidence)`. */
function draw(rate: (c: number) => number, n: number, seed: number): CalibrationPoint[] {
  const random = seeded(seed);
  return Array.from({ length: n }, () => {
    const confidence = random();
    return { confidence, outcome: random() < rate(confidence) ? 1 : 0 };
  });
}

const brier = (f: (c: number) => number, points: readonly CalibrationPoint[]) =>
  points.reduce((s, p) => s + (f(p.confidence) - p.outcome) ** 2, 0) / points.length;

describe('choosing the calibrator (a learned system never does worse than before it learned)', () => {
  it('keeps an already calibrated seed confidence, or is no worse on fresh outcomes within noise', () => {
    const seeds = Array.from({ length: 40 }, (_, i) => i + 1);
    let kept = 0;
    for (const seed of seeds) {
      for (const n of [30, 200, 1000]) {
        const history = draw((c) => c, n, seed);
        const chosen = selectCalibrator(history);
        expect(chosen).toBeDefined();
        if (chosen?.calibrator === 'seed') {
          kept += 1;
          continue;
        }
        // What it chose instead, learned on the whole history, measured on 4,000 fresh outcomes.
        const fresh = draw((c) => c, 4000, 1000 + seed);
        const f = learnCalibrator(chosen?.calibrator ?? 'seed', history);
        // Within noise: one standard error of a Brier score over the 24 outcomes tested at n = 30 is ~0.035.
        expect(brier(f, fresh) - brier((c) => c, fresh)).toBeLessThan(0.025);
      }
    }
    // Nearly always it keeps the seed outright (115 of 120 draws).
    expect(kept / (seeds.length * 3)).toBeGreaterThanOrEqual(0.95);
  });

  it('chooses a learned calibrator for an over-confident seed, the base rate when the confidence says nothing', () => {
    const over = selectCalibrator(draw((c) => 0.1 + 0.5 * c, 500, 7));
    expect(over?.calibrator).toMatch(/^(logistic|map)$/);
    const chosen = over?.calibrator === 'map' ? 'map' : 'logistic';
    expect(over?.brier[chosen]).toBeLessThan(over?.brier.seed ?? 0);
    expect(over?.gain[chosen].mean).toBeGreaterThan(over?.gain[chosen].standardError ?? 1);
    // Every claim right 30 % of the time whatever its confidence.
    const flat = selectCalibrator(draw(() => 0.3, 500, 8));
    expect(flat?.calibrator).not.toBe('seed');
    expect(flat?.brier['base-rate']).toBeLessThan(flat?.brier.seed ?? 0);
  });

  it('prefers the logistic calibrator where the miscalibration has its shape and the outcomes are few', () => {
    // Over-confident on the log-odds: p = σ(0.5 · logit(c) − 0.3). 300 outcomes, 20 seeds.
    const clamp = (c: number) => Math.min(0.99, Math.max(0.01, c));
    const rate = (c: number) => 1 / (1 + Math.exp(-(0.5 * Math.log(clamp(c) / (1 - clamp(c))) - 0.3)));
    const chosen = Array.from({ length: 20 }, (_, i) => selectCalibrator(draw(rate, 300, 100 + i)));
    const logistic = chosen.filter((s) => s?.calibrator === 'logistic');
    // 12 of 20, the map in 7, the seed kept in 1 (10 and 3 before the seed could be refuted by Cox's test, 12
    // before the map's end steps stood on 10 outcomes at least, 11 before no calibrator could say 0 or 1: the draws
    // in between are decided by less than the noise).
    expect(logistic.length).toBeGreaterThanOrEqual(12);
    expect(logistic.length).toBeGreaterThan(chosen.filter((s) => s?.calibrator === 'map').length);
    for (const s of logistic) {
      const d = s?.logisticOverChoice ?? { over: 'seed', mean: 0, standardError: 0 };
      if (d.over !== 'seed' || d.mean > d.standardError)
        expect(s?.brier.logistic).toBeLessThanOrEqual(s?.brier.map ?? 0);
      // Chosen over a seed the newest outcomes refute, by a gain above 0 but within a standard error.
      else expect(s?.miscalibration.pValue).toBeLessThan(SELECTION_DEFAULTS.significance);
    }
  });

  it('does not keep a seed its newest outcomes refute, though no paired gain beats it by a standard error', () => {
    // Confidences mostly high (as a DAG's tool scores are), right 25 % + 55 % of the confidence: over-confident at
    // the top, under-confident below. A paired Brier gain over the seed varies with every claim's squared error, so
    // one standard error of it kept the seed in 12 of 40 draws of 200; Cox's test on the newest 100 refutes it.
    const skewed = (seed: number, n: number) => {
      const random = seeded(seed);
      return Array.from({ length: n }, () => {
        const confidence = 1 - 0.7 * random() ** 2;
        return { confidence, outcome: random() < 0.25 + 0.55 * confidence ? 1 : 0 };
      });
    };
    let kept = 0;
    let refutedOnly = 0;
    for (let seed = 1; seed <= 40; seed += 1) {
      const history = skewed(seed, 200);
      const chosen = selectCalibrator(history);
      if (chosen === undefined) throw new Error('a selection from 200 outcomes');
      if (chosen.calibrator === 'seed') kept += 1;
      // The selection says when the seed was refuted: it was the choice, the test fell below the level, any gain.
      const { over, mean } = chosen.logisticOverChoice;
      expect(chosen.seedRefuted).toBe(
        over === 'seed' && mean > 0 && chosen.miscalibration.pValue < SELECTION_DEFAULTS.significance,
      );
      if (
        chosen.calibrator === 'logistic' &&
        chosen.logisticOverChoice.mean <= chosen.logisticOverChoice.standardError
      ) {
        refutedOnly += 1;
        expect(chosen.seedRefuted).toBe(true);
        expect(chosen.logisticOverChoice).toMatchObject({ over: 'seed' });
        expect(chosen.miscalibration.pValue).toBeLessThan(SELECTION_DEFAULTS.significance);
        expect(chosen.miscalibration.outcomes).toBe(100);
      }
      // Whatever it chose, learned on the history, does better than the seed on 4,000 fresh outcomes.
      const fresh = skewed(1000 + seed, 4000);
      const f = learnCalibrator(chosen.calibrator, history);
      if (chosen.calibrator !== 'seed') expect(brier(f, fresh)).toBeLessThan(brier((c) => c, fresh));
    }
    expect(kept).toBeLessThanOrEqual(6);
    expect(refutedOnly).toBeGreaterThan(0);
  });

  it('judges the seed on its newest outcomes: a miscalibration that has ended is not learned again', () => {
    // Over-confident for the first 200 outcomes (right 10 % + half the confidence), calibrated for the 200 after.
    // Cox's test on all 400 would refute the seed in 13 of 40 draws and the logistic calibrator then learned the old
    // miscalibration; on the newest half the seed is kept as often as with the paired gain alone.
    let switched = 0;
    let excess = 0;
    for (let seed = 1; seed <= 40; seed += 1) {
      const history = [...draw((c) => 0.1 + 0.5 * c, 200, 5000 + seed), ...draw((c) => c, 200, 6000 + seed)];
      const chosen = selectCalibrator(history);
      expect(chosen?.miscalibration.outcomes).toBe(200);
      if (chosen?.calibrator !== 'seed') switched += 1;
      const fresh = draw((c) => c, 2000, 7000 + seed);
      excess += brier(learnCalibrator(chosen?.calibrator ?? 'seed', history), fresh) - brier((c) => c, fresh);
    }
    expect(switched).toBeLessThanOrEqual(4);
    expect(excess / 40).toBeLessThan(0.002);
  });

  it('refuses a significance level outside (0, 1), naming it', () => {
    const points = draw((c) => c, 50, 2);
    for (const significance of [0, 1, -0.1, Number.NaN]) {
      expect(() => selectCalibrator(points, { significance })).toThrow(/significance must be a number in \(0, 1\)/);
      expect(() => learnFromOutcomes(points, { significance })).toThrow(/significance must be a number in \(0, 1\)/);
    }
  });

  it('keeps the map where the logistic calibrator does not clearly beat it: a mass of saturated confidences', () => {
    // A fifth of the claims at a saturated 1 that held half the time, the rest calibrated: the map follows both, the
    // logistic curve (one slope on the log-odds) cannot.
    const random = seeded(23);
    const points = Array.from({ length: 1000 }, () => {
      const confidence = random() < 0.2 ? 1 : random();
      return { confidence, outcome: random() < (confidence === 1 ? 0.5 : confidence) ? 1 : 0 };
    });
    const chosen = selectCalibrator(points);
    expect(chosen?.calibrator).toBe('map');
    expect(chosen?.brier.map).toBeLessThan(chosen?.brier.logistic ?? 0);
  });

  it('never learns from the future: outcomes that flip half way are judged on the runs after', () => {
    // Right when confident for the first half, wrong when confident after: the later runs punish what was learned.
    const history = draw((c) => c, 400, 3).map((p, i) => (i < 200 ? p : { ...p, outcome: 1 - p.outcome }));
    const chosen = selectCalibrator(history);
    expect(chosen).toMatchObject({ outcomes: 400, tested: 320, folds: 5 });
    // Forward chaining: the first run is never predicted, so the seed's Brier is over the last 320 only, each run's
    // confidence kept within the bounds of the outcomes before it (80, 160, 240, 320).
    let squares = 0;
    for (let j = 1; j < 5; j += 1) {
      const bounded = (c: number) => boundByOutcomes(c, 80 * j);
      for (const p of history.slice(80 * j, 80 * (j + 1))) squares += (bounded(p.confidence) - p.outcome) ** 2;
    }
    expect(chosen?.brier.seed).toBeCloseTo(squares / 320, 12);
  });

  it('has nothing to choose from with fewer outcomes than runs', () => {
    expect(selectCalibrator(draw((c) => c, 4, 1))).toBeUndefined();
    expect(
      selectCalibrator(
        draw((c) => c, 40, 1),
        { folds: 1 },
      ),
    ).toBeUndefined();
  });

  it('reports the gain that decided the logistic calibrator: over the choice among the others, not the seed', () => {
    const clamp = (c: number) => Math.min(0.99, Math.max(0.01, c));
    const logOdds = (a: number, b: number) => (c: number) =>
      1 / (1 + Math.exp(-(a * Math.log(clamp(c) / (1 - clamp(c))) + b)));
    const shapes = [(c: number) => c, () => 0.3, (c: number) => 0.1 + 0.5 * c, logOdds(0.5, -0.3), logOdds(2, 0)];
    const overs = new Set<string>();
    let differs = 0;
    for (const [i, rate] of shapes.entries()) {
      for (let seed = 0; seed < 8; seed += 1) {
        const s = selectCalibrator(draw(rate, 400, 300 + 10 * i + seed));
        if (s === undefined) throw new Error('a selection from 400 outcomes');
        const d = s.logisticOverChoice;
        overs.add(d.over);
        // The choice without the logistic calibrator: of those beating the seed by 1 SE, the lowest Brier.
        const beats = (g: { mean: number; standardError: number }) => g.mean > g.standardError && g.mean > 0;
        let earlier: 'seed' | 'base-rate' | 'map' = 'seed';
        for (const c of ['base-rate', 'map'] as const)
          if (beats(s.gain[c]) && s.brier[c] < s.brier[earlier]) earlier = c;
        expect(d.over).toBe(earlier);
        // Its mean is the Brier score it saves over that choice, and it alone decides.
        expect(d.mean).toBeCloseTo(s.brier[earlier] - s.brier.logistic, 12);
        expect(s.calibrator).toBe(beats(d) ? 'logistic' : earlier);
        // Chosen on its gain over the map or the base rate: the seed was not the choice, so not refuted.
        if (s.calibrator === 'logistic' && d.over !== 'seed') expect(s.seedRefuted).toBe(false);
        if (d.over === 'seed') expect(d).toEqual({ over: 'seed', ...s.gain.logistic });
        else if (Math.abs(d.mean - s.gain.logistic.mean) > 1e-6) differs += 1;
      }
    }
    expect(overs.has('seed') && overs.size > 1).toBe(true);
    expect(differs).toBeGreaterThan(0);
  });

  it('learns from one sort what the fits learn apart, to the bit: ties, fractional outcomes, any size', () => {
    for (let seed = 1; seed <= 24; seed += 1) {
      const random = seeded(500 + seed);
      const n = [5, 6, 30, 97, 400, 1000][seed % 6] as number;
      // Continuous confidences, a grid of 21 (many ties), or four values; outcomes 0/1 or fractional.
      const shape = seed % 3;
      const points = Array.from({ length: n }, () => {
        const u = random();
        const confidence =
          shape === 0 ? u : shape === 1 ? Math.round(u * 20) / 20 : [0, 0.3, 0.7, 1][Math.floor(u * 4)];
        const v = random();
        const outcome =
          seed % 4 === 0 ? [0, 0.3, 0.5, 1][Math.floor(v * 4)] : v < 0.2 + 0.6 * (confidence ?? 0) ? 1 : 0;
        return { confidence: confidence as number, outcome: outcome as number };
      });
      // The map's end steps at the default 10 outcomes, or at 1, 3 or 25 (an option every fit must honour).
      const options: CalibrationMapOptions & LogisticOptions =
        seed % 4 === 1 ? {} : { minBlock: [1, 3, 25][seed % 3] as number };
      const learned = learnFromOutcomes(points, options);
      expect(learned.map).toEqual(fitCalibrationMap(points, options));
      expect(learned.logistic).toEqual(fitLogisticCalibration(points, options));
      expect(learned.calibrated).toEqual(crossFitCalibration(points, options));
      expect(learned.selection).toEqual(selectCalibrator(points, options));
      // The selection's Brier scores are those of each calibrator learned apart on every outcome before each run.
      const cut = (j: number) => Math.floor((j * n) / 5);
      for (const c of CALIBRATORS) {
        const errors: number[] = [];
        for (let j = 1; j < 5; j += 1) {
          const f = learnCalibrator(c, points.slice(0, cut(j)), options);
          for (const p of points.slice(cut(j), cut(j + 1))) errors.push((f(p.confidence) - p.outcome) ** 2);
        }
        expect(learned.selection?.brier[c]).toBe(errors.reduce((s, e) => s + e, 0) / errors.length);
      }
    }
  });

  it('honours minBlock in the selection and the final map as fitCalibrationMap does, and refuses what it does', () => {
    // Two right answers at the very top of 320 right 70 % of the time: with minBlock 1 they make the top step alone.
    const random = seeded(9);
    const points = Array.from({ length: 320 }, () => ({
      confidence: 0.5 + 0.45 * random(),
      outcome: random() < 0.7 ? 1 : 0,
    }));
    points.push({ confidence: 0.975, outcome: 1 }, { confidence: 0.977, outcome: 1 });
    const one = learnFromOutcomes(points, { minBlock: 1 }).map;
    expect(one).toEqual(fitCalibrationMap(points, { minBlock: 1 }));
    expect(one).not.toEqual(fitCalibrationMap(points));
    for (const minBlock of [0, -5, 2.5, Number.NaN]) {
      expect(() => learnFromOutcomes(points, { minBlock })).toThrow(/minBlock must be an integer ≥ 1/);
      expect(() => selectCalibrator(points, { minBlock })).toThrow(/minBlock must be an integer ≥ 1/);
      // Refused whatever the outcomes, as fitCalibrationMap refuses it: none, or fewer than the runs.
      expect(() => learnFromOutcomes([], { minBlock })).toThrow(/minBlock must be an integer ≥ 1/);
      expect(() => selectCalibrator(points.slice(0, 2), { minBlock })).toThrow(/minBlock must be an integer ≥ 1/);
    }
  });
  it('never says 0 or 1: every calibrator stays within the rule of succession for the outcomes it learned', () => {
    // 322 outcomes where the seed is kept (review C: a skill at confidence 1 showed `probability 1 (seed, 322
    // outcomes)`).
    const calibrated = draw((c) => c, 322, 5);
    const seed = learnCalibrator('seed', calibrated);
    expect(seed(1)).toBe(323 / 324);
    expect(seed(0)).toBe(1 / 324);
    expect(seed(0.5)).toBe(0.5);
    // Every claim right: the base rate says 31/32 of 30, not 1.
    const right = draw(() => 1, 30, 6);
    expect(learnCalibrator('base-rate', right)(0.2)).toBe(31 / 32);
    expect(
      learnCalibrator(
        'base-rate',
        draw(() => 0, 30, 6),
      )(0.9),
    ).toBe(1 / 32);
    // Wrong below 0.5 and right above, 1,000 times: the logistic curve is steep enough to round to 1 and 0.
    const split = draw((c) => (c < 0.5 ? 0 : 1), 1000, 7);
    const logistic = learnCalibrator('logistic', split);
    expect(logistic(1)).toBe(1001 / 1002);
    expect(logistic(0)).toBe(1 / 1002);
    // Ten right at the top of a map: 11/12 at most. Every learner, each confidence, within its bounds.
    const below = draw(() => 0.7, 320, 9).map((p) => ({ ...p, confidence: 0.5 + 0.4 * p.confidence }));
    const ten = Array.from({ length: 10 }, (_, i) => ({ confidence: 0.99 + i * 1e-4, outcome: 1 }));
    const top = [...below, { confidence: 0.95, outcome: 0 }, ...ten];
    expect(learnCalibrator('map', top)(1)).toBe(11 / 12);
    for (const points of [calibrated, right, split, top]) {
      const n = points.length;
      for (const c of CALIBRATORS) {
        const f = learnCalibrator(c, points);
        for (const x of [0, 1e-9, 0.5, 1 - 1e-9, 1]) {
          expect(f(x)).toBeGreaterThanOrEqual(1 / (n + 2));
          expect(f(x)).toBeLessThanOrEqual((n + 1) / (n + 2));
        }
      }
    }
    // What the selection scores is what results carry: the seed's Brier with every confidence at 1 and right.
    const sure = Array.from({ length: 100 }, () => ({ confidence: 1, outcome: 1 }));
    const chosen = selectCalibrator(sure);
    expect(chosen?.brier.seed).toBeGreaterThan(0);
  });
});
