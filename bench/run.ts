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
import { benchGateway, benchGatewaySession } from './gateway.js';
import { benchHooks } from './hooks.js';
import { benchScrub } from './scrub.js';
import { formatTable, type BenchRow } from './table.js';

// `npm run bench -- gateway,recall` runs only the named sections; no argument runs them all.
const only = process.argv[2] === undefined ? undefined : new Set(process.argv[2].split(','));
const dir = mkdtempSync(join(tmpdir(), 'credence-bench-'));
try {
  const rows: BenchRow[] = [];
  const sections: [string, () => Promise<BenchRow[]>][] = [
    ['observations', () => benchObservationInsert({ dir, total: 100_000, batch: 1_000, rounds: 3 })],
    ['record', () => benchRecord({ dir, executions: 20_000, batch: 5_000, rounds: 3 })],
    ['graph', () => benchGraph()],
    ['embed', () => benchEmbed()],
    ['search', () => benchSearch()],
    ['recall', () => benchRecall()],
    ['evolve-grouping', () => benchEvolveGrouping()],
    ['evolve', () => benchEvolveEngine()],
    ['pocketflow', async () => (await import('./pocketflow.js')).benchPocketflow()],
    ['gateway', () => benchGateway()],
    ['gateway-session', () => benchGatewaySession()],
    ['hooks', () => benchHooks()],
    ['scrub', async () => benchScrub()],
    ['dashboard', async () => (await import('./dashboard.js')).benchDashboard()],
    ['stores', async () => (await import('./stores.js')).benchStores()],
    ['writers', async () => (await import('./stores.js')).benchWriters({ dir })],
    ['pgvector', async () => (await import('./pgvector.js')).benchPgvector()],
    ['scale', async () => (await import('./scale.js')).benchScale({ dir })],
  ];
  const unknown = [...(only ?? [])].filter((name) => !sections.some(([s]) => s === name));
  if (unknown.length > 0)
    throw new Error(
      `unknown bench section ${unknown.join(', ')}: the sections are ${sections.map(([s]) => s).join(', ')}`,
    );
  for (const [name, run] of sections) if (only === undefined || only.has(name)) rows.push(...(await run()));
  process.stdout.write(`${formatTable(rows)}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
