/**
 * The plugin as Claude Code installs it (issue 22 item 2): a copy in ~/.claude/plugins/cache/...
 * whose dependencies npm installed with scripts ignored, so better-sqlite3 has no native addon.
 * Every command the plugin names goes through plugin/launch.cjs: with no Credence that can open a
 * store, a hook exits 0 with one stderr line naming the problem and the fix, and the MCP server and
 * the slash commands fail with that line; with a `credence` on PATH, or the project's own install of
 * Credence, that one runs the hooks and learns the calls.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, describe, expect, it } from 'vitest';
import { CLAUDE_CODE_HOOKS } from '../../src/hooks/install.js';

const repo = fileURLToPath(new URL('../../', import.meta.url)).replace(/\/$/, '');
const dir = mkdtempSync(join(tmpdir(), 'credence-plugin-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Json = Record<string, any>;

/**
 * The cached copy: the plugin's files, bin/, package.json, the compiled CLI (linked: only read), and a
 * node_modules/better-sqlite3 with its JavaScript and no build/ (what `npm ci --ignore-scripts` leaves).
 */
function cachedPlugin(): string {
  const root = join(dir, 'home', '.claude', 'plugins', 'cache', 'credence', 'credence', '0.1.0');
  mkdirSync(root, { recursive: true });
  for (const part of ['.claude-plugin', 'plugin', 'bin', 'package.json'])
    cpSync(join(repo, part), join(root, part), {
      recursive: true,
    });
  symlinkSync(join(repo, 'dist'), join(root, 'dist'));
  const driver = join(root, 'node_modules', 'better-sqlite3');
  mkdirSync(driver, { recursive: true });
  for (const part of ['package.json', 'lib'])
    cpSync(join(repo, 'node_modules', 'better-sqlite3', part), join(driver, part), {
      recursive: true,
    });
  return root;
}

const pluginRoot = cachedPlugin();
const manifest = JSON.parse(readFileSync(join(pluginRoot, '.claude-plugin', 'plugin.json'), 'utf8')) as Json;
const hooks = JSON.parse(readFileSync(join(pluginRoot, 'plugin', 'hooks.json'), 'utf8')).hooks as Json;

/** A project Claude Code runs the plugin in; `install` links the project's node_modules/credence to this package. */
function scratchProject(name: string, install: boolean): { project: string; env: Record<string, string> } {
  const project = join(dir, name);
  mkdirSync(project, { recursive: true });
  expect(spawnSync('git', ['init', '-q'], { cwd: project }).status).toBe(0);
  if (install) {
    mkdirSync(join(project, 'node_modules'));
    symlinkSync(repo, join(project, 'node_modules', 'credence'));
  }
  const env = {
    // No `credence` on this PATH: only node and the shell's tools.
    PATH: [dirname(process.execPath), '/usr/bin', '/bin'].join(':'),
    HOME: join(dir, 'home'),
    CLAUDE_PLUGIN_ROOT: pluginRoot,
    CLAUDE_PROJECT_DIR: project,
    CREDENCE_DB: join(dir, `${name}.db`),
    CREDENCE_NOW: '2026-03-02T10:00:00Z',
    CREDENCE_HOOK_WAIT: '1',
  };
  return { project, env };
}

const shell = (line: string, cwd: string, env: Record<string, string>, input?: string) =>
  spawnSync('/bin/sh', ['-c', line], { cwd, env, encoding: 'utf8', timeout: 60_000, ...(input ? { input } : {}) });

const hookCommand = (event: string): string => hooks[event][0].hooks[0].command as string;
const mcpLine = (): string => {
  const server = manifest.mcpServers.credence as { command: string; args: string[] };
  return [server.command, ...server.args.map((a) => `"${a}"`)].join(' ');
};

/** The one line that says what is wrong and how to fix it. */
function expectNamedProblem(stderr: string, prefix: string): void {
  const lines = stderr.trim().split('\n');
  expect(lines, stderr).toHaveLength(1);
  const line = lines[0] as string;
  expect(line.startsWith(`${prefix}: `), line).toBe(true);
  expect(line).toContain(`better-sqlite3's native addon is not built in ${pluginRoot}`);
  expect(line).toContain('`npm rebuild better-sqlite3`');
  expect(line).toContain('`npm install /path/to/credence-<version>.tgz` in the project');
  expect(line).not.toContain('npm install credence');
}

describe('the installed plugin: a cached copy whose better-sqlite3 was never built', () => {
  it('each hook event exits 0 with one stderr line naming the missing addon and the fix; nothing is stored', () => {
    const { project, env } = scratchProject('no-install', false);
    for (const spec of CLAUDE_CODE_HOOKS) {
      const payload = {
        session_id: 's1',
        cwd: project,
        hook_event_name: spec.event,
        tool_name: 'Read',
        tool_input: {},
      };
      const r = shell(hookCommand(spec.event), project, env, JSON.stringify(payload));
      expect(r.status, spec.event).toBe(0);
      expectNamedProblem(r.stderr, 'credence hook');
    }
    expect(readdirSync(dir)).not.toContain('no-install.db');
  });

  it('the MCP server and each slash command fail with that line', () => {
    const { project, env } = scratchProject('no-install-commands', false);
    const server = shell(mcpLine(), project, env, '');
    expect(server.status).toBe(1);
    expectNamedProblem(server.stderr, 'credence');
    const commands = join(pluginRoot, 'plugin', 'commands');
    for (const file of readdirSync(commands)) {
      const [line] = [...readFileSync(join(commands, file), 'utf8').matchAll(/^!`([^`]+)`$/gm)].map((m) => m[1]);
      const r = shell((line as string).replaceAll('$ARGUMENTS', 'x'), project, env);
      expect(r.status, file).toBe(1);
      expectNamedProblem(r.stderr, 'credence');
    }
  });
});

describe('the installed plugin with a credence on PATH (a global install) and none in the project', () => {
  it('that credence runs the hooks and the slash commands', () => {
    const { project, env } = scratchProject('on-path', false);
    const bin = join(dir, 'global-bin');
    mkdirSync(bin);
    symlinkSync(join(repo, 'bin', 'credence.cjs'), join(bin, 'credence'));
    env.PATH = `${bin}:${env.PATH}`;
    const call = { session_id: 's3', cwd: project, hook_event_name: 'PostToolUse', tool_name: 'Read', tool_input: {} };
    for (const event of [call, { session_id: 's3', cwd: project, hook_event_name: 'Stop' }]) {
      const r = shell(hookCommand(event.hook_event_name), project, env, JSON.stringify(event));
      expect(r.status, event.hook_event_name).toBe(0);
      expect(r.stderr, event.hook_event_name).toBe('');
    }
    const [line] = [
      ...readFileSync(join(pluginRoot, 'plugin', 'commands', 'status.md'), 'utf8').matchAll(/^!`([^`]+)`$/gm),
    ].map((m) => m[1]);
    const r = shell(`${line as string} --json`, project, env);
    expect(r.status, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { counts: Record<string, number> }).counts.executions).toBe(1);
  });
});

describe("the installed plugin in a project with Credence installed: the project's Credence runs", () => {
  it('the hooks learn the calls, quietly', () => {
    const { project, env } = scratchProject('with-install', true);
    const session = { session_id: 's2', cwd: project, transcript_path: join(dir, 'none.jsonl') };
    const events: Json[] = [
      { hook_event_name: 'SessionStart', source: 'startup' },
      { hook_event_name: 'PostToolUse', tool_name: 'Read', tool_input: { file_path: 'a.json' }, tool_response: '{}' },
      { hook_event_name: 'PostToolUse', tool_name: 'Grep', tool_input: { pattern: 'port' }, tool_response: 'port: 1' },
      { hook_event_name: 'Stop', stop_hook_active: false },
    ];
    for (const event of events) {
      const r = shell(hookCommand(event.hook_event_name), project, env, JSON.stringify({ ...session, ...event }));
      expect(r.status, event.hook_event_name).toBe(0);
      expect(r.stderr, event.hook_event_name).toBe('');
    }
    const status = shell(`node "${repo}/bin/credence.cjs" status --json`, project, env);
    expect(status.status, status.stderr).toBe(0);
    const counts = (JSON.parse(status.stdout) as { counts: Record<string, number> }).counts;
    expect(counts.executions).toBeGreaterThanOrEqual(1);
    expect(counts.tools).toBeGreaterThanOrEqual(2);
  });

  it('the MCP server starts and /credence:status runs', async () => {
    const { project, env } = scratchProject('with-install-mcp', true);
    const server = manifest.mcpServers.credence as { command: string; args: string[] };
    const args = server.args.map((a) => a.replaceAll('${CLAUDE_PLUGIN_ROOT}', pluginRoot));
    const client = new Client({ name: 'plugin-cache-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({ command: server.command, args, cwd: project, env, stderr: 'pipe' }),
    );
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(expect.arrayContaining(['recall']));
    } finally {
      await client.close();
    }
    const [line] = [
      ...readFileSync(join(pluginRoot, 'plugin', 'commands', 'status.md'), 'utf8').matchAll(/^!`([^`]+)`$/gm),
    ].map((m) => m[1]);
    const r = shell(line as string, project, env);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(env.CREDENCE_DB);
  });
});
