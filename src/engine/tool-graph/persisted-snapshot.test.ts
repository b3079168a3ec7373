import { describe, expect, it } from 'vitest';
import { openCredence } from '../engine.js';
import { openSqliteStore } from '../../store/sqlite/sqlite-store.js';
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
