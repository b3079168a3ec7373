/**
 * @module cli/main
 * The `credence` command line. `main()` returns an exit code and never exits the process itself:
 * 0 success, 1 a failure the user can act on (the message says what), 2 bad usage.
 */
import { writeSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { isCredenceError, isStoreBusy, storeBusyError } from '../core/errors.js';
import { SCHEMA_VERSION } from '../core/schema.js';
import {
  makeContext,
  READ_ONLY_COMMANDS,
  READING_COMMANDS,
  type CliIO,
  type CommandContext,
  type GlobalOptions,
} from './context.js';
import { registerDemo } from './demo.js';
import { registerInit } from './init.js';
import { registerStatus } from './status.js';
import { registerEdges } from './edges.js';
import { registerRecord } from './record.js';
import { registerTools } from './tools.js';
import { registerSearch } from './search.js';
import { registerRecall } from './recall.js';
import { registerObserve } from './observe.js';
import { registerLearning } from './learning.js';
import { registerServe } from './serve.js';
import { registerHook } from './hook.js';
import { registerDump } from './dump.js';
import { registerWorkflows } from './workflows.js';
import { registerCalibration } from './calibration.js';
import { unexpectedFailureLine } from './failure.js';
import { withFlagNames } from './flag-names.js';
import { parseDbPath } from './parse.js';
import { terminalSafeIO } from './terminal.js';
import { packageVersion } from './version.js';

/** Exit codes; `busy` (75, sysexits' EX_TEMPFAIL): another process held the store's write lock, a retry can succeed. */
export const EXIT = Object.freeze({ ok: 0, failure: 1, usage: 2, busy: 75 });

export { learnHookEvent } from './hook.js';

/** Where commander writes; its own error lines ("error: unknown option …") start `credence:` as every other does. */
function output(io: CliIO) {
  return {
    writeOut: io.stdout,
    writeErr: io.stderr,
    outputError: (text: string, write: (text: string) => void) => write(text.replace(/^error: /, 'credence: ')),
  };
}

export function buildProgram(io: CliIO): { program: Command; context: () => CommandContext; exitCode: () => number } {
  let exitCode: number = EXIT.ok;
  const program = new Command('credence');
  program
    .description('A local-first learning memory for AI agents that knows how sure it is.')
    .option('--db <path>', 'SQLite database file (default: $CREDENCE_DB or ~/.credence/credence.db)', parseDbPath)
    .option(
      '--database-url <url>',
      'a PostgreSQL server to use instead of the SQLite file (default: $CREDENCE_DATABASE_URL)',
    )
    .option('--scope <name>', 'scope to read and write (default: the git top-level of the working directory)')
    .option('--now <iso>', 'the current time, for reproducible results (default: $CREDENCE_NOW or the clock)')
    .option('--json', 'print data as JSON')
    .option('--format <format>', 'output format: text or json (recall: context or json)')
    .option('-V, --version', "print credence's version and schema, and exit")
    .showHelpAfterError()
    .exitOverride()
    .configureOutput(output(io));
  // As commander's own .version() does, but package.json is read only when the version is asked for.
  program.on('option:version', () => {
    const version = packageVersion();
    // The schema too: the package's version does not change from one schema to the next.
    io.stdout(`${version} (schema ${SCHEMA_VERSION})\n`);
    throw new CommanderError(EXIT.ok, 'commander.version', version);
  });
  // The command that runs: one that only reads refuses a named store that does not exist (cli/context).
  let action: Command | undefined;
  program.hook('preAction', (_program, command) => {
    action = command;
  });
  const context = (): CommandContext =>
    makeContext(
      io,
      program.opts<GlobalOptions>(),
      (code) => {
        exitCode = Math.max(exitCode, code);
      },
      READING_COMMANDS.has(action?.name() ?? ''),
      READ_ONLY_COMMANDS.has(action?.name() ?? ''),
    );
  registerInit(program, context);
  registerStatus(program, context);
  registerDemo(program, context);
  const tools = registerTools(program, context);
  registerSearch(program, tools, context);
  registerRecall(program, context);
  registerObserve(program, context);
  registerLearning(program, context);
  registerRecord(program, context);
  registerEdges(program, context);
  registerWorkflows(program, context);
  registerCalibration(program, context);
  registerServe(program, context);
  registerHook(program, context);
  registerDump(program, context);
  const configure = (command: Command): void => {
    command.exitOverride().configureOutput(output(io)).showHelpAfterError();
    command.commands.forEach(configure);
  };
  program.commands.forEach(configure);
  return { program, context, exitCode: () => exitCode };
}

export async function main(argv: readonly string[], given: CliIO): Promise<number> {
  // Every line the command line prints passes here: no stored or typed text reaches the terminal as an escape sequence.
  const io = terminalSafeIO(given);
  const { program, exitCode } = buildProgram(io);
  if (argv.length === 0) {
    io.stderr(program.helpInformation());
    return EXIT.usage;
  }
  // The command that ran: a bad value it was given as a flag is named by the flag (cli/flag-names).
  let ran: Command | undefined;
  program.hook('preAction', (_program, action) => {
    ran = action;
  });
  // `credence hook …` fails open on any argv: Claude Code reads exit 2 from PreToolUse as "block the tool call".
  if (commandWordOf(argv) === 'hook') return hookFailingOpen(program, argv, io);
  try {
    const format = formatOf(argv);
    if (format !== undefined && format !== 'json' && format !== 'text' && format !== 'context') {
      io.stderr(`credence: --format must be text, json or context (recall), got ${JSON.stringify(format)}\n`);
      return EXIT.usage;
    }
    await program.parseAsync([...argv], { from: 'user' });
    return exitCode();
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.code === 'commander.helpDisplayed' ||
        error.code === 'commander.version' ||
        error.code === 'commander.help'
        ? EXIT.ok
        : EXIT.usage;
    }
    if (isStoreBusy(error)) {
      io.stderr(`credence: ${storeBusyError(error).message}\n`);
      return EXIT.busy;
    }
    if (isCredenceError(error)) {
      io.stderr(`credence: ${error.code === 'INVALID_INPUT' ? withFlagNames(error.message, ran) : error.message}\n`);
      return error.code === 'INVALID_INPUT' || error.code === 'INPUT_TOO_LARGE' || error.code === 'PATH_OUTSIDE_ROOT'
        ? EXIT.usage
        : EXIT.failure;
    }
    io.stderr(`credence: ${unexpectedFailureLine(error)}\n`);
    return EXIT.failure;
  }
}

/** The global options that take a value (as bin/credence.cjs VALUED). */
const VALUED = new Set(['--db', '--database-url', '--scope', '--now', '--format']);

/** The command word of a command line (its first word that is not an option or an option's value). */
function commandWordOf(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? '';
    if (VALUED.has(arg)) i += 1;
    else if (!arg.startsWith('-')) return arg;
  }
  return undefined;
}

/**
 * Runs `credence hook …` so that it always exits 0 (docs/cli.md): a mistyped command line prints one line on
 * stderr naming what was wrong (no usage text, nothing on stdout, which an agent would read as context);
 * `--help` still prints the help.
 */
async function hookFailingOpen(program: Command, argv: readonly string[], io: CliIO): Promise<number> {
  const ignored = '(ignored: a hook always exits 0)';
  const oneLine = (command: Command): void => {
    command.showHelpAfterError(false).configureOutput({
      writeOut: io.stdout,
      // Only the help commander prints for a command line missing its agent comes here: replaced by one line below.
      writeErr: () => {},
      outputError: (text) => io.stderr(`credence hook: ${firstLine(text)} ${ignored}\n`),
    });
    command.commands.forEach(oneLine);
  };
  oneLine(program);
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.help')
        io.stderr(`credence hook: no agent named: give \`hook claude-code\` ${ignored}\n`);
    } else io.stderr(`credence hook: ${firstLine(error instanceof Error ? error.message : String(error))}\n`);
  }
  return EXIT.ok;
}

const firstLine = (text: string): string =>
  text
    .replace(/^error: /, '')
    .split('\n')[0]
    ?.trim() ?? '';

function formatOf(argv: readonly string[]): string | undefined {
  const i = argv.findIndex((a) => a === '--format' || a.startsWith('--format='));
  if (i < 0) return undefined;
  const arg = argv[i] ?? '';
  return arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : argv[i + 1];
}

/**
 * Writes to the process's stdout (1) or stderr (2) straight to the descriptor: `process.stdout` is a stream Node
 * builds on first use, loading its stream modules (some 2 ms of a short command such as `status`). From the first
 * write that would block (EAGAIN), this and every later write go through the stream, which keeps the order. A reader
 * gone (`credence recall … | head -1`: EPIPE, as a write or later from the stream) ends the output quietly: that text
 * and every later one are dropped, no stack trace; the command runs to its end and the process exits with the
 * command's own code (0 when it succeeded), as a tool whose reader stopped early. Any other failed write
 * (`> /dev/full`: ENOSPC) drops the output too, kept as `failure` (said by `run`). A command whose output must arrive
 * whole (`dump -`) asks `delivered` (CliIO `stdoutDelivered`).
 */
export function descriptorWriter(
  fd: 1 | 2,
): ((text: string) => void) & { delivered: () => Promise<boolean>; failure: () => string | undefined } {
  let streamed = false;
  let gone = false;
  let failed: NodeJS.ErrnoException | undefined;
  const fail = (error: NodeJS.ErrnoException): void => {
    gone = true;
    if (error.code !== 'EPIPE') failed ??= error;
  };
  const stream = (): NodeJS.WriteStream => {
    const out = fd === 1 ? process.stdout : process.stderr;
    if (out.listenerCount('error') === 0) out.on('error', fail);
    return out;
  };
  const write = (text: string): void => {
    if (gone) return;
    if (streamed) {
      stream().write(text);
      return;
    }
    const bytes = Buffer.from(text, 'utf8');
    let done = 0;
    try {
      while (done < bytes.length) done += writeSync(fd, bytes, done);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') {
        fail(error as NodeJS.ErrnoException);
        return;
      }
      streamed = true;
      // bin/credence.cjs then lets the process end as any other (the stream may still be writing), not process.exit().
      (globalThis as Record<symbol, unknown>)[Symbol.for('credence.cli.streamed')] = true;
      stream().write(bytes.subarray(done));
    }
  };
  // Written straight, the text is in the pipe; through the stream, once the stream has handed all it holds on.
  const delivered = (): Promise<boolean> =>
    gone || !streamed
      ? Promise.resolve(!gone)
      : new Promise((resolve) => {
          stream().write('', (error) => resolve(!gone && (error === undefined || error === null)));
        });
  /** Why a write failed other than by the reader going away (`ENOSPC: no space left on device`), if one did. */
  const failure = (): string | undefined =>
    failed === undefined ? undefined : `${failed.code ?? 'error'}: ${failed.message.replace(/^\w+: |, write$/g, '')}`;
  return Object.assign(write, { delivered, failure });
}

/** The process shell around `main`, used by bin/credence.cjs. */
export async function run(): Promise<number> {
  const stdout = descriptorWriter(1);
  const stderr = descriptorWriter(2);
  const code = await main(process.argv.slice(2), {
    stdout,
    stdoutDelivered: stdout.delivered,
    stdoutFailure: stdout.failure,
    stderr,
    env: process.env,
    cwd: process.cwd(),
  });
  await stdout.delivered();
  const failure = stdout.failure();
  // A command that failed has said why (`dump -` says its output is incomplete); one that succeeded has not. A hook
  // fails open (exit 0) whatever its output.
  if (failure === undefined || code !== 0 || commandWordOf(process.argv.slice(2)) === 'hook') return code;
  stderr(`credence: standard output could not be written (${failure}); the output is incomplete\n`);
  return 1;
}
