/**
 * An edge whose lastSeen was written back to an older time (a restore-style `putEdge`, as the demo did when run again
 * at an earlier --now): the graph snapshot kept in the process and in the store must read it again, so `status`,
 * `edges` and a dump/restore copy give the same confident pairs at the same instant; and a run recorded at an
 * earlier time than the last never moves an edge's lastSeen back.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { freshPgliteStore, startPglite, type PgliteServer } from '../../../test/pglite.js';
import type { EdgeView } from './tool-graph.js';
import type { GraphStats } from './graph-snapshot.js';
import { engineStore, openCredence, type Credence } from '../engine.js';
import { openSqliteStore } from '../../store/sqlite/sqlite-store.js';
import type { Store } from '../../store/types.js';

const DAY = 86_400_000;
const T2 = Date.parse('2026-11-26T12:00:00Z');
const T1 = Date.parse('2026-02-01T09:00:00Z');
const NOW = T2 + DAY;

const servers: PgliteServer[] = [];
afterAll(async () => {
  for (const server of servers.splice(0)) await server.stop();
});

/** Two tools run one into the other at `at`, then a third. */
const run = (at: number) => ({
  intent: 'read the config and parse it',
  startedAt: new Date(at).toISOString(),
  calls: [
    { tool: 'read_file', status: 'success' as const },
    { tool: 'parse_json', status: 'success' as const, consumes: [0] },
    { tool: 'validate', status: 'success' as const, consumes: [1] },
  ],
});

/** |E| as `status` counts it, from the edges `credence edges` lists: distinct confident (from, to), no self-loop. */
const pairsOf = (edges: readonly EdgeView[]): number =>
  new Set(edges.filter((e) => e.confidence >= 0.3 && e.from !== e.to).map((e) => `${e.from}\u0000${e.to}`)).size;

/** What `status` and `dag` print of the graph; PageRank to 6 places (a patched snapshot's is warm-started). */
const counted = (stats: GraphStats) => ({
  ...stats,
  central: stats.central.map((c) => ({ ...c, pageRank: Number(c.pageRank.toFixed(6)) })),
});

async function restored(from: Credence, now: () => number): Promise<Credence> {
  const lines: string[] = [];
  await from.dump((text) => {
    lines.push(...text.split('\n').filter((l) => l !== ''));
  });
  const copy = await openCredence({ store: openSqliteStore({ path: ':memory:' }), scope: 'p', now, cwd: '/' });
  await copy.restore(async function* () {
    yield* lines;
  });
  return copy;
}

describe.each([
  ['SQLite', async (): Promise<Store> => openSqliteStore({ path: ':memory:' })],
  [
    'PostgreSQL on PGlite',
    async (): Promise<Store> => {
      const server = await startPglite();
      servers.push(server);
      return freshPgliteStore(server);
    },
  ],
])('an edge written back in time, %s', (_name, create) => {
  it('a run at t2 then one at t1 < t2: lastSeen stays at t2', async () => {
    let clock = T2;
    const credence = await openCredence({ store: await create(), scope: 'p', now: () => clock, cwd: '/' });
    try {
      await credence.recordExecution(run(T2));
      clock = T1;
      await credence.recordExecution(run(T1));
      const [edge] = await credence.edges({ from: 'read_file', to: 'parse_json' });
      expect(edge).toMatchObject({ count: 2, firstSeen: new Date(T1).toISOString() });
      expect(edge?.lastSeen).toBe(new Date(T2).toISOString());
    } finally {
      await credence.close();
    }
  });

  it('status, edges and a dump/restore copy count the same confident pairs once lastSeen moved back', async () => {
    const store = await create();
    const now = () => NOW;
    const credence = await openCredence({ store, scope: 'p', now, cwd: '/' });
    let copy: Credence | undefined;
    let later: Credence | undefined;
    try {
      for (let i = 3; i >= 1; i -= 1) await credence.recordExecution(run(T2 - i * 3_600_000));
      const before = await credence.graphStats();
      expect(before.confidentPairs).toBe(pairsOf(await credence.edges()));
      expect(before.confidentPairs).toBe(2);
      // The pair's edges (dependency, sequence) rewritten with a lastSeen ten months back: under 0.3 both.
      const pair = await engineStore(credence).listEdges('p', { from: 'read_file', to: 'parse_json' });
      expect(pair.map((e) => e.type).sort()).toEqual(['dependency', 'sequence']);
      for (const e of pair) await engineStore(credence).putEdge('p', { ...e, firstSeen: T1, lastSeen: T1 });
      const edges = await credence.edges();
      expect(pairsOf(edges)).toBe(1);
      const live = await credence.graphStats();
      expect(live.confidentPairs).toBe(1);
      const confident = (await credence.graphSnapshot()).confidentEdges;
      expect([...new Set(confident.map((e) => `${e.from}>${e.to}`))]).toEqual(['parse_json>validate']);
      // A new process over the same store (the snapshot kept there, patched from the change log) and a copy.
      later = await openCredence({ store, scope: 'p', now, cwd: '/' });
      expect(counted(await later.graphStats())).toEqual(counted(live));
      copy = await restored(credence, now);
      expect(counted(await copy.graphStats())).toEqual(counted(live));
      // And back up again: the rewrite to the later time is read as well.
      for (const e of pair) await engineStore(credence).putEdge('p', e);
      expect((await credence.graphStats()).confidentPairs).toBe(2);
    } finally {
      await copy?.close();
      if (later !== undefined) await later.close().catch(() => {});
      await credence.close().catch(() => {});
    }
  });
});
