/**
 * @module core/scope/scope
 * Scope identity (SPEC §2): a record belongs to the project it was made in — the git top-level of
 * the working directory, named by a hash of its normalised remote URL when it has one (so every
 * clone of a repository shares its scope), else of its path — or to `global`.
 */
import { sha256Hex } from '../text/sha256.js';

export const GLOBAL_SCOPE = 'global';

/**
 * Normalises a git remote so that its SSH, HTTPS and `.git` forms agree:
 * `git@github.com:Org/Repo.git`, `https://user:pw@github.com/org/repo/` → `github.com/org/repo`.
 */
export function normalizeRemoteUrl(url: string): string {
  let text = url.trim();
  const scp = /^(?:[^@/]+@)?([^:/]+):(?!\/)(.+)$/.exec(text);
  if (scp !== null && !/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    text = `${scp[1]}/${scp[2]}`;
  } else {
    text = text.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').replace(/^[^@/]*@/, '');
  }
  return text
    .replace(/:\d+(?=\/)/, '')
    .replace(/\/+$/, '')
    .replace(/\.git$/i, '')
    .replace(/\/+/g, '/')
    .toLowerCase();
}

/** A readable, stable scope id: the project's name and 12 hex digits of the hash of its identity. */
export function scopeIdFor(input: { remoteUrl?: string | undefined; path: string }): string {
  const identity =
    input.remoteUrl !== undefined && input.remoteUrl.trim() !== ''
      ? `remote:${normalizeRemoteUrl(input.remoteUrl)}`
      : `path:${input.path}`;
  const base =
    identity
      .slice(identity.indexOf(':') + 1)
      .split(/[\\/]/)
      .filter(Boolean)
      .pop() ?? 'root';
  const name =
    base
      .toLowerCase()
      .replace(/[^a-z0-9._-]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'project';
  const hash = sha256Hex(identity).slice(0, 12);
  return `${name}-${hash}`;
}

/** Where a process's scope came from (platform/git-scope `ResolvedScope.source`). */
export type ScopeSource = 'flag' | 'git-remote' | 'git-path' | 'global';

/**
 * The words after a scope's name saying where it came from: `(from --scope)` when the flag named it (`named`
 * says which of --scope and CREDENCE_SCOPE did, when the caller knows), `(from the git remote)`, `(from the git
 * folder's path)`, or `(default: not in a git repository)` for `global`.
 */
export function scopeOrigin(source: ScopeSource, named?: '--scope' | 'CREDENCE_SCOPE'): string {
  if (source === 'flag') return `(from ${named ?? '--scope or CREDENCE_SCOPE'})`;
  if (source === 'git-remote') return "(from the git repository's remote)";
  if (source === 'git-path') return "(from the git repository's folder)";
  return '(default: not in a git repository)';
}
