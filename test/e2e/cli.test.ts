import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { LATEST_SCHEMA_VERSION } from '../../src/store/sqlite/migrations.js';
import { PG_LATEST_SCHEMA_VERSION } from '../../src/store/postgres/migrations.js';

const bin = fileURLToPath(new URL('../../bin/credence.cjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'credence-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function credence(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [bin, ...args], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, CREDENCE_DB: '', CREDENCE_NOW: '', CREDENCE_SCOPE: '', HOME: dir, ...env },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('the credence binary', () => {
  it('prints valid JSON status for a new database, with zero counts and the schema version', () => {
    const db = join(dir, 'status.db');
    // A command that only reads refuses a --db that does not exist (docs/cli.md): init makes it.
    expect(credence(['init', '--db', db]).code).toBe(0);
    const r = credence(['status', '--json', '--db', db, '--scope', 'demo-scope']);
    expect(r.code).toBe(0);
    const status = JSON.parse(r.stdout);
    expect(status).toMatchObject({
      db,
      store: 'sqlite',
      scope: 'demo-scope',
      scopeSource: 'flag',
      schemaVersion: LATEST_SCHEMA_VERSION,
    });
    expect(Object.values(status.counts).every((n) => n === 0)).toBe(true);
  });

  it('uses ~/.credence/credence.db by default and CREDENCE_DB when set', () => {
    const byDefault = JSON.parse(credence(['status', '--json']).stdout);
    expect(byDefault.db).toBe(join(dir, '.credence', 'credence.db'));
    expect(credence(['init'], { CREDENCE_DB: join(dir, 'env.db') }).code).toBe(0);
    const fromEnv = JSON.parse(credence(['status', '--json'], { CREDENCE_DB: join(dir, 'env.db') }).stdout);
    expect(fromEnv.db).toBe(join(dir, 'env.db'));
  });

  it('accepts global options before the command and --format json as --json', () => {
    const db = join(dir, 'format.db');
    expect(credence(['init', '--db', db]).code).toBe(0);
    const r = credence(['--db', db, 'status', '--format', 'json', '--now', '2026-02-02T06:00:00Z']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).now).toBe('2026-02-02T06:00:00.000Z');
  });

  // Walk 11, item 4: the package's version stayed 0.1.0 from schema 16 to 21, so it told a user nothing of which
  // Credence a hook or a teammate runs; the schema version it writes is printed beside it (both stores alike).
  it("prints the package's version and the schema it writes for --version and -V, and help names the flag", () => {
    const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    expect(PG_LATEST_SCHEMA_VERSION).toBe(LATEST_SCHEMA_VERSION);
    for (const flag of ['--version', '-V']) {
      const r = credence([flag]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe(`${manifest.version} (schema ${LATEST_SCHEMA_VERSION})\n`);
    }
    const help = credence(['help']);
    expect(help.stdout).toMatch(/-V, --version +print credence's version and schema, and exit/);
  });

  it('exits 2 with usage on an unknown command', () => {
    const r = credence(['frobnicate']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^credence: unknown command 'frobnicate'/m);
    expect(r.stderr).toMatch(/Usage: credence/);
  });

  it('exits 2 with usage on an unknown flag', () => {
    const r = credence(['status', '--colour']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^credence: unknown option '--colour'/m);
  });

  it('exits 2 on a --now that is not a date, naming the value', () => {
    expect(credence(['init', '--db', join(dir, 'now.db')]).code).toBe(0);
    const r = credence(['status', '--now', 'yesterday-ish', '--db', join(dir, 'now.db')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('yesterday-ish');
  });

  it('names the path and the reason when the database cannot be opened', () => {
    const bad = join(dir, 'garbage.db');
    writeFileSync(bad, 'not a database at all '.repeat(100));
    const r = credence(['status', '--db', bad]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(bad);
    expect(r.stderr).toMatch(/not a database/);
  });

  it('init creates the store and says where', () => {
    const db = join(dir, 'sub', 'init.db');
    const r = credence(['init', '--db', db]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(db);
    expect(JSON.parse(credence(['status', '--json', '--db', db]).stdout).schemaVersion).toBe(LATEST_SCHEMA_VERSION);
  });

  it('demo writes into its own scope "demo" unless told otherwise, its files beside the database', () => {
    const db = join(dir, 'demo-default', 'credence.db');
    // Its output is not a terminal here, so it prints and exits instead of serving the dashboard.
    const r = credence(['demo', '--db', db]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`credence demo --db ${JSON.stringify(db)} (running it again adds nothing)`);
    // The seed scenarios' 4 runs and the 140 of the month of history.
    expect(JSON.parse(credence(['status', '--json', '--db', db, '--scope', 'demo']).stdout).counts.executions).toBe(
      144,
    );
    expect(existsSync(join(dir, 'demo-default', 'demo', '.credence', 'evolution.log.jsonl'))).toBe(true);
    expect(existsSync(join(dir, '.credence', 'evolution.log.jsonl'))).toBe(false);
    // The calibration line it prints runs as printed (the scope named), with a table for every kind.
    const line = r.stdout.split('\n').find((l) => l.includes('credence calibration'));
    const args = (line ?? '').replace(/^.*credence calibration/, 'calibration').match(/"[^"]*"|\S+/g) ?? [];
    const cal = credence(args.map((a) => (a.startsWith('"') ? (JSON.parse(a) as string) : a)));
    expect(cal.code).toBe(0);
    for (const kind of ['search', 'next', 'dag', 'recall', 'instinct', 'skill']) {
      expect(cal.stdout).toMatch(new RegExp(`^${kind}: [1-9]\\d* outcomes`, 'm'));
    }
  });

  it('names a --db that is a directory', () => {
    const r = credence(['status', '--db', dir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('it is a directory');
  });

  it('demo stores its scenarios and explains each score; a second run adds nothing', () => {
    const db = join(dir, 'demo.db');
    const args = ['demo', '--db', db, '--scope', 'demo', '--now', '2026-02-02T09:00:00Z', '--no-serve', '--no-history'];
    const r = credence(args);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/template → inferred → observed/);
    const json = JSON.parse(credence([...args, '--json']).stdout);
    const section = (id: string) => json.sections.find((s: { id: string }) => s.id === id);
    expect(section('cold-start-dag').lines[1].value.toFixed(3)).toBe('0.665');
    expect(section('camelcase-instinct').lines[0].value.toFixed(2)).toBe('0.65');
    const counts = JSON.parse(credence(['status', '--json', '--db', db, '--scope', 'demo']).stdout).counts;
    expect(counts).toMatchObject({
      tools: 7,
      edges: 2,
      executions: 4,
      calls: 8,
      observations: 6,
      instincts: 1,
      skills: 1,
      memories: 5,
    });
  });
});
