/**
 * @module runs
 * Workflow runs (SPEC §7, seed 002): a run's nodes, each with its derived intent and its outcome
 * confidence (success 0.7 / partial 0.5 / failure 0.3, −0.1 per retry down to 0.1, +0.05 per later
 * node that used its output up to +0.2). The run's confidence is the mean of its nodes'
 * confidences: every node counts, a failed or retried node pulls the run down in proportion, and
 * the value stays explainable from the parts the result carries. The run is recorded as an
 * execution (its nodes as calls), so the tool graph learns from it and recall finds it by intent.
 */
import { CredenceError } from './core/errors.js';
import { deriveIntent } from './core/intent.js';
import { outcomeConfidence } from './core/outcome-confidence.js';
import type { CallStatus, Intent } from './core/types.js';
import type { ExecutionRecord } from './store/types.js';

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
  confidence: number;
  summary: string;
  nodes: RunNodeResult[];
}

/** Scores a run's nodes and the run (mean of node confidences). Pure. */
export function scoreRun(run: RunInput): Omit<RunResult, 'executionId'> {
  run.nodes.forEach((n, i) => {
    for (const j of n.consumes) {
      if (!Number.isInteger(j) || j < 0 || j >= i) {
        throw new CredenceError('INVALID_INPUT', `run node ${i} (${n.name}) consumes node ${j}: only earlier nodes (0..${i - 1}) can be consumed`);
      }
    }
    if (n.parent !== undefined && (n.parent < 0 || n.parent >= i)) throw new CredenceError('INVALID_INPUT', `run node ${i} (${n.name}) has parent ${n.parent}: a parent comes earlier`);
  });
  const uses = run.nodes.map((_, i) => run.nodes.filter((m) => m.consumes.includes(i)).length);
  const nodes = run.nodes.map((n, i): RunNodeResult => {
    const scored = outcomeConfidence({ status: n.status, retries: n.retries, downstreamUses: uses[i] ?? 0 });
    return {
      name: n.name,
      intent: n.intent,
      intentRule: n.intentRule,
      status: n.status,
      retries: n.retries,
      downstreamUses: uses[i] ?? 0,
      confidence: scored.value,
      parts: scored.parts,
      ...(n.error === undefined ? {} : { error: n.error }),
    };
  });
  const confidence = nodes.length === 0 ? 0 : nodes.reduce((s, n) => s + n.confidence, 0) / nodes.length;
  const intentKind = deriveIntent(undefined, { description: run.intent }).intent;
  const summary = `${run.intent}: ${nodes.map((n) => `${n.name} ${n.status}${n.retries > 0 ? ` after ${n.retries} retr${n.retries === 1 ? 'y' : 'ies'}` : ''}`).join(' → ')}; confidence ${confidence.toFixed(2)}`;
  return { intent: run.intent, intentKind, confidence, summary, nodes };
}

/** A recorded run as `credence runs` lists it. */
export interface RunListing {
  id: string;
  intent: string;
  intentKind: Intent | null;
  startedAt: string;
  endedAt: string | null;
  confidence: number | null;
  summary: string | null;
  nodes: { tool: string; status: CallStatus; retries: number; durationMs: number | null }[];
}

export function toRunListing(e: ExecutionRecord): RunListing {
  return {
    id: e.id,
    intent: e.intent,
    intentKind: e.intentKind ?? null,
    startedAt: new Date(e.startedAt).toISOString(),
    endedAt: e.endedAt === undefined ? null : new Date(e.endedAt).toISOString(),
    confidence: e.confidence ?? null,
    summary: e.summary ?? null,
    nodes: e.calls.map((c) => ({ tool: c.tool, status: c.status, retries: c.retries, durationMs: c.durationMs ?? null })),
  };
}
