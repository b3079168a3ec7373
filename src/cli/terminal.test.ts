import { describe, expect, it } from 'vitest';
import { terminalSafe, terminalSafeIO } from './terminal.js';

describe('terminalSafe', () => {
  it('shows ESC, BEL, CR, DEL and C1 controls as visible escapes, and keeps newline and tab', () => {
    expect(terminalSafe('evil\u001b[2J\u001b]0;x\u0007\r\u007f\u009b31m\n\tok')).toBe('evil\\u001b[2J\\u001b]0;x\\u0007\\u000d\\u007f\\u009b31m\n\tok');
  });

  it('returns text without control characters as it is, Unicode included', () => {
    const text = 'Édition → déjà vu 🧠 [DECISION] 100%';
    expect(terminalSafe(text)).toBe(text);
  });

  it('keeps JSON valid and its meaning unchanged (JSON.stringify leaves DEL and C1 raw)', () => {
    const value = { tool: 'evil\u001b[2J\u009b\u007f', note: 'a\\b "q"' };
    const json = JSON.stringify(value, null, 2);
    expect(json).toMatch(/[\u007f-\u009f]/);
    const safe = terminalSafe(json);
    expect(safe).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(JSON.parse(safe)).toEqual(value);
  });

  it('guards both streams of an io', () => {
    const out: string[] = [];
    const io = terminalSafeIO({ stdout: (t) => out.push(`1:${t}`), stderr: (t) => out.push(`2:${t}`), env: {}, cwd: '/' });
    io.stdout('a\u001bb\n');
    io.stderr('c\u0007d\n');
    expect(out).toEqual(['1:a\\u001bb\n', '2:c\\u0007d\n']);
  });
});
