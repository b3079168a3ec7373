import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseHookPayload } from './payload.js';
import { spoolToolEvent } from './fast.js';

const dir = mkdtempSync(join(tmpdir(), 'credence-tool-name-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const spooled = (db: string, extra: Record<string, unknown>) => {
  const parsed = parseHookPayload(
    JSON.stringify({ session_id: 's', cwd: dir, hook_event_name: 'PostToolUse', tool_input: {}, ...extra }),
  );
  if (!parsed.ok) throw new Error(parsed.message);
  return spoolToolEvent(parsed.payload, { CREDENCE_DB: join(dir, db) });
};

describe('a tool event that names no tool', () => {
  it.each([
    ['none', {}, 'none'],
    ['number', { tool_name: 123 }, 'a number of 3 characters as JSON'],
    ['one digit', { tool_name: 5 }, 'a number of 1 character as JSON'],
    ['empty', { tool_name: '' }, 'a string of 2 characters as JSON'],
    ['secret', { tool_name: { token: 'sk-live-abcdef' } }, 'an object of 26 characters as JSON'],
  ])('(%s) is refused with a line naming tool_name, and nothing is spooled', (name, extra, got) => {
    const db = `${name}.db`;
    const said = spooled(db, extra);
    expect(said).toBe(`PostToolUse without tool_name (a non-empty string; got ${got}): not learned`);
    expect(existsSync(join(dir, `${db}.hook-spool`))).toBe(false);
  });

  it('a named tool is spooled as before', () => {
    expect(spooled('named.db', { tool_name: 'Bash' })).toBeUndefined();
    expect(existsSync(join(dir, 'named.db.hook-spool'))).toBe(true);
  });
});

describe('a payload whose common fields or prompt have the wrong type (walk 17, item 9)', () => {
  const parse = (extra: Record<string, unknown>) =>
    parseHookPayload(JSON.stringify({ session_id: 's', cwd: dir, hook_event_name: 'UserPromptSubmit', ...extra }));

  it.each([
    ['a number session_id', { session_id: 42, prompt: 'hi' }, 'has no session_id (a non-empty string; got a number'],
    ['an array cwd', { cwd: ['/'], prompt: 'hi' }, 'has no cwd (a non-empty string; got an array of 5 characters'],
    [
      'a number prompt',
      { prompt: 12345 },
      'has no prompt (a string; got a number of 5 characters as JSON): not learned',
    ],
    ['an object prompt', { prompt: { text: 'x' } }, 'has no prompt (a string; got an object of 12 characters'],
    ['no prompt', {}, 'has no prompt (a string; got none): not learned'],
  ])('(%s) is refused with a line naming the field and what it got', (_name, extra, message) => {
    const parsed = parse(extra);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? '' : parsed.message).toContain(`the UserPromptSubmit payload ${message}`);
  });

  it('takes a prompt that is a string, empty or not', () => {
    expect(parse({ prompt: 'hi' }).ok).toBe(true);
    expect(parse({ prompt: '' }).ok).toBe(true);
  });
});

describe('a tool event whose tool_name is over the 256-character limit (walk 17, item 12)', () => {
  it('is refused with a line naming its length and the limit, and nothing is spooled', () => {
    expect(spooled('long.db', { tool_name: 'T'.repeat(400) })).toBe(
      'PostToolUse tool_name is 400 characters long; the limit is 256: not learned',
    );
    expect(existsSync(join(dir, 'long.db.hook-spool'))).toBe(false);
  });

  it('takes one of exactly 256 characters', () => {
    expect(spooled('at-limit.db', { tool_name: 'T'.repeat(256) })).toBeUndefined();
    expect(existsSync(join(dir, 'at-limit.db.hook-spool'))).toBe(true);
  });
});
