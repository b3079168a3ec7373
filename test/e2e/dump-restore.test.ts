/**
 * `credence dump` / `credence restore` through the real binary (issue 10, point 4): a store filled
 * through the CLI (the demo, record, observe, remember, evolve, feedback, a search that stores
 * embeddings, Claude Code hook events) is dumped, restored into a fresh store, and every table
 * compared row for row; search and recall answer the same; bad dumps and non-empty targets are
 * refused with the target untouched.
 *
 * `roundTrip(from, through)` restores into each target in turn, dumping again from each: with a
 * PostgreSQL test server (CREDENCE_TEST_DATABASE_URL), SQLite → PostgreSQL → SQLite.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPgStore } from '../../src/store/postgres/pg-store.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { DUMP_TABLES, type DumpRow, type DumpTable, type Store } from '../../src/store/types.js';
import { pgSchemas, pgTestUrl } from '../pg.js';

const bin = fileURLToPath(new URL('../../bin/credence.cjs', import.meta.url));
const recorded = fileURLToPath(new URL('../fixtures/claude-code/session-50.jsonl', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'credence-dump-'));
const project = join(dir, 'shop');
const source = join(dir, 'source.db');
const NOW = '2026-03-02T10:00:00Z';
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const baseEnv = { PATH: process.env.PATH ?? '', HOME: dir, CREDENCE_NOW: NOW, CREDENCE_DB: '', CREDENCE_SCOPE: '' };

function credence(args: string[], options: { input?: string; env?: Record<string, string> } = {}) {
  const r = spawnSync(process.execPath, [bin, ...args], {
    cwd: project,
    encoding: 'utf8',
    env: { ...baseEnv, ...options.env },
    maxBuffer: 256 * 1024 * 1024,
    ...(options.input === undefined ? {} : { input: options.input }),
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A store the CLI can dump from and restore into, and the test can read directly. */
export interface StoreTarget {
  name: string;
  /** The global options (and environment) that make the CLI use this store. */
  args: string[];
  env?: Record<string, string>;
  open: () => Promise<Store>;
}

let files = 0;
const sqliteTarget = (path = join(dir, `target-${++files}.db`)): StoreTarget => ({
  name: `sqlite ${path}`,
  args: ['--db', path],
  open: async () => openSqliteStore({ path }),
});

async function everyRow(target: StoreTarget): Promise<Record<DumpTable, DumpRow[]>> {
  const store = await target.open();
  try {
    const all = {} as Record<DumpTable, DumpRow[]>;
    for (const table of DUMP_TABLES) {
      all[table] = [];
      for await (const batch of store.exportRows(table)) all[table].push(...batch);
    }
    return all;
  } finally {
    await store.close();
  }
}

const counts = (rows: Record<DumpTable, DumpRow[]>) => Object.fromEntries(DUMP_TABLES.map((t) => [t, rows[t].length]));

/**
 * Dumps `from`, restores into each of `through` in turn (dumping again from each), and checks that
 * every store on the way holds exactly the rows `from` holds. Returns the last store.
 */
async function roundTrip(from: StoreTarget, through: readonly StoreTarget[]): Promise<StoreTarget> {
  const expected = await everyRow(from);
  let current = from;
  for (const [i, next] of through.entries()) {
    const file = join(dir, `trip-${files}-${i}.jsonl`);
    const dumped = credence(['dump', file, '--json', ...current.args], { env: current.env ?? {} });
    expect(dumped.stderr).toBe('');
    expect(dumped.code).toBe(0);
    expect(JSON.parse(dumped.stdout).tables).toEqual(counts(expected));
    const restored = credence(['restore', file, '--json', ...next.args], { env: next.env ?? {} });
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    expect(JSON.parse(restored.stdout)).toMatchObject({
      tables: counts(expected),
      rows: Object.values(counts(expected)).reduce((a, b) => a + b, 0),
    });
    expect(await everyRow(next)).toEqual(expected);
    current = next;
  }
  return current;
}

/**
 * The JSON a command prints, without the ids of the shown results it records; with `digits`,
 * numbers to that many significant digits (two backends sum BM25 terms in different orders).
 */
const answer = (target: StoreTarget, args: string[], digits?: number): unknown => {
  const r = credence([...args, ...target.args, '--scope', 'demo', '--json'], { env: target.env ?? {} });
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout, (key, value) =>
    key === 'shownId'
      ? undefined
      : digits !== undefined && typeof value === 'number'
        ? Number(value.toPrecision(digits))
        : value,
  );
};

describe('credence dump and restore', () => {
  const from = sqliteTarget(source);

  beforeAll(() => {
    mkdirSync(project);
    expect(spawnSync('git', ['init', '-q'], { cwd: project }).status).toBe(0);
    // A stop's learning (its own process) is waited for: the store moved must hold what it learned.
    const env = { CREDENCE_DB: source, CREDENCE_HOOK_WAIT: '1' };
    const ok = (args: string[], input?: string) => {
      const r = credence(args, { env, ...(input === undefined ? {} : { input }) });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      return r.stdout;
    };
    ok(['demo']);
    ok(
      ['record', '--jsonl', '-', '--scope', 'e2e'],
      [
        JSON.stringify({
          intent: 'read the config and validate it',
          calls: [
            { tool: 'read_file', status: 'success' },
            { tool: 'parse_json', status: 'success', consumes: [0] },
            { tool: 'validate', status: 'failure', retries: 1 },
          ],
        }),
        // A fractional duration: SQLite keeps the end (start + 1200.5 ms) as it is, and so must every move.
        JSON.stringify({
          intent: 'deploy the release',
          calls: [
            { tool: 'build', status: 'success' },
            { tool: 'deploy', status: 'partial', durationMs: 1200.5 },
          ],
        }),
      ].join('\n'),
    );
    for (const text of ['Use pnpm, not npm', 'Use pnpm for installs', 'Run pnpm install before tests']) {
      ok([
        'observe',
        '--scope',
        'e2e',
        '--type',
        'preference',
        '--observation',
        text,
        '--tag',
        'tooling',
        '--evidence',
        'user said so',
        '--confidence',
        '0.6',
      ]);
    }
    ok([
      'remember',
      '--scope',
      'e2e',
      '--title',
      'Deploys go through the release script',
      '--category',
      'decision',
      '--tags',
      'deploy,release',
      'Never deploy by hand; run scripts/release.sh.',
    ]);
    ok(['evolve', '--scope', 'e2e', '--min-confidence', '0.3']);
    // A habit learned and forgotten in a scope of its own: its tombstone (table forgotten) moves with the store.
    for (const text of ['Use tabs, not spaces', 'Use tabs for indentation', 'Use tabs in every file'])
      ok(['observe', '--scope', 'gone', '--type', 'preference', '--observation', text, '--confidence', '0.6']);
    const learned = JSON.parse(ok(['evolve', '--scope', 'gone', '--min-confidence', '0.3', '--json'])) as {
      newInstincts: { id: string }[];
      skillsUpdated: { id: string }[];
    };
    const habit = [...learned.newInstincts, ...learned.skillsUpdated][0]?.id ?? 'nothing learned';
    ok(['forget', habit, '--scope', 'gone']);
    const shown = JSON.parse(ok(['tools', 'search', 'read a json file', '--scope', 'demo', '--json'])) as {
      shownId: string;
    }[];
    ok(['feedback', shown[0]?.shownId ?? '', '--accepted', '--scope', 'demo']);
    ok(['recall', 'tests before commit', '--scope', 'demo', '--format', 'json']);
    // Claude Code hook events: a session's first turn (learned at its Stop) and the start of the next.
    const events = readFileSync(recorded, 'utf8')
      .trim()
      .split('\n')
      .slice(0, 28)
      .filter((line) => !line.includes('"PreToolUse"'));
    for (const line of events) {
      expect(credence(['hook', 'claude-code'], { env, input: line.replaceAll('/PROJECT', project) }).code).toBe(0);
    }
  }, 120_000);

  it('the store to move has rows in every table', async () => {
    const rows = await everyRow(from);
    expect(DUMP_TABLES.filter((t) => rows[t].length === 0)).toEqual([]);
  });

  it('restores a dump into a fresh SQLite file with every row of every table as it was', async () => {
    await roundTrip(from, [sqliteTarget()]);
  });

  // SQLite → PostgreSQL → SQLite, when a test server is given (CREDENCE_TEST_DATABASE_URL).
  const url = pgTestUrl('the dump and restore round trip through PostgreSQL');
  const schema = pgSchemas(url);
  const pgTarget = (server: string): StoreTarget => {
    const name = schema();
    return {
      name: `postgres ${name}`,
      args: ['--database-url', server],
      env: { CREDENCE_DATABASE_SCHEMA: name },
      open: () => openPgStore({ url: server, schema: name }),
    };
  };
  (url === undefined ? it.skip : it)(
    'moves a store from SQLite to PostgreSQL and back with every row as it was',
    async () => {
      const server = url as string;
      const viaPg = pgTarget(server);
      const back = await roundTrip(from, [viaPg, sqliteTarget()]);
      for (const args of [
        ['tools', 'search', 'read a json file'],
        ['recall', 'tests before commit'],
        ['next', 'read_file'],
      ]) {
        expect(answer(viaPg, args, 10)).toEqual(answer(back, args, 10));
      }
    },
  );

  it('gives the same search and recall answers after a restore', async () => {
    // Restored first, so both stores are asked from the same state.
    const copy = await roundTrip(from, [sqliteTarget()]);
    for (const args of [
      ['tools', 'search', 'read a json file'],
      ['tools', 'search', 'run the tests', '--context', 'Edit'],
      ['recall', 'tests before commit'],
      ['recall', 'deploy the release', '--scope', 'e2e'],
      ['edges'],
      ['next', 'read_file'],
      ['metrics'],
      ['status'],
    ]) {
      const before = answer(from, args) as Record<string, unknown>;
      const after = answer(copy, args) as Record<string, unknown>;
      if (args[0] === 'status') {
        expect({ ...after, db: before.db }).toEqual(before);
      } else expect(after).toEqual(before);
    }
  });

  it('dumps to standard output and restores from standard input, with the summary on standard error', async () => {
    const dumped = credence(['dump', '-', ...from.args]);
    expect(dumped.code).toBe(0);
    expect(dumped.stderr).toMatch(/^dumped \d+ rows from sqlite/);
    expect(JSON.parse(dumped.stdout.slice(0, dumped.stdout.indexOf('\n')))).toMatchObject({
      format: 'credence-dump',
      version: 1,
      from: 'sqlite',
      createdAt: '2026-03-02T10:00:00.000Z',
    });
    const to = sqliteTarget();
    const restored = credence(['restore', '-', ...to.args], { input: dumped.stdout });
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    expect(restored.stdout).toMatch(/^restored \d+ rows into sqlite/);
    expect(await everyRow(to)).toEqual(await everyRow(from));
  });

  describe('refuses', () => {
    let dump = '';
    beforeAll(() => {
      dump = join(dir, 'good.jsonl');
      expect(credence(['dump', dump, ...from.args]).code).toBe(0);
    });

    const restoreText = (text: string, target: StoreTarget) => {
      const file = join(dir, `bad-${++files}.jsonl`);
      writeFileSync(file, text);
      return credence(['restore', file, ...target.args]);
    };

    it('a broken line, naming it, and creates no store', () => {
      const lines = readFileSync(dump, 'utf8').split('\n');
      lines[2] = (lines[2] ?? '').slice(0, 40);
      const target = join(dir, 'never.db');
      const r = restoreText(lines.join('\n'), sqliteTarget(target));
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/line 3: malformed JSON/);
      expect(existsSync(target)).toBe(false);
    });

    it('a file that is not a Credence dump, or of a newer schema, leaving the target as it was', async () => {
      const target = sqliteTarget();
      expect(credence(['remember', '--title', 'Mine', 'kept', '--scope', 'z', ...target.args]).code).toBe(0);
      const before = await everyRow(target);
      const r = restoreText('{"intent":"an execution, not a dump"}\n', target);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/line 1: not a Credence dump/);
      const [head, ...rest] = readFileSync(dump, 'utf8').split('\n');
      const newer = restoreText(
        [JSON.stringify({ ...JSON.parse(head ?? ''), schemaVersion: 999 }), ...rest].join('\n'),
        target,
      );
      expect(newer.code).toBe(1);
      expect(newer.stderr).toMatch(/schema version 999/);
      expect(await everyRow(target)).toEqual(before);
    });

    it('a target that holds data, naming its tables and counts, and writes nothing', async () => {
      const target = sqliteTarget();
      expect(credence(['restore', dump, ...target.args]).code).toBe(0);
      const before = await everyRow(target);
      const again = credence(['restore', dump, ...target.args]);
      expect(again.code).toBe(1);
      expect(again.stderr).toContain(`tools ${before.tools.length}, edges ${before.edges.length}`);
      expect(again.stderr).toContain('restore into an empty store (a new --db file or an empty database)');
      expect(await everyRow(target)).toEqual(before);
    });

    it('a file that cannot be read, as bad usage', () => {
      const r = credence(['restore', join(dir, 'missing.jsonl'), ...sqliteTarget().args]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('missing.jsonl');
    });
  });
});
