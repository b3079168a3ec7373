import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dropOptions, launchedWords, splitShell } from './shell-words.js';

describe('splitShell', () => {
  it('cuts a command line into its simple commands, quotes and escapes removed (a redirection ends a word)', () => {
    expect(splitShell(`cd web && CI=1 npm test | tee "out file.txt"; echo 'a;b' \\; done`)).toEqual([
      ['cd', 'web'],
      ['CI=1', 'npm', 'test'],
      ['tee', 'out file.txt'],
      ['echo', 'a;b', ';', 'done'],
    ]);
    expect(splitShell('(cat a.txt) 2>&1 >log # a comment\n`ls`')).toEqual([
      ['cat', 'a.txt'],
      ['2', '1', 'log'],
      ['ls'],
    ]);
  });

  it('skips here-document bodies', () => {
    expect(splitShell("cat <<-'EOF' >x\n\tnpm test\n\tEOF\ngit commit -m done")).toEqual([
      ['cat', 'x'],
      ['git', 'commit', '-m', 'done'],
    ]);
  });

  it('never throws and yields no empty word lists', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (command) => {
        for (const words of splitShell(command)) expect(words.length).toBeGreaterThan(0);
      }),
    );
  });
});

describe('launchedWords', () => {
  it('takes off what only launches a command', () => {
    expect(launchedWords(['CI=1', 'sudo', '-u', 'me', 'timeout', '5', '/usr/bin/rg', 'x'])).toEqual(['rg', 'x']);
    expect(launchedWords(['pnpm', '--filter', 'web', 'run', 'test'])).toEqual(['npm', 'test']);
    expect(launchedWords(['npx', 'vitest', 'run'])).toEqual(['vitest', 'run']);
    expect(launchedWords(['uv', 'run', 'pytest'])).toEqual(['pytest']);
    expect(launchedWords(['python3', '-m', 'pytest'])).toEqual(['pytest']);
    expect(launchedWords(['./gradlew', 'test'])).toEqual(['gradle', 'test']);
  });

  it('drops leading options, the values of the named ones and a --', () => {
    expect(dropOptions(['-n', '5', '-x', '--', '-y'], ['-n'])).toEqual(['-y']);
  });
});
