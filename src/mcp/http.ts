/**
 * @module mcp/http
 * MCP over Streamable HTTP at `/mcp`, one SDK transport and one server per client session.
 * Safety: the server listens on loopback unless told otherwise; a request whose Host header is not
 * one of the names this server answers to is refused (DNS rebinding); with a token, every request
 * needs `Authorization: Bearer <token>`, compared in constant time. Other paths are left to
 * `fallback` (the dashboard, later) or answered 404.
 */
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import { randomUUID, timingSafeEqual, createHash } from 'node:crypto';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { CredenceMcpSession } from './server.js';

export interface HttpServeOptions {
  host: string;
  port: number;
  /** Required on a non-loopback host. */
  token?: string;
  /** Creates the MCP session for a new client; `key` is the MCP session id. */
  createSession: (key: string) => CredenceMcpSession;
  onSessionClosed?: (key: string, session: CredenceMcpSession) => void;
  fallback?: (req: IncomingMessage, res: ServerResponse) => boolean;
  log?: (line: string) => void;
}

export interface RunningHttpServer {
  server: HttpServer;
  /** The address clients use, e.g. http://127.0.0.1:3001/mcp. */
  url: string;
  port: number;
  sessions: () => number;
  close: () => Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

export const isLoopback = (host: string): boolean => LOOPBACK.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host);

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

function send(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

async function readJson(req: IncomingMessage, limit: number): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw Object.assign(new Error(`request body over ${limit} bytes`), { status: 413 });
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw Object.assign(new Error('request body is not JSON'), { status: 400 });
  }
}

export async function serveHttp(options: HttpServeOptions): Promise<RunningHttpServer> {
  const log = options.log ?? (() => {});
  const sessions = new Map<string, { transport: StreamableHTTPServerTransport; session: CredenceMcpSession }>();
  const expected = options.token === undefined ? undefined : digest(`Bearer ${options.token}`);
  // On loopback, only the loopback names (DNS rebinding); elsewhere the bearer token is the guard.
  let allowedHosts: Set<string> | undefined = new Set<string>();

  const authorised = (req: IncomingMessage): boolean => {
    if (expected === undefined) return true;
    return timingSafeEqual(digest(req.headers.authorization ?? ''), expected);
  };

  const handleMcp = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const sessionId = req.headers['mcp-session-id'];
    const key = Array.isArray(sessionId) ? sessionId[0] : sessionId;
    if (key !== undefined) {
      const known = sessions.get(key);
      if (known === undefined) return send(res, 404, `unknown MCP session "${key}": start a new one with initialize`);
      const body = req.method === 'POST' ? await readJson(req, 4 * 1024 * 1024) : undefined;
      return known.transport.handleRequest(req, res, body);
    }
    if (req.method !== 'POST') return send(res, 400, 'a GET or DELETE on /mcp needs an mcp-session-id header');
    const body = await readJson(req, 4 * 1024 * 1024);
    if (!isInitializeRequest(body)) return send(res, 400, 'the first request of a session must be initialize (no mcp-session-id given)');
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, session });
      },
    });
    const session = options.createSession(`http-${randomUUID().slice(0, 8)}`);
    transport.onclose = () => {
      const id = transport.sessionId;
      if (id !== undefined && sessions.get(id)?.transport === transport) {
        sessions.delete(id);
        options.onSessionClosed?.(id, session);
      }
    };
    await session.server.connect(transport);
    await transport.handleRequest(req, res, body);
  };

  const server = createServer((req, res) => {
    const host = (req.headers.host ?? '').toLowerCase();
    if (allowedHosts !== undefined && !allowedHosts.has(host)) return send(res, 403, `host "${host}" is not allowed`);
    if (!authorised(req)) return send(res, 401, 'missing or wrong bearer token', { 'www-authenticate': 'Bearer' });
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path === '/mcp') {
      handleMcp(req, res).catch((error: unknown) => {
        const status = (error as { status?: number }).status ?? 500;
        if (status === 500) log(`http: ${(error as Error).stack ?? String(error)}`);
        if (!res.headersSent) send(res, status, (error as Error).message);
        else res.end();
      });
      return;
    }
    if (options.fallback?.(req, res) === true) return;
    send(res, 404, `nothing at ${path}: MCP is at /mcp`);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  const names = ['127.0.0.1', 'localhost', '[::1]', options.host];
  allowedHosts = isLoopback(options.host) ? new Set(names.map((n) => `${n.includes(':') && !n.startsWith('[') ? `[${n}]` : n}:${port}`.toLowerCase())) : undefined;
  const shownHost = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    server,
    port,
    url: `http://${shownHost}:${port}/mcp`,
    sessions: () => sessions.size,
    close: async () => {
      for (const { transport } of [...sessions.values()]) await transport.close().catch(() => {});
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
