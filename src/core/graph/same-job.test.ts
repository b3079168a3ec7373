import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { didSameJob, inputValues, jobKindOf } from './same-job.js';

const bash = (command: string) => ({ tool: 'Bash', input: JSON.stringify({ command }) });

describe('jobKindOf', () => {
  it('reads the kind of job from the first word of the tool name that names one', () => {
    expect(jobKindOf({ tool: 'Grep' })).toBe('search');
    expect(jobKindOf({ tool: 'filesystem:search_files' })).toBe('search');
    expect(jobKindOf({ tool: 'mcp__github__search_issues' })).toBe('search');
    expect(jobKindOf({ tool: 'Read' })).toBe('read');
    expect(jobKindOf({ tool: 'filesystem:get_file_info' })).toBe('read');
    expect(jobKindOf({ tool: 'Edit' })).toBe('write');
    expect(jobKindOf({ tool: 'MultiEdit' })).toBe('write');
    expect(jobKindOf({ tool: 'WebFetch' })).toBe('fetch');
    expect(jobKindOf({ tool: 'fetch_v2' })).toBe('fetch');
  });

  it('gives a shell call the kind of its command, or run', () => {
    expect(jobKindOf(bash('npm test'))).toBe('run');
    expect(jobKindOf(bash('cat docs/notes.md'))).toBe('read');
    expect(jobKindOf(bash('sudo /usr/bin/rg -n TODO src'))).toBe('search');
    expect(jobKindOf(bash('CI=1 curl -s https://example.com'))).toBe('fetch');
    expect(jobKindOf({ tool: 'Bash' })).toBe('run');
    expect(jobKindOf({ tool: 'Bash', input: '{"command": "cat a.txt"… [40 more characters]' })).toBe('run');
  });

  it('says nothing for a name without a job word', () => {
    expect(jobKindOf({ tool: 'weather_api' })).toBeUndefined();
    expect(jobKindOf({ tool: 'a' })).toBeUndefined();
  });
});

describe('inputValues', () => {
  it('collects the trimmed string values of the input JSON, nested ones included', () => {
    expect([...inputValues('{"path":" src/a.ts ","opts":{"q":["flights","x"]},"n":3}')].sort()).toEqual([
      'flights',
      'src/a.ts',
    ]);
  });

  it('has no values for a missing or unparseable input', () => {
    expect(inputValues(undefined).size).toBe(0);
    expect(inputValues('not json').size).toBe(0);
  });
});

describe('didSameJob', () => {
  it('a failed test run followed by an edit is the fix, not the same job (issue 17)', () => {
    expect(
      didSameJob(bash('npm test'), {
        tool: 'Edit',
        input: JSON.stringify({ file_path: 'src/users.ts', old_string: 'a', new_string: 'b' }),
      }),
    ).toBe(false);
  });

  it('an edit of the very file the failed test run named is still the fix', () => {
    expect(
      didSameJob(bash('npx vitest run src/users.test.ts'), {
        tool: 'Edit',
        input: JSON.stringify({ file_path: 'src/users.test.ts' }),
      }),
    ).toBe(false);
  });

  it('a failed search followed by another search tool is the same job', () => {
    expect(didSameJob({ tool: 'Grep' }, { tool: 'filesystem:search_files' })).toBe(true);
    expect(didSameJob({ tool: 'Grep' }, bash('rg -n auth src'))).toBe(true);
  });

  it('a failed read followed by cat in a shell is the same job; by a search it is not', () => {
    expect(didSameJob({ tool: 'Read' }, bash('cat docs/notes.md'))).toBe(true);
    expect(didSameJob({ tool: 'Read' }, { tool: 'Glob' })).toBe(false);
  });

  it('when a name says nothing, the same input value (path, URL, query) is the evidence', () => {
    const paris = (tool: string) => ({ tool, input: JSON.stringify({ city: 'Paris' }) });
    expect(didSameJob(paris('weather_api'), paris('forecast_service'))).toBe(true);
    expect(didSameJob(paris('weather_api'), { tool: 'forecast_service', input: '{"city":"Rome"}' })).toBe(false);
    expect(didSameJob({ tool: 'weather_api' }, { tool: 'forecast_service' })).toBe(false);
  });

  it('is symmetric in the kinds and never throws on any input text (property)', () => {
    const tool = fc.constantFrom('Grep', 'Read', 'Edit', 'Bash', 'weather_api', 'fetch_v1', 'x');
    fc.assert(
      fc.property(
        tool,
        tool,
        fc.option(fc.string(), { nil: undefined }),
        fc.option(fc.json(), { nil: undefined }),
        (a, b, ia, ib) => {
          const x = { tool: a, ...(ia === undefined ? {} : { input: ia }) };
          const y = { tool: b, ...(ib === undefined ? {} : { input: ib }) };
          expect(didSameJob(x, y)).toBe(didSameJob(y, x));
        },
      ),
    );
  });
});

describe('jobKindOf reads a shell command with the shared shell reading (issue 18: one shell parser)', () => {
  const bash = (command: string) => ({ tool: 'Bash', input: JSON.stringify({ command }) });

  it('sees the command inside quotes, a subshell, timeout and a comment line', () => {
    expect(jobKindOf(bash('"cat" notes.md'))).toBe('read');
    expect(jobKindOf(bash('(rg TODO src)'))).toBe('search');
    expect(jobKindOf(bash('timeout 30 curl -s https://example.com'))).toBe('fetch');
    expect(jobKindOf(bash('# look first\ngrep -n x a.ts'))).toBe('search');
    expect(jobKindOf(bash('xargs -0 cat'))).toBe('read');
    expect(jobKindOf(bash('CAT a.txt'))).toBe('read');
  });
});
