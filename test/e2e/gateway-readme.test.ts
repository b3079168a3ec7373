/**
 * The documented gateway example works as written (issue 17): its `filesystem` and `memory` entries,
 * read from the MCP guide itself (docs/mcp.md, moved there from the README), run through `credence serve --gateway
 * .credence/servers.json` with
 * the real `npx -y @modelcontextprotocol/server-…` (found in this package's node_modules, offline);
 * `memory:create_entities` then `memory:read_graph` succeed and the graph lands in
 * `.credence/memory.jsonl`, where the guide says. The `tracker` entry names an example host and
 * is left out.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { nodeModules, stdioClient, textOf } from '../mcp-helpers.js';
import { storeArgs } from '../pg.js';

const guide = readFileSync(fileURLToPath(new URL('../../docs/mcp.md', import.meta.url)), 'utf8');

/** The first ```json block after the guide's **Gateway.** paragraph, parsed. */
function documentedGatewayConfig(): { mcpServers: Record<string, unknown> } {
  const from = guide.indexOf('**Gateway.**');
  const block = /```json\n([\s\S]*?)\n```/.exec(guide.slice(from));
  if (from < 0 || block === null) throw new Error('docs/mcp.md has no gateway example after **Gateway.**');
  return JSON.parse(block[1] as string) as { mcpServers: Record<string, unknown> };
}

// A project folder: npx finds the servers in node_modules (a link to this package's) and, offline,
// never asks the registry.
const project = mkdtempSync(join(tmpdir(), 'credence-readme-gateway-'));
afterAll(() => rmSync(project, { recursive: true, force: true }));

describe("the MCP guide's gateway example, as written", () => {
  let client: Client;
  let close: () => Promise<void>;
  let stderr: () => string;

  beforeAll(async () => {
    symlinkSync(nodeModules, join(project, 'node_modules'), 'dir');
    writeFileSync(join(project, '.npmrc'), 'offline=true\nupdate-notifier=false\nfund=false\n');
    mkdirSync(join(project, '.credence'));
    const { mcpServers } = documentedGatewayConfig();
    expect(mcpServers).toHaveProperty('memory');
    const { filesystem, memory } = mcpServers;
    writeFileSync(
      join(project, '.credence', 'servers.json'),
      JSON.stringify({ mcpServers: { filesystem, memory } }, null, 2),
    );
    ({ client, close, stderr } = await stdioClient(
      [
        ...storeArgs(join(project, '.credence', 'credence.db')),
        '--scope',
        'readme',
        'serve',
        '--stdio',
        '--gateway',
        '.credence/servers.json',
      ],
      { cwd: project },
    ));
  }, 60_000);
  afterAll(async () => close?.());

  it('memory:create_entities then memory:read_graph succeed; the graph is kept in .credence/memory.jsonl', async () => {
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names, stderr()).toContain('memory:create_entities');
    expect(names).toContain('filesystem:list_directory');

    const created = await client.callTool({
      name: 'memory:create_entities',
      arguments: {
        entities: [{ name: 'Credence', entityType: 'project', observations: ['fronts other MCP servers'] }],
      },
    });
    expect(created.isError, textOf(created)).toBeFalsy();
    const graph = await client.callTool({ name: 'memory:read_graph', arguments: {} });
    expect(graph.isError, textOf(graph)).toBeFalsy();
    expect(textOf(graph)).toContain('fronts other MCP servers');

    const file = join(project, '.credence', 'memory.jsonl');
    expect(existsSync(file)).toBe(true);
    expect(readFileSync(file, 'utf8')).toContain('"name":"Credence"');
  }, 60_000);
});
