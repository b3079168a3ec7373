import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDemo } from '../demo/demo.js';
import { openCredence, type Credence } from '../engine.js';
import { openSqliteStore } from '../../store/sqlite/sqlite-store.js';
import { graphPayload } from '../../web/api.js';
import { patchCatalogue, type GraphSnapshot } from './graph-snapshot.js';
import type { Store, ToolRecord } from '../../store/types.js';
import { decodeSnapshot, encodeSnapshot } from './snapshot-codec.js';
import { PAGERANK_DEFAULTS } from '../../core/graph/pagerank.js';

const NOW = '2026-02-02T09:00:00Z';
const dir = mkdtempSync(join(tmpdir(), 'credence-snapshot-'));
let credence: Credence;

beforeAll(async () => {
  credence = await openCredence({ store: openSqliteStore({ path: ':memory:' }), now: NOW, scope: 'demo', cwd: dir });
  await runDemo(credence);
});
afterAll(async () => {
  await credence.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('one graph snapshot (issue 18)', () => {
  it('status, the dashboard graph and tool search give the same PageRank for the same tool', async () => {
    // Each surface reads from an engine of its own over the one store, as the CLI, the dashboard and an MCP server
    // would.
    const [forStatus, forDashboard, forSearch] = await Promise.all([1, 2, 3].map(() => credence.forScope('demo')));
    const status = await (forStatus as Credence).status();
    const central = status.graph.central;
    expect(central.length).toBeGreaterThanOrEqual(3);
    const max = (central[0] as { pageRank: number }).pageRank;

    const graph = await graphPayload(forDashboard as Credence);
    const drawn = new Map(graph.nodes.id.map((id, i) => [id, graph.nodes.pageRank[i] as number]));

    for (const { tool, pageRank } of central) {
      expect(drawn.get(tool)).toBeCloseTo(pageRank, 6);
      const found = (await (forSearch as Credence).searchTools(tool, { limit: 50, track: false })).find(
        (r) => r.tool === tool,
      );
      expect(found, `tool search finds ${tool}`).toBeDefined();
      // Search's graph part is the tool's PageRank over the most central tool's.
      expect(found?.parts.centrality).toBeCloseTo(pageRank / max, 12);
    }
    // The most central tool is drawn first.
    expect(graph.nodes.id[0]).toBe(central[0]?.tool);
  });
});

describe('the catalogue patched with what was written since (issue 20)', () => {
  it('equals the catalogue listed again: tools rewritten, added anywhere in id order, and removed', () => {
    const ids = ['b_tool', 'a_tool', 'Z_upper', 'é_accent', 'z_last', '𝒳_astral', '\uffee_high', 'm_mid', 'a_tool_2'];
    const byteOrder = (list: ToolRecord[]) =>
      [...list].sort((x, y) => Buffer.compare(Buffer.from(x.id), Buffer.from(y.id)));
    let seed = 5;
    const next = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed / 2 ** 32;
    };
    let held: ToolRecord[] = [];
    let catalogue: ToolRecord[] = [];
    for (let step = 0; step < 200; step += 1) {
      const changed: ToolRecord[] = [];
      const removed: string[] = [];
      const id = ids[Math.floor(next() * ids.length)] as string;
      if (next() < 0.3 && held.some((t) => t.id === id)) removed.push(id);
      else changed.push({ id, description: `step ${step}` });
      held = byteOrder([...held.filter((t) => t.id !== id), ...changed]);
      catalogue = patchCatalogue(catalogue, changed, removed);
      expect(catalogue).toEqual(held);
    }
  });

  it('is the same list when the tools written are as held (a recorded call moves a counter only)', () => {
    const tools: ToolRecord[] = [
      { id: 'a_tool', description: 'A', inputSchema: { type: 'object', properties: { x: { type: 'string' } } } },
      { id: 'b_tool', description: 'B', annotations: { readOnlyHint: true } },
    ];
    const again = tools.map((t) => structuredClone(t));
    expect(patchCatalogue(tools, again, [])).toBe(tools);
    const schema = { type: 'object', properties: { x: { type: 'number' } } };
    const rewritten = patchCatalogue(tools, [{ ...(again[0] as ToolRecord), inputSchema: schema }], []);
    expect(rewritten).not.toBe(tools);
    expect(rewritten[0]?.inputSchema).toEqual(schema);
    expect(patchCatalogue(tools, [], ['c_absent'])).toBe(tools);
    expect(patchCatalogue(tools, [], ['a_tool']).map((t) => t.id)).toEqual(['b_tool']);
  });
});

describe('the snapshot patched after a write (issue 20)', () => {
  const DAY = 86_400_000;
  const T0 = Date.parse('2026-04-01T08:00:00Z');
  const TOOLS = ['a_fetch', 'b_parse', 'c_store', 'd_send', 'e_render', 'é_resize', '𝒳_astral', 'z_last'];
  /** What a snapshot holds, as plain data (functions and indexes left out: they follow from these). */
  const held = (g: GraphSnapshot) => ({
    now: g.now,
    tools: g.tools,
    edges: g.edges,
    confidentEdges: g.confidentEdges,
    ids: g.directed.ids,
    pageRank: [...g.pageRank.entries()],
    maxPageRank: g.maxPageRank,
    calls: [...g.calls.entries()].sort(),
    density: g.density,
    tier: g.tier,
    spread: TOOLS.map((t) => g.selfSpread(t)),
  });
  /**
   * Two snapshots hold the same, PageRank within what its iteration guarantees (issue 20: after a write it starts
   * from the last one's): each iterate it stops at is within d/(1 − d)·tolerance of the fixed point (L1).
   */
  const RANK_L1 = ((2 * PAGERANK_DEFAULTS.damping) / (1 - PAGERANK_DEFAULTS.damping)) * PAGERANK_DEFAULTS.tolerance;
  const expectSame = (actual: GraphSnapshot, expected: ReturnType<typeof held> | GraphSnapshot) => {
    const { pageRank, maxPageRank, ...rest } = held(actual);
    const want = 'selfSpread' in expected ? held(expected) : expected;
    const { pageRank: wantRank, maxPageRank: wantMax, ...wantRest } = want;
    expect(rest).toEqual(wantRest);
    expect(pageRank.map(([id]) => id)).toEqual(wantRank.map(([id]) => id));
    const l1 = pageRank.reduce((sum, [, v], i) => sum + Math.abs(v - (wantRank[i]?.[1] as number)), 0);
    expect(l1).toBeLessThanOrEqual(RANK_L1);
    expect(Math.abs(maxPageRank - wantMax)).toBeLessThanOrEqual(RANK_L1);
  };

  it('equals a snapshot built from every edge, after writes here and by another process, days apart', async () => {
    const path = join(dir, 'patched.db');
    let clock = T0;
    const open = (store: Store) => openCredence({ store, now: () => clock, scope: 'p', cwd: dir });
    const warm = await open(openSqliteStore({ path }));
    const other = await open(openSqliteStore({ path }));
    let seed = 11;
    const rng = () => {
      seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
      return seed / 2 ** 32;
    };
    const pick = <T>(items: readonly T[]): T => items[Math.floor(rng() * items.length)] as T;
    // The edge reads of a third engine's store: after a recorded run, only the edges of the tools it called.
    const store = openSqliteStore({ path });
    const reads: (string | undefined)[] = [];
    const listEdges = store.listEdges.bind(store);
    store.listEdges = (scope, filter) => {
      reads.push(filter?.from ?? filter?.to);
      return listEdges(scope, filter);
    };
    const watched = await open(store);
    try {
      await warm.addTools(TOOLS.map((id) => ({ id, description: `the ${id} tool` })));
      const kinds = new Set<string>();
      for (let step = 0; step < 60; step += 1) {
        const writer = rng() < 0.3 ? other : warm;
        const kind = pick(['record', 'record', 'append', 'edge', 'tools', 'remember'] as const);
        kinds.add(kind);
        const at = new Date(clock).toISOString();
        const tools = [pick(TOOLS), pick(TOOLS), pick(TOOLS)];
        const calls = tools.map((tool, i) => ({
          tool,
          status: rng() < 0.15 ? ('failure' as const) : ('success' as const),
          at,
          ...(i > 0 ? { consumes: [i - 1] } : {}),
        }));
        if (kind === 'record') await writer.recordExecution({ intent: `run ${step}`, startedAt: at, calls });
        else if (kind === 'append')
          await writer.appendCalls({ id: `s${step % 4}`, intent: 'a session', startedAt: at }, calls);
        else if (kind === 'edge') {
          const from = pick(TOOLS);
          const to = pick(TOOLS.filter((t) => t !== from));
          await writer.declareEdge({ from, to, type: pick(['sequence', 'dependency'] as const) });
        } else if (kind === 'tools') await writer.addTools([{ id: `new_${step}`, description: `added at ${step}` }]);
        else await writer.remember([{ title: `note ${step}`, text: 'nothing about tools' }]);
        // Time moves on: some steps by days, so kept confidences decay and must be read again.
        clock += rng() < 0.3 ? Math.floor(rng() * 5) * DAY + 3_600_000 : 60_000;
        // A kept snapshot (no graph write since) keeps the instant it was read at: a fresh one is read at that one.
        const kept = await warm.graphSnapshot();
        reads.length = 0;
        const seen = await watched.graphSnapshot();
        // A fresh engine builds from every edge (nothing kept in the store is read); a new process patches the
        // snapshot another kept there.
        const freshAt = (at: number, stored: boolean) => {
          const store = openSqliteStore({ path });
          if (!stored) Object.assign(store, { readGraphSnapshot: undefined, writeGraphSnapshot: undefined });
          return openCredence({ store, now: () => at, scope: 'p', cwd: dir });
        };
        const fresh = await freshAt(kept.now, false);
        const alsoFresh = await freshAt(seen.now, false);
        const next = await freshAt(seen.now, true);
        try {
          const expected = held(await fresh.graphSnapshot());
          expectSame(kept, expected);
          expectSame(decodeSnapshot(encodeSnapshot(kept)) as GraphSnapshot, expected);
          expectSame(seen, await alsoFresh.graphSnapshot());
          expectSame(await next.graphSnapshot(), seen);
          if (kind === 'record' && step > 0) expect(reads.filter((r) => !tools.includes(r as string))).toEqual([]);
        } finally {
          await Promise.all([fresh.close(), alsoFresh.close(), next.close()]);
        }
      }
      expect(kinds.size).toBe(5);
    } finally {
      await Promise.all([warm.close(), other.close(), watched.close()]);
    }
  }, 120_000);

  it('a new process patches the snapshot kept in the store: no edge listed whole, the same snapshot', async () => {
    const path = join(dir, 'kept.db');
    const open = (store: Store) => openCredence({ store, now: T0, scope: 'k', cwd: dir });
    const first = await open(openSqliteStore({ path }));
    const run = (tools: string[], at: number) =>
      first.recordExecution({
        intent: 'a run',
        startedAt: new Date(at).toISOString(),
        calls: tools.map((tool, i) => ({ tool, status: 'success' as const, ...(i > 0 ? { consumes: [i - 1] } : {}) })),
      });
    await run(['a_fetch', 'b_parse', 'c_store'], T0 - 3 * DAY);
    await first.graphSnapshot();
    await run(['c_store', 'd_send'], T0 - DAY);
    await run(['a_fetch', 'd_send'], T0 - DAY);
    await first.close();
    const store = openSqliteStore({ path });
    const whole: string[] = [];
    const listEdges = store.listEdges.bind(store);
    store.listEdges = (scope, filter) => {
      if (filter?.from === undefined && filter?.to === undefined) whole.push(scope);
      return listEdges(scope, filter);
    };
    const next = await open(store);
    const bare = openSqliteStore({ path });
    Object.assign(bare, { readGraphSnapshot: undefined, writeGraphSnapshot: undefined });
    const fresh = await open(bare);
    try {
      expectSame(await next.graphSnapshot(), await fresh.graphSnapshot());
      expect((await next.graphSnapshot()).edges.length).toBeGreaterThanOrEqual(5);
      expect(whole).toEqual([]);
    } finally {
      await Promise.all([next.close(), fresh.close()]);
    }
  });

  it('a new process over the snapshot kept at the current revision reads no edge, count or change log', async () => {
    const path = join(dir, 'current.db');
    const open = (store: Store, now = T0) => openCredence({ store, now, scope: 'c', cwd: dir });
    const first = await open(openSqliteStore({ path }));
    await first.recordExecution({
      intent: 'a run',
      startedAt: new Date(T0 - 2 * DAY).toISOString(),
      calls: [
        { tool: 'a_fetch', status: 'success' },
        { tool: 'b_parse', status: 'success', consumes: [0] },
      ],
    });
    await first.graphSnapshot();
    await first.close();
    const store = openSqliteStore({ path });
    const reads: string[] = [];
    for (const method of ['listEdges', 'countEdges', 'changedSince', 'calledTools'] as const) {
      const original = (store[method] as (...args: unknown[]) => unknown).bind(store);
      Object.assign(store, {
        [method]: (...args: unknown[]) => {
          reads.push(method);
          return original(...args);
        },
      });
    }
    // Days later: the kept confidences are read again at the new instant, from the kept edges.
    const next = await open(store, T0 + 3 * DAY);
    const bare = openSqliteStore({ path });
    Object.assign(bare, { readGraphSnapshot: undefined, writeGraphSnapshot: undefined });
    const fresh = await open(bare, T0 + 3 * DAY);
    try {
      expectSame(await next.graphSnapshot(), await fresh.graphSnapshot());
      expect(reads).toEqual([]);
    } finally {
      await Promise.all([next.close(), fresh.close()]);
    }
  });
});
