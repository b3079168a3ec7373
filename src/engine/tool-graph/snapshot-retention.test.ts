import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, describe, expect, it } from 'vitest';
import { openCredence, type Credence } from '../engine.js';
import { openSqliteStore } from '../../store/sqlite/sqlite-store.js';

// A full collection on demand, so that what nothing holds any more is seen to be gone.
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

const NOW = '2026-02-02T09:00:00Z';
const TOOLS = ['fetch', 'parse', 'store', 'notify', 'search', 'rank'];
const dir = mkdtempSync(join(tmpdir(), 'credence-retention-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Snapshots a gateway's engine builds after each recorded call: weak references, the engine's own kept apart. */
async function patchedAfterCalls(credence: Credence, calls: number, read: 'both' | 'directed' | 'none') {
  const refs: WeakRef<object>[] = [];
  for (let i = 0; i < calls; i += 1) {
    const tool = TOOLS[i % TOOLS.length] as string;
    await credence.appendCalls({ id: 'gateway-session', intent: 'a gateway session', startedAt: NOW }, [
      { tool, status: 'success', at: NOW },
    ]);
    const snapshot = await credence.graphSnapshot();
    // A query reads THE graph's indexes, or some of them, or none (a recall).
    if (read !== 'none') expect(snapshot.directed.ids.length).toBeGreaterThan(0);
    if (read === 'both') expect(snapshot.undirected.ids.length).toBeGreaterThan(0);
    refs.push(new WeakRef(snapshot));
  }
  // A weak reference holds its target until the current job ends.
  await new Promise((resolve) => setImmediate(resolve));
  collect();
  collect();
  return refs.slice(0, -1).filter((r) => r.deref() !== undefined).length;
}

describe('graph snapshots patched after writes (issue 20)', () => {
  it('keep no earlier snapshot alive: built here, or patched from the one kept in the store', async () => {
    const path = join(dir, 'gateway.db');
    const first = await openCredence({ store: openSqliteStore({ path }), now: NOW, scope: 'g', cwd: dir });
    try {
      await first.addTools(TOOLS.map((id) => ({ id, description: `the ${id} tool` })));
      for (let run = 0; run < 6; run += 1)
        await first.recordExecution({
          intent: `run ${run}`,
          startedAt: NOW,
          calls: TOOLS.slice(0, 4).map((tool, i) => ({
            tool,
            status: 'success' as const,
            at: NOW,
            ...(i > 0 ? { consumes: [i - 1] } : {}),
          })),
        });
      expect((await first.graphSnapshot()).confidentEdges.length).toBeGreaterThan(0);
      // Snapshots built from every edge, then patched call after call.
      expect(await patchedAfterCalls(first, 12, 'both')).toBe(0);
      expect(await patchedAfterCalls(first, 12, 'none')).toBe(0);
    } finally {
      await first.close();
    }
    // A new process patches the snapshot kept in the store, whose indexes are built when first read (or never).
    for (const read of ['none', 'directed', 'both'] as const) {
      const next = await openCredence({ store: openSqliteStore({ path }), now: NOW, scope: 'g', cwd: dir });
      try {
        expect(await patchedAfterCalls(next, 12, read)).toBe(0);
      } finally {
        await next.close();
      }
    }
  });
});
