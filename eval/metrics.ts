/**
 * @module eval/metrics
 * The quality measures `npm run eval` prints: Recall@k and reciprocal rank for a ranked list,
 * precision / recall / F1 of a predicted set, the ground-truth and predicted DAG edges. Pure.
 */
import type { ExecutionInput } from '../src/core/types.js';

/**
 * Share of the relevant items found among the first `k` of `ranked` (0 when nothing is relevant).
 * Duplicates in `ranked` count once.
 */
export function recallAtK(ranked: readonly string[], relevant: ReadonlySet<string>, k: number): number {
  if (relevant.size === 0) return 0;
  const top = new Set(ranked.slice(0, Math.max(0, k)));
  let found = 0;
  for (const r of relevant) if (top.has(r)) found += 1;
  return found / relevant.size;
}

/** 1 / (1-based rank of the first relevant item of `ranked`), 0 when none is ranked. */
export function reciprocalRank(ranked: readonly string[], relevant: ReadonlySet<string>): number {
  const at = ranked.findIndex((r) => relevant.has(r));
  return at < 0 ? 0 : 1 / (at + 1);
}

export interface SetScore {
  precision: number;
  recall: number;
  f1: number;
}

/**
 * Precision, recall and F1 of `predicted` against `truth`. Both empty is a perfect answer (1, 1, 1);
 * exactly one empty scores 0 on all three.
 */
export function setF1(predicted: ReadonlySet<string>, truth: ReadonlySet<string>): SetScore {
  if (predicted.size === 0 && truth.size === 0) return { precision: 1, recall: 1, f1: 1 };
  if (predicted.size === 0 || truth.size === 0) return { precision: 0, recall: 0, f1: 0 };
  let hit = 0;
  for (const p of predicted) if (truth.has(p)) hit += 1;
  const precision = hit / predicted.size;
  const recall = hit / truth.size;
  return { precision, recall, f1: hit === 0 ? 0 : (2 * precision * recall) / (precision + recall) };
}

/** Two sets hold the same items. */
export function sameSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  if (a.size !== b.size) return false;
  for (const x of a) if (!b.has(x)) return false;
  return true;
}

/** The key of a directed tool pair. */
export const edgeKey = (from: string, to: string): string => `${from} -> ${to}`;

/**
 * Ground-truth edges of an execution, as tool pairs: for each call i, its consumes links j → i as
 * tool_j → tool_i; when call i consumes nothing and i > 0, the order link tool_{i−1} → tool_i.
 * Self-pairs (a tool following itself) are dropped. A sample that states its links (a task-plan set) has
 * exactly those.
 */
export function truthEdges(
  execution: Pick<ExecutionInput, 'calls'> & { links?: readonly { from: string; to: string }[] },
): Set<string> {
  const out = new Set<string>();
  if (execution.links !== undefined) {
    for (const l of execution.links) if (l.from !== l.to) out.add(edgeKey(l.from, l.to));
    return out;
  }
  const { calls } = execution;
  calls.forEach((call, i) => {
    const consumes = call.consumes ?? [];
    const sources = consumes.length > 0 ? consumes : i > 0 ? [i - 1] : [];
    for (const j of sources) {
      const from = calls[j]?.tool;
      if (from !== undefined && from !== call.tool) out.add(edgeKey(from, call.tool));
    }
  });
  return out;
}

/** The distinct tools of an execution. */
export function truthTools(execution: Pick<ExecutionInput, 'calls'>): Set<string> {
  return new Set(execution.calls.map((c) => c.tool));
}

/** Predicted edges of a DAG (`dependsOn` links between tasks), as tool pairs; self-pairs dropped. */
export function dagEdges(tasks: readonly { id: string; tool: string; dependsOn: readonly string[] }[]): Set<string> {
  const toolOf = new Map(tasks.map((t) => [t.id, t.tool]));
  const out = new Set<string>();
  for (const t of tasks) {
    for (const d of t.dependsOn) {
      const from = toolOf.get(d);
      if (from !== undefined && from !== t.tool) out.add(edgeKey(from, t.tool));
    }
  }
  return out;
}

/** Arithmetic mean; 0 for no values. */
export function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((s, v) => s + v, 0) / values.length;
}

/** A confidence that came with an answer, and how good the answer turned out (both in [0, 1]). */
export interface Calibrated {
  confidence: number;
  outcome: number;
}

/**
 * Expected calibration error: the confidences fall into `bins` equal-width bins over [0, 1] (1 goes
 * to the last one); per bin |mean confidence − mean outcome|, weighted by the bin's share of the
 * answers. 0 for no answers.
 * @param bins @default 10
 */
export function expectedCalibrationError(answers: readonly Calibrated[], bins = 10): number {
  const members: Calibrated[][] = Array.from({ length: bins }, () => []);
  for (const a of answers) {
    const at = Math.min(bins - 1, Math.max(0, Math.floor(a.confidence * bins)));
    members[at]?.push(a);
  }
  let error = 0;
  for (const bin of members) {
    if (bin.length === 0) continue;
    const gap = mean(bin.map((a) => a.confidence)) - mean(bin.map((a) => a.outcome));
    error += (bin.length / answers.length) * Math.abs(gap);
  }
  return error;
}
