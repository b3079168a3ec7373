import { describe, expect, it } from 'vitest';
import { chooseByExpectedF1 } from './expected-f1.js';
import { bestLinkRule, chooseLinks } from './link-choice.js';
import { fitLogistic, predictLogistic } from './logistic.js';

describe('fitLogistic', () => {
  it('learns that a feature raises the odds, and predicts the base rate without signal', () => {
    const x: number[][] = [];
    const y: number[] = [];
    for (let i = 0; i < 200; i += 1) {
      const f = (i % 10) / 10;
      x.push([1, f]);
      y.push(f >= 0.5 ? (i % 7 === 0 ? 0 : 1) : i % 7 === 0 ? 1 : 0);
    }
    const fit = fitLogistic(x, y);
    expect(fit.weights[1]).toBeGreaterThan(0);
    expect(predictLogistic(fit, [1, 0.9])).toBeGreaterThan(0.7);
    expect(predictLogistic(fit, [1, 0.1])).toBeLessThan(0.3);
    const flat = fitLogistic(
      Array.from({ length: 40 }, () => [1, 0]),
      Array.from({ length: 40 }, (_, i) => (i < 10 ? 1 : 0)),
    );
    expect(predictLogistic(flat, [1, 0])).toBeCloseTo(0.25, 2);
  });

  it('stays finite on rows one feature separates perfectly', () => {
    const x = Array.from({ length: 50 }, (_, i) => [1, i < 25 ? 0 : 1]);
    const y = x.map((r) => r[1] as number);
    const fit = fitLogistic(x, y);
    for (const w of fit.weights) expect(Number.isFinite(w)).toBe(true);
    expect(predictLogistic(fit, [1, 1])).toBeGreaterThan(0.8);
    expect(predictLogistic(fit, [1, 0])).toBeLessThan(0.2);
  });
});

describe('chooseByExpectedF1', () => {
  it('keeps the likely ones, stops where another would lower the expected F1, and keeps at least one', () => {
    const chosen = chooseByExpectedF1([
      { id: 'a', p: 0.9 },
      { id: 'b', p: 0.8 },
      { id: 'c', p: 0.1 },
    ]);
    expect(chosen.kept.map((c) => c.id)).toEqual(['a', 'b']);
    expect(chosen.expectedF1).toBeCloseTo((2 * 1.7) / (2 + 1.8), 12);
    expect(chooseByExpectedF1([{ id: 'x', p: 0.01 }]).kept).toHaveLength(1);
    expect(chooseByExpectedF1([]).kept).toEqual([]);
  });

  it('expects less when right tools are missing from the candidates', () => {
    const c = [{ id: 'a', p: 0.9 }];
    expect(chooseByExpectedF1(c, 1).expectedF1).toBeLessThan(chooseByExpectedF1(c, 0).expectedF1);
  });
});

describe('link rules', () => {
  const links = [
    { from: 'a', to: 'b', p: 0.9 },
    { from: 'b', to: 'c', p: 0.2 },
    { from: 'a', to: 'c', p: 0.1 },
  ];

  it('half keeps what is likely; span joins what is still apart with the likeliest link', () => {
    expect(chooseLinks('half', links).map((l) => `${l.from}${l.to}`)).toEqual(['ab']);
    expect(chooseLinks('span', links).map((l) => `${l.from}${l.to}`)).toEqual(['ab', 'bc']);
  });

  it('picks the rule that matched the replays best', () => {
    const chain = new Set(['a\u0000b', 'b\u0000c']);
    expect(bestLinkRule([{ links, truth: chain }]).rule).toBe('span');
    expect(bestLinkRule([{ links, truth: new Set(['a\u0000b']) }]).rule).toBe('half');
  });
});
