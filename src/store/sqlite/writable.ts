/**
 * @module store/sqlite/writable
 * Whether this process can write a SQLite store, asked before SQLite opens it. SQLite gives the -wal and -shm
 * files it makes the database file's mode, so a store read while it was read-only (chmod 444) had them 0444, and
 * after `chmod 644` of the store every write still failed on them, named as the store. Such files this user owns
 * are made owner-writable again ({@link keepSideFilesWritable}); what still cannot be written is named, with
 * the command that fixes it ({@link unwritableCause}): the file, its -wal or -shm, or its folder.
 */
import { accessSync, chmodSync, constants, existsSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

const SIDE_FILES = ['-wal', '-shm'] as const;

const writable = (path: string): boolean => {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
};

const modeOf = (path: string): string => {
  try {
    return `mode ${(statSync(path).mode & 0o777).toString(8).padStart(4, '0')}`;
  } catch {
    return 'mode unknown';
  }
};

/**
 * Gives the store's -wal and -shm files their owner's write bit back, only files this user owns (root too: only
 * root's, never another user's files it could chmod): SQLite made them with the mode of a store that was
 * read-only then. Nothing is said when it does not: unwritableCause names what cannot be written.
 */
export function keepSideFilesWritable(path: string): void {
  const me = process.getuid?.();
  for (const side of SIDE_FILES) {
    try {
      const stat = statSync(`${path}${side}`);
      if (me !== undefined && stat.uid !== me) continue;
      if ((stat.mode & 0o200) === 0) chmodSync(`${path}${side}`, (stat.mode & 0o777) | 0o200);
    } catch {
      // Not there, or another user's: unwritableCause names it.
    }
  }
}

/**
 * Why this process cannot write the existing SQLite store at `path` (a sentence naming the file and the fix), or
 * undefined when it can (or there is no file yet).
 */
export function unwritableCause(path: string): string | undefined {
  if (!existsSync(path)) return undefined;
  if (!writable(path))
    return `the file is read-only for this user (${modeOf(path)}): make it writable (chmod u+w ${path})`;
  let missing = false;
  for (const side of SIDE_FILES) {
    const file = `${path}${side}`;
    if (!existsSync(file)) missing = true;
    else if (!writable(file))
      return (
        `its ${side.slice(1)} file ${file} is read-only for this user (${modeOf(file)}), though the database file ` +
        `is writable: make it writable (chmod u+w ${file})`
      );
  }
  const folder = dirname(path);
  if (missing && !writable(folder))
    return (
      `its folder ${folder} is read-only for this user (${modeOf(folder)}), and SQLite makes the database's ` +
      `-wal and -shm files there: make the folder writable (chmod u+w ${folder})`
    );
  return undefined;
}
