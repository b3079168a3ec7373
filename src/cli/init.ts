/** @module cli/init — `credence init`: create (or migrate) the store and say where it is. */
import type { Command } from 'commander';
import { printJson, withCredence, type CommandContext } from './context.js';

export function registerInit(program: Command, context: () => CommandContext): void {
  program
    .command('init')
    .description('create the database (or bring it to the current schema) and print where it is')
    .action(async () => {
      const ctx = context();
      const status = await withCredence(ctx, (c) => c.status());
      if (ctx.wantsJson) return printJson(ctx, { db: status.db, scope: status.scope, schemaVersion: status.schemaVersion });
      ctx.io.stdout(`Credence store ready at ${status.db} (schema version ${status.schemaVersion}, scope ${status.scope}).\n`);
    });
}
