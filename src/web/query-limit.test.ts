import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INPUT_LIMITS } from '../core/limits.js';
import { openCredence } from '../engine/engine.js';
import { serveHttp, type RunningHttpServer } from '../mcp/http.js';
import { openSqliteStore } from '../store/sqlite/index.js';
import { createDashboard } from './server.js';

const dir = mkdtempSync(join(tmpdir(), 'credence-web-limit-'));
let server: RunningHttpServer;

beforeAll(async () => {
  const credence = await openCredence({
    store: openSqliteStore({ path: ':memory:' }),
    now: '2026-02-02T09:00:00Z',
    scope: 'limit',
    cwd: dir,
  });
  const dashboard = createDashboard({ credence });
  server = await serveHttp({
    host: '127.0.0.1',
    port: 0,
    createSession: () => {
      throw new Error('no MCP here');
    },
    fallback: dashboard.handle,
    isPublic: dashboard.isPublic,
  });
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const ask = async (q: string) => {
  const res = await fetch(`${server.url.replace(/\/mcp$/, '')}/api/ask?q=${encodeURIComponent(q)}`);
  return { status: res.status, body: (await res.json()) as { error?: { code: string; message: string } } };
};

describe("the dashboard's query: the limit every surface has", () => {
  it('takes a query of the limit and refuses a longer one with the message the CLI and MCP give', async () => {
    const max = INPUT_LIMITS.query;
    const at = 'parse json '.repeat(Math.ceil(max / 11)).slice(0, max);
    expect((await ask(at)).status).toBe(200);
    const over = await ask(`${at}x`);
    expect(over.status).toBe(400);
    expect(over.body.error).toEqual({
      code: 'INPUT_TOO_LARGE',
      message: `query is ${max + 1} characters long; the limit is ${max}`,
    });
  });
});
