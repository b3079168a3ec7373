/**
 * @module core/calibration/calibration-map
 * A learned monotone map from a stated confidence to the observed probability of being right (issue 24).
 * Isotonic regression by pool adjacent violators (Ayer et al. 1955; Zadrozny & Elkan 2002) over the outcomes
 * sorted by confidence, each block's rate placed at its mean confidence and interpolated linearly between them
 * (centred isotonic regression, Oron & Flournoy 2017; flat beyond the ends), then shrunk toward a beta prior on
 * the seed confidence worth s outcomes: probability(c) = (n · isotonic(c) + s · c) / (n + s). Few outcomes keep
 * the map near the confidence it corrects; many decide. Monotone, pure, and the same whatever the input order.
 */
import { CredenceError } from '../errors.js';
import { boundByOutcomes, brierScore, measureCalibration, requirePoint, type CalibrationPoint } from './reliability.js';

export const CALIBRATION_MAP_DEFAULTS = Object.freeze({
  /**
   * Weight of the prior, in outcomes: the map is s / (n + s) of the way back to the seed confidence. 10 gives
   * the seed a quarter of the say at the minimum of 30 outcomes and 2 % at 500 (chosen once on simulated
   * curves, calibration-map.test.ts: at 30 outcomes it lowers the error of every curve tried against s = 0,
   * at 500 it changes it by < 0.002).
   */
  priorStrength: 10,
  /** Outcomes a kind needs before its map is used or its calibrated figures are measured. */
  minOutcomes: 30,
  /**
   * Fewest outcomes an end step of the map stands on (the map is flat beyond its ends): a smaller first or last
   * pooled block joins its neighbour. Without it one or two right answers at the top confidences made a step of their
   * own at rate 1, and the map said 0.997 where the bin held 31 of 44 (walk 9).
   */
  minBlock: 10,
});

export interface CalibrationMapOptions {
  /** @default 10 */
  readonly priorStrength?: number;
  /** @default 10 */
  readonly minBlock?: number;
}

/** One knot of the map: at this confidence, this probability. */
export interface CalibrationKnot {
  confidence: number;
  probability: number;
}

export interface CalibrationMap {
  /** Increasing in confidence, non-decreasing in probability. Empty for a map learned from nothing. */
  knots: CalibrationKnot[];
  /** Outcomes it was learned from. */
  outcomes: number;
  priorStrength: number;
}

/**
 * Pool adjacent violators over blocks in confidence order (count, sum of confidences and rate each, in typed
 * arrays: a fit makes no object per block), merging until the rates are non-decreasing. Returns how many blocks
 * are left, in place at the front of the arrays.
 */
function poolAdjacentViolators(count: Float64Array, sum: Float64Array, value: Float64Array, blocks: number): number {
  let top = 0;
  for (let i = 0; i < blocks; i += 1) {
    let c = count[i] as number;
    let s = sum[i] as number;
    let v = value[i] as number;
    while (top > 0 && (value[top - 1] as number) > v) {
      top -= 1;
      const lastCount = count[top] as number;
      const weight = lastCount + c;
      v = ((value[top] as number) * lastCount + v * c) / weight;
      s = (sum[top] as number) + s;
      c = weight;
    }
    count[top] = c;
    sum[top] = s;
    value[top] = v;
    top += 1;
  }
  return top;
}

/** The fewest outcomes a step of the map stands on, of `options`, checked. */
export function minBlockOf(options: CalibrationMapOptions): number {
  const m = options.minBlock ?? CALIBRATION_MAP_DEFAULTS.minBlock;
  if (!Number.isInteger(m) || m < 1)
    throw new CredenceError('INVALID_INPUT', `minBlock must be an integer ≥ 1, got ${m}`);
  return m;
}

/**
 * Joins the end blocks of the pooled ones (in place, at the front of the arrays) into their neighbours until each end
 * holds at least `m` outcomes: the map is flat beyond its ends, so an end block speaks for every confidence past it.
 * Adjacent blocks of non-decreasing rates joined keep the rates non-decreasing. Returns how many blocks are left.
 */
function joinSmallEnds(count: Float64Array, sum: Float64Array, value: Float64Array, blocks: number, m: number) {
  const join = (into: number, from: number) => {
    const total = (count[into] as number) + (count[from] as number);
    value[into] =
      ((value[into] as number) * (count[into] as number) + (value[from] as number) * (count[from] as number)) / total;
    sum[into] = (sum[into] as number) + (sum[from] as number);
    count[into] = total;
  };
  let first = 0;
  let last = blocks - 1;
  while (first < last && (count[first] as number) < m) {
    join(first + 1, first);
    first += 1;
  }
  while (last > first && (count[last] as number) < m) {
    join(last - 1, last);
    last -= 1;
  }
  const left = last - first + 1;
  for (let i = 0; i < left; i += 1) {
    count[i] = count[first + i] as number;
    sum[i] = sum[first + i] as number;
    value[i] = value[first + i] as number;
  }
  return left;
}

/** Outcomes of the first (`step` 1) or last (−1) of the pooled blocks and the blocks next to it at its rate. */
function endRun(count: Float64Array, value: Float64Array, blocks: number, step: 1 | -1): EndRun {
  const end = step === 1 ? 0 : blocks - 1;
  let outcomes = 0;
  let run = 0;
  for (let i = end; i >= 0 && i < blocks && value[i] === value[end]; i += step) {
    outcomes += count[i] as number;
    run += 1;
  }
  return { outcomes, blocks: run };
}

/** An end step of the map: its outcomes and how many pooled blocks (adjacent, at the same rate) make it. */
interface EndRun {
  readonly outcomes: number;
  readonly blocks: number;
}

/** The prior strength of `options`, checked. */
export function priorStrengthOf(options: CalibrationMapOptions): number {
  const s = options.priorStrength ?? CALIBRATION_MAP_DEFAULTS.priorStrength;
  if (typeof s !== 'number' || !Number.isFinite(s) || s < 0) {
    throw new CredenceError('INVALID_INPUT', `priorStrength must be a number ≥ 0, got ${s}`);
  }
  return s;
}

/** Learns the map from outcomes (any order). */
export function fitCalibrationMap(
  points: readonly CalibrationPoint[],
  options: CalibrationMapOptions = {},
): CalibrationMap {
  const s = priorStrengthOf(options);
  for (let i = 0; i < points.length; i += 1) requirePoint(points[i] as CalibrationPoint, i);
  const sorted = points.slice().sort((a, b) => a.confidence - b.confidence);
  const confidences = Float64Array.from(sorted, (p) => p.confidence);
  const outcomes = Float64Array.from(sorted, (p) => p.outcome);
  return fitCalibrationMapSorted(confidences, outcomes, s, minBlockOf(options));
}

/**
 * The map from outcomes already checked and sorted by confidence (ties in any order: their outcomes are summed in
 * it): the selection fits every run from one sort through this.
 */
export function fitCalibrationMapSorted(
  confidences: Float64Array,
  outcomes: Float64Array,
  s: number,
  minBlock: number = CALIBRATION_MAP_DEFAULTS.minBlock,
): CalibrationMap {
  // One block per distinct confidence (ties pooled from the start, told by the previous sorted confidence, never
  // by a mean that rounding moves), valued by its observed rate (successes summed, divided once).
  const count = new Float64Array(confidences.length);
  const sum = new Float64Array(confidences.length);
  const value = new Float64Array(confidences.length);
  let blocks = 0;
  let previous = Number.NaN;
  for (let i = 0; i < confidences.length; i += 1) {
    const confidence = confidences[i] as number;
    const outcome = outcomes[i] as number;
    const last = blocks - 1;
    if (last >= 0 && confidence === previous) {
      count[last] = (count[last] as number) + 1;
      sum[last] = (sum[last] as number) + confidence;
      value[last] = (value[last] as number) + outcome;
    } else {
      count[blocks] = 1;
      sum[blocks] = confidence;
      value[blocks] = outcome;
      blocks += 1;
    }
    previous = confidence;
  }
  for (let i = 0; i < blocks; i += 1) value[i] = (value[i] as number) / (count[i] as number);
  const pooled = joinSmallEnds(count, sum, value, poolAdjacentViolators(count, sum, value, blocks), minBlock);
  const isotonic = Array.from({ length: pooled }, (_, i) => ({
    confidence: (sum[i] as number) / (count[i] as number),
    rate: value[i] as number,
  }));
  const first = isotonic[0];
  const last = isotonic.at(-1);
  if (first === undefined || last === undefined) return { knots: [], outcomes: 0, priorStrength: s };
  // Flat beyond the outcomes seen, then shrunk toward the prior: both are linear between the knots, so the
  // knots at 0, the blocks' mean confidences and 1 carry the whole map. Then each end step is kept within the rule of
  // succession's bounds for its own outcomes (adjacent blocks of the same rate count as one): ten right answers at the
  // top say at most 11/12, never 1. The steps between keep their rates (review D, item 6: one interval for the whole
  // map capped 500 claims that held 95 % at the 11/12 of ten above them), and an end step never passes its neighbour.
  const n = confidences.length;
  const low = endRun(count, value, pooled, 1);
  const high = endRun(count, value, pooled, -1);
  const shrunk = (c: number, rate: number) => (n * rate + s * c) / (n + s);
  const lead = first.confidence > 0 ? 1 : 0;
  const ends = [
    ...(lead === 1 ? [{ confidence: 0, rate: first.rate }] : []),
    ...isotonic,
    ...(last.confidence < 1 ? [{ confidence: 1, rate: last.rate }] : []),
  ];
  const probability = ends.map((k) => shrunk(k.confidence, k.rate));
  const bottomEnd = lead + low.blocks; // knots before it are the bottom step's
  const topStart = lead + pooled - high.blocks; // knots from it on are the top step's
  const lowest = boundByOutcomes(0, low.outcomes);
  const highest = boundByOutcomes(1, high.outcomes);
  if (high.blocks === pooled) {
    for (let i = 0; i < probability.length; i += 1)
      probability[i] = Math.min(highest, Math.max(lowest, probability[i] as number));
  } else {
    const above = probability[bottomEnd] as number;
    for (let i = 0; i < bottomEnd; i += 1) probability[i] = Math.min(above, Math.max(lowest, probability[i] as number));
    const below = probability[topStart - 1] as number;
    for (let i = topStart; i < probability.length; i += 1)
      probability[i] = Math.max(below, Math.min(highest, probability[i] as number));
  }
  const knots = ends.map((k, i) => ({ confidence: k.confidence, probability: probability[i] as number }));
  return { knots, outcomes: n, priorStrength: s };
}

/** The probability the map gives a confidence; the confidence itself when the map is empty. */
export function applyCalibrationMap(map: Pick<CalibrationMap, 'knots'>, confidence: number): number {
  const { knots } = map;
  const first = knots[0];
  const last = knots.at(-1);
  if (first === undefined || last === undefined) return confidence;
  if (confidence <= first.confidence) return first.probability;
  if (confidence >= last.confidence) return last.probability;
  let lo = 0;
  let hi = knots.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if ((knots[mid] as CalibrationKnot).confidence <= confidence) lo = mid;
    else hi = mid;
  }
  const a = knots[lo] as CalibrationKnot;
  const b = knots[hi] as CalibrationKnot;
  const t = (confidence - a.confidence) / (b.confidence - a.confidence);
  return a.probability + t * (b.probability - a.probability);
}

/** The map's figures measured honestly: learned on the earlier half of the outcomes, measured on the later. */
export interface CrossFitted {
  ece: number;
  brier: number;
  /** The confidences as stated, measured on the same later half (what the map is compared with). */
  seed: { ece: number; brier: number };
  /** Outcomes learned from and measured on. */
  train: number;
  test: number;
}

/**
 * Cross-fitted figures of the map over outcomes given in time order: fit on the first ⌊n/2⌋, the ECE and
 * Brier score of the mapped probabilities on the rest. Undefined with fewer than 2 outcomes.
 */
export function crossFitCalibration(
  pointsInTimeOrder: readonly CalibrationPoint[],
  options: CalibrationMapOptions & { bins?: number } = {},
): CrossFitted | undefined {
  const half = Math.floor(pointsInTimeOrder.length / 2);
  if (half < 1) return undefined;
  const train = pointsInTimeOrder.slice(0, half);
  const test = pointsInTimeOrder.slice(half);
  return crossFittedFigures(fitCalibrationMap(train, options), test, half, options);
}

/** The figures of a map learned on the first `train` outcomes, measured on `test`, the ones after them. */
export function crossFittedFigures(
  map: CalibrationMap,
  test: readonly CalibrationPoint[],
  train: number,
  options: { bins?: number } = {},
): CrossFitted {
  const mapped = test.map((p) => ({ confidence: applyCalibrationMap(map, p.confidence), outcome: p.outcome }));
  const measured = measureCalibration(mapped, options);
  const stated = measureCalibration(test, options);
  return {
    ece: measured.ece ?? 0,
    brier: brierScore(mapped) ?? 0,
    seed: { ece: stated.ece ?? 0, brier: stated.brier ?? 0 },
    train,
    test: test.length,
  };
}
