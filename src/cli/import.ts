/**
 * @module cli/import
 * `credence import --claude-code [DIR]` (issue 22; registered in cli/observe beside `import FILE`): learns
 * from Claude Code's past sessions of this project (hooks/import-transcripts): progress on stderr, a
 * summary on stdout (`--json` too). DIR
 * defaults to the project's folder under `~/.claude/projects/` (of the working directory, else of its
 * git top-level).
 */
import { existsSync } from 'node:fs';
import { CredenceError } from '../core/errors.js';
import { resolveScope } from '../platform/git-scope.js';
import { printJson, type CommandContext } from './context.js';

/** Runs `credence import --claude-code [DIR]` (registered with `credence import` in cli/observe). */
export async function importClaudeCode(ctx: CommandContext, dir: string | undefined): Promise<void> {
  const { claudeProjectDir, importTranscripts } = await import('../hooks/import-transcripts.js');
  const env: NodeJS.ProcessEnv = {
    ...ctx.io.env,
    ...(ctx.options.db === undefined ? {} : { CREDENCE_DB: ctx.options.db, CREDENCE_DATABASE_URL: '' }),
    ...(ctx.options.databaseUrl === undefined ? {} : { CREDENCE_DATABASE_URL: ctx.options.databaseUrl }),
  };
  const folder = dir ?? defaultFolder(ctx.io.cwd, env, claudeProjectDir);
  // The clock and its name (--now's, CREDENCE_NOW's, or this machine's), as every command reads them.
  const clock = await ctx.clock();
  const summary = await importTranscripts({
    dir: folder,
    env,
    cwd: ctx.io.cwd,
    now: clock.now,
    clockName: clock.name,
    ...(ctx.options.scope === undefined ? {} : { scope: ctx.options.scope }),
    progress: (line) => ctx.io.stderr(`credence import: ${line}\n`),
  }).catch((error: unknown) => {
    // A folder that cannot be read is bad usage (exit 2), as every other file the command line cannot read.
    if (error instanceof CredenceError && error.code === 'NOT_FOUND' && error.details?.dir !== undefined)
      throw new CredenceError('INVALID_INPUT', error.message, { cause: error, details: { ...error.details } });
    throw error;
  });
  // The skipped lines named, by file (in the order read), then line: a line is named when its skipping is known, which
  // for some (a call whose result never came) is at the end of its file.
  const files = [...new Set(summary.problems.map((p) => p.file))];
  const problems = [...summary.problems].sort(
    (a, b) => files.indexOf(a.file) - files.indexOf(b.file) || a.line - b.line,
  );
  if (ctx.wantsJson) return printJson(ctx, { ...summary, problems });
  const skipped = Object.entries(summary.skipped);
  ctx.io.stdout(
    [
      `imported from ${summary.dir} into scope ${summary.scope}`,
      `files          ${summary.files} (${summary.lines} lines)`,
      `sessions       ${summary.sessions}` +
        (summary.sessionsLearnedByHooks === 0
          ? ''
          : ` (${summary.sessionsLearnedByHooks} learned by the hooks already, left alone)`),
      `prompts        ${summary.prompts}`,
      `tool calls     ${summary.toolCalls} (${summary.failures} failed)`,
      `corrections    ${summary.corrections}`,
      ...correctionsNotReadLines(summary.correctionsNotRead),
      `observations   ${summary.observations}`,
      `already there  ${summary.alreadyImported} prompts and calls from an earlier import`,
      `skipped        ${skipped.length === 0 ? 'none' : skipped.map(([why, n]) => `${n} ${why}`).join(', ')}`,
      ...problems.map((p) => `  ${p.file}:${p.line}: ${p.why}`),
    ].join('\n') + '\n',
  );
}

/** What the summary says of imported corrections the next evolve does not read: those past the purge age. */
function correctionsNotReadLines(n: { corrections: number; purgeAge: string } | undefined): string[] {
  if (n === undefined) return [];
  const them = n.corrections === 1 ? 'it' : 'them';
  return [`  ${n.corrections} of them older than ${n.purgeAge}: the next evolve deletes ${them} unread`];
}

/** This project's transcript folder: the working directory's, else its git top-level's (the one that exists). */
function defaultFolder(
  cwd: string,
  env: NodeJS.ProcessEnv,
  folderOf: (path: string, env: NodeJS.ProcessEnv) => string,
): string {
  const here = folderOf(cwd, env);
  if (existsSync(here)) return here;
  const root = resolveScope({ cwd }).root;
  const top = root === undefined ? undefined : folderOf(root, env);
  return top !== undefined && existsSync(top) ? top : here;
}
