/** @module eval/engine — reproducible in-memory engines for the evaluation. */
import { openCredence, type Credence } from '../src/engine/engine.js';
import type { ExecutionInput } from '../src/core/types.js';
import { openSqliteStore } from '../src/store/sqlite/index.js';
import type { ToolRecord } from '../src/store/types.js';

/** The fixed clock of every evaluation engine. */
export const EVAL_NOW = Date.parse('2026-01-01T00:00:00Z');

/** How far apart in time the eval records consecutive runs (one a minute). */
export const EVAL_RUN_SPACING_MS = 60_000;

/**
 * When the `k`-th (from 0) of `n` recorded runs started: runs are a history in recording order, one a minute, the
 * last recorded the newest, all before {@link EVAL_NOW} (the newest one spacing before it), as a user's store holds
 * runs its hooks recorded as they happened.
 */
export function recordedAt(k: number, n: number): number {
  if (!Number.isInteger(k) || !Number.isInteger(n) || k < 0 || k >= n) {
    throw new RangeError(`recordedAt: run ${String(k)} of ${String(n)} is not 0 ≤ k < n (integers)`);
  }
  return EVAL_NOW - (n - k) * EVAL_RUN_SPACING_MS;
}

/** The runs `executions` as a history: each given a start time in recording order (a time it carries is kept). */
export function asHistory(executions: readonly ExecutionInput[]): ExecutionInput[] {
  return executions.map((e, k) => ({ ...e, startedAt: e.startedAt ?? recordedAt(k, executions.length) }));
}

/**
 * An engine over a fresh in-memory SQLite store (scope `eval`, fixed clock, zero-padded counter ids, so ids sort in
 * the order they were made) holding `tools` and, when given, having recorded `executions` (with their intents) in one
 * batch, as a history: each run started a minute after the one before it ({@link asHistory}).
 */
export async function openEvalEngine(
  tools: readonly ToolRecord[],
  executions: readonly ExecutionInput[] = [],
): Promise<Credence> {
  let next = 0;
  const cr = await openCredence({
    store: openSqliteStore({ path: ':memory:' }),
    scope: 'eval',
    now: EVAL_NOW,
    newId: () => `eval-${String((next += 1)).padStart(6, '0')}`,
  });
  await cr.addTools(tools);
  if (executions.length > 0) await cr.recordExecutions(asHistory(executions), { edges: false });
  return cr;
}
