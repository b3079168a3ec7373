/**
 * @module cli/terminal
 * Text made safe for a terminal. Stored text (tool names, intents, memories, a downstream server's
 * tool names) and user input (a bad JSONL line quoted in an error) can hold control characters: an
 * ESC starts an escape sequence that clears the screen, rewrites the window title or hides text; a
 * CR overwrites the line. Every control character but newline and tab, C0 (U+0000–U+001F), DEL
 * (U+007F) and C1 (U+0080–U+009F, which some terminals obey as CSI and OSC), is shown as its JSON
 * escape, `\u001b`: visible, and still valid inside JSON text, so the same function guards JSON
 * output (JSON.stringify escapes C0 but leaves DEL and C1 raw) without changing what it parses to.
 * So are the Unicode bidi controls ("Trojan Source": an override or isolate makes the terminal print
 * what follows in another order, so a tool name reads as another): the embeddings and overrides
 * U+202A–U+202E, the isolates U+2066–U+2069, the marks U+200E, U+200F and U+061C, shown as `\u202e`.
 */
import type { CliIO } from './context.js';

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

/**
 * `io` whose standard output and error pass every text through {@link terminalSafe}: the one place
 * every line of the command line leaves the process, so no command can print a raw escape.
 */
export function terminalSafeIO(io: CliIO): CliIO {
  return { ...io, stdout: (text) => io.stdout(terminalSafe(text)), stderr: (text) => io.stderr(terminalSafe(text)) };
}
