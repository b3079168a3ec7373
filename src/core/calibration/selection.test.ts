import { describe, expect, it } from 'vitest';
import { learnCalibrator, selectCalibrator } from './selection.js';
import type { CalibrationPoint } from './reliability.js';
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
    // Nearly always it keeps the seed outright (118 of 120 draws).
    expect(kept / (seeds.length * 3)).toBeGreaterThanOrEqual(0.95);
  });

  it('chooses the map for an over-confident seed, the base rate when the confidence says nothing', () => {
    const over = selectCalibrator(draw((c) => 0.1 + 0.5 * c, 500, 7));
    expect(over?.calibrator).toBe('map');
    expect(over?.brier.map).toBeLessThan(over?.brier.seed ?? 0);
    // Every claim right 30 % of the time whatever its confidence.
    const flat = selectCalibrator(draw(() => 0.3, 500, 8));
    expect(flat?.calibrator).not.toBe('seed');
    expect(flat?.brier['base-rate']).toBeLessThan(flat?.brier.seed ?? 0);
  });

  it('never learns from the future: outcomes that flip half way are judged on the runs after', () => {
    // Right when confident for the first half, wrong when confident after: the later runs punish what was learned.
    const history = draw((c) => c, 400, 3).map((p, i) => (i < 200 ? p : { ...p, outcome: 1 - p.outcome }));
    const chosen = selectCalibrator(history);
    expect(chosen).toMatchObject({ outcomes: 400, tested: 320, folds: 5 });
    // Forward chaining: the first run is never predicted, so the seed's Brier is over the last 320 only.
    const tail = history.slice(80);
    expect(chosen?.brier.seed).toBeCloseTo(
      brier((c) => c, tail),
      12,
    );
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
});
