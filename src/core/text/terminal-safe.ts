/**
 * @module core/text/terminal-safe
 * Text made safe for a terminal. Stored text and quoted user input can hold control characters (ESC
 * sequences clear the screen or retitle the window, CR overwrites the line). Every control character but
 * newline and tab — C0, DEL and C1 — and the Unicode bidi controls ("Trojan Source": U+202A–U+202E,
 * U+2066–U+2069, U+200E, U+200F, U+061C) is shown as its JSON escape (`\u001b`): visible, and still valid
 * inside JSON text, so the same function guards JSON output without changing what it parses to. The command
 * line passes all its output through it, the hooks their stderr lines. Pure.
 */

const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const ANY_UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/**
 * `text` with every control character but `\n` and `\t`, and every bidi control, written as `\uXXXX`; the same string
 * when it has none.
 */
export function terminalSafe(text: string): string {
  if (!ANY_UNSAFE.test(text)) return text;
  return text.replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
