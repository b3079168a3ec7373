/**
 * @module engine/search/search-index
 * Everything tool search and DAG suggestion read for a scope, gathered once and kept until this
 * engine writes again: the catalogue with its embeddings and the scope's graph snapshot
 * (graph-snapshot: the confident graph, PageRank, heat, call counts and density). Stale embeddings (another
 * provider or model, or an edited description) are re-embedded when the index is built.
 */
import { createHash } from 'node:crypto';
import {
  matrixSource,
  scanSimilar,
  similarityOf,
  storeSource,
  toMatrix,
  type SimilarityScan,
  type VectorMatrix,
  type VectorSource,
} from './vectors.js';

export { scanSimilar, similarityOf, toMatrix, type SimilarityScan, type VectorMatrix, type VectorSource };
import { isStoreBusy, SIDE_WRITE_WAIT_MS } from '../../core/errors.js';
import { taskText } from '../../core/experience/task-text.js';
import { isDeprecated } from '../../core/search/tool-search.js';
import { embeddingKey, resolveEmbeddingKey, type EmbeddingProvider } from '../../embed/index.js';
import type {
  EmbeddingKind,
  EmbeddingStore,
  ExecutionRecord,
  ExecutionStore,
  StoreMeta,
  ToolGraphStore,
  ToolRecord,
} from '../../store/types.js';
import type { GraphSnapshot } from '../tool-graph/graph-snapshot.js';

/** Row-major vectors with their ids, for a fast scan of every similarity. */

/** The parts of the scope's {@link GraphSnapshot} search ranks with (the same objects, not copies). */
type SnapshotParts = Pick<
  GraphSnapshot,
  | 'tools'
  | 'confidentEdges'
  | 'confidentFrom'
  | 'directed'
  | 'undirected'
  | 'pageRank'
  | 'maxPageRank'
  | 'calls'
  | 'tier'
  | 'selfSpread'
>;

/** What search, DAG suggestion and the memory of past runs work over: the store, the scope and its index. */
export interface SearchContext {
  store: ToolGraphStore & ExecutionStore & EmbeddingStore & StoreMeta;
  scope: string;
  embedder: EmbeddingProvider;
  index: SearchIndex;
  /** The engine's clock: when a fit kept in the store was made. */
  now: () => number;
}

export interface SearchIndex extends SnapshotParts {
  toolIds: ReadonlySet<string>;
  /** Tools whose description says they are deprecated. */
  deprecated: ReadonlySet<string>;
  toolVectors: VectorSource;
  /**
   * Every run of the scope, where the index built the runs' vectors itself; past runs are otherwise kept from the
   * change log and read by id (engine/search/past-runs, issue 20), so a rebuilt index lists no run.
   */
  executions?: ExecutionRecord[];
  executionVectors: VectorSource;
  /** The snapshot's density, as a number. */
  density: number;
}

const textHash = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 16);

export const toolText = (tool: ToolRecord): string => `${tool.id}\n${tool.description}`;

/**
 * Embeds what is missing or stale for `kind` and stores it. Returns every vector by id, or with
 * `vectors: false` (the store ranks them) reads only the stored stamps and returns the new ones. With `only`,
 * reads the stored embeddings of `items` alone (a delta), not the kind's whole table.
 */
export async function ensureEmbeddings(
  store: EmbeddingStore,
  scope: string,
  embedder: EmbeddingProvider,
  kind: EmbeddingKind,
  items: readonly { id: string; text: string }[],
  options: { vectors?: boolean; only?: boolean } = {},
): Promise<Map<string, Float32Array>> {
  const withVectors = options.vectors ?? true;
  const read =
    options.only === true
      ? await store.getEmbeddingsFor(
          scope,
          kind,
          items.map((i) => i.id),
        )
      : withVectors
        ? await store.getEmbeddings(scope, kind)
        : await store.getEmbeddingStamps(scope, kind);
  const stored = new Map<string, { modelKey: string; textHash: string; vector?: Float32Array }>(
    read.map((e) => [e.refId, e]),
  );
  const vectors = new Map<string, Float32Array>();
  const missing: { id: string; text: string; hash: string }[] = [];
  // A remote provider learns its dimension on its first call: probe only when something is stored to compare with.
  const key = stored.size === 0 && embedder.dimension === undefined ? undefined : await resolveEmbeddingKey(embedder);
  for (const item of items) {
    const hash = textHash(item.text);
    const have = stored.get(item.id);
    if (have !== undefined && key !== undefined && have.modelKey === key && have.textHash === hash) {
      if (have.vector !== undefined) vectors.set(item.id, have.vector);
    } else missing.push({ ...item, hash });
  }
  for (let i = 0; i < missing.length; i += 512) {
    const chunk = missing.slice(i, i + 512);
    const embedded = await embedder.embed(chunk.map((m) => m.text));
    const modelKey = embeddingKey(embedder);
    const rows = chunk.map((m, j) => ({
      refId: m.id,
      modelKey,
      textHash: m.hash,
      vector: embedded[j] as Float32Array,
    }));
    // Kept for next time: another process writing leaves them unkept (embedded again next time), not the read failed.
    await store.putEmbeddings(scope, kind, rows, { busyWaitMs: SIDE_WRITE_WAIT_MS }).catch((error: unknown) => {
      if (!isStoreBusy(error) || !withVectors) throw error;
    });
    chunk.forEach((m, j) => vectors.set(m.id, embedded[j] as Float32Array));
  }
  return vectors;
}

/** Items of one stored kind for a vector source: `key` is what the caller ranks, `id` the stored row. */
export interface VectorPart {
  kind: EmbeddingKind;
  items: readonly { key: string; id: string; text: string }[];
}

/**
 * Embeds what is missing or stale, then gives the source search and recall rank against: the
 * vectors in memory in the parts' order, or (a store that ranks vectors itself, pgvector) the store,
 * which is then never read whole.
 */
export async function buildVectorSource(
  store: EmbeddingStore & StoreMeta,
  scope: string,
  embedder: EmbeddingProvider,
  parts: readonly VectorPart[],
): Promise<VectorSource> {
  const inStore = store.vectorRanking !== 'node' && store.nearestEmbeddings !== undefined;
  const order: string[] = [];
  const all = new Map<string, Float32Array>();
  for (const part of parts) {
    const vectors = await ensureEmbeddings(store, scope, embedder, part.kind, part.items, { vectors: !inStore });
    for (const item of part.items) {
      order.push(item.key);
      const v = vectors.get(item.id);
      if (v !== undefined) all.set(item.key, v);
    }
  }
  if (!inStore) return matrixSource(toMatrix(order, all));
  const keys = new Map(parts.flatMap((p) => p.items.map((i) => [i.key, { kind: p.kind, refId: i.id }] as const)));
  return storeSource({ store, scope, modelKey: keys.size === 0 ? '' : await resolveEmbeddingKey(embedder), keys });
}

/**
 * The ids and the deprecated ids of a catalogue, per list (or a decoded snapshot's `catalogue`): a snapshot keeps its
 * list while no tool changes.
 */
const catalogues = new WeakMap<object, Pick<SearchIndex, 'toolIds' | 'deprecated'>>();

/**
 * The catalogue's and the executions' vectors over the scope's {@link GraphSnapshot}: search ranks with the graph
 * status and the dashboard show.
 */
export async function buildSearchIndex(input: {
  store: ToolGraphStore & ExecutionStore & EmbeddingStore & StoreMeta;
  scope: string;
  embedder: EmbeddingProvider;
  graph: GraphSnapshot;
  /**
   * The tools' and runs' vectors, kept by the caller (the engine's persistent indexes, engine/index): else built
   * here from every tool and run.
   */
  vectors?: { tools: VectorSource; executions: VectorSource };
}): Promise<SearchIndex> {
  const { store, scope, embedder, graph } = input;
  const executions = input.vectors === undefined ? await store.listExecutions(scope) : undefined;
  const toolVectors =
    input.vectors?.tools ??
    (await buildVectorSource(store, scope, embedder, [
      { kind: 'tool', items: graph.tools.map((t) => ({ key: t.id, id: t.id, text: toolText(t) })) },
    ]));
  const executionVectors =
    input.vectors?.executions ??
    (await buildVectorSource(store, scope, embedder, [
      {
        kind: 'execution',
        items: (executions ?? []).map((e) => ({ key: e.id, id: e.id, text: taskText(e.intent) })),
      },
    ]));
  // A decoded snapshot knows its catalogue's ids without parsing the catalogue (read when first asked).
  const known = graph.catalogue;
  let catalogue = catalogues.get(known ?? graph.tools);
  if (catalogue === undefined && known !== undefined) {
    catalogue = { toolIds: new Set(known.ids), deprecated: new Set(known.deprecated) };
    catalogues.set(known, catalogue);
  }
  if (catalogue === undefined) {
    const { tools } = graph;
    catalogue = {
      toolIds: new Set(tools.map((t) => t.id)),
      deprecated: new Set(tools.filter((t) => isDeprecated(t.description)).map((t) => t.id)),
    };
    catalogues.set(tools, catalogue);
  }
  // THE graph's indexes as the snapshot gives them: built when first read (a search without context reads neither).
  return Object.defineProperties(
    {
      ...catalogue,
      toolVectors,
      ...(executions === undefined ? {} : { executions }),
      executionVectors,
      pageRank: graph.pageRank,
      maxPageRank: graph.maxPageRank,
      calls: graph.calls,
      tier: graph.tier,
      selfSpread: graph.selfSpread,
      density: graph.density.density,
    },
    {
      tools: { get: () => graph.tools, enumerable: true },
      // Made when first read from a decoded snapshot (a tool search reads none; a DAG those from its tools).
      confidentEdges: { get: () => graph.confidentEdges, enumerable: true },
      confidentFrom: { get: () => graph.confidentFrom, enumerable: true },
      directed: { get: () => graph.directed, enumerable: true },
      undirected: { get: () => graph.undirected, enumerable: true },
    },
  ) as SearchIndex;
}
