/**
 * @module core/learning/feedback
 * Feedback deltas on a learned instinct's confidence: seed 004 ("Facteurs influençant le score"), SPEC §6.
 *   confidence = clamp(base + Σ delta(kind) over distinct event ids, 0, 1)
 *   delta: explicit +0.3, validation +0.2, correction in its favour +0.2, contradiction −0.3
 * Each event id counts once (a repeated id is ignored, whatever its kind, and listed); the clamp comes
 * once at the end, so event order does not matter. The sum is rounded to 12 decimals.
 */

import { CredenceError } from '../errors.js';
import { FEEDBACK_KINDS } from '../types.js';
import type { Explained, FeedbackKind } from '../types.js';
import { clampUnit, mergeNumberOptions, requireInRange, requireUnit, roundTo12 } from '../validate.js';

/** Seed 004 / SPEC §6 confidence deltas per feedback kind. */
export const FEEDBACK_DELTAS = Object.freeze({
  explicit: 0.3,
  validation: 0.2,
  correction: 0.2,
  contradiction: -0.3,
});

/** Deltas per feedback kind, each a finite number in [−1, 1]. */
export interface FeedbackOptions {
  /** Explicit user feedback in favour. @default 0.3 */
  readonly explicit?: number;
  /** The user validated it. @default 0.2 */
  readonly validation?: number;
  /** A user correction in its favour. @default 0.2 */
  readonly correction?: number;
  /** A contradiction was detected. @default -0.3 */
  readonly contradiction?: number;
}

/** One feedback event recorded against a learned thing. */
export interface FeedbackEvent {
  /** Unique event id: the same id is applied once. */
  readonly id: string;
  readonly kind: FeedbackKind;
}

/** A feedback event that was applied, with the delta it contributed. */
export interface AppliedFeedback {
  readonly id: string;
  readonly kind: FeedbackKind;
  readonly delta: number;
}

/** The parts of a feedback-adjusted confidence: `value = clamp(base + Σ applied.delta)`. */
export interface FeedbackParts {
  readonly base: number;
  /** Events applied, in input order, first occurrence of each id. */
  readonly applied: AppliedFeedback[];
  /** Ids that occurred more than once, each listed once, in the order their repeat was met. */
  readonly ignoredDuplicates: string[];
}

const KIND_SET: ReadonlySet<string> = new Set<string>(FEEDBACK_KINDS);

function resolveDeltas(options: FeedbackOptions | undefined): Readonly<Record<FeedbackKind, number>> {
  return mergeNumberOptions(FEEDBACK_DELTAS, options, (kind, value) =>
    requireInRange(`feedback delta ${kind}`, value, -1, 1),
  );
}

/**
 * Apply feedback events to a base confidence, each event id once, clamping to [0, 1] at the end.
 * @throws CredenceError `INVALID_INPUT` for a base outside [0, 1], an event without a non-empty
 * string id, an unknown kind, or a delta option outside [−1, 1].
 */
export function applyFeedback(
  base: number,
  events: readonly FeedbackEvent[],
  options?: FeedbackOptions,
): Explained<FeedbackParts> {
  requireUnit('base confidence', base);
  const deltas = resolveDeltas(options);
  const seen = new Set<string>();
  const duplicates = new Set<string>();
  const applied: AppliedFeedback[] = [];
  let sum = base;

  events.forEach((event, index) => {
    if (typeof event.id !== 'string' || event.id.length === 0) {
      throw new CredenceError(
        'INVALID_INPUT',
        `feedback event at index ${index} needs a non-empty string id, got ${String(event.id)}`,
      );
    }
    if (!KIND_SET.has(event.kind)) {
      throw new CredenceError(
        'INVALID_INPUT',
        `feedback event ${JSON.stringify(event.id)} has unknown kind ${JSON.stringify(event.kind)}; ` +
          `valid kinds are ${FEEDBACK_KINDS.join(', ')}`,
      );
    }
    if (seen.has(event.id)) {
      duplicates.add(event.id);
      return;
    }
    seen.add(event.id);
    const delta = deltas[event.kind];
    applied.push({ id: event.id, kind: event.kind, delta });
    sum += delta;
  });

  const value = clampUnit(roundTo12(sum));
  return { value, parts: { base, applied, ignoredDuplicates: [...duplicates] } };
}
