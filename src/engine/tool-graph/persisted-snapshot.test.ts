import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Credence, openCredence } from '../engine.js';
import { openSqliteStore } from '../../store/sqlite/sqlite-store.js';
import type { GraphSnapshot } from './graph-snapshot.js';
import { readPersistedStats } from './persisted-snapshot.js';
import { decodeSnapshotStats, encodeSnapshot, STATS_PREFIX_BYTES, statsPrefixEnd } from './snapshot-codec.js';

const T0 = Date.parse('2026-03-10T12:00:00Z');

/** A snapshot's bytes over tools named `name(i)`, each run a chain of four. */
async function snapshotBytes(name: (i: number) => string): Promise<Uint8Array> {
  const engine = await openCredence({ store: openSqliteStore({ path: ':memory:' }), now: T0, scope: 's', cwd: '/' });
  try {
    for (let r = 0; r < 24; r += 1) {
      await engine.recordExecution({
        intent: `run ${r}`,
        startedAt: new Date(T0 - 3_600_000).toISOString(),
        calls: [0, 1, 2, 3].map((k) => ({
          tool: name((r + k) % 12),
          status: 'success' as const,
          ...(k > 0 ? { consumes: [k - 1] } : {}),
        })),
      });
    }
    return encodeSnapshot(await engine.graphSnapshot());
  } finally {
    await engine.close();
  }
}

/** A store keeping `bytes` at revision 7, which records the lengths asked of each read. */
function keeping(bytes: Uint8Array) {
  const asked: (number | undefined)[] = [];
  return {
    asked,
    store: {
      async readGraphSnapshot(_scope: string, options: { bytes?: number } = {}) {
        asked.push(options.bytes);
        return { revision: 7, data: options.bytes === undefined ? bytes : bytes.subarray(0, options.bytes) };
      },
    },
  };
}

describe("status's graph statistics read from the front of the kept snapshot (issue 20)", () => {
  it('reads the front alone when the statistics fit in it', async () => {
    const bytes = await snapshotBytes((i) => `tool_${i}`);
    expect(statsPrefixEnd(bytes)).toBeLessThan(STATS_PREFIX_BYTES);
    const { store, asked } = keeping(bytes);
    expect(await readPersistedStats(store, 's', 7, T0)).toEqual(decodeSnapshotStats(bytes, T0));
    expect(asked).toEqual([STATS_PREFIX_BYTES]);
  });

  it('reads the whole snapshot when its statistics run past the front (long names, each letter 3 bytes)', async () => {
    const bytes = await snapshotBytes((i) => `${'ツ'.repeat(250)}_${i}`);
    expect(statsPrefixEnd(bytes)).toBeGreaterThan(STATS_PREFIX_BYTES);
    const { store, asked } = keeping(bytes);
    const stats = await readPersistedStats(store, 's', 7, T0);
    expect(stats).toEqual(decodeSnapshotStats(bytes, T0));
    expect(stats?.central).toHaveLength(5);
    expect(asked).toEqual([STATS_PREFIX_BYTES, undefined]);
    // A front cut inside the statistics decodes to nothing rather than to what follows them in memory.
    expect(decodeSnapshotStats(bytes.subarray(0, STATS_PREFIX_BYTES), T0)).toBeUndefined();
  });
});

describe('a new process over the kept snapshot, nothing written since (issue 20)', () => {
  const DAY = 86_400_000;
  const TOOLS = ['a_fetch', 'b_parse', 'c_store', 'd_send', 'e_log'];
  const held = (g: GraphSnapshot) => ({
    now: g.now,
    tools: g.tools,
    edges: g.edges,
    confidentEdges: g.confidentEdges,
    directed: g.directed,
    undirected: g.undirected,
    pageRank: [...g.pageRank.entries()],
    maxPageRank: g.maxPageRank,
    calls: [...g.calls.entries()].sort(),
    density: g.density,
    tier: g.tier,
    spread: TOOLS.map((t) => g.selfSpread(t)),
  });

  it('answers as a snapshot built from every edge, at its instant, hours on and days on, reading no tool', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'credence-kept-snapshot-'));
    const path = join(dir, 'kept.db');
    try {
      const writer = await openCredence({ store: openSqliteStore({ path }), now: T0, scope: 's', cwd: dir });
      await writer.addTools([{ id: 'z_old', description: 'Deprecated: use a_fetch instead' }]);
      const run = (tools: string[], at: number) =>
        writer.recordExecution({
          intent: 'a run',
          startedAt: new Date(at).toISOString(),
          calls: tools.map((tool, i) => ({
            tool,
            status: 'success' as const,
            ...(i > 0 ? { consumes: [i - 1] } : {}),
          })),
        });
      for (const at of [T0 - 70 * DAY - 5 * 3_600_000, T0 - 2 * 3_600_000]) await run(TOOLS.slice(0, 3), at);
      await run(['c_store', 'd_send', 'e_log'], T0 - 40 * DAY - 9 * 3_600_000);
      await run(['a_fetch', 'd_send', 'e_log'], T0 - 3_600_000);
      await writer.graphSnapshot();
      await writer.close();

      const open = async (at: number, kept: boolean) => {
        const store = openSqliteStore({ path });
        if (!kept) Object.assign(store, { readGraphSnapshot: undefined, writeGraphSnapshot: undefined });
        const reads = { tools: 0, edges: 0 };
        const getToolsByIds = store.getToolsByIds.bind(store);
        const listEdges = store.listEdges.bind(store);
        store.getToolsByIds = (...args: Parameters<typeof getToolsByIds>) => {
          reads.tools += 1;
          return getToolsByIds(...args);
        };
        store.listEdges = (...args: Parameters<typeof listEdges>) => {
          reads.edges += 1;
          return listEdges(...args);
        };
        return { engine: await openCredence({ store, now: at, scope: 's', cwd: dir }), reads };
      };
      let asKept = 0;
      for (const at of [T0, T0 + 3_600_000, T0 + 20 * 3_600_000, T0 + 3 * DAY, T0 - 3_600_000]) {
        const kept = await open(at, true);
        const fresh = await open(at, false);
        try {
          const search = (c: Credence) => c.searchTools('fetch then parse', { track: false, limit: 5 });
          expect(await search(kept.engine)).toEqual(await search(fresh.engine));
          const dag = (c: Credence) => c.suggestDag('fetch the data and store it', { track: false });
          expect(await dag(kept.engine)).toEqual(await dag(fresh.engine));
          expect(held(await kept.engine.graphSnapshot())).toEqual(held(await fresh.engine.graphSnapshot()));
          if (kept.reads.tools === 0 && kept.reads.edges === 0) asKept += 1;
        } finally {
          await Promise.all([kept.engine.close(), fresh.engine.close()]);
        }
      }
      // At its instant and an hour on (no edge's idle days move), the kept snapshot serves as it is.
      expect(asKept).toBeGreaterThanOrEqual(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
