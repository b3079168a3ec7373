import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openCredence } from '../engine.js';
import { openSqliteStore } from '../../store/sqlite/sqlite-store.js';
import { PAGERANK_DEFAULTS } from '../../core/graph/pagerank.js';
import { graphStats, type GraphSnapshot, type GraphStats, type SnapshotEdge } from './graph-snapshot.js';
import { decodeSnapshot, decodeSnapshotStats, encodeSnapshot, STATS_TOP } from './snapshot-codec.js';

const DAY = 86_400_000;
const T0 = Date.parse('2026-03-10T12:00:00Z');
const dir = mkdtempSync(join(tmpdir(), 'credence-codec-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * The same statistics, PageRank within what its iteration guarantees (after a write it starts from the last one's):
 * each iterate it stops at is within d/(1 − d)·tolerance of the fixed point (L1).
 */
function expectSameStats(actual: GraphStats, expected: GraphStats): void {
  const bound = ((2 * PAGERANK_DEFAULTS.damping) / (1 - PAGERANK_DEFAULTS.damping)) * PAGERANK_DEFAULTS.tolerance;
  const unranked = (s: GraphStats) => ({ ...s, central: s.central.map(({ tool, calls }) => ({ tool, calls })) });
  expect(unranked(actual)).toEqual(unranked(expected));
  actual.central.forEach((c, i) => {
    expect(Math.abs(c.pageRank - (expected.central[i]?.pageRank as number))).toBeLessThanOrEqual(bound);
  });
}

describe('the statistics kept in front of a stored graph snapshot (issue 20)', () => {
  it('status reads them alone while nothing moved, and shows what a snapshot built from every edge shows', async () => {
    const path = join(dir, 'stats.db');
    const writer = await openCredence({ store: openSqliteStore({ path }), now: T0, scope: 's', cwd: dir });
    const run = (tools: string[], at: number) =>
      writer.recordExecution({
        intent: 'a run',
        startedAt: new Date(at).toISOString(),
        calls: tools.map((tool, i) => ({ tool, status: 'success' as const, ...(i > 0 ? { consumes: [i - 1] } : {}) })),
      });
    // Last seen at several times of day, so the edges' whole idle days move at different instants.
    await run(['a_fetch', 'b_parse', 'c_store'], T0 - 70 * DAY - 5 * 3_600_000);
    await run(['c_store', 'd_send', 'e_log'], T0 - 40 * DAY - 9 * 3_600_000);
    await run(['a_fetch', 'd_send'], T0 - 2 * 3_600_000);
    await run(['b_parse', 'e_log', 'a_fetch'], T0 - 200 * DAY);
    const built = await writer.graphSnapshot();
    await writer.close();

    const statusAt = async (at: number, kept: boolean) => {
      const store = openSqliteStore({ path });
      if (!kept) Object.assign(store, { readGraphSnapshot: undefined, writeGraphSnapshot: undefined });
      let patched = 0;
      const getToolsByIds = store.getToolsByIds.bind(store);
      store.getToolsByIds = (...args: Parameters<typeof getToolsByIds>) => {
        patched += 1;
        return getToolsByIds(...args);
      };
      const engine = await openCredence({ store, now: at, scope: 's', cwd: dir });
      try {
        return { graph: (await engine.status()).graph, patched };
      } finally {
        await engine.close();
      }
    };
    const instants = [T0, T0 + 3_600_000, T0 + 4 * 3_600_000, T0 + 20 * 3_600_000, T0 + 3 * DAY, T0 - 3_600_000];
    let fromPrefix = 0;
    for (const at of instants) {
      const kept = await statusAt(at, true);
      const fresh = await statusAt(at, false);
      expectSameStats(kept.graph, fresh.graph);
      if (kept.patched === 0) fromPrefix += 1;
    }
    // At the instant it was built, and an hour on (no edge crosses a day), the prefix alone answers.
    expect(fromPrefix).toBeGreaterThanOrEqual(2);
    expect(built.edges.length).toBeGreaterThanOrEqual(5);

    // Written since: a memory leaves the graph as it was (the prefix answers), a recorded run moves it (patched).
    const again = async (write: (c: Awaited<ReturnType<typeof openCredence>>) => Promise<unknown>) => {
      const c = await openCredence({ store: openSqliteStore({ path }), now: T0, scope: 's', cwd: dir });
      await write(c);
      await c.close();
      const kept = await statusAt(T0, true);
      expectSameStats(kept.graph, (await statusAt(T0, false)).graph);
      return kept.patched;
    };
    expect(await again((c) => c.remember([{ title: 'a note', text: 'nothing about tools' }]))).toBe(0);
    // An edge written with no tool moved (as another writer could): the scope's edge count tells.
    const direct = openSqliteStore({ path });
    const at = T0 - 3_600_000;
    const edge = { from: 'e_log', to: 'b_parse', type: 'sequence' as const, source: 'observed' as const };
    await direct.insertEdge('s', { ...edge, count: 3, successes: 3, failures: 0, firstSeen: at, lastSeen: at });
    await direct.close();
    const afterEdge = await statusAt(T0, true);
    expect(afterEdge.patched).toBeGreaterThan(0);
    expectSameStats(afterEdge.graph, (await statusAt(T0, false)).graph);
    const calls = [
      { tool: 'e_log', status: 'success' as const },
      { tool: 'a_fetch', status: 'success' as const, consumes: [0] },
    ];
    const startedAt = new Date(T0 - 3_600_000).toISOString();
    expect(await again((c) => c.recordExecution({ intent: 'another run', startedAt, calls }))).toBeGreaterThan(0);
    expect(await again((c) => c.declareEdge({ from: 'e_log', to: 'c_store', type: 'dependency' }))).toBeGreaterThan(0);
  });

  it('a prefix answers within its window only, and the top it holds at most', async () => {
    const path = join(dir, 'window.db');
    const engine = await openCredence({ store: openSqliteStore({ path }), now: T0, scope: 'w', cwd: dir });
    try {
      await engine.recordExecution({
        intent: 'a run',
        startedAt: new Date(T0 - 10 * DAY - 6 * 3_600_000).toISOString(),
        calls: [
          { tool: 'x_one', status: 'success' },
          { tool: 'y_two', status: 'success', consumes: [0] },
        ],
      });
      const snapshot = await engine.graphSnapshot();
      const bytes = encodeSnapshot(snapshot);
      expect(decodeSnapshotStats(bytes, T0)).toEqual(graphStats(snapshot));
      expect(decodeSnapshotStats(bytes, T0, 1)).toEqual(graphStats(snapshot, { top: 1 }));
      expect(decodeSnapshotStats(bytes, T0, STATS_TOP + 1)).toBeUndefined();
      // The edge was last seen 10 days and 6 hours before: its 11th idle day starts 18 hours after T0.
      expect(decodeSnapshotStats(bytes, T0 + 17 * 3_600_000)).toEqual(graphStats(snapshot));
      expect(decodeSnapshotStats(bytes, T0 + 18 * 3_600_000)).toBeUndefined();
      expect(decodeSnapshotStats(bytes, T0 - 6 * 3_600_000)).toEqual(graphStats(snapshot));
      expect(decodeSnapshotStats(bytes, T0 - 6 * 3_600_000 - 1)).toBeUndefined();
    } finally {
      await engine.close();
    }
  });
});

/**
 * The snapshot a store at `name` builds from three rounds of three runs (the second starting with `second`), and the
 * same decoded from its bytes.
 */
async function snapshotOfRuns(name: string, second: string) {
  const path = join(dir, name);
  const writer = await openCredence({ store: openSqliteStore({ path }), now: T0, scope: 's', cwd: dir });
  const run = (tools: string[], at: number) =>
    writer.recordExecution({
      intent: 'a run',
      startedAt: new Date(at).toISOString(),
      calls: tools.map((tool, i) => ({ tool, status: 'success' as const, ...(i > 0 ? { consumes: [i - 1] } : {}) })),
    });
  for (let i = 0; i < 3; i += 1) {
    await run(['a_fetch', 'b_parse', 'c_store'], T0 - (i + 1) * DAY);
    await run([second, 'd_send', 'a_fetch'], T0 - (i + 2) * DAY);
    await run(['b_parse', 'd_send'], T0 - (i + 3) * DAY);
  }
  const built = await writer.graphSnapshot();
  await writer.close();
  return { built, decoded: decodeSnapshot(encodeSnapshot(built)) as GraphSnapshot };
}

describe("a decoded snapshot's confident edges from a few tools (issue 20)", () => {
  it('are those of its confident edges whose from is one of them, in their order, the same objects', async () => {
    const { built, decoded } = await snapshotOfRuns('from.db', 'c_store');
    const from = decoded.confidentFrom as (tools: ReadonlySet<string>) => SnapshotEdge[];
    // Few tools (each found by a scan of the names), then many (through a Map of every name, kept for the asks after).
    const many = new Set(['c_store', 'd_send', ...Array.from({ length: 40 }, (_, i) => `no_tool_${i}`)]);
    const asked = [new Set(['a_fetch']), new Set(['b_parse', 'd_send', 'no_such_tool']), new Set<string>(), many];
    // Asked before the confident edges are made, then after.
    const before = asked.map((tools) => from(tools));
    const all = decoded.confidentEdges;
    expect(all).toEqual(built.confidentEdges);
    expect(all.length).toBeGreaterThan(0);
    asked.forEach((tools, i) => {
      const expected = all.filter((e) => tools.has(e.from));
      expect(before[i]).toHaveLength(expected.length);
      before[i]?.forEach((e, j) => expect(e).toBe(expected[j]));
      expect(from(tools)).toEqual(expected);
    });
    expect(before[0]?.length).toBeGreaterThan(0);
  });
});

describe("a decoded snapshot's graph indexes, made when first read (issue 20)", () => {
  it('read as those it was built with: the ids and positions of both graphs, each made once', async () => {
    const { built, decoded } = await snapshotOfRuns('graphs.db', 'e_log');
    // The undirected graph first: its ids lie after the directed graph's in the bytes.
    for (const g of ['undirected', 'directed'] as const) {
      const index = decoded[g];
      expect(built[g].ids.length).toBeGreaterThan(0);
      expect(index.indexOf).toBe(index.indexOf);
      expect([...index.indexOf]).toEqual([...built[g].indexOf]);
      expect(index.ids).toBe(index.ids);
      expect(index.ids).toEqual(built[g].ids);
      expect(Object.isFrozen(index.ids)).toBe(true);
    }
  });
});
