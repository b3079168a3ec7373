/** @module cli/edges — `credence edge add A B --type T`, `credence edges`, `credence next TOOL`. */
import type { Command } from 'commander';
import { CredenceError } from '../core/errors.js';
import { shownText } from '../core/security/scrub.js';
import type { EdgeView } from '../engine/tool-graph/tool-graph.js';
import { laterEvidenceNote as engineNote } from '../engine/explain.js';
import { printJson, withCredence, type CommandContext } from './context.js';
import { parseLimit } from './parse.js';
import { noProbabilityLine, withProbability } from './probability-text.js';

const fmt = (n: number): string => n.toFixed(3);

/**
 * One edge a line. Its date is its last confirmation (`lastSeen`: the latest run in which it succeeded, whence its
 * decay), not its last sighting: an edge known only from failed calls was seen, and is confirmed never. Its count is
 * the runs in which it succeeded (`confirmed in N runs`, as `next` and the dashboard say); one declared by hand
 * counts as confirmed (isConfirmed) though no run confirmed it, and says so.
 */
function edgeRow(e: EdgeView): string {
  return (
    `${e.from} → ${e.to}  ${e.type}/${e.source}  confidence ${fmt(e.confidence)}  ` +
    `confirmed in ${e.count} run${e.count === 1 ? '' : 's'}  ok ${e.successes} failed ${e.failures}  ` +
    `last confirmed ${e.lastSeen ?? (e.source === 'template' ? 'never (declared by hand)' : 'never')}`
  );
}

/** The caveat of a time before an edge's last confirmation, from views whose dates are ISO strings. */
export function laterEvidenceNote(list: readonly EdgeView[], now: number): string | undefined {
  return engineNote(
    list.map((e) => (e.lastSeen === null ? null : Date.parse(e.lastSeen))),
    now,
  );
}

function parseConfidence(text: string): number {
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0 || value > 1) {
    throw new CredenceError('INVALID_INPUT', `--min-confidence must be a number in [0, 1], got ${shownText(text)}`);
  }
  return value;
}

export function registerEdges(program: Command, context: () => CommandContext): Command[] {
  const edge = program.command('edge').description('declare edges by hand');
  edge
    .command('add <from> <to>')
    .description('declare a template edge (source modifier 0.5) until executions confirm it')
    .requiredOption('--type <type>', 'dependency, contains, alternative or sequence')
    .action(async (from: string, to: string, options: { type: string }) => {
      const ctx = context();
      const result = await withCredence(ctx, (c) => c.declareEdge({ from, to, type: options.type }));
      if (ctx.wantsJson) return printJson(ctx, result);
      if (result.newTools.length > 0)
        ctx.io.stdout(
          `added unknown tool(s) to the catalogue with an empty description: ${result.newTools.join(', ')}\n`,
        );
      ctx.io.stdout(`${result.created ? 'declared' : 'already known, left as it is'}: ${edgeRow(result.edge)}\n`);
    });

  const edges = program
    .command('edges')
    .description('list edges with their confidence now (decay included)')
    .option('--from <tool>', 'only edges from this tool')
    .option('--to <tool>', 'only edges to this tool')
    .option('--min-confidence <c>', 'only edges at or above this confidence', parseConfidence)
    .action(async (options: { from?: string; to?: string; minConfidence?: number }) => {
      const ctx = context();
      const { list, now } = await withCredence(ctx, async (c) => ({ list: await c.edges(options), now: c.now() }));
      const note = laterEvidenceNote(list, now);
      if (note !== undefined) ctx.io.stderr(`credence: ${note}\n`);
      if (ctx.wantsJson) return printJson(ctx, list);
      ctx.io.stdout(list.length === 0 ? 'no edges\n' : `${list.map(edgeRow).join('\n')}\n`);
    });

  const next = program
    .command('next <tool>')
    .description('rank the tools that follow TOOL by confidence (edges ≥ 0.3, weak ones < 0.5 last)')
    .option('--limit <n>', 'at most this many suggestions', parseLimit)
    .action(async (tool: string, options: { limit?: number }) => {
      const ctx = context();
      // A tool the scope does not know is the engine's UNKNOWN_TOOL error (exit 1), as over MCP.
      const list = await withCredence(ctx, (c) => c.suggestNext(tool, options));
      if (ctx.wantsJson) return printJson(ctx, list);
      if (list.length === 0) return ctx.io.stdout(`no confident next tool after ${tool}\n`);
      // Each line with the probability learned from the next outcomes, or once why there is none (calibration.md).
      const rows = list.map(
        (s, i) =>
          `${String(i + 1).padStart(2)}. ${s.tool}  ${fmt(s.confidence)}${s.weak ? ' (weak)' : ''}  ${s.why}` +
          withProbability(s),
      );
      const why = noProbabilityLine(list);
      if (why !== undefined) rows.push(why);
      ctx.io.stdout(`${rows.join('\n')}\n`);
    });
  return [edge, edges, next];
}
