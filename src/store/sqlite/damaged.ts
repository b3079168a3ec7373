/**
 * @module store/sqlite/damaged
 * A SQLite store once found damaged (its quick check failed, or a statement met SQLITE_CORRUPT) is marked by a file
 * beside it, `<db>.damaged`, so that a writer refuses it before writing: SQLite's quick check reads every page
 * (about 0.2-0.4 s on a 100 MB store), too slow for every open, while the mark costs one stat. A writer that finds the
 * mark runs the quick check then: still damaged, it refuses (a reader opens it read-only); sound again, the mark goes.
 * The mark is beside the file's real path (a symlink finds it); a hard link in the same folder finds it by device and
 * inode. Damage no command has met yet is not known: `credence status` finds it.
 */
import { existsSync, readdirSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { CredenceError, isSqliteCorruptCode, isSqliteDamagedCode } from '../../core/errors.js';

/** The file's real path (symlinks followed), or `path` itself when it does not exist. */
const realPath = (path: string): string => {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
};

/** The mark's path beside the store at `path` (its real path). */
export const damageMark = (path: string): string => `${realPath(path)}.damaged`;

const codeOf = (error: unknown): unknown => (error as { code?: unknown } | undefined)?.code;

/** Whether `error` is SQLite's SQLITE_CORRUPT (or an extended code of it): a damaged page, not a foreign file. */
export const isCorrupt = (error: unknown): boolean => isSqliteCorruptCode(codeOf(error));

/** Whether `error` says the file is damaged or is not a SQLite database (isSqliteDamagedCode). */
export const isDamagedError = (error: unknown): boolean => isSqliteDamagedCode(codeOf(error));

/**
 * The first three problems SQLite's check found, on one line: its text holds newlines (`*** in database main ***`,
 * then the page), and a hook says any failure in one line on stderr (walk 20, item 9).
 */
const problemsLine = (problems: readonly string[]): string =>
  problems
    .slice(0, 3)
    .map((p) => p.replace(/\s+/g, ' ').trim())
    .join('; ');

/** Marks the store at `path` damaged, saying what was found; best effort (a read-only folder keeps no mark). */
export function markDamaged(path: string, problems: readonly string[]): void {
  if (path === ':memory:' || problems.length === 0) return;
  try {
    writeFileSync(
      damageMark(path),
      `SQLite found the store ${path} damaged: ${problemsLine(problems)}\n` +
        'Credence refuses to write into it; save what is readable with `credence dump FILE --salvage`, then ' +
        '`credence restore FILE --db NEW.db`. This file goes once the store at this path is sound again.\n',
      { mode: 0o600 },
    );
  } catch {
    // Not kept: the next writer does not know, and a reader meeting the damage marks it again.
  }
}

/**
 * The mark of the store at `path`, or undefined: beside its real path, or (a file with more than one name) beside
 * another name of the same file (device and inode) in that folder. A hard link in another folder is not found.
 */
export function damageMarkOf(path: string): string | undefined {
  if (path === ':memory:') return undefined;
  const mark = damageMark(path);
  if (existsSync(mark)) return mark;
  try {
    const real = realPath(path);
    const file = statSync(real);
    if (file.nlink < 2) return undefined;
    const folder = dirname(real);
    for (const name of readdirSync(folder)) {
      if (!name.endsWith('.damaged') || name === `${basename(real)}.damaged`) continue;
      const other = statSync(join(folder, name.slice(0, -'.damaged'.length)), { throwIfNoEntry: false });
      if (other !== undefined && other.dev === file.dev && other.ino === file.ino) return join(folder, name);
    }
  } catch {
    // An unreadable folder: no mark found.
  }
  return undefined;
}

/** Whether the store at `path` was marked damaged (damageMarkOf). */
export const markedDamaged = (path: string): boolean => damageMarkOf(path) !== undefined;

/** Removes the mark: the store at `path` passed its quick check. */
export function clearDamaged(path: string): void {
  try {
    const mark = damageMarkOf(path);
    if (mark !== undefined) rmSync(mark, { force: true });
  } catch {
    // A read-only folder: the next writer checks again.
  }
}

/** A writer's refusal of the damaged store at `path` (STORE_UNAVAILABLE, details.damaged), naming the way out. */
export function damagedRefusal(path: string, problems: readonly string[]): CredenceError {
  return new CredenceError(
    'STORE_UNAVAILABLE',
    `cannot write the database at ${path}: it is damaged (${problemsLine(problems)}), so nothing is ` +
      'written into it; save what is readable with `credence dump FILE --salvage`, then ' +
      '`credence restore FILE --db NEW.db` and use NEW.db',
    { details: { path, damaged: true } },
  );
}
