/**
 * @module bench/record
 * Recording throughput (issue 3): synthetic executions (5 calls over a 300-tool pool, each call
 * consuming the one before half the time) recorded through the engine in batches
 * of executions: schema check, edge events, promotion fold, one transaction a batch. Reference: the
 * same call rows written by raw better-sqlite3 into the calls table alone. Target ≥ 50,000 calls/s.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { ExecutionInput } from '../src/core/types.js';
import { openCredence } from '../src/engine/engine.js';
import { MIGRATIONS } from '../src/store/sqlite/migrations.js';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { mulberry32 } from './prng.js';
import { fmtRate, median, type BenchRow } from './table.js';

function makeExecutions(count: number, seed: number): ExecutionInput[] {
  const rng = mulberry32(seed);
  const tool = () => `tool_${Math.floor(rng() ** 2 * 300)}`;
  return Array.from({ length: count }, (_, i) => ({
    intent: `synthetic workflow ${i}`,
    startedAt: 1_770_000_000_000 + i * 1000,
    calls: Array.from({ length: 5 }, (_, k) => ({
      tool: tool(),
      status: rng() < 0.95 ? ('success' as const) : ('failure' as const),
      ...(k > 0 && rng() < 0.5 ? { consumes: [k - 1] } : {}),
    })),
  }));
}

export async function benchRecord(options: {
  dir: string;
  executions: number;
  batch: number;
  rounds: number;
}): Promise<BenchRow[]> {
  const rates: number[] = [];
  const rawRates: number[] = [];
  const calls = options.executions * 5;
  for (let round = 0; round < options.rounds; round += 1) {
    const executions = makeExecutions(options.executions, round + 1);
    let n = 0;
    const credence = await openCredence({
      store: openSqliteStore({ path: join(options.dir, `record-${round}.db`) }),
      scope: 'bench',
      now: 1_780_000_000_000,
      newId: () => `exec-${round}-${(n += 1)}`,
    });
    let t = process.hrtime.bigint();
    for (let i = 0; i < executions.length; i += options.batch)
      await credence.recordExecutions(executions.slice(i, i + options.batch), { edges: false });
    rates.push(calls / (Number(process.hrtime.bigint() - t) / 1e9));
    await credence.close();

    const raw = new Database(join(options.dir, `record-raw-${round}.db`));
    raw.pragma('journal_mode = WAL');
    raw.pragma('synchronous = NORMAL');
    for (const m of MIGRATIONS) raw.exec(m.sql);
    raw.pragma('foreign_keys = OFF');
    const insert = raw.prepare(
      'INSERT INTO calls (execution_id, scope, idx, tool, status, retries, duration_ms, consumes, parent, at) ' +
        "VALUES (?, 'bench', ?, ?, ?, 0, NULL, ?, NULL, ?)",
    );
    const write = raw.transaction((from: number) => {
      for (let i = from; i < Math.min(from + options.batch, executions.length); i += 1) {
        const e = executions[i] as ExecutionInput;
        e.calls.forEach((c, k) =>
          insert.run(`exec-${i}`, k, c.tool, c.status, JSON.stringify(c.consumes ?? []), e.startedAt as number),
        );
      }
    });
    t = process.hrtime.bigint();
    for (let i = 0; i < executions.length; i += options.batch) write(i);
    rawRates.push(calls / (Number(process.hrtime.bigint() - t) / 1e9));
    raw.close();
  }
  const rate = median(rates);
  const raw = median(rawRates);
  return [
    {
      benchmark:
        `record executions (${options.executions.toLocaleString('en-US')} × 5 calls, ` +
        `batches of ${options.batch.toLocaleString('en-US')})`,
      measure: `calls/s, median of ${options.rounds}`,
      value: fmtRate(rate),
      reference: `raw call-row insert ${fmtRate(raw)}`,
      ratio: `${(rate / raw).toFixed(2)}× raw`,
      target: `≥ 50,000/s: ${rate >= 50_000 ? 'met' : 'NOT met'}`,
    },
  ];
}
