/** @module eval/engine — reproducible in-memory engines for the evaluation. */
import { openCredence, type Credence } from '../src/engine/engine.js';
import type { ExecutionInput } from '../src/core/types.js';
import { openSqliteStore } from '../src/store/sqlite/index.js';
import type { ToolRecord } from '../src/store/types.js';

/** The fixed clock of every evaluation engine. */
export const EVAL_NOW = Date.parse('2026-01-01T00:00:00Z');

/**
 * An engine over a fresh in-memory SQLite store (scope `eval`, fixed clock, counter ids) holding
 * `tools` and, when given, having recorded `executions` (with their intents) in one batch.
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
    newId: () => `eval-${(next += 1)}`,
  });
  await cr.addTools(tools);
  if (executions.length > 0) await cr.recordExecutions(executions, { edges: false });
  return cr;
}
