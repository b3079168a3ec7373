import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freshPgliteStore, startPglite, type PgliteServer } from '../../../test/pglite.js';
import { engineStore, openCredence, type Credence } from '../engine.js';
import { openSqliteStore } from '../../store/sqlite/sqlite-store.js';
import type { Store } from '../../store/types.js';
import { scanSimilar, toMatrix } from '../search/vectors.js';
import { ScopeIndexes } from './scope-indexes.js';
import { type BoundedSource, combinedSource, SETTLE_AFTER, type VectorIndex } from './vector-index.js';

// Issue 20: the persistent vector indexes, brought up to date from the change log after any sequence of writes
// (through the engine, or straight into the store as another process writes), answer recall and tool search
// exactly as a fresh engine does (which reads the persisted matrices) and as a full rebuild does (none persisted).

const NOW = '2026-03-03T10:00:00Z';
const SCOPE = 'vi';
const dir = mkdtempSync(join(tmpdir(), 'credence-vector-index-'));
const servers: PgliteServer[] = [];
afterAll(async () => {
  for (const server of servers) await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

const WORDS = ['redis', 'cache', 'deploy', 'kubernetes', 'invoice', 'email', 'parse', 'image', 'token', 'refresh'];
const MORE = ['policy', 'eviction', 'cluster', 'billing', 'inbox', 'json', 'resize', 'auth', 'rotate', 'queue'];

/** A small seeded generator: the same seed, the same sequence of writes and queries. */
function generator(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}
const pick = <T>(rng: () => number, items: readonly T[]): T => items[Math.floor(rng() * items.length)] as T;
const phrase = (rng: () => number, n: number) =>
  Array.from({ length: n }, () => pick(rng, rng() < 0.5 ? WORDS : MORE)).join(' ');

async function answers(credence: Credence, queries: readonly string[]) {
  const out = [];
  for (const q of queries) {
    out.push({
      recall: await credence.recall(q, { track: false, limit: 8 }),
      bm25: await credence.recall(q, { track: false, limit: 8, bm25Weight: 1 }),
      tools: (await credence.searchTools(q, { track: false, limit: 8 })).map((r) => [r.tool, r.semantic, r.score]),
    });
  }
  return out;
}

/** Every row of every index, by key: the key, and its vector (none when the store ranks vectors). */
async function rows(indexes: ScopeIndexes) {
  const all = [indexes.memory, indexes.observation, indexes.execution, indexes.tool, indexes.task];
  await indexes.refresh(all);
  const out = [];
  for (const index of all) {
    const m = await index.floats();
    const per = m.segmentRows ?? 1;
    const vector = (r: number) =>
      m.segments === undefined || m.dim === 0
        ? []
        : Array.from(
            (m.segments[Math.floor(r / per)] as Float32Array).subarray((r % per) * m.dim, (r % per) * m.dim + m.dim),
          );
    out.push([...m.row].sort(([a], [b]) => (a < b ? -1 : 1)).map(([key, r]) => [key, vector(r)]));
  }
  return out;
}

/**
 * `steps` seeded writes, checked every 6th step. `schedule` names the kind of each write (0-8, as below) instead of
 * the generator: a short run that still makes every kind.
 */
async function run(store: Store, other: Store, seed: number, steps: number, schedule?: readonly number[]) {
  const rng = generator(seed);
  const credence = await openCredence({ store, scope: SCOPE, now: NOW });
  // Kept across every write, as a long-lived server keeps its indexes.
  // Chunks of 4 rows: every write moves rows between several.
  const kept = new ScopeIndexes({ store, scope: SCOPE, embedder: credence.embedder, chunkRows: 4 });
  const remembered: string[] = [];
  let tools = 0;
  for (let step = 0; step < steps; step += 1) {
    const drawn = Math.floor(rng() * 9);
    const op = schedule?.[step] ?? drawn;
    if (op === 0 || remembered.length === 0) {
      const { ids } = await credence.remember([
        { title: phrase(rng, 2), text: phrase(rng, 6), tags: [phrase(rng, 1)] },
      ]);
      remembered.push(...ids);
    } else if (op === 1) {
      // The same memory, its text changed.
      await credence.remember([{ id: pick(rng, remembered), title: phrase(rng, 2), text: phrase(rng, 5) }]);
    } else if (op === 2) {
      const id = remembered.splice(Math.floor(rng() * remembered.length), 1)[0] as string;
      await credence.forget(id);
    } else if (op === 3) {
      await credence.observe([
        {
          timestamp: '2026-03-01T10:00:00Z',
          type: 'pattern',
          observation: phrase(rng, 5),
          evidence: [phrase(rng, 3)],
          confidence: 0.6,
        },
      ]);
    } else if (op === 4) {
      await credence.recordExecution({
        intent: phrase(rng, 4),
        startedAt: Date.parse(NOW) - 3_600_000,
        calls: [{ tool: `tool_${Math.floor(rng() * 6)}`, status: 'success' }],
      });
    } else if (op === 5) {
      await credence.appendCalls({ id: `session-${step % 2}`, intent: phrase(rng, 3) }, [
        { tool: `tool_${Math.floor(rng() * 6)}`, status: 'success' },
      ]);
    } else if (op === 6) {
      tools += 1;
      await credence.addTools([
        { id: `tool_${tools % 8}`, description: `${phrase(rng, 4)} (${tools})` },
        { id: `tool_new_${tools}`, description: phrase(rng, 3) },
      ]);
    } else if (op === 7) {
      // Another process writes straight into the store: a memory, an observation gone, a tool renamed.
      await other.upsertMemories(SCOPE, [
        {
          id: `other-${step}`,
          category: 'note',
          title: phrase(rng, 2),
          text: phrase(rng, 6),
          tags: [],
          createdAt: Date.parse(NOW),
          updatedAt: Date.parse(NOW),
        },
      ]);
      remembered.push(`other-${step}`);
      const observations = await other.listObservations(SCOPE);
      if (observations.length > 0) await other.deleteObservation(SCOPE, pick(rng, observations).id);
      await other.upsertTools(SCOPE, [{ id: `tool_${step % 6}`, description: phrase(rng, 5) }]);
    } else {
      const id = remembered.splice(Math.floor(rng() * remembered.length), 1)[0];
      if (id !== undefined) await other.deleteMemory(SCOPE, id);
    }
    if (step % 6 !== 5) continue;
    const queries = [phrase(rng, 2), phrase(rng, 3), pick(rng, WORDS)];
    const warm = await answers(credence, queries);
    const keptRows = await rows(kept);
    // A new process: the persisted matrices and the change since.
    const fresh = await openCredence({ store: other, scope: SCOPE, now: NOW });
    expect(await answers(fresh, queries)).toEqual(warm);
    // A rebuild from nothing persisted.
    await engineStore(credence).deleteVectorIndex(SCOPE);
    const rebuilt = await openCredence({ store: other, scope: SCOPE, now: NOW });
    expect(await answers(rebuilt, queries)).toEqual(warm);
    // Row for row, the same keys and vectors as a build from nothing.
    await engineStore(credence).deleteVectorIndex(SCOPE);
    const embedder = credence.embedder;
    expect(await rows(new ScopeIndexes({ store: other, scope: SCOPE, embedder, chunkRows: 3 }))).toEqual(keptRows);
    // What the kept indexes persist from here on (chunks of 3 then, as read), read by another process, equals them.
    await rows(kept);
    expect(await rows(new ScopeIndexes({ store: other, scope: SCOPE, embedder }))).toEqual(keptRows);
    // And the warm engine still answers the same after the rebuild wrote its matrices over.
    expect(await answers(credence, queries)).toEqual(warm);
  }
}

describe('persistent vector indexes and learned files', () => {
  it('embed again an instinct whose file was edited by hand since the matrix was persisted', async () => {
    const root = mkdtempSync(join(dir, 'root-'));
    mkdirSync(join(root, '.credence'));
    const file = join(root, '.credence', 'cache.md');
    writeFileSync(file, 'Redis cache eviction keeps the hot keys');
    const store = openSqliteStore({ path: ':memory:' });
    const at = Date.parse(NOW);
    await store.upsertInstinct(SCOPE, {
      id: 'instinct-1',
      slug: 'cache',
      text: 'Redis cache eviction',
      confidence: 0.7,
      status: 'active',
      evidence: [],
      createdAt: at,
      updatedAt: at,
    });
    await store.upsertMemories(SCOPE, [
      {
        id: 'instinct-1',
        category: 'instinct',
        title: 'Redis cache eviction',
        text: 'Redis cache eviction keeps the hot keys',
        tags: [],
        path: '.credence/cache.md',
        confidence: 0.7,
        createdAt: at,
        updatedAt: at,
      },
    ]);
    const open = () => openCredence({ store, scope: SCOPE, now: NOW, cwd: root });
    const ask = async (c: Credence) => c.recall('kubernetes cluster deploy', { track: false, bm25Weight: 0 });
    await ask(await open());
    writeFileSync(file, 'Deploy the kubernetes cluster with one command');
    const after = await ask(await open());
    await store.deleteVectorIndex(SCOPE);
    expect(await ask(await open())).toEqual(after);
    expect(after.map((r) => r.id)).toEqual(['instinct-1']);
    await store.close();
  });
});

describe('persistent vector indexes after any sequence of writes', () => {
  it('answer as a fresh engine and a full rebuild do, on SQLite (a second connection as another process)', async () => {
    const path = join(dir, 'store.db');
    const store = openSqliteStore({ path });
    const other = openSqliteStore({ path });
    try {
      await run(store, other, 20, 36);
      await run(store, other, 7, 24);
    } finally {
      await store.close();
      await other.close();
    }
  }, 60_000);

  it('answer as a fresh engine and a full rebuild do, on PostgreSQL (PGlite, vectors ranked by pgvector)', async () => {
    const server = await startPglite({ vector: true });
    servers.push(server);
    const store = await freshPgliteStore(server);
    try {
      // Every kind of write once (then a few again), checked twice: PGlite runs each statement slowly.
      await run(store, store, 20, 12, [0, 3, 4, 5, 6, 7, 1, 0, 2, 8, 4, 6]);
    } finally {
      await store.close();
    }
  }, 120_000);
});

describe('a process that reads the int8 copies of a persisted matrix', () => {
  /**
   * A store of 40 memories whose matrix is persisted in chunks of 8 rows, and the recall index's queries; `idOf` gives
   * a memory an id of its own.
   */
  async function setup(idOf: (i: number) => string | undefined = () => undefined, withZero = false) {
    const store = openSqliteStore({ path: ':memory:' });
    const credence = await openCredence({ store, scope: SCOPE, now: NOW });
    const rng = generator(4);
    await credence.remember(
      Array.from({ length: 40 }, (_, i) => {
        const id = idOf(i);
        return { ...(id === undefined ? {} : { id }), title: phrase(rng, 2), text: phrase(rng, 6) };
      }),
    );
    const embedder = credence.embedder;
    await new ScopeIndexes({ store, scope: SCOPE, embedder, chunkRows: 8 }).recallVectors().scan(undefined, 1);
    const queries = await embedder.embed(['redis cache eviction', 'deploy kubernetes cluster', 'invoice email']);
    // A text of no known word embeds as zeros.
    if (withZero) queries.push(new Float32Array(queries[0]?.length ?? 0));
    /** What the float32 scan of the matrix as persisted gives. */
    const floats = async () => {
      const index = new ScopeIndexes({ store, scope: SCOPE, embedder }).memory;
      await index.refresh();
      const m = await index.floats();
      return queries.map((q) => {
        const also = m.ids.filter((_, r) => r % 5 === 0);
        const scan = scanSimilar(m, q, 6, also);
        return { top: scan.top, of: [...scan.top, ...also].map((key) => [key, scan.of(key)]), also };
      });
    };
    /** What an index that loaded the int8 copies gives for the same queries and `also` keys. */
    const coded = async (want: Awaited<ReturnType<typeof floats>>, index?: VectorIndex) => {
      const reader = index ?? new ScopeIndexes({ store, scope: SCOPE, embedder }).memory;
      await reader.refresh();
      return Promise.all(
        queries.map(async (q, i) => {
          const also = want[i]?.also ?? [];
          const scan = await reader.source().scan(q, 6, also);
          return { top: scan.top, of: [...scan.top, ...also].map((key) => [key, scan.of(key)]), also };
        }),
      );
    };
    return { store, embedder, floats, coded, queries };
  }

  it('ranks as the float32 scan does whatever the keys are written in (keys past ASCII in some chunks)', async () => {
    // Ids in several scripts, an emoji (two UTF-16 code units, four UTF-8 bytes), and plain ones around them.
    const odd = ['mémoire-1', 'Ünïcode', '記憶', '🦀-crab', 'ascii-only', 'ß'];
    const { store, floats, coded } = await setup((i) => (i % 7 === 2 ? `${odd[i % odd.length]}-${i}` : undefined));
    const want = await floats();
    expect(want.flatMap((w) => w.also).some((key) => /[^\x00-\x7f]/.test(key))).toBe(true);
    // From the int8 copies and their keys, without reading the floats whole.
    let whole = 0;
    const readIndex = store.readVectorIndex.bind(store);
    store.readVectorIndex = async (scope, name, options) => {
      if (options?.floats !== false) whole += 1;
      return readIndex(scope, name, options);
    };
    expect(await coded(want)).toEqual(want);
    expect(whole).toBe(0);
    await store.close();
  });

  it('reads the floats of an index asked again at its next query after a pause, not within the work', async () => {
    const { store, embedder, floats } = await setup();
    const want = await floats();
    const indexes = new ScopeIndexes({ store, scope: SCOPE, embedder });
    const read: number[] = [];
    const readChunks = store.readVectorChunks.bind(store);
    store.readVectorChunks = async (scope, name, asked) => {
      read.push(...asked.chunks);
      return readChunks(scope, name, asked);
    };
    const ask = async (times = 1) => {
      const out = [];
      const texts = Array.from({ length: times }, () => ['redis cache eviction', 'deploy kubernetes cluster']).flat();
      for (const [j, q] of (await embedder.embed(texts)).entries()) {
        const i = j % 2;
        await indexes.refresh([indexes.memory]);
        const also = want[i]?.also ?? [];
        const scan = await indexes.memory.source().scan(q, 6, also);
        out.push({ top: scan.top, of: [...scan.top, ...also].map((key) => [key, scan.of(key)]), also });
      }
      return out;
    };
    // Six queries without a pause: none reads a float chunk (the embeddings table holds every row).
    const first = await ask(3);
    expect(first).toEqual([...want.slice(0, 2), ...want.slice(0, 2), ...want.slice(0, 2)]);
    expect(read).toEqual([]);
    // After a pause nothing is read in the background: the next query settles the index first.
    await new Promise((done) => setTimeout(done, 5));
    expect(read).toEqual([]);
    expect(await ask()).toEqual(want.slice(0, 2));
    expect(read.length).toBeGreaterThan(0);
    await store.close();
  });

  it('settles an index asked many times without a pause (a loop in process) while it answers', async () => {
    const { store, embedder, floats } = await setup();
    const want = (await floats()).slice(0, 2);
    const indexes = new ScopeIndexes({ store, scope: SCOPE, embedder });
    let read = 0;
    const readChunks = store.readVectorChunks.bind(store);
    store.readVectorChunks = async (scope, name, asked) => {
      read += asked.chunks.length;
      return readChunks(scope, name, asked);
    };
    const queries = await embedder.embed(['redis cache eviction', 'deploy kubernetes cluster']);
    for (let n = 0; n < SETTLE_AFTER + 2; n += 1) {
      await indexes.refresh([indexes.memory]);
      const i = n % 2;
      const also = want[i]?.also ?? [];
      const scan = await indexes.memory.source().scan(queries[i] as Float32Array, 6, also);
      expect({ top: scan.top, of: [...scan.top, ...also].map((key) => [key, scan.of(key)]), also }).toEqual(want[i]);
    }
    expect(read).toBeGreaterThan(0);
    await store.close();
  });

  it('settles a slice at a time in a warm-up: a query meanwhile answers, not waiting; none after reads', async () => {
    const { store, embedder, floats } = await setup();
    const want = (await floats()).slice(0, 2);
    const indexes = new ScopeIndexes({ store, scope: SCOPE, embedder });
    const reads: number[][] = [];
    const readChunks = store.readVectorChunks.bind(store);
    store.readVectorChunks = async (scope, name, asked) => {
      reads.push([...asked.chunks]);
      return readChunks(scope, name, asked);
    };
    const queries = await embedder.embed(['redis cache eviction', 'deploy kubernetes cluster']);
    const ask = async (i: number) => {
      await indexes.refresh([indexes.memory]);
      const also = want[i]?.also ?? [];
      const scan = await indexes.memory.source().scan(queries[i] as Float32Array, 6, also);
      return { top: scan.top, of: [...scan.top, ...also].map((key) => [key, scan.of(key)]), also };
    };
    // Asked twice (a warm-up's rounds), then settled in slices while a request asks.
    expect([await ask(0), await ask(1)]).toEqual(want);
    reads.length = 0;
    let done = false;
    const settling = indexes.settle().then(() => {
      done = true;
    });
    expect(await ask(1)).toEqual(want[1]);
    expect(done).toBe(false);
    await settling;
    // Every chunk's floats read once, in more than one read.
    expect(reads.length).toBeGreaterThan(1);
    expect(reads.flat().sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4]);
    reads.length = 0;
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect([await ask(0), await ask(1)]).toEqual(want);
    expect(reads).toEqual([]);
    await store.close();
  });

  it('ranks as the float32 scan does, reading no float chunk when the embeddings table holds every row', async () => {
    const { store, floats, coded } = await setup();
    const read = { whole: 0, chunks: [] as number[] };
    const readIndex = store.readVectorIndex.bind(store);
    const readChunks = store.readVectorChunks.bind(store);
    store.readVectorIndex = async (scope, name, options) => {
      if (options?.floats !== false) read.whole += 1;
      return readIndex(scope, name, options);
    };
    store.readVectorChunks = async (scope, name, asked) => {
      read.chunks.push(...asked.chunks);
      return readChunks(scope, name, asked);
    };
    const want = await floats();
    read.whole = 0;
    read.chunks = [];
    expect(await coded(want)).toEqual(want);
    expect(read).toEqual({ whole: 0, chunks: [] });
    await store.close();
  });

  it('ranks a query of zeros as the float32 scan does (every row 0, ties by key) and reads no row', async () => {
    const { store, embedder, floats, coded, queries } = await setup(undefined, true);
    const want = await floats();
    const zero = want[want.length - 1];
    expect(zero?.top).toHaveLength(6);
    expect(zero?.of.every(([, v]) => v === 0)).toBe(true);
    const read = { whole: 0, chunks: 0, rows: 0 };
    const readIndex = store.readVectorIndex.bind(store);
    const readChunks = store.readVectorChunks.bind(store);
    const readRows = store.getEmbeddingsFor.bind(store);
    store.readVectorIndex = async (scope, name, options) => {
      if (options?.floats !== false) read.whole += 1;
      return readIndex(scope, name, options);
    };
    store.readVectorChunks = async (scope, name, asked) => {
      read.chunks += asked.chunks.length;
      return readChunks(scope, name, asked);
    };
    const reader = new ScopeIndexes({ store, scope: SCOPE, embedder }).memory;
    await reader.refresh();
    store.getEmbeddingsFor = async (...args) => {
      read.rows += 1;
      return readRows(...args);
    };
    const scan = await reader.source().scan(queries.at(-1), 6, zero?.also ?? []);
    expect({ top: scan.top, of: [...scan.top, ...(zero?.also ?? [])].map((key) => [key, scan.of(key)]) }).toEqual({
      top: zero?.top,
      of: zero?.of,
    });
    expect(read).toEqual({ whole: 0, chunks: 0, rows: 0 });
    expect((await coded(want)).at(-1)).toEqual(zero);
    await store.close();
  });

  it('ranks a query of zeros as the float32 scan does when keys are prefixes of others, in either order', async () => {
    for (const idOf of [(i: number) => `m${39 - i}`, (i: number) => `m${i % 2 === 0 ? i : 100 + i}`]) {
      const { store, floats, coded } = await setup(idOf, true);
      const want = await floats();
      const zero = want.at(-1);
      // Keys such as note:m3 and note:m30: the shorter sorts first.
      expect(zero?.top.some((key) => zero.top.includes(`${key}0`) || zero.top.includes(`${key}1`))).toBe(true);
      expect((await coded(want)).at(-1)).toEqual(zero);
      await store.close();
    }
  });

  it('reads the floats of a row from its chunk when the embeddings table holds other floats for it', async () => {
    const { store, floats, coded } = await setup();
    const want = await floats();
    // The stored embeddings of every memory change under the same model and text hash (as a concurrent writer with
    // another embedding of the same text would leave them): the matrix's own floats must still be the ones scored.
    const stored = await store.getEmbeddings(SCOPE, 'memory');
    await store.putEmbeddings(
      SCOPE,
      'memory',
      stored.map((e) => ({ ...e, vector: e.vector.map((x, d) => (d === 0 ? -x : x)) })),
    );
    const chunks: number[] = [];
    const readChunks = store.readVectorChunks.bind(store);
    store.readVectorChunks = async (scope, name, asked) => {
      chunks.push(...asked.chunks);
      return readChunks(scope, name, asked);
    };
    expect(await coded(want)).toEqual(want);
    expect(chunks.length).toBeGreaterThan(0);
    await store.close();
  });

  it('loads again when another process replaced the matrix before the floats of its rows were read', async () => {
    const { store, embedder, floats, coded } = await setup();
    const index = new ScopeIndexes({ store, scope: SCOPE, embedder }).memory;
    await index.refresh();
    // Another process rebuilds the matrix (another generation, chunks of 5), and the embeddings table no longer
    // holds the rows' floats: the first index cannot read its rows as they were, and loads the new matrix.
    await store.deleteVectorIndex(SCOPE);
    await new ScopeIndexes({ store, scope: SCOPE, embedder, chunkRows: 5 }).recallVectors().scan(undefined, 1);
    const want = await floats();
    const stored = await store.getEmbeddings(SCOPE, 'memory');
    await store.putEmbeddings(
      SCOPE,
      'memory',
      stored.map((e) => ({ ...e, vector: e.vector.map((x) => x / 2) })),
    );
    expect(await coded(want, index)).toEqual(want);
    await store.close();
  });

  it('ranks memories, observations and runs as one scan of them all, reading only rows that may rank', async () => {
    // 40 of each kind, chunks of 8 rows: every part has more rows than k, so each goes through its int8 copies.
    const store = openSqliteStore({ path: ':memory:' });
    const credence = await openCredence({ store, scope: SCOPE, now: NOW });
    const rng = generator(9);
    await credence.remember(Array.from({ length: 40 }, () => ({ title: phrase(rng, 2), text: phrase(rng, 6) })));
    await credence.observe(
      Array.from({ length: 40 }, (_, i) => ({
        timestamp: `2026-03-01T10:${String(i).padStart(2, '0')}:00Z`,
        type: 'success' as const,
        context: { task: phrase(rng, 3) },
        observation: phrase(rng, 5),
        evidence: [phrase(rng, 3)],
        confidence: 0.6,
      })),
    );
    for (let i = 0; i < 40; i += 1)
      await credence.recordExecution({
        intent: phrase(rng, 4),
        startedAt: Date.parse(NOW) - (i + 1) * 60_000,
        calls: [{ tool: `tool_${i % 5}`, status: 'success' }],
      });
    const embedder = credence.embedder;
    await new ScopeIndexes({ store, scope: SCOPE, embedder, chunkRows: 8 }).recallVectors().scan(undefined, 1);
    const queries = await embedder.embed(['redis cache eviction', 'deploy kubernetes cluster', 'invoice email json']);
    // The reference: each part's float32 scan, and one scan of every row of the three.
    const kept = new ScopeIndexes({ store, scope: SCOPE, embedder });
    const parts = [kept.memory, kept.observation, kept.execution];
    await kept.refresh(parts);
    const vectors = new Map<string, Float32Array>();
    const matrices: ReturnType<typeof toMatrix>[] = [];
    for (const part of parts) {
      const m = await part.floats();
      const per = m.segmentRows ?? 1;
      for (const [key, r] of m.row) {
        const [segment, base] =
          m.segments === undefined ? [m.data, r * m.dim] : [m.segments[Math.floor(r / per)], (r % per) * m.dim];
        vectors.set(key, (segment as Float32Array).slice(base, base + m.dim));
      }
      matrices.push(toMatrix([...m.row.keys()], vectors));
    }
    const all = toMatrix([...vectors.keys()], vectors);
    expect(matrices.map((m) => m.ids.length)).toEqual([40, 40, 40]);
    let read = 0;
    const getFor = store.getEmbeddingsFor.bind(store);
    store.getEmbeddingsFor = async (scope, kind, ids) => {
      read += ids.length;
      return getFor(scope, kind, ids);
    };
    for (const q of queries) {
      const also = all.ids.filter((_, r) => r % 9 === 0);
      const want = scanSimilar(all, q, 6, also);
      read = 0;
      const scan = await new ScopeIndexes({ store, scope: SCOPE, embedder }).recallVectors().scan(q, 6, also);
      expect(scan.top).toEqual(want.top);
      for (const key of [...want.top, ...also]) expect(scan.of(key)).toBe(want.of(key));
      // Only the rows that can be among the 6 best of all are read with the keys asked: fewer than when each part
      // is scanned alone (each reads the rows that can be among its own 6 best).
      const cut = read;
      read = 0;
      const alone = new ScopeIndexes({ store, scope: SCOPE, embedder });
      for (const [i, part] of [alone.memory, alone.observation, alone.execution].entries()) {
        await part.refresh();
        await part.source().scan(
          q,
          6,
          also.filter((key) => matrices[i]?.row.has(key)),
        );
      }
      expect(cut).toBeLessThan(read);
      // A key of a part's own 6 best, asked after the scan, has the value a scan of that part alone gives it.
      const own = matrices.map((m) => scanSimilar(m, q, 6));
      await scan.settle?.(own.flatMap((o) => o.top));
      for (const o of own) for (const key of o.top) expect(scan.of(key)).toBe(o.of(key));
    }
    await credence.close();
  });
});

describe('a kept index ranking through its int8 copies', () => {
  it('answers as the float32 scan of its rows after each write (rows added, changed, moved, removed)', async () => {
    const store = openSqliteStore({ path: ':memory:' });
    const credence = await openCredence({ store, scope: SCOPE, now: NOW });
    const rng = generator(9);
    const ids = (
      await credence.remember(Array.from({ length: 30 }, () => ({ title: phrase(rng, 2), text: phrase(rng, 6) })))
    ).ids;
    const embedder = credence.embedder;
    const index = new ScopeIndexes({ store, scope: SCOPE, embedder, chunkRows: 4 }).memory;
    const queries = await embedder.embed(['redis cache eviction', 'deploy kubernetes cluster', 'invoice email']);
    for (let step = 0; step < 24; step += 1) {
      const op = step % 4;
      if (op === 0) {
        // More rows than the SIMD memory had room for, now and then.
        const n = step % 8 === 0 ? 9 : 1;
        ids.push(
          ...(
            await credence.remember(Array.from({ length: n }, () => ({ title: phrase(rng, 2), text: phrase(rng, 5) })))
          ).ids,
        );
      } else if (op === 1)
        await credence.remember([{ id: pick(rng, ids), title: phrase(rng, 2), text: phrase(rng, 4) }]);
      else if (op === 2) await credence.forget(ids.splice(Math.floor(rng() * ids.length), 1)[0] as string);
      else await store.deleteMemory(SCOPE, ids.splice(Math.floor(rng() * ids.length), 1)[0] as string);
      await index.refresh();
      const m = await index.floats();
      for (const q of queries) {
        const also = m.ids.filter((_, r) => r % 7 === 3);
        const want = scanSimilar(m, q, 3, also);
        const got = await index.source().scan(q, 3, also);
        expect(got.top).toEqual(want.top);
        for (const key of [...want.top, ...also]) expect(Object.is(got.of(key), want.of(key))).toBe(true);
      }
    }
    await store.close();
  });
});

describe('combinedSource (issue 20: one floor over recall parts)', () => {
  /** A part over fixed values: `bound` gives the k-th best value as its floor (or `floor` when given). */
  const part = (prefix: string, values: Record<string, number>, floor?: number) => {
    const ranked = Object.entries(values).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    const scanOf = (rows: [string, number][]) => ({
      of: (key: string) => values[key] ?? 0,
      top: rows.map(([key]) => key),
    });
    const source: BoundedSource = {
      where: 'memory',
      scan: async (_query, k) => scanOf(ranked.slice(0, k)),
      similarity: async (_query, ids) => new Map([...ids].map((key) => [key, values[key] ?? 0])),
      bound: (_query, k) => ({
        floor: floor ?? ranked[k - 1]?.[1] ?? Number.NEGATIVE_INFINITY,
        finish: async (cut) => scanOf(ranked.slice(0, k).filter(([, v]) => v >= cut)),
      }),
    };
    return { owns: (key: string) => key.startsWith(prefix), source: () => source };
  };
  const a = { 'a:1': 0.9, 'a:2': 0.5, 'a:3': 0.1 };
  const b = { 'b:1': 0.8, 'b:2': 0.7, 'b:3': 0.2 };

  it('gives the k best of all parts, as one scan of every row would', async () => {
    const scan = await combinedSource([part('a:', a), part('b:', b)]).scan(new Float32Array(1), 3);
    expect(scan.top).toEqual(['a:1', 'b:1', 'b:2']);
  });

  it('scans each part alone when a floor is not a number, rather than cutting every row', async () => {
    const scan = await combinedSource([part('a:', a, Number.NaN), part('b:', b)]).scan(new Float32Array(1), 3);
    expect(scan.top).toEqual(['a:1', 'b:1', 'b:2']);
  });
});
