/**
 * Vectors through pgvector, on PGlite (PostgreSQL 18 with pgvector 0.8.7's own code, test/pglite):
 * CI's Debian PostgreSQL has no pgvector, so this is where the pgvector path runs. The fallback on
 * a server without it runs here on PGlite without the extension, and on the CI server.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mulberry32 } from '../../../bench/prng.js';
import { pgSchemas, pgTestUrl } from '../../../test/pg.js';
import {
  freshPgliteStore,
  PGLITE_VECTOR_SCHEMA,
  resetPglite,
  startPglite,
  type PgliteServer,
} from '../../../test/pglite.js';
import { isCredenceError } from '../../core/errors.js';
import { openCredence } from '../../engine/engine.js';
import type { ObservationInput } from '../../schemas/index.js';
import { restoreDump, writeDump } from '../dump.js';
import { openSqliteStore } from '../sqlite/sqlite-store.js';
import type { EmbeddingKind, Store, StoredEmbedding } from '../types.js';
import { matrixSource, storeSource, toMatrix } from '../../engine/search/vectors.js';
import { openPgStore, type PgStore } from './pg-store.js';

let withVector: PgliteServer;
let without: PgliteServer;

beforeAll(async () => {
  [withVector, without] = await Promise.all([startPglite({ vector: true }), startPglite()]);
}, 60_000);
afterAll(async () => {
  await Promise.all([withVector?.stop(), without?.stop()]);
});

/** `n` L2-normalised float32 vectors of `dim` values, from a seeded generator. */
function unitVectors(n: number, dim: number, seed: number): Float32Array[] {
  const next = mulberry32(seed);
  return Array.from({ length: n }, () => {
    const v = Float32Array.from({ length: dim }, () => next() * 2 - 1);
    const norm = Math.hypot(...v);
    return v.map((x) => x / norm);
  });
}

const MODEL = 'test:unit:24';

function embeddings(prefix: string, vectors: readonly Float32Array[], modelKey = MODEL): StoredEmbedding[] {
  return vectors.map((vector, i) => ({ refId: `${prefix}${i}`, modelKey, textHash: `h${i}`, vector }));
}

/** Keys (`kind:id`) → rows, for a source over the given kinds and counts. */
function keysOf(
  parts: readonly [EmbeddingKind, string, number][],
): Map<string, { kind: EmbeddingKind; refId: string }> {
  return new Map(
    parts.flatMap(([kind, prefix, n]) =>
      Array.from({ length: n }, (_, i) => [`${kind}:${prefix}${i}`, { kind, refId: `${prefix}${i}` }] as const),
    ),
  );
}

describe('a PostgreSQL store on a server with pgvector', () => {
  let store: PgStore;
  const tools = unitVectors(300, 24, 1);
  const memories = unitVectors(200, 24, 2);
  const queries = unitVectors(25, 24, 3);
  const keys = keysOf([
    ['tool', 't', 300],
    ['memory', 'm', 200],
  ]);
  const matrix = () =>
    matrixSource(
      toMatrix(
        [...keys.keys()],
        new Map([
          ...tools.map((v, i) => [`tool:t${i}`, v] as const),
          ...memories.map((v, i) => [`memory:m${i}`, v] as const),
        ]),
      ),
    );

  beforeAll(async () => {
    store = await freshPgliteStore(withVector, { poolSize: 2 });
    await store.putEmbeddings('p', 'tool', embeddings('t', tools));
    await store.putEmbeddings('p', 'memory', embeddings('m', memories));
    // Another scope and another model: never results.
    await store.putEmbeddings('q', 'tool', embeddings('t', queries));
    await store.putEmbeddings('p', 'observation', embeddings('o', queries, 'other:model:24'));
  });
  afterAll(async () => {
    await store?.close();
  });

  it('ranks in the database, and says so', async () => {
    expect(store.vectorRanking).toBe('pgvector');
    expect(store.vectorReason).toBe(`ranked by pgvector (the extension is in schema ${PGLITE_VECTOR_SCHEMA})`);
    const credence = await openCredence({ store, scope: 'p', now: 0 }, {});
    expect((await credence.status()).vectors).toEqual({ ranking: 'pgvector', reason: store.vectorReason });
  });

  it('finds the same nearest vectors with the same similarities as the in-process scan, for 25 queries', async () => {
    const inStore = storeSource({ store, scope: 'p', modelKey: MODEL, keys });
    const inMemory = matrix();
    for (const q of queries) {
      const also = ['tool:t7', 'memory:m150', 'memory:nope'];
      const [a, b] = [await inMemory.scan(q, 20, also), await inStore.scan(q, 20, also)];
      expect(b.top).toEqual(a.top);
      expect(b.top).toHaveLength(20);
      // Bit for bit: the store returns the float32 values, scored with the scan's arithmetic.
      for (const key of [...a.top, ...also]) expect(b.of(key)).toBe(a.of(key));
      const ids = ['tool:t1', 'memory:m2', 'tool:t299'];
      expect(await inStore.similarity(q, ids)).toEqual(await inMemory.similarity(q, ids));
    }
  });

  it('breaks ties in key order, as the scan does, however many tie past the first fetch', async () => {
    const same = queries[9] as Float32Array;
    // 70 runs with one intent (one vector), listed newest first as the index lists them, and a memory.
    const runs = Array.from({ length: 70 }, (_, i) => `r${String(i).padStart(2, '0')}`);
    await store.putEmbeddings(
      'ties',
      'execution',
      runs.map((refId) => ({ refId, modelKey: MODEL, textHash: 'h', vector: same })),
    );
    await store.putEmbeddings('ties', 'memory', [{ refId: 'm', modelKey: MODEL, textHash: 'h', vector: same }]);
    const order = [...runs]
      .reverse()
      .map((id) => [`execution:${id}`, { kind: 'execution' as const, refId: id }] as const);
    const keys = new Map<string, { kind: EmbeddingKind; refId: string }>([
      ...order,
      ['memory:m', { kind: 'memory', refId: 'm' }],
    ]);
    const inStore = storeSource({ store, scope: 'ties', modelKey: MODEL, keys });
    const inMemory = matrixSource(toMatrix([...keys.keys()], new Map([...keys.keys()].map((key) => [key, same]))));
    for (const k of [1, 5, 20, 71])
      expect((await inStore.scan(same, k)).top).toEqual((await inMemory.scan(same, k)).top);
    // Ties go by key, whatever order the rows were listed in (issue 20: the kept matrices hold rows in no order).
    expect((await inStore.scan(same, 3)).top).toEqual(['execution:r00', 'execution:r01', 'execution:r02']);
  });

  it('fills the top k with known keys when rows written since (unknown to the index) are nearer', async () => {
    const q = queries[10] as Float32Array;
    const near = Array.from({ length: 12 }, (_, i) => q.map((x, d) => x + (d === i ? 1e-3 : 0)));
    await store.putEmbeddings('late', 'memory', embeddings('new', near));
    await store.putEmbeddings('late', 'memory', embeddings('old', memories.slice(0, 5)));
    const keys = keysOf([['memory', 'old', 5]]);
    const inStore = storeSource({ store, scope: 'late', modelKey: MODEL, keys });
    const inMemory = matrixSource(
      toMatrix([...keys.keys()], new Map(memories.slice(0, 5).map((v, i) => [`memory:old${i}`, v]))),
    );
    expect((await inStore.scan(q, 3)).top).toEqual((await inMemory.scan(q, 3)).top);
    expect((await inStore.scan(q, 3)).top).toHaveLength(3);
  });

  it('returns only rows of the scope, the kinds and the model asked for', async () => {
    const rows = await store.nearestEmbeddings('p', {
      kinds: ['memory', 'observation'],
      modelKey: MODEL,
      vector: queries[0] as Float32Array,
      k: 1000,
    });
    expect(rows).toHaveLength(200);
    expect(new Set(rows.map((r) => r.kind))).toEqual(new Set(['memory']));
    expect(rows.map((r) => r.rank)).toEqual(rows.map((_, i) => i));
    expect(
      await store.nearestEmbeddings('p', {
        kinds: ['tool'],
        modelKey: 'another:model:24',
        vector: queries[0] as Float32Array,
        k: 5,
      }),
    ).toEqual([]);
  });

  it('keeps the pgvector column equal to the stored bytes for a Node-ranking writer, then for an update', async () => {
    const node = await openPgStore({ url: withVector.url, schema: 'public', vectors: 'node', poolSize: 1 });
    try {
      expect(node.vectorRanking).toBe('node');
      // Far from every other vector: the query itself, written by a store that sends no pgvector column.
      const target = queries[5] as Float32Array;
      await node.putEmbeddings('p', 'tool', [
        { refId: 'written-by-node', modelKey: MODEL, textHash: 'x', vector: target },
      ]);
      const first = await store.nearestEmbeddings('p', { kinds: ['tool'], modelKey: MODEL, vector: target, k: 1 });
      expect(first.map((r) => [r.refId, Array.from(r.vector)])).toEqual([['written-by-node', Array.from(target)]]);
      // The same row updated to another vector: the column follows.
      await node.putEmbeddings('p', 'tool', [
        { refId: 'written-by-node', modelKey: MODEL, textHash: 'y', vector: queries[6] as Float32Array },
      ]);
      expect(
        (
          await store.nearestEmbeddings('p', {
            kinds: ['tool'],
            modelKey: MODEL,
            vector: queries[6] as Float32Array,
            k: 1,
          })
        )[0]?.refId,
      ).toBe('written-by-node');
      expect(
        (await store.nearestEmbeddings('p', { kinds: ['tool'], modelKey: MODEL, vector: target, k: 1 }))[0]?.refId,
      ).not.toBe('written-by-node');
      // The mirror holds exactly the stored float32 values, for every row.
      const mismatched = await store.pool.query(
        `SELECT count(*)::int AS n FROM embeddings WHERE vec::real[] IS DISTINCT FROM credence_float32s(vector)`,
      );
      expect(mismatched.rows[0].n).toBe(0);
    } finally {
      await node.close();
    }
  });
});

describe('turning pgvector on for a store that has vectors', () => {
  it('adds the column, fills it from the stored bytes, and then ranks as before', async () => {
    await resetPglite(withVector);
    const vectors = unitVectors(120, 24, 9);
    const before = await openPgStore({ url: withVector.url, schema: 'public', vectors: 'node', poolSize: 1 });
    await before.putEmbeddings('p', 'execution', embeddings('e', vectors));
    const noColumn = await before.pool.query(
      `SELECT 1 FROM information_schema.columns WHERE table_name = 'embeddings' AND column_name = 'vec'`,
    );
    expect(noColumn.rowCount).toBe(0);
    await before.close();

    const after = await openPgStore({ url: withVector.url, schema: 'public', poolSize: 1 });
    try {
      expect(after.vectorReason).toMatch(/^ranked by pgvector/);
      const keys = keysOf([['execution', 'e', 120]]);
      const inStore = storeSource({ store: after, scope: 'p', modelKey: MODEL, keys });
      const inMemory = matrixSource(toMatrix([...keys.keys()], new Map(vectors.map((v, i) => [`execution:e${i}`, v]))));
      for (const q of unitVectors(10, 24, 10))
        expect((await inStore.scan(q, 10)).top).toEqual((await inMemory.scan(q, 10)).top);
      // Opening again changes nothing.
      const again = await openPgStore({ url: withVector.url, schema: 'public', poolSize: 1 });
      expect(again.vectorRanking).toBe('pgvector');
      await again.close();
    } finally {
      await after.close();
    }
  });
});

/**
 * Every number to 9 significant digits: PostgreSQL's bm25 equals FTS5's within 1e-9 but may differ
 * in the last bits (core/text/fts5), and scores built on it with it; the similarities are exact.
 */
const rounded = (value: unknown): unknown =>
  JSON.parse(JSON.stringify(value, (_, v: unknown) => (typeof v === 'number' ? Number(v.toPrecision(9)) : v)));

describe('a restore into a store on pgvector', () => {
  it('ranks the restored vectors in the database as the source ranked them in memory', async () => {
    const sqlite = openSqliteStore({ path: ':memory:' });
    const vectors = unitVectors(80, 24, 11);
    await sqlite.putEmbeddings('p', 'memory', embeddings('m', vectors));
    const lines: string[] = [];
    await writeDump(sqlite, (text) => {
      lines.push(...text.split('\n').filter((l) => l !== ''));
    });
    await sqlite.close();
    await resetPglite(withVector);
    const target = await freshPgliteStore(withVector, { poolSize: 1 });
    try {
      await restoreDump(target, async function* () {
        yield* lines;
      });
      const keys = keysOf([['memory', 'm', 80]]);
      const inStore = storeSource({ store: target, scope: 'p', modelKey: MODEL, keys });
      const inMemory = matrixSource(toMatrix([...keys.keys()], new Map(vectors.map((v, i) => [`memory:m${i}`, v]))));
      for (const q of unitVectors(10, 24, 12)) {
        const [a, b] = [await inMemory.scan(q, 8), await inStore.scan(q, 8)];
        expect(b.top).toEqual(a.top);
        for (const key of a.top) expect(b.of(key)).toBe(a.of(key));
      }
    } finally {
      await target.close();
    }
  });
});

describe('search and recall on pgvector answer as on SQLite', () => {
  const VOCABULARY = (
    'token refresh auth middleware expire config parse json yaml file read write deploy test commit branch merge ' +
    'cache user session log retry queue schema migration index search'
  ).split(' ');
  let sqlite: Store;
  let postgres: PgStore;
  const queries: string[] = [];

  beforeAll(async () => {
    await resetPglite(withVector);
    sqlite = openSqliteStore({ path: ':memory:' });
    postgres = await freshPgliteStore(withVector, { poolSize: 2 });
    expect(postgres.vectorRanking).toBe('pgvector');
    const next = mulberry32(7);
    const pick = () => VOCABULARY[Math.floor(next() * VOCABULARY.length)] as string;
    const sentence = (n: number) => Array.from({ length: n }, pick).join(' ');
    const memories = Array.from({ length: 150 }, (_, i) => ({
      title: sentence(3),
      text: `${sentence(6 + (i % 9))}.`,
      tags: [pick()],
    }));
    const observations = Array.from({ length: 60 }, (_, i) => ({
      timestamp: '1970-01-01T00:00:04Z', // before the engine's now (5 s): a later one is refused
      type: 'correction',
      confidence: 0.5,
      observation: `${sentence(7)} (${i})`,
      context: { task: sentence(2) },
    }));
    const tools = Array.from({ length: 80 }, (_, i) => ({
      id: `${pick()}_${pick()}_${i}`,
      description: `${sentence(8)}.`,
    }));
    const runs = Array.from({ length: 40 }, (_, i) => ({
      intent: sentence(5),
      startedAt: 1_000 + i,
      calls: [0, 1, 2].map((j) => ({
        tool: (tools[(i * 3 + j) % tools.length] as { id: string }).id,
        status: 'success' as const,
      })),
    }));
    for (const store of [sqlite, postgres]) {
      let n = 0;
      const credence = await openCredence({ store, scope: 'p', now: 5_000, newId: () => `id-${(n += 1)}` }, {});
      await credence.addTools(tools);
      await credence.remember(memories);
      await credence.observe(observations as ObservationInput[]);
      await credence.recordExecutions(runs);
    }
    for (let i = 0; i < 30; i += 1) queries.push(sentence(2 + (i % 4)));
  }, 60_000);
  afterAll(async () => {
    await sqlite?.close();
    await postgres?.close();
  });

  it('recall: the same results, labels and every part, for 30 queries with meaning in the score', async () => {
    const answers = async (store: Store) => {
      const credence = await openCredence({ store, scope: 'p', now: 9_000 }, {});
      const out = [];
      for (const q of queries) out.push(await credence.recall(q, { track: false, bm25Weight: 0.5, limit: 10 }));
      return out;
    };
    const a = await answers(sqlite);
    expect(a.flat().filter((r) => r.parts.similarity > 0).length).toBeGreaterThan(100);
    const nearest = vi.spyOn(postgres, 'nearestEmbeddings');
    expect(rounded(await answers(postgres))).toEqual(rounded(a));
    // The vectors were ranked by pgvector, not read whole.
    expect(nearest).toHaveBeenCalled();
    nearest.mockRestore();
  });

  it('one vector per run serves recall and tool search: either index re-embeds nothing, alters no answer', async () => {
    for (const store of [sqlite, postgres]) {
      const first = await openCredence({ store, scope: 'p', now: 9_000 }, {});
      const before = await first.recall(queries[0] as string, { track: false, bm25Weight: 0 });
      await first.similarExecutions(queries[0] as string);
      const puts = vi.spyOn(store, 'putEmbeddings');
      const again = await openCredence({ store, scope: 'p', now: 9_000 }, {});
      expect(await again.recall(queries[0] as string, { track: false, bm25Weight: 0 })).toEqual(before);
      await again.similarExecutions(queries[0] as string);
      expect(puts).not.toHaveBeenCalled();
      puts.mockRestore();
    }
  });

  it('tool search and DAG suggestion: the same tools, scores and parts', async () => {
    const answers = async (store: Store) => {
      const credence = await openCredence({ store, scope: 'p', now: 9_000 }, {});
      const out = [];
      for (const q of queries.slice(0, 15)) {
        out.push(await credence.searchTools(q, { track: false }));
        out.push(await credence.suggestDag(q, { track: false }));
      }
      return out;
    };
    const a = await answers(sqlite);
    expect(JSON.stringify(a)).toMatch(/"similarity":0\.[1-9]/);
    expect(rounded(await answers(postgres))).toEqual(rounded(a));
  });
});

describe('a server without pgvector', () => {
  it('ranks in Node and says why; vectors=pgvector is refused with the reason; an unknown mode is named', async () => {
    await resetPglite(without);
    const store = await openPgStore({ url: without.url, schema: 'public', poolSize: 1 });
    expect(store.vectorRanking).toBe('node');
    expect(store.vectorReason).toBe('ranked in Node: the server has no pgvector extension');
    await expect(
      store.nearestEmbeddings('p', { kinds: ['tool'], modelKey: MODEL, vector: new Float32Array(24), k: 1 }),
    ).rejects.toThrow(/ranks vectors in Node/);
    await store.close();

    const refused = await openPgStore({ url: `${without.url}?vectors=pgvector`, schema: 'public', poolSize: 1 }).catch(
      (e: unknown) => e,
    );
    expect(isCredenceError(refused, 'STORE_UNAVAILABLE') && refused.message).toContain(
      'was asked for pgvector (vectors=pgvector) but the server has no pgvector extension',
    );

    const unknown = await openPgStore({ url: `${without.url}?vectors=fast`, poolSize: 1 }).catch((e: unknown) => e);
    expect(isCredenceError(unknown, 'INVALID_INPUT') && unknown.message).toBe(
      'vectors=fast in the database URL is not one of auto, pgvector, node',
    );
  });

  const url = pgTestUrl('the pgvector fallback on the test server');
  const schema = pgSchemas(url);
  it.skipIf(url === undefined)(
    'on the test server (Debian PostgreSQL): the fallback, and vectors=pgvector refused',
    async () => {
      const store = await openPgStore({ url: url as string, schema: schema() });
      try {
        expect(store.vectorRanking).toBe('node');
        expect(store.vectorReason).toMatch(/^ranked in Node: /);
      } finally {
        await store.close();
      }
      const refused = await openPgStore({ url: url as string, schema: schema(), vectors: 'pgvector' }).catch(
        (e: unknown) => e,
      );
      expect(isCredenceError(refused, 'STORE_UNAVAILABLE')).toBe(true);
    },
  );
});

describe('pgvector dropped from the database', () => {
  it('takes the trigger along with the column: writes go on, the next open creates it again where it may', async () => {
    await resetPglite(withVector);
    const before = await freshPgliteStore(withVector, { poolSize: 1 });
    await before.putEmbeddings('p', 'tool', embeddings('t', unitVectors(5, 24, 20)));
    await before.close();
    await withVector.db.exec('DROP EXTENSION vector CASCADE');
    try {
      const node = await openPgStore({ url: withVector.url, schema: 'public', vectors: 'node', poolSize: 1 });
      try {
        await node.putEmbeddings('p', 'tool', embeddings('u', unitVectors(3, 24, 21)));
        expect((await node.getEmbeddings('p', 'tool')).length).toBe(8);
        const triggers = await node.pool.query(
          `SELECT count(*)::int AS n FROM pg_trigger WHERE tgname = 'embeddings_vec'`,
        );
        expect(triggers.rows[0].n).toBe(0);
      } finally {
        await node.close();
      }
      // auto: the extension is available and this role may create it; the stored vectors are mirrored again.
      const again = await openPgStore({ url: withVector.url, schema: 'public', poolSize: 1 });
      try {
        expect(again.vectorReason).toBe('ranked by pgvector (the extension is in schema public)');
        const rows = await again.nearestEmbeddings('p', {
          kinds: ['tool'],
          modelKey: MODEL,
          vector: unitVectors(1, 24, 22)[0] as Float32Array,
          k: 100,
        });
        expect(rows).toHaveLength(8);
      } finally {
        await again.close();
      }
    } finally {
      await withVector.db.exec(
        `DROP EXTENSION IF EXISTS vector CASCADE; CREATE EXTENSION vector SCHEMA ${PGLITE_VECTOR_SCHEMA};`,
      );
    }
  });
});

describe('a role that may not set pgvector up', () => {
  /** Runs `fn` with the shared PGlite session switched to a plain role that may read and write the store's tables. */
  async function asWorker(fn: () => Promise<void>): Promise<void> {
    await withVector.db.exec(
      "DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'worker') THEN CREATE ROLE worker; " +
        `END IF; END $$;
      GRANT USAGE ON SCHEMA public TO worker; GRANT ALL ON ALL TABLES IN SCHEMA public TO worker; ` +
        `GRANT ALL ON ALL SEQUENCES IN SCHEMA public TO worker;
      SET ROLE worker;`,
    );
    try {
      await fn();
    } finally {
      await withVector.db.exec('RESET ROLE');
    }
  }

  it('ranks in Node and says why, without trying what it may not do, and its writes still work', async () => {
    await resetPglite(withVector);
    // Tables made by their owner, before pgvector's column: the worker may neither add it nor use the extension's
    // schema.
    await (await openPgStore({ url: withVector.url, schema: 'public', vectors: 'node', poolSize: 1 })).close();
    await asWorker(async () => {
      const store = await openPgStore({ url: withVector.url, schema: 'public', poolSize: 1 });
      try {
        expect(store.vectorRanking).toBe('node');
        expect(store.vectorReason).toMatch(
          new RegExp(
            '^ranked in Node: this role cannot use pgvector in schema extensions ' +
              String.raw`\(permission denied for schema extensions`,
          ),
        );
        await store.putEmbeddings('p', 'tool', embeddings('t', unitVectors(2, 24, 30)));
        expect(await store.getEmbeddingStamps('p', 'tool')).toHaveLength(2);
      } finally {
        await store.close();
      }
    });
    await withVector.db.exec(`GRANT USAGE ON SCHEMA ${PGLITE_VECTOR_SCHEMA} TO worker`);
    await asWorker(async () => {
      const store = await openPgStore({ url: withVector.url, schema: 'public', poolSize: 1 });
      expect(store.vectorReason).toBe(
        "ranked in Node: the embeddings table has no pgvector column yet, and only its owner's first open can add it",
      );
      await store.close();
    });
    // The owner's open adds it; the worker then ranks by pgvector too.
    await (await openPgStore({ url: withVector.url, schema: 'public', poolSize: 1 })).close();
    await asWorker(async () => {
      const store = await openPgStore({ url: withVector.url, schema: 'public', poolSize: 1 });
      expect(store.vectorRanking).toBe('pgvector');
      await store.close();
    });
  });

  it('a role that may not create the extension is told so, and nothing is attempted', async () => {
    await resetPglite(withVector);
    await (await openPgStore({ url: withVector.url, schema: 'public', vectors: 'node', poolSize: 1 })).close();
    await withVector.db.exec('DROP EXTENSION vector CASCADE');
    try {
      await asWorker(async () => {
        const store = await openPgStore({ url: withVector.url, schema: 'public', poolSize: 1 });
        expect(store.vectorReason).toBe(
          'ranked in Node: pgvector is installed on the server but this role may not create it; ' +
            'a superuser can run CREATE EXTENSION vector once',
        );
        await store.close();
      });
    } finally {
      await withVector.db.exec(
        `DROP EXTENSION IF EXISTS vector CASCADE; CREATE EXTENSION vector SCHEMA ${PGLITE_VECTOR_SCHEMA};`,
      );
    }
  });
});
