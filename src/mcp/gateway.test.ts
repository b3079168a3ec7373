/**
 * The gateway in front of a real downstream server (test/fixtures/mcp/raw-server.mjs, started over stdio): a JSON-RPC
 * error the server answered (its handler threw, its argument check refused the call) is the tool's failure, learned
 * like an isError result; what the gateway failed at (a timeout, a call cut short) is not learned (walk 4 item 2).
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCredence } from '../engine/engine.js';
import { openSqliteStore } from '../store/sqlite/index.js';
import { Gateway, isGatewayError } from './gateway.js';
import { inProcessClient, textOf } from '../../test/mcp-helpers.js';

const rawServer = fileURLToPath(new URL('../../test/fixtures/mcp/raw-server.mjs', import.meta.url));
let gateway: Gateway;

beforeAll(async () => {
  gateway = await Gateway.start(
    [{ name: 'raw', kind: 'stdio', command: process.execPath, args: [rawServer], env: {}, timeoutMs: 1000 }],
    { retryMs: 600_000 },
  );
  expect(gateway.status()).toEqual([{ server: 'raw', state: 'connected', tools: 9 }]);
});
afterAll(async () => gateway.close());

describe('a JSON-RPC error the downstream server answered is the tool failing', () => {
  it('a handler that throws (-32603), a refused argument (-32602): failed calls, not gateway errors', async () => {
    const thrown = await gateway.call('raw:thrower', {});
    expect(thrown.isError).toBe(true);
    expect(isGatewayError(thrown)).toBe(false);
    expect(textOf(thrown)).toBe('server "raw" answered "thrower" with an error: MCP error -32603: thrower exploded');
    const refused = await gateway.call('raw:checked', {});
    expect(refused.isError).toBe(true);
    expect(isGatewayError(refused)).toBe(false);
    expect(textOf(refused)).toContain('MCP error -32602: count: a number is required');
    expect((await gateway.call('raw:checked', { count: 2 })).isError).toBeUndefined();
  });

  // A review: a tool whose own fetch failed answered "fetch failed", read as the connection lost: the healthy
  // server was marked unavailable, and the SDK's own refusal before sending (-32600) was learned as the tool's.
  it('an answer reading like a lost connection is the tool failing; the SDK refusing to send is not', async () => {
    const fetched = await gateway.call('raw:fetcher', {});
    expect(isGatewayError(fetched)).toBe(false);
    expect(textOf(fetched)).toContain('MCP error -32603: fetch failed');
    expect(gateway.status()).toEqual([{ server: 'raw', state: 'connected', tools: 9 }]);
    expect(textOf(await gateway.call('raw:echo', { text: 'still here' }))).toBe('still here');
    const refused = await gateway.call('raw:long_job', {});
    expect(isGatewayError(refused)).toBe(true);
    expect(textOf(refused)).toContain('-32600');
  });

  // Review C: the code alone decided, but a server may answer the SDK's codes with its own message (-32000 is many
  // servers' generic error), and the client refuses a result that breaks the tool's own output schema after it came.
  it('a server’s own -32000, a result breaking its output schema: the tool failing; a name is no timeout', async () => {
    const coded = await gateway.call('raw:coded', {});
    expect(isGatewayError(coded)).toBe(false);
    expect(textOf(coded)).toContain('MCP error -32000: upstream API: fetch failed');
    expect(gateway.status()).toEqual([{ server: 'raw', state: 'connected', tools: 9 }]);
    const shaped = await gateway.call('raw:shaped', {});
    expect(isGatewayError(shaped)).toBe(false);
    expect(textOf(shaped)).toContain('has an output schema but did not return structured content');
    const named = await gateway.call('raw:set_timeout', {});
    expect(isGatewayError(named)).toBe(true);
    expect(textOf(named)).toContain('failed on "set_timeout"');
  });

  it('a timeout and a call cut short stay the gateway’s errors, and the server keeps serving', async () => {
    const late = await gateway.call('raw:sleep', { ms: 3000 });
    expect(isGatewayError(late)).toBe(true);
    expect(textOf(late)).toBe('server "raw" did not answer "sleep" within 1000 ms');
    const abort = new AbortController();
    const cut = gateway.call('raw:sleep', { ms: 3000 }, { signal: abort.signal });
    setTimeout(() => abort.abort(), 50);
    expect(isGatewayError(await cut)).toBe(true);
    expect(textOf(await gateway.call('raw:echo', { text: 'still here' }))).toBe('still here');
  });

  it('a session learns the throw as a failure, and execute_dag records the run in which it threw', async () => {
    const store = openSqliteStore({ path: ':memory:' });
    const credence = await openCredence({ store, scope: 'p', now: Date.parse('2026-02-02T09:00:00Z') });
    const { client, session } = await inProcessClient(credence, gateway);
    try {
      await client.callTool({ name: 'raw:thrower', arguments: {} });
      await client.callTool({ name: 'raw:echo', arguments: { text: 'after' } });
      await session.recorder.end();
      const [sessionRun] = await credence.runs();
      expect(sessionRun?.nodes.map((n) => [n.tool, n.status])).toEqual([
        ['raw:thrower', 'failure'],
        ['raw:echo', 'success'],
      ]);

      const dag = await client.callTool({
        name: 'execute_dag',
        arguments: {
          intent: 'throw then echo',
          workflow: {
            tasks: [
              { id: 'a', tool: 'raw:thrower', arguments: {} },
              { id: 'b', tool: 'raw:echo', arguments: { text: 'z' }, dependsOn: ['a'] },
            ],
          },
        },
      });
      expect(dag.isError).toBe(true);
      expect(dag.structuredContent).toMatchObject({ recorded: true });
      const dagRun = (await credence.runs()).find((r) => r.intent === 'throw then echo');
      expect(dagRun?.nodes.map((n) => [n.tool, n.status])).toEqual([['raw:thrower', 'failure']]);
      expect(dagRun?.summary).toBe('0 of 2 tasks succeeded; a failed, b skipped (dependency "a" failed)');
    } finally {
      await client.close();
      await credence.close();
    }
  });
});
