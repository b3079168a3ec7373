/**
 * @module core/graph/same-job
 * Whether the call after a failure did the same job as the failed one (issue 17), the evidence an
 * `alternative` edge needs: a failed test run followed by an edit is a fix (`sequence`), not another way
 * to test. Each call's job kind is the first word of its tool's name that {@link JOB_WORDS} knows; a
 * shell tool takes its command's first word's kind (`cat` reads), else `run`. Two calls with kinds did
 * the same job when the kinds are equal; when either has none, when both inputs hold the same string
 * value (path, URL or query). Pure and linear in the size of the inputs.
 */
import { dropOptions, launchedWords, splitShell } from '../text/shell-words.js';
import { splitWords } from '../text/words.js';

/** The kinds of job a tool's name can say. */
export const JOB_KINDS = ['search', 'read', 'write', 'fetch', 'run'] as const;
export type JobKind = (typeof JOB_KINDS)[number];

const words = (kind: JobKind, list: string): [string, JobKind][] => list.split(' ').map((w) => [w, kind]);

/** The words that name a kind of job, in tool names and as a shell command's first word. */
export const JOB_WORDS: ReadonlyMap<string, JobKind> = new Map([
  ...words('search', 'search grep rg ag ack glob find locate lookup query list ls'),
  ...words('read', 'read cat get view open load show head tail less more'),
  ...words(
    'write',
    'write edit multiedit create update patch save put set delete remove rm move mv copy cp ' +
      'insert append replace rename mkdir touch',
  ),
  ...words('fetch', 'fetch http https curl wget download browse request'),
  ...words('run', 'run exec execute'),
]);

/** Words of a tool's name that make it a shell: its job is its command's. */
const SHELL_WORDS: ReadonlySet<string> = new Set([
  'bash',
  'shell',
  'sh',
  'zsh',
  'terminal',
  'powershell',
  'cmd',
  'command',
]);

/** One call as far as the rule needs it. */
export interface JobCall {
  tool: string;
  /** What the call was given, as JSON text (a Claude Code hook keeps it). */
  input?: string;
}

/** Characters of a tool's name read for its kind (a name is short; a longer one says no more). */
const MAX_NAME = 200;

/** Input values looked at, at most, per call. */
const MAX_VALUES = 200;

function parsedInput(input: string | undefined): unknown {
  if (input === undefined || input.trim() === '') return undefined;
  try {
    return JSON.parse(input);
  } catch {
    return undefined;
  }
}

/**
 * The word a shell command runs, lower-cased: the first simple command's, with what only launches
 * it taken off (core/text/shell-words: `CI=1`, `sudo`, `env`, `time`, `npx`, …, a path reduced to its
 * file name), and `xargs` with its options.
 */
function commandWord(command: string): string | undefined {
  let words = launchedWords(splitShell(command)[0] ?? []);
  for (let step = 0; step < 8 && words[0] === 'xargs'; step += 1)
    words = launchedWords(dropOptions(words.slice(1), []));
  return words[0]?.toLowerCase();
}

/** The kind of job a call did, or undefined when neither its tool's name nor its command says. */
export function jobKindOf(call: JobCall): JobKind | undefined {
  const nameWords = splitWords(call.tool.slice(0, MAX_NAME));
  if (nameWords.some((w) => SHELL_WORDS.has(w))) {
    const input = parsedInput(call.input);
    const command =
      typeof input === 'object' && input !== null ? (input as Record<string, unknown>).command : undefined;
    const word = typeof command === 'string' ? commandWord(command) : undefined;
    return (word === undefined ? undefined : JOB_WORDS.get(word)) ?? 'run';
  }
  for (const w of nameWords) {
    const kind = JOB_WORDS.get(w);
    if (kind !== undefined) return kind;
  }
  return undefined;
}

/** The string values of an input's JSON (trimmed, at least two characters), at most {@link MAX_VALUES}. */
export function inputValues(input: string | undefined): Set<string> {
  const values = new Set<string>();
  const stack: unknown[] = [parsedInput(input)];
  while (stack.length > 0 && values.size < MAX_VALUES) {
    const v = stack.pop();
    if (typeof v === 'string') {
      const t = v.trim();
      if (t.length >= 2) values.add(t);
    } else if (Array.isArray(v)) {
      stack.push(...v.slice(0, MAX_VALUES));
    } else if (typeof v === 'object' && v !== null) {
      stack.push(...Object.values(v).slice(0, MAX_VALUES));
    }
  }
  return values;
}

/** Whether `next` did the same job as `failed` (the rule of the module header). */
export function didSameJob(failed: JobCall, next: JobCall): boolean {
  const a = jobKindOf(failed);
  const b = jobKindOf(next);
  if (a !== undefined && b !== undefined) return a === b;
  const mine = inputValues(failed.input);
  if (mine.size === 0) return false;
  for (const v of inputValues(next.input)) if (mine.has(v)) return true;
  return false;
}
