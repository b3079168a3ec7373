/**
 * @module core/learning/bands
 * Confidence bands and learned kinds of seed 004, SPEC §6. Bands are half-open, the last closed:
 * [0, 0.3) noise, [0.3, 0.5) tentative, [0.5, 0.7) probable, [0.7, 0.9) certain, [0.9, 1] established.
 * Kinds: observation → instinct (≥ 0.5) → skill (≥ 0.7) → permanent rule (≥ 0.9). A confidence is
 * rounded to 12 decimals before it is placed, so float noise (0.7 − 0.4) does not drop it a band.
 */

import type { ConfidenceBand } from '../types.js';
import { requireUnit, roundTo12 } from '../validate.js';

/** One band of the seed 004 confidence scale and what to do with a pattern in it. */
export interface BandInfo {
  readonly band: ConfidenceBand;
  /** The seed's recommended action, in a word or two. */
  readonly action: string;
  /** One line: what the action means for an agent. */
  readonly description: string;
  /** Inclusive lower bound. */
  readonly min: number;
  /** Upper bound: exclusive, except 1 for the last band, which is inclusive. */
  readonly max: number;
}

/** The seed 004 scale, lowest band first. */
export const CONFIDENCE_BANDS: readonly BandInfo[] = Object.freeze(
  (
    [
      { band: 'noise', action: 'ignore', description: 'Too weak to act on; kept only as evidence.', min: 0, max: 0.3 },
      {
        band: 'tentative',
        action: 'suggest',
        description: 'Mention it as a suggestion and ask the user to confirm.',
        min: 0.3,
        max: 0.5,
      },
      {
        band: 'probable',
        action: 'propose',
        description: 'Propose it and apply it unless the user objects.',
        min: 0.5,
        max: 0.7,
      },
      { band: 'certain', action: 'apply', description: 'Apply it automatically.', min: 0.7, max: 0.9 },
      {
        band: 'established',
        action: 'permanent rule',
        description: 'A permanent rule: loaded at every session start, never pruned, never decays.',
        min: 0.9,
        max: 1,
      },
    ] as const satisfies readonly BandInfo[]
  ).map((band) => Object.freeze({ ...band })),
);

/** Thresholds of the learned kinds (seed 004 life cycle, SPEC §6). */
export const LEARNED_KIND_THRESHOLDS = Object.freeze({ instinct: 0.5, skill: 0.7, permanent: 0.9 });

/** What a learned pattern is at a given confidence. */
export type LearnedKind = 'noise' | 'instinct' | 'skill' | 'permanent-rule';

function placeable(name: string, confidence: number): number {
  requireUnit(name, confidence);
  return roundTo12(confidence);
}

/**
 * The band a confidence falls in, with its action and bounds (seed 004 scale).
 * Exactly 0.3 is tentative, 0.7 certain, 0.9 and 1 established.
 * @throws CredenceError `INVALID_INPUT` for NaN or a value outside [0, 1].
 */
export function confidenceBand(confidence: number): BandInfo {
  const c = placeable('confidence', confidence);
  for (const info of CONFIDENCE_BANDS) {
    if (c < info.max) return info;
  }
  // c === 1: the last band is closed at the top.
  const last = CONFIDENCE_BANDS[CONFIDENCE_BANDS.length - 1];
  if (last === undefined) throw new Error('CONFIDENCE_BANDS is empty');
  return last;
}

/**
 * What a learned pattern is at this confidence: below 0.5 noise (no instinct yet), [0.5, 0.7)
 * instinct, [0.7, 0.9) skill, 0.9 and above permanent rule.
 * @throws CredenceError `INVALID_INPUT` for NaN or a value outside [0, 1].
 */
export function learnedKind(confidence: number): LearnedKind {
  const c = placeable('confidence', confidence);
  if (c >= LEARNED_KIND_THRESHOLDS.permanent) return 'permanent-rule';
  if (c >= LEARNED_KIND_THRESHOLDS.skill) return 'skill';
  if (c >= LEARNED_KIND_THRESHOLDS.instinct) return 'instinct';
  return 'noise';
}
