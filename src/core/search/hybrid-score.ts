/**
 * @module core/search/hybrid-score
 * Hybrid tool-search score: seed 000 ("Cold Start Behavior"), SPEC §4.
 *     graph = 0.7 · relatedness + 0.3 · centrality      (graph = centrality with no context tools)
 *     score = α · semantic + (1 − α) · graph
 * relatedness: the best confidence of an edge or path from a context tool; centrality: PageRank / max;
 * α from core/search/local-alpha. Seed examples: 0.72 × 0.92 + 0.30 × 0.08 = 0.69 and
 * 0.72 × 0.55 + 0.85 × 0.45 = 0.78.
 */

import { CredenceError } from '../errors.js';
import type { Explained } from '../types.js';
import { requireUnit } from '../validate.js';

export const GRAPH_SCORE_DEFAULTS = Object.freeze({
  /** Weight of relatedness to the context tools. */
  relatedness: 0.7,
  /** Weight of the tool's normalised PageRank. */
  centrality: 0.3,
});

export interface GraphScoreOptions {
  /** Weight of relatedness, ≥ 0; the two weights must sum to 1. @default 0.7 */
  readonly relatedness?: number;
  /** Weight of centrality, ≥ 0; the two weights must sum to 1. @default 0.3 */
  readonly centrality?: number;
}

export interface HybridScoreParts {
  readonly semantic: number;
  readonly graph: number;
  readonly alpha: number;
}

/**
 * Graph score in [0, 1] of one tool: `relatedness·w_r + centrality·w_c`, or `centrality` alone when
 * `relatedness` is undefined (no context tools).
 * @throws CredenceError INVALID_INPUT when a score is outside [0, 1] or the weights are not a convex
 * pair (each ≥ 0, summing to 1).
 */
export function graphScore(
  input: { centrality: number; relatedness?: number },
  options: GraphScoreOptions = {},
): number {
  const weights = {
    relatedness: options.relatedness ?? GRAPH_SCORE_DEFAULTS.relatedness,
    centrality: options.centrality ?? GRAPH_SCORE_DEFAULTS.centrality,
  };
  requireUnit('relatedness weight', weights.relatedness);
  requireUnit('centrality weight', weights.centrality);
  if (Math.abs(weights.relatedness + weights.centrality - 1) > 1e-9) {
    throw new CredenceError(
      'INVALID_INPUT',
      `graph score weights must sum to 1, got relatedness ${weights.relatedness} + centrality ${weights.centrality}`,
      { details: weights },
    );
  }
  requireUnit('centrality', input.centrality);
  if (input.relatedness === undefined) return input.centrality;
  requireUnit('relatedness', input.relatedness);
  return weights.relatedness * input.relatedness + weights.centrality * input.centrality;
}

/**
 * `α · semantic + (1 − α) · graph`, with its parts. The value always lies between `semantic` and
 * `graph` (float noise included).
 * @throws CredenceError INVALID_INPUT when semantic, graph or alpha is outside [0, 1].
 */
export function hybridScore(input: { semantic: number; graph: number; alpha: number }): Explained<HybridScoreParts> {
  const { semantic, graph, alpha } = input;
  requireUnit('semantic', semantic);
  requireUnit('graph', graph);
  requireUnit('alpha', alpha);
  const blended = alpha * semantic + (1 - alpha) * graph;
  const value = Math.min(Math.max(semantic, graph), Math.max(Math.min(semantic, graph), blended));
  return { value, parts: { semantic, graph, alpha } };
}
