/**
 * @module cli/failure
 * Driver and system errors as one line for the command line, never a stack trace: a damaged
 * SQLite file, a PostgreSQL error, a full disk are failures of the store the user can act on, not
 * bugs. Anything else keeps its stack (a bug report needs it).
 */
import { CredenceError, isSqliteDamagedCode, isStoreBusy, storeBusyError } from '../core/errors.js';

interface CodedError extends Error {
  code?: unknown;
  severity?: unknown;
  syscall?: unknown;
}

const isSqliteError = (error: unknown): error is CodedError & { code: string } =>
  error instanceof Error && error.name === 'SqliteError' && typeof (error as CodedError).code === 'string';

/** node-postgres's server errors carry a severity and a five-character SQLSTATE. */
const isPgError = (error: unknown): error is CodedError & { code: string } =>
  error instanceof Error &&
  typeof (error as CodedError).severity === 'string' &&
  typeof (error as CodedError).code === 'string' &&
  /^[0-9A-Z]{5}$/.test((error as CodedError).code as string);

/**
 * A driver error raised while a command used the store at `location`, as a STORE_UNAVAILABLE
 * CredenceError naming the store (a damaged SQLite file is named as such), or STORE_BUSY when another
 * process held the write lock (exit code 75, retry); undefined for any other error.
 */
export function storeFailure(
  error: unknown,
  store: { kind: 'sqlite' | 'postgres'; location: string },
): CredenceError | undefined {
  if (isStoreBusy(error)) return storeBusyError(error, store.location);
  if (isSqliteError(error)) {
    const message = isSqliteDamagedCode(error.code)
      ? `the database ${store.location} is damaged or is not a Credence (SQLite) database: ${error.message}; ` +
        'save what is still readable with credence dump --salvage FILE and restore that into a new store ' +
        '(credence restore), or restore an earlier dump, or move it aside'
      : `the database ${store.location} failed: ${error.message} (${error.code})`;
    return new CredenceError('STORE_UNAVAILABLE', message, {
      cause: error,
      details: { location: store.location, driverCode: error.code },
    });
  }
  if (isPgError(error)) {
    return new CredenceError(
      'STORE_UNAVAILABLE',
      `the PostgreSQL store ${store.location} failed: ${error.message} (SQLSTATE ${error.code})`,
      {
        cause: error,
        details: { location: store.location, driverCode: error.code },
      },
    );
  }
  return undefined;
}

/**
 * The line the command line prints for an error that is not a CredenceError: one line for a
 * driver or system error (its message), the stack for anything else.
 */
export function unexpectedFailureLine(error: unknown): string {
  if (!(error instanceof Error)) return `unexpected error: ${String(error)}`;
  if (isSqliteError(error) || isPgError(error)) return `the store failed: ${error.message} (${error.code})`;
  if (typeof (error as CodedError).syscall === 'string') return error.message;
  return `unexpected error: ${error.stack ?? error.message}`;
}
