import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeOf } from '../../test/helpers.js';
import { isCredenceError, type CredenceError } from '../core/errors.js';
import { normalizeMemoryPath, readFileInsideRoot, resolveInsideRoot } from './files.js';
import { skillFileLayout, writeInstinctFile } from '../engine/learning/skill-files.js';

/** The CredenceError `fn` throws (fails the test when it throws nothing or something else). */
function errorOf(fn: () => unknown): CredenceError {
  try {
    fn();
  } catch (error) {
    if (isCredenceError(error)) return error;
    throw error;
  }
  throw new Error('expected a CredenceError, nothing was thrown');
}

let base: string; // the real temporary folder holding everything below
let root: string; // <base>/root: the root the tests read inside
let rootLink: string; // <base>/root-link -> <base>/root

beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'credence-files-')));
  root = join(base, 'root');
  rootLink = join(base, 'root-link');
  mkdirSync(join(root, 'skills', 'auth'), { recursive: true });
  mkdirSync(join(root, 'instincts'));
  writeFileSync(join(root, 'notes.md'), 'top-level note\n');
  writeFileSync(join(root, 'skills', 'auth', 'SKILL.md'), '---\nname: auth\n---\nRefresh JWT tokens.\n');
  writeFileSync(join(root, 'bom.md'), '\uFEFFwith a byte order mark');
  mkdirSync(join(base, 'outside'));
  writeFileSync(join(base, 'outside', 'secret.txt'), 'outside secret');
  // A sibling whose name starts with the root's: a prefix test alone would take it for inside.
  mkdirSync(join(base, 'root-evil'));
  writeFileSync(join(base, 'root-evil', 'x.md'), 'evil');

  symlinkSync(root, rootLink);
  symlinkSync(join(base, 'outside', 'secret.txt'), join(root, 'file-out'));
  symlinkSync(join(base, 'outside'), join(root, 'dir-out'));
  symlinkSync('../outside/secret.txt', join(root, 'relative-out'));
  symlinkSync(join(base, 'root-evil', 'x.md'), join(root, 'prefix-out'));
  symlinkSync('skills/auth/SKILL.md', join(root, 'file-in'));
  symlinkSync(join(root, 'skills'), join(root, 'dir-in'));
  symlinkSync(join(rootLink, 'notes.md'), join(root, 'via-root-link')); // absolute, through the linked root name
  symlinkSync(join(base, 'outside', 'missing.txt'), join(root, 'dangling-out'));
  symlinkSync('instincts/missing.md', join(root, 'dangling-in'));
  symlinkSync('.', join(root, 'self'));
  symlinkSync('loop-b', join(root, 'loop-a'));
  symlinkSync('loop-a', join(root, 'loop-b'));
});

afterAll(() => {
  rmSync(base, { recursive: true, force: true });
});

describe('resolveInsideRoot', () => {
  it('returns the real path of a file inside the root', () => {
    expect(resolveInsideRoot(root, 'notes.md')).toBe(join(root, 'notes.md'));
    expect(resolveInsideRoot(root, './notes.md')).toBe(join(root, 'notes.md'));
  });

  it('returns the real path of a nested file, and of a nested folder', () => {
    expect(resolveInsideRoot(root, 'skills/auth/SKILL.md')).toBe(join(root, 'skills', 'auth', 'SKILL.md'));
    expect(resolveInsideRoot(root, 'skills//auth/')).toBe(join(root, 'skills', 'auth'));
  });

  it('accepts a .. that stays inside the root', () => {
    expect(resolveInsideRoot(root, 'instincts/../notes.md')).toBe(join(root, 'notes.md'));
  });

  it.each(['../x', '../outside/secret.txt', 'a/../../x', 'skills/../../outside/secret.txt', '..'])(
    'refuses %j, which goes above the root with ..',
    (path) => {
      const error = errorOf(() => resolveInsideRoot(root, path));
      expect(error.code).toBe('PATH_OUTSIDE_ROOT');
      expect(error.details?.reason).toBe('above-root');
      expect(error.message).toContain(JSON.stringify(path));
      expect(error.message).toContain(JSON.stringify(root));
    },
  );

  it.each(['..\\x', 'a\\..\\..\\x', 'skills\\..\\..\\outside\\secret.txt'])(
    'refuses the Windows-style %j on every platform',
    (path) => {
      expect(codeOf(() => resolveInsideRoot(root, path))).toBe('PATH_OUTSIDE_ROOT');
    },
  );

  it('refuses an absolute path, even one inside the root', () => {
    for (const path of [join(base, 'outside', 'secret.txt'), join(root, 'notes.md'), '/etc/passwd']) {
      const error = errorOf(() => resolveInsideRoot(root, path));
      expect(error.code).toBe('PATH_OUTSIDE_ROOT');
      expect(error.details?.reason).toBe('absolute');
      expect(error.message).toContain(JSON.stringify(path));
    }
  });

  it.each(['C:\\Windows\\win.ini', 'C:/x', 'C:x', '\\x', '\\\\server\\share\\x'])(
    'refuses the Windows absolute or drive form %j',
    (path) => {
      expect(codeOf(() => resolveInsideRoot(root, path))).toBe('PATH_OUTSIDE_ROOT');
    },
  );

  it('refuses a symbolic link to a file outside the root (absolute or relative target)', () => {
    for (const path of ['file-out', 'relative-out']) {
      const error = errorOf(() => resolveInsideRoot(root, path));
      expect(error.code).toBe('PATH_OUTSIDE_ROOT');
      expect(error.details?.reason).toBe('symlink');
      expect(error.message).toContain(JSON.stringify(path));
    }
  });

  it('refuses a path through a symbolic link to a folder outside the root', () => {
    expect(codeOf(() => resolveInsideRoot(root, 'dir-out/secret.txt'))).toBe('PATH_OUTSIDE_ROOT');
    expect(codeOf(() => resolveInsideRoot(root, 'dir-out'))).toBe('PATH_OUTSIDE_ROOT');
  });

  it('refuses a link into a sibling folder whose name starts with the root name', () => {
    expect(codeOf(() => resolveInsideRoot(root, 'prefix-out'))).toBe('PATH_OUTSIDE_ROOT');
  });

  it('follows a symbolic link inside the root that points inside it', () => {
    expect(resolveInsideRoot(root, 'file-in')).toBe(join(root, 'skills', 'auth', 'SKILL.md'));
    expect(resolveInsideRoot(root, 'dir-in/auth/SKILL.md')).toBe(join(root, 'skills', 'auth', 'SKILL.md'));
    expect(resolveInsideRoot(root, 'via-root-link')).toBe(join(root, 'notes.md'));
    expect(resolveInsideRoot(root, 'self/notes.md')).toBe(join(root, 'notes.md'));
  });

  it('works when the root itself is a symbolic link', () => {
    expect(resolveInsideRoot(rootLink, 'notes.md')).toBe(join(root, 'notes.md'));
    expect(resolveInsideRoot(rootLink, 'via-root-link')).toBe(join(root, 'notes.md'));
    expect(codeOf(() => resolveInsideRoot(rootLink, 'file-out'))).toBe('PATH_OUTSIDE_ROOT');
    expect(codeOf(() => resolveInsideRoot(rootLink, '../outside/secret.txt'))).toBe('PATH_OUTSIDE_ROOT');
  });

  it('reports a missing file as NOT_FOUND, naming it', () => {
    for (const path of ['missing.md', 'instincts/missing.md', 'nope/deeper/x.md', 'notes.md/x', 'dangling-in']) {
      const error = errorOf(() => resolveInsideRoot(root, path));
      expect(error.code).toBe('NOT_FOUND');
      expect(error.message).toContain(JSON.stringify(path));
    }
  });

  it('refuses a missing path outside the root as outside, not as missing', () => {
    expect(codeOf(() => resolveInsideRoot(root, '../does-not-exist.md'))).toBe('PATH_OUTSIDE_ROOT');
    expect(codeOf(() => resolveInsideRoot(root, join(base, 'does-not-exist.md')))).toBe('PATH_OUTSIDE_ROOT');
    expect(codeOf(() => resolveInsideRoot(root, 'dangling-out'))).toBe('PATH_OUTSIDE_ROOT');
    expect(codeOf(() => resolveInsideRoot(root, 'dir-out/does-not-exist.md'))).toBe('PATH_OUTSIDE_ROOT');
  });

  it('refuses a path with a NUL byte', () => {
    const error = errorOf(() => resolveInsideRoot(root, 'notes.md\0.txt'));
    expect(error.code).toBe('INVALID_INPUT');
    expect(codeOf(() => resolveInsideRoot(root, '../../etc/passwd\0.md'))).toBe('INVALID_INPUT');
  });

  it('refuses an empty path and a path naming the root itself', () => {
    for (const path of ['', '.', './', 'skills/..', 'self']) {
      expect(codeOf(() => resolveInsideRoot(root, path))).toBe('INVALID_INPUT');
    }
  });

  it('refuses a loop of symbolic links', () => {
    expect(codeOf(() => resolveInsideRoot(root, 'loop-a'))).toBe('INVALID_INPUT');
  });

  it('reports a missing root as NOT_FOUND and a root that is a file as INVALID_INPUT', () => {
    const error = errorOf(() => resolveInsideRoot(join(base, 'no-such-root'), 'x.md'));
    expect(error.code).toBe('NOT_FOUND');
    expect(error.message).toContain('no-such-root');
    expect(codeOf(() => resolveInsideRoot(join(root, 'notes.md'), 'x.md'))).toBe('INVALID_INPUT');
  });
});

describe('readFileInsideRoot', () => {
  it('reads a file inside the root as UTF-8', () => {
    expect(readFileInsideRoot(root, 'notes.md')).toBe('top-level note\n');
    expect(readFileInsideRoot(rootLink, 'file-in')).toBe('---\nname: auth\n---\nRefresh JWT tokens.\n');
  });

  it('drops a leading byte order mark', () => {
    expect(readFileInsideRoot(root, 'bom.md')).toBe('with a byte order mark');
  });

  it('refuses what resolveInsideRoot refuses', () => {
    expect(codeOf(() => readFileInsideRoot(root, '../outside/secret.txt'))).toBe('PATH_OUTSIDE_ROOT');
    expect(codeOf(() => readFileInsideRoot(root, 'file-out'))).toBe('PATH_OUTSIDE_ROOT');
    expect(codeOf(() => readFileInsideRoot(root, 'dir-out/secret.txt'))).toBe('PATH_OUTSIDE_ROOT');
    expect(codeOf(() => readFileInsideRoot(root, join(root, 'notes.md')))).toBe('PATH_OUTSIDE_ROOT');
    expect(codeOf(() => readFileInsideRoot(root, 'missing.md'))).toBe('NOT_FOUND');
    expect(codeOf(() => readFileInsideRoot(root, '.'))).toBe('INVALID_INPUT');
  });

  it('refuses a folder, naming it', () => {
    for (const path of ['skills', 'dir-in/auth']) {
      const error = errorOf(() => readFileInsideRoot(root, path));
      expect(error.code).toBe('INVALID_INPUT');
      expect(error.message).toContain(JSON.stringify(path));
    }
  });

  it('refuses a file over maxBytes, naming its size and the limit, and reads one at the limit', () => {
    writeFileSync(join(root, 'ten.txt'), '0123456789');
    const error = errorOf(() => readFileInsideRoot(root, 'ten.txt', { maxBytes: 9 }));
    expect(error.code).toBe('INVALID_INPUT');
    expect(error.message).toContain('10 bytes');
    expect(error.message).toContain('9 bytes');
    expect(readFileInsideRoot(root, 'ten.txt', { maxBytes: 10 })).toBe('0123456789');
    expect(readFileInsideRoot(root, 'ten.txt', { maxBytes: 10_000 })).toBe('0123456789');
  });

  it('has a default limit of 1 MiB', () => {
    writeFileSync(join(root, 'one-mib.txt'), 'a'.repeat(1024 * 1024));
    writeFileSync(join(root, 'over.txt'), 'a'.repeat(1024 * 1024 + 1));
    expect(readFileInsideRoot(root, 'one-mib.txt')).toHaveLength(1024 * 1024);
    expect(codeOf(() => readFileInsideRoot(root, 'over.txt'))).toBe('INVALID_INPUT');
  });

  it('refuses a maxBytes that is not a whole number ≥ 0', () => {
    for (const maxBytes of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(codeOf(() => readFileInsideRoot(root, 'notes.md', { maxBytes }))).toBe('INVALID_INPUT');
    }
  });

  it.skipIf(process.platform === 'win32')('refuses a FIFO without blocking on it', () => {
    const fifo = join(root, 'pipe');
    try {
      execFileSync('mkfifo', [fifo]);
    } catch {
      return; // no mkfifo here: nothing to test
    }
    expect(codeOf(() => readFileInsideRoot(root, 'pipe'))).toBe('INVALID_INPUT');
  });
});

describe('normalizeMemoryPath', () => {
  it('returns a root-relative path with . , .. and repeated separators collapsed', () => {
    expect(normalizeMemoryPath(root, 'skills/auth/SKILL.md')).toBe('skills/auth/SKILL.md');
    expect(normalizeMemoryPath(root, './skills//auth/./SKILL.md')).toBe('skills/auth/SKILL.md');
    expect(normalizeMemoryPath(root, 'instincts/../notes.md')).toBe('notes.md');
    expect(normalizeMemoryPath(root, 'skills/auth/')).toBe('skills/auth');
  });

  it('turns an absolute path inside the root into a root-relative one, by the root as given or its real path', () => {
    expect(normalizeMemoryPath(root, join(root, 'skills', 'auth', 'SKILL.md'))).toBe('skills/auth/SKILL.md');
    expect(normalizeMemoryPath(rootLink, join(rootLink, 'notes.md'))).toBe('notes.md');
    expect(normalizeMemoryPath(rootLink, join(root, 'notes.md'))).toBe('notes.md');
    expect(normalizeMemoryPath(root, `${root}/instincts/../notes.md`)).toBe('notes.md');
  });

  it('accepts a path that does not exist yet', () => {
    expect(normalizeMemoryPath(root, 'src/auth.ts')).toBe('src/auth.ts');
    expect(normalizeMemoryPath(root, join(root, 'src', 'auth.ts'))).toBe('src/auth.ts');
  });

  it('keeps a symbolic link inside the root under its own name', () => {
    expect(normalizeMemoryPath(root, 'file-in')).toBe('file-in');
    expect(normalizeMemoryPath(root, 'dir-in/auth/SKILL.md')).toBe('dir-in/auth/SKILL.md');
  });

  it('refuses outside paths the same way as resolveInsideRoot', () => {
    const cases: ReadonlyArray<readonly [string, string]> = [
      ['../x', 'above-root'],
      ['a/../../x', 'above-root'],
      ['..\\x', 'above-root'],
      [join(base, 'outside', 'secret.txt'), 'absolute'],
      [`${root}/../outside/secret.txt`, 'absolute'],
      [join(base, 'root-evil', 'x.md'), 'absolute'],
      ['C:\\x', 'absolute'],
      ['file-out', 'symlink'],
      ['dir-out/secret.txt', 'symlink'],
      ['dir-out/does-not-exist.md', 'symlink'],
      ['dangling-out', 'symlink'],
    ];
    for (const [path, reason] of cases) {
      const error = errorOf(() => normalizeMemoryPath(root, path));
      expect(error.code, path).toBe('PATH_OUTSIDE_ROOT');
      expect(error.details?.reason, path).toBe(reason);
      expect(error.message).toContain(JSON.stringify(path));
    }
  });

  it('refuses an empty path, the root itself and a NUL byte', () => {
    for (const path of ['', '.', root, 'skills/..', 'self', 'notes.md\0']) {
      expect(
        codeOf(() => normalizeMemoryPath(root, path)),
        JSON.stringify(path),
      ).toBe('INVALID_INPUT');
    }
  });

  it('gives back a path that resolveInsideRoot finds', () => {
    const stored = normalizeMemoryPath(rootLink, join(root, 'skills', 'auth', '..', 'auth', 'SKILL.md'));
    expect(readFileInsideRoot(rootLink, stored)).toContain('Refresh JWT tokens.');
  });
});

describe('one containment for reads and for the learned files (issue 18)', () => {
  it('refuses the same .. and absolute forms in a read path and in a learned-files folder', () => {
    for (const path of [
      '..',
      '../outside',
      'a/../../outside',
      '..\\outside',
      '/etc',
      '\\\\server\\share',
      'C:\\x',
      'C:x',
    ]) {
      expect(errorOf(() => resolveInsideRoot(root, path)).code).toBe('PATH_OUTSIDE_ROOT');
      expect(errorOf(() => skillFileLayout({ root, dir: path })).code).toBe('PATH_OUTSIDE_ROOT');
    }
  });

  it('refuses a folder linked outside the root both for a read and for a learned file written there', () => {
    expect(errorOf(() => resolveInsideRoot(root, 'dir-out/secret.txt')).code).toBe('PATH_OUTSIDE_ROOT');
    const instinct = { slug: 'x', text: 'x', confidence: 0.5, band: 'tentative' as const, evidence: [], updatedAt: 0 };
    expect(errorOf(() => writeInstinctFile({ root, instinctsDir: 'dir-out' }, instinct)).code).toBe(
      'PATH_OUTSIDE_ROOT',
    );
  });
});
