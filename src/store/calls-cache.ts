/**
 * @module store/calls-cache
 * The calls of the executions a store appended to last, kept between appends (issue 20): a gateway session
 * appends one call at a time to one execution, and reading its 20,000 stored calls back for each append made
 * a long session's cost per call grow with its length. Calls are only ever appended to an execution (never
 * changed, never removed but with their execution), so a kept list is still the stored one when the execution
 * has as many calls as the list and its last stored call equals the list's last: one indexed read of that row
 * decides, inside the writer's transaction. Both stores keep one.
 */
import { json, toCall, type Row } from './rows.js';
import type { CallRecord } from './types.js';

/** How many executions a store keeps the calls of: the sessions a long-lived process appends to at once. */
export const KEPT_EXECUTIONS = 16;

/**
 * A call exactly as a read of its stored row gives it back (`toCall`): what an append hands on as `after` and
 * keeps, so that the kept list is the list a read would return.
 */
export function storedCall(call: CallRecord): CallRecord {
  return toCall({
    tool: call.tool,
    status: call.status,
    retries: call.retries,
    duration_ms: call.durationMs ?? null,
    consumes: call.consumes.length === 0 ? '[]' : json(call.consumes),
    parent: call.parent ?? null,
    depends_on: call.dependsOn === undefined ? null : json(call.dependsOn),
    at: call.at ?? null,
    intent: call.intent ?? null,
    input: call.input ?? null,
    output: call.output ?? null,
  } as Row);
}

const sameIndexes = (a: readonly number[] | undefined, b: readonly number[] | undefined): boolean =>
  a === undefined || b === undefined ? a === b : a.length === b.length && a.every((j, k) => j === b[k]);

const sameCall = (a: CallRecord, b: CallRecord): boolean =>
  a.tool === b.tool &&
  a.status === b.status &&
  a.retries === b.retries &&
  a.durationMs === b.durationMs &&
  a.parent === b.parent &&
  sameIndexes(a.dependsOn, b.dependsOn) &&
  a.at === b.at &&
  a.intent === b.intent &&
  a.input === b.input &&
  a.output === b.output &&
  a.consumes.length === b.consumes.length &&
  a.consumes.every((j, k) => j === b.consumes[k]);

/** Two equal lists of an execution's calls: `stored` is handed over as `before`, `spare` grows into `after`. */
interface Kept {
  stored: CallRecord[];
  spare: CallRecord[];
}

/**
 * The kept lists: an append gets `before` without a read and `after` without a copy (the spare list, grown by the
 * new calls; the stored one follows once the append commits). So `before` and `after` are valid during the append
 * only: a later append to the execution grows them.
 */
export class ExecutionCallsCache {
  readonly #kept = new Map<string, Kept>();

  /**
   * The kept calls of an execution when they are still what is stored: `count` is how many calls the store
   * holds for it and `last` its last stored call (as `toCall` reads it). Undefined otherwise (then read them all).
   */
  get(scope: string, id: string, count: number, last: CallRecord | undefined): readonly CallRecord[] | undefined {
    const key = `${scope}\u0000${id}`;
    const kept = this.#kept.get(key);
    if (kept === undefined) return undefined;
    this.#kept.delete(key);
    const mine = kept.stored.at(-1);
    const same =
      kept.stored.length === count &&
      kept.spare.length === count &&
      (last === undefined || mine === undefined ? last === mine : sameCall(last, mine));
    if (!same) return undefined;
    // The most recently used execution is kept longest.
    this.#kept.set(key, kept);
    return kept.stored;
  }

  /** The calls after an append of `added` to `before`: the kept spare list grown in place, else a new list. */
  extend(
    scope: string,
    id: string,
    before: readonly CallRecord[],
    added: readonly CallRecord[],
  ): readonly CallRecord[] {
    const kept = this.#kept.get(`${scope}\u0000${id}`);
    if (kept === undefined || kept.stored !== before) return before.concat(added);
    for (const call of added) kept.spare.push(call);
    return kept.spare;
  }

  /** Keeps the calls an execution has after a committed append (`after` from {@link extend}). */
  committed(scope: string, id: string, before: readonly CallRecord[], after: readonly CallRecord[]): void {
    const key = `${scope}\u0000${id}`;
    const kept = this.#kept.get(key);
    if (kept !== undefined && kept.stored === before && kept.spare === after) {
      for (let i = before.length; i < after.length; i += 1) kept.stored.push(after[i] as CallRecord);
      return;
    }
    this.#kept.delete(key);
    this.#kept.set(key, { stored: [...after], spare: [...after] });
    if (this.#kept.size > KEPT_EXECUTIONS) this.#kept.delete(this.#kept.keys().next().value as string);
  }

  /** Forgets an execution's calls after a failed append (its spare list may have grown). */
  failed(scope: string, id: string): void {
    this.#kept.delete(`${scope}\u0000${id}`);
  }

  /** Forgets every kept list (rows were written behind the store's methods: a restore). */
  clear(): void {
    this.#kept.clear();
  }
}
