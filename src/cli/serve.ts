/**
 * @module cli/serve — `credence serve`: MCP on stdio (`--stdio`) or Streamable HTTP (the default,
 * 127.0.0.1:3001, MCP at /mcp, the dashboard at / and its API at /api/), optionally as a gateway in front of other MCP
 * servers. The MCP
 * code is imported only here, so other commands (and hooks) never load it.
 */
import type { Command } from 'commander';
import { CredenceError } from '../core/errors.js';
import { withCredence, type CommandContext } from './context.js';
import { storeHookFiles } from '../platform/hook-spool.js';
import { staleInstallError } from '../platform/stale-install.js';

interface ServeFlags {
  stdio?: boolean;
  http?: boolean;
  port?: string;
  host?: string;
  token?: string;
  allowRemote?: boolean;
  gateway?: string;
  metaOnly?: boolean;
  autoExecuteThreshold?: string;
  nameSeparator?: string;
  callTimeout?: string;
  connectTimeout?: string;
  retryAfter?: string;
}

const number = (flag: string, text: string, ok: (n: number) => boolean, what: string): number => {
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n) || !ok(n))
    throw new CredenceError('INVALID_INPUT', `${flag} must be ${what}, got ${JSON.stringify(text)}`);
  return n;
};

export function registerServe(program: Command, context: () => CommandContext): void {
  program
    .command('serve')
    .description(
      'serve MCP on Streamable HTTP (default 127.0.0.1:3001, at /mcp, with the dashboard at /) or on stdio; ' +
        'with --gateway, in front of other MCP servers',
    )
    .option('--stdio', 'serve MCP on standard input and output')
    .option('--http', 'serve MCP on Streamable HTTP (the default)')
    .option('--port <n>', 'HTTP port (default 3001; 0 picks a free one)')
    .option('--host <address>', 'HTTP address to listen on (default 127.0.0.1)')
    .option('--token <secret>', 'require Authorization: Bearer <secret> (default: $CREDENCE_TOKEN)')
    .option('--allow-remote', 'allow a non-loopback --host (a token is then required)')
    .option('--gateway <file>', 'downstream MCP servers in the mcpServers format of .mcp.json')
    .option('--meta-only', "list only Credence's own tools, not the downstream ones")
    .option(
      '--auto-execute-threshold <c>',
      'execute_dag {intent} runs a read-only suggestion at or above this confidence (default 0.85)',
    )
    .option(
      '--name-separator <text>',
      'show downstream tools as server<text>tool (default ":"; "__" for clients that want [A-Za-z0-9_-] names)',
    )
    .option('--call-timeout <ms>', 'per-call timeout for downstream tools (default 60000)')
    .option('--connect-timeout <ms>', 'how long a downstream server has to start and list its tools (default 30000)')
    .option('--retry-after <ms>', 'the least time before a dead downstream server is started again (default 10000)')
    .action(async (o: ServeFlags) => {
      const ctx = context();
      if (o.stdio === true && o.http === true)
        throw new CredenceError('INVALID_INPUT', 'give --stdio or --http, not both');
      const token = o.token ?? (ctx.io.env.CREDENCE_TOKEN === '' ? undefined : ctx.io.env.CREDENCE_TOKEN);
      const separator = o.nameSeparator;
      if (separator !== undefined && !/^[A-Za-z0-9_.:/-]{1,4}$/.test(separator)) {
        throw new CredenceError(
          'INVALID_INPUT',
          `--name-separator must be 1–4 characters among letters, digits, _ . : / -, got ${JSON.stringify(separator)}`,
        );
      }
      const config = {
        mode: o.stdio === true ? ('stdio' as const) : ('http' as const),
        ...(o.host === undefined ? {} : { host: o.host }),
        ...(o.port === undefined
          ? {}
          : { port: number('--port', o.port, (n) => Number.isInteger(n) && n >= 0 && n < 65536, 'a port number') }),
        ...(token === undefined ? {} : { token }),
        ...(o.allowRemote === true ? { allowRemote: true } : {}),
        ...(o.gateway === undefined ? {} : { gatewayFile: o.gateway }),
        ...(o.metaOnly === true ? { metaOnly: true } : {}),
        ...(o.autoExecuteThreshold === undefined
          ? {}
          : {
              autoExecuteThreshold: number(
                '--auto-execute-threshold',
                o.autoExecuteThreshold,
                (n) => n >= 0 && n <= 1,
                'a number in [0, 1]',
              ),
            }),
        ...(separator === undefined ? {} : { nameSeparator: separator }),
        ...(o.callTimeout === undefined
          ? {}
          : {
              callTimeoutMs: number(
                '--call-timeout',
                o.callTimeout,
                (n) => Number.isInteger(n) && n > 0,
                'a positive whole number of milliseconds',
              ),
            }),
        ...(o.connectTimeout === undefined
          ? {}
          : {
              connectTimeoutMs: number(
                '--connect-timeout',
                o.connectTimeout,
                (n) => Number.isInteger(n) && n > 0,
                'a positive whole number of milliseconds',
              ),
            }),
        ...(o.retryAfter === undefined
          ? {}
          : {
              retryMs: number(
                '--retry-after',
                o.retryAfter,
                (n) => Number.isInteger(n) && n >= 0,
                'a whole number of milliseconds',
              ),
            }),
      };
      if (config.mode === 'stdio') {
        const ignored = (['port', 'host', 'token', 'allowRemote'] as const).filter((k) => o[k] !== undefined);
        if (ignored.length > 0)
          throw new CredenceError(
            'INVALID_INPUT',
            '--stdio serves no HTTP: drop ' +
              ignored.map((k) => `--${k === 'allowRemote' ? 'allow-remote' : k}`).join(', '),
          );
      }
      const { serve, checkServeConfig } = await import('../mcp/serve.js');
      checkServeConfig(config, {
        host: '--host',
        allowRemote: 'add --allow-remote',
        token: '--token or CREDENCE_TOKEN',
        autoExecuteThreshold: '--auto-execute-threshold',
      });
      // A store of a newer schema refused by the MCP server .mcp.json runs: an older init's, left by an upgrade.
      const stale = (error: unknown): never => {
        throw config.mode === 'stdio' ? staleInstallError(error, 'MCP server') : error;
      };
      await withCredence(ctx, (credence) => {
        const refusal = credence.readOnlyRefusal();
        if (refusal !== undefined)
          ctx.io.stderr(
            `credence: ${refusal.message}; serving reads only (MCP's recording tools and the dashboard's feedback ` +
              'are refused)\n',
          );
        // The MCP `forget` of a session clears its events in the hooks' spool, as `credence forget` does.
        const url = ctx.options.databaseUrl ?? ctx.io.env.CREDENCE_DATABASE_URL;
        const hookFiles = storeHookFiles(credence.storeInfo, url, ctx.io.env);
        return serve(credence, hookFiles === undefined ? config : { ...config, hookFiles }, {
          stderr: ctx.io.stderr,
          env: ctx.io.env,
          cwd: ctx.io.cwd,
        });
      }).catch(stale);
    });
}
