/**
 * @module cli/context
 * What every command gets: the global options, an output sink and a way to open Credence. The
 * engine is loaded when a command opens it, so that `--help` and the commands that need no store
 * never load it.
 */
import { existsSync } from 'node:fs';
import { CredenceError } from '../core/errors.js';
import type { Credence } from '../engine/engine.js';
import { databaseUrl, sqlitePath } from '../platform/store-location.js';
import { storeFailure } from './failure.js';
import { checkedLines, readInput } from './input.js';

export interface CliIO {
  stdout: (text: string) => void;
  /**
   * Resolves once what was written to `stdout` so far has left the process: true, or false when its reader went away
   * first or a write failed (EPIPE, ENOSPC; the text is dropped). Set by the process shell (cli/main `run`);
   * without it every write arrives.
   */
  stdoutDelivered?: () => Promise<boolean>;
  /** Why a write to `stdout` failed other than by its reader going away (`ENOSPC: no space left on device`). */
  stdoutFailure?: () => string | undefined;
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

export interface GlobalOptions {
  db?: string;
  databaseUrl?: string;
  scope?: string;
  now?: string;
  json?: boolean;
  format?: string;
}

export interface CommandContext {
  io: CliIO;
  options: GlobalOptions;
  /** Prints data as JSON when --json (or --format json) was given, else as text. */
  wantsJson: boolean;
  open: () => Promise<Credence>;
  /**
   * The time the engine runs at (--now, CREDENCE_NOW or the machine's clock) and what messages call that clock: input
   * times are checked against it before the store opens, as `remember` checks them in the engine.
   */
  clock: () => Promise<{ now: number; name: string }>;
  /** Ends the run with this exit code once the command returns (1: some input was rejected). */
  setExitCode: (code: number) => void;
}

/**
 * The commands that only read the store (by name: `tools search` is `search`). Given a SQLite file by --db or
 * CREDENCE_DB that does not exist, they fail (a mistyped path would otherwise make an empty store and answer from it);
 * every other command makes the store, and so does any command on the default path (a first `recall` answers empty).
 */
export const READING_COMMANDS: ReadonlySet<string> = new Set([
  'status',
  'recall',
  'search',
  'dag',
  'next',
  'edges',
  'calibration',
  'dump',
  'backup',
  'export',
  'runs',
  'metrics',
  'workflows',
]);

/**
 * The commands that can answer without writing: a SQLite file this user cannot write (`chmod 444`, a backup on a
 * read-only mount) is opened read-only for them, not refused. Those that record what they show (recall, search,
 * dag, next) answer without recording it then, saying so on one stderr line (the engine's readOnly); `serve` answers
 * its reads, and its writes (MCP's recording tools, the dashboard's feedback) are refused naming the store.
 */
export const READ_ONLY_COMMANDS: ReadonlySet<string> = new Set([...READING_COMMANDS, 'serve']);

/**
 * Throws (INVALID_INPUT, exit 2) on an empty `--scope`: it would fall back to the default scope. A `--now` (or
 * CREDENCE_NOW) that is no date, or more than a day after the clock, is refused by openCredence, named so.
 */
export function requireSaneOptions(options: GlobalOptions): void {
  if (options.scope !== undefined && options.scope.trim() === '')
    throw new CredenceError('INVALID_INPUT', '--scope is empty: name a scope, or leave the option out for the default');
}

/** Why a time given in the input is refused (core/time aheadOfClockReason): kept here for the commands. */
export { aheadOfClockReason } from '../core/time.js';

/** Throws (INVALID_INPUT, exit 2) when a SQLite file named by --db (not `:memory:`) does not exist. */
export function requireNamedStore(options: GlobalOptions, env: NodeJS.ProcessEnv): void {
  const named = { ...(options.db === undefined ? {} : { db: options.db }) };
  if (
    databaseUrl({ ...named, ...(options.databaseUrl === undefined ? {} : { databaseUrl: options.databaseUrl }) }, env)
  )
    return;
  if (options.db === undefined || options.db === '') return;
  const path = sqlitePath(named, env);
  // An in-memory store has no file to miss.
  if (path === ':memory:' || existsSync(path)) return;
  throw new CredenceError(
    'INVALID_INPUT',
    `no store at ${path} (named by --db): check the path, or create the store with ` +
      `\`credence init --db ${shellWord(path)}\``,
    { details: { path, source: '--db' } },
  );
}

/** A path as a shell reads it back: as it is when it holds nothing a shell would split or expand, else quoted. */
export const shellWord = (text: string): string =>
  /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;

/** What the engine's messages call the options a command line gave. */
const CLI_NAMES = { now: '--now', db: '--db', databaseUrl: '--database-url', overwrite: '--force' } as const;

export function makeContext(
  io: CliIO,
  options: GlobalOptions,
  setExitCode: (code: number) => void = () => {},
  reads = false,
  readOnly = false,
): CommandContext {
  return {
    setExitCode,
    io,
    options,
    wantsJson: options.json === true || options.format === 'json',
    clock: async () => (await import('../engine/engine.js')).resolveClock(options.now, io.env, CLI_NAMES.now),
    open: async () => {
      requireSaneOptions(options);
      if (reads) requireNamedStore(options, io.env);
      return (await import('../engine/engine.js')).openCredence(
        {
          ...(options.db === undefined ? {} : { db: options.db }),
          ...(options.databaseUrl === undefined ? {} : { databaseUrl: options.databaseUrl }),
          ...(options.scope === undefined ? {} : { scope: options.scope }),
          ...(options.now === undefined ? {} : { now: options.now }),
          ...(readOnly ? { readOnlyWhenUnwritable: true } : {}),
          cwd: io.cwd,
          warn: (line) => io.stderr(`credence: ${line}\n`),
        },
        io.env,
        // The engine's messages name the flags the user typed (`--now 2062-… is after this machine's clock`).
        CLI_NAMES,
      );
    },
  };
}

/**
 * Opens Credence, runs `fn`, and always closes the store. A driver error (a damaged SQLite file, a
 * PostgreSQL error) becomes a STORE_UNAVAILABLE error naming the store (cli/failure).
 */
export async function withCredence<T>(ctx: CommandContext, fn: (credence: Credence) => Promise<T>): Promise<T> {
  const credence = await ctx.open();
  try {
    return await fn(credence);
  } catch (error) {
    throw storeFailure(error, credence.storeInfo) ?? error;
  } finally {
    await credence.close();
  }
}

/**
 * `--batch FILE`: runs `each` on every checked JSON line of FILE and prints one JSON object a line, in
 * the file's order (`{ line, ...fields }`); a bad line prints `{ line, error }` and the exit code is 1.
 */
export async function runJsonLines<T>(
  ctx: CommandContext,
  file: string,
  parse: (value: unknown) => T,
  each: (credence: Credence, value: T) => Promise<Record<string, unknown>>,
): Promise<void> {
  const { items, problems } = checkedLines(readInput(file), parse);
  const out: { line: number; text: string }[] = problems.map((p) => ({
    line: p.line,
    text: JSON.stringify({ line: p.line, error: p.reason }),
  }));
  await withCredence(ctx, async (c) => {
    for (const item of items)
      out.push({ line: item.line, text: JSON.stringify({ line: item.line, ...(await each(c, item.value)) }) });
  });
  out.sort((a, b) => a.line - b.line);
  ctx.io.stdout(out.map((o) => `${o.text}\n`).join(''));
  if (problems.length > 0) ctx.setExitCode(1);
}

export const printJson = (ctx: CommandContext, value: unknown): void =>
  ctx.io.stdout(`${JSON.stringify(value, null, 2)}\n`);
