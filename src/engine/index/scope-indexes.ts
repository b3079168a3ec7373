/**
 * @module engine/index/scope-indexes
 * The persistent vector indexes of one scope (issue 20), as the engine keeps them: recall's memories, observations
 * and runs (embedded by their intent), and tool search's tools and runs (embedded by their task text). Each is
 * brought up to date before a query: one revision read when nothing changed, the delta otherwise, whichever
 * process wrote it.
 */
import { taskText } from '../../core/experience/task-text.js';
import type { EmbeddingProvider } from '../../embed/index.js';
import type {
  ExecutionStore,
  LearningStore,
  MemoryStore,
  ObservationStore,
  ToolGraphStore,
} from '../../store/types.js';
import {
  executionItem,
  itemText,
  memoryItem,
  observationItem,
  recallKey,
  withLearnedText,
  type Recallable,
} from '../recall/recall.js';
import { toolText } from '../search/search-index.js';
import type { VectorSource } from '../search/vectors.js';
import { combinedSource, liveSource, VectorIndex, type IndexItem, type IndexStore } from './vector-index.js';

export type ScopeIndexStore = IndexStore &
  MemoryStore &
  ObservationStore &
  ExecutionStore &
  ToolGraphStore &
  LearningStore;

/** The next turn of the event loop (after the I/O waiting: a request that arrived is read first). */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

const recallItem = (i: Recallable): IndexItem => ({
  key: i.key,
  id: i.id,
  // A run is embedded by its intent alone (its title).
  text: i.kind === 'execution' ? i.title : itemText(i),
});

export class ScopeIndexes {
  readonly #store: ScopeIndexStore;
  readonly #scope: string;
  readonly memory: VectorIndex;
  readonly observation: VectorIndex;
  readonly execution: VectorIndex;
  readonly tool: VectorIndex;
  readonly task: VectorIndex;

  constructor(input: {
    store: ScopeIndexStore;
    scope: string;
    embedder: EmbeddingProvider;
    root?: string;
    /** Rows per persisted chunk of a matrix written anew. @default CHUNK_ROWS */
    chunkRows?: number;
  }) {
    const { store, scope, embedder, root, chunkRows } = input;
    this.#store = store;
    this.#scope = scope;
    const index = (spec: ConstructorParameters<typeof VectorIndex>[0]['spec'], prefixed: boolean) =>
      new VectorIndex({ store, scope, embedder, spec, prefixed, ...(chunkRows === undefined ? {} : { chunkRows }) });
    this.memory = index(
      {
        name: 'recall:memory',
        kind: 'memory',
        all: async () => (await store.listMemories(scope)).map((m) => recallItem(memoryItem(withLearnedText(root, m)))),
        byIds: async (ids) =>
          (await store.getMemoriesByIds(scope, ids)).map((m) => recallItem(memoryItem(withLearnedText(root, m)))),
        // An instinct's or skill's memory has the id of its record; its file may hold hand edits.
        recheck: async () =>
          root === undefined
            ? []
            : [...(await store.listInstincts(scope)), ...(await store.listSkills(scope))].map((r) => r.id),
      },
      true,
    );
    this.observation = index(
      {
        name: 'recall:observation',
        kind: 'observation',
        all: async () => (await store.listObservations(scope)).map((o) => recallItem(observationItem(o))),
        byIds: async (ids) => (await store.getObservationsByIds(scope, ids)).map((o) => recallItem(observationItem(o))),
      },
      true,
    );
    this.execution = index(
      {
        name: 'recall:execution',
        kind: 'execution',
        all: async () =>
          (await store.listExecutions(scope)).map((e) => ({
            key: recallKey('execution', e.id),
            id: e.id,
            text: e.intent,
          })),
        byIds: async (ids) =>
          (await store.getExecutionsByIds(scope, ids, { calls: false })).map((e) => recallItem(executionItem(e))),
      },
      true,
    );
    this.tool = index(
      {
        name: 'search:tool',
        kind: 'tool',
        all: async () => (await store.listTools(scope)).map((t) => ({ key: t.id, id: t.id, text: toolText(t) })),
        byIds: async (ids) =>
          (await store.getToolsByIds(scope, ids)).map((t) => ({ key: t.id, id: t.id, text: toolText(t) })),
      },
      false,
    );
    this.task = index(
      {
        name: 'search:execution',
        kind: 'execution',
        all: async () =>
          (await store.listExecutions(scope)).map((e) => ({ key: e.id, id: e.id, text: taskText(e.intent) })),
        byIds: async (ids) =>
          (await store.getExecutionsByIds(scope, ids, { calls: false })).map((e) => ({
            key: e.id,
            id: e.id,
            text: taskText(e.intent),
          })),
      },
      false,
    );
  }

  /**
   * Brings `indexes` to the scope's revision: one read of it, then the delta of those behind. An index asked a second
   * time in the process settles (reads its floats, makes its key maps: a server's) after the query, not before it.
   */
  async refresh(indexes: readonly VectorIndex[]): Promise<void> {
    for (const index of indexes) index.asked();
    for (const index of indexes) await index.settled();
    const revision = await this.#store.revision(this.#scope);
    // One index after another: a store connection serves one at a time anyway, and a pool's connections
    // interleaving three builds' statements gained nothing.
    for (const index of indexes) if (index.revision !== revision) await index.refresh();
    for (const index of indexes) index.settleLater();
  }

  /**
   * Brings recall's indexes that a long-lived process keeps (loaded and asked twice: a server's) to the store's
   * revision now, after a write of memories or observations (issue 20): the new rows are embedded and their int8
   * copies made by the write, not by the query after it. A process that has not recalled twice does nothing here.
   */
  async catchUp(): Promise<void> {
    await this.#catchUp([this.memory, this.observation, this.execution]);
  }

  /**
   * Brings tool search's indexes that a long-lived process keeps (the catalogue's and the runs' task vectors) to the
   * store's revision now, after recorded calls (issue 20): the run they grew is embedded by the write.
   */
  async catchUpTools(): Promise<void> {
    await this.#catchUp([this.tool, this.task]);
  }

  async #catchUp(indexes: readonly VectorIndex[]): Promise<void> {
    const kept = indexes.filter((index) => index.kept);
    if (kept.length === 0) return;
    const revision = await this.#store.revision(this.#scope);
    for (const index of kept) if (index.revision !== revision) await index.refresh();
  }

  /**
   * Settles now every index asked twice or more (a server's warm-up), a slice at a time with a turn of the event loop
   * between slices, all at once: a request meanwhile is answered between slices and never settles one itself.
   */
  async settle(): Promise<void> {
    const indexes = [this.memory, this.observation, this.execution, this.tool, this.task];
    await Promise.all(indexes.map((index) => index.settleInSlices(nextTurn)));
  }

  /** Writes back what the indexes changed and have not written yet (`VectorIndex.flush`): before the store closes. */
  async flush(): Promise<void> {
    for (const index of [this.memory, this.observation, this.execution, this.tool, this.task]) await index.flush();
  }

  /** Recall's vectors: memories, observations and runs ranked as one, brought up to date before each use. */
  recallVectors(): VectorSource {
    const parts = [this.memory, this.observation, this.execution];
    const kinds = [['memory', 'instinct', 'skill'], ['observation'], ['execution']];
    return liveSource(
      () => this.refresh(parts),
      (() => {
        const combined = combinedSource(
          parts.map((p, i) => ({
            owns: (key: string) => (kinds[i] as string[]).includes(key.slice(0, key.indexOf(':'))),
            source: () => p.source(),
          })),
        );
        return () => combined;
      })(),
    );
  }

  /** Tool search's vectors of the catalogue. */
  toolVectors(): VectorSource {
    return liveSource(
      () => this.refresh([this.tool]),
      () => this.tool.source(),
    );
  }

  /**
   * The runs' vectors by task text (tool search, the memory of past runs): `scan(query, k)` gives the ids of the
   * `k` nearest runs and their similarity without loading any run; read them by id (`getExecutionsByIds`).
   */
  executionVectors(): VectorSource {
    return liveSource(
      () => this.refresh([this.task]),
      () => this.task.source(),
    );
  }
}
