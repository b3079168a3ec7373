/**
 * @module mcp/server
 * One MCP server session over a Credence engine (and, optionally, a gateway). `tools/list` gives
 * the meta-tools, then every downstream tool under its catalogue id (unless `metaOnly`);
 * `tools/call` runs a meta-tool, or proxies a downstream call and records it into the session's
 * execution. Protocol errors (-32602) are kept for an unknown tool name and arguments that do not
 * fit the published schema; everything a tool itself refuses is an `isError` result.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListToolsRequestSchema,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { unexpectedErrorSummary } from '../core/text/error-summary.js';
import { isCredenceError, isStoreBusy, STORE_BUSY_MESSAGE } from '../core/errors.js';
import { formatIssues } from '../schemas/index.js';
import type { Credence } from '../engine/engine.js';
import { storeHookFiles } from '../platform/hook-spool.js';
import { isGatewayError, type DownstreamTool, type Gateway } from './gateway.js';
import { oneLine } from '../http/request.js';
import { inputJsonSchema, jsonResult, META_TOOLS, type MetaTool, type MetaToolContext } from './meta-tools.js';
import { getPrompt, listPrompts } from './prompts.js';
import { SessionRecorder } from './session.js';
import { protocolError } from './results.js';
import { PLAIN_ISSUES } from '../schemas/format.js';

export const SERVER_INFO = { name: 'credence', version: '0.1.0' } as const;

export interface McpServerOptions {
  /** List only Credence's own tools; downstream tools stay callable through `execute_dag`. @default false */
  metaOnly?: boolean;
  /** @default 0.85 */
  autoExecuteThreshold?: number;
  /**
   * How a downstream tool's name is shown to clients: `server` + separator + `tool`. The catalogue
   * id is always `server:tool`; a client that allows only `[A-Za-z0-9_-]` in names can use `__`.
   * @default ':'
   */
  nameSeparator?: string;
  /** A new execution starts after this long without a proxied call. @default 30 minutes */
  sessionIdleMs?: number;
  /** Settles when the gateway's servers have had their first chance to connect; listing and calling wait for it. */
  ready?: Promise<unknown>;
  log?: (line: string) => void;
  /**
   * The base of the hooks' files of the store (platform/hook-spool storeHookFiles), where `forget` of a Claude Code
   * session deletes its events still in the hooks' spool. @default the SQLite file the engine opened (none for a
   * PostgreSQL store: `credence serve` passes its own)
   */
  hookFiles?: string;
}

export interface CredenceMcpSession {
  server: Server;
  /** Where this session's proxied calls are recorded. */
  recorder: SessionRecorder;
}

const INSTRUCTIONS =
  'Credence is a learning memory for agents. Use search_tools to find the right tool for a task, suggest_next ' +
  'for what usually follows a tool, execute_dag to get (or run) a workflow for an intent, recall before starting ' +
  'work, observe to record corrections and habits, and feedback to say whether a suggestion helped. Every score ' +
  'comes with the parts that made it.';

/** Creates the server for one client session; `sessionKey` names its recorded executions. */
export function createMcpSession(
  credence: Credence,
  gateway: Gateway | undefined,
  sessionKey: string,
  options: McpServerOptions = {},
): CredenceMcpSession {
  const log = options.log ?? (() => {});
  const separator = options.nameSeparator ?? ':';
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: { listChanged: true }, prompts: {} },
    instructions: INSTRUCTIONS,
  });
  const recorder = new SessionRecorder(credence, {
    sessionKey,
    intent: () => `MCP session (${server.getClientVersion()?.name ?? 'unknown client'})`,
    ...(options.sessionIdleMs === undefined ? {} : { idleMs: options.sessionIdleMs }),
    log,
  });
  const hookFiles =
    options.hookFiles ??
    (credence.storeInfo.kind === 'sqlite' ? storeHookFiles(credence.storeInfo, undefined, {}) : undefined);
  const ctx: MetaToolContext = {
    credence,
    ...(gateway === undefined ? {} : { gateway }),
    ...(hookFiles === undefined ? {} : { hookFiles }),
    autoExecuteThreshold: options.autoExecuteThreshold ?? 0.85,
    // What became of the tools shown is read from the calls proxied after them (issue 24).
    onShown: (showing) => recorder.shown(showing),
  };
  const meta = new Map(META_TOOLS.map((t) => [t.name, t]));
  const shownName = (id: string): string => (separator === ':' ? id : id.replace(':', separator));
  const warned = new Set<string>();
  let listed: { version: number; byName: Map<string, DownstreamTool> } | undefined;
  /**
   * The downstream tools as clients see them, by shown name (built again only when the gateway's
   * tools change); a name that collides is left out, once said.
   */
  const downstream = (): Map<string, DownstreamTool> => {
    if (gateway === undefined) return new Map();
    if (listed?.version === gateway.version) return listed.byName;
    const byName = new Map<string, DownstreamTool>();
    for (const d of gateway.tools()) {
      const name = shownName(d.id);
      const clash = meta.has(name) ? 'a Credence tool' : byName.has(name) ? `"${byName.get(name)?.id}"` : undefined;
      if (clash === undefined) byName.set(name, d);
      else if (!warned.has(d.id)) {
        warned.add(d.id);
        log(
          `gateway: "${d.id}" would be listed as "${name}", the name of ${clash}; ` +
            'it is left out (try another --name-separator)',
        );
      }
    }
    listed = { version: gateway.version, byName };
    return byName;
  };
  /** The catalogue id a called name stands for: a listed tool, or a tool of a configured server that is down. */
  const catalogueId = (name: string): string | undefined => {
    if (gateway === undefined) return undefined;
    const listed = downstream().get(name);
    if (listed !== undefined) return listed.id;
    const server = gateway
      .servers()
      .find((s) => name.startsWith(`${s}${separator}`) && name.length > s.length + separator.length);
    return server === undefined ? undefined : `${server}:${name.slice(server.length + separator.length)}`;
  };

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    await options.ready;
    const tools: Tool[] = META_TOOLS.map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      inputSchema: inputJsonSchema(t),
      annotations: t.annotations,
    }));
    if (options.metaOnly !== true) {
      for (const [name, d] of downstream())
        tools.push({ ...d.tool, name, description: `[${d.server}] ${d.tool.description ?? ''}`.trim() });
    }
    return { tools };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    await options.ready;
    const { name } = request.params;
    const args = request.params.arguments ?? {};
    const tool = meta.get(name);
    if (tool !== undefined) return runMeta(tool, ctx, args, log);
    const id = catalogueId(name);
    if (gateway === undefined || id === undefined || gateway.knows(id) === 'no')
      throw protocolError(ErrorCode.InvalidParams, `unknown tool "${name}"`);
    const at = credence.now();
    const t0 = performance.now();
    const result = await gateway.call(id, args, { signal: extra.signal });
    // What the gateway failed at (a server down, a timeout) says nothing about the tool: not learned.
    if (!isGatewayError(result))
      recorder.record({
        tool: id,
        status: result.isError === true ? 'failure' : 'success',
        durationMs: Math.round(performance.now() - t0),
        at,
      });
    return result;
  });

  server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: listPrompts() }));
  server.setRequestHandler(GetPromptRequestSchema, async (request) =>
    getPrompt(credence, request.params.name, request.params.arguments ?? {}),
  );

  return { server, recorder };
}

/**
 * Runs a meta-tool. Its anticipated failures (CredenceError) reach the agent with their message, a busy store as
 * STORE_BUSY (retry); an unanticipated one (a bug, a driver refusing a statement) is logged whole and reaches the
 * agent as a short line without its message (core/text/error-summary): a driver's text can quote stored values or
 * SQL.
 */
async function runMeta(
  tool: MetaTool,
  ctx: MetaToolContext,
  args: Record<string, unknown>,
  log: (line: string) => void,
): Promise<CallToolResult> {
  const parsed = tool.input.safeParse(args, PLAIN_ISSUES);
  if (!parsed.success)
    throw protocolError(ErrorCode.InvalidParams, `invalid arguments for ${tool.name}: ${formatIssues(parsed.error)}`);
  try {
    return await tool.run(ctx, parsed.data as never);
  } catch (error) {
    // Another process holds the write lock: a retry can succeed, which INTERNAL would not say.
    if (isStoreBusy(error))
      return jsonResult({ error: `${tool.name}: ${STORE_BUSY_MESSAGE}`, code: 'STORE_BUSY' }, true);
    if (isCredenceError(error)) return jsonResult({ error: error.message, code: error.code }, true);
    log(`${tool.name} failed: ${oneLine(error)}`);
    return jsonResult(
      {
        error: `${tool.name} failed: ${unexpectedErrorSummary(error)}; the server's log has the cause`,
        code: 'INTERNAL',
      },
      true,
    );
  }
}
