import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codeOf } from '../../../test/helpers.js';
import { LABEL_DEFAULTS, confidenceLabel, labelAll } from './confidence-label.js';

describe('confidenceLabel', () => {
  it('labels everything low when the best score is 0', () => {
    expect(confidenceLabel(0, 0)).toBe('low');
    expect(confidenceLabel(3, 0)).toBe('low');
  });

  it('labels the best score itself high', () => {
    expect(confidenceLabel(-5.2, -5.2)).toBe('high');
    expect(confidenceLabel(8, 8)).toBe('high');
  });

  it('labels a ratio of exactly 0.75 high and one just under it medium', () => {
    expect(confidenceLabel(3, 4)).toBe('high');
    expect(confidenceLabel(-3, -4)).toBe('high');
    expect(confidenceLabel(2.99, 4)).toBe('medium');
  });

  it('labels a ratio of exactly 0.40 medium and one just under it low', () => {
    expect(confidenceLabel(2, 5)).toBe('medium');
    expect(confidenceLabel(-2, -5)).toBe('medium');
    expect(confidenceLabel(1.99, 5)).toBe('low');
  });

  it('does not let float noise move a boundary: 0.3 / 0.4 is high', () => {
    expect(0.3 / 0.4).toBeLessThan(0.75);
    expect(confidenceLabel(0.3, 0.4)).toBe('high');
  });

  it('treats a missing score as 0, which is low', () => {
    expect(confidenceLabel(undefined, 5)).toBe('low');
  });

  it('uses the thresholds given in the options', () => {
    expect(confidenceLabel(6, 10, { high: 0.6 })).toBe('high');
    expect(confidenceLabel(2, 10, { medium: 0.2 })).toBe('medium');
  });

  it('rejects non-finite scores and thresholds out of order with INVALID_INPUT', () => {
    expect(codeOf(() => confidenceLabel(Number.NaN, 5))).toBe('INVALID_INPUT');
    expect(codeOf(() => confidenceLabel(1, Number.POSITIVE_INFINITY))).toBe('INVALID_INPUT');
    expect(codeOf(() => confidenceLabel(1, 5, { high: 0.3, medium: 0.5 }))).toBe('INVALID_INPUT');
  });

  it('keeps its defaults frozen', () => {
    expect(Object.isFrozen(LABEL_DEFAULTS)).toBe(true);
    expect(LABEL_DEFAULTS).toEqual({ high: 0.75, medium: 0.4 });
  });
});

describe('labelAll', () => {
  it('returns no labels for an empty list', () => {
    expect(labelAll([])).toEqual([]);
  });

  it('labels a single result high', () => {
    expect(labelAll([-2.5])).toEqual(['high']);
    expect(labelAll([7])).toEqual(['high']);
  });

  it('labels results with equal scores all high', () => {
    expect(labelAll([-1.5, -1.5, -1.5])).toEqual(['high', 'high', 'high']);
  });

  it('labels a list of zero scores low', () => {
    expect(labelAll([0, 0])).toEqual(['low', 'low']);
  });

  it('labels a missing score low', () => {
    expect(labelAll([4, undefined])).toEqual(['high', 'low']);
  });

  it('labels negative BM25 scores -5.2, -3.1, -1.0 high, medium, low', () => {
    expect(labelAll([-5.2, -3.1, -1.0])).toEqual(['high', 'medium', 'low']);
  });

  it('labels positive scores 8, 5, 3 high, medium, low', () => {
    expect(labelAll([8, 5, 3])).toEqual(['high', 'medium', 'low']);
  });

  it('finds the best score wherever it is in the list', () => {
    expect(labelAll([-1.0, -5.2, -3.1])).toEqual(['low', 'high', 'medium']);
  });

  it('labels the result with the largest absolute score high', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -100, max: 100, noNaN: true }), { minLength: 1, maxLength: 30 }),
        (scores) => {
          const labels = labelAll(scores);
          expect(labels).toHaveLength(scores.length);
          const bestIndex = scores.reduce(
            (top, score, index) => (Math.abs(score) > Math.abs(scores[top] ?? 0) ? index : top),
            0,
          );
          const allZero = scores.every((score) => score === 0);
          expect(labels[bestIndex]).toBe(allZero ? 'low' : 'high');
        },
      ),
    );
  });

  it('gives each score the same label whatever the order of the list', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: -100, max: 100, noNaN: true }), { maxLength: 30 }), (scores) => {
        const labels = labelAll(scores);
        const reversed = labelAll([...scores].reverse()).reverse();
        expect(reversed).toEqual(labels);
      }),
    );
  });
});
