/**
 * @module engine/learning/atomic-files
 * Whole-file writes for evolve's files: a file is its old text or its new text, never a part, even after a crash
 * (written to an `O_EXCL | O_NOFOLLOW` temp file beside it, flushed to disk, renamed over it, the folder flushed).
 * `atomicWrite` does one file at once; `FileWrites` gathers a run's files and flushes them together (issue 20:
 * a run writing 117 skills waited on the disk 234 times, one after another).
 */

import { closeSync, constants, fchmodSync, fsyncSync, openSync, realpathSync, renameSync } from 'node:fs';
import { unlinkSync, writeFileSync, type Stats } from 'node:fs';
import { open } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { CredenceError, isCredenceError } from '../../core/errors.js';

export function show(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

export function errnoOf(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string'
    ? error.code
    : undefined;
}

export function fsFailure(error: unknown, path: string): CredenceError {
  if (isCredenceError(error)) return error;
  return new CredenceError('INVALID_INPUT', `cannot write ${show(path)}: ${errnoOf(error) ?? String(error)}`, {
    cause: error,
    details: { path },
  });
}

let tempCounter = 0;

/**
 * A new temp file beside `target` holding `text` (not yet flushed), with the previous file's mode; its descriptor
 * is left open for the caller to flush and close.
 */
function writeTemp(
  target: string,
  text: string,
  previous: Stats | undefined,
  shown: string,
): PendingFile & { fd: number } {
  const folder = dirname(target);
  let temp = '';
  let fd: number | undefined;
  for (let attempt = 0; fd === undefined; attempt += 1) {
    tempCounter += 1;
    temp = join(folder, `.${basename(target)}.${process.pid}.${tempCounter}.tmp`);
    try {
      fd = openSync(
        temp,
        constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0),
        0o644,
      );
    } catch (error) {
      if (errnoOf(error) !== 'EEXIST' || attempt >= 100) throw fsFailure(error, shown);
    }
  }
  try {
    if (previous !== undefined) fchmodSync(fd, previous.mode & 0o7777);
    writeFileSync(fd, text);
  } catch (error) {
    closeSync(fd);
    removeTemp(temp);
    throw fsFailure(error, shown);
  }
  return { target, temp, fd, text, folder, shown };
}

interface PendingFile {
  readonly target: string;
  readonly temp: string;
  readonly text: string;
  readonly folder: string;
  /** The root-relative path messages name. */
  readonly shown: string;
}

function removeTemp(temp: string): void {
  try {
    unlinkSync(temp);
  } catch {
    // already gone
  }
}

/** Renames a flushed, closed temp file over its target; refuses a folder that moved meanwhile. */
function moveIntoPlace(file: PendingFile): void {
  try {
    if (realpathSync(file.folder) !== file.folder) {
      throw new CredenceError(
        'PATH_OUTSIDE_ROOT',
        `the folder of ${show(file.shown)} changed while it was being written; refusing it`,
        { details: { path: file.shown, reason: 'changed' } },
      );
    }
    renameSync(file.temp, file.target);
  } catch (error) {
    removeTemp(file.temp);
    throw isCredenceError(error) ? error : fsFailure(error, file.shown);
  }
}

/** Writes `text` to `target` whole: temp file, flushed, renamed over the target, folder flushed. */
export function atomicWrite(target: string, text: string, previous: Stats | undefined, shown: string): void {
  const file = writeTemp(target, text, previous, shown);
  try {
    fsyncSync(file.fd);
  } catch (error) {
    removeTemp(file.temp);
    throw fsFailure(error, shown);
  } finally {
    closeSync(file.fd);
  }
  moveIntoPlace(file);
  syncFolder(file.folder);
}

/** Flushes the rename to disk where the platform allows opening a folder; best effort. */
function syncFolder(folder: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(folder, constants.O_RDONLY);
    fsyncSync(fd);
  } catch {
    // not supported here (Windows): the rename is still atomic
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Files or folders flushed at once: a run may write thousands, and each needs a descriptor while it waits. */
const FLUSH_AT_ONCE = 16;

/** Flushes a written file's data to disk (opened again: the run keeps no descriptor between write and commit). */
async function flushFile(path: string): Promise<void> {
  const handle = await open(path, constants.O_RDWR | (constants.O_NOFOLLOW ?? 0));
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** The same as syncFolder, waiting in libuv's thread pool (several folders at once). */
async function flushFolder(folder: string): Promise<void> {
  try {
    const handle = await open(folder, constants.O_RDONLY);
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // not supported here (Windows): the renames are still atomic
  }
}

/** `flush` of every item, FLUSH_AT_ONCE at a time; the index and error of the first failure, if any. */
async function flushAll<T>(
  items: readonly T[],
  flush: (item: T) => Promise<void>,
): Promise<{ at: number; error: unknown } | undefined> {
  for (let i = 0; i < items.length; i += FLUSH_AT_ONCE) {
    const done = await Promise.allSettled(items.slice(i, i + FLUSH_AT_ONCE).map(flush));
    const failed = done.findIndex((r) => r.status === 'rejected');
    if (failed >= 0) return { at: i + failed, error: (done[failed] as PromiseRejectedResult).reason };
  }
  return undefined;
}

/**
 * The files of one run, written together. `write` puts the text in a temp file beside the target at once (and
 * keeps no descriptor open); `commit` flushes the temp files to disk side by side (FLUSH_AT_ONCE at a time),
 * renames each over its target in the order written, then flushes each folder once. Until then the run reads
 * what it wrote from here (`pendingText`), and a later write or removal of the same file replaces or drops the
 * pending one. Each file stays whole: its old text or its new one, never a part.
 */
export class FileWrites {
  readonly #pending = new Map<string, PendingFile>();

  /** The text written to `target` (a real path) in this run and not yet committed. */
  pendingText(target: string): string | undefined {
    return this.#pending.get(target)?.text;
  }

  write(target: string, text: string, previous: Stats | undefined, shown: string): void {
    this.drop(target);
    const { fd, ...file } = writeTemp(target, text, previous, shown);
    closeSync(fd);
    this.#pending.set(target, file);
  }

  /** Forgets the pending write of `target`; whether there was one. */
  drop(target: string): boolean {
    const file = this.#pending.get(target);
    if (file === undefined) return false;
    this.#pending.delete(target);
    removeTemp(file.temp);
    return true;
  }

  /** Puts every pending file in place (see the class notes); the first failure is thrown, its temp files removed. */
  async commit(): Promise<void> {
    const files = [...this.#pending.values()];
    this.#pending.clear();
    if (files.length === 0) return;
    const failed = await flushAll(files, (file) => flushFile(file.temp));
    if (failed !== undefined) {
      for (const file of files) removeTemp(file.temp);
      throw fsFailure(failed.error, (files[failed.at] as PendingFile).shown);
    }
    for (let i = 0; i < files.length; i += 1) {
      try {
        moveIntoPlace(files[i] as PendingFile);
      } catch (error) {
        for (const rest of files.slice(i + 1)) removeTemp(rest.temp);
        throw error;
      }
    }
    await flushAll([...new Set(files.map((file) => file.folder))], flushFolder);
  }

  /** Removes every pending temp file (a run that failed before its commit). */
  discard(): void {
    for (const target of [...this.#pending.keys()]) this.drop(target);
  }
}
