/**
 * @module mcp/meta-tools
 * Credence's own MCP tools (SPEC §9). Each has a zod input schema that the server publishes as
 * JSON Schema and checks arguments against (a mismatch is a protocol error, -32602); what the
 * engine then refuses — an unknown tool id, a cycle, an observation with a bad date — is the tool's
 * own failure, returned as a result with `isError: true` and the engine's message.
 */
import { z } from 'zod';
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { chooseContext } from '../core/recall/agent-context.js';
import { formatMemoryContext } from '../core/recall/memory-context.js';
import { withSource } from '../core/learning/rule-trust.js';
import { parseSince } from '../core/time.js';
import { CALL_STATUSES, OBSERVATION_PHASES, OBSERVATION_TYPES, VERDICTS } from '../core/types.js';
import type { MetaToolContext } from './tool-context.js';
import { jsonResult } from './results.js';
import { text } from './fields.js';

export { jsonResult };
import { executeDag, ExecuteDagInput } from './execute-dag.js';

export type { MetaToolContext };

export interface MetaTool {
  name: string;
  title: string;
  description: string;
  input: z.ZodType;
  annotations: ToolAnnotations;
  run: (ctx: MetaToolContext, args: never) => Promise<CallToolResult>;
}

const Limit = (max: number, fallback: number | string) =>
  z.number().int().min(1).max(max).optional().describe(`how many results at most (default ${fallback})`);

const define = <S extends z.ZodType>(tool: {
  name: string;
  title: string;
  description: string;
  input: S;
  annotations: ToolAnnotations;
  run: (ctx: MetaToolContext, args: z.output<S>) => Promise<CallToolResult>;
}): MetaTool => tool as unknown as MetaTool;

const readOnly: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

/** The shown tools of a surface's results, to follow what became of them (issue 24). */
const shownItems = (results: readonly { tool: string; shownId?: string }[]): { shownId: string; tool: string }[] =>
  results.flatMap((r) => (r.shownId === undefined ? [] : [{ shownId: r.shownId, tool: r.tool }]));

export const META_TOOLS: readonly MetaTool[] = [
  define({
    name: 'search_tools',
    title: 'Search tools',
    description:
      "Ranks the tools Credence knows (its catalogue, including the gateway's downstream tools) for a task " +
      'described in words. Each result carries its score and the parts that made it: semantic similarity, graph ' +
      'relatedness to the context tools, and the local alpha that weighs them. Pass the tools already used in ' +
      'this task as context_tools to favour those that usually follow them.',
    input: z.strictObject({
      query: text('query').describe('what the tool should do, in words'),
      limit: Limit(50, 10),
      context_tools: z.array(text('toolName')).optional().describe('tool ids already used in this task'),
    }),
    annotations: readOnly,
    run: async ({ credence, onShown }, a) => {
      const results = await credence.searchTools(a.query, {
        ...(a.limit === undefined ? {} : { limit: a.limit }),
        ...(a.context_tools === undefined ? {} : { context: a.context_tools }),
      });
      onShown?.({ kind: 'search', at: credence.now(), items: shownItems(results) });
      return jsonResult({ query: a.query, results });
    },
  }),
  define({
    name: 'execute_dag',
    title: 'Suggest or run a workflow DAG',
    description:
      'With {intent}: suggests a workflow DAG of tools for the intent, with its confidence, the weights used ' +
      '(cold start, growing, mature), the rationale and alternatives; it runs it only when every tool is marked ' +
      "readOnlyHint and the confidence reaches the server's threshold (default 0.85). With {workflow: {tasks: " +
      '[{id, tool, arguments, dependsOn}]}}: validates it (unknown tool, missing dependency, cycle) and runs it ' +
      'through the gateway in parallel layers. An argument "$task_1" is the text of task_1\'s result; ' +
      '"$task_1.field" reads a field of its structured content (or of its text parsed as JSON); "$$" escapes a ' +
      'literal "$". A failed task fails the tasks that depend on it, not its siblings. Every run is recorded, so ' +
      'the tool graph learns its dependencies.',
    input: ExecuteDagInput,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    run: (ctx, a) => executeDag(ctx, a),
  }),
  define({
    name: 'suggest_next',
    title: 'Suggest the next tool',
    description:
      'The tools that usually come after (or depend on) the given tool, ranked by edge confidence, each with ' +
      'why: the edge type, its source (observed, inferred, template), its count and decay.',
    input: z.strictObject({ tool: text('toolName').describe('a tool id from the catalogue'), limit: Limit(50, 5) }),
    annotations: readOnly,
    run: async ({ credence, onShown }, a) => {
      const suggestions = await credence.suggestNext(a.tool, a.limit === undefined ? {} : { limit: a.limit });
      onShown?.({ kind: 'next', at: credence.now(), after: a.tool, items: shownItems(suggestions) });
      return jsonResult({ tool: a.tool, suggestions });
    },
  }),
  define({
    name: 'recall',
    title: 'Recall memories',
    description:
      'Finds memories, notes, decisions, instincts, skills and past runs relevant to a query, each labelled ' +
      'high, medium or low confidence with the parts of its score. Returns them as JSON and as a ready ' +
      '<memory-context> block. Nothing relevant gives an empty list rather than junk.',
    input: z.strictObject({ query: text('query').describe('what to remember, in words'), limit: Limit(50, 5) }),
    annotations: readOnly,
    run: async ({ credence }, a) => {
      const results = await credence.recall(a.query, a.limit === undefined ? {} : { limit: a.limit });
      const context =
        results.length === 0
          ? ''
          : // The agent's context leaves a superseded memory out, but for a question about the past (its answer);
            // the JSON results keep it, marked (issue 23).
            formatMemoryContext(chooseContext(results, a.query, credence.now()).map((c) => c.line));
      return jsonResult({ query: a.query, results, context });
    },
  }),
  define({
    name: 'observe',
    title: 'Record an observation',
    description:
      'Records one learning observation (a pattern, a correction by the user, a preference, an error or a ' +
      'success); evolve later groups recurring ones into instincts and skills. Secrets are scrubbed before ' +
      'anything is stored; the same observation twice is stored once. What an agent observes counts as evidence ' +
      "of a pattern but never becomes a rule's words: rules are worded from the user's own corrections.",
    input: z.strictObject({
      type: z.enum(OBSERVATION_TYPES),
      observation: text('observation').describe('what was observed, in one sentence'),
      confidence: z
        .number()
        .optional()
        .describe('how sure, in [0, 1] (default by type and evidence: 0.3, 0.4 with evidence, +0.2 a correction)'),
      context: z
        .strictObject({
          task: text('intent').optional(),
          file: text('evidence').optional(),
          phase: z.enum(OBSERVATION_PHASES).optional(),
        })
        .optional(),
      evidence: z.array(text('evidence')).optional(),
      tags: z.array(text('tag')).optional(),
      timestamp: text('id').optional().describe('ISO 8601; default now'),
    }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    run: async ({ credence }, a) => {
      // An agent is not the user: what it observes may inform a pattern, never word a rule (core/learning/rule-trust).
      const report = await credence.observeNow({ ...a, tags: withSource(a.tags ?? [], 'agent') });
      return jsonResult(report);
    },
  }),
  define({
    name: 'record_execution',
    title: 'Record an execution',
    description:
      'Records one finished run of tools (its intent and its calls in order, each with a status and the earlier ' +
      'calls whose output it consumed) so the tool graph learns sequence, dependency, contains and alternative ' +
      'edges. Unknown tools join the catalogue.',
    input: z.strictObject({
      id: text('id')
        .optional()
        .describe('your own id for this run: the same id again records nothing new, so a retry is safe'),
      intent: text('intent').describe('what the run was for'),
      calls: z.array(
        z.strictObject({
          tool: text('toolName'),
          status: z.enum(CALL_STATUSES),
          retries: z.number().int().optional(),
          durationMs: z.number().optional(),
          consumes: z
            .array(z.number().int())
            .optional()
            .describe('indexes of earlier calls whose output this call used'),
          parent: z.number().int().optional().describe('index of the call this one ran inside'),
          dependsOn: z
            .array(z.number().int())
            .optional()
            .describe(
              'indexes of earlier calls this one waited for: the learned workflow links it to them instead of to ' +
                'the call before it ([]: to none)',
            ),
          at: z.union([text('id'), z.number()]).optional(),
          input: text('callText')
            .optional()
            .describe(
              'what the call was given (its arguments as text): a failed call then another tool on the same input ' +
                'teaches an alternative edge',
            ),
          output: text('callText').optional().describe('what the call returned, as text'),
        }),
      ),
      startedAt: z.union([text('id'), z.number()]).optional(),
      summary: text('summary').optional(),
      confidence: z.number().optional(),
    }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    run: async ({ credence }, a) => {
      const recorded = await credence.recordExecutions([a], { validate: true });
      const execution = recorded.executions[0];
      return jsonResult({
        executionId: execution?.id,
        calls: execution?.calls ?? 0,
        ...(execution?.alreadyRecorded === true ? { alreadyRecorded: true } : {}),
        newTools: recorded.newTools,
        edges: recorded.edges,
      });
    },
  }),
  define({
    name: 'evolve',
    title: 'Evolve instincts and skills',
    description:
      'Groups recent observations into patterns and turns them into instincts (confidence ≥ 0.5) and skills (≥ ' +
      '0.7), writing their files into the project; reports what changed and what was ignored and why. Use ' +
      'dry_run to see without writing.',
    input: z.strictObject({
      dry_run: z.boolean().optional(),
      since: text('id').optional().describe('how far back: 7d (default), 12h, 2w or an ISO date'),
      min_confidence: z.number().optional().describe('patterns below this are ignored (default 0.5)'),
    }),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    run: async ({ credence }, a) => {
      if (a.min_confidence !== undefined && (a.min_confidence < 0 || a.min_confidence > 1)) {
        return jsonResult(
          { error: `min_confidence must be in [0, 1], got ${a.min_confidence}`, code: 'INVALID_INPUT' },
          true,
        );
      }
      const now = credence.now();
      const report = await credence.evolve({
        ...(a.dry_run === undefined ? {} : { dryRun: a.dry_run }),
        ...(a.since === undefined ? {} : { sinceMs: now - parseSince(a.since, now, 'since') }),
        ...(a.min_confidence === undefined ? {} : { minConfidence: a.min_confidence }),
      });
      return jsonResult({ ...report });
    },
  }),
  define({
    name: 'feedback',
    title: 'Give feedback',
    description:
      'A verdict on something Credence showed (the shownId of a search, suggestion or recall result) or on an ' +
      'instinct or skill: accepted or rejected count towards suggestion precision; on instincts and skills ' +
      'accepted is +0.3, validated +0.2, rejected and contradicts −0.3. Every verdict is also recorded as the ' +
      "claim's outcome (succeeded / failed: a shown result was used and how it went; contradicted = contradicts).",
    input: z.strictObject({
      id: text('id').describe('a shownId (sh-…), an instinct id or a skill id'),
      verdict: z.enum(VERDICTS),
      event_id: text('id').optional().describe('an id for this event: the same event is applied once'),
      note: text('note').optional(),
    }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    run: async ({ credence }, a) => {
      const result = await credence.feedback(a.id, a.verdict, {
        ...(a.event_id === undefined ? {} : { eventId: a.event_id }),
        ...(a.note === undefined ? {} : { note: a.note }),
      });
      return jsonResult({ ...result });
    },
  }),
  define({
    name: 'forget',
    title: 'Forget',
    description:
      'Deletes an observation, instinct, skill or memory by id, and what was derived only from it (files included); ' +
      'an instinct or skill with the observations it was learned from, so that evolve does not learn it again; ' +
      "a run or a Claude Code session id: its runs, the hooks' state and its events still in the hooks' spool; " +
      'a run goes with what it taught (edge counts, its learned workflow); a learned workflow id (wf-…): its runs.',
    input: z.strictObject({ id: text('id') }),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    run: async ({ credence, hookFiles }, a) =>
      jsonResult({ ...(await credence.forget(a.id, hookFiles === undefined ? {} : { hookFiles })) }),
  }),
  define({
    name: 'list_workflows',
    title: 'List learned workflows',
    description:
      'The workflows Credence learned from recorded runs with an intent: runs of the same shape merged, most ' +
      'recently used first, each with its tools, dependency edges, latest intents, runs, success rate and its ' +
      'confidence now (the parts: estimate, decay, idle days).',
    input: z.strictObject({ limit: Limit(100, 'all') }),
    annotations: readOnly,
    run: async ({ credence }, a) =>
      jsonResult({ workflows: await credence.workflows(a.limit === undefined ? {} : { limit: a.limit }) }),
  }),
];

/** The JSON Schema a tool publishes for its input. */
export function inputJsonSchema(tool: MetaTool): { type: 'object'; [key: string]: unknown } {
  const schema = z.toJSONSchema(tool.input, { io: 'input' }) as Record<string, unknown>;
  delete schema.$schema;
  return { ...schema, type: 'object' };
}
