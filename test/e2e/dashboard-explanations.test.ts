/**
 * What the dashboard explains, in headless Chromium against the real `credence serve` (with a token) over the
 * store `credence demo --no-serve` fills (walk 8): the token refusal says how to open the page; the Ask page shows
 * the parts of a score the engine returns and its probability, the DAG's basis, and keeps each question in the
 * history; a long DAG tool name wraps at 390 px; a tool named `..` opens; a `--now` before an edge's last
 * confirmation is said on the graph page; the find box says when a name is no tool. Screenshots go to
 * test-output/screenshots/. Without Chromium the suite skips with a line saying so, except in CI, where it fails.
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
const TOKEN = 'explanations-token-0123456789';
const QUERY = 'read the config file and validate it';

const executablePath = chromiumFor('dashboard explanation tests');

(executablePath === undefined ? describe.skip : describe)('what the dashboard explains, in headless Chromium', () => {
  const dir = mkdtempSync(join(tmpdir(), 'credence-dashboard-explain-'));
  const db = join(dir, 'credence.db');
  const env = { ...process.env, CREDENCE_DB: '', CREDENCE_NOW: '', CREDENCE_SCOPE: '', CREDENCE_TOKEN: '', HOME: dir };
  const servers: ChildProcess[] = [];
  /** What each server wrote to stderr, by its dashboard address. */
  const printed = new Map<string, string>();
  let base = '';
  let browser: Browser;
  const problems: string[] = [];

  const serve = async (args: string[], scope = 'demo'): Promise<string> => {
    const server = spawn(process.execPath, [bin, '--db', db, '--scope', scope, 'serve', '--port', '0', ...args], {
      cwd: dir,
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    servers.push(server);
    let text = '';
    server.stderr?.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
    });
    const address = await dashboardAddress(server);
    printed.set(address, text);
    return address;
  };
  const open = async (path: string, size = { width: 1280, height: 800 }, at = base): Promise<Page> => {
    const page = await browser.newPage({ viewport: size });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('console', (m) => {
      if (/content security policy|refused to/i.test(m.text())) problems.push(`CSP: ${m.text()}`);
    });
    await page.goto(`${at}${path}`);
    return page;
  };
  const marker = (page: Page, key: string) =>
    page.waitForFunction(
      (k) => (globalThis as unknown as DashboardWindow).document.body?.dataset[k] !== undefined,
      key,
    );
  const clear = (page: Page, key: string) =>
    page.evaluate((k) => {
      const body = (globalThis as unknown as DashboardWindow).document.body;
      if (body !== null) delete body.dataset[k];
    }, key);
  const run = (args: string[], input?: string, scope = 'demo') => {
    const r = spawnSync(process.execPath, [bin, '--db', db, '--scope', scope, ...args], {
      cwd: dir,
      env,
      encoding: 'utf8',
      input,
    });
    expect(r.status, r.stderr).toBe(0);
    return r.stdout;
  };

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    const demo = spawnSync(process.execPath, [bin, 'demo', '--db', db, '--now', NOW, '--no-serve'], {
      cwd: dir,
      env,
      encoding: 'utf8',
    });
    expect(demo.status, demo.stderr).toBe(0);
    run(['tools', 'add', '--jsonl', '-'], '{"id": "..", "description": "a tool named two dots"}\n');
    base = await serve(['--now', NOW, '--token', TOKEN]);
    browser = await chromium.launch({ executablePath: executablePath as string, args: [...CHROMIUM_ARGS] });
  }, 120_000);

  afterEach(() => {
    expect(problems.splice(0)).toEqual([]);
  });

  afterAll(async () => {
    await browser?.close();
    for (const server of servers) {
      if (server.pid === undefined || server.exitCode !== null) continue;
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('without the token, says to open the address serve printed with #token=', async () => {
    // Review C item 10: the messages named an address ending in #token= that serve never printed.
    const line =
      printed
        .get(base)
        ?.split('\n')
        .find((l) => l.includes('dashboard at')) ?? '';
    const placeholder = "#token=<token>, with the server's token in place of <token>";
    expect(line).toBe(`credence: dashboard at ${base}/ (token required: open ${base}/${placeholder})`);
    const api = await fetch(`${base}/api/graph`);
    expect(api.status).toBe(401);
    const refusal = ((await api.json()) as { error: { message: string } }).error.message;
    expect(refusal).toContain(`the address credence serve printed, ending in ${placeholder}`);
    const page = await open('/graph');
    await marker(page, 'error');
    const text = await page.locator('main .error').textContent();
    expect(text).toContain(`open the address credence serve printed, ending in ${placeholder}`);
    expect(text).toContain('the page keeps the token for this tab');
    await page.screenshot({ path: join(shots, 'explain-no-token.png') });
    await page.close();
  });

  it('opens a tool named `..` from the find box', async () => {
    const page = await open(`/graph#token=${TOKEN}`);
    await marker(page, 'graphRendered');
    await page.fill('#find-tool', '..');
    await page.dispatchEvent('#find-tool', 'change');
    await page.waitForFunction(
      () => (globalThis as unknown as DashboardWindow).document.body?.dataset.selectedTool === '..',
    );
    expect(await page.locator('#tool-panel h1').first().textContent()).toBe('..');
    expect(await page.locator('#tool-panel .error').count()).toBe(0);
    await page.close();
  });

  it('keeps each question in the history: ask A, then B, and Back shows A again', async () => {
    const page = await open(`/ask#token=${TOKEN}`);
    await marker(page, 'pageRendered');
    const ask = async (q: string) => {
      await clear(page, 'askResults');
      await page.fill('#ask-input', q);
      await page.press('#ask-input', 'Enter');
      await marker(page, 'askResults');
    };
    await ask('read the config file');
    await ask('search the code for a function');
    await clear(page, 'askResults');
    await page.goBack();
    await marker(page, 'askResults');
    expect(new URL(page.url()).searchParams.get('q')).toBe('read the config file');
    expect(await page.inputValue('#ask-input')).toBe('read the config file');
    await page.goForward();
    await page.waitForFunction(() =>
      (globalThis as unknown as { location: { search: string } }).location.search.includes('search'),
    );
    expect(await page.inputValue('#ask-input')).toBe('search the code for a function');
    await page.close();
  });

  it("shows only the latest question's answer, however late an earlier one is, also after Back", async () => {
    // Review C item 1: a slower earlier answer replaced a later question's results.
    const slow = 'slow read the config file';
    const fast = 'refresh JWT tokens';
    const toolsOf = async (q: string) =>
      (
        (await (
          await fetch(`${base}/api/ask?q=${encodeURIComponent(q)}`, { headers: { authorization: `Bearer ${TOKEN}` } })
        ).json()) as { tools: { tool: string }[] }
      ).tools.map((t) => t.tool);
    const [slowTools, fastTools] = [await toolsOf(slow), await toolsOf(fast)];
    expect(slowTools[0]).not.toBe(fastTools[0]);
    const page = await open(`/ask#token=${TOKEN}`);
    await marker(page, 'pageRendered');
    await page.route('**/api/ask?q=slow*', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 2500));
      await route.continue().catch(() => {});
    });
    const shown = async () =>
      Promise.all((await page.locator('#ask-tools tbody tr').all()).map((row) => row.getAttribute('data-tool')));
    const ask = async (q: string) => {
      await page.fill('#ask-input', q);
      await page.press('#ask-input', 'Enter');
    };
    await ask(slow);
    await page.waitForTimeout(200);
    await ask(fast);
    await marker(page, 'askResults');
    // Past the slow answer's delay: the table is still the later question's.
    await page.waitForTimeout(3500);
    expect(new URL(page.url()).searchParams.get('q')).toBe(fast);
    expect(await shown()).toEqual(fastTools);
    // Back asks the slow question again; Forward, before it answers, asks the fast one.
    await page.goBack();
    await page.waitForTimeout(100);
    await page.goForward();
    await page.waitForTimeout(3500);
    expect(await page.inputValue('#ask-input')).toBe(fast);
    expect(await shown()).toEqual(fastTools);
    await page.close();
  });

  it("the graph's find box opens a tool whatever the case, and says when a name is no tool", async () => {
    const page = await open(`/graph#token=${TOKEN}`);
    await marker(page, 'graphRendered');
    await page.fill('#find-tool', 'read');
    await page.dispatchEvent('#find-tool', 'change');
    await page.waitForFunction(
      () => (globalThis as unknown as DashboardWindow).document.body?.dataset.selectedTool === 'Read',
    );
    await page.fill('#find-tool', 'no_such_tool_here');
    await page.dispatchEvent('#find-tool', 'change');
    await marker(page, 'findMissing');
    expect(await page.locator('#tool-panel #find-missing').textContent()).toContain('"no_such_tool_here"');
    await page.screenshot({ path: join(shots, 'explain-find-missing.png') });
    await page.close();
  });

  it('the find box lists the tools a name matches whatever the case when there are several', async () => {
    // Review C item 9: with tools "Read" and "read", READ said no tool is named so.
    const tools = ['Read', 'read', 'Grep'].map((id) => JSON.stringify({ id, description: `the tool ${id}` }));
    run(['tools', 'add', '--jsonl', '-'], `${tools.join('\n')}\n`, 'cases');
    const at = await serve(['--now', NOW, '--token', TOKEN], 'cases');
    const page = await open(`/graph#token=${TOKEN}`, { width: 390, height: 844 }, at);
    await marker(page, 'graphRendered');
    const find = async (name: string) => {
      for (const key of ['selectedTool', 'findMissing', 'findCandidates']) await clear(page, key);
      await page.fill('#find-tool', name);
      await page.press('#find-tool', 'Enter');
    };
    await find('READ');
    await marker(page, 'findCandidates');
    expect(await page.locator('#tool-panel #find-candidates').textContent()).toBe(
      '2 tools are named "READ" whatever the case: Read read',
    );
    expect(await page.locator('#find-missing').count()).toBe(0);
    await page.screenshot({ path: join(shots, 'explain-find-candidates.png') });
    await page.locator('#find-candidates button[data-tool="read"]').click();
    await marker(page, 'selectedTool');
    expect(
      await page.evaluate(() => (globalThis as unknown as DashboardWindow).document.body?.dataset.selectedTool),
    ).toBe('read');
    for (const [name, tool] of [
      ['Read', 'Read'],
      ['GREP', 'Grep'],
    ] as const) {
      await find(name);
      await marker(page, 'selectedTool');
      expect(
        await page.evaluate(() => (globalThis as unknown as DashboardWindow).document.body?.dataset.selectedTool),
      ).toBe(tool);
    }
    await page.close();
  });

  it('wraps a long DAG tool name on the Ask page at 390 px: no sideways scroll', async () => {
    const long = 'a-very-long-but-realistic-mcp-server-name:and_an_equally_long_tool_name_for_listing_things';
    const runs = [1, 2, 3, 4, 5, 6].map((i) =>
      JSON.stringify({
        intent: `list the things ${i}`,
        calls: [
          { tool: 'Read', status: 'success' },
          { tool: long, status: 'success', consumes: [0] },
        ],
      }),
    );
    run(['record', '--jsonl', '-'], `${runs.join('\n')}\n`, 'long');
    const at = await serve(['--now', NOW, '--token', TOKEN], 'long');
    const page = await open(`/ask?q=list%20the%20things#token=${TOKEN}`, { width: 390, height: 844 }, at);
    await marker(page, 'askResults');
    expect(await page.locator('#ask-dag li b', { hasText: long }).count()).toBeGreaterThan(0);
    const width = await page.evaluate(
      () =>
        (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement
          .scrollWidth,
    );
    await page.screenshot({ path: join(shots, 'explain-long-name-phone.png'), fullPage: true });
    expect(width).toBeLessThanOrEqual(390);
    await page.close();
  });

  it("shows each run's quality and verdict as `credence runs` prints them, a run without confidence too", async () => {
    // Walk 17, item 4: a hook's run has no confidence of its own; the page showed "—" and never its failure.
    const runs = [
      {
        intent: 'refactor the checkout',
        calls: [
          { tool: 'Edit', status: 'success' },
          { tool: 'Bash', status: 'failure' },
        ],
      },
      { intent: 'read the cart', calls: [{ tool: 'Read', status: 'success' }] },
      { intent: 'flow with its own confidence', confidence: 0.62, calls: [{ tool: 'Read', status: 'success' }] },
    ];
    run(['--now', NOW, 'record', '--jsonl', '-'], `${runs.map((r) => JSON.stringify(r)).join('\n')}\n`, 'walk17');
    const cli = run(['--now', NOW, 'runs'], undefined, 'walk17')
      .split('\n')
      .flatMap((l) => /^\S+ {2}(\d\.\d\d (?:success|failure)) /.exec(l)?.slice(1, 2) ?? []);
    expect([...cli].sort()).toEqual(['0.00 failure', '0.62 success', '1.00 success']);
    const at = await serve(['--now', NOW, '--token', TOKEN], 'walk17');
    const page = await open(`/runs#token=${TOKEN}`, undefined, at);
    await marker(page, 'pageRendered');
    const shown = await page.locator('#runs tbody tr td:nth-child(4)').allTextContents();
    expect(shown.map((t) => t.slice(0, 12))).toEqual(cli);
    expect(shown[cli.indexOf('0.62 success')]).toContain('recorded with confidence 0.62');
    await page.close();
  });

  it("prints each tool's score and the DAG's confidence as the CLI does, with the API's probability", async () => {
    const cli = run(['--now', NOW, 'tools', 'search', QUERY]);
    const dag = run(['--now', NOW, 'dag', QUERY]);
    const page = await open(`/ask?q=${encodeURIComponent(QUERY)}#token=${TOKEN}`);
    await marker(page, 'askResults');
    const ask = (await (
      await fetch(`${base}/api/ask?q=${encodeURIComponent(QUERY)}`, { headers: { authorization: `Bearer ${TOKEN}` } })
    ).json()) as {
      tools: { tool: string; explanation: string; probability?: number }[];
      dag: { explanation: string[]; confidenceBasis?: string; probability?: number };
    };
    const rows = page.locator('#ask-tools tbody tr');
    expect(await rows.count()).toBe(ask.tools.length);
    for (const [i, t] of ask.tools.entries()) {
      const why = await rows.nth(i).locator('td.explanation').textContent();
      // The CLI's line for this tool: `N. tool  <explanation>`.
      expect(cli).toContain(`${t.tool}  ${why}`);
      expect(why).toBe(t.explanation);
      const shown = await rows.nth(i).locator('td:nth-child(4)').textContent();
      expect(shown).toBe(t.probability === undefined ? '—' : t.probability.toFixed(3));
    }
    expect(await page.locator('#ask-tools').textContent()).toContain("past runs' vote");
    expect(await page.locator('body').textContent()).not.toContain('α · semantic + (1 − α) · graph;');
    const dagWhy = await page.locator('#ask-dag .dag-why').allTextContents();
    expect(dagWhy).toEqual(ask.dag.explanation);
    for (const line of dagWhy) expect(dag).toContain(line);
    if (ask.dag.confidenceBasis === 'memory') expect(dagWhy[1]).toMatch(/^seed confidence /);
    await page.screenshot({ path: join(shots, 'explain-ask.png'), fullPage: true });
    await page.close();
  });

  it("says on the graph page and in a tool's panel when --now is before an edge's last confirmation", async () => {
    const at = await serve(['--now', '2025-12-01T00:00:00Z', '--token', TOKEN]);
    const auth = { headers: { authorization: `Bearer ${TOKEN}` } };
    const graph = (await (await fetch(`${at}/api/graph`, auth)).json()) as { warning?: string };
    expect(graph.warning).toContain('this is not a view of the graph as it was then');
    const page = await open(`/graph#token=${TOKEN}`, { width: 1280, height: 800 }, at);
    await marker(page, 'graphRendered');
    expect(await page.locator('#graph-warning').textContent()).toBe(graph.warning);
    await page.fill('#find-tool', 'Read');
    await page.dispatchEvent('#find-tool', 'change');
    await page.locator('#tool-panel .tool-warning').waitFor();
    await page.screenshot({ path: join(shots, 'explain-graph-warning.png') });
    await page.close();
  });

  it('names the 10 most central of 600 tools, no label over another, and says how to name the rest', async () => {
    const tools = Array.from({ length: 600 }, (_, i) =>
      JSON.stringify({ id: `srv${i % 40}:tool_${i}`, description: `tool number ${i}` }),
    );
    run(['tools', 'add', '--jsonl', '-'], `${tools.join('\n')}\n`, 'big');
    const id = (i: number) => `srv${i % 40}:tool_${i}`;
    const pair = (r: string, from: number, to: number) =>
      JSON.stringify({
        intent: `big task ${r}`,
        calls: [
          { tool: id(from), status: 'success' },
          { tool: id(to), status: 'success', consumes: [0] },
        ],
      });
    // Hubs: the first 20 tools are called before many others, each other one once.
    const runs = Array.from({ length: 400 }, (_, r) => pair(String(r), r % 20, 20 + (r % 580)));
    // And 12 tools late in the alphabet (srv39:…, srv32:…) follow 20, 19, … 9 of the hubs: their centrality falls
    // step by step (review C item 7: 400 tools tied, and the 10 "most central" were the alphabetically first).
    const central = Array.from({ length: 12 }, (_, k) => 599 - 7 * k);
    for (const [k, to] of central.entries())
      for (let hub = 0; hub < 20 - k; hub += 1) runs.push(pair(`central ${k} ${hub}`, hub, to));
    run(['record', '--jsonl', '-'], `${runs.join('\n')}\n`, 'big');
    const at = await serve(['--now', NOW, '--token', TOKEN], 'big');
    const auth = { headers: { authorization: `Bearer ${TOKEN}` } };
    const graph = (await (await fetch(`${at}/api/graph`, auth)).json()) as {
      nodes: { id: string[]; pageRank: number[] };
    };
    expect(graph.nodes.id).toHaveLength(600);
    const top = graph.nodes.id.slice(0, 10);
    // Ranked by centrality, which varies: the designed order, each strictly above the next, none of them among the
    // alphabetically first tools.
    expect(top).toEqual(central.slice(0, 10).map(id));
    for (let i = 1; i <= 10; i += 1)
      expect(graph.nodes.pageRank[i] as number).toBeLessThan(graph.nodes.pageRank[i - 1] as number);
    const alphabetical = [...graph.nodes.id].sort().slice(0, 10);
    expect(top.filter((t) => alphabetical.includes(t))).toEqual([]);
    for (const size of [
      { width: 1280, height: 800 },
      { width: 390, height: 844 },
    ]) {
      const page = await open(`/graph#token=${TOKEN}`, size, at);
      await marker(page, 'graphRendered');
      const boxes = await page.evaluate(() =>
        (
          (globalThis as unknown as DashboardWindow).credenceGraph as unknown as {
            labelBoxes: () => { id: string; x: number; y: number; w: number; h: number }[];
          }
        ).labelBoxes(),
      );
      expect([size.width, top.filter((id) => !boxes.some((b) => b.id === id))]).toEqual([size.width, []]);
      for (const [i, a] of boxes.entries())
        for (const b of boxes.slice(i + 1))
          expect([a.id, b.id, a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h]).toEqual([
            a.id,
            b.id,
            false,
          ]);
      // The most central tools are not drawn over each other.
      const discs = await page.evaluate(() =>
        (
          (globalThis as unknown as DashboardWindow).credenceGraph as unknown as {
            nodeDiscs: () => { id: string; x: number; y: number; r: number }[];
          }
        )
          .nodeDiscs()
          .slice(0, 25),
      );
      for (const [i, a] of discs.entries())
        for (const b of discs.slice(i + 1)) expect(Math.hypot(a.x - b.x, a.y - b.y)).toBeGreaterThanOrEqual(a.r + b.r);
      const note = await page.locator('#label-note').textContent();
      expect(note).toContain('find box');
      expect(note).toContain('+ above the graph');
      expect(await page.locator('#zoom-in').isVisible()).toBe(true);
      await page.screenshot({ path: join(shots, `explain-big-graph-${size.width}.png`) });
      // Review C item 8: a tool opened with the find box, or clicked, outside the 10 most central got no label.
      const labelled = () =>
        page.evaluate(() =>
          (
            (globalThis as unknown as DashboardWindow).credenceGraph as unknown as {
              labelBoxes: () => { id: string }[];
            }
          )
            .labelBoxes()
            .map((b) => b.id),
        );
      for (const name of [id(5), id(130), id(500)]) {
        expect(top).not.toContain(name);
        await clear(page, 'selectedTool');
        await page.fill('#find-tool', name);
        await page.press('#find-tool', 'Enter');
        await marker(page, 'selectedTool');
        expect([size.width, name, (await labelled()).includes(name)]).toEqual([size.width, name, true]);
      }
      // A click on a tool's disc (one not named yet) names it too.
      await page.locator('#graph').scrollIntoViewIfNeeded();
      const unnamed = await page.evaluate((view) => {
        const g = (globalThis as unknown as DashboardWindow).credenceGraph as unknown as {
          labelBoxes: () => { id: string }[];
          nodeDiscs: () => { id: string; x: number; y: number; r: number }[];
        };
        const named = new Set(g.labelBoxes().map((b) => b.id));
        const discs = g.nodeDiscs();
        // A disc that no other disc overlaps, so the click lands on it.
        return discs.find(
          (d, i) =>
            i > 100 &&
            !named.has(d.id) &&
            d.x > 20 &&
            d.y > 20 &&
            d.x < view.width - 20 &&
            d.y < view.height - 20 &&
            discs.every((o) => o === d || Math.hypot(o.x - d.x, o.y - d.y) > o.r + d.r + 6),
        );
      }, size);
      expect(unnamed).toBeDefined();
      if (unnamed !== undefined) {
        await clear(page, 'selectedTool');
        await page.mouse.click(unnamed.x, unnamed.y);
        await marker(page, 'selectedTool');
        expect(
          await page.evaluate(() => (globalThis as unknown as DashboardWindow).document.body?.dataset.selectedTool),
        ).toBe(unnamed.id);
        expect([size.width, (await labelled()).includes(unnamed.id)]).toEqual([size.width, true]);
      }
      await page.screenshot({ path: join(shots, `explain-big-graph-selected-${size.width}.png`) });
      await page.close();
    }
  });
  it("tells recalled memories apart on the Ask page: each one's text, date and life, its parts as values", async () => {
    // Walk 15, item 9: two decisions titled alike and a speaker's turns showed as the same title, no status, and
    // parts.via printed as [object Object].
    const at = '2026-10-01T10:00:00Z';
    const remember = (now: string, title: string, text: string) =>
      run(['remember', '--now', now, '--category', 'decision', '--title', title, text], undefined, 'p1');
    remember('2025-05-10T10:00:00Z', 'Frontend framework', 'We build the frontend with Angular.');
    remember('2025-11-03T10:00:00Z', 'Frontend framework', 'We switched the frontend to React.');
    remember('2026-03-01T10:00:00Z', 'Deploy target', 'Production deploys go to the Frankfurt region on AWS.');
    remember('2026-03-02T10:00:00Z', 'Deploy target', 'Production deploys go to the Dublin region on AWS.');
    const turns = [
      ['s1', '2026-01-05T09:00:00Z', 'I live in Lisbon and I work at Northwind as a backend engineer.'],
      ['s2', '2026-05-20T18:00:00Z', 'Big news: I moved to Denver last week.'],
      ['s2', '2026-05-20T18:01:00Z', 'And I left Northwind, now I work at Initech.'],
    ].map(([session, when, text]) => JSON.stringify({ speaker: 'Ana', session, at: when, text }));
    run(['remember', '--jsonl', '-'], `${turns.join('\n')}\n`, 'c1');
    const here = await serve(['--now', at, '--token', TOKEN], 'p1');
    type Memory = {
      id: string;
      title: string;
      snippet: string;
      status: string;
      times: { at: string };
      life?: { supersededBy?: string; conflictsWith?: string[] };
      parts: Record<string, unknown>;
    };
    const asked = async (q: string, scope: string) =>
      (
        (await (
          await fetch(`${here}/api/ask?q=${encodeURIComponent(q)}&scope=${scope}`, {
            headers: { authorization: `Bearer ${TOKEN}` },
          })
        ).json()) as { memories: Memory[] }
      ).memories;
    const questions = [
      { q: 'what frontend framework did we use in 2025?', scope: 'p1' },
      { q: 'where do production deploys go?', scope: 'p1' },
      { q: 'Where does Ana work?', scope: 'c1' },
    ];
    const seen = new Set<string>();
    for (const size of [
      { width: 390, height: 844 },
      { width: 1280, height: 800 },
    ]) {
      for (const { q, scope } of questions) {
        const memories = await asked(q, scope);
        const page = await open(`/ask?q=${encodeURIComponent(q)}&scope=${scope}#token=${TOKEN}`, size, here);
        await marker(page, 'askResults');
        const rows = await page.locator('#ask-memories tbody tr').evaluateAll((trs) =>
          trs.map((tr) => {
            const cells = (tr as unknown as { children: ArrayLike<{ textContent: string | null }> }).children;
            return { memory: cells[1]?.textContent ?? '', parts: cells[6]?.textContent ?? '' };
          }),
        );
        expect(rows.length).toBe(memories.length);
        for (const [i, m] of memories.entries()) {
          const row = rows[i] as { memory: string; parts: string };
          expect(row.memory).toContain(m.snippet);
          expect(row.memory).toContain(m.times.at.replace('T', ' ').slice(0, 16));
          if (m.status === 'superseded') expect(row.memory).toContain(`superseded by ${m.life?.supersededBy}`);
          if (m.status === 'conflict') expect(row.memory).toContain(`in conflict with ${m.life?.conflictsWith?.[0]}`);
          seen.add(m.status);
          expect(row.parts).not.toContain('[object Object]');
          const via = m.parts.via as { id: string; how: string } | undefined;
          if (via !== undefined) expect(row.parts).toContain(`via={id: ${via.id}, how: ${via.how}}`);
          if (via !== undefined) seen.add('via');
        }
        // No two rows alike: the same title, told apart by text, date and life.
        expect(new Set(rows.map((r) => r.memory)).size).toBe(rows.length);
        const widths = await page.evaluate(() => ({
          page: (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document
            .documentElement.scrollWidth,
          view: (globalThis as unknown as { innerWidth: number }).innerWidth,
        }));
        expect(widths.page).toBeLessThanOrEqual(widths.view);
        await page.screenshot({
          path: join(shots, `explain-ask-memories-${scope}-${size.width}x${size.height}.png`),
          fullPage: true,
        });
        await page.close();
      }
    }
    // The questions met each life the page must tell: current, superseded, in conflict, and a part that is an object.
    expect([...seen].sort()).toEqual(['conflict', 'current', 'superseded', 'via']);
  });
});
