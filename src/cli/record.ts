/** @module cli/record — `credence record --jsonl FILE|-`: executions in, edges learned. */
import type { Command } from 'commander';
import { CredenceError, isCredenceError, isStoreBusy } from '../core/errors.js';
import { requireExecutionWithinLimits } from '../core/limits.js';
import type { ExecutionInput } from '../core/types.js';
import { aheadOfClockReason, printJson, withCredence, type CommandContext } from './context.js';
import { checkedLines, readInput, reportProblems } from './input.js';

/** Executions a transaction: large enough to amortise the commit, small enough to hold the lock briefly. */
const BATCH = 5000;

export function registerRecord(program: Command, context: () => CommandContext): void {
  program
    .command('record')
    .description(
      'record executions (one JSON object a line: {intent, scope?, startedAt?, calls: [...]}) and learn their edges',
    )
    .requiredOption('--jsonl <file>', 'JSON lines file, or - for standard input')
    .action(async (options: { jsonl: string }) => {
      const ctx = context();
      const { parseExecution } = await import('../engine/tool-graph/tool-graph.js');
      const clock = await ctx.clock();
      // A line over a limit is a bad line as any other (its number named, the others recorded), not the whole file's
      // refusal naming `executions[i]`, counted from 0 within a batch.
      const { items, problems } = checkedLines(readInput(options.jsonl), (value) => {
        requireExecutionWithinLimits('execution', value);
        return notAheadOfClock(parseExecution(value), clock);
      });
      // Executions that carry their source's id are recorded once: the same command again records only the others.
      const identified = items.every((item) => item.value.id !== undefined);
      const summary = await withCredence(ctx, async (credence) => {
        let recorded = 0;
        let already = 0;
        let calls = 0;
        let edges = 0;
        const newTools: string[] = [];
        const scopes = new Set<string>();
        for (let i = 0; i < items.length; i += BATCH) {
          const batch = items.slice(i, i + BATCH).map((item) => item.value);
          const result = await credence
            .recordExecutions(batch, { validate: false, edges: false })
            .catch((error: unknown) => {
              // Executions without an id: a retry of the whole file would store the batches already committed twice.
              // So for a store busy, or a server gone down meanwhile (walk 19, item 2), say where to resume.
              if (i === 0 || !(isStoreBusy(error) || isCredenceError(error, 'STORE_UNAVAILABLE'))) throw error;
              throw partlyRecorded(error, i, items[i]?.line ?? 0, identified);
            });
          for (const e of result.executions)
            if (e.alreadyRecorded === true) already += 1;
            else {
              recorded += 1;
              calls += e.calls;
            }
          edges += result.edgesUpdated;
          newTools.push(...result.newTools);
          result.executions.forEach((e) => scopes.add(e.scope));
        }
        return {
          recorded,
          alreadyRecorded: already,
          calls,
          edgesUpdated: edges,
          newTools: [...new Set(newTools)],
          scopes: scopes.size === 0 ? [credence.scope] : [...scopes].sort(),
        };
      });
      reportProblems(ctx.io.stderr, problems);
      if (ctx.wantsJson) printJson(ctx, { ...summary, rejected: problems });
      else {
        ctx.io.stdout(
          `recorded ${summary.recorded} execution(s), ${summary.calls} call(s), ` +
            `${summary.edgesUpdated} edge update(s) in scope ${summary.scopes.join(', ')}\n`,
        );
        if (summary.alreadyRecorded > 0)
          ctx.io.stdout(
            `${summary.alreadyRecorded} execution(s) already recorded (an id the scope holds): not recorded again\n`,
          );
        if (summary.newTools.length > 0) {
          ctx.io.stdout(
            `added ${summary.newTools.length} unknown tool(s) to the catalogue with an empty description: ` +
              `${summary.newTools.join(', ')}\n`,
          );
        }
        if (problems.length > 0) ctx.io.stdout(`rejected ${problems.length} line(s); see above\n`);
      }
      if (problems.length > 0) ctx.setExitCode(1);
    });
}

/**
 * A busy store, or one gone out of reach, met after `stored` executions were committed: not a retry (exit 1), where
 * to resume; when every execution carries an id (`identified`), the same command is that resumption (those recorded
 * are not again).
 */
function partlyRecorded(error: unknown, stored: number, line: number, identified: boolean): CredenceError {
  const resume = identified
    ? 'every execution carries an id, so the same command records only those not recorded yet'
    : `the same command would record them again: record the input from line ${line} on`;
  const details = { recorded: stored, resumeAtLine: line };
  if (!isStoreBusy(error))
    return new CredenceError(
      'STORE_UNAVAILABLE',
      `${(error as Error).message.replace(/; retry later$/, '')}, after ${stored} execution(s) were recorded; ` +
        `once it is back, ${resume}`,
      { cause: error, details: { ...(error as CredenceError).details, ...details } },
    );
  return new CredenceError(
    'STORE_UNAVAILABLE',
    `the store became busy (another process is writing) after ${stored} execution(s) were recorded; ${resume}`,
    { cause: error, details },
  );
}

/**
 * The execution, unless its `startedAt` or a call's `at` is ahead of the clock: then its line is refused
 * (INVALID_INPUT, naming the field), as a bad line is, since edges seen at a future time would not decay until then.
 */
function notAheadOfClock(execution: ExecutionInput, clock: { now: number; name: string }): ExecutionInput {
  const times: [string, string | number | undefined][] = [
    ['startedAt', execution.startedAt],
    ...execution.calls.map((call, i): [string, string | number | undefined] => [`calls[${i}].at`, call.at]),
  ];
  for (const [field, value] of times) {
    const reason = value === undefined ? undefined : aheadOfClockReason(value, clock.now, undefined, clock.name);
    if (reason !== undefined) throw new CredenceError('INVALID_INPUT', `invalid execution: ${field}: ${reason}`);
  }
  return execution;
}
