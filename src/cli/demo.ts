/** @module cli/demo — `credence demo`: the scoring core over the seeds' scenarios, stored and explained. */
import type { Command } from 'commander';
import { formatDemo, runDemo } from '../demo.js';
import { printJson, withCredence, type CommandContext } from './context.js';

export function registerDemo(program: Command, context: () => CommandContext): void {
  program
    .command('demo')
    .description("run the seeds' scenarios through the scoring core, store the results and explain every score")
    .action(async () => {
      const ctx = context();
      const report = await withCredence(ctx, (c) => runDemo(c));
      if (ctx.wantsJson) return printJson(ctx, report);
      ctx.io.stdout(`${formatDemo(report)}\n`);
    });
}
