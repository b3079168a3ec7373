/**
 * @module platform/new-file
 * A file a command writes whole (`credence backup FILE`, `credence dump FILE`): never the store's own database or
 * its log, never a folder, never a file that exists unless the command may replace it. The file is written aside
 * (0600) and put in place when complete, only if its name is still free (a link fails on a name taken; a rename
 * would replace it).
 */
import { existsSync, linkSync, realpathSync, renameSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { CredenceError } from '../core/errors.js';

/** How a command names a file it would write anew, for its refusals (`backup FILE`, `dump FILE`). */
export interface NewFile {
  /** The command's word, first in every refusal. */
  readonly command: string;
  /** The file as the user gave it, named in every refusal. */
  readonly file: string;
  /** What to do about a file that exists (`pass --force to replace it`). */
  readonly ifExists: string;
}

/**
 * Checks `target.file` before anything is written and returns its absolute path: refused (INVALID_INPUT) when empty,
 * when it is the SQLite store at `store` (or its -wal, -shm or -journal), a folder, or a file that exists (unless
 * `overwrite`).
 */
export function checkNewFile(target: NewFile, options: { store?: string; overwrite?: boolean } = {}): string {
  const { command, file } = target;
  if (file === '') throw new CredenceError('INVALID_INPUT', `${command}: name the file to write`);
  const path = resolve(file);
  if (options.store !== undefined && options.store !== ':memory:' && isStoreFile(path, resolve(options.store)))
    throw new CredenceError('INVALID_INPUT', `${command} ${file}: that is the store's own database; name another file`);
  if (!existsSync(path)) return path;
  if (statSync(path).isDirectory())
    throw new CredenceError('INVALID_INPUT', `${command} ${file}: a folder; name a file to write`);
  if (options.overwrite !== true) throw exists(target);
  return path;
}

/**
 * Whether `path` is the database `store` or its -wal, -shm or -journal, compared by real paths: a name through a
 * symbolic link (`here/s.db-journal`, here → the store's folder) is the same file, and SQLite deletes a -journal
 * it finds beside a WAL database.
 */
function isStoreFile(path: string, store: string): boolean {
  const stores = new Set([store, realName(store)]);
  const own = [...stores].flatMap((s) => [s, `${s}-wal`, `${s}-shm`, `${s}-journal`]);
  return [path, realName(path)].some((name) => own.includes(name));
}

/** The real path of `path` (links resolved): of the file when it exists, else of its folder plus its name. */
function realName(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    try {
      return join(realpathSync.native(dirname(path)), basename(path));
    } catch {
      return path;
    }
  }
}

/** Where a file for `path` is written before it is put in place: hidden, beside it, named after this process. */
export const asideOf = (path: string): string => join(dirname(path), `.${basename(path)}.${process.pid}.partial`);

/** Moves `aside` to `path` unless a file appeared there meanwhile (then refused, `aside` left for the caller). */
export function placeNew(aside: string, path: string, target: NewFile): void {
  try {
    linkSync(aside, path);
    return;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw exists(target);
    // A file system without hard links: checked, then renamed.
    if (existsSync(path)) throw exists(target);
    renameSync(aside, path);
  }
}

const exists = (target: NewFile): CredenceError =>
  new CredenceError('INVALID_INPUT', `${target.command} ${target.file}: the file exists; ${target.ifExists}`, {
    details: { path: target.file },
  });

/** Why a file cannot be created in `folder`, naming the folder (or the file that stands where a folder should). */
export function unwritable(folder: string, error: unknown): string {
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
