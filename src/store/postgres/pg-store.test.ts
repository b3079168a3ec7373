import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliIn } from '../../../test/cli.js';
import { freshPgStore, pgSchemas, pgTestUrl } from '../../../test/pg.js';
import { buildFtsQuery } from '../../core/text/fts-query.js';
import { openCredence } from '../../engine/engine.js';
import { runStoreContract } from '../contract.js';
import { openTeamStore } from '../open/open-store.js';
import { openSqliteStore } from '../sqlite/sqlite-store.js';
import type { CallRecord, EdgeFold, Store } from '../types.js';
import { openPgStore, redactUrl } from './pg-store.js';
import { PG_LATEST_SCHEMA_VERSION } from './migrations.js';
import { withSchema } from '../../core/security/redact-url.js';
import { observeEdge } from '../../core/graph/edge-promotion.js';
import { isCredenceError } from '../../core/errors.js';
import { appendedEdgeEvents, edgeEventsOf, type ExecutionCall } from '../../core/graph/execution-edges.js';
import { mulberry32 } from '../../../bench/prng.js';

const url = pgTestUrl('the PostgreSQL store contract');
const schema = pgSchemas(url);

if (url === undefined) describe.skip('Store contract: postgres (no server)', () => {});
else runStoreContract({ name: 'postgres', create: () => freshPgStore(url, schema, { poolSize: 4 }) });

const VOCABULARY = (
  'token refresh tokens refreshing auth middleware expire expired config parse parsing ' +
  'json yaml file files read write deploy deployment test tests testing commit ' +
  'branch merge cache cached user users session sessions log logs ' +
  'retry retries queue schema migration migrations index search'
).split(' ');

describe.skipIf(url === undefined)('PostgreSQL full text ranks as SQLite FTS5 does', () => {
  const stores: Store[] = [];
  let sqlite: Store;
  let postgres: Store;
  const queries: string[] = [];
  beforeAll(async () => {
    sqlite = openSqliteStore({ path: ':memory:' });
    postgres = await freshPgStore(url as string, schema);
    stores.push(sqlite, postgres);
    const next = mulberry32(42);
    const pick = () => VOCABULARY[Math.floor(next() * VOCABULARY.length)] as string;
    const sentence = (n: number) => Array.from({ length: n }, pick).join(' ');
    const memories = Array.from({ length: 300 }, (_, i) => ({
      id: `m${i}`,
      category: 'note' as const,
      title: sentence(3),
      text: `${sentence(5 + Math.floor(next() * 20))}. The refreshToken is ${pick()}-${pick()} in src/${pick()}.ts`,
      tags: [pick(), pick()],
      createdAt: i,
      updatedAt: i,
    }));
    const observations = Array.from({ length: 150 }, (_, i) => ({
      id: `o${i}`,
      timestamp: i,
      type: 'correction' as const,
      context: { task: sentence(3) },
      observation: sentence(8),
      evidence: [sentence(4)],
      confidence: 0.5,
      tags: [pick()],
    }));
    const tools = memories.slice(0, 120).map((m, i) => ({ id: `${pick()}_${pick()}_${i}`, description: m.text }));
    for (const store of stores) {
      // Two scopes: FTS5's statistics cover the whole table, and so must PostgreSQL's.
      await store.upsertMemories('p', memories);
      await store.upsertMemories(
        'other',
        memories.slice(0, 80).map((m) => ({ ...m, text: `${m.text} ${m.title}` })),
      );
      await store.insertObservations('p', observations);
      await store.upsertTools('p', tools);
    }
    for (let i = 0; i < 120; i += 1)
      queries.push(
        i % 5 === 0
          ? `${pick()}-${pick()} ${pick()}`
          : i % 7 === 0
            ? `refreshToken ${pick()}`
            : sentence(1 + Math.floor(next() * 4)),
      );
  });
  afterAll(async () => {
    for (const store of stores) await store.close();
  });

  it('gives the same hits and bm25 (within 1e-9) for 240 queries over memories, observations and tools', async () => {
    let compared = 0;
    for (const text of queries) {
      for (const mode of ['or', 'and'] as const) {
        const match = buildFtsQuery(text, { mode })?.match;
        if (match === undefined) continue;
        const [a, b] = await Promise.all([
          sqlite.searchMemories('p', match, { limit: 10 }),
          postgres.searchMemories('p', match, { limit: 10 }),
        ]);
        expect(b.map((h) => h.memory.id).sort()).toEqual(a.map((h) => h.memory.id).sort());
        b.forEach((h, i) => expect(h.bm25).toBeCloseTo((a[i] as { bm25: number }).bm25, 9));
        const [oa, ob] = await Promise.all([
          sqlite.searchObservations('p', match),
          postgres.searchObservations('p', match),
        ]);
        expect(ob.map((h) => [h.observation.id, h.bm25.toFixed(9)]).sort()).toEqual(
          oa.map((h) => [h.observation.id, h.bm25.toFixed(9)]).sort(),
        );
        const [ta, tb] = await Promise.all([sqlite.searchTools('p', match), postgres.searchTools('p', match)]);
        expect(tb.map((h) => [h.id, h.bm25.toFixed(9)]).sort()).toEqual(
          ta.map((h) => [h.id, h.bm25.toFixed(9)]).sort(),
        );
        compared += a.length + oa.length + ta.length;
      }
    }
    // The queries find things: the comparison is not of empty lists.
    expect(compared).toBeGreaterThan(2000);
  });

  it('recall labels (high, medium, low) and their parts are the same on both stores', async () => {
    const label = async (store: Store) => {
      const credence = await openCredence({ store, scope: 'p', now: 1_000 }, {});
      const out = [];
      for (const q of queries.slice(0, 40))
        out.push(
          (await credence.recall(q, { track: false, bm25Weight: 1 })).map(
            (r) => `${r.kind}:${r.id} ${r.label} ${r.score.toFixed(9)} ${r.parts.bm25Relative.toFixed(9)}`,
          ),
        );
      return out;
    };
    const a = await label(sqlite);
    expect(a.flat().length).toBeGreaterThan(50);
    expect(await label(postgres)).toEqual(a);
  });
});

describe('a PostgreSQL URL that is not one, or cannot be read (no server needed)', () => {
  let home = '';
  beforeAll(() => {
    home = mkdtempSync(join(tmpdir(), 'credence-pg-url-'));
  });
  afterAll(() => rmSync(home, { recursive: true, force: true }));
  const notUrls = [
    'postgres:credence:s3cretA@127.0.0.1:55435/credence',
    'postgresql:credence:s3cretB@db/credence',
    'postgres:/credence:s3cretC@db/credence',
    'credence:s3cretD@db:5432/credence',
  ];

  it('is refused (INVALID_INPUT) naming it with its password hidden, by the store and the command line', async () => {
    for (const given of notUrls) {
      const error = await openPgStore({ url: given }).catch((e: unknown) => e);
      expect(isCredenceError(error, 'INVALID_INPUT') && error.message).toContain('is not a PostgreSQL URL');
      expect((error as Error).message).toContain(':***@');
      expect((error as Error).message).not.toContain('s3cret');
      for (const args of [['status'], ['init', '--claude-code']]) {
        const run = await cliIn(home, ['--database-url', given, ...args]);
        expect(run.code).toBe(2);
        expect(run.stderr).toContain('is not a PostgreSQL URL');
        expect(run.stderr + run.stdout).not.toContain('s3cret');
      }
      const fromEnv = await cliIn(home, ['status'], { CREDENCE_DATABASE_URL: given });
      expect([fromEnv.code, fromEnv.stderr.includes('s3cret')]).toEqual([2, false]);
    }
  });

  it('with its scheme in upper case is read (RFC 3986): a server down is named, not its URL', async () => {
    for (const given of ['POSTGRES://u:s3cret@127.0.0.1:1/db', 'PostgreSQL://u:s3cret@127.0.0.1:1/db']) {
      const error = await openPgStore({ url: given, connectTimeoutMs: 2_000 }).catch((e: unknown) => e);
      expect(isCredenceError(error, 'STORE_UNAVAILABLE') && error.message).toContain('is unreachable');
      expect((error as Error).message).not.toContain('s3cret');
    }
  });

  it('with an unencoded @ / # ? in its password or a port that is no number: says which, exit 2', async () => {
    const encode = 'percent-encoded (%40 %2F %23 %3F)';
    const cases: [string, string][] = [
      ['postgres://u:s3/cret@127.0.0.1:1/db', encode],
      ['postgres://u:s3#cret@127.0.0.1:1/db', encode],
      ['postgres://u:s3?cret@127.0.0.1:1/db', encode],
      ['postgres://u:s3cret@127.0.0.1:54x/db', 'its port "54x" is not a number from 1 to 65535'],
    ];
    for (const [given, says] of cases) {
      const error = await openPgStore({ url: given }).catch((e: unknown) => e);
      expect(isCredenceError(error, 'INVALID_INPUT') && error.message).toContain(
        'the database URL postgres://u:***@127.0.0.1:',
      );
      expect((error as Error).message).toContain(says);
      const run = await cliIn(home, ['--database-url', given, 'status']);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`cannot be read: `);
      expect(run.stderr).toContain(says);
      expect(run.stderr).not.toMatch(/s3|cret|unparseable/);
    }
  });
});

describe.skipIf(url === undefined)('PostgreSQL store', () => {
  it('names the server with its password hidden, and says what is wrong with a bad URL or schema', async () => {
    expect(redactUrl('postgres://team:s3cret@db.example:5432/credence')).toBe(
      'postgres://team:***@db.example:5432/credence',
    );
    const notPg = await openPgStore({ url: 'mysql://x@y/z' }).catch((e: unknown) => e);
    expect(isCredenceError(notPg, 'INVALID_INPUT') && notPg.message).toContain('not a PostgreSQL URL');
    const badSchema = await openPgStore({ url: url as string, schema: 'a; DROP TABLE x' }).catch((e: unknown) => e);
    expect(isCredenceError(badSchema, 'INVALID_INPUT') && badSchema.message).toContain('not a plain identifier');
    const refused = await openPgStore({ url: 'postgres://nobody:pw@127.0.0.1:1/none' }).catch((e: unknown) => e);
    expect(isCredenceError(refused, 'STORE_UNAVAILABLE') && refused.message).toContain(
      'postgres://nobody:***@127.0.0.1:1/none',
    );
  });

  it('names the schema of CREDENCE_DATABASE_SCHEMA where it names the store, as one in the URL', async () => {
    const name = schema();
    const store = await openTeamStore(url as string, { CREDENCE_DATABASE_SCHEMA: name });
    try {
      expect(store.location).toBe(withSchema(redactUrl(url as string), name));
      expect(store.location).toContain(`schema=${name}`);
    } finally {
      await store.close();
    }
    const home = mkdtempSync(join(tmpdir(), 'credence-pg-schema-'));
    try {
      const status = await cliIn(home, ['status', '--json'], {
        CREDENCE_DATABASE_URL: url as string,
        CREDENCE_DATABASE_SCHEMA: name,
      });
      expect(status.code).toBe(0);
      expect((JSON.parse(status.stdout) as { db: string }).db).toContain(`schema=${name}`);
      // One in the URL is shown as it is, and wins over the variable.
      const inUrl = withSchema(url as string, name);
      const named = await cliIn(home, ['status', '--json'], {
        CREDENCE_DATABASE_URL: inUrl,
        CREDENCE_DATABASE_SCHEMA: 'other',
      });
      expect((JSON.parse(named.stdout) as { db: string }).db).toBe(redactUrl(inUrl));
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it("credence status runs the store's consistency check, and a count off is said, exit 1 (walk 19)", async () => {
    const name = schema();
    const store = await openPgStore({ url: url as string, schema: name });
    await store.upsertTools('p', [{ id: 'read_file', description: 'Read a file' }]);
    const home = mkdtempSync(join(tmpdir(), 'credence-pg-integrity-'));
    const env = { CREDENCE_DATABASE_URL: withSchema(url as string, name), CREDENCE_SCOPE: 'p' };
    try {
      const sound = await cliIn(home, ['status'], env);
      expect([sound.code, sound.stdout]).toEqual([0, expect.stringContaining('integrity      ok (consistency check')]);
      const client = new pg.Client({ connectionString: url as string });
      await client.connect();
      await client.query(`UPDATE ${name}.table_counts SET n = n + 5 WHERE name = 'tools'`);
      await client.end();
      const off = await cliIn(home, ['status'], env);
      expect(off.code).toBe(1);
      expect(off.stdout).toContain('integrity      INCONSISTENT (consistency check');
      expect(off.stdout).toContain('tools in scope p: counted 6, holds 1');
      const json = await cliIn(home, ['status', '--json'], env);
      expect(JSON.parse(json.stdout).integrity).toEqual({
        ok: false,
        check: 'consistency check',
        problems: ['tools in scope p: counted 6, holds 1'],
      });
    } finally {
      await store.close();
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('takes the schema from ?schema= in the URL; two processes opening a new schema migrate it once', async () => {
    const name = schema();
    const withSchema = `${url as string}${(url as string).includes('?') ? '&' : '?'}schema=${name}`;
    const opened = await Promise.all(Array.from({ length: 4 }, () => openPgStore({ url: withSchema, poolSize: 1 })));
    for (const store of opened) {
      expect(store.schema).toBe(name);
      expect(await store.schemaVersion()).toBe(PG_LATEST_SCHEMA_VERSION);
    }
    await opened[0]?.upsertTools('p', [{ id: 'read_file', description: 'Read a file' }]);
    expect((await opened[3]?.listTools('p'))?.map((t) => t.id)).toEqual(['read_file']);
    for (const store of opened) await store.close();
  });

  it('takes a reserved word as a schema name, and refuses upper case with a clear message', async () => {
    const reserved = await openPgStore({ url: url as string, schema: 'user' });
    await reserved.upsertTools('p', [{ id: 'read_file' }]);
    await reserved.close();
    const again = await openPgStore({ url: url as string, schema: 'user' });
    expect((await again.listTools('p')).map((t) => t.id)).toEqual(['read_file']);
    await again.pool.query('DROP SCHEMA "user" CASCADE');
    await again.close();
    const upper = await openPgStore({ url: url as string, schema: 'TeamA' }).catch((e: unknown) => e);
    expect(isCredenceError(upper, 'INVALID_INPUT') && upper.message).toContain('lower-case');
  });

  it('four connections appending to one execution at once lose no call and count each edge once', async () => {
    const name = schema();
    const stores = await Promise.all(
      Array.from({ length: 4 }, () => openPgStore({ url: url as string, schema: name, poolSize: 2 })),
    );
    const fold: EdgeFold = (current, event) => ({
      from: event.from,
      to: event.to,
      type: event.type,
      ...observeEdge(current, event),
    });
    const asCall = (c: CallRecord): ExecutionCall => ({ ...c, at: c.at ?? 0 });
    const tools = ['read_file', 'parse_json', 'write_file', 'run_tests'];
    const head = { id: 'session-1', intent: 'a shared session', startedAt: 1_000 };
    await Promise.all(
      stores.map(async (store, w) => {
        for (let i = 0; i < 60; i += 1) {
          await store.appendCalls(
            'p',
            head,
            (before) => [
              {
                tool: tools[(w + i) % tools.length] as string,
                status: 'success',
                retries: 0,
                consumes: [],
                at: 2_000 + before.length,
              },
            ],
            (before, after) => appendedEdgeEvents(before.map(asCall), after.map(asCall)),
            fold,
          );
        }
      }),
    );
    const execution = await stores[0]?.getExecution('p', 'session-1');
    expect(execution?.calls).toHaveLength(240);
    // Indexes 0…239, each once: no two appends took the same place.
    expect(new Set(execution?.calls.map((c) => c.at))).toEqual(
      new Set(Array.from({ length: 240 }, (_, i) => 2_000 + i)),
    );
    // What the appends learned equals what the stored execution yields as a whole: once per edge.
    const whole = edgeEventsOf((execution?.calls ?? []).map(asCall));
    const edges = (await stores[0]?.listEdges('p')) ?? [];
    expect(edges.map((e) => `${e.type} ${e.from}->${e.to} ${e.count}`).sort()).toEqual(
      whole.map((e) => `${e.type} ${e.from}->${e.to} 1`).sort(),
    );
    for (const store of stores) await store.close();
  });

  it('refuses a store written by a newer Credence, untouched', async () => {
    const store = await freshPgStore(url as string, schema);
    await store.pool.query(`UPDATE credence_meta SET value = '99' WHERE key = 'schema_version'`);
    const again = await openPgStore({ url: url as string, schema: store.schema }).catch((e: unknown) => e);
    expect(isCredenceError(again, 'SCHEMA_TOO_NEW') && again.message).toContain('schema version 99');
    expect(await store.schemaVersion()).toBe(99);
    await store.close();
  });
});
