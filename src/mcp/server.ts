/**
 * @module mcp/server
 * One MCP server session over a Credence engine (and, optionally, a gateway). `tools/list` gives
 * the meta-tools, then every downstream tool under its catalogue id (unless `metaOnly`);
 * `tools/call` runs a meta-tool, or proxies a downstream call and records it into the session's
 * execution. Protocol errors (-32602) are kept for an unknown tool name and arguments that do not
 * fit the published schema; everything a tool itself refuses is an `isError` result.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { isCredenceError } from '../core/errors.js';
import { formatIssues } from '../schemas/index.js';
import type { Credence } from '../engine.js';
import type { Gateway } from './gateway.js';
import { inputJsonSchema, jsonResult, META_TOOLS, type MetaTool, type MetaToolContext } from './meta-tools.js';
import { SessionRecorder } from './session.js';

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
  log?: (line: string) => void;
}

export interface CredenceMcpSession {
  server: Server;
  /** Where this session's proxied calls are recorded. */
  recorder: SessionRecorder;
}

const INSTRUCTIONS =
  'Credence is a learning memory for agents. Use search_tools to find the right tool for a task, suggest_next for what usually follows a tool, ' +
  'execute_dag to get (or run) a workflow for an intent, recall before starting work, observe to record corrections and habits, and feedback to say whether a suggestion helped. ' +
  'Every score comes with the parts that made it.';

/** Creates the server for one client session; `sessionKey` names its recorded executions. */
export function createMcpSession(credence: Credence, gateway: Gateway | undefined, sessionKey: string, options: McpServerOptions = {}): CredenceMcpSession {
  const log = options.log ?? (() => {});
  const separator = options.nameSeparator ?? ':';
  const server = new Server(SERVER_INFO, { capabilities: { tools: { listChanged: true } }, instructions: INSTRUCTIONS });
  const recorder = new SessionRecorder(credence, {
    sessionKey,
    intent: () => `MCP session (${server.getClientVersion()?.name ?? 'unknown client'})`,
    ...(options.sessionIdleMs === undefined ? {} : { idleMs: options.sessionIdleMs }),
    log,
  });
  const ctx: MetaToolContext = {
    credence,
    ...(gateway === undefined ? {} : { gateway }),
    autoExecuteThreshold: options.autoExecuteThreshold ?? 0.85,
  };
  const meta = new Map(META_TOOLS.map((t) => [t.name, t]));
  const shownName = (id: string): string => (separator === ':' ? id : id.replace(':', separator));
  const catalogueId = (name: string): string | undefined => {
    if (gateway === undefined) return undefined;
    if (separator === ':') return gateway.routes(name) ? name : undefined;
    const at = name.indexOf(separator);
    if (at <= 0) return undefined;
    const id = `${name.slice(0, at)}:${name.slice(at + separator.length)}`;
    return gateway.routes(id) ? id : undefined;
  };

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    const tools: Tool[] = META_TOOLS.map((t) => ({ name: t.name, title: t.title, description: t.description, inputSchema: inputJsonSchema(t), annotations: t.annotations }));
    if (gateway !== undefined && options.metaOnly !== true) {
      for (const d of gateway.tools()) {
        tools.push({ ...d.tool, name: shownName(d.id), description: `[${d.server}] ${d.tool.description ?? ''}`.trim() });
      }
    }
    return { tools };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const { name } = request.params;
    const args = request.params.arguments ?? {};
    const tool = meta.get(name);
    if (tool !== undefined) return runMeta(tool, ctx, args);
    const id = catalogueId(name);
    if (gateway === undefined || id === undefined) throw new McpError(ErrorCode.InvalidParams, `unknown tool "${name}"`);
    const at = credence.now();
    const t0 = performance.now();
    const result = await gateway.call(id, args, { signal: extra.signal });
    recorder.record({ tool: id, status: result.isError === true ? 'failure' : 'success', durationMs: Math.round(performance.now() - t0), at });
    return result;
  });

  return { server, recorder };
}

async function runMeta(tool: MetaTool, ctx: MetaToolContext, args: Record<string, unknown>): Promise<CallToolResult> {
  const parsed = tool.input.safeParse(args);
  if (!parsed.success) throw new McpError(ErrorCode.InvalidParams, `invalid arguments for ${tool.name}: ${formatIssues(parsed.error)}`);
  try {
    return await tool.run(ctx, parsed.data as never);
  } catch (error) {
    if (isCredenceError(error)) return jsonResult({ error: error.message, code: error.code }, true);
    return jsonResult({ error: `${tool.name} failed: ${(error as Error).message}` }, true);
  }
}
