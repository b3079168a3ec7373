/**
 * @module cli/search — `credence tools search` and `credence dag`: hybrid tool search and DAG
 * suggestion, one query or a batch of JSON lines in one process (for scripts and evaluations).
 */
import type { Command } from 'commander';
import { CredenceError, isCredenceError } from '../core/errors.js';
import type { SearchLine } from './batch-lines.js';
import type { Credence } from '../engine/engine.js';
import { dagConfidenceLines, memoryCaveat, scoreParts } from '../engine/explain.js';
import { printJson, runJsonLines, withCredence, type CommandContext } from './context.js';
import { readInput } from './input.js';
import { noProbabilityLine, probabilityText, withProbability } from './probability-text.js';
import { parseLimit, parseList } from './parse.js';

const f3 = (n: number): string => n.toFixed(3);

/** `--batch FILE` of search lines: each line's query and `each`'s result, one JSON object a line. */
async function runBatch(
  ctx: CommandContext,
  file: string,
  each: (c: Credence, line: SearchLine) => Promise<unknown>,
): Promise<void> {
  const { searchLine } = await import('./batch-lines.js');
  await runJsonLines(ctx, file, searchLine, async (c, line) => ({ query: line.query, result: await each(c, line) }));
}

/**
 * What answered this request, in words, then the scope's verdict on its memory (`way.why`: the gate decides once
 * per scope, on its own sample of replayed runs, whether the memory may speak at all; this request may still be
 * answered by the search where no past run is near it).
 */
export function answeredBy(
  s: Pick<Awaited<ReturnType<Credence['suggestDag']>>, 'confidenceBasis' | 'memory' | 'way'>,
): string | undefined {
  if (s.way === undefined) return undefined;
  const near =
    s.memory === undefined
      ? 'no past run near this intent'
      : s.memory.backed
        ? undefined
        : 'the past runs near this intent did not outweigh it';
  const chosen = s.way.way === 'per-intent' ? ', chosen per intent' : '';
  const source =
    s.way.way === 'search'
      ? 'the search'
      : s.confidenceBasis === 'evidence'
        ? near === undefined
          ? `past runs near this intent and the search, each tool kept by its probability (evidence${chosen})`
          : `the search, each tool kept by its probability (evidence${chosen}; ${near})`
        : s.confidenceBasis === 'memory'
          ? `past runs near this intent, outweighing the search (fusion${chosen})`
          : `the search (${near ?? 'the past runs near this intent did not outweigh it'})`;
  return `answered by: ${source}; ${s.way.why}`;
}

export { scoreParts };

export function registerSearch(program: Command, tools: Command, context: () => CommandContext): void {
  tools
    .command('search [query]')
    .description('rank the catalogue for a query: semantic (BM25 + embeddings), graph, and a per-tool α')
    .option('--context <tools>', 'comma-separated tools already in use (graph relatedness)', parseList)
    .option('--limit <n>', 'how many results', parseLimit)
    .option(
      '--batch <file>',
      'JSON lines {"query", "context"?} in (or - for standard input), one JSON result a line out',
    )
    .action(async (query: string | undefined, options: { context?: string[]; limit?: number; batch?: string }) => {
      const ctx = context();
      const request = {
        limit: options.limit ?? 10,
        ...(options.context === undefined ? {} : { context: options.context }),
      };
      if (options.batch !== undefined) {
        return runBatch(ctx, options.batch, (c, line) =>
          c.searchTools(line.query, { ...request, ...(line.context === undefined ? {} : { context: line.context }) }),
        );
      }
      if (query === undefined || query.trim() === '')
        throw new CredenceError('INVALID_INPUT', 'give a query, or --batch FILE');
      const results = await withCredence(ctx, (c) => c.searchTools(query, request));
      if (ctx.wantsJson) return printJson(ctx, results);
      if (results.length === 0) return ctx.io.stdout('no tool matches\n');
      const rows = results.map(
        (r, i) => `${String(i + 1).padStart(2)}. ${r.tool}  ${scoreParts(r)}${withProbability(r)}`,
      );
      const why = noProbabilityLine(results);
      if (why !== undefined) rows.push(why);
      const caveat = memoryCaveat(results);
      if (caveat !== undefined) rows.push(`warning: ${caveat}`);
      ctx.io.stdout(`${rows.join('\n')}\n`);
    });

  program
    .command('dag [intent]')
    .description('suggest a workflow DAG for an intent, or validate an explicit workflow')
    .option('--context <tools>', 'comma-separated tools already in use', parseList)
    .option(
      '--validate <file>',
      'validate an explicit workflow {"tasks": [{id, tool, arguments?, dependsOn?}]} (JSON file or -)',
    )
    .option(
      '--batch <file>',
      'JSON lines {"intent" (or "query"), "context"?} in (or -), one JSON suggestion a line out',
    )
    .action(async (intent: string | undefined, options: { context?: string[]; validate?: string; batch?: string }) => {
      const ctx = context();
      if (options.validate !== undefined) {
        let json: unknown;
        try {
          json = JSON.parse(readInput(options.validate));
        } catch (error) {
          if (error instanceof CredenceError) throw error;
          throw new CredenceError('INVALID_INPUT', `${options.validate} is not JSON: ${(error as Error).message}`);
        }
        const { workflow } = await import('./batch-lines.js');
        let tasks: ReturnType<typeof workflow>;
        try {
          tasks = workflow(json);
        } catch (error) {
          if (!isCredenceError(error, 'INVALID_INPUT')) throw error;
          // JSON that is no valid workflow (no task, an unknown field, an array) exits 1, as an unknown tool or a
          // cycle does (walk 14); a file that cannot be read, or is not JSON, stays bad usage (exit 2).
          ctx.io.stderr(`credence: ${error.message}\n`);
          ctx.setExitCode(1);
          return;
        }
        const check = await withCredence(ctx, (c) => c.validateWorkflow(tasks));
        if (ctx.wantsJson) printJson(ctx, check);
        else if (check.ok)
          ctx.io.stdout(`valid: ${check.layers.map((l, i) => `layer ${i + 1}: ${l.join(', ')}`).join('; ')}\n`);
        else ctx.io.stderr(`${check.problems.map((p) => `credence: invalid workflow: ${p.message}`).join('\n')}\n`);
        if (!check.ok) ctx.setExitCode(1);
        return;
      }
      const request = options.context === undefined ? {} : { context: options.context };
      if (options.batch !== undefined) {
        const { dagLine } = await import('./batch-lines.js');
        // Each answer names its line's text by the field the line gave it in.
        return runJsonLines(ctx, options.batch, dagLine, async (c, line) => {
          const text = (line.intent ?? line.query) as string;
          const result = await c.suggestDag(text, line.context === undefined ? request : { context: line.context });
          return { ...(line.intent === undefined ? { query: text } : { intent: text }), result };
        });
      }
      if (intent === undefined || intent.trim() === '')
        throw new CredenceError('INVALID_INPUT', 'give an intent, --validate FILE or --batch FILE');
      const s = await withCredence(ctx, (c) => c.suggestDag(intent, request));
      if (ctx.wantsJson) return printJson(ctx, s);
      const lines = [
        `mode ${s.mode}  confidence ${f3(s.confidence)}  ` +
          `(${s.tier} weights: hybrid ${s.weights.hybrid}, pageRank ${s.weights.pageRank}, path ${s.weights.path}; ` +
          `density ${s.density.toFixed(4)})`,
      ];
      if (s.warning !== undefined) lines.push(`warning: ${s.warning}`);
      if (s.explicitRequiredBecause !== undefined) {
        // No DAG: no formula to show, but why and what to do (walk 14, item 7).
        lines.push(
          `no DAG: ${s.explicitRequiredBecause}`,
          'next: `credence tools add --jsonl FILE` adds tools; `credence dag --validate FILE` checks a workflow ' +
            'you write (MCP: execute_dag with a workflow)',
        );
        ctx.io.stdout(`${lines.join('\n')}\n`);
        return;
      }
      for (const t of s.dag.tasks)
        lines.push(`  ${t.id}  ${t.tool}${t.dependsOn.length > 0 ? `  after ${t.dependsOn.join(', ')}` : ''}`);
      lines.push(...dagConfidenceLines(s));
      // The DAG's own learned probability (of its confidence, from the dag outcomes), or why there is none.
      const probability = probabilityText(s);
      if (probability !== '') lines.push(`learned probability of this DAG: ${probability}`);
      const why = noProbabilityLine([s]);
      if (why !== undefined) lines.push(why);
      const answered = answeredBy(s);
      if (answered !== undefined) lines.push(answered);
      for (const r of s.rationale) lines.push(`  why ${r.tool}: ${r.why} (score ${f3(r.score)})`);
      if (s.alternatives.length > 0)
        lines.push(`alternatives: ${s.alternatives.map((a) => `${a.tool} ${f3(a.score)}`).join(', ')}`);
      ctx.io.stdout(`${lines.join('\n')}\n`);
    });
}
