import { posix, win32 } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { climbsAboveRoot, lexicalSegments, looksAbsolute, pathParts } from './path-containment.js';

describe('looksAbsolute', () => {
  it('takes POSIX and every Windows absolute or drive-bound form as absolute, on every platform', () => {
    for (const path of ['/etc/passwd', '\\x', '\\\\server\\share\\x', '//server/share', 'C:\\x', 'c:/x', 'C:x', 'z:'])
      expect(looksAbsolute(path)).toBe(true);
    for (const path of ['a', './a', 'a/b', '..', '../x', 'ab:c', '1:x', '~/x', ''])
      expect(looksAbsolute(path)).toBe(false);
  });

  it('agrees with node: POSIX or Windows absolute, or a drive letter', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('/', '\\', 'C', 'c', ':', 'a', '.', '1'), { maxLength: 6 }), (parts) => {
        const path = parts.join('');
        expect(looksAbsolute(path)).toBe(posix.isAbsolute(path) || win32.isAbsolute(path) || /^[A-Za-z]:/.test(path));
      }),
    );
  });
});

describe('climbsAboveRoot', () => {
  it('is true when a .. climbs above the start, / and \\ both separators', () => {
    for (const path of ['..', '../x', 'a/../../x', '..\\x', 'a\\..\\..\\x', './..', 'a//..//..'])
      expect(climbsAboveRoot(path)).toBe(true);
    for (const path of ['a/..', 'a/b/../../c', 'x..', '..x/y', 'a/./b', '.', ''])
      expect(climbsAboveRoot(path)).toBe(false);
  });

  it('never climbs when the lexical walk stays inside', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('a', 'b', '.', '..'), { maxLength: 8 }),
        fc.constantFrom('/', '\\'),
        (parts, separator) => {
          const path = parts.join(separator);
          let depth = 0;
          let above = false;
          for (const p of parts) {
            depth += p === '..' ? -1 : p === '.' ? 0 : 1;
            if (depth < 0) above = true;
          }
          expect(climbsAboveRoot(path)).toBe(above);
        },
      ),
    );
  });
});

describe('lexicalSegments and pathParts', () => {
  it('applies . and .. lexically, splitting on / only or on both separators', () => {
    expect(lexicalSegments('a/./b//../c', 'slash')).toEqual(['a', 'c']);
    expect(lexicalSegments('a\\b', 'slash')).toEqual(['a\\b']);
    expect(lexicalSegments('a\\b\\..\\c', 'both')).toEqual(['a', 'c']);
    expect(pathParts('/a\\\\b//c/')).toEqual(['a', 'b', 'c']);
  });
});
