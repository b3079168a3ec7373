/** @module cli/demo — `credence demo`: the scoring core over the seeds' scenarios, stored and explained. */
import type { Command } from 'commander';
import { DEMO_SCOPE, formatDemo, runDemo } from '../demo.js';
import { makeContext, printJson, withCredence, type CommandContext } from './context.js';

export function registerDemo(program: Command, context: () => CommandContext): void {
  program
    .command('demo')
    .description(`run the seeds' scenarios through the scoring core, store the results (in scope "${DEMO_SCOPE}" unless --scope) and explain every score`)
    .action(async () => {
      const given = context();
      const explicit = given.options.scope ?? given.io.env.CREDENCE_SCOPE;
      const ctx = explicit !== undefined && explicit !== '' ? given : makeContext(given.io, { ...given.options, scope: DEMO_SCOPE }, given.setExitCode);
      const report = await withCredence(ctx, (c) => runDemo(c));
      if (ctx.wantsJson) return printJson(ctx, report);
      ctx.io.stdout(`${formatDemo(report)}\n`);
    });
}
