/**
 * `credence serve --gateway` in front of real MCP servers installed from npm
 * (`@modelcontextprotocol/server-filesystem` on a temp folder, `@modelcontextprotocol/server-memory`)
 * and a small test server whose tools fail, hang and crash (issue 8): the ADR-026 scenario end to
 * end, explicit DAGs with references, learning from proxied calls, and a downstream server that
 * dies or times out while the others keep serving.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { engineStore, openCredence } from '../../src/engine/engine.js';
import { bin, nodeModules, startHttpServer, stdioClient, structured, testServer, textOf } from '../mcp-helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'credence-gateway-'));
const files = join(dir, 'files');
const NOW = '2026-03-01T09:00:00Z';
const DENO = '{ "tasks": { "dev": "deno run --watch main.ts" } }\n';
afterAll(() => rmSync(dir, { recursive: true, force: true }));

mkdirSync(files);
writeFileSync(join(files, 'deno.json'), DENO);
writeFileSync(join(files, 'pointer.txt'), join(files, 'deno.json'));
const servers = {
  mcpServers: {
    filesystem: {
      command: process.execPath,
      args: [join(nodeModules, '@modelcontextprotocol/server-filesystem/dist/index.js'), files],
    },
    memory: {
      command: process.execPath,
      args: [join(nodeModules, '@modelcontextprotocol/server-memory/dist/index.js')],
      env: { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') },
    },
    test: { command: process.execPath, args: [testServer] },
    broken: { command: join(dir, 'no-such-program') },
  },
};
writeFileSync(join(dir, 'servers.json'), JSON.stringify(servers));

// --retry-after: a dead server is not started again within a test unless the test says so.
const gatewayArgs = (db: string, ...extra: string[]) => [
  '--db',
  join(dir, db),
  '--scope',
  'gw',
  '--now',
  NOW,
  'serve',
  '--stdio',
  '--gateway',
  'servers.json',
  '--call-timeout',
  '1000',
  '--retry-after',
  '600000',
  ...extra,
];
writeFileSync(join(dir, 'test-only.json'), JSON.stringify({ mcpServers: { test: servers.mcpServers.test } }));
const testOnlyArgs = (db: string, ...extra: string[]) => [
  '--db',
  join(dir, db),
  '--scope',
  'gw',
  '--now',
  NOW,
  'serve',
  '--stdio',
  '--gateway',
  'test-only.json',
  ...extra,
];

async function withStore<T>(db: string, fn: (c: Awaited<ReturnType<typeof openCredence>>) => Promise<T>): Promise<T> {
  const credence = await openCredence({ db: join(dir, db), scope: 'gw', now: NOW });
  try {
    return await fn(credence);
  } finally {
    await credence.close();
  }
}

describe('the gateway in front of server-filesystem, server-memory and a test server', () => {
  let client: Client;
  let close: () => Promise<void>;
  let stderr: () => string;

  beforeAll(async () => {
    ({ client, close, stderr } = await stdioClient(gatewayArgs('gw.db'), { cwd: dir }));
  });
  afterAll(async () => close());

  it('lists meta-tools, then downstream tools as server:tool; a broken server is reported, not fatal', async () => {
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names.slice(0, 9)).toContain('execute_dag');
    expect(names).toContain('filesystem:read_text_file');
    expect(names).toContain('memory:read_graph');
    expect(names).toContain('test:echo');
    expect(names.some((n) => n.startsWith('broken:'))).toBe(false);
    expect(stderr()).toMatch(/server "broken" is unavailable/);
  });

  it('imports downstream tools into the catalogue with description, input schema, origin and annotations', async () => {
    const tool = await withStore('gw.db', (c) => engineStore(c).getTool('gw', 'filesystem:read_text_file'));
    expect(tool?.description).toMatch(/Read the complete contents of a file/);
    expect(tool?.origin).toBe('mcp:filesystem');
    expect(tool?.inputSchema).toMatchObject({ type: 'object', properties: { path: { type: 'string' } } });
    expect(tool?.annotations).toMatchObject({ readOnlyHint: true });
  });

  it('ADR-026: cold start suggests, not runs, filesystem:read_text_file for "Read the deno.json file"', async () => {
    const s = structured(
      await client.callTool({ name: 'execute_dag', arguments: { intent: 'Read the deno.json file' } }),
    );
    expect(s.mode).toBe('suggestion');
    expect(s.dag.tasks.map((t: { tool: string }) => t.tool)).toContain('filesystem:read_text_file');
    expect(s.tier).toBe('cold-start');
    expect(s.weights).toEqual({ hybrid: 0.85, pageRank: 0.05, path: 0.1 });
    expect(s.confidence).toBeCloseTo(0.85 * s.parts.hybrid + 0.05 * s.parts.pageRank + 0.1 * s.parts.pathStrength, 10);
    expect('warning' in s).toBe(s.confidence < 0.5);
    expect(s.executed).toBe(false);
    expect(s.notExecutedBecause.join(' ')).toMatch(/below the threshold 0.85/);
    expect(s.shownId).toMatch(/^sh-/);

    const fb = await client.callTool({ name: 'feedback', arguments: { id: s.shownId, verdict: 'accepted' } });
    expect(fb.isError).toBeUndefined();
    const metrics = spawnSync(
      process.execPath,
      [bin, '--db', join(dir, 'gw.db'), '--scope', 'gw', 'metrics', '--json'],
      { encoding: 'utf8' },
    );
    const dag = JSON.parse(metrics.stdout).suggestions.bySurface.find((x: { surface: string }) => x.surface === 'dag');
    expect(dag).toMatchObject({ shown: 1, accepted: 1, precision: 1 });
  });

  it('gives the cold-start warning exactly when the confidence is below 0.50', async () => {
    let suggestions = 0;
    for (const intent of ['Read the deno.json file', 'remember that Alice works at Acme', 'zebra quantum marmalade']) {
      const s = structured(await client.callTool({ name: 'execute_dag', arguments: { intent, execute: false } }));
      if (s.mode !== 'suggestion') continue;
      suggestions += 1;
      expect('warning' in s).toBe(s.confidence < 0.5);
      if (s.confidence < 0.5)
        expect(s.warning).toBe(
          'Low confidence suggestion - graph is in cold start mode. Confidence may improve with usage.',
        );
    }
    expect(suggestions).toBeGreaterThanOrEqual(2);
  });

  it('answers a call to a tool its connected server lacks with a protocol error, and learns nothing', async () => {
    await expect(client.callTool({ name: 'test:nope', arguments: {} })).rejects.toThrow(/unknown tool "test:nope"/);
    expect(await withStore('gw.db', (c) => engineStore(c).getTool('gw', 'test:nope'))).toBeUndefined();
  });

  it('runs an explicit 2-task DAG (read pointer.txt, then read "$task_1"), leaving a dependency edge', async () => {
    const result = await client.callTool({
      name: 'execute_dag',
      arguments: {
        workflow: {
          tasks: [
            { id: 'task_1', tool: 'filesystem:read_text_file', arguments: { path: join(files, 'pointer.txt') } },
            { id: 'task_2', tool: 'filesystem:read_text_file', arguments: { path: '$task_1' }, dependsOn: ['task_1'] },
          ],
        },
      },
    });
    expect(result.isError).toBeUndefined();
    const run = structured(result);
    expect(run).toMatchObject({ mode: 'executed', ok: true, layers: [['task_1'], ['task_2']] });
    expect(run.tasks[1]).toMatchObject({
      id: 'task_2',
      status: 'success',
      consumes: ['task_1'],
      arguments: { path: join(files, 'deno.json') },
    });
    expect(textOf(run.tasks[1].result)).toBe(DENO);
    expect(run.learned).toContainEqual(
      expect.objectContaining({
        from: 'filesystem:read_text_file',
        to: 'filesystem:read_text_file',
        type: 'dependency',
      }),
    );

    const edges = await withStore('gw.db', (c) => c.edges({ from: 'filesystem:read_text_file' }));
    expect(edges).toContainEqual(
      expect.objectContaining({ to: 'filesystem:read_text_file', type: 'dependency', count: 1 }),
    );
    const execution = await withStore('gw.db', (c) => engineStore(c).getExecution('gw', run.executionId));
    expect(execution?.calls.map((call) => [call.tool, call.consumes])).toEqual([
      ['filesystem:read_text_file', []],
      ['filesystem:read_text_file', [0]],
    ]);
  });

  it('runs independent tasks side by side: a failed task fails its dependants, not its siblings', async () => {
    const result = await client.callTool({
      name: 'execute_dag',
      arguments: {
        intent: 'locate and echo',
        workflow: {
          tasks: [
            { id: 'broken', tool: 'test:fail' },
            { id: 'after_broken', tool: 'test:echo', arguments: { text: '$broken' } },
            { id: 'find', tool: 'test:locate', arguments: { name: 'deno.json' } },
            { id: 'path', tool: 'test:echo', arguments: { text: '$find.path' } },
            { id: 'missing', tool: 'test:echo', arguments: { text: '$find.owner' } },
          ],
        },
      },
    });
    expect(result.isError).toBe(true);
    const run = structured(result);
    const byId = Object.fromEntries(run.tasks.map((t: { id: string }) => [t.id, t]));
    expect(byId.broken).toMatchObject({ status: 'failure', error: 'this tool always fails' });
    expect(byId.after_broken).toMatchObject({ status: 'skipped', error: 'dependency "broken" failed' });
    expect(byId.find.status).toBe('success');
    expect(textOf(byId.path.result)).toBe('/data/deno.json');
    expect(byId.missing.status).toBe('failure');
    expect(byId.missing.error).toMatch(/task "missing": "\$find.owner" cannot resolve: .*no field "owner"/);
    expect(run.learned).toContainEqual(
      expect.objectContaining({ from: 'test:locate', to: 'test:echo', type: 'dependency' }),
    );
    // Layer order is not a sequence: only the references are learned, and an unresolved task never called its tool.
    expect(run.learned.every((e: { type: string }) => e.type === 'dependency')).toBe(true);
    const execution = await withStore('gw.db', (c) => engineStore(c).getExecution('gw', run.executionId));
    expect(execution?.calls.map((c) => `${c.tool} ${c.status}`)).toEqual([
      'test:fail failure',
      'test:locate success',
      'test:echo success',
    ]);
  });

  it('refuses a workflow naming a tool no connected server provides, before running anything', async () => {
    const before = await withStore('gw.db', (c) => c.status());
    const result = await client.callTool({
      name: 'execute_dag',
      arguments: { workflow: { tasks: [{ id: 'a', tool: 'filesystem:teleport' }] } },
    });
    expect(result.isError).toBe(true);
    expect(structured(result).error).toMatch(/unknown tool "filesystem:teleport"/);
    const after = await withStore('gw.db', (c) => c.status());
    expect(after.counts.executions).toBe(before.counts.executions);
  });

  it('gives an error result for a call that times out, and keeps serving', async () => {
    const slow = await client.callTool({ name: 'test:sleep', arguments: { ms: 10_000 } });
    expect(slow.isError).toBe(true);
    expect(textOf(slow)).toMatch(/server "test" did not answer "sleep" within 1000 ms/);
    const echo = await client.callTool({ name: 'test:echo', arguments: { text: 'still here' } });
    expect(textOf(echo)).toBe('still here');
  });

  it('gives error results for the tools of a server that died, while the other servers keep serving', async () => {
    const crash = await client.callTool({ name: 'test:crash', arguments: {} });
    expect(crash.isError).toBe(true);
    expect(textOf(crash)).toMatch(/server "test"/);
    const dead = await client.callTool({ name: 'test:echo', arguments: { text: 'hello?' } });
    expect(dead.isError).toBe(true);
    expect(textOf(dead)).toMatch(/server "test" is unavailable/);
    const fs = await client.callTool({ name: 'filesystem:list_allowed_directories', arguments: {} });
    expect(fs.isError).toBeFalsy();
    expect(textOf(fs)).toContain(files);
  });
});

describe('a downstream server that died', () => {
  it('is started again on a later call (--retry-after 0), and its tools are listed again', async () => {
    const { client, close } = await stdioClient(testOnlyArgs('restart.db', '--retry-after', '0'), { cwd: dir });
    try {
      expect((await client.callTool({ name: 'test:crash', arguments: {} })).isError).toBe(true);
      const echo = await client.callTool({ name: 'test:echo', arguments: { text: 'back again' } });
      expect(echo.isError).toBeFalsy();
      expect(textOf(echo)).toBe('back again');
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('test:echo');
    } finally {
      await close();
    }
    // Neither the crash (the server went away) nor anything the gateway failed at is learned as a call.
    const calls = await withStore('restart.db', async (c) =>
      (await engineStore(c).listExecutions('gw')).flatMap((e) => e.calls.map((x) => `${x.tool} ${x.status}`)),
    );
    expect(calls).toEqual(['test:echo success']);
  });
});

describe('execute_dag with an intent runs the suggestion only when it is safe', () => {
  it('runs a read-only suggestion at or above the threshold, with the arguments given by tool id', async () => {
    const { client, close } = await stdioClient(testOnlyArgs('auto.db', '--auto-execute-threshold', '0'), { cwd: dir });
    try {
      const ran = structured(
        await client.callTool({
          name: 'execute_dag',
          arguments: { intent: 'Echo the given text back', arguments: { 'test:echo': { text: 'hi' } } },
        }),
      );
      expect(ran.dag.tasks.map((t: { tool: string }) => t.tool)).toEqual(['test:echo']);
      expect(ran.executed).toBe(true);
      expect(ran.run.tasks[0]).toMatchObject({ tool: 'test:echo', status: 'success' });
      expect(textOf(ran.run.tasks[0].result)).toBe('hi');

      const noArgs = structured(
        await client.callTool({ name: 'execute_dag', arguments: { intent: 'Echo the given text back' } }),
      );
      expect(noArgs.executed).toBe(false);
      expect(noArgs.notExecutedBecause).toEqual([
        'test:echo needs "text": give them in arguments (by task id "t1" or tool id)',
      ]);

      const crash = structured(
        await client.callTool({ name: 'execute_dag', arguments: { intent: 'Exit the server process' } }),
      );
      expect(crash.dag.tasks.map((t: { tool: string }) => t.tool)).toEqual(['test:crash']);
      expect(crash.executed).toBe(false);
      expect(crash.notExecutedBecause).toEqual(['test:crash is not marked readOnlyHint']);
      expect(textOf(await client.callTool({ name: 'test:echo', arguments: { text: 'alive' } }))).toBe('alive');
    } finally {
      await close();
    }
  });

  it('does not run below the threshold', async () => {
    const { client, close } = await stdioClient(testOnlyArgs('threshold.db', '--auto-execute-threshold', '0.99'), {
      cwd: dir,
    });
    try {
      const s = structured(
        await client.callTool({
          name: 'execute_dag',
          arguments: { intent: 'Echo the given text back', arguments: { 'test:echo': { text: 'hi' } } },
        }),
      );
      expect(s.executed).toBe(false);
      expect(s.notExecutedBecause).toEqual([`confidence ${s.confidence.toFixed(3)} is below the threshold 0.99`]);
      expect(s.threshold).toBe(0.99);
    } finally {
      await close();
    }
  });
});

describe('learning from proxied calls', () => {
  it("appends each session's calls, in order, to one execution and learns sequence edges", async () => {
    const { client, close } = await stdioClient(gatewayArgs('learn.db'), { cwd: dir });
    await client.callTool({ name: 'filesystem:list_allowed_directories', arguments: {} });
    await client.callTool({ name: 'filesystem:read_text_file', arguments: { path: join(files, 'deno.json') } });
    await client.callTool({ name: 'memory:read_graph', arguments: {} });
    await client.callTool({ name: 'filesystem:read_text_file', arguments: { path: join(files, 'nope.json') } });
    await close();
    // The server stores what it queued before it exits; the SDK client waits for that exit.
    const { executions, edges } = await withStore('learn.db', async (c) => ({
      executions: await engineStore(c).listExecutions('gw'),
      edges: await c.edges(),
    }));
    expect(executions).toHaveLength(1);
    expect(executions[0]?.intent).toBe('MCP session (credence-test)');
    expect(executions[0]?.calls.map((call) => [call.tool, call.status])).toEqual([
      ['filesystem:list_allowed_directories', 'success'],
      ['filesystem:read_text_file', 'success'],
      ['memory:read_graph', 'success'],
      ['filesystem:read_text_file', 'failure'],
    ]);
    const sequence = edges.filter((e) => e.type === 'sequence').map((e) => `${e.from} → ${e.to}`);
    expect(sequence).toEqual(
      expect.arrayContaining([
        'filesystem:list_allowed_directories → filesystem:read_text_file',
        'filesystem:read_text_file → memory:read_graph',
      ]),
    );
  });

  it('--meta-only lists only meta-tools; --name-separator __ shows server__tool and records server:tool', async () => {
    const meta = await stdioClient(gatewayArgs('meta.db', '--meta-only'), { cwd: dir });
    expect((await meta.client.listTools()).tools).toHaveLength(10);
    await meta.close();

    const sep = await stdioClient(gatewayArgs('sep.db', '--name-separator', '__'), { cwd: dir });
    const names = (await sep.client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('filesystem__read_text_file');
    expect(names.every((n) => /^[A-Za-z0-9_-]+$/.test(n))).toBe(true);
    const read = await sep.client.callTool({
      name: 'filesystem__read_text_file',
      arguments: { path: join(files, 'deno.json') },
    });
    expect(textOf(read)).toBe(DENO);
    await sep.close();
    const calls = await withStore('sep.db', async (c) =>
      (await engineStore(c).listExecutions('gw'))[0]?.calls.map((call) => call.tool),
    );
    expect(calls).toEqual(['filesystem:read_text_file']);
  });

  it('refuses a gateway file that is not JSON or names no command, with the file and server named', () => {
    writeFileSync(join(dir, 'bad.json'), JSON.stringify({ mcpServers: { x: { args: ['a'] } } }));
    const r = spawnSync(
      process.execPath,
      [bin, '--db', join(dir, 'bad.db'), 'serve', '--stdio', '--gateway', 'bad.json'],
      { cwd: dir, encoding: 'utf8', input: '' },
    );
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/bad\.json: server "x": command/);
  });
});

describe('a gateway whose downstream server speaks Streamable HTTP', () => {
  it('lists and proxies the tools of a url server (here another credence serve --http)', async () => {
    const inner = await startHttpServer(
      ['--db', join(dir, 'inner.db'), '--scope', 'inner', 'serve', '--port', '0', '--token', 'inner-token-0123456789'],
      { cwd: dir },
    );
    try {
      writeFileSync(
        join(dir, 'remote.json'),
        JSON.stringify({
          mcpServers: { inner: { type: 'http', url: inner.url, headers: { Authorization: 'Bearer ${INNER_TOKEN}' } } },
        }),
      );
      const outer = await stdioClient(
        ['--db', join(dir, 'outer.db'), '--scope', 'gw', 'serve', '--stdio', '--gateway', 'remote.json'],
        {
          cwd: dir,
          env: { INNER_TOKEN: 'inner-token-0123456789' },
        },
      );
      const names = (await outer.client.listTools()).tools.map((t) => t.name);
      expect(names).toContain('inner:observe');
      const observed = await outer.client.callTool({
        name: 'inner:observe',
        arguments: { type: 'preference', observation: 'prefers tabs' },
      });
      expect(structured(observed)).toMatchObject({ inserted: 1 });
      await outer.close();
    } finally {
      await inner.stop();
    }
  });

  it('recovers when the url server goes away and comes back on the same address', async () => {
    const args = (port: string) => ['--db', join(dir, 'inner2.db'), '--scope', 'inner', 'serve', '--port', port];
    let inner = await startHttpServer(args('0'), { cwd: dir });
    const { port } = new URL(inner.url);
    writeFileSync(join(dir, 'remote2.json'), JSON.stringify({ mcpServers: { inner: { url: inner.url } } }));
    const outer = await stdioClient(
      [
        '--db',
        join(dir, 'outer2.db'),
        '--scope',
        'gw',
        'serve',
        '--stdio',
        '--gateway',
        'remote2.json',
        '--retry-after',
        '0',
      ],
      { cwd: dir },
    );
    try {
      const call = () => outer.client.callTool({ name: 'inner:recall', arguments: { query: 'anything' } });
      expect((await call()).isError).toBeFalsy();
      await inner.stop();
      const down = await call();
      expect(down.isError).toBe(true);
      expect(textOf(down)).toMatch(/server "inner"/);
      inner = await startHttpServer(args(port), { cwd: dir });
      expect((await call()).isError).toBeFalsy();
    } finally {
      await outer.close();
      await inner.stop();
    }
  });
});
