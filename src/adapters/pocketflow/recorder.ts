/**
 * @module adapters/pocketflow/recorder
 * What one instrumented PocketFlow run records (SPEC §7, seed 002): an entry per node execution, in start
 * order, with start, duration, outcome, retries, enclosing flow and the earlier writes it read. The run
 * and current node travel in an `AsyncLocalStorage` frame (nested and concurrent flows told apart).
 * Outcome: `failure` when `_run` throws, `partial` when a result came from `execFallback`, else `success`.
 * Retries: failed `exec` attempts counted by wrapping `exec` and `execFallback` (throws − fallbacks),
 * summed over a batch node's items; else `currentRetry`. Downstream use: a Proxy over a plain-object shared
 * store remembers each top-level key's last writer, which a later read consumes (a `Map` runs untracked).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { RunNodeInput } from '../../engine/runs.js';
import type { CallStatus } from '../../core/types.js';
import type { NodeDescription } from './nodes.js';

interface Frame {
  readonly recorder: RunRecorder;
  /** Index of the node entry executing in this frame; undefined at the top of the run. */
  readonly current: number | undefined;
}

const frames = new AsyncLocalStorage<Frame>();
/**
 * Instrumented runs in progress in this process. When the last one closes the storage is disabled,
 * so Node's async-context hooks (a small cost on every promise) are off again between runs.
 */
let activeRuns = 0;

interface Attempts {
  calls: number;
  throws: number;
  fallbacks: number;
  fallbackValues: number;
}

/** Attempt counters of the node executions in progress, keyed by the executing instance (PocketFlow's clone). */
const attempts = new WeakMap<object, Attempts>();

interface Entry {
  readonly description: NodeDescription;
  readonly startedAt: number;
  readonly parent: number | undefined;
  readonly consumes: Set<number>;
  ended: boolean;
  status: CallStatus;
  retries: number;
  durationMs: number;
  error: string | undefined;
}

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  ((typeof value === 'object' && value !== null) || typeof value === 'function') &&
  typeof (value as { then?: unknown }).then === 'function';

/** What an error says, for a node's `error` and a run's (a thrown value that is no Error, as text). */
export const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

function isPlainObject(value: unknown): value is Record<PropertyKey, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

function retriesOf(counts: Attempts, instance: object): number {
  if (counts.calls > 0) return Math.max(0, counts.throws - counts.fallbacks);
  const current = (instance as { currentRetry?: unknown }).currentRetry;
  return typeof current === 'number' && Number.isInteger(current) && current > 0 ? current : 0;
}

/** Message recorded for a node still running when its flow had already failed (a sibling branch threw). */
export const UNFINISHED_ERROR = 'unfinished: the flow ended before this node did';

/** One instrumented run in progress. */
export class RunRecorder {
  readonly #entries: Entry[] = [];
  readonly #writers = new Map<PropertyKey, number>();
  readonly #describe: (node: object) => NodeDescription;
  readonly #now: () => number;
  #closed = false;
  #started = false;

  constructor(describe: (node: object) => NodeDescription, now: () => number) {
    this.#describe = describe;
    this.#now = now;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Runs `fn` (the flow) as this run's top frame. */
  runTop<T>(fn: () => T): T {
    if (!this.#started && !this.#closed) {
      this.#started = true;
      activeRuns += 1;
    }
    return frames.run({ recorder: this, current: undefined }, fn);
  }

  /** Records one node execution around `body` (the node's own `_run`). */
  async runNode(node: object, instance: object, parent: number | undefined, body: () => unknown): Promise<unknown> {
    const index = this.#entries.length;
    const entry: Entry = {
      description: this.#describe(node),
      startedAt: this.#now(),
      parent,
      consumes: new Set(),
      ended: false,
      status: 'success',
      retries: 0,
      durationMs: 0,
      error: undefined,
    };
    this.#entries.push(entry);
    const counts: Attempts = { calls: 0, throws: 0, fallbacks: 0, fallbackValues: 0 };
    attempts.set(instance, counts);
    try {
      const result = await frames.run({ recorder: this, current: index }, body);
      entry.status = counts.fallbackValues > 0 ? 'partial' : 'success';
      return result;
    } catch (error) {
      entry.status = 'failure';
      entry.error = messageOf(error);
      throw error;
    } finally {
      if (attempts.get(instance) === counts) attempts.delete(instance);
      entry.retries = retriesOf(counts, instance);
      entry.durationMs = Math.max(0, this.#now() - entry.startedAt);
      entry.ended = true;
    }
  }

  #currentIndex(): number | undefined {
    const frame = frames.getStore();
    return frame?.recorder === this ? frame.current : undefined;
  }

  #read(key: PropertyKey): void {
    if (this.#closed) return;
    const current = this.#currentIndex();
    if (current === undefined) return;
    const writer = this.#writers.get(key);
    if (writer !== undefined && writer < current) this.#entries[current]?.consumes.add(writer);
  }

  #wrote(key: PropertyKey): void {
    if (this.#closed) return;
    const current = this.#currentIndex();
    // A write outside any node (the top flow's own prep/post) is nobody's output.
    if (current === undefined) this.#writers.delete(key);
    else this.#writers.set(key, current);
  }

  #deleted(key: PropertyKey): void {
    if (!this.#closed) this.#writers.delete(key);
  }

  /** The shared store as the flow will see it: a tracking Proxy over a plain object, else itself. */
  track<S>(shared: S): S {
    if (!isPlainObject(shared)) return shared;
    const handler: ProxyHandler<Record<PropertyKey, unknown>> = {
      get: (target, key) => {
        this.#read(key);
        return Reflect.get(target, key);
      },
      has: (target, key) => {
        this.#read(key);
        return Reflect.has(target, key);
      },
      set: (target, key, value) => {
        const done = Reflect.set(target, key, value);
        if (done) this.#wrote(key);
        return done;
      },
      defineProperty: (target, key, descriptor) => {
        const done = Reflect.defineProperty(target, key, descriptor);
        if (done) this.#wrote(key);
        return done;
      },
      deleteProperty: (target, key) => {
        const done = Reflect.deleteProperty(target, key);
        if (done) this.#deleted(key);
        return done;
      },
    };
    return new Proxy(shared, handler) as S;
  }

  /** Ends the run: later events are ignored; returns the nodes in the order they started. */
  close(endedAt: number): RunNodeInput[] {
    if (this.#started && !this.#closed) {
      activeRuns -= 1;
      if (activeRuns === 0) frames.disable();
    }
    this.#closed = true;
    return this.#entries.map((e): RunNodeInput => {
      const unfinished = !e.ended;
      return {
        name: e.description.name,
        intent: e.description.intent,
        intentRule: e.description.intentRule,
        status: unfinished ? 'failure' : e.status,
        retries: e.retries,
        startedAt: e.startedAt,
        durationMs: unfinished ? Math.max(0, endedAt - e.startedAt) : e.durationMs,
        consumes: [...e.consumes].sort((a, b) => a - b),
        ...(e.parent === undefined ? {} : { parent: e.parent }),
        ...(unfinished ? { error: UNFINISHED_ERROR } : e.error === undefined ? {} : { error: e.error }),
      };
    });
  }
}

type Method = (...args: unknown[]) => unknown;

/**
 * The `_run` wrapper of one original node: inside an instrumented run it records the execution
 * (`this` is the clone PocketFlow runs); anywhere else it is the original method.
 */
export function wrapRun(original: Method, node: object): Method {
  return function instrumentedRun(this: object, ...args: unknown[]): unknown {
    const frame = frames.getStore();
    if (frame === undefined || frame.recorder.closed) return original.apply(this, args);
    return frame.recorder.runNode(node, this, frame.current, () => original.apply(this, args));
  };
}

/** The `exec` wrapper: counts attempts and failed attempts; sync results stay sync. */
export function wrapExec(original: Method): Method {
  return function instrumentedExec(this: object, ...args: unknown[]): unknown {
    const counts = attempts.get(this);
    if (counts === undefined) return original.apply(this, args);
    counts.calls += 1;
    let result: unknown;
    try {
      result = original.apply(this, args);
    } catch (error) {
      counts.throws += 1;
      throw error;
    }
    if (!isThenable(result)) return result;
    return Promise.resolve(result).then(undefined, (error: unknown) => {
      counts.throws += 1;
      throw error;
    });
  };
}

/** The `execFallback` wrapper: a fallback that returns makes the node's outcome partial. */
export function wrapExecFallback(original: Method): Method {
  return function instrumentedExecFallback(this: object, ...args: unknown[]): unknown {
    const counts = attempts.get(this);
    if (counts === undefined) return original.apply(this, args);
    counts.fallbacks += 1;
    const result = original.apply(this, args);
    if (!isThenable(result)) {
      counts.fallbackValues += 1;
      return result;
    }
    return Promise.resolve(result).then((value) => {
      counts.fallbackValues += 1;
      return value;
    });
  };
}
