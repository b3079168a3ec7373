/**
 * @module bench/pgvector
 * The PostgreSQL store ranking vectors in Node (`vectors: 'node'`: a process reads every vector of
 * the scope into a matrix) against ranking them in the database through pgvector (`vectors: 'auto'`:
 * it reads only the stamps and asks for the nearest rows per query), on the same data and the same
 * engine: writing N memories with their embeddings, building the recall index (time, and bytes of
 * vectors read into the process), recall at bm25Weight 0.5 (so that the vectors matter) over 100
 * queries, and whether both give the same answers. Then the one-time backfill: the node-written
 * store opened with `vectors: 'auto'`, which adds pgvector's column and fills it from the bytes.
 *
 * Each mode writes the memories into an emptied `public` (PGlite is one backend session, and a store
 * on it always lives in `public`): node first, whose store is then opened with `auto` (the backfill,
 * its answers checked), then pgvector. On the tables pgvector wrote, one store of each mode is opened
 * at once (the node store only reads), and recall runs on both query by query in turn, so that the
 * machine's noise falls on both alike: first with no planner statistics (PGlite runs no autovacuum,
 * so freshly written tables stay unanalysed), then after `ANALYZE`, as a server's autovacuum would
 * leave them. Both modes first run once untimed on 1,000 memories, so that neither pays for the
 * WebAssembly engine warming up.
 *
 * The engine is PGlite (PostgreSQL 18 compiled to WebAssembly, with pgvector 0.8.7) served over the
 * wire protocol (bench/pglite, which the tests use too).
 */
import { createEmbeddingProvider, resolveEmbeddingConfig, type EmbeddingProvider } from '../src/embed/index.js';
import { recall, type RecallContext, type RecallResult } from '../src/engine/recall/recall.js';
import { buildRecallIndex } from '../src/engine/recall/recall-index.js';
import { openPgStore, type PgStore } from '../src/store/postgres/pg-store.js';
import { resetPglite, startPglite, type PgliteServer } from './pglite.js';
import type { MemoryRecord } from '../src/store/types.js';
import { benchMemories, loadData } from './recall.js';
import { ms2 as ms, p50p95, percentile, type BenchRow } from './table.js';

const SCOPE = 'bench-pgvector';
const NOW = Date.parse('2026-06-01T00:00:00Z');
const BM25_WEIGHT = 0.5;
const LIMIT = 10;
const QUERIES = 100;
const WARM_UP = 10;
const BATCH = 1_000;
/** Memories (`CREDENCE_BENCH_PGVECTOR_N` overrides): the section takes well under 2 minutes on 2 cores. */
const DEFAULT_N = 5_000;

const sec = (v: number): string => `${(v / 1000).toFixed(2)} s`;
const bytes = (n: number): string =>
  n >= 1 << 20 ? `${(n / (1 << 20)).toFixed(2)} MiB` : n >= 1 << 10 ? `${(n / (1 << 10)).toFixed(1)} KiB` : `${n} B`;

/**
 * Counts what the store's vector calls move into the process: every vector read, and the time spent putting vectors.
 */
function meter(store: PgStore) {
  const m = { putMs: 0, indexBytes: 0, nearestBytes: 0, nearestCalls: 0 };
  const put = store.putEmbeddings.bind(store);
  const get = store.getEmbeddings.bind(store);
  const nearest = store.nearestEmbeddings.bind(store);
  store.putEmbeddings = async (...args) => {
    const start = performance.now();
    await put(...args);
    m.putMs += performance.now() - start;
  };
  store.getEmbeddings = async (...args) => {
    const rows = await get(...args);
    for (const r of rows) m.indexBytes += r.vector.length * 4;
    return rows;
  };
  store.nearestEmbeddings = async (...args) => {
    const rows = await nearest(...args);
    m.nearestCalls += 1;
    for (const r of rows) m.nearestBytes += r.vector.length * 4;
    return rows;
  };
  return m;
}

interface Written {
  /** upsertMemories, batches of 1,000. */
  memoriesMs: number;
  /** The first index build: embedding every memory and putting the vectors. */
  embedMs: number;
  /** Of which in putEmbeddings. */
  putMs: number;
  /** The store's answers to the queries, right after it wrote them (untimed). */
  answers: RecallResult[][];
}

const ask = (ctx: RecallContext, q: string): Promise<RecallResult[]> =>
  recall(ctx, q, { limit: LIMIT, bm25Weight: BM25_WEIGHT });

/**
 * One store on an emptied `public`, as a process on it writes: the memories, then their embeddings (the first recall
 * index build).
 */
async function write(
  server: PgliteServer,
  vectors: 'node' | 'auto',
  memories: readonly MemoryRecord[],
  queries: readonly string[],
  embedder: EmbeddingProvider,
): Promise<Written> {
  await resetPglite(server);
  const store = await open(server, vectors);
  try {
    const m = meter(store);
    const t0 = performance.now();
    for (let i = 0; i < memories.length; i += BATCH) await store.upsertMemories(SCOPE, memories.slice(i, i + BATCH));
    const t1 = performance.now();
    const index = await buildRecallIndex(store, SCOPE, embedder);
    const t2 = performance.now();
    const ctx: RecallContext = { store, scope: SCOPE, embedder, index, now: NOW };
    const answers: RecallResult[][] = [];
    for (const q of queries) answers.push(await ask(ctx, q));
    return { memoriesMs: t1 - t0, embedMs: t2 - t1, putMs: m.putMs, answers };
  } finally {
    await store.close();
  }
}

async function open(server: PgliteServer, vectors: 'node' | 'auto'): Promise<PgStore> {
  const store = await openPgStore({ url: server.url, schema: 'public', vectors });
  const expected = vectors === 'node' ? 'node' : 'pgvector';
  if (store.vectorRanking !== expected) {
    await store.close();
    throw new Error(`bench/pgvector: vectors=${vectors} ranks by ${store.vectorRanking} (${store.vectorReason})`);
  }
  return store;
}

interface Side {
  store: PgStore;
  meter: ReturnType<typeof meter>;
  buildMs: number;
  /** Vectors read into the process by the build. */
  indexBytes: number;
  ctx: RecallContext;
}

/**
 * Opens a store on the data already in `public` and builds its recall index (everything stored: what a process pays to
 * start recalling).
 */
async function side(server: PgliteServer, vectors: 'node' | 'auto', embedder: EmbeddingProvider): Promise<Side> {
  const store = await open(server, vectors);
  const m = meter(store);
  const start = performance.now();
  const index = await buildRecallIndex(store, SCOPE, embedder);
  const buildMs = performance.now() - start;
  return {
    store,
    meter: m,
    buildMs,
    indexBytes: m.indexBytes,
    ctx: { store, scope: SCOPE, embedder, index, now: NOW },
  };
}

/**
 * Both stores' recall, query by query in turn (so that the machine's noise falls on both alike), after `WARM_UP`
 * untimed queries.
 */
async function interleaved(
  sides: readonly Side[],
  queries: readonly string[],
): Promise<{ times: number[][]; answers: RecallResult[][][] }> {
  const times = sides.map((): number[] => []);
  const answers = sides.map((): RecallResult[][] => []);
  for (const q of queries.slice(0, WARM_UP)) for (const s of sides) await ask(s.ctx, q);
  for (const q of queries) {
    for (const [i, s] of sides.entries()) {
      const start = performance.now();
      const got = await ask(s.ctx, q);
      times[i]?.push(performance.now() - start);
      answers[i]?.push(got);
    }
  }
  return { times, answers };
}

function recallRow(
  benchmark: string,
  pgv: readonly number[],
  node: readonly number[],
  bytesPerQuery: number,
): BenchRow {
  return {
    benchmark,
    measure: 'p50 / p95; vectors read per query',
    value: `pgvector ${p50p95(pgv)}; ${bytes(bytesPerQuery)}`,
    reference: `node ${p50p95(node)}; 0 B (in memory)`,
    ratio:
      `${(percentile(pgv, 0.5) / percentile(node, 0.5)).toFixed(2)}× p50, ` +
      `${(percentile(pgv, 0.95) / percentile(node, 0.95)).toFixed(2)}× p95`,
    target: 'side by side',
  };
}

const answerKey = (results: readonly RecallResult[]): string =>
  results.map((r) => `${r.kind}:${r.id}:${r.label}`).join('\n');
const scoreKey = (results: readonly RecallResult[]): string => results.map((r) => `${r.score}`).join('\n');

/** How many queries got the same ids and labels in the same order, and of those the same scores to the bit. */
function compare(a: readonly RecallResult[][], b: readonly RecallResult[][]): { same: number; sameScores: number } {
  let same = 0;
  let sameScores = 0;
  a.forEach((x, i) => {
    const y = b[i] ?? [];
    if (answerKey(x) !== answerKey(y)) return;
    same += 1;
    if (scoreKey(x) === scoreKey(y)) sameScores += 1;
  });
  return { same, sameScores };
}

async function count(server: PgliteServer, sql: string): Promise<number> {
  const result = await server.db.query<{ n: number }>(sql);
  return Number(result.rows[0]?.n ?? 0);
}

export async function benchPgvector(options: { n?: number } = {}): Promise<BenchRow[]> {
  const n = options.n ?? Number(process.env.CREDENCE_BENCH_PGVECTOR_N ?? DEFAULT_N);
  const data = loadData();
  const memories = benchMemories(data.tools, n);
  const queries = data.queries.slice(0, QUERIES);
  // The provider the engine would make (the offline word-vector table unless CREDENCE_EMBEDDINGS says otherwise).
  const embedder = createEmbeddingProvider(resolveEmbeddingConfig(process.env));
  const server = await startPglite({ vector: true });
  try {
    // Untimed, so that neither mode pays for the WebAssembly engine warming up.
    for (const mode of ['auto', 'node'] as const)
      await write(server, mode, memories.slice(0, 1_000), queries.slice(0, 2 * WARM_UP), embedder);
    // Node first: its store, written without pgvector's column, is the backfill's starting point.
    const nodeWrite = await write(server, 'node', memories, queries, embedder);
    const stored = await count(server, 'SELECT count(*)::int AS n FROM embeddings');
    const hadColumn = await count(
      server,
      "SELECT count(*)::int AS n FROM pg_attribute WHERE attrelid = 'public.embeddings'::regclass " +
        "AND attname = 'vec' AND NOT attisdropped",
    );
    if (hadColumn !== 0)
      throw new Error('bench/pgvector: the node-written store already has the vec column; the backfill would not run');

    // The backfill: the first open with vectors=auto adds the column and fills it from the stored bytes.
    let start = performance.now();
    let store = await open(server, 'auto');
    const backfillMs = performance.now() - start;
    await store.close();
    const filled = await count(server, 'SELECT count(*)::int AS n FROM embeddings WHERE vec IS NOT NULL');
    // Reference: the same open once the column is there (migrations checked, nothing to fill).
    start = performance.now();
    store = await open(server, 'auto');
    const reopenMs = performance.now() - start;
    // The backfilled store answers as the node store did (untimed).
    const backfilled: RecallResult[][] = [];
    try {
      const ctx: RecallContext = {
        store,
        scope: SCOPE,
        embedder,
        index: await buildRecallIndex(store, SCOPE, embedder),
        now: NOW,
      };
      for (const q of queries) backfilled.push(await ask(ctx, q));
    } finally {
      await store.close();
    }

    // pgvector's own write on an emptied `public`: the tables the comparison below runs on.
    const pgvWrite = await write(server, 'auto', memories, queries, embedder);

    // Both modes on these same tables at once: the index builds, then recall interleaved, with no
    // planner statistics (PGlite runs no autovacuum) and after ANALYZE (as a server's autovacuum leaves it).
    const pgvSide = await side(server, 'auto', embedder);
    const nodeSide = await side(server, 'node', embedder);
    let cold: Awaited<ReturnType<typeof interleaved>>;
    let analysed: Awaited<ReturnType<typeof interleaved>>;
    let nearestBytesPerQuery: number;
    try {
      cold = await interleaved([pgvSide, nodeSide], queries);
      nearestBytesPerQuery = pgvSide.meter.nearestBytes / (queries.length + WARM_UP);
      await server.db.exec('ANALYZE');
      analysed = await interleaved([pgvSide, nodeSide], queries);
    } finally {
      await pgvSide.store.close();
      await nodeSide.store.close();
    }
    const [pgvCold = [], nodeCold = []] = cold.times;
    const [pgvAnalysed = [], nodeAnalysed = []] = analysed.times;
    const [pgvAnswers = [], nodeAnswers = []] = cold.answers;
    const [pgvAnswersAnalysed = [], nodeAnswersAnalysed = []] = analysed.answers;

    const dim = embedder.dimension ?? 0;
    const what = `${n.toLocaleString('en-US')} memories (${data.source}), ${dim}-dim ${embedder.provider} vectors`;
    const engine =
      'PGlite: PostgreSQL 18 compiled to WebAssembly, one session, pgvector 0.8.7; ' +
      "absolute figures are not a server's, the two modes on the same engine are the point";
    const sameWritten = compare(nodeWrite.answers, pgvWrite.answers);
    const sameBackfill = compare(nodeWrite.answers, backfilled);
    const sameCold = compare(nodeAnswers, pgvAnswers);
    const sameAnalysed = compare(nodeAnswersAnalysed, pgvAnswersAnalysed);
    const allSame = [sameWritten, sameCold, sameAnalysed, sameBackfill].every((c) => c.same === queries.length);
    const total = (w: Written) => w.memoriesMs + w.embedMs;
    const recallOn =
      `bm25Weight ${BM25_WEIGHT}, limit ${LIMIT}, ${queries.length} ${data.source} queries interleaved, ` +
      `both stores on the tables pgvector wrote (${what})`;
    return [
      {
        benchmark: `pgvector (vectors=auto) vs node (vectors=node) ranking [${engine}]`,
        measure: '-',
        value: `pgvector: ${pgvSide.store.vectorRanking}`,
        reference: `node: ${nodeSide.store.vectorRanking}`,
        ratio: '-',
        target: '-',
      },
      {
        benchmark:
          `write ${what}, each mode on an emptied schema: upsertMemories by ${BATCH.toLocaleString('en-US')}, ` +
          'then embed + putEmbeddings (first recall index build)',
        measure: 'total (memories + embeddings; of which putEmbeddings)',
        value:
          `pgvector ${sec(total(pgvWrite))} ` +
          `(${sec(pgvWrite.memoriesMs)} + ${sec(pgvWrite.embedMs)}; put ${sec(pgvWrite.putMs)})`,
        reference:
          `node ${sec(total(nodeWrite))} ` +
          `(${sec(nodeWrite.memoriesMs)} + ${sec(nodeWrite.embedMs)}; put ${sec(nodeWrite.putMs)})`,
        ratio:
          `${(total(pgvWrite) / total(nodeWrite)).toFixed(2)}× total, ` +
          `${(pgvWrite.putMs / nodeWrite.putMs).toFixed(2)}× put`,
        target: 'side by side',
      },
      {
        benchmark: `build the recall index, everything stored (${what})`,
        measure: 'time; vectors read into the process',
        value: `pgvector ${ms(pgvSide.buildMs)}; ${bytes(pgvSide.indexBytes)}`,
        reference:
          `node ${ms(nodeSide.buildMs)}; ${bytes(nodeSide.indexBytes)} ` +
          `(${(nodeSide.ctx.index?.vectors.matrix?.ids.length ?? 0).toLocaleString('en-US')} × ${dim} × 4 B)`,
        ratio: `${(pgvSide.buildMs / nodeSide.buildMs).toFixed(2)}× time`,
        target: `pgvector reads none: ${pgvSide.indexBytes === 0 ? 'met' : 'NOT met'}`,
      },
      recallRow(
        `recall with no planner statistics (as loaded; PGlite runs no autovacuum), ${recallOn}`,
        pgvCold,
        nodeCold,
        nearestBytesPerQuery,
      ),
      recallRow(
        `recall after ANALYZE (as autovacuum leaves a server), ${recallOn}`,
        pgvAnalysed,
        nodeAnalysed,
        nearestBytesPerQuery,
      ),
      {
        benchmark: `same answers, pgvector vs node (ids, kinds and labels in order; ${queries.length} queries)`,
        measure:
          'queries identical (of which same scores to the bit): ' +
          'each on its own write; same tables as loaded; after ANALYZE; backfilled store',
        value:
          `${sameWritten.same} (${sameWritten.sameScores}); ${sameCold.same} (${sameCold.sameScores}); ` +
          `${sameAnalysed.same} (${sameAnalysed.sameScores}); ${sameBackfill.same} (${sameBackfill.sameScores}) ` +
          `of ${queries.length}`,
        reference: '-',
        ratio: '-',
        target: `all ${queries.length}: ${allSame ? 'met' : 'NOT met'}`,
      },
      {
        benchmark:
          'one-time backfill: the node-written store opened with vectors=auto ' +
          `(adds the vec column, fills ${stored.toLocaleString('en-US')} rows from the bytes)`,
        measure: 'open time; rows filled',
        value: `${sec(backfillMs)}; ${filled.toLocaleString('en-US')}/${stored.toLocaleString('en-US')}`,
        reference: `reopen, column there: ${ms(reopenMs)}`,
        ratio: `${(backfillMs / Math.max(1e-9, reopenMs)).toFixed(0)}×`,
        target: '-',
      },
    ];
  } finally {
    await server.stop();
  }
}
