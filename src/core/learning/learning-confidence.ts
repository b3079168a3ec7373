/**
 * @module core/learning/learning-confidence
 * Confidence and significance of a pattern (a group of similar observations): seed 004, SPEC §6.
 *   recency = exp(−daysSinceLatest / 30) (a negative age counts as 0); frequency = min(1.3, 1 + 0.1 · n)
 *   confidence = clamp(mean(confidences) × recency × frequency, 0, 1)
 * Significant: at least 3 occurrences, mean confidence ≥ 0.5 (1e-9 tolerance), no contradiction younger
 * than 7 days. Ages are passed in as days: no clock here. Results are rounded to 12 decimals, so seed
 * example 1 (0.4, 0.5, 0.6 at age 0) is 0.65 exactly.
 */

import { CredenceError } from '../errors.js';
import type { Explained } from '../types.js';
import {
  clampUnit,
  mergeNumberOptions,
  requireCount,
  requireFinite,
  requireNonNegative,
  requireUnit,
  roundTo12,
} from '../validate.js';

/** Seed 004 constants. */
export const LEARNING_DEFAULTS = Object.freeze({
  recencyDays: 30,
  frequencyStep: 0.1,
  frequencyCap: 1.3,
  minOccurrences: 3,
  minMeanConfidence: 0.5,
  contradictionWindowDays: 7,
});

/** Options of the pattern scorers. */
export interface LearningOptions {
  /** Time constant of the recency weight, in days (> 0). @default 30 */
  readonly recencyDays?: number;
  /** Frequency bonus per occurrence (≥ 0). @default 0.1 */
  readonly frequencyStep?: number;
  /** Largest frequency multiplier (≥ 1). @default 1.3 */
  readonly frequencyCap?: number;
  /** Fewest occurrences of a significant pattern (integer ≥ 0). @default 3 */
  readonly minOccurrences?: number;
  /** Lowest mean confidence of a significant pattern, in [0, 1]. @default 0.5 */
  readonly minMeanConfidence?: number;
  /** A contradiction younger than this many days blocks significance (≥ 0). @default 7 */
  readonly contradictionWindowDays?: number;
}

type ResolvedLearningOptions = { -readonly [K in keyof typeof LEARNING_DEFAULTS]: number };

const MEAN_TOLERANCE = 1e-9;

function resolveOptions(options: LearningOptions | undefined): ResolvedLearningOptions {
  if (options === undefined) return { ...LEARNING_DEFAULTS };
  const resolved = mergeNumberOptions(LEARNING_DEFAULTS, options, (key, value) =>
    requireFinite(`learning option ${key}`, value),
  );
  if (resolved.recencyDays <= 0) {
    throw new CredenceError('INVALID_INPUT', `recencyDays must be > 0, got ${resolved.recencyDays}`);
  }
  requireNonNegative('frequencyStep', resolved.frequencyStep);
  if (resolved.frequencyCap < 1) {
    throw new CredenceError('INVALID_INPUT', `frequencyCap must be ≥ 1, got ${resolved.frequencyCap}`);
  }
  requireCount('minOccurrences', resolved.minOccurrences);
  requireUnit('minMeanConfidence', resolved.minMeanConfidence);
  requireNonNegative('contradictionWindowDays', resolved.contradictionWindowDays);
  return resolved;
}

function requireDays(name: string, value: number): void {
  requireFinite(name, value, 'a finite number of days');
}

function requireConfidences(confidences: readonly number[]): void {
  confidences.forEach((c, index) => requireUnit(`confidence at index ${index}`, c));
}

const mean = (values: readonly number[]): number => values.reduce((sum, v) => sum + v, 0) / values.length;

/**
 * Recency weight `exp(−days / 30)` of a pattern whose latest observation is `daysSinceLatest` days
 * old; 1 at age 0, never above 1 (a negative age, from clock skew, counts as 0).
 * @throws CredenceError `INVALID_INPUT` for a non-finite age.
 */
export function recencyWeight(daysSinceLatest: number, options?: LearningOptions): number {
  requireDays('daysSinceLatest', daysSinceLatest);
  const { recencyDays } = resolveOptions(options);
  return roundTo12(Math.exp(-Math.max(0, daysSinceLatest) / recencyDays));
}

/**
 * Frequency multiplier `min(1.3, 1 + 0.1 · occurrences)`.
 * @throws CredenceError `INVALID_INPUT` when `occurrences` is not a non-negative integer.
 */
export function frequencyBonus(occurrences: number, options?: LearningOptions): number {
  requireCount('occurrences', occurrences);
  const { frequencyStep, frequencyCap } = resolveOptions(options);
  return roundTo12(Math.min(frequencyCap, 1 + frequencyStep * occurrences));
}

/** The observations of one pattern, as confidences and the age of the latest one. */
export interface GroupInput {
  /** Confidence of each observation in the group, each in [0, 1]; at least one. */
  readonly confidences: readonly number[];
  /** Days from the latest observation to the evaluation time. */
  readonly daysSinceLatest: number;
}

/** The parts of a group confidence: `value = clamp(mean × recency × frequency)`. */
export interface GroupParts {
  readonly mean: number;
  readonly recency: number;
  readonly frequency: number;
  readonly occurrences: number;
}

/**
 * Group confidence `mean × recency × frequency`, clamped to [0, 1] (seed 004).
 * @throws CredenceError `INVALID_INPUT` for an empty group, a confidence outside [0, 1] or a
 * non-finite age.
 */
export function groupConfidence(input: GroupInput, options?: LearningOptions): Explained<GroupParts> {
  const resolved = resolveOptions(options);
  const { confidences, daysSinceLatest } = input;
  if (confidences.length === 0) {
    throw new CredenceError('INVALID_INPUT', 'a group needs at least one observation confidence, got none');
  }
  requireConfidences(confidences);
  const occurrences = confidences.length;
  const groupMean = roundTo12(mean(confidences));
  const recency = recencyWeight(daysSinceLatest, resolved);
  const frequency = frequencyBonus(occurrences, resolved);
  return {
    value: clampUnit(roundTo12(groupMean * recency * frequency)),
    parts: { mean: groupMean, recency, frequency, occurrences },
  };
}

/** The parts of a stored confidence aged to a later time: `value = stored × recency`. */
export interface AgedParts {
  readonly stored: number;
  readonly recency: number;
}

/**
 * A pattern confidence stored `days` ago, at a later time: the seed's recency decays from the last supporting
 * observation, and a group confidence holds `exp(−age / 30)` of it, so `stored × exp(−days / 30)` is the group
 * formula at the later time when its evidence is no longer at hand (issue 21: decay whatever the window read).
 * @throws CredenceError `INVALID_INPUT` for a stored value outside [0, 1] or a non-finite age.
 */
export function agedConfidence(stored: number, days: number, options?: LearningOptions): Explained<AgedParts> {
  requireUnit('stored confidence', stored);
  const recency = recencyWeight(days, options);
  return { value: clampUnit(roundTo12(stored * recency)), parts: { stored, recency } };
}

/** What significance looks at: the group's confidences and the ages of contradicting events. */
export interface SignificanceInput {
  /** Confidence of each observation in the group, each in [0, 1]. */
  readonly confidences: readonly number[];
  /** Age in days of each contradiction recorded against the pattern (negative counts as 0). */
  readonly contradictionAgesDays: readonly number[];
}

/** Whether a pattern is significant, and each rule it failed in plain words (for the evolve report). */
export interface Significance {
  readonly significant: boolean;
  readonly reasons: string[];
}

const formatNumber = (value: number): string => String(Math.round(value * 1000) / 1000);

/**
 * Whether a pattern is significant (seed 004): ≥ 3 occurrences, mean confidence ≥ 0.5, and no
 * contradiction younger than 7 days. Never throws for a weak group: the reasons say why it failed.
 * @throws CredenceError `INVALID_INPUT` for a confidence outside [0, 1] or a non-finite age.
 */
export function isSignificant(input: SignificanceInput, options?: LearningOptions): Significance {
  const resolved = resolveOptions(options);
  const { confidences, contradictionAgesDays } = input;
  requireConfidences(confidences);
  contradictionAgesDays.forEach((age, index) => requireDays(`contradiction age at index ${index}`, age));

  const reasons: string[] = [];
  const occurrences = confidences.length;
  if (occurrences < resolved.minOccurrences) {
    reasons.push(
      `only ${occurrences} occurrence${occurrences === 1 ? '' : 's'}; ` +
        `a pattern needs at least ${resolved.minOccurrences}`,
    );
  }
  if (occurrences === 0) {
    reasons.push('no observation confidence to average');
  } else {
    const groupMean = mean(confidences);
    if (groupMean + MEAN_TOLERANCE < resolved.minMeanConfidence) {
      reasons.push(
        `mean confidence ${formatNumber(groupMean)} is below the minimum ${formatNumber(resolved.minMeanConfidence)}`,
      );
    }
  }
  const recent = contradictionAgesDays
    .map((age) => Math.max(0, age))
    .filter((age) => age < resolved.contradictionWindowDays);
  if (recent.length > 0) {
    const youngest = Math.min(...recent);
    reasons.push(
      `${recent.length === 1 ? 'a contradiction' : `${recent.length} contradictions`} ` +
        `in the last ${resolved.contradictionWindowDays} days (the latest ${formatNumber(youngest)} days ago)`,
    );
  }
  return { significant: reasons.length === 0, reasons };
}
