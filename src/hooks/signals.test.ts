import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codeOf, thrown } from '../../test/helpers.js';
import {
  COMMIT_PATTERNS,
  COMMIT_STYLES,
  COVERAGE_PATTERNS,
  commitMessage,
  commitMessageStyle,
  coverageOf,
  CORRECTION_RULES,
  HOOK_SIGNAL_LIMITS,
  OBSERVE_DEFAULTS,
  bashExitCode,
  classifyCommand,
  detectCorrection,
  filePathsOf,
  observationsFor,
  parseObserveConfig,
} from './signals.js';
import type { HookSignalEvent, ObserveConfig, SessionObserveState } from './signals.js';
import { isCredenceError } from '../core/errors.js';

const config = OBSERVE_DEFAULTS;

describe('parseObserveConfig', () => {
  it('gives every default for an empty object: all triggers on and the common test runners', () => {
    expect(parseObserveConfig({})).toEqual({
      failedCalls: true,
      testRuns: true,
      commits: true,
      corrections: true,
      autoEvolve: true,
      testCommands: [
        'npm test',
        'npm run test',
        'npx vitest',
        'vitest',
        'jest',
        'pytest',
        'go test',
        'cargo test',
        'mvn test',
        'gradle test',
        'dotnet test',
        'rspec',
        'phpunit',
      ],
    });
  });

  it('takes the switches that are given and keeps the defaults of the others', () => {
    const parsed = parseObserveConfig({ commits: false, corrections: false });
    expect(parsed).toMatchObject({ failedCalls: true, testRuns: true, commits: false, corrections: false });
    expect(parsed.testCommands).toEqual(OBSERVE_DEFAULTS.testCommands);
  });

  it('replaces the test commands with the given list, trimmed; an empty list recognises no test run', () => {
    expect(parseObserveConfig({ testCommands: ['  make check ', 'tox'] }).testCommands).toEqual(['make check', 'tox']);
    const none = parseObserveConfig({ testCommands: [] });
    expect(classifyCommand('npm test', none)).toBeUndefined();
  });

  it('returns a frozen value and leaves its input alone', () => {
    const input = { testCommands: ['tox'] };
    const parsed = parseObserveConfig(input);
    expect(Object.isFrozen(parsed)).toBe(true);
    expect(Object.isFrozen(parsed.testCommands)).toBe(true);
    expect(input).toEqual({ testCommands: ['tox'] });
    expect(Object.isFrozen(OBSERVE_DEFAULTS)).toBe(true);
  });

  it('rejects unknown keys and names every one of them', () => {
    const error = thrown(() => parseObserveConfig({ commit: false, tests: true, failedCalls: true }));
    expect(isCredenceError(error, 'INVALID_INPUT')).toBe(true);
    expect((error as { details: Record<string, unknown> }).details).toEqual({ unknownKeys: ['commit', 'tests'] });
  });

  it.each([
    ['null', null],
    ['an array', [true]],
    ['a string', 'commits'],
    ['a number', 1],
    ['undefined', undefined],
  ])('rejects %s as the whole file', (_, value) => {
    expect(codeOf(() => parseObserveConfig(value))).toBe('INVALID_INPUT');
  });

  it.each([
    ['a switch given as a string', { commits: 'no' }],
    ['a switch given as a number', { testRuns: 0 }],
    ['testCommands as a string', { testCommands: 'npm test' }],
    ['a test command that is not a string', { testCommands: ['npm test', 3] }],
    ['an empty test command', { testCommands: ['  '] }],
    ['a test command that is only a comment', { testCommands: ['# npm test'] }],
    ['a test command with a shell operator', { testCommands: ['npm ci && npm test'] }],
  ])('rejects %s', (_, value) => {
    expect(codeOf(() => parseObserveConfig(value))).toBe('INVALID_INPUT');
  });
});

describe('classifyCommand', () => {
  it.each([
    ['npm test', 'npm test'],
    ['npm run test', 'npm test'],
    ['npm test -- --coverage', 'npm test'],
    ['npm run test:unit', 'npm test'],
    ['cd web && npm test', 'npm test'],
    ['cd /home/dev/projects/shop && CI=1 npm test 2>&1 | tail -20', 'npm test'],
    ['CI=true NODE_ENV=test npm test', 'npm test'],
    ['pnpm test', 'npm test'],
    ['pnpm run test', 'npm test'],
    ['pnpm --filter web test', 'npm test'],
    ['yarn test', 'npm test'],
    ['yarn workspace api test', 'npm test'],
    ['bun test', 'npm test'],
    ['bun run test', 'npm test'],
    ['npx vitest run src/cart.test.ts', 'npx vitest'],
    ['npx -y vitest', 'npx vitest'],
    ['vitest run', 'npx vitest'],
    ['pnpm vitest run', 'npx vitest'],
    ['pnpm exec vitest', 'npx vitest'],
    ['./node_modules/.bin/vitest --run', 'npx vitest'],
    ['npx jest --runInBand', 'jest'],
    ['yarn jest src/cart', 'jest'],
    ['pytest -x tests/test_cart.py', 'pytest'],
    ['python -m pytest -q', 'pytest'],
    ['uv run pytest', 'pytest'],
    ['poetry run pytest tests', 'pytest'],
    ['go test ./...', 'go test'],
    ['cargo test --workspace', 'cargo test'],
    ['mvn test -Dtest=CartTest', 'mvn test'],
    ['./mvnw test', 'mvn test'],
    ['./gradlew test', 'gradle test'],
    ['dotnet test', 'dotnet test'],
    ['bundle exec rspec spec/cart_spec.rb', 'rspec'],
    ['vendor/bin/phpunit', 'phpunit'],
    ['timeout 300 npm test', 'npm test'],
    ['env CI=1 npm test', 'npm test'],
    ['npm ci; npm test', 'npm test'],
    ['(cd web && npm test)', 'npm test'],
    ['npm run lint && npm test', 'npm test'],
  ])('%s runs tests (%s)', (command, runner) => {
    expect(classifyCommand(command, config)).toEqual({ kind: 'test', runner });
  });

  it.each([
    'git commit -m "Add cart totals"',
    'git commit -am "wip"',
    'git commit --amend --no-edit',
    'git -C /home/dev/projects/shop commit -m "fix"',
    'git -c user.name=dev commit -m "fix"',
    'git --no-pager commit -m "fix"',
    'git add src/cart.ts && git commit -m "Add cart"',
    'git commit -m "$(cat <<\'EOF\'\nAdd cart totals\n\nCo-Authored-By: Claude <noreply@anthropic.com>\nEOF\n)"',
    'GIT_AUTHOR_NAME=dev git commit -m x',
  ])('%s is a commit', (command) => {
    expect(classifyCommand(command, config)).toEqual({ kind: 'commit' });
  });

  it.each([
    'git commit --help',
    'git commit -h',
    'git commit --dry-run',
    'git help commit',
    'git log --oneline',
    'git status',
    'npm install',
    'npm install vitest',
    'npm run build',
    'npm run lint',
    'echo "npm test"',
    "echo 'git commit'",
    'git log --grep "npm test"',
    'rg "vitest" src',
    'cat package.json | grep test',
    'ls test',
    'node test.js',
    'npx tsc --noEmit',
    'go vet ./...',
    'cargo build',
    'vim src/cart.test.ts',
    '# npm test',
    'npm-test',
    'mytest',
    '',
    "cat > run.sh <<'EOF'\nnpm test\ngit commit -m x\nEOF",
  ])('%s is neither a test run nor a commit', (command) => {
    expect(classifyCommand(command, config)).toBeUndefined();
  });

  it('names the first simple command that is one: a test run before a commit', () => {
    expect(classifyCommand('npm test && git commit -m "Add cart"', config)).toEqual({
      kind: 'test',
      runner: 'npm test',
    });
    expect(classifyCommand('git commit -m "Add cart" && npm test', config)).toEqual({ kind: 'commit' });
  });

  it('recognises the test commands of the project config, stripped the same way', () => {
    const custom = parseObserveConfig({ testCommands: ['make check', 'npx playwright test'] });
    expect(classifyCommand('cd e2e && make check', custom)).toEqual({ kind: 'test', runner: 'make check' });
    expect(classifyCommand('pnpm exec playwright test --project chromium', custom)).toEqual({
      kind: 'test',
      runner: 'npx playwright test',
    });
    expect(classifyCommand('npm test', custom)).toBeUndefined();
    expect(classifyCommand('git commit -m x', custom)).toEqual({ kind: 'commit' });
  });

  const testWords = ['test', 'vitest', 'jest', 'pytest', 'rspec', 'phpunit', 'commit'];
  const free = (s: string): boolean => testWords.every((w) => !s.includes(w));

  it('finds nothing in a random string that holds none of the test words', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 200 }).filter(free),
        (command) => classifyCommand(command, config) === undefined,
      ),
      { numRuns: 500 },
    );
  });

  it('finds nothing in random shell-like commands that hold none of the test words', () => {
    const word = fc.constantFrom(
      'npm',
      'pnpm',
      'yarn',
      'bun',
      'npx',
      'run',
      'exec',
      'git',
      '-C',
      'dir',
      'cd',
      'web',
      'CI=1',
      '&&',
      '||',
      ';',
      '|',
      '"',
      "'",
      '(',
      ')',
      'env',
      'go',
      'cargo',
      'build',
      'lint',
      '--',
      '#',
      '<<',
      'EOF',
      '\n',
      'python',
      '-m',
      'uv',
    );
    fc.assert(
      fc.property(fc.array(word, { maxLength: 20 }), (words) => classifyCommand(words.join(' '), config) === undefined),
      { numRuns: 500 },
    );
  });

  it('never throws on any string', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (command) => {
        classifyCommand(command, config);
      }),
    );
  });
});

describe('bashExitCode', () => {
  it.each([
    [
      'a PostToolUse success',
      { tool_response: { stdout: 'ok', stderr: '', interrupted: false, isImage: false } },
      false,
      0,
    ],
    ['a success without a response', {}, false, 0],
    [
      'an interrupted success',
      { tool_response: { stdout: '', stderr: '', interrupted: true, isImage: false } },
      false,
      undefined,
    ],
    [
      'a failure with "Exit code 1" and output',
      { error: 'Exit code 1\n\n> shop@1.0.0 test\n FAIL src/cart.test.ts' },
      true,
      1,
    ],
    ['a failure with "Exit code 127"', { error: 'Exit code 127\nbash: pnpm: command not found' }, true, 127],
    ['a failure whose first line is blank', { error: '\nExit code 2\nusage: …' }, true, 2],
    ['a failure with "Error: Exit code 3"', { error: 'Error: Exit code 3' }, true, 3],
    ['a failure without an exit code (a timeout)', { error: 'Command timed out after 2m 0.0s' }, true, undefined],
    ['a failure whose output mentions an exit code mid-line', { error: 'npm ERR! exit code 1' }, true, undefined],
    ['a failure without an error', {}, true, undefined],
    ['a failure with a non-string error', { error: { code: 1 } }, true, undefined],
    ['an explicit exitCode in the response', { tool_response: { exitCode: 3 } }, false, 3],
    ['an explicit exit_code in a failure response', { tool_response: { exit_code: 4 }, error: 'Exit code 1' }, true, 4],
    ['a non-integer exitCode, ignored', { tool_response: { exitCode: '3' } }, false, 0],
  ])('reads %s', (_, payload, failed, expected) => {
    expect(bashExitCode(payload, failed)).toBe(expected);
  });
});

describe('filePathsOf', () => {
  const p = '/home/dev/projects/shop/src/cart.ts';
  it.each([
    ['Read', { file_path: p }, [p], []],
    ['Write', { file_path: p, content: 'x' }, [], [p]],
    ['Edit', { file_path: p, old_string: 'a', new_string: 'b' }, [], [p]],
    ['MultiEdit', { file_path: p, edits: [] }, [], [p]],
    [
      'NotebookEdit',
      { notebook_path: '/home/dev/projects/shop/nb.ipynb', new_source: '' },
      [],
      ['/home/dev/projects/shop/nb.ipynb'],
    ],
    ['Glob', { pattern: '**/*.ts', path: '/home/dev/projects/shop' }, [], []],
    ['Grep', { pattern: 'total', path: '/home/dev/projects/shop/src' }, [], []],
    ['Bash', { command: 'cat src/cart.ts' }, [], []],
    ['mcp__filesystem__read_text_file', { path: p }, [], []],
    ['Read', { file_path: '' }, [], []],
    ['Write', { file_path: 42 }, [], []],
    ['Read', null, [], []],
    ['Edit', 'src/cart.ts', [], []],
  ])('%s with %j reads %j and writes %j', (tool, input, reads, writes) => {
    expect(filePathsOf(tool, input)).toEqual({ reads, writes });
  });
});

describe('detectCorrection', () => {
  it.each([
    ['no, use pnpm instead', 'no', 'no, use pnpm instead'],
    [
      'Nope. Put the helper in src/utils, not in the component file.',
      'no',
      'Nope. Put the helper in src/utils, not in the component file.',
    ],
    ['No - the migration should go in db/migrations', 'no', 'No - the migration should go in db/migrations'],
    [
      "That's wrong, the config lives in .credence/observe.json",
      'wrong',
      "That's wrong, the config lives in .credence/observe.json",
    ],
    ["Thanks. That's not what I asked for. I wanted a bar chart.", 'wrong', "That's not what I asked for."],
    [
      'You edited the wrong file, the route is in src/routes/cart.ts',
      'wrong',
      'You edited the wrong file, the route is in src/routes/cart.ts',
    ],
    [
      'Instead of console.log, use the logger from src/log.ts.',
      'instead-of',
      'Instead of console.log, use the logger from src/log.ts.',
    ],
    ['Could you use fetch instead of axios?', 'instead-of', 'Could you use fetch instead of axios?'],
    [
      'Return an empty array instead of null when nothing matches',
      'instead-of',
      'Return an empty array instead of null when nothing matches',
    ],
    ['Use vitest, not jest.', 'use-not', 'Use vitest, not jest.'],
    ['Use pnpm rather than npm in this repo', 'use-not', 'Use pnpm rather than npm in this repo'],
    ['Prefer const over let.', 'use-not', 'Prefer const over let.'],
    ['Do it in the other file instead.', 'use-instead', 'Do it in the other file instead.'],
    ["Don't use `any` in this codebase.", 'dont', "Don't use `any` in this codebase."],
    [
      "The tests pass now. But don't mock the database in the integration tests.",
      'dont',
      "But don't mock the database in the integration tests.",
    ],
    ['please don’t add comments to every line', 'dont', 'please don’t add comments to every line'],
    [
      "You shouldn't catch errors there, let them propagate.",
      'dont',
      "You shouldn't catch errors there, let them propagate.",
    ],
    ["I said don't touch the generated files", 'dont', "I said don't touch the generated files"],
    ['Do not commit directly to main.', 'do-not', 'Do not commit directly to main.'],
    ['I told you not to run the migrations on prod', 'do-not', 'I told you not to run the migrations on prod'],
    ['Please stop adding comments to every line.', 'stop', 'Please stop adding comments to every line.'],
    ['Stop using var', 'stop', 'Stop using var'],
    ['Never push to main without a review.', 'never', 'Never push to main without a review.'],
    ['ok, but never use default exports', 'never', 'ok, but never use default exports'],
    ['We always use named exports.', 'we-use', 'We always use named exports.'],
    ['We use pnpm here.', 'we-use', 'We use pnpm here.'],
    ['In this repo we write tests next to the code.', 'we-use', 'In this repo we write tests next to the code.'],
    ["Actually, let's keep the old function name.", 'actually', "Actually, let's keep the old function name."],
    ['Actually the button should be on the left', 'actually', 'Actually the button should be on the left'],
    [
      'actually, always run the tests before you commit',
      'actually',
      'actually, always run the tests before you commit',
    ],
    ['No, always rebase onto main.', 'no', 'No, always rebase onto main.'],
    ['Actually, always pass --frozen-lockfile in CI', 'actually', 'Actually, always pass --frozen-lockfile in CI'],
    ['No. Always bring the branch up to date first.', 'no', 'No. Always bring the branch up to date first.'],
    ['No, always enable strict mode.', 'no', 'No, always enable strict mode.'],
    ['Actually, always disable the cache in tests.', 'actually', 'Actually, always disable the cache in tests.'],
    ['No, always ping the on-call channel first.', 'no', 'No, always ping the on-call channel first.'],
    ['No, always embed the version in the bundle.', 'no', 'No, always embed the version in the bundle.'],
    ['No, always alias the import.', 'no', 'No, always alias the import.'],
    ['No, always seed the database first.', 'no', 'No, always seed the database first.'],
    [
      '- don’t edit package-lock.json by hand\n- run the tests before you commit',
      'dont',
      '- don’t edit package-lock.json by hand',
    ],
    [
      'That was the wrong file, the route is in routes/cart.ts',
      'wrong',
      'That was the wrong file, the route is in routes/cart.ts',
    ],
    ['Rather than a new file, put it in cart.ts', 'instead-of', 'Rather than a new file, put it in cart.ts'],
    ["We don't use classes in this codebase", 'we-use', "We don't use classes in this codebase"],
    ['Stop. Revert the last change.', 'stop', 'Stop. Revert the last change.'],
    // "X, not Y" without a verb before it, and "we use X" alone (walk 12: the forms claude-code.md lists).
    ['tabs, not spaces', 'use-not', 'tabs, not spaces'],
    // A value or a thing named with its article is a side of the choice (review E).
    ['the staging db, not the prod db', 'use-not', 'the staging db, not the prod db'],
    ['a Map, not an object', 'use-not', 'a Map, not an object'],
    ['true, not false', 'use-not', 'true, not false'],
    ['right-aligned, not centered', 'use-not', 'right-aligned, not centered'],
    ['right, not left', 'use-not', 'right, not left'],
    ['done, not todo', 'use-not', 'done, not todo'],
    ['Tabs, not spaces.', 'use-not', 'Tabs, not spaces.'],
    ['pnpm, not npm!!', 'use-not', 'pnpm, not npm!!'],
    ['indent with tabs, not spaces', 'use-not', 'indent with tabs, not spaces'],
    ['no, indent with tabs, not spaces', 'use-not', 'no, indent with tabs, not spaces'],
    ['named exports, not default exports', 'use-not', 'named exports, not default exports'],
    ['no — vitest, not jest', 'use-not', 'no — vitest, not jest'],
    ['we use fetch', 'we-use', 'we use fetch'],
    ['We use fetch.', 'we-use', 'We use fetch.'],
    ['why did you use axios? we use fetch', 'we-use', 'we use fetch'],
  ])('%j is a correction (%s)', (prompt, rule, text) => {
    expect(detectCorrection(prompt)).toEqual({ text, rule });
  });

  it.each([
    "Don't you think we should add caching here?",
    "I don't know why the build fails on CI",
    'Explain what `do not track` means in this header',
    "Here is the snippet:\n```js\n// don't use var\nvar x = 1;\n```\nwhat does it print",
    '> Do not edit: generated by protoc\nWhere does this header come from',
    'Can you add a test for the login form?',
    'Fix the failing test in src/cart.test.ts',
    'Never mind, it works now.',
    'Stop the dev server and run the build.',
    'Why did you use a Map instead of an object?',
    'The function returns null instead of throwing',
    'Write a README section that explains how to use the CLI.',
    'No worries, take your time.',
    'No need to hurry',
    'We use Postgres for storage and Redis for caching.',
    'Actually that worked, thanks!',
    'Is that wrong?',
    'Run the tests and tell me if anything is wrong.',
    'I never used this library before, can you explain it?',
    "Let's refactor the payment module next.",
    'Why do you stop using the cache after the first call?',
    'What does `git commit --no-verify` do?',
    'If you use Redis instead, the tests need a running server.',
    "The linter says that's wrong but I'm not sure",
    'Should we use pnpm instead?',
    'Add a rule to the style guide: never commit secrets',
    'Great, thanks!',
    'Stop.',
    "Don't worry about the CI for now",
    'Make sure the totals include tax',
    'Wait. Let me check the logs first',
    // "always" after "no," / "actually," directs only before an imperative verb.
    'No, always fails with the same error.',
    'Is it flaky? No, always reproducible.',
    'Actually, always wondered why we use pnpm.',
    'No, always a pleasure.',
    'Nope. Always fails on the second run.',
    'Actually, always seemed odd to me that the build takes so long',
    'No. Always the same error on CI.',
    'No, always thought it was pnpm.',
    'Actually, always got the same error.',
    'No, always null when I log it.',
    'No, always empty.',
    'No, always after a restart.',
    'No, always when the cache is cold.',
    'No, always ran fine before.',
    'No, always random which test fails.',
    'Actually, always kind of wondered about that.',
    'No, always twice.',
    // Not "X, not Y" nor "we use X" (walk 12).
    'not now',
    "it's not working",
    'I use vim, not emacs, at home?',
    'I use vim, not emacs.',
    'yes, not yet',
    'later, not now',
    'fine, not bad',
    'No worries, not urgent',
    // Acknowledgements and judgements, not choices (review D).
    'Noted, not urgent',
    'Cool, not important',
    'awesome, not needed',
    'Understood, not a big deal',
    'Works for me, not a blocker',
    'interesting, not what I expected',
    // Replies that say how a thing went, with a judgement noun after any article or a state not reached (review F, 7).
    'Right, not a big issue',
    'Looks good, not an issue',
    'Nice, not bad at all',
    'Done, not merged yet',
    'Done, not merged',
    'Right, not the end of the world',
    'Looks fine, not the point though',
    'Good catch, not an issue here',
    'tabs, not spaces, and the rest of the file too?',
    'Do we use fetch?',
    'we use it',
    'We use a lot of memory in this job.',
    '',
  ])('%j is not a correction', (prompt) => {
    expect(detectCorrection(prompt)).toBeUndefined();
  });

  it(`does not read a prompt over ${HOOK_SIGNAL_LIMITS.maxPromptLength} characters: it is a task description`, () => {
    const task =
      "Don't use any. " +
      'Build the checkout page with a cart summary, a shipping form and a payment step. '.repeat(30);
    expect(task.length).toBeGreaterThan(HOOK_SIGNAL_LIMITS.maxPromptLength);
    expect(detectCorrection(task)).toBeUndefined();
    expect(detectCorrection(task.slice(0, HOOK_SIGNAL_LIMITS.maxPromptLength))).toMatchObject({ rule: 'dont' });
  });

  it(`cuts a long correction sentence to ${HOOK_SIGNAL_LIMITS.maxCorrectionLength} characters`, () => {
    const prompt = `Don't use ${'really '.repeat(80)}long names`;
    const found = detectCorrection(prompt);
    expect(found?.text.length).toBeLessThanOrEqual(HOOK_SIGNAL_LIMITS.maxCorrectionLength);
    expect(prompt.startsWith(found?.text ?? 'none')).toBe(true);
  });

  it('returns the first correction of a prompt with several', () => {
    expect(detectCorrection('Never use default exports. Also, use pnpm instead.')).toEqual({
      text: 'Never use default exports.',
      rule: 'never',
    });
  });

  const promptLike = fc.oneof(
    fc.string({ maxLength: 400 }),
    fc
      .array(
        fc.constantFrom(
          'no,',
          'No.',
          'nope',
          "don't",
          'do not',
          'never',
          'stop',
          'using',
          'use',
          'instead',
          'of',
          'not',
          'rather than',
          'actually',
          "that's",
          'wrong',
          'we',
          'always',
          'here',
          'pnpm',
          'npm',
          '`code`',
          '```',
          '?',
          '.',
          '\n',
          '>',
          'you',
          'could',
          'if',
          ',',
          'x',
        ),
        { maxLength: 40 },
      )
      .map((words) => words.join(' ')),
  );

  it('never throws, and returns a trimmed substring of the prompt of at most 300 characters with a known rule', () => {
    fc.assert(
      fc.property(promptLike, (prompt) => {
        const found = detectCorrection(prompt);
        if (found === undefined) return true;
        return (
          prompt.includes(found.text) &&
          found.text === found.text.trim() &&
          found.text.length > 0 &&
          found.text.length <= HOOK_SIGNAL_LIMITS.maxCorrectionLength &&
          (CORRECTION_RULES as readonly string[]).includes(found.rule)
        );
      }),
      { numRuns: 1000 },
    );
  });

  it('finds nothing in a prompt over the length cap', () => {
    fc.assert(
      fc.property(
        promptLike,
        (prompt) =>
          detectCorrection(prompt.padEnd(HOOK_SIGNAL_LIMITS.maxPromptLength + 1, ' no, use x instead.')) === undefined,
      ),
      { numRuns: 100 },
    );
  });
});

describe('observationsFor', () => {
  const write = (path = '/home/dev/projects/shop/src/cart.ts'): HookSignalEvent => ({
    kind: 'call',
    tool: 'Write',
    input: { file_path: path, content: 'x' },
    status: 'success',
  });
  const bash = (
    command: string,
    status: 'success' | 'failure',
    extra: { error?: string; exitCode?: number } = {},
  ): HookSignalEvent => ({ kind: 'call', tool: 'Bash', input: { command, description: 'run' }, status, ...extra });
  const passing = bash('npm test', 'success', { exitCode: 0 });
  const failing = bash('npm test', 'failure', {
    error: 'Exit code 1\n\n FAIL src/cart.test.ts > applies the discount',
    exitCode: 1,
  });
  const commit = bash('git commit -m "Add cart"', 'success', { exitCode: 0 });

  /** Runs events one after another, at times 1000, 2000, …, as the caller would. */
  function replay(events: readonly HookSignalEvent[], cfg: ObserveConfig = config, start: SessionObserveState = {}) {
    let state = start;
    const all = [];
    for (const [i, event] of events.entries()) {
      const r = observationsFor(event, state, cfg, (i + 1) * 1000);
      all.push(...r.observations);
      state = r.nextState;
    }
    return { observations: all, state };
  }

  it("turns a failed call into an error with its error's first line, the file it touched and the hook tags", () => {
    const { observations } = observationsFor(
      {
        kind: 'call',
        tool: 'Edit',
        input: { file_path: '/p/src/a.ts', old_string: 'a', new_string: 'b' },
        status: 'failure',
        error: 'String to replace not found in file.\nString: a',
      },
      {},
      config,
      5,
    );
    expect(observations).toEqual([
      {
        type: 'error',
        observation: 'Edit failed: String to replace not found in file.',
        confidence: 0.6,
        context: { file: '/p/src/a.ts' },
        evidence: ['String: a'],
        tags: ['hook', 'Edit', 'source:tool-output'],
      },
    ]);
  });

  it('keeps only the first line of a long Bash failure, at most 200 characters, with the command as evidence', () => {
    const long = 'x'.repeat(500);
    const { observations } = observationsFor(
      bash('npm run build', 'failure', { error: `Exit code 2\n${long}\nmore output`, exitCode: 2 }),
      {},
      config,
      5,
    );
    expect(observations).toHaveLength(1);
    const [o] = observations;
    expect(o?.observation).toBe('Bash failed: Exit code 2');
    expect(o?.evidence?.[0]).toBe('command: npm run build');
    expect(o?.evidence?.[1]?.length).toBe(200);
    expect(o?.evidence?.[1]?.endsWith('…')).toBe(true);
    expect(JSON.stringify(o)).not.toContain('more output');
  });

  it('says only "<tool> failed" when the failure has no error text', () => {
    expect(
      observationsFor({ kind: 'call', tool: 'WebFetch', input: {}, status: 'failure' }, {}, config, 1).observations[0]
        ?.observation,
    ).toBe('WebFetch failed');
  });

  it('observes nothing of a call the user interrupted', () => {
    const r = observationsFor(
      {
        kind: 'call',
        tool: 'Bash',
        input: { command: 'npm test' },
        status: 'failure',
        error: 'Interrupted by user',
        interrupted: true,
      },
      { lastChangeAt: 3 },
      config,
      9,
    );
    expect(r).toEqual({ observations: [], nextState: { lastChangeAt: 3 } });
  });

  it('turns a passing test command into a success and a failing one into an error (instead of a failed call)', () => {
    const { observations, state } = replay([passing, failing]);
    expect(observations).toEqual([
      {
        type: 'success',
        observation: 'tests passed: npm test',
        confidence: 0.7,
        context: {},
        evidence: ['runner: npm test', 'exit code 0'],
        tags: ['hook', 'Bash', 'test', 'source:tool-output'],
      },
      {
        type: 'error',
        observation: 'tests failed: npm test',
        confidence: 0.7,
        context: {},
        evidence: ['runner: npm test', 'exit code 1', 'FAIL src/cart.test.ts > applies the discount'],
        tags: ['hook', 'Bash', 'test', 'source:tool-output'],
      },
    ]);
    expect(state).toEqual({ lastTestAt: 2000, lastTestPassed: false });
  });

  it('observes nothing of a successful test command without an exit code (its outcome is unknown)', () => {
    expect(observationsFor(bash('npm test', 'success'), {}, config, 1)).toEqual({ observations: [], nextState: {} });
  });

  it('sets lastChangeAt on a successful write, not on a failed one nor on a read', () => {
    expect(observationsFor(write(), {}, config, 7).nextState).toEqual({ lastChangeAt: 7 });
    expect(
      observationsFor({ ...write(), status: 'failure', error: 'EACCES' } as HookSignalEvent, {}, config, 7).nextState,
    ).toEqual({});
    expect(
      observationsFor({ kind: 'call', tool: 'Read', input: { file_path: '/a' }, status: 'success' }, {}, config, 7)
        .nextState,
    ).toEqual({});
  });

  it('takes the files written from the event when the caller gives them', () => {
    expect(
      observationsFor(
        { kind: 'call', tool: 'mcp__fs__write_file', input: {}, status: 'success', writes: ['/a'] },
        {},
        config,
        7,
      ).nextState,
    ).toEqual({ lastChangeAt: 7 });
  });

  it.each([
    ['tests passed after the last change', COMMIT_PATTERNS.tested, [write(), failing, passing, commit]],
    ['tests passed and no file changed in the session', COMMIT_PATTERNS.tested, [passing, commit]],
    [
      'the same command tests then commits',
      COMMIT_PATTERNS.tested,
      [write(), bash('npm test && git commit -m "Add cart"', 'success', { exitCode: 0 })],
    ],
    ['a file changed after the tests passed', COMMIT_PATTERNS.untested, [passing, write(), commit]],
    ['no test ran', COMMIT_PATTERNS.untested, [write(), commit]],
    ['nothing happened before', COMMIT_PATTERNS.untested, [commit]],
    ['the last test run after the change failed', COMMIT_PATTERNS.failing, [write(), failing, commit]],
  ])('a commit when %s is the pattern %j', (_, pattern, events) => {
    const commits = replay(events).observations.filter((o) => o.tags.includes('commit'));
    expect(commits).toEqual([
      {
        type: 'pattern',
        observation: pattern,
        confidence: 0.6,
        context: {},
        tags: ['hook', 'Bash', 'commit', 'source:template'],
      },
    ]);
  });

  it('sees no commit in a failed git commit, only a failed call', () => {
    const { observations } = observationsFor(
      bash('git commit -m x', 'failure', { error: 'Exit code 1\nnothing to commit, working tree clean', exitCode: 1 }),
      {},
      config,
      1,
    );
    expect(observations.map((o) => [o.type, o.observation])).toEqual([['error', 'Bash failed: Exit code 1']]);
  });

  it('turns a correction in a prompt into a correction observation', () => {
    const r = observationsFor(
      { kind: 'prompt', prompt: 'Looks good. No, use pnpm instead of npm.' },
      { lastTestAt: 1 },
      config,
      10,
    );
    expect(r).toEqual({
      observations: [
        {
          type: 'correction',
          observation: 'No, use pnpm instead of npm.',
          confidence: 0.7,
          context: {},
          tags: ['hook', 'correction', 'no', 'source:user'],
        },
      ],
      nextState: { lastTestAt: 1 },
    });
  });

  it('gives nothing for a prompt without a correction', () => {
    expect(observationsFor({ kind: 'prompt', prompt: 'Add a cart page' }, {}, config, 10).observations).toEqual([]);
  });

  it.each([
    ['failedCalls', bash('npm run build', 'failure', { error: 'Exit code 1', exitCode: 1 })],
    ['testRuns', passing],
    ['commits', commit],
    ['corrections', { kind: 'prompt', prompt: "Don't use var." } as HookSignalEvent],
  ] as const)('observes nothing when %s is switched off', (key, event) => {
    // A commit gives its pattern and its message's style.
    expect(observationsFor(event, {}, config, 1).observations).toHaveLength(key === 'commits' ? 2 : 1);
    const off = parseObserveConfig({ [key]: false });
    expect(observationsFor(event, {}, off, 1).observations).toEqual([]);
  });

  it('keeps the test state up to date when test runs are not observed', () => {
    const off = parseObserveConfig({ testRuns: false });
    const { observations } = replay([write(), passing, commit], off);
    expect(observations.map((o) => o.observation)).toEqual([COMMIT_PATTERNS.tested, COMMIT_STYLES.capitalised]);
  });

  it('reports a failed test run as a failed call when test runs are not observed', () => {
    const off = parseObserveConfig({ testRuns: false });
    expect(observationsFor(failing, {}, off, 1).observations.map((o) => o.observation)).toEqual([
      'Bash failed: Exit code 1',
    ]);
  });

  it('does not change the state it is given', () => {
    const state: SessionObserveState = Object.freeze({ lastChangeAt: 1, lastTestAt: 2, lastTestPassed: true });
    observationsFor(write(), state, config, 5);
    observationsFor(failing, state, config, 6);
    expect(state).toEqual({ lastChangeAt: 1, lastTestAt: 2, lastTestPassed: true });
  });

  it('rejects a time that is not a finite number', () => {
    expect(codeOf(() => observationsFor(passing, {}, config, Number.NaN))).toBe('INVALID_INPUT');
  });

  it('gives drafts that always hold confidences in [0, 1], hook tags and lines of at most 200 characters', () => {
    const event = fc.oneof(
      fc.record({
        kind: fc.constant('call' as const),
        tool: fc.constantFrom('Bash', 'Write', 'Read', 'Edit', 'WebFetch'),
        input: fc.record({
          command: fc.oneof(fc.constantFrom('npm test', 'git commit -m x', 'ls'), fc.string({ maxLength: 400 })),
          file_path: fc.string({ maxLength: 20 }),
        }),
        status: fc.constantFrom('success' as const, 'failure' as const),
        error: fc.string({ maxLength: 600 }),
        exitCode: fc.integer({ min: 0, max: 255 }),
      }),
      fc.record({ kind: fc.constant('prompt' as const), prompt: fc.string({ maxLength: 400 }) }),
    );
    fc.assert(
      fc.property(fc.array(event, { maxLength: 10 }), (events) => {
        for (const o of replay(events).observations) {
          if (!(o.confidence >= 0 && o.confidence <= 1) || o.tags[0] !== 'hook') return false;
          if (o.type !== 'correction' && o.observation.length > 200 + 'tests passed: '.length) return false;
          if ((o.evidence ?? []).some((line) => line.length > 200 + 'command: '.length || line.includes('\n')))
            return false;
        }
        return true;
      }),
      { numRuns: 300 },
    );
  });
});

describe('Claude Code hook fixtures', () => {
  const fixture = (name: string): Record<string, unknown> =>
    JSON.parse(
      readFileSync(new URL(`../../test/fixtures/claude-code/${name}.json`, import.meta.url), 'utf8'),
    ) as Record<string, unknown>;
  const names = [
    'SessionStart',
    'UserPromptSubmit',
    'PreToolUse',
    'PostToolUse',
    'PostToolUse-read',
    'PostToolUse-bash-test',
    'PostToolUseFailure',
    'PostToolUse-commit',
    'Stop',
    'SessionEnd',
  ];

  it.each(names)('%s carries the common fields of one session in the shop project', (name) => {
    const payload = fixture(name);
    expect(payload).toMatchObject({
      session_id: '5b0f3c2e-7a41-4d8e-9c36-1e2f4a6b8d90',
      cwd: '/home/dev/projects/shop',
      permission_mode: 'default',
    });
    expect(typeof payload.transcript_path).toBe('string');
    expect(String(payload.hook_event_name)).toBe(name.split('-')[0]);
  });

  it('gives the rules what they need from each tool event', () => {
    const write = fixture('PostToolUse');
    const read = fixture('PostToolUse-read');
    const test = fixture('PostToolUse-bash-test');
    const failure = fixture('PostToolUseFailure');
    const commit = fixture('PostToolUse-commit');
    expect(filePathsOf(String(write.tool_name), write.tool_input)).toEqual({
      reads: [],
      writes: ['/home/dev/projects/shop/src/cart.ts'],
    });
    expect(filePathsOf(String(read.tool_name), read.tool_input)).toEqual({
      reads: ['/home/dev/projects/shop/src/cart.ts'],
      writes: [],
    });
    expect(bashExitCode(test, false)).toBe(0);
    expect(bashExitCode(failure, true)).toBe(1);
    expect(bashExitCode(commit, false)).toBe(0);
    const command = (p: Record<string, unknown>) => String((p.tool_input as { command: string }).command);
    expect(classifyCommand(command(test), config)).toEqual({ kind: 'test', runner: 'npm test' });
    expect(classifyCommand(command(failure), config)).toEqual({ kind: 'test', runner: 'npm test' });
    expect(classifyCommand(command(commit), config)).toEqual({ kind: 'commit' });
    expect(detectCorrection(String(fixture('UserPromptSubmit').prompt))).toEqual({
      text: 'no, use pnpm instead of npm here — the lockfile is pnpm-lock.yaml',
      rule: 'no',
    });
  });

  it('replays a session: a correction, a write, a failing then passing test run and a commit after tests', () => {
    const toEvent = (p: Record<string, unknown>): HookSignalEvent => {
      if (p.hook_event_name === 'UserPromptSubmit') return { kind: 'prompt', prompt: String(p.prompt) };
      const failed = p.hook_event_name === 'PostToolUseFailure';
      const exitCode = p.tool_name === 'Bash' ? bashExitCode(p, failed) : undefined;
      return {
        kind: 'call',
        tool: String(p.tool_name),
        input: p.tool_input,
        status: failed ? 'failure' : 'success',
        ...(typeof p.error === 'string' ? { error: p.error } : {}),
        ...(exitCode === undefined ? {} : { exitCode }),
        ...(p.is_interrupt === true ? { interrupted: true } : {}),
      };
    };
    let state: SessionObserveState = {};
    const seen: string[] = [];
    [
      'UserPromptSubmit',
      'PostToolUse',
      'PostToolUse-read',
      'PostToolUseFailure',
      'PostToolUse-bash-test',
      'PostToolUse-commit',
    ].forEach((name, i) => {
      const r = observationsFor(toEvent(fixture(name)), state, config, 1_000 * (i + 1));
      seen.push(...r.observations.map((o) => `${o.type}: ${o.observation}`));
      state = r.nextState;
    });
    expect(seen).toEqual([
      'correction: no, use pnpm instead of npm here — the lockfile is pnpm-lock.yaml',
      'error: tests failed: npm test',
      'success: tests passed: npm test',
      'pattern: committed after running tests',
      // "Add cart totals with discount", from Claude Code's here document.
      `pattern: ${COMMIT_STYLES.capitalised}`,
    ]);
    expect(state).toEqual({ lastChangeAt: 2000, lastTestAt: 5000, lastTestPassed: true });
  });
});

describe('commit message style (seed 004: "commit message style")', () => {
  it.each([
    ['git commit -m "feat(cart): add totals"', 'feat(cart): add totals'],
    ['git commit -am "fix: rounding"', 'fix: rounding'],
    ["git commit --message='docs: readme'", 'docs: readme'],
    ['git commit -m"chore: bump"', 'chore: bump'],
    ['git add . && git commit -m "Add cart" && git push', 'Add cart'],
    [
      'git commit -m "$(cat <<\'EOF\'\nfeat: add totals\n\nCo-Authored-By: Claude <noreply@anthropic.com>\nEOF\n)"',
      'feat: add totals\n\nCo-Authored-By: Claude <noreply@anthropic.com>',
    ],
  ])('reads the message of %s', (command, message) => {
    expect(commitMessage(command)).toBe(message);
  });

  it.each(['git commit', 'git commit -F msg.txt', 'git commit --amend --no-edit', 'git log -m', 'echo -m x'])(
    'finds no message in %s',
    (command) => {
      expect(commitMessage(command)).toBeUndefined();
    },
  );

  it.each([
    ['feat(cart): add totals', 'conventional'],
    ['fix!: drop node 18', 'conventional'],
    ['SHOP-142: add totals', 'ticket'],
    ['[SHOP-142] add totals', 'ticket'],
    [':sparkles: add totals', 'gitmoji'],
    ['✨ add totals', 'gitmoji'],
    ['Add cart totals', 'capitalised'],
    ['add cart totals', 'lowercase'],
    ['   ', undefined],
  ] as const)('reads %j as %s', (subject, style) => {
    expect(commitMessageStyle(subject)).toBe(style);
  });

  it('observes the style of each commit beside its pattern, with the subject as evidence', () => {
    const commit: HookSignalEvent = {
      kind: 'call',
      tool: 'Bash',
      input: { command: 'git commit -m "feat(cart): add totals\n\nlonger body"' },
      status: 'success',
      exitCode: 0,
    };
    const styles = observationsFor(commit, {}, config, 1).observations.filter((o) => o.tags.includes('commit-style'));
    expect(styles).toEqual([
      {
        type: 'pattern',
        observation: COMMIT_STYLES.conventional,
        confidence: 0.6,
        context: {},
        evidence: ['subject: feat(cart): add totals'],
        tags: ['hook', 'Bash', 'commit-style', 'conventional', 'source:template'],
      },
    ]);
  });
});

describe('test coverage changes (seed 004: "test coverage changes")', () => {
  const vitestTable = [
    ' % Coverage report from v8',
    '-----------|---------|----------|---------|---------|',
    'File       | % Stmts | % Branch | % Funcs | % Lines |',
    '-----------|---------|----------|---------|---------|',
    'All files  |   84.21 |    71.42 |     100 |   84.21 |',
    ' cart.ts   |   84.21 |    71.42 |     100 |   84.21 |',
  ].join('\n');

  it.each([
    ['an Istanbul / vitest table', { stdout: `✓ 12 tests passed\n${vitestTable}`, stderr: '' }, 84.21],
    ['an Istanbul text summary', 'Statements   : 91.3% ( 210/230 )\nBranches     : 80% ( 40/50 )', 91.3],
    [
      'pytest-cov',
      'Name    Stmts   Miss  Cover\n-------\ncart.py    40      4    90%\nTOTAL      80     12    85%',
      85,
    ],
    [
      'go test',
      'ok  shop/cart 0.01s coverage: 70.0% of statements\nok  shop/api 0.02s coverage: 62.5% of statements',
      62.5,
    ],
    ['a plain line', 'Coverage: 77.7%', 77.7],
  ])('reads the total of %s', (_, output, total) => {
    expect(coverageOf(output)).toBe(total);
  });

  it('reads nothing in output without a coverage report', () => {
    expect(coverageOf({ stdout: '✓ 12 tests passed (100%)', stderr: '' })).toBeUndefined();
    expect(coverageOf(undefined)).toBeUndefined();
  });

  const run = (coverage: number | undefined): HookSignalEvent => ({
    kind: 'call',
    tool: 'Bash',
    input: { command: 'npx vitest run --coverage' },
    status: 'success',
    exitCode: 0,
    ...(coverage === undefined ? {} : { coverage }),
  });

  it('observes a rise or a fall against the session’s previous report, not the first report', () => {
    let state: SessionObserveState = {};
    const seen: string[][] = [];
    for (const [i, coverage] of [80, 80, 84.21, undefined, 79.5].entries()) {
      const r = observationsFor(run(coverage), state, config, i + 1);
      seen.push(r.observations.filter((o) => o.tags.includes('coverage')).map((o) => `${o.type}: ${o.observation}`));
      state = r.nextState;
    }
    expect(seen).toEqual([[], [], [`success: ${COVERAGE_PATTERNS.rose}`], [], [`error: ${COVERAGE_PATTERNS.fell}`]]);
    expect(state.lastCoverage).toBe(79.5);
  });

  it('gives the two figures as evidence', () => {
    const r = observationsFor(run(70), { lastCoverage: 75 }, config, 1);
    expect(r.observations.find((o) => o.tags.includes('coverage'))?.evidence).toEqual([
      'coverage 75% → 70%',
      'runner: npx vitest',
    ]);
  });
});
