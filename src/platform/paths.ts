/**
 * @module platform/paths
 * Where the database lives by default, apart from the engine so that the hooks can know it without
 * loading the engine.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The default database path: `CREDENCE_DB`, else `~/.credence/credence.db`. */
export function defaultDbPath(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.CREDENCE_DB;
  return fromEnv !== undefined && fromEnv !== '' ? fromEnv : join(homedir(), '.credence', 'credence.db');
}

/**
 * A URL (`postgres://…`, `file:…`, any `scheme://…`) where a SQLite file path is expected: turned
 * into a path it would silently create a folder tree named after the URL. Two letters at least
 * before `://`, so a Windows drive (`C:\…`) stays a path.
 */
const URL_LIKE = /^(?:[a-z][a-z0-9+.-]+:\/\/|(?:postgres|postgresql|file|sqlite):)/i;

/** The scheme (`postgres:`) of a value that is a URL rather than a file path; undefined for a path. */
export function urlSchemeOf(value: string): string | undefined {
  return URL_LIKE.test(value) ? value.slice(0, value.indexOf(':') + 1) : undefined;
}

/**
 * The database path a hook uses (its spool lives beside it): `defaultDbPath`, or, when
 * `CREDENCE_DB` is a URL, the one line that says so (naming its scheme, never the URL, which may
 * hold a password) — the hook then keeps nothing and creates nothing.
 */
export function hookDbPath(env: NodeJS.ProcessEnv): { ok: true; path: string } | { ok: false; message: string } {
  const path = defaultDbPath(env);
  const scheme = env.CREDENCE_DB === undefined || env.CREDENCE_DB === '' ? undefined : urlSchemeOf(path);
  if (scheme === undefined) return { ok: true, path };
  return {
    ok: false,
    message:
      `CREDENCE_DB takes the path of a SQLite file, got a ${scheme} URL; ` +
      'give a PostgreSQL server with CREDENCE_DATABASE_URL instead (nothing was kept)',
  };
}
