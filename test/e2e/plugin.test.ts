/**
 * The Claude Code plugin (issue 22): the repository (and the npm package) is a plugin root and a
 * one-plugin marketplace. Checks the files Claude Code reads are valid and point at what exists,
 * that the hooks are exactly `credence init --claude-code`'s (src/hooks/install.ts) with the
 * plugin's launcher (plugin/launch.cjs) through `${CLAUDE_PLUGIN_ROOT}`, and that every command the
 * plugin names runs: each hook event through a shell as Claude Code runs it (a temp store; the calls
 * are learned), the MCP server (tools and prompts), and each slash command's shell line. What an
 * installed plugin (Claude Code's cached copy) does: test/e2e/plugin-cache.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, describe, expect, it } from 'vitest';
import { CLAUDE_CODE_HOOKS, mergeHookSettings } from '../../src/hooks/install.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const pluginRoot = repo.replace(/\/$/, '');
const dir = mkdtempSync(join(tmpdir(), 'credence-plugin-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The hook command the plugin names: its launcher (plugin/launch.cjs), wherever Claude Code put the plugin. */
const PLUGIN_HOOK_COMMAND = 'node "${CLAUDE_PLUGIN_ROOT}/plugin/launch.cjs" hook claude-code';

type Json = Record<string, any>;
const readJson = (path: string): Json => JSON.parse(readFileSync(join(repo, path), 'utf8')) as Json;
const manifest = readJson('.claude-plugin/plugin.json');
const marketplace = readJson('.claude-plugin/marketplace.json');
const KEBAB = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** A manifest path: relative, starting `./`, never leaving the plugin root, and existing. */
function pluginPath(value: unknown): string {
  expect(typeof value).toBe('string');
  const path = value as string;
  expect(path.startsWith('./'), path).toBe(true);
  expect(path.split('/'), path).not.toContain('..');
  const full = resolve(repo, path);
  expect(existsSync(full), `${path} exists`).toBe(true);
  return full;
}

/** The `---` front matter of a Markdown file as key → text (one line a key, as the plugin's files are written). */
function frontMatter(text: string): Record<string, string> {
  const match = /^---\n([\s\S]*?)\n---\n/.exec(text);
  expect(match, 'front matter').not.toBeNull();
  const fields: Record<string, string> = {};
  for (const line of (match?.[1] ?? '').split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) fields[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return fields;
}

/** A project as Claude Code would run the plugin in: a git repository, a store of its own. */
function scratchProject(name: string): { project: string; env: Record<string, string>; db: string } {
  const project = join(dir, name);
  mkdirSync(project, { recursive: true });
  expect(spawnSync('git', ['init', '-q'], { cwd: project }).status).toBe(0);
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: join(dir, `${name}-home`),
    CLAUDE_PLUGIN_ROOT: pluginRoot,
    CLAUDE_PROJECT_DIR: project,
    CREDENCE_DB: join(dir, `${name}.db`),
    CREDENCE_NOW: '2026-03-02T10:00:00Z',
    // A stop's learning runs in a process of its own; the checks read what it learned.
    CREDENCE_HOOK_WAIT: '1',
  };
  mkdirSync(env.HOME);
  return { project, env, db: env.CREDENCE_DB };
}

/** Runs a command line through the shell, as Claude Code runs hooks and a command's `!` lines. */
const shell = (line: string, cwd: string, env: Record<string, string>, input?: string) =>
  spawnSync('/bin/sh', ['-c', line], { cwd, env, encoding: 'utf8', timeout: 60_000, ...(input ? { input } : {}) });

describe('the Claude Code plugin files (issue 22)', () => {
  it('the manifest names the plugin and points at its commands, skills and hooks inside the plugin', () => {
    expect(manifest.name).toBe('credence');
    expect(manifest.name).toMatch(KEBAB);
    expect(manifest.version).toBe(readJson('package.json').version);
    for (const key of ['commands', 'skills'] as const)
      expect(statSync(pluginPath(manifest[key])).isDirectory()).toBe(true);
    expect(statSync(pluginPath(manifest.hooks)).isFile()).toBe(true);
  });

  it('the marketplace lists the plugin with the repository itself as its source', () => {
    expect(marketplace.name).toMatch(KEBAB);
    expect(typeof marketplace.owner?.name).toBe('string');
    expect(marketplace.plugins).toHaveLength(1);
    const [entry] = marketplace.plugins as Json[];
    expect(entry?.name).toBe(manifest.name);
    expect(entry?.source).toBe('./');
    expect(existsSync(join(resolve(repo, entry?.source), '.claude-plugin', 'plugin.json'))).toBe(true);
  });

  it("the hooks are init --claude-code's events and settings, each running the plugin's launcher", () => {
    const hooks = JSON.parse(readFileSync(pluginPath(manifest.hooks), 'utf8')) as Json;
    // init writes the bin itself; the plugin runs its launcher (plugin/launch.cjs), which runs a bin
    // with the same arguments.
    const binCommand = 'node "${CLAUDE_PLUGIN_ROOT}/bin/credence.cjs" hook claude-code';
    const withLauncher = JSON.parse(mergeHookSettings(undefined, { command: binCommand }).text).hooks as Json;
    for (const groups of Object.values(withLauncher) as Json[][])
      for (const group of groups) for (const hook of group.hooks as Json[]) hook.command = PLUGIN_HOOK_COMMAND;
    expect(hooks.hooks).toEqual(withLauncher);
    expect(Object.keys(hooks.hooks)).toEqual(CLAUDE_CODE_HOOKS.map((spec) => spec.event));
  });

  it('each hook event, run through the shell as the plugin names it, exits 0 quietly; the calls are learned', () => {
    const { project, env } = scratchProject('hooks');
    const hooks = JSON.parse(readFileSync(pluginPath(manifest.hooks), 'utf8')).hooks as Json;
    const session = { session_id: 'plugin-1', cwd: project, transcript_path: join(dir, 'none.jsonl') };
    const payloads: Record<string, Json[]> = {
      SessionStart: [{ source: 'startup' }],
      UserPromptSubmit: [{ prompt: 'read the config and parse it' }],
      PreToolUse: [{ tool_name: 'Read', tool_input: { file_path: join(project, 'config.json') } }],
      PostToolUse: [
        { tool_name: 'Read', tool_input: { file_path: join(project, 'config.json') }, tool_response: '{}' },
        { tool_name: 'Grep', tool_input: { pattern: 'port' }, tool_response: 'port: 1' },
      ],
      PostToolUseFailure: [{ tool_name: 'Bash', tool_input: { command: 'npm test' }, error: 'exit 1' }],
      Stop: [{ stop_hook_active: false }],
      SessionEnd: [{ reason: 'exit' }],
    };
    for (const spec of CLAUDE_CODE_HOOKS) {
      const command = hooks[spec.event][0].hooks[0].command as string;
      for (const payload of payloads[spec.event] ?? []) {
        const r = shell(command, project, env, JSON.stringify({ ...session, hook_event_name: spec.event, ...payload }));
        expect(r.status, `${spec.event}: ${r.stderr}`).toBe(0);
        expect(r.stderr, spec.event).toBe('');
      }
    }
    const status = shell(`node "${pluginRoot}/bin/credence.cjs" status --json`, project, env);
    expect(status.status, status.stderr).toBe(0);
    const counts = (JSON.parse(status.stdout) as { counts: Record<string, number> }).counts;
    expect(counts.executions).toBeGreaterThanOrEqual(1);
    expect(counts.tools).toBeGreaterThanOrEqual(3);
  });

  it('the MCP server the manifest names starts and lists the tools and the prompts', async () => {
    const { project, env } = scratchProject('mcp');
    const server = manifest.mcpServers?.credence as { command: string; args: string[] };
    expect(server.command).toBe('node');
    const args = server.args.map((a) => a.replaceAll('${CLAUDE_PLUGIN_ROOT}', pluginRoot));
    expect(existsSync(args[0] as string)).toBe(true);
    const client = new Client({ name: 'plugin-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({ command: server.command, args, cwd: project, env, stderr: 'pipe' }),
    );
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(expect.arrayContaining(['recall', 'evolve']));
      expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['recall', 'status', 'evolve']);
    } finally {
      await client.close();
    }
  });

  it('/credence:recall, /credence:status and /credence:evolve: each described, each shell line runs', () => {
    const { project, env, db } = scratchProject('commands');
    const commands = pluginPath(manifest.commands);
    const files = readdirSync(commands).filter((f) => f.endsWith('.md'));
    expect(files.sort()).toEqual(['evolve.md', 'recall.md', 'status.md']);
    const remember = shell(
      `node "${pluginRoot}/bin/credence.cjs" remember --title "Release checklist" "Tag, then publish."`,
      project,
      env,
    );
    expect(remember.status, remember.stderr).toBe(0);
    const args: Record<string, string> = {
      'recall.md': 'release checklist',
      'status.md': '',
      'evolve.md': '--dry-run',
    };
    const said: Record<string, string> = {
      'recall.md': 'Release checklist',
      'status.md': db,
      'evolve.md': 'dry run',
    };
    for (const file of files) {
      const text = readFileSync(join(commands, file), 'utf8');
      const fields = frontMatter(text);
      expect(fields.description?.length, file).toBeGreaterThan(10);
      expect(fields['allowed-tools'], file).toBe('Bash(node:*)');
      const lines = [...text.matchAll(/^!`([^`]+)`$/gm)].map((m) => m[1] as string);
      expect(lines, file).toHaveLength(1);
      const line = (lines[0] as string).replaceAll('$ARGUMENTS', args[file] ?? '');
      const r = shell(line, project, env);
      expect(r.status, `${file}: ${r.stderr}`).toBe(0);
      expect(r.stdout.toLowerCase(), file).toContain((said[file] ?? '').toLowerCase());
    }
  });

  it('the skills folder holds skills Claude Code can load: SKILL.md named as its folder, with a description', () => {
    const skills = pluginPath(manifest.skills);
    const names = readdirSync(skills);
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) {
      expect(name).toMatch(KEBAB);
      const fields = frontMatter(readFileSync(join(skills, name, 'SKILL.md'), 'utf8'));
      expect(fields.name).toBe(name);
      expect(fields.description?.length).toBeGreaterThan(20);
    }
  });
});
