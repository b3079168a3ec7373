/**
 * The dashboard shows stored text as text (issue 17, red-team: "held"): tools, a run's intent, a
 * memory and observations whose names are HTML that would run script (`<img src=x onerror=…>`,
 * `<script>`, `<svg onload=…>`, `javascript:` links), loaded in headless Chromium on every page,
 * in the tool panel, the Ask page with hostile query, context and scope, and a hostile `#token=`.
 * Three things would show an injection: a dialog opening, the page's CSP refusing an inline
 * handler or script, and an element made from the stored text (an `img` with `src=x`, any `on…`
 * attribute, an `iframe`, a second `script`); none happens, and the names appear as literal text.
 * The server is the real `credence serve --http`; without Chromium the file skips with a line
 * saying so (in CI it fails, as test/e2e/dashboard does).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS, type DashboardWindow } from '../../bench/chromium.js';
import { bin } from '../mcp-helpers.js';
import { dashboardAddress, chromiumFor } from '../helpers.js';

const NOW = '2026-03-02T10:00:00Z';
const IMG = '<img src=x onerror=alert(1)>';
const SCRIPT = '<script>alert(2)</script><svg onload=alert(3)>';
const LINK = '"><a href="javascript:alert(4)">x</a><iframe src=javascript:alert(5)>';

const executablePath = chromiumFor('dashboard XSS tests');

/** What the page made of the stored text: elements and attributes no page of Credence has. */
interface Injected {
  imgX: number;
  onAttributes: string[];
  iframes: number;
  scripts: number;
  javascriptLinks: number;
}

(executablePath === undefined ? describe.skip : describe)(
  'hostile names in the dashboard, in headless Chromium',
  () => {
    const dir = mkdtempSync(join(tmpdir(), 'credence-security-dashboard-'));
    const db = join(dir, 'credence.db');
    const env = { PATH: process.env.PATH ?? '', HOME: dir };
    let server: ChildProcess | undefined;
    let base = '';
    let browser: Browser;
    /** Everything that would show script running: dialogs, CSP refusals, page errors. */
    const alarms: string[] = [];
    let loads = 0;

    const credence = (args: string[], input?: string) => {
      const r = spawnSync(process.execPath, [bin, '--db', db, '--scope', 'xss', '--now', NOW, ...args], {
        cwd: dir,
        env,
        encoding: 'utf8',
        input,
      });
      expect(r.status, r.stderr).toBe(0);
      return r.stdout;
    };

    beforeAll(async () => {
      credence(
        ['tools', 'add', '--jsonl', '-'],
        [
          { id: IMG, description: `${SCRIPT} reads the config file` },
          { id: LINK, description: `${IMG} writes the config file` },
          { id: 'Read', description: 'read a file' },
        ]
          .map((t) => JSON.stringify(t))
          .join('\n'),
      );
      const run = JSON.stringify({
        intent: `${IMG} read the config ${SCRIPT}`,
        calls: [
          { tool: 'Read', status: 'success' },
          { tool: IMG, status: 'success' },
          { tool: LINK, status: 'failure' },
        ],
      });
      credence(['record', '--jsonl', '-'], [run, run, run].join('\n'));
      credence([
        'remember',
        '--title',
        `${IMG} config notes`,
        '--tags',
        'xss',
        `${SCRIPT} ${LINK} the config file lives in /etc`,
      ]);
      for (const at of ['2026-03-01T08:00:00Z', '2026-03-01T09:00:00Z', '2026-03-01T10:00:00Z']) {
        credence([
          'observe',
          '--type',
          'preference',
          '--observation',
          `${IMG} always read the config first ${SCRIPT}`,
          '--tag',
          'xss',
          '--at',
          at,
        ]);
      }
      spawnSync(
        process.execPath,
        [bin, '--db', db, '--scope', 'xss', '--now', NOW, 'evolve', '--skills-dir', join(dir, 'skills')],
        { cwd: dir, env, encoding: 'utf8' },
      );
      server = spawn(
        process.execPath,
        [bin, '--db', db, '--scope', 'xss', '--now', NOW, 'serve', '--http', '--port', '0'],
        { cwd: dir, env, stdio: ['ignore', 'ignore', 'pipe'] },
      );
      base = await dashboardAddress(server);
      browser = await chromium.launch({ executablePath: executablePath as string, args: [...CHROMIUM_ARGS] });
    }, 60_000);

    afterAll(async () => {
      await browser?.close();
      if (server?.pid !== undefined && server.exitCode === null) {
        const exited = new Promise((resolve) => server?.once('exit', resolve));
        server.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    });

    /** A fresh page that reports dialogs (and dismisses them), CSP refusals and script errors. */
    const open = async (): Promise<Page> => {
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      page.on('dialog', (d) => {
        alarms.push(`dialog: ${d.message()}`);
        void d.dismiss();
      });
      page.on('pageerror', (e) => alarms.push(`page error: ${e.message}`));
      page.on('console', (m) => {
        if (/content security policy|refused to/i.test(m.text())) alarms.push(`CSP: ${m.text()}`);
      });
      return page;
    };

    const marker = (page: Page, key: string) =>
      page.waitForFunction(
        (k) => (globalThis as unknown as DashboardWindow).document.body?.dataset[k] !== undefined,
        key,
      );

    const injected = (page: Page): Promise<Injected> =>
      page.evaluate(() => {
        const d = (
          globalThis as unknown as {
            document: {
              querySelectorAll: (s: string) => ArrayLike<{
                attributes: ArrayLike<{ name: string }>;
                tagName: string;
                getAttribute: (n: string) => string | null;
              }>;
            };
          }
        ).document;
        const all = Array.from(d.querySelectorAll('*'));
        return {
          imgX: Array.from(d.querySelectorAll('img')).filter((e) => e.getAttribute('src') === 'x').length,
          onAttributes: all.flatMap((e) =>
            Array.from(e.attributes)
              .filter((a) => /^on/i.test(a.name))
              .map((a) => `${e.tagName}.${a.name}`),
          ),
          iframes: d.querySelectorAll('iframe').length,
          scripts: d.querySelectorAll('script').length,
          javascriptLinks: Array.from(d.querySelectorAll('[href], [src]')).filter((e) =>
            /^\s*javascript:/i.test(`${e.getAttribute('href') ?? ''}${e.getAttribute('src') ?? ''}`),
          ).length,
        };
      });
    const CLEAN: Injected = { imgX: 0, onAttributes: [], iframes: 0, scripts: 1, javascriptLinks: 0 };
    const text = (page: Page) =>
      page.evaluate(
        // biome-ignore lint/performance/useDomNodeTextContent: the test reads the text as rendered, as a user sees it
        () => (globalThis as unknown as { document: { body: { innerText: string } } }).document.body.innerText,
      );

    /** Loads a page, waits for its marker, and checks it for injections. */
    const visit = async (path: string, done: string): Promise<{ page: Page; shown: string }> => {
      const page = await open();
      const res = await page.goto(`${base}${path}`);
      expect(res?.headers()['content-security-policy']).toContain("script-src 'self'");
      await marker(page, done);
      loads += 1;
      expect([path, await injected(page)]).toEqual([path, CLEAN]);
      return { page, shown: await text(page) };
    };

    it('the graph, confidence, learning and runs pages show the names as text', async () => {
      for (const [path, done] of [
        ['/graph', 'graphRendered'],
        ['/confidence', 'pageRendered'],
        ['/learning', 'pageRendered'],
        ['/runs', 'pageRendered'],
      ] as const) {
        const { page, shown } = await visit(path, done);
        if (path === '/runs') expect(shown).toContain(`${IMG} read the config`);
        await page.close();
      }
      expect(alarms).toEqual([]);
    }, 60_000);

    it("a hostile tool's panel shows its id, edges and suggestions as text", async () => {
      const page = await open();
      await page.goto(`${base}/graph`);
      await marker(page, 'graphRendered');
      const at = await page.evaluate(
        (id) => (globalThis as unknown as DashboardWindow).credenceGraph?.screenPosition(id),
        IMG,
      );
      if (at === null || at === undefined) throw new Error('the page does not place the hostile tool');
      await page.mouse.click(at.x, at.y);
      await page.waitForFunction(
        (id) => (globalThis as unknown as DashboardWindow).document.body?.dataset.selectedTool === id,
        IMG,
      );
      loads += 1;
      expect(await page.locator('#tool-panel h1').textContent()).toBe(IMG);
      expect(await page.locator('#tool-panel').textContent()).toContain(LINK);
      expect(await injected(page)).toEqual(CLEAN);
      await page.close();
      expect(alarms).toEqual([]);
    }, 30_000);

    it('the Ask page answers a hostile query and context with the names as text', async () => {
      const { page, shown } = await visit(`/ask?q=${encodeURIComponent(`${IMG} config ${SCRIPT}`)}`, 'askResults');
      expect(await page.locator('#ask-tools tbody tr td:nth-child(2)').allTextContents()).toContain(IMG);
      expect(shown).toContain(`${IMG} config notes`);
      await page.close();
      const withContext = await visit(
        `/ask?q=${encodeURIComponent('write the config')}&context=${encodeURIComponent(IMG)}`,
        'askResults',
      );
      await withContext.page.close();
      expect(alarms).toEqual([]);
    }, 30_000);

    it('a hostile scope or token in the address is named as text', async () => {
      const { page, shown } = await visit(`/graph?scope=${encodeURIComponent(IMG)}`, 'error');
      expect(shown).toContain(IMG);
      await page.close();
      const token = await visit(`/graph#token=${encodeURIComponent(SCRIPT)}`, 'graphRendered');
      await token.page.close();
      expect(alarms).toEqual([]);
      expect(loads).toBe(9);
    }, 30_000);
  },
);
