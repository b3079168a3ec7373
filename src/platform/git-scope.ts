/**
 * @module platform/git-scope
 * Finds the scope of a working directory (SPEC §2) by reading the repository's files directly —
 * no `git` process is spawned, so a hook stays fast.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { GLOBAL_SCOPE, scopeIdFor } from '../core/scope/scope.js';

export interface ResolvedScope {
  scope: string;
  /** How it was chosen: the --scope flag, the repository's remote, its path, or no repository. */
  source: 'flag' | 'git-remote' | 'git-path' | 'global';
  /** The repository's top-level folder, when there is one. */
  root?: string;
}

/**
 * Resolves the scope for `cwd`; an explicit `override` wins. The search for a repository stops at
 * `ceiling` (like GIT_CEILING_DIRECTORIES) when given.
 */
export function resolveScope(options: { cwd: string; override?: string | undefined; ceiling?: string }): ResolvedScope {
  if (options.override !== undefined && options.override.trim() !== '')
    return { scope: options.override.trim(), source: 'flag' };
  const repo = findRepository(
    resolve(options.cwd),
    options.ceiling === undefined ? undefined : resolve(options.ceiling),
  );
  if (repo === undefined) return { scope: GLOBAL_SCOPE, source: 'global' };
  const remoteUrl = readRemoteUrl(repo.gitDir);
  return remoteUrl === undefined
    ? { scope: scopeIdFor({ path: repo.root }), source: 'git-path', root: repo.root }
    : { scope: scopeIdFor({ remoteUrl, path: repo.root }), source: 'git-remote', root: repo.root };
}

function findRepository(start: string, ceiling: string | undefined): { root: string; gitDir: string } | undefined {
  for (let dir = start; ; dir = dirname(dir)) {
    const dotGit = join(dir, '.git');
    if (existsSync(dotGit)) {
      if (statSync(dotGit).isDirectory()) return { root: dir, gitDir: dotGit };
      // A worktree or submodule: `.git` is a file naming the real git folder.
      const pointer = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8'));
      if (pointer?.[1] !== undefined) {
        const target = pointer[1].trim();
        return { root: dir, gitDir: isAbsolute(target) ? target : resolve(dir, target) };
      }
    }
    if (dirname(dir) === dir || dir === ceiling) return undefined;
  }
}

function readRemoteUrl(gitDir: string): string | undefined {
  const candidates = [join(gitDir, 'config')];
  const common = join(gitDir, 'commondir');
  if (existsSync(common)) candidates.unshift(join(resolve(gitDir, readFileSync(common, 'utf8').trim()), 'config'));
  for (const file of candidates) {
    if (!existsSync(file)) continue;
    const remotes = parseRemotes(readFileSync(file, 'utf8'));
    const url = remotes.get('origin') ?? remotes.values().next().value;
    if (url !== undefined) return url;
  }
  return undefined;
}

function parseRemotes(config: string): Map<string, string> {
  const remotes = new Map<string, string>();
  let current: string | undefined;
  for (const line of config.split(/\r?\n/)) {
    const section = /^\s*\[\s*remote\s+"([^"]+)"\s*\]/.exec(line);
    if (section !== null) {
      current = section[1];
      continue;
    }
    if (/^\s*\[/.test(line)) {
      current = undefined;
      continue;
    }
    const url = /^\s*url\s*=\s*(.+?)\s*$/.exec(line);
    if (current !== undefined && url?.[1] !== undefined && !remotes.has(current)) remotes.set(current, url[1]);
  }
  return remotes;
}
