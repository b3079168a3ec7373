/**
 * @module core/learning/base-confidence
 * `confidence_base = f(type, evidence)` (seed 004) of an observation whose sender states none, from the
 * seed's words: 0.3 ("Observation initiale (0.3-0.4)"), 0.4 when it lists evidence (supported, it starts
 * at the top of that range), + 0.2 for a user correction ("Correction par l'utilisateur: +0.2").
 * A stated confidence is the sender's own reading and is kept, so seed example 1 (0.4, 0.5, 0.6) is
 * still 0.65, as are three unstated corrections (0.5 each). Repetition, recency, feedback, age and
 * contradictions apply to the group afterwards (learning-confidence, feedback, skill-ageing).
 */
import type { Explained, ObservationType } from '../types.js';
import { requireUnit, roundTo12 } from '../validate.js';

/** Seed 004 constants. */
export const BASE_CONFIDENCE_DEFAULTS = Object.freeze({
  /** An observation without evidence. @default 0.3 */
  initial: 0.3,
  /** An observation that lists evidence. @default 0.4 */
  initialWithEvidence: 0.4,
  /** Added for a user correction. @default 0.2 */
  correction: 0.2,
});

export interface BaseConfidenceInput {
  readonly type: ObservationType;
  /** The evidence the observation lists (blank items do not count). */
  readonly evidence?: readonly string[] | undefined;
  /** The confidence its sender stated, in [0, 1]: kept as the base when given. */
  readonly stated?: number | undefined;
}

/** The parts of a base confidence: `value = stated`, or `initial + correction`. */
export interface BaseConfidenceParts {
  readonly stated: number | undefined;
  readonly initial: number;
  readonly correction: number;
  /** Evidence items counted. */
  readonly evidence: number;
}

/**
 * `f(type, evidence)`: the stated confidence when there is one, else 0.3 (0.4 with evidence) + 0.2
 * for a correction.
 * @throws CredenceError `INVALID_INPUT` for a stated confidence outside [0, 1].
 */
export function baseConfidence(input: BaseConfidenceInput): Explained<BaseConfidenceParts> {
  const evidence = (input.evidence ?? []).filter((e) => typeof e === 'string' && e.trim() !== '').length;
  const initial = evidence > 0 ? BASE_CONFIDENCE_DEFAULTS.initialWithEvidence : BASE_CONFIDENCE_DEFAULTS.initial;
  const correction = input.type === 'correction' ? BASE_CONFIDENCE_DEFAULTS.correction : 0;
  if (input.stated !== undefined) {
    requireUnit('stated confidence', input.stated);
    return { value: input.stated, parts: { stated: input.stated, initial, correction, evidence } };
  }
  return { value: roundTo12(initial + correction), parts: { stated: undefined, initial, correction, evidence } };
}
