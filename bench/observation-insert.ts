/**
 * @module bench/observation-insert
 * Observations inserted in batches through the Store (validation-free path: scrubbing, content
 * fingerprint, duplicate check, one IMMEDIATE transaction a batch) against the same rows written
 * by raw better-sqlite3 into the same table in one plain transaction a batch: the physical
 * reference. Target (SPEC §11): ≥ 50,000 rows/s.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { MIGRATIONS } from '../src/store/sqlite/migrations.js';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.js';
import type { ObservationRecord } from '../src/store/types.js';
import { fmtRate, median, type BenchRow } from './table.js';

const TYPES = ['pattern', 'correction', 'preference', 'error', 'success'] as const;

function makeRows(total: number, round: number): ObservationRecord[] {
  return Array.from({ length: total }, (_, n) => ({
    id: `r${round}-obs-${n}`,
    timestamp: 1_770_000_000_000 + n * 1000,
    type: TYPES[n % TYPES.length] ?? 'pattern',
    context: { task: `task ${n % 97}`, file: `src/module-${n % 31}.ts`, phase: 'implementation' as const },
    observation: `User prefers small commits with tests run before each one (${n})`,
    evidence: [`commit ${n.toString(16)}`, 'CI green after commit'],
    confidence: (n % 10) / 10,
    tags: ['workflow', 'git'],
  }));
}

export async function benchObservationInsert(options: { dir: string; total: number; batch: number; rounds: number }): Promise<BenchRow[]> {
  const storeRates: number[] = [];
  const rawRates: number[] = [];
  for (let round = 0; round < options.rounds; round += 1) {
    const rows = makeRows(options.total, round);

    const store = openSqliteStore({ path: join(options.dir, `store-${round}.db`) });
    let t = process.hrtime.bigint();
    for (let i = 0; i < rows.length; i += options.batch) await store.insertObservations('bench', rows.slice(i, i + options.batch));
    storeRates.push(options.total / (Number(process.hrtime.bigint() - t) / 1e9));
    await store.close();

    const raw = new Database(join(options.dir, `raw-${round}.db`));
    raw.pragma('journal_mode = WAL');
    raw.pragma('synchronous = NORMAL');
    for (const m of MIGRATIONS) raw.exec(m.sql);
    const insert = raw.prepare(
      `INSERT INTO observations (id, scope, timestamp, type, context, observation, evidence, confidence, tags, content_hash)
       VALUES (?, 'bench', ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const writeBatch = raw.transaction((batch: ObservationRecord[]) => {
      for (const o of batch) {
        insert.run(o.id, o.timestamp, o.type, JSON.stringify(o.context), o.observation, JSON.stringify(o.evidence), o.confidence, JSON.stringify(o.tags), o.id);
      }
    });
    t = process.hrtime.bigint();
    for (let i = 0; i < rows.length; i += options.batch) writeBatch(rows.slice(i, i + options.batch));
    rawRates.push(options.total / (Number(process.hrtime.bigint() - t) / 1e9));
    raw.close();
  }
  const store = median(storeRates);
  const raw = median(rawRates);
  return [
    {
      benchmark: `observation insert (${options.total.toLocaleString('en-US')} rows, batches of ${options.batch})`,
      measure: `rows/s, median of ${options.rounds}`,
      value: fmtRate(store),
      reference: `raw better-sqlite3 ${fmtRate(raw)}`,
      ratio: `${(store / raw).toFixed(2)}× raw`,
      target: `≥ 50,000/s: ${store >= 50_000 ? 'met' : 'NOT met'}`,
    },
  ];
}
