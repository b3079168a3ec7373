import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliIn } from '../../test/cli.js';
import { openCredence } from '../engine/engine.js';
import { serveHttp } from '../mcp/http.js';
import { openSqliteStore } from '../store/sqlite/index.js';
import { createDashboard } from '../web/server.js';

const dir = mkdtempSync(join(tmpdir(), 'credence-quoted-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
mkdirSync(join(dir, '.git'));
const db = join(dir, 's.db');
const GH = 'ghp_Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0Uv1Wx2';
const secret = `token=${GH}`;
const credence = (...argv: string[]) => cliIn(dir, ['--db', db, '--now', '2026-05-02T09:00:00Z', ...argv]);

describe('a message that quotes an option value or a request value scrubs it first', () => {
  it.each([
    ['runs --limit', ['runs', '--limit', secret], '--limit must be a whole number'],
    ['edges --min-confidence', ['edges', '--min-confidence', secret], '--min-confidence must be a number'],
    ['evolve --min-confidence', ['evolve', '--min-confidence', secret], '--min-confidence must be a number'],
    [
      'observe --confidence',
      ['observe', '--type', 'preference', '--observation', 'x', '--confidence', secret],
      '--confidence must',
    ],
    ['evolve --since', ['evolve', '--since', secret], '--since must be a duration'],
  ])('%s', async (_name, argv, says) => {
    expect((await credence('init')).code).toBe(0);
    const r = await credence(...argv);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(says);
    expect(r.stderr).toContain('[REDACTED');
    expect(r.stderr).not.toContain(GH);
  });

  it('the dashboard API: /api/graph?min=, ?limit=, ?type=, /api/feedback verdict', async () => {
    const engine = await openCredence({ store: openSqliteStore({ path: ':memory:' }), scope: 'demo', cwd: dir });
    const dashboard = createDashboard({ credence: engine, writable: true });
    const token = 'a-token-of-sixteen-or-more';
    const server = await serveHttp({
      host: '127.0.0.1',
      port: 0,
      token,
      createSession: () => {
        throw new Error('no MCP here');
      },
      fallback: dashboard.handle,
      isPublic: dashboard.isPublic,
    });
    const base = server.url.replace(/\/mcp$/, '');
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    try {
      const q = encodeURIComponent(secret);
      for (const path of [`/api/graph?min=${q}`, `/api/graph?limit=${q}`, `/api/graph?type=${q}`]) {
        const res = await fetch(`${base}${path}`, { headers });
        expect(res.status).toBe(400);
        const text = await res.text();
        expect(text).toContain('REDACTED');
        expect(text).not.toContain(GH);
      }
      const res = await fetch(`${base}/api/feedback`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ id: 'x', verdict: secret }),
      });
      expect(res.status).toBe(400);
      const text = await res.text();
      expect(text).toContain('REDACTED');
      expect(text).not.toContain(GH);
    } finally {
      await server.close();
      await engine.close();
    }
  });
});
