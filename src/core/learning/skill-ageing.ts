/**
 * @module core/learning/skill-ageing
 * Confidence of an established skill over time: seed 004 ("Facteurs influençant le score"), SPEC §6
 * decision (a skill does not follow the exponential recency of instincts).
 *   idleWeeks = floor(max(0, idleDays) / 7); permanent = base ≥ 0.9
 *   confidence = clamp(base − (permanent ? 0 : 0.02 · idleWeeks) + 0.1 · repetitions, 0, 1)
 * `repetitions` counts new repetitions since `base` was set. A permanent rule never loses confidence to
 * ageing but can still gain. Rounded to 12 decimals.
 */

import type { Explained } from '../types.js';
import { clampUnit, mergeNumberOptions, requireCount, requireFinite, requireUnit, roundTo12 } from '../validate.js';

/** Seed 004 / SPEC §6 skill constants. */
export const SKILL_DEFAULTS = Object.freeze({ idleWeeklyLoss: 0.02, repetitionGain: 0.1, permanentAt: 0.9 });

/** Options of {@link skillConfidence}; every value in [0, 1]. */
export interface SkillOptions {
  /** Confidence lost per whole idle week. @default 0.02 */
  readonly idleWeeklyLoss?: number;
  /** Confidence gained per new repetition. @default 0.1 */
  readonly repetitionGain?: number;
  /** A skill whose base is at least this is a permanent rule and does not age. @default 0.9 */
  readonly permanentAt?: number;
}

/** A skill's stored confidence and what happened since. */
export interface SkillInput {
  /** Confidence when last updated, in [0, 1]. */
  readonly base: number;
  /** Days since the skill was last used or confirmed; a negative value counts as 0. */
  readonly idleDays: number;
  /** New repetitions of the pattern since `base` was set (integer ≥ 0). */
  readonly repetitions: number;
}

/** The parts of a skill confidence: `value = clamp(base − ageingLoss + repetitionGain)`. */
export interface SkillParts {
  readonly base: number;
  readonly idleWeeks: number;
  /** Confidence taken away by ageing (0 for a permanent rule). */
  readonly ageingLoss: number;
  /** Confidence added by repetitions. */
  readonly repetitionGain: number;
  /** Whether the base makes it a permanent rule, exempt from ageing. */
  readonly permanent: boolean;
}

type ResolvedSkillOptions = { -readonly [K in keyof typeof SKILL_DEFAULTS]: number };

function resolveOptions(options: SkillOptions | undefined): ResolvedSkillOptions {
  return mergeNumberOptions(SKILL_DEFAULTS, options, (key, value) => requireUnit(`skill option ${key}`, value));
}

/**
 * A skill's confidence after `idleDays` without use and `repetitions` new repetitions.
 * @throws CredenceError `INVALID_INPUT` for a base outside [0, 1], a non-finite `idleDays`, or
 * `repetitions` that is not a non-negative integer.
 */
export function skillConfidence(input: SkillInput, options?: SkillOptions): Explained<SkillParts> {
  const { idleWeeklyLoss, repetitionGain, permanentAt } = resolveOptions(options);
  const { base, idleDays, repetitions } = input;
  requireUnit('base confidence', base);
  requireFinite('idleDays', idleDays, 'a finite number of days');
  requireCount('repetitions', repetitions);

  const idleWeeks = Math.floor(Math.max(0, idleDays) / 7);
  const permanent = base >= permanentAt;
  const ageingLoss = permanent ? 0 : roundTo12(idleWeeklyLoss * idleWeeks);
  const gain = roundTo12(repetitionGain * repetitions);
  const value = clampUnit(roundTo12(base - ageingLoss + gain));
  return { value, parts: { base, idleWeeks, ageingLoss, repetitionGain: gain, permanent } };
}
