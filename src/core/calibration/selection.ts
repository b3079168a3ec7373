/**
 * @module core/calibration/selection
 * A learned system never does worse than before it learned: which calibrator a kind's results use (issue 24).
 * The outcomes, in time order, are cut in `folds` consecutive runs; each run after the first is predicted by the
 * calibrators learned on every run before it (forward chaining), their Brier scores averaged over all predicted
 * outcomes. The seed is kept unless a candidate (the base rate, the map) beats it by more than the noise: its mean
 * paired gain in squared error over the seed's exceeds `margin` standard errors; of those, the lowest Brier wins.
 * The logistic calibrator then replaces that choice only when it beats it by more than the noise in the same way. Where
 * that keeps the seed, a second look cross-fits: each run predicted by calibrators learned on all the others (as many
 * outcomes as the final fit sees, not 20–80 %), the same rule applied to those errors.
 */
import { pairedGain } from '../experience/paired-gain.js';
import {
  applyCalibrationMap,
  crossFittedFigures,
  fitCalibrationMap,
  fitCalibrationMapSorted,
  priorStrengthOf,
  type CalibrationMap,
  type CalibrationMapOptions,
  type CrossFitted,
} from './calibration-map.js';
import {
  applyLogisticCalibration,
  fitLogisticCalibration,
  fitLogisticSorted,
  logitOf,
  priorPrecisionOf,
  sigmoid,
  type LogisticCalibration,
  type LogisticOptions,
} from './logistic.js';
import { requirePoint, type CalibrationPoint } from './reliability.js';

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
   * Which look chose: `forward` (the figures above) or `cross-fitted`, the second look taken only where the forward
   * one kept the seed: every run predicted by the calibrators learned on all the other runs.
   */
  look: 'forward' | 'cross-fitted';
  /** That second look's figures (every outcome predicted), present when it was taken. */
  crossFitted?: Pick<CalibratorSelection, 'calibrator' | 'brier' | 'gain' | 'logisticOverChoice'>;
  /** Outcomes predicted out of sample (all but the first run), of `outcomes`. */
  tested: number;
  outcomes: number;
  folds: number;
}

/** One calibrator learned from `train`: the function it applies to a confidence. */
export function learnCalibrator(
  calibrator: Calibrator,
  train: readonly CalibrationPoint[],
  options: CalibrationMapOptions & LogisticOptions = {},
): (confidence: number) => number {
  if (calibrator === 'seed' || train.length === 0) return (c) => c;
  if (calibrator === 'base-rate') {
    const rate = train.reduce((s, p) => s + p.outcome, 0) / train.length;
    return () => rate;
  }
  if (calibrator === 'logistic') {
    const fit = fitLogisticCalibration(train, options);
    return (c) => applyLogisticCalibration(fit, c);
  }
  const map = fitCalibrationMap(train, options);
  return (c) => applyCalibrationMap(map, c);
}

type SelectionOptions = CalibrationMapOptions & LogisticOptions & { folds?: number; margin?: number };

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

/**
 * Two columns of the outcomes (in time order) outside `[lo, hi)`, in `order`: what a fit on them would sort them into.
 * The first `m` outcomes are those outside `[m, n)`.
 */
function sortedExcept(
  order: Uint32Array,
  lo: number,
  hi: number,
  a: Float64Array,
  b: Float64Array,
): [Float64Array, Float64Array] {
  const m = order.length - (hi - lo);
  const x = new Float64Array(m);
  const y = new Float64Array(m);
  let k = 0;
  for (let i = 0; i < order.length; i += 1) {
    const t = order[i] as number;
    if (t >= lo && t < hi) continue;
    x[k] = a[t] as number;
    y[k] = b[t] as number;
    k += 1;
  }
  return [x, y];
}

/** The map learned on the outcomes outside `[lo, hi)`: equal to `fitCalibrationMap` of them, in time order. */
const mapExcept = (d: Prepared, lo: number, hi: number, s: number): CalibrationMap =>
  fitCalibrationMapSorted(...sortedExcept(d.byConfidence, lo, hi, d.confidence, d.outcome), s);

/** The logistic calibrator learned on the outcomes outside `[lo, hi)` (one at least). */
const logisticExcept = (d: Prepared, lo: number, hi: number, tau: number): LogisticCalibration =>
  fitLogisticSorted(...sortedExcept(d.byConfidenceOutcome, lo, hi, d.logit, d.outcome), tau);

/** The map learned on the first `m` outcomes: equal to `fitCalibrationMap` of them. */
const mapOfPrefix = (d: Prepared, m: number, s: number): CalibrationMap => mapExcept(d, m, d.confidence.length, s);

/** The logistic calibrator learned on the first `m` outcomes (m ≥ 1): equal to `fitLogisticCalibration` of them. */
const logisticOfPrefix = (d: Prepared, m: number, tau: number): LogisticCalibration =>
  logisticExcept(d, m, d.confidence.length, tau);

/**
 * Chooses the calibrator for outcomes given oldest first. Undefined with fewer outcomes than folds (nothing to
 * test): the caller keeps the seed confidence.
 */
export function selectCalibrator(
  pointsInTimeOrder: readonly CalibrationPoint[],
  options: SelectionOptions = {},
): CalibratorSelection | undefined {
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
  if (n === 0) {
    return { map: fitCalibrationMap([], options), logistic: fitLogisticCalibration([], options) };
  }
  const d = prepare(pointsInTimeOrder);
  const folds = options.folds ?? SELECTION_DEFAULTS.folds;
  const selection = !Number.isInteger(folds) || folds < 2 || n < folds ? undefined : selectPrepared(d, options);
  const s = priorStrengthOf(options);
  const tau = priorPrecisionOf(options);
  const half = Math.floor(n / 2);
  const calibrated =
    half < 1 ? undefined : crossFittedFigures(mapOfPrefix(d, half, s), pointsInTimeOrder.slice(half), half);
  return {
    ...(selection === undefined ? {} : { selection }),
    ...(calibrated === undefined ? {} : { calibrated }),
    map: mapOfPrefix(d, n, s),
    logistic: logisticOfPrefix(d, n, tau),
  };
}

/** Each calibrator's squared errors over the predicted outcomes (in time order), one run at a time. */
type Errors = Record<Calibrator, Float64Array>;

/**
 * The squared errors of each calibrator on the runs `from`…`folds − 1`, each run predicted by the calibrators learned
 * on the outcomes outside `[start of run, end of fit)`: `forward`, on every outcome before the run; otherwise on
 * every outcome but the run's own.
 */
function runErrors(d: Prepared, folds: number, forward: boolean, s: number, tau: number): Errors {
  const n = d.confidence.length;
  const cut = (j: number) => Math.floor((j * n) / folds);
  const from = forward ? 1 : 0;
  const tested = n - cut(from);
  const errors: Errors = {
    seed: new Float64Array(tested),
    'base-rate': new Float64Array(tested),
    logistic: new Float64Array(tested),
    map: new Float64Array(tested),
  };
  for (let j = from; j < folds; j += 1) {
    // Each calibrator learned on the outcomes outside [lo, hi) (as learnCalibrator learns it), then the run predicted.
    const lo = cut(j);
    const hi = forward ? n : cut(j + 1);
    let successes = 0;
    for (let i = 0; i < n; i += 1) if (i < lo || i >= hi) successes += d.outcome[i] as number;
    const rate = successes / (n - (hi - lo));
    const logistic = logisticExcept(d, lo, hi, tau);
    const map = mapExcept(d, lo, hi, s);
    for (let i = lo; i < cut(j + 1); i += 1) {
      const c = d.confidence[i] as number;
      const y = d.outcome[i] as number;
      const at = i - cut(from);
      errors.seed[at] = (c - y) ** 2;
      errors['base-rate'][at] = (rate - y) ** 2;
      errors.logistic[at] = (sigmoid(logistic.a * (d.logit[i] as number) + logistic.b) - y) ** 2;
      errors.map[at] = (applyCalibrationMap(map, c) - y) ** 2;
    }
  }
  return errors;
}

/**
 * The rule on one look's errors: the base rate or the map replaces the seed when its mean paired gain over the seed's
 * exceeds `margin` standard errors (of those, the lower Brier); the logistic calibrator then replaces that choice when
 * it beats it in the same way.
 */
function decide(errors: Errors, margin: number): NonNullable<CalibratorSelection['crossFitted']> {
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
  const calibrator: Calibrator = beats(logisticOverChoice) ? 'logistic' : earlier;
  return { calibrator, brier, gain, logisticOverChoice };
}

/**
 * The forward look, and where it keeps the seed the cross-fitted one. Forward chaining judges calibrators learned on
 * 20–80 % of the outcomes; on a few hundred, the early ones follow noise and hide a miscalibration the final fit, on
 * all of them, would correct. The second look judges calibrators learned on 80 % for every run, still out of sample.
 */
function selectPrepared(d: Prepared, options: SelectionOptions): CalibratorSelection {
  const folds = options.folds ?? SELECTION_DEFAULTS.folds;
  const margin = options.margin ?? SELECTION_DEFAULTS.margin;
  const n = d.confidence.length;
  const tau = priorPrecisionOf(options);
  const s = priorStrengthOf(options);
  const tested = n - Math.floor(n / folds);
  const forward = decide(runErrors(d, folds, true, s, tau), margin);
  const base = { ...forward, look: 'forward' as const, tested, outcomes: n, folds };
  if (forward.calibrator !== 'seed') return base;
  const crossFitted = decide(runErrors(d, folds, false, s, tau), margin);
  const chosen = crossFitted.calibrator;
  // The second look may only confirm a gain the forward one saw, though within its noise: it must agree in sign.
  if (chosen === 'seed' || !(forward.gain[chosen].mean > 0)) return { ...base, crossFitted };
  return { ...base, calibrator: chosen, look: 'cross-fitted', crossFitted };
}
