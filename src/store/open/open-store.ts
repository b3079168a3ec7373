/**
 * @module store/open/open-store
 * Opens the store a process uses (platform/store-location names it): the PostgreSQL server of a URL,
 * else the embedded SQLite file. The PostgreSQL schema: `?schema=` in the URL, else
 * `CREDENCE_DATABASE_SCHEMA`, else `public`; `?vectors=auto|pgvector|node` where vectors are ranked
 * (store/postgres/pgvector). The PostgreSQL driver loads only when it is used. A folder of its own:
 * the factory names both backends, which build on the contract beside them in store/.
 */
import { databaseUrl, sqlitePath, type OpenStoreOptions } from '../../platform/store-location.js';
import { LATEST_SCHEMA_VERSION } from '../sqlite/migrations.js';
import { openSqliteStore } from '../sqlite/sqlite-store.js';
import type { Store } from '../types.js';

export type { OpenStoreOptions };

const given = (value: string | undefined): value is string => value !== undefined && value !== '';

/** The newest schema version this Credence knows, of either store (their migrations are numbered alike). */
export const NEWEST_SCHEMA_VERSION = LATEST_SCHEMA_VERSION;

/**
 * The schema version a store of `kind` has once opened, when it is known before opening: a SQLite store is created
 * (or migrated) to the newest schema; a PostgreSQL server's version is known once connected (undefined).
 */
export function schemaOnOpening(kind: Store['kind']): number | undefined {
  return kind === 'sqlite' ? LATEST_SCHEMA_VERSION : undefined;
}

/** Opens the store this process should use (see platform/store-location). */
export async function openStore(options: OpenStoreOptions = {}, env: NodeJS.ProcessEnv = process.env): Promise<Store> {
  const url = databaseUrl(options, env);
  if (url !== undefined) return openTeamStore(url, env);
  return openSqliteStore({
    path: sqlitePath(options, env),
    ...(options.readOnlyWhenUnwritable === true ? { readOnlyWhenUnwritable: true } : {}),
  });
}

/** The PostgreSQL store at `url`; a schema named in the URL (`?schema=`) wins over `CREDENCE_DATABASE_SCHEMA`. */
export async function openTeamStore(
  url: string,
  env: NodeJS.ProcessEnv = process.env,
  options: { poolSize?: number; connectTimeoutMs?: number; lockTimeoutMs?: number } = {},
): Promise<Store> {
  const { openPgStore } = await import('../postgres/pg-store.js');
  const inUrl = /[?&]schema=/.test(url);
  return openPgStore({
    url,
    ...options,
    ...(!inUrl && given(env.CREDENCE_DATABASE_SCHEMA) ? { schema: env.CREDENCE_DATABASE_SCHEMA } : {}),
  });
}
