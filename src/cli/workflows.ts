/** @module cli/workflows — `credence workflows`: the learned workflows, most recently used first (issue 19). */
import type { Command } from 'commander';
import { laterWorkflowNote } from '../engine/explain.js';
import type { WorkflowView } from '../engine/workflows/workflows.js';
import { printJson, withCredence, type CommandContext } from './context.js';
import { parseLimit } from './parse.js';
import { terminalSafe } from './terminal.js';

const percent = (x: number): string => `${Math.round(x * 100)}%`;

/** How many workflows `credence workflows` shows without --limit (the hooks make about one per turn). */
export const WORKFLOWS_DEFAULT_LIMIT = 20;

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
    .option(
      '--limit <n>',
      `at most this many, most recently used first (default ${WORKFLOWS_DEFAULT_LIMIT})`,
      parseLimit,
    )
    .action(async (options: { limit?: number }) => {
      const ctx = context();
      // Without --limit, all are read to say how many more there are; the first WORKFLOWS_DEFAULT_LIMIT are shown.
      const { all, now } = await withCredence(ctx, async (c) => ({
        all: await c.workflows(options.limit === undefined ? {} : { limit: options.limit }),
        now: c.now(),
      }));
      const list = options.limit === undefined ? all.slice(0, WORKFLOWS_DEFAULT_LIMIT) : all;
      // A --now before a workflow's last use: its figures include the later runs (as `edges` says of edges).
      const later = laterWorkflowNote(
        list.map((w) => ({ firstSeen: Date.parse(w.firstSeen), lastSeen: Date.parse(w.lastSeen) })),
        now,
      );
      if (later !== undefined) ctx.io.stderr(`credence: ${later}\n`);
      const more = all.length - list.length;
      const note =
        more > 0
          ? `${more} more workflow(s) not shown (most recently used first); --limit ${all.length} shows all`
          : '';
      if (ctx.wantsJson) {
        if (note !== '') ctx.io.stderr(`credence: ${note}\n`);
        return printJson(ctx, list);
      }
      if (list.length === 0) return ctx.io.stdout('no learned workflows yet\n');
      ctx.io.stdout(`${list.map(workflowRows).join('\n\n')}\n${note === '' ? '' : `\n… ${note}\n`}`);
    });
}
