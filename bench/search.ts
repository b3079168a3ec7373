/**
 * @module bench/search
 * Tool search and DAG suggestion latency on the 4,076-tool Seal-Tools catalogue (issue 4; targets
 * ≤ 25 ms p95), with the graph learned from the test_in_domain executions and the dev queries
 * asked, after the index is built. Reference: the raw FTS5 query for the same terms. Without
 * ../shared/data, a synthetic catalogue of the same size stands in.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ftsOrQuery } from '../src/core/text/fts-query.js';
import type { ExecutionInput } from '../src/core/types.js';
import { contentWords } from '../src/core/text/words.js';
import { parseSealToolsQuery, parseSealToolsTool, readJsonLines } from '../src/datasets/index.js';
import { engineStore, openCredence } from '../src/engine/engine.js';
import { openSqliteStore } from '../src/store/sqlite/index.js';
import type { ToolRecord } from '../src/store/types.js';
import { mulberry32 } from './prng.js';
import { percentile, timeEach, type BenchRow } from './table.js';

function loadData(): { tools: ToolRecord[]; learn: ExecutionInput[]; queries: string[]; source: string } {
  const dir = fileURLToPath(new URL('../../../shared/data/seal-tools/', import.meta.url));
  if (existsSync(join(dir, 'tool.jsonl'))) {
    const lines = (file: string) => readJsonLines(readFileSync(join(dir, file), 'utf8')).values.map((v) => v.value);
    return {
      tools: lines('tool.jsonl').map(parseSealToolsTool),
      learn: lines('test_in_domain.jsonl').map((v, i) => {
        const { queryId: _id, ...execution } = parseSealToolsQuery(v, i);
        return execution;
      }),
      queries: lines('dev.jsonl')
        .map((v, i) => parseSealToolsQuery(v, i).intent)
        .slice(0, 300),
      source: 'Seal-Tools',
    };
  }
  const rng = mulberry32(7);
  const words = [
    'search',
    'flight',
    'hotel',
    'weather',
    'stock',
    'news',
    'file',
    'read',
    'write',
    'email',
    'calendar',
    'map',
    'route',
    'price',
    'music',
  ];
  const pick = () => words[Math.floor(rng() * words.length)] ?? 'tool';
  const tools = Array.from({ length: 4076 }, (_, i) => ({
    id: `${pick()}_${pick()}_${i}`,
    description: `${pick()} the ${pick()} ${pick()} for the ${pick()}`,
  }));
  const queries = Array.from({ length: 300 }, () => `${pick()} a ${pick()} and ${pick()} the ${pick()}`);
  const learn = Array.from({ length: 700 }, (_, i) => ({
    intent: `${pick()} ${pick()}`,
    calls: [0, 1, 2].map((k) => ({
      tool: tools[(i * 7 + k * 13) % tools.length]?.id ?? 'x',
      status: 'success' as const,
    })),
  }));
  return { tools, learn, queries, source: 'synthetic' };
}

export async function benchSearch(): Promise<BenchRow[]> {
  const data = loadData();
  let n = 0;
  const credence = await openCredence({
    store: openSqliteStore({ path: ':memory:' }),
    scope: 'bench',
    now: Date.parse('2026-06-01T00:00:00Z'),
    newId: () => `e${(n += 1)}`,
  });
  await credence.addTools(data.tools);
  await credence.recordExecutions(
    data.learn.map((e) => ({ ...e, startedAt: Date.parse('2026-05-01T00:00:00Z') })),
    { edges: false },
  );
  const t0 = performance.now();
  await credence.searchTools('warm up the index');
  const buildMs = performance.now() - t0;

  const time = (fn: (q: string) => Promise<unknown>): Promise<number[]> => timeEach(data.queries, fn, 20);
  const fts = await time(async (q) =>
    engineStore(credence).searchTools('bench', ftsOrQuery(contentWords(q).join(' ')) ?? '""', { limit: 50 }),
  );
  const searchTimes = await time((q) => credence.searchTools(q, { limit: 10 }));
  const dagTimes = await time((q) => credence.suggestDag(q));
  await credence.close();
  const ms = (v: number) => `${v.toFixed(2)} ms`;
  const ref = `raw FTS5 query p95 ${ms(percentile(fts, 0.95))}`;
  const label = `${data.tools.length.toLocaleString('en-US')} ${data.source} tools, ${data.queries.length} queries`;
  return [
    {
      benchmark: `search index build (${label})`,
      measure: 'ms, once per write',
      value: ms(buildMs),
      reference: '-',
      ratio: '-',
      target: '-',
    },
    {
      benchmark: `tool search (${label})`,
      measure: 'p50 / p95',
      value: `${ms(percentile(searchTimes, 0.5))} / ${ms(percentile(searchTimes, 0.95))}`,
      reference: ref,
      ratio: `${(percentile(searchTimes, 0.95) / Math.max(1e-9, percentile(fts, 0.95))).toFixed(1)}× FTS`,
      target: `≤ 25 ms p95: ${percentile(searchTimes, 0.95) <= 25 ? 'met' : 'NOT met'}`,
    },
    {
      benchmark: `DAG suggestion (${label})`,
      measure: 'p50 / p95',
      value: `${ms(percentile(dagTimes, 0.5))} / ${ms(percentile(dagTimes, 0.95))}`,
      reference: ref,
      ratio: `${(percentile(dagTimes, 0.95) / Math.max(1e-9, percentile(fts, 0.95))).toFixed(1)}× FTS`,
      target: `≤ 25 ms p95: ${percentile(dagTimes, 0.95) <= 25 ? 'met' : 'NOT met'}`,
    },
  ];
}
