/**
 * @module mcp/http
 * MCP over Streamable HTTP at `/mcp`, one SDK transport and server per client session. Safety: loopback
 * by default; there a request whose Host is not a loopback name with this port, or whose Origin is not
 * this server's own, is refused (DNS rebinding, other sites' pages). With a token every request needs
 * `Authorization: Bearer <token>` (constant-time compare), except what `isPublic` lets through. Idle
 * sessions close after `sessionIdleMs`; at `maxSessions` a new client closes the least recently used
 * idle one (issue 17), 503 only when all are busy. A non-path target is a 400; a throw is a 500 naming
 * only the error's class (the message goes to the log). Other paths go to `fallback`, else 404.
 */
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import { randomUUID, timingSafeEqual, createHash } from 'node:crypto';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { CredenceMcpSession } from './server.js';
import { unexpectedErrorSummary } from '../core/text/error-summary.js';
import { CredenceError } from '../core/errors.js';
import { isLoopback, oneLine, originHost, requestTarget } from '../http/request.js';

export { isLoopback, oneLine, originHost, requestTarget };

export interface HttpServeOptions {
  host: string;
  port: number;
  /** Required on a non-loopback host. */
  token?: string;
  /** Creates the MCP session for a new client; `key` is the MCP session id. */
  createSession: (key: string) => CredenceMcpSession;
  onSessionClosed?: (key: string, session: CredenceMcpSession) => void;
  /** A session without a request for this long is closed. @default 30 minutes */
  sessionIdleMs?: number;
  /** At the cap, a new session replaces the least recently used idle one. @default 64 */
  maxSessions?: number;
  /** The clock for idle times (tests). @default Date.now */
  now?: () => number;
  fallback?: (req: IncomingMessage, res: ServerResponse) => boolean;
  /** Requests that need no bearer token (the Host and Origin checks still apply). Never /mcp. */
  isPublic?: (req: IncomingMessage) => boolean;
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

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

function send(
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
  code = -32000,
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/**
 * A refusal before any handler (a Host, an Origin, a token): JSON-RPC's shape on /mcp, which speaks it, and the
 * dashboard's `{"error": {"code", "message"}}` anywhere else (its pages and `/api/*`).
 */
function refuse(
  res: ServerResponse,
  url: string | undefined,
  status: 401 | 403,
  message: string,
  headers: Record<string, string> = {},
): void {
  if (/^\/mcp(?:[/?#]|$)/.test(url ?? '')) return send(res, status, message, headers);
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ error: { code: status === 401 ? 'UNAUTHORIZED' : 'FORBIDDEN', message } }));
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
    throw Object.assign(new Error('request body is not JSON'), { status: 400, code: -32700 });
  }
}

export async function serveHttp(options: HttpServeOptions): Promise<RunningHttpServer> {
  const log = options.log ?? (() => {});
  /** `busy`: the session's requests whose body was read and whose response has not ended. */
  const sessions = new Map<
    string,
    { transport: StreamableHTTPServerTransport; session: CredenceMcpSession; lastSeen: number; busy: number }
  >();
  const now = options.now ?? Date.now;
  const expected = options.token === undefined ? undefined : digest(options.token);
  const idleMs = options.sessionIdleMs ?? 30 * 60_000;
  const maxSessions = options.maxSessions ?? 64;
  const sweep = (): void => {
    const at = now();
    for (const entry of sessions.values())
      if (entry.busy === 0 && at - entry.lastSeen > idleMs) void entry.transport.close().catch(() => {});
  };
  /** Closes the least recently used session with no request in progress; false when every one is busy. */
  const evictIdlest = async (): Promise<boolean> => {
    let idlest: [string, { transport: StreamableHTTPServerTransport; lastSeen: number }] | undefined;
    for (const entry of sessions)
      if (entry[1].busy === 0 && (idlest === undefined || entry[1].lastSeen < idlest[1].lastSeen)) idlest = entry;
    if (idlest === undefined) return false;
    log(
      `http: ${maxSessions} MCP sessions open; closing session ${idlest[0]}, ` +
        `unused for ${Math.round((now() - idlest[1].lastSeen) / 1000)} s, for a new client`,
    );
    // Closing the transport ends the session as a DELETE would (its onclose forgets it and tells the owner).
    await idlest[1].transport.close().catch(() => {});
    sessions.delete(idlest[0]);
    return true;
  };
  const sweeper = setInterval(sweep, Math.min(idleMs, 60_000));
  sweeper.unref();
  // On loopback, only the loopback names (DNS rebinding); elsewhere the bearer token is the guard.
  let allowedHosts: Set<string> | undefined = new Set<string>();

  const authorised = (req: IncomingMessage): boolean => {
    if (expected === undefined) return true;
    const m = /^bearer\s+(.+)$/i.exec((req.headers.authorization ?? '').trim());
    return timingSafeEqual(digest(m?.[1] ?? ''), expected);
  };

  const handleMcp = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const sessionId = req.headers['mcp-session-id'];
    const key = Array.isArray(sessionId) ? sessionId[0] : sessionId;
    if (key !== undefined) {
      const known = sessions.get(key);
      if (known === undefined) return send(res, 404, `unknown MCP session "${key}": start a new one with initialize`);
      known.lastSeen = now();
      const body = req.method === 'POST' ? await readJson(req, 4 * 1024 * 1024) : undefined;
      // A POST is busy until its answer is sent; a GET (the session's event stream) stays open for
      // the session's life, so it never keeps a session from being the one closed at the cap.
      if (req.method === 'POST') {
        known.busy += 1;
        res.once('close', () => {
          known.busy -= 1;
          known.lastSeen = now();
        });
      }
      return known.transport.handleRequest(req, res, body);
    }
    if (req.method !== 'POST') return send(res, 400, 'a GET or DELETE on /mcp needs an mcp-session-id header');
    const body = await readJson(req, 4 * 1024 * 1024);
    if (!isInitializeRequest(body))
      return send(res, 400, 'the first request of a session must be initialize (no mcp-session-id given)');
    if (sessions.size >= maxSessions) sweep();
    while (sessions.size >= maxSessions) {
      if (!(await evictIdlest()))
        return send(
          res,
          503,
          `too many open MCP sessions (${maxSessions}), each with a request in progress: ` +
            'try again, or end one with DELETE /mcp',
        );
    }
    const id = randomUUID();
    const session = options.createSession(`http-${id}`);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      onsessioninitialized: (started) => {
        sessions.set(started, { transport, session, lastSeen: now(), busy: 0 });
      },
    });
    transport.onclose = () => {
      if (sessions.get(id)?.transport === transport) {
        sessions.delete(id);
        options.onSessionClosed?.(id, session);
      }
    };
    await session.server.connect(transport);
    await transport.handleRequest(req, res, body);
    // A refused initialize (wrong Content-Type or Accept) leaves no session behind.
    if (!sessions.has(id)) await session.server.close().catch(() => {});
  };

  /**
   * Anything a handler threw: a 500 when nothing was sent yet, and one line of log. The client is
   * told the error's class and code only (core/text/error-summary): its message can quote stored values.
   */
  const failed = (req: IncomingMessage, res: ServerResponse, error: unknown): void => {
    log(`http: ${req.method ?? '?'} ${JSON.stringify(req.url ?? '')} failed: ${oneLine(error)}`);
    if (!res.headersSent)
      send(
        res,
        500,
        `the server failed on this request: ${unexpectedErrorSummary(error)}; the server's log has the cause`,
        {},
        -32603,
      );
    else res.end();
  };

  const route = (req: IncomingMessage, res: ServerResponse): void => {
    const host = (req.headers.host ?? '').toLowerCase();
    if (allowedHosts !== undefined && !allowedHosts.has(host))
      return refuse(res, req.url, 403, `host "${host}" is not allowed`);
    const origin = req.headers.origin;
    // A page may call this server only from the server's own origin: http:, the same host and port.
    if (allowedHosts !== undefined && origin !== undefined && originHost(origin) !== host)
      return refuse(
        res,
        req.url,
        403,
        `origin "${origin}" is not allowed: only pages served from http://${host} may call this server`,
      );
    const url = requestTarget(req.url);
    if (url === undefined)
      return send(
        res,
        400,
        `the request target ${JSON.stringify(req.url ?? '')} is not a path starting with one /: ` +
          'ask for /mcp or a dashboard page such as /graph',
      );
    const path = url.pathname;
    if (!authorised(req) && (path === '/mcp' || options.isPublic?.(req) !== true))
      return refuse(
        res,
        path,
        401,
        path === '/mcp'
          ? 'missing or wrong bearer token'
          : 'missing or wrong bearer token: open the dashboard at the address credence serve printed, ' +
              "ending in #token=<token>, with the server's token in place of <token>; " +
              'or send Authorization: Bearer <token>',
        { 'www-authenticate': 'Bearer' },
      );
    if (path === '/mcp') {
      handleMcp(req, res).catch((error: unknown) => {
        const status = (error as { status?: number }).status ?? 500;
        if (status === 500) return failed(req, res, error);
        if (!res.headersSent)
          send(res, status, (error as Error).message, {}, (error as { code?: number }).code ?? -32000);
        else res.end();
      });
      return;
    }
    if (options.fallback?.(req, res) === true) return;
    send(res, 404, `nothing at ${path}: MCP is at /mcp`);
  };

  // A query of the dashboard's Ask page may be 4,000 characters (core/limits), 36 KB once a non-Latin text is
  // percent-encoded: above Node's 16 KB of headers, which would answer a bare 431.
  const server = createServer({ maxHeaderSize: 64 * 1024 }, (req, res) => {
    try {
      route(req, res);
    } catch (error) {
      failed(req, res, error);
    }
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      clearInterval(sweeper);
      reject(
        error.code === 'EADDRINUSE'
          ? new CredenceError(
              'INVALID_INPUT',
              `port ${options.port} on ${options.host} is in use: choose another with --port (0 picks a free one)`,
            )
          : error.code === 'EADDRNOTAVAIL'
            ? new CredenceError('INVALID_INPUT', `--host ${options.host} is not an address of this machine`)
            : error,
      );
    });
    server.listen(options.port, options.host, () => {
      server.removeAllListeners('error');
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  const names = ['127.0.0.1', 'localhost', '[::1]', options.host];
  allowedHosts = isLoopback(options.host)
    ? new Set(names.map((n) => `${n.includes(':') && !n.startsWith('[') ? `[${n}]` : n}:${port}`.toLowerCase()))
    : undefined;
  const shownHost = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    server,
    port,
    url: `http://${shownHost}:${port}/mcp`,
    sessions: () => sessions.size,
    close: async () => {
      clearInterval(sweeper);
      for (const { transport } of [...sessions.values()]) await transport.close().catch(() => {});
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
