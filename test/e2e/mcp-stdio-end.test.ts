/**
 * `credence serve --stdio` when its input ends (issue 17): a client that writes its requests and
 * closes its end at once gets an answer to every request, then the server exits 0.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bin, testServer } from '../mcp-helpers.js';
import { storeArgs } from '../pg.js';

const dir = mkdtempSync(join(tmpdir(), 'credence-stdio-end-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(
  join(dir, 'servers.json'),
  JSON.stringify({ mcpServers: { test: { command: process.execPath, args: [testServer] } } }),
);

const request = (id: number, method: string, params: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id,
  method,
  params,
});

/**
 * Writes `messages` to `credence …args` (a `serve --stdio`) in one chunk, closes its stdin, and collects what it
 * answers.
 */
function serveOnce(
  args: readonly string[],
  messages: readonly unknown[],
): Promise<{ code: number | null; answers: { id?: unknown; result?: any; error?: unknown }[]; stderr: string }> {
  const child = spawn(process.execPath, [bin, ...args], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', HOME: dir },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  // A server that closes its input before reading all of it (a message over its buffer) is no test failure: EPIPE.
  child.stdin.on('error', () => {});
  child.stdin.end(messages.map((m) => `${JSON.stringify(m)}\n`).join(''));
  return new Promise((resolve) => {
    child.once('close', (code) => {
      const answers = out
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map((l) => JSON.parse(l) as { id?: unknown });
      resolve({ code, answers, stderr: err });
    });
  });
}

describe('credence serve --stdio whose input closes with requests still queued', () => {
  it('answers initialize, tools/list and every tools/call written before stdin closed, then exits 0', async () => {
    const { code, answers, stderr } = await serveOnce(
      [
        ...storeArgs(join(dir, 'end.db')),
        '--scope',
        'end',
        '--now',
        '2026-03-01T09:00:00Z',
        'serve',
        '--stdio',
        '--gateway',
        'servers.json',
      ],
      [
        request(1, 'initialize', {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'one-shot', version: '1.0.0' },
        }),
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        request(2, 'tools/list'),
        request(3, 'tools/call', { name: 'test:sleep', arguments: { ms: 300 } }),
        request(4, 'tools/call', { name: 'search_tools', arguments: { query: 'echo some text' } }),
        request(5, 'tools/call', { name: 'test:echo', arguments: { text: 'still answered' } }),
      ],
    );
    expect(answers.map((a) => a.id).sort()).toEqual([1, 2, 3, 4, 5]);
    const byId = new Map(answers.map((a) => [a.id, a]));
    expect(byId.get(2)?.result.tools.map((t: { name: string }) => t.name)).toContain('test:sleep');
    expect(byId.get(3)?.result.content[0].text).toBe('slept 300 ms');
    expect(byId.get(4)?.result.structuredContent.results.map((r: { tool: string }) => r.tool)).toContain('test:echo');
    expect(byId.get(5)?.result.content[0].text).toBe('still answered');
    expect(code, stderr).toBe(0);
  });
});

describe('credence serve --stdio given what it cannot read (a robustness audit)', () => {
  const args = [
    ...storeArgs(join(dir, 'bad.db')),
    '--scope',
    'bad',
    '--now',
    '2026-03-01T09:00:00Z',
    'serve',
    '--stdio',
  ];
  const init = request(1, 'initialize', {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'bad-input', version: '1.0.0' },
  });

  it('says so for a line that is no JSON-RPC, and goes on answering', async () => {
    const { code, answers, stderr } = await serveOnce(args, [init, 'not json at all', request(2, 'tools/list')]);
    expect(answers.map((a) => a.id).sort()).toEqual([1, 2]);
    expect(stderr).toMatch(/credence: stdio: /);
    expect(code, stderr).toBe(0);
  });

  it('fails with a line naming the read buffer for a message over 10 MiB, not a quiet exit 0', async () => {
    const huge = request(2, 'tools/call', { name: 'search_tools', arguments: { query: 'x'.repeat(11 * 1024 * 1024) } });
    const { code, answers, stderr } = await serveOnce(args, [init, huge]);
    expect(answers.map((a) => a.id)).toEqual([1]);
    expect(stderr).toContain("over the MCP SDK's read buffer");
    expect(code).not.toBe(0);
  });
});
