/**
 * What a newcomer does with the package (issue 17): `npm pack` the repository, install the tarball
 * in a scratch project outside it, run the CLI through npx, wire the project for Claude Code and
 * start the MCP server exactly as `.mcp.json` says, and compile a strict TypeScript consumer
 * (`skipLibCheck: false`) against the installed declarations.
 *
 * One `npm install` for the whole file (it builds or fetches better-sqlite3's addon: minutes, not
 * seconds). It runs against `dist/` as built by `npm test`'s build step (`npm pack --ignore-scripts`,
 * so nothing is built twice). It skips, saying so, only when npm cannot get the packages from its
 * cache or the registry.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

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
    ['install', tarball, `@types/node@${typesNodeVersion}`, '--prefer-offline', '--no-audit', '--no-fund'],
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
}, INSTALL_TIMEOUT + 60_000);

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
      ]),
    );
    expect(packed.filter((p) => p.startsWith('dist/bench/') || p.startsWith('dist/eval/'))).toEqual([]);
    expect(packed.filter((p) => p.endsWith('.map'))).toEqual([]);
    expect(packed.filter((p) => /\.test\./.test(p))).toEqual([]);
  });

  it('installed from the tarball, npx credence runs --help and status', (ctx) => {
    if (skipped !== undefined) return ctx.skip();
    const help = npx(['--help']);
    expect(help.status, shown(help)).toBe(0);
    expect(help.stdout).toContain('Usage: credence');
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
    expect(entry).toEqual({
      command: 'node',
      args: [join(project, 'node_modules', 'credence', 'bin', 'credence.cjs'), 'serve', '--stdio'],
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
