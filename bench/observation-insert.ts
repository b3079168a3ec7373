/**
 * @module bench/observation-insert
 * Observations inserted in batches through the Store (secret scrubbing, content fingerprint,
 * duplicate check, one IMMEDIATE transaction a batch) against the same rows, fingerprints
 * included, written by raw better-sqlite3 into the same table in one plain transaction a batch:
 * the physical reference. Target (SPEC §11): ≥ 50,000 rows/s.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { MIGRATIONS } from '../src/store/sqlite/migrations.js';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { observationFingerprint } from '../src/store/shared.js';
import type { ObservationRecord } from '../src/store/types.js';
import { fmtRate, median, type BenchRow } from './table.js';

const TYPES = ['pattern', 'correction', 'preference', 'error', 'success'] as const;

function makeRows(total: number, round: number): ObservationRecord[] {
  return Array.from({ length: total }, (_, n) => ({
    id: `r${round}-obs-${n}`,
    timestamp: 1_770_000_000_000 + n * 1000,
    type: TYPES[n % TYPES.length] ?? 'pattern',
    context: { task: `task ${n % 97}`, file: `src/module-${n % 31}.ts`, phase: 'implementation' as const },
    // One row in ten mentions a credential word, so the scrubber's full path is part of the figure.
    observation:
      n % 10 === 0
        ? `Refresh the JWT token before it expires, never log the token (${n})`
        : `User prefers small commits with tests run before each one (${n})`,
    evidence: [`commit ${n.toString(16)}`, 'CI green after commit'],
    confidence: (n % 10) / 10,
    tags: ['workflow', 'git'],
  }));
}

export async function benchObservationInsert(options: {
  dir: string;
  total: number;
  batch: number;
  rounds: number;
}): Promise<BenchRow[]> {
  const storeRates: number[] = [];
  const rawRates: number[] = [];
  for (let round = 0; round < options.rounds; round += 1) {
    const rows = makeRows(options.total, round);

    const store = openSqliteStore({ path: join(options.dir, `store-${round}.db`) });
    let t = process.hrtime.bigint();
    for (let i = 0; i < rows.length; i += options.batch)
      await store.insertObservations('bench', rows.slice(i, i + options.batch));
    storeRates.push(options.total / (Number(process.hrtime.bigint() - t) / 1e9));
    await store.close();

    // The reference writes the very same bytes, fingerprints included, computed before the clock starts.
    const fingerprints = rows.map((o) => observationFingerprint(o));
    const raw = new Database(join(options.dir, `raw-${round}.db`));
    raw.pragma('journal_mode = WAL');
    raw.pragma('synchronous = NORMAL');
    raw.pragma('cache_size = -32000');
    for (const m of MIGRATIONS) raw.exec(m.sql);
    const insert = raw.prepare(
      'INSERT INTO observations (id, scope, timestamp, type, context, observation, evidence, confidence, tags, ' +
        `content_hash)
       VALUES (?, 'bench', ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const writeBatch = raw.transaction((from: number) => {
      for (let i = from; i < Math.min(from + options.batch, rows.length); i += 1) {
        const o = rows[i] as ObservationRecord;
        insert.run(
          o.id,
          o.timestamp,
          o.type,
          JSON.stringify(o.context),
          o.observation,
          JSON.stringify(o.evidence),
          o.confidence,
          JSON.stringify(o.tags),
          fingerprints[i],
        );
      }
    });
    t = process.hrtime.bigint();
    for (let i = 0; i < rows.length; i += options.batch) writeBatch(i);
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
