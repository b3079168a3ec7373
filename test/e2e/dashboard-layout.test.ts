/**
 * The dashboard as people see it, in headless Chromium at a phone's size (390 × 844) and a laptop's (1280 × 800)
 * (issue 24, item 4), over the store `credence demo` fills, served by the real `credence demo`: every page fits
 * the width (no sideways scroll); the graph's labels do not cover each other, stay on the canvas, and no tool is
 * cut off; the Confidence page's sections do not run into each other; the Ask page lists each past run once; the
 * Calibration page draws a reliability diagram per kind. Screenshots of every page at both sizes go to
 * test-output/screenshots/ (kept as test artefacts, not committed). Without Chromium the suite skips with a
 * line saying so, except in CI, where it fails.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS, type DashboardWindow } from '../../bench/chromium.js';
import { dashboardAddress, chromiumFor } from '../helpers.js';

const bin = fileURLToPath(new URL('../../bin/credence.cjs', import.meta.url));
const shots = fileURLToPath(new URL('../../test-output/screenshots/', import.meta.url));
const NOW = '2026-02-02T09:00:00Z';
const SIZES = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'laptop', width: 1280, height: 800 },
] as const;
const QUERY = 'read the config file and validate it';
/** Every page, with its address and the body marker it sets once drawn. */
const PAGES = [
  { page: 'graph', path: '/graph', marker: ['graphRendered', undefined] },
  { page: 'confidence', path: '/confidence', marker: ['pageRendered', 'confidence'] },
  { page: 'calibration', path: '/calibration', marker: ['pageRendered', 'calibration'] },
  { page: 'learning', path: '/learning', marker: ['pageRendered', 'learning'] },
  { page: 'runs', path: '/runs', marker: ['pageRendered', 'runs'] },
  { page: 'ask', path: `/ask?q=${encodeURIComponent(QUERY)}`, marker: ['askResults', undefined] },
] as const;

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}
/** Ten reliability bins of 10 outcomes each, every one holding half the time: the report the calibration page draws. */
const HALF_BINS = Array.from({ length: 10 }, (_, i) => ({
  lo: i / 10,
  hi: (i + 1) / 10,
  count: 10,
  meanConfidence: i / 10 + 0.05,
  observedRate: 0.5,
}));
const overlap = (a: Box, b: Box): boolean => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
/** What a page function reads of the DOM (the project is type-checked without the DOM's types). */
interface Doc {
  documentElement: { scrollWidth: number };
  querySelectorAll: (s: string) => ArrayLike<{
    getBoundingClientRect: () => { left: number; top: number; width: number; height: number; right: number };
    textContent: string | null;
    getAttribute: (name: string) => string | null;
    querySelectorAll: (s: string) => ArrayLike<unknown>;
  }>;
}

const executablePath = chromiumFor('dashboard layout tests');

(executablePath === undefined ? describe.skip : describe)('the dashboard at a phone and a laptop size', () => {
  const dir = mkdtempSync(join(tmpdir(), 'credence-dashboard-layout-'));
  const db = join(dir, 'credence.db');
  const env = { ...process.env, CREDENCE_DB: '', CREDENCE_NOW: '', CREDENCE_SCOPE: '', HOME: dir };
  let server: ChildProcess | undefined;
  let base = '';
  let browser: Browser;
  const problems: string[] = [];

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    const demo = spawnSync(process.execPath, [bin, 'demo', '--db', db, '--now', NOW, '--no-serve'], {
      cwd: dir,
      env,
      encoding: 'utf8',
    });
    expect(demo.status, demo.stderr).toBe(0);
    server = spawn(process.execPath, [bin, 'demo', '--db', db, '--now', NOW, '--serve', '--port', '0'], {
      cwd: dir,
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    base = await dashboardAddress(server);
    browser = await chromium.launch({ executablePath: executablePath as string, args: [...CHROMIUM_ARGS] });
  });

  afterEach(() => {
    expect(problems.splice(0)).toEqual([]);
  });

  afterAll(async () => {
    await browser?.close();
    if (server?.pid !== undefined && server.exitCode === null) {
      const exited = new Promise((resolve) => server?.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  });

  const api = async <T>(path: string): Promise<T> => (await (await fetch(`${base}${path}`)).json()) as T;

  describe.each(SIZES)('at $width × $height ($name)', (size) => {
    let page: Page;
    beforeAll(async () => {
      page = await browser.newPage({ viewport: { width: size.width, height: size.height } });
      page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
      page.on('console', (m) => {
        if (/content security policy|refused to/i.test(m.text())) problems.push(`CSP: ${m.text()}`);
      });
    });
    afterAll(async () => {
      await page?.close();
    });

    const open = async (p: (typeof PAGES)[number]) => {
      await page.goto(`${base}${p.path}`);
      const [key, value] = p.marker;
      await page.waitForFunction(
        ([k, v]) => {
          const got = (globalThis as unknown as DashboardWindow).document.body?.dataset[k as string];
          return v === undefined ? got !== undefined : got === v;
        },
        [key, value] as const,
      );
    };

    it.each(PAGES)('the $page page fits the width: nothing scrolls the page sideways', async (p) => {
      await open(p);
      const widths = await page.evaluate(() => ({
        page: (globalThis as unknown as { document: Doc }).document.documentElement.scrollWidth,
        view: (globalThis as unknown as { innerWidth: number }).innerWidth,
      }));
      expect(widths.view).toBe(size.width);
      expect(widths.page).toBeLessThanOrEqual(widths.view);
      await page.screenshot({
        path: join(shots, `${p.page}-${size.width}x${size.height}.png`),
        fullPage: p.page !== 'graph',
      });
    });

    it('draws every tool of the graph on the canvas, and no label over another label or over a tool', async () => {
      await open(PAGES[0]);
      const drawn = await page.evaluate(() => {
        const g = (globalThis as unknown as DashboardWindow).credenceGraph;
        const rect = (globalThis as unknown as { document: Doc }).document
          .querySelectorAll('#graph')[0]
          ?.getBoundingClientRect();
        return { nodes: g?.nodeDiscs() ?? [], labels: g?.labelBoxes() ?? [], rect };
      });
      const graph = await api<{ nodes: { id: string[] } }>('/api/graph');
      const canvas = drawn.rect;
      if (canvas === undefined) throw new Error('no graph canvas');
      expect(drawn.nodes.map((d) => d.id)).toEqual(graph.nodes.id);
      // No tool cut off: each disc inside the canvas.
      const outside = drawn.nodes.filter(
        (d) =>
          d.x - d.r < canvas.left - 0.5 ||
          d.x + d.r > canvas.left + canvas.width + 0.5 ||
          d.y - d.r < canvas.top - 0.5 ||
          d.y + d.r > canvas.top + canvas.height + 0.5,
      );
      expect(outside).toEqual([]);
      // Labels: most tools named, each label on the canvas, over no other label and no other tool.
      expect(drawn.labels.length).toBeGreaterThanOrEqual(Math.ceil(graph.nodes.id.length / 2));
      const frame = { x: canvas.left, y: canvas.top, w: canvas.width, h: canvas.height };
      const clashes: string[] = [];
      for (const [i, a] of drawn.labels.entries()) {
        if (a.x < frame.x || a.y < frame.y || a.x + a.w > frame.x + frame.w || a.y + a.h > frame.y + frame.h)
          clashes.push(`${a.id} leaves the canvas`);
        for (const b of drawn.labels.slice(i + 1)) if (overlap(a, b)) clashes.push(`${a.id} covers ${b.id}`);
        for (const d of drawn.nodes) {
          if (d.id === a.id) continue;
          const cx = Math.min(Math.max(d.x, a.x), a.x + a.w);
          const cy = Math.min(Math.max(d.y, a.y), a.y + a.h);
          if (Math.hypot(d.x - cx, d.y - cy) < d.r) clashes.push(`${a.id} covers the tool ${d.id}`);
        }
      }
      expect(clashes).toEqual([]);
      // No two tools drawn on top of each other.
      const stacked: string[] = [];
      for (const [i, a] of drawn.nodes.entries())
        for (const b of drawn.nodes.slice(i + 1))
          if (Math.hypot(a.x - b.x, a.y - b.y) < a.r + b.r) stacked.push(`${a.id} on ${b.id}`);
      expect(stacked).toEqual([]);
    });

    it("explains an edge clicked on the graph: its confidence's parts as the API gives them", async () => {
      const read = await api<{
        outgoing: {
          to: string;
          type: string;
          confidence: number;
          parts: { typeWeight: number; sourceModifier: number; decay: number };
        }[];
      }>('/api/tool/Read');
      const edge = read.outgoing.find((e) => e.to === 'Edit' && e.type === 'dependency');
      if (edge === undefined) throw new Error('the demo has no Read → Edit dependency');
      await open(PAGES[0]);
      // Only dependency edges, so the click meets that one edge.
      for (const t of ['contains', 'alternative', 'sequence']) await page.locator(`input[data-type="${t}"]`).uncheck();
      const at = await page.evaluate(
        ([f, t, ty]) => (globalThis as unknown as DashboardWindow).credenceGraph?.edgePoint(f, t, ty),
        ['Read', 'Edit', 'dependency'] as const,
      );
      if (at === null || at === undefined) throw new Error('the page does not draw Read → Edit');
      await page.mouse.click(at.x, at.y);
      await page.waitForFunction(
        () => (globalThis as unknown as DashboardWindow).document.body?.dataset.selectedEdge === 'Read>Edit:dependency',
      );
      expect(await page.locator('#edge-title').textContent()).toBe('Read → Edit');
      const why = page.locator('#tool-panel .why-table').first();
      expect(await why.locator('th').allTextContents()).toEqual([
        'type weight',
        '× source modifier',
        '× decay',
        '= confidence',
      ]);
      const values = (await why.locator('td.num').allTextContents()).map(Number);
      const parts = [edge.parts.typeWeight, edge.parts.sourceModifier, edge.parts.decay, edge.confidence];
      for (const [i, v] of parts.entries()) expect(values[i]).toBeCloseTo(v, 2);
      await page.screenshot({ path: join(shots, `graph-edge-${size.width}x${size.height}.png`) });
    });

    it("the Confidence page's sections and tables do not run into each other", async () => {
      await open(PAGES[1]);
      const boxes = await page.evaluate(() =>
        Array.from((globalThis as unknown as { document: Doc }).document.querySelectorAll('.grid2 > section'), (el) => {
          const r = el.getBoundingClientRect();
          const wraps = Array.from(el.querySelectorAll('.table-wrap, .bars') as ArrayLike<unknown>, (w) => {
            const b = (w as { getBoundingClientRect: () => { left: number; right: number } }).getBoundingClientRect();
            return { left: b.left, right: b.right };
          });
          return { x: r.left, y: r.top, w: r.width, h: r.height, wraps };
        }),
      );
      expect(boxes.length).toBe(4);
      for (const [i, a] of boxes.entries()) {
        for (const b of boxes.slice(i + 1)) expect(overlap(a, b)).toBe(false);
        for (const w of a.wraps) {
          expect(w.left).toBeGreaterThanOrEqual(a.x - 0.5);
          expect(w.right).toBeLessThanOrEqual(a.x + a.w + 0.5);
        }
      }
    });

    it('the Ask page lists each past run once: in the memories and under the DAG', async () => {
      const d = await api<{ memories: { kind: string; title: string }[]; dagRuns: { title: string }[] }>(
        `/api/ask?q=${encodeURIComponent(QUERY)}`,
      );
      await open(PAGES[5]);
      const rows = await page.locator('#ask-memories tbody tr').evaluateAll((trs) =>
        trs.map((tr) => {
          const cells = (tr as unknown as { children: ArrayLike<{ textContent: string | null }> }).children;
          return { memory: cells[1]?.textContent ?? '', kind: cells[2]?.textContent ?? '' };
        }),
      );
      expect(rows.length).toBe(d.memories.length);
      const runs = rows.filter((r) => r.kind === 'execution').map((r) => r.memory);
      expect(runs.length).toBeGreaterThan(0);
      expect(new Set(runs).size).toBe(runs.length);
      // The DAG's past runs: one line per intent, however many tasks their vote proposed.
      const dagRuns = await page.locator('#dag-runs li').allTextContents();
      expect(dagRuns.length).toBe(d.dagRuns.length);
      expect(dagRuns.length).toBeGreaterThan(0);
      const intents = dagRuns.map((t) => t.split('"')[1]);
      expect(new Set(intents).size).toBe(intents.length);
    });

    it('the Calibration page draws a reliability diagram for every kind, with its figures', async () => {
      const report = await api<{
        kinds: {
          kind: string;
          outcomes: number;
          bins: { count: number }[];
          map?: unknown[];
          selection?: { calibrator: 'map' | 'logistic' | 'base-rate' | 'seed' };
        }[];
      }>('/api/calibration');
      await open(PAGES[2]);
      const diagrams = await page.evaluate(() =>
        Array.from(
          (globalThis as unknown as { document: Doc }).document.querySelectorAll('svg.reliability'),
          (svg) => ({
            kind: svg.getAttribute('data-kind'),
            bars: svg.querySelectorAll('rect.rel-bar').length,
            points: svg.querySelectorAll('circle.rel-point').length,
            diagonal: svg.querySelectorAll('line.diag').length,
            map: svg.querySelectorAll('polyline.rel-map').length,
            width: svg.getBoundingClientRect().width,
          }),
        ),
      );
      expect(diagrams.map((x) => x.kind)).toEqual(report.kinds.map((k) => k.kind));
      for (const [i, k] of report.kinds.entries()) {
        const drawn = diagrams[i];
        const filled = k.bins.filter((b) => b.count > 0).length;
        expect(drawn).toMatchObject({ bars: filled, points: filled, diagonal: 1, map: k.map === undefined ? 0 : 1 });
        expect(drawn?.width).toBeGreaterThan(200);
      }
      // The demo records outcomes for every kind: each diagram stands on some.
      expect(report.kinds.every((k) => k.outcomes > 0)).toBe(true);
      const words = await page.locator('.outcome-words').allTextContents();
      expect(words).toEqual(report.kinds.map((k) => expect.stringContaining(`${k.outcomes} outcome`)));
      // Which calibrator each kind's results use, as the report chose it.
      const USE = {
        map: 'Results use the learned map',
        logistic: 'Results use the logistic calibrator',
        'base-rate': 'Results use the base rate',
        seed: 'Results use the seed',
      };
      const chosen = await page
        .locator('section.diagram')
        .evaluateAll((sections) =>
          sections.map(
            (el) =>
              (el as unknown as { querySelector: (q: string) => { textContent: string } | null }).querySelector(
                '.calibrator-words',
              )?.textContent ?? null,
          ),
        );
      expect(chosen).toEqual(
        report.kinds.map((k) =>
          k.selection === undefined ? null : expect.stringMatching(new RegExp(`^${USE[k.selection.calibrator]}`)),
        ),
      );
      expect(chosen.filter((c) => c !== null).length).toBeGreaterThan(0);
    });

    it('says in one line per kind which calibrator its results use, and why', async () => {
      const brier = { seed: 0.25, 'base-rate': 0.2, logistic: 0.19, map: 0.18 };
      const selection = (calibrator: string) => ({
        calibrator,
        brier,
        gain: 0.05,
        tested: 80,
        outcomes: 100,
        folds: 5,
      });
      const kind = (k: string, sel?: ReturnType<typeof selection>) => ({
        kind: k,
        outcomes: 100,
        positives: 50,
        bins: HALF_BINS,
        ece: 0.1,
        brier: 0.25,
        enough: true,
        ...(sel === undefined ? {} : { selection: sel }),
      });
      const report = {
        scope: 'demo',
        at: Date.parse(NOW),
        minOutcomes: 30,
        priorStrength: 10,
        kinds: [
          kind('search', selection('map')),
          kind('next', selection('base-rate')),
          kind('dag', selection('seed')),
          kind('instinct', selection('logistic')),
          kind('recall'),
          { ...kind('skill'), outcomes: 7, enough: false },
        ],
      };
      await page.route('**/api/calibration*', (route) => route.fulfill({ json: report }));
      try {
        await open(PAGES[2]);
        expect(await page.locator('.calibrator-words').allTextContents()).toEqual([
          'Results use the learned map: it beat the seed confidence out of sample (Brier 0.180 against 0.250).',
          'Results use the base rate (the share of these claims that held): it beat the seed confidence and the ' +
            'map out of sample (Brier 0.200 against 0.250 and 0.180).',
          'Results use the seed confidence: the map did not beat it out of sample (Brier 0.180 against 0.250).',
          'Results use the logistic calibrator (a slope and an intercept on the log-odds): it beat the seed ' +
            'confidence (the choice among the others) out of sample by more than a standard error (Brier 0.190 ' +
            'against 0.250; the map 0.180).',
          'Results use the seed confidence: too few outcomes yet to test the map out of sample.',
        ]);
        expect(await page.locator('section.diagram[data-kind="skill"] .calibrator-words').count()).toBe(0);
      } finally {
        await page.unroute('**/api/calibration*');
      }
    });

    it('says why the logistic calibrator was chosen: the choice it beat, or the refuted seed', async () => {
      // As the selection reports them (core/calibration/selection): the gain over the choice among the others
      // decides, unless the seed was that choice and Cox's test on the newest half refuted it.
      const selection = (
        over: 'seed' | 'map',
        gain: { mean: number; standardError: number },
        pValue: number,
        seedRefuted: boolean,
      ) => ({
        calibrator: 'logistic',
        brier: { seed: 0.232, 'base-rate': 0.24, logistic: 0.229, map: over === 'map' ? 0.235 : 0.231 },
        gain: { 'base-rate': { mean: -0.008, standardError: 0.004 }, logistic: gain, map: gain },
        logisticOverChoice: { over, ...gain },
        miscalibration: { statistic: -2 * Math.log(pValue), pValue, outcomes: 95 },
        seedRefuted,
        tested: 152,
        outcomes: 190,
        folds: 5,
      });
      const kind = (k: string, sel: ReturnType<typeof selection>) => ({
        kind: k,
        outcomes: 190,
        positives: 150,
        bins: HALF_BINS,
        ece: 0.17,
        brier: 0.23,
        enough: true,
        selection: sel,
      });
      const report = {
        scope: 'demo',
        at: Date.parse(NOW),
        minOutcomes: 30,
        priorStrength: 10,
        kinds: [
          // Kept seed, beaten by less than a standard error, refuted: chosen for the refutation.
          kind('dag', selection('seed', { mean: 0.0031, standardError: 0.0101 }, 1.1e-5, true)),
          // Beat the map by more than a standard error; the seed not on trial, as it was not the choice.
          kind('search', selection('map', { mean: 0.006, standardError: 0.0027 }, 4.6e-8, false)),
        ],
      };
      await page.route('**/api/calibration*', (route) => route.fulfill({ json: report }));
      try {
        await open(PAGES[2]);
        expect(await page.locator('.calibrator-words').allTextContents()).toEqual([
          "Results use the logistic calibrator (a slope and an intercept on the log-odds): Cox's test of calibration " +
            'refuted the seed confidence on the newest 95 outcomes (p 1.1e-5), and the logistic calibrator did ' +
            'better than it out of sample (Brier 0.229 against 0.232; the map 0.231).',
          'Results use the logistic calibrator (a slope and an intercept on the log-odds): it beat the learned map ' +
            '(the choice among the others) out of sample by more than a standard error (Brier 0.229 against ' +
            '0.235; the seed 0.232).',
        ]);
      } finally {
        await page.unroute('**/api/calibration*');
      }
    });

    it('says in plain words when a kind has too few outcomes for a map, or none at all', async () => {
      const bins = (counts: number[]) =>
        counts.map((count, i) => ({
          lo: i / 10,
          hi: (i + 1) / 10,
          count,
          meanConfidence: count === 0 ? null : i / 10 + 0.05,
          observedRate: count === 0 ? null : 0.5,
        }));
      const report = {
        scope: 'demo',
        at: Date.parse(NOW),
        minOutcomes: 30,
        priorStrength: 10,
        kinds: [
          { kind: 'dag', outcomes: 7, positives: 3, bins: bins([0, 0, 0, 0, 3, 4, 0, 0, 0, 0]), ece: 0.1, brier: 0.25 },
          { kind: 'skill', outcomes: 0, positives: 0, bins: bins(Array(10).fill(0)), ece: null, brier: null },
        ].map((k) => ({ ...k, enough: false })),
      };
      await page.route('**/api/calibration*', (route) => route.fulfill({ json: report }));
      try {
        await open(PAGES[2]);
        expect(await page.locator('svg.reliability').count()).toBe(2);
        expect(await page.locator('svg.reliability[data-kind="dag"] rect.rel-bar').count()).toBe(2);
        expect(await page.locator('svg.reliability polyline.rel-map').count()).toBe(0);
        expect(await page.locator('svg.reliability[data-kind="skill"] rect.rel-bar').count()).toBe(0);
        expect(await page.locator('.outcome-words').allTextContents()).toEqual([
          expect.stringMatching(/^7 outcomes stand behind this diagram; 3 of them .* Fewer than 30: no map/),
          'No outcome recorded yet for skills: nothing to measure.',
        ]);
      } finally {
        await page.unroute('**/api/calibration*');
      }
    });
  });
});
