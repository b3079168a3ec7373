/**
 * The Claude Code hook fails open (issue 17, red-team: "held"): the real `credence hook
 * claude-code`, one process per event as Claude Code runs it, is given malformed payloads —
 * nothing, garbage, truncated JSON, the wrong JSON types, bytes that are not UTF-8, NUL bytes, deep
 * nesting, a 20 MB line of garbage — between valid tool events of one session. Every hook exits 0
 * and prints nothing on stdout; each malformed payload says what was wrong on one line of stderr,
 * with no stack trace; a valid event with a 20 MB response is kept, cut to size; and when the
 * session stops, every valid event is learned, in order, none lost around the bad ones.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineStore, openCredence } from '../../src/engine/engine.js';
import { bin } from '../mcp-helpers.js';
import { storeEnv } from '../pg.js';

const dir = mkdtempSync(join(tmpdir(), 'credence-security-hooks-'));
const project = join(dir, 'project');
const db = join(dir, 'credence.db');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const store = storeEnv(db);
const env = {
  PATH: process.env.PATH ?? '',
  HOME: dir,
  ...store.env,
  CREDENCE_NOW: '2026-03-02T10:00:00Z',
  // A stop's learning runs in a process of its own: waited for, so that what it says reaches stderr.
  CREDENCE_HOOK_WAIT: '1',
};
const SESSION = 'good-session';
const BIG = 20 * 1024 * 1024;

interface Outcome {
  name: string;
  code: number | null;
  stdout: string;
  stderr: string;
}

const hook = (name: string, input: string | Buffer): Outcome => {
  const r = spawnSync(process.execPath, [bin, 'hook', 'claude-code'], {
    cwd: project,
    env,
    input,
    maxBuffer: 64 * 1024 * 1024,
  });
  return { name, code: r.status, stdout: r.stdout.toString('utf8'), stderr: r.stderr.toString('utf8') };
};

/** A valid tool event of the good session: the n-th call, Read and Bash in turn. */
const valid = (n: number, response: unknown = `output ${n}`) =>
  JSON.stringify({
    session_id: SESSION,
    cwd: project,
    hook_event_name: 'PostToolUse',
    tool_name: n % 2 === 0 ? 'Read' : 'Bash',
    tool_input: n % 2 === 0 ? { file_path: join(project, `f${n}.txt`) } : { command: `echo ${n}` },
    tool_response: response,
    tool_use_id: `toolu_${n}`,
  });

/** Payloads that are not a hook event: each is refused with one line. */
const MALFORMED: [string, string | Buffer][] = [
  ['nothing', ''],
  ['whitespace', ' \n\t '],
  ['garbage', 'garbage'],
  ['binary bytes', Buffer.from([0xff, 0xfe, 0x00, 0x01, 0x80, 0xc3, 0x28])],
  ['truncated JSON', valid(0).slice(0, 60)],
  ['a JSON array', '[1, 2, 3]'],
  ['a JSON number', '42'],
  ['JSON null', 'null'],
  ['a JSON string', '"PostToolUse"'],
  ['two objects on one line', `${valid(0)}${valid(1)}`],
  ['hook_event_name of the wrong type', JSON.stringify({ hook_event_name: 5, session_id: SESSION, cwd: project })],
  ['an unknown event', JSON.stringify({ hook_event_name: 'Explode', session_id: SESSION, cwd: project })],
  [
    'session_id of the wrong type',
    JSON.stringify({ hook_event_name: 'PostToolUse', session_id: {}, cwd: project, tool_name: 'Read' }),
  ],
  ['cwd of the wrong type', JSON.stringify({ hook_event_name: 'Stop', session_id: SESSION, cwd: ['/'] })],
  [
    'an empty session_id',
    JSON.stringify({ hook_event_name: 'UserPromptSubmit', session_id: '', cwd: project, prompt: 'hi' }),
  ],
  // Walk 17, item 6: JSON.parse's message quotes the input; stderr must not carry its ESC and BEL raw.
  ['terminal control characters', '\u001b[31mRED\u0007\u009b2J{'],
  ['nesting 100,000 deep', `${'['.repeat(100_000)}${']'.repeat(100_000)}`],
  ['a 20 MB line of garbage', `{"hook_event_name": "PostToolUse", "x": ${'9'.repeat(BIG)}`],
];

/** Payloads that parse as an event but carry odd values: each is taken or ignored, quietly or with one line. */
const ODD: [string, string][] = [
  [
    'tool fields of the wrong types (another session)',
    JSON.stringify({
      hook_event_name: 'PostToolUse',
      session_id: 'odd-session',
      cwd: project,
      tool_name: 42,
      tool_input: 'x',
      tool_response: [1, { a: null }],
    }),
  ],
  [
    'a failure whose error is an object (another session)',
    JSON.stringify({
      hook_event_name: 'PostToolUseFailure',
      session_id: 'odd-session',
      cwd: project,
      tool_name: 'Bash',
      tool_input: null,
      error: { nested: [1] },
    }),
  ],
  [
    'a prompt that is an object (another session)',
    JSON.stringify({
      hook_event_name: 'UserPromptSubmit',
      session_id: 'odd-session',
      cwd: project,
      prompt: { text: 'x' },
    }),
  ],
  [
    'NUL bytes in every string (another session)',
    JSON.stringify({
      hook_event_name: 'PostToolUse',
      session_id: 'odd\u0000session',
      cwd: project,
      tool_name: 'Re\u0000ad',
      tool_input: { file_path: 'a\u0000b' },
      tool_response: '\u0000',
    }),
  ],
  [
    'a session start in a folder that does not exist',
    JSON.stringify({
      hook_event_name: 'SessionStart',
      session_id: 'odd-session',
      cwd: join(dir, 'no', 'such', 'folder'),
      source: 'startup',
    }),
  ],
  [
    'a stop of the wrong shape',
    JSON.stringify({ hook_event_name: 'Stop', session_id: 'odd-session', cwd: project, stop_hook_active: 'yes' }),
  ],
];

describe('credence hook claude-code on malformed payloads, between valid events', () => {
  const outcomes: Outcome[] = [];
  const odd: Outcome[] = [];
  let validCount = 0;

  beforeAll(() => {
    mkdirSync(project);
    expect(spawnSync('git', ['init', '-q'], { cwd: project }).status).toBe(0);
    const send = (payload: string) => {
      const r = hook(`valid ${validCount}`, payload);
      expect(r, r.name).toEqual({ name: r.name, code: 0, stdout: '', stderr: '' });
      validCount += 1;
    };
    for (const [name, payload] of MALFORMED) {
      send(valid(validCount));
      outcomes.push(hook(name, payload));
    }
    for (const [name, payload] of ODD) {
      send(valid(validCount));
      odd.push(hook(name, payload));
    }
    // A valid event with a 20 MB response, then one more.
    send(valid(validCount, 'y'.repeat(BIG)));
    send(valid(validCount));
  }, 120_000);

  it('exits 0 on every malformed payload, prints nothing on stdout and one line on stderr, no stack trace', () => {
    expect(outcomes).toHaveLength(MALFORMED.length);
    const wrong = outcomes.filter(
      (o) =>
        o.code !== 0 || o.stdout !== '' || !/^credence hook: [^\n]+\n$/.test(o.stderr) || /\n\s+at /.test(o.stderr),
    );
    expect(wrong.map((o) => ({ ...o, stderr: o.stderr.slice(0, 300) }))).toEqual([]);
  });

  it('never writes a raw control character on stderr (shown as \\u001b)', () => {
    const raw = [...outcomes, ...odd].filter((o) => /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/.test(o.stderr));
    expect(raw.map((o) => ({ ...o, stderr: o.stderr.slice(0, 300) }))).toEqual([]);
    expect(outcomes.find((o) => o.name === 'terminal control characters')?.stderr).toContain('\\u001b[31mRED\\u0007');
  });

  it('exits 0 on payloads with odd values, with at most one line on stderr', () => {
    const wrong = odd.filter(
      (o) => o.code !== 0 || o.stderr.split('\n').filter((l) => l !== '').length > 1 || /\n\s+at /.test(o.stderr),
    );
    expect(wrong).toEqual([]);
    for (const o of odd) if (o.stdout !== '') expect(JSON.parse(o.stdout).hookSpecificOutput).toBeDefined();
  });

  it('learns every valid event of the session, in order, the 20 MB response cut to size', async () => {
    const stop = hook(
      'stop',
      JSON.stringify({ hook_event_name: 'Stop', session_id: SESSION, cwd: project, stop_hook_active: false }),
    );
    expect(stop).toEqual({ name: 'stop', code: 0, stdout: '', stderr: '' });
    const credence = await openCredence({ ...store.open, cwd: project });
    try {
      const executions = (await engineStore(credence).listExecutions(credence.scope)).filter((e) =>
        e.id.startsWith(`cc-${SESSION}`),
      );
      const calls = executions.flatMap((e) => e.calls);
      expect(calls.map((c) => c.tool)).toEqual(
        Array.from({ length: validCount }, (_, n) => (n % 2 === 0 ? 'Read' : 'Bash')),
      );
      expect(calls.map((c) => JSON.parse(String(c.input)))).toEqual(
        Array.from({ length: validCount }, (_, n) =>
          n % 2 === 0 ? { file_path: join(project, `f${n}.txt`) } : { command: `echo ${n}` },
        ),
      );
      // The 20 MB response is the next to last call's: kept, and cut to the hook's limit.
      const big = String(calls.at(-2)?.output);
      expect(big.startsWith('yyyy')).toBe(true);
      expect(big.length).toBeLessThan(3_000);
    } finally {
      await credence.close();
    }
  });
});
