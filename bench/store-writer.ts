/**
 * @module bench/store-writer
 * One writer process of the concurrency checks (test/e2e/store-concurrency, bench/stores): records
 * executions one by one through the engine into a shared store, for a number of executions or of
 * seconds, then prints one JSON line: how many it recorded, and the edge events they carried, per
 * edge (`type from→to`: successes and failures), so the caller can check that the store's edge
 * counters equal the sum over every writer — no increment lost, none counted twice.
 *
 *   node dist/bench/store-writer.js --database-url URL | --db FILE  --scope S --seed N
 *        (--executions N | --seconds S) [--schema NAME]
 */
import { parseArgs } from 'node:util';
import { edgeEventsOf } from '../src/core/graph/execution-edges.js';
import { openCredence } from '../src/engine/engine.js';
import { mulberry32 } from './prng.js';

/** Few tools, so that every writer hits the same edges (the contended case). */
const TOOLS = [
  'read_file',
  'parse_json',
  'validate',
  'transform',
  'write_file',
  'run_tests',
  'git_commit',
  'search_code',
];
const T0 = 1_780_000_000_000;

export interface WriterReport {
  executions: number;
  calls: number;
  elapsedMs: number;
  /** Per edge key: the success and failure events this writer's executions carried. */
  edges: Record<string, { successes: number; failures: number }>;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      'database-url': { type: 'string' },
      db: { type: 'string' },
      schema: { type: 'string' },
      scope: { type: 'string', default: 'writers' },
      seed: { type: 'string', default: '1' },
      executions: { type: 'string' },
      seconds: { type: 'string' },
    },
  });
  const env = { ...process.env, ...(values.schema === undefined ? {} : { CREDENCE_DATABASE_SCHEMA: values.schema }) };
  const seed = Number(values.seed);
  const rng = mulberry32(seed);
  let n = 0;
  const credence = await openCredence(
    {
      ...(values['database-url'] === undefined ? {} : { databaseUrl: values['database-url'] }),
      ...(values.db === undefined ? {} : { db: values.db }),
      scope: values.scope,
      now: T0,
      newId: () => `w${seed}-${(n += 1)}`,
    },
    env,
  );
  const limit = values.executions === undefined ? Number.POSITIVE_INFINITY : Number(values.executions);
  const until = values.seconds === undefined ? Number.POSITIVE_INFINITY : Date.now() + Number(values.seconds) * 1000;
  const report: WriterReport = { executions: 0, calls: 0, elapsedMs: 0, edges: {} };
  const started = Date.now();
  while (report.executions < limit && Date.now() < until) {
    const at = T0 + report.executions * 1000;
    const length = 3 + Math.floor(rng() * 3);
    const calls = Array.from({ length }, (_, k) => ({
      tool: TOOLS[Math.floor(rng() * TOOLS.length)] as string,
      status: rng() < 0.9 ? ('success' as const) : ('failure' as const),
      at: at + k * 10,
      ...(k > 0 && rng() < 0.5 ? { consumes: [k - 1] } : {}),
    }));
    await credence.recordExecution({ intent: `writer ${seed} task ${report.executions}`, startedAt: at, calls });
    for (const e of edgeEventsOf(calls.map((c) => ({ ...c, retries: 0, consumes: c.consumes ?? [] })))) {
      const key = `${e.type} ${e.from}→${e.to}`;
      const tally = (report.edges[key] ??= { successes: 0, failures: 0 });
      if (e.status === 'failure') tally.failures += 1;
      else tally.successes += 1;
    }
    report.executions += 1;
    report.calls += calls.length;
  }
  report.elapsedMs = Date.now() - started;
  await credence.close();
  process.stdout.write(`${JSON.stringify(report)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`store-writer: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
