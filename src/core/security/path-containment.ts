/**
 * @module core/security/path-containment
 * The lexical half of keeping a path inside its root (SPEC §8), the one implementation shared by
 * the safe file reads (`platform/files.ts`), the learned files' folders (`engine/learning/skill-files.ts`) and
 * through them the Claude Code installer: what counts as absolute on any platform, and whether a
 * `..` climbs above the root. Pure (no file system): symbolic links are followed by `platform/files.ts`.
 */

/**
 * Whether `path` is absolute or drive-bound on some platform: POSIX `/x`, and the Windows forms
 * `\x`, `\\server\share`, `C:\x` and `C:x` — on every platform, so a stored path means the same
 * everywhere.
 */
export function looksAbsolute(path: string): boolean {
  return /^(?:[\\/]|[A-Za-z]:)/.test(path);
}

/** The parts of `path` between separators, `/` and `\` both counted (empty parts dropped). */
export function pathParts(path: string): string[] {
  return path.split(/[\\/]+/).filter((part) => part !== '');
}

/** Whether a `..` of `path` climbs above where it starts, `/` and `\` both counted as separators. */
export function climbsAboveRoot(path: string): boolean {
  let depth = 0;
  for (const part of pathParts(path)) {
    if (part === '..') {
      depth -= 1;
      if (depth < 0) return true;
    } else if (part !== '.') {
      depth += 1;
    }
  }
  return false;
}

/**
 * The components of relative `path` with `.` and `..` applied lexically (a `..` at the top is
 * dropped: check {@link climbsAboveRoot} first). `separators: 'slash'` splits on `/` only, as a
 * POSIX file system names files (`a\b` is one name there); `'both'` splits on `\` too.
 */
export function lexicalSegments(path: string, separators: 'slash' | 'both'): string[] {
  const segments: string[] = [];
  for (const part of path.split(separators === 'both' ? /[\\/]+/ : /\/+/)) {
    if (part === '..') segments.pop();
    else if (part !== '' && part !== '.') segments.push(part);
  }
  return segments;
}
