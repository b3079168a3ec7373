/**
 * @module bench/gateway
 * What the gateway adds to a tool call (issue 8, target ≤ 2 ms median): the same `echo` tool of
 * the test MCP server, called by the SDK client directly over stdio and through
 * `credence serve --stdio --gateway` (a second stdio hop, routing, and recording the call into the
 * session's execution). Rounds alternate between the two so that machine noise hits both alike.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { median, type BenchRow } from './table.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const testServer = join(root, 'test/fixtures/mcp/test-server.mjs');
const bin = join(root, 'bin/credence.cjs');

async function connect(command: string, args: string[], cwd: string): Promise<Client> {
  const client = new Client({ name: 'credence-bench', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command, args, cwd, env: { HOME: cwd }, stderr: 'ignore' }));
  return client;
}

async function timeCalls(client: Client, name: string, calls: number, out: number[]): Promise<void> {
  for (let i = 0; i < calls; i += 1) {
    const t0 = performance.now();
    await client.callTool({ name, arguments: { text: `call ${i}` } });
    out.push(performance.now() - t0);
  }
}

const quantile = (values: readonly number[], q: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
};

export async function benchGateway(options: { rounds?: number; calls?: number } = {}): Promise<BenchRow[]> {
  const rounds = options.rounds ?? 5;
  const calls = options.calls ?? 200;
  const dir = mkdtempSync(join(tmpdir(), 'credence-bench-gateway-'));
  writeFileSync(
    join(dir, 'servers.json'),
    JSON.stringify({ mcpServers: { test: { command: process.execPath, args: [testServer] } } }),
  );
  const direct = await connect(process.execPath, [testServer], dir);
  const gateway = await connect(
    process.execPath,
    [bin, '--db', join(dir, 'bench.db'), '--scope', 'bench', 'serve', '--stdio', '--gateway', 'servers.json'],
    dir,
  );
  try {
    // Warm both paths (JIT, the first SQLite write) before measuring.
    await timeCalls(direct, 'echo', 50, []);
    await timeCalls(gateway, 'test:echo', 50, []);
    const viaDirect: number[] = [];
    const viaGateway: number[] = [];
    for (let r = 0; r < rounds; r += 1) {
      await timeCalls(direct, 'echo', calls, viaDirect);
      await timeCalls(gateway, 'test:echo', calls, viaGateway);
    }
    const added = median(viaGateway) - median(viaDirect);
    return [
      {
        benchmark: `gateway, ${rounds * calls} calls of test:echo over stdio`,
        measure: 'median added per call',
        value: `${added.toFixed(3)} ms`,
        reference: `direct ${median(viaDirect).toFixed(3)} ms, via gateway ${median(viaGateway).toFixed(3)} ms`,
        ratio: `${(median(viaGateway) / median(viaDirect)).toFixed(2)}×`,
        target: `≤ 2 ms: ${added <= 2 ? 'met' : 'not met'}`,
      },
      {
        benchmark: 'gateway, same calls',
        measure: 'p95 per call',
        value: `${quantile(viaGateway, 0.95).toFixed(3)} ms`,
        reference: `direct p95 ${quantile(viaDirect, 0.95).toFixed(3)} ms`,
        ratio: `${(quantile(viaGateway, 0.95) / quantile(viaDirect, 0.95)).toFixed(2)}×`,
        target: '—',
      },
    ];
  } finally {
    await direct.close();
    await gateway.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
