/**
 * Walk 5: with `credence serve` on a team store, the PostgreSQL server stopped, the dashboard answered 500 INTERNAL
 * "an internal error (Error ECONNREFUSED)" and MCP the same: an outage Credence expects, reported as a bug. Now both
 * say the store is unreachable (STORE_UNAVAILABLE, 503), to retry later, and answer again once the server is back.
 */
import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isCredenceError } from '../../src/core/errors.js';
import { openCredence, type Credence } from '../../src/engine/engine.js';
import { serveHttp, type RunningHttpServer } from '../../src/mcp/http.js';
import { openPgStore, type PgStore } from '../../src/store/postgres/pg-store.js';
import { createDashboard } from '../../src/web/server.js';
import { inProcessClient } from '../mcp-helpers.js';
import { pgSchemas, pgTestUrl } from '../pg.js';

const url = pgTestUrl('the team store outage test');
const schema = pgSchemas(url);

/** A TCP relay to the test server that can be taken down (its connections cut) and brought back on its port. */
function relay(target: URL): { start: (port?: number) => Promise<number>; stop: () => Promise<void> } {
  let server: Server | undefined;
  const sockets = new Set<Socket>();
  return {
    start: async (port = 0) => {
      server = createServer((socket) => {
        const upstream = connect(Number(target.port || 5432), target.hostname);
        for (const s of [socket, upstream]) {
          sockets.add(s);
          s.on('error', () => {});
          s.on('close', () => sockets.delete(s));
        }
        socket.pipe(upstream).pipe(socket);
      });
      await new Promise<void>((resolve) => server?.listen(port, '127.0.0.1', resolve));
      return (server.address() as AddressInfo).port;
    },
    stop: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server?.close(resolve));
    },
  };
}

describe.skipIf(url === undefined)('a team store whose server goes down while served', () => {
  // A skipped describe's body still runs when the tests are collected: no URL is no URL to parse.
  const target = new URL(url ?? 'postgres://localhost/skipped');
  const proxy = relay(target);
  let port = 0;
  let credence: Credence;
  let store: PgStore;
  let http: RunningHttpServer;
  beforeAll(async () => {
    port = await proxy.start();
    const through = new URL(target.href);
    through.hostname = '127.0.0.1';
    through.port = String(port);
    store = await openPgStore({ url: through.href, schema: schema(), connectTimeoutMs: 1000 });
    credence = await openCredence({ store, scope: 'p', now: '2026-02-02T09:00:00Z' });
    await credence.addTools([{ id: 'read_file', description: 'Read a file from disk' }]);
    const dashboard = createDashboard({ credence, log: () => {} });
    http = await serveHttp({
      host: '127.0.0.1',
      port: 0,
      createSession: () => {
        throw new Error('no MCP here');
      },
      fallback: dashboard.handle,
      isPublic: dashboard.isPublic,
    });
  });
  afterAll(async () => {
    await http?.close();
    await credence?.close();
    await proxy.stop();
  });

  it('is a 503 and an MCP STORE_UNAVAILABLE naming it unreachable; both answer once it is back', async () => {
    const api = () => fetch(`${http.url.replace(/\/mcp$/, '')}/api/runs`);
    const { client } = await inProcessClient(credence, undefined, { log: () => {} });
    const listed = () => client.callTool({ name: 'list_workflows', arguments: {} });
    expect((await api()).status).toBe(200);
    expect((await listed()).isError).not.toBe(true);

    await proxy.stop();
    const down = await api();
    expect(down.status).toBe(503);
    const { error } = (await down.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe('STORE_UNAVAILABLE');
    expect(error.message).toMatch(/^the PostgreSQL store at postgres:\/\/\S+ is unreachable \([^)]+\): /);
    expect(error.message).toMatch(/: the server is down or out of reach; retry later$/);
    const result = await listed();
    expect(result.isError).toBe(true);
    const body = JSON.parse((result.content as { text: string }[])[0]?.text ?? '') as { error: string; code: string };
    expect(body.code).toBe('STORE_UNAVAILABLE');
    expect(body.error).toContain('is unreachable');

    await proxy.start(port);
    expect((await api()).status).toBe(200);
    expect((await listed()).isError).not.toBe(true);
    await client.close();
  }, 30_000);

  // Fix B.2: exportRows (what `credence dump` reads) returns rows as a stream, not a promise, and was left out of the
  // wrapper: a server down before or during a dump surfaced as an internal driver error.
  it('a dump begun or going on when it is down is STORE_UNAVAILABLE, unreachable; back, it dumps', async () => {
    await credence.addTools([{ id: 'write_file', description: 'Write a file to disk' }]);
    const unreachable = async (rows: AsyncIterator<unknown>) => {
      const failed = await rows.next().catch((e: unknown) => e);
      expect(isCredenceError(failed, 'STORE_UNAVAILABLE') && failed.message).toMatch(
        /^the PostgreSQL store at postgres:\/\/\S+ is unreachable \([^)]+\): the server is down .*; retry later$/,
      );
    };
    const going = store.exportRows('tools', { batchSize: 1 })[Symbol.asyncIterator]();
    expect((await going.next()).done).toBe(false);
    await proxy.stop();
    await unreachable(going);
    await unreachable(store.exportRows('tools')[Symbol.asyncIterator]());

    await proxy.start(port);
    const ids: unknown[] = [];
    for await (const batch of store.exportRows('tools')) ids.push(...batch.map((row) => row.id));
    expect(ids).toEqual(['read_file', 'write_file']);
  }, 30_000);
});
