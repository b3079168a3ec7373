/**
 * The MCP Inspector CLI (`@modelcontextprotocol/inspector-cli@0.15.0`, the version that runs on
 * Node 20) as a second, independent client of `credence serve` (issue 8): it lists the tools and
 * calls one, over stdio and over Streamable HTTP.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bin, nodeModules, startHttpServer } from '../mcp-helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'credence-inspector-'));
const db = join(dir, 'inspector.db');
const inspector = join(nodeModules, '@modelcontextprotocol/inspector-cli/build/cli.js');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Runs the inspector CLI; resolves with its exit code and output (asynchronously, so an HTTP server in this process
 * keeps answering).
 */
function runInspector(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [inspector, '--cli', ...args], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', HOME: dir },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

const serverCommand = [
  'node',
  bin,
  '--db',
  db,
  '--scope',
  'inspector',
  '--now',
  '2026-03-01T09:00:00Z',
  'serve',
  '--stdio',
];

describe('the MCP Inspector CLI against credence serve', () => {
  it('lists the tools over stdio', async () => {
    const r = await runInspector([...serverCommand, '--method', 'tools/list']);
    expect(r.code).toBe(0);
    const names = JSON.parse(r.stdout).tools.map((t: { name: string }) => t.name);
    expect(names).toEqual([
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
    ]);
  });

  it('calls search_tools over stdio and gets ranked results with their parts', async () => {
    const seeded = spawnSync(
      process.execPath,
      [bin, '--db', db, '--scope', 'inspector', 'tools', 'add', '--jsonl', '-'],
      {
        input: [
          { id: 'github:create_issue', description: 'Create a new issue in a GitHub repository' },
          { id: 'slack:post_message', description: 'Post a message to a Slack channel' },
        ]
          .map((t) => JSON.stringify(t))
          .join('\n'),
        encoding: 'utf8',
      },
    );
    expect(seeded.status).toBe(0);
    const r = await runInspector([
      ...serverCommand,
      '--method',
      'tools/call',
      '--tool-name',
      'search_tools',
      '--tool-arg',
      'query=open an issue on github',
    ]);
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout);
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent.results[0]).toMatchObject({ tool: 'github:create_issue' });
    expect(result.structuredContent.results[0].parts).toHaveProperty('similarity');
  });

  it('lists the tools over Streamable HTTP', async () => {
    const server = await startHttpServer(['--db', db, '--scope', 'inspector', 'serve', '--port', '0'], { cwd: dir });
    try {
      const r = await runInspector([server.url, '--method', 'tools/list']);
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout).tools).toHaveLength(10);
    } finally {
      await server.stop();
    }
  });
});
