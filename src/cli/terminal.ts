/**
 * @module cli/terminal
 * Text made safe for a terminal. Stored text (tool names, intents, memories, a downstream server's
 * tool names) and user input (a bad JSONL line quoted in an error) can hold control characters: an
 * ESC starts an escape sequence that clears the screen, rewrites the window title or hides text; a
 * CR overwrites the line. Every control character but newline and tab, C0 (U+0000–U+001F), DEL
 * (U+007F) and C1 (U+0080–U+009F, which some terminals obey as CSI and OSC), is shown as its JSON
 * escape, `\u001b`: visible, and still valid inside JSON text, so the same function guards JSON
 * output (JSON.stringify escapes C0 but leaves DEL and C1 raw) without changing what it parses to.
 */
import type { CliIO } from './context.js';

const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
const ANY_UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

/** `text` with every control character but `\n` and `\t` written as `\u00XX`; the same string when it has none. */
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
