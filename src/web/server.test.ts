import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CredenceError } from '../core/errors.js';
import { OUTCOME_KINDS } from '../core/types.js';
import { runDemo } from '../engine/demo/demo.js';
import { engineStore, openCredence, type Credence } from '../engine/engine.js';
import { serveHttp, type RunningHttpServer } from '../mcp/http.js';
import { sqliteConnection } from '../store/sqlite/connection.js';
import { openSqliteStore } from '../store/sqlite/index.js';
import { assetsDir, createDashboard } from './server.js';

const NOW = '2026-02-02T09:00:00Z';
const TOKEN = 'a-token-of-sixteen-or-more';
const dir = mkdtempSync(join(tmpdir(), 'credence-web-'));
let credence: Credence;
let open: RunningHttpServer;
let guarded: RunningHttpServer;

async function start(token?: string): Promise<RunningHttpServer> {
  const dashboard = createDashboard({ credence, writable: token !== undefined });
  return serveHttp({
    host: '127.0.0.1',
    port: 0,
    ...(token === undefined ? {} : { token }),
    createSession: () => {
      throw new Error('no MCP here');
    },
    fallback: dashboard.handle,
    isPublic: dashboard.isPublic,
  });
}

const base = (s: RunningHttpServer) => s.url.replace(/\/mcp$/, '');
// The tests read the JSON as the page does, field by field: loosely typed on purpose.
type Json = any;
const get = async (
  s: RunningHttpServer,
  path: string,
  init?: RequestInit,
): Promise<{ status: number; type: string; body: Json }> => {
  const res = await fetch(`${base(s)}${path}`, init);
  return {
    status: res.status,
    type: res.headers.get('content-type') ?? '',
    body: res.headers.get('content-type')?.includes('json') ? await res.json() : await res.text(),
  };
};

beforeAll(async () => {
  credence = await openCredence({ store: openSqliteStore({ path: ':memory:' }), now: NOW, scope: 'demo', cwd: dir });
  await runDemo(credence);
  open = await start();
  guarded = await start(TOKEN);
});
afterAll(async () => {
  await open.close();
  await guarded.close();
  await credence.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the dashboard server', () => {
  it('serves the pages and their assets from the package, with no outside source allowed', async () => {
    for (const path of ['/', '/graph', '/confidence', '/learning', '/runs', '/ask']) {
      const r = await get(open, path);
      expect(r.status).toBe(200);
      expect(r.type).toContain('text/html');
      expect(r.body).toContain('<script src="/app.js" defer></script>');
    }
    expect((await get(open, '/app.js')).type).toContain('javascript');
    expect((await get(open, '/style.css')).type).toContain('text/css');
    const res = await fetch(`${base(open)}/graph`);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect((await get(open, '/nothing-here')).status).toBe(404);
  });

  it('gives the graph compactly: nodes by PageRank with a layout, edges as indexes with their confidence', async () => {
    const { body } = await get(open, '/api/graph');
    const n = body.nodes.id.length;
    expect(n).toBe(body.stats.nodes);
    expect(body.nodes.x).toHaveLength(n);
    expect(body.nodes.pageRank).toEqual([...body.nodes.pageRank].sort((a: number, b: number) => b - a));
    // The demo's most central tool (see demo.test: the end of its browser chain since issue 17).
    expect(body.nodes.id[0]).toBe('playwright:browser_take_screenshot');
    expect(body.edges.from.every((i: number) => i >= 0 && i < n)).toBe(true);
    expect(body.stats).toMatchObject({ tier: 'growing', edges: body.edges.from.length });
    const filtered = (await get(open, '/api/graph?type=dependency&min=0.9')).body;
    expect(filtered.edges.type.every((t: number) => body.types[t] === 'dependency')).toBe(true);
    expect(filtered.edges.confidence.every((c: number) => c >= 0.9)).toBe(true);
    expect(filtered.nodes.id).toEqual(body.nodes.id);
    // Bounded (issue 20): the most central tools, only the edges between them, every tool still counted.
    const top = (await get(open, '/api/graph?limit=3')).body;
    expect(top.nodes.id).toEqual(body.nodes.id.slice(0, 3));
    expect(top.stats).toMatchObject({ nodes: n, shownNodes: 3, limit: 3 });
    expect(top.edges.from.every((i: number) => i >= 0 && i < 3)).toBe(true);
    expect(top.stats.shownEdges + top.stats.hiddenEdges).toBe(body.stats.shownEdges);
  });

  it("explains a tool's edges and suggestions, and names an unknown tool", async () => {
    const { body } = await get(open, `/api/tool/${encodeURIComponent('Grep')}`);
    const alternative = body.outgoing.find(
      (e: { to: string; type: string }) => e.to === 'filesystem:search_files' && e.type === 'alternative',
    );
    expect(alternative).toMatchObject({
      source: expect.any(String),
      count: expect.any(Number),
      lastSeen: expect.stringMatching(/^2026-/),
      parts: { typeWeight: 0.6 },
    });
    expect(alternative.confidence).toBeCloseTo(
      alternative.parts.typeWeight * alternative.parts.sourceModifier * alternative.parts.decay,
      12,
    );
    expect(body.next[0]).toMatchObject({ tool: 'Read', why: expect.stringContaining('dependency') });
    const missing = await get(open, '/api/tool/no_such_tool');
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({ code: 'NOT_FOUND', message: expect.stringContaining('"no_such_tool"') });
  });

  it('counts confidence by band, with the density tier and a timeline', async () => {
    const { body } = await get(open, '/api/confidence?days=10');
    expect(body.edges.bands.map((b: { band: string }) => b.band)).toEqual([
      'noise',
      'tentative',
      'probable',
      'certain',
      'established',
    ]);
    expect(body.edges.bands.reduce((n: number, b: { count: number }) => n + b.count, 0)).toBe(body.edges.total);
    expect(body.density).toMatchObject({ tier: 'growing', weights: { hybrid: 0.65, pageRank: 0.2, path: 0.15 } });
    expect(body.timeline).toHaveLength(10);
    expect(body.timeline.at(-1).day).toBe('2026-02-02');
  });

  it("gives the engine's calibration report: every kind of claim, 10 bins each, as its outcomes", async () => {
    const { status, body } = await get(open, '/api/calibration');
    expect(status).toBe(200);
    expect(body).toEqual(JSON.parse(JSON.stringify(await credence.calibration())));
    expect(body.kinds.map((k: { kind: string }) => k.kind)).toEqual([...OUTCOME_KINDS]);
    for (const k of body.kinds as { outcomes: number; bins: { count: number }[] }[]) {
      expect(k.bins).toHaveLength(10);
      expect(k.bins.reduce((n, b) => n + b.count, 0)).toBe(k.outcomes);
    }
  });

  it('lists learning with evidence and metrics, runs with confidence, and answers a query with the parts', async () => {
    const learning = (await get(open, '/api/learning')).body;
    expect(learning.skills.length).toBeGreaterThan(0);
    expect(learning.skills[0].evidence[0]).toMatchObject({ observation: expect.any(String) });
    expect(learning.metrics.suggestions.shown).toBeGreaterThan(0);
    const runs = (await get(open, '/api/runs?limit=5')).body.runs;
    expect(runs).toHaveLength(5);
    expect(runs[0].nodes[0]).toMatchObject({ confidence: expect.any(Number), parts: { base: expect.any(Number) } });
    const ask = (await get(open, `/api/ask?q=${encodeURIComponent('validate the config')}&context=parse_json`)).body;
    expect(ask.tools[0]).toMatchObject({
      semantic: expect.any(Number),
      graph: expect.any(Number),
      alpha: expect.any(Number),
      alphaRule: expect.any(String),
    });
    for (const t of ask.tools) {
      const hybrid = t.hybrid ?? t.score;
      expect(hybrid).toBeCloseTo(t.alpha * t.semantic + (1 - t.alpha) * t.graph, 9);
      const learned =
        t.memory === undefined ? hybrid : (1 - t.memory.weight) * hybrid + t.memory.weight * t.memory.vote;
      expect(t.score).toBeCloseTo(Math.max(0, learned + (t.feedback?.shift ?? 0)), 9);
    }
    expect(ask.memories[0]).toMatchObject({
      label: expect.stringMatching(/^(high|medium|low)$/),
      parts: expect.any(Object),
    });
    // Looking is not taking: nothing the dashboard showed counts in the suggestion metrics.
    expect((await credence.metrics()).suggestions.shown).toBe(learning.metrics.suggestions.shown);
  });

  it('warmed once it listens, answers /api/ask as a dashboard not warmed does, and records nothing', async () => {
    const store = engineStore(credence);
    const fresh = await openCredence({ store, now: NOW, scope: 'demo', cwd: dir });
    const dashboard = createDashboard({ credence: fresh });
    const revision = await store.revision('demo');
    const shown = (await credence.metrics()).suggestions.shown;
    await dashboard.warm();
    expect(await store.revision('demo')).toBe(revision);
    expect((await credence.metrics()).suggestions.shown).toBe(shown);
    const server = await serveHttp({
      host: '127.0.0.1',
      port: 0,
      createSession: () => {
        throw new Error('no MCP here');
      },
      fallback: dashboard.handle,
      isPublic: dashboard.isPublic,
    });
    try {
      for (const q of ['validate the config', 'find a file and read it', 'send a message to the team']) {
        const path = `/api/ask?q=${encodeURIComponent(q)}`;
        expect((await get(server, path)).body).toEqual((await get(open, path)).body);
      }
    } finally {
      await server.close();
    }
  });

  it('warmed, a first ask reads no float chunk nor a full-text search of the store; one during it agrees', async () => {
    const store = engineStore(credence);
    // What a settled index (its floats held) and built postings never ask the store for.
    const watch = new Set(['readVectorChunks', 'searchMemories', 'searchObservations', 'searchExecutions']);
    const calls: string[] = [];
    const watched = new Proxy(store, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          if (typeof prop === 'string' && watch.has(prop)) calls.push(prop);
          return value.apply(target, args);
        };
      },
    });
    const fresh = await openCredence({ store: watched, now: NOW, scope: 'demo', cwd: dir });
    const dashboard = createDashboard({ credence: fresh });
    const server = await serveHttp({
      host: '127.0.0.1',
      port: 0,
      createSession: () => {
        throw new Error('no MCP here');
      },
      fallback: dashboard.handle,
      isPublic: dashboard.isPublic,
    });
    try {
      const path = `/api/ask?q=${encodeURIComponent('search the web and summarise what it finds')}`;
      const expected = (await get(open, path)).body;
      const warming = dashboard.warm();
      const during = await get(server, path);
      await warming;
      expect(during.body).toEqual(expected);
      // The warm-up read the floats (a fresh engine over a store whose matrices exist holds their int8 copies alone).
      expect(calls).toContain('readVectorChunks');
      calls.length = 0;
      expect((await get(server, path)).body).toEqual(expected);
      expect(calls).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('answers bad input with a clear JSON error', async () => {
    const cases: [string, number, RegExp][] = [
      ['/api/graph?type=friendship', 400, /unknown edge type "friendship"/],
      ['/api/graph?min=2', 400, /min must be a confidence in \[0, 1\], got "2"/],
      ['/api/runs?limit=0', 400, /limit must be/],
      ['/api/graph?limit=2.5', 400, /limit must be a whole number of tools/],
      ['/api/ask?q=', 400, /query is empty/],
      ['/api/ask?q=x&context=NoSuchTool', 400, /unknown context tool "NoSuchTool"/],
      ['/api/graph?scope=elsewhere', 404, /scope "elsewhere" holds nothing/],
      ['/api/nope', 404, /no API at \/api\/nope/],
    ];
    for (const [path, status, message] of cases) {
      const r = await get(open, path);
      expect([path, r.status]).toEqual([path, status]);
      expect(r.body.error.message).toMatch(message);
    }
  });

  it('answers a question of 4,000 non-Latin characters on the Ask API (36 KB percent-encoded)', async () => {
    const r = await get(open, `/api/ask?q=${encodeURIComponent('語'.repeat(4000))}`);
    expect(r.status).toBe(200);
    const over = await get(open, `/api/ask?q=${encodeURIComponent('語'.repeat(4001))}`);
    expect(over.status).toBe(400);
  });

  it('is read-only without a token', async () => {
    const r = await get(open, '/api/feedback', {
      method: 'POST',
      body: JSON.stringify({ id: 'x', verdict: 'validated' }),
    });
    expect(r.status).toBe(405);
    expect(r.body.error.code).toBe('READ_ONLY');
    expect((await get(open, '/api/graph', { method: 'DELETE' })).status).toBe(405);
  });

  it('with a token: pages load without it, the API needs it, and feedback is allowed', async () => {
    expect((await get(guarded, '/graph')).status).toBe(200);
    const refused = await get(guarded, '/api/graph');
    // The dashboard's error shape, not JSON-RPC's, and how to give the token.
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ error: { code: 'UNAUTHORIZED', message: expect.stringContaining('#token=') } });
    const wrong = await get(guarded, '/api/graph', { headers: { authorization: 'Bearer nope' } });
    expect([wrong.status, wrong.body.error.code, wrong.body.jsonrpc]).toEqual([401, 'UNAUTHORIZED', undefined]);
    const auth = { authorization: `Bearer ${TOKEN}` };
    expect((await get(guarded, '/api/graph', { headers: auth })).status).toBe(200);
    const skill = (await get(guarded, '/api/learning', { headers: auth })).body.skills[0];
    const r = await get(guarded, '/api/feedback', {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ id: skill.id, verdict: 'contradicts' }),
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ on: 'skill', verdict: 'contradicts' });
    const after = (await get(guarded, '/api/learning', { headers: auth })).body.skills.find(
      (s: { id: string }) => s.id === skill.id,
    );
    expect(after.feedback.at(-1).kind).toBe('contradiction');
    const bad = await get(guarded, '/api/feedback', {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ id: skill.id, verdict: 'maybe' }),
    });
    expect(bad.status).toBe(400);
    // A body that is JSON but no object is refused by name (null answered 500).
    for (const [body, got] of [
      ['null', 'null'],
      ['[]', 'an array'],
      [JSON.stringify('x'.repeat(60_000)), 'a string'],
      ['5', 'a number'],
    ]) {
      const r = await get(guarded, '/api/feedback', { method: 'POST', headers: auth, body });
      expect([got, r.status, r.body.error.message]).toEqual([
        got,
        400,
        `request body must be a JSON object, got ${got}`,
      ]);
    }
    // MCP still needs the token, and answers in JSON-RPC's shape.
    const mcp = await get(guarded, '/mcp', { method: 'POST', body: '{}' });
    expect([mcp.status, mcp.body.jsonrpc, mcp.body.error.code]).toEqual([401, '2.0', -32000]);
    // A foreign Origin or Host on /api/* is a 403 in the dashboard's shape too.
    const foreign = await get(open, '/api/graph', { headers: { origin: 'http://evil.example' } });
    expect([foreign.status, foreign.body.error.code, foreign.body.jsonrpc]).toEqual([403, 'FORBIDDEN', undefined]);
    const host = await new Promise<{ status: number; body: Json }>((resolve, reject) => {
      const req = request(`${base(open)}/api/graph`, { headers: { host: 'evil.example' } }, (res) => {
        let text = '';
        res.on('data', (c: Buffer) => {
          text += c.toString();
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      });
      req.on('error', reject);
      req.end();
    });
    expect([host.status, host.body.error.code, host.body.jsonrpc]).toEqual([403, 'FORBIDDEN', undefined]);
  });

  it('lists every scope holding a row in /api/scopes, the served one first and marked as the default', async () => {
    // A second scope in the same store, named to sort before the served one.
    const other = await openCredence({ store: engineStore(credence), now: NOW, scope: 'alpha-team', cwd: dir });
    await other.addTools([{ id: 'alpha_tool', description: 'a tool of another scope' }]);
    const { body } = await get(open, '/api/scopes');
    expect(body.default).toBe('demo');
    expect(body.scopes.map((x: { scope: string; default: boolean }) => [x.scope, x.default])).toEqual([
      ['demo', true],
      ['alpha-team', false],
    ]);
    expect(body.scopes[1].counts.tools).toBe(1);
    expect((await get(open, '/api/graph?scope=alpha-team')).body.nodes.id).toEqual(['alpha_tool']);
  });

  it('opens a tool named `..` or `.` by /api/tool?id=', async () => {
    // A tool named `..` or `.` is addressed by ?id= (a path segment of dots is normalised away by clients).
    const dots = await openCredence({ store: engineStore(credence), now: NOW, scope: 'dots', cwd: dir });
    await dots.addTools([
      { id: '..', description: 'a tool named two dots' },
      { id: '.', description: 'a tool named one dot' },
    ]);
    for (const id of ['..', '.']) {
      const r = await get(open, `/api/tool?id=${encodeURIComponent(id)}&scope=dots`);
      expect([id, r.status, r.body.id]).toEqual([id, 200, id]);
    }
    expect((await get(open, '/api/tool?id=&scope=dots')).body.error.message).toContain('/api/tool?id=<id>');
  });

  it("warns, as credence edges does, when the clock is before an edge's last confirmation", async () => {
    const scope = 'later-team';
    const writer = await openCredence({ store: engineStore(credence), now: NOW, scope, cwd: dir });
    await writer.recordExecution({
      intent: 'a then b',
      startedAt: NOW,
      calls: [
        { tool: 'later_a', status: 'success' },
        { tool: 'later_b', status: 'success', consumes: [0] },
      ],
    });
    // The same store served at a clock a month before the edge was confirmed.
    const before = '2026-01-03T09:00:00Z';
    const earlier = await openCredence({ store: engineStore(credence), now: before, scope, cwd: dir });
    const past = await serveHttp({
      host: '127.0.0.1',
      port: 0,
      createSession: () => {
        throw new Error('no MCP here');
      },
      fallback: createDashboard({ credence: earlier }).handle,
    });
    try {
      const graph = (await get(past, `/api/graph?scope=${scope}`)).body;
      expect(graph.warning).toMatch(
        /^2 edge\(s\) were last confirmed after 2026-01-03T09:00:00.000Z \(up to 2026-02-02/,
      );
      expect(graph.warning).toContain('this is not a view of the graph as it was then');
      const tool = (await get(past, `/api/tool?id=later_a&scope=${scope}`)).body;
      expect(tool.warning).toBe(graph.warning);
      // At the served clock, no edge is later: no warning.
      expect((await get(open, `/api/graph?scope=${scope}`)).body.warning).toBeUndefined();
    } finally {
      await past.close();
    }
  });

  it('draws what another process just learned: /api/graph reads the store as it is now (issue 18)', async () => {
    const scope = 'fresh-team';
    const writer = await openCredence({ store: engineStore(credence), now: NOW, scope, cwd: dir });
    await writer.addTools([{ id: 'fresh_a', description: 'first' }]);
    expect((await get(open, `/api/graph?scope=${scope}`)).body.nodes.id).toEqual(['fresh_a']);
    // Another engine (a hook, the CLI) learns an edge; the dashboard's engine did not write it.
    await writer.recordExecution({
      intent: 'a then b',
      startedAt: NOW,
      calls: [
        { tool: 'fresh_a', status: 'success' },
        { tool: 'fresh_b', status: 'success', consumes: [0] },
      ],
    });
    const { body } = await get(open, `/api/graph?scope=${scope}`);
    expect(body.nodes.id).toEqual(expect.arrayContaining(['fresh_a', 'fresh_b']));
    expect(body.stats.edges).toBeGreaterThan(0);
    const confidence = (await get(open, `/api/confidence?scope=${scope}`)).body;
    expect(confidence.edges.total).toBe(body.stats.edges);
    expect(confidence.timeline.at(-1)).toMatchObject({ executions: 1, calls: 2 });
    // And the next write by the other engine too (the dashboard's engine has its snapshot by now).
    await writer.addTools([{ id: 'fresh_c', description: 'third' }]);
    expect((await get(open, `/api/graph?scope=${scope}`)).body.nodes.id).toContain('fresh_c');
  });

  it('answers a non-path request target with a 400, from the dashboard alone too, and keeps serving', async () => {
    // The dashboard's handler on a bare Node server (no serveHttp in front of it).
    const dashboard = createDashboard({ credence });
    const bare: Server = createServer((req, res) => {
      if (!dashboard.handle(req, res)) res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
    const port = (bare.address() as { port: number }).port;
    try {
      for (const path of ['//a:b', '//%5B', '//']) {
        for (const target of [port, Number(new URL(open.url).port)]) {
          const r = await rawRequest(target, path);
          expect([target, path, r.status]).toEqual([target, path, 400]);
          expect(r.body).toContain('is not a path');
        }
      }
      expect((await rawRequest(port, '/api/scopes')).status).toBe(200);
      expect((await get(open, '/api/scopes')).status).toBe(200);
    } finally {
      await new Promise((resolve) => bare.close(resolve));
    }
  });

  it('answers 500 and logs one line when a handler throws, and keeps serving', async () => {
    const lines: string[] = [];
    const failing = await serveHttp({
      host: '127.0.0.1',
      port: 0,
      createSession: () => {
        throw new Error('no MCP here');
      },
      fallback: (req) => {
        if (req.url === '/boom') throw new TypeError('a handler broke');
        return false;
      },
      log: (line) => lines.push(line),
    });
    try {
      const boom = await get(failing, '/boom');
      expect(boom.status).toBe(500);
      // The client gets the error's class only; its message (which can quote stored values) goes to the log.
      expect(boom.body.error.message).toContain('an internal error (TypeError)');
      expect(boom.body.error.message).not.toContain('a handler broke');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^http: GET "\/boom" failed: TypeError: a handler broke/);
      expect(lines[0]).not.toContain('\n');
      // An MCP session that cannot be created is a 500 too, in one line.
      const init = {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      };
      const mcp = await get(failing, '/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify(init),
      });
      expect(mcp.status).toBe(500);
      expect(lines).toHaveLength(2);
      expect(lines[1]).toMatch(/^http: POST "\/mcp" failed: Error: no MCP here/);
      expect((await get(failing, '/elsewhere')).status).toBe(404);
    } finally {
      await failing.close();
    }
  });
});

// Issue 17, red-team 4: a store driver's refusal reached the page as the driver's raw message.
describe('the dashboard on a store that fails', () => {
  it("a driver's error is a 500 naming its class, not its message; the whole error is logged in one line", async () => {
    const store = openSqliteStore({ path: ':memory:' });
    const broken = await openCredence({ store, now: NOW, scope: 'p', cwd: dir });
    const lines: string[] = [];
    const dashboard = createDashboard({ credence: broken, log: (line) => lines.push(line) });
    const server = await serveHttp({
      host: '127.0.0.1',
      port: 0,
      createSession: () => {
        throw new Error('no MCP here');
      },
      fallback: dashboard.handle,
      isPublic: dashboard.isPublic,
    });
    try {
      // A real driver error: the table the edges live in is gone under the store.
      sqliteConnection(store).exec('DROP TABLE edges');
      const r = await get(server, '/api/graph');
      expect(r.status).toBe(500);
      expect(r.body.error).toEqual({
        code: 'INTERNAL',
        message:
          'the dashboard failed on this request: an internal error (SqliteError SQLITE_ERROR); ' +
          "the server's log has the cause",
      });
      expect(lines).toEqual([
        expect.stringMatching(/^dashboard: GET "\/api\/graph" failed: SqliteError: no such table: edges \(at .+\)$/),
      ]);
      expect((await get(server, '/graph')).status).toBe(200);
      // A warm-up over the broken store leaves the failure to the request that meets it.
      await expect(dashboard.warm()).resolves.toBeUndefined();
    } finally {
      await server.close();
      await broken.close();
    }
  });
});

describe("the dashboard's assets", () => {
  it('are found under a folder whose name has a space and non-ASCII letters, from src/ and from dist/', () => {
    const root = join(dir, 'my projects', 'crédence ü');
    const assets = join(root, 'src', 'web', 'assets');
    mkdirSync(assets, { recursive: true });
    cpSync(assetsDir(), assets, { recursive: true });
    expect(assetsDir(pathToFileURL(join(root, 'src', 'web', 'server.ts')))).toBe(assets);
    expect(assetsDir(pathToFileURL(join(root, 'dist', 'src', 'web', 'server.js')).href)).toBe(assets);
    expect(() => assetsDir(pathToFileURL(join(dir, 'elsewhere', 'server.js')))).toThrow(
      /assets \(src\/web\/assets\) are missing/,
    );
  });

  it('are served from such a folder; one that cannot be read is a 500 naming it, and serving goes on', async () => {
    const assets = join(dir, 'served assets é');
    cpSync(assetsDir(), assets, { recursive: true });
    const lines: string[] = [];
    const dashboard = createDashboard({ credence, assetsDir: assets, log: (line) => lines.push(line) });
    const server = await serveHttp({
      host: '127.0.0.1',
      port: 0,
      createSession: () => {
        throw new Error('no MCP here');
      },
      fallback: dashboard.handle,
      isPublic: dashboard.isPublic,
    });
    try {
      const js = await get(server, '/app.js');
      expect(js.status).toBe(200);
      expect(js.body).toBe(readFileSync(join(assets, 'app.js'), 'utf8'));
      rmSync(join(assets, 'style.css'));
      const css = await get(server, '/style.css');
      expect(css.status).toBe(500);
      // The page is told it failed; the log, not the page, names the file (issue 17: no raw error text to clients).
      expect(css.body.error).toEqual({
        code: 'INTERNAL',
        message: "the dashboard failed on this request: an internal error (Error); the server's log has the cause",
      });
      expect(lines).toEqual([
        expect.stringContaining(`cannot read the dashboard's file ${join(assets, 'style.css')}: ENOENT`),
      ]);
      expect((await get(server, '/graph')).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});

// A robustness audit: a busy store was a 500 INTERNAL the dashboard could not explain.
describe('a busy store', () => {
  it('is a 503 STORE_BUSY saying another process is writing and to retry', async () => {
    const busy = Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
    const spy = vi.spyOn(credence, 'scopes').mockRejectedValueOnce(busy);
    try {
      const r = await get(open, '/api/scopes');
      expect(r.status).toBe(503);
      expect(r.body.error).toEqual({
        code: 'STORE_BUSY',
        message: 'the store is busy (another process is writing); retry',
      });
    } finally {
      spy.mockRestore();
    }
  });
});

// Walk 5: a team server that went down was a 500 INTERNAL "an internal error (Error ECONNREFUSED)".
describe('a store that cannot be reached', () => {
  it("is a 503 STORE_UNAVAILABLE with the store's message (unreachable, retry later), as a busy one is", async () => {
    const message =
      'the PostgreSQL store at postgres://team:***@db.example:5432/credence is unreachable (ECONNREFUSED): ' +
      'the server is down or out of reach; retry later';
    const down = new CredenceError('STORE_UNAVAILABLE', message, { details: { unreachable: true } });
    const spy = vi.spyOn(credence, 'scopes').mockRejectedValueOnce(down);
    try {
      const r = await get(open, '/api/scopes');
      expect(r.status).toBe(503);
      expect(r.body.error).toEqual({ code: 'STORE_UNAVAILABLE', message });
    } finally {
      spy.mockRestore();
    }
  });
});

describe('a store opened read-only (this user cannot write its file)', () => {
  it('answers the reads without recording them; feedback is a 409 naming the store', async () => {
    const path = join(dir, 'read-only.db');
    const writer = await openCredence({ db: path, now: NOW, scope: 'demo', cwd: dir });
    await runDemo(writer);
    await writer.close();
    const reader = await openCredence({ store: openSqliteStore({ path, readonly: true }), now: NOW, scope: 'demo' });
    const warned: string[] = [];
    const engine = await openCredence({
      store: openSqliteStore({ path, readonly: true }),
      now: NOW,
      scope: 'demo',
      warn: (l) => warned.push(l),
    });
    const dashboard = createDashboard({ credence: engine, writable: true });
    const server = await serveHttp({
      host: '127.0.0.1',
      port: 0,
      token: TOKEN,
      createSession: () => {
        throw new Error('no MCP here');
      },
      fallback: dashboard.handle,
      isPublic: dashboard.isPublic,
    });
    try {
      const auth = { authorization: `Bearer ${TOKEN}` };
      const shown = (await reader.counts('demo')).shown;
      expect((await get(server, '/api/scopes', { headers: auth })).body.writable).toBe(false);
      const asked = await get(server, '/api/ask?q=deploy', { headers: auth });
      expect(asked.status).toBe(200);
      expect(asked.body.memories.length).toBeGreaterThan(0);
      // recall records what it shows: on a read-only store it answers without it, saying so once.
      const recalled = await engine.recall('deploy');
      expect(recalled[0]?.shownIdWhy).toContain('the store is read-only');
      expect(warned).toEqual([`read-only store: not recorded (what is shown gets no shownId): ${path}`]);
      expect((await reader.counts('demo')).shown).toBe(shown);
      const skill = (await get(server, '/api/learning', { headers: auth })).body.skills[0];
      const r = await get(server, '/api/feedback', {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ id: skill.id, verdict: 'validated' }),
      });
      expect(r.status).toBe(409);
      expect(r.body.error.code).toBe('STORE_READ_ONLY');
      expect(r.body.error.message).toContain(`the database at ${path} is read-only for this user`);
    } finally {
      await server.close();
      await engine.close();
      await reader.close();
    }
  });
});

/** One GET with the request target as given (fetch would normalise it). */
function rawRequest(port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'GET' }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}
