import { describe, expect, it } from 'vitest';
import { recallLabels, type LabelEvidence } from './recall-label.js';

const ev = (score: number, termShare = 1, similarity = 0.8): LabelEvidence => ({ score, termShare, similarity });

describe('recallLabels', () => {
  it("in seed mode labels exactly as seed 003's relative rule", () => {
    const labels = recallLabels([ev(-5.2), ev(-3.1), ev(-1.0)], { mode: 'seed' }).map((l) => l.label);
    expect(labels).toEqual(['high', 'medium', 'low']);
    expect(recallLabels([ev(1), ev(1)], { mode: 'seed' }).map((l) => l.label)).toEqual(['high', 'high']);
  });

  it('keeps "high" for a top result with a clear margin, matched words and similarity', () => {
    expect(recallLabels([ev(1), ev(0.5)])[0]).toEqual({ label: 'high', seedLabel: 'high' });
    expect(recallLabels([ev(1)])[0]?.label).toBe('high');
  });

  it('withholds "high" without a clear margin over the next result', () => {
    const [first, second] = recallLabels([ev(1), ev(0.95)]);
    expect(first).toMatchObject({ label: 'medium', seedLabel: 'high' });
    expect(first?.withheld).toMatch(/margin/);
    expect(second).toMatchObject({ label: 'medium', seedLabel: 'high' });
  });

  it('withholds "high" when none of the query words match or the meaning is far', () => {
    expect(recallLabels([ev(1, 0), ev(0.1)])[0]).toMatchObject({ label: 'medium' });
    expect(recallLabels([ev(1, 0.2), ev(0.1)])[0]).toMatchObject({ label: 'high' });
    expect(recallLabels([ev(1, 1, 0.05), ev(0.1)])[0]).toMatchObject({ label: 'medium' });
  });

  it('never raises a label above the seed', () => {
    const labels = recallLabels([ev(1), ev(0.5), ev(0.1)]).map((l) => l.label);
    expect(labels).toEqual(['high', 'medium', 'low']);
  });
});
