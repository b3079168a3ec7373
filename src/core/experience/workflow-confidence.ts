/**
 * @module core/experience/workflow-confidence
 * Confidence of a learned workflow (issue 19), explained:
 *     estimate = (successes + 1) / (runs + 2)      (Laplace: one good run is not certainty)
 *     confidence = estimate × decay
 * with `decay` the tool graph's own (core/graph/edge-decay, the edge half-life of core/graph/edge-confidence),
 * idle time counted from the last use in whole days as edges are read (EDGE_READ_OPTIONS). Pure.
 */
import { EDGE_DEFAULTS, EDGE_READ_OPTIONS } from '../graph/edge-confidence.js';
import { decayFactor, idleDays } from '../graph/edge-decay.js';
import type { Explained } from '../types.js';
import { requireCount, requireNonNegative } from '../validate.js';

export const WORKFLOW_CONFIDENCE_DEFAULTS = Object.freeze({
  /** Pseudo-successes and pseudo-failures added to the counts (Laplace's rule of succession). */
  prior: 1,
});

export interface WorkflowConfidenceInput {
  readonly runs: number;
  readonly successes: number;
  /** Epoch ms of the last run. */
  readonly lastSeen: number;
  /** Epoch ms to read the confidence at. */
  readonly now: number;
}

export interface WorkflowConfidenceOptions {
  /** Half-life of decay in days (> 0, `Infinity` turns decay off). @default EDGE_DEFAULTS.halfLifeDays */
  readonly halfLifeDays?: number;
  /** Idle time counted in whole steps of this many days. @default EDGE_READ_OPTIONS.idleStepDays */
  readonly idleStepDays?: number;
}

export interface WorkflowConfidenceParts {
  /** successes / runs. */
  readonly successRate: number;
  /** (successes + prior) / (runs + 2 · prior). */
  readonly estimate: number;
  readonly decay: number;
  readonly idleDays: number;
}

/**
 * A learned workflow's confidence now, with its parts; always within [0, 1].
 * @throws CredenceError INVALID_INPUT for counts that are not whole numbers ≥ 0, successes above runs, or a
 * non-finite time.
 */
export function workflowConfidence(
  input: WorkflowConfidenceInput,
  options: WorkflowConfidenceOptions = {},
): Explained<WorkflowConfidenceParts> {
  requireCount('runs', input.runs);
  requireCount('successes', input.successes);
  requireCount('runs − successes', input.runs - input.successes);
  const step = options.idleStepDays ?? EDGE_READ_OPTIONS.idleStepDays ?? 0;
  requireNonNegative('idleStepDays', step);
  const exact = idleDays(input.lastSeen, input.now);
  const idle = step > 0 ? Math.floor(exact / step) * step : exact;
  const decay = decayFactor(idle, { halfLifeDays: options.halfLifeDays ?? EDGE_DEFAULTS.halfLifeDays });
  const prior = WORKFLOW_CONFIDENCE_DEFAULTS.prior;
  const estimate = (input.successes + prior) / (input.runs + 2 * prior);
  const successRate = input.runs === 0 ? 0 : input.successes / input.runs;
  return { value: estimate * decay, parts: { successRate, estimate, decay, idleDays: idle } };
}

/**
 * How far a workflow's own record can be trusted to run it unattended (walk 14, item 3): the lower end of the Wilson
 * score interval of its success rate, one-sided at 95 % (z 1.645), times its decay. Unlike the estimate, a short
 * record cannot reach a high bound: all successes give runs / (runs + z²), so 0.85 needs 16 successful runs in a
 * row (11 give 0.80); one failure among 20 gives 0.80.
 */
export const WORKFLOW_RECORD_DEFAULTS = Object.freeze({
  /** The standard normal quantile of the bound: 1.645 is one-sided 95 %. */
  z: 1.645,
});

export interface WorkflowRecordParts {
  readonly runs: number;
  readonly successes: number;
  /** The Wilson lower bound of successes / runs (0 without runs). */
  readonly lowerBound: number;
  readonly decay: number;
  readonly idleDays: number;
}

/**
 * A workflow's record as a bound: `value = wilsonLower(successes, runs, z) × decay`, with its parts.
 * @throws CredenceError INVALID_INPUT as {@link workflowConfidence}.
 */
export function workflowRecordBound(
  input: WorkflowConfidenceInput,
  options: WorkflowConfidenceOptions & { readonly z?: number } = {},
): Explained<WorkflowRecordParts> {
  const { parts } = workflowConfidence(input, options);
  const z = options.z ?? WORKFLOW_RECORD_DEFAULTS.z;
  requireNonNegative('z', z);
  const n = input.runs;
  let lowerBound = 0;
  if (n > 0) {
    const p = input.successes / n;
    const z2 = z * z;
    const centre = p + z2 / (2 * n);
    const spread = z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
    lowerBound = Math.max(0, (centre - spread) / (1 + z2 / n));
  }
  return {
    value: lowerBound * parts.decay,
    parts: { runs: n, successes: input.successes, lowerBound, decay: parts.decay, idleDays: parts.idleDays },
  };
}
