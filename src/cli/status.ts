/** @module cli/status — `credence status [--json]`: db path, scope, schema version, counts per table. */
import type { Command } from 'commander';
import { scopeOrigin } from '../core/scope/scope.js';
import { printJson, withCredence, type CommandContext } from './context.js';

export function registerStatus(program: Command, context: () => CommandContext): void {
  program
    .command('status')
    .description('show the database, the scope, the schema version and the row counts of the scope')
    .action(async () => {
      const ctx = context();
      const status = await withCredence(ctx, (c) => c.status());
      if (ctx.wantsJson) return printJson(ctx, status);
      const named = ctx.options.scope === undefined ? 'CREDENCE_SCOPE' : '--scope';
      const lines = [
        `db             ${status.db}`,
        `store          ${status.store}`,
        `scope          ${status.scope} ${scopeOrigin(status.scopeSource, named)}`,
        `schema version ${status.schemaVersion}`,
        `vectors        ${status.vectors.reason}`,
        `now            ${status.now}`,
        ...Object.entries(status.counts).map(([table, n]) => `${table.padEnd(14)} ${n}`),
        `graph          ${status.graph.vertices} tools in use, ${status.graph.confidentPairs} confident pairs, ` +
          `density ${status.graph.density.toFixed(4)} (${status.graph.tier})`,
        ...status.graph.central.map(
          (c, i) =>
            `${i === 0 ? 'central        ' : '               '}` +
            `${c.tool}  pagerank ${c.pageRank.toFixed(3)}  calls ${c.calls}`,
        ),
      ];
      ctx.io.stdout(`${lines.join('\n')}\n`);
    });
}
