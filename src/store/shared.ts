/**
 * @module store/shared
 * What every backend does the same way at its boundary: scrub secrets from every text field
 * before anything is stored or indexed (SPEC §10), and fingerprint observations so a re-import
 * adds nothing twice.
 */
import { mayContainSecret, scrubValue } from '../core/scrub.js';
import type { ObservationRecord } from './types.js';

/**
 * `record` with every string scrubbed of secrets: a scrubbed deep copy, or the record itself when
 * nothing in it could be a secret (the common case, and the fast one). The input is never touched.
 */
export function scrubRecord<T>(record: T): T {
  return mayContainSecret(record) ? scrubValue(record) : record;
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
