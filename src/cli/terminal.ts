/**
 * @module cli/terminal
 * The command line's output made safe for a terminal ({@link terminalSafe}, core/text/terminal-safe): every line
 * of every command passes through it.
 */
import type { CliIO } from './context.js';
import { terminalSafe } from '../core/text/terminal-safe.js';

export { terminalSafe };

/**
 * `io` whose standard output and error pass every text through {@link terminalSafe}: the one place
 * every line of the command line leaves the process, so no command can print a raw escape.
 */
export function terminalSafeIO(io: CliIO): CliIO {
  return { ...io, stdout: (text) => io.stdout(terminalSafe(text)), stderr: (text) => io.stderr(terminalSafe(text)) };
}
