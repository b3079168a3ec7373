import { describe, expect, it } from 'vitest';
import { applyCalibrationMap, fitCalibrationMap } from '../core/calibration/index.js';
import { isCredenceError } from '../core/errors.js';
import type { OutcomeKind } from '../core/types.js';
import { openSqliteStore } from '../store/sqlite/index.js';
import { openCredence, type Credence } from './engine.js';

const T0 = Date.parse('2026-03-01T00:00:00Z');
const DAY = 86_400_000;

async function fresh(clock: { now: number }): Promise<Credence> {
  let n = 0;
  return openCredence({
    store: openSqliteStore({ path: ':memory:' }),
    scope: 'cal',
    now: () => clock.now,
    newId: () => `c${(n += 1)}`,
  });
}

/**
 * `n` claims of `kind` shown at the clock, the i-th at confidence (i mod 10 + 0.5) / 10 and right only when it is
 * at most 0.5 (an over-confident source); their outcomes a day later, one a minute apart.
 */
async function showAndSettle(cr: Credence, clock: { now: number }, kind: OutcomeKind, n: number) {
  const confidences = Array.from({ length: n }, (_, i) => ((i % 10) + 0.5) / 10);
  const ids = await cr.recordShown(
    kind,
    confidences.map((confidence, i) => ({ target: `t${i}`, confidence })),
  );
  const settledAt = clock.now + DAY;
  for (const [i, id] of ids.entries()) {
    await cr.recordOutcome(id, (confidences[i] as number) <= 0.5 ? 'accepted' : 'rejected', {
      at: settledAt + i * 60_000,
    });
  }
  return confidences.map((confidence) => ({ confidence, outcome: confidence <= 0.5 ? 1 : 0 }));
}

describe('calibration report (issue 24)', () => {
  it('has a 10-bin table for each of the six kinds, and no figures or map without outcomes', async () => {
    const clock = { now: T0 };
    const cr = await fresh(clock);
    const report = await cr.calibration();
    expect(report.kinds.map((k) => k.kind)).toEqual(['search', 'next', 'dag', 'recall', 'instinct', 'skill']);
    for (const k of report.kinds) {
      expect(k).toMatchObject({ outcomes: 0, positives: 0, ece: null, brier: null, enough: false });
      expect(k.bins).toHaveLength(10);
      expect(k.map).toBeUndefined();
      expect(k.calibrated).toBeUndefined();
    }
    expect(report).toMatchObject({ scope: 'cal', at: T0, minOutcomes: 30 });
    await cr.close();
  });

  it('measures a kind from its outcomes, learns a map from enough, counts only those known by now', async () => {
    const clock = { now: T0 };
    const cr = await fresh(clock);
    const points = await showAndSettle(cr, clock, 'dag', 40);
    // Shown at T0, settled a day later: at T0 nothing is known yet.
    expect((await cr.calibration({ kind: 'dag' })).kinds[0]?.outcomes).toBe(0);
    clock.now = T0 + 2 * DAY;
    const [dag] = (await cr.calibration({ kind: 'dag' })).kinds;
    expect(dag).toMatchObject({ kind: 'dag', outcomes: 40, positives: 20, enough: true });
    expect(dag?.bins.map((b) => b.count)).toEqual(Array(10).fill(4));
    expect(dag?.bins[9]).toMatchObject({ meanConfidence: 0.95, observedRate: 0 });
    // Right at 0.05–0.45, wrong at 0.55–0.95: gaps 0.95 … 0.55 and 0.55 … 0.95, weighted alike.
    expect(dag?.ece).toBeCloseTo(0.75, 12);
    expect(dag?.map).toEqual(fitCalibrationMap(points).knots);
    expect(dag?.calibrated).toMatchObject({ train: 20, test: 20 });
    expect(dag?.calibrated?.brier).toBeLessThan(dag?.brier as number);
    // Half of them settled by then: 20 outcomes, too few for a map.
    clock.now = T0 + DAY + 19.5 * 60_000;
    const [half] = (await cr.calibration({ kind: 'dag' })).kinds;
    expect(half).toMatchObject({ outcomes: 20, enough: false });
    expect(half?.map).toBeUndefined();
    await cr.close();
  });

  it('names a kind that is not one', async () => {
    const cr = await fresh({ now: T0 });
    const error = await cr.calibration({ kind: 'tool' as OutcomeKind }).catch((e: unknown) => e);
    expect(isCredenceError(error, 'INVALID_INPUT')).toBe(true);
    await cr.close();
  });
});

describe('probability beside the confidence (issue 24)', () => {
  it('says why a result has none until its kind has enough outcomes, then gives the learned map’s value', async () => {
    const clock = { now: T0 };
    const cr = await fresh(clock);
    await cr.recordExecution({
      intent: 'read then parse',
      startedAt: T0,
      calls: [
        { tool: 'read', status: 'success' },
        { tool: 'parse', status: 'success', consumes: [0] },
      ],
    });
    const before = await cr.suggestNext('read', { track: false });
    expect(before[0]).toMatchObject({ tool: 'parse', probabilityWhy: expect.stringContaining('0 next outcomes') });
    expect(before[0]).not.toHaveProperty('probability');

    const points = await showAndSettle(cr, clock, 'next', 30);
    clock.now = T0 + 2 * DAY;
    const [after] = await cr.suggestNext('read', { track: false });
    const expected = applyCalibrationMap(fitCalibrationMap(points), after?.confidence as number);
    expect(after).toMatchObject({ probability: expected, probabilityBasis: { kind: 'next', outcomes: 30 } });
    expect(after).not.toHaveProperty('probabilityWhy');
    // Another kind has still too few.
    const dag = await cr.suggestDag('read then parse', { track: false });
    expect(dag).toHaveProperty('probabilityWhy');
    await cr.close();
  });
});
