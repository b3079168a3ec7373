import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codeOf } from '../../../test/helpers.js';
import {
  COLD_START_WARNING,
  DAG_DEFAULTS,
  DENSITY_TIERS,
  adaptiveWeights,
  dagConfidence,
  lowConfidenceWarning,
  pathStrength,
} from './dag-confidence.js';

const unit = fc.double({ min: 0, max: 1, noNaN: true });

describe('adaptiveWeights', () => {
  it('gives the seed weights for each density tier', () => {
    expect(adaptiveWeights(0)).toEqual({ tier: 'cold-start', hybrid: 0.85, pageRank: 0.05, path: 0.1 });
    expect(adaptiveWeights(0.05)).toEqual({ tier: 'growing', hybrid: 0.65, pageRank: 0.2, path: 0.15 });
    expect(adaptiveWeights(0.5)).toEqual({ tier: 'mature', hybrid: 0.55, pageRank: 0.3, path: 0.15 });
  });

  it('puts each boundary in the higher tier', () => {
    expect(adaptiveWeights(0.0099).tier).toBe('cold-start');
    expect(adaptiveWeights(0.01).tier).toBe('growing');
    expect(adaptiveWeights(0.0999).tier).toBe('growing');
    expect(adaptiveWeights(0.1).tier).toBe('mature');
    expect(adaptiveWeights(1).tier).toBe('mature');
  });

  it('keeps the tiers frozen, each summing to 1', () => {
    expect(Object.isFrozen(DENSITY_TIERS)).toBe(true);
    for (const tier of DENSITY_TIERS) {
      expect(Object.isFrozen(tier)).toBe(true);
      expect(tier.hybrid + tier.pageRank + tier.path).toBeCloseTo(1, 12);
    }
  });

  it('rejects a density outside [0, 1]', () => {
    expect(codeOf(() => adaptiveWeights(-0.1))).toBe('INVALID_INPUT');
    expect(codeOf(() => adaptiveWeights(Number.NaN))).toBe('INVALID_INPUT');
    expect(codeOf(() => adaptiveWeights(1.5))).toBe('INVALID_INPUT');
  });
});

describe('pathStrength', () => {
  it('is the mean of the dependency edge confidences', () => {
    expect(pathStrength([1, 0.7, 0.4])).toBeCloseTo(0.7, 12);
    expect(pathStrength([0.35])).toBe(0.35);
  });

  it('is 0.5 when the DAG has no dependency edge', () => {
    expect(pathStrength([])).toBe(0.5);
  });

  it('rejects a confidence outside [0, 1]', () => {
    expect(codeOf(() => pathStrength([0.5, 2]))).toBe('INVALID_INPUT');
  });
});

describe('dagConfidence', () => {
  it('reproduces the seed 0.471 of the mature formula and still returns it, warned with its real tier', () => {
    const result = dagConfidence({ hybrid: 0.72, pageRank: 0, pathStrength: 0.5, density: 0.2 });
    expect(result.value.toFixed(3)).toBe('0.471');
    expect(result.tier).toBe('mature');
    expect(result.warning).toBe(
      'Low confidence suggestion - seed confidence 0.471 is below 0.5; graph is mature, not in cold start. ' +
        'Confidence may improve with usage.',
    );
    const growing = dagConfidence({ hybrid: 0.4, pageRank: 0, pathStrength: 0.5, density: 0.05 });
    expect([growing.tier, growing.warning]).toEqual([
      'growing',
      'Low confidence suggestion - seed confidence 0.335 is below 0.5; graph is growing, not in cold start. ' +
        'Confidence may improve with usage.',
    ]);
  });

  it("a low cold-start suggestion carries the seed's warning word for word", () => {
    const result = dagConfidence({ hybrid: 0.4, pageRank: 0.01, pathStrength: 0.5, density: 0 });
    expect(result.tier).toBe('cold-start');
    expect(result.warning).toBe(
      'Low confidence suggestion - graph is in cold start mode. Confidence may improve with usage.',
    );
    expect(result.warning).toBe(COLD_START_WARNING);
  });

  it('reproduces the seed cold-start 0.665 with no warning', () => {
    const result = dagConfidence({ hybrid: 0.72, pageRank: 0.059, pathStrength: 0.5, density: 0 });
    expect(result.value.toFixed(3)).toBe('0.665');
    expect(result.tier).toBe('cold-start');
    expect(result.weights).toEqual({ hybrid: 0.85, pageRank: 0.05, path: 0.1 });
    expect(result.parts.hybridPart).toBeCloseTo(0.612, 12);
    expect(result.parts.pageRankPart).toBeCloseTo(0.00295, 12);
    expect(result.parts.pathPart).toBeCloseTo(0.05, 12);
    expect(result).not.toHaveProperty('warning');
  });

  it('uses explicit weights when given and reports the tier as custom', () => {
    const result = dagConfidence({
      hybrid: 0.72,
      pageRank: 0,
      pathStrength: 0.5,
      density: 0,
      weights: { hybrid: 0.55, pageRank: 0.3, path: 0.15 },
    });
    expect(result.tier).toBe('custom');
    expect(result.value.toFixed(3)).toBe('0.471');
  });

  it('warns exactly below the low-confidence bound, which the options can move', () => {
    expect(dagConfidence({ hybrid: 0.5, pageRank: 0.5, pathStrength: 0.5, density: 0.5 })).not.toHaveProperty(
      'warning',
    );
    expect(DAG_DEFAULTS.lowConfidence).toBe(0.5);
    expect(
      dagConfidence({ hybrid: 0.72, pageRank: 0.059, pathStrength: 0.5, density: 0 }, { lowConfidence: 0.7 }).warning,
    ).toBe(COLD_START_WARNING);
  });

  it('rejects missing density and weights, scores outside [0, 1] and negative weights', () => {
    expect(codeOf(() => dagConfidence({ hybrid: 0.5, pageRank: 0.5, pathStrength: 0.5 }))).toBe('INVALID_INPUT');
    expect(codeOf(() => dagConfidence({ hybrid: 1.5, pageRank: 0.5, pathStrength: 0.5, density: 0 }))).toBe(
      'INVALID_INPUT',
    );
    expect(
      codeOf(() =>
        dagConfidence({ hybrid: 0.5, pageRank: 0.5, pathStrength: 0.5, weights: { hybrid: -1, pageRank: 0, path: 0 } }),
      ),
    ).toBe('INVALID_INPUT');
  });

  it('stays within [0, 1] even with weights that sum past 1, warning iff below 0.5', () => {
    const weight = fc.double({ min: 0, max: 3, noNaN: true });
    fc.assert(
      fc.property(
        unit,
        unit,
        unit,
        fc.option(fc.record({ hybrid: weight, pageRank: weight, path: weight }), { nil: undefined }),
        unit,
        (hybrid, pageRank, path, weights, density) => {
          const result = dagConfidence(
            weights === undefined
              ? { hybrid, pageRank, pathStrength: path, density }
              : { hybrid, pageRank, pathStrength: path, weights },
          );
          expect(result.value).toBeGreaterThanOrEqual(0);
          expect(result.value).toBeLessThanOrEqual(1);
          expect(result.warning?.startsWith('Low confidence suggestion - ') === true).toBe(result.value < 0.5);
          expect(result.warning === COLD_START_WARNING).toBe(result.value < 0.5 && result.tier === 'cold-start');
          expect(result.warning === undefined).toBe(result.value >= 0.5);
        },
      ),
    );
  });
});

describe('lowConfidenceWarning', () => {
  it('never prints a value below the bound as the bound: 0.49996 reads 0.49996, 0.471 stays 0.471', () => {
    expect(lowConfidenceWarning('mature', 0.49996, 0.5)).toContain('seed confidence 0.49996 is below 0.5;');
    expect(lowConfidenceWarning('growing', 0.4712, 0.5)).toContain('seed confidence 0.471 is below 0.5;');
  });
});
