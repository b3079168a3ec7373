/**
 * CREDENCE_DB given a URL (issue 17): the CLI refuses it, and so does every hook. The real
 * `credence hook claude-code`, one process per event (the bundled fast paths for tool events and
 * prompts, the unbundled hook for the rest and for a team store's prompt), exits 0 with one stderr
 * line naming CREDENCE_DATABASE_URL and not the URL's password, prints nothing on stdout, and creates
 * nothing: no spool and no SQLite file in a folder tree named after the URL.
 */
import { hookFilesBase } from '../../src/platform/paths.js';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bin } from '../mcp-helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'credence-hook-db-url-'));
const home = join(dir, 'home');
const project = join(dir, 'project');
mkdirSync(home);
mkdirSync(project);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const URL_AS_DB = 'postgres://credence:hunter2secret@127.0.0.1:1/credence';
const session = { session_id: 's-1', cwd: project };
const EVENTS: Record<string, unknown>[] = [
  {
    ...session,
    hook_event_name: 'PostToolUse',
    tool_name: 'Read',
    tool_input: { file_path: join(project, 'a.txt') },
    tool_response: 'a',
  },
  {
    ...session,
    hook_event_name: 'PostToolUseFailure',
    tool_name: 'Bash',
    tool_input: { command: 'false' },
    error: 'exit 1',
  },
  { ...session, hook_event_name: 'UserPromptSubmit', prompt: 'how do we run the tests?' },
  { ...session, hook_event_name: 'SessionStart', source: 'startup' },
  { ...session, hook_event_name: 'Stop', stop_hook_active: false },
  { ...session, hook_event_name: 'SessionEnd', reason: 'exit' },
];

const hook = (event: Record<string, unknown>, extra: Record<string, string> = {}) =>
  spawnSync(process.execPath, [bin, 'hook', 'claude-code'], {
    cwd: project,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: home,
      CREDENCE_NOW: '2026-03-02T10:00:00Z',
      CREDENCE_DB: URL_AS_DB,
      ...extra,
    },
    input: JSON.stringify(event),
    encoding: 'utf8',
  });

describe('hooks with CREDENCE_DB set to a URL', () => {
  const cases: [string, Record<string, string>][] = [
    ['alone', {}],
    ['beside CREDENCE_DATABASE_URL', { CREDENCE_DATABASE_URL: URL_AS_DB }],
  ];
  for (const [name, extra] of cases) {
    for (const event of EVENTS) {
      const hookName = event.hook_event_name as string;
      it(`${hookName} (${name}) fails open with one line naming CREDENCE_DATABASE_URL and creates nothing`, () => {
        const r = hook(event, extra);
        expect(r.status).toBe(0);
        expect(r.stdout).toBe('');
        const lines = r.stderr.split('\n').filter((l) => l !== '');
        expect(lines).toHaveLength(1);
        expect(lines[0]).toContain('CREDENCE_DATABASE_URL');
        expect(lines[0]).toContain('CREDENCE_DB');
        expect(r.stderr).not.toContain('hunter2secret');
        expect(readdirSync(project)).toEqual([]);
        expect(readdirSync(home)).toEqual([]);
      });
    }
  }
});

describe('hooks with CREDENCE_DATABASE_URL that is not a URL with //', () => {
  // `new URL` reads `postgres:user:password@host` as an opaque path, with no password to hide.
  const NOT_URL = 'postgres:credence:hunter2secret@127.0.0.1:1/credence';
  // The log of this team store's hooks (a base of its own, platform/paths hookFilesBase).
  const learnLog = `${hookFilesBase(join(home, '.credence', 'credence.db'), NOT_URL, {})}.hook-learn.log`;

  it('names it with its password hidden, on stderr and in the learning log', async () => {
    rmSync(home, { recursive: true, force: true });
    mkdirSync(home);
    const said: string[] = [];
    for (const event of EVENTS) {
      const r = hook(event, { CREDENCE_DB: '', CREDENCE_DATABASE_URL: NOT_URL });
      expect(r.status).toBe(0);
      said.push(r.stderr);
    }
    expect(said.join('')).toContain('postgres:credence:***@127.0.0.1:1/credence');
    expect(said.join('')).not.toContain('hunter2secret');
    // Session starts and stops learn in a process of their own, which writes what it has to say to a log.
    const until = Date.now() + 30_000;
    while (!(existsSync(learnLog) && readFileSync(learnLog, 'utf8').includes('***')) && Date.now() < until)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(readFileSync(learnLog, 'utf8')).toContain('postgres:credence:***@');
    expect(readFileSync(learnLog, 'utf8')).not.toContain('hunter2secret');
  }, 60_000);
});
