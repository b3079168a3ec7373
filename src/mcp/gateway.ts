/**
 * @module mcp/gateway
 * Credence in front of the user's other MCP servers (SPEC §9): one SDK client per downstream
 * server, their tools known as `server:tool`, calls proxied. A server that cannot start, dies, drops
 * its HTTP session or does not answer in time gives error results for its own tools; the others
 * keep serving. A server that is down is tried again in the background (after `retryMs`, doubling
 * up to 5 minutes) and on a call once `retryMs` has passed; when it is back, `onToolsChanged` fires
 * so clients see its tools again. Errors the gateway itself produced (server down, timeout, call cut short)
 * are marked, so that they are not learned as the tool's failures; an error the server answered is the tool's.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ErrorCode,
  McpError,
  ToolListChangedNotificationSchema,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { DownstreamServer } from './config.js';
import { errorResult } from './results.js';

export { errorResult };

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
  /**
   * How long `start` waits for the servers before returning; slower ones keep connecting in the background. @default
   * 10_000
   */
  startWaitMs?: number;
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
  /** When it last connected. */
  lastUp?: number;
  connecting?: Promise<void>;
  /** Background retries so far since the server was last up (for the backoff). */
  failures: number;
  timer?: NodeJS.Timeout;
}

const MAX_BACKOFF_MS = 5 * 60_000;
const GATEWAY_ERRORS = new WeakSet<CallToolResult>();

/** Whether a result is an error the gateway produced (server down, timeout), not the tool's own. */
export const isGatewayError = (result: CallToolResult): boolean => GATEWAY_ERRORS.has(result);

function gatewayError(message: string): CallToolResult {
  const result = errorResult(message);
  GATEWAY_ERRORS.add(result);
  return result;
}

/** Errors that mean the connection itself is gone (a dead HTTP server, a dropped session), not that a call failed. */
const CONNECTION_LOST = new RegExp(
  'fetch failed|ECONNREFUSED|ECONNRESET|socket hang up|Connection closed|Not connected|session not found|' +
    'unknown MCP session|HTTP 404',
  'i',
);

/**
 * The errors the SDK's client raises itself, the server having answered nothing: the connection closed or the call
 * cancelled (-32000), no answer in time (-32001), a task-only tool called without a task (-32600). A server may
 * answer these codes too, with its own message: told apart by the SDK's messages.
 */
const clientOwn = (error: McpError): boolean =>
  (error.code === ErrorCode.ConnectionClosed && /: (?:Connection closed|Request was cancelled)$/.test(error.message)) ||
  (error.code === ErrorCode.RequestTimeout &&
    /: (?:Request timed out|Maximum total timeout exceeded)$/.test(error.message)) ||
  (error.code === ErrorCode.InvalidRequest && /requires task-based execution/.test(error.message));

/**
 * Whether the downstream server answered the call with a JSON-RPC error, whatever its code and message (its handler
 * threw, its argument check refused the call, its result broke its own output schema; a tool's "fetch failed"): the
 * tool failing. What the SDK's client raised itself (clientOwn) and what is no McpError (a lost transport) are not.
 */
const answeredByServer = (error: unknown): boolean => error instanceof McpError && !clientOwn(error);

/** Whether the call had no answer in time: the SDK's timeout, or another error saying so. */
const timedOut = (error: unknown): boolean =>
  error instanceof McpError
    ? error.code === ErrorCode.RequestTimeout && clientOwn(error)
    : /timed out|timeout/i.test((error as Error).message);

export const toolId = (server: string, tool: string): string => `${server}:${tool}`;

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
  readonly #options: Required<Omit<GatewayOptions, 'onToolsChanged' | 'startWaitMs'>> &
    Pick<GatewayOptions, 'onToolsChanged'>;
  #closed = false;
  #version = 0;

  private constructor(servers: readonly DownstreamServer[], options: GatewayOptions) {
    this.#options = {
      callTimeoutMs: options.callTimeoutMs ?? 60_000,
      connectTimeoutMs: options.connectTimeoutMs ?? 30_000,
      retryMs: options.retryMs ?? 10_000,
      log: options.log ?? (() => {}),
      ...(options.onToolsChanged === undefined ? {} : { onToolsChanged: options.onToolsChanged }),
    };
    for (const config of servers)
      this.#connections.set(config.name, { config, tools: [], state: 'unavailable', lastAttempt: 0, failures: 0 });
    this.#startWaitMs = options.startWaitMs ?? 10_000;
  }

  readonly #startWaitMs: number;
  /** Set once the first wait is over: from then on every arrival is announced. */
  #started = false;

  /**
   * Starts connecting to every server at once and resolves when all have answered or failed, or
   * after `startWaitMs`; a server that fails is reported in `status()`, not thrown.
   */
  static async start(servers: readonly DownstreamServer[], options: GatewayOptions = {}): Promise<Gateway> {
    const gateway = new Gateway(servers, options);
    await gateway.connectAll();
    return gateway;
  }

  /** A gateway that has not connected yet (`connectAll` does), so a server can listen first. */
  static create(servers: readonly DownstreamServer[], options: GatewayOptions = {}): Gateway {
    return new Gateway(servers, options);
  }

  /** Connects every server; resolves when all have answered or failed, or after `startWaitMs`. */
  async connectAll(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const all = Promise.all([...this.#connections.values()].map((c) => this.#connect(c)));
    await Promise.race([all, new Promise<void>((resolve) => (timer = setTimeout(resolve, this.#startWaitMs)))]);
    clearTimeout(timer);
    this.#started = true;
  }

  /** Changes whenever the tools of the connected servers do (a server up or down, a new list). */
  get version(): number {
    return this.#version;
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

  /** The configured server names. */
  servers(): string[] {
    return [...this.#connections.keys()];
  }

  /** Whether `id` names a tool of a configured server (`server:…`), connected or not. */
  routes(id: string): boolean {
    return this.#serverOf(id) !== undefined;
  }

  /**
   * Whether the tool exists: `yes`, `no` (its server is up and has no such tool), or `unknown`
   * (not a configured server's, or its server is down, so nobody can say).
   */
  knows(id: string): 'yes' | 'no' | 'unknown' {
    const connection = this.#serverOf(id);
    if (connection === undefined || connection.state !== 'connected') return 'unknown';
    return connection.tools.some((t) => t.id === id) ? 'yes' : 'no';
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
   * timeout or a protocol error comes back as an error result naming the server and the reason. A JSON-RPC
   * error the server answered (the tool threw, refused its arguments) is the tool's failure, not the gateway's.
   */
  async call(
    id: string,
    args: Record<string, unknown> | undefined,
    options: { signal?: AbortSignal } = {},
  ): Promise<CallToolResult> {
    const connection = this.#serverOf(id);
    if (connection === undefined) return gatewayError(`no downstream server provides "${id}"`);
    if (connection.state !== 'connected' && Date.now() - connection.lastAttempt >= this.#options.retryMs)
      await this.#connect(connection);
    const { client } = connection;
    if (connection.state !== 'connected' || client === undefined) {
      return gatewayError(
        `server "${connection.config.name}" is unavailable` +
          `${connection.error === undefined ? '' : `: ${connection.error}`}`,
      );
    }
    const name = id.slice(connection.config.name.length + 1);
    if (!connection.tools.some((t) => t.name === name))
      return gatewayError(`server "${connection.config.name}" has no tool "${name}"`);
    const timeout = connection.config.timeoutMs ?? this.#options.callTimeoutMs;
    try {
      const result = await client.callTool({ name, ...(args === undefined ? {} : { arguments: args }) }, undefined, {
        timeout,
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      });
      return result as CallToolResult;
    } catch (error) {
      const message = (error as Error).message;
      // A call cut short (the client cancelled, shutdown) is not an answer, whatever the abort's reason was.
      if (answeredByServer(error) && options.signal?.aborted !== true)
        return errorResult(`server "${connection.config.name}" answered "${name}" with an error: ${message}`);
      if (timedOut(error))
        return gatewayError(`server "${connection.config.name}" did not answer "${name}" within ${timeout} ms`);
      if (CONNECTION_LOST.test(message) && connection.client === client) this.#lost(connection, client, message);
      return gatewayError(`server "${connection.config.name}" failed on "${name}": ${message}`);
    }
  }

  /** The connection is gone: drop the client, tell the clients, and try again later. */
  #lost(connection: Connection, client: Client, reason: string): void {
    this.#version += 1;
    connection.client = undefined;
    connection.state = 'unavailable';
    connection.error = reason;
    void client.close().catch(() => {});
    if (this.#closed) return;
    this.#options.log(
      `gateway: server "${connection.config.name}" is unavailable (${reason}); ` +
        'its tools answer with an error until it is back',
    );
    this.#options.onToolsChanged?.();
    this.#scheduleRetry(connection);
  }

  #scheduleRetry(connection: Connection): void {
    if (this.#closed || connection.timer !== undefined) return;
    // At least a second between background attempts, whatever retryMs says (a call may still try sooner).
    const delay = Math.min(MAX_BACKOFF_MS, Math.max(1000, this.#options.retryMs) * 2 ** connection.failures);
    connection.timer = setTimeout(() => {
      connection.timer = undefined;
      if (connection.state === 'connected' || this.#closed) return;
      connection.failures += 1;
      void this.#connect(connection);
    }, delay);
    connection.timer.unref();
  }

  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all(
      [...this.#connections.values()].map(async (c) => {
        clearTimeout(c.timer);
        c.timer = undefined;
        const client = c.client;
        c.client = undefined;
        c.state = 'unavailable';
        // An HTTP server is told the session is over; a stdio server sees its stdin close.
        const transport = client?.transport;
        if (transport instanceof StreamableHTTPClientTransport) await transport.terminateSession().catch(() => {});
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
      const wasDown = connection.lastUp !== undefined || connection.failures > 0;
      connection.client = client;
      connection.tools = tools;
      connection.state = 'connected';
      this.#version += 1;
      connection.failures = 0;
      connection.lastUp = Date.now();
      delete connection.error;
      client.onclose = () => {
        if (connection.client === client) this.#lost(connection, client, 'the server closed the connection');
      };
      client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
        connection.tools = await this.#listTools(client, config.name).catch(() => connection.tools);
        this.#version += 1;
        this.#options.onToolsChanged?.();
      });
      log(`gateway: server "${config.name}" connected with ${tools.length} tool${tools.length === 1 ? '' : 's'}`);
      // Announce every arrival after the first wait (a slow start, a restart), so clients list its tools.
      if (wasDown || this.#started) this.#options.onToolsChanged?.();
    } catch (error) {
      connection.state = 'unavailable';
      connection.error = (error as Error).message;
      log(`gateway: server "${config.name}" is unavailable: ${connection.error}`);
      await client.close().catch(() => {});
      this.#scheduleRetry(connection);
    }
  }

  async #listTools(client: Client, server: string): Promise<DownstreamTool[]> {
    const tools: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await withTimeout(
        client.listTools(cursor === undefined ? {} : { cursor }),
        this.#options.connectTimeoutMs,
        `server "${server}" (tools/list)`,
      );
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
