/**
 * @module core/dag/dag-confidence
 * Confidence of a suggested DAG with weights adapted to the graph's density: seed 001 (ADR-026), SPEC §5.
 *     confidence = hybrid · w_h + pageRank · w_pr + pathStrength · w_p       (clamped to [0, 1])
 * Tiers (w_h, w_pr, w_p): cold-start, density < 0.01: 0.85, 0.05, 0.10; growing, < 0.10: 0.65, 0.20,
 * 0.15; mature: 0.55, 0.30, 0.15. hybrid = the tools' mean hybrid score, pageRank = their mean raw
 * PageRank, pathStrength = the mean confidence of the DAG's dependency edges (0.5 when none). A
 * suggestion below 0.5 is still returned, with a warning (the seed's {@link COLD_START_WARNING} in that tier, else
 * the real tier named): never nothing when there are valid candidates.
 */

import { CredenceError } from '../errors.js';
import { clampUnit, requireNonNegative, requireUnit } from '../validate.js';

export type DensityTierName = 'cold-start' | 'growing' | 'mature';

export interface DagWeights {
  readonly hybrid: number;
  readonly pageRank: number;
  readonly path: number;
}

export interface DensityTier extends DagWeights {
  readonly tier: DensityTierName;
  /** The tier applies to densities strictly below this bound (and not below the previous tier's). */
  readonly below: number;
}

/** Density tiers in increasing order of density (seed 001, `getAdaptiveWeights()`). */
export const DENSITY_TIERS: readonly DensityTier[] = Object.freeze([
  Object.freeze({ tier: 'cold-start', below: 0.01, hybrid: 0.85, pageRank: 0.05, path: 0.1 } as const),
  Object.freeze({ tier: 'growing', below: 0.1, hybrid: 0.65, pageRank: 0.2, path: 0.15 } as const),
  Object.freeze({ tier: 'mature', below: Infinity, hybrid: 0.55, pageRank: 0.3, path: 0.15 } as const),
]);

export const DAG_DEFAULTS = Object.freeze({
  /** A DAG confidence below this comes back with a warning ({@link lowConfidenceWarning}). */
  lowConfidence: 0.5,
});

/** The warning of a low-confidence suggestion, word for word from seed 001. */
export const COLD_START_WARNING =
  'Low confidence suggestion - graph is in cold start mode. Confidence may improve with usage.';

/** `value` with 3 decimals, or as many more as it takes to read below `bound` (0.49996 is 0.49996, not 0.500). */
function belowAs(value: number, bound: number): string {
  for (let digits = 3; digits <= 15; digits += 1)
    if (Number(value.toFixed(digits)) < bound) return value.toFixed(digits);
  return String(value);
}

/**
 * The warning of a suggestion below `lowConfidence`: the seed's words in the cold-start tier; in another, the
 * same start (clients may match it) with the real reason and tier, not a cold start the graph is not in.
 */
export function lowConfidenceWarning(tier: DensityTierName | 'custom', value: number, lowConfidence: number): string {
  if (tier === 'cold-start') return COLD_START_WARNING;
  const graph = tier === 'custom' ? 'weights are custom' : `graph is ${tier}`;
  return (
    `Low confidence suggestion - seed confidence ${belowAs(value, lowConfidence)} is below ${lowConfidence}; ` +
    `${graph}, not in cold start. Confidence may improve with usage.`
  );
}

/** Path strength used when the DAG has no dependency edge (seed 001). */
const NO_PATH_STRENGTH = 0.5;

export interface AdaptiveWeights extends DagWeights {
  readonly tier: DensityTierName;
}

/**
 * The tier and weights for a graph density (see {@link DENSITY_TIERS}).
 * @throws CredenceError INVALID_INPUT unless `density` is in [0, 1].
 */
export function adaptiveWeights(density: number): AdaptiveWeights {
  requireUnit('density', density);
  const found = DENSITY_TIERS.find((t) => density < t.below) ?? DENSITY_TIERS[DENSITY_TIERS.length - 1];
  if (found === undefined) throw new Error('DENSITY_TIERS is empty');
  return { tier: found.tier, hybrid: found.hybrid, pageRank: found.pageRank, path: found.path };
}

/**
 * Mean confidence of the DAG's dependency edges; 0.5 when there are none.
 * @throws CredenceError INVALID_INPUT when a confidence is outside [0, 1].
 */
export function pathStrength(dependencyEdgeConfidences: readonly number[]): number {
  if (dependencyEdgeConfidences.length === 0) return NO_PATH_STRENGTH;
  let sum = 0;
  for (const c of dependencyEdgeConfidences) {
    requireUnit('dependency edge confidence', c);
    sum += c;
  }
  return sum / dependencyEdgeConfidences.length;
}

export interface DagConfidenceInput {
  /** Mean hybrid score of the DAG's tools, in [0, 1]. */
  readonly hybrid: number;
  /** Mean raw PageRank of the DAG's tools, in [0, 1]. */
  readonly pageRank: number;
  /** See {@link pathStrength}, in [0, 1]. */
  readonly pathStrength: number;
  /** Density of the scope's learned graph; picks the weights unless `weights` is given. */
  readonly density?: number;
  /** Explicit weights (tuning); when given the tier is reported as `custom`. */
  readonly weights?: DagWeights;
}

export interface DagConfidenceOptions {
  /** Confidence below which the result carries a warning ({@link lowConfidenceWarning}). @default 0.5 */
  readonly lowConfidence?: number;
}

export interface DagConfidence {
  readonly value: number;
  /** The density tier whose weights were used, or `custom` for explicit weights. */
  readonly tier: DensityTierName | 'custom';
  readonly weights: DagWeights;
  readonly parts: {
    readonly hybrid: number;
    readonly pageRank: number;
    readonly pathStrength: number;
    readonly hybridPart: number;
    readonly pageRankPart: number;
    readonly pathPart: number;
  };
  /** Present iff `value < lowConfidence`; the suggestion is still usable. */
  readonly warning?: string;
}

/**
 * Confidence of a suggested DAG with its parts, the weights used and, below `lowConfidence`, the
 * low-confidence warning (lowConfidenceWarning). Weights come from `input.weights` if given, else from
 * `input.density`.
 * @throws CredenceError INVALID_INPUT when a score is outside [0, 1], a weight is negative or NaN, or
 * neither `density` nor `weights` is given.
 */
export function dagConfidence(input: DagConfidenceInput, options: DagConfidenceOptions = {}): DagConfidence {
  const lowConfidence = options.lowConfidence ?? DAG_DEFAULTS.lowConfidence;
  requireUnit('lowConfidence', lowConfidence);
  requireUnit('hybrid', input.hybrid);
  requireUnit('pageRank', input.pageRank);
  requireUnit('pathStrength', input.pathStrength);

  let tier: DensityTierName | 'custom';
  let weights: DagWeights;
  if (input.weights !== undefined) {
    for (const key of ['hybrid', 'pageRank', 'path'] as const) requireNonNegative(`weight ${key}`, input.weights[key]);
    tier = 'custom';
    weights = { hybrid: input.weights.hybrid, pageRank: input.weights.pageRank, path: input.weights.path };
  } else if (input.density !== undefined) {
    const adaptive = adaptiveWeights(input.density);
    tier = adaptive.tier;
    weights = { hybrid: adaptive.hybrid, pageRank: adaptive.pageRank, path: adaptive.path };
  } else {
    throw new CredenceError('INVALID_INPUT', 'dagConfidence needs the graph density or explicit weights, got neither');
  }

  const hybridPart = input.hybrid * weights.hybrid;
  const pageRankPart = input.pageRank * weights.pageRank;
  const pathPart = input.pathStrength * weights.path;
  const value = clampUnit(hybridPart + pageRankPart + pathPart);
  const parts = {
    hybrid: input.hybrid,
    pageRank: input.pageRank,
    pathStrength: input.pathStrength,
    hybridPart,
    pageRankPart,
    pathPart,
  };
  return value < lowConfidence
    ? { value, tier, weights, parts, warning: lowConfidenceWarning(tier, value, lowConfidence) }
    : { value, tier, weights, parts };
}
