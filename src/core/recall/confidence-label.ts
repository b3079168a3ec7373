/**
 * @module core/recall/confidence-label
 * Relative confidence labels for recall results: seed 003's `confidence_label(score, best_score)`, SPEC §8.
 *   best = 0 → low; ratio = |score| / |best| (negative BM25 and positive scores alike)
 *   ratio ≥ 0.75 → high; ratio ≥ 0.40 → medium; else low
 * Beyond the seed: a missing score counts as 0 (as the seed's `entry.get("score", 0)`), and the ratio is
 * rounded to 12 decimals before comparing (0.3 / 0.4 is labelled high, as 3 / 4 is). SPEC §8's extra
 * evidence (margin, term coverage, similarity) lives in core/recall/recall-label.
 */

import { CredenceError } from '../errors.js';
import type { ConfidenceLabel } from '../types.js';
import { requireFinite, roundTo12 } from '../validate.js';

/** Seed 003 ratio thresholds. */
export const LABEL_DEFAULTS = Object.freeze({ high: 0.75, medium: 0.4 });

/** Ratio thresholds; `0 ≤ medium ≤ high`. */
export interface LabelOptions {
  /** Smallest ratio to the best score labelled high. @default 0.75 */
  readonly high?: number;
  /** Smallest ratio to the best score labelled medium. @default 0.40 */
  readonly medium?: number;
}

interface ResolvedLabelOptions {
  readonly high: number;
  readonly medium: number;
}

function resolveOptions(options: LabelOptions | undefined): ResolvedLabelOptions {
  const high = options?.high ?? LABEL_DEFAULTS.high;
  const medium = options?.medium ?? LABEL_DEFAULTS.medium;
  if (!Number.isFinite(high) || !Number.isFinite(medium) || medium < 0 || medium > high) {
    throw new CredenceError(
      'INVALID_INPUT',
      `label thresholds must be finite numbers with 0 ≤ medium ≤ high, ` +
        `got medium ${String(medium)} and high ${String(high)}`,
    );
  }
  return { high, medium };
}

function label(score: number, best: number, thresholds: ResolvedLabelOptions): ConfidenceLabel {
  if (best === 0) return 'low';
  const ratio = roundTo12(Math.abs(score) / Math.abs(best));
  if (ratio >= thresholds.high) return 'high';
  if (ratio >= thresholds.medium) return 'medium';
  return 'low';
}

/**
 * Label one score relative to the best score of its result list (seed 003).
 * @param score the result's score; `undefined` (missing) counts as 0.
 * @param best the score with the largest absolute value in the list.
 * @throws CredenceError `INVALID_INPUT` for a non-finite score or best, or invalid thresholds.
 */
export function confidenceLabel(score: number | undefined, best: number, options?: LabelOptions): ConfidenceLabel {
  const thresholds = resolveOptions(options);
  const value = score ?? 0;
  requireFinite('score', value);
  requireFinite('best score', best);
  return label(value, best, thresholds);
}

/**
 * Label every score of one result list against the score with the largest absolute value
 * (0 for an empty list). Missing scores (`undefined`) count as 0. Labels come back in input order.
 * @throws CredenceError `INVALID_INPUT` for a non-finite score or invalid thresholds.
 */
export function labelAll(scores: readonly (number | undefined)[], options?: LabelOptions): ConfidenceLabel[] {
  const thresholds = resolveOptions(options);
  const values = scores.map((score, index) => {
    const value = score ?? 0;
    requireFinite(`score at index ${index}`, value);
    return value;
  });
  const best = values.reduce((top, value) => (Math.abs(value) > Math.abs(top) ? value : top), 0);
  return values.map((value) => label(value, best, thresholds));
}
