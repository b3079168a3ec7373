/**
 * @module store/sqlite/read-only-open
 * A read-only connection to a SQLite file, in a read-only folder too (a read-only mount): read whole into memory
 * when SQLite cannot make the file's -shm beside it. Apart from sqlite-store so that the package's declarations of
 * the store name no better-sqlite3 type (a consumer compiles them without @types/better-sqlite3).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { CredenceError } from '../../core/errors.js';

/**
 * A store read whole into memory at most this big: a larger one in a read-only folder is refused (copy it first). It
 * takes about twice its size while open (the file read, then SQLite's copy of it): 512 MiB, so 1 GiB of memory.
 */
export const IN_MEMORY_AT_MOST = 512 * 1024 ** 2;

/**
 * A read-only connection to the file at `path`. SQLite reads a WAL-mode file only with its -shm beside it, which it
 * makes when missing: in a read-only folder (a read-only mount) without one, the open fails
 * (SQLITE_READONLY_DIRECTORY, or CANTOPEN). This better-sqlite3 has no URI filenames (so no `immutable=1`), and a
 * file without its -wal holds every commit: such a file is then read whole into memory, its header marked as a
 * rollback-journal file (a WAL-mode image cannot be opened in memory), and opened read-only there; nothing is written
 * beside it. A file with a -wal that holds frames is refused, naming the copy that reads it.
 */
export function openReadOnly(
  path: string,
  {
    atMost = IN_MEMORY_AT_MOST,
    open = (file: string) => new Database(file, { readonly: true, fileMustExist: true }),
  }: {
    atMost?: number | undefined;
    /** Opens the file read-only (a test simulates a read-only folder's failure here). */
    open?: (file: string) => Database.Database;
  } = {},
): Database.Database {
  let db: Database.Database | undefined;
  try {
    db = open(path);
    db.pragma('user_version');
    return db;
  } catch (error) {
    db?.close();
    const code = (error as { code?: unknown }).code;
    if (code !== 'SQLITE_READONLY_DIRECTORY' && code !== 'SQLITE_CANTOPEN') throw error;
    const wal = `${path}-wal`;
    const size = statSync(path).size;
    if ((existsSync(wal) && statSync(wal).size > 0) || size > atMost)
      throw new CredenceError(
        'STORE_UNAVAILABLE',
        `cannot open the database at ${path}: its folder is read-only and SQLite cannot make its -shm there` +
          (size > atMost
            ? ` (the file is ${size} bytes, over the ${atMost} (${Math.round(atMost / 1024 ** 2)} MiB) read into ` +
              'memory at most)'
            : `, while its -wal holds commits not yet in the file`) +
          `: copy the file${existsSync(wal) ? ' with its -wal' : ''} to a writable folder and open the copy`,
        { cause: error, details: { path } },
      );
    const image = readFileSync(path);
    // Bytes 18 and 19 of the header: the file format versions, 2 for WAL mode, 1 for a rollback journal.
    if (image.length >= 20) image.fill(1, 18, 20);
    return new Database(image, { readonly: true });
  }
}
