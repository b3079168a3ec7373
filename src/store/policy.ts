/**
 * @module store/policy
 * What a store does to what it is given, decided here rather than in each backend: how text is
 * scrubbed of secrets before it is stored or indexed (SPEC §10), and how long a learned hook
 * event's key is kept. A backend takes a `StorePolicy` when it opens and only executes it;
 * `STORE_POLICY` is the one every opener uses unless told otherwise.
 */
import { CredenceError } from '../core/errors.js';
import { scrubRecord } from './shared.js';

export interface StorePolicy {
  /** Returns `record` with its secrets scrubbed (a copy, or the record itself when it has none); never mutates it. */
  readonly scrub: <T>(record: T) => T;
  /**
   * How long (ms) a learned hook event's key is kept, so that the same event queued again is not learned twice.
   * @default 604_800_000 (a week)
   */
  readonly hookKeyRetentionMs: number;
}

export const STORE_POLICY: StorePolicy = Object.freeze({ scrub: scrubRecord, hookKeyRetentionMs: 7 * 86_400_000 });

/** `STORE_POLICY` with `overrides` applied: a new object, the caller's left as it is. */
export function storePolicy(overrides: Partial<StorePolicy> = {}): StorePolicy {
  const policy = Object.freeze({ ...STORE_POLICY, ...overrides });
  if (!Number.isFinite(policy.hookKeyRetentionMs) || policy.hookKeyRetentionMs < 0) {
    throw new CredenceError(
      'INVALID_INPUT',
      `hookKeyRetentionMs must be a number of milliseconds, 0 or more; got ${String(policy.hookKeyRetentionMs)}`,
    );
  }
  return policy;
}
