/**
 * @module store/shared
 * What every backend does the same way at its boundary: scrub secrets from every text field
 * before anything is stored or indexed (SPEC §10), fingerprint observations so a re-import
 * adds nothing twice, and derive what a write implies (a tool's searchable words, call counters,
 * an execution's end). Every text reaching a backend is NUL-free (core/text/text-safe): PostgreSQL
 * cannot hold U+0000, so both stores keep U+FFFD in its place.
 */
import { CredenceError, isCredenceError } from '../core/errors.js';
import { mayContainSecret, scrubValue } from '../core/security/scrub.js';
import { storableText } from '../core/text/text-safe.js';
import { splitWords } from '../core/text/words.js';
import type { ExecutionEdgeEvent } from '../core/graph/execution-edges.js';
import {
  WORKFLOW_INTENTS_KEPT,
  type EdgeUnlearn,
  type ExecutionRecord,
  type ObservationRecord,
  type Store,
  type WorkflowMerge,
  type WorkflowOf,
  type WorkflowRecord,
} from './types.js';

/**
 * `record` with every string scrubbed of secrets: a scrubbed deep copy, or the record itself when
 * nothing in it could be a secret (the common case, and the fast one). The input is never touched.
 */
export function scrubRecord<T>(record: T): T {
  return mayContainSecret(record) ? scrubValue(record) : record;
}

type AnyFunction = (...args: unknown[]) => unknown;

/**
 * `store` with every argument of every method made NUL-free first (core/text/text-safe), so that the
 * two backends see the same text: records, and also scopes, ids, session names, search text and
 * lookup keys (a key with a NUL finds the record stored under it on both stores; PostgreSQL would
 * otherwise refuse the statement). A callback argument (appendCalls' `build`, `learn`, `fold`)
 * has what it returns made NUL-free too. Vectors and other non-plain objects pass as they are.
 * One walk per call, which allocates nothing when there is no NUL.
 */
export function nulSafeStore<S extends Store>(store: S): S {
  const safeArg = (arg: unknown): unknown =>
    typeof arg === 'function' ? (...inner: unknown[]) => storableText((arg as AnyFunction)(...inner)) : arg;
  return aroundMethods(store, (method, target, args) =>
    method.apply(target, storableText(args.some((a) => typeof a === 'function') ? args.map(safeArg) : args)),
  );
}

/** The stores closed through a {@link heldStore} that closes them. */
const closedStores = new WeakSet<object>();

/** What a method of a closed store (or of a holder that let it go) rejects with: CredenceError CLOSED. */
export function storeClosedError(location: string, cause?: unknown): CredenceError {
  return new CredenceError('CLOSED', `the store ${location} was closed (close()): open Credence again to use it`, {
    ...(cause === undefined ? {} : { cause }),
    details: { location },
  });
}

/**
 * `store` as one holder (an engine) uses it: once the holder's `close` is called, or the store was closed through
 * another holder, every method rejects with CredenceError CLOSED, and so does a call in flight that fails once it is
 * closed (not the driver's error). `close` closes the store itself only when `closes` (an engine for another scope
 * shares its opener's store and leaves it open); closing twice is harmless.
 */
export function heldStore<S extends Store>(store: S, closes: boolean): S {
  let released = false;
  const isClosed = (): boolean => released || closedStores.has(store);
  const closedError = (cause?: unknown): CredenceError => storeClosedError(store.location, cause);
  return aroundMethods(store, (method, target, args) => {
    if (method === target.close) {
      if (isClosed()) return Promise.resolve();
      released = true;
      if (!closes) return Promise.resolve();
      closedStores.add(store);
      return method.apply(target, args);
    }
    if (isClosed()) {
      if (method !== target.exportRows) return Promise.reject(closedError());
      return (async function* () {
        yield* [];
        throw closedError();
      })();
    }
    const mapped = (error: unknown): never => {
      throw isClosed() && !isCredenceError(error) ? closedError(error) : error;
    };
    try {
      return failuresMapped(method.apply(target, args), mapped);
    } catch (error) {
      return mapped(error);
    }
  });
}

/**
 * A method's `result` with its failures thrown as `map` throws them: a Promise's rejection, and an async iterable's
 * (exportRows) each time it is read, so that a failure while a dump is being read is mapped as a call's is.
 */
export function failuresMapped(result: unknown, map: (error: unknown) => never): unknown {
  if (result instanceof Promise) return result.catch(map);
  if (result === null || typeof result !== 'object' || !(Symbol.asyncIterator in result)) return result;
  const iterable = result as AsyncIterable<unknown>;
  return (async function* () {
    try {
      yield* iterable;
    } catch (error) {
      map(error);
    }
  })();
}

/**
 * `object` with each of its methods called through `around` (given the method, the object and the arguments), each
 * wrapper made once per method; other properties as they are.
 */
export function aroundMethods<S extends object>(
  object: S,
  around: (method: AnyFunction, target: S, args: unknown[]) => unknown,
): S {
  const wrapped = new WeakMap<AnyFunction, AnyFunction>();
  return new Proxy(object, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      const method = value as AnyFunction;
      let safe = wrapped.get(method);
      if (safe === undefined) {
        safe = (...args: unknown[]) => around(method, target, args);
        wrapped.set(method, safe);
      }
      return safe;
    },
  });
}

/**
 * The content fingerprint of an observation: everything but its id, so the same line imported
 * twice (with or without an id) is recognised.
 */
let nativeHash: typeof import('node:crypto').hash | undefined;

export function observationFingerprint(observation: Omit<ObservationRecord, 'id'>): Buffer {
  const canonical = JSON.stringify([
    observation.timestamp,
    observation.type,
    observation.context.task ?? null,
    observation.context.file ?? null,
    observation.context.phase ?? null,
    observation.observation,
    observation.evidence,
    observation.confidence,
    observation.tags,
  ]);
  // 128 bits of SHA-256: collisions are out of reach, and the unique index stays small.
  // node:crypto on first use only: a hook that never stores an observation never loads it.
  nativeHash ??= process.getBuiltinModule('node:crypto').hash;
  return nativeHash('sha256', canonical, 'buffer').subarray(0, 16);
}

/** Throws a clear error for a record that would break an invariant of the store. */
export function requireFinite(value: number, what: string): number {
  if (!Number.isFinite(value)) throw new TypeError(`${what} must be a finite number, got ${String(value)}`);
  return value;
}

/**
 * The searchable words of a tool: its id split into words (`SkyScrapperSearchAirport` → sky scrapper search airport).
 */
export const toolWords = (id: string): string => splitWords(id).join(' ');

/** How many calls each tool got, in the order the calls first name the tools. */
export function callsPerTool(calls: Iterable<{ tool: string }>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const call of calls) counts.set(call.tool, (counts.get(call.tool) ?? 0) + 1);
  return counts;
}

/**
 * When an execution ends once `calls` are added to it: the latest call end (its time plus its duration), at least
 * `from`.
 */
export function endedAt(calls: readonly { at?: number; durationMs?: number }[], from: number): number {
  return calls.reduce(
    (latest, call) => (call.at === undefined ? latest : Math.max(latest, call.at + (call.durationMs ?? 0))),
    from,
  );
}

/**
 * The latest distinct intents of a workflow after a run with `intent` at `at`, newest first, each with when it last
 * led to it: the intent takes its place by time among them (before those no later than it), whatever the order runs
 * are merged in, so that merging runs one by one keeps what a rebuild in time order keeps (walk 19). An intent
 * kept without its time (a row written before times were kept) counts as of the workflow's last use. Pure.
 */
function latestIntents(
  current: WorkflowRecord | undefined,
  intent: string | undefined,
  at: number,
): { text: string; at: number }[] {
  const kept = (current?.intents ?? []).map((text, k) => ({
    text,
    at: current?.intentsAt[k] ?? current?.lastSeen ?? at,
  }));
  if (intent === undefined) return kept;
  const latest = Math.max(at, kept.find((i) => i.text === intent)?.at ?? at);
  const others = kept.filter((i) => i.text !== intent);
  const place = others.findIndex((i) => i.at <= latest);
  const entry = { text: intent, at: latest };
  return place === -1 ? [...others, entry] : [...others.slice(0, place), entry, ...others.slice(place)];
}

/**
 * A learned workflow after one merge (WorkflowMerge): runs and successes added (successes kept within
 * [0, runs]), first and last use widened, the merge's intent placed by time among the latest distinct intents
 * (latestIntents). Undefined when no run is left: the row goes. Pure.
 */
export function mergeWorkflow(current: WorkflowRecord | undefined, merge: WorkflowMerge): WorkflowRecord | undefined {
  const runs = (current?.runs ?? 0) + merge.runs;
  if (runs <= 0) return undefined;
  const successes = Math.min(runs, Math.max(0, (current?.successes ?? 0) + merge.successes));
  const intent = merge.intent?.trim() === '' ? undefined : merge.intent;
  const intents = latestIntents(current, intent, merge.at).slice(0, WORKFLOW_INTENTS_KEPT);
  return {
    id: merge.id,
    key: merge.key,
    tools: current?.tools ?? [...merge.tools],
    edges: current?.edges ?? merge.edges.map(([from, to]) => [from, to] as [string, string]),
    intents: intents.map((i) => i.text),
    intentsAt: intents.map((i) => i.at),
    runs,
    successes,
    firstSeen: current === undefined ? merge.at : Math.min(current.firstSeen, merge.at),
    lastSeen: current === undefined ? merge.at : Math.max(current.lastSeen, merge.at),
  };
}

/**
 * Folds merges over the workflows they name (`current` by id, read by the caller); the result by id,
 * undefined = delete.
 */
export function foldWorkflows(
  current: ReadonlyMap<string, WorkflowRecord>,
  merges: readonly WorkflowMerge[],
): Map<string, WorkflowRecord | undefined> {
  const out = new Map<string, WorkflowRecord | undefined>();
  for (const m of merges) out.set(m.id, mergeWorkflow(out.has(m.id) ? out.get(m.id) : current.get(m.id), m));
  return out;
}

/** The workflow merges of recorded executions, in their order. */
export function workflowsOf(items: readonly { execution: ExecutionRecord }[], workflow: WorkflowOf): WorkflowMerge[] {
  const merges: WorkflowMerge[] = [];
  for (const { execution } of items) {
    const m = workflow(execution);
    if (m !== undefined) merges.push(m);
  }
  return merges;
}

/** An edge event's key: type, from and to. */
const eventKey = (e: ExecutionEdgeEvent): string => `${e.type}\u0000${e.from}\u0000${e.to}`;

/** The edge events deleted executions taught (`unlearn.events`), by edge (type, from, to), each with its key. */
export function unlearnedEdges(
  deleted: readonly ExecutionRecord[],
  unlearn: EdgeUnlearn,
): Map<string, ExecutionEdgeEvent[]> {
  const byEdge = new Map<string, ExecutionEdgeEvent[]>();
  for (const execution of deleted)
    for (const event of unlearn.events(execution)) {
      const key = eventKey(event);
      byEdge.set(key, [...(byEdge.get(key) ?? []), event]);
    }
  return byEdge;
}

/** The events of these edges (keys of {@link unlearnedEdges}) in the executions left, by edge. */
export function eventsLeft(
  remaining: readonly ExecutionRecord[],
  keys: ReadonlySet<string>,
  unlearn: EdgeUnlearn,
): Map<string, ExecutionEdgeEvent[]> {
  const byEdge = new Map<string, ExecutionEdgeEvent[]>();
  for (const execution of remaining)
    for (const event of unlearn.events(execution)) {
      const key = eventKey(event);
      if (keys.has(key)) byEdge.set(key, [...(byEdge.get(key) ?? []), event]);
    }
  return byEdge;
}

/**
 * The learned workflows deleted executions had merged into (`ids`), and what the executions left make of them:
 * their merges into those workflows, oldest first (`remaining()` newest first, as a store lists them; read only
 * when a deleted run had a workflow), as a rebuild
 * from the executions makes them. A workflow no run is left in gets no merge: it goes.
 */
export function workflowsAfterDelete(
  deleted: readonly ExecutionRecord[],
  remaining: () => readonly ExecutionRecord[],
  workflow: WorkflowOf,
): { ids: string[]; merges: WorkflowMerge[] } {
  const ids = new Set(
    workflowsOf(
      deleted.map((execution) => ({ execution })),
      workflow,
    ).map((m) => m.id),
  );
  if (ids.size === 0) return { ids: [], merges: [] };
  const merges = workflowsOf(
    [...remaining()].reverse().map((execution) => ({ execution })),
    workflow,
  ).filter((m) => ids.has(m.id));
  return { ids: [...ids].sort(), merges };
}
