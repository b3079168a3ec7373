/**
 * @module core/skill-ageing
 * Confidence of an established skill over time: seed 004 (Continuous Learning System, its
 * "Facteurs influençant le score" table: −0.02 per week of age, +0.1 per repetition), SPEC §6
 * decision (a skill does not follow the exponential recency of instincts).
 *
 * Formula:
 *   idleWeeks  = floor(max(0, idleDays) / 7)             (whole weeks only)
 *   permanent  = base ≥ 0.9
 *   ageingLoss = permanent ? 0 : 0.02 · idleWeeks
 *   gain       = 0.1 · repetitions                      (new repetitions since `base` was set)
 *   confidence = clamp(base − ageingLoss + gain, 0, 1)
 *
 * A permanent rule never loses confidence to ageing but can still gain. Rounded to 12 decimals.
 */

import { CredenceError } from './errors.js';
import type { Explained } from './types.js';

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

const round = (value: number): number => Math.round(value * 1e12) / 1e12;

function resolveOptions(options: SkillOptions | undefined): ResolvedSkillOptions {
  const resolved: ResolvedSkillOptions = { ...SKILL_DEFAULTS };
  if (options === undefined) return resolved;
  for (const key of Object.keys(SKILL_DEFAULTS) as (keyof typeof SKILL_DEFAULTS)[]) {
    const value = options[key];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1) {
      throw new CredenceError('INVALID_INPUT', `skill option ${key} must be a number in [0, 1], got ${String(value)}`);
    }
    resolved[key] = value;
  }
  return resolved;
}

/**
 * A skill's confidence after `idleDays` without use and `repetitions` new repetitions.
 * @throws CredenceError `INVALID_INPUT` for a base outside [0, 1], a non-finite `idleDays`, or
 * `repetitions` that is not a non-negative integer.
 */
export function skillConfidence(input: SkillInput, options?: SkillOptions): Explained<SkillParts> {
  const { idleWeeklyLoss, repetitionGain, permanentAt } = resolveOptions(options);
  const { base, idleDays, repetitions } = input;
  if (typeof base !== 'number' || !Number.isFinite(base) || base < 0 || base > 1) {
    throw new CredenceError('INVALID_INPUT', `base confidence must be a number in [0, 1], got ${String(base)}`);
  }
  if (typeof idleDays !== 'number' || !Number.isFinite(idleDays)) {
    throw new CredenceError('INVALID_INPUT', `idleDays must be a finite number of days, got ${String(idleDays)}`);
  }
  if (typeof repetitions !== 'number' || !Number.isInteger(repetitions) || repetitions < 0) {
    throw new CredenceError('INVALID_INPUT', `repetitions must be a non-negative integer, got ${String(repetitions)}`);
  }

  const idleWeeks = Math.floor(Math.max(0, idleDays) / 7);
  const permanent = base >= permanentAt;
  const ageingLoss = permanent ? 0 : round(idleWeeklyLoss * idleWeeks);
  const gain = round(repetitionGain * repetitions);
  const value = Math.min(1, Math.max(0, round(base - ageingLoss + gain)));
  return { value, parts: { base, idleWeeks, ageingLoss, repetitionGain: gain, permanent } };
}
