/**
 * The command line under input a user or an attacker controls (issue 17, H3): the dump's
 * backpressure, `--db` values that are URLs, long runs, free memory categories, terminal escapes,
 * file modes and error lines without stack traces. Drives the real binary.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { runCredence } from '../helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'credence-hardening-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function credence(args: string[], options: { env?: Record<string, string>; input?: string; cwd?: string } = {}) {
  return runCredence(args, options.cwd ?? dir, { ...options, home: dir });
}

const mode = (path: string): number => statSync(path).mode & 0o777;

describe('credence dump', () => {
  it('dumps a store of thousands of rows with no MaxListenersExceededWarning, into a file only its owner reads', () => {
    const db = join(dir, 'big.db');
    const tools = Array.from({ length: 6000 }, (_, i) =>
      JSON.stringify({ id: `tool_${i}`, description: `does thing number ${i}` }),
    ).join('\n');
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
  const urls = [
    'postgres://team:s3cret@db.example:5432/credence',
    'postgresql://db.example/credence',
    'file:credence.db',
    'sqlite://x.db',
    'https://example.com/x.db',
  ];

  it.each(urls)(
    'refuses --db %s on status and demo with exit 2, naming --database-url, and creates nothing in the working folder',
    (url) => {
      const cwd = mkdtempSync(join(dir, 'cwd-'));
      for (const args of [
        ['--db', url, 'status'],
        ['--db', url, 'demo', '--no-serve', '--no-history'],
      ]) {
        const r = credence(args, { cwd });
        expect(r.code).toBe(2);
        expect(r.stderr).toMatch(
          new RegExp(
            '^credence: --db takes the path of a SQLite file, got a [a-z]+: URL; ' +
              'give a PostgreSQL server with --database-url instead\\n$',
          ),
        );
        expect(r.stderr).not.toContain('s3cret');
      }
      expect(readdirSync(cwd)).toEqual([]);
    },
  );

  it('refuses CREDENCE_DB=postgres://… naming CREDENCE_DATABASE_URL, and creates nothing', () => {
    const cwd = mkdtempSync(join(dir, 'cwd-'));
    const r = credence(['demo', '--no-serve', '--no-history'], {
      cwd,
      env: { CREDENCE_DB: 'postgres://team:s3cret@db.example/credence' },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'CREDENCE_DB takes the path of a SQLite file, got a postgres: URL; ' +
        'give a PostgreSQL server with CREDENCE_DATABASE_URL instead',
    );
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('still takes a relative path', () => {
    const cwd = mkdtempSync(join(dir, 'cwd-'));
    expect(credence(['--db', 'here.db', 'init'], { cwd }).code).toBe(0);
    expect(readdirSync(cwd)).toContain('here.db');
    expect(credence(['--db', 'here.db', 'status'], { cwd }).code).toBe(0);
  });
});

describe('credence runs', () => {
  it('prints a run of hundreds of calls on short lines, and --json keeps every call', () => {
    const db = join(dir, 'runs.db');
    const calls = Array.from({ length: 300 }, (_, i) => ({ tool: `tool_${i % 9}`, status: 'success' }));
    expect(
      credence(['--db', db, 'record', '--jsonl', '-'], {
        input: `${JSON.stringify({ intent: 'a long session', calls })}\n`,
      }).code,
    ).toBe(0);
    const r = credence(['--db', db, 'runs']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThan(200);
    expect(lines[1]).toContain('more steps (300 calls; --json lists all)');
    const json = JSON.parse(credence(['--db', db, 'runs', '--json']).stdout);
    expect(json[0].nodes).toHaveLength(300);
  });
});

/** Raw control characters but newline and tab: what a terminal would obey. */
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

describe('no stored or typed text reaches the terminal as an escape sequence', () => {
  const db = join(dir, 'escapes.db');
  const evil = 'evil\u001b[2J\u001b]0;x\u0007';
  const downstream = 'server:wipe\u009b2J\u001b[8m';

  it('tools search, runs, next, edges, status, dag and record print stored tool names escaped in text and JSON', () => {
    const tools = [
      { id: evil, description: 'clears the screen \u009b31m and sets the title' },
      { id: downstream, description: 'a downstream server tool that hides text' },
      { id: 'Read', description: 'read a file' },
    ];
    expect(
      credence(['--db', db, 'tools', 'add', '--jsonl', '-'], { input: tools.map((t) => JSON.stringify(t)).join('\n') })
        .code,
    ).toBe(0);
    const runs = Array.from({ length: 4 }, () =>
      JSON.stringify({
        intent: 'clear the \u001b[2Jscreen',
        calls: [
          { tool: 'Read', status: 'success' },
          { tool: evil, status: 'success' },
          { tool: downstream, status: 'success' },
          { tool: 'unseen\u001b[5m', status: 'success' },
        ],
      }),
    );
    const outputs = [
      credence(['--db', db, 'record', '--jsonl', '-'], { input: runs.join('\n') }),
      credence(['--db', db, 'tools', 'search', 'clears the screen']),
      credence(['--db', db, 'tools', 'search', 'clears the screen', '--json']),
      credence(['--db', db, 'runs']),
      credence(['--db', db, 'runs', '--json']),
      credence(['--db', db, 'next', 'Read']),
      credence(['--db', db, 'next', evil]),
      credence(['--db', db, 'edges']),
      credence(['--db', db, 'edges', '--json']),
      credence(['--db', db, 'status']),
      credence(['--db', db, 'dag', 'clear the screen']),
      credence(['--db', db, 'edge', 'add', evil, 'new\u001b[1mtool', '--type', 'sequence']),
    ];
    for (const r of outputs) {
      expect(r.stdout).not.toMatch(RAW_CONTROL);
      expect(r.stderr).not.toMatch(RAW_CONTROL);
    }
    const [, search, searchJson, listed] = outputs;
    expect(search?.stdout).toContain('evil\\u001b[2J\\u001b]0;x\\u0007');
    expect(listed?.stdout).toContain('server:wipe\\u009b2J\\u001b[8m');
    // The JSON is still JSON, and says exactly what is stored.
    expect(JSON.parse(searchJson?.stdout ?? '').map((t: { tool: string }) => t.tool)).toContain(evil);
  });

  it('an error that quotes a bad input value, and a line of JSON lines with raw ESC, print no raw escape', () => {
    const outputs = [
      credence(['--db', db, 'tools', 'add', '--jsonl', '-'], { input: '{"id": "raw\u001b[31mred\n{"id": 7}\n' }),
      credence(['--db', db, 'recall', 'x', '--labels', 'bad\u001b[2J']),
      credence(['--db', db, 'frobnicate\u001b[2J']),
      credence(['--db', db, 'remember', 'text', '--title', 't', '--category', 'x\u001b]0;pwned\u0007']),
    ];
    for (const r of outputs) {
      expect(r.code).not.toBe(0);
      expect(r.stderr.length).toBeGreaterThan(0);
      expect(r.stdout).not.toMatch(RAW_CONTROL);
      expect(r.stderr).not.toMatch(RAW_CONTROL);
    }
    expect(outputs[1]?.stderr).toContain('bad\\u001b[2J');
  });
});

describe('a damaged database', () => {
  const tools = Array.from({ length: 3000 }, (_, i) =>
    JSON.stringify({ id: `tool_${i}`, description: `does thing number ${i}` }),
  ).join('\n');
  const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

  /** A store of 3000 tools with 4 KB of garbage written over it at `offset`. */
  function damaged(name: string, offset: (db: string) => number): string {
    const db = join(dir, name);
    expect(credence(['--db', db, 'tools', 'add', '--jsonl', '-'], { input: tools }).code).toBe(0);
    const at = offset(db);
    const bytes = readFileSync(db);
    for (let i = at; i < at + 4096; i++) bytes[i] = (i * 131 + 17) % 251;
    writeFileSync(db, bytes);
    return db;
  }

  it.each([
    [
      'in the middle: the file opens, its tables do not read',
      'middle.db',
      // A page in the middle of the tools table (the file also holds tables these commands do not read).
      (db: string) => {
        const sqlite = new Database(db, { readonly: true });
        const pages = sqlite.prepare("SELECT pageno FROM dbstat WHERE name = 'tools' ORDER BY pageno").pluck().all();
        const size = sqlite.pragma('page_size', { simple: true }) as number;
        sqlite.close();
        return ((pages[Math.floor(pages.length / 2)] as number) - 1) * size;
      },
    ],
    ['over the schema: the file does not open', 'schema.db', () => 0],
  ])(
    '4 KB of garbage %s: status, tools search and dump say the file is damaged in one line, no stack trace, exit 1',
    (_, name, offset) => {
      const db = damaged(name, offset);
      for (const args of [['status'], ['tools', 'search', 'thing'], ['dump', join(dir, `${name}.jsonl`)]]) {
        const r = credence(['--db', db, ...args]);
        expect(r.code).toBe(1);
        expect(r.stderr).toMatch(
          new RegExp(
            `^credence: (the database|cannot open the database at) ${escaped(db)}:? (is|it is) damaged ` +
              `or is not a Credence \\(SQLite\\) database: [^\\n]+\\n$`,
          ),
        );
        expect(r.stderr).not.toMatch(/^\s+at /m);
      }
    },
  );
});

describe("the store on disk is its owner's alone", () => {
  it.skipIf(process.platform === 'win32')('a first command creates ~/.credence 0700 and credence.db 0600', () => {
    const home = mkdtempSync(join(dir, 'home-'));
    expect(credence(['status'], { env: { HOME: home } }).code).toBe(0);
    expect(mode(join(home, '.credence'))).toBe(0o700);
    expect(mode(join(home, '.credence', 'credence.db'))).toBe(0o600);
  });
});

describe('a PostgreSQL URL is shown without its secrets', () => {
  it('a password given as ?password= or ?sslpassword= is hidden in what the command prints', () => {
    const r = credence([
      'status',
      '--database-url',
      'postgres://team@127.0.0.1:1/credence?password=s3cret-pw&sslpassword=k3y-pw&application_name=x',
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('postgres://team@127.0.0.1:1/credence?password=***&sslpassword=***&application_name=x');
    expect(r.stderr).not.toMatch(/s3cret-pw|k3y-pw/);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  });
});

describe('credence edge add', () => {
  it('echoes a tool id holding a secret scrubbed, as stored, and declaring it again finds the same edge', () => {
    const db = join(dir, 'edge-secret.db');
    const token = `ghp_${'a1B2c3D4e5'.repeat(3)}abcdef`;
    const first = credence(['--db', db, 'edge', 'add', token, 'Read', '--type', 'sequence']);
    expect(first.code).toBe(0);
    expect(first.stdout).not.toContain(token);
    expect(first.stdout).toContain('declared: [REDACTED:github-token] → Read');
    const again = credence(['--db', db, 'edge', 'add', token, 'Read', '--type', 'sequence', '--json']);
    expect(again.code).toBe(0);
    expect(again.stdout).not.toContain(token);
    expect(JSON.parse(again.stdout)).toMatchObject({
      created: false,
      newTools: [],
      edge: { from: '[REDACTED:github-token]', to: 'Read' },
    });
  });
});

describe('remember --category', () => {
  it('takes any short lowercase word, by flag and in JSON lines, and recall labels it like the seed does', () => {
    const db = join(dir, 'categories.db');
    const one = credence([
      '--db',
      db,
      '--scope',
      'p',
      'remember',
      'Restart the queue worker after a deploy',
      '--title',
      'Queue restart',
      '--category',
      'runbook',
    ]);
    expect(one.code).toBe(0);
    const lines = [
      { title: 'Flaky login test', text: 'The login test fails when the clock skews', category: 'bug' },
      { title: 'Retry pattern', text: 'Retry the queue call with backoff', category: 'pattern' },
    ];
    const many = credence(['--db', db, '--scope', 'p', 'remember', '--jsonl', '-'], {
      input: lines.map((l) => JSON.stringify(l)).join('\n'),
    });
    expect(many.code).toBe(0);
    expect(many.stdout).toContain('remembered 2 memories');
    // The same lines again store nothing new, and say so.
    const again = credence(['--db', db, '--scope', 'p', 'remember', '--jsonl', '-'], {
      input: lines.map((l) => JSON.stringify(l)).join('\n'),
    });
    expect(again.stdout).toBe('remembered 2 memories (2 lines merged as repeats)\n');
    // A line said twice in one file is one memory.
    const twice = credence(['--db', db, '--scope', 'twice', 'remember', '--jsonl', '-'], {
      input: [lines[0], lines[0]].map((l) => JSON.stringify(l)).join('\n'),
    });
    expect(twice.stdout).toBe('remembered 1 memory (1 line merged as repeats)\n');
    const recall = credence(['--db', db, '--scope', 'p', 'recall', 'queue', 'worker', 'restart']);
    expect(recall.stdout).toContain('- [RUNBOOK] Queue restart');
    const json = JSON.parse(credence(['--db', db, '--scope', 'p', 'recall', 'login', 'test', '--json']).stdout);
    expect(json[0]).toMatchObject({ title: 'Flaky login test', category: 'bug' });
  });

  it('refuses a category Credence derives itself, or one that is no short lowercase word, naming it (exit 2)', () => {
    const db = join(dir, 'categories.db');
    const reserved = credence(['--db', db, 'remember', 'x', '--title', 't', '--category', 'skill']);
    expect(reserved.code).toBe(2);
    expect(reserved.stderr).toContain('"skill" is reserved for what Credence derives itself');
    const spaced = credence(['--db', db, 'remember', 'x', '--title', 't', '--category', 'Run Book']);
    expect(spaced.code).toBe(2);
    expect(spaced.stderr).toContain('got "Run Book"');
  });
});
