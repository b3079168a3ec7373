/**
 * @module bench/stores
 * SQLite and PostgreSQL side by side (issue 10, point 5): the same ingest, recall and DAG work on
 * each store, and (section `writers`) 16 writer processes recording executions for 10 s into one
 * store: throughput, and the edge increments lost (the store's edge counters against the sum of
 * the edge events every writer recorded; must be 0).
 *
 * PostgreSQL: `CREDENCE_BENCH_DATABASE_URL` (or `CREDENCE_TEST_DATABASE_URL`) when set, else a
 * throwaway cluster started from Debian's packages (scripts/services.mjs) when PostgreSQL is
 * installed; otherwise the PostgreSQL rows say they were skipped. Each run uses a fresh schema.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pg from 'pg';
import { openCredence, type Credence } from '../src/engine/engine.js';
import { openPgStore } from '../src/store/postgres/pg-store.js';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.js';
import type { Store } from '../src/store/types.js';
import { mulberry32 } from './prng.js';
import { benchMemories, loadData } from './recall.js';
import type { WriterReport } from './store-writer.js';
import { fmtRate, p50p95, percentile, timeEach, type BenchRow } from './table.js';

const NOW = Date.parse('2026-06-01T00:00:00Z');

interface Server {
  url: string;
  stop: () => Promise<void>;
}

/** A PostgreSQL server for the bench, or the reason there is none. */
async function server(): Promise<Server | string> {
  const given = process.env.CREDENCE_BENCH_DATABASE_URL ?? process.env.CREDENCE_TEST_DATABASE_URL;
  if (given !== undefined && given !== '') return { url: given, stop: async () => {} };
  const script = pathToFileURL(fileURLToPath(new URL('../../scripts/services.mjs', import.meta.url))).href;
  const services = (await import(script)) as {
    postgresBinDir: () => string | undefined;
    startPostgres: () => Promise<Server>;
  };
  if (services.postgresBinDir() === undefined)
    return 'no PostgreSQL: set CREDENCE_BENCH_DATABASE_URL or install postgresql';
  return services.startPostgres();
}

const WORDS = (
  'read parse write validate transform json yaml csv file config test build deploy commit branch merge search ' +
  'index query cache token auth user session log metric alert backup restore schema table column row key value ' +
  'api http request response retry queue worker job schedule report chart image resize upload download'
).split(' ');

function syntheticData(seed: number) {
  const rng = mulberry32(seed);
  const pick = () => WORDS[Math.floor(rng() * WORDS.length)] as string;
  const tools = Array.from({ length: 500 }, (_, i) => ({
    id: `${pick()}_${pick()}_${i}`,
    description: `${pick()} ${pick()} ${pick()} the ${pick()} ${pick()}`,
  }));
  const executions = Array.from({ length: 5_000 }, (_, i) => {
    const start = Math.floor(rng() * 490);
    return {
      intent: `${pick()} ${pick()} ${pick()} ${pick()}`,
      startedAt: NOW - 86_400_000 + i * 1000,
      calls: Array.from({ length: 5 }, (_, k) => ({
        tool: (tools[start + Math.floor(rng() * 10)] as { id: string }).id,
        status: rng() < 0.95 ? ('success' as const) : ('failure' as const),
        ...(k > 0 && rng() < 0.5 ? { consumes: [k - 1] } : {}),
      })),
    };
  });
  // Recall's own bench data: Seal-Tools descriptions and queries when ../shared is there, else its seeded stand-in.
  const recall = loadData();
  const memories = benchMemories(recall.tools, 10_000);
  const queries = recall.queries.slice(0, 100);
  return { tools, executions, memories, queries };
}

async function workload(store: Store, data: ReturnType<typeof syntheticData>) {
  let n = 0;
  const credence: Credence = await openCredence({ store, scope: 'bench', now: NOW, newId: () => `e${(n += 1)}` });
  await credence.addTools(data.tools);
  const t0 = performance.now();
  for (let i = 0; i < data.executions.length; i += 1_000)
    await credence.recordExecutions(data.executions.slice(i, i + 1_000));
  const ingest = (data.executions.length * 5) / ((performance.now() - t0) / 1000);
  for (let i = 0; i < data.memories.length; i += 2_000)
    await store.upsertMemories('bench', data.memories.slice(i, i + 2_000));
  const time = (fn: (q: string) => Promise<unknown>): Promise<number[]> => timeEach(data.queries, fn, 10);
  const recall = await time((q) => credence.recall(q, { track: false, bm25Weight: 1 }));
  const dag = await time((q) => credence.suggestDag(q, { track: false }));
  await credence.close();
  return { ingest, recall, dag };
}

export async function benchStores(): Promise<BenchRow[]> {
  const data = syntheticData(7);
  const sqlite = await workload(openSqliteStore({ path: ':memory:' }), data);
  const srv = await server();
  const label = `500 tools, 5,000 executions, 10k memories and 100 queries from ${loadData().source}`;
  if (typeof srv === 'string') {
    return [
      {
        benchmark: `stores side by side (${label})`,
        measure: '-',
        value: `PostgreSQL skipped: ${srv}`,
        reference: '-',
        ratio: '-',
        target: '-',
      },
    ];
  }
  const schema = `credence_bench_${randomBytes(4).toString('hex')}`;
  try {
    const postgres = await workload(await openPgStore({ url: srv.url, schema }), data);
    return [
      {
        benchmark: `ingest, batches of 1,000 executions (${label})`,
        measure: 'calls/s',
        value: `PostgreSQL ${fmtRate(postgres.ingest)}`,
        reference: `SQLite ${fmtRate(sqlite.ingest)}`,
        ratio: `${(postgres.ingest / sqlite.ingest).toFixed(2)}×`,
        target: 'side by side',
      },
      {
        benchmark: `recall, BM25 (${label})`,
        measure: 'p50 / p95',
        value: `PostgreSQL ${p50p95(postgres.recall)}`,
        reference: `SQLite ${p50p95(sqlite.recall)}`,
        ratio: `${(percentile(postgres.recall, 0.95) / percentile(sqlite.recall, 0.95)).toFixed(1)}× p95`,
        target: 'side by side',
      },
      {
        benchmark: `DAG suggestion (${label})`,
        measure: 'p50 / p95',
        value: `PostgreSQL ${p50p95(postgres.dag)}`,
        reference: `SQLite ${p50p95(sqlite.dag)}`,
        ratio: `${(percentile(postgres.dag, 0.95) / percentile(sqlite.dag, 0.95)).toFixed(1)}× p95`,
        target: 'side by side',
      },
    ];
  } finally {
    await dropSchema(srv.url, schema);
    await srv.stop();
  }
}

async function dropSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await client.end();
}

// Beside this file once compiled (dist/bench); from the sources (the tests), the compiled copy.
const writerScript = fileURLToPath(
  new URL(import.meta.url.endsWith('.ts') ? '../dist/bench/store-writer.js' : './store-writer.js', import.meta.url),
);

/** Runs one writer process (bench/store-writer) and returns what it reports. */
export function runWriter(args: string[]): Promise<WriterReport> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [writerScript, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out) as WriterReport) : reject(new Error(`writer exited ${code}: ${err}`)),
    );
  });
}

/** Runs the writers against one store and returns throughput and lost increments. */
async function writers(count: number, seconds: number, target: string[], store: () => Promise<Store>) {
  const reports = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      runWriter([...target, '--scope', 'writers', '--seed', String(i + 1), '--seconds', String(seconds)]),
    ),
  );
  const expected = new Map<string, number>();
  for (const r of reports)
    for (const [key, t] of Object.entries(r.edges))
      expected.set(key, (expected.get(key) ?? 0) + t.successes + t.failures);
  const s = await store();
  const stored = new Map(
    (await s.listEdges('writers')).map((e) => [`${e.type} ${e.from}→${e.to}`, e.successes + e.failures]),
  );
  await s.close();
  let lost = 0;
  let events = 0;
  for (const [key, n] of expected) {
    events += n;
    lost += Math.abs(n - (stored.get(key) ?? 0));
  }
  const executions = reports.reduce((a, r) => a + r.executions, 0);
  const elapsed = Math.max(...reports.map((r) => r.elapsedMs)) / 1000;
  return { executions, rate: executions / elapsed, events, lost };
}

export async function benchWriters(options: { dir: string; count?: number; seconds?: number }): Promise<BenchRow[]> {
  const count = options.count ?? 16;
  const seconds = options.seconds ?? 10;
  const db = join(options.dir, 'writers.db');
  const sqlite = await writers(count, seconds, ['--db', db], async () => openSqliteStore({ path: db }));
  const srv = await server();
  const rows: BenchRow[] = [];
  const row = (name: string, r: Awaited<ReturnType<typeof writers>>, reference: string): BenchRow => ({
    benchmark: `${count} writer processes × ${seconds} s, one execution a transaction (${name})`,
    measure: 'executions/s; lost edge increments',
    value: `${fmtRate(r.rate)}; lost ${r.lost} of ${r.events.toLocaleString('en-US')}`,
    reference,
    ratio: '-',
    target: `0 lost: ${r.lost === 0 ? 'met' : 'NOT met'}`,
  });
  if (typeof srv === 'string') {
    rows.push(row('SQLite', sqlite, '-'));
    rows.push({
      benchmark: `${count} writer processes (PostgreSQL)`,
      measure: '-',
      value: `skipped: ${srv}`,
      reference: '-',
      ratio: '-',
      target: '-',
    });
    return rows;
  }
  const schema = `credence_bench_${randomBytes(4).toString('hex')}`;
  try {
    const postgres = await writers(count, seconds, ['--database-url', srv.url, '--schema', schema], () =>
      openPgStore({ url: srv.url, schema }),
    );
    rows.push(row('PostgreSQL', postgres, `SQLite ${fmtRate(sqlite.rate)}; lost ${sqlite.lost}`));
    rows.push(row('SQLite', sqlite, '-'));
  } finally {
    await dropSchema(srv.url, schema);
    await srv.stop();
  }
  return rows;
}
