/**
 * Nothing leaves the machine unless the user configured it (issue 17, security page): the real
 * binary, with the default configuration (offline word-vector embeddings, a SQLite store, no
 * gateway), runs the demo, fills a store, searches, suggests, recalls, learns, dumps and handles
 * Claude Code hook events, each process preloaded with test/fixtures/net-guard.cjs, which logs
 * every outbound TCP connection and DNS lookup a process starts. None is logged. The same guard
 * does log the connection of a configured embedding provider (Ollama on its default address), so
 * the check would see one.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { bin } from '../mcp-helpers.js';

const guard = fileURLToPath(new URL('../fixtures/net-guard.cjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'credence-security-network-'));
const project = join(dir, 'project');
const db = join(dir, 'credence.db');
const netLog = join(dir, 'net.log');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const env = {
  PATH: process.env.PATH ?? '',
  HOME: dir,
  CREDENCE_DB: db,
  CREDENCE_NET_LOG: netLog,
  NODE_OPTIONS: `--require ${guard}`,
  // The learning processes of stops and session starts are waited for: their network use is checked too.
  CREDENCE_HOOK_WAIT: '1',
};
const run = (args: string[], input?: string, extra: Record<string, string> = {}) => {
  const r = spawnSync(process.execPath, [bin, ...args], {
    cwd: project,
    env: { ...env, ...extra },
    encoding: 'utf8',
    input,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};
const logged = () => (existsSync(netLog) ? readFileSync(netLog, 'utf8') : '');

describe('the default configuration opens no network connection', () => {
  it('demo, tools, record, search, dag, remember, recall, observe, evolve, dump, status, hooks connect nowhere', () => {
    mkdirSync(project);
    const ok = (r: { code: number | null; stderr: string }) => expect(r.code, r.stderr).toBe(0);
    ok(run(['demo', '--no-serve', '--db', join(dir, 'demo.db')]));
    ok(run(['init']));
    ok(
      run(
        ['tools', 'add', '--jsonl', '-'],
        '{"id": "read_file", "description": "read a file"}\n' +
          '{"id": "http_fetch", "description": "fetch a URL from https://example.com"}',
      ),
    );
    ok(
      run(
        ['record', '--jsonl', '-'],
        '{"intent": "fetch https://example.com and save it", ' +
          '"calls": [{"tool": "http_fetch", "status": "success"}, {"tool": "read_file", "status": "success"}]}',
      ),
    );
    ok(run(['tools', 'search', 'fetch https://example.com/page']));
    ok(run(['dag', 'fetch the page at https://example.com and read it']));
    ok(run(['remember', '--title', 'Docs host', 'The docs live at https://docs.example.com']));
    ok(run(['recall', 'where do the docs live?']));
    for (const at of ['2026-03-01T08:00:00Z', '2026-03-01T09:00:00Z', '2026-03-01T10:00:00Z']) {
      ok(
        run([
          'observe',
          '--type',
          'preference',
          '--observation',
          'fetch https://example.com before reading',
          '--at',
          at,
        ]),
      );
    }
    ok(run(['evolve', '--skills-dir', 'skills']));
    ok(run(['dump', join(dir, 'dump.jsonl')]));
    ok(run(['status']));
    const hook = (payload: Record<string, unknown>) => {
      const r = run(['hook', 'claude-code'], JSON.stringify({ session_id: 's1', cwd: project, ...payload }));
      expect([r.code, r.stderr]).toEqual([0, '']);
    };
    hook({ hook_event_name: 'SessionStart', source: 'startup' });
    hook({ hook_event_name: 'UserPromptSubmit', prompt: 'fetch https://example.com and read it' });
    hook({
      hook_event_name: 'PostToolUse',
      tool_name: 'WebFetch',
      tool_input: { url: 'https://example.com' },
      tool_response: 'ok',
    });
    hook({ hook_event_name: 'Stop', stop_hook_active: false });
    expect(logged()).toBe('');
  }, 120_000);

  it('the guard sees the connection of a configured embedding provider', () => {
    const ollama = { CREDENCE_EMBEDDINGS: 'ollama:nomic-embed-text', CREDENCE_DB: join(dir, 'ollama.db') };
    // recall only reads: its store must exist first (docs/cli.md).
    expect(run(['init'], undefined, ollama).code).toBe(0);
    const r = run(['recall', 'anything'], undefined, ollama);
    expect(r.code).not.toBe(0);
    expect(logged()).toMatch(/connect .*11434/);
  });
});
