/**
 * @module engine/tool-graph/persisted-snapshot
 * The scope's graph snapshot kept in the store (issue 20, migration 12): read by a process that has none yet, to be
 * patched from the change log since its revision; written after a build from every edge and once enough tools were
 * patched since the stored one. A store without the table, a read-only store or a blob of another version is the
 * same as none: the snapshot is then built from every edge as before.
 */
import { SIDE_WRITE_WAIT_MS } from '../../core/errors.js';
import type { GraphSnapshotStore, RevisionStore } from '../../store/types.js';
import type { GraphSnapshot, GraphStats } from './graph-snapshot.js';
import {
  decodeSnapshot,
  decodeSnapshotStats,
  encodeSnapshot,
  STATS_PREFIX_BYTES,
  statsPrefixEnd,
} from './snapshot-codec.js';

/** Tools patched since the stored snapshot after which a process stores its own (fewer to patch for the next). */
export const PERSIST_AFTER_TOOLS = 200;

/** The stored snapshot of `scope` and the revision it reflects, if there is one this code reads. */
export async function readPersistedSnapshot(
  store: object,
  scope: string,
): Promise<{ snapshot: GraphSnapshot; revision: number } | undefined> {
  const read = (store as Partial<GraphSnapshotStore>).readGraphSnapshot;
  if (read === undefined) return undefined;
  try {
    const stored = await read.call(store, scope);
    const snapshot = stored === undefined ? undefined : decodeSnapshot(stored.data);
    return stored === undefined || snapshot === undefined ? undefined : { snapshot, revision: stored.revision };
  } catch {
    return undefined;
  }
}

/**
 * The statistics `status` shows, from the stored snapshot's prefix alone, when no edge's confidence moved by `now` and
 * the graph is as it was at the stored revision: `revision` is that one, or nothing written since moved a tool (which
 * every recorded call does) and the scope holds as many edges (a declared one adds one), as a patch would find it;
 * undefined otherwise (the snapshot is then built or patched).
 */
export async function readPersistedStats(
  store: object,
  scope: string,
  revision: number,
  now: number,
  top?: number,
): Promise<GraphStats | undefined> {
  const read = (store as Partial<GraphSnapshotStore>).readGraphSnapshot;
  if (read === undefined) return undefined;
  try {
    // The front alone, unless the prefix runs past it (issue 20: the whole blob is 4.4 MB at 100k).
    let stored = await read.call(store, scope, { bytes: STATS_PREFIX_BYTES });
    if (stored !== undefined && (statsPrefixEnd(stored.data) ?? 0) > stored.data.byteLength)
      stored = await read.call(store, scope);
    if (stored === undefined || stored.revision > revision) return undefined;
    const stats = decodeSnapshotStats(stored.data, now, top);
    if (stats === undefined || stored.revision === revision) return stats;
    const log = store as Partial<Pick<RevisionStore, 'changedSince' | 'countEdges'>>;
    if (log.changedSince === undefined || log.countEdges === undefined) return undefined;
    const since = await log.changedSince.call(store, scope, 'tool', stored.revision);
    if (since.changed.length > 0 || since.removed.length > 0) return undefined;
    return (await log.countEdges.call(store, scope)) === stats.edges ? stats : undefined;
  } catch {
    return undefined;
  }
}

/** Stores `snapshot` at `revision` (unless a later one is stored); whether it was written. Never throws. */
export async function persistSnapshot(
  store: object,
  scope: string,
  revision: number,
  snapshot: GraphSnapshot,
): Promise<boolean> {
  const write = (store as Partial<GraphSnapshotStore>).writeGraphSnapshot;
  if (write === undefined) return false;
  try {
    // A short wait: another process writing keeps a read waiting no longer (the snapshot is kept next time).
    return await write.call(store, scope, revision, encodeSnapshot(snapshot), { busyWaitMs: SIDE_WRITE_WAIT_MS });
  } catch {
    // A read-only store (a hook's connection) keeps no snapshot: the next process builds its own.
    return false;
  }
}
