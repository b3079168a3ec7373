import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../../bin/credence.cjs', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'credence-init-cc-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let count = 0;
/** A fresh project folder (no git repository) and a database outside it. */
function project(): { dir: string; db: string } {
  count += 1;
  const dir = join(root, `project-${count}`);
  mkdirSync(dir);
  return { dir, db: join(root, `store-${count}.db`) };
}

function credence(cwd: string, args: string[]) {
  const result = spawnSync(process.execPath, [bin, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, CREDENCE_DB: '', CREDENCE_NOW: '', CREDENCE_SCOPE: '', HOME: root },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const FILES = ['.claude/settings.json', '.mcp.json', '.credence/observe.json'];
const read = (dir: string, file: string): string => readFileSync(join(dir, file), 'utf8');
const credenceCommands = (settings: any): string[] =>
  Object.values(settings.hooks ?? {})
    .flatMap((groups: any) => groups.flatMap((g: any) => g.hooks.map((h: any) => h.command)))
    .filter((c: string) => c.includes('hook claude-code'));

/**
 * Runs the hook commands `.claude/settings.json` holds in `dir` through the shell as written, for one session's
 * start, a Read and its end (as Claude Code would, `CREDENCE_HOOK_WAIT=1`), with `env` besides: each command's result.
 */
function runSettingsHooks(dir: string, sessionId: string, env: Record<string, string> = {}) {
  const settings = JSON.parse(read(dir, '.claude/settings.json'));
  const session = { session_id: sessionId, cwd: dir };
  const events = [
    { hook_event_name: 'SessionStart', source: 'startup' },
    {
      hook_event_name: 'PostToolUse',
      tool_name: 'Read',
      tool_input: { file_path: join(dir, 'a.txt') },
      tool_response: 'a',
    },
    { hook_event_name: 'SessionEnd', reason: 'exit' },
  ];
  return events.map((event) =>
    spawnSync('/bin/sh', ['-c', settings.hooks[event.hook_event_name][0].hooks[0].command as string], {
      cwd: dir,
      encoding: 'utf8',
      input: JSON.stringify({ ...session, ...event }),
      env: { PATH: process.env.PATH ?? '', HOME: root, CLAUDE_PROJECT_DIR: dir, CREDENCE_HOOK_WAIT: '1', ...env },
    }),
  );
}

describe('credence init --claude-code', () => {
  it('creates the store and writes the hooks, the MCP server, the skills folder and observe.json', () => {
    const { dir, db } = project();
    const r = credence(dir, ['init', '--claude-code', '--db', db]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(db);
    expect(r.stdout).toContain('added 8 hook events to .claude/settings.json');
    expect(existsSync(db)).toBe(true);
    const settings = JSON.parse(read(dir, '.claude/settings.json'));
    expect(Object.keys(settings.hooks)).toEqual([
      'SessionStart',
      'UserPromptSubmit',
      'PreToolUse',
      'PostToolUse',
      'PostToolUseFailure',
      'Stop',
      'SubagentStop',
      'SessionEnd',
    ]);
    expect(settings.hooks.PostToolUse).toEqual([
      {
        matcher: '*',
        hooks: [
          {
            type: 'command',
            command: `CREDENCE_DB=${db} node ${JSON.stringify(bin)} hook claude-code`,
            timeout: 5,
            async: true,
          },
        ],
      },
    ]);
    expect(JSON.parse(read(dir, '.mcp.json'))).toEqual({
      mcpServers: { credence: { command: 'node', args: [bin, 'serve', '--stdio'], env: { CREDENCE_DB: db } } },
    });
    expect(JSON.parse(read(dir, '.credence/observe.json'))).toMatchObject({
      failedCalls: true,
      testRuns: true,
      commits: true,
      corrections: true,
    });
    expect(existsSync(join(dir, '.claude', 'skills'))).toBe(true);
    for (const file of FILES) expect(read(dir, file).endsWith('}\n')).toBe(true);
  });

  it('is idempotent: a second run leaves every file byte-identical and reports unchanged', () => {
    const { dir, db } = project();
    writeFileSync(join(dir, '.mcp.json'), JSON.stringify({ mcpServers: { other: { command: 'other-mcp' } } }));
    expect(credence(dir, ['init', '--claude-code', '--db', db]).code).toBe(0);
    const before = FILES.map((f) => read(dir, f));
    const again = credence(dir, ['init', '--claude-code', '--db', db, '--json']);
    expect(again.code).toBe(0);
    const report = JSON.parse(again.stdout);
    expect(report).toMatchObject({
      db,
      schemaVersion: expect.any(Number),
      claudeCode: { project: dir, action: 'install' },
    });
    expect(report.claudeCode.files.map((f: { status: string }) => f.status)).toEqual([
      'unchanged',
      'unchanged',
      'unchanged',
      'unchanged',
    ]);
    expect(FILES.map((f) => read(dir, f))).toEqual(before);
  });

  it('--hook-command replaces the entries rather than adding a second set', () => {
    const { dir, db } = project();
    credence(dir, ['init', '--claude-code', '--db', db]);
    const command = `node ${bin} hook claude-code`;
    const r = credence(dir, ['init', '--claude-code', '--db', db, '--hook-command', command]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('updated 8 hook events in .claude/settings.json');
    expect(credenceCommands(JSON.parse(read(dir, '.claude/settings.json')))).toEqual(
      Array(8).fill(`CREDENCE_DB=${db} ${command}`),
    );
  });

  it("--remove takes out exactly its own entries and keeps the user's", () => {
    const { dir, db } = project();
    const user = {
      permissions: { allow: ['Bash(npm test)'] },
      hooks: {
        Stop: [{ hooks: [{ type: 'command', command: './notify.sh' }] }],
        PostToolUse: [{ matcher: 'Edit', hooks: [{ type: 'command', command: 'prettier --write' }] }],
      },
    };
    mkdirSync(join(dir, '.claude'));
    writeFileSync(join(dir, '.claude', 'settings.json'), JSON.stringify(user, null, 2));
    writeFileSync(join(dir, '.mcp.json'), JSON.stringify({ mcpServers: { other: { command: 'other-mcp' } } }));
    expect(credence(dir, ['init', '--claude-code', '--db', db]).code).toBe(0);
    const r = credence(dir, ['init', '--claude-code', '--remove']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('removed 8 hook events from .claude/settings.json');
    expect(JSON.parse(read(dir, '.claude/settings.json'))).toEqual(user);
    expect(JSON.parse(read(dir, '.mcp.json'))).toEqual({ mcpServers: { other: { command: 'other-mcp' } } });
    expect(existsSync(join(dir, '.credence', 'observe.json'))).toBe(true);
    const again = credence(dir, ['init', '--claude-code', '--remove', '--json']);
    expect(again.code).toBe(0);
    expect(
      JSON.parse(again.stdout)
        .claudeCode.files.slice(0, 2)
        .map((f: { status: string }) => f.status),
    ).toEqual(['unchanged', 'unchanged']);
  });

  it('--remove where nothing was installed creates no file and opens no store', () => {
    const { dir, db } = project();
    const r = credence(dir, ['init', '--claude-code', '--remove', '--db', db]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('no Credence hooks to remove');
    expect(existsSync(join(dir, '.claude'))).toBe(false);
    expect(existsSync(join(dir, '.mcp.json'))).toBe(false);
    expect(existsSync(db)).toBe(false);
  });

  it('refuses a settings file that is not valid JSON, naming it, and writes nothing', () => {
    const { dir, db } = project();
    mkdirSync(join(dir, '.claude'));
    writeFileSync(join(dir, '.claude', 'settings.json'), '{ "hooks": { ');
    const r = credence(dir, ['init', '--claude-code', '--db', db]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(join(dir, '.claude', 'settings.json'));
    expect(read(dir, '.claude/settings.json')).toBe('{ "hooks": { ');
    expect(existsSync(join(dir, '.mcp.json'))).toBe(false);
    expect(existsSync(join(dir, '.credence'))).toBe(false);
    expect(existsSync(db)).toBe(false);
  });

  it('writes at the git top-level when run in a subfolder of a repository', () => {
    const { dir, db } = project();
    mkdirSync(join(dir, '.git'));
    mkdirSync(join(dir, 'src'));
    expect(credence(join(dir, 'src'), ['init', '--claude-code', '--db', db]).code).toBe(0);
    expect(existsSync(join(dir, '.claude', 'settings.json'))).toBe(true);
    expect(existsSync(join(dir, 'src', '.claude'))).toBe(false);
  });

  it('--remove and --hook-command without --claude-code are usage errors', () => {
    const { dir, db } = project();
    expect(credence(dir, ['init', '--remove', '--db', db]).code).toBe(2);
    expect(credence(dir, ['init', '--hook-command', 'npx credence hook claude-code', '--db', db]).code).toBe(2);
    expect(existsSync(db)).toBe(false);
  });
});

describe('credence init --claude-code: what it writes starts on this machine (issue 17)', () => {
  it("the .mcp.json entry, spawned exactly as written, answers initialize and lists Credence's tools", async () => {
    const { dir, db } = project();
    expect(credence(dir, ['init', '--claude-code', '--db', db]).code).toBe(0);
    const entry = JSON.parse(read(dir, '.mcp.json')).mcpServers.credence as { command: string; args: string[] };
    expect(entry.command).not.toBe('npx');
    const transport = new StdioClientTransport({
      command: entry.command,
      args: entry.args,
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', HOME: root, CREDENCE_DB: db },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'credence-init-test', version: '1.0.0' });
    try {
      await client.connect(transport);
      expect(client.getServerVersion()?.name).toBe('credence');
      const tools = (await client.listTools()).tools.map((t) => t.name);
      expect(tools).toEqual(expect.arrayContaining(['search_tools', 'recall', 'observe']));
    } finally {
      await client.close();
    }
  });

  it('each hook command of .claude/settings.json, run through the shell as written, learns the call (issue 22)', () => {
    const { dir, db } = project();
    expect(credence(dir, ['init', '--claude-code', '--db', db]).code).toBe(0);
    for (const r of runSettingsHooks(dir, 'init-1', { CREDENCE_DB: db })) {
      expect(r.status, r.stderr).toBe(0);
      expect(r.stderr).toBe('');
    }
    const status = credence(dir, ['status', '--json', '--db', db]);
    expect(JSON.parse(status.stdout).counts.executions).toBe(1);
  });
});

describe('credence init --claude-code: the store chosen is the one Claude Code uses (walk 16, item 5)', () => {
  const runHooks = (dir: string) => {
    for (const r of runSettingsHooks(dir, 'pin-1')) expect(r.status, r.stderr).toBe(0);
  };

  it('--db: hooks started without CREDENCE_DB learn into that file, and the MCP server is given it', () => {
    const { dir, db } = project();
    expect(credence(dir, ['init', '--claude-code', '--db', db]).code).toBe(0);
    expect(JSON.parse(read(dir, '.mcp.json')).mcpServers.credence.env).toEqual({ CREDENCE_DB: db });
    runHooks(dir);
    expect(JSON.parse(credence(dir, ['status', '--json', '--db', db]).stdout).counts.executions).toBe(1);
    expect(existsSync(join(root, '.credence', 'credence.db'))).toBe(false);
    // A second init naming another store moves both there, with one CREDENCE_DB in front of each command.
    const other = join(root, 'pinned other.db');
    expect(credence(dir, ['init', '--claude-code', '--db', other]).code).toBe(0);
    const commands = credenceCommands(JSON.parse(read(dir, '.claude/settings.json')));
    for (const command of commands) expect(command.match(/CREDENCE_DB=/g)).toHaveLength(1);
    expect(JSON.parse(read(dir, '.mcp.json')).mcpServers.credence.env).toEqual({ CREDENCE_DB: other });
    runHooks(dir);
    expect(JSON.parse(credence(dir, ['status', '--json', '--db', other]).stdout).counts.executions).toBe(1);
  });

  it('a later init naming no store keeps the pin and says Claude Code still uses that file (review F, 13)', () => {
    const { dir } = project();
    const db = join(root, "it's pinned.db");
    expect(credence(dir, ['init', '--claude-code', '--db', db]).code).toBe(0);
    const again = credence(dir, ['init', '--claude-code']);
    expect(again.code).toBe(0);
    const opened = join(root, '.credence', 'credence.db');
    expect(again.stdout).toContain(`Credence store ready at ${opened}`);
    expect(again.stdout).toContain(
      `Claude Code's hooks and MCP server still use CREDENCE_DB='${root}/it'\\''s pinned.db' (written by an earlier`,
    );
    expect(again.stdout).toContain(`run init --claude-code --db ${opened} to move them to it.`);
    expect(JSON.parse(read(dir, '.mcp.json')).mcpServers.credence.env).toEqual({ CREDENCE_DB: db });
    const json = JSON.parse(credence(dir, ['init', '--claude-code', '--json']).stdout);
    expect(json.claudeCode.pinnedStore).toBe(db);
    // Naming the pinned store: nothing to say.
    expect(credence(dir, ['init', '--claude-code', '--db', db]).stdout).not.toContain('still use');
  });

  it('CREDENCE_DB (a relative path) is written as the absolute file it names', () => {
    const { dir } = project();
    const r = spawnSync(process.execPath, [bin, 'init', '--claude-code'], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, CREDENCE_DB: 'here.db', CREDENCE_NOW: '', CREDENCE_SCOPE: '', HOME: root },
    });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(read(dir, '.mcp.json')).mcpServers.credence.env).toEqual({ CREDENCE_DB: join(dir, 'here.db') });
  });
});

describe('credence init --claude-code: links planted in a cloned project (issue 17, red team 5)', () => {
  const listing = (dir: string): string[] => readdirSync(dir, { recursive: true }).map(String).sort();
  for (const planted of ['.claude', '.claude/settings.json', '.claude/skills', '.mcp.json', '.credence']) {
    it(`refuses a ${planted} link leading outside: exit 2, link named, nothing written either side, no store`, () => {
      const { dir, db } = project();
      const outside = mkdtempSync(join(root, 'outside-'));
      const target = join(outside, 'target');
      if (planted.endsWith('.json')) writeFileSync(target, '{}');
      else mkdirSync(target);
      mkdirSync(join(dir, planted, '..'), { recursive: true });
      symlinkSync(target, join(dir, planted));
      const inside = listing(dir);
      const r = credence(dir, ['init', '--claude-code', '--db', db]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(join(dir, planted));
      expect(listing(dir)).toEqual(inside);
      expect(listing(outside)).toEqual(['target']);
      if (planted.endsWith('.json')) expect(readFileSync(target, 'utf8')).toBe('{}');
      expect(existsSync(db)).toBe(false);
    });
  }
});
