/**
 * @module bench/dashboard
 * The dashboard's graph page on a large graph (5,000 tools, 50,000 edges, seeded): time from
 * navigation to the page's "drawn" marker (`document.body.dataset.graphRendered`, with
 * `performance.now()` kept at that moment) in headless Chromium, over several navigations, beside
 * the same navigations' DOMContentLoaded as the physical reference; and the `/api/graph` request
 * alone. Target (issue 11): drawn within 1 s of navigation. Skips with a line when no Chromium.
 *
 * `benchDashboardAtScale` (issue 20) serves a year-of-work store (bench/scale-store: 100k memories,
 * executions and observations, 10k tools) and times every endpoint, its first request and the median of
 * the next ones, beside the target of 300 ms each; the first `/api/ask` of the process; and the graph
 * page drawn in Chromium (≤ 1 s); `/api/calibration` after 60,000 outcomes are recorded (≤ 50 ms). Run alone:
 * `node dist/bench/dashboard.js --scale <store.db>`.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { openCredence, type Credence } from '../src/engine/engine.js';
import { EDGE_SOURCES, EDGE_TYPES } from '../src/core/types.js';
import { serveHttp } from '../src/mcp/http.js';
import { openSqliteStore } from '../src/store/sqlite/index.js';
import type { EdgeRecord } from '../src/store/types.js';
import { createDashboard } from '../src/web/server.js';
import { CHROMIUM_ARGS, findChromium, NO_CHROMIUM, type DashboardWindow } from './chromium.js';
import { mulberry32 } from './prng.js';
import { formatTable, median, type BenchRow } from './table.js';

const DAY = 86_400_000;
const NOW = Date.parse('2026-02-02T09:00:00Z');

const p95 = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(0.95 * sorted.length) - 1)] ?? 0;
};

/** A seeded graph with a heavy-tailed degree (a few hub tools, as real catalogues have). */
export function syntheticGraph(tools: number, edges: number, seed = 11): { ids: string[]; edges: EdgeRecord[] } {
  const rng = mulberry32(seed);
  const ids = Array.from({ length: tools }, (_, i) => `server${i % 40}:tool_${i}`);
  const hub = () => Math.floor(tools * rng() ** 2.5);
  const seen = new Set<string>();
  const out: EdgeRecord[] = [];
  while (out.length < edges) {
    const from = hub();
    const to = rng() < 0.5 ? hub() : Math.floor(rng() * tools);
    const type = EDGE_TYPES[Math.floor(rng() * EDGE_TYPES.length)] as EdgeRecord['type'];
    const key = `${from}>${to}:${type}`;
    if (from === to || seen.has(key)) continue;
    seen.add(key);
    const source = EDGE_SOURCES[Math.floor(rng() * EDGE_SOURCES.length)] as EdgeRecord['source'];
    const count =
      source === 'observed' ? 3 + Math.floor(rng() * 40) : source === 'inferred' ? 1 + Math.floor(rng() * 2) : 0;
    const lastSeen = source === 'template' ? null : NOW - Math.floor(rng() * 150 * DAY);
    out.push({
      from: ids[from] as string,
      to: ids[to] as string,
      type,
      source,
      count,
      successes: count,
      failures: Math.floor(rng() * 3),
      firstSeen: lastSeen === null ? null : lastSeen - 30 * DAY,
      lastSeen,
    });
  }
  return { ids, edges: out };
}

/** The dashboard of `credence` served on a free local port (no MCP sessions), and its base URL. */
async function serveDashboard(credence: Credence) {
  const dashboard = createDashboard({ credence });
  const http = await serveHttp({
    host: '127.0.0.1',
    port: 0,
    createSession: () => {
      throw new Error('no MCP sessions in this bench');
    },
    fallback: dashboard.handle,
    isPublic: dashboard.isPublic,
  });
  return { http, base: http.url.replace(/\/mcp$/, ''), dashboard };
}

export async function benchDashboard(
  options: { tools?: number; edges?: number; navigations?: number } = {},
): Promise<BenchRow[]> {
  const tools = options.tools ?? 5_000;
  const edgeCount = options.edges ?? 50_000;
  const navigations = options.navigations ?? 9;
  const label =
    `dashboard graph page, ${tools.toLocaleString('en-US')} tools / ` + `${edgeCount.toLocaleString('en-US')} edges`;
  const executablePath = findChromium();
  if (executablePath === undefined) {
    console.log(`dashboard bench skipped: ${NO_CHROMIUM}`);
    return [{ benchmark: label, measure: 'skipped', value: NO_CHROMIUM, reference: '', ratio: '', target: '≤ 1 s' }];
  }
  const dir = mkdtempSync(join(tmpdir(), 'credence-bench-dashboard-'));
  const store = openSqliteStore({ path: join(dir, 'dashboard.db') });
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath, args: [...CHROMIUM_ARGS] });
  try {
    const graph = syntheticGraph(tools, edgeCount);
    await store.upsertTools(
      'bench',
      graph.ids.map((id) => ({ id, description: `${id.replaceAll('_', ' ')} of a synthetic catalogue` })),
    );
    for (const edge of graph.edges) await store.putEdge('bench', edge);
    const credence = await openCredence({ store, scope: 'bench', now: NOW, cwd: dir });
    const { http, base } = await serveDashboard(credence);
    try {
      const api: number[] = [];
      let bytes = 0;
      for (let i = 0; i < 5; i += 1) {
        const t0 = performance.now();
        const body = await (await fetch(`${base}/api/graph?limit=${tools}`)).text();
        api.push(performance.now() - t0);
        bytes = Buffer.byteLength(body);
      }
      // The page runs under the CSP it ships; page code is given as functions, which the CSP allows.
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      const problems: string[] = [];
      page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
      page.on('console', (m) => {
        if (/content security policy|refused to/i.test(m.text())) problems.push(`CSP: ${m.text()}`);
      });
      const drawn: number[] = [];
      const ready: number[] = [];
      let nodes = 0;
      for (let i = 0; i < navigations + 1; i += 1) {
        // Every tool drawn (the page's default bound is 2,000 since issue 20): `?limit=` lifts it.
        await page.goto(`${base}/graph?limit=${tools}`, { waitUntil: 'commit' });
        await page.waitForFunction(
          () => (globalThis as unknown as DashboardWindow).document.body?.dataset.graphRendered !== undefined,
          undefined,
          { timeout: 30_000, polling: 10 },
        );
        const m = await page.evaluate(() => {
          const w = globalThis as unknown as DashboardWindow;
          return {
            nodes: Number(w.document.body?.dataset.graphRendered),
            drawn: w.credenceGraph?.renderedAt ?? Number.NaN,
            dcl: w.performance.getEntriesByType('navigation')[0]?.domContentLoadedEventEnd ?? Number.NaN,
          };
        });
        nodes = m.nodes;
        if (i === 0) continue; // the first navigation warms the browser's caches
        drawn.push(m.drawn);
        ready.push(m.dcl);
      }
      if (nodes !== tools) throw new Error(`the graph page drew ${nodes} tools, not ${tools}`);
      if (problems.length > 0) throw new Error(`the graph page failed under its CSP:\n${problems.join('\n')}`);
      const ms = (v: number) => `${v.toFixed(0)} ms`;
      return [
        {
          benchmark: label,
          measure: `navigation → drawn marker (${navigations} navigations)`,
          value: `median ${ms(median(drawn))}, p95 ${ms(p95(drawn))}`,
          reference: `DOMContentLoaded median ${ms(median(ready))}`,
          ratio: `${(median(drawn) / Math.max(1, median(ready))).toFixed(1)}×`,
          target: `≤ 1 s: ${p95(drawn) <= 1000 ? 'met' : 'not met'}`,
        },
        {
          benchmark: `GET /api/graph?limit=${tools}, same store`,
          measure: `request (5 times), payload ${(bytes / 1e6).toFixed(2)} MB`,
          value: `median ${ms(median(api))}, p95 ${ms(p95(api))}`,
          reference: '',
          ratio: '',
          target: '—',
        },
      ];
    } finally {
      await http.close();
    }
  } finally {
    await browser.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The scale store's scope and clock (bench/scale-store's SCALE_SCOPE and SCALE_NOW). */
const SCALE = Object.freeze({ scope: 'scale', now: Date.parse('2026-06-01T00:00:00Z') });
const TARGET_MS = 300;

/**
 * A second new server over the same file, as `credence serve` runs it: the dashboard's warm-up starts when it
 * listens (src/mcp/serve.ts); the first /api/ask is timed once the warm-up is done, and the row says how long
 * the warm-up took (a request that arrives sooner is answered between its slices, at about the cost of the
 * first request at once, the row above).
 */
async function firstAskAfterWarm(path: string, scope: string, now: number, question: string): Promise<BenchRow> {
  const credence = await openCredence({ db: path, scope, now, cwd: tmpdir() });
  const { http, base, dashboard } = await serveDashboard(credence);
  try {
    const t0 = performance.now();
    await dashboard.warm();
    const warmMs = performance.now() - t0;
    const t1 = performance.now();
    const res = await fetch(`${base}${question}`);
    await res.text();
    const askMs = performance.now() - t1;
    const counts = await credence.counts();
    return {
      benchmark: `GET /api/ask at ${counts.executions.toLocaleString('en-US')} runs`,
      measure: `the first request of a new server after the warm-up it starts on listening (${warmMs.toFixed(0)} ms)`,
      value: `${askMs.toFixed(0)} ms`,
      reference: '',
      ratio: '',
      target: `≤ ${TARGET_MS} ms: ${askMs <= TARGET_MS ? 'met' : 'not met'}`,
    };
  } finally {
    await http.close();
    await credence.close();
  }
}

/** Navigates to `/graph` `times` times (after one that warms the browser) and gives each draw's time. */
async function drawTimes(
  browser: import('playwright-core').Browser,
  url: string,
  times: number,
): Promise<{ drawn: number[]; nodes: number; problems: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (/content security policy|refused to/i.test(m.text())) problems.push(`CSP: ${m.text()}`);
  });
  const drawn: number[] = [];
  let nodes = 0;
  for (let i = 0; i < times + 1; i += 1) {
    await page.goto(url, { waitUntil: 'commit' });
    await page.waitForFunction(
      () => (globalThis as unknown as DashboardWindow).document.body?.dataset.graphRendered !== undefined,
      undefined,
      { timeout: 60_000, polling: 10 },
    );
    const m = await page.evaluate(() => {
      const w = globalThis as unknown as DashboardWindow;
      return {
        nodes: Number(w.document.body?.dataset.graphRendered),
        drawn: w.credenceGraph?.renderedAt ?? Number.NaN,
      };
    });
    nodes = m.nodes;
    if (i > 0) drawn.push(m.drawn);
  }
  await page.close();
  return { drawn, nodes, problems };
}

/** Outcomes the bench records for the Calibration page, and its target (issue 24 follow-up). */
const BENCH_OUTCOMES = 60_000;
const CALIBRATION_TARGET_MS = 50;

/**
 * {@link BENCH_OUTCOMES} shown claims with their outcomes, spread over the six kinds and the 60 days before `now`
 * (seeded: a claim at confidence c held with probability 0.1 + 0.7 c). The same ids on every run.
 */
function benchOutcomes(now: number) {
  const rng = mulberry32(24);
  const kinds = ['search', 'next', 'dag', 'recall', 'instinct', 'skill'] as const;
  return Array.from({ length: BENCH_OUTCOMES }, (_, i) => {
    const confidence = rng();
    const held = rng() < 0.1 + 0.7 * confidence;
    const at = now - 60 * DAY + i * 60_000;
    const outcome = (held ? ['accepted', 'succeeded', 'validated'] : ['rejected', 'failed', 'contradicted'])[i % 3];
    return {
      id: `bench-outcome-${i}`,
      surface: kinds[i % kinds.length] as (typeof kinds)[number],
      target: `bench_tool_${i % 500}`,
      at,
      confidence,
      outcome: outcome as 'accepted',
      outcomeAt: at + 3_600_000,
    };
  });
}

/**
 * Every dashboard endpoint over the scale store at `path` (built by bench/scale-store), on one server:
 * each endpoint's first request (after the other pages were asked for) and the median of `rounds` more,
 * against 300 ms; `/api/ask` first in the process (nothing built yet); the graph page drawn in Chromium
 * (its default bound of tools) against 1 s; and the graph, confidence and ask right after another engine on the
 * same file records a call (the bench writes one run, `bench-dashboard-writer`, into the store).
 */
export async function benchDashboardAtScale(options: {
  path: string;
  scope?: string;
  now?: number;
  rounds?: number;
  navigations?: number;
}): Promise<BenchRow[]> {
  const scope = options.scope ?? SCALE.scope;
  const rounds = options.rounds ?? 5;
  const credence = await openCredence({ db: options.path, scope, now: options.now ?? SCALE.now, cwd: tmpdir() });
  const { http, base } = await serveDashboard(credence);
  const counts = await credence.counts();
  const label = (path: string) => `GET ${path} at ${counts.executions.toLocaleString('en-US')} runs`;
  const ms = (v: number) => `${v.toFixed(0)} ms`;
  const rows: BenchRow[] = [];
  const time = async (path: string): Promise<{ ms: number; bytes: number; body: string }> => {
    const t0 = performance.now();
    const res = await fetch(`${base}${path}`);
    const body = await res.text();
    if (!res.ok) throw new Error(`${path}: HTTP ${res.status} ${body.slice(0, 200)}`);
    return { ms: performance.now() - t0, bytes: Buffer.byteLength(body), body };
  };
  try {
    // The first ask of the process: whatever the engine builds before it can answer is in this figure.
    const question = '/api/ask?q=' + encodeURIComponent('search the web and summarise what it finds');
    const firstAsk = await time(question);
    const graph = JSON.parse((await time('/api/graph')).body) as { nodes: { id: string[] } };
    const top = encodeURIComponent(graph.nodes.id[0] ?? 'none');
    const paths = [
      '/api/scopes',
      '/api/graph',
      `/api/tool/${top}`,
      '/api/confidence',
      '/api/calibration',
      '/api/learning',
      '/api/runs?limit=50',
      question,
    ];
    for (const path of paths) {
      const first = await time(path);
      const warm: number[] = [];
      for (let i = 0; i < rounds; i += 1) warm.push((await time(path)).ms);
      const worst = Math.max(first.ms, median(warm));
      rows.push({
        benchmark: label(path.startsWith('/api/tool/') ? '/api/tool/<most central>' : (path.split('?q=')[0] as string)),
        measure: `after another page, then ${rounds} more; payload ${(first.bytes / 1024).toFixed(0)} KiB`,
        value: `${ms(first.ms)}, then median ${ms(median(warm))}`,
        reference: '',
        ratio: '',
        target: `≤ ${TARGET_MS} ms: ${worst <= TARGET_MS ? 'met' : 'not met'}`,
      });
    }
    rows.push({
      benchmark: label('/api/ask'),
      measure: 'the first request of a new server process, at once (nothing built yet)',
      value: ms(firstAsk.ms),
      reference: '',
      ratio: '',
      target: `≤ ${TARGET_MS} ms: ${firstAsk.ms <= TARGET_MS ? 'met' : 'not met'}`,
    });
    rows.push(await firstAskAfterWarm(options.path, scope, options.now ?? SCALE.now, question));
    // Another process (a gateway, a hook) records a call: the pages after it see the write, as a user's would.
    const writer = await openCredence({ db: options.path, scope, now: options.now ?? SCALE.now, cwd: tmpdir() });
    try {
      for (const path of ['/api/graph', '/api/confidence', question]) {
        const after: number[] = [];
        for (let i = 0; i < 3; i += 1) {
          const tool = graph.nodes.id[i] ?? 'bench_tool';
          await writer.appendCalls(
            { id: 'bench-dashboard-writer', intent: 'the bench writes', startedAt: SCALE.now },
            () => [{ tool, status: 'success', retries: 0, consumes: [], at: SCALE.now }],
          );
          after.push((await time(path)).ms);
        }
        rows.push({
          benchmark: label(path.split('?q=')[0] as string),
          measure: 'right after another process records a call (3 times)',
          value: `median ${ms(median(after))}, max ${ms(Math.max(...after))}`,
          reference: '',
          ratio: '',
          target: `≤ ${TARGET_MS} ms: ${median(after) <= TARGET_MS ? 'met' : 'not met'}`,
        });
      }
    } finally {
      await writer.close();
    }
    // The Calibration page over 60,000 outcomes (issue 24): another process records them, then the page is asked.
    const outcomeStore = openSqliteStore({ path: options.path });
    try {
      await outcomeStore.recordShown(scope, benchOutcomes(options.now ?? SCALE.now));
    } finally {
      await outcomeStore.close();
    }
    const first = await time('/api/calibration');
    const kept: number[] = [];
    for (let i = 0; i < rounds; i += 1) kept.push((await time('/api/calibration')).ms);
    const calibrationMet = Math.max(first.ms, median(kept)) <= CALIBRATION_TARGET_MS;
    rows.push({
      benchmark: `${label('/api/calibration')} with ${BENCH_OUTCOMES.toLocaleString('en-US')} outcomes`,
      measure: `right after another process records them, then ${rounds} more (kept until an outcome changes)`,
      value: `${ms(first.ms)}, then median ${ms(median(kept))}`,
      reference: '',
      ratio: '',
      target: `≤ ${CALIBRATION_TARGET_MS} ms: ${calibrationMet ? 'met' : 'not met'}`,
    });
    const executablePath = findChromium();
    if (executablePath === undefined) {
      rows.push({
        benchmark: 'graph page at scale',
        measure: 'skipped',
        value: NO_CHROMIUM,
        reference: '',
        ratio: '',
        target: '≤ 1 s',
      });
      return rows;
    }
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({ executablePath, args: [...CHROMIUM_ARGS] });
    try {
      const navigations = options.navigations ?? 5;
      const page = await drawTimes(browser, `${base}/graph`, navigations);
      if (page.problems.length > 0) throw new Error(`the graph page failed:\n${page.problems.join('\n')}`);
      rows.push({
        benchmark: `graph page at ${counts.tools.toLocaleString('en-US')} tools`,
        measure: `navigation → drawn marker (${navigations} navigations), ${page.nodes} tools drawn`,
        value: `median ${ms(median(page.drawn))}, p95 ${ms(p95(page.drawn))}`,
        reference: '',
        ratio: '',
        target: `≤ 1 s: ${p95(page.drawn) <= 1000 ? 'met' : 'not met'}`,
      });
    } finally {
      await browser.close();
    }
    return rows;
  } finally {
    await http.close();
    await credence.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const at = process.argv.indexOf('--scale');
  const path = at >= 0 ? process.argv[at + 1] : undefined;
  if (path === undefined || !existsSync(path)) {
    console.error('usage: node dist/bench/dashboard.js --scale <store.db> (build one with dist/bench/scale-store.js)');
    process.exitCode = 2;
  } else {
    console.log(formatTable(await benchDashboardAtScale({ path })));
  }
}
