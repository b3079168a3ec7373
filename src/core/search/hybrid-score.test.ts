import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codeOf } from '../../../test/helpers.js';
import { GRAPH_SCORE_DEFAULTS, graphScore, hybridScore } from './hybrid-score.js';

const unit = fc.double({ min: 0, max: 1, noNaN: true });

describe('hybridScore', () => {
  it('reproduces the seed new-tool example 0.72 × 0.92 + 0.30 × 0.08 = 0.69', () => {
    const result = hybridScore({ semantic: 0.72, graph: 0.3, alpha: 0.92 });
    expect(result.value.toFixed(2)).toBe('0.69');
    expect(result.value).toBeCloseTo(0.6864, 12);
    expect(result.parts).toEqual({ semantic: 0.72, graph: 0.3, alpha: 0.92 });
  });

  it('reproduces the seed established-tool example 0.72 × 0.55 + 0.85 × 0.45 = 0.78', () => {
    const result = hybridScore({ semantic: 0.72, graph: 0.85, alpha: 0.55 });
    expect(result.value.toFixed(2)).toBe('0.78');
    expect(result.value).toBeCloseTo(0.7785, 12);
  });

  it('is the semantic score alone at α = 1 and the graph score alone at α = 0', () => {
    expect(hybridScore({ semantic: 0.4, graph: 0.9, alpha: 1 }).value).toBe(0.4);
    expect(hybridScore({ semantic: 0.4, graph: 0.9, alpha: 0 }).value).toBe(0.9);
  });

  it('rejects scores and α outside [0, 1]', () => {
    expect(codeOf(() => hybridScore({ semantic: 1.2, graph: 0.5, alpha: 0.5 }))).toBe('INVALID_INPUT');
    expect(codeOf(() => hybridScore({ semantic: 0.5, graph: -0.1, alpha: 0.5 }))).toBe('INVALID_INPUT');
    expect(codeOf(() => hybridScore({ semantic: 0.5, graph: 0.5, alpha: Number.NaN }))).toBe('INVALID_INPUT');
  });

  it('lies between the semantic and the graph score for any α', () => {
    fc.assert(
      fc.property(unit, unit, unit, (semantic, graph, alpha) => {
        const { value } = hybridScore({ semantic, graph, alpha });
        expect(value).toBeGreaterThanOrEqual(Math.min(semantic, graph));
        expect(value).toBeLessThanOrEqual(Math.max(semantic, graph));
      }),
    );
  });
});

describe('graphScore', () => {
  it('blends 0.7 relatedness and 0.3 centrality by default', () => {
    expect(GRAPH_SCORE_DEFAULTS).toEqual({ relatedness: 0.7, centrality: 0.3 });
    expect(Object.isFrozen(GRAPH_SCORE_DEFAULTS)).toBe(true);
    expect(graphScore({ relatedness: 1, centrality: 0 })).toBe(0.7);
    expect(graphScore({ relatedness: 0.5, centrality: 1 })).toBeCloseTo(0.65, 12);
  });

  it('is the centrality alone with no context tools', () => {
    expect(graphScore({ centrality: 0.42 })).toBe(0.42);
  });

  it('uses the weights given in the options', () => {
    expect(graphScore({ relatedness: 1, centrality: 0 }, { relatedness: 0.5, centrality: 0.5 })).toBe(0.5);
  });

  it('rejects scores outside [0, 1] and weights that do not sum to 1', () => {
    expect(codeOf(() => graphScore({ centrality: 1.5 }))).toBe('INVALID_INPUT');
    expect(codeOf(() => graphScore({ centrality: 0.5, relatedness: Number.NaN }))).toBe('INVALID_INPUT');
    expect(codeOf(() => graphScore({ centrality: 0.5 }, { relatedness: 0.9 }))).toBe('INVALID_INPUT');
  });

  it('stays within [0, 1]', () => {
    fc.assert(
      fc.property(unit, fc.option(unit, { nil: undefined }), (centrality, relatedness) => {
        const value = graphScore(relatedness === undefined ? { centrality } : { centrality, relatedness });
        expect(value).toBeGreaterThanOrEqual(0);
        expect(value).toBeLessThanOrEqual(1);
      }),
    );
  });
});
