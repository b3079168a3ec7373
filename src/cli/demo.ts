/**
 * @module cli/demo — `credence demo`: the seeds' scenarios through the scoring core and a month of
 * learning history through the engine, stored in scope "demo" and explained; then, in a terminal,
 * the dashboard is served on loopback until Ctrl-C. Scripted uses keep exiting: when the output is
 * not a terminal, or with `--no-serve` or `--json`, it prints and exits; `--serve` serves anyway.
 */
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { CredenceError } from '../core/errors.js';
import { DEMO_SCOPE } from '../engine/demo/scope.js';
import { defaultDbPath } from '../platform/paths.js';
import { databaseUrl, sqlitePath } from '../platform/store-location.js';
import { makeContext, printJson, withCredence, type CommandContext } from './context.js';

interface DemoFlags {
  serve?: boolean;
  port?: string;
  history?: boolean;
}

/**
 * Where the demo's instinct and skill files go: a `demo` folder beside the database, never the
 * working directory (a user may run the demo inside a project of theirs).
 */
export function demoFilesRoot(db: string, cwd: string): string {
  return db === ':memory:' || db === '' ? join(tmpdir(), 'credence-demo') : join(dirname(resolve(cwd, db)), 'demo');
}

/**
 * The closing line of a demo that does not serve: the command that shows this store in the
 * dashboard. A SQLite store is named by `--db PATH`; a PostgreSQL store by `--database-url` with
 * the password hidden (the user puts theirs back), or by nothing when it came from
 * `CREDENCE_DATABASE_URL`, which the next run reads too. Never `--db` with a URL.
 */
export function dashboardHint(store: {
  kind: 'sqlite' | 'postgres';
  location: string;
  scope: string;
  urlFrom?: 'flag' | 'env';
}): string {
  const scope = store.scope === DEMO_SCOPE ? '' : ` --scope ${JSON.stringify(store.scope)}`;
  const again = ' (running it again adds nothing)';
  if (store.kind === 'sqlite')
    return `See it in the dashboard: npx credence demo --db ${JSON.stringify(store.location)}${scope}${again}`;
  if (store.urlFrom === 'env')
    return `See it in the dashboard: npx credence demo${scope}, with CREDENCE_DATABASE_URL set as now${again}`;
  const hidden = store.location.includes('***') ? ', with your password in place of ***' : '';
  return (
    `See it in the dashboard: npx credence demo --database-url ${JSON.stringify(store.location)}` +
    `${scope}${hidden}${again}`
  );
}

/**
 * The line after the dashboard hint: the command that prints how sure each kind of claim was against what became
 * of it (issue 24). It always names the scope: `calibration` otherwise reads the working directory's.
 */
export function calibrationHint(store: {
  kind: 'sqlite' | 'postgres';
  location: string;
  scope: string;
  urlFrom?: 'flag' | 'env';
}): string {
  const where =
    store.kind === 'sqlite'
      ? ` --db ${JSON.stringify(store.location)}`
      : store.urlFrom === 'env'
        ? ''
        : ` --database-url ${JSON.stringify(store.location)}`;
  const scope = ` --scope ${JSON.stringify(store.scope)}`;
  return `Check how sure it was against what happened: npx credence calibration${where}${scope}`;
}

export function registerDemo(program: Command, context: () => CommandContext): void {
  program
    .command('demo')
    .description(
      `fill scope "${DEMO_SCOPE}" (unless --scope) with the seeds' scenarios and a month of learning history, ` +
        'explain every score, then serve the dashboard',
    )
    .option('--serve', 'serve the dashboard after the report (the default when the output is a terminal)')
    .option('--no-serve', 'print the report and exit (the default when the output is not a terminal)')
    .option('--no-history', "only the seeds' scenarios, without the month of history")
    .option('--port <n>', 'port of the dashboard (default 3001; 0 picks a free one)')
    .action(async (o: DemoFlags) => {
      const given = context();
      const explicit = given.options.scope ?? given.io.env.CREDENCE_SCOPE;
      // On a team store the demo's files go beside the default SQLite path; a --db or CREDENCE_DB that is a URL is
      // refused before any folder is made.
      const team = databaseUrl(given.options, given.io.env) !== undefined;
      const db = team ? defaultDbPath({}) : sqlitePath(given.options, given.io.env);
      const root = demoFilesRoot(db, given.io.cwd);
      mkdirSync(root, { recursive: true, mode: 0o700 });
      const options = { ...given.options, ...(explicit !== undefined && explicit !== '' ? {} : { scope: DEMO_SCOPE }) };
      const ctx = makeContext({ ...given.io, cwd: root }, options, given.setExitCode);
      let port = 3001;
      if (o.port !== undefined) {
        port = Number(o.port);
        if (o.port.trim() === '' || !Number.isInteger(port) || port < 0 || port > 65535)
          throw new CredenceError('INVALID_INPUT', `--port must be a port number, got ${JSON.stringify(o.port)}`);
      }
      const serving = (o.serve ?? process.stdout.isTTY === true) && !ctx.wantsJson;
      const { formatDemo, runDemo } = await import('../engine/demo/demo.js');
      await withCredence(ctx, async (credence) => {
        const report = await runDemo(credence, { history: o.history !== false });
        if (ctx.wantsJson) return printJson(ctx, report);
        ctx.io.stdout(`${formatDemo(report)}\n`);
        if (!serving) {
          const urlFrom: 'flag' | 'env' | undefined = !team
            ? undefined
            : given.options.databaseUrl !== undefined && given.options.databaseUrl !== ''
              ? 'flag'
              : 'env';
          const store = {
            kind: credence.storeInfo.kind,
            location: report.db,
            scope: credence.scope,
            ...(urlFrom === undefined ? {} : { urlFrom }),
          };
          ctx.io.stdout(`${dashboardHint(store)}\n${calibrationHint(store)}\n`);
          return;
        }
        const { serve } = await import('../mcp/serve.js');
        await serve(
          credence,
          { mode: 'http', port },
          {
            stderr: ctx.io.stderr,
            env: ctx.io.env,
            cwd: given.io.cwd,
            ready: (info) =>
              ctx.io.stdout(
                `\nOpen ${info.dashboard ?? ''} to see what Credence learned and why it is sure ` +
                  '(Ctrl-C stops the server).\n',
              ),
          },
        );
      });
    });
}
