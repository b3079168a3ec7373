import { describe, expect, it } from 'vitest';
import {
  fitLogisticCalibration,
  learnCalibrator,
  measureCalibration,
  selectCalibrator,
} from '../core/calibration/index.js';
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
/** One run, read then parse, at T0: the edge the next-tool suggestions show. */
function readThenParse(cr: Credence) {
  return cr.recordExecution({
    intent: 'read then parse',
    startedAt: T0,
    calls: [
      { tool: 'read', status: 'success' },
      { tool: 'parse', status: 'success', consumes: [0] },
    ],
  });
}

async function showAndSettle(cr: Credence, clock: { now: number }, kind: OutcomeKind, n: number) {
  const confidences = Array.from({ length: n }, (_, i) => ((i % 10) + 0.5) / 10);
  const ids = await cr.recordShown(
    kind,
    confidences.map((confidence, i) => ({ target: `t${i}`, confidence })),
  );
  const shownAt = clock.now;
  const settledAt = shownAt + DAY;
  // Recorded once the last has settled (an outcome is never dated after its engine's now); then back to when shown.
  clock.now = settledAt + (n - 1) * 60_000;
  for (const [i, id] of ids.entries()) {
    await cr.recordOutcome(id, (confidences[i] as number) <= 0.5 ? 'accepted' : 'rejected', {
      at: settledAt + i * 60_000,
    });
  }
  clock.now = shownAt;
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
    await showAndSettle(cr, clock, 'dag', 40);
    // Shown at T0, settled a day later: at T0 nothing is known yet.
    expect((await cr.calibration({ kind: 'dag' })).kinds[0]?.outcomes).toBe(0);
    clock.now = T0 + 2 * DAY;
    const [dag] = (await cr.calibration({ kind: 'dag' })).kinds;
    expect(dag).toMatchObject({ kind: 'dag', outcomes: 40, positives: 20, enough: true });
    expect(dag?.bins.map((b) => b.count)).toEqual(Array(10).fill(4));
    expect(dag?.bins[9]).toMatchObject({ meanConfidence: 0.95, observedRate: 0 });
    // Right at 0.05–0.45, wrong at 0.55–0.95: gaps 0.95 … 0.55 and 0.55 … 0.95, weighted alike.
    expect(dag?.ece).toBeCloseTo(0.75, 12);
    // Held below 0.5, not above: one pooled block, half held at their mean confidence 0.5; flat beyond it, and
    // 10 / 50 of the way back to the confidence itself (the prior): 0.4 at 0, 0.5 at 0.5, 0.6 at 1.
    expect(dag?.map).toEqual([
      { confidence: 0, probability: expect.closeTo(0.4, 12) },
      { confidence: expect.closeTo(0.5, 12), probability: expect.closeTo(0.5, 12) },
      { confidence: 1, probability: expect.closeTo(0.6, 12) },
    ]);
    expect(dag?.calibrated).toMatchObject({ train: 20, test: 20 });
    expect(dag?.calibrated?.brier).toBeLessThan(dag?.brier as number);
    // Half of them settled by then: 20 outcomes, too few for a map.
    clock.now = T0 + DAY + 19.5 * 60_000;
    const [half] = (await cr.calibration({ kind: 'dag' })).kinds;
    expect(half).toMatchObject({ outcomes: 20, enough: false });
    expect(half?.map).toBeUndefined();
    await cr.close();
  });

  it('gives the same table, ECE and Brier from the store’s sums as measured on the outcomes one by one', async () => {
    const clock = { now: T0 };
    const cr = await fresh(clock);
    const confidences = Array.from({ length: 120 }, (_, i) => (i * 0.377) % 1);
    const ids = await cr.recordShown(
      'recall',
      confidences.map((confidence, i) => ({ target: `r${i}`, confidence })),
    );
    const verdicts = ['succeeded', 'failed', 'accepted', 'contradicted', 'validated'] as const;
    clock.now = T0 + 2 * DAY;
    for (const [i, id] of ids.entries()) {
      await cr.recordOutcome(id, verdicts[(i * 7) % 5] as (typeof verdicts)[number], { at: T0 + DAY + i });
    }
    const [recall] = (await cr.calibration({ kind: 'recall' })).kinds;
    const points = confidences.map((confidence, i) => ({
      confidence,
      outcome: ['succeeded', 'accepted', 'validated'].includes(verdicts[(i * 7) % 5] as string) ? 1 : 0,
    }));
    const one = measureCalibration(points);
    expect(recall?.ece).toBeCloseTo(one.ece as number, 12);
    expect(recall?.brier).toBeCloseTo(one.brier as number, 12);
    expect(recall?.positives).toBe(points.reduce((a, p) => a + p.outcome, 0));
    recall?.bins.forEach((b, i) => {
      const o = one.bins[i];
      expect(b.count).toBe(o?.count);
      expect(b.meanConfidence ?? -1).toBeCloseTo(o?.meanConfidence ?? -1, 12);
      expect(b.observedRate ?? -1).toBeCloseTo(o?.observedRate ?? -1, 12);
    });
    // Kept until an outcome changes: the same report again, a new one after another outcome.
    expect(await cr.calibration({ kind: 'recall' })).toBe(await cr.calibration({ kind: 'recall' }));
    const before = await cr.calibration({ kind: 'recall' });
    const [extra] = await cr.recordShown('recall', [{ target: 'r-extra', confidence: 0.9 }]);
    await cr.recordOutcome(extra as string, 'failed', { at: T0 + 2 * DAY });
    const after = await cr.calibration({ kind: 'recall' });
    expect(after).not.toBe(before);
    expect(after.kinds[0]?.outcomes).toBe(121);
    await cr.close();
  });

  it('names a kind that is not one', async () => {
    const cr = await fresh({ now: T0 });
    const error = await cr.calibration({ kind: 'tool' as OutcomeKind }).catch((e: unknown) => e);
    expect(isCredenceError(error, 'INVALID_INPUT')).toBe(true);
    await cr.close();
  });
});

/** A store whose reads of outcomes are counted: `learn` the per-kind reads a fit makes, `sums` the report's tables. */
function countedStore() {
  const store = openSqliteStore({ path: ':memory:' });
  const reads = { learn: 0, sums: 0 };
  const counted = new Proxy(store, {
    get(target, name) {
      const value = Reflect.get(target, name, target);
      if (typeof value !== 'function') return value;
      if (name === 'listOutcomes') {
        return (scope: string, options: { kind?: OutcomeKind } = {}) => {
          if (options.kind !== undefined) reads.learn += 1;
          return value.call(target, scope, options);
        };
      }
      if (name === 'outcomeBins') reads.sums += 1;
      return value.bind(target);
    },
  });
  return { store: counted, reads };
}

describe('learned maps kept and reproducible (issue 24)', () => {
  it('learns at --now from the outcomes known then, however many came after', async () => {
    const clock = { now: T0 };
    const cr = await fresh(clock);
    await readThenParse(cr);
    await showAndSettle(cr, clock, 'next', 2000);
    // After the first 500 outcomes: the newest 1,000 overall all lie later, yet 500 were known then.
    clock.now = T0 + DAY + 499 * 60_000;
    const [next] = (await cr.calibration({ kind: 'next' })).kinds;
    expect(next).toMatchObject({ outcomes: 500, enough: true, selection: { calibrator: expect.any(String) } });
    expect(next?.map).toBeDefined();
    const [after] = await cr.suggestNext('read', { track: false });
    expect(after?.probabilityBasis).toMatchObject({ kind: 'next', outcomes: 500 });
    await cr.close();
  });

  it('learns nothing again while a real clock moves on and no outcome changes, and again after one does', async () => {
    const clock = { now: T0 };
    const { store, reads } = countedStore();
    let n = 0;
    const cr = await openCredence({ store, scope: 'cal', now: () => clock.now, newId: () => `k${(n += 1)}` });
    await readThenParse(cr);
    await showAndSettle(cr, clock, 'next', 40);
    clock.now = T0 + 2 * DAY;
    const [first] = await cr.suggestNext('read', { track: false });
    expect(first).toHaveProperty('probability');
    const report = await cr.calibration();
    const learned = reads.learn;
    const sums = reads.sums;
    expect(learned).toBeGreaterThan(0);
    for (let i = 1; i <= 3; i += 1) {
      clock.now += 1_000;
      const [again] = await cr.suggestNext('read', { track: false });
      expect(again?.probability).toBe(first?.probability);
      expect(await cr.calibration()).toMatchObject({ kinds: report.kinds, at: clock.now });
    }
    expect(reads).toEqual({ learn: learned, sums });
    // A new outcome: learned and summed again.
    clock.now += 1_000;
    const [extra] = await cr.recordShown('next', [{ target: 'x', confidence: 0.9 }]);
    await cr.recordOutcome(extra as string, 'rejected');
    clock.now += 1_000;
    await cr.suggestNext('read', { track: false });
    await cr.calibration();
    expect(reads.learn).toBeGreaterThan(learned);
    expect(reads.sums).toBe(sums + 1);
    await cr.close();
  });
});

describe('probability beside the confidence (issue 24)', () => {
  it('says why a result has none until its kind has enough outcomes, then gives the learned map’s value', async () => {
    const clock = { now: T0 };
    const cr = await fresh(clock);
    await readThenParse(cr);
    const before = await cr.suggestNext('read', { track: false });
    expect(before[0]).toMatchObject({ tool: 'parse', probabilityWhy: expect.stringContaining('0 next outcomes') });
    expect(before[0]).not.toHaveProperty('probability');

    const points = await showAndSettle(cr, clock, 'next', 30);
    clock.now = T0 + 2 * DAY;
    const [after] = await cr.suggestNext('read', { track: false });
    // Right only below 0.5: no rising curve follows that; a flat one beat the seed out of sample: the base rate
    // (half of them) or the logistic calibrator held at slope 0 (its intercept drawn toward 0: ½ again).
    const chosen = selectCalibrator(points);
    const calibrator = chosen?.calibrator ?? 'seed';
    expect(['base-rate', 'logistic']).toContain(calibrator);
    const c = after?.confidence as number;
    expect(after).toMatchObject({
      probability: expect.closeTo(learnCalibrator(calibrator, points)(c), 12),
      probabilityBasis: { kind: 'next', outcomes: 30, calibrator, brier: chosen?.brier, tested: 24 },
    });
    expect(after?.probability).toBeCloseTo(0.5, 6);
    if (calibrator === 'logistic') {
      const fit = fitLogisticCalibration(points);
      expect(fit.a).toBe(0);
      expect(after?.probabilityBasis?.logistic).toEqual({ a: fit.a, b: fit.b });
    } else expect(after?.probabilityBasis).not.toHaveProperty('logistic');
    expect(after).not.toHaveProperty('probabilityWhy');
    // Another kind has still too few.
    const dag = await cr.suggestDag('read then parse', { track: false });
    expect(dag).toHaveProperty('probabilityWhy');
    await cr.close();
  });

  it('gives the learned map only where it beat the seed out of sample, else the confidence itself', async () => {
    const clock = { now: T0 };
    const cr = await fresh(clock);
    // Over-confident: a claim at c held with probability 0.1 + 0.5 c (every tenth of the ten confidences).
    const heldAt = (c: number, i: number) => (i % 10) / 10 < 0.1 + 0.5 * c;
    const confidences = Array.from({ length: 300 }, (_, i) => (Math.floor(i / 10) % 10) / 10 + 0.05);
    await readThenParse(cr);
    const ids = await cr.recordShown(
      'next',
      confidences.map((confidence, i) => ({ target: `s${i}`, confidence })),
    );
    clock.now = T0 + 2 * DAY;
    for (const [i, id] of ids.entries()) {
      await cr.recordOutcome(id, heldAt(confidences[i] as number, i) ? 'accepted' : 'rejected', {
        at: T0 + DAY + i * 60_000,
      });
    }
    const [next] = (await cr.calibration({ kind: 'next' })).kinds;
    expect(next?.selection?.calibrator).toBe('map');
    expect(next?.selection?.brier.map).toBeLessThan(next?.selection?.brier.seed as number);
    // Held 2, 2, 3, 3, 4, 4, 5, 5, 6, 6 of every 10 at 0.05 … 0.95: already rising, so the isotonic map is those
    // rates at those confidences, linear between, flat beyond, and 10 / 310 of the way back to the confidence.
    const rates = [0.2, 0.2, 0.3, 0.3, 0.4, 0.4, 0.5, 0.5, 0.6, 0.6];
    const isotonic = (c: number) => {
      const x = Math.min(9, Math.max(0, (c - 0.05) * 10));
      const i = Math.min(8, Math.floor(x));
      return (rates[i] as number) + (x - i) * ((rates[i + 1] as number) - (rates[i] as number));
    };
    const [after] = await cr.suggestNext('read', { track: false });
    const c = after?.confidence as number;
    expect(after).toMatchObject({
      probability: expect.closeTo((300 * isotonic(c) + 10 * c) / 310, 12),
      probabilityBasis: { kind: 'next', outcomes: 300, calibrator: 'map' },
    });
    await cr.close();
  });
});
