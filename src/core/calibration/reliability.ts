/**
 * @module core/calibration/reliability
 * How well stated confidences match what happened (issue 24, item 2): the reliability table (equal-width
 * bins over [0, 1], each with its count, mean confidence and observed rate), the expected calibration error
 * (Σ over bins of count / n · |mean confidence − observed rate|; Naeini, Cooper & Hauskrecht 2015) and the
 * Brier score (mean of (confidence − outcome)²; Brier 1950). Pure: plain values in, plain values out.
 */
import { CredenceError } from '../errors.js';

/** One shown claim: the confidence it was shown with and what became of it (1 right, 0 wrong; in [0, 1]). */
export interface CalibrationPoint {
  confidence: number;
  outcome: number;
}

/** One bin of a reliability table; the mean and rate are null for an empty bin. */
export interface ReliabilityBin {
  lo: number;
  hi: number;
  count: number;
  meanConfidence: number | null;
  observedRate: number | null;
}

/** @default 10 equal-width bins (the reliability table). */
export const RELIABILITY_DEFAULTS = Object.freeze({ bins: 10 });

/**
 * A learned probability kept within [1/(n + 2), (n + 1)/(n + 2)] for the n outcomes (n ≥ 1) that stand behind it:
 * what Laplace's rule of succession gives n outcomes all wrong or all right. No finite set of outcomes justifies
 * certainty, so no calibrator learned from outcomes says 0 or 1. Only a value beyond those bounds moves.
 */
export function boundByOutcomes(probability: number, outcomes: number): number {
  return Math.min((outcomes + 1) / (outcomes + 2), Math.max(1 / (outcomes + 2), probability));
}

/** Checks a point: both numbers finite and in [0, 1]; names the bad one. */
export function requirePoint(point: CalibrationPoint, at: number): void {
  const { confidence, outcome } = point;
  // Both read once, compared without a loop (a report checks thousands of points).
  if (!(typeof confidence === 'number' && confidence >= 0 && confidence <= 1)) badPoint('confidence', confidence, at);
  if (!(typeof outcome === 'number' && outcome >= 0 && outcome <= 1)) badPoint('outcome', outcome, at);
}

function badPoint(key: string, v: unknown, at: number): never {
  throw new CredenceError('INVALID_INPUT', `calibration point ${at}: ${key} must be a number in [0, 1], got ${v}`);
}

/** Index of the bin `confidence` falls in; 1 goes to the last bin. */
export const binOf = (confidence: number, bins: number): number =>
  Math.min(bins - 1, Math.max(0, Math.floor(confidence * bins)));

/** The double just above (`step` 1) or below (−1) a finite non-negative `x`. */
function adjacentDouble(x: number, step: 1 | -1): number {
  if (x === 0) return step === 1 ? Number.MIN_VALUE : -Number.MIN_VALUE;
  const bits = new BigInt64Array(new Float64Array([x]).buffer);
  bits[0] = (bits[0] as bigint) + BigInt(step);
  return new Float64Array(bits.buffer)[0] as number;
}

/**
 * Where each bin of {@link binOf} starts, as a store reads it: edge k (1 ≤ k < bins) is the least double c with
 * c · bins ≥ k in floating point, so a confidence in [0, 1] falls in bin k exactly when edge k ≤ c < edge k + 1
 * (edge 0 is −∞, edge `bins` +∞). A store sums each bin over one range of its confidence index, in index order.
 */
export function binEdges(bins: number): Float64Array {
  if (!Number.isInteger(bins) || bins < 1) {
    throw new CredenceError('INVALID_INPUT', `bins must be a positive integer, got ${bins}`);
  }
  const edges = new Float64Array(bins + 1);
  edges[0] = Number.NEGATIVE_INFINITY;
  edges[bins] = Number.POSITIVE_INFINITY;
  for (let k = 1; k < bins; k += 1) {
    let c = k / bins;
    while (c * bins >= k) c = adjacentDouble(c, -1);
    while (c * bins < k) c = adjacentDouble(c, 1);
    edges[k] = c;
  }
  return edges;
}

/** The reliability table of `points` over `bins` equal-width bins of [0, 1]. */
export function reliabilityTable(
  points: readonly CalibrationPoint[],
  options: { bins?: number } = {},
): ReliabilityBin[] {
  const bins = options.bins ?? RELIABILITY_DEFAULTS.bins;
  if (!Number.isInteger(bins) || bins < 1) {
    throw new CredenceError('INVALID_INPUT', `bins must be a positive integer, got ${bins}`);
  }
  const count = new Array<number>(bins).fill(0);
  const sumConfidence = new Array<number>(bins).fill(0);
  const sumOutcome = new Array<number>(bins).fill(0);
  points.forEach((p, i) => {
    requirePoint(p, i);
    const b = binOf(p.confidence, bins);
    count[b] = (count[b] ?? 0) + 1;
    sumConfidence[b] = (sumConfidence[b] ?? 0) + p.confidence;
    sumOutcome[b] = (sumOutcome[b] ?? 0) + p.outcome;
  });
  return count.map((n, b) => ({
    lo: b / bins,
    hi: (b + 1) / bins,
    count: n,
    meanConfidence: n === 0 ? null : (sumConfidence[b] ?? 0) / n,
    observedRate: n === 0 ? null : (sumOutcome[b] ?? 0) / n,
  }));
}

/** Expected calibration error of a reliability table; null when it holds no point. */
export function calibrationError(table: readonly ReliabilityBin[]): number | null {
  const n = table.reduce((s, b) => s + b.count, 0);
  if (n === 0) return null;
  let error = 0;
  for (const b of table) {
    if (b.count === 0 || b.meanConfidence === null || b.observedRate === null) continue;
    error += (b.count / n) * Math.abs(b.meanConfidence - b.observedRate);
  }
  return error;
}

/** Brier score: mean squared difference between confidence and outcome; null for no points. Lower is better. */
export function brierScore(points: readonly CalibrationPoint[]): number | null {
  if (points.length === 0) return null;
  let sum = 0;
  points.forEach((p, i) => {
    requirePoint(p, i);
    sum += (p.confidence - p.outcome) ** 2;
  });
  return sum / points.length;
}

/** The table, its ECE and Brier score in one pass of the caller's eye. */
export function measureCalibration(
  points: readonly CalibrationPoint[],
  options: { bins?: number } = {},
): { bins: ReliabilityBin[]; ece: number | null; brier: number | null } {
  const bins = reliabilityTable(points, options);
  return { bins, ece: calibrationError(bins), brier: brierScore(points) };
}
