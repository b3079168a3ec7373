/**
 * @module core/search/local-alpha
 * Per-tool α for hybrid tool search (core/search/hybrid-score): seed 000 (Local Alpha ADR-048), SPEC §4.
 * - cold start, fewer than 5 observations: `α = max(0.85, 1 − 0.04 · observations)` (2 → 0.92, seed);
 * - heat diffusion, 5 or more: `α = clamp(1 − 0.5 · h, 0.5, 1.0)` with `h` the tool's heat normalised
 *   to [0, 1]: well-connected tools trust the graph more, isolated ones keep α near 1.
 * These constants are SPEC §4's starting points; the options replace them.
 */

import { clampUnit, requireCount, requireInRange, requireNumber, requireUnit } from '../validate.js';

export const ALPHA_DEFAULTS = Object.freeze({
  /** Lowest α any rule may return. */
  min: 0.5,
  /** Highest α any rule may return. */
  max: 1.0,
  /** A tool with fewer observations than this is in cold start. */
  coldStartObservations: 5,
  /** Lowest α of the cold-start rule. */
  coldStartFloor: 0.85,
  /** α lost per observation in cold start. */
  coldStartStep: 0.04,
  /** α lost per unit of normalised heat. */
  heatWeight: 0.5,
});

export interface AlphaOptions {
  /** Lowest α any rule may return, in [0, 1]. @default 0.5 */
  readonly min?: number;
  /** Highest α any rule may return, in [min, 1]. @default 1.0 */
  readonly max?: number;
  /** A tool with fewer observations than this is in cold start; an integer ≥ 0. @default 5 */
  readonly coldStartObservations?: number;
  /** Lowest α of the cold-start rule, in [0, 1]. @default 0.85 */
  readonly coldStartFloor?: number;
  /** α lost per observation in cold start, ≥ 0. @default 0.04 */
  readonly coldStartStep?: number;
  /** α lost per unit of normalised heat, ≥ 0. @default 0.5 */
  readonly heatWeight?: number;
}

type ResolvedAlphaOptions = { -readonly [K in keyof typeof ALPHA_DEFAULTS]: number };

export type AlphaRule = 'cold-start' | 'heat-diffusion';

export interface LocalAlpha {
  readonly alpha: number;
  /** Which rule chose α. */
  readonly rule: AlphaRule;
  readonly parts: {
    /** Recorded calls of the tool. */
    readonly observations: number;
    /** Normalised heat used, clamped to [0, 1]; null when the cold-start rule chose α (heat unused). */
    readonly heat: number | null;
    /** Observations below which the cold-start rule applies. */
    readonly coldStartObservations: number;
  };
}

/**
 * Cold-start α: `max(coldStartFloor, 1 − coldStartStep · observations)`, then within [min, max].
 * @throws CredenceError INVALID_INPUT unless `observations` is an integer ≥ 0.
 */
export function coldStartAlpha(observations: number, options: AlphaOptions = {}): number {
  const o = resolveAlphaOptions(options);
  requireCount('observations', observations);
  return clampTo(Math.max(o.coldStartFloor, 1 - o.coldStartStep * observations), o);
}

/**
 * Heat-diffusion α: `clamp(1 − heatWeight · h, min, max)`, `h` clamped to [0, 1] first.
 * @throws CredenceError INVALID_INPUT when `heat` is NaN.
 */
export function heatAlpha(heat: number, options: AlphaOptions = {}): number {
  const o = resolveAlphaOptions(options);
  requireNumber('heat', heat);
  return clampTo(1 - o.heatWeight * clampUnit(heat), o);
}

/**
 * α for one tool and the rule that chose it: cold start under `coldStartObservations`
 * observations, heat diffusion from there on (`heat` undefined counts as 0: an isolated tool).
 * @throws CredenceError INVALID_INPUT for negative or fractional observations, or a NaN heat.
 */
export function localAlpha(input: { observations: number; heat?: number }, options: AlphaOptions = {}): LocalAlpha {
  const o = resolveAlphaOptions(options);
  requireCount('observations', input.observations);
  if (input.observations < o.coldStartObservations) {
    return {
      alpha: coldStartAlpha(input.observations, o),
      rule: 'cold-start',
      parts: { observations: input.observations, heat: null, coldStartObservations: o.coldStartObservations },
    };
  }
  const heat = input.heat ?? 0;
  requireNumber('heat', heat);
  return {
    alpha: heatAlpha(heat, o),
    rule: 'heat-diffusion',
    parts: { observations: input.observations, heat: clampUnit(heat), coldStartObservations: o.coldStartObservations },
  };
}

/**
 * `alpha` brought within [min, max] (defaults [0.5, 1.0]).
 * @throws CredenceError INVALID_INPUT when `alpha` is NaN.
 */
export function clampAlpha(alpha: number, options: AlphaOptions = {}): number {
  const o = resolveAlphaOptions(options);
  requireNumber('alpha', alpha);
  return clampTo(alpha, o);
}

function resolveAlphaOptions(options: AlphaOptions): ResolvedAlphaOptions {
  const o: ResolvedAlphaOptions = {
    min: options.min ?? ALPHA_DEFAULTS.min,
    max: options.max ?? ALPHA_DEFAULTS.max,
    coldStartObservations: options.coldStartObservations ?? ALPHA_DEFAULTS.coldStartObservations,
    coldStartFloor: options.coldStartFloor ?? ALPHA_DEFAULTS.coldStartFloor,
    coldStartStep: options.coldStartStep ?? ALPHA_DEFAULTS.coldStartStep,
    heatWeight: options.heatWeight ?? ALPHA_DEFAULTS.heatWeight,
  };
  requireUnit('min', o.min);
  requireInRange('max', o.max, o.min, 1);
  requireUnit('coldStartFloor', o.coldStartFloor);
  requireInRange('coldStartStep', o.coldStartStep, 0, Infinity);
  requireInRange('heatWeight', o.heatWeight, 0, Infinity);
  requireCount('coldStartObservations', o.coldStartObservations);
  return o;
}

function clampTo(value: number, o: ResolvedAlphaOptions): number {
  return Math.min(o.max, Math.max(o.min, value));
}
