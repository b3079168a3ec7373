import { describe, expect, it } from 'vitest';
import type { CalibrationReport, KindCalibration } from '../engine/calibration.js';
import { calibrationText } from './calibration.js';

type Selection = NonNullable<KindCalibration['selection']>;

/** A report of one kind whose results use the logistic calibrator, for the reason `seedRefuted` says. */
function report(seedRefuted: boolean, over: Selection['logisticOverChoice']['over']): CalibrationReport {
  const selection: Selection = {
    calibrator: 'logistic',
    brier: { seed: 0.238, 'base-rate': 0.237, logistic: 0.21, map: 0.215 },
    gain: {
      'base-rate': { mean: 0.001, standardError: 0.002 },
      logistic: { mean: 0.028, standardError: 0.006 },
      map: { mean: 0.023, standardError: 0.005 },
    },
    logisticOverChoice: { over, mean: 0.0047, standardError: 0.0027 },
    miscalibration: { statistic: 33.7, pValue: 4.6e-8, outcomes: 164 },
    seedRefuted,
    tested: 262,
    outcomes: 327,
    folds: 5,
  };
  const kind: KindCalibration = {
    kind: 'search',
    outcomes: 327,
    positives: 150,
    bins: [],
    ece: 0.1,
    brier: 0.24,
    enough: true,
    logistic: { a: 0.596, b: -0.591 },
    selection,
  };
  return { scope: 'demo', at: 0, minOutcomes: 30, priorStrength: 2, kinds: [kind] };
}

const choiceLine = (text: string) => text.split('\n').find((l) => l.startsWith('  results use: ')) ?? '';

describe('credence calibration: why the logistic calibrator (walk 20, item 7)', () => {
  it('names the gain over the choice among the others when the seed was not refuted', () => {
    const line = choiceLine(calibrationText(report(false, 'map')));
    expect(line).toContain('the logistic calibrator, which beat the map (the choice among the others)');
    expect(line).not.toContain('refute');
  });

  it("names Cox's test when the seed was refuted", () => {
    const line = choiceLine(calibrationText(report(true, 'seed')));
    expect(line).toContain("the logistic calibrator, as Cox's test refuted the seed");
    expect(line).not.toContain('the choice among the others');
  });
});
