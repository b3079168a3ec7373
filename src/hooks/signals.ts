/**
 * @module hooks/signals
 * The pure rules that turn Claude Code hook events into observations (SPEC §6, issue 9): a failed call →
 * `error`, a test run → `success` / `error` (and a change of its coverage), a `git commit` → `pattern` (and
 * its message's style, seed 004), a user correction → `correction`;
 * which triggers observe is set per project in `.credence/observe.json` ({@link parseObserveConfig}).
 * Pure: the caller passes `now`, normalises hook JSON into a {@link HookSignalEvent}, keeps each
 * session's {@link SessionObserveState}, and adds `timestamp` and `id`. No draft carries a whole tool
 * output: only first lines, each at most {@link HOOK_SIGNAL_LIMITS.lineLength} characters.
 */

import { CredenceError } from '../core/errors.js';
import type { ObservationPhase, ObservationType } from '../core/types.js';
import { requireFinite } from '../core/validate.js';
import { launchedWords, splitShell } from '../core/text/shell-words.js';
import { sourceTag } from '../core/learning/rule-trust.js';

// ---------------------------------------------------------------------------------------------
// Configuration: .credence/observe.json
// ---------------------------------------------------------------------------------------------

/** Which triggers observe, and which Bash commands are test runs. */
export interface ObserveConfig {
  /** A failed tool call becomes an `error` observation. @default true */
  readonly failedCalls: boolean;
  /** A test command becomes a `success` (exit 0) or `error` observation. @default true */
  readonly testRuns: boolean;
  /** A `git commit` becomes a `pattern` observation (tests run since the last change or not). @default true */
  readonly commits: boolean;
  /** A user correction in a prompt becomes a `correction` observation. @default true */
  readonly corrections: boolean;
  /** A session end (or a stop after enough new observations) runs evolve in the background. @default true */
  readonly autoEvolve: boolean;
  /** Commands that run tests, each a sequence of command words (see {@link classifyCommand}). */
  readonly testCommands: readonly string[];
}

/** The defaults of `.credence/observe.json`: every trigger on, the common test runners. */
export const OBSERVE_DEFAULTS: ObserveConfig = Object.freeze({
  failedCalls: true,
  testRuns: true,
  commits: true,
  corrections: true,
  autoEvolve: true,
  testCommands: Object.freeze([
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
  ]),
});

const OBSERVE_KEYS = ['failedCalls', 'testRuns', 'commits', 'corrections', 'autoEvolve', 'testCommands'] as const;
const OBSERVE_SWITCHES = ['failedCalls', 'testRuns', 'commits', 'corrections', 'autoEvolve'] as const;

function shown(value: unknown): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function invalidConfig(message: string, details: Record<string, unknown>): CredenceError {
  return new CredenceError('INVALID_INPUT', `observe.json: ${message}`, { details });
}

/**
 * Checks a parsed `.credence/observe.json`. Every key is optional and takes its
 * {@link OBSERVE_DEFAULTS} value when missing. `testCommands`, when given, replaces the default
 * list (an empty list recognises no test run); each entry is trimmed and must be one simple
 * command (no `&&`, `|`, `;`).
 * @throws CredenceError INVALID_INPUT for a value that is not an object, unknown keys (all named),
 *   a switch that is not a boolean, or a `testCommands` that is not a list of command strings.
 */
export function parseObserveConfig(value: unknown): ObserveConfig {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalidConfig(`must be a JSON object such as {"commits": false}, got ${shown(value)}`, { observe: value });
  }
  const record = value as Record<string, unknown>;
  const unknownKeys = Object.keys(record).filter((key) => !(OBSERVE_KEYS as readonly string[]).includes(key));
  if (unknownKeys.length > 0) {
    throw invalidConfig(
      `unknown key${unknownKeys.length === 1 ? '' : 's'} ${unknownKeys.map((k) => JSON.stringify(k)).join(', ')}; ` +
        `valid keys are ${OBSERVE_KEYS.join(', ')}`,
      {
        unknownKeys,
      },
    );
  }
  const switches = { ...OBSERVE_DEFAULTS } as { -readonly [K in keyof ObserveConfig]: ObserveConfig[K] };
  for (const key of OBSERVE_SWITCHES) {
    const given = record[key];
    if (given === undefined) continue;
    if (typeof given !== 'boolean')
      throw invalidConfig(`${key} must be true or false, got ${shown(given)}`, { [key]: given });
    switches[key] = given;
  }
  const commands = record.testCommands;
  if (commands !== undefined) {
    if (!Array.isArray(commands))
      throw invalidConfig(`testCommands must be a list of commands such as ["npm test"], got ${shown(commands)}`, {
        testCommands: commands,
      });
    switches.testCommands = Object.freeze(
      commands.map((command: unknown, index) => {
        const segments = typeof command === 'string' ? splitShell(command) : [];
        if (typeof command !== 'string' || segments.length !== 1) {
          throw invalidConfig(
            `testCommands[${index}] must be one command such as "npm test" (no &&, | or ;), got ${shown(command)}`,
            {
              [`testCommands[${index}]`]: command,
            },
          );
        }
        return command.trim();
      }),
    );
  }
  return Object.freeze(switches);
}

// ---------------------------------------------------------------------------------------------
// Shell commands: test runs and commits
// ---------------------------------------------------------------------------------------------

/**
 * Whether `words` start with `pattern`, word for word; a pattern word `test` also matches a
 * script named `test:<anything>` (`npm run test:unit` is a test run of `npm test`).
 */
function startsWithWords(words: readonly string[], pattern: readonly string[]): boolean {
  if (pattern.length === 0 || words.length < pattern.length) return false;
  return pattern.every((p, i) => {
    const w = words[i] as string;
    return w === p || (p === 'test' && w.startsWith('test:'));
  });
}

const GIT_VALUE_OPTIONS = new Set([
  '-C',
  '-c',
  '--git-dir',
  '--work-tree',
  '--namespace',
  '--exec-path',
  '--super-prefix',
  '--config-env',
]);

/** `git [global options] commit …`, not with `--help`, `-h` or `--dry-run` (which make no commit). */
function isGitCommit(words: readonly string[]): boolean {
  if (words[0] !== 'git') return false;
  let i = 1;
  while (i < words.length && (words[i] as string).startsWith('-'))
    i += GIT_VALUE_OPTIONS.has(words[i] as string) ? 2 : 1;
  if (words[i] !== 'commit') return false;
  return !words.slice(i + 1).some((arg) => arg === '--help' || arg === '-h' || arg === '--dry-run');
}

/** What a Bash command does that the triggers care about, over all of its simple commands. */
interface CommandFacts {
  /** The kinds in the order their simple commands appear. */
  readonly kinds: ReadonlyArray<{ kind: 'test'; runner: string } | { kind: 'commit' }>;
}

function commandFacts(command: string, testCommands: readonly string[]): CommandFacts {
  const patterns = testCommands.map((runner) => ({ runner, words: launchedWords(splitShell(runner)[0] ?? []) }));
  const kinds: Array<{ kind: 'test'; runner: string } | { kind: 'commit' }> = [];
  for (const segment of splitShell(command)) {
    const words = launchedWords(segment);
    const candidates = words[0] === 'npm' && words.length > 1 ? [words, words.slice(1)] : [words];
    const test = patterns.find((p) => candidates.some((c) => startsWithWords(c, p.words)));
    if (test !== undefined) kinds.push({ kind: 'test', runner: test.runner });
    else if (isGitCommit(words)) kinds.push({ kind: 'commit' });
  }
  return { kinds };
}

/**
 * What a Bash command is to the triggers: a test run, a commit, or neither.
 *
 * The command is split into simple commands ({@link splitShell}: `cd web && CI=1 npm test`
 * holds `cd web` and `CI=1 npm test`); each is stripped of what only launches it (environment
 * assignments, `env`/`time`/`timeout`/`sudo`, `npx`, `pnpm exec`, `uv run`, `python -m`, …) and
 * `pnpm`/`yarn`/`bun` read as `npm` without `run`. It is a test run when its words start with the
 * words of one of `config.testCommands`, stripped the same way (so `npx vitest` matches `vitest run`
 * and `npm run test` matches `bun test`), or, for a package manager, when the words after it do
 * (`pnpm vitest`, `yarn jest`); a pattern word `test` also matches `test:<name>` scripts. It is a
 * commit when it is `git [global options such as -C dir] commit …` without `--help`, `-h` or
 * `--dry-run`. Words are compared exactly (case-sensitive); quoted text is one word, so
 * `echo "npm test"` and `git log --grep vitest` are neither.
 *
 * @returns the kind of the first simple command that is one, with `runner` the matching entry of
 *   `config.testCommands` as written; `undefined` when none is.
 */
export function classifyCommand(
  command: string,
  config: Pick<ObserveConfig, 'testCommands'>,
): { kind: 'test'; runner: string } | { kind: 'commit' } | undefined {
  if (typeof command !== 'string') return undefined;
  return commandFacts(command, config.testCommands).kinds[0];
}

/**
 * The exit code of a Claude Code Bash call, from what its hook payload holds:
 * 1. an integer `exitCode`, `exit_code` or `code` in `tool_response` (future-proof; Claude Code
 *    sends none today);
 * 2. for a failure (`failed`, the PostToolUseFailure event): `N` from a line of `error` that
 *    starts with `Exit code N` (Claude Code writes `Exit code 1` then the output), else undefined
 *    (a timeout or an interrupt has no exit code);
 * 3. for a success (PostToolUse): 0, Claude Code reports a Bash call as successful only when it
 *    exits 0, unless `tool_response.interrupted` is true (undefined: it did not finish).
 */
export function bashExitCode(
  payload: { tool_response?: unknown; error?: unknown },
  failed: boolean,
): number | undefined {
  const response =
    typeof payload.tool_response === 'object' && payload.tool_response !== null
      ? (payload.tool_response as Record<string, unknown>)
      : undefined;
  for (const key of ['exitCode', 'exit_code', 'code']) {
    const value = response?.[key];
    if (typeof value === 'number' && Number.isInteger(value)) return value;
  }
  if (failed) {
    const error = typeof payload.error === 'string' ? payload.error : '';
    const match = /^[ \t]*(?:error:[ \t]*)?exit code:?[ \t]+(-?\d{1,5})\b/im.exec(error.slice(0, 2000));
    return match === null ? undefined : Number(match[1]);
  }
  return response?.interrupted === true ? undefined : 0;
}

// ---------------------------------------------------------------------------------------------
// Files touched by Claude Code's built-in tools
// ---------------------------------------------------------------------------------------------

const WRITE_TOOLS: Readonly<Record<string, string>> = Object.freeze({
  Write: 'file_path',
  Edit: 'file_path',
  MultiEdit: 'file_path',
  NotebookEdit: 'notebook_path',
});

/**
 * The files a Claude Code built-in tool call reads or writes, paths as given (absolute in Claude
 * Code): `Read` (`file_path`) reads; `Write`, `Edit`, `MultiEdit` (`file_path`) and `NotebookEdit`
 * (`notebook_path`) write. Decision: `Glob` and `Grep` read nothing here (their `path` is a folder
 * to search, not a file read), nor does any other tool; a missing, empty or non-string path gives
 * nothing.
 */
export function filePathsOf(toolName: string, toolInput: unknown): { reads: string[]; writes: string[] } {
  const input = typeof toolInput === 'object' && toolInput !== null ? (toolInput as Record<string, unknown>) : {};
  const pathOf = (key: string): string[] => {
    const value = input[key];
    return typeof value === 'string' && value.trim() !== '' ? [value] : [];
  };
  if (toolName === 'Read') return { reads: pathOf('file_path'), writes: [] };
  const writeKey = WRITE_TOOLS[toolName];
  return { reads: [], writes: writeKey === undefined ? [] : pathOf(writeKey) };
}

// ---------------------------------------------------------------------------------------------
// Corrections in a prompt
// ---------------------------------------------------------------------------------------------

/** Limits of {@link detectCorrection} and of the lines of a draft. */
export const HOOK_SIGNAL_LIMITS = Object.freeze({
  /** A longer prompt is a task description, not a correction. */
  maxPromptLength: 2000,
  /** The correction sentence is cut to this length. */
  maxCorrectionLength: 300,
  /** Any line taken from a tool's input or output (error, command) is cut to this length. */
  lineLength: 200,
});

/** The rules of {@link detectCorrection}, in the order they are tried on each sentence. */
export const CORRECTION_RULES = Object.freeze([
  'no',
  'wrong',
  'instead-of',
  'use-not',
  'use-instead',
  'dont',
  'do-not',
  'stop',
  'never',
  'we-use',
  'actually',
] as const);
export type CorrectionRule = (typeof CORRECTION_RULES)[number];

/** Filler that may open an imperative sentence: "please", "but", "ok,", "remember:", … */
const LEAD =
  String.raw`^(?:(?:please|and|but|also|again|so|ok|okay|oh|hey|just|then|hmm|wait|sorry|remember|reminder|note)\b` +
  String.raw`[,:;\s—–-]*)*`;
/** Where a team states its habits: "here", "in this repo", "in this project", … */
const PLACE = String.raw`(?:here|in\s+this\s+(?:repo|repository|project|codebase|team|company|package|monorepo))`;
/**
 * "always" before an imperative: a verb from this list, the verbs a developer tells an agent to do ("always run the
 * tests", "always enable strict mode"), not any word ("always thought it was pnpm", "always null", "always empty",
 * "always after a restart", "always ran fine before").
 */
const ALWAYS_VERBS = [
  'use|keep|leave|put|make|change|rename|revert|undo|remove|drop|delete|move|switch|go|call|return|write|prefer|skip',
  'run|rerun|pass|rebase|merge|squash|enable|disable|add|check|double-check|ping|embed|pin|lint|format|test|commit',
  'push|pull|fetch|alias|bring|seed|shred|build|install|update|upgrade|bump|restart|start|set|wrap|split|sign|tag',
  'log|print|read|import|export|mock|stub|validate|sanitize|escape|quote|close|wait|ask|confirm|document|name|type',
  'declare|define|handle|catch|throw|await|lock|clear|clean|reset|sort|review|retry|include|exclude|prefix|annotate',
  'mention|link|deploy|release|back|ship|verify|open|create|generate|regenerate|compile|bundle|cache|clone|copy',
].join('|');
const ALWAYS_IMPERATIVE = String.raw`always\s+(?:${ALWAYS_VERBS})\b`;
/** What a sentence that overrules the agent goes on with, after "no," or "actually,". */
const DIRECTIVE = new RegExp(
  String.raw`^(?:please\s+)?(?:(?:use|don't|dont|do\s+not|never|stop|avoid|keep|leave|put|make|change|rename|revert|` +
    String.raw`undo|remove|drop|delete|move|switch|go\s+back|call|return|write|prefer|skip|let's|lets|instead|rather|` +
    String.raw`not|wrong)\b|${ALWAYS_IMPERATIVE}` +
    String.raw`|(?:it|that|this|you|we|i|they|the\s+[\w./-]+(?:\s+[\w./-]+)?)\s+` +
    String.raw`(?:should|shouldn't|must|mustn't|need\s+to|needs\s+to|has\s+to|have\s+to|always|never|don't|do\s+not|` +
    String.raw`doesn't|does\s+not|want|wanted|meant|said|asked|prefer|goes|go|belongs?|lives?)\b` +
    String.raw`|(?:it's|that's|this\s+is|it\s+is|that\s+is)\s+(?:wrong|not|incorrect|supposed)\b)`,
  'i',
);
const NO_OPENING = /^(?:(?:no+|nope|nah)\s*[,.!;:—–-]+\s*)+/i;
const NO_ALONE = /^(?:no+|nope|nah|wrong)\s*[.!]*$/i;
const STOP_ALONE = /^stop\s*[.!]+$/i;
const ACTUALLY_OPENING = /^actually\b[,:;—–-]?\s*/i;
const BULLET = /^(?:[-*•]|\d+[.)])\s+/;
/** A polite request: "can you use X instead?" is read as "use X instead". */
const POLITE = /^(?:(?:so|ok|okay|and|but|hey|also|then)[,\s]+)*(?:can|could|would|will)\s+you(?:\s+please)?\s+(?=\S)/i;
/** A sentence that opens like a question or a condition is not a correction. */
const INTERROGATIVE = new RegExp(
  String.raw`^(?:do\s+(?:you|we|i|they)\b|(?:does|did|is|are|was|were|should|shall|can|could|would|will|may|might|` +
    String.raw`why|how|what|which|where|who|whether|if|unless)\b)`,
  'i',
);
/** Words that, before a rule's match, make it reported, asked or conditional. */
const SUBORDINATE = /\b(?:if|unless|whether|why|how|what|which|says?|said|claims?|sure|wonder)\b/i;

/** One to four words of code or prose: a side of "X, not Y" said alone. */
const SHORT_PHRASE = String.raw`[\w@./+#-]+(?:\s+[\w@./+#-]+){0,3}`;

const RULE_PATTERNS: ReadonlyArray<readonly [CorrectionRule, RegExp]> = [
  [
    'wrong',
    new RegExp(
      String.raw`\b(?:that|this|it)(?:'s|\s+is|\s+was)\s+` +
        String.raw`(?:(?:all|completely|totally|just|still|simply|clearly|definitely)\s+)?` +
        String.raw`(?:(?:the\s+)?wrong|incorrect|` +
        String.raw`not\s+(?:right|correct|what\s+i\s+(?:asked|meant|wanted|said)|how\s+(?:we|i|you)\b))` +
        String.raw`|\byou(?:'re|\s+are)\s+(?:wrong|mistaken)\b` +
        String.raw`|\byou\s+(?:edited|changed|used|picked|opened|modified|deleted|imported|called)\s+the\s+wrong\b`,
      'i',
    ),
  ],
  [
    'instead-of',
    new RegExp(
      String.raw`\b(?:instead\s+of|rather\s+than)\b.{0,120}?` +
        String.raw`[,\s](?:use|call|write|try|go\s+with|put|return|throw|import|prefer)\b` +
        String.raw`|\b(?:use|call|write|try|go\s+with|put|return|throw|import|prefer|pick|choose|switch\s+to)\s+` +
        String.raw`\S.{0,120}?\binstead\s+of\b`,
      'i',
    ),
  ],
  [
    'use-not',
    new RegExp(
      // Not what the speaker does ("I use vim, not emacs").
      String.raw`(?<!\bi\s+)\b(?:use|prefer|call|import|put|keep|write|name|go\s+with)\s+\S.{0,100}?` +
        String.raw`(?:,\s*not|\s+rather\s+than)\s+(?!(?:only|just|sure)\b)\S` +
        String.raw`|\bprefer\s+\S.{0,80}?\s+over\s+\S`,
      'i',
    ),
  ],
  [
    // "X, not Y" said alone, with no verb before it: "tabs, not spaces", "no — vitest, not jest", "indent with tabs,
    // not spaces". Each side at most four words, the sentence nothing else; not an answer ("yes, not yet"), a subject
    // ("I use vim, not emacs"), nor a "not" that qualifies ("fine, not bad", "later, not now").
    'use-not',
    new RegExp(
      String.raw`^(?:(?:no+|nope|nah|actually)\s*[,.!;:—–-]+\s*)?` +
        LEAD.slice(1) +
        '(?!(?:yes|yeah|yep|ok|okay|sure|thanks|thank|maybe|perhaps|well|fine|good|great|sorry|later|now|' +
        // An acknowledgement is no side of a choice ("Noted, not urgent", "Works for me, not a blocker": review D);
        // a word that is also a value ("true, not false", "right-aligned, not centered") stays one.
        'noted|cool|awesome|understood|interesting|works|perfect|got|gotcha|alright|agreed|makes|' +
        'neat|excellent|amazing|wow|hmm|oh|ah|lol|roger|exactly|indeed|totally|' +
        String.raw`no|not|i|you|he|she|they|it|that|this|there|my|your|and|but|or)(?![\w-])` +
        // "Done, not merged": a task's state, a participle after "not" (review F, item 7).
        String.raw`|done\s*,\s*not\s+\w+ed\b)` +
        String.raw`${SHORT_PHRASE},\s*not\s+` +
        String.raw`(?!(?:now|yet|bad|really|quite|exactly|sure|only|just|always|necessarily|much|at\s+all|so|too|` +
        // Nor a judgement after "not": a word of need or worth ("not urgent", "not a big deal", "not what I expected"),
        // a judgement noun after any article ("not an issue", "not a big issue", "not the point", "not the end of the
        // world": review F, item 7), a state not reached yet ("not merged yet"); a thing named with its article is a
        // side ("the staging db, not the prod db", "a Map, not an object").
        String.raw`(?:an?|the)\s+(?:(?:big|huge|major|real|serious)\s+)?` +
        '(?:deal|blocker|problem|priority|concern|must|requirement|issue|biggie|point|' +
        String.raw`end\s+of\s+the\s+world)` +
        String.raw`\b|[\w-]+(?:\s+[\w-]+)?\s+yet\b|` +
        'what|important|needed|necessary|urgent|required|relevant|possible|critical|essential|' +
        'mandatory|worth|ideal|perfect|great|good|helpful|useful|blocking|' +
        String.raw`that|this|me|you|here|there|today|anymore|again|even|ever)\b)${SHORT_PHRASE}\s*[.!]*$`,
      'i',
    ),
  ],
  [
    'use-instead',
    new RegExp(
      String.raw`\b(?:use|call|try|go\s+with|switch\s+to|prefer|run|do|put|write|import|return|make)\s+` +
        String.raw`\S.{0,120}?\binstead\b(?!\s+of\b)`,
      'i',
    ),
  ],
  [
    'dont',
    new RegExp(
      LEAD +
        String.raw`(?:(?:i\s+(?:said|told\s+you|asked\s+you)[,:]?\s+)?(?:don't|dont)\s+` +
        '(?!(?:you|we|they|i|know|think|understand|see|get|remember|recall|care|mind|' +
        String.raw`worry|hesitate|panic|believe|even)\b)\w` +
        String.raw`|you\s+(?:shouldn't|mustn't|can't|don't\s+(?:need|have)\s+to)\s+\w)`,
      'i',
    ),
  ],
  [
    'do-not',
    new RegExp(
      LEAD +
        String.raw`(?:(?:i\s+(?:said|told\s+you|asked\s+you)[,:]?\s+)?do\s+not\s+` +
        String.raw`(?!(?:you|we|they|i|know|think|understand|worry|hesitate|panic)\b)\w` +
        String.raw`|i\s+(?:told|asked)\s+you\s+not\s+to\b|you\s+(?:should|must|do)\s+not\s+\w|you\s+cannot\s+\w)`,
      'i',
    ),
  ],
  [
    'stop',
    new RegExp(
      LEAD +
        String.raw`stop\s+(?!(?:thing|something|anything|everything|nothing|string|spring|during|morning|evening|` +
        String.raw`ceiling|king|ring|bring|sing|wing)\b)[a-z]{2,}ing\b`,
      'i',
    ),
  ],
  [
    'never',
    new RegExp(
      LEAD +
        String.raw`(?:(?:you|we)\s+(?:should\s+|must\s+)?)?never\s+` +
        '(?!(?:mind|seen|been|heard|had|knew|thought|got|did|was|were|saw|done|gone|made|ran|wrote|written|' +
        String.raw`found|felt|understood|came|went|said|told|again|ever)\b)` +
        String.raw`(?!(?!(?:need|embed|feed|seed|proceed|exceed|succeed|shred)\b)[a-z]+ed\b)[a-z]`,
      'i',
    ),
  ],
  [
    'we-use',
    new RegExp(
      LEAD +
        String.raw`(?:(?:${PLACE},?\s+)?we\s+(?:(?:always|only|usually|generally)\s+` +
        String.raw`(?:use|write|put|keep|call|name|run|import|do)|prefer)\b` +
        String.raw`|${PLACE},?\s+we\s+(?:use|write|put|keep|run|do)\b` +
        String.raw`|we\s+(?:use|write|put|keep|run|do)\s+\S.{0,80}?\s+${PLACE}\b` +
        // "we use fetch": the sentence names one or two words and nothing else ("We use Postgres for storage and
        // Redis for caching" describes).
        String.raw`|we\s+use\s+(?!(?:it|this|that|them|these|those|a|an|the|to|some|many|much|both)\b)` +
        String.raw`[\w@./+#-]+(?:\s+[\w@./+#-]+)?\s*[.!]*$` +
        String.raw`|we\s+(?:don't|do\s+not)\s+(?:use|write|put|keep|call|name|import|commit|push|merge)\b)`,
      'i',
    ),
  ],
];

/**
 * The copy of the prompt the rules read, character for character the same length, so a match's
 * offsets are the prompt's: curly apostrophes become `'`; fenced code blocks become blanks (their
 * newlines stay); inline code (`` `don't` ``) becomes `x`s, one word that triggers nothing;
 * quoted lines (`> …`) become blanks.
 */
function readableCopy(prompt: string): string {
  return prompt
    .replace(/[’‘]/g, "'")
    .replace(/```[\s\S]*?(?:```|$)/g, (block) => block.replace(/[^\n]/g, ' '))
    .replace(/`[^`\n]*`/g, (code) => 'x'.repeat(code.length))
    .replace(/^[ \t]*>.*$/gm, (quote) => ' '.repeat(quote.length));
}

interface Span {
  readonly start: number;
  readonly end: number;
}

/** Sentences: split at a line break and after `.`, `!` or `?` followed by a space; trimmed, non-empty. */
function sentenceSpans(text: string): Span[] {
  const spans: Span[] = [];
  let start = 0;
  const push = (end: number): void => {
    let a = start;
    let b = end;
    while (a < b && /\s/.test(text[a] as string)) a++;
    while (b > a && /\s/.test(text[b - 1] as string)) b--;
    if (b > a) spans.push({ start: a, end: b });
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\n') {
      push(i);
      start = i + 1;
    } else if (c === '.' || c === '!' || c === '?') {
      let j = i + 1;
      while (j < text.length && '.!?'.includes(text[j] as string)) j++;
      if (j === text.length || /\s/.test(text[j] as string)) {
        push(j);
        start = j;
      }
      i = j - 1;
    }
  }
  push(text.length);
  return spans;
}

/**
 * The imperative body of a sentence, or undefined when the sentence is a question: a leading
 * bullet is dropped; a polite request ("could you …") is read without its opening, question mark
 * or not; otherwise a sentence that ends with `?` or opens like a question or a condition
 * ({@link INTERROGATIVE}: "do you", "is", "why", "if", …) is no correction.
 */
function imperativeBody(sentence: string): string | undefined {
  const body = sentence.replace(BULLET, '');
  const polite = POLITE.exec(body);
  if (polite !== null) return body.slice(polite[0].length);
  if (body.endsWith('?') || INTERROGATIVE.test(body)) return undefined;
  return body;
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : text.slice(0, max).trimEnd();
}

/**
 * A user correcting the agent in a prompt, or undefined.
 *
 * A prompt longer than {@link HOOK_SIGNAL_LIMITS.maxPromptLength} (2000) characters is a task
 * description and is not read. Code (fenced blocks, inline `` `code` ``) and quoted lines (`> …`)
 * are not read. The prompt is split into sentences; a question (ends with `?`, or opens with
 * "do you/we/I/they", does/did/is/are/should/can/why/how/what/if/unless/…) is skipped unless it is a polite request
 * ("can/could/would/will you (please) …", read without that opening). Rules, tried in this order
 * on each sentence, first sentence first:
 * - `no`: opens with "no,", "nope.", "nah -" (punctuation required: "no worries" is not) and goes on
 *   with a directive (use, don't, never, stop, keep, put, revert, let's, instead, not, "it/that/you/
 *   we/the X should|must|needs to|always|never|goes|belongs", "it's wrong/not", "always …", …); or is a bare
 *   "No." / "Nope!" / "Wrong." followed by a sentence that opens with a directive (both sentences are
 *   the text);
 * - `wrong`: "that's/this is/it was (completely) (the) wrong|incorrect|not right|not correct|not
 *   what I asked|not how we …", "you're wrong/mistaken", "you edited/changed/used … the wrong …";
 * - `instead-of`: "instead of X / rather than X, use|call|write|put|return … Y",
 *   "use|call|write|return|prefer|switch to X instead of Y";
 * - `use-not`: "use|prefer|put|keep|write|name X, not Y" (not after "I"), "use X rather than Y", "prefer X over Y";
 *   or a sentence that is only "X, not Y", after an optional "no," / "actually," (each side one to four words, X no
 *   answer or subject: "tabs, not spaces", "no — vitest, not jest"; not "yes, not yet", "later, not now");
 * - `use-instead`: "use|call|try|run|do|switch to|write|return|make X … instead";
 * - `dont`: the sentence opens (after filler such as "please", "but", "ok,", "remember:" and an
 *   optional "I said/told you") with "don't"/"dont" and a verb other than
 *   know/think/understand/see/get/remember/care/mind/worry/hesitate/believe/even and not "don't
 *   you/we"; or with "you shouldn't|mustn't|can't|don't need to|don't have to";
 * - `do-not`: the same with "do not" (not "do not worry/hesitate"), "I told/asked you not to",
 *   "you should/must/do not", "you cannot";
 * - `stop`: opens with "stop <verb>ing" ("stop adding comments"; not "stop the server", not
 *   "stop something/anything/everything/nothing/string"); or is a bare "Stop." followed by a
 *   sentence that opens with a directive ("Stop. Revert the last change.", both sentences);
 * - `never`: opens with "(you/we (should/must)) never <verb>" where the verb is not a past form
 *   (-ed except need/embed/feed/seed/proceed/exceed/succeed/shred; seen, been, had, …) nor
 *   "mind"/"again"/"ever";
 * - `we-use`: "we always|only|usually|generally use|write|put|keep|call|name|run|import|do …",
 *   "we prefer …", "here/in this repo|project|codebase|team, we use …", "we use X here/in this
 *   project", a sentence that is only "we use X" (one or two words: "We use fetch."), "we don't use|write|commit|
 *   push|merge …";
 * - `actually`: the first sentence opens with "actually" and goes on with a directive (as `no`).
 *
 * A mid-sentence rule (`wrong`, `instead-of`, `use-not`, `use-instead`) does not fire when its
 * match is preceded in the sentence by if/unless/whether/why/how/what/which/says/said/claims/
 * sure/wonder (a condition, a question or a report: "the linter says that's wrong").
 *
 * @returns `text`: the sentence that carries the correction, as written in the prompt, trimmed
 *   and cut to {@link HOOK_SIGNAL_LIMITS.maxCorrectionLength} (300) characters (always a substring
 *   of the prompt); `rule`: the rule that fired.
 */
export function detectCorrection(prompt: string): { text: string; rule: CorrectionRule } | undefined {
  if (typeof prompt !== 'string' || prompt.length > HOOK_SIGNAL_LIMITS.maxPromptLength) return undefined;
  const readable = readableCopy(prompt);
  const spans = sentenceSpans(readable);
  const found = (rule: CorrectionRule, span: Span) => ({
    text: cut(prompt.slice(span.start, span.end), HOOK_SIGNAL_LIMITS.maxCorrectionLength),
    rule,
  });
  for (let index = 0; index < spans.length; index++) {
    const span = spans[index] as Span;
    const sentence = readable.slice(span.start, span.end).replace(BULLET, '');
    // `no`: "no, use …", or "No." and a directive in the next sentence.
    const no = NO_OPENING.exec(sentence);
    if (no !== null && !sentence.endsWith('?') && DIRECTIVE.test(sentence.slice(no[0].length)))
      return found('no', span);
    const next = spans[index + 1];
    const alone = NO_ALONE.test(sentence) ? 'no' : STOP_ALONE.test(sentence) ? 'stop' : undefined;
    if (alone !== undefined && next !== undefined) {
      const following = imperativeBody(readable.slice(next.start, next.end));
      if (following !== undefined && DIRECTIVE.test(following))
        return found(alone, { start: span.start, end: next.end });
    }
    const body = imperativeBody(sentence);
    if (body === undefined) continue;
    for (const [rule, pattern] of RULE_PATTERNS) {
      const match = pattern.exec(body);
      if (match !== null && !SUBORDINATE.test(body.slice(0, match.index))) return found(rule, span);
    }
    const actually = index === 0 ? ACTUALLY_OPENING.exec(body) : null;
    if (actually !== null && actually[0].length < body.length && DIRECTIVE.test(body.slice(actually[0].length)))
      return found('actually', span);
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Commit messages and coverage reports (seed 004: "commit message style", "test coverage changes")
// ---------------------------------------------------------------------------------------------

/**
 * The message of a `git commit` command: the first `-m`/`--message` value (`-m msg`, `-mmsg`, `-am msg`,
 * `--message=msg`), and for Claude Code's own form, `-m "$(cat <<'EOF' … EOF)"`, the here document's
 * body. Undefined when the message comes from an editor or a file (`-F`), or the command is no commit.
 */
export function commitMessage(command: string): string | undefined {
  if (typeof command !== 'string') return undefined;
  const heredoc = /-m\s+"\$\(cat\s+<<-?\s*'?(\w+)'?\s*\n([\s\S]*?)\n\s*\1\s*\n?\s*\)"/.exec(command);
  if (heredoc !== null) return heredoc[2];
  for (const segment of splitShell(command)) {
    const words = launchedWords(segment);
    if (!isGitCommit(words)) continue;
    const at = words.indexOf('commit');
    for (let i = at + 1; i < words.length; i++) {
      const w = words[i] as string;
      if (w === '--message' || /^-[a-zA-Z]*m$/.test(w)) return words[i + 1];
      if (w.startsWith('--message=')) return w.slice('--message='.length);
      if (/^-m./.test(w)) return w.slice(2);
    }
  }
  return undefined;
}

/** The style of a commit message's subject (its first non-blank line), or undefined for an empty one. */
export function commitMessageStyle(message: string): keyof typeof COMMIT_STYLES | undefined {
  const subject = firstLine(message, 500);
  if (subject === '') return undefined;
  if (/^(?:feat|fix|docs|style|refactor|perf|test|tests|build|ci|chore|revert)(?:\([^)]*\))?!?:\s+\S/i.test(subject))
    return 'conventional';
  if (/^\[?[A-Z][A-Z0-9]+-\d+\]?[:\s]/.test(subject)) return 'ticket';
  if (/^(?::[a-z0-9_+-]+:|\p{Extended_Pictographic})/u.test(subject)) return 'gitmoji';
  const first = subject.charAt(0);
  if (first !== first.toLowerCase()) return 'capitalised';
  return first !== first.toUpperCase() ? 'lowercase' : undefined;
}

/**
 * The total coverage, in percent, a test run's output reports, or undefined: Istanbul's text table
 * (vitest, jest, nyc: `All files | 85.3 | …`, statements), its text summary (`Statements : 85.3% …`),
 * pytest-cov (`TOTAL … 85%`), Go (`coverage: 85.3% of statements`, the last one), a plain
 * `Coverage: 85.3%` line. Read from Bash's `tool_response` (its `stdout` and `stderr`) or any text.
 */
export function coverageOf(response: unknown): number | undefined {
  const text =
    typeof response === 'string'
      ? response
      : typeof response === 'object' && response !== null
        ? ['stdout', 'stderr', 'output']
            .map((k) => (response as Record<string, unknown>)[k])
            .filter((v): v is string => typeof v === 'string')
            .join('\n')
        : '';
  const patterns = [
    /^[ \t]*All files[ \t]*\|[ \t]*(\d{1,3}(?:\.\d+)?)[ \t]*\|/m,
    /^[ \t]*Statements[ \t]*:[ \t]*(\d{1,3}(?:\.\d+)?)%/m,
    /^TOTAL(?:[ \t]+\d+)+[ \t]+(\d{1,3}(?:\.\d+)?)%[ \t]*$/m,
    /coverage:[ \t]*(\d{1,3}(?:\.\d+)?)%[ \t]+of statements(?![\s\S]*coverage:[ \t]*\d)/,
    /^[ \t]*(?:total[ \t]+)?coverage[ \t]*:[ \t]*(\d{1,3}(?:\.\d+)?)[ \t]*%/im,
  ];
  for (const pattern of patterns) {
    const match = pattern.exec(text);
    const value = match === null ? Number.NaN : Number(match[1]);
    if (value >= 0 && value <= 100) return value;
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Events → observation drafts
// ---------------------------------------------------------------------------------------------

/** A hook event as the rules see it, normalised by the hook shell from Claude Code's JSON. */
export type HookSignalEvent =
  | {
      readonly kind: 'call';
      /** `tool_name`: `Bash`, `Write`, `mcp__server__tool`, … */
      readonly tool: string;
      /** `tool_input`. */
      readonly input: unknown;
      /** `success` for PostToolUse, `failure` for PostToolUseFailure. */
      readonly status: 'success' | 'failure';
      /** PostToolUseFailure's `error`. */
      readonly error?: string;
      /** For Bash, {@link bashExitCode} of the payload. */
      readonly exitCode?: number;
      /** PostToolUseFailure's `is_interrupt`: the user stopped the call; nothing is observed. */
      readonly interrupted?: boolean;
      /** The files the call read, when the caller knows them already; else {@link filePathsOf}. */
      readonly reads?: readonly string[];
      /** The files the call wrote, when the caller knows them already; else {@link filePathsOf}. */
      readonly writes?: readonly string[];
      /** For a Bash call, the total test coverage its output reports, in percent ({@link coverageOf}). */
      readonly coverage?: number;
    }
  | { readonly kind: 'prompt'; readonly prompt: string };

/** What the rules remember of one session between events; the caller keeps it. Times in ms. */
export interface SessionObserveState {
  /** When a Write/Edit/MultiEdit/NotebookEdit call last succeeded. */
  readonly lastChangeAt?: number;
  /** When a test command last finished with a known outcome. */
  readonly lastTestAt?: number;
  /** Whether that test run passed (exit 0). */
  readonly lastTestPassed?: boolean;
  /** The total coverage the session's last test run with a coverage report gave, in percent. */
  readonly lastCoverage?: number;
}

/** An observation without `timestamp` and `id` (the caller adds them): the seed 004 fields. */
export interface ObservationDraft {
  type: ObservationType;
  observation: string;
  confidence: number;
  context: { task?: string; file?: string; phase?: ObservationPhase };
  evidence?: string[];
  tags: string[];
}

/** The confidence each trigger gives its observation. */
export const HOOK_CONFIDENCE = Object.freeze({ failedCall: 0.6, testRun: 0.7, commit: 0.6, correction: 0.7 });

/** The commit-message styles a commit's subject is read as ({@link commitMessageStyle}). */
export const COMMIT_STYLES = Object.freeze({
  conventional: 'commit messages follow Conventional Commits (type(scope): subject)',
  ticket: 'commit messages start with a ticket id',
  gitmoji: 'commit messages start with a gitmoji',
  capitalised: 'commit messages are a capitalised subject without a type prefix',
  lowercase: 'commit messages are a lowercase subject without a type prefix',
});

/** The commit patterns, by what the session saw since its last file change. */
export const COMMIT_PATTERNS = Object.freeze({
  tested: 'committed after running tests',
  failing: 'committed with failing tests since the last change',
  untested: 'committed without running tests since the last change',
});

/** The coverage patterns: a test run's total coverage against the session's previous one. */
export const COVERAGE_PATTERNS = Object.freeze({
  rose: 'test coverage rose since the last test run',
  fell: 'test coverage fell since the last test run',
});

/** The smallest change of total coverage, in points, observed. */
const COVERAGE_STEP = 0.1;

/** The first non-blank line of `text`, trimmed and cut to `max` characters (an ellipsis marks a cut). */
function firstLine(text: string, max: number = HOOK_SIGNAL_LIMITS.lineLength): string {
  const line =
    text
      .split(/\r?\n/)
      .find((l) => l.trim() !== '')
      ?.trim() ?? '';
  return line.length <= max ? line : `${line.slice(0, max - 1).trimEnd()}…`;
}

/** The first non-blank line after the first one (the detail under "Exit code 1"), or ''. */
function detailLine(text: string): string {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  return firstLine(lines.slice(1).join('\n'));
}

/**
 * The observations one hook event gives, and the session state after it. Rules:
 * - a prompt with a correction ({@link detectCorrection}) → `correction`, the correction sentence,
 *   confidence 0.7, tags `["hook", "correction", <rule>]`, no phase (a prompt does not say it);
 * - an interrupted call (the user stopped it) → nothing, state unchanged;
 * - a successful call that wrote a file sets `lastChangeAt`: the event's `writes`, else
 *   {@link filePathsOf} (Write/Edit/MultiEdit/NotebookEdit); changes made through Bash are not seen;
 * - a Bash test command ({@link classifyCommand}) with a known outcome — exit code 0 passed; another
 *   exit code, or a failure without one, failed; a success without an exit code is unknown and
 *   observes nothing — → `success` "tests passed: <command>" or `error` "tests failed: <command>",
 *   confidence 0.7, tags `["hook", tool, "test"]`, evidence the runner, the exit code and, on
 *   failure, the first line of detail of the error; it sets `lastTestAt` and `lastTestPassed`. A
 *   failed test run gives this observation instead of the failed-call one;
 * - a successful commit whose message is in the command ({@link commitMessage}) also gives its style
 *   ({@link commitMessageStyle}: Conventional Commits, a ticket id, a gitmoji, a capitalised or a lowercase
 *   subject) → `pattern` {@link COMMIT_STYLES}, confidence 0.6, tags `["hook", tool, "commit-style", <style>]`,
 *   evidence the subject;
 * - a test run whose output reports a total coverage ({@link coverageOf}, the event's `coverage`) that moved
 *   by 0.1 point or more since the session's previous report → `success` "test coverage rose since the last
 *   test run" or `error` "… fell …", confidence 0.7, tags `["hook", tool, "test", "coverage"]`, evidence the
 *   two figures; it sets `lastCoverage`;
 * - a successful Bash `git commit` (a failed one made no commit) → `pattern`, confidence 0.6, tags
 *   `["hook", tool, "commit"]`: "committed after running tests" when a test run passed with no file
 *   change after it (`lastTestAt ≥ lastChangeAt`, or no change seen), "committed with failing tests
 *   since the last change" when the last run after the last change failed, else "committed without
 *   running tests since the last change". A command that tests then commits (`npm test && git
 *   commit …`) counts its own test run first;
 * - any other failed call → `error` "<tool> failed: <first line of error>" ("<tool> failed" when
 *   the error is empty), confidence 0.6, tags `["hook", tool]`, context `file` the first file the
 *   call wrote or read, evidence the command (Bash) and the first line of detail of the error.
 * Each observation has a tag naming its source (core/learning/rule-trust): `source:user` for a correction (the
 * user's own words), `source:template` for a commit pattern (Credence's words), `source:tool-output`
 * for a test run or a failed call (their text quotes a command or a tool's output: data that may
 * inform a pattern, never the words of a rule).
 * Each trigger is off when its `config` switch is false; the state is kept up to date either way.
 * `<command>` and every evidence line are first lines, at most 200 characters.
 * @throws CredenceError INVALID_INPUT when `now` is not a finite number.
 */
export function observationsFor(
  event: HookSignalEvent,
  state: SessionObserveState,
  config: ObserveConfig,
  now: number,
): { observations: ObservationDraft[]; nextState: SessionObserveState } {
  requireFinite('now', now, 'a time in milliseconds');
  const observations: ObservationDraft[] = [];
  if (event.kind === 'prompt') {
    const correction = config.corrections ? detectCorrection(event.prompt) : undefined;
    if (correction !== undefined) {
      observations.push({
        type: 'correction',
        observation: correction.text,
        confidence: HOOK_CONFIDENCE.correction,
        context: {},
        tags: ['hook', 'correction', correction.rule, sourceTag('user')],
      });
    }
    return { observations, nextState: { ...state } };
  }
  if (event.interrupted === true) return { observations, nextState: { ...state } };

  let next: SessionObserveState = { ...state };
  const failed = event.status === 'failure';
  const touched = filePathsOf(event.tool, event.input);
  const reads = event.reads ?? touched.reads;
  const writes = event.writes ?? touched.writes;
  if (!failed && writes.length > 0) next = { ...next, lastChangeAt: now };

  const input = typeof event.input === 'object' && event.input !== null ? (event.input as Record<string, unknown>) : {};
  const command = event.tool === 'Bash' && typeof input.command === 'string' ? input.command : undefined;
  const error = event.error ?? '';
  let observedFailure = false;
  if (command !== undefined) {
    for (const fact of commandFacts(command, config.testCommands).kinds) {
      if (fact.kind === 'test') {
        const passed = !failed && event.exitCode === 0;
        const known = passed || failed || (event.exitCode !== undefined && event.exitCode !== 0);
        if (!known) continue;
        next = { ...next, lastTestAt: now, lastTestPassed: passed };
        if (!config.testRuns) continue;
        const evidence = [
          `runner: ${fact.runner}`,
          ...(event.exitCode === undefined ? [] : [`exit code ${event.exitCode}`]),
        ];
        const detail = passed ? '' : detailLine(error);
        observations.push({
          type: passed ? 'success' : 'error',
          observation: `tests ${passed ? 'passed' : 'failed'}: ${firstLine(command)}`,
          confidence: HOOK_CONFIDENCE.testRun,
          context: {},
          evidence: detail === '' ? evidence : [...evidence, detail],
          tags: ['hook', event.tool, 'test', sourceTag('tool-output')],
        });
        if (!passed) observedFailure = true;
        const coverage = event.coverage;
        if (coverage !== undefined) {
          const before = next.lastCoverage;
          next = { ...next, lastCoverage: coverage };
          if (before !== undefined && Math.abs(coverage - before) >= COVERAGE_STEP) {
            const rose = coverage > before;
            observations.push({
              type: rose ? 'success' : 'error',
              observation: rose ? COVERAGE_PATTERNS.rose : COVERAGE_PATTERNS.fell,
              confidence: HOOK_CONFIDENCE.testRun,
              context: {},
              evidence: [`coverage ${before}% → ${coverage}%`, `runner: ${fact.runner}`],
              tags: ['hook', event.tool, 'test', 'coverage', sourceTag('template')],
            });
          }
        }
      } else if (!failed && (event.exitCode === undefined || event.exitCode === 0) && config.commits) {
        const testedSinceChange =
          next.lastTestAt !== undefined && (next.lastChangeAt === undefined || next.lastTestAt >= next.lastChangeAt);
        const pattern = !testedSinceChange
          ? COMMIT_PATTERNS.untested
          : next.lastTestPassed === true
            ? COMMIT_PATTERNS.tested
            : COMMIT_PATTERNS.failing;
        observations.push({
          type: 'pattern',
          observation: pattern,
          confidence: HOOK_CONFIDENCE.commit,
          context: {},
          tags: ['hook', event.tool, 'commit', sourceTag('template')],
        });
        const message = commitMessage(command);
        const style = message === undefined ? undefined : commitMessageStyle(message);
        if (style !== undefined && message !== undefined)
          observations.push({
            type: 'pattern',
            observation: COMMIT_STYLES[style],
            confidence: HOOK_CONFIDENCE.commit,
            context: {},
            evidence: [`subject: ${firstLine(message)}`],
            tags: ['hook', event.tool, 'commit-style', style, sourceTag('template')],
          });
      }
    }
  }
  if (failed && !observedFailure && config.failedCalls) {
    const head = firstLine(error);
    const detail = detailLine(error);
    const evidence = [
      ...(command === undefined ? [] : [`command: ${firstLine(command)}`]),
      ...(detail === '' ? [] : [detail]),
    ];
    const file = writes[0] ?? reads[0];
    observations.push({
      type: 'error',
      observation: head === '' ? `${event.tool} failed` : `${event.tool} failed: ${head}`,
      confidence: HOOK_CONFIDENCE.failedCall,
      context: file === undefined ? {} : { file },
      ...(evidence.length === 0 ? {} : { evidence }),
      tags: ['hook', event.tool, sourceTag('tool-output')],
    });
  }
  return { observations, nextState: next };
}
