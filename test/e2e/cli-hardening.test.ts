/**
 * The command line under input a user or an attacker controls (issue 17, H3): the dump's
 * backpressure, `--db` values that are URLs, long runs, free memory categories, terminal escapes,
 * file modes and error lines without stack traces. Drives the real binary.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../../bin/credence.cjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'credence-hardening-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function credence(args: string[], options: { env?: Record<string, string>; input?: string; cwd?: string } = {}) {
  const result = spawnSync(process.execPath, [bin, ...args], {
    cwd: options.cwd ?? dir,
    encoding: 'utf8',
    ...(options.input === undefined ? {} : { input: options.input }),
    env: { ...process.env, CREDENCE_DB: '', CREDENCE_DATABASE_URL: '', CREDENCE_NOW: '', CREDENCE_SCOPE: '', HOME: dir, ...options.env },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const mode = (path: string): number => statSync(path).mode & 0o777;

describe('credence dump', () => {
  it('dumps a store of thousands of rows with no MaxListenersExceededWarning, into a file only its owner reads', () => {
    const db = join(dir, 'big.db');
    const tools = Array.from({ length: 6000 }, (_, i) => JSON.stringify({ id: `tool_${i}`, description: `does thing number ${i}` })).join('\n');
    expect(credence(['--db', db, 'tools', 'add', '--jsonl', '-'], { input: tools }).code).toBe(0);
    const file = join(dir, 'big.jsonl');
    const r = credence(['--db', db, 'dump', file]);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toMatch(/MaxListeners|Warning/);
    expect(readFileSync(file, 'utf8').trimEnd().split('\n')).toHaveLength(6001);
    expect(mode(file)).toBe(0o600);
  });
});
