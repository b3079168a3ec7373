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
