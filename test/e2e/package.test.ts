/**
 * What a newcomer does with the package (issue 17): `npm pack` the repository (`--ignore-scripts`: `dist/` as
 * `npm test` built it), install the tarball in a scratch project outside it, run the CLI through npx, wire the
 * project for Claude Code and start the MCP server as `.mcp.json` says, and compile a strict TypeScript consumer
 * (`skipLibCheck: false`) against the installed declarations. One `npm install` for the file, `--ignore-scripts`:
 * better-sqlite3's addon is the one the repository's own install compiled (a minute of CI's twenty), copied in when
 * the versions match, else built by `npm rebuild better-sqlite3`. It skips, saying so, only when npm cannot get the
 * packages from its cache or the registry.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEMA_VERSION } from '../../src/core/schema.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const tsc = join(repo, 'node_modules', 'typescript', 'bin', 'tsc');
const typesNodeVersion = (
  JSON.parse(readFileSync(join(repo, 'node_modules', '@types', 'node', 'package.json'), 'utf8')) as { version: string }
).version;
const root = mkdtempSync(join(tmpdir(), 'credence-package-'));
const project = join(root, 'project');
const db = join(root, 'store', 'credence.db');
afterAll(() => rmSync(root, { recursive: true, force: true }));

const INSTALL_TIMEOUT = 20 * 60_000;
/** npm's messages for "the registry cannot be reached" (and nothing in the cache to fall back on). */
const UNREACHABLE = /\b(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH|ENOTCACHED)\b/;

function run(
  command: string,
  args: readonly string[],
  cwd: string,
  env: Record<string, string> = {},
  timeout = 5 * 60_000,
): SpawnSyncReturns<string> {
  return spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    timeout,
    env: { ...process.env, CREDENCE_DB: db, CREDENCE_DATABASE_URL: '', CREDENCE_SCOPE: '', CREDENCE_NOW: '', ...env },
  });
}
const npm = (args: readonly string[], cwd: string, timeout?: number) => run('npm', args, cwd, {}, timeout);
const npx = (args: readonly string[]) => run('npx', ['credence', ...args], project);
const shown = (r: SpawnSyncReturns<string>): string => `exit ${r.status}\n${r.stdout}\n${r.stderr}`;

let packed: string[] = [];
let skipped: string | undefined;

beforeAll(() => {
  if (!existsSync(join(repo, 'dist', 'src', 'index.js')) || !existsSync(join(repo, 'dist', 'hook-prompt.cjs'))) {
    throw new Error('dist/ is not built: run `npm run build` (npm test does) before this file');
  }
  const packDir = join(root, 'pack');
  mkdirSync(packDir);
  const pack = npm(['pack', '--ignore-scripts', '--json', '--pack-destination', packDir], repo);
  if (pack.status !== 0) throw new Error(`npm pack failed: ${shown(pack)}`);
  const report = JSON.parse(pack.stdout.slice(pack.stdout.indexOf('['))) as {
    filename: string;
    files: { path: string }[];
  }[];
  packed = (report[0]?.files ?? []).map((f) => f.path);
  const tarball = join(packDir, report[0]?.filename ?? '');

  mkdirSync(project);
  writeFileSync(
    join(project, 'package.json'),
    `${JSON.stringify({ name: 'scratch', private: true, type: 'module' }, null, 2)}\n`,
  );
  expect(run('git', ['init', '-q'], project).status).toBe(0);
  const install = npm(
    [
      'install',
      tarball,
      `@types/node@${typesNodeVersion}`,
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      '--ignore-scripts',
    ],
    project,
    INSTALL_TIMEOUT,
  );
  if (install.status !== 0 && UNREACHABLE.test(install.stderr)) {
    skipped =
      'skipping: npm could not get the packages (neither from its cache nor the registry): ' +
      `${UNREACHABLE.exec(install.stderr)?.[1]}`;
    console.log(skipped);
    return;
  }
  if (install.status !== 0) throw new Error(`npm install of the tarball failed: ${shown(install)}`);
  addSqliteAddon();
}, INSTALL_TIMEOUT + 60_000);

/** better-sqlite3's addon in the scratch project: the repository's build when it is the same version, else built. */
function addSqliteAddon(): void {
  const version = (dir: string) =>
    (
      JSON.parse(readFileSync(join(dir, 'node_modules', 'better-sqlite3', 'package.json'), 'utf8')) as {
        version: string;
      }
    ).version;
  const addon = join('node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
  if (version(repo) === version(project) && existsSync(join(repo, addon))) {
    mkdirSync(dirname(join(project, addon)), { recursive: true });
    copyFileSync(join(repo, addon), join(project, addon));
    return;
  }
  const rebuild = npm(['rebuild', 'better-sqlite3'], project, INSTALL_TIMEOUT);
  if (rebuild.status !== 0) throw new Error(`npm rebuild better-sqlite3 failed: ${shown(rebuild)}`);
}

describe('the npm package (issue 17)', () => {
  it('npm in the repository warns about no unknown config key', () => {
    const r = npm(['config', 'list'], repo);
    expect(r.status).toBe(0);
    expect(r.stderr).not.toMatch(/Unknown (project|env|user|builtin|cli) config/);
  });

  it('the tarball holds only what runs: no bench, eval, source maps or tests', () => {
    expect(packed).toEqual(
      expect.arrayContaining([
        'bin/credence.cjs',
        'dist/src/index.js',
        'dist/src/index.d.ts',
        'dist/src/mcp/index.js',
        'dist/cli.cjs',
        'dist/hook-fast.cjs',
        'dist/hook-prompt.cjs',
        'dist/hook-start.cjs',
        'data/word-vectors.bin',
        'src/web/assets/index.html',
        'LICENSE',
      ]),
    );
    expect(packed).toEqual(
      expect.arrayContaining([
        '.claude-plugin/plugin.json',
        '.claude-plugin/marketplace.json',
        'plugin/hooks.json',
        'plugin/launch.cjs',
      ]),
    );
    expect(packed.filter((p) => p.startsWith('dist/bench/') || p.startsWith('dist/eval/'))).toEqual([]);
    expect(packed.filter((p) => p.endsWith('.map'))).toEqual([]);
    expect(packed.filter((p) => /\.test\./.test(p))).toEqual([]);
  });

  it('every relative link of the packed README and guides names a file in the tarball', () => {
    const guides = packed.filter((p) => p === 'README.md' || /^docs\/[^/]+\.md$/.test(p));
    expect(guides).toEqual(expect.arrayContaining(['README.md', 'docs/cli.md']));
    const missing: string[] = [];
    for (const guide of guides) {
      const text = readFileSync(join(repo, guide), 'utf8');
      for (const [, target] of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        if (target === undefined || /^[a-z]+:/.test(target)) continue;
        const file = posix.normalize(posix.join(posix.dirname(guide), target));
        if (!packed.includes(file)) missing.push(`${guide} -> ${target}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('installed from the tarball, npx credence runs --help, --version and status', (ctx) => {
    if (skipped !== undefined) return ctx.skip();
    const help = npx(['--help']);
    expect(help.status, shown(help)).toBe(0);
    expect(help.stdout).toContain('Usage: credence');
    const version = npx(['--version']);
    expect(version.status, shown(version)).toBe(0);
    expect(version.stdout).toBe(
      `${(JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { version: string }).version} ` +
        `(schema ${SCHEMA_VERSION})\n`,
    );
    const status = npx(['status']);
    expect(status.status, shown(status)).toBe(0);
    expect(status.stdout).toContain(db);
  });

  it('init --claude-code writes an MCP server entry that starts as written and lists the tools', async (ctx) => {
    if (skipped !== undefined) return ctx.skip();
    const init = npx(['init', '--claude-code']);
    expect(init.status, shown(init)).toBe(0);
    const settings = readFileSync(join(project, '.claude', 'settings.json'), 'utf8');
    expect(settings).toContain('\\"$CLAUDE_PROJECT_DIR\\"/node_modules/.bin/credence hook claude-code');
    const entry = (
      JSON.parse(readFileSync(join(project, '.mcp.json'), 'utf8')) as {
        mcpServers: Record<string, { command: string; args: string[] }>;
      }
    ).mcpServers.credence;
    // The store this shell chose (CREDENCE_DB) is the one written for Claude Code (walk 16, item 5).
    expect(entry).toEqual({
      command: 'node',
      args: [join(project, 'node_modules', 'credence', 'bin', 'credence.cjs'), 'serve', '--stdio'],
      env: { CREDENCE_DB: db },
    });
    const transport = new StdioClientTransport({
      command: entry!.command,
      args: entry!.args,
      cwd: project,
      env: { PATH: process.env.PATH ?? '', HOME: root, CREDENCE_DB: db },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'package-test', version: '1.0.0' });
    try {
      await client.connect(transport);
      expect(client.getServerVersion()?.name).toBe('credence');
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(
        expect.arrayContaining(['search_tools', 'execute_dag', 'recall', 'observe']),
      );
      expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['recall', 'status', 'evolve']);
    } finally {
      await client.close();
    }
  });

  it('a strict consumer (skipLibCheck false) compiles against the declarations, and a wrong shape does not', (ctx) => {
    if (skipped !== undefined) return ctx.skip();
    const consumer = (file: string, body: string): SpawnSyncReturns<string> => {
      writeFileSync(join(project, file), body);
      const config = {
        compilerOptions: {
          strict: true,
          skipLibCheck: false,
          noEmit: true,
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          types: ['node'],
        },
        files: [file],
      };
      writeFileSync(join(project, 'tsconfig.json'), JSON.stringify(config));
      return run(process.execPath, [tsc, '-p', 'tsconfig.json'], project);
    };
    const good = consumer(
      'good.ts',
      [
        "import { openCredence, openSqliteStore, type Credence } from 'credence';",
        "import { createMcpSession } from 'credence/mcp';",
        "const credence: Credence = await openCredence({ store: openSqliteStore({ path: ':memory:' }), scope: 'p' });",
        "await credence.addTools([{ id: 'read_file', description: 'Reads a file' }]);",
        "await credence.remember([{ title: 'Caching', text: 'We cache sessions in Redis.', tags: ['redis'] }]);",
        "await credence.observe([{ timestamp: '2026-02-02T09:00:00Z', type: 'success', " +
          "observation: 'tests passed', confidence: 0.6 }]);",
        'void createMcpSession;',
        '',
      ].join('\n'),
    );
    expect(good.status, shown(good)).toBe(0);
    const bad = consumer(
      'bad.ts',
      "import { openCredence } from 'credence';\n" +
        'const credence = await openCredence({});\n' +
        'await credence.remember([{ titel: 1 }]);\n',
    );
    expect(bad.status).not.toBe(0);
    expect(bad.stdout).toMatch(/bad\.ts\(3,\d+\): error TS\d+/);
    expect(bad.stdout).not.toMatch(/node_modules/);
  });
});

/**
 * Issue 22's "Done when", on the package installed above: `init --claude-code`, the MCP server (the
 * test above lists its tools and prompts), the plugin inside the package, an import of a transcript
 * folder written in Claude Code's format (a second import adds nothing), then three sessions of hook
 * events run as `.claude/settings.json` says, after which a session start tells the agent what the
 * recent sessions did and a skill learned without anyone running `evolve`.
 */
describe('Claude Code, day one (issue 22)', () => {
  const home = join(root, 'home');
  /** The hook command line of one event as `.claude/settings.json` holds it, run through the shell. */
  const hookFromSettings = (event: Record<string, unknown>, at: string): SpawnSyncReturns<string> => {
    const settings = JSON.parse(readFileSync(join(project, '.claude', 'settings.json'), 'utf8')) as {
      hooks: Record<string, { hooks: { command: string }[] }[]>;
    };
    const command = settings.hooks[event.hook_event_name as string]?.[0]?.hooks[0]?.command ?? '';
    expect(command).toContain('hook claude-code');
    return spawnSync('/bin/sh', ['-c', command], {
      cwd: project,
      encoding: 'utf8',
      timeout: 60_000,
      input: JSON.stringify({ cwd: project, ...event }),
      env: {
        PATH: process.env.PATH ?? '',
        HOME: home,
        CLAUDE_PROJECT_DIR: project,
        CREDENCE_DB: db,
        CREDENCE_NOW: at,
        // Each stop's learning (and the evolve it may start) has ended when the hook returns.
        CREDENCE_HOOK_WAIT: '1',
      },
    });
  };
  const cli = (args: readonly string[], at = '2026-03-01T09:00:00Z') =>
    run('npx', ['credence', ...args], project, { HOME: home, CREDENCE_NOW: at });
  const counts = (): Record<string, number> => {
    const r = cli(['status', '--json']);
    expect(r.status, shown(r)).toBe(0);
    return (JSON.parse(r.stdout) as { counts: Record<string, number> }).counts;
  };

  beforeAll(() => mkdirSync(home, { recursive: true }));
  let startContext: string | undefined;

  it('the plugin inside the installed package runs its hook command', (ctx) => {
    if (skipped !== undefined) return ctx.skip();
    const plugin = join(project, 'node_modules', 'credence');
    const hooks = JSON.parse(readFileSync(join(plugin, 'plugin', 'hooks.json'), 'utf8')) as {
      hooks: Record<string, { hooks: { command: string }[] }[]>;
    };
    const command = hooks.hooks.SessionStart?.[0]?.hooks[0]?.command ?? '';
    const r = spawnSync('/bin/sh', ['-c', command], {
      cwd: project,
      encoding: 'utf8',
      input: JSON.stringify({ session_id: 'plugin', cwd: project, hook_event_name: 'SessionStart', source: 'startup' }),
      env: { PATH: process.env.PATH ?? '', HOME: home, CLAUDE_PLUGIN_ROOT: plugin, CREDENCE_DB: db },
    });
    expect(r.status, shown(r)).toBe(0);
    expect(r.stderr).toBe('');
  });

  it('imports a folder of past transcripts, counts printed; importing again adds nothing', (ctx) => {
    if (skipped !== undefined) return ctx.skip();
    expect(npx(['init', '--claude-code']).status).toBe(0);
    // Where Claude Code keeps this project's sessions: ~/.claude/projects/<the path, each other character a dash>.
    const folder = join(home, '.claude', 'projects', realpathSync(project).replace(/[^A-Za-z0-9]/g, '-'));
    mkdirSync(folder, { recursive: true });
    for (const [i, id] of ['0b6c2a52-5f0e-4a55-9d3c-1f1e2d3c4b5a', '7e1d9c33-2a4b-4c6d-8e0f-a1b2c3d4e5f6'].entries())
      writeFileSync(join(folder, `${id}.jsonl`), transcript(id, project, `2026-02-2${i}T10:00:00.000Z`));
    const first = cli(['import', '--claude-code']);
    expect(first.status, shown(first)).toBe(0);
    expect(first.stdout).toMatch(/sessions\s+2\b/);
    expect(first.stdout).toMatch(/tool calls\s+6 \(2 failed\)/);
    const before = counts();
    expect(before.executions).toBeGreaterThanOrEqual(2);
    const again = cli(['import', '--claude-code', '--json']);
    expect(again.status, shown(again)).toBe(0);
    expect((JSON.parse(again.stdout) as { alreadyImported: number }).alreadyImported).toBeGreaterThan(0);
    expect(counts()).toEqual(before);
  });

  it('three sessions later, the session start holds a skill nobody ran evolve for', (ctx) => {
    if (skipped !== undefined) return ctx.skip();
    for (const day of [1, 2, 3]) {
      const at = `2026-03-0${day}T10:00:00Z`;
      const session = { session_id: `live-${day}` };
      const events: Record<string, unknown>[] = [
        { hook_event_name: 'SessionStart', source: 'startup' },
        { hook_event_name: 'UserPromptSubmit', prompt: 'Install the dependencies' },
        {
          hook_event_name: 'PostToolUse',
          tool_name: 'Bash',
          tool_input: { command: 'npm install' },
          tool_response: { stdout: 'added 12 packages', stderr: '' },
        },
        { hook_event_name: 'UserPromptSubmit', prompt: 'No, use pnpm instead of npm.' },
        // Once, in the second session: a call that fails, then the same call succeeding after an edit.
        ...(day === 2
          ? [
              {
                hook_event_name: 'PostToolUseFailure',
                tool_name: 'Bash',
                tool_input: { command: 'pnpm run build' },
                error: 'Exit code 1',
              },
              {
                hook_event_name: 'PostToolUse',
                tool_name: 'Edit',
                tool_input: { file_path: join(project, 'tsconfig.json') },
                tool_response: 'ok',
              },
              {
                hook_event_name: 'PostToolUse',
                tool_name: 'Bash',
                tool_input: { command: 'pnpm run build' },
                tool_response: { stdout: 'built', stderr: '' },
              },
            ]
          : []),
        {
          hook_event_name: 'PostToolUse',
          tool_name: 'Edit',
          tool_input: { file_path: join(project, 'package.json') },
          tool_response: 'ok',
        },
        { hook_event_name: 'Stop', stop_hook_active: false },
        { hook_event_name: 'SessionEnd', reason: 'exit' },
      ];
      for (const event of events) {
        const r = hookFromSettings({ ...session, ...event }, at);
        expect(r.status, shown(r)).toBe(0);
      }
    }
    expect(readdirSync(join(project, '.claude', 'skills'))).toEqual([expect.stringContaining('pnpm')]);
    const start = hookFromSettings(
      { session_id: 'live-4', hook_event_name: 'SessionStart', source: 'startup' },
      '2026-03-04T10:00:00Z',
    );
    expect(start.status, shown(start)).toBe(0);
    const context = (JSON.parse(start.stdout) as { hookSpecificOutput: { additionalContext: string } })
      .hookSpecificOutput.additionalContext;
    // The imported sessions' corrections (late February, past evolve's 7 days) are read too (the user's own words
    // at any age inside the 90 days): five times told, the skill may be established (1.00).
    expect(context).toMatch(/\[SKILL\] [^\n]*pnpm[^\n]*\[confidence:(?:0\.\d\d|1\.00)\]/);
    startContext = context;
  });

  it('that session start summarises the recent sessions (files, a failure and its fix) in <= 1,500 chars', (ctx) => {
    if (skipped !== undefined || startContext === undefined) return ctx.skip();
    expect(startContext.length).toBeLessThanOrEqual(1_500);
    expect(startContext).toMatch(/recent sessions/i);
    expect(startContext).toContain('package.json');
    expect(startContext).toContain('pnpm run build');
    expect(startContext).toContain('tsconfig.json');
    // Deterministic: the same store and time give the same text.
    const again = hookFromSettings(
      { session_id: 'live-4', hook_event_name: 'SessionStart', source: 'startup' },
      '2026-03-04T10:00:00Z',
    );
    expect(JSON.parse(again.stdout).hookSpecificOutput.additionalContext).toBe(startContext);
  });
});

/**
 * One session's transcript as Claude Code writes it (`~/.claude/projects/<project>/<session>.jsonl`):
 * a prompt, tool calls and their results (one a failure), and the user's correction.
 */
function transcript(sessionId: string, cwd: string, start: string): string {
  let t = Date.parse(start);
  let parent: string | null = null;
  let n = 0;
  const lines: string[] = [];
  const line = (type: 'user' | 'assistant', message: unknown, extra: Record<string, unknown> = {}) => {
    n += 1;
    const uuid = `${sessionId.slice(0, 8)}-0000-4000-8000-${String(n).padStart(12, '0')}`;
    lines.push(
      JSON.stringify({
        parentUuid: parent,
        isSidechain: false,
        userType: 'external',
        cwd,
        sessionId,
        version: '2.1.0',
        gitBranch: 'main',
        type,
        message,
        uuid,
        timestamp: new Date(t).toISOString(),
        ...extra,
      }),
    );
    parent = uuid;
    t += 5_000;
  };
  const call = (id: string, name: string, input: Record<string, unknown>, result: string, isError = false) => {
    line('assistant', {
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: [{ type: 'tool_use', id, name, input }],
    });
    line(
      'user',
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: result, is_error: isError }] },
      { toolUseResult: isError ? `Error: ${result}` : { stdout: result, stderr: '', interrupted: false } },
    );
  };
  const tag = sessionId.slice(0, 4);
  line('user', { role: 'user', content: 'Run the tests and fix what fails' });
  call(`toolu_${tag}1`, 'Bash', { command: 'npm test' }, '1 failing: parses the config', true);
  call(`toolu_${tag}2`, 'Read', { file_path: join(cwd, 'src', 'config.js') }, 'export const port = "80";');
  call(`toolu_${tag}3`, 'Edit', { file_path: join(cwd, 'src', 'config.js') }, 'The file has been updated.');
  line('user', { role: 'user', content: "No, don't use npm here; this project uses pnpm." });
  return `${lines.join('\n')}\n`;
}
