/**
 * `credence --database-url URL init --claude-code` on a team store (PGlite, test/pglite): the hooks and the MCP
 * server it writes carry no URL and no password, and run with CREDENCE_REQUIRE_DATABASE_URL=1, so that started
 * without CREDENCE_DATABASE_URL (Claude Code opened from an IDE without the shell profile) they say so in one line
 * and keep nothing, instead of learning into ~/.credence/credence.db. The PGlite server runs on this process's
 * event loop: every child is spawned asynchronously.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPglite, type PgliteServer } from '../pglite.js';

const bin = fileURLToPath(new URL('../../bin/credence.cjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'credence-init-team-'));
const home = join(dir, 'home');
const project = join(dir, 'app');
mkdirSync(home);
mkdirSync(project);
const env = {
  PATH: process.env.PATH ?? '',
  HOME: home,
  CREDENCE_DB: '',
  CREDENCE_DATABASE_URL: '',
  CREDENCE_DATABASE_SCHEMA: '',
  CREDENCE_SCOPE: 'p',
};

function run(command: string, args: readonly string[], extra: Record<string, string> = {}, input = '') {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(command, args, { cwd: project, env: { ...env, ...extra }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

let server: PgliteServer;
let url: string;
beforeAll(async () => {
  server = await startPglite();
  url = server.url.replace('postgres@', 'postgres:Team-Secret-PW@');
}, 30_000);
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const read = (file: string) => JSON.parse(readFileSync(join(project, file), 'utf8'));
const hookCommands = (): string[] =>
  Object.values(read('.claude/settings.json').hooks as Record<string, { hooks: { command: string }[] }[]>).flatMap(
    (groups) => groups.flatMap((g) => g.hooks.map((h) => h.command)),
  );

describe('init --claude-code given a database URL', () => {
  it('writes hooks and an MCP server that require the URL from the environment, and never the password', async () => {
    const init = await run(process.execPath, [bin, '--database-url', url, 'init', '--claude-code']);
    expect(init.stderr).toBe('');
    expect(init.code).toBe(0);
    expect(init.stdout).toContain('Team store: the hooks and the MCP server take CREDENCE_DATABASE_URL');
    expect(init.stdout).not.toContain('Team-Secret-PW');
    for (const file of ['.claude/settings.json', '.mcp.json']) {
      const text = readFileSync(join(project, file), 'utf8');
      expect([file, text.includes('Team-Secret-PW'), text.includes(server.url.split('@')[1] as string)]).toEqual([
        file,
        false,
        false,
      ]);
    }
    const commands = hookCommands();
    expect(commands).toHaveLength(8);
    for (const c of commands)
      expect(c).toBe(`CREDENCE_REQUIRE_DATABASE_URL=1 node ${JSON.stringify(bin)} hook claude-code`);
    const mcp = read('.mcp.json').mcpServers.credence;
    expect(mcp).toEqual({
      command: 'node',
      args: [bin, 'serve', '--stdio'],
      env: { CREDENCE_REQUIRE_DATABASE_URL: '1' },
    });

    // Started without CREDENCE_DATABASE_URL: one line, exit 0, and no SQLite file (nor spool) made.
    for (const event of ['SessionStart', 'UserPromptSubmit', 'PostToolUse', 'Stop']) {
      const payload = { session_id: 's', hook_event_name: event, cwd: project, prompt: 'p', tool_name: 'Bash' };
      const r = await run('sh', ['-c', commands[0] as string], { CREDENCE_HOOK_WAIT: '1' }, JSON.stringify(payload));
      expect([event, r.code, r.stdout]).toEqual([event, 0, '']);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/^credence hook: CREDENCE_REQUIRE_DATABASE_URL=1 .*CREDENCE_DATABASE_URL is not set/);
    }
    expect(existsSync(join(home, '.credence'))).toBe(false);
    // The MCP server refuses too, naming the variable, and opens no SQLite file.
    const serve = await run(mcp.command, mcp.args, mcp.env);
    expect(serve.code).not.toBe(0);
    expect(serve.stderr).toContain('CREDENCE_DATABASE_URL is not set');
    expect(existsSync(join(home, '.credence'))).toBe(false);

    // With the variable the hooks learn into the team store.
    const withUrl = { CREDENCE_DATABASE_URL: url, CREDENCE_HOOK_WAIT: '1' };
    for (const payload of [
      { hook_event_name: 'UserPromptSubmit', prompt: 'team store check' },
      { hook_event_name: 'PostToolUse', tool_name: 'Grep', tool_input: { pattern: 'q' }, tool_response: 'none' },
      { hook_event_name: 'Stop' },
    ]) {
      const r = await run(
        'sh',
        ['-c', commands[0] as string],
        withUrl,
        JSON.stringify({ session_id: 't', cwd: project, ...payload }),
      );
      expect([payload.hook_event_name, r.code, r.stderr]).toEqual([payload.hook_event_name, 0, '']);
    }
    const runs = await run(process.execPath, [bin, 'runs', '--limit', '1'], { CREDENCE_DATABASE_URL: url });
    expect(runs.stdout).toContain('team store check');
    expect(existsSync(join(home, '.credence', 'credence.db'))).toBe(false);
  }, 60_000);

  // Fix B2 (review B, 7): a schema hand-written in only one of the two files stayed split after re-init, unsaid.
  it('re-init naming no schema keeps one in one file only, writes it to both and says so on stderr', async () => {
    const mcp = read('.mcp.json');
    mcp.mcpServers.credence.env.CREDENCE_DATABASE_SCHEMA = 'team_a';
    writeFileSync(join(project, '.mcp.json'), JSON.stringify(mcp));
    const init = await run(process.execPath, [bin, 'init', '--claude-code'], { CREDENCE_DATABASE_URL: url });
    expect(init.code).toBe(0);
    expect(init.stderr).toBe(
      "credence init: .claude/settings.json's hook commands name schema none (public) but .mcp.json's credence " +
        'server team_a: init kept team_a (from .mcp.json) in both\n',
    );
    for (const c of hookCommands())
      expect(c).toBe(
        `CREDENCE_REQUIRE_DATABASE_URL=1 CREDENCE_DATABASE_SCHEMA=team_a node ${JSON.stringify(bin)} hook claude-code`,
      );
    const again = await run(process.execPath, [bin, 'init', '--claude-code'], { CREDENCE_DATABASE_URL: url });
    expect([again.code, again.stderr]).toEqual([0, '']);
  }, 30_000);

  it('init on the SQLite file takes the requirement out again', async () => {
    const db = join(dir, 'solo.db');
    const init = await run(process.execPath, [bin, '--db', db, 'init', '--claude-code']);
    expect(init.code).toBe(0);
    expect(init.stdout).not.toContain('Team store');
    for (const c of hookCommands()) expect(c).toBe(`CREDENCE_DB=${db} node ${JSON.stringify(bin)} hook claude-code`);
    expect(read('.mcp.json').mcpServers.credence).toEqual({
      command: 'node',
      args: [bin, 'serve', '--stdio'],
      env: { CREDENCE_DB: db },
    });
  }, 30_000);
});
