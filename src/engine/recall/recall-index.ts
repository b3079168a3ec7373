/**
 * @module engine/recall/recall-index
 * The full recall index: every memory, observation and past run of a scope, with embeddings
 * (computed once and stored). The engine builds it once per process; the hooks rank BM25 hits
 * without it (recall.ts), so that a prompt hook never loads it.
 */
import { readFileInsideRoot } from '../../platform/files.js';
import { learnedFileText as readableLearnedText } from '../../core/learning/learned-text.js';
import { scrubText } from '../../core/security/scrub.js';
import type { EmbeddingProvider } from '../../embed/index.js';
import { buildVectorSource, type VectorPart } from '../search/search-index.js';
import type {
  EmbeddingStore,
  ExecutionStore,
  MemoryRecord,
  MemoryStore,
  ObservationStore,
  StoreMeta,
} from '../../store/types.js';
import {
  executionItem,
  itemText,
  memoryItem,
  observationItem,
  type RecallIndex,
  type RecallKind,
  type Recallable,
} from './recall.js';

/** Gathers everything recall can return in a scope and embeds what is missing or stale. */
export async function buildRecallIndex(
  store: ExecutionStore & MemoryStore & ObservationStore & EmbeddingStore & StoreMeta,
  scope: string,
  embedder: EmbeddingProvider,
  root?: string,
): Promise<RecallIndex & { items: Map<string, Recallable> }> {
  const [stored, observations, executions] = await Promise.all([
    store.listMemories(scope),
    store.listObservations(scope),
    store.listExecutions(scope),
  ]);
  // An instinct's or skill's file may hold hand edits: recall reads it, inside the project root only.
  const memories = stored.map((m) => ({ ...m, text: learnedFileText(root, m) ?? m.text }));
  const items: Recallable[] = [
    ...memories.map(memoryItem),
    ...observations.map(observationItem),
    ...executions.map(executionItem),
  ];
  const part = (kinds: readonly RecallKind[], stored: 'memory' | 'observation' | 'execution'): VectorPart => ({
    kind: stored,
    // A run is embedded by its intent alone, the text tool search embeds for it: one stored vector
    // serves both, where two texts under one row overwrote each other at every index build.
    items: items
      .filter((i) => kinds.includes(i.kind))
      .map((i) => ({ key: i.key, id: i.id, text: i.kind === 'execution' ? i.title : itemText(i) })),
  });
  const vectors = await buildVectorSource(store, scope, embedder, [
    part(['memory', 'instinct', 'skill'], 'memory'),
    part(['observation'], 'observation'),
    part(['execution'], 'execution'),
  ]);
  return { items: new Map(items.map((i) => [i.key, i])), vectors };
}

/**
 * The current text of an instinct's or skill's file, read inside `root` only; undefined (the stored
 * text is used) for other memories, a missing file, or a path that leads outside the root.
 */
function learnedFileText(root: string | undefined, m: MemoryRecord): string | undefined {
  if (root === undefined || m.path === undefined || (m.category !== 'instinct' && m.category !== 'skill'))
    return undefined;
  try {
    return readableLearnedText(scrubText(readFileInsideRoot(root, m.path)).text);
  } catch {
    return undefined;
  }
}
