/**
 * @module store/sqlite/exit-without-close
 * A command-line query (recall, dag, tools search …) ends right after it answers; closing its connection would
 * checkpoint the few pages it wrote (the shown rows) and remove the log: two fsyncs, an unlink, and a new log header
 * synced by the next process (issue 20: ~10 ms of wall at 100k). A process that will end with `process.exit()`
 * (bin/credence.cjs says so) may leave its connection open, as a killed one would: the next connection reads the log
 * (SQLite's recovery) and a later close or checkpoint copies it in. Durability is `synchronous = NORMAL`'s: a power
 * loss may roll the last transactions back, a crash loses none. A log past {@link SMALL_WAL_BYTES} is checkpointed as
 * before. The database file alone is therefore no backup: `credence backup` (store/sqlite/backup) or a dump is.
 */
import { statSync } from 'node:fs';

/** Set (true) on `globalThis` by a process that will end with `process.exit()` once the command returns. */
export const EXIT_WITHOUT_CLOSE = Symbol.for('credence.sqlite.exitWithoutClose');
/** Set (true) on `globalThis` when a store left its connection open: the process must end with `process.exit()`. */
export const LEFT_OPEN = Symbol.for('credence.sqlite.leftOpen');

/** The largest write-ahead log left behind (64 pages of 4 KiB and their frame headers: a few queries' shown rows). */
export const SMALL_WAL_BYTES = 256 * 1024;

/**
 * Whether the connection of the database at `path` may be left open for the process's exit: the process said it ends
 * with `process.exit()`, the database is a file opened for writing and its log is at most {@link SMALL_WAL_BYTES}.
 * When so, the process is told ({@link LEFT_OPEN}).
 */
export function leaveOpenForExit(path: string, readonly: boolean): boolean {
  const process = globalThis as unknown as Record<symbol, unknown>;
  if (process[EXIT_WITHOUT_CLOSE] !== true || readonly || path === ':memory:' || path === '') return false;
  let size: number;
  try {
    size = statSync(`${path}-wal`).size;
  } catch {
    return false;
  }
  if (size > SMALL_WAL_BYTES) return false;
  process[LEFT_OPEN] = true;
  return true;
}
