import { describe, expect, it } from 'vitest';
import { codeOf, thrown } from '../../test/helpers.js';
import { expandVariables, parseGatewayConfig } from './config.js';

const parse = (value: unknown, env: NodeJS.ProcessEnv = {}) => parseGatewayConfig(JSON.stringify(value), 'servers.json', env);

describe('parseGatewayConfig', () => {
  it('reads stdio and url servers in the mcpServers format of .mcp.json', () => {
    expect(
      parse({
        mcpServers: {
          fs: { command: 'npx', args: ['-y', 'server-filesystem', '.'], env: { A: '1' }, timeout: 5000 },
          remote: { type: 'http', url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer x' } },
        },
      }),
    ).toEqual([
      { name: 'fs', kind: 'stdio', command: 'npx', args: ['-y', 'server-filesystem', '.'], env: { A: '1' }, timeoutMs: 5000 },
      { name: 'remote', kind: 'http', url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer x' } },
    ]);
  });

  it('expands ${VAR} and ${VAR:-default}, and names a variable that is not set', () => {
    const [server] = parse({ mcpServers: { r: { url: 'https://${HOST}/mcp', headers: { Authorization: 'Bearer ${TOKEN:-none}' } } } }, { HOST: 'mcp.example.com' });
    expect(server).toMatchObject({ url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer none' } });
    expect((thrown(() => parse({ mcpServers: { r: { command: '${TOOL}' } } })) as Error).message).toBe('servers.json: server "r".command uses ${TOOL}, which is not set in the environment');
    expect(expandVariables('$HOME and ${', {}, 'x')).toBe('$HOME and ${');
  });

  it('ignores keys other clients add, and skips disabled servers', () => {
    expect(parse({ mcpServers: { a: { command: 'a', autoApprove: ['x'] }, b: { command: 'b', disabled: true } } }).map((s) => s.name)).toEqual(['a']);
  });

  it('names the file, the server and the field of every problem', () => {
    const message = (value: unknown): string => (thrown(() => parse(value)) as Error).message;
    expect(message({ servers: {} })).toMatch(/^servers.json must be an object with "mcpServers"/);
    expect(message({ mcpServers: { x: { args: ['a'] } } })).toMatch(/^servers.json: server "x": command/);
    expect(message({ mcpServers: { x: { url: 'not a url' } } })).toMatch(/^servers.json: server "x": url: must be an http\(s\) URL/);
    expect(message({ mcpServers: { x: { type: 'sse', url: 'https://a/sse' } } })).toMatch(/"sse" servers are not supported/);
    expect(message({ mcpServers: { 'a:b': { command: 'x' } } })).toMatch(/server name is 1–64 letters/);
    expect(message({ mcpServers: {} })).toMatch(/lists no servers/);
    expect(codeOf(() => parseGatewayConfig('{oops', 'servers.json'))).toBe('INVALID_INPUT');
  });
});
