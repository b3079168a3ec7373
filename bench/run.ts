/**
 * @module bench/run
 * `npm run bench`: prints a table of throughput figures, each beside a physical reference measured
 * in the same run (SPEC §11: the machine is shared and noisy, so ratios travel, raw numbers less).
 * Not a test: nothing here passes or fails.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchObservationInsert } from './observation-insert.js';
import { benchRecord } from './record.js';
import { benchGraph } from './graph.js';
import { benchSearch } from './search.js';
import { benchRecall } from './recall.js';
import { benchEmbed } from './embed.js';
import { benchEvolveEngine } from './evolve-engine.js';
import { benchEvolveGrouping } from './evolve-grouping.js';
import { formatTable, type BenchRow } from './table.js';

const dir = mkdtempSync(join(tmpdir(), 'credence-bench-'));
try {
  const rows: BenchRow[] = [];
  rows.push(...(await benchObservationInsert({ dir, total: 100_000, batch: 1_000, rounds: 3 })));
  rows.push(...(await benchRecord({ dir, executions: 20_000, batch: 5_000, rounds: 3 })));
  rows.push(...(await benchGraph()));
  rows.push(...(await benchEmbed()));
  rows.push(...(await benchSearch()));
  rows.push(...(await benchRecall()));
  rows.push(...(await benchEvolveGrouping()));
  rows.push(...(await benchEvolveEngine()));
  rows.push(...(await (await import('./pocketflow.js')).benchPocketflow()));
  process.stdout.write(`${formatTable(rows)}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
