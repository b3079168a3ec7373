/**
 * pgvector through the real binary: `credence --database-url` on PGlite (PostgreSQL 18 in
 * WebAssembly with pgvector 0.8.7, test/pglite), served from this test process.
 *
 * - `status` says where vectors are ranked: by pgvector on a server with it, in Node with
 *   `?vectors=node`; `?vectors=pgvector` on a server without the extension, and `?vectors=bogus`,
 *   are refused with a non-zero exit and one line naming what is wrong.
 * - The same catalogue, memories, observations and executions, put in through the CLI into a SQLite
 *   file and into PGlite with pgvector, give the same recall, tool search and DAG suggestion answers
 *   (numbers to 9 significant digits: PostgreSQL's bm25 equals FTS5's within 1e-9), with meaning in
 *   the scores (recall's default bm25 weight is 0.7, so similarity counts) and the vectors ranked in
 *   the database (the `<#>` operator reaches the server).
 *
 * The PGlite servers run on this process's event loop: the CLI is always spawned asynchronously
 * (a spawnSync would block the loop, and the server with it, and never return).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mulberry32 } from '../../bench/prng.js';
import { resetPglite, startPglite, type PgliteServer } from '../pglite.js';

const bin = fileURLToPath(new URL('../../bin/credence.cjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'credence-pgvector-cli-'));
const NOW = '2026-03-02T10:00:00Z';
const SCOPE = 'p';

// Nothing from the caller's environment (no CREDENCE_DATABASE_URL, no embeddings provider): an empty
// HOME, a fixed clock and scope, and the default offline word vectors.
const baseEnv = {
  PATH: process.env.PATH ?? '',
  HOME: dir,
  CREDENCE_NOW: NOW,
  CREDENCE_DB: '',
  CREDENCE_SCOPE: SCOPE,
  CREDENCE_DATABASE_URL: '',
  CREDENCE_DATABASE_SCHEMA: '',
  CREDENCE_EMBEDDINGS: '',
};

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The CLI in a child process, awaited without blocking this process (the PGlite servers run here). */
function credence(args: readonly string[], input = ''): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd: dir, env: baseEnv, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

/** A run's id (a random UUID). */
const RUN_ID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g;

/** A run that must succeed silently; its standard output. */
async function ok(args: readonly string[], input?: string): Promise<string> {
  const r = await credence(args, input);
  expect(r.stderr, args.join(' ')).toBe('');
  expect(r.code, args.join(' ')).toBe(0);
  return r.stdout;
}

const jsonl = (rows: readonly unknown[]): string => `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`;

let withVector: PgliteServer;
let without: PgliteServer;

beforeAll(async () => {
  withVector = await startPglite({ vector: true });
  without = await startPglite();
}, 60_000);
afterAll(async () => {
  await withVector?.stop();
  await without?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('credence status on PostgreSQL says where vectors are ranked', () => {
  it('by pgvector on a server with it, in Node with ?vectors=node', async () => {
    await resetPglite(withVector);
    const out = await ok(['status', '--database-url', withVector.url, '--scope', SCOPE]);
    expect(out.split('\n')).toContain('vectors        ranked by pgvector (the extension is in schema extensions)');
    expect(out).toMatch(/^store {10}postgres$/m);
    const json = JSON.parse(await ok(['status', '--json', '--database-url', withVector.url, '--scope', SCOPE]));
    expect(json.vectors).toEqual({
      ranking: 'pgvector',
      reason: 'ranked by pgvector (the extension is in schema extensions)',
    });

    const node = await ok(['status', '--database-url', `${withVector.url}?vectors=node`, '--scope', SCOPE]);
    expect(node.split('\n')).toContain('vectors        ranked in Node (vectors=node)');
    // Without the extension, auto ranks in Node and says why.
    const auto = await ok(['status', '--database-url', without.url, '--scope', SCOPE]);
    expect(auto.split('\n')).toContain('vectors        ranked in Node: the server has no pgvector extension');
  });

  it('refuses ?vectors=pgvector on a server without the extension, and an unknown mode, in one line', async () => {
    const refused = await credence(['status', '--database-url', `${without.url}?vectors=pgvector`, '--scope', SCOPE]);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(refused.stderr).toMatch(
      /^credence: .*was asked for pgvector \(vectors=pgvector\) but the server has no pgvector extension\n$/,
    );

    const bogus = await credence(['status', '--database-url', `${withVector.url}?vectors=bogus`, '--scope', SCOPE]);
    expect(bogus.code).toBe(2);
    expect(bogus.stdout).toBe('');
    expect(bogus.stderr).toBe('credence: vectors=bogus in the database URL is not one of auto, pgvector, node\n');
  });
});

describe('the same store through the CLI on SQLite and on PostgreSQL with pgvector answers the same', () => {
  const VOCABULARY = (
    'token refresh auth middleware expire config parse json yaml file read write deploy test commit branch merge ' +
    'cache user session log retry queue schema migration index search database backup image resize email invoice'
  ).split(' ');
  const next = mulberry32(20260302);
  const pick = () => VOCABULARY[Math.floor(next() * VOCABULARY.length)] as string;
  const sentence = (n: number) => Array.from({ length: n }, pick).join(' ');

  const tools = Array.from({ length: 40 }, (_, i) => ({
    id: `${pick()}_${pick()}_${i}`,
    description: `${sentence(8)}.`,
  }));
  const memories = Array.from({ length: 30 }, (_, i) => ({
    id: `mem-${i}`,
    category: i % 3 === 0 ? 'decision' : 'note',
    title: sentence(3),
    text: `${sentence(6 + (i % 7))}.`,
    tags: [pick()],
  }));
  const observations = Array.from({ length: 20 }, (_, i) => ({
    id: `obs-${i}`,
    timestamp: `2026-02-${String(1 + i).padStart(2, '0')}T08:00:00Z`,
    type: (['pattern', 'correction', 'preference', 'error', 'success'] as const)[i % 5],
    observation: `${sentence(7)}.`,
    confidence: 0.3 + 0.03 * i,
    evidence: [sentence(4)],
    tags: [pick()],
    context: { task: sentence(2) },
  }));
  // Executions get ids of their own (random): their intents differ, so no two tie and none is compared by id. Some
  // steps are partial, none failed: a run left with a failure is a failed run (walk 14, item 2) whose tools the memory
  // does not propose, and the DAG below must be answered from past runs, found by meaning.
  const executions = Array.from({ length: 24 }, (_, i) => ({
    intent: sentence(5),
    startedAt: `2026-02-${String(1 + (i % 28)).padStart(2, '0')}T${String(i % 24).padStart(2, '0')}:00:00Z`,
    calls: [0, 1, 2].map((j) => ({
      tool: (tools[(i * 3 + j * 7) % tools.length] as { id: string }).id,
      status: (i + j) % 5 === 4 ? 'partial' : 'success',
      ...(j === 0 ? {} : { consumes: [j - 1] }),
    })),
  }));
  const queries = Array.from({ length: 12 }, (_, i) => sentence(2 + (i % 4)));

  const sqlite = ['--db', join(dir, 'same.db'), '--scope', SCOPE];
  const postgres = () => ['--database-url', withVector.url, '--scope', SCOPE];

  async function fill(store: readonly string[]): Promise<void> {
    expect(JSON.parse(await ok(['tools', 'add', '--jsonl', '-', '--json', ...store], jsonl(tools)))).toMatchObject({
      inserted: tools.length,
      rejected: [],
    });
    expect(JSON.parse(await ok(['remember', '--jsonl', '-', '--json', ...store], jsonl(memories)))).toMatchObject({
      remembered: memories.length,
      rejected: [],
    });
    await ok(['import', '-', ...store], jsonl(observations));
    expect(JSON.parse(await ok(['record', '--jsonl', '-', '--json', ...store], jsonl(executions)))).toMatchObject({
      recorded: executions.length,
      newTools: [],
      rejected: [],
    });
  }

  /** Every SQL text the PGlite server with pgvector is sent while `fn` runs (from its wire messages). */
  async function statementsDuring<T>(fn: () => Promise<T>): Promise<{ result: T; sql: string[] }> {
    const db = withVector.db;
    const original = db.execProtocolRawStream;
    expect(typeof original).toBe('function');
    const sql: string[] = [];
    const decoder = new TextDecoder();
    db.execProtocolRawStream = function (message, options) {
      sql.push(decoder.decode(message));
      return original.call(this, message, options);
    };
    try {
      return { result: await fn(), sql };
    } finally {
      db.execProtocolRawStream = original;
    }
  }

  /** The commands asked of both stores, and how many of their queries need nearest vectors. */
  const asked = () => {
    const lines = jsonl(queries.map((query) => ({ query })));
    const withContext = jsonl(queries.map((query, i) => ({ query, context: [(tools[i] as { id: string }).id] })));
    return [
      { args: ['recall', '--batch', '-', '--limit', '10'], input: lines, queries: queries.length },
      { args: ['tools', 'search', '--batch', '-'], input: lines, queries: queries.length },
      { args: ['tools', 'search', '--batch', '-'], input: withContext, queries: queries.length },
      { args: ['dag', '--batch', '-'], input: lines, queries: queries.length },
      { args: ['recall', queries[0] as string, '--json'], input: '', queries: 1 },
      { args: ['dag', queries[1] as string, '--json'], input: '', queries: 1 },
    ];
  };

  /**
   * The answers to every command, as JSON with what differs by nature taken out (the ids of shown
   * results and of executions, both random; numbers to 9 significant digits), and for each command
   * how many statements ranked vectors with pgvector's inner-product operator (when `watch`: only
   * one run at a time may watch the server).
   */
  async function answers(
    store: readonly string[],
    watch: boolean,
  ): Promise<{ outputs: unknown[][]; nearest: number[] }> {
    const outputs: unknown[][] = [];
    const nearest: number[] = [];
    for (const command of asked()) {
      const run = () => ok([...command.args, ...store], command.input);
      const { result: out, sql } = watch ? await statementsDuring(run) : { result: await run(), sql: [] };
      nearest.push(sql.filter((s) => s.includes('.<#>)')).length);
      const text = out.trim();
      const values = text.startsWith('{"line"') ? text.split('\n') : [text];
      outputs.push(
        values.map((value) =>
          JSON.parse(value, function (this: Record<string, unknown>, key, v: unknown) {
            if (key === 'shownId') return undefined;
            if (key === 'id' && this.kind === 'execution') return undefined;
            // Past runs are named by their ids (a DAG's memory and rationale), random in each store.
            if (typeof v === 'string') return v.replace(RUN_ID, 'run-id');
            return typeof v === 'number' ? Number(v.toPrecision(9)) : v;
          }),
        ),
      );
    }
    return { outputs, nearest };
  }

  beforeAll(async () => {
    expect(new Set(executions.map((e) => e.intent)).size).toBe(executions.length);
    expect(new Set(tools.map((t) => t.id)).size).toBe(tools.length);
    await resetPglite(withVector);
    await Promise.all([fill(sqlite), fill(postgres())]);
  }, 60_000);

  it('holds the same rows, with every vector in the pgvector column', async () => {
    const [a, b] = await Promise.all(
      [sqlite, postgres()].map(async (store) => JSON.parse(await ok(['status', '--json', ...store]))),
    );
    expect(b.counts).toEqual(a.counts);
    expect(a.counts).toMatchObject({
      tools: 40,
      memories: 30,
      observations: 20,
      executions: 24,
      edges: expect.any(Number),
    });
    expect(a.counts.edges).toBeGreaterThan(0);
    expect([a.vectors.ranking, b.vectors.ranking]).toEqual(['node', 'pgvector']);
    // Vectors are stored by the first command that needs them (recall: memories, observations and
    // executions; tool search: tools), on both stores alike.
    for (const store of [sqlite, postgres()]) {
      await ok(['recall', 'warm the vectors', '--json', ...store]);
      await ok(['tools', 'search', 'warm the vectors', '--json', ...store]);
    }
    const counts = await withVector.db.query<{ kind: string; n: number; vec: number }>(
      'SELECT kind, count(*)::int AS n, count(vec)::int AS vec FROM embeddings GROUP BY kind ORDER BY kind',
    );
    expect(counts.rows).toEqual([
      { kind: 'execution', n: 24, vec: 24 },
      { kind: 'memory', n: 30, vec: 30 },
      { kind: 'observation', n: 20, vec: 20 },
      { kind: 'tool', n: 40, vec: 40 },
    ]);
  });

  it('recall, tool search and DAG suggestion give the same answers, with meaning, ranked by pgvector', async () => {
    const [a, b] = await Promise.all([answers(sqlite, false), answers(postgres(), true)]);
    expect(b.outputs).toEqual(a.outputs);

    // The recall batch: results found, ranked with a bm25 weight below 1, many with meaning in them.
    const recalled = (a.outputs[0] as { results: { parts: { similarity: number; bm25Weight: number } }[] }[]).flatMap(
      (line) => line.results,
    );
    expect(recalled.length).toBeGreaterThan(50);
    expect(new Set(recalled.map((r) => r.parts.bm25Weight))).toEqual(new Set([0.7]));
    expect(recalled.filter((r) => r.parts.similarity > 0).length).toBeGreaterThan(recalled.length / 2);
    // Tool search: similarity in its scores too; the DAG: past runs found by the meaning of their intent.
    for (const i of [1, 2]) expect(JSON.stringify(a.outputs[i])).toMatch(/"similarity":0\.[1-9]/);
    expect(JSON.stringify(a.outputs[3])).toMatch(/past runs? [^;]{1,400}similarity 0\.[1-9]/);
    // Every command asked the database for the nearest vectors (pgvector's inner-product operator)
    // at least once a query, rather than reading them whole.
    expect(
      b.nearest.every((n, i) => n >= (asked()[i]?.queries ?? Infinity)),
      `pgvector statements per command: ${b.nearest.join(', ')}`,
    ).toBe(true);
  });
});
