/**
 * @module cli/hook — `credence hook claude-code`, for when global options come with it
 * (`credence --db x hook claude-code`); the plain form is run by bin/credence.cjs directly.
 */
import type { Command } from 'commander';
import { shownText } from '../core/security/scrub.js';
import { parseIsoInstant } from '../core/time.js';
import type { CommandContext } from './context.js';

export function registerHook(program: Command, context: () => CommandContext): void {
  const hook = program
    .command('hook')
    .description('agent hooks: read one event on stdin, learn from it, print context (always exit 0)');
  hook
    .command('claude-code')
    .description(
      'handle one Claude Code hook event ' +
        '(SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, PostToolUseFailure, Stop, SessionEnd)',
    )
    .action(async () => {
      const ctx = context();
      // A --now that is no date is left out, said in one line: the hook still runs, on the clock (it fails open).
      const now = ctx.options.now;
      const badNow = now !== undefined && parseIsoInstant(now) === undefined;
      if (badNow)
        ctx.io.stderr(
          `credence hook: --now must be an ISO 8601 date such as 2026-02-02T06:00:00Z, got ${shownText(now)} ` +
            '(ignored: the clock is used)\n',
        );
      const env = {
        ...ctx.io.env,
        ...(ctx.options.db === undefined ? {} : { CREDENCE_DB: ctx.options.db, CREDENCE_DATABASE_URL: '' }),
        ...(ctx.options.databaseUrl === undefined ? {} : { CREDENCE_DATABASE_URL: ctx.options.databaseUrl }),
        ...(ctx.options.scope === undefined ? {} : { CREDENCE_SCOPE: ctx.options.scope }),
        ...(now === undefined ? {} : { CREDENCE_NOW: badNow ? '' : now }),
      };
      const { main } = await import('../hooks/claude-code.js');
      await main(undefined, env);
    });
}

/**
 * The learning process a hook hands its learning to (bin/credence.cjs runs
 * `credence hook claude-code --learn <event>` from the CLI's bundle): hooks/claude-code.
 */
export async function learnHookEvent(event: string): Promise<void> {
  const { learnHookEvent: learn } = await import('../hooks/claude-code.js');
  await learn(event);
}
