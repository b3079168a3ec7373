/**
 * @module core/runs/outcome-confidence
 * Confidence of one workflow node's output from its execution signals: seed 002, SPEC §7 decision.
 *   base = success 0.7 | partial 0.5 | failure 0.3
 *   retried = retries > 0 ? min(base, max(0.1, base − 0.1 · retries)) : base
 *   confidence = clamp(retried + min(0.2, 0.05 · downstreamUses), 0, 1)
 * The retry floor only stops a penalty (a base under it is not raised). Intermediate values are rounded
 * to 12 decimals (0.7 − 0.1 · 3 is 0.4).
 */

import { CredenceError } from '../errors.js';
import { CALL_STATUSES } from '../types.js';
import type { CallStatus, Explained } from '../types.js';
import { clampUnit, mergeNumberOptions, requireCount, requireUnit, roundTo12 } from '../validate.js';

/** Seed 002 scoring constants. */
export const OUTCOME_DEFAULTS = Object.freeze({
  success: 0.7,
  partial: 0.5,
  failure: 0.3,
  retryPenalty: 0.1,
  retryFloor: 0.1,
  downstreamBoost: 0.05,
  downstreamMax: 0.2,
});

/** Options of the outcome scorers; every value must lie in [0, 1]. */
export interface OutcomeOptions {
  /** Base confidence of a successful call. @default 0.7 */
  readonly success?: number;
  /** Base confidence of a call with some outputs. @default 0.5 */
  readonly partial?: number;
  /** Base confidence of a failed call. @default 0.3 */
  readonly failure?: number;
  /** Confidence lost per retry. @default 0.1 */
  readonly retryPenalty?: number;
  /** Retries never push confidence below this. @default 0.1 */
  readonly retryFloor?: number;
  /** Confidence gained per downstream node that used the output. @default 0.05 */
  readonly downstreamBoost?: number;
  /** Largest total downstream boost. @default 0.2 */
  readonly downstreamMax?: number;
}

type ResolvedOutcomeOptions = { -readonly [K in keyof typeof OUTCOME_DEFAULTS]: number };

/** The execution signals of one call (seed 002 `ConfidenceSignals`). */
export interface OutcomeSignals {
  readonly status: CallStatus;
  /** How many times the call was retried. @default 0 */
  readonly retries?: number;
  /** How many later nodes consumed this call's output. @default 0 */
  readonly downstreamUses?: number;
}

/** The parts of an outcome confidence: `value = clamp(base − retryPenalty + downstreamBoost)`. */
export interface OutcomeParts {
  /** Confidence from the call's status. */
  readonly base: number;
  /** Confidence actually taken away by retries (≥ 0, after the floor). */
  readonly retryPenalty: number;
  /** Confidence actually added by downstream use (≥ 0, after the cap). */
  readonly downstreamBoost: number;
}

function resolveOptions(options: OutcomeOptions | undefined): ResolvedOutcomeOptions {
  return mergeNumberOptions(OUTCOME_DEFAULTS, options, (key, value) => requireUnit(`outcome option ${key}`, value));
}

/**
 * Base confidence of a call from its status: success 0.7, partial 0.5, failure 0.3 (seed 002).
 * @throws CredenceError `INVALID_INPUT` for a status outside success | partial | failure.
 */
export function confidenceFromOutcome(status: CallStatus, options?: OutcomeOptions): number {
  const resolved = resolveOptions(options);
  switch (status) {
    case 'success':
      return resolved.success;
    case 'partial':
      return resolved.partial;
    case 'failure':
      return resolved.failure;
    default:
      throw new CredenceError(
        'INVALID_INPUT',
        `unknown call status ${JSON.stringify(status)}; valid statuses are ${CALL_STATUSES.join(', ')}`,
      );
  }
}

/**
 * Confidence after `retries` retries: −0.1 each, never below 0.1 because of retries, never above
 * the input (seed 002: flaky results are less reliable).
 * @throws CredenceError `INVALID_INPUT` when `confidence` is outside [0, 1] or `retries` is not a
 * non-negative integer.
 */
export function adjustForRetries(confidence: number, retries: number, options?: OutcomeOptions): number {
  requireUnit('confidence', confidence);
  requireCount('retries', retries);
  const resolved = resolveOptions(options);
  if (retries === 0) return confidence;
  return roundTo12(Math.min(confidence, Math.max(resolved.retryFloor, confidence - resolved.retryPenalty * retries)));
}

/**
 * Confidence after `downstreamUses` later nodes used the output: +0.05 each, at most +0.2 in total,
 * never above 1 (seed 002: content used by later nodes is more valuable).
 * @throws CredenceError `INVALID_INPUT` when `confidence` is outside [0, 1] or `downstreamUses` is
 * not a non-negative integer.
 */
export function adjustForDownstreamUse(confidence: number, downstreamUses: number, options?: OutcomeOptions): number {
  requireUnit('confidence', confidence);
  requireCount('downstreamUses', downstreamUses);
  const resolved = resolveOptions(options);
  return clampUnit(roundTo12(confidence + Math.min(resolved.downstreamMax, resolved.downstreamBoost * downstreamUses)));
}

/**
 * Outcome confidence of one call with its parts: status, then retries (floor 0.1), then downstream
 * boost, then clamp to [0, 1] (SPEC §7).
 * @throws CredenceError `INVALID_INPUT` for an unknown status, negative or fractional counts, or
 * options outside [0, 1].
 */
export function outcomeConfidence(signals: OutcomeSignals, options?: OutcomeOptions): Explained<OutcomeParts> {
  const resolved = resolveOptions(options);
  const base = confidenceFromOutcome(signals.status, resolved);
  const retried = adjustForRetries(base, signals.retries ?? 0, resolved);
  const boosted = adjustForDownstreamUse(retried, signals.downstreamUses ?? 0, resolved);
  const value = clampUnit(boosted);
  return {
    value,
    parts: {
      base,
      retryPenalty: roundTo12(base - retried),
      downstreamBoost: roundTo12(boosted - retried),
    },
  };
}
