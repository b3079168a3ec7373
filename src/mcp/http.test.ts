import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { openCredence, type Credence } from '../engine/engine.js';
import { openSqliteStore } from '../store/sqlite/index.js';
import { oneLine, serveHttp, type RunningHttpServer } from './http.js';
import { createMcpSession, type CredenceMcpSession } from './server.js';
import type { SessionRecorder } from '../mcp/session.js';

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'squatter', version: '1' } },
};

/** What a local process needs to hold a session: one initialize, then nothing. Returns the session id. */
async function openIdleSession(url: string): Promise<string> {
  const res = await fetch(url, { method: 'POST', headers: HEADERS, body: JSON.stringify(INITIALIZE) });
  await res.text();
  const id = res.headers.get('mcp-session-id');
  if (res.status !== 200 || id === null) throw new Error(`initialize answered ${res.status}`);
  return id;
}

/** A request on an open session; its HTTP status (404 once the session is gone). */
async function ping(url: string, session: string): Promise<number> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { ...HEADERS, 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }),
  });
  await res.text();
  return res.status;
}

let running: RunningHttpServer | undefined;
let credence: Credence | undefined;
afterEach(async () => {
  await running?.close();
  await credence?.close();
  running = undefined;
  credence = undefined;
});

describe('the HTTP transport at its session cap (issue 17, red-team 8)', () => {
  it("64 idle sessions of another local process don't lock out a new client: the idlest one is closed", async () => {
    credence = await openCredence({
      store: openSqliteStore({ path: ':memory:' }),
      scope: 'http',
      now: '2026-03-01T09:00:00Z',
    });
    await credence.addTools([{ id: 'read_file', description: 'Read a file from disk' }]);
    let clock = 1_000_000;
    const closed: string[] = [];
    const lines: string[] = [];
    const engine = credence;
    running = await serveHttp({
      host: '127.0.0.1',
      port: 0,
      now: () => clock,
      createSession: (key) => createMcpSession(engine, undefined, key),
      onSessionClosed: (key) => closed.push(key),
      log: (line) => lines.push(line),
    });
    const url = running.url;
    const squatted: string[] = [];
    for (let i = 0; i < 64; i += 1) {
      clock += 1000;
      squatted.push(await openIdleSession(url));
    }
    expect(running.sessions()).toBe(64);
    // The first one was used again last: the second is now the least recently used.
    clock += 1000;
    expect(await ping(url, squatted[0] as string)).toBe(200);

    clock += 1000;
    const client = new Client({ name: 'real-client', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('search_tools');
    const found = await client.callTool({ name: 'search_tools', arguments: { query: 'read a file' } });
    expect(found.isError).toBeUndefined();

    expect(running.sessions()).toBe(64);
    expect(closed).toEqual([squatted[1]]);
    expect(await ping(url, squatted[1] as string)).toBe(404);
    expect(await ping(url, squatted[0] as string)).toBe(200);
    // Opened at 1,002,000 ms, closed at 1,066,000 ms by the clock the server was given.
    expect(lines).toEqual([
      `http: 64 MCP sessions open; closing session ${squatted[1]}, unused for 64 s, for a new client`,
    ]);
    await client.close();
  });

  it('never closes a session with a request in progress: when every session is busy, a new one gets 503', async () => {
    let release = (): void => {};
    const held = new Promise<void>((done) => (release = done));
    let started = 0;
    // Sessions whose only tool waits until the test lets it go.
    const holdingSession = (): CredenceMcpSession => {
      const server = new Server({ name: 'hold', version: '1' }, { capabilities: { tools: {} } });
      server.setRequestHandler(ListToolsRequestSchema, async () => ({
        tools: [{ name: 'hold', inputSchema: { type: 'object' } }],
      }));
      server.setRequestHandler(CallToolRequestSchema, async () => {
        started += 1;
        await held;
        return { content: [{ type: 'text', text: 'done' }] };
      });
      return { server, recorder: {} as SessionRecorder };
    };
    running = await serveHttp({ host: '127.0.0.1', port: 0, maxSessions: 2, createSession: holdingSession });
    const url = running.url;
    const clients = [new Client({ name: 'a', version: '1' }), new Client({ name: 'b', version: '1' })];
    for (const c of clients) await c.connect(new StreamableHTTPClientTransport(new URL(url)));
    const calls = clients.map((c) => c.callTool({ name: 'hold', arguments: {} }));
    while (started < 2) await new Promise((r) => setTimeout(r, 5));

    const refused = await fetch(url, { method: 'POST', headers: HEADERS, body: JSON.stringify(INITIALIZE) });
    expect(refused.status).toBe(503);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(
      /too many open MCP sessions \(2\), each with a request in progress/,
    );

    release();
    for (const result of await Promise.all(calls)) expect(result.content).toEqual([{ type: 'text', text: 'done' }]);
    // Once their answers are sent, they are idle again: a new client gets in.
    expect(await openIdleSession(url)).toMatch(/^[0-9a-f-]{36}$/);
    expect(running.sessions()).toBe(2);
    for (const c of clients) await c.close().catch(() => {});
  });
});

describe('the HTTP transport when a handler fails (issue 17, red-team 4)', () => {
  const CAUSE = 'duplicate key value violates unique constraint: Key (id)=(sk-live-stored-value) already exists';
  const failing = (where: 'session' | 'fallback'): Promise<RunningHttpServer> =>
    serveHttp({
      host: '127.0.0.1',
      port: 0,
      createSession: () => {
        if (where === 'session') throw Object.assign(new Error(CAUSE), { code: '23505' });
        throw new Error('no session in this test');
      },
      fallback: () => {
        if (where === 'fallback') throw new TypeError(CAUSE);
        return false;
      },
      log: (line) => lines.push(line),
    });
  let lines: string[] = [];

  it('an MCP session that cannot be made gets a 500 naming class and code, its message in the log only', async () => {
    lines = [];
    running = await failing('session');
    const res = await fetch(running.url, { method: 'POST', headers: HEADERS, body: JSON.stringify(INITIALIZE) });
    const body = (await res.json()) as { error: { code: number; message: string } };
    expect(res.status).toBe(500);
    expect(body.error.code).toBe(-32603);
    expect(body.error.message).toContain('an internal error (Error 23505)');
    expect(JSON.stringify(body)).not.toContain('sk-live-stored-value');
    expect(lines.join('\n')).toContain(CAUSE);
  });

  it('answers a failing page handler with the same short line', async () => {
    lines = [];
    running = await failing('fallback');
    const res = await fetch(running.url.replace('/mcp', '/graph'));
    const text = await res.text();
    expect(res.status).toBe(500);
    expect(text).toContain('an internal error (TypeError)');
    expect(text).not.toContain('sk-live-stored-value');
    expect(lines.join('\n')).toContain(CAUSE);
  });
});

describe('oneLine (issue 17 leftover: linear time)', () => {
  /** The former implementation, quadratic on long runs of blanks: the oracle. */
  const oracle = (e: Error): string => {
    const at = /\n\s*at (.+)/.exec(e.stack ?? '')?.[1];
    return `${e.name}: ${e.message}${at === undefined ? '' : ` (at ${at})`}`.replace(/\s*\n\s*/g, ' ');
  };
  const errorWith = (message: string, stack: string): Error => {
    const e = new Error(message);
    e.stack = stack;
    return e;
  };
  const piece = fc.constantFrom('\n', ' ', '\t', '\r', '\u2028', 'at', 'at ', 'a', 'x', ' at x');

  it('gives the same line as the former patterns on every short message and stack', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 16 }), fc.array(piece, { maxLength: 16 }), (message, stack) => {
        const e = errorWith(message.join(''), stack.join(''));
        expect(oneLine(e)).toBe(oracle(e));
      }),
      { numRuns: 3000 },
    );
    expect(oneLine(new Error('boom'))).toMatch(/^Error: boom \(at .+http\.test\.ts:\d+:\d+\)?/);
  });

  it('reads 200,000 blanks with no line break, and 200,000 blank lines, through the real function', () => {
    const blanks = ' '.repeat(200_000);
    expect(oneLine(errorWith(`${blanks}x`, `Error: ${blanks}x\n    at here (f.ts:1:1)`))).toBe(
      `Error: ${blanks}x (at here (f.ts:1:1))`,
    );
    const lines = '\n'.repeat(200_000);
    expect(oneLine(errorWith(`a${lines}b`, `Error: a${lines}b`))).toBe('Error: a b');
  });
});
