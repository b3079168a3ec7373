import { describe, expect, it } from 'vitest';
import { CHANGE_EVIDENCE, recallLabels, type LabelEvidence } from './recall-label.js';

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

  it('labels "low" a result with none of the query\'s words and a far meaning, saying why', () => {
    // The scope's only note, unrelated to "where do we deploy": no word shared, similarity 0.15, rank 1.
    const [alone] = recallLabels([ev(0.046, 0, 0.15)]);
    expect(alone).toMatchObject({ label: 'low', seedLabel: 'high' });
    expect(alone?.withheld).toBe("none of the query's words and similarity 0.15 below 0.4");
    // Lower in the list too; one of the words, or a close meaning, keeps it "medium".
    expect(recallLabels([ev(1), ev(0.9, 0, 0.1)])[1]?.label).toBe('low');
    expect(recallLabels([ev(0.046, 0.2, 0.15)])[0]?.label).toBe('medium');
    expect(recallLabels([ev(0.046, 0, 0.5), ev(0.045)])[0]?.label).toBe('medium');
    // A turn a link brought keeps the link as evidence (not "low"); seed mode is the seed's.
    const linked: LabelEvidence = { score: 1, termShare: 0, similarity: 0.1, turn: true, linked: true };
    expect(recallLabels([linked])[0]?.label).toBe('medium');
    expect(recallLabels([ev(0.046, 0, 0.15)], { mode: 'seed' })[0]?.label).toBe('high');
    // So does a memory (not a turn) recall brought as the one that replaced the match, or was replaced by it.
    const replacement: LabelEvidence = { score: 0.9, termShare: 0, similarity: 0.1, linked: true };
    expect(recallLabels([ev(1), replacement])[1]?.label).toBe('medium');
    expect(recallLabels([replacement])[0]?.label).toBe('medium');
  });

  it('a turn: "high" from a link of its life, no margin or similarity asked; or most words and a margin', () => {
    const turn = (score: number, termShare: number, linked: boolean, similarity = 0.1): LabelEvidence => ({
      score,
      termShare,
      similarity,
      turn: true,
      linked,
    });
    // Linked, tied with the next and far in meaning: high.
    expect(recallLabels([turn(1, 0.3, true), turn(1, 0.3, false)])[0]).toEqual({ label: 'high', seedLabel: 'high' });
    // Its words alone, with a clear margin and a close meaning, but a third of the query's words: medium, and why.
    const [alone] = recallLabels([turn(1, 0.34, false, 0.9), turn(0.5, 0.3, false)]);
    expect(alone).toMatchObject({ label: 'medium', withheld: expect.stringContaining('words alone') });
    // Three quarters of the words and a clear margin: high; without the margin: medium.
    expect(recallLabels([turn(1, 0.75, false), turn(0.5, 0.3, false)])[0]?.label).toBe('high');
    expect(recallLabels([turn(1, 0.75, false), turn(0.95, 0.3, false)])[0]?.label).toBe('medium');
    // Linked but not the top, or none of the query's words: medium.
    expect(recallLabels([turn(1, 0.3, false), turn(0.9, 0.3, true)])[1]?.label).toBe('medium');
    expect(recallLabels([turn(1, 0, true)])[0]?.label).toBe('medium');
  });

  it('a turn that replaced one of its speaker\'s: "high" for a question asking when, as a link is', () => {
    // E23b: the top turn, tied with the next, half the query's words, far in meaning, no link; it is a change.
    const top = (change?: boolean): LabelEvidence => ({
      score: 1,
      termShare: 0.5,
      similarity: 0.1,
      turn: true,
      linked: false,
      ...(change === undefined ? {} : { change }),
    });
    const next: LabelEvidence = { score: 1, termShare: 0.5, similarity: 0.1, turn: true };
    expect(recallLabels([top(true), next])[0]).toEqual({ label: 'high', seedLabel: 'high', evidence: CHANGE_EVIDENCE });
    // No change: medium, and the reason says what was missing; a question not asking when passes none.
    const [none] = recallLabels([top(false), next]);
    expect(none).toMatchObject({
      label: 'medium',
      withheld: expect.stringContaining("replaced none of its speaker's"),
    });
    expect(recallLabels([top(), next])[0]?.withheld).not.toContain('replaced');
    // Still only the top result; with none of the query's words and a far meaning, no evidence at all: low.
    expect(recallLabels([next, top(true)])[1]?.label).toBe('medium');
    expect(recallLabels([{ ...top(true), termShare: 0 }])[0]?.label).toBe('low');
  });

  it('never raises a label above the seed', () => {
    const labels = recallLabels([ev(1), ev(0.5), ev(0.1)]).map((l) => l.label);
    expect(labels).toEqual(['high', 'medium', 'low']);
  });
});
