import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const stdio = new URL('../../dist/src/hooks/stdio.js', import.meta.url).href;

/** Runs writeStdio (the compiled module) in a child process whose stdout and stderr are pipes. */
const run = (script: string) =>
  spawnSync(
    process.execPath,
    ['--input-type=module', '-e', `import { writeStdio } from ${JSON.stringify(stdio)};\n${script}`],
    { encoding: 'utf8', maxBuffer: 1 << 24 },
  );

describe('a hook writing its output', () => {
  it('writes the whole text to stdout and to stderr, even past a pipe buffer', () => {
    const r = run(`writeStdio(1, 'é'.repeat(300000) + '\\n'); writeStdio(2, 'credence hook: a line\\n');`);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(`${'é'.repeat(300_000)}\n`);
    expect(r.stderr).toBe('credence hook: a line\n');
  });

  it('does not throw when nobody reads stdout', () => {
    const r = spawnSync(
      '/bin/sh',
      [
        '-c',
        `"${process.execPath}" --input-type=module -e 'import { writeStdio } from ${JSON.stringify(stdio)}; ` +
          `writeStdio(1, "x".repeat(200000)); process.stderr.write("done")' | true`,
      ],
      { encoding: 'utf8' },
    );
    expect(r.stderr).toBe('done');
  });

  it('says so when a pipe that would block gets the rest through the stream (the process must not end at once)', () => {
    // process.stdout made first puts the pipe in non-blocking mode; the reader starts a second later.
    const script =
      `import { writeStdio } from ${JSON.stringify(stdio)}; process.stdout; writeStdio(1, "x".repeat(300000)); ` +
      'process.stderr.write(String(globalThis[Symbol.for("credence.cli.streamed")]))';
    const r = spawnSync(
      '/bin/sh',
      ['-c', `"${process.execPath}" --input-type=module -e '${script}' | (sleep 1; wc -c)`],
      { encoding: 'utf8' },
    );
    expect(r.stderr).toBe('true');
    expect(r.stdout.trim()).toBe('300000');
  });
});
