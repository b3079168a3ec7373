/**
 * @module core/graph/edge-confidence
 * Confidence of a tool-graph edge, the 0.3 threshold and next-tool ranking: seed 000, SPEC §3.
 *     confidence = typeWeight × sourceModifier × decay
 * typeWeight: dependency 1.0, contains 0.8, alternative 0.6, sequence 0.5; sourceModifier: observed 1.0,
 * inferred 0.7, template 0.5; decay from `lastSeen` (core/graph/edge-decay), 1 for an edge never seen.
 * Only edges with confidence ≥ 0.3 (0.30 included) take part in DAGs and next-tool suggestions, which are
 * ranked by confidence, weak ones (< 0.5) last.
 */

import { CredenceError } from '../errors.js';
import { decayFactor, idleDays as idleDaysBetween, resolveDecayOptions } from './edge-decay.js';
import type { EdgeSource, EdgeType, Explained } from '../types.js';
import { requireNumber } from '../validate.js';

/** How much the way an edge was learned is trusted (seed 000, "Source Modifiers"). */
export const SOURCE_MODIFIERS: Readonly<Record<EdgeSource, number>> = Object.freeze({
  observed: 1.0,
  inferred: 0.7,
  template: 0.5,
});

/** How much each kind of edge is trusted (seed 000, "Edge Type Weights"). */
export const TYPE_WEIGHTS: Readonly<Record<EdgeType, number>> = Object.freeze({
  dependency: 1.0,
  contains: 0.8,
  alternative: 0.6,
  sequence: 0.5,
});

export const EDGE_DEFAULTS = Object.freeze({
  /** Minimum confidence for an edge to be used (inclusive). */
  threshold: 0.3,
  /** Half-life of decay, in days (SPEC §3 Decision). */
  halfLifeDays: 60,
  /** Suggestions below this confidence are weak and ranked last. */
  weakSuggestion: 0.5,
});

/**
 * How the engine reads an edge's confidence on every surface (edges, next, search, dag, the
 * dashboard): idle time in whole days, so the confidence changes once a day rather than every
 * millisecond, and a ranking read twice on the same store a second (or a few hours) apart is the
 * same ranking (issue 17). The formula itself ({@link edgeConfidence}) counts idle time exactly.
 */
export const EDGE_READ_OPTIONS: Readonly<EdgeConfidenceOptions> = Object.freeze({ idleStepDays: 1 });

/** Tolerance for float noise at the threshold, so that 0.6 × 0.5 counts as 0.30. */
const THRESHOLD_EPSILON = 1e-9;

export interface EdgeConfidenceInput {
  readonly type: EdgeType;
  readonly source: EdgeSource;
  /** Epoch ms of the call that last confirmed the edge; null/undefined when never seen (no decay). */
  readonly lastSeen?: number | null;
  /** Epoch ms to read the confidence at; undefined means no decay is applied. */
  readonly now?: number;
}

export interface EdgeConfidenceOptions {
  /**
   * Half-life of decay, in days; must be > 0 (`Infinity` turns decay off).
   * @default 60
   */
  readonly halfLifeDays?: number;
  /**
   * Count idle time in whole steps of this many days (rounded down) before it decays the edge, so
   * that a confidence read at two instants within one step is the same number: a ranking built on it
   * does not move with the time of day (issue 17). 0 counts idle time exactly.
   * @default 0
   */
  readonly idleStepDays?: number;
}

export interface EdgeConfidenceParts {
  readonly typeWeight: number;
  readonly sourceModifier: number;
  readonly decay: number;
  readonly idleDays: number;
}

/**
 * Confidence of one edge with the parts that made it. Always within [0, 1].
 * @throws CredenceError INVALID_INPUT for an unknown type or source, or a non-finite time.
 */
export function edgeConfidence(
  input: EdgeConfidenceInput,
  options: EdgeConfidenceOptions = {},
): Explained<EdgeConfidenceParts> {
  const resolved = resolveDecayOptions({ halfLifeDays: options.halfLifeDays ?? EDGE_DEFAULTS.halfLifeDays });
  if (!Object.hasOwn(TYPE_WEIGHTS, input.type)) {
    throw new CredenceError(
      'INVALID_INPUT',
      `edge type must be one of ${Object.keys(TYPE_WEIGHTS).join(', ')}, got ${JSON.stringify(input.type)}`,
      { details: { type: input.type } },
    );
  }
  if (!Object.hasOwn(SOURCE_MODIFIERS, input.source)) {
    throw new CredenceError(
      'INVALID_INPUT',
      `edge source must be one of ${Object.keys(SOURCE_MODIFIERS).join(', ')}, got ${JSON.stringify(input.source)}`,
      { details: { source: input.source } },
    );
  }
  const typeWeight = TYPE_WEIGHTS[input.type];
  const sourceModifier = SOURCE_MODIFIERS[input.source];

  let idle = 0;
  let decay = 1;
  if (input.lastSeen !== null && input.lastSeen !== undefined && input.now !== undefined) {
    idle = idleDaysBetween(input.lastSeen, input.now);
    const step = options.idleStepDays ?? 0;
    if (!(step >= 0 && Number.isFinite(step))) {
      throw new CredenceError(
        'INVALID_INPUT',
        `idleStepDays must be a finite number of days >= 0, got ${String(step)}`,
        { details: { idleStepDays: step } },
      );
    }
    if (step > 0) idle = Math.floor(idle / step) * step;
    decay = decayFactor(idle, resolved);
  }

  return { value: typeWeight * sourceModifier * decay, parts: { typeWeight, sourceModifier, decay, idleDays: idle } };
}

/**
 * Whether an edge is confident enough to be used: `confidence ≥ threshold`, inclusive, with a 1e-9
 * tolerance for float noise.
 * @param threshold @default 0.3
 * @throws CredenceError INVALID_INPUT when either number is NaN.
 */
export function passesThreshold(confidence: number, threshold: number = EDGE_DEFAULTS.threshold): boolean {
  requireNumber('confidence', confidence);
  requireNumber('threshold', threshold);
  return confidence >= threshold - THRESHOLD_EPSILON;
}

export interface RankOptions {
  /**
   * Items below this confidence are dropped (inclusive threshold, see {@link passesThreshold}).
   * @default 0.3
   */
  readonly threshold?: number;
  /**
   * Items below this confidence are weak and placed after all the others.
   * @default 0.5
   */
  readonly weakSuggestion?: number;
}

/**
 * Next-tool suggestions in the order they are shown: items below the threshold dropped, strong ones
 * before weak ones (< `weakSuggestion`), each group by confidence descending, ties by tool id (code
 * unit order, independent of locale). The order does not depend on the input order (items equal in
 * both tool and confidence keep their relative order). Returns a new array; `items` is not touched.
 * @throws CredenceError INVALID_INPUT when a confidence is NaN.
 */
export function rankSuggestions<T extends { confidence: number; tool: string }>(
  items: readonly T[],
  options: RankOptions = {},
): T[] {
  const threshold = options.threshold ?? EDGE_DEFAULTS.threshold;
  const weakSuggestion = options.weakSuggestion ?? EDGE_DEFAULTS.weakSuggestion;
  requireNumber('threshold', threshold);
  requireNumber('weakSuggestion', weakSuggestion);

  const isWeak = (item: T): boolean => item.confidence < weakSuggestion;
  const kept = items.filter((item) => passesThreshold(item.confidence, threshold));
  return kept.sort((a, b) => {
    const weakA = isWeak(a);
    if (weakA !== isWeak(b)) return weakA ? 1 : -1;
    if (a.confidence !== b.confidence) return b.confidence - a.confidence;
    return a.tool < b.tool ? -1 : a.tool > b.tool ? 1 : 0;
  });
}
