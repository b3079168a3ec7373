import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codeOf, thrown } from '../../test/helpers.js';
import { expandVariables, parseGatewayConfig } from './config.js';

const parse = (value: unknown, env: NodeJS.ProcessEnv = {}) =>
  parseGatewayConfig(JSON.stringify(value), 'servers.json', env);

describe('parseGatewayConfig', () => {
  it('reads a file saved with a byte order mark', () => {
    const text = `\ufeff${JSON.stringify({ mcpServers: { fs: { command: 'npx' } } })}`;
    expect(parseGatewayConfig(text, 'servers.json', {}).map((s) => s.name)).toEqual(['fs']);
  });

  it('reads stdio and url servers in the mcpServers format of .mcp.json', () => {
    expect(
      parse({
        mcpServers: {
          fs: { command: 'npx', args: ['-y', 'server-filesystem', '.'], env: { A: '1' }, timeout: 5000 },
          remote: { type: 'http', url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer x' } },
        },
      }),
    ).toEqual([
      {
        name: 'fs',
        kind: 'stdio',
        command: 'npx',
        args: ['-y', 'server-filesystem', '.'],
        env: { A: '1' },
        timeoutMs: 5000,
      },
      { name: 'remote', kind: 'http', url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer x' } },
    ]);
  });

  it('expands ${VAR} and ${VAR:-default}, and names a variable that is not set', () => {
    const [server] = parse(
      { mcpServers: { r: { url: 'https://${HOST}/mcp', headers: { Authorization: 'Bearer ${TOKEN:-none}' } } } },
      { HOST: 'mcp.example.com' },
    );
    expect(server).toMatchObject({ url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer none' } });
    expect((thrown(() => parse({ mcpServers: { r: { command: '${TOOL}' } } })) as Error).message).toBe(
      'servers.json: server "r".command uses ${TOOL}, which is not set in the environment',
    );
    expect(expandVariables('$HOME and ${', {}, 'x')).toBe('$HOME and ${');
  });

  it('ignores keys other clients add, and skips disabled servers', () => {
    expect(
      parse({ mcpServers: { a: { command: 'a', autoApprove: ['x'] }, b: { command: 'b', disabled: true } } }).map(
        (s) => s.name,
      ),
    ).toEqual(['a']);
  });

  it('names the file, the server and the field of every problem', () => {
    const message = (value: unknown): string => (thrown(() => parse(value)) as Error).message;
    expect(message({ servers: {} })).toMatch(/^servers.json must be an object with "mcpServers"/);
    expect(message({ mcpServers: { x: { args: ['a'] } } })).toMatch(/^servers.json: server "x": command/);
    expect(message({ mcpServers: { x: { url: 'not a url' } } })).toMatch(
      /^servers.json: server "x": url: must be an http\(s\) URL/,
    );
    expect(message({ mcpServers: { x: { type: 'sse', url: 'https://a/sse' } } })).toMatch(
      /"sse" servers are not supported/,
    );
    expect(message({ mcpServers: { 'a:b': { command: 'x' } } })).toMatch(/server name is 1–64 letters/);
    expect(message({ mcpServers: {} })).toMatch(/lists no servers/);
    expect(codeOf(() => parseGatewayConfig('{oops', 'servers.json'))).toBe('INVALID_INPUT');
  });
});

describe('expandVariables (issue 17 leftover: linear time)', () => {
  /** The former one-pattern implementation, quadratic on many unclosed `${A:-`: the oracle. */
  const oracle = (text: string, env: NodeJS.ProcessEnv): string =>
    text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (_, name: string, fallback: string | undefined) => {
      const value = env[name];
      if (value !== undefined && value !== '') return value;
      if (fallback !== undefined) return fallback;
      throw new Error(`unset ${name}`);
    });
  const outcome = (f: () => string): string => {
    try {
      return `ok ${f()}`;
    } catch (error) {
      return `error ${/\$\{(\w+)\}|unset (\w+)/
        .exec((error as Error).message)
        ?.slice(1)
        .find((x) => x !== undefined)}`;
    }
  };

  it('expands exactly as the former pattern on every short text over ${, }, :-, names and blanks', () => {
    const env = { A: 'x$1', B: '', AB: 'y' };
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('$', '{', '}', ':', '-', 'A', 'B', '_', '1', ' ', '${', ':-'), { maxLength: 24 }),
        (parts) => {
          const text = parts.join('');
          expect(outcome(() => expandVariables(text, env, 'x'))).toBe(outcome(() => oracle(text, env)));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('reads 100,000 unclosed ${A:- and then a closed one through the real function', () => {
    const text = `${'${A:-'.repeat(100_000)}`;
    expect(expandVariables(text, {}, 'x')).toBe(text);
    expect(expandVariables(`${text}}`, {}, 'x')).toBe('${A:-'.repeat(99_999));
  });
});
