/** @module cli/status — `credence status [--json]`: db path, scope, schema version, counts per table. */
import type { Command } from 'commander';
import { scopeOrigin } from '../core/scope/scope.js';
import { printJson, withCredence, type CommandContext } from './context.js';

/** What a server store's consistency check compares (engine `integrity`). */
const CONSISTENCY_CHECKED = 'consistency check: schema version, row counts, full-text sample';

export function registerStatus(program: Command, context: () => CommandContext): void {
  program
    .command('status')
    .description('show the database, the scope, the schema version and the row counts of the scope')
    .action(async () => {
      const ctx = context();
      const { status, integrity } = await withCredence(ctx, async (c) => ({
        status: await c.status(),
        integrity: await c.integrity(),
      }));
      const { check, problems } = integrity;
      // A damaged file is said, and the command fails: it is what a newcomer runs when something looks wrong.
      if (problems.length > 0) ctx.setExitCode(1);
      if (ctx.wantsJson)
        return printJson(ctx, { ...status, integrity: { ok: problems.length === 0, check, problems } });
      const named = ctx.options.scope === undefined ? 'CREDENCE_SCOPE' : '--scope';
      const lines = [
        `db             ${status.db}`,
        `store          ${status.store}`,
        `scope          ${status.scope} ${scopeOrigin(status.scopeSource, named)}`,
        `schema version ${status.schemaVersion}`,
        `vectors        ${status.vectors.reason}`,
        `now            ${status.now}`,
        problems.length === 0
          ? `integrity      ok (${check === 'quick check' ? 'quick check' : CONSISTENCY_CHECKED})`
          : check === 'quick check'
            ? `integrity      DAMAGED: ${problems.slice(0, 3).join('; ')}; save what is readable with ` +
              '`credence dump --salvage FILE`, then restore it into a new store'
            : `integrity      INCONSISTENT (${CONSISTENCY_CHECKED}): ${problems.slice(0, 3).join('; ')}`,
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
