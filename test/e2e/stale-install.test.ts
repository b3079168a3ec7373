/**
 * Walk 11, item 2: after an upgrade, the hooks and .mcp.json an older `init --claude-code` wrote still run the older
 * Credence, which refuses the store the new one migrated with "… newer than this Credence knows; upgrade Credence",
 * to a user who just did. A hook (each exits 0 with one line) and the MCP server now name the binary they run and
 * say what points them at the new one: `credence init --claude-code` again. The command line keeps its plain line.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { bin } from '../mcp-helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'credence-stale-install-'));
const home = join(dir, 'home');
const project = join(dir, 'project');
const db = join(dir, 'newer.db');
mkdirSync(home);
mkdirSync(project);
afterAll(() => rmSync(dir, { recursive: true, force: true }));
// A store a newer Credence migrated.
const raw = new Database(db);
raw.pragma('user_version = 99');
raw.close();

const run = (args: string[], input = '', extra: Record<string, string> = {}) =>
  spawnSync(process.execPath, [bin, ...args], {
    cwd: project,
    env: { PATH: process.env.PATH ?? '', HOME: home, CREDENCE_DB: db, CREDENCE_HOOK_WAIT: '1', ...extra },
    input,
    encoding: 'utf8',
    timeout: 60_000,
  });
const session = { session_id: 's-1', cwd: project };
const INIT = 'run `credence init --claude-code` again with the new one, to point the hooks and .mcp.json at it';

describe('a store of a newer schema, met by an older install', () => {
  const events: Record<string, unknown>[] = [
    { ...session, hook_event_name: 'UserPromptSubmit', prompt: 'how do we run the tests?' },
    { ...session, hook_event_name: 'SessionStart', source: 'startup' },
    { ...session, hook_event_name: 'Stop', stop_hook_active: false },
  ];
  for (const event of events) {
    it(`${event.hook_event_name as string}: the hook names the binary it runs and init --claude-code`, () => {
      if (event.hook_event_name === 'Stop') {
        const tool = {
          ...session,
          hook_event_name: 'PostToolUse',
          tool_name: 'Read',
          tool_input: {},
          tool_response: 'a',
        };
        expect(run(['hook', 'claude-code'], JSON.stringify(tool)).status).toBe(0);
      }
      const r = run(['hook', 'claude-code'], JSON.stringify(event));
      expect(r.status).toBe(0);
      expect(r.stderr).toContain('has schema version 99, newer than this Credence knows');
      expect(r.stderr).toContain(`This hook runs ${bin}: if you upgraded Credence, ${INIT}`);
    });
  }

  it('the MCP server on stdio exits 1 with the same way out', () => {
    const r = run(['serve', '--stdio']);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('has schema version 99');
    expect(r.stderr).toContain(`This MCP server runs ${bin}: if you upgraded Credence, ${INIT}`);
  });

  it('a command keeps its plain line', () => {
    const r = run(['status']);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('upgrade Credence');
    expect(r.stderr).not.toContain('init --claude-code');
  });
});
