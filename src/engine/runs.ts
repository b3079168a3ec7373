/**
 * @module engine/runs
 * Workflow runs (SPEC §7, seed 002): a run's nodes, each with its derived intent and outcome confidence
 * (core/runs/outcome-confidence). The run's confidence is the mean of its nodes' (a failed or retried
 * node pulls it down in proportion, explainable from the parts); a nested flow's own entry is left out
 * (its children count), and a node run again in a loop does not boost itself. A run that stopped before it
 * finished (`error`: its flow threw) did not do what it was for: its confidence is a failure's quality
 * (core/runs/run-quality, 0) whatever its nodes' mean, which its summary keeps with the reason. The run is recorded
 * as an execution (nodes as calls), so the tool graph learns from it and recall finds it by intent.
 */
import { z } from 'zod';
import { CredenceError } from '../core/errors.js';
import { INPUT_LIMITS } from '../core/limits.js';
import { CALL_STATUSES, INTENTS } from '../core/types.js';
import { IntentText } from '../schemas/execution.js';
import { formatIssues, PLAIN_ISSUES } from '../schemas/format.js';
import { deriveIntent } from '../core/runs/intent.js';
import { outcomeConfidence } from '../core/runs/outcome-confidence.js';
import { RUN_SUCCESS_QUALITY, runQuality, STOPPED_RUN_QUALITY } from '../core/runs/run-quality.js';
import { scrubText } from '../core/security/scrub.js';
import { cutChars } from '../core/text/plain-text.js';
import type { CallStatus, Intent } from '../core/types.js';
import type { ExecutionRecord } from '../store/types.js';

export interface RunNodeInput {
  name: string;
  intent: Intent;
  intentRule: 'explicit' | 'name' | 'hint' | 'default';
  status: CallStatus;
  retries: number;
  startedAt: number;
  durationMs: number;
  /** Indexes of earlier nodes of this run whose shared-store writes this node read. */
  consumes: number[];
  /** Index of the enclosing (nested) flow's node entry. */
  parent?: number;
  error?: string;
}

export interface RunInput {
  intent: string;
  startedAt: number;
  endedAt: number;
  nodes: RunNodeInput[];
  /**
   * Why the run stopped before it finished (its flow threw: the PocketFlow adapter passes the error's message). Such a
   * run did not succeed: its confidence is a failure's, its nodes' mean is kept in its summary.
   */
  error?: string;
}

export interface RunNodeResult {
  name: string;
  intent: Intent;
  intentRule: RunNodeInput['intentRule'];
  status: CallStatus;
  retries: number;
  downstreamUses: number;
  confidence: number;
  parts: { base: number; retryPenalty: number; downstreamBoost: number };
  error?: string;
}

export interface RunResult {
  executionId: string;
  intent: string;
  intentKind: Intent;
  /** Null for a run in which no node was recorded; a failure's (0) for a run that stopped (`error`). */
  confidence: number | null;
  summary: string;
  nodes: RunNodeResult[];
  /** Why the run stopped before it finished, as given (RunInput `error`). */
  error?: string;
  /** A run that stopped: the mean of its nodes' confidences, which a finished run's confidence is. */
  nodesConfidence?: number | null;
}

const RunNodeSchema = z.strictObject({
  name: z.string().trim().min(1, 'must be a non-empty node name'),
  intent: z.enum(INTENTS, { error: `must be one of ${INTENTS.join(', ')}` }),
  intentRule: z.enum(['explicit', 'name', 'hint', 'default']),
  status: z.enum(CALL_STATUSES, { error: `must be one of ${CALL_STATUSES.join(', ')}` }),
  retries: z.number().int().min(0, 'must not be negative'),
  startedAt: z.number().finite(),
  durationMs: z.number().finite().min(0),
  consumes: z.array(z.number().int().min(0)),
  parent: z.number().int().min(0).optional(),
  error: z.string().optional(),
});

const RunSchema = z.strictObject({
  intent: IntentText,
  startedAt: z.number().finite(),
  endedAt: z.number().finite(),
  nodes: z.array(RunNodeSchema),
  error: z.string().optional(),
});

/** Checks a run at the library boundary; INVALID_INPUT names every bad field. */
export function parseRun(value: unknown): RunInput {
  const parsed = RunSchema.safeParse(value, PLAIN_ISSUES);
  if (!parsed.success) throw new CredenceError('INVALID_INPUT', `invalid run: ${formatIssues(parsed.error)}`);
  return parsed.data;
}

/**
 * Each node's confidence (SPEC §7). Downstream use counts the later nodes, other than the node
 * itself run again (a loop), that read what it wrote.
 */
export function nodeConfidences(
  nodes: readonly { name: string; status: CallStatus; retries: number; consumes: readonly number[] }[],
) {
  return nodes.map((n, i) => {
    const downstreamUses = nodes.filter((m) => m.consumes.includes(i) && m.name !== n.name).length;
    return { downstreamUses, ...outcomeConfidence({ status: n.status, retries: n.retries, downstreamUses }) };
  });
}

/**
 * The run's confidence: the mean of its nodes' confidences, leaving out the entries of nested flows
 * (a flow's outcome is its children's, which already count); null for a run with no node.
 */
export function runConfidence(nodes: readonly { confidence: number }[], parents: ReadonlySet<number>): number | null {
  const counted = nodes.filter((_, i) => !parents.has(i));
  const pool = counted.length > 0 ? counted : nodes;
  return pool.length === 0 ? null : pool.reduce((s, n) => s + n.confidence, 0) / pool.length;
}

/** Scores a run's nodes and the run (mean of node confidences, nested flows' own entries left out). Pure. */
export function scoreRun(input: RunInput): Omit<RunResult, 'executionId'> {
  const run = parseRun(input);
  run.nodes.forEach((n, i) => {
    for (const j of n.consumes) {
      if (j >= i)
        throw new CredenceError(
          'INVALID_INPUT',
          `run node ${i} (${n.name}) consumes node ${j}: only earlier nodes (0..${i - 1}) can be consumed`,
        );
    }
    if (n.parent !== undefined && n.parent >= i)
      throw new CredenceError(
        'INVALID_INPUT',
        `run node ${i} (${n.name}) has parent ${n.parent}: a parent comes earlier`,
      );
  });
  const scoredNodes = nodeConfidences(run.nodes);
  const nodes = run.nodes.map((n, i): RunNodeResult => {
    const scored = scoredNodes[i] as (typeof scoredNodes)[number];
    return {
      name: n.name,
      intent: n.intent,
      intentRule: n.intentRule,
      status: n.status,
      retries: n.retries,
      downstreamUses: scored.downstreamUses,
      confidence: scored.value,
      parts: scored.parts,
      ...(n.error === undefined ? {} : { error: n.error }),
    };
  });
  const parents = new Set(run.nodes.flatMap((n) => (n.parent === undefined ? [] : [n.parent])));
  const mean = runConfidence(nodes, parents);
  const intentKind = deriveIntent(undefined, { description: run.intent }).intent;
  if (run.error === undefined)
    return { intent: run.intent, intentKind, confidence: mean, summary: runSummary(run.intent, nodes, mean), nodes };
  const stopped = stopReason(run.error);
  const summary = runSummary(run.intent, nodes, STOPPED_RUN_QUALITY, { stopped, nodesConfidence: mean });
  return {
    intent: run.intent,
    intentKind,
    confidence: STOPPED_RUN_QUALITY,
    summary,
    nodes,
    error: run.error,
    nodesConfidence: mean,
  };
}

/**
 * A stop's reason as a summary says it: its first line, scrubbed of secrets before it is cut (a token cut in the middle
 * no longer looks like one), at most `STOP_REASON_CHARS` characters (code points: an emoji is never split).
 */
const STOP_REASON_CHARS = 200;
function stopReason(error: string): string {
  const line = scrubText(error.trim().split(/\r?\n/, 1)[0]?.trim() ?? '').text;
  return cutChars(line === '' ? 'an error without a message' : line, STOP_REASON_CHARS);
}

/**
 * The summary a workflow run is stored with: `intent: node status[ after n retries] → …; confidence c`; a run too long
 * for a stored summary (INPUT_LIMITS.summary) keeps its first steps and says `… +K more steps` (a run of 700 nodes
 * was refused for its own summary). `credence runs` reads it to tell such a summary from one that says more.
 */
export function runSummary(
  intent: string,
  nodes: readonly { name: string; status: CallStatus; retries: number }[],
  confidence: number | null,
  stop?: { stopped: string; nodesConfidence: number | null },
): string {
  const steps = nodes.map((n) => {
    const retried = n.retries > 0 ? ` after ${n.retries} retr${n.retries === 1 ? 'y' : 'ies'}` : '';
    return `${n.name} ${n.status}${retried}`;
  });
  const stated = `confidence ${confidence === null ? 'none (no node ran)' : confidence.toFixed(2)}`;
  // A stop's reason comes first, where a listing cut to one line still shows it.
  const head =
    stop === undefined
      ? `${intent}: `
      : `${intent}: stopped (${stop.stopped}): ${steps.length === 0 ? 'no node ran' : ''}`;
  const tail =
    stop === undefined
      ? `; ${stated}`
      : `; ${stated} (a run that stopped did not succeed; its nodes' mean ` +
        `${stop.nodesConfidence === null ? 'none' : stop.nodesConfidence.toFixed(2)})`;
  const whole = `${head}${steps.join(' → ')}${tail}`;
  if (whole.length <= INPUT_LIMITS.summary) return whole;
  let kept = steps.length;
  let length = whole.length;
  const more = (k: number) =>
    `${k > 0 ? ' → ' : ''}… +${steps.length - k} more step${steps.length - k === 1 ? '' : 's'}`;
  while (kept > 0 && length + more(kept).length > INPUT_LIMITS.summary) {
    kept -= 1;
    length -= (steps[kept] as string).length + (kept > 0 ? ' → '.length : 0);
  }
  return `${head}${steps.slice(0, kept).join(' → ')}${more(kept)}${tail}`;
}

/** A recorded run as `credence runs` lists it. */
export interface RunListing {
  id: string;
  intent: string;
  intentKind: Intent | null;
  startedAt: string;
  endedAt: string | null;
  /** The confidence the run was stored with (a workflow run's, a failed `execute_dag` run's 0); null without one. */
  confidence: number | null;
  /**
   * What decides whether the run is a success of its workflow (core/runs/run-quality): its confidence, else 0 when a
   * failure stands (a call failed and no later call of its tool did not), else its calls' mean worth.
   */
  quality: number;
  /** Whether it counts as a success of its workflow: quality ≥ 0.5. */
  succeeded: boolean;
  summary: string | null;
  nodes: {
    tool: string;
    intent: Intent | null;
    status: CallStatus;
    retries: number;
    durationMs: number | null;
    consumes: number[];
    parent: number | null;
    downstreamUses: number;
    confidence: number;
    parts: { base: number; retryPenalty: number; downstreamBoost: number };
  }[];
}

export function toRunListing(e: ExecutionRecord): RunListing {
  const scored_ = nodeConfidences(
    e.calls.map((c) => ({ name: c.tool, status: c.status, retries: c.retries, consumes: c.consumes })),
  );
  const quality = runQuality(e);
  return {
    id: e.id,
    intent: e.intent,
    intentKind: e.intentKind ?? null,
    startedAt: new Date(e.startedAt).toISOString(),
    endedAt: e.endedAt === undefined ? null : new Date(e.endedAt).toISOString(),
    confidence: e.confidence ?? null,
    quality,
    succeeded: quality >= RUN_SUCCESS_QUALITY,
    summary: e.summary ?? null,
    // Recomputed from what is stored, so a stored run's confidence is explained by what is listed (a run that stopped
    // has 0 whatever its nodes, its summary says why).
    nodes: e.calls.map((c, i) => {
      const scored = scored_[i] as (typeof scored_)[number];
      return {
        tool: c.tool,
        intent: c.intent ?? null,
        status: c.status,
        retries: c.retries,
        durationMs: c.durationMs ?? null,
        consumes: c.consumes,
        parent: c.parent ?? null,
        downstreamUses: scored.downstreamUses,
        confidence: scored.value,
        parts: scored.parts,
      };
    }),
  };
}
