/**
 * @module platform/paths
 * Where the database lives by default, apart from the engine so that the hooks can know it without
 * loading the engine.
 */
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

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

/** FNV-1a, 64 bits, as 16 hex digits: a short stable name, without node:crypto (slow for a hook to load). */
function fnv64(text: string): string {
  let hash = 0xcbf29ce484222325n;
  for (const byte of new TextEncoder().encode(text)) {
    hash = ((hash ^ BigInt(byte)) * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return hash.toString(16).padStart(16, '0');
}

/** The query parameters that tell one PostgreSQL store from another (not TLS, time-outs, or any secret). */
const STORE_PARAMS = ['host', 'port', 'dbname', 'user', 'options'];

/**
 * What names a PostgreSQL store, never its password: user, host, port, database, the query parameters
 * that pick a server or a search path, and the schema (`?schema=`, else CREDENCE_DATABASE_SCHEMA, else
 * `public`). Read by hand, not by `new URL()`, which takes `postgres:u:pw@h/db` as a path and keeps the pw.
 */
export function teamStoreIdentity(url: string, env: NodeJS.ProcessEnv): string {
  const m = /^(?:postgres(?:ql)?:)?(?:\/\/)?([^/?#]*)([^?#]*)(?:\?([^#]*))?/i.exec(url.trim()) as RegExpExecArray;
  const authority = m[1] ?? '';
  const at = authority.lastIndexOf('@');
  const user = at < 0 ? '' : (authority.slice(0, at).split(':')[0] ?? '');
  const hostPort = (at < 0 ? authority : authority.slice(at + 1)).toLowerCase();
  const [host, port] = /:\d*$/.test(hostPort)
    ? [hostPort.slice(0, hostPort.lastIndexOf(':')), hostPort.slice(hostPort.lastIndexOf(':') + 1)]
    : [hostPort, ''];
  const query = new URLSearchParams(m[3] ?? '');
  const fromEnv = env.CREDENCE_DATABASE_SCHEMA;
  const schema = query.get('schema') ?? (fromEnv !== undefined && fromEnv !== '' ? fromEnv : 'public');
  const params = STORE_PARAMS.flatMap((name) => query.getAll(name).map((value) => `${name}=${value}`));
  return JSON.stringify([user, host, port === '' ? '5432' : port, (m[2] ?? '').replace(/^\//, ''), params, schema]);
}

/**
 * Where the hooks keep their files for a store (the spool `<base>.hook-spool`, its set-aside folder,
 * the leases, the learn log, the evolve lock and counts): the SQLite file itself, or, for a PostgreSQL
 * store, `postgres-<hash of teamStoreIdentity>` beside the default SQLite file. So a hook learns only
 * what was spooled for its own store; the SQLite file's spool keeps the name it always had.
 */
export function hookFilesBase(dbPath: string, url: string | undefined, env: NodeJS.ProcessEnv): string {
  return url === undefined ? dbPath : join(dirname(dbPath), `postgres-${fnv64(teamStoreIdentity(url, env))}`);
}

/**
 * Set to `1` where only a team store will do: `credence init` given a database URL writes it into the hook command
 * and the MCP server's environment, so that without CREDENCE_DATABASE_URL they refuse instead of using SQLite.
 */
export const REQUIRE_URL_VARIABLE = 'CREDENCE_REQUIRE_DATABASE_URL';

/** The variable naming the PostgreSQL schema of a team store (written by `credence init` beside the requirement). */
export const SCHEMA_VARIABLE = 'CREDENCE_DATABASE_SCHEMA';

/** A schema name Credence accepts (openPgStore, and init before writing one): lower-case letters, digits, _; ≤ 63. */
export const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** Whether this environment wants a team store and names none (REQUIRE_URL_VARIABLE set, no URL). */
export const databaseUrlMissing = (env: NodeJS.ProcessEnv): boolean =>
  env[REQUIRE_URL_VARIABLE] === '1' && (env.CREDENCE_DATABASE_URL === undefined || env.CREDENCE_DATABASE_URL === '');

/** What is said then; `what` is what did not happen ("nothing was kept"). */
export const missingDatabaseUrlMessage = (what: string): string =>
  `${REQUIRE_URL_VARIABLE}=1 (this project learns into a team store) but CREDENCE_DATABASE_URL is not set: ${what}, ` +
  'and the SQLite file was not used instead; set CREDENCE_DATABASE_URL in the environment Claude Code starts from ' +
  '(your shell profile), then start a new session';

/**
 * The database path a hook uses and the base of its files (`hookFilesBase`): `defaultDbPath`, or,
 * when `CREDENCE_DB` is a URL, the one line that says so (naming its scheme, never the URL, which may
 * hold a password) — the hook then keeps nothing and creates nothing; likewise, naming no store, when a team
 * store is required (`databaseUrlMissing`).
 */
export function hookDbPath(
  env: NodeJS.ProcessEnv,
): { ok: true; path: string; files: string } | { ok: false; message: string } {
  const path = defaultDbPath(env);
  const scheme = env.CREDENCE_DB === undefined || env.CREDENCE_DB === '' ? undefined : urlSchemeOf(path);
  if (scheme === undefined) {
    if (databaseUrlMissing(env)) return { ok: false, message: missingDatabaseUrlMessage('nothing was kept') };
    const url = env.CREDENCE_DATABASE_URL;
    return { ok: true, path, files: hookFilesBase(path, url === undefined || url === '' ? undefined : url, env) };
  }
  return {
    ok: false,
    message:
      `CREDENCE_DB takes the path of a SQLite file, got a ${scheme} URL; ` +
      'give a PostgreSQL server with CREDENCE_DATABASE_URL instead (nothing was kept)',
  };
}
