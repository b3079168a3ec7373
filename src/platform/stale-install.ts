/**
 * @module platform/stale-install
 * What a hook or the MCP server adds to its refusal of a store of a newer schema. The hooks and .mcp.json that an
 * older `credence init --claude-code` wrote run that older Credence by its path; after an upgrade they refuse the
 * store the new one migrated, and "upgrade Credence" alone told a user who just had nothing (walk 11, item 2): the
 * line names the binary it runs and what points the hooks at the new one.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CredenceError, isCredenceError } from '../core/errors.js';

/** bin/credence.cjs of the package this module runs from (dist/src/platform, a bundle in dist/, or src/platform). */
export function packageBin(): string {
  const [fromSource, fromDist] = ['../../bin/credence.cjs', '../../../bin/credence.cjs'].map((path) =>
    fileURLToPath(new URL(path, import.meta.url)),
  ) as [string, string];
  return existsSync(fromSource) ? fromSource : fromDist;
}

/**
 * `error` with the way out of a stale install added when it is a SCHEMA_TOO_NEW refusal (else `error` itself):
 * `from` is what refuses, a hook or the MCP server, `bin` the Credence it runs.
 */
export function staleInstallError(error: unknown, from: 'hook' | 'MCP server', bin: string = packageBin()): unknown {
  if (!isCredenceError(error, 'SCHEMA_TOO_NEW')) return error;
  return new CredenceError(
    'SCHEMA_TOO_NEW',
    `${error.message}. This ${from} runs ${bin}: if you upgraded Credence, run \`credence init --claude-code\` ` +
      'again with the new one, to point the hooks and .mcp.json at it',
    { cause: error, ...(error.details === undefined ? {} : { details: { ...error.details, bin } }) },
  );
}
