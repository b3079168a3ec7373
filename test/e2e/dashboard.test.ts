/**
 * The dashboard in a real browser: headless Chromium from Debian's packages (`CREDENCE_CHROMIUM`, or
 * /usr/bin/chromium) driven by playwright-core, against the dashboard the real `credence demo` serves
 * over a store that `credence demo --no-serve` filled first. The page runs under the CSP it ships
 * (no bypass): page code is given as functions, and every test fails on a CSP violation or a script
 * error in the page. Screenshots of every page go to test-output/screenshots/. Without Chromium the
 * suite skips with a line saying so, except in CI, where it fails.
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
/** The graph's node colour (#4a5568), opaque, as the canvas gives a pixel. */
const NODE = [0x4a, 0x55, 0x68, 255];

const executablePath = chromiumFor('dashboard browser tests');

(executablePath === undefined ? describe.skip : describe)('the dashboard in headless Chromium', () => {
  const dir = mkdtempSync(join(tmpdir(), 'credence-dashboard-'));
  const db = join(dir, 'credence.db');
  const env = { ...process.env, CREDENCE_DB: '', CREDENCE_NOW: '', CREDENCE_SCOPE: '', HOME: dir };
  let server: ChildProcess | undefined;
  let base = '';
  let browser: Browser;
  let page: Page;
  /** Script errors and CSP violations in the page, per test. */
  const problems: string[] = [];
  const watch = (p: Page, into: string[]): void => {
    p.on('pageerror', (e) => into.push(`page error: ${e.message}`));
    p.on('console', (m) => {
      if (/content security policy|refused to/i.test(m.text())) into.push(`CSP: ${m.text()}`);
    });
  };

  const api = async <T>(path: string): Promise<T> => (await (await fetch(`${base}${path}`)).json()) as T;
  const shot = (name: string) =>
    page.screenshot({ path: join(shots, `${name}.png`), fullPage: name !== 'graph' && name !== 'graph-tool' });

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    const demo = spawnSync(process.execPath, [bin, 'demo', '--db', db, '--now', NOW, '--no-serve'], {
      cwd: dir,
      env,
      encoding: 'utf8',
    });
    expect(demo.status, demo.stderr).toBe(0);
    // A second scope in the same store, for the scope picker.
    const other = spawnSync(
      process.execPath,
      [bin, '--db', db, '--scope', 'alpha-team', 'tools', 'add', '--jsonl', '-'],
      { cwd: dir, env, encoding: 'utf8', input: '{"id": "alpha_tool", "description": "a tool of another scope"}\n' },
    );
    expect(other.status, other.stderr).toBe(0);
    // The demo again, serving this time: it adds nothing to the scope and serves its dashboard.
    server = spawn(process.execPath, [bin, 'demo', '--db', db, '--now', NOW, '--serve', '--port', '0'], {
      cwd: dir,
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    base = await dashboardAddress(server);
    browser = await chromium.launch({ executablePath: executablePath as string, args: [...CHROMIUM_ARGS] });
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    watch(page, problems);
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

  /** Waits until the page's body carries data-`key` (with `value`, when given). */
  const marker = (key: string, value?: string) =>
    page.waitForFunction(
      ([k, v]) => {
        const got = (globalThis as unknown as DashboardWindow).document.body?.dataset[k as string];
        return v === undefined ? got !== undefined : got === v;
      },
      [key, value] as const,
    );
  const dataset = (key: string) =>
    page.evaluate((k) => (globalThis as unknown as DashboardWindow).document.body?.dataset[k], key);

  it('runs under its CSP, and a violation would be seen', async () => {
    const res = await page.goto(`${base}/graph`);
    expect(res?.headers()['content-security-policy']).toContain("script-src 'self'");
    await marker('graphRendered');
    // The watch is live: on another page, a script the page did not come with is refused by the CSP and reported.
    const seen: string[] = [];
    const other = await browser.newPage();
    watch(other, seen);
    await other.goto(`${base}/graph`);
    const reported = other.waitForEvent('console', (m) => /content security policy/i.test(m.text()));
    const ran = await other.evaluate(() => {
      const w = globalThis as unknown as {
        injected?: boolean;
        document: {
          createElement: (tag: string) => { textContent: string };
          body: { append: (node: unknown) => void };
        };
      };
      const script = w.document.createElement('script');
      script.textContent = 'globalThis.injected = true';
      w.document.body.append(script);
      return w.injected === true;
    });
    await reported;
    await other.close();
    expect(ran).toBe(false);
    expect(seen.join('\n')).toMatch(/^CSP: .*inline script.*Content Security Policy/m);
  });

  it('draws every tool of the graph and says so with its marker', async () => {
    const graph = await api<{ nodes: { id: string[] }; edges: { from: number[] } }>('/api/graph');
    const status = JSON.parse(
      spawnSync(process.execPath, [bin, 'status', '--json', '--db', db, '--scope', 'demo'], { env, encoding: 'utf8' })
        .stdout,
    );
    await page.goto(`${base}/graph`);
    await marker('graphRendered');
    // Every tool of the demo's catalogue is a node (each edge's ends are in the catalogue too); the
    // markers count what the draw loops drew, not the data's length.
    expect(graph.nodes.id.length).toBe(status.counts.tools);
    expect(Number(await dataset('graphRendered'))).toBe(status.counts.tools);
    expect(Number(await dataset('graphEdges'))).toBe(status.counts.edges);
    const drawn = await page.evaluate(() => {
      const g = (globalThis as unknown as DashboardWindow).credenceGraph;
      return { nodes: g?.drawnNodes, edges: g?.drawnEdges };
    });
    expect(drawn).toEqual({ nodes: status.counts.tools, edges: status.counts.edges });
    // The canvas holds them: a known tool's centre is the node colour; an empty corner is blank.
    const pixels = await page.evaluate(
      (ids) => {
        const g = (globalThis as unknown as DashboardWindow).credenceGraph;
        return ids.map((id) => {
          const at = g?.screenPosition(id);
          return at === null || at === undefined ? null : g?.pixelAt(at.x, at.y);
        });
      },
      ['Read', 'Bash', 'Edit'],
    );
    expect(pixels).toEqual([NODE, NODE, NODE]);
    const corner = await page.locator('#graph').boundingBox();
    if (corner === null) throw new Error('no graph canvas');
    expect(
      await page.evaluate(([x, y]) => (globalThis as unknown as DashboardWindow).credenceGraph?.pixelAt(x, y), [
        corner.x + 2,
        corner.y + 2,
      ] as const),
    ).toEqual([0, 0, 0, 0]);
    await shot('graph');
  });

  it('draws a bounded graph: the most central tools, saying how many of all it shows (issue 20)', async () => {
    const graph = await api<{ nodes: { id: string[] }; stats: { nodes: number } }>('/api/graph?limit=5');
    await page.goto(`${base}/graph?limit=5`);
    await marker('graphRendered');
    expect(Number(await dataset('graphRendered'))).toBe(5);
    expect(graph.stats.nodes).toBeGreaterThan(5);
    expect(await page.locator('#graph-counts').textContent()).toContain(`showing 5 of ${graph.stats.nodes} tools`);
    // A tool not drawn is still found: its detail comes from the API.
    const hidden = (await api<{ nodes: { id: string[] } }>('/api/graph')).nodes.id.at(-1) as string;
    expect(graph.nodes.id).not.toContain(hidden);
    await page.locator('#find-tool').fill(hidden);
    await page.locator('#find-tool').dispatchEvent('change');
    await page.waitForFunction(
      (id) => (globalThis as unknown as DashboardWindow).document.body?.dataset.selectedTool === id,
      hidden,
    );
    expect(await page.locator('#tool-panel h1').textContent()).toBe(hidden);
  });

  it("shows a clicked tool's edges and its next-tool suggestions", async () => {
    const read = await api<{ outgoing: { to: string; type: string }[]; next: { tool: string }[] }>('/api/tool/Read');
    await page.goto(`${base}/graph`);
    await marker('graphRendered');
    const at = await page.evaluate(
      (id) => (globalThis as unknown as DashboardWindow).credenceGraph?.screenPosition(id),
      'Read',
    );
    if (at === null || at === undefined) throw new Error('the page does not place Read');
    await page.mouse.click(at.x, at.y);
    await marker('selectedTool', 'Read');
    expect(await page.locator('#tool-panel h1').textContent()).toBe('Read');
    const rows = page.locator('#tool-panel table.edges-out tbody tr');
    expect(await rows.count()).toBe(read.outgoing.length);
    expect(await page.locator('#tool-panel tr[data-edge="Read>Edit:dependency"] td').allTextContents()).toEqual([
      'Edit',
      'dependency',
      'observed',
      expect.stringMatching(/^\d+$/),
      expect.stringMatching(/^2026-/),
      expect.stringMatching(/^0\.9\d\d established$/),
    ]);
    expect(await page.locator('#next-tools li b').allTextContents()).toEqual(read.next.map((n) => n.tool));
    await shot('graph-tool');
  });

  // Fix B.4: an edge known only from failed calls (the demo's Bash → Read, failing 8 times) said "last seen never";
  // its date is its last confirmation (the latest run it succeeded in, whence its decay), and the page says so.
  it("dates a tool's edges by their last confirmation: never for one seen only failing", async () => {
    await page.goto(`${base}/graph`);
    await marker('graphRendered');
    const at = await page.evaluate(
      (id) => (globalThis as unknown as DashboardWindow).credenceGraph?.screenPosition(id),
      'Read',
    );
    if (at === null || at === undefined) throw new Error('the page does not place Read');
    await page.mouse.click(at.x, at.y);
    await marker('selectedTool', 'Read');
    const headers = await page.locator('#tool-panel table.edges-in thead th').allTextContents();
    expect(headers).toContain('last confirmed');
    expect(headers).not.toContain('last seen');
    const failing = page.locator('#tool-panel tr[data-edge="Bash>Read:sequence"]');
    expect(await failing.locator('td').allTextContents()).toEqual([
      'Bash',
      'sequence',
      'inferred',
      '0',
      'never',
      '0 noise',
    ]);
    await failing.click();
    const why =
      (await page.locator('#tool-panel tr[data-edge="Bash>Read:sequence"] + tr.edge-why').textContent()) ?? '';
    expect(why).toContain('never confirmed by a run (no decay)');
    expect(why).toMatch(/confirmed in 0 runs \(0 successes, 8 failures\), first seen 2026-/);
    expect(why).not.toContain('last seen');
    const confirmed = '#tool-panel tr[data-edge="Read>Edit:dependency"]';
    await page.locator(confirmed).click();
    expect(await page.locator(`${confirmed} + tr.edge-why`).textContent()).toMatch(/, last confirmed 2026-/);
  });

  it('filters edges by type and confidence', async () => {
    const graph = await api<{ types: string[]; edges: { type: number[]; confidence: number[] } }>('/api/graph');
    await page.goto(`${base}/graph`);
    await marker('graphRendered');
    await page.locator('input[data-type="sequence"]').uncheck();
    const sequence = graph.types.indexOf('sequence');
    const kept = graph.edges.type.filter((t) => t !== sequence).length;
    expect(await page.locator('#graph-counts').textContent()).toContain(
      `${kept} of ${graph.edges.type.length} edges shown`,
    );
    await page.locator('#min-confidence').fill('0.9');
    const strong = graph.edges.type.filter(
      (t, i) => t !== sequence && (graph.edges.confidence[i] as number) >= 0.9,
    ).length;
    expect(await page.locator('#graph-counts').textContent()).toContain(
      `${strong} of ${graph.edges.type.length} edges shown`,
    );
  });

  it('shows the confidence distributions, density and tier', async () => {
    const c = await api<{ edges: { total: number }; density: { tier: string } }>('/api/confidence');
    await page.goto(`${base}/confidence`);
    await marker('pageRendered', 'confidence');
    const counts = (await page.locator('#edge-bands .row .num').allTextContents()).map(Number);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(c.edges.total);
    expect(await page.locator('#density').textContent()).toContain(`tier ${c.density.tier}`);
    expect(await page.locator('#timeline rect').count()).toBe(60);
    await shot('confidence');
  });

  it('lists instincts and skills with their evidence, and the metrics', async () => {
    const l = await api<{ skills: unknown[]; instincts: unknown[]; evolutions: unknown[] }>('/api/learning');
    await page.goto(`${base}/learning`);
    await marker('pageRendered', 'learning');
    expect(await page.locator('#skills tbody tr').count()).toBe(l.skills.length);
    expect(await page.locator('#instincts tbody tr').count()).toBe(l.instincts.length);
    expect(l.evolutions.length).toBeGreaterThan(0);
    expect(await page.locator('#evolutions tr').count()).toBe(l.evolutions.length);
    expect(await page.locator('#precision .big').textContent()).toMatch(/^\d+\.\d%$/);
    // Each item's learned probability beside its confidence (the demo has 300+ instinct and skill outcomes).
    const first = (l as unknown as { skills: { probability: number }[] }).skills[0];
    expect(first?.probability).toEqual(expect.any(Number));
    expect(await page.locator('#skills tbody tr .probability').first().textContent()).toMatch(
      new RegExp(`^probability ${first?.probability.toFixed(3)} \\(\\w[\\w-]*, \\d+ skill outcomes\\)$`),
    );
    expect(await page.locator('#instincts tbody tr .probability').count()).toBe(l.instincts.length);
    // The column that shows an instinct's confidence says so: "quality" is the word of runs (review G, item 6).
    expect(await page.locator('#instincts thead th').allTextContents()).toEqual([
      'instinct',
      'status',
      'confidence',
      'evidence',
      'history',
    ]);
    await shot('learning');
  });

  it('lists recent runs with their calls, outcomes and confidence', async () => {
    await page.goto(`${base}/runs`);
    await marker('pageRendered', 'runs');
    expect(await page.locator('#runs tbody tr').count()).toBe(50);
    expect(await page.locator('#runs .chip.failure').count()).toBeGreaterThan(0);
    await shot('runs');
  });

  it('answers the search box with ranked results and the parts of each score', async () => {
    const query = 'read the config file and validate it';
    const expected = await api<{ tools: { tool: string }[]; memories: { label: string }[] }>(
      `/api/ask?q=${encodeURIComponent(query)}`,
    );
    await page.goto(`${base}/ask`);
    await marker('pageRendered', 'ask');
    await page.locator('#ask-input').fill(query);
    await page.locator('#ask-input').press('Enter');
    await marker('askResults');
    expect(await page.locator('#ask-tools tbody tr td:nth-child(2)').allTextContents()).toEqual(
      expected.tools.map((t) => t.tool),
    );
    expect(await page.locator('#ask-tools thead th').allTextContents()).toEqual([
      '#',
      'tool',
      'score',
      'probability',
      'why this score',
      'semantic',
      'graph',
      'α',
      'α rule',
      'details',
    ]);
    expect(await page.locator('#ask-dag').textContent()).toContain('confidence');
    expect(await page.locator('#ask-memories tbody tr').count()).toBe(expected.memories.length);
    await shot('ask');
    // With a context tool the graph speaks: α drops below 1 for some tool.
    await page.goto(`${base}/ask?q=${encodeURIComponent('edit the file')}&context=Read`);
    await marker('askResults');
    const alphas = (await page.locator('#ask-tools tbody tr td:nth-child(8)').allTextContents()).map(Number);
    expect(alphas.some((a) => a < 1)).toBe(true);
  });

  it('offers every scope of the store in the scope picker, the served one first, marked as the default', async () => {
    const listed = await api<{ default: string; scopes: { scope: string }[] }>('/api/scopes');
    expect(listed.scopes.map((x) => x.scope)).toEqual(['demo', 'alpha-team']);
    await page.goto(`${base}/graph`);
    await marker('scopes');
    const options = page.locator('#scope option');
    expect(await options.evaluateAll((els) => els.map((e) => (e as unknown as { value: string }).value))).toEqual([
      'demo',
      'alpha-team',
    ]);
    expect(await options.allTextContents()).toEqual(['demo (default)', 'alpha-team']);
    expect(await page.locator('#scope').inputValue()).toBe('demo');
    // Picking the other scope shows its graph.
    await page.locator('#scope').selectOption('alpha-team');
    await page.waitForURL(/\?scope=alpha-team$/);
    // The picker and the graph fill from two requests: wait for both (the picker was read empty under load).
    await marker('scopes');
    await marker('graphRendered');
    expect(await dataset('graphRendered')).toBe('1');
    expect(await page.locator('#scope').inputValue()).toBe('alpha-team');
  });

  it('ignores a token in the address that is not valid URL encoding, says so, and still draws the page', async () => {
    await page.goto('about:blank'); // from /graph, a new #hash alone would not load the page again
    await page.goto(`${base}/graph#token=%E0%A4%A`);
    await marker('graphRendered');
    expect(await dataset('tokenProblem')).toBe('ignored');
    const notice = page.locator('#token-problem');
    expect(await notice.isVisible()).toBe(true);
    expect(await notice.textContent()).toContain('is not valid URL encoding, so it was ignored');
    expect(new URL(page.url()).hash).toBe('');
    expect(Number(await dataset('graphRendered'))).toBeGreaterThan(0);
    await shot('bad-token');
  });

  it('names an unknown scope on the page', async () => {
    await page.goto(`${base}/graph?scope=nowhere`);
    await marker('error');
    expect(await page.locator('[role=alert]').textContent()).toContain('scope "nowhere" holds nothing');
    await shot('unknown-scope');
  });
});
