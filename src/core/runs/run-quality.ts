/**
 * @module core/runs/run-quality
 * How well a recorded run went, in [0, 1] (issue 19): 0 when a failure stands, else its own confidence when it has one
 * (a workflow run's, seed 002), else the mean of its calls' worth (a call that did not fail: its outcome confidence
 * relative to a clean success, at most 1; a failed call: nothing), a success at quality ≥ 0.5. One rule for every
 * surface (walk 14, item 2): a run left with a failure standing did not do what it was for and has a failure's
 * quality, 0, as a stopped PocketFlow flow or an `execute_dag` run with a failed task already have
 * ({@link StandingFailures}), whatever confidence it states (walk 16, item 8). Pure.
 */
import type { CallStatus } from '../types.js';
import { followed, isFallback } from '../graph/execution-edges.js';
import { roundTo12 } from '../validate.js';
import { OUTCOME_DEFAULTS, outcomeConfidence } from './outcome-confidence.js';

/** A run as its quality reads it. */
export interface QualityRun {
  readonly confidence?: number | undefined;
  readonly calls: readonly {
    readonly tool: string;
    readonly status: CallStatus;
    readonly retries?: number;
    readonly input?: string;
    readonly dependsOn?: readonly number[];
  }[];
}

/** The quality at and above which a run counts as a success. */
export const RUN_SUCCESS_QUALITY = 0.5;

/**
 * A run's quality with two decimals that agree with its verdict, as `credence runs` and the dashboard's Runs page
 * print it: a failure just under 0.5 (0.496, a float sum's 0.49999999999999994) is cut down to 0.49, where rounding
 * printed "0.50 failure" (walk 16, item 8).
 */
export function qualityText(quality: number, succeeded: boolean): string {
  const text = quality.toFixed(2);
  return succeeded || Number(text) < RUN_SUCCESS_QUALITY ? text : (Math.floor(quality * 100) / 100).toFixed(2);
}

/** Calls' worth by status and retries: a run's calls repeat few of them, and recording reads many runs. */
const outcomes = new Map<string, number>();

function outcomeOf(status: CallStatus, retries: number): number {
  const key = `${status}:${retries}`;
  let value = outcomes.get(key);
  if (value === undefined) {
    value = status === 'failure' ? 0 : outcomeConfidence({ status, retries }).value / OUTCOME_DEFAULTS.success;
    if (outcomes.size < 1024) outcomes.set(key, value);
  }
  return value;
}

/** One call's worth (0 for a failure, else its outcome confidence / 0.7), as a run's quality sums them (call order). */
export const callOutcome = (call: { readonly status: CallStatus; readonly retries?: number }): number =>
  outcomeOf(call.status, call.retries ?? 0);

/**
 * The quality of a run without its own confidence, from the sum of its calls' worth (in call order), rounded to 12
 * decimals: 14 partial calls and 6 failed are 0.5 as 7 and 3 are, not 0.4999999999999999 (a failed run).
 */
export const qualityOfOutcomes = (sum: number, calls: number): number =>
  calls === 0 ? 0 : Math.min(1, roundTo12(sum / calls));

/** The quality of a run that did not do what it was for (it stopped, a task failed): a failed call's worth, 0. */
export const STOPPED_RUN_QUALITY: number = callOutcome({ status: 'failure' });

/** A call as {@link StandingFailures} reads it: `dependsOn`, when given, names the calls it came after. */
export interface StandingCall {
  readonly tool: string;
  readonly status: CallStatus;
  readonly input?: string;
  readonly dependsOn?: readonly number[];
}

/**
 * The tools whose latest call in the run failed, kept call by call. A failure stands until a later call of the same
 * tool does not fail (an agent's retry made it good; later by `dependsOn` in an explicit DAG, where a sibling task of
 * the same tool is no retry, review F, item 9), or a call of another tool that comes right after it succeeds
 * doing the same job (core/graph/same-job: the fallback the tool graph learns as an `alternative` edge, a failed Grep
 * then filesystem:search_files for the same pattern). A call comes right after the calls of its `dependsOn` when it
 * has one (an explicit DAG's task), else after the call before it in the list, as core/graph/execution-edges reads it
 * (walk 16, item 9: a fallback waiting on its failed Grep, a sibling between them in the list, was learned as an
 * `alternative` while the run counted as failed). fetch ok then translate failed is a failure through every surface
 * (`record`, `record_execution`, a gateway session, a Claude Code turn), where the mean alone (0.5) made it a success.
 * A fallback makes good the failure it follows and the same call's earlier failures (the same tool given the same
 * input, or both none: a Grep retried as is, then its fallback; review F, item 2), not a failure of its tool at
 * another job (review E, item 15). A run with one standing has {@link STOPPED_RUN_QUALITY}.
 */
export class StandingFailures {
  /**
   * Per tool, the indexes of its failed calls standing: a fallback makes good the one it followed and that call's
   * earlier tries (the same input), a call of the tool all it comes after.
   */
  readonly #tools = new Map<string, Set<number>>();
  /** The calls folded in so far, by index (what a later call's `dependsOn` names). */
  readonly #calls: { readonly tool: string; readonly status: CallStatus; readonly input?: string }[] = [];
  /** The earlier calls each call folded in follows ({@link followed}). */
  readonly #follows: (readonly number[])[] = [];
  /** Whether a call folded in so far said what it waited for (`dependsOn`): until then each call follows all before. */
  #explicit = false;

  /** Folds in the run's next call. */
  add(call: StandingCall): void {
    const i = this.#calls.length;
    this.#calls.push(call.input === undefined ? { tool: call.tool, status: call.status } : call);
    this.#follows.push(followed(call, i).filter((j) => j >= 0 && j < i));
    if (call.dependsOn !== undefined) this.#explicit = true;
    if (call.status === 'failure') {
      const standing = this.#tools.get(call.tool);
      if (standing === undefined) this.#tools.set(call.tool, new Set([i]));
      else standing.add(i);
      return;
    }
    this.#makeGood(call.tool, (k) => this.#after(i, k));
    if (call.status !== 'success') return;
    for (const j of this.#follows[i] ?? []) {
      const previous = this.#calls[j] as StandingCall;
      if (!isFallback(previous, call)) continue;
      this.#makeGood(previous.tool, (k) => k === j || (this.#calls[k]?.input === previous.input && this.#after(i, k)));
    }
  }

  /** Takes the failed calls of `tool` that `good` says were made good off what stands. */
  #makeGood(tool: string, good: (k: number) => boolean): void {
    const standing = this.#tools.get(tool);
    if (standing === undefined) return;
    for (const k of standing) if (good(k)) standing.delete(k);
    if (standing.size === 0) this.#tools.delete(tool);
  }

  /**
   * Whether call `i` comes after call `j`, through what each call follows: the list order, but for an explicit DAG's
   * tasks what they waited for (two sibling tasks come after neither).
   */
  #after(i: number, j: number): boolean {
    if (!this.#explicit) return j < i;
    const seen = new Set<number>();
    const next = [i];
    for (let k = next.pop(); k !== undefined; k = next.pop())
      for (const p of this.#follows[k] ?? []) {
        if (p === j) return true;
        if (p > j && !seen.has(p)) {
          seen.add(p);
          next.push(p);
        }
      }
    return false;
  }

  /** How many tools have a failure standing. */
  get size(): number {
    return this.#tools.size;
  }

  /** The tools with a failure standing, in the order their standing failures began. */
  tools(): string[] {
    return [...this.#tools.keys()];
  }
}

/** The tools of a run whose latest call failed (a failure no later call of the same tool made good). */
export function standingFailures(calls: QualityRun['calls']): string[] {
  const standing = new StandingFailures();
  for (const c of calls) standing.add(c);
  return standing.tools();
}

/**
 * The quality of a run without its own confidence from its calls' summed worth, their count and how many failures
 * stand: 0 with one standing, else {@link qualityOfOutcomes}.
 */
export const qualityOfCalls = (sum: number, calls: number, standing: number): number =>
  standing > 0 ? STOPPED_RUN_QUALITY : qualityOfOutcomes(sum, calls);

/**
 * The run's quality: 0 when a failure stands (a call failed and no later call of its tool did not, nor a fallback
 * doing the same job), whatever confidence the run states (walk 16, item 8: a stated 0.9 with its last step failed
 * was a success); else its own confidence, rounded to 12 decimals (a mean of node confidences 0.49999999999999994 is
 * 0.5, as {@link qualityOfOutcomes} rounds); else its calls' mean worth (a failed call 0, another its outcome
 * confidence / 0.7, at most 1); 0 without calls.
 */
export function runQuality(run: QualityRun): number {
  let sum = 0;
  const standing = new StandingFailures();
  for (const c of run.calls) {
    sum += callOutcome(c);
    standing.add(c);
  }
  if (standing.size > 0) return STOPPED_RUN_QUALITY;
  if (run.confidence !== undefined) return roundTo12(run.confidence);
  return qualityOfCalls(sum, run.calls.length, 0);
}

/** Whether a run went well: quality ≥ {@link RUN_SUCCESS_QUALITY}. */
export function runSucceeded(run: QualityRun): boolean {
  return runQuality(run) >= RUN_SUCCESS_QUALITY;
}
