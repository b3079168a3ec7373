/**
 * @module paths
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
