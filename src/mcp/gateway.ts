/**
 * @module mcp/gateway
 * Credence in front of the user's other MCP servers (SPEC §9): one SDK client per downstream
 * server, their tools known as `server:tool`, calls proxied. A server that cannot start, dies or
 * does not answer in time gives error results for its own tools; the others keep serving. A dead
 * server is started again on a later call, at most once per `retryMs`.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ToolListChangedNotificationSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { DownstreamServer } from './config.js';

/** A downstream tool as the gateway exposes it. */
export interface DownstreamTool {
  /** `server:tool`, the catalogue id. */
  id: string;
  server: string;
  /** The tool's own name on its server. */
  name: string;
  tool: Tool;
}

export interface GatewayOptions {
  /** Per-call timeout, unless the server's entry sets `timeout`. @default 60_000 */
  callTimeoutMs?: number;
  /** How long a server has to start and answer `initialize` and `tools/list`. @default 30_000 */
  connectTimeoutMs?: number;
  /** The least time between two attempts to start a dead server again. @default 10_000 */
  retryMs?: number;
  /** Where downstream stderr lines and connection events go. */
  log?: (line: string) => void;
  /** Called when the set of downstream tools changes after start (a server died, came back, or changed its list). */
  onToolsChanged?: () => void;
}

export interface ServerStatus {
  server: string;
  state: 'connected' | 'unavailable';
  tools: number;
  error?: string;
}

interface Connection {
  config: DownstreamServer;
  client?: Client;
  tools: DownstreamTool[];
  state: 'connected' | 'unavailable';
  error?: string;
  lastAttempt: number;
  connecting?: Promise<void>;
}

export const toolId = (server: string, tool: string): string => `${server}:${tool}`;

/** An error result, the way MCP reports a tool's own failure. */
export function errorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export class Gateway {
  readonly #connections = new Map<string, Connection>();
  readonly #options: Required<Omit<GatewayOptions, 'onToolsChanged'>> & Pick<GatewayOptions, 'onToolsChanged'>;
  #closed = false;

  private constructor(servers: readonly DownstreamServer[], options: GatewayOptions) {
    this.#options = {
      callTimeoutMs: options.callTimeoutMs ?? 60_000,
      connectTimeoutMs: options.connectTimeoutMs ?? 30_000,
      retryMs: options.retryMs ?? 10_000,
      log: options.log ?? (() => {}),
      ...(options.onToolsChanged === undefined ? {} : { onToolsChanged: options.onToolsChanged }),
    };
    for (const config of servers) this.#connections.set(config.name, { config, tools: [], state: 'unavailable', lastAttempt: 0 });
  }

  /** Connects to every server at once; a server that fails is reported in `status()`, not thrown. */
  static async start(servers: readonly DownstreamServer[], options: GatewayOptions = {}): Promise<Gateway> {
    const gateway = new Gateway(servers, options);
    await Promise.all([...gateway.#connections.values()].map((c) => gateway.#connect(c)));
    return gateway;
  }

  /** Every tool of every connected server, in server order then the server's own order. */
  tools(): DownstreamTool[] {
    return [...this.#connections.values()].flatMap((c) => (c.state === 'connected' ? c.tools : []));
  }

  /** The tool with this catalogue id, if a connected server offers it. */
  tool(id: string): DownstreamTool | undefined {
    const server = this.#serverOf(id);
    return server?.tools.find((t) => t.id === id);
  }

  /** Whether `id` names a tool of a configured server (`server:…`), connected or not. */
  routes(id: string): boolean {
    return this.#serverOf(id) !== undefined;
  }

  status(): ServerStatus[] {
    return [...this.#connections.values()].map((c) => ({
      server: c.config.name,
      state: c.state,
      tools: c.tools.length,
      ...(c.error === undefined ? {} : { error: c.error }),
    }));
  }

  /**
   * Calls a downstream tool by its catalogue id. Never throws: an unknown tool, a dead server, a
   * timeout or a protocol error comes back as an error result naming the server and the reason.
   */
  async call(id: string, args: Record<string, unknown> | undefined, options: { signal?: AbortSignal } = {}): Promise<CallToolResult> {
    const connection = this.#serverOf(id);
    if (connection === undefined) return errorResult(`no downstream server provides "${id}"`);
    if (connection.state !== 'connected' && Date.now() - connection.lastAttempt >= this.#options.retryMs) await this.#connect(connection);
    const { client } = connection;
    if (connection.state !== 'connected' || client === undefined) {
      return errorResult(`server "${connection.config.name}" is unavailable${connection.error === undefined ? '' : `: ${connection.error}`}`);
    }
    const name = id.slice(connection.config.name.length + 1);
    if (!connection.tools.some((t) => t.name === name)) return errorResult(`server "${connection.config.name}" has no tool "${name}"`);
    const timeout = connection.config.timeoutMs ?? this.#options.callTimeoutMs;
    try {
      const result = await client.callTool({ name, ...(args === undefined ? {} : { arguments: args }) }, undefined, {
        timeout,
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      });
      return result as CallToolResult;
    } catch (error) {
      const message = (error as Error).message;
      const timedOut = /timed out|timeout/i.test(message);
      return errorResult(timedOut ? `server "${connection.config.name}" did not answer "${name}" within ${timeout} ms` : `server "${connection.config.name}" failed on "${name}": ${message}`);
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all(
      [...this.#connections.values()].map(async (c) => {
        const client = c.client;
        c.client = undefined;
        c.state = 'unavailable';
        await client?.close().catch(() => {});
      }),
    );
  }

  #serverOf(id: string): Connection | undefined {
    const colon = id.indexOf(':');
    return colon <= 0 ? undefined : this.#connections.get(id.slice(0, colon));
  }

  #connect(connection: Connection): Promise<void> {
    connection.connecting ??= this.#doConnect(connection).finally(() => {
      connection.connecting = undefined;
    });
    return connection.connecting;
  }

  async #doConnect(connection: Connection): Promise<void> {
    const { config } = connection;
    const log = this.#options.log;
    connection.lastAttempt = Date.now();
    const client = new Client({ name: 'credence-gateway', version: '0.1.0' });
    const transport = this.#transportFor(config);
    try {
      await withTimeout(client.connect(transport), this.#options.connectTimeoutMs, `server "${config.name}"`);
      const tools = await this.#listTools(client, config.name);
      if (this.#closed) {
        await client.close();
        return;
      }
      connection.client = client;
      connection.tools = tools;
      connection.state = 'connected';
      delete connection.error;
      client.onclose = () => {
        if (connection.client !== client) return;
        connection.client = undefined;
        connection.state = 'unavailable';
        connection.error = 'the server closed the connection';
        if (!this.#closed) {
          log(`gateway: server "${config.name}" closed the connection; its tools answer with an error until it is back`);
          this.#options.onToolsChanged?.();
        }
      };
      client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
        connection.tools = await this.#listTools(client, config.name).catch(() => connection.tools);
        this.#options.onToolsChanged?.();
      });
      log(`gateway: server "${config.name}" connected with ${tools.length} tool${tools.length === 1 ? '' : 's'}`);
    } catch (error) {
      connection.state = 'unavailable';
      connection.error = (error as Error).message;
      log(`gateway: server "${config.name}" is unavailable: ${connection.error}`);
      await client.close().catch(() => {});
    }
  }

  async #listTools(client: Client, server: string): Promise<DownstreamTool[]> {
    const tools: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await withTimeout(client.listTools(cursor === undefined ? {} : { cursor }), this.#options.connectTimeoutMs, `server "${server}" (tools/list)`);
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return tools.map((tool) => ({ id: toolId(server, tool.name), server, name: tool.name, tool }));
  }

  #transportFor(config: DownstreamServer): Transport {
    if (config.kind === 'http') {
      return new StreamableHTTPClientTransport(new URL(config.url), { requestInit: { headers: config.headers } });
    }
    const transport = new StdioClientTransport({
      command: config.command,
      args: config.args,
      // The SDK starts from a safe environment (PATH, HOME, …), not every variable of ours, and adds these.
      env: config.env,
      stderr: 'pipe',
      ...(config.cwd === undefined ? {} : { cwd: config.cwd }),
    });
    const log = this.#options.log;
    let pending = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      pending += chunk.toString('utf8');
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) if (line.trim() !== '') log(`[${config.name}] ${line}`);
    });
    return transport;
  }
}
