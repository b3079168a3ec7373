/**
 * @module engine/tool-graph/tool-graph
 * The tool-graph loop of the engine (issue 3, seed 000): executions in, confident edges out.
 * Validation happens here, at the library boundary; the rules live in core/ and the rows in the
 * store. Every edge that comes back carries its confidence computed at read time, with its parts.
 */
import { createHash } from 'node:crypto';
import { CredenceError, isDuplicateKey } from '../../core/errors.js';
import { compareCodePoints } from '../../core/rank-order.js';
import { scrubText } from '../../core/security/scrub.js';
import { aheadOfClockReason, parseIsoInstant } from '../../core/time.js';
import { isBlankText } from '../../core/text/plain-text.js';
import { edgeConfidence, rankSuggestions, EDGE_DEFAULTS, EDGE_READ_OPTIONS } from '../../core/graph/edge-confidence.js';
import { forgetEdgeEvents, isConfirmed, observeEdge, templateEdge } from '../../core/graph/edge-promotion.js';
import { edgeEventsOf, taughtEdgeEvents, type ExecutionEdgeEvent } from '../../core/graph/execution-edges.js';
import { EDGE_TYPES, type CallInput, type EdgeSource, type EdgeType, type ExecutionInput } from '../../core/types.js';
import {
  CallInputSchema,
  ExecutionInputSchema,
  formatIssues,
  ToolInputSchema,
  type ToolInput,
} from '../../schemas/index.js';
import type {
  CallRecord,
  EdgeRecord,
  EdgeUnlearn,
  ExecutionBatchItem,
  ExecutionRecord,
  ExecutionStore,
  RevisionStore,
  ToolGraphStore,
  WorkflowStore,
} from '../../store/types.js';
import { ensureWorkflows, workflowOf } from '../workflows/workflows.js';
import { AppendTracker } from './append-state.js';
import { PLAIN_ISSUES } from '../../schemas/format.js';

export interface GraphContext {
  store: ToolGraphStore & ExecutionStore & WorkflowStore & Pick<RevisionStore, 'getExecutionsByIds'>;
  scope: string;
  now: () => number;
  newId: () => string;
  /** What messages call the clock `now` reads (core/time MACHINE_CLOCK when not given, or the --now one). */
  clockName?: string;
}

/** An edge as users see it: the stored counters and its confidence now, explained. */
export type EdgeView = Omit<EdgeRecord, 'firstSeen' | 'lastSeen'> & {
  confidence: number;
  /**
   * What made the confidence. `confirmed` is false for an edge known only from failed calls: it
   * keeps its failure count (SPEC §3) but has confidence 0 until a run confirms it.
   */
  parts: { typeWeight: number; sourceModifier: number; decay: number; idleDays: number; confirmed: boolean };
  /** ISO 8601. */
  firstSeen: string | null;
  lastSeen: string | null;
};

export interface RecordResult {
  /**
   * Each execution given, in order: its stored id, scope and calls; `alreadyRecorded` when it carried an `id` that its
   * scope holds already (or an earlier execution of the same batch carried): nothing of it was recorded again.
   */
  executions: { id: string; scope: string; calls: number; alreadyRecorded?: true }[];
  newTools: string[];
  /** How many edges the executions updated. */
  edgesUpdated: number;
  /** Their state now, unless the caller asked for counts only (`edges: false`). */
  edges: EdgeView[];
}

export interface NextSuggestion {
  tool: string;
  confidence: number;
  weak: boolean;
  /** The strongest edge to this tool, which gave it its rank. */
  type: EdgeType;
  source: EdgeSource;
  count: number;
  why: string;
  /** Every confirmed edge from the tool to this one. */
  edges: EdgeView[];
}

/**
 * An id a caller names (a tool, a memory) as the store keeps it: every id is scrubbed of secrets
 * when it is stored, so a lookup scrubs its key the same way (idempotent: a stored id is unchanged)
 * and finds the stored record; messages then echo the scrubbed id, never the secret.
 */
export const storedId = (id: string): string => scrubText(id).text;

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

export function viewEdge(edge: EdgeRecord, now: number): EdgeView {
  const c = edgeConfidence({ type: edge.type, source: edge.source, lastSeen: edge.lastSeen, now }, EDGE_READ_OPTIONS);
  const confirmed = isConfirmed(edge);
  return {
    from: edge.from,
    to: edge.to,
    type: edge.type,
    source: edge.source,
    count: edge.count,
    successes: edge.successes,
    failures: edge.failures,
    confidence: confirmed ? c.value : 0,
    parts: { ...c.parts, confirmed },
    firstSeen: iso(edge.firstSeen),
    lastSeen: iso(edge.lastSeen),
  };
}

function instant(value: string | number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  return typeof value === 'number' ? value : (parseIsoInstant(value) ?? fallback);
}

/**
 * The stored id of an execution that carried its source's `id`: `run-` and 24 hex digits of the id's SHA-256, the same
 * for every recording of it (so a second one is found), whatever characters or length the source's id has.
 */
export const sourceExecutionId = (id: string | number): string =>
  `run-${createHash('sha256').update(String(id).trim()).digest('hex').slice(0, 24)}`;

/** Checks one execution; throws INVALID_INPUT naming every bad field. */
export function parseExecution(value: unknown): ExecutionInput {
  const parsed = ExecutionInputSchema.safeParse(value, PLAIN_ISSUES);
  if (!parsed.success) throw new CredenceError('INVALID_INPUT', `invalid execution: ${formatIssues(parsed.error)}`);
  return parsed.data;
}

/**
 * Refuses an execution whose `startedAt` or a call's `at` is more than a day after `now` (core/time
 * aheadOfClockReason), INVALID_INPUT naming the field: its edges would keep full confidence, without decay, until
 * that time came. The library and MCP record through here; `credence record` checks its lines against the machine's
 * clock itself (walk 18, item 2).
 */
export function refuseAheadOfNow(execution: ExecutionInput, now: number, clockName?: string): ExecutionInput {
  refuseTimesAhead(execution.startedAt, execution.calls, 0, now, clockName);
  return execution;
}

/**
 * The check of refuseAheadOfNow on a run's `startedAt` and its calls numbered from `firstIndex` (appendCalls names
 * an appended call by its place in the whole execution, as its other checks do).
 */
function refuseTimesAhead(
  startedAt: string | number | undefined,
  calls: readonly CallInput[],
  firstIndex: number,
  now: number,
  clockName: string | undefined,
): void {
  const times: [string, string | number | undefined][] = [
    ['startedAt', startedAt],
    ...calls.map((call, k): [string, string | number | undefined] => [`calls[${firstIndex + k}].at`, call.at]),
  ];
  for (const [field, value] of times) {
    const reason = value === undefined ? undefined : aheadOfClockReason(value, now, undefined, clockName);
    if (reason !== undefined) throw new CredenceError('INVALID_INPUT', `invalid execution: ${field}: ${reason}`);
  }
}

/** Checks one catalogue entry; throws INVALID_INPUT naming every bad field. */
export function parseTool(value: unknown): ToolInput {
  const parsed = ToolInputSchema.safeParse(value, PLAIN_ISSUES);
  if (!parsed.success) throw new CredenceError('INVALID_INPUT', `invalid tool: ${formatIssues(parsed.error)}`);
  return parsed.data;
}

/** The edge update rule of SPEC §3 as a store fold. */
function foldEdge(current: EdgeRecord | undefined, event: ExecutionEdgeEvent): EdgeRecord {
  const state = observeEdge(current, {
    status: event.status,
    at: event.at,
    ...(event.replacesFailure === true ? { replacesFailure: true } : {}),
  });
  return { from: event.from, to: event.to, type: event.type, ...state };
}

/**
 * How forgetting runs takes back what they taught the tool graph (store/types EdgeUnlearn): the edge events a stored
 * run taught when it was recorded (core/graph/execution-edges `taughtEdgeEvents`), taken back from each edge
 * (core/graph/edge-promotion `forgetEdgeEvents`).
 */
export const edgeUnlearn: EdgeUnlearn = {
  events: (execution) =>
    taughtEdgeEvents(
      execution.calls.map((call) => ({ ...call, at: call.at ?? execution.startedAt })),
      execution.learned,
    ),
  unfold: (edge, forgotten, remaining) => {
    const state = forgetEdgeEvents(edge, forgotten, remaining);
    return state === undefined ? undefined : { from: edge.from, to: edge.to, type: edge.type, ...state };
  },
};

/** A checked call as the store keeps it: consumes deduplicated and sorted, `at` in epoch ms (default `at`). */
function toCallRecord(call: CallInput, at: number): CallRecord & { at: number } {
  return {
    tool: call.tool,
    status: call.status,
    retries: call.retries ?? 0,
    ...(call.durationMs === undefined ? {} : { durationMs: call.durationMs }),
    consumes: [...new Set(call.consumes ?? [])].sort((a, b) => a - b),
    ...(call.parent === undefined ? {} : { parent: call.parent }),
    ...(call.dependsOn === undefined ? {} : { dependsOn: [...new Set(call.dependsOn)].sort((a, b) => a - b) }),
    at: instant(call.at, at),
    ...(call.intent === undefined ? {} : { intent: call.intent }),
    ...(call.input === undefined ? {} : { input: call.input }),
    ...(call.output === undefined ? {} : { output: call.output }),
  };
}

/** How executions are recorded. */
export interface RecordOptions {
  /** Check each execution against the schema. @default true */
  validate?: boolean;
  /** Return the updated edges with their confidence. @default true */
  edges?: boolean;
  /**
   * Learn only these edge types. A workflow run's calls follow its layers, not one another, so the
   * gateway learns only its `dependency` edges: adjacency there would invent sequences between
   * independent tasks. @default every type
   */
  learn?: readonly EdgeType[];
}

function toItem(
  ctx: GraphContext,
  input: ExecutionInput,
  learn?: readonly EdgeType[],
): { scope: string; item: ExecutionBatchItem } {
  const startedAt = instant(input.startedAt, ctx.now());
  const calls = input.calls.map((call) => toCallRecord(call, startedAt));
  const endedAt = calls.reduce((latest, c) => Math.max(latest, c.at + (c.durationMs ?? 0)), startedAt);
  const execution: ExecutionRecord = {
    id: input.id === undefined ? ctx.newId() : sourceExecutionId(input.id),
    intent: input.intent,
    startedAt,
    endedAt,
    calls,
    ...(input.summary === undefined ? {} : { summary: input.summary }),
    ...(input.confidence === undefined ? {} : { confidence: input.confidence }),
    ...(input.intentKind === undefined ? {} : { intentKind: input.intentKind }),
    // What the recording teaches when it teaches only some types: forgetting the run takes back these alone.
    ...(learn === undefined ? {} : { learned: EDGE_TYPES.filter((t) => learn.includes(t)) }),
  };
  const events = edgeEventsOf(calls);
  return {
    scope: input.scope ?? ctx.scope,
    item: { execution, events: learn === undefined ? events : events.filter((e) => learn.includes(e.type)) },
  };
}

/**
 * Records executions (already checked, or checked here when `validate`): each in its scope, in one
 * transaction per scope. Unknown tools join the catalogue with an empty description.
 */
export async function recordExecutions(
  ctx: GraphContext,
  inputs: readonly ExecutionInput[],
  options: RecordOptions = {},
): Promise<RecordResult> {
  const byScope = new Map<string, ExecutionBatchItem[]>();
  const executions: RecordResult['executions'] = [];
  /** The items that carried their source's id, with their entry in `executions`. */
  const sourced = new Map<ExecutionBatchItem, RecordResult['executions'][number]>();
  for (const raw of inputs) {
    const input = options.validate === false ? raw : refuseAheadOfNow(parseExecution(raw), ctx.now(), ctx.clockName);
    const { scope, item } = toItem(ctx, input, options.learn);
    const batch = byScope.get(scope);
    if (batch === undefined) byScope.set(scope, [item]);
    else batch.push(item);
    const entry = { id: item.execution.id, scope, calls: item.execution.calls.length };
    executions.push(entry);
    if (input.id !== undefined) sourced.set(item, entry);
  }
  const newTools: string[] = [];
  const edges: EdgeView[] = [];
  let edgesUpdated = 0;
  const now = ctx.now();
  for (const [scope, all] of byScope) {
    const report = await recordFresh(ctx, scope, all, sourced);
    if (report === undefined) continue;
    newTools.push(...report.newTools);
    edgesUpdated += report.edges.length;
    if (options.edges !== false) edges.push(...report.edges.map((e) => viewEdge(e, now)));
  }
  return { executions, newTools, edgesUpdated, edges };
}

/**
 * Records one scope's batch but for the ids already recorded (undefined: nothing left to record). Another writer may
 * record one of its ids between the look and the write (a retry sent while the first call runs): the store refuses the
 * whole transaction for the duplicate key, and the batch is looked at again, at most `RECORD_ATTEMPTS` times.
 */
async function recordFresh(
  ctx: GraphContext,
  scope: string,
  all: readonly ExecutionBatchItem[],
  sourced: ReadonlyMap<ExecutionBatchItem, RecordResult['executions'][number]>,
): Promise<Awaited<ReturnType<GraphContext['store']['recordExecutions']>> | undefined> {
  for (let attempt = 1; ; attempt += 1) {
    const batch = sourced.size === 0 ? all : await notYetRecorded(ctx.store, scope, all, sourced);
    if (batch.length === 0) return undefined;
    // Each run merges into its learned workflow in the same transaction (engine/workflows).
    await ensureWorkflows(ctx.store, scope);
    try {
      return await ctx.store.recordExecutions(scope, batch, foldEdge, { workflow: workflowOf, at: ctx.now() });
    } catch (error) {
      if (sourced.size === 0 || attempt >= RECORD_ATTEMPTS || !isDuplicateKey(error)) throw error;
    }
  }
}
const RECORD_ATTEMPTS = 3;

/**
 * The items of one scope's batch to record: those that carried no id of their source, and those whose id neither the
 * scope holds nor an earlier item of the batch carried; the others' entries are marked `alreadyRecorded`.
 */
async function notYetRecorded(
  store: GraphContext['store'],
  scope: string,
  batch: readonly ExecutionBatchItem[],
  sourced: ReadonlyMap<ExecutionBatchItem, RecordResult['executions'][number]>,
): Promise<ExecutionBatchItem[]> {
  const ids = [...new Set(batch.filter((i) => sourced.has(i)).map((i) => i.execution.id))];
  if (ids.length === 0) return [...batch];
  const held = new Set((await store.getExecutionsByIds(scope, ids, { calls: false })).map((e) => e.id));
  return batch.filter((item) => {
    const entry = sourced.get(item);
    if (entry === undefined) return true;
    if (!held.has(item.execution.id)) {
      held.add(item.execution.id);
      return true;
    }
    entry.alreadyRecorded = true;
    return false;
  });
}

/** The execution calls are appended to: created from it on the first append, found by `id` after. */
export interface AppendHead {
  id: string;
  /** The intent of the session; set when the execution is created, not changed by later appends. */
  intent: string;
  /** ISO 8601 or epoch ms; default: the clock. Used only when the execution is created. */
  startedAt?: string | number;
}

/** The calls to append, or a function of the calls already stored that returns them. */
export type AppendCalls = CallInput[] | ((before: readonly CallRecord[]) => CallInput[]);

export interface AppendResult {
  executionId: string;
  /** Whether this append created the execution. */
  created: boolean;
  /** The index of the first appended call in the execution. */
  firstIndex: number;
  /** How many calls the execution has now, the appended ones included. */
  calls: number;
  newTools: string[];
  /** How many edges the appended calls updated. */
  edgesUpdated: number;
  /** Their state now. */
  edges: EdgeView[];
}

/**
 * Checks the head of an append; throws INVALID_INPUT naming the bad field. A blank intent (`intent` undefined) is
 * checked by `appendCalls`: it matters only when the append would create the run.
 */
function parseHead(head: AppendHead): { id: string; intent?: string; startedAt: string | number | undefined } {
  if (typeof head?.id !== 'string' || head.id.trim() === '') {
    throw new CredenceError(
      'INVALID_INPUT',
      `invalid execution: id must be a non-empty string, got ${JSON.stringify(head?.id)}`,
    );
  }
  const blank = typeof head.intent === 'string' && isBlankText(head.intent);
  const parsed = ExecutionInputSchema.safeParse(
    {
      intent: blank ? 'checked by appendCalls' : head.intent,
      ...(head.startedAt === undefined ? {} : { startedAt: head.startedAt }),
      calls: [],
    },
    PLAIN_ISSUES,
  );
  if (!parsed.success)
    throw new CredenceError(
      'INVALID_INPUT',
      `invalid execution ${JSON.stringify(head.id)}: ${formatIssues(parsed.error)}`,
    );
  return { id: head.id, ...(blank ? {} : { intent: parsed.data.intent }), startedAt: parsed.data.startedAt };
}

/**
 * Checks calls appended after `firstIndex` calls: each against the call schema, and every `consumes`
 * and `parent` against the whole execution (an earlier call, stored or appended before it).
 */
function parseAppendedCalls(value: unknown, firstIndex: number): CallInput[] {
  if (!Array.isArray(value))
    throw new CredenceError(
      'INVALID_INPUT',
      `calls must be an array of calls, got ${value === null ? 'null' : typeof value}`,
    );
  const problems: string[] = [];
  const checked = value.map((raw: unknown, k) => {
    const i = firstIndex + k;
    const parsed = CallInputSchema.safeParse(raw, PLAIN_ISSUES);
    if (!parsed.success) {
      problems.push(`calls[${i}]: ${formatIssues(parsed.error)}`);
      return undefined;
    }
    for (const j of parsed.data.consumes ?? []) {
      if (j >= i) {
        problems.push(
          i === 0
            ? `calls[0].consumes: call 0 cannot consume call ${j}: the first call has no earlier call to consume`
            : `calls[${i}].consumes: call ${i} cannot consume call ${j}: ` +
                `only earlier calls (0..${i - 1}) can be consumed`,
        );
      }
    }
    for (const j of parsed.data.dependsOn ?? [])
      if (j >= i) problems.push(`calls[${i}].dependsOn: call ${i} cannot depend on call ${j}: only earlier calls can`);
    const parent = parsed.data.parent;
    if (parent !== undefined && parent >= i)
      problems.push(`calls[${i}].parent: call ${i} cannot be inside call ${parent}: a parent comes earlier`);
    return parsed.data;
  });
  if (problems.length > 0)
    throw new CredenceError('INVALID_INPUT', `invalid calls: ${problems.join('; ')}`, { details: { firstIndex } });
  return checked as CallInput[];
}

/**
 * Appends calls to a growing execution (an MCP gateway session, a Claude Code session recorded hook by
 * hook), creating it on the first append, in one store transaction. The graph learns only the edges
 * the new calls add ({@link appendedEdgeEvents}): an edge counts once per execution, however the
 * execution was recorded. Calls are checked like `recordExecution`'s; a `consumes` or `parent` index
 * must name an earlier call of the whole execution. A call without `at` ran now (the clock).
 * With a function, `calls` gets the calls already stored, inside the transaction, so it can point
 * `consumes` at them without racing another writer.
 */
export async function appendCalls(
  ctx: GraphContext,
  head: AppendHead,
  calls: AppendCalls,
  options: { dequeue?: readonly number[] } = {},
): Promise<AppendResult> {
  const checked = parseHead(head);
  // The intent is set when the run is created, not changed by later appends: a blank one is refused only when
  // there is no run to append to (the stored intent is passed on, so a run forgotten meanwhile comes back as it was).
  const held =
    checked.intent === undefined
      ? (await ctx.store.getExecutionsByIds(ctx.scope, [checked.id], { calls: false }))[0]?.intent
      : undefined;
  const intent = checked.intent ?? held;
  if (intent === undefined)
    throw new CredenceError(
      'INVALID_INPUT',
      `invalid execution ${JSON.stringify(checked.id)}: intent: must not be blank: say in words what the run was ` +
        'for (there is no run of that id to append to, and this append would create it)',
    );
  const now = ctx.now();
  // Times more than a day ahead are refused as recordExecutions refuses them (walk 18 item 2, review G item 2): the
  // head's before anything is written, the calls' once they are known (a function's inside the transaction).
  refuseTimesAhead(checked.startedAt, [], 0, now, ctx.clockName);
  const startedAt = instant(checked.startedAt, now);
  await ensureWorkflows(ctx.store, ctx.scope);
  // What the stored calls gave (edge events, workflow shape) is kept between appends: an append costs what its
  // new calls cost, however long the execution (issue 20).
  const tracker = new AppendTracker(ctx.store, ctx.scope, checked.id, startedAt);
  const report = await ctx.store.appendCalls(
    ctx.scope,
    { id: checked.id, intent, startedAt },
    (before) => {
      // A function of the calls gets its own copy: the store's list is lent for the append only.
      const appended = parseAppendedCalls(typeof calls === 'function' ? calls([...before]) : calls, before.length);
      refuseTimesAhead(undefined, appended, before.length, now, ctx.clockName);
      return appended.map((call) => toCallRecord(call, now));
    },
    (before, after) => tracker.events(before, after),
    foldEdge,
    { ...options, workflows: (before, after, execution) => tracker.workflows(before, after, execution), at: now },
  );
  tracker.commit();
  return {
    executionId: report.execution.id,
    created: report.execution.created,
    firstIndex: report.execution.firstIndex,
    calls: report.execution.calls,
    newTools: report.newTools,
    edgesUpdated: report.edges.length,
    edges: report.edges.map((e) => viewEdge(e, now)),
  };
}

/** Adds or updates catalogue entries; re-adding updates, never duplicates. */
export async function addTools(
  ctx: GraphContext,
  tools: readonly unknown[],
): Promise<{ inserted: number; updated: number }> {
  const checked = tools.map(parseTool).map((t) => ({
    id: t.id,
    ...(t.description === undefined ? {} : { description: t.description }),
    ...(t.inputSchema === undefined ? {} : { inputSchema: t.inputSchema }),
    ...(t.origin === undefined ? {} : { origin: t.origin }),
    ...(t.annotations === undefined ? {} : { annotations: t.annotations }),
  }));
  return ctx.store.upsertTools(ctx.scope, checked, { at: ctx.now() });
}

/**
 * Declares a template edge by hand (source modifier 0.5). An edge that already exists is left as it
 * is (a declaration never demotes what was learned). Unknown tools join the catalogue.
 */
export async function declareEdge(
  ctx: GraphContext,
  input: { from: string; to: string; type: string },
): Promise<{ edge: EdgeView; created: boolean; newTools: string[] }> {
  const type = input.type as EdgeType;
  if (!(EDGE_TYPES as readonly string[]).includes(input.type)) {
    throw new CredenceError(
      'INVALID_INPUT',
      `unknown edge type ${JSON.stringify(input.type)}: use one of ${EDGE_TYPES.join(', ')}`,
    );
  }
  for (const [name, id] of [
    ['from', input.from],
    ['to', input.to],
  ] as const) {
    if (id.trim() === '') throw new CredenceError('INVALID_INPUT', `edge ${name} must be a non-empty tool id`);
  }
  // The ids as the store keeps them (scrubbed of secrets): what is looked up, stored and echoed is the same id, never
  // the secret.
  const from = storedId(input.from);
  const to = storedId(input.to);
  if (from === to) throw new CredenceError('INVALID_INPUT', `an edge joins two different tools, got ${from} → ${to}`);
  const newTools: string[] = [];
  for (const id of [from, to]) {
    if ((await ctx.store.getTool(ctx.scope, id)) === undefined) {
      await ctx.store.upsertTools(ctx.scope, [{ id, description: '' }], { at: ctx.now() });
      newTools.push(id);
    }
  }
  const key = { from, to, type };
  const edge: EdgeRecord = { ...key, ...templateEdge(), declared: true };
  // Only where no edge is: one learned meanwhile by another writer is never replaced by a template.
  if (await ctx.store.insertEdge(ctx.scope, edge)) return { edge: viewEdge(edge, ctx.now()), created: true, newTools };
  const existing = (await ctx.store.getEdge(ctx.scope, key)) as EdgeRecord;
  return { edge: viewEdge(existing, ctx.now()), created: false, newTools };
}

/**
 * Edges with their confidence now, filtered by ends (their {@link storedId}) and a minimum confidence, strongest first.
 */
export async function listEdges(
  ctx: GraphContext,
  filter: { from?: string; to?: string; minConfidence?: number } = {},
): Promise<EdgeView[]> {
  const now = ctx.now();
  const rows = await ctx.store.listEdges(ctx.scope, {
    ...(filter.from === undefined ? {} : { from: storedId(filter.from) }),
    ...(filter.to === undefined ? {} : { to: storedId(filter.to) }),
  });
  return rows
    .map((e) => viewEdge(e, now))
    .filter((e) => filter.minConfidence === undefined || e.confidence >= filter.minConfidence - 1e-9)
    .sort(
      (a, b) =>
        b.confidence - a.confidence ||
        compareCodePoints(a.from, b.from) ||
        compareCodePoints(a.to, b.to) ||
        compareCodePoints(a.type, b.type),
    );
}

/**
 * Next-tool suggestions after the tool `named` (its {@link storedId}; SPEC §3): successors by their strongest
 * confirmed edge, never the tool itself (a self-loop is left out, as in the graph snapshot), only edges ≥ 0.3,
 * weak ones (< 0.5) last, each with why. Edges known only from failures are not suggestions. A tool the scope knows
 * nothing of (not in the catalogue, on no edge) is an error, not an empty list: a misspelt id would otherwise look
 * like a tool nothing follows.
 * @throws CredenceError UNKNOWN_TOOL naming the tool and the scope.
 */
export async function suggestNext(
  ctx: GraphContext,
  named: string,
  options: { limit?: number } = {},
): Promise<NextSuggestion[]> {
  const now = ctx.now();
  const tool = storedId(named);
  const outgoing = await ctx.store.listEdges(ctx.scope, { from: tool });
  if (
    outgoing.length === 0 &&
    (await ctx.store.getTool(ctx.scope, tool)) === undefined &&
    (await ctx.store.listEdges(ctx.scope, { to: tool })).length === 0
  ) {
    throw new CredenceError(
      'UNKNOWN_TOOL',
      `unknown tool ${JSON.stringify(tool)}: it is not in the catalogue of scope ${ctx.scope} ` +
        '(search_tools or `credence tools search` give tool ids)',
      {
        details: { tool, scope: ctx.scope },
      },
    );
  }
  const byTarget = new Map<string, EdgeView[]>();
  for (const edge of outgoing) {
    // A self-loop (a polling call consuming the one before it) is no next tool: the tool is the one just used.
    if (!isConfirmed(edge) || edge.to === tool) continue;
    const view = viewEdge(edge, now);
    byTarget.set(edge.to, [...(byTarget.get(edge.to) ?? []), view]);
  }
  const candidates: NextSuggestion[] = [...byTarget.entries()].map(([to, edges]) => {
    edges.sort((a, b) => b.confidence - a.confidence || compareCodePoints(a.type, b.type));
    const best = edges[0] as EdgeView;
    const runs = `confirmed in ${best.count} run${best.count === 1 ? '' : 's'}`;
    return {
      tool: to,
      confidence: best.confidence,
      weak: best.confidence < EDGE_DEFAULTS.weakSuggestion,
      type: best.type,
      source: best.source,
      count: best.count,
      why:
        best.source === 'template'
          ? `${best.type} edge declared by hand, not yet confirmed by a run`
          : `${best.type} edge, ${best.source}, ${runs}`,
      edges,
    };
  });
  const ranked = rankSuggestions(candidates);
  return options.limit === undefined ? ranked : ranked.slice(0, options.limit);
}
