import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveScope } from './git-scope.js';

const dir = mkdtempSync(join(tmpdir(), 'credence-scope-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function repo(name: string, config: string): string {
  const root = join(dir, name);
  mkdirSync(join(root, '.git'), { recursive: true });
  mkdirSync(join(root, 'src', 'deep'), { recursive: true });
  writeFileSync(join(root, '.git', 'config'), config);
  return root;
}

describe('resolveScope', () => {
  it('uses the origin remote of the enclosing repository, from any subfolder', () => {
    const root = repo(
      'with-remote',
      '[core]\n\tbare = false\n[remote "upstream"]\n\turl = git@x.org:a/up.git\n' +
        '[remote "origin"]\n\turl = git@github.com:org/credence.git\n',
    );
    const fromRoot = resolveScope({ cwd: root });
    const fromDeep = resolveScope({ cwd: join(root, 'src', 'deep') });
    expect(fromRoot).toEqual(fromDeep);
    expect(fromRoot.source).toBe('git-remote');
    expect(fromRoot.scope).toMatch(/^credence-/);
    expect(fromRoot.root).toBe(root);
  });

  it('uses the path when the repository has no remote', () => {
    const root = repo('no-remote', '[core]\n\tbare = false\n');
    expect(resolveScope({ cwd: root })).toMatchObject({ source: 'git-path', root });
  });

  it('follows a worktree pointer file', () => {
    const main = repo('main-repo', '[remote "origin"]\n\turl = https://github.com/org/wt.git\n');
    const wt = join(dir, 'wt');
    mkdirSync(join(main, '.git', 'worktrees', 'wt'), { recursive: true });
    writeFileSync(join(main, '.git', 'worktrees', 'wt', 'commondir'), '../..\n');
    mkdirSync(wt);
    writeFileSync(join(wt, '.git'), `gitdir: ${join(main, '.git', 'worktrees', 'wt')}\n`);
    expect(resolveScope({ cwd: wt }).scope).toBe(resolveScope({ cwd: main }).scope);
  });

  it('lets --scope override everything', () => {
    expect(resolveScope({ cwd: dir, override: 'team-a' })).toEqual({ scope: 'team-a', source: 'flag' });
  });

  it('is global outside any repository', () => {
    const outside = join(dir, 'plain', 'folder');
    mkdirSync(outside, { recursive: true });
    expect(resolveScope({ cwd: outside, ceiling: dir })).toEqual({ scope: 'global', source: 'global' });
  });
});
