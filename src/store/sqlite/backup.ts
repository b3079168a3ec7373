/**
 * @module store/sqlite/backup
 * `credence backup FILE`: a consistent copy of a SQLite store in one file, by SQLite's online backup (the pages as one
 * read sees them, the write-ahead log's committed frames included) while other processes use the store. The file
 * alone is no backup: the last commits may be in its -wal (store/sqlite/exit-without-close), and an old file put back
 * beside a newer log is read with that log applied. The copy is written beside the target (0600) and moved into place
 * when complete. An existing target is refused unless `overwrite`; one with a -wal or -shm beside it always is.
 */
import { closeSync, constants, existsSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type Database from 'better-sqlite3';
import { CredenceError } from '../../core/errors.js';
import { asideOf, checkNewFile, placeNew, unwritable, type NewFile } from '../../platform/new-file.js';
import type { BackupReport } from '../types.js';

/** Writes the database of `db` (at `location`) to `file`; see the module. */
export async function backupSqlite(
  db: Database.Database,
  location: string,
  file: string,
  options: { overwrite?: boolean; ifExists?: string } = {},
): Promise<BackupReport> {
  // The library's option by default; the CLI names its flag (--force).
  const named: NewFile = {
    command: 'backup',
    file,
    ifExists: options.ifExists ?? 'pass overwrite: true to replace it',
  };
  const target = checkNewFile(named, { store: location, overwrite: options.overwrite === true });
  for (const beside of [`${target}-wal`, `${target}-shm`]) {
    if (existsSync(beside))
      throw new CredenceError(
        'INVALID_INPUT',
        `backup ${file}: ${beside} is beside it (a database in use, or one left with its log), and SQLite would ` +
          'read that log with the copy; stop what uses it and remove both its -wal and -shm, or name another file',
      );
  }
  const aside = asideOf(target);
  try {
    closeSync(openSync(aside, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600));
  } catch (error) {
    throw new CredenceError('INVALID_INPUT', `backup ${file}: ${unwritable(dirname(target), error)}`, { cause: error });
  }
  try {
    await db.backup(aside);
    if (options.overwrite === true) renameSync(aside, target);
    else placeNew(aside, target, named);
  } finally {
    rmSync(aside, { force: true });
    rmSync(`${aside}-journal`, { force: true });
  }
  return { file: target, bytes: statSync(target).size };
}
