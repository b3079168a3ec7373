/**
 * Helpers for the MCP tests (not a test file): start the real `credence` binary as an MCP server
 * and connect the SDK client to it, over stdio or Streamable HTTP.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Credence } from '../src/engine/engine.js';
import type { DownstreamTool, Gateway } from '../src/mcp/gateway.js';
import { createMcpSession, type CredenceMcpSession, type McpServerOptions } from '../src/mcp/server.js';

export const bin = fileURLToPath(new URL('../bin/credence.cjs', import.meta.url));
export const nodeModules = fileURLToPath(new URL('../node_modules/', import.meta.url));
export const testServer = fileURLToPath(new URL('./fixtures/mcp/test-server.mjs', import.meta.url));

/** Connects the SDK client to `credence … serve --stdio`; stderr is collected in `stderr()`. */
export async function stdioClient(
  args: readonly string[],
  options: { cwd: string; env?: Record<string, string> },
): Promise<{ client: Client; stderr: () => string; close: () => Promise<void> }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, ...args],
    cwd: options.cwd,
    env: { HOME: options.cwd, ...options.env },
    stderr: 'pipe',
  });
  let err = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    err += chunk.toString('utf8');
  });
  const client = new Client({ name: 'credence-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => err, close: () => client.close() };
}

/** The MCP server in this process (an engine, optionally a gateway) with the SDK client connected to it in memory. */
export async function inProcessClient(
  credence: Credence,
  gateway?: Gateway,
  options: McpServerOptions = {},
): Promise<{ client: Client; session: CredenceMcpSession }> {
  const session = createMcpSession(credence, gateway, 'test', options);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await session.server.connect(serverSide);
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(clientSide);
  return { client, session };
}

export interface HttpServerProcess {
  url: string;
  child: ChildProcess;
  stderr: () => string;
  stop: () => Promise<number | null>;
}

/** Starts `credence … serve --http --port 0 …` and resolves with the URL it prints. */
export function startHttpServer(
  args: readonly string[],
  options: { cwd: string; env?: Record<string, string> },
): Promise<HttpServerProcess> {
  const child = spawn(process.execPath, [bin, ...args], {
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? '', HOME: options.cwd, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      err += chunk.toString('utf8');
      const m = /MCP \(Streamable HTTP\) at (\S+)/.exec(err);
      if (m !== null) {
        resolve({
          url: m[1] as string,
          child,
          stderr: () => err,
          stop: async () => {
            child.kill('SIGTERM');
            return exited;
          },
        });
      }
    });
    exited.then((code) => reject(new Error(`credence serve exited with ${code} before listening:\n${err}`)));
  });
}

export async function httpClient(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'credence-http-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

/** A tool result's structured content, typed loosely for assertions. */
export function structured(result: unknown): Record<string, any> {
  const r = result as CallToolResult;
  if (r.structuredContent === undefined) throw new Error(`no structuredContent in ${JSON.stringify(r).slice(0, 300)}`);
  return r.structuredContent as Record<string, any>;
}

/** The text of a tool result's text items, joined. */
export function textOf(result: unknown): string {
  return ((result as CallToolResult).content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

/**
 * A gateway of one downstream server, `fs`, with the tools `names` (as `fs:<name>`), answering at once: with an error
 * when `fails(id)` (by default for `fs:broken`), else `ran <id>`; each call's id is pushed on `called`.
 */
export function fakeFsGateway(
  names: readonly string[],
  called: string[] = [],
  fails: (id: string) => boolean = (id) => id === 'fs:broken',
): Gateway {
  const tools: DownstreamTool[] = names.map((name) => ({
    id: `fs:${name}`,
    server: 'fs',
    name,
    tool: { name, description: `${name} files`, inputSchema: { type: 'object' } } as Tool,
  }));
  const fake = {
    version: 1,
    tools: () => tools,
    tool: (id: string) => tools.find((t) => t.id === id),
    servers: () => ['fs'],
    routes: (id: string) => id.startsWith('fs:'),
    knows: (id: string) => (tools.some((t) => t.id === id) ? 'yes' : 'no'),
    call: async (id: string): Promise<CallToolResult> => {
      called.push(id);
      return { content: [{ type: 'text', text: `ran ${id}` }], ...(fails(id) ? { isError: true } : {}) };
    },
  };
  return fake as unknown as Gateway;
}
