/**
 * @module cli/tools — `credence tools` (`tools list`): the tool catalogue as it is; `credence tools add`: the
 * catalogue, from JSON lines or from the two public catalogues (a NESTFUL `*-spec.json`, a Seal-Tools `tool.jsonl`).
 */
import { basename } from 'node:path';
import type { Command } from 'commander';
import { CredenceError } from '../core/errors.js';
import { requireToolWithinLimits } from '../core/limits.js';
import type { ToolInput } from '../schemas/index.js';
import { printJson, withCredence, type CommandContext } from './context.js';
import { checkedLines, readInput, reportProblems, type LineProblem } from './input.js';
import { terminalSafe } from './terminal.js';

interface AddOptions {
  jsonl?: string;
  nestfulSpec?: string;
  sealTools?: string;
}

async function readTools(options: AddOptions): Promise<{ tools: unknown[]; problems: LineProblem[] }> {
  const given = [options.jsonl, options.nestfulSpec, options.sealTools].filter((o) => o !== undefined);
  if (given.length !== 1)
    throw new CredenceError('INVALID_INPUT', 'give exactly one of --jsonl, --nestful-spec or --seal-tools');
  const { parseNestfulSpec, parseSealToolsTool } = await import('../datasets/index.js');
  const { parseTool } = await import('../engine/tool-graph/tool-graph.js');
  if (options.nestfulSpec !== undefined) {
    const file = options.nestfulSpec;
    let json: unknown;
    try {
      json = JSON.parse(readInput(file));
    } catch (error) {
      if (error instanceof CredenceError) throw error;
      throw new CredenceError('INVALID_INPUT', `${file} is not JSON: ${(error as Error).message}`);
    }
    return { tools: parseNestfulSpec(json, `nestful:${basename(file).replace(/-spec\.json$/, '')}`), problems: [] };
  }
  const parse = options.sealTools !== undefined ? parseSealToolsTool : parseTool;
  // Over a limit: a bad line with its number (not the whole file refused, naming `tools[i]` from 0).
  const { items, problems } = checkedLines(readInput(options.jsonl ?? options.sealTools ?? '-'), (value) => {
    const tool = parse(value);
    requireToolWithinLimits('tool', tool);
    return tool;
  });
  return { tools: items.map((i) => i.value), problems };
}

/** One catalogue entry as a line: its id, then the first line of its description (cut at 100 characters). */
export function toolRow(tool: { id: string; description: string }): string {
  const first = tool.description.trim().split('\n')[0]?.trim() ?? '';
  const shown = first === '' ? '(no description)' : first.length > 100 ? `${first.slice(0, 99)}…` : first;
  return terminalSafe(`${tool.id}  ${shown}`);
}

export function registerTools(program: Command, context: () => CommandContext): Command {
  const tools = program.command('tools').description('the tool catalogue: list (the default), add, search');
  // `credence tools` alone lists the catalogue, as the main help's "the tool catalogue" promises (walk 14: it printed
  // the subcommands' help).
  tools
    .command('list', { isDefault: true })
    .description('list the scope’s catalogue, by id, with the first line of each description')
    .allowExcessArguments(true)
    .action(async (_options: unknown, command: Command) => {
      // A word after `tools` that is no subcommand reaches the default one: named, not taken as an argument of list.
      const [word] = command.args;
      if (word !== undefined)
        throw new CredenceError('INVALID_INPUT', `unknown command "tools ${word}": tools takes list, add or search`);
      const ctx = context();
      const list = await withCredence(ctx, (c) => c.listTools());
      if (ctx.wantsJson) return printJson(ctx, list);
      if (list.length === 0)
        return ctx.io.stdout('no tool in the catalogue yet: add some with `credence tools add --jsonl FILE`\n');
      ctx.io.stdout(`${list.map(toolRow).join('\n')}\n${list.length} tool(s)\n`);
    });
  tools
    .command('add')
    .description('add or update tools; re-adding updates, never duplicates')
    .option('--jsonl <file>', 'JSON lines {id, description, inputSchema?, origin?}, or - for standard input')
    .option('--nestful-spec <file>', 'a NESTFUL *-spec.json catalogue')
    .option('--seal-tools <file>', 'a Seal-Tools tool.jsonl catalogue')
    .action(async (options: AddOptions) => {
      const ctx = context();
      const { tools: parsed, problems } = await readTools(options);
      const result = await withCredence(ctx, (c) => c.addTools(parsed as ToolInput[])); // checked by the engine
      reportProblems(ctx.io.stderr, problems);
      if (ctx.wantsJson) printJson(ctx, { ...result, rejected: problems });
      else
        ctx.io.stdout(
          `${result.inserted} tool(s) added, ${result.updated} updated` +
            `${problems.length > 0 ? `, ${problems.length} line(s) rejected` : ''}\n`,
        );
      if (problems.length > 0) ctx.setExitCode(1);
    });
  return tools;
}
