/**
 * @module hooks/open-store
 * The one way a hook opens the store: the team's PostgreSQL server when CREDENCE_DATABASE_URL names
 * one (its driver loaded only then), given 2 s to connect and 1 s to wait for a lock, else the SQLite file with
 * the hooks' short busy timeout. Kept small: it is bundled into dist/hook-prompt.cjs, and no other hook module
 * imports a driver. A store of a newer schema is refused naming this hook's binary and `init --claude-code`
 * (platform/stale-install).
 */
import { staleInstallError } from '../platform/stale-install.js';
import { databaseUrl } from '../platform/store-location.js';
import { openTeamStore } from '../store/open/open-store.js';
import { markedDamaged } from '../store/sqlite/damaged.js';
import { openSqliteStore } from '../store/sqlite/sqlite-store.js';
import type { Store } from '../store/types.js';
import { HOOK_LIMITS } from './fast.js';

/**
 * The team server is given 2 s to connect, and each statement 1 s to wait for a lock another session holds (a
 * VACUUM FULL, walk 13): past it the hook fails open, saying so, within its time limit.
 */
const teamLimits = { connectTimeoutMs: HOOK_LIMITS.connectTimeoutMs, lockTimeoutMs: HOOK_LIMITS.lockTimeoutMs };

/**
 * Opens the store a hook event reads or learns into. `read: true` (the prompt hook) opens the
 * SQLite file read-only when it can (no write lock to wait for, no writer's set-up) and falls back
 * to the ordinary open (no database yet, a migration due, a read-only open refused), and asks the
 * team server for one connection.
 */
export async function openHookStore(
  db: string,
  env: NodeJS.ProcessEnv,
  options: { read?: boolean } = {},
): Promise<Store> {
  try {
    return await open(db, env, options);
  } catch (error) {
    // A store of a newer schema: most likely this hook is an older init's, left behind by an upgrade.
    throw staleInstallError(error, 'hook');
  }
}

/**
 * Whether the SQLite store a hook would learn into carries the mark of one found damaged (store/sqlite/damaged):
 * a writer refuses it, so learning could only fail (walk 20, item 9). Never for the team server's store.
 */
export const hookStoreMarkedDamaged = (db: string, env: NodeJS.ProcessEnv): boolean =>
  databaseUrl({}, env) === undefined && markedDamaged(db);

async function open(db: string, env: NodeJS.ProcessEnv, options: { read?: boolean }): Promise<Store> {
  const url = databaseUrl({}, env);
  if (options.read === true) {
    if (url !== undefined) return openTeamStore(url, env, { poolSize: 1, ...teamLimits });
    try {
      return openSqliteStore({ path: db, busyTimeoutMs: HOOK_LIMITS.busyTimeoutMs, readonly: true });
    } catch {
      return openSqliteStore({ path: db, busyTimeoutMs: HOOK_LIMITS.busyTimeoutMs });
    }
  }
  return url === undefined
    ? openSqliteStore({ path: db, busyTimeoutMs: HOOK_LIMITS.busyTimeoutMs })
    : openTeamStore(url, env, teamLimits);
}
