import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CredenceError, isCredenceError } from '../core/errors.js';
import { checkDump, DUMP_FORMAT, restoreDump, writeDump } from './dump.js';
import { openSqliteStore } from './sqlite/sqlite-store.js';
import { LATEST_SCHEMA_VERSION } from './sqlite/migrations.js';
import { DUMP_TABLES, type DumpRow, type Store } from './types.js';

const T0 = Date.UTC(2026, 1, 2, 6, 0, 0);
const open: Store[] = [];
afterEach(async () => {
  while (open.length > 0) await open.pop()?.close();
});

const fresh = (): Store => {
  const store = openSqliteStore({ path: ':memory:' });
  open.push(store);
  return store;
};

async function sample(): Promise<Store> {
  const store = fresh();
  await store.upsertTools('p', [{ id: 'read_file', description: 'Read a text file' }]);
  await store.insertObservations('p', [
    {
      id: 'o1',
      timestamp: T0,
      type: 'pattern',
      context: {},
      observation: 'Tests run before every commit',
      evidence: [],
      confidence: 0.5,
      tags: [],
    },
  ]);
  await store.upsertMemories('q', [
    {
      id: 'm1',
      category: 'note',
      title: 'Release',
      text: 'Tag, then publish.',
      tags: ['release'],
      createdAt: T0,
      updatedAt: T0,
    },
  ]);
  await store.putEmbeddings('p', 'tool', [
    { refId: 'read_file', modelKey: 'x:y:2', textHash: 'h', vector: new Float32Array([0.5, -1]) },
  ]);
  return store;
}

async function dumpText(store: Store): Promise<string> {
  let text = '';
  await writeDump(
    store,
    (chunk) => {
      text += chunk;
    },
    { now: T0 },
  );
  return text;
}

const linesOf = (text: string) =>
  async function* () {
    yield* text.split('\n');
  };

async function everyRow(store: Store): Promise<Record<string, DumpRow[]>> {
  const all: Record<string, DumpRow[]> = {};
  for (const table of DUMP_TABLES) {
    all[table] = [];
    for await (const batch of store.exportRows(table)) all[table].push(...batch);
  }
  return all;
}

/** The CredenceError `fn` throws, message and all. */
async function caught(fn: () => Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await fn();
  } catch (error) {
    if (isCredenceError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('expected a CredenceError');
}

async function failure(fn: () => Promise<unknown>): Promise<{ code: string; details: Record<string, unknown> }> {
  try {
    await fn();
  } catch (error) {
    if (isCredenceError(error)) return { code: error.code, details: { ...error.details } };
    throw error;
  }
  throw new Error('expected a CredenceError');
}

const isEmpty = async (store: Store): Promise<boolean> =>
  Object.values(await everyRow(store)).every((rows) => rows.length === 0);

describe('dump files', () => {
  it('start with a header that counts every table, then hold one line per row', async () => {
    const text = await dumpText(await sample());
    const [head, ...rest] = text.trimEnd().split('\n');
    expect(JSON.parse(head ?? '')).toEqual({
      format: DUMP_FORMAT,
      version: 1,
      schemaVersion: LATEST_SCHEMA_VERSION,
      from: 'sqlite',
      createdAt: '2026-02-02T06:00:00.000Z',
      tables: {
        tools: 1,
        edges: 0,
        executions: 0,
        calls: 0,
        workflows: 0,
        observations: 1,
        memories: 1,
        instincts: 0,
        skills: 0,
        feedback: 0,
        shown: 0,
        embeddings: 1,
        hook_sessions: 0,
        hook_events: 0,
        fits: 0,
        forgotten: 0,
      },
    });
    expect(rest.map((line) => JSON.parse(line).t)).toEqual(['tools', 'observations', 'memories', 'embeddings']);
    expect(JSON.parse(rest[0] ?? '')).toEqual({
      t: 'tools',
      r: expect.objectContaining({
        scope: 'p',
        id: 'read_file',
        description: 'Read a text file',
        calls: 0,
        input_schema: null,
      }),
    });
  });

  it('restore into an empty store gives back every row', async () => {
    const source = await sample();
    const target = fresh();
    const report = await restoreDump(target, linesOf(await dumpText(source)), { batchSize: 1 });
    expect(report).toMatchObject({
      from: 'sqlite',
      to: 'sqlite',
      rows: 4,
      schemaVersion: LATEST_SCHEMA_VERSION,
      tables: { tools: 1, memories: 1 },
    });
    expect(await everyRow(target)).toEqual(await everyRow(source));
    expect((await target.searchMemories('q', '"publish"')).map((h) => h.memory.id)).toEqual(['m1']);
  });

  it('restore a dump whose first line opens with a byte order mark (saved again by an editor)', async () => {
    const source = await sample();
    const target = fresh();
    await restoreDump(target, linesOf(`\ufeff${await dumpText(source)}`), { batchSize: 1 });
    expect(await everyRow(target)).toEqual(await everyRow(source));
  });

  it('keep learned workflows, and a dump written before workflows existed still restores', async () => {
    const store = await sample();
    const merge = { id: 'wf-1', key: 'k', tools: ['read_file'], edges: [], runs: 1, successes: 1, at: T0 };
    await store.mergeWorkflows('p', [{ ...merge, intent: 'read the notes' }]);
    const text = await dumpText(store);
    const target = fresh();
    await restoreDump(target, linesOf(text));
    expect(await target.listWorkflows('p')).toEqual(await store.listWorkflows('p'));
    // The same dump as an older Credence wrote it: no workflows in the header, no workflows rows.
    const [head, ...rest] = text.trimEnd().split('\n');
    const { workflows: _w, ...tables } = JSON.parse(head ?? '').tables;
    const older = [
      JSON.stringify({ ...JSON.parse(head ?? ''), tables }),
      ...rest.filter((l) => !l.includes('"t":"workflows"')),
    ];
    const again = fresh();
    await restoreDump(again, linesOf(older.join('\n')));
    expect(await again.listWorkflows('p')).toEqual([]);
    expect(await everyRow(again)).toEqual({ ...(await everyRow(target)), workflows: [] });
  });

  it('are refused by line number when a line is broken, and the target is left untouched', async () => {
    const lines = (await dumpText(await sample())).split('\n');
    lines[2] = '{"t":"observations","r":{"scope":"p",';
    const target = fresh();
    expect(await failure(() => restoreDump(target, linesOf(lines.join('\n'))))).toEqual({
      code: 'INVALID_INPUT',
      details: { line: 3 },
    });
    expect(await isEmpty(target)).toBe(true);
  });

  it('are refused when a row does not fit its table, naming the line', async () => {
    const lines = (await dumpText(await sample())).split('\n');
    const row = JSON.parse(lines[1] ?? '');
    lines[1] = JSON.stringify({ t: 'tools', r: { ...row.r, colour: 'red' } });
    expect(await failure(() => checkDump(linesOf(lines.join('\n'))()))).toEqual({
      code: 'INVALID_INPUT',
      details: { line: 2 },
    });
    lines[1] = JSON.stringify({ t: 'tool', r: row.r });
    expect(await failure(() => checkDump(linesOf(lines.join('\n'))()))).toEqual({
      code: 'INVALID_INPUT',
      details: { line: 2 },
    });
  });

  it("are refused when a memory's life (issue 23) is not one, naming the field", async () => {
    const lines = (await dumpText(await sample())).split('\n');
    const at = lines.findIndex((l) => l.startsWith('{"t":"memories"'));
    const row = JSON.parse(lines[at] ?? '');
    const withLife = (life: unknown) => JSON.stringify({ t: 'memories', r: { ...row.r, life: JSON.stringify(life) } });
    lines[at] = withLife({ status: 'superseded', supersededBy: 'mem-2', seen: 2 });
    await expect(checkDump(linesOf(lines.join('\n'))())).resolves.toMatchObject({ format: DUMP_FORMAT });
    for (const bad of [{ status: 'stale' }, { sources: 'wiki' }, { turn: { speaker: 'C' } }, [1, 2]]) {
      lines[at] = withLife(bad);
      const refused = await checkDump(linesOf(lines.join('\n'))()).catch((error: Error) => error);
      expect(refused).toBeInstanceOf(Error);
      expect((refused as Error).message).toContain('memories.life');
    }
  });

  it('are refused when the header is not a Credence dump of a version this Credence reads', async () => {
    const text = await dumpText(await sample());
    const [head, ...rest] = text.split('\n');
    const header = JSON.parse(head ?? '');
    for (const bad of [
      { ...header, format: 'something-else' },
      { ...header, version: 2 },
      { ...header, tables: { ...header.tables, widgets: 1 } },
    ]) {
      expect(await failure(() => checkDump(linesOf([JSON.stringify(bad), ...rest].join('\n'))()))).toEqual({
        code: 'INVALID_INPUT',
        details: { line: 1 },
      });
    }
    expect(await failure(() => checkDump(linesOf('')()))).toEqual({ code: 'INVALID_INPUT', details: { line: 1 } });
  });

  it('from a newer schema are refused before anything is written', async () => {
    const text = await dumpText(await sample());
    const [head, ...rest] = text.split('\n');
    const newer = JSON.stringify({ ...JSON.parse(head ?? ''), schemaVersion: LATEST_SCHEMA_VERSION + 1 });
    const target = fresh();
    expect((await failure(() => restoreDump(target, linesOf([newer, ...rest].join('\n'))))).code).toBe(
      'SCHEMA_TOO_NEW',
    );
    expect(await isEmpty(target)).toBe(true);
  });

  // Walk 11, item 3: the header's tables were checked strictly first, so a newer dump holding a table this Credence
  // does not know read as a damaged file ("bad dump header: tables: unknown field …"), not as a newer schema.
  it('from a newer schema are refused by that, even with a table or field this one does not know', async () => {
    const text = await dumpText(await sample());
    const [head, ...rest] = text.split('\n');
    const header = JSON.parse(head ?? '');
    const newer = JSON.stringify({
      ...header,
      schemaVersion: LATEST_SCHEMA_VERSION + 1,
      tables: { ...header.tables, newtable: 0 },
      newfield: true,
    });
    const file = linesOf([newer, ...rest].join('\n'));
    const target = fresh();
    const refused = await caught(() => restoreDump(target, file));
    expect(refused.code).toBe('SCHEMA_TOO_NEW');
    expect(refused.message).toBe(
      `the dump has schema version ${LATEST_SCHEMA_VERSION + 1}, newer than this store's ` +
        `(${LATEST_SCHEMA_VERSION}); restore it with a newer Credence`,
    );
    expect(await isEmpty(target)).toBe(true);
    // Checked before any store is opened: against the newest schema this Credence knows.
    const known = await caught(() => checkDump(file(), { knownSchema: LATEST_SCHEMA_VERSION }));
    expect(known.code).toBe('SCHEMA_TOO_NEW');
    expect(known.message).toContain(`newer than this Credence knows (${LATEST_SCHEMA_VERSION})`);
    // The same table in a dump of this schema is still a bad header.
    const same = JSON.stringify({ ...header, tables: { ...header.tables, newtable: 0 } });
    const bad = await caught(() =>
      checkDump(linesOf([same, ...rest].join('\n'))(), { knownSchema: LATEST_SCHEMA_VERSION }),
    );
    expect(bad.code).toBe('INVALID_INPUT');
    expect(bad.message).toContain('bad dump header: tables: unknown field newtable');
  });

  // Walk 11, item 7: a `credence backup` file given to restore was answered "line 1: malformed JSON (Unexpected token
  // 'S', "SQLite for"...)".
  it('that are a SQLite database (a backup) are refused as one, naming --db and copying it into place', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'credence-dump-backup-'));
    try {
      const path = join(dir, 'old.backup.db');
      const store = openSqliteStore({ path });
      await store.close();
      const target = fresh();
      const refused = await caught(() => restoreDump(target, linesOf(readFileSync(path, 'utf8'))));
      expect(refused).toEqual({
        code: 'INVALID_INPUT',
        message:
          'line 1: this is a SQLite database (a `credence backup` file?), not a dump: use it as a store with --db ' +
          'FILE, or copy it into place as the store (docs/operations.md, Backing up and restoring)',
      });
      expect(await isEmpty(target)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('that end early (fewer rows than the header counts) are refused', async () => {
    const lines = (await dumpText(await sample())).trimEnd().split('\n');
    const target = fresh();
    expect(await failure(() => restoreDump(target, linesOf(lines.slice(0, -1).join('\n'))))).toEqual({
      code: 'INVALID_INPUT',
      details: { line: 5 },
    });
    expect(await isEmpty(target)).toBe(true);
  });

  it('whose tables are out of order are refused (a parent must come before its rows)', async () => {
    const [head, tools, observations, memories, embeddings] = (await dumpText(await sample())).trimEnd().split('\n');
    const shuffled = [head, observations, tools, memories, embeddings].join('\n');
    expect(await failure(() => checkDump(linesOf(shuffled)()))).toEqual({
      code: 'INVALID_INPUT',
      details: { line: 3 },
    });
  });

  it('are not restored into a store that holds data, which stays as it was', async () => {
    const text = await dumpText(await sample());
    const target = fresh();
    await target.upsertTools('z', [{ id: 'mine', description: 'already here' }]);
    const before = await everyRow(target);
    const refused = await failure(() => restoreDump(target, linesOf(text)));
    expect(refused.code).toBe('NOT_EMPTY');
    expect(refused.details.counts).toMatchObject({ tools: 1, memories: 0 });
    expect(await everyRow(target)).toEqual(before);
  });

  it('stop at the row the store refuses, naming its line and what was written', async () => {
    const lines = (await dumpText(await sample())).trimEnd().split('\n');
    // The memory twice: the header counts two, the second breaks the unique key.
    const header = JSON.parse(lines[0] ?? '');
    header.tables.memories = 2;
    const broken = [JSON.stringify(header), lines[1], lines[2], lines[3], lines[3], lines[4]].join('\n');
    const target = fresh();
    const refused = await failure(() => restoreDump(target, linesOf(broken), { batchSize: 1 }));
    expect(refused.code).toBe('INVALID_INPUT');
    expect(refused.details.line).toBe(5);
    expect(refused.details.partial).toMatchObject({ tools: 1, observations: 1, memories: 1, embeddings: 0 });
  });

  it('stop when the store goes out of reach, naming what was written and that it must be emptied', async () => {
    // Walk 19, item 2: the PostgreSQL server shut down part way; restore died with a stack trace, and nothing said
    // the target was left half filled.
    const text = await dumpText(await sample());
    const target = fresh();
    const importRows = target.importRows.bind(target);
    let batches = 0;
    target.importRows = async (table, rows) => {
      batches += 1;
      if (batches === 3)
        throw new CredenceError(
          'STORE_UNAVAILABLE',
          'the PostgreSQL store at postgres://team:***@db/credence is unreachable (57P01): ' +
            'the server is down or out of reach; retry later',
          { details: { unreachable: true } },
        );
      return importRows(table, rows);
    };
    const stopped = await caught(() => restoreDump(target, linesOf(text), { batchSize: 1 }));
    expect(stopped).toEqual({
      code: 'STORE_UNAVAILABLE',
      message:
        'the PostgreSQL store at postgres://team:***@db/credence is unreachable (57P01): the server is down or out ' +
        'of reach: the restore stopped at line 4. :memory: now holds only tools 1, observations 1; once it ' +
        'answers, empty it (or use a new one) before restoring again.',
    });
  });

  it('are not written when the store changes while it is read', async () => {
    const store = await sample();
    let writes = 0;
    const refused = await failure(() =>
      writeDump(store, async () => {
        writes += 1;
        // Another writer adds a tool after the counts were taken.
        if (writes === 1) await store.upsertTools('p', [{ id: 'late', description: 'added during the dump' }]);
      }),
    );
    expect(refused).toEqual({ code: 'STORE_UNAVAILABLE', details: { table: 'tools', expected: 1, read: 2 } });
  });
});
