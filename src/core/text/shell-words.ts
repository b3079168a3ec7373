/**
 * @module core/text/shell-words
 * The one reading of shell command lines (issue 18): `splitShell` cuts a command into its simple
 * commands' words (quotes, escapes, here documents, comments handled), `launchedWords` takes off
 * what only launches a command (`CI=1`, `sudo`, `npx`, `pnpm run`, …). Used by the hook triggers
 * (test runs, commits: hooks/signals) and by the same-job rule (core/graph/same-job). Pure, linear.
 */

/**
 * Splits a shell command line into its simple commands, each a list of words with quotes and
 * escapes removed. Separators: newline, `;`, `&&`, `||`, `|`, `&`, `(`, `)` and backquotes.
 * Redirections (`>`, `2>&1`, `&>`) end a word; a `#` word starts a comment; the bodies of here
 * documents (`<<EOF … EOF`, `<<-'EOF'`) are skipped. A quoted string is one word whatever it
 * holds (`"$(cat <<'EOF' … EOF)"` included). Not a full shell parser: `bash -c "…"` and
 * functions are not looked into.
 */
export function splitShell(command: string): string[][] {
  const segments: string[][] = [];
  const pendingHeredocs: Array<{ delimiter: string; stripTabs: boolean }> = [];
  let words: string[] = [];
  let word = '';
  let inWord = false;
  const endWord = (): void => {
    if (inWord) words.push(word);
    word = '';
    inWord = false;
  };
  const endSegment = (): void => {
    endWord();
    if (words.length > 0) segments.push(words);
    words = [];
  };
  const n = command.length;
  let i = 0;
  while (i < n) {
    const c = command[i] as string;
    if (c === '\n') {
      endSegment();
      i = skipHeredocBodies(command, i + 1, pendingHeredocs.splice(0));
    } else if (c === ' ' || c === '\t' || c === '\r') {
      endWord();
      i++;
    } else if (c === '#' && !inWord) {
      while (i < n && command[i] !== '\n') i++;
    } else if (c === "'") {
      const close = command.indexOf("'", i + 1);
      const end = close === -1 ? n : close;
      word += command.slice(i + 1, end);
      inWord = true;
      i = end + 1;
    } else if (c === '"') {
      i++;
      while (i < n && command[i] !== '"') {
        const next = command[i + 1];
        if (command[i] === '\\' && next !== undefined && '"\\$`\n'.includes(next)) {
          if (next !== '\n') word += next;
          i += 2;
        } else {
          word += command[i];
          i++;
        }
      }
      inWord = true;
      i++;
    } else if (c === '\\') {
      const next = command[i + 1];
      if (next !== undefined && next !== '\n') {
        word += next;
        inWord = true;
      }
      i += 2;
    } else if (c === '<' && command[i + 1] === '<' && command[i + 2] !== '<') {
      endWord();
      i += 2;
      const stripTabs = command[i] === '-';
      if (stripTabs) i++;
      while (command[i] === ' ' || command[i] === '\t') i++;
      let delimiter = '';
      while (i < n && !' \t\n;&|<>()'.includes(command[i] as string)) {
        if (!`"'\\`.includes(command[i] as string)) delimiter += command[i];
        i++;
      }
      if (delimiter !== '') pendingHeredocs.push({ delimiter, stripTabs });
    } else if (c === '>' || c === '<' || (c === '&' && command[i + 1] === '>')) {
      endWord();
      i += c === '&' ? 2 : 1;
      if (command[i] === '&' || command[i] === '>' || command[i] === '|') i++;
    } else if (';&|()`'.includes(c)) {
      endSegment();
      i++;
    } else {
      word += c;
      inWord = true;
      i++;
    }
  }
  endSegment();
  return segments;
}

/** Skips here-document bodies from `start` (a line start) and returns the index after them. */
function skipHeredocBodies(
  command: string,
  start: number,
  heredocs: ReadonlyArray<{ delimiter: string; stripTabs: boolean }>,
): number {
  let i = start;
  for (const { delimiter, stripTabs } of heredocs) {
    while (i < command.length) {
      const newline = command.indexOf('\n', i);
      const end = newline === -1 ? command.length : newline;
      const line = command.slice(i, end).replace(/\r$/, '');
      i = end + 1;
      if ((stripTabs ? line.replace(/^\t+/, '') : line) === delimiter) break;
    }
  }
  return Math.min(i, command.length);
}

const ENV_ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
/** Commands that run the command after them (with their options). */
const PLAIN_WRAPPERS = new Set(['env', 'time', 'command', 'exec', 'nohup', 'sudo', 'nice']);
const PACKAGE_RUNNERS = new Set(['npx', 'bunx', 'pnpx']);
const PACKAGE_MANAGERS = new Set(['npm', 'pnpm', 'yarn', 'bun']);
/** `<tool> <verb> <command>`: the verb that makes the tool run the command after it. */
const SCRIPT_RUNNERS: Readonly<Record<string, string>> = Object.freeze({
  uv: 'run',
  poetry: 'run',
  pipenv: 'run',
  pdm: 'run',
  hatch: 'run',
  bundle: 'exec',
});
/** Wrapper scripts that stand for their tool. */
const TOOL_ALIASES: Readonly<Record<string, string>> = Object.freeze({ gradlew: 'gradle', mvnw: 'mvn' });
/** Options that take the next word as their value, per command family. */
const VALUE_OPTIONS = Object.freeze({
  wrapper: ['-u', '-g', '-n', '-C', '--chdir', '-s', '--signal', '-k', '--kill-after'],
  runner: ['-p', '--package', '-c', '--call'],
  manager: ['--filter', '-F', '-C', '--dir', '--prefix', '--workspace', '--cwd'],
});

function basename(word: string): string {
  const slash = word.lastIndexOf('/');
  const base = slash === -1 || slash === word.length - 1 ? word : word.slice(slash + 1);
  return TOOL_ALIASES[base] ?? base;
}

/** Drops leading options (and the values of `valueOptions` given as a separate word) and a `--`. */
export function dropOptions(words: readonly string[], valueOptions: readonly string[]): string[] {
  let i = 0;
  while (i < words.length && (words[i] as string).startsWith('-')) {
    const option = words[i] as string;
    i++;
    if (option === '--') break;
    if (valueOptions.includes(option)) i++;
  }
  return words.slice(i);
}

/**
 * The words a simple command runs, with what only launches it taken off, repeatedly:
 * environment assignments (`CI=1`), wrappers (`env`, `time`, `command`, `exec`, `nohup`, `sudo`,
 * `nice`, `timeout <duration>`), package runners (`npx`, `bunx`, `pnpx`, `<pm> exec`, `<pm> dlx`,
 * `bun x`), `uv|poetry|pipenv|pdm|hatch run`, `bundle exec`, `python -m`; a path is reduced to its
 * file name (`./node_modules/.bin/vitest` → `vitest`, `./gradlew` → `gradle`, `./mvnw` → `mvn`).
 * Package managers become `npm`, without `run`/`run-script` and their own options:
 * `pnpm --filter web run test` → `npm test`, `yarn workspace web test` → `npm test`.
 */
export function launchedWords(segment: readonly string[]): string[] {
  let words = [...segment];
  for (let step = 0; step < 32 && words.length > 0; step++) {
    const raw = words[0] as string;
    if (ENV_ASSIGNMENT.test(raw)) {
      words = words.slice(1);
      continue;
    }
    const first = basename(raw);
    if (PLAIN_WRAPPERS.has(first)) {
      words = dropOptions(words.slice(1), VALUE_OPTIONS.wrapper);
    } else if (first === 'timeout') {
      words = dropOptions(words.slice(1), VALUE_OPTIONS.wrapper).slice(1);
    } else if (PACKAGE_RUNNERS.has(first)) {
      words = dropOptions(words.slice(1), VALUE_OPTIONS.runner);
    } else if (/^python(?:3(?:\.\d+)?)?$/.test(first) && words[1] === '-m') {
      words = words.slice(2);
    } else if (SCRIPT_RUNNERS[first] !== undefined && words[1] === SCRIPT_RUNNERS[first]) {
      words = dropOptions(words.slice(2), []);
    } else if (PACKAGE_MANAGERS.has(first)) {
      let rest = dropOptions(words.slice(1), VALUE_OPTIONS.manager);
      if (rest[0] === 'exec' || rest[0] === 'dlx' || (first === 'bun' && rest[0] === 'x')) {
        words = dropOptions(rest.slice(1), VALUE_OPTIONS.runner);
        continue;
      }
      if (rest[0] === 'workspace' && rest.length > 2) rest = rest.slice(2);
      if (rest[0] === 'run' || rest[0] === 'run-script') rest = dropOptions(rest.slice(1), VALUE_OPTIONS.manager);
      return ['npm', ...rest];
    } else {
      return [first, ...words.slice(1)];
    }
  }
  return words;
}
