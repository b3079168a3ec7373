import { describe, expect, it } from 'vitest';
import { storeFailure, unexpectedFailureLine } from './failure.js';

/** An error shaped as node-postgres raises a server error. */
function pgError(message: string, code: string): Error {
  return Object.assign(new Error(message), { severity: 'ERROR', code });
}

function sqliteError(message: string, code: string): Error {
  const error = Object.assign(new Error(message), { code });
  Object.defineProperty(error, 'name', { value: 'SqliteError' });
  return error;
}

describe('storeFailure', () => {
  it('makes a PostgreSQL error a one-line STORE_UNAVAILABLE naming the store and the SQLSTATE', () => {
    const failure = storeFailure(pgError('invalid byte sequence for encoding "UTF8": 0x00', '22021'), {
      kind: 'postgres',
      location: 'postgres://team:***@db/credence',
    });
    expect(failure?.code).toBe('STORE_UNAVAILABLE');
    expect(failure?.message).toBe(
      'the PostgreSQL store postgres://team:***@db/credence failed: ' +
        'invalid byte sequence for encoding "UTF8": 0x00 (SQLSTATE 22021)',
    );
  });

  it('says a SQLite file is damaged when the driver says so, and names it', () => {
    const failure = storeFailure(sqliteError('database disk image is malformed', 'SQLITE_CORRUPT'), {
      kind: 'sqlite',
      location: '/home/me/.credence/credence.db',
    });
    expect(failure?.code).toBe('STORE_UNAVAILABLE');
    expect(failure?.message).toMatch(
      new RegExp(
        String.raw`^the database \/home\/me\/\.credence\/credence\.db is damaged or is not a Credence \(SQLite\) ` +
          'database: database disk image is malformed',
      ),
    );
  });

  // A robustness audit: a busy store read as a failure ('database is locked'), with no word that a retry helps.
  it('makes a busy SQLite file STORE_BUSY: busy, another process writing, retry', () => {
    for (const code of ['SQLITE_BUSY', 'SQLITE_BUSY_SNAPSHOT', 'SQLITE_LOCKED']) {
      const failure = storeFailure(sqliteError('database is locked', code), { kind: 'sqlite', location: '/x.db' });
      expect(failure?.code).toBe('STORE_BUSY');
      expect(failure?.message).toBe('the store /x.db is busy (another process is writing); retry');
    }
  });

  it('leaves any other error alone', () => {
    expect(storeFailure(new TypeError('x is undefined'), { kind: 'sqlite', location: '/x.db' })).toBeUndefined();
  });
});

describe('unexpectedFailureLine', () => {
  it('prints a driver or system error as one line, without its stack', () => {
    expect(unexpectedFailureLine(pgError('value too long', '22001'))).toBe('the store failed: value too long (22001)');
    expect(
      unexpectedFailureLine(
        Object.assign(new Error('ENOSPC: no space left on device, write'), { syscall: 'write', code: 'ENOSPC' }),
      ),
    ).toBe('ENOSPC: no space left on device, write');
  });

  it('keeps the stack of a bug', () => {
    expect(unexpectedFailureLine(new TypeError('x is undefined'))).toMatch(
      /^unexpected error: TypeError: x is undefined\n\s+at /,
    );
  });
});
