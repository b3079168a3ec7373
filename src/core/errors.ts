/**
 * @module core/errors
 * The one error class of Credence and its code catalogue (STYLE §7). An error's details are scrubbed of secrets
 * (core/security/scrub): they may hold the input that was refused.
 */
import { scrubValue } from './security/scrub.js';

export const ERROR_CODES = Object.freeze({
  INVALID_INPUT: 'input does not match the expected shape',
  INPUT_TOO_LARGE: 'an input text is longer than its limit (core/limits INPUT_LIMITS)',
  NOT_FOUND: 'the named record does not exist',
  UNKNOWN_TOOL: 'a tool id the catalogue of the scope does not know (a workflow task, next / suggest_next)',
  CYCLE: 'a graph that must be acyclic has a cycle',
  PATH_OUTSIDE_ROOT: 'a path resolves outside the folder it must stay in',
  STORE_UNAVAILABLE: 'the store cannot be opened or used',
  STORE_BUSY: 'another process holds the store’s write lock; the same call can succeed when retried',
  SCHEMA_TOO_NEW: 'the database was written by a newer Credence',
  NOT_EMPTY: 'a store that must be empty (the target of a restore) already holds data',
  PROVIDER_UNAVAILABLE: 'an embedding provider cannot be reached',
  CLOSED: 'the instance was closed (close(), its own or its store’s): open a new one',
} as const);

export type ErrorCode = keyof typeof ERROR_CODES;

/** An expected failure with a machine-readable code and a message that names the bad value. */
export class CredenceError extends Error {
  readonly code: ErrorCode;
  readonly details: Readonly<Record<string, unknown>> | undefined;

  constructor(code: ErrorCode, message: string, options: { cause?: unknown; details?: Record<string, unknown> } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'CredenceError';
    this.code = code;
    this.details = options.details === undefined ? undefined : Object.freeze(scrubValue({ ...options.details }));
  }
}

export function isCredenceError(value: unknown, code?: ErrorCode): value is CredenceError {
  return value instanceof CredenceError && (code === undefined || value.code === code);
}

/** An expected outcome as a value (STYLE §8). */
export type Result<T, E = CredenceError> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: E };

export const ok = <T>(value: T): Result<T, never> => ({ ok: true, value });
export const err = <E>(error: E): Result<never, E> => ({ ok: false, error });

/**
 * How long a write a read makes on the side (what it showed; embeddings, an index, a fit it keeps for next time)
 * waits for another process's write lock, in ms: then the read answers without it, not after the 5 s busy timeout.
 */
export const SIDE_WRITE_WAIT_MS = 250;

/** What every surface says of a busy store (STORE_BUSY): the command line, MCP, the dashboard. */
export const STORE_BUSY_MESSAGE = 'the store is busy (another process is writing); retry';

/**
 * Whether `error` is a refusal because another connection holds the write lock: SQLite's SQLITE_BUSY or
 * SQLITE_LOCKED (their extended codes too) from the driver, or a STORE_BUSY error.
 */
export function isStoreBusy(error: unknown): boolean {
  if (isCredenceError(error, 'STORE_BUSY')) return true;
  const code = error instanceof Error ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' && /^SQLITE_(BUSY|LOCKED)(_|$)/.test(code);
}

/** Whether SQLite's result `code` is SQLITE_CORRUPT (or an extended code of it): a damaged page. */
export const isSqliteCorruptCode = (code: unknown): boolean =>
  typeof code === 'string' && (code === 'SQLITE_CORRUPT' || code.startsWith('SQLITE_CORRUPT_'));

/** Whether SQLite's result `code` says a file is damaged (isSqliteCorruptCode) or is no SQLite database. */
export const isSqliteDamagedCode = (code: unknown): boolean => code === 'SQLITE_NOTADB' || isSqliteCorruptCode(code);

/**
 * Whether `error` is a store's refusal of a row whose key another row holds: SQLite's SQLITE_CONSTRAINT_UNIQUE or
 * _PRIMARYKEY, PostgreSQL's unique_violation (23505). A writer that looked first meets it when another wrote between.
 */
export function isDuplicateKey(error: unknown): boolean {
  const code = error instanceof Error ? (error as { code?: unknown }).code : undefined;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** A busy store's driver error as STORE_BUSY ({@link STORE_BUSY_MESSAGE}, naming the store at `location`). */
export function storeBusyError(error: unknown, location?: string): CredenceError {
  if (isCredenceError(error, 'STORE_BUSY')) return error;
  const code = (error as { code?: unknown }).code;
  return new CredenceError(
    'STORE_BUSY',
    location === undefined ? STORE_BUSY_MESSAGE : `the store ${location} is busy (another process is writing); retry`,
    { cause: error, details: { ...(location === undefined ? {} : { location }), driverCode: code } },
  );
}
