/**
 * @module mcp/serve
 * `credence serve`: MCP over stdio or Streamable HTTP, optionally as a gateway. Starts the
 * downstream servers, imports their tools into the catalogue (`server:tool`, with description,
 * input schema and annotations), serves until stdin closes (stdio: once every request received is
 * answered) or a SIGINT/SIGTERM, then stores what is still queued and stops the downstream servers.
 */
import { INPUT_LIMITS, withinLimit } from '../core/limits.js';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CredenceError } from '../core/errors.js';
import { shownValue } from '../schemas/index.js';
import type { Credence } from '../engine/engine.js';
import { parseGatewayConfig } from './config.js';
import { Gateway } from './gateway.js';
import { isLoopback, serveHttp, type RunningHttpServer } from './http.js';
import { trackInFlight } from './in-flight.js';
import { createMcpSession, type CredenceMcpSession, type McpServerOptions } from './server.js';
import { createDashboard } from '../web/server.js';

export interface ServeConfig extends McpServerOptions {
  mode: 'stdio' | 'http';
  /** @default 127.0.0.1 */
  host?: string;
  /** @default 3001; 0 picks a free port */
  port?: number;
  token?: string;
  /** A non-loopback host is refused without it (and without a token). */
  allowRemote?: boolean;
  /** A `.mcp.json`-style file of downstream servers. */
  gatewayFile?: string;
  callTimeoutMs?: number;
  connectTimeoutMs?: number;
  /** The least time before a dead downstream server is tried again. @default 10_000 */
  retryMs?: number;
  /** How long listing waits for the downstream servers at start. @default 10_000 */
  startWaitMs?: number;
  /** Serve the dashboard at / and its API at /api/ beside MCP (HTTP only). @default true */
  dashboard?: boolean;
}

export interface ServeIO {
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Resolves when the server should stop (a signal, the end of stdin); serve() adds its own defaults. */
  stopped?: Promise<void>;
  /** Called once the server listens (HTTP: its MCP URL and the dashboard's). */
  ready?: (info: { url?: string; dashboard?: string }) => void;
}

/** Imports the gateway's tools into the catalogue, as `server:tool`. */
export async function importGatewayTools(credence: Credence, gateway: Gateway): Promise<number> {
  // A downstream server's data is cut to the input limits, not refused: a description is shortened,
  // a tool whose name is over the limit stays out of the catalogue (issue 17).
  const tools = gateway.tools().filter((d) => d.id.length <= INPUT_LIMITS.toolName);
  if (tools.length === 0) return 0;
  await credence.addTools(
    tools.map((d) => ({
      id: d.id,
      description: withinLimit(d.tool.description ?? '', 'toolDescription'),
      inputSchema: d.tool.inputSchema,
      origin: `mcp:${d.server}`,
      ...(d.tool.annotations === undefined ? {} : { annotations: d.tool.annotations }),
    })),
  );
  return tools.length;
}

/**
 * What checkServeConfig's messages call the options a caller sets: ServeConfig's fields by default; the CLI passes
 * its flags (`--host`, `--allow-remote`, …). @internal
 */
export interface ServeOptionNames {
  host: string;
  allowRemote: string;
  token: string;
  autoExecuteThreshold: string;
}

const SERVE_FIELD_NAMES: ServeOptionNames = {
  host: 'host',
  allowRemote: 'set allowRemote: true',
  token: 'token',
  autoExecuteThreshold: 'autoExecuteThreshold',
};

/**
 * Refuses a configuration `serve` cannot keep, before anything is opened or listened on.
 * @throws CredenceError INVALID_INPUT naming the field (as `names` spell them): a `mode` other than 'stdio' or
 * 'http', a `port` not a whole number from 0 to 65535, a remote host without `allowRemote` and a long token, a
 * threshold outside [0, 1].
 */
export function checkServeConfig(config: ServeConfig, names: ServeOptionNames = SERVE_FIELD_NAMES): void {
  const mode: unknown = config.mode;
  if (mode !== 'stdio' && mode !== 'http') {
    throw new CredenceError('INVALID_INPUT', `mode must be 'stdio' or 'http', got ${shownValue(mode)}`, {
      details: { mode },
    });
  }
  const port: unknown = config.port;
  if (port !== undefined && !(Number.isInteger(port) && (port as number) >= 0 && (port as number) <= 65535)) {
    throw new CredenceError(
      'INVALID_INPUT',
      `port must be a whole number from 0 to 65535 (0 picks a free port), got ${shownValue(port)}`,
      { details: { port } },
    );
  }
  const host = config.host ?? '127.0.0.1';
  if (config.mode === 'http' && !isLoopback(host)) {
    if (config.allowRemote !== true)
      throw new CredenceError(
        'INVALID_INPUT',
        `${names.host} ${host} is not a loopback address: ${names.allowRemote} (and a bearer token) to serve other ` +
          'machines',
      );
    if (config.token === undefined || config.token.length < 16)
      throw new CredenceError(
        'INVALID_INPUT',
        `serving on ${host} needs a bearer token of at least 16 characters (${names.token})`,
      );
  }
  if (
    config.autoExecuteThreshold !== undefined &&
    !(config.autoExecuteThreshold >= 0 && config.autoExecuteThreshold <= 1)
  ) {
    throw new CredenceError(
      'INVALID_INPUT',
      `${names.autoExecuteThreshold} must be in [0, 1], got ${config.autoExecuteThreshold}`,
    );
  }
}

export async function serve(credence: Credence, config: ServeConfig, io: ServeIO): Promise<void> {
  checkServeConfig(config);
  const log = (line: string): void => io.stderr(`credence: ${line}\n`);
  const sessions = new Set<CredenceMcpSession>();
  const flushes: Promise<void>[] = [];
  let imports: Promise<unknown> = Promise.resolve();
  let gateway: Gateway | undefined;
  if (config.gatewayFile !== undefined) {
    const path = resolve(io.cwd, config.gatewayFile);
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      throw new CredenceError(
        'INVALID_INPUT',
        `cannot read the gateway file ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      );
    }
    // ${CREDENCE_CONFIG_DIR} is the gateway file's folder, so that a path in it (a server's data
    // file) does not depend on the folder each server resolves relative paths against.
    const servers = parseGatewayConfig(text, path, { ...io.env, CREDENCE_CONFIG_DIR: dirname(path) });
    const reimport = (): void => {
      // One import at a time, in order; the clients hear of the change once the catalogue has it.
      imports = imports
        .then(() => (gateway === undefined ? 0 : importGatewayTools(credence, gateway)))
        .catch((error: unknown) => log(`could not import tools: ${(error as Error).message}`))
        .then(() => {
          for (const s of sessions) s.server.sendToolListChanged().catch(() => {});
        });
    };
    gateway = Gateway.create(servers, {
      log,
      ...(config.callTimeoutMs === undefined ? {} : { callTimeoutMs: config.callTimeoutMs }),
      ...(config.connectTimeoutMs === undefined ? {} : { connectTimeoutMs: config.connectTimeoutMs }),
      ...(config.retryMs === undefined ? {} : { retryMs: config.retryMs }),
      ...(config.startWaitMs === undefined ? {} : { startWaitMs: config.startWaitMs }),
      onToolsChanged: reimport,
    });
  }
  // The gateway's servers connect while the server starts listening; listing and calling wait for
  // their first chance (at most startWaitMs), so a slow server never delays `initialize`.
  const connected =
    gateway === undefined
      ? Promise.resolve()
      : (async () => {
          await gateway.connectAll();
          const imported = await importGatewayTools(credence, gateway);
          log(
            `gateway: ${imported} downstream tool${imported === 1 ? '' : 's'} ` +
              `in the catalogue of scope ${credence.scope}`,
          );
        })();
  const ready = connected.catch((error: unknown) => log(`gateway: ${(error as Error).message}`));
  const options: McpServerOptions = { ...config, log, ready };
  const stopSignals = new Promise<void>((done) => {
    const stop = (): void => done();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  const stopped = io.stopped === undefined ? stopSignals : Promise.race([io.stopped, stopSignals]);
  let http: RunningHttpServer | undefined;
  try {
    if (config.mode === 'stdio') {
      const session = createMcpSession(credence, gateway, `stdio-${randomUUID()}`, options);
      sessions.add(session);
      const transport = new StdioServerTransport();
      const closed = new Promise<void>((done) => {
        transport.onclose = () => done();
        process.stdin.once('end', () => done());
        process.stdin.once('close', () => done());
      });
      await session.server.connect(transport);
      // What the transport could not read is said (a line that is no JSON-RPC, a message over the SDK's 10 MiB
      // read buffer, which closes the connection): it ended the server quietly with exit 0 and no answer.
      let fatal: Error | undefined;
      session.server.onerror = (error: Error) => {
        log(`stdio: ${error.message}`);
        if (/exceeded maximum size/i.test(error.message)) fatal = error;
      };
      const inFlight = trackInFlight(transport);
      io.ready?.({});
      // The end of stdin is not the end of the work: a client may write its requests and close its
      // end at once. Everything received is answered before the server stops (a signal stops it now).
      const end = await Promise.race([closed.then(() => 'closed' as const), stopped.then(() => 'stopped' as const)]);
      if (end === 'closed') await Promise.race([inFlight.idle(), stopped]);
      if (fatal !== undefined)
        throw new CredenceError(
          'INPUT_TOO_LARGE',
          `a message on standard input was over the MCP SDK's read buffer (${fatal.message}): the connection ` +
            'was closed; send smaller messages, or serve over HTTP (`credence serve --http`)',
        );
    } else {
      const dashboard =
        config.dashboard === false
          ? undefined
          : createDashboard({ credence, writable: config.token !== undefined, log });
      http = await serveHttp({
        host: config.host ?? '127.0.0.1',
        port: config.port ?? 3001,
        ...(config.token === undefined ? {} : { token: config.token }),
        createSession: (key) => {
          const session = createMcpSession(credence, gateway, key, options);
          sessions.add(session);
          return session;
        },
        onSessionClosed: (_, session) => {
          sessions.delete(session);
          flushes.push(session.recorder.end());
        },
        ...(dashboard === undefined ? {} : { fallback: dashboard.handle, isPublic: dashboard.isPublic }),
        log,
      });
      log(`MCP (Streamable HTTP) at ${http.url}${config.token === undefined ? '' : ' (bearer token required)'}`);
      const dashboardUrl = dashboard === undefined ? undefined : http.url.replace(/\/mcp$/, '/');
      // With a token, the address to open, as the 401 messages name it (ending in #token=<token>).
      if (dashboardUrl !== undefined)
        log(
          `dashboard at ${dashboardUrl}` +
            (config.token === undefined
              ? ' (read-only)'
              : ` (token required: open ${dashboardUrl}#token=<token>, with the server's token in place of <token>)`),
        );
      io.ready?.({ url: http.url, ...(dashboardUrl === undefined ? {} : { dashboard: dashboardUrl }) });
      // Listening: what the dashboard's first /api/ask reads is built now, not when it is asked (issue 20).
      const warming = dashboard?.warm();
      await stopped;
      await warming;
    }
  } finally {
    await http?.close();
    await ready;
    await Promise.all([...flushes, ...[...sessions].map((s) => s.recorder.end())]);
    await Promise.all([...sessions].map((s) => s.server.close().catch(() => {})));
    await imports;
    await gateway?.close();
  }
}
