/**
 * @module bench/gateway
 * What the gateway adds to a tool call (issue 8, target ≤ 2 ms median): the same `echo` tool of
 * the test MCP server, called by the SDK client directly over stdio and through
 * `credence serve --stdio --gateway` (a second stdio hop, routing, and recording the call into the
 * session's execution). Rounds alternate between the two so that machine noise hits both alike.
 *
 * The cost of recording one proxied call as a session grows (issue 20): the gateway appends each call to
 * the session's execution (mcp/session), so the append at the 20,000th call must cost what it costs at the
 * 120th. Measured in process, one call per append as an unhurried session writes them, after the session
 * was filled to its size in one append. Reference: one call row inserted raw, one transaction each.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import Database from 'better-sqlite3';
import { openCredence } from '../src/engine/engine.js';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.js';
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

const SESSION_TOOLS = Array.from({ length: 12 }, (_, i) => `test:tool_${i}`);

/** The k-th call of a synthetic session: a walk over a dozen tools, a failure now and then. */
function sessionCall(k: number, at: number) {
  const tool = SESSION_TOOLS[(k * 7 + Math.floor(k / 5)) % SESSION_TOOLS.length] as string;
  return { tool, status: k % 37 === 36 ? ('failure' as const) : ('success' as const), durationMs: 3, at };
}

/** Median ms of one raw call-row insert in its own transaction, after `prefill` rows of one execution. */
function rawCallInsert(path: string, prefill: number, appends: number): number {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(
    'CREATE TABLE calls (execution_id TEXT, idx INTEGER, tool TEXT, status TEXT, at INTEGER, ' +
      'PRIMARY KEY (execution_id, idx))',
  );
  const insert = db.prepare('INSERT INTO calls VALUES (?, ?, ?, ?, ?)');
  db.transaction(() => {
    for (let k = 0; k < prefill; k += 1) insert.run('s', k, SESSION_TOOLS[k % 12], 'success', k);
  })();
  const one = db.transaction((k: number) => insert.run('s', k, SESSION_TOOLS[k % 12], 'success', k));
  const times: number[] = [];
  for (let k = prefill; k < prefill + appends; k += 1) {
    const t = performance.now();
    one(k);
    times.push(performance.now() - t);
  }
  db.close();
  return median(times);
}

export async function benchGatewaySession(
  options: { sizes?: readonly number[]; appends?: number } = {},
): Promise<BenchRow[]> {
  const sizes = options.sizes ?? [120, 10_000, 20_000];
  const appends = options.appends ?? 60;
  const dir = mkdtempSync(join(tmpdir(), 'credence-bench-session-'));
  const rows: BenchRow[] = [];
  const perCall: number[] = [];
  try {
    for (const size of sizes) {
      const start = 1_780_000_000_000;
      const credence = await openCredence({
        store: openSqliteStore({ path: join(dir, `session-${size}.db`) }),
        scope: 'bench',
        now: start + 10_000_000,
      });
      const head = { id: 'mcp-bench-1', intent: 'MCP session (bench)', startedAt: start };
      await credence.appendCalls(
        head,
        Array.from({ length: size }, (_, k) => sessionCall(k, start + k * 10)),
      );
      const times: number[] = [];
      for (let k = size; k < size + appends; k += 1) {
        const t = performance.now();
        await credence.appendCalls(head, [sessionCall(k, start + k * 10)]);
        times.push(performance.now() - t);
      }
      await credence.close();
      const ms = median(times);
      perCall.push(ms);
      const first = perCall[0] as number;
      const raw = rawCallInsert(join(dir, `raw-${size}.db`), size, appends);
      rows.push({
        benchmark: `gateway session, one call recorded at ${size.toLocaleString('en-US')} calls in`,
        measure: `median of ${appends} appends`,
        value: `${ms.toFixed(3)} ms`,
        reference: `raw call-row insert ${raw.toFixed(3)} ms; at ${sizes[0]} calls ${first.toFixed(3)} ms`,
        ratio: `${(ms / raw).toFixed(1)}× raw, ${(ms / first).toFixed(2)}× at ${sizes[0]}`,
        target: `≤ 1 ms: ${ms <= 1 ? 'met' : 'NOT met'}`,
      });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}
