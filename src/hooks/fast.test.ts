import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseHookPayload } from './payload.js';
import { callEventOf, eventTime, spoolToolEvent } from './fast.js';

const dir = mkdtempSync(join(tmpdir(), 'credence-fast-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const TOKEN = `ghp_${'A1b2C3d4E5'.repeat(3)}abcdef`;

describe('a tool event on its way to the spool', () => {
  it('reads a test run’s coverage report before the output is cut to size', () => {
    const raw = {
      session_id: 's',
      cwd: dir,
      hook_event_name: 'PostToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'npx vitest run --coverage' },
      tool_response: {
        stdout: `${'✓ a passing test\n'.repeat(300)}All files  |   84.21 |    71.42 |     100 |   84.21 |\n`,
        stderr: '',
        interrupted: false,
        isImage: false,
      },
    };
    const event = callEventOf({ event: 'PostToolUse', raw });
    expect(String(event.output)).not.toContain('All files');
    expect(event.coverage).toBe(84.21);
    expect(callEventOf({ event: 'PostToolUse', raw: { ...raw, tool_name: 'Read' } }).coverage).toBeUndefined();
  });

  it('scrubs a secret on any line of an object response before anything is written', () => {
    const payload = {
      session_id: 's',
      cwd: dir,
      hook_event_name: 'PostToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'gh auth token' },
      tool_response: { stdout: `github.com\n  Logged in\n${TOKEN}\n`, stderr: '', interrupted: false, isImage: false },
    };
    expect(JSON.stringify(callEventOf({ event: 'PostToolUse', raw: payload }))).not.toContain(TOKEN);
    const parsed = parseHookPayload(JSON.stringify(payload));
    if (!parsed.ok) throw new Error(parsed.message);
    expect(spoolToolEvent(parsed.payload, { CREDENCE_DB: join(dir, 'c.db') })).toBeUndefined();
    const spool = join(dir, 'c.db.hook-spool');
    const files = readdirSync(spool);
    expect(files).toHaveLength(1);
    const text = readFileSync(join(spool, files[0] as string), 'utf8');
    expect(text).not.toContain(TOKEN);
    expect(text).toContain('[REDACTED');
  });

  it('keeps a long MultiEdit parseable and its file, and a shell command its exit code', () => {
    const edits = Array.from({ length: 6 }, (_, i) => ({
      old_string: `old ${i} `.repeat(80),
      new_string: `new ${i} `.repeat(80),
    }));
    const event = callEventOf({
      event: 'PostToolUse',
      raw: { tool_name: 'MultiEdit', tool_input: { file_path: '/p/src/a.ts', edits }, tool_response: {} },
    });
    expect((event.input as string).length).toBeLessThanOrEqual(2000);
    expect(JSON.parse(event.input as string).file_path).toBe('/p/src/a.ts');
    expect(event.writes).toEqual(['/p/src/a.ts']);
    const failed = callEventOf({
      event: 'PostToolUseFailure',
      raw: { tool_name: 'Bash', tool_input: { command: 'npm test' }, error: 'Exit code 1\nFAIL …' },
    });
    expect(failed).toMatchObject({ status: 'failure', exitCode: 1 });
  });

  it('spools a call whose tool_input is nested thousands deep, scrubbed and cut (it overflowed the stack)', () => {
    for (const [levels, open, close] of [
      [5_000, '{"a":', '}'],
      [200_000, '[', ']'],
    ] as const) {
      const input = `${open.repeat(levels)}"${TOKEN}"${close.repeat(levels)}`;
      const text = `{"session_id":"s","cwd":${JSON.stringify(dir)},"hook_event_name":"PostToolUse","tool_name":"Bash",\
"tool_input":${input},"tool_response":${input}}`;
      const parsed = parseHookPayload(text);
      if (!parsed.ok) throw new Error(parsed.message);
      const db = join(dir, `deep-${levels}.db`);
      expect(spoolToolEvent(parsed.payload, { CREDENCE_DB: db })).toBeUndefined();
      const files = readdirSync(`${db}.hook-spool`);
      expect(files).toHaveLength(1);
      const spooled = readFileSync(join(`${db}.hook-spool`, files[0] as string), 'utf8');
      expect(spooled).not.toContain(TOKEN);
      const call = JSON.parse(spooled).payload as { tool: string; input: string; output: string };
      expect(call.tool).toBe('Bash');
      expect(call.input.length).toBeLessThanOrEqual(2000);
      expect(call.output.length).toBeLessThanOrEqual(2000 + 40);
    }
  });
});

describe("an event's time", () => {
  it('is CREDENCE_NOW up to a day after the clock, else the clock (a mistyped year pruned every observation)', () => {
    expect(eventTime({ CREDENCE_NOW: '2026-01-01T00:00:00Z' })).toBe(Date.parse('2026-01-01T00:00:00Z'));
    const before = Date.now();
    for (const given of ['2062-11-27T00:00:00Z', 'not a date', '']) {
      const at = eventTime({ CREDENCE_NOW: given });
      expect([given, at >= before && at <= Date.now()]).toEqual([given, true]);
    }
  });
});

describe('a hook event that is no event (walk 10, item 8)', () => {
  it('is named scrubbed in the one line the hook says', () => {
    const pw = 'HookEvt' + 'Pw77xy';
    const parsed = parseHookPayload(JSON.stringify({ hook_event_name: `password=${pw}`, session_id: 's', cwd: '/' }));
    expect(parsed.ok).toBe(false);
    const message = parsed.ok ? '' : parsed.message;
    expect(message).toBe('unknown hook event "password=[REDACTED:credential]": nothing to do');
  });
});
