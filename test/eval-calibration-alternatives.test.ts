import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../bench/prng.js';
import { learnAlternative, measureAlternatives, type PairedClaim } from '../eval/calibration/alternatives.js';
import { calibrationRow, type QueryClaims } from '../eval/calibration/claims.js';
import { learnCalibrator, selectCalibrator } from '../src/core/calibration/index.js';

/** Queries of `size` claims sharing one confidence; each query right or wrong as a whole, with that probability. */
function clusteredCalibrated(queries: number, size: number, seed: number): PairedClaim[] {
  const random = mulberry32(seed);
  return Array.from({ length: queries }, (_, query) => {
    const confidence = 0.2 + 0.6 * random();
    const outcome = random() < confidence ? 1 : 0;
    return Array.from({ length: size }, () => ({ confidence, outcome, formula: confidence, query }));
  }).flat();
}

const chosenOn = (rule: Parameters<typeof learnAlternative>[0], claims: readonly PairedClaim[]) => {
  const f = learnAlternative(rule, claims);
  return [0.1, 0.3, 0.5, 0.7, 0.9].every((c) => f({ confidence: c, outcome: 0, formula: c, query: -1 }) === c)
    ? 'kept'
    : 'learned';
};

describe('section F3 selection rules', () => {
  it("'selected' is the engine's rule: the same figures as section F's selected column", () => {
    const queries: QueryClaims[] = Array.from({ length: 600 }, (_, i) => {
      const confidence = ((i % 10) + 0.5) / 10;
      return [{ confidence, outcome: Math.floor(i / 10) % 20 < Math.floor(confidence * 10) ? 1 : 0 }];
    });
    const [rows] = [measureAlternatives([{ seed: queries, shown: queries }], [5])];
    const row = calibrationRow(queries, 5);
    const selected = rows.find((r) => r.alternative === 'selected');
    expect(selected?.split.ece).toBe(row.selected.ece);
    expect(selected?.split.brier).toBe(row.selected.brier);
    expect(selected?.twoFold.ece).toBe(row.twoFold.ece);
  });

  it("'selected' chooses what the engine's selectCalibrator chooses, whichever calibrator that is", () => {
    // The rules of F3 run their own copy of the engine's rule (to change one thing each): it must not drift from it.
    const shapes: ((c: number) => number)[] = [(c) => c, (c) => 0.1 + 0.5 * c, () => 0.4, (c) => (c > 0.5 ? 0.9 : 0.1)];
    const random = mulberry32(11);
    const chosen = new Set<string>();
    for (let draw = 0; draw < 48; draw += 1) {
      const rate = shapes[draw % shapes.length] as (c: number) => number;
      const claims: PairedClaim[] = Array.from({ length: [40, 120, 300][draw % 3] as number }, (_, query) => {
        const confidence = random();
        return { confidence, formula: confidence, outcome: random() < rate(confidence) ? 1 : 0, query };
      });
      const engine = selectCalibrator(claims)?.calibrator ?? 'seed';
      chosen.add(engine);
      const expected = learnCalibrator(engine, claims);
      const selected = learnAlternative('selected', claims);
      for (const c of [0.05, 0.3, 0.5, 0.7, 0.95]) {
        expect(selected({ confidence: c, formula: c, outcome: 0, query: -1 })).toBeCloseTo(expected(c), 12);
      }
    }
    // The draws reach every calibrator the engine can choose.
    expect([...chosen].sort()).toEqual(['base-rate', 'logistic', 'map', 'seed']);
  });

  it('clustered: a calibrated source whose claims come in correlated queries keeps the seed more often', () => {
    let perClaim = 0;
    let clustered = 0;
    for (let seed = 1; seed <= 40; seed += 1) {
      const claims = clusteredCalibrated(60, 10, seed);
      if (chosenOn('selected', claims) === 'learned') perClaim += 1;
      if (chosenOn('clustered', claims) === 'learned') clustered += 1;
    }
    // Per claim, 10 copies of each outcome look like 10 independent wins: a learned calibrator passes by luck.
    expect(perClaim).toBeGreaterThanOrEqual(clustered + 3);
  });

  it('seed formula fallback keeps the formula unless the confidence shown beats it; as a candidate it can win', () => {
    const random = mulberry32(9);
    // The formula is calibrated; the shown confidence is pulled toward 1 (over-confident).
    const claims: PairedClaim[] = Array.from({ length: 400 }, (_, query) => {
      const formula = 0.1 + 0.8 * random();
      return { formula, confidence: 0.5 + formula / 2, outcome: random() < formula ? 1 : 0, query };
    });
    const probe = { confidence: 0.9, formula: 0.8, outcome: 0, query: -1 };
    expect(learnAlternative('seed formula fallback', claims)(probe)).toBe(0.8);
    // As a candidate the formula beats the over-confident shown value (or a learned calibrator does better still).
    expect(learnAlternative('seed formula candidate', claims)(probe)).not.toBe(0.9);
    expect(learnAlternative('selected', claims)(probe)).not.toBe(0.9);
  });

  it('shrunk to base rate: leaves a kept seed alone and moves a learned choice only toward the base rate', () => {
    const calibrated = clusteredCalibrated(300, 1, 4);
    expect(chosenOn('shrunk to base rate', calibrated)).toBe(chosenOn('selected', calibrated));
    // Confidence that tells little (rate 0.5 + 0.4 (c − 0.5)): a learned choice, shrunk a little toward the base rate,
    // stays between it and the base rate.
    const random = mulberry32(11);
    const noise: PairedClaim[] = Array.from({ length: 400 }, (_, query) => {
      const confidence = random();
      return { confidence, formula: confidence, outcome: random() < 0.5 + 0.4 * (confidence - 0.5) ? 1 : 0, query };
    });
    const edge = { confidence: 0.05, formula: 0.05, outcome: 0, query: -1 };
    expect(learnAlternative('shrunk to base rate', noise)(edge)).not.toBe(learnAlternative('selected', noise)(edge));
    const chosen = learnAlternative('selected', noise);
    const shrunk = learnAlternative('shrunk to base rate', noise);
    const rate = noise.reduce((s, p) => s + p.outcome, 0) / noise.length;
    for (const c of [0.05, 0.5, 0.95]) {
      const probe = { confidence: c, formula: c, outcome: 0, query: -1 };
      const lo = Math.min(chosen(probe), rate) - 1e-12;
      const hi = Math.max(chosen(probe), rate) + 1e-12;
      expect(shrunk(probe)).toBeGreaterThanOrEqual(lo);
      expect(shrunk(probe)).toBeLessThanOrEqual(hi);
    }
  });
});
