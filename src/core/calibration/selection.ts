/**
 * @module core/calibration/selection
 * A learned system never does worse than before it learned: which calibrator a kind's results use (issue 24).
 * The outcomes, in time order, are cut in `folds` runs; each run after the first is predicted by the calibrators
 * learned on the runs before it, their Brier scores averaged. The seed is kept unless a candidate (the base rate, the
 * map) beats it by more than `margin` standard errors of its paired gain; of those, the lowest Brier wins. The
 * logistic calibrator replaces that choice only by beating it in the same way, or, where the seed is the choice, by
 * any gain when the newest half of the outcomes fails Cox's test of calibration at `significance`: a paired Brier
 * gain is a weak test of a miscalibration, and a seed the outcomes plainly refute is not worth keeping.
 */
import { CredenceError } from '../errors.js';
import { pairedGain } from '../experience/paired-gain.js';
import {
  applyCalibrationMap,
  crossFittedFigures,
  fitCalibrationMap,
  fitCalibrationMapSorted,
  minBlockOf,
  priorStrengthOf,
  type CalibrationMap,
  type CalibrationMapOptions,
  type CrossFitted,
} from './calibration-map.js';
import {
  applyLogisticCalibration,
  calibrationTestOf,
  fitLogisticCalibration,
  fitLogisticSorted,
  logitOf,
  priorPrecisionOf,
  sigmoid,
  type CalibrationTest,
  type LogisticCalibration,
  type LogisticOptions,
} from './logistic.js';
import { boundByOutcomes, requirePoint, type CalibrationPoint } from './reliability.js';

/**
 * The calibrators a kind may use, simplest first: the confidence itself, one number (the base rate), two (the
 * logistic calibrator's slope and intercept on the log-odds), a step per block (the isotonic map).
 */
export const CALIBRATORS = ['seed', 'base-rate', 'logistic', 'map'] as const;
export type Calibrator = (typeof CALIBRATORS)[number];

export const SELECTION_DEFAULTS = Object.freeze({
  /** Consecutive runs of outcomes; the first only trains (4 predicted runs: 80 % of the outcomes tested). */
  folds: 5,
  /** Standard errors of the paired gain a candidate must beat the seed by (1: right ~84 % of the time by chance). */
  margin: 1,
  /**
   * The level of Cox's test of calibration on the newest half of the outcomes under which the seed counts as shown
   * miscalibrated (1 %: a calibrated seed fails it once in a hundred). 5 % was measured too: on calibrated
   * outcomes the seed was then kept in 94.0 % of draws (seeds 41–1000), short of the 95 % the property test asks.
   */
  significance: 0.01,
});

/** The choice and the out-of-sample figures behind it. */
export interface CalibratorSelection {
  calibrator: Calibrator;
  /** Brier score of each calibrator over the predicted outcomes (lower is better). */
  brier: Record<Calibrator, number>;
  /**
   * Mean paired gain over the seed's squared error of each candidate, and its standard error. The base rate and the
   * map are chosen by theirs; the logistic calibrator is not: see {@link logisticOverChoice}.
   */
  gain: Record<Exclude<Calibrator, 'seed'>, { mean: number; standardError: number }>;
  /**
   * The gain that decides the logistic calibrator: its mean paired gain in squared error over the choice among the
   * others (`over`: the seed, the base rate or the map), and its standard error; it is chosen when the mean exceeds
   * `margin` standard errors (and 0). Equal to `gain.logistic` when `over` is the seed.
   */
  logisticOverChoice: { over: Exclude<Calibrator, 'logistic'>; mean: number; standardError: number };
  /**
   * Cox's test of the seed's calibration on the newest half of the outcomes (the older half may show a
   * miscalibration that has since ended). Where the seed is the choice among the others, a p-value below
   * `significance` with `logisticOverChoice.mean` above 0 chooses the logistic calibrator.
   */
  miscalibration: CalibrationTest;
  /**
   * Whether the seed was refuted: it was the choice among the others, `miscalibration` fell below `significance` and
   * the logistic calibrator gained over it at all, so the logistic calibrator is chosen for that (whether or not it
   * also beat the seed by `margin` standard errors). False when the logistic calibrator won on its gain alone.
   */
  seedRefuted: boolean;
  /** Outcomes predicted out of sample (all but the first run), of `outcomes`. */
  tested: number;
  outcomes: number;
  folds: number;
}

/**
 * One calibrator learned from `train`: the function it applies to a confidence. Every one keeps its probability
 * within the bounds of the outcomes it learned from ({@link boundByOutcomes}), the seed too; from none, the
 * confidence itself.
 */
export function learnCalibrator(
  calibrator: Calibrator,
  train: readonly CalibrationPoint[],
  options: CalibrationMapOptions & LogisticOptions = {},
): (confidence: number) => number {
  const n = train.length;
  if (n === 0) return (c) => c;
  if (calibrator === 'seed') return (c) => boundByOutcomes(c, n);
  if (calibrator === 'base-rate') {
    const rate = boundByOutcomes(train.reduce((s, p) => s + p.outcome, 0) / n, n);
    return () => rate;
  }
  if (calibrator === 'logistic') {
    const fit = fitLogisticCalibration(train, options);
    return (c) => applyLogisticCalibration(fit, c);
  }
  const map = fitCalibrationMap(train, options);
  return (c) => applyCalibrationMap(map, c);
}

type SelectionOptions = CalibrationMapOptions &
  LogisticOptions & { folds?: number; margin?: number; significance?: number };

/**
 * Outcomes in time order, checked once, in typed arrays, with the two orders the fits read them in (one sort each,
 * shared by every run of the selection and the final fits): by confidence with ties in time order (the map's
 * stable sort) and by confidence then outcome (the logistic fit's).
 */
interface Prepared {
  confidence: Float64Array;
  outcome: Float64Array;
  logit: Float64Array;
  byConfidence: Uint32Array;
  byConfidenceOutcome: Uint32Array;
}

function prepare(pointsInTimeOrder: readonly CalibrationPoint[]): Prepared {
  const n = pointsInTimeOrder.length;
  const confidence = new Float64Array(n);
  const outcome = new Float64Array(n);
  const logit = new Float64Array(n);
  for (let i = 0; i < n; i += 1) {
    const p = pointsInTimeOrder[i] as CalibrationPoint;
    requirePoint(p, i);
    confidence[i] = p.confidence;
    outcome[i] = p.outcome;
    logit[i] = logitOf(p.confidence);
  }
  const order = Array.from({ length: n }, (_, i) => i);
  order.sort((i, j) => (confidence[i] as number) - (confidence[j] as number) || i - j);
  const byConfidence = Uint32Array.from(order);
  order.sort(
    (i, j) =>
      (confidence[i] as number) - (confidence[j] as number) || (outcome[i] as number) - (outcome[j] as number) || i - j,
  );
  return { confidence, outcome, logit, byConfidence, byConfidenceOutcome: Uint32Array.from(order) };
}

/** Two columns of the first `m` outcomes (in time order), in `order`: what a fit on them would sort them into. */
function sortedPrefix(order: Uint32Array, m: number, a: Float64Array, b: Float64Array): [Float64Array, Float64Array] {
  const x = new Float64Array(m);
  const y = new Float64Array(m);
  let k = 0;
  for (let i = 0; i < order.length; i += 1) {
    const t = order[i] as number;
    if (t >= m) continue;
    x[k] = a[t] as number;
    y[k] = b[t] as number;
    k += 1;
  }
  return [x, y];
}

/** The map learned on the first `m` outcomes: equal to `fitCalibrationMap` of them with the same options. */
const mapOfPrefix = (d: Prepared, m: number, s: number, minBlock: number): CalibrationMap =>
  fitCalibrationMapSorted(...sortedPrefix(d.byConfidence, m, d.confidence, d.outcome), s, minBlock);

/** The logistic calibrator learned on the first `m` outcomes (m ≥ 1): equal to `fitLogisticCalibration` of them. */
const logisticOfPrefix = (d: Prepared, m: number, tau: number): LogisticCalibration =>
  fitLogisticSorted(...sortedPrefix(d.byConfidenceOutcome, m, d.logit, d.outcome), tau);

/** The level of the calibration test, checked: a number in (0, 1). */
function significanceOf(options: SelectionOptions): number {
  const level = options.significance ?? SELECTION_DEFAULTS.significance;
  if (typeof level !== 'number' || !(level > 0 && level < 1)) {
    throw new CredenceError('INVALID_INPUT', `significance must be a number in (0, 1), got ${level}`);
  }
  return level;
}

/** The fits' options, checked as `fitCalibrationMap` and `fitLogisticCalibration` check them (an error names it). */
function fitOptionsOf(options: SelectionOptions): { s: number; minBlock: number; tau: number } {
  significanceOf(options);
  return { s: priorStrengthOf(options), minBlock: minBlockOf(options), tau: priorPrecisionOf(options) };
}

/**
 * Chooses the calibrator for outcomes given oldest first. Undefined with fewer outcomes than folds (nothing to
 * test): the caller keeps the seed confidence. Options the fits refuse (e.g. minBlock 0) are refused here too.
 */
export function selectCalibrator(
  pointsInTimeOrder: readonly CalibrationPoint[],
  options: SelectionOptions = {},
): CalibratorSelection | undefined {
  fitOptionsOf(options);
  const folds = options.folds ?? SELECTION_DEFAULTS.folds;
  const n = pointsInTimeOrder.length;
  if (!Number.isInteger(folds) || folds < 2 || n < folds) return undefined;
  return selectPrepared(prepare(pointsInTimeOrder), options);
}

/**
 * What a kind learns from its outcomes (oldest first), every fit from one {@link prepare}: the same values, to the
 * bit, as `selectCalibrator`, `crossFitCalibration`, `fitCalibrationMap` and `fitLogisticCalibration` called apart.
 */
export function learnFromOutcomes(
  pointsInTimeOrder: readonly CalibrationPoint[],
  options: SelectionOptions = {},
): { selection?: CalibratorSelection; calibrated?: CrossFitted; map: CalibrationMap; logistic: LogisticCalibration } {
  const n = pointsInTimeOrder.length;
  const { s, minBlock, tau } = fitOptionsOf(options);
  if (n === 0) {
    return { map: fitCalibrationMap([], options), logistic: fitLogisticCalibration([], options) };
  }
  const d = prepare(pointsInTimeOrder);
  const folds = options.folds ?? SELECTION_DEFAULTS.folds;
  const selection = !Number.isInteger(folds) || folds < 2 || n < folds ? undefined : selectPrepared(d, options);
  const half = Math.floor(n / 2);
  const calibrated =
    half < 1 ? undefined : crossFittedFigures(mapOfPrefix(d, half, s, minBlock), pointsInTimeOrder.slice(half), half);
  return {
    ...(selection === undefined ? {} : { selection }),
    ...(calibrated === undefined ? {} : { calibrated }),
    map: mapOfPrefix(d, n, s, minBlock),
    logistic: logisticOfPrefix(d, n, tau),
  };
}

function selectPrepared(d: Prepared, options: SelectionOptions): CalibratorSelection {
  const folds = options.folds ?? SELECTION_DEFAULTS.folds;
  const margin = options.margin ?? SELECTION_DEFAULTS.margin;
  const n = d.confidence.length;
  const { s, minBlock, tau } = fitOptionsOf(options);
  const cut = (j: number) => Math.floor((j * n) / folds);
  // Each calibrator's squared errors over the predicted outcomes, in time order.
  const tested = n - cut(1);
  const errors: Record<Calibrator, Float64Array> = {
    seed: new Float64Array(tested),
    'base-rate': new Float64Array(tested),
    logistic: new Float64Array(tested),
    map: new Float64Array(tested),
  };
  for (let j = 1; j < folds; j += 1) {
    // Each calibrator learned on every outcome before the run (as learnCalibrator learns it), then the run predicted.
    const m = cut(j);
    let successes = 0;
    for (let i = 0; i < m; i += 1) successes += d.outcome[i] as number;
    const rate = boundByOutcomes(successes / m, m);
    const logistic = logisticOfPrefix(d, m, tau);
    const map = mapOfPrefix(d, m, s, minBlock);
    for (let i = m; i < cut(j + 1); i += 1) {
      const c = d.confidence[i] as number;
      const y = d.outcome[i] as number;
      const at = i - cut(1);
      errors.seed[at] = (boundByOutcomes(c, m) - y) ** 2;
      errors['base-rate'][at] = (rate - y) ** 2;
      errors.logistic[at] = (boundByOutcomes(sigmoid(logistic.a * (d.logit[i] as number) + logistic.b), m) - y) ** 2;
      errors.map[at] = (applyCalibrationMap(map, c) - y) ** 2;
    }
  }
  const mean = (xs: Float64Array) => {
    let sum = 0;
    for (let i = 0; i < xs.length; i += 1) sum += xs[i] as number;
    return sum / xs.length;
  };
  const brier = {
    seed: mean(errors.seed),
    'base-rate': mean(errors['base-rate']),
    logistic: mean(errors.logistic),
    map: mean(errors.map),
  };
  /** The mean paired gain of `c` in squared error over `over`, and its standard error. */
  const gainOf = (c: Calibrator, over: Calibrator = 'seed') => {
    const { gain: m, standardError } = pairedGain(errors[over], errors[c]);
    return { mean: m, standardError };
  };
  const beats = (g: { mean: number; standardError: number }) => g.mean > margin * g.standardError && g.mean > 0;
  const gain = { 'base-rate': gainOf('base-rate'), logistic: gainOf('logistic'), map: gainOf('map') };
  let earlier: Exclude<Calibrator, 'logistic'> = 'seed';
  for (const c of ['base-rate', 'map'] as const) {
    if (beats(gain[c]) && brier[c] < brier[earlier]) earlier = c;
  }
  const logisticOverChoice = { over: earlier, ...gainOf('logistic', earlier) };
  // The seed on trial: the newest half of the outcomes, in time order.
  const newest = Math.floor(n / 2);
  const miscalibration = calibrationTestOf(d.logit.subarray(newest), d.outcome.subarray(newest));
  const seedRefuted =
    earlier === 'seed' && logisticOverChoice.mean > 0 && miscalibration.pValue < significanceOf(options);
  const calibrator: Calibrator = beats(logisticOverChoice) || seedRefuted ? 'logistic' : earlier;
  return { calibrator, brier, gain, logisticOverChoice, miscalibration, seedRefuted, tested, outcomes: n, folds };
}
