/**
 * @module platform/store-location
 * Which store a process uses, before any is opened: PostgreSQL when a server URL is given
 * (`--database-url` or `CREDENCE_DATABASE_URL`), else the embedded SQLite file (`--db`,
 * `CREDENCE_DB`, or `~/.credence/credence.db`). An explicit option beats the environment; `--db` and
 * `--database-url` together are an error. No driver here: store/open/open-store opens what this names.
 */
import { CredenceError } from '../core/errors.js';
import { databaseUrlMissing, defaultDbPath, missingDatabaseUrlMessage, urlSchemeOf } from './paths.js';

export interface OpenStoreOptions {
  /** A SQLite file given explicitly (`--db`). */
  db?: string;
  /** A PostgreSQL URL given explicitly (`--database-url`). */
  databaseUrl?: string;
  /** What a message calls `db` and `databaseUrl`: the CLI's flags by default, the fields in a library call. */
  names?: StoreOptionNames;
  /** A SQLite file this user cannot write is opened read-only, not refused: for a caller that only reads. */
  readOnlyWhenUnwritable?: boolean;
}

/** The names of the two options in messages (`--db`, `--database-url` on the command line). */
export interface StoreOptionNames {
  db: string;
  databaseUrl: string;
}

const FLAG_NAMES: StoreOptionNames = { db: '--db', databaseUrl: '--database-url' };

const given = (value: string | undefined): value is string => value !== undefined && value !== '';

/**
 * The SQLite file this process should use: `--db`, else `CREDENCE_DB`, else
 * `~/.credence/credence.db`. A URL is refused (INVALID_INPUT) with a message naming its source and
 * `--database-url`; the URL itself is not repeated (it may hold a password), only its scheme. Without `--db`, refused
 * too when CREDENCE_REQUIRE_DATABASE_URL=1 and no URL is set (the MCP server `credence init` writes for a team store).
 */
export function sqlitePath(options: OpenStoreOptions, env: NodeJS.ProcessEnv = process.env): string {
  if (!given(options.db) && databaseUrlMissing(env))
    throw new CredenceError('INVALID_INPUT', missingDatabaseUrlMessage('no store was opened'));
  const names = options.names ?? FLAG_NAMES;
  const source = given(options.db) ? names.db : given(env.CREDENCE_DB) ? 'CREDENCE_DB' : undefined;
  const path = given(options.db) ? options.db : defaultDbPath(env);
  const scheme = source === undefined ? undefined : urlSchemeOf(path);
  if (scheme !== undefined) {
    const instead = source === names.db ? names.databaseUrl : 'CREDENCE_DATABASE_URL';
    const message = `${source} takes the path of a SQLite file, got a ${scheme} URL`;
    throw new CredenceError('INVALID_INPUT', `${message}; give a PostgreSQL server with ${instead} instead`, {
      details: { source, scheme },
    });
  }
  return path;
}

/** The PostgreSQL URL this process should use, or undefined for SQLite. */
export function databaseUrl(options: OpenStoreOptions, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (given(options.databaseUrl) && given(options.db)) {
    const names = options.names ?? FLAG_NAMES;
    throw new CredenceError(
      'INVALID_INPUT',
      `give either ${names.db} (a SQLite file) or ${names.databaseUrl} (a PostgreSQL server), not both`,
    );
  }
  if (given(options.databaseUrl)) return options.databaseUrl;
  if (given(options.db)) return undefined;
  return given(env.CREDENCE_DATABASE_URL) ? env.CREDENCE_DATABASE_URL : undefined;
}
