/**
 * @module cli/init — `credence init`: create (or migrate) the store and say where it is; with
 * `--claude-code`, also wire Credence into the project for Claude Code (hooks in
 * `.claude/settings.json`, the MCP server in `.mcp.json`, `.claude/skills/`, `.credence/observe.json`);
 * `--claude-code --remove` takes Credence's entries out again (and leaves the store alone). Given a
 * database URL, the hooks and MCP server it writes require one from Claude Code's environment (hooks/install).
 */
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { CredenceError } from '../core/errors.js';
import { databaseUrl } from '../platform/store-location.js';
import type { ClaudeCodeReport } from '../hooks/install.js';
import { printJson, shellWord, withCredence, type CommandContext } from './context.js';

interface InitOptions {
  claudeCode?: boolean;
  remove?: boolean;
  hookCommand?: string;
}

export function registerInit(program: Command, context: () => CommandContext): void {
  program
    .command('init')
    .description(
      'create the database (or bring it to the current schema) and print where it is; ' +
        '--claude-code also sets the project up for Claude Code',
    )
    .option(
      '--claude-code',
      "add Credence's hooks to .claude/settings.json and its MCP server to .mcp.json in the project " +
        '(the git top-level, else the working directory)',
    )
    .option('--remove', "with --claude-code: take Credence's hooks and MCP server out again, leaving everything else")
    .option(
      '--hook-command <cmd>',
      'with --claude-code: the hook command (default: "$CLAUDE_PROJECT_DIR"/node_modules/.bin/credence' +
        ' hook claude-code when Credence is installed in the project,' +
        ' else node "<this package>/bin/credence.cjs" hook claude-code)',
    )
    .action(async (o: InitOptions) => {
      const ctx = context();
      if (o.claudeCode !== true && (o.remove === true || o.hookCommand !== undefined)) {
        throw new CredenceError(
          'INVALID_INPUT',
          `${o.remove === true ? '--remove' : '--hook-command'} goes with --claude-code`,
        );
      }
      if (o.remove === true && o.hookCommand !== undefined)
        throw new CredenceError('INVALID_INPUT', '--hook-command is for installing, not with --remove');
      const { prepareClaudeCode, applyClaudeCodePlan, resolveProjectDir } = await import('../hooks/install.js');
      const teamStore = o.claudeCode === true && o.remove !== true ? teamStoreOf(ctx) : undefined;
      const chosenFile =
        o.claudeCode === true && o.remove !== true && teamStore === undefined ? chosenFileOf(ctx) : undefined;
      // Plan first: a settings file that is not valid JSON stops the run before anything is written.
      const plan =
        o.claudeCode === true
          ? prepareClaudeCode({
              projectDir: resolveProjectDir(ctx.io.cwd),
              remove: o.remove === true,
              ...(o.hookCommand === undefined ? {} : { command: o.hookCommand }),
              ...(teamStore === undefined ? {} : { teamStore }),
              ...(chosenFile === undefined ? {} : { store: chosenFile }),
            })
          : undefined;
      if (plan?.report.action === 'remove') {
        applyClaudeCodePlan(plan);
        if (ctx.wantsJson) return printJson(ctx, { claudeCode: plan.report });
        return printReport(ctx, plan.report);
      }
      const status = await withCredence(ctx, (c) => c.status());
      if (plan !== undefined) applyClaudeCodePlan(plan);
      for (const warning of plan?.report.warnings ?? []) ctx.io.stderr(`credence init: ${warning}\n`);
      if (ctx.wantsJson) {
        return printJson(ctx, {
          db: status.db,
          scope: status.scope,
          schemaVersion: status.schemaVersion,
          ...(plan === undefined ? {} : { claudeCode: plan.report }),
        });
      }
      ctx.io.stdout(
        `Credence store ready at ${status.db} (schema version ${status.schemaVersion}, scope ${status.scope}).\n`,
      );
      if (plan !== undefined) printReport(ctx, plan.report, status.db);
    });
}

/**
 * On a team store (a database URL, from --database-url or CREDENCE_DATABASE_URL): what Claude Code's environment
 * must hold for the hooks and MCP server (the URL, and the schema when the variable chose it); else undefined.
 */
function teamStoreOf(ctx: CommandContext): { needsEnv: string[]; schema?: string } | undefined {
  const url = databaseUrl(
    {
      ...(ctx.options.db === undefined ? {} : { db: ctx.options.db }),
      ...(ctx.options.databaseUrl === undefined ? {} : { databaseUrl: ctx.options.databaseUrl }),
    },
    ctx.io.env,
  );
  if (url === undefined) return undefined;
  const schema = ctx.io.env.CREDENCE_DATABASE_SCHEMA;
  const bySchema = schema !== undefined && schema !== '' && !/[?&]schema=/.test(url);
  return { needsEnv: ['CREDENCE_DATABASE_URL'], ...(bySchema ? { schema } : {}) };
}

/**
 * The SQLite file the user chose (--db, else CREDENCE_DB), as an absolute path, which the hooks and MCP server are
 * then told (CREDENCE_DB): without it Claude Code, started from another shell, would learn into the default store.
 * Undefined for the default store and for `:memory:`.
 */
function chosenFileOf(ctx: CommandContext): string | undefined {
  const chosen = [ctx.options.db, ctx.io.env.CREDENCE_DB].find((path) => path !== undefined && path !== '');
  return chosen === undefined || chosen === ':memory:' ? undefined : resolve(ctx.io.cwd, chosen);
}

function printReport(ctx: CommandContext, report: ClaudeCodeReport, db?: string): void {
  const needs = report.needsEnv?.join(' and ');
  const pinned = report.pinnedStore;
  const lines = [
    `Claude Code (${report.project}):`,
    ...report.files.map((f) => `  ${f.message}`),
    // The store just opened is not the one Claude Code uses: said, not left to the "store ready" line (review F 13).
    ...(pinned === undefined || db === undefined || resolve(ctx.io.cwd, pinned) === resolve(ctx.io.cwd, db)
      ? []
      : [
          `  Claude Code's hooks and MCP server still use CREDENCE_DB=${shellWord(pinned)} (written by an earlier`,
          `  init --db), not this store: run init --claude-code --db ${shellWord(db)} to move them to it.`,
        ]),
    ...(needs === undefined
      ? []
      : [
          `  Team store: the hooks and the MCP server take ${needs} from the environment Claude Code`,
          '  starts in, never from the project: set it there (your shell profile, not a file in the repository).',
          '  Without it they keep nothing and say so (CREDENCE_REQUIRE_DATABASE_URL=1), never the SQLite file.',
        ]),
    ...(report.action === 'install' && report.files.some((f) => f.status !== 'unchanged')
      ? [
          '  Start a new Claude Code session in the project to use them ' +
            "(it asks once to approve the project's MCP server).",
        ]
      : []),
  ];
  ctx.io.stdout(`${lines.join('\n')}\n`);
}
