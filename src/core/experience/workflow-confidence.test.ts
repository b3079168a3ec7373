import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codeOf } from '../../../test/helpers.js';
import { DAY_MS, decayFactor } from '../graph/edge-decay.js';
import { EDGE_DEFAULTS } from '../graph/edge-confidence.js';
import { workflowConfidence, workflowRecordBound } from './workflow-confidence.js';

const T = Date.UTC(2026, 0, 1);

describe('workflowConfidence', () => {
  it('is the Laplace estimate of the success rate when just used', () => {
    const c = workflowConfidence({ runs: 3, successes: 2, lastSeen: T, now: T });
    expect(c.value).toBe(0.6);
    expect(c.parts).toEqual({ successRate: 2 / 3, estimate: 0.6, decay: 1, idleDays: 0 });
  });

  it('gives one successful run less than certainty, and more runs more', () => {
    const one = workflowConfidence({ runs: 1, successes: 1, lastSeen: T, now: T }).value;
    const ten = workflowConfidence({ runs: 10, successes: 10, lastSeen: T, now: T }).value;
    expect(one).toBeCloseTo(2 / 3, 12);
    expect(ten).toBeGreaterThan(one);
    expect(ten).toBeLessThan(1);
  });

  it('decays like an edge: half after the edge half-life', () => {
    const now = T + EDGE_DEFAULTS.halfLifeDays * DAY_MS;
    const c = workflowConfidence({ runs: 2, successes: 2, lastSeen: T, now });
    expect(c.parts.decay).toBe(decayFactor(EDGE_DEFAULTS.halfLifeDays));
    expect(c.parts.decay).toBe(0.5);
    expect(c.value).toBe(0.75 * 0.5);
  });

  it('counts idle time in whole days, as edges are read', () => {
    const c = workflowConfidence({ runs: 1, successes: 1, lastSeen: T, now: T + 1.9 * DAY_MS });
    expect(c.parts.idleDays).toBe(1);
    expect(workflowConfidence({ runs: 1, successes: 1, lastSeen: T, now: T + DAY_MS / 2 }).parts.decay).toBe(1);
  });

  it('takes the half-life and idle step from its options', () => {
    const c = workflowConfidence(
      { runs: 1, successes: 0, lastSeen: T, now: T + 1.5 * DAY_MS },
      { halfLifeDays: 1.5, idleStepDays: 0 },
    );
    expect(c.parts.decay).toBe(0.5);
    expect(c.value).toBeCloseTo(1 / 6, 12);
  });

  it('stays within [0, 1] and never rises with idle time', () => {
    fc.assert(
      fc.property(
        fc.nat(1000),
        fc.nat(1000),
        fc.double({ min: 0, max: 1e4, noNaN: true }),
        fc.double({ min: 0, max: 1e4, noNaN: true }),
        (runs, s, a, b) => {
          const successes = Math.min(runs, s);
          const at = (days: number) =>
            workflowConfidence({ runs, successes, lastSeen: T, now: T + days * DAY_MS }).value;
          const [early, late] = a <= b ? [a, b] : [b, a];
          expect(at(early)).toBeGreaterThanOrEqual(0);
          expect(at(early)).toBeLessThanOrEqual(1);
          expect(at(late)).toBeLessThanOrEqual(at(early));
        },
      ),
    );
  });

  it('rejects counts that are not whole, more successes than runs and a bad step with INVALID_INPUT', () => {
    expect(codeOf(() => workflowConfidence({ runs: 1.5, successes: 0, lastSeen: T, now: T }))).toBe('INVALID_INPUT');
    expect(codeOf(() => workflowConfidence({ runs: 1, successes: 2, lastSeen: T, now: T }))).toBe('INVALID_INPUT');
    expect(codeOf(() => workflowConfidence({ runs: 1, successes: 0, lastSeen: Number.NaN, now: T }))).toBe(
      'INVALID_INPUT',
    );
    expect(codeOf(() => workflowConfidence({ runs: 1, successes: 0, lastSeen: T, now: T }, { idleStepDays: -1 }))).toBe(
      'INVALID_INPUT',
    );
  });
});

// Walk 14, item 3: what lets execute_dag run a DAG on its own record when the seed formula cannot reach 0.85.
describe('workflowRecordBound', () => {
  const T = Date.parse('2026-03-01T00:00:00Z');
  const bound = (runs: number, successes: number, now = T) =>
    workflowRecordBound({ runs, successes, lastSeen: T, now });

  it('is the Wilson lower bound at one-sided 95 %: all successes give runs / (runs + 1.645²)', () => {
    for (const n of [1, 2, 11, 16, 40]) expect(bound(n, n).parts.lowerBound).toBeCloseTo(n / (n + 1.645 ** 2), 12);
    // 0.85 takes 16 successes in a row: 15 are not enough, nor 19 of 20.
    expect(bound(15, 15).value).toBeLessThan(0.85);
    expect(bound(16, 16).value).toBeGreaterThanOrEqual(0.85);
    expect(bound(20, 19).value).toBeCloseTo(0.804, 3);
    expect(bound(0, 0).value).toBe(0);
    expect(bound(5, 0).value).toBe(0);
  });

  it('decays like the workflow’s confidence, and stays within [0, 1] below the success rate', () => {
    expect(bound(40, 40, T + 60 * DAY_MS).parts.decay).toBe(0.5);
    expect(bound(40, 40, T + 60 * DAY_MS).value).toBeCloseTo(bound(40, 40).value / 2, 12);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 500 }), fc.double({ min: 0, max: 1, noNaN: true }), (runs, share) => {
        const successes = Math.round(runs * share);
        const b = bound(runs, successes).value;
        return b >= 0 && b <= successes / runs + 1e-12;
      }),
    );
  });
});
