/**
 * `credence serve` as an MCP server, driven by the real SDK client over stdio and over Streamable
 * HTTP (issue 8): the meta-tools, their results, tool failures as `isError` results, protocol
 * errors for unknown tools and schema-invalid arguments, and the HTTP server's guards.
 */
import { spawnSync } from 'node:child_process';
import { request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import {
  bin,
  httpClient,
  startHttpServer,
  stdioClient,
  structured,
  textOf,
  type HttpServerProcess,
} from '../mcp-helpers.js';
import { storeArgs } from '../pg.js';

const dir = mkdtempSync(join(tmpdir(), 'credence-mcp-'));
const db = join(dir, 'mcp.db');
const NOW = '2026-03-01T09:00:00Z';
const META = [
  'search_tools',
  'execute_dag',
  'suggest_next',
  'recall',
  'observe',
  'record_execution',
  'evolve',
  'feedback',
  'forget',
  'list_workflows',
];

afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function protocolError(promise: Promise<unknown>): Promise<McpError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof McpError) return error;
    throw error;
  }
  throw new Error('expected a protocol error');
}

describe('credence serve --stdio, with the SDK client', () => {
  let client: Client;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ client, close } = await stdioClient([...storeArgs(db), '--scope', 'mcp', '--now', NOW, 'serve', '--stdio'], {
      cwd: dir,
    }));
  });
  afterAll(async () => close());

  it('lists the ten meta-tools, each with a description, an object input schema and annotations', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(META);
    for (const t of tools) {
      expect(t.description?.length ?? 0).toBeGreaterThan(40);
      expect(t.inputSchema.type).toBe('object');
      expect(t.annotations).toBeDefined();
    }
    const search = tools.find((t) => t.name === 'search_tools');
    expect(search?.inputSchema.required).toEqual(['query']);
    expect(search?.annotations?.readOnlyHint).toBe(true);
    expect(tools.find((t) => t.name === 'forget')?.annotations?.destructiveHint).toBe(true);
  });

  it('records, then suggests and searches from it; results are JSON text plus the same structuredContent', async () => {
    const recorded = await client.callTool({
      name: 'record_execution',
      arguments: {
        intent: 'fetch the weather and post it to the team channel',
        calls: [
          { tool: 'weather:get_forecast', status: 'success' },
          { tool: 'slack:post_message', status: 'success', consumes: [0] },
        ],
      },
    });
    expect(recorded.isError).toBeUndefined();
    const value = structured(recorded);
    expect(JSON.parse(textOf(recorded))).toEqual(value);
    expect([...value.newTools].sort()).toEqual(['slack:post_message', 'weather:get_forecast']);
    expect(value.edges.map((e: { type: string }) => e.type).sort()).toEqual(['dependency', 'sequence']);

    const next = structured(
      await client.callTool({ name: 'suggest_next', arguments: { tool: 'weather:get_forecast' } }),
    );
    expect(next.suggestions[0]).toMatchObject({ tool: 'slack:post_message' });
    expect(next.suggestions[0].shownId).toMatch(/^sh-/);

    const search = structured(
      await client.callTool({ name: 'search_tools', arguments: { query: 'post a message to slack', limit: 3 } }),
    );
    expect(search.results[0].tool).toBe('slack:post_message');
    expect(search.results[0].parts).toHaveProperty('similarity');
    expect(search.results[0]).toHaveProperty('alpha');

    const learned = structured(await client.callTool({ name: 'list_workflows', arguments: { limit: 5 } }));
    expect(learned.workflows).toEqual([
      expect.objectContaining({
        tools: ['weather:get_forecast', 'slack:post_message'],
        edges: [['weather:get_forecast', 'slack:post_message']],
        intents: ['fetch the weather and post it to the team channel'],
        runs: 1,
        successRate: 1,
      }),
    ]);
    const tooMany = await protocolError(client.callTool({ name: 'list_workflows', arguments: { limit: 1000 } }));
    expect(tooMany.code).toBe(-32602);
  });

  it("returns a tool's own failure as an isError result with a clear message", async () => {
    const unknown = await client.callTool({
      name: 'execute_dag',
      arguments: { workflow: { tasks: [{ id: 'a', tool: 'nowhere:tool' }] } },
    });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toContain('task \\"a\\" names an unknown tool \\"nowhere:tool\\"');

    const cycle = await client.callTool({
      name: 'execute_dag',
      arguments: {
        workflow: {
          tasks: [
            { id: 'a', tool: 'weather:get_forecast', dependsOn: ['b'] },
            { id: 'b', tool: 'slack:post_message', dependsOn: ['a'] },
          ],
        },
      },
    });
    expect(cycle.isError).toBe(true);
    expect(structured(cycle).error).toMatch(/the tasks form a cycle: (a → b → a|b → a → b)/);

    const badDate = await client.callTool({
      name: 'observe',
      arguments: { type: 'pattern', observation: 'runs tests before commit', timestamp: 'yesterday' },
    });
    expect(badDate.isError).toBe(true);
    expect(structured(badDate).error).toMatch(/timestamp/);

    const blank = await client.callTool({ name: 'observe', arguments: { type: 'pattern', observation: '   ' } });
    expect(blank.isError).toBe(true);

    const noGateway = await client.callTool({
      name: 'execute_dag',
      arguments: { workflow: { tasks: [{ id: 'a', tool: 'weather:get_forecast' }] } },
    });
    expect(noGateway.isError).toBe(true);
    expect(structured(noGateway).error).toMatch(/--gateway/);

    const nothing = await client.callTool({ name: 'execute_dag', arguments: {} });
    expect(nothing.isError).toBe(true);
    expect(structured(nothing).error).toMatch(/needs an "intent"/);
  });

  it('suggest_next on an unknown tool: an isError result naming it, as `credence next` errors (issue 17)', async () => {
    const unknown = await client.callTool({ name: 'suggest_next', arguments: { tool: 'weather:get_forcast' } });
    expect(unknown.isError).toBe(true);
    expect(structured(unknown)).toMatchObject({ code: 'UNKNOWN_TOOL' });
    expect(structured(unknown).error).toContain('"weather:get_forcast"');
  });

  it('keeps protocol errors for an unknown tool and for arguments that do not fit the schema', async () => {
    const unknown = await protocolError(client.callTool({ name: 'no_such_tool', arguments: {} }));
    expect(unknown.code).toBe(ErrorCode.InvalidParams);
    expect(unknown.message).toContain('unknown tool "no_such_tool"');

    const invalid = await protocolError(client.callTool({ name: 'search_tools', arguments: { query: 5 } }));
    expect(invalid.code).toBe(ErrorCode.InvalidParams);
    expect(invalid.message).toMatch(/invalid arguments for search_tools: query/);

    const extra = await protocolError(client.callTool({ name: 'recall', arguments: { query: 'x', colour: 'blue' } }));
    expect(extra.message).toMatch(/colour/);
  });

  it('observes, recalls with labels and a <memory-context> block, evolves (dry run) and forgets', async () => {
    const observed = structured(
      await client.callTool({
        name: 'observe',
        arguments: {
          type: 'correction',
          observation: 'use pnpm instead of npm in this repository',
          confidence: 0.8,
          tags: ['tooling'],
        },
      }),
    );
    expect(observed).toMatchObject({ inserted: 1, duplicates: 0 });
    const again = structured(
      await client.callTool({
        name: 'observe',
        arguments: {
          type: 'correction',
          observation: 'use pnpm instead of npm in this repository',
          confidence: 0.8,
          tags: ['tooling'],
        },
      }),
    );
    expect(again).toMatchObject({ inserted: 0, duplicates: 1 });

    const recalled = structured(
      await client.callTool({ name: 'recall', arguments: { query: 'which package manager, pnpm or npm?' } }),
    );
    expect(recalled.results.length).toBeGreaterThan(0);
    expect(['high', 'medium', 'low']).toContain(recalled.results[0].label);
    expect(recalled.context).toContain('<memory-context');

    const evolved = structured(await client.callTool({ name: 'evolve', arguments: { dry_run: true } }));
    expect(evolved.dryRun).toBe(true);
    expect(evolved.observations).toBeGreaterThan(0);

    // An observation from before the window: the result says it was not read and the since that reads it.
    const old = structured(
      await client.callTool({
        name: 'observe',
        arguments: { type: 'pattern', observation: 'an old habit', timestamp: '2025-12-31T00:00:00Z' },
      }),
    );
    const windowed = structured(await client.callTool({ name: 'evolve', arguments: { dry_run: true, since: '7d' } }));
    expect(windowed.notRead).toMatchObject({ observations: 1, window: '7 days' });
    const wider = structured(
      await client.callTool({ name: 'evolve', arguments: { dry_run: true, since: windowed.notRead.since } }),
    );
    expect(wider.notRead).toBeUndefined();
    expect(wider.observations).toBe(evolved.observations + 1);
    expect((await client.callTool({ name: 'forget', arguments: { id: old.ids[0] } })).isError).toBeUndefined();

    const badSince = await client.callTool({ name: 'evolve', arguments: { since: 'last week' } });
    expect(badSince.isError).toBe(true);
    expect(structured(badSince).error).toMatch(/^since must be a duration/);

    const forgotten = await client.callTool({ name: 'forget', arguments: { id: observed.ids[0] } });
    expect(forgotten.isError).toBeUndefined();
    const missing = await client.callTool({ name: 'forget', arguments: { id: 'no-such-id' } });
    expect(missing.isError).toBe(true);
  });

  it('takes feedback on a shown result, and credence metrics counts it', async () => {
    const search = structured(
      await client.callTool({ name: 'search_tools', arguments: { query: 'weather forecast', limit: 1 } }),
    );
    const shownId = search.results[0].shownId as string;
    const fb = await client.callTool({ name: 'feedback', arguments: { id: shownId, verdict: 'accepted' } });
    expect(fb.isError).toBeUndefined();
    const unknown = await client.callTool({ name: 'feedback', arguments: { id: 'sh-000', verdict: 'accepted' } });
    expect(unknown.isError).toBe(true);
    const metrics = spawnSync(process.execPath, [bin, ...storeArgs(db), '--scope', 'mcp', 'metrics', '--json'], {
      encoding: 'utf8',
    });
    expect(metrics.status).toBe(0);
    const search_ = JSON.parse(metrics.stdout).suggestions.bySurface.find(
      (s: { surface: string }) => s.surface === 'search',
    );
    expect(search_).toMatchObject({ accepted: 1 });
  });
});

describe('credence serve --http (Streamable HTTP at /mcp)', () => {
  const token = 'a-test-token-of-32-characters!!';
  let server: HttpServerProcess;

  beforeAll(async () => {
    server = await startHttpServer(
      [
        ...storeArgs(join(dir, 'http.db')),
        '--scope',
        'http',
        '--now',
        NOW,
        'serve',
        '--http',
        '--port',
        '0',
        '--token',
        token,
      ],
      { cwd: dir },
    );
  });
  afterAll(async () => {
    await server.stop();
  });

  it('serves the SDK client on loopback, with the bearer token', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = await httpClient(server.url, { Authorization: `Bearer ${token}` });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(META);
    const observed = await client.callTool({
      name: 'observe',
      arguments: { type: 'preference', observation: 'prefers small commits' },
    });
    expect(structured(observed)).toMatchObject({ inserted: 1 });
    await client.close();
  });

  it('refuses a client without the token (401) and a foreign Host header (403)', async () => {
    await expect(httpClient(server.url)).rejects.toThrow(/401|token/i);
    const { port } = new URL(server.url);
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: Number(port),
          path: '/mcp',
          method: 'POST',
          headers: {
            host: `evil.example:${port}`,
            authorization: `Bearer ${token}`,
            'content-type': 'application/json',
          },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end('{}');
    });
    expect(status).toBe(403);
  });

  /** One raw HTTP request to the server, for what the SDK client never sends. */
  const raw = (options: {
    path?: string;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
  }): Promise<{ status: number; body: string; headers: Record<string, unknown> }> => {
    const { port } = new URL(server.url);
    return new Promise((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: Number(port),
          path: options.path ?? '/mcp',
          method: options.method ?? 'POST',
          headers: {
            authorization: `Bearer ${token}`,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            ...options.headers,
          },
        },
        (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString('utf8')));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
        },
      );
      req.on('error', reject);
      req.end(options.body ?? '');
    });
  };
  const initialize = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });

  it('answers a body that is not JSON with a JSON-RPC parse error, and a foreign Origin with 403', async () => {
    const bad = await raw({ body: '{not json' });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body).error.code).toBe(-32700);
    const { port } = new URL(server.url);
    // Its own origin, under the loopback name the request was sent to.
    expect((await raw({ body: initialize, headers: { origin: `http://127.0.0.1:${port}` } })).status).toBe(200);
    expect(
      (await raw({ body: initialize, headers: { host: `localhost:${port}`, origin: `http://localhost:${port}` } }))
        .status,
    ).toBe(200);
    const other = Number(port) === 5173 ? 5174 : 5173;
    for (const origin of [
      'https://evil.example',
      `http://localhost:${other}`,
      `http://127.0.0.1:${other}`,
      `http://[::1]:${other}`,
      'http://localhost',
      `https://127.0.0.1:${port}`,
      `http://localhost:${port}`,
      'null',
    ]) {
      // `http://localhost:<port>` from a request sent to 127.0.0.1:<port> is another origin too.
      const page = await raw({ body: initialize, headers: { origin } });
      expect([origin, page.status]).toEqual([origin, 403]);
      expect(JSON.parse(page.body).error.message).toContain(`origin "${origin}" is not allowed`);
    }
    // The dashboard's API follows the same rule.
    expect(
      (await raw({ path: '/api/scopes', method: 'GET', headers: { origin: `http://localhost:${other}` } })).status,
    ).toBe(403);
    expect(
      (await raw({ path: '/api/scopes', method: 'GET', headers: { origin: `http://127.0.0.1:${port}` } })).status,
    ).toBe(200);
  });

  it('answers a request target that is not a path with a 400, and keeps serving', async () => {
    for (const path of ['//a:b', '//%5B', '//', '//a:b/mcp']) {
      for (const method of ['GET', 'POST']) {
        const r = await raw({ path, method, body: method === 'POST' ? initialize : '' });
        expect([path, method, r.status]).toEqual([path, method, 400]);
        expect(JSON.parse(r.body).error.message).toContain(`the request target ${JSON.stringify(path)} is not a path`);
      }
    }
    expect(server.child.exitCode).toBeNull();
    // The same process still serves MCP and the dashboard.
    expect((await raw({ body: initialize })).status).toBe(200);
    expect((await raw({ path: '/graph', method: 'GET' })).status).toBe(200);
    const client = await httpClient(server.url, { Authorization: `Bearer ${token}` });
    expect((await client.listTools()).tools).toHaveLength(META.length);
    await client.close();
    expect(server.stderr()).not.toMatch(/ERR_INVALID_URL|TypeError/);
  });

  it('accepts the bearer scheme in any case, and ends a session on DELETE', async () => {
    const started = await raw({ body: initialize, headers: { authorization: `bearer ${token}` } });
    expect(started.status).toBe(200);
    const id = String(started.headers['mcp-session-id']);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const ended = await raw({ method: 'DELETE', headers: { 'mcp-session-id': id } });
    expect(ended.status).toBe(200);
    const after = await raw({
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
      headers: { 'mcp-session-id': id },
    });
    expect(after.status).toBe(404);
  });

  it('says which port is in use, before starting anything', () => {
    const { port } = new URL(server.url);
    const r = spawnSync(process.execPath, [bin, ...storeArgs(join(dir, 'busy.db')), 'serve', '--port', port], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', HOME: dir },
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`port ${port} on 127.0.0.1 is in use`);
  });

  it('refuses HTTP flags with --stdio', () => {
    const r = spawnSync(
      process.execPath,
      [bin, ...storeArgs(join(dir, 'stdio.db')), 'serve', '--stdio', '--port', '4000'],
      { encoding: 'utf8', input: '', env: { PATH: process.env.PATH ?? '', HOME: dir } },
    );
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--stdio serves no HTTP: drop --port/);
  });

  it('refuses a non-loopback host without --allow-remote, and without a token', () => {
    const run = (args: string[]) =>
      spawnSync(process.execPath, [bin, ...storeArgs(join(dir, 'remote.db')), 'serve', ...args], {
        encoding: 'utf8',
        env: { PATH: process.env.PATH ?? '', HOME: dir },
      });
    const noFlag = run(['--host', '0.0.0.0', '--port', '0']);
    expect(noFlag.status).toBe(2);
    expect(noFlag.stderr).toMatch(/not a loopback address: add --allow-remote/);
    const noToken = run(['--host', '0.0.0.0', '--port', '0', '--allow-remote']);
    expect(noToken.status).toBe(2);
    expect(noToken.stderr).toMatch(/needs a bearer token/);
  });
});
