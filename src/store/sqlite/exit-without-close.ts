/**
 * @module store/sqlite/exit-without-close
 * A command-line query (recall, dag, tools search …) ends the process right after it answers. Closing its SQLite
 * connection checkpoints the few pages it wrote (the shown rows) into the database and removes the write-ahead log:
 * two fsyncs and an unlink, and the next process's first commit writes and syncs a new log header (issue 20: ~10 ms of
 * such a process's wall time at 100k). A process that is going to end with `process.exit()` (bin/credence.cjs says so
 * before the command runs) may leave its connection open instead, as a killed process would: what it committed is in
 * the log, which the next connection reads (SQLite's recovery, a read of the frames) and a later close or automatic
 * checkpoint copies into the database. The durability is that of `synchronous = NORMAL`, the store's setting in every
 * process: a power loss may roll the last transactions back, a crash of the process loses none. A log past
 * {@link SMALL_WAL_BYTES} is checkpointed at close as before, so the next process's recovery stays short.
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
