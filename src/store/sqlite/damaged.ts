/**
 * @module store/sqlite/damaged
 * A SQLite store once found damaged (its quick check failed, or a statement met SQLITE_CORRUPT) is marked by a file
 * beside it, `<db>.damaged`, so that a writer refuses it before writing: SQLite's quick check reads every page
 * (about 0.2-0.4 s on a 100 MB store), too slow for every open, while the mark costs one stat. A writer that finds the
 * mark runs the quick check then: still damaged, it refuses naming the way out; sound again (the file was replaced),
 * the mark goes. Damage no command has met yet is not known: `credence status` finds it.
 */
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { CredenceError } from '../../core/errors.js';

/** The mark's path beside the store at `path`. */
export const damageMark = (path: string): string => `${path}.damaged`;

/** Whether `error` is SQLite's SQLITE_CORRUPT (or an extended code of it): a damaged page, not a foreign file. */
export function isCorrupt(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && (code === 'SQLITE_CORRUPT' || code.startsWith('SQLITE_CORRUPT_'));
}

/** Marks the store at `path` damaged, saying what was found; best effort (a read-only folder keeps no mark). */
export function markDamaged(path: string, problems: readonly string[]): void {
  if (path === ':memory:' || problems.length === 0) return;
  try {
    writeFileSync(
      damageMark(path),
      `SQLite found the store ${path} damaged: ${problems.slice(0, 3).join('; ')}\n` +
        'Credence refuses to write into it; save what is readable with `credence dump FILE --salvage`, then ' +
        '`credence restore FILE --db NEW.db`. This file goes once the store at this path is sound again.\n',
      { mode: 0o600 },
    );
  } catch {
    // Not kept: the next writer does not know, and a reader meeting the damage marks it again.
  }
}

/** Whether the store at `path` was marked damaged. */
export const markedDamaged = (path: string): boolean => path !== ':memory:' && existsSync(damageMark(path));

/** Removes the mark: the store at `path` passed its quick check. */
export function clearDamaged(path: string): void {
  try {
    rmSync(damageMark(path), { force: true });
  } catch {
    // A read-only folder: the next writer checks again.
  }
}

/** A writer's refusal of the damaged store at `path` (STORE_UNAVAILABLE, details.damaged), naming the way out. */
export function damagedRefusal(path: string, problems: readonly string[]): CredenceError {
  return new CredenceError(
    'STORE_UNAVAILABLE',
    `cannot write the database at ${path}: it is damaged (${problems.slice(0, 3).join('; ')}), so nothing is ` +
      'written into it; save what is readable with `credence dump FILE --salvage`, then ' +
      '`credence restore FILE --db NEW.db` and use NEW.db',
    { details: { path, damaged: true } },
  );
}
