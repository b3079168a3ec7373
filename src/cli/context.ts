/**
 * @module cli/context
 * What every command gets: the global options, an output sink and a way to open Credence. The
 * engine is loaded when a command opens it, so that `--help` and the commands that need no store
 * never load it.
 */
import type { Credence } from '../engine/engine.js';
import { storeFailure } from './failure.js';

export interface CliIO {
  stdout: (text: string) => void;
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
  /** Ends the run with this exit code once the command returns (1: some input was rejected). */
  setExitCode: (code: number) => void;
}

export function makeContext(
  io: CliIO,
  options: GlobalOptions,
  setExitCode: (code: number) => void = () => {},
): CommandContext {
  return {
    setExitCode,
    io,
    options,
    wantsJson: options.json === true || options.format === 'json',
    open: async () =>
      (await import('../engine/engine.js')).openCredence(
        {
          ...(options.db === undefined ? {} : { db: options.db }),
          ...(options.databaseUrl === undefined ? {} : { databaseUrl: options.databaseUrl }),
          ...(options.scope === undefined ? {} : { scope: options.scope }),
          ...(options.now === undefined ? {} : { now: options.now }),
          cwd: io.cwd,
        },
        io.env,
      ),
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

export const printJson = (ctx: CommandContext, value: unknown): void =>
  ctx.io.stdout(`${JSON.stringify(value, null, 2)}\n`);
