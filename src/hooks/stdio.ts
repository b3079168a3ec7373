/**
 * @module hooks/stdio
 * A hook's output, written straight to its file descriptor: `process.stdout` is a stream that
 * Node builds on first use (for a pipe, it loads the net and stream modules, a share of a prompt
 * hook that prints worth avoiding: docs/benchmarks.md). A pipe that would block (a non-blocking
 * descriptor whose reader is behind) gets the rest through the stream; a reader that is gone loses
 * the output, as it would anyway. What goes to stderr is shown to the user (Claude Code's verbose view) and
 * may quote the payload: it is made terminal-safe first (walk 17, item 6: no raw ESC or BEL from a payload).
 */
import { writeSync } from 'node:fs';
import { terminalSafe } from '../core/text/terminal-safe.js';

/** Writes all of `text` to stdout (1) or stderr (2, control characters escaped: `\u001b`); never throws. */
export function writeStdio(fd: 1 | 2, text: string): void {
  const bytes = Buffer.from(fd === 2 ? terminalSafe(text) : text, 'utf8');
  let done = 0;
  try {
    while (done < bytes.length) done += writeSync(fd, bytes, done);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') return;
    // The stream may still be writing when the hook returns: bin/credence.cjs then lets the process end by itself.
    (globalThis as Record<symbol, unknown>)[Symbol.for('credence.cli.streamed')] = true;
    try {
      (fd === 1 ? process.stdout : process.stderr).write(bytes.subarray(done));
    } catch {
      // Nowhere to write.
    }
  }
}
