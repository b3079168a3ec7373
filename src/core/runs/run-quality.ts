/**
 * @module core/runs/run-quality
 * How well a recorded run went, in [0, 1] (issue 19): its own confidence when it has one (a workflow
 * run's, seed 002), else the mean outcome confidence of its calls relative to a clean success
 * (OUTCOME_DEFAULTS.success), capped at 1. A run counts as a success at quality ≥ 0.5. Pure.
 */
import type { CallStatus } from '../types.js';
import { OUTCOME_DEFAULTS, outcomeConfidence } from './outcome-confidence.js';

/** A run as its quality reads it. */
export interface QualityRun {
  readonly confidence?: number | undefined;
  readonly calls: readonly { readonly status: CallStatus; readonly retries?: number }[];
}

/** The quality at and above which a run counts as a success. */
export const RUN_SUCCESS_QUALITY = 0.5;

/** Outcome confidences by status and retries: a run's calls repeat few of them, and recording reads many runs. */
const outcomes = new Map<string, number>();

function outcomeOf(status: CallStatus, retries: number): number {
  const key = `${status}:${retries}`;
  let value = outcomes.get(key);
  if (value === undefined) {
    value = outcomeConfidence({ status, retries }).value;
    if (outcomes.size < 1024) outcomes.set(key, value);
  }
  return value;
}

/** One call's outcome confidence, as a run's quality sums them (in call order). */
export const callOutcome = (call: { readonly status: CallStatus; readonly retries?: number }): number =>
  outcomeOf(call.status, call.retries ?? 0);

/** The quality of a run without its own confidence, from the sum of its calls' outcomes (in call order). */
export const qualityOfOutcomes = (sum: number, calls: number): number =>
  calls === 0 ? 0 : Math.min(1, sum / calls / OUTCOME_DEFAULTS.success);

/** The run's quality: its confidence, else its calls' mean outcome confidence / 0.7, at most 1; 0 without calls. */
export function runQuality(run: QualityRun): number {
  if (run.confidence !== undefined) return run.confidence;
  let sum = 0;
  for (const c of run.calls) sum += callOutcome(c);
  return qualityOfOutcomes(sum, run.calls.length);
}

/** Whether a run went well: quality ≥ {@link RUN_SUCCESS_QUALITY}. */
export function runSucceeded(run: QualityRun): boolean {
  return runQuality(run) >= RUN_SUCCESS_QUALITY;
}
