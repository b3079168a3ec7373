import { describe, expect, it } from 'vitest';
import { terminalSafe, terminalSafeIO } from './terminal.js';

describe('terminalSafe', () => {
  it('shows ESC, BEL, CR, DEL and C1 controls as visible escapes, and keeps newline and tab', () => {
    expect(terminalSafe('evil\u001b[2J\u001b]0;x\u0007\r\u007f\u009b31m\n\tok')).toBe(
      'evil\\u001b[2J\\u001b]0;x\\u0007\\u000d\\u007f\\u009b31m\n\tok',
    );
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

  it('shows bidi controls (embeddings, overrides, isolates, marks) escaped, so a printed name is not reordered', () => {
    // "Trojan Source": U+202E makes a terminal print what follows right to left.
    expect(terminalSafe('Read\u202etxt.exe\u202c')).toBe('Read\\u202etxt.exe\\u202c');
    const bidi = [
      '\u061c',
      '\u200e',
      '\u200f',
      '\u202a',
      '\u202b',
      '\u202c',
      '\u202d',
      '\u202e',
      '\u2066',
      '\u2067',
      '\u2068',
      '\u2069',
    ];
    for (const c of bidi) expect(terminalSafe(`a${c}b`)).toBe(`a\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}b`);
    // Their neighbours are ordinary text.
    expect(terminalSafe('a\u200db\u2029c\u2065d\u206ae')).toBe('a\u200db\u2029c\u2065d\u206ae');
  });

  it('keeps JSON meaning unchanged with bidi controls inside its strings', () => {
    const value = { tool: 'mcp:\u202eevil\u2066x\u2069', note: 'a\\\u200f"q"\u061c' };
    const safe = terminalSafe(JSON.stringify(value));
    expect(safe).not.toMatch(/[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/);
    expect(JSON.parse(safe)).toEqual(value);
  });

  it('guards both streams of an io', () => {
    const out: string[] = [];
    const io = terminalSafeIO({
      stdout: (t) => out.push(`1:${t}`),
      stderr: (t) => out.push(`2:${t}`),
      env: {},
      cwd: '/',
    });
    io.stdout('a\u001bb\n');
    io.stderr('c\u0007d\n');
    expect(out).toEqual(['1:a\\u001bb\n', '2:c\\u0007d\n']);
  });
});
