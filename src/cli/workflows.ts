/** @module cli/workflows — `credence workflows`: the learned workflows, most recently used first (issue 19). */
import type { Command } from 'commander';
import type { WorkflowView } from '../engine/workflows/workflows.js';
import { printJson, withCredence, type CommandContext } from './context.js';
import { parseLimit } from './parse.js';
import { terminalSafe } from './terminal.js';

const percent = (x: number): string => `${Math.round(x * 100)}%`;

/** One workflow as three lines: counts and confidence; tools and edges; one example intent. */
export function workflowRows(w: WorkflowView): string {
  const edges = w.edges.length === 0 ? 'no edges' : w.edges.map(([from, to]) => `${from} → ${to}`).join(', ');
  const example = w.intents[0];
  return [
    `${w.id}  runs ${w.runs}  success ${percent(w.successRate)}  confidence ${w.confidence.toFixed(3)}  ` +
      `last used ${w.lastSeen}`,
    `  tools ${w.tools.join(', ')}  →  ${edges}`,
    ...(example === undefined ? [] : [`  e.g. ${JSON.stringify(example)}`]),
  ]
    .map(terminalSafe)
    .join('\n');
}

export function registerWorkflows(program: Command, context: () => CommandContext): Command {
  return program
    .command('workflows')
    .description('learned workflows: recorded runs merged by shape, with runs, success rate and confidence now')
    .option('--limit <n>', 'at most this many, most recently used first', parseLimit)
    .action(async (options: { limit?: number }) => {
      const ctx = context();
      const list = await withCredence(ctx, (c) =>
        c.workflows(options.limit === undefined ? {} : { limit: options.limit }),
      );
      if (ctx.wantsJson) return printJson(ctx, list);
      ctx.io.stdout(list.length === 0 ? 'no learned workflows yet\n' : `${list.map(workflowRows).join('\n\n')}\n`);
    });
}
