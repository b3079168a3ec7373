/**
 * @module mcp/execute-dag
 * The `execute_dag` tool (SPEC §5, §9). `{intent}` gives the DAG suggestion and runs it only when every tool in it is
 * a downstream `readOnlyHint` tool and its confidence, seed confidence (or, short of it, the Wilson lower bound of its
 * own workflow's record) and any learned probability reach the threshold (else says why not); `arguments` gives
 * tasks' arguments by task or tool id. `{workflow: {tasks}}` is validated against the catalogue (nothing runs on an
 * error) and run in parallel layers (engine/workflow-exec), recorded as one execution teaching only `dependency` edges
 * (the order across layers is nobody's choice), each call with the tasks it depended on. Tasks that never reached
 * their tool are not calls, but a run with a task not done is a failed run.
 */
import { z } from 'zod';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { type WorkflowTask, workflowProblemCode } from '../core/workflow/workflow.js';
import { isStoreBusy } from '../core/errors.js';
import { withinLimit } from '../core/limits.js';
import { isBlankText } from '../core/text/plain-text.js';
import type { CallStatus } from '../core/types.js';
import { STOPPED_RUN_QUALITY } from '../core/runs/run-quality.js';
import { effectiveDependencies } from '../core/workflow/workflow-references.js';
import { runWorkflow, type TaskOutcome } from '../engine/workflow-exec.js';
import type { DagRecord } from '../engine/workflows/workflows.js';
import type { MetaToolContext } from './tool-context.js';
import { isGatewayError } from './gateway.js';
import { jsonResult } from './results.js';
import { text } from './fields.js';
import { WorkflowTaskSchema } from '../schemas/workflow.js';

export const ExecuteDagInput = z.strictObject({
  intent: text('intent')
    .optional()
    .describe('what to do, in words: gives a suggested DAG (and runs it only when safe)'),
  workflow: z
    .strictObject({ tasks: z.array(WorkflowTaskSchema).min(1) })
    .optional()
    .describe('an explicit DAG to run'),
  arguments: z
    .record(z.string(), z.record(z.string(), z.unknown()))
    .optional()
    .describe('with intent: the arguments of a suggested task, by task id or tool id'),
  execute: z
    .boolean()
    .optional()
    .describe('with intent: false never runs the suggestion (default true: run when safe)'),
});

type Input = z.output<typeof ExecuteDagInput>;

export async function executeDag(ctx: MetaToolContext, input: Input): Promise<CallToolResult> {
  if (input.workflow !== undefined) return runExplicit(ctx, input.workflow.tasks, input.intent);
  if (input.intent !== undefined) return suggestAndMaybeRun(ctx, input);
  return jsonResult(
    {
      error: 'execute_dag needs an "intent" (to get a suggestion) or a "workflow" with tasks (to run it)',
      code: 'INVALID_INPUT',
    },
    true,
  );
}

async function suggestAndMaybeRun(ctx: MetaToolContext, input: Input): Promise<CallToolResult> {
  const intent = input.intent ?? '';
  const suggestion = await ctx.credence.suggestDag(intent);
  if (suggestion.mode !== 'suggestion') return jsonResult({ ...suggestion });
  const notRun: string[] = [];
  const argumentsOf = (t: { id: string; tool: string }): Record<string, unknown> =>
    input.arguments?.[t.id] ?? input.arguments?.[t.tool] ?? {};
  // An argument given for no task nor tool of the suggestion was meant for another DAG: this one does not run.
  const named = new Set(suggestion.dag.tasks.flatMap((t) => [t.id, t.tool]));
  const stray = Object.keys(input.arguments ?? {}).filter((key) => !named.has(key));
  if (stray.length > 0)
    notRun.push(
      `arguments names ${stray.map((k) => `"${k}"`).join(', ')}: no task or tool of the suggested DAG ` +
        `(its tasks: ${suggestion.dag.tasks.map((t) => `${t.id} ${t.tool}`).join(', ')})`,
    );
  if (input.execute === false) notRun.push('execute is false');
  let record: DagRecord | undefined;
  if (ctx.gateway === undefined) notRun.push('no gateway: start `credence serve --gateway FILE` to run tools');
  else {
    for (const task of suggestion.dag.tasks) {
      const tool = ctx.gateway.tool(task.tool);
      if (tool === undefined) notRun.push(`${task.tool} is not a tool of a connected downstream server`);
      else if (tool.tool.annotations?.readOnlyHint !== true) notRun.push(`${task.tool} is not marked readOnlyHint`);
      else {
        const required = Array.isArray(tool.tool.inputSchema.required)
          ? (tool.tool.inputSchema.required as unknown[]).filter((r): r is string => typeof r === 'string')
          : [];
        const missing = required.filter((name) => !(name in argumentsOf(task)));
        if (missing.length > 0)
          notRun.push(
            `${task.tool} needs ${missing.map((m) => `"${m}"`).join(', ')}: ` +
              `give them in arguments (by task id "${task.id}" or tool id)`,
          );
      }
    }
  }
  if (suggestion.memory?.backed === true && suggestion.memory.unlike !== undefined) {
    // A confidence read beyond what the memory was measured on is an extrapolation: it runs nothing alone.
    notRun.push(
      `the past runs behind it are less alike (strength ${suggestion.memory.unlike.strength.toFixed(2)}) than any ` +
        `the memory was measured on: its confidence was measured on closer tasks`,
    );
  } else if (suggestion.confidence < ctx.autoExecuteThreshold) {
    notRun.push(`confidence ${suggestion.confidence.toFixed(3)} is below the threshold ${ctx.autoExecuteThreshold}`);
  } else {
    let seedHolds = suggestion.seedConfidence === undefined || suggestion.seedConfidence >= ctx.autoExecuteThreshold;
    if (!seedHolds) {
      // A confidence measured on a scope's past runs (issue 19) runs nothing alone: the seed's must agree, or the
      // DAG's own record stand in for it (walk 14, item 3: once the learned graph covers a DAG, its mean PageRank
      // caps the seed formula below the threshold however often the DAG succeeded).
      record = await ctx.credence.dagRecord(
        suggestion.dag.tasks.map((t) => ({
          id: t.id,
          tool: t.tool,
          arguments: argumentsOf(t),
          dependsOn: t.dependsOn,
        })),
      );
      seedHolds = record !== undefined && record.value >= ctx.autoExecuteThreshold;
      if (!seedHolds)
        notRun.push(
          `the seed formula's confidence ${suggestion.seedConfidence?.toFixed(3)} is below the threshold ` +
            `${ctx.autoExecuteThreshold} (the measured ${suggestion.confidence.toFixed(3)} alone runs nothing), ` +
            (record === undefined
              ? 'and this DAG has no record of its own to stand in for it'
              : `and this DAG's own record does not stand in for it: ${recordText(record)} is below the threshold`),
        );
    }
    if (seedHolds && suggestion.probability !== undefined && suggestion.probability < ctx.autoExecuteThreshold) {
      // With enough DAG outcomes, the probability learned from them must agree as well (issue 24): it only holds back.
      notRun.push(
        `the probability learned from ${suggestion.probabilityBasis?.outcomes ?? 0} DAG outcomes, ` +
          `${suggestion.probability.toFixed(3)}, is below the threshold ${ctx.autoExecuteThreshold}`,
      );
    }
  }
  if (notRun.length > 0) {
    // Shown, not run: the calls the agent makes next say what became of it (issue 24).
    if (suggestion.shownId !== undefined)
      ctx.onShown?.({
        kind: 'dag',
        at: ctx.credence.now(),
        shownId: suggestion.shownId,
        tools: suggestion.dag.tasks.map((t) => t.tool),
      });
    return jsonResult({
      ...suggestion,
      executed: false,
      notExecutedBecause: notRun,
      threshold: ctx.autoExecuteThreshold,
      ...(record === undefined ? {} : { record }),
    });
  }
  const tasks: WorkflowTask[] = suggestion.dag.tasks.map((t) => ({
    id: t.id,
    tool: t.tool,
    arguments: argumentsOf(t),
    dependsOn: t.dependsOn,
  }));
  const run = await runExplicit(ctx, tasks, intent);
  const value = (run.structuredContent ?? {}) as Record<string, unknown>;
  // Run as suggested: the run says what became of it (issue 24).
  if (suggestion.shownId !== undefined && typeof value.ok === 'boolean')
    await ctx.credence.recordOutcome(suggestion.shownId, value.ok ? 'succeeded' : 'failed').catch(() => undefined);
  return jsonResult(
    {
      ...suggestion,
      executed: true,
      threshold: ctx.autoExecuteThreshold,
      // The seed fell short and the DAG's own record stood in for it: which record, and why it sufficed.
      ...(record === undefined
        ? {}
        : { record, executedBecause: `${recordText(record)} reaches the threshold ${ctx.autoExecuteThreshold}` }),
      run: value,
    },
    run.isError === true,
  );
}

/**
 * A DAG's record in words: `its workflow wf-… ran 16 times, 16 succeeded: lower bound 0.855 (Wilson, 95 %) × decay
 * 1.000 = 0.855`.
 */
function recordText(record: DagRecord): string {
  const p = record.parts;
  return (
    `its workflow ${record.workflow} ran ${p.runs} time${p.runs === 1 ? '' : 's'}` +
    (record.stoppedEarly === 0
      ? ''
      : ` (${record.stoppedEarly} of them failed runs of only some of its tasks, the same tools and dependencies: ` +
        "a run of it stopped by a failed task, or another DAG's)") +
    `, ${p.successes} succeeded: ` +
    `lower bound ${p.lowerBound.toFixed(3)} (Wilson, 95 %) × decay ${p.decay.toFixed(3)} = ${record.value.toFixed(3)}`
  );
}

async function runExplicit(
  ctx: MetaToolContext,
  tasks: readonly WorkflowTask[],
  intent: string | undefined,
): Promise<CallToolResult> {
  const { credence, gateway } = ctx;
  const check = await credence.validateWorkflow({ tasks });
  if (!check.ok)
    return jsonResult(
      {
        error: `invalid workflow: ${check.problems.map((p) => p.message).join('; ')}`,
        code: workflowProblemCode(check.problems),
        problems: check.problems,
      },
      true,
    );
  if (gateway === undefined) {
    return jsonResult(
      {
        error:
          'execute_dag runs workflows through the gateway: ' +
          'start `credence serve --gateway FILE` with the servers that provide these tools',
        code: 'NO_GATEWAY',
        layers: check.layers,
      },
      true,
    );
  }
  const unserved = tasks.filter((t) => !gateway.routes(t.tool));
  if (unserved.length > 0) {
    return jsonResult(
      {
        error:
          'no downstream server of this gateway provides ' +
          unserved.map((t) => `"${t.tool}" (task "${t.id}")`).join(', '),
        code: 'UNSERVED_TOOL',
        layers: check.layers,
      },
      true,
    );
  }
  const started = credence.now();
  const clockStart = Date.now();
  const run = await runWorkflow(
    tasks,
    check.layers,
    (tool, args) => gateway.call(tool, args as Record<string, unknown> | undefined),
    { now: () => Date.now() },
  );
  const reachedTool = (t: TaskOutcome): boolean =>
    t.called && !(t.result !== undefined && isGatewayError(t.result as CallToolResult));
  const ran = run.tasks.filter((t) => t.status !== 'skipped' && reachedTool(t));
  const index = new Map(ran.map((t, i) => [t.id, i]));
  const indexes = (ids: readonly string[]): number[] =>
    ids.map((id) => index.get(id)).filter((i): i is number => i !== undefined);
  const deps = effectiveDependencies(tasks);
  const status = (t: TaskOutcome): CallStatus => (t.status === 'success' ? 'success' : 'failure');
  // A generated intent is cut to the limit: the run happened, and it is recorded whatever its size (or a blank one).
  const text =
    intent !== undefined && !isBlankText(intent)
      ? intent
      : withinLimit(`workflow: ${tasks.map((t) => t.tool).join(', ')}`, 'intent');
  // The tools ran: a store that cannot take the run (busy, full) must not lose what they returned, and a retry
  // would run their side effects again, so the answer says the run is not recorded and why.
  let notRecordedBecause = ran.length === 0 ? 'no task reached its tool: there is no call to record' : undefined;
  const recorded =
    ran.length === 0
      ? undefined
      : await credence
          .recordExecutions(
            [
              {
                intent: text,
                startedAt: started,
                calls: ran.map((t) => ({
                  tool: t.tool,
                  status: status(t),
                  durationMs: t.durationMs,
                  at: started + (t.startedAt - clockStart),
                  consumes: indexes(t.consumes),
                  // The workflow's own dependencies, so its learned shape links a task to these only.
                  dependsOn: indexes(deps.get(t.id) ?? []),
                })),
                ...(run.ok ? {} : notDone(run.tasks)),
              },
            ],
            { learn: ['dependency'] },
          )
          .catch((error: unknown) => {
            notRecordedBecause = isStoreBusy(error)
              ? 'the store was busy (another process was writing); the tasks ran: do not run them again to record them'
              : `recording the run failed: ${(error as Error).message}; the tasks ran`;
            return undefined;
          });
  const value = {
    mode: 'executed',
    ok: run.ok,
    intent: text,
    executionId: recorded?.executions[0]?.id ?? null,
    recorded: recorded !== undefined,
    ...(notRecordedBecause === undefined ? {} : { notRecordedBecause }),
    layers: check.layers,
    tasks: run.tasks.map((t) => ({
      id: t.id,
      tool: t.tool,
      status: t.status,
      layer: t.layer,
      durationMs: t.durationMs,
      consumes: t.consumes,
      ...(t.arguments === undefined ? {} : { arguments: t.arguments }),
      ...(t.result === undefined ? {} : { result: t.result }),
      ...(t.error === undefined ? {} : { error: t.error }),
    })),
    learned: (recorded?.edges ?? []).map((e) => ({
      from: e.from,
      to: e.to,
      type: e.type,
      source: e.source,
      count: e.count,
      confidence: e.confidence,
    })),
  };
  return jsonResult(value, !run.ok);
}

/**
 * A run in which a task failed, was skipped or never reached its tool did not do what was asked: its calls
 * alone (the tasks that reached a tool) could still read as a success, so the run carries its own outcome,
 * a failed call's worth as a run's quality reads it (core/runs/run-quality STOPPED_RUN_QUALITY: 0, below the
 * 0.5 of a success), and a summary of what became of each task.
 */
function notDone(tasks: readonly TaskOutcome[]): { confidence: number; summary: string } {
  const done = tasks.filter((t) => t.status === 'success').length;
  const missed = tasks
    .filter((t) => t.status !== 'success')
    .map((t) => (t.status === 'skipped' ? `${t.id} skipped (${t.error ?? 'a dependency'})` : `${t.id} failed`));
  return {
    confidence: STOPPED_RUN_QUALITY,
    summary: `${done} of ${tasks.length} tasks succeeded; ${missed.join(', ')}`,
  };
}
