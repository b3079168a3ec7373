/**
 * @module platform/files
 * Reads file-backed memories (instinct and skill files, a memory's `path`) only inside their root
 * (SPEC §8): a path that resolves outside it — by `..`, as an absolute path (POSIX or any Windows form),
 * or through a symbolic link — is refused with `PATH_OUTSIDE_ROOT`, lexically first (even when missing),
 * then component by component on disk from the root's real path (no excursion outside, even one that
 * comes back). Stored paths are root-relative (`normalizeMemoryPath` converts); an empty or NUL-holding
 * path, or the root itself, is `INVALID_INPUT`. Not covered: hard links, Windows-only name forms (8.3
 * short names, trailing dots, device names).
 */
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readlinkSync,
  readSync,
  realpathSync,
  type BigIntStats,
  type Stats,
} from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { CredenceError } from '../core/errors.js';
import { climbsAboveRoot, lexicalSegments as segmentsOf, looksAbsolute } from '../core/security/path-containment.js';
import { withoutBom } from '../core/text/plain-text.js';

export const FILE_READ_DEFAULTS = Object.freeze({
  /** Largest file `readFileInsideRoot` reads, in bytes. @default 1048576 (1 MiB) */
  maxBytes: 1024 * 1024,
});

export interface FileReadOptions {
  /** Largest file read, in bytes; a larger file is refused with `INVALID_INPUT`. @default 1048576 */
  maxBytes?: number;
  /** Bytes that are not UTF-8 are refused with `INVALID_INPUT` instead of read as U+FFFD. @default false */
  strictUtf8?: boolean;
}

/** Why a path was refused as outside its root (in the error's `details.reason`). */
export type OutsideReason = 'absolute' | 'above-root' | 'symlink';

const REASON_TEXT: Readonly<Record<OutsideReason, string>> = Object.freeze({
  absolute: 'absolute path',
  'above-root': 'goes above the root with ..',
  symlink: 'a symbolic link leads outside the root',
});

/** Symbolic links followed while resolving one path before giving up (Linux's own limit). */
const MAX_LINK_HOPS = 40;

/**
 * The real absolute path of `path`, given relative to `root`, when it resolves inside `root`
 * (symbolic links of the root and of every component followed).
 * @throws CredenceError `PATH_OUTSIDE_ROOT` (absolute, `..` above the root, a link leading out),
 *   `NOT_FOUND` (the path or the root does not exist), `INVALID_INPUT` (empty, NUL byte, the root
 *   itself, a link loop, the root is not a folder).
 */
export function resolveInsideRoot(root: string, path: string): string {
  return resolveWithRoot(root, path).real;
}

/**
 * The UTF-8 text of the file at `path` inside `root` (as `resolveInsideRoot`); a leading byte
 * order mark is dropped and invalid UTF-8 becomes U+FFFD.
 *
 * Against a swap between the check and the read (TOCTOU): the resolved path is `lstat`ed, then
 * opened with `O_NOFOLLOW` (a final component turned into a link fails) and `O_NONBLOCK` (a FIFO
 * swapped in cannot hang the read); the open descriptor's device and inode must equal the
 * `lstat`'s; and the open file's own path must lie inside the root — on Linux read from
 * `/proc/self/fd/N`, which names what was actually opened, so a parent folder swapped for a link
 * is caught too; elsewhere, as the best cheap check, the path is resolved again and must be
 * unchanged. The size is checked on the descriptor and the read stops one byte past the limit, so
 * a file that grows meanwhile is refused too.
 * @throws CredenceError as `resolveInsideRoot`; `INVALID_INPUT` for a folder, a file that is not
 *   regular, a file over `maxBytes`; `PATH_OUTSIDE_ROOT` when the file changed between the check
 *   and the open.
 */
export function readFileInsideRoot(root: string, path: string, options: FileReadOptions = {}): string {
  const maxBytes = options.maxBytes ?? FILE_READ_DEFAULTS.maxBytes;
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 0) {
    throw new CredenceError('INVALID_INPUT', `maxBytes must be a whole number of bytes ≥ 0, got ${String(maxBytes)}`, {
      details: { maxBytes },
    });
  }
  const { real, realRoot } = resolveWithRoot(root, path);
  const shown = `${quote(path)} (${quote(real)})`;

  const before = statOrThrow(real, path, root);
  if (before.isSymbolicLink()) throw changed(path, root, 'it became a symbolic link after it was resolved');
  checkRegularFile(before, shown, maxBytes, path);

  let fd: number;
  try {
    fd = openSync(real, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    const code = errnoOf(error);
    if (code === 'ELOOP') throw changed(path, root, 'it became a symbolic link after it was resolved');
    if (code === 'ENOENT')
      throw new CredenceError('NOT_FOUND', `file ${shown} disappeared before it could be opened`, {
        cause: error,
        details: { path },
      });
    if (code === 'EISDIR')
      throw new CredenceError('INVALID_INPUT', `${shown} is a folder, not a file`, { cause: error, details: { path } });
    throw fsFailure(error, path, root);
  }
  try {
    const opened = fstatSync(fd, { bigint: true });
    if (opened.dev !== before.dev || opened.ino !== before.ino)
      throw changed(path, root, 'a different file was opened than the one checked');
    checkRegularFile(opened, shown, maxBytes, path);
    if (!openedInside(fd, real, realRoot))
      throw changed(path, root, 'the opened file is no longer where it was resolved');
    return decodeUtf8(readAtMost(fd, maxBytes, shown, path), options.strictUtf8 === true ? shown : undefined);
  } finally {
    closeSync(fd);
  }
}

/**
 * The root-relative POSIX-style path (`src/auth.ts`) to store for `path`, given relative to `root`
 * or as an absolute path inside it (the root as given or its real path). `.`, `..` and repeated
 * separators are collapsed lexically; symbolic links are kept as named (a link inside the root
 * pointing inside it stays the link's name). The same refusals as `resolveInsideRoot` apply, except
 * that a path which does not exist (yet) is accepted: a memory may name a file that is gone.
 * @throws CredenceError `PATH_OUTSIDE_ROOT`, `INVALID_INPUT` (empty, NUL byte, the root itself),
 *   `NOT_FOUND` (the root does not exist).
 */
export function normalizeMemoryPath(root: string, path: string): string {
  checkPathText(path);
  if (!isAbsolute(path)) {
    if (looksAbsolute(path)) throw outside({ path, root }, 'absolute');
    lexicalSegments({ path, root }, path); // refuses `..` above the root before the root is read
  }
  const ctx = rootContext(root, path);
  let rel = path;
  if (isAbsolute(path)) {
    const absolute = resolve(path);
    const inside = insideRel(ctx.rootAbs, absolute) ?? insideRel(ctx.realRoot, absolute);
    if (inside === undefined) throw outside(ctx, 'absolute', absolute);
    rel = inside;
  }
  const segments = lexicalSegments(ctx, rel);
  const real = walk(ctx, segments, 0);
  if (segments.length === 0 || real === ctx.realRoot) throw rootItself(ctx);
  return segments.join('/');
}

// --- resolution -----------------------------------------------------------------------------

interface Names {
  /** The path as the caller gave it, for messages. */
  path: string;
  /** The root as the caller gave it, for messages. */
  root: string;
}

interface RootContext extends Names {
  /** The root made absolute, links not followed. */
  rootAbs: string;
  /** The root's real path. */
  realRoot: string;
}

function resolveWithRoot(root: string, path: string): { real: string; realRoot: string } {
  checkPathText(path);
  const names = { path, root };
  if (isAbsolute(path) || looksAbsolute(path)) throw outside(names, 'absolute');
  const segments = lexicalSegments(names, path);
  const ctx = rootContext(root, path);
  if (segments.length === 0) throw rootItself(ctx);
  const real = walk(ctx, segments, 0);
  if (real === undefined)
    throw new CredenceError('NOT_FOUND', `file ${quote(path)} does not exist under the root ${quote(root)}`, {
      details: { path, root },
    });
  if (real === ctx.realRoot) throw rootItself(ctx);
  return { real, realRoot: ctx.realRoot };
}

function checkPathText(path: string): void {
  if (typeof path !== 'string' || path === '') {
    throw new CredenceError('INVALID_INPUT', `a file path must be a non-empty string, got ${quote(path)}`, {
      details: { path },
    });
  }
  if (path.includes('\0')) {
    throw new CredenceError('INVALID_INPUT', `file path ${quote(path)} contains a NUL byte`, { details: { path } });
  }
}

function rootContext(root: string, path: string): RootContext {
  if (typeof root !== 'string' || root === '' || root.includes('\0')) {
    throw new CredenceError(
      'INVALID_INPUT',
      `the root must be a non-empty folder path without NUL bytes, got ${quote(root)}`,
      { details: { root } },
    );
  }
  const rootAbs = resolve(root);
  let realRoot: string;
  try {
    realRoot = realpathSync(rootAbs);
  } catch (error) {
    const code = errnoOf(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      throw new CredenceError('NOT_FOUND', `the root ${quote(root)} does not exist`, {
        cause: error,
        details: { root },
      });
    }
    throw fsFailure(error, root, root);
  }
  let isFolder: boolean;
  try {
    isFolder = lstatSync(realRoot).isDirectory();
  } catch (error) {
    throw fsFailure(error, root, root);
  }
  if (!isFolder) {
    throw new CredenceError('INVALID_INPUT', `the root ${quote(root)} is not a folder`, { details: { root } });
  }
  return { path, root, rootAbs, realRoot };
}

/**
 * The path's components with `.` and `..` applied; refuses a `..` that climbs above the root,
 * counting both `/` and `\` as separators on every platform.
 */
function lexicalSegments(names: Names, path: string): string[] {
  if (climbsAboveRoot(path)) throw outside(names, 'above-root');
  return segmentsOf(path, sep === '\\' ? 'both' : 'slash');
}

/**
 * Resolves `segments` from the root's real path, one component at a time, refusing any link whose
 * target is outside the root. Returns the real path, or undefined when a component is missing.
 */
function walk(ctx: RootContext, segments: readonly string[], hops: number): string | undefined {
  let current = ctx.realRoot;
  for (let i = 0; i < segments.length; i += 1) {
    const next = join(current, segments[i] as string);
    let stats: Stats;
    try {
      stats = lstatSync(next);
    } catch (error) {
      const code = errnoOf(error);
      if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
      throw fsFailure(error, ctx.path, ctx.root);
    }
    if (!stats.isSymbolicLink()) {
      current = next;
      continue;
    }
    let real: string;
    try {
      real = realpathSync(next);
    } catch (error) {
      const code = errnoOf(error);
      if (code === 'ELOOP' || hops >= MAX_LINK_HOPS) throw linkLoop(ctx, error);
      if (code === 'EINVAL') throw changed(ctx.path, ctx.root, 'a symbolic link changed while it was being resolved');
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw fsFailure(error, ctx.path, ctx.root);
      // A dangling link: follow its text to tell "leads outside" from "missing". A target outside
      // the root's path as given and its real path counts as outside (the safe side).
      let text: string;
      try {
        text = readlinkSync(next);
      } catch {
        throw changed(ctx.path, ctx.root, 'a symbolic link changed while it was being resolved');
      }
      const target = resolve(current, text);
      const inside = insideRel(ctx.realRoot, target) ?? insideRel(ctx.rootAbs, target);
      if (inside === undefined) throw outside(ctx, 'symlink', target);
      const rest = [...lexicalSegments(ctx, inside), ...segments.slice(i + 1)];
      return walk(ctx, rest, hops + 1);
    }
    if (insideRel(ctx.realRoot, real) === undefined) throw outside(ctx, 'symlink', real);
    current = real;
  }
  return current;
}

/**
 * `target` relative to `base` (both absolute, native separators) when it is `base` ('') or inside
 * it; undefined when outside. Lexical: links are not followed.
 */
export function insideRel(base: string, target: string): string | undefined {
  const rel = relative(base, target);
  if (rel === '') return '';
  if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return undefined;
  return rel;
}

// --- reading --------------------------------------------------------------------------------

function statOrThrow(real: string, path: string, root: string): BigIntStats {
  try {
    return lstatSync(real, { bigint: true });
  } catch (error) {
    const code = errnoOf(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      throw new CredenceError('NOT_FOUND', `file ${quote(path)} disappeared before it could be read`, {
        cause: error,
        details: { path },
      });
    }
    throw fsFailure(error, path, root);
  }
}

function checkRegularFile(stats: BigIntStats, shown: string, maxBytes: number, path: string): void {
  if (stats.isDirectory())
    throw new CredenceError('INVALID_INPUT', `${shown} is a folder, not a file`, { details: { path } });
  if (!stats.isFile())
    throw new CredenceError('INVALID_INPUT', `${shown} is not a regular file`, { details: { path } });
  if (stats.size > BigInt(maxBytes)) throw tooBig(shown, `${stats.size} bytes`, maxBytes, path);
}

/** Whether the file open on `fd` is still inside the root (see `readFileInsideRoot`). */
function openedInside(fd: number, real: string, realRoot: string): boolean {
  if (process.platform === 'linux') {
    let openedPath: string | undefined;
    try {
      openedPath = readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      openedPath = undefined; // no /proc: fall through to the portable check
    }
    if (openedPath !== undefined) {
      const rel = insideRel(realRoot, openedPath);
      return rel !== undefined && rel !== '';
    }
  }
  try {
    return realpathSync(real) === real;
  } catch {
    return false;
  }
}

function readAtMost(fd: number, maxBytes: number, shown: string, path: string): Buffer {
  const chunkSize = Math.min(maxBytes + 1, 64 * 1024);
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(chunkSize);
    const count = readSync(fd, chunk, 0, chunkSize, null);
    if (count === 0) break;
    chunks.push(chunk.subarray(0, count));
    total += count;
    if (total > maxBytes) throw tooBig(shown, 'more than the limit (it grew while being read)', maxBytes, path);
  }
  return Buffer.concat(chunks, total);
}

/** The text of `bytes`, a leading byte order mark dropped; with `strict` (the file as shown), bytes that are not
 * UTF-8 are refused instead of read as U+FFFD. */
function decodeUtf8(bytes: Buffer, strict?: string): string {
  let text: string;
  try {
    text = strict === undefined ? bytes.toString('utf8') : new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new CredenceError('INVALID_INPUT', `${strict} is not UTF-8 text (a Latin-1 or binary file?)`);
  }
  return withoutBom(text);
}

// --- errors ---------------------------------------------------------------------------------

function quote(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

function outside(ctx: Names, reason: OutsideReason, resolvedTo?: string): CredenceError {
  const to = resolvedTo === undefined ? '' : ` (resolves to ${quote(resolvedTo)})`;
  return new CredenceError(
    'PATH_OUTSIDE_ROOT',
    `path ${quote(ctx.path)} is outside the root ${quote(ctx.root)}: ${REASON_TEXT[reason]}${to}; ` +
      'give a path relative to the root that stays inside it',
    { details: { path: ctx.path, root: ctx.root, reason, ...(resolvedTo === undefined ? {} : { resolvedTo }) } },
  );
}

function rootItself(ctx: Names): CredenceError {
  return new CredenceError(
    'INVALID_INPUT',
    `path ${quote(ctx.path)} names the root ${quote(ctx.root)} itself, a folder; name a file inside it`,
    {
      details: { path: ctx.path, root: ctx.root },
    },
  );
}

function linkLoop(ctx: Names, cause: unknown): CredenceError {
  return new CredenceError(
    'INVALID_INPUT',
    `path ${quote(ctx.path)} under the root ${quote(ctx.root)} goes through a loop of symbolic links`,
    {
      cause,
      details: { path: ctx.path, root: ctx.root },
    },
  );
}

function changed(path: string, root: string, why: string): CredenceError {
  return new CredenceError(
    'PATH_OUTSIDE_ROOT',
    `file ${quote(path)} under the root ${quote(root)} changed while being checked: ${why}; refusing it`,
    {
      details: { path, root, reason: 'changed' },
    },
  );
}

function tooBig(shown: string, size: string, maxBytes: number, path: string): CredenceError {
  return new CredenceError('INVALID_INPUT', `file ${shown} is ${size}, over the limit of ${maxBytes} bytes`, {
    details: { path, maxBytes },
  });
}

function fsFailure(error: unknown, path: string, root: string): CredenceError {
  return new CredenceError(
    'INVALID_INPUT',
    `cannot resolve ${quote(path)} under the root ${quote(root)}: ${errnoOf(error) ?? String(error)}`,
    {
      cause: error,
      details: { path, root },
    },
  );
}

function errnoOf(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string'
    ? error.code
    : undefined;
}
