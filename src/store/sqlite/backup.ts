/**
 * @module store/sqlite/backup
 * `credence backup FILE`: a consistent copy of a SQLite store in one file, by SQLite's online backup (the pages as one
 * read sees them, the write-ahead log's committed frames included) while other processes use the store. The file
 * alone is no backup: the last commits may be in its -wal (store/sqlite/exit-without-close), and an old file put back
 * beside a newer log is read with that log applied. The copy is written beside the target (0600) and moved into place
 * when complete. An existing target is refused unless `overwrite`; one with a -wal or -shm beside it always is.
 */
import { closeSync, constants, existsSync, linkSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type Database from 'better-sqlite3';
import { CredenceError } from '../../core/errors.js';
import type { BackupReport } from '../types.js';

/** Writes the database of `db` (at `location`) to `file`; see the module. */
export async function backupSqlite(
  db: Database.Database,
  location: string,
  file: string,
  options: { overwrite?: boolean } = {},
): Promise<BackupReport> {
  if (file === '') throw new CredenceError('INVALID_INPUT', 'backup: name the file to write');
  const target = resolve(file);
  const source = location === ':memory:' || location === '' ? undefined : resolve(location);
  if (source !== undefined && [source, `${source}-wal`, `${source}-shm`, `${source}-journal`].includes(target))
    throw new CredenceError('INVALID_INPUT', `backup ${file}: that is the store's own database; name another file`);
  const exists = existsSync(target);
  if (exists && statSync(target).isDirectory())
    throw new CredenceError('INVALID_INPUT', `backup ${file}: a folder; name a file to write`);
  if (exists && options.overwrite !== true)
    throw new CredenceError('INVALID_INPUT', `backup ${file}: the file exists; pass --force to replace it`);
  for (const beside of [`${target}-wal`, `${target}-shm`]) {
    if (existsSync(beside))
      throw new CredenceError(
        'INVALID_INPUT',
        `backup ${file}: ${beside} is beside it (a database in use, or one left with its log), and SQLite would ` +
          'read that log with the copy; stop what uses it and remove both its -wal and -shm, or name another file',
      );
  }
  const aside = join(dirname(target), `.${basename(target)}.${process.pid}.partial`);
  try {
    closeSync(openSync(aside, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600));
  } catch (error) {
    throw new CredenceError('INVALID_INPUT', `backup ${file}: ${unwritable(dirname(target), error)}`, { cause: error });
  }
  try {
    await db.backup(aside);
    if (options.overwrite === true) renameSync(aside, target);
    else placeNew(aside, target, file);
  } finally {
    rmSync(aside, { force: true });
    rmSync(`${aside}-journal`, { force: true });
  }
  return { file: target, bytes: statSync(target).size };
}

/** Why a file cannot be created in `folder`, naming the folder (or the file that stands where a folder should). */
function unwritable(folder: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return `the folder ${folder} does not exist; create it, or name a file in another folder`;
  if (code === 'ENOTDIR') {
    let part = folder;
    while (!existsSync(part) && dirname(part) !== part) part = dirname(part);
    return `${part} is not a folder; name a file in a folder`;
  }
  if (code === 'EACCES' || code === 'EPERM') return `no permission to write in the folder ${folder}`;
  if (code === 'EROFS') return `the folder ${folder} is on a read-only file system`;
  return `cannot write in the folder ${folder} (${(error as Error).message})`;
}

/** Moves `aside` to `target` unless a file appeared there meanwhile (a link fails on a name taken; a rename not). */
function placeNew(aside: string, target: string, file: string): void {
  try {
    linkSync(aside, target);
    return;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST')
      throw new CredenceError('INVALID_INPUT', `backup ${file}: the file exists; pass --force to replace it`);
    // A file system without hard links: checked, then renamed.
    if (existsSync(target))
      throw new CredenceError('INVALID_INPUT', `backup ${file}: the file exists; pass --force to replace it`);
    renameSync(aside, target);
  }
}
