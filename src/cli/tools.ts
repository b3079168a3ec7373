/** @module cli/tools — `credence tools add --jsonl FILE|-`: the tool catalogue. */
import type { Command } from 'commander';
import { parseTool } from '../tool-graph.js';
import { printJson, withCredence, type CommandContext } from './context.js';
import { checkedLines, readInput, reportProblems } from './input.js';

export function registerTools(program: Command, context: () => CommandContext): Command {
  const tools = program.command('tools').description('the tool catalogue');
  tools
    .command('add')
    .description('add or update tools (one JSON object a line: {id, description, inputSchema?, origin?}); re-adding updates')
    .requiredOption('--jsonl <file>', 'JSON lines file, or - for standard input')
    .action(async (options: { jsonl: string }) => {
      const ctx = context();
      const { items, problems } = checkedLines(readInput(options.jsonl), parseTool);
      const result = await withCredence(ctx, (c) => c.addTools(items.map((i) => i.value)));
      reportProblems(ctx.io.stderr, problems);
      if (ctx.wantsJson) printJson(ctx, { ...result, rejected: problems });
      else ctx.io.stdout(`${result.inserted} tool(s) added, ${result.updated} updated${problems.length > 0 ? `, ${problems.length} line(s) rejected` : ''}\n`);
      if (problems.length > 0) ctx.setExitCode(1);
    });
  return tools;
}
