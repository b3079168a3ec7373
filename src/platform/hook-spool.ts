/**
 * @module platform/hook-spool
 * Where a store's hook spool is (`<base>.hook-spool/`, the base from hookFilesBase) and what `forget <session>` does
 * to it: the session's events still there are deleted, so that no drain learns them again. Here, below the
 * surfaces, so that every surface that forgets (the CLI, the MCP server) does it through the engine alike.
 */
import { readdirSync, readFileSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { defaultDbPath, hookFilesBase } from './paths.js';
import { sessionLabel } from '../core/runs/session-label.js';

export const spoolDirFor = (db: string): string => `${db}.hook-spool`;

/** What a claimed spool file's name carries between its original name and its claimer. */
export const CLAIMED = '.claimed-';

/** The name a spool file was written under (a claimed file's name carries its claimer after it). */
export const originalOf = (name: string): string => {
  const at = name.indexOf(CLAIMED);
  return at < 0 ? name : name.slice(0, at);
};

/**
 * The base of the hooks' files for an opened store: its SQLite file, or for a PostgreSQL store hookFilesBase of
 * its URL beside the default SQLite file (as the hooks name it); none for an in-memory store.
 */
export function storeHookFiles(
  store: { kind: 'sqlite' | 'postgres'; location: string },
  url: string | undefined,
  env: NodeJS.ProcessEnv,
): string | undefined {
  if (store.kind === 'sqlite') return store.location === ':memory:' ? undefined : store.location;
  return hookFilesBase(defaultDbPath(env), url === '' ? undefined : url, env);
}

/**
 * `forget <session>`: deletes the session's events still in the store's spool (`<db>.hook-spool/`, that folder only),
 * claimed or not, so the next drain does not queue them again; `session` may be the label of a session over 240
 * characters (core/runs/session-label). Returns how many went; no spool is none.
 */
export function forgetSpooledSession(db: string, session: string): number {
  const dir = spoolDirFor(db);
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => !name.startsWith('.') && originalOf(name).endsWith('.json'));
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    try {
      const value = JSON.parse(readFileSync(join(dir, name), 'utf8')) as unknown;
      const of = typeof value === 'object' && value !== null ? (value as { session?: unknown }).session : undefined;
      // A session over 240 characters is forgotten by its whole id or by its label (`credence runs` shows it).
      if (typeof of !== 'string' || (of !== session && sessionLabel(of) !== session)) continue;
      unlinkSync(join(dir, name));
      removed += 1;
    } catch {
      // Gone meanwhile (drained), or no event: not this session's.
    }
  }
  return removed;
}
