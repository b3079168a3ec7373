/**
 * The command line under input a user or an attacker controls (issue 17, H3): the dump's
 * backpressure, `--db` values that are URLs, long runs, free memory categories, terminal escapes,
 * file modes and error lines without stack traces. Drives the real binary.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
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

describe('--db and CREDENCE_DB take a file path, never a URL', () => {
  const urls = ['postgres://team:s3cret@db.example:5432/credence', 'postgresql://db.example/credence', 'file:credence.db', 'sqlite://x.db', 'https://example.com/x.db'];

  it.each(urls)('refuses --db %s on status and demo with exit 2, naming --database-url, and creates nothing in the working folder', (url) => {
    const cwd = mkdtempSync(join(dir, 'cwd-'));
    for (const args of [['--db', url, 'status'], ['--db', url, 'demo', '--no-serve', '--no-history']]) {
      const r = credence(args, { cwd });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^credence: --db takes the path of a SQLite file, got a [a-z]+: URL; give a PostgreSQL server with --database-url instead\n$/);
      expect(r.stderr).not.toContain('s3cret');
    }
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('refuses CREDENCE_DB=postgres://… naming CREDENCE_DATABASE_URL, and creates nothing', () => {
    const cwd = mkdtempSync(join(dir, 'cwd-'));
    const r = credence(['demo', '--no-serve', '--no-history'], { cwd, env: { CREDENCE_DB: 'postgres://team:s3cret@db.example/credence' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('CREDENCE_DB takes the path of a SQLite file, got a postgres: URL; give a PostgreSQL server with CREDENCE_DATABASE_URL instead');
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('still takes a relative path', () => {
    const cwd = mkdtempSync(join(dir, 'cwd-'));
    expect(credence(['--db', 'here.db', 'status'], { cwd }).code).toBe(0);
    expect(readdirSync(cwd)).toContain('here.db');
  });
});
