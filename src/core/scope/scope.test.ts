import { describe, expect, it } from 'vitest';
import { normalizeRemoteUrl, scopeIdFor, scopeOrigin } from './scope.js';

describe('normalizeRemoteUrl', () => {
  it('makes the SSH, HTTPS and .git forms of one repository agree', () => {
    const forms = [
      'git@github.com:Org/Repo.git',
      'https://github.com/org/repo',
      'https://user:secret@github.com/org/repo.git/',
      'ssh://git@github.com:22/org/repo.git',
    ];
    expect(new Set(forms.map(normalizeRemoteUrl))).toEqual(new Set(['github.com/org/repo']));
  });

  it('keeps different repositories apart', () => {
    expect(normalizeRemoteUrl('git@github.com:org/repo-a.git')).not.toBe(
      normalizeRemoteUrl('git@github.com:org/repo-b.git'),
    );
  });
});

describe('scopeIdFor', () => {
  it('names the scope after the repository and is the same for every clone', () => {
    const a = scopeIdFor({ remoteUrl: 'git@github.com:org/credence.git', path: '/home/a/credence' });
    const b = scopeIdFor({ remoteUrl: 'https://github.com/org/credence', path: '/tmp/elsewhere' });
    expect(a).toBe(b);
    expect(a).toMatch(/^credence-[0-9a-f]{12}$/);
  });

  it('falls back to the path when there is no remote', () => {
    const a = scopeIdFor({ path: '/home/a/My Project' });
    expect(a).toMatch(/^my-project-[0-9a-f]{12}$/);
    expect(a).not.toBe(scopeIdFor({ path: '/home/b/My Project' }));
  });
});

describe('scopeOrigin', () => {
  it('says where a scope came from, without repeating its name', () => {
    expect(scopeOrigin('flag', '--scope')).toBe('(from --scope)');
    expect(scopeOrigin('flag', 'CREDENCE_SCOPE')).toBe('(from CREDENCE_SCOPE)');
    expect(scopeOrigin('flag')).toBe('(from --scope or CREDENCE_SCOPE)');
    expect(scopeOrigin('global')).toBe('(default: not in a git repository)');
    expect(scopeOrigin('git-remote')).toMatch(/remote/);
    expect(scopeOrigin('git-path')).toMatch(/folder/);
    for (const s of ['flag', 'git-remote', 'git-path', 'global'] as const)
      expect(scopeOrigin(s)).not.toContain(`(${s})`);
  });
});
