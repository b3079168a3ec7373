import { describe, expect, it } from 'vitest';
import { outcomeValue } from '../../core/outcomes.js';
import { OUTCOME_KINDS } from '../../core/types.js';
import { DEMO_OUTCOMES_PER_KIND, demoOutcomes, type DemoTargets } from './demo-outcomes.js';

const NOW = Date.parse('2026-02-02T09:00:00Z');
const targets: DemoTargets = {
  search: ['Read', 'Grep'],
  next: ['Edit'],
  dag: ['dag:Read,Edit'],
  recall: ['memory:demo-m1'],
  instinct: ['instinct:i1'],
  skill: [],
};

describe("the demo's outcomes (issue 24)", () => {
  it('are the same for the same now, every kind, each with a confidence and an outcome in the month', () => {
    const rows = demoOutcomes(targets, NOW);
    expect(demoOutcomes(targets, NOW)).toEqual(rows);
    for (const kind of OUTCOME_KINDS) {
      const mine = rows.filter((r) => r.surface === kind);
      expect(mine).toHaveLength(DEMO_OUTCOMES_PER_KIND);
      expect(new Set(mine.map((r) => r.target))).toEqual(
        new Set(targets[kind].length > 0 ? targets[kind] : [`${kind}:demo`]),
      );
      // Confidences across the range: every tenth has some.
      expect(new Set(mine.map((r) => Math.min(9, Math.floor((r.confidence ?? 0) * 10)))).size).toBe(10);
    }
    for (const r of rows) {
      expect(r.at).toBeGreaterThanOrEqual(NOW - 30 * 86_400_000);
      expect(r.outcomeAt).toBeGreaterThanOrEqual(r.at);
      expect(r.outcomeAt).toBeLessThanOrEqual(NOW);
    }
    expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
  });

  it('are miscalibrated: DAGs too sure, recall too shy at the low end', () => {
    const rows = demoOutcomes(targets, NOW);
    const gap = (kind: string, lo: number, hi: number) => {
      const mine = rows.filter(
        (r) => r.surface === kind && (r.confidence ?? 0) >= lo && (r.confidence ?? 0) < hi && r.outcome,
      );
      const mean = mine.reduce((n, r) => n + (r.confidence ?? 0), 0) / mine.length;
      const rate = mine.reduce((n, r) => n + outcomeValue(r.outcome ?? 'failed'), 0) / mine.length;
      return mean - rate;
    };
    expect(gap('dag', 0.5, 1)).toBeGreaterThan(0.15);
    expect(gap('recall', 0, 0.4)).toBeLessThan(-0.1);
  });
});
