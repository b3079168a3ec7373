/**
 * @module mcp/config
 * The gateway's downstream servers, in `.mcp.json`'s `mcpServers` format: `{ "<name>": { "command",
 * "args"?, "env"?, "cwd"? } | { "url", "headers"? } }` (`type` `stdio`, `http` or `streamable-http`; `sse`
 * is refused by name). `${VAR}` and `${VAR:-default}` are read from the environment, as Claude Code does;
 * `serve --gateway FILE` adds `${CREDENCE_CONFIG_DIR}`. Other clients' keys are ignored; `"disabled":
 * true` skips an entry. Every problem names the server and the field.
 */
import { z } from 'zod';
import { CredenceError } from '../core/errors.js';
import { formatIssues } from '../schemas/index.js';
import { PLAIN_ISSUES } from '../schemas/format.js';
import { withoutBom } from '../core/text/plain-text.js';

export type DownstreamServer =
  | {
      name: string;
      kind: 'stdio';
      command: string;
      args: string[];
      env: Record<string, string>;
      cwd?: string;
      timeoutMs?: number;
    }
  | { name: string; kind: 'http'; url: string; headers: Record<string, string>; timeoutMs?: number };

/** Server names become tool-id prefixes (`server:tool`), so they keep to a safe alphabet. */
const SERVER_NAME = /^[A-Za-z0-9_-]{1,64}$/;

const StringMap = z.record(z.string(), z.string());
const Timeout = z.number().int().positive().optional();

const StdioEntry = z.looseObject({
  type: z.literal('stdio').optional(),
  command: z.string().trim().min(1, 'must name the program to start'),
  args: z.array(z.string()).optional(),
  env: StringMap.optional(),
  cwd: z.string().optional(),
  timeout: Timeout,
});

const HttpEntry = z.looseObject({
  type: z.enum(['http', 'streamable-http']).optional(),
  url: z.string().url('must be an http(s) URL'),
  headers: StringMap.optional(),
  timeout: Timeout,
});

const ConfigFile = z.looseObject({ mcpServers: z.record(z.string(), z.unknown()) });

const VARIABLE_NAME = /[A-Za-z_][A-Za-z0-9_]*/y;

/**
 * Replaces `${VAR}` and `${VAR:-default}` (the default runs to the next `}`), left to right; an
 * unset variable without a default is an error naming it. A `${` that starts neither is kept.
 * Linear in the text: the next `}` is searched for once and remembered, so many unclosed
 * `${A:-` do not each scan to the end (issue 17 leftover).
 */
export function expandVariables(text: string, env: NodeJS.ProcessEnv, where: string): string {
  let out = '';
  let copied = 0;
  let nextClose = -1; // the first `}` at or after the last place searched; Infinity when none
  let start = text.indexOf('${');
  while (start !== -1) {
    VARIABLE_NAME.lastIndex = start + 2;
    const name = VARIABLE_NAME.exec(text)?.[0];
    let end = -1;
    let fallback: string | undefined;
    if (name !== undefined) {
      const after = start + 2 + name.length;
      if (text[after] === '}') {
        end = after + 1;
      } else if (text.startsWith(':-', after)) {
        if (nextClose < after + 2) {
          const close = text.indexOf('}', after + 2);
          nextClose = close === -1 ? Infinity : close;
        }
        if (nextClose !== Infinity) {
          fallback = text.slice(after + 2, nextClose);
          end = nextClose + 1;
        }
      }
    }
    if (name === undefined || end === -1) {
      start = text.indexOf('${', start + 1);
      continue;
    }
    const value = env[name];
    if (value === undefined || value === '') {
      if (fallback === undefined)
        throw new CredenceError('INVALID_INPUT', `${where} uses \${${name}}, which is not set in the environment`);
    }
    out += text.slice(copied, start) + (value !== undefined && value !== '' ? value : (fallback as string));
    copied = end;
    start = text.indexOf('${', end);
  }
  return copied === 0 ? text : out + text.slice(copied);
}

function expandMap(
  map: Record<string, string> | undefined,
  env: NodeJS.ProcessEnv,
  where: string,
): Record<string, string> {
  return Object.fromEntries(Object.entries(map ?? {}).map(([k, v]) => [k, expandVariables(v, env, `${where}.${k}`)]));
}

/** Parses a gateway configuration (the text of a `.mcp.json`-style file); `source` names it in errors. */
export function parseGatewayConfig(
  text: string,
  source: string,
  env: NodeJS.ProcessEnv = process.env,
): DownstreamServer[] {
  let raw: unknown;
  try {
    // A byte order mark (an editor's UTF-8 with BOM) is no part of the JSON.
    raw = JSON.parse(withoutBom(text));
  } catch (error) {
    throw new CredenceError('INVALID_INPUT', `${source} is not JSON: ${(error as Error).message}`);
  }
  const file = ConfigFile.safeParse(raw, PLAIN_ISSUES);
  if (!file.success)
    throw new CredenceError(
      'INVALID_INPUT',
      `${source} must be an object with "mcpServers": ${formatIssues(file.error)}`,
    );
  const servers: DownstreamServer[] = [];
  for (const [name, entry] of Object.entries(file.data.mcpServers)) {
    const where = `${source}: server "${name}"`;
    if (!SERVER_NAME.test(name))
      throw new CredenceError(
        'INVALID_INPUT',
        `${where}: a server name is 1–64 letters, digits, "_" or "-" (it prefixes tool ids as ${name}:tool)`,
      );
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry))
      throw new CredenceError('INVALID_INPUT', `${where} must be an object with "command" or "url"`);
    if ((entry as { disabled?: unknown }).disabled === true) continue;
    const type = (entry as { type?: unknown }).type;
    if (type === 'sse')
      throw new CredenceError(
        'INVALID_INPUT',
        `${where}: "sse" servers are not supported; the gateway speaks stdio and Streamable HTTP ("type": "http")`,
      );
    if ('url' in entry) {
      const parsed = HttpEntry.safeParse(entry, PLAIN_ISSUES);
      if (!parsed.success) throw new CredenceError('INVALID_INPUT', `${where}: ${formatIssues(parsed.error)}`);
      const e = parsed.data;
      servers.push({
        name,
        kind: 'http',
        url: expandVariables(e.url, env, `${where}.url`),
        headers: expandMap(e.headers, env, `${where}.headers`),
        ...(e.timeout === undefined ? {} : { timeoutMs: e.timeout }),
      });
    } else {
      const parsed = StdioEntry.safeParse(entry, PLAIN_ISSUES);
      if (!parsed.success) throw new CredenceError('INVALID_INPUT', `${where}: ${formatIssues(parsed.error)}`);
      const e = parsed.data;
      servers.push({
        name,
        kind: 'stdio',
        command: expandVariables(e.command, env, `${where}.command`),
        args: (e.args ?? []).map((a, i) => expandVariables(a, env, `${where}.args[${i}]`)),
        env: expandMap(e.env, env, `${where}.env`),
        ...(e.cwd === undefined ? {} : { cwd: expandVariables(e.cwd, env, `${where}.cwd`) }),
        ...(e.timeout === undefined ? {} : { timeoutMs: e.timeout }),
      });
    }
  }
  if (servers.length === 0)
    throw new CredenceError('INVALID_INPUT', `${source} lists no servers under "mcpServers" (or all are disabled)`);
  return servers;
}
