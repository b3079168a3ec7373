/**
 * The command line's output when its reader goes away (`credence recall … | head -1`): the process ends quietly with
 * the command's own exit code (0), never an unhandled `write EPIPE` stack trace; but `dump -`, a backup, cut short
 * exits 1 with one line saying the dump is incomplete. Drives the real binary with a stdout pipe closed before the
 * command prints, one closed after the first line of an output too long for the pipe, and one read slowly to its end.
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CREDENCE_BIN, isolatedEnv } from '../helpers.js';

const bin = CREDENCE_BIN;
const dir = mkdtempSync(join(tmpdir(), 'credence-closed-pipe-'));
const db = join(dir, 'pipe.db');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const env = isolatedEnv(dir);
const argsOf = (args: readonly string[]) => [bin, '--db', db, '--scope', 'p', ...args];

beforeAll(() => {
  // 300 memories of ~2 KB each: a dump of ~700 KB, more than a pipe or a socket holds.
  const lines = Array.from({ length: 300 }, (_, i) =>
    JSON.stringify({
      title: `deploy note ${i}`,
      text: `Deploy step ${i}: ${'roll the service out region by region and watch the error rate. '.repeat(32)}`,
      category: 'decision',
    }),
  );
  writeFileSync(join(dir, 'mem.jsonl'), `${lines.join('\n')}\n`);
  const r = spawnSync(process.execPath, argsOf(['remember', '--jsonl', join(dir, 'mem.jsonl')]), { cwd: dir, env });
  expect(r.status, String(r.stderr)).toBe(0);
});

/**
 * Runs `credence args` with its stdout read until the first line (`closeAt: 'first-line'`) or not at all
 * (`'start'`), then closed; resolves with the exit code, the signal and what was printed.
 */
function withReaderGone(
  args: readonly string[],
  closeAt: 'start' | 'first-line' | 'never, slowly',
): Promise<{ code: number | null; signal: NodeJS.Signals | null; first: string; out: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, argsOf(args), { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let stderr = '';
    if (closeAt === 'start') child.stdout.destroy();
    else
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString('utf8');
        if (closeAt === 'first-line' && out.includes('\n')) child.stdout.destroy();
        // A slow reader: the writer's pipe fills and it waits.
        if (closeAt === 'never, slowly') {
          child.stdout.pause();
          setTimeout(() => child.stdout.resume(), 2);
        }
      });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, first: out.split('\n')[0] ?? '', out, stderr }));
  });
}

describe('a reader that closes the pipe', () => {
  it.each([
    [['recall', 'deploy', '--format', 'json']],
    [['recall', 'deploy', '--limit', '20']],
    [['status']],
    [['status', '--json']],
    [['--help']],
  ])('%j before anything is printed: exit 0, nothing on stderr', async (args) => {
    const r = await withReaderGone(args, 'start');
    expect(r.signal).toBeNull();
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });
});

describe('a reader that closes the pipe of `dump -` (a backup)', () => {
  const incomplete =
    'credence: dump -: standard output was closed before the end (its reader stopped reading); ' +
    'the dump is incomplete\n';

  it('before anything is printed: exit 1, one line saying the dump is incomplete, no summary', async () => {
    const r = await withReaderGone(['dump', '-'], 'start');
    expect(r.signal).toBeNull();
    expect(r.stderr).toBe(incomplete);
    expect(r.code).toBe(1);
  });

  it('after the first line of a dump too long for the pipe: exit 1, the same one line, no stack trace', async () => {
    const r = await withReaderGone(['dump', '-'], 'first-line');
    expect(JSON.parse(r.first)).toMatchObject({ format: expect.any(String) });
    expect(r.stderr).toBe(incomplete);
    expect(r.code).toBe(1);
  });

  it('read slowly to its end: exit 0, the whole dump and its summary', async () => {
    const r = await withReaderGone(['dump', '-'], 'never, slowly');
    const rows = Number(/^dumped (\d+) rows/.exec(r.stderr)?.[1]);
    expect(rows).toBeGreaterThanOrEqual(300);
    expect(r.out.trimEnd().split('\n')).toHaveLength(rows + 1);
    expect(r.code).toBe(0);
  });
});

describe.runIf(existsSync('/dev/full'))('a standard output that cannot be written (`> /dev/full`: ENOSPC)', () => {
  // Before: exit 1 with an unhandled `ENOSPC` stack trace, and `dump -` never said the dump was incomplete.
  const toFull = (args: string[]) => {
    const full = openSync('/dev/full', 'w');
    try {
      const r = spawnSync(process.execPath, argsOf(args), { cwd: dir, env, stdio: ['ignore', full, 'pipe'] });
      return { code: r.status, stderr: String(r.stderr) };
    } finally {
      closeSync(full);
    }
  };

  it('dump -: exit 1, one line saying why and that the dump is incomplete, no summary', () => {
    expect(toFull(['dump', '-'])).toEqual({
      code: 1,
      stderr:
        'credence: dump -: standard output could not be written (ENOSPC: no space left on device); ' +
        'the dump is incomplete\n',
    });
  });

  it('another command: exit 1, one line saying its output is incomplete', () => {
    expect(toFull(['status'])).toEqual({
      code: 1,
      stderr:
        'credence: standard output could not be written (ENOSPC: no space left on device); the output is incomplete\n',
    });
  });
});
