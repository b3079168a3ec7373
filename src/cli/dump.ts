/**
 * @module cli/dump
 * `credence dump FILE|-` and `credence restore FILE|-`: a whole store (every scope) into one JSON
 * Lines file and back, between any two backends (store/dump). `credence backup FILE`: a SQLite store's
 * consistent copy in one database file (store/sqlite/backup). The store is the one every command
 * opens (`--db`, `$CREDENCE_DB`, …).
 */
import { once } from 'node:events';
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Writable } from 'node:stream';
import type { Command } from 'commander';
import { CredenceError, isCredenceError } from '../core/errors.js';
import type { Credence } from '../engine/engine.js';
import type { DumpCounts, DumpReport, SalvageReport } from '../store/dump.js';
import { databaseUrl } from '../platform/store-location.js';
import { asideOf, checkNewFile, placeNew, unwritable, type NewFile } from '../platform/new-file.js';
import { printJson, withCredence, type CommandContext } from './context.js';

type DumpOrSalvage = DumpReport | SalvageReport;

export function registerDump(program: Command, context: () => CommandContext): void {
  program
    .command('dump <file>')
    .description('write the whole store (every table, every scope) to a new FILE as JSON lines (- for standard output)')
    .option('--salvage', 'a damaged store: write the rows still readable, skip the rest and say what was skipped')
    .action(async (file: string, o: { salvage?: boolean }) => {
      const ctx = context();
      const { Credence } = await import('../engine/engine.js');
      const salvage = o.salvage === true;
      let report: DumpOrSalvage;
      try {
        report = await withCredence(ctx, (c) =>
          file === '-' ? dumpToStdout(ctx, c, salvage) : dumpToFile(c, file, salvage),
        );
      } catch (error) {
        if (!(error instanceof ReaderGone)) throw error;
        // A dump is a backup: one cut short is a failure, never reported as done.
        const failure = ctx.io.stdoutFailure?.();
        ctx.io.stderr(
          `credence: dump -: ${
            failure === undefined
              ? 'standard output was closed before the end (its reader stopped reading)'
              : `standard output could not be written (${failure})`
          }; the dump is incomplete\n`,
        );
        ctx.setExitCode(1);
        return;
      }
      // With `-` the dump is on standard output: the summary goes to standard error.
      const print = file === '-' ? ctx.io.stderr : ctx.io.stdout;
      if (ctx.wantsJson) print(`${JSON.stringify({ file, ...report }, null, 2)}\n`);
      else
        print(
          `dumped ${report.rows} rows from ${report.from} ${report.location} (schema ${report.schemaVersion}) ` +
            `to ${file === '-' ? 'standard output' : file}\n${formatCounts(Credence.dumpTables, report.tables)}`,
        );
      // A salvage says what it could not read, and fails when it skipped anything (the dump is not the whole store).
      const skipped = 'skipped' in report ? report.skipped : [];
      for (const s of skipped)
        ctx.io.stderr(
          `credence: dump --salvage: skipped the unreadable part of ${s.table} (${s.read} rows saved): ${s.error}\n`,
        );
      if (skipped.length > 0) ctx.setExitCode(1);
    });

  program
    .command('backup <file>')
    .description(
      'write a consistent copy of the SQLite store to FILE, one file (safe while other processes use the store)',
    )
    .option('--force', 'replace FILE if it exists')
    .action(async (file: string, o: { force?: boolean }) => {
      const ctx = context();
      const report = await withCredence(ctx, async (c) => ({
        from: c.storeInfo.location,
        ...(await c.backup(file, { overwrite: o.force === true })),
      }));
      if (ctx.wantsJson) return printJson(ctx, report);
      ctx.io.stdout(`backed up ${report.from} to ${report.file} (${report.bytes} bytes)\n`);
    });

  program
    .command('restore <file>')
    .description('load a dump (from `credence dump`) into an empty store (- for standard input)')
    .action(async (file: string) => {
      const ctx = context();
      const spool = file === '-' || !isRegularFile(file) ? await spoolInput(file) : undefined;
      const path = spool?.path ?? file;
      try {
        // The file is checked before the store is opened: a bad dump, or one newer than a SQLite store would be,
        // creates no database.
        const { Credence } = await import('../engine/engine.js');
        const into = databaseUrl(ctx.options, ctx.io.env) === undefined ? 'sqlite' : 'postgres';
        const checked = await Credence.checkDump(readLines(path), { into });
        const report = await withCredence(ctx, (c) => c.restore(() => readLines(path), { checked }));
        if (ctx.wantsJson) return printJson(ctx, { file, ...report });
        ctx.io.stdout(
          `restored ${report.rows} rows into ${report.to} ${report.target} from ${file} ` +
            `(a ${report.from} dump of ${report.createdAt}, schema ${report.schemaVersion})\n` +
            formatCounts(Credence.dumpTables, report.tables),
        );
      } catch (error) {
        // A bad dump is input the command rejected (exit 1), with the line named; not bad usage.
        if (isCredenceError(error, 'INVALID_INPUT') && typeof error.details?.line === 'number') {
          ctx.io.stderr(`credence: restore ${file}: ${error.message}\n`);
          ctx.setExitCode(1);
          return;
        }
        throw error;
      } finally {
        spool?.remove();
      }
    });
}

const formatCounts = (tables: readonly (keyof DumpCounts)[], counts: DumpCounts): string =>
  tables.map((t) => `  ${t.padEnd(14)} ${counts[t]}\n`).join('');

/**
 * A writer for `out` that waits for 'drain' when the stream's buffer is full, with one 'error'
 * listener for the whole write however many chunks go through it (a listener per chunk grows with
 * the store and trips Node's MaxListenersExceededWarning). After an error, every write and the end
 * reject with it; `end` resolves once everything is flushed.
 */
export function streamWriter(out: Writable): {
  write: (text: string) => Promise<void>;
  end: () => Promise<void>;
  error: () => Error | undefined;
} {
  let failed: Error | undefined;
  let waiting: { resolve: () => void; reject: (error: Error) => void } | undefined;
  out.on('error', (error) => {
    failed = error;
    waiting?.reject(error);
    waiting = undefined;
  });
  out.on('drain', () => {
    waiting?.resolve();
    waiting = undefined;
  });
  return {
    write: async (text) => {
      if (failed !== undefined) throw failed;
      if (out.write(text)) return;
      await new Promise<void>((resolve, reject) => {
        waiting = { resolve, reject };
      });
    },
    end: () =>
      new Promise<void>((resolve, reject) => {
        if (failed !== undefined) return reject(failed);
        out.end((error?: Error | null) =>
          error === undefined || error === null ? resolve() : reject(failed ?? error),
        );
      }),
    error: () => failed,
  };
}

/** Thrown by a dump to standard output whose reader went away or whose write failed: the dump stops there. */
class ReaderGone extends Error {}

/** The dump on standard output, each batch handed on before the next is read; stops when the reader goes away. */
async function dumpToStdout(ctx: CommandContext, credence: Credence, salvage: boolean): Promise<DumpOrSalvage> {
  const delivered = ctx.io.stdoutDelivered;
  return (salvage ? credence.salvage.bind(credence) : credence.dump.bind(credence))(async (text) => {
    ctx.io.stdout(text);
    if (delivered !== undefined && !(await delivered())) throw new ReaderGone();
  });
}

/**
 * Writes the dump beside FILE first and puts it in place when complete, so FILE is never half a dump. FILE is new:
 * one that exists (the store's own database among them) is refused before anything is written, and so is one made
 * meanwhile (platform/new-file, as `credence backup`). Created readable by its owner only (0600): a dump holds the
 * whole store.
 */
async function dumpToFile(credence: Credence, file: string, salvage: boolean): Promise<DumpOrSalvage> {
  const named: NewFile = { command: 'dump', file, ifExists: 'remove it or choose another name' };
  const { kind, location } = credence.storeInfo;
  const target = checkNewFile(named, kind === 'sqlite' ? { store: location } : {});
  const partial = asideOf(target);
  const out = createWriteStream(partial, { flags: 'wx', mode: 0o600 });
  try {
    await once(out, 'open');
  } catch (error) {
    // Named by the folder (the file aside is ours, not the user's).
    throw new CredenceError('INVALID_INPUT', `dump ${file}: ${unwritable(dirname(target), error)}`, {
      cause: error,
      details: { path: file },
    });
  }
  const writer = streamWriter(out);
  try {
    const report = salvage ? await credence.salvage(writer.write) : await credence.dump(writer.write);
    await writer.end();
    placeNew(partial, target, named);
    return report;
  } catch (error) {
    out.destroy();
    // A failure of the file is a write error; one of the store (a damaged database) is the store's.
    if (writer.error() === undefined || error !== writer.error()) throw error;
    throw new CredenceError('INVALID_INPUT', `cannot write ${file}: ${(error as Error).message}`, {
      cause: error,
      details: { path: file },
    });
  } finally {
    rmSync(partial, { force: true });
  }
}

function isRegularFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch (error) {
    throw new CredenceError('INVALID_INPUT', `cannot read ${file}: ${(error as Error).message}`, {
      cause: error,
      details: { path: file },
    });
  }
}

/**
 * A restore reads its input twice (check, then import): standard input or a pipe is copied to a
 * temporary file first.
 */
async function spoolInput(file: string): Promise<{ path: string; remove: () => void }> {
  const dir = mkdtempSync(join(tmpdir(), 'credence-restore-'));
  const path = join(dir, 'dump.jsonl');
  const remove = (): void => rmSync(dir, { recursive: true, force: true });
  try {
    // node:readline and node:stream/promises load only here: every other command starts without them.
    const { pipeline } = await import('node:stream/promises');
    await pipeline(file === '-' ? process.stdin : createReadStream(file), createWriteStream(path));
  } catch (error) {
    remove();
    throw new CredenceError(
      'INVALID_INPUT',
      `cannot read ${file === '-' ? 'standard input' : file}: ${(error as Error).message}`,
      { cause: error },
    );
  }
  return { path, remove };
}

async function* readLines(path: string): AsyncGenerator<string> {
  const { createInterface } = await import('node:readline');
  const input = createReadStream(path, { encoding: 'utf8' });
  const lines = createInterface({ input, crlfDelay: Infinity });
  try {
    yield* lines;
  } finally {
    lines.close();
    input.destroy();
  }
}
