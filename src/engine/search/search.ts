/**
 * @module engine/search/search
 * Hybrid tool search (SPEC §4) and DAG suggestion from an intent (SPEC §5) over a SearchIndex.
 * Gathers each candidate's signals here; the scoring and the DAG rules are in core/.
 */
import { dagConfidence, pathStrength } from '../../core/dag/dag-confidence.js';
import { CredenceError } from '../../core/errors.js';
import { outcomeConfidence, OUTCOME_DEFAULTS } from '../../core/runs/outcome-confidence.js';
import { buildDag, type DagBuildOptions, type DagCandidate, type DagLink } from '../../core/dag/dag-build.js';
import { ftsOrQuery } from '../../core/text/fts-query.js';
import { heatDiffusion } from '../../core/graph/heat-diffusion.js';
import { relatednessAll } from '../../core/graph/graph-paths.js';
import { intentParts } from '../../core/dag/intent-parts.js';
import {
  rankTools,
  type SearchOptions,
  type ToolSearchResult,
  type ToolSignals,
} from '../../core/search/tool-search.js';
import { queryTermShare } from '../../core/text/term-weights.js';
import { contentWords, maskFileNames } from '../../core/text/words.js';
import type { EmbeddingProvider } from '../../embed/index.js';
import type { SearchIndex } from './search-index.js';
import type { EmbeddingStore, ExecutionStore, StoreMeta, ToolGraphStore } from '../../store/types.js';

export interface SearchContext {
  store: ToolGraphStore & ExecutionStore & EmbeddingStore & StoreMeta;
  scope: string;
  embedder: EmbeddingProvider;
  index: SearchIndex;
}

/** Calls below which a tool is in cold start (SPEC §4). */
const COLD_START_CALLS = 5;

export interface ToolSearchRequest extends SearchOptions {
  /** Tools already used in this session or already in the DAG being built. */
  context?: readonly string[];
  /** @default 10 */
  limit?: number;
  /** How many candidates each of BM25 and embeddings contributes. @default 50 */
  candidates?: number;
}

/** Ranks the catalogue for `query`: each result `{tool, score, semantic, graph, alpha, alphaRule, parts}`. */
export async function searchTools(
  ctx: SearchContext,
  query: string,
  request: ToolSearchRequest = {},
): Promise<ToolSearchResult[]> {
  const { index } = ctx;
  const k = request.candidates ?? 50;
  const context = (request.context ?? []).filter((t) => t.trim() !== '');
  const unknown = context.filter((t) => !index.toolIds.has(t));
  if (unknown.length > 0) {
    throw new CredenceError(
      'INVALID_INPUT',
      `unknown context tool${unknown.length > 1 ? 's' : ''} ${unknown.map((t) => JSON.stringify(t)).join(', ')}: context tools must be in the catalogue of the scope`,
    );
  }
  const text = maskFileNames(query);
  const match = ftsOrQuery(contentWords(text).join(' '));
  const [queryVector] = await ctx.embedder.embed([text]);
  const bm25 = new Map(
    (match === undefined ? [] : await ctx.store.searchTools(ctx.scope, match, { limit: k })).map((h) => [h.id, h.bm25]),
  );

  // The graph speaks only when the context holds an established tool (≥ 5 recorded calls, the
  // cold-start line of SPEC §4): relatedness from tools the graph barely knows pulled the scores of
  // well-matched tools down (eval/: Seal-Tools step-wise Recall@5 0.739 → 0.747 with the gate).
  const established = context.filter((t) => (index.calls.get(t) ?? 0) >= COLD_START_CALLS);
  let related: Map<string, number> | undefined;
  let heat: Map<string, number> | undefined;
  if (established.length > 0) {
    related = new Map();
    heat = new Map();
    const r = relatednessAll(index.directed, established);
    const h = heatDiffusion(index.undirected, established);
    index.directed.ids.forEach((id, i) => {
      if ((r[i] ?? 0) > 0) related?.set(id, r[i] as number);
    });
    index.undirected.ids.forEach((id, i) => heat?.set(id, h[i] ?? 0));
  }
  const similarity = await index.toolVectors.scan(queryVector, k, [...bm25.keys(), ...(related?.keys() ?? [])]);
  const pool = new Set<string>([...bm25.keys(), ...similarity.top, ...(related?.keys() ?? [])]);
  // Tools already in use are not suggested again.
  for (const t of context) pool.delete(t);
  const signals: ToolSignals[] = [...pool]
    .filter((id) => index.toolIds.has(id))
    .map((tool) => {
      const observations = index.calls.get(tool) ?? 0;
      return {
        tool,
        ...(bm25.has(tool) ? { bm25: bm25.get(tool) as number } : {}),
        similarity: similarity.of(tool),
        ...(related === undefined ? {} : { relatedness: related.get(tool) ?? 0 }),
        centrality: index.maxPageRank > 0 ? (index.pageRank.get(tool) ?? 0) / index.maxPageRank : 0,
        heat: heat === undefined ? (observations >= 5 ? index.selfSpread(tool) : 0) : (heat.get(tool) ?? 0),
        observations,
        ...(index.deprecated.has(tool) ? { deprecated: true } : {}),
      };
    });
  // Without context the graph can only speak through centrality, and that ranked worse than meaning
  // alone (eval/: warm Seal-Tools R@1 0.255 vs 0.419): the graph is used with an established context.
  const graphRule =
    request.semanticOnly !== undefined && request.semanticOnly !== false
      ? request.semanticOnly
      : context.length === 0
        ? 'no-context'
        : established.length === 0
          ? 'cold-context'
          : false;
  const ranked = rankTools(signals, { ...request, semanticOnly: graphRule });
  // A tool that matches neither by words nor by meaning is no match at all.
  return ranked.filter((r) => r.parts.bm25 !== null || r.parts.similarity > 0).slice(0, request.limit ?? 10);
}

export interface MemoryMatch {
  execution: string;
  intent: string;
  similarity: number;
  /** How well the run went: its confidence, or its calls' mean outcome confidence relative to a success. */
  quality: number;
  tools: string[];
}

/**
 * How well a past run went, in [0, 1]: its own confidence when it has one (a workflow run's), else
 * the mean outcome confidence of its calls (seed 002) relative to a clean success (0.7).
 */
function runQuality(e: {
  confidence?: number;
  calls: readonly { status: 'success' | 'failure' | 'partial'; retries: number }[];
}): number {
  if (e.confidence !== undefined) return e.confidence;
  if (e.calls.length === 0) return 0;
  const mean =
    e.calls.reduce((s, c) => s + outcomeConfidence({ status: c.status, retries: c.retries }).value, 0) / e.calls.length;
  return Math.min(1, mean / OUTCOME_DEFAULTS.success);
}

/**
 * The intent memory: past executions whose intents resemble `text`, best first (SPEC §5). The
 * similarity is absolute, not relative to the best hit: the mean of the embedding cosine and of the
 * share of the query's words the intent holds, so the floor (0.3) means the same for every query.
 */
export async function similarExecutions(
  ctx: SearchContext,
  text: string,
  options: { limit?: number; floor?: number } = {},
): Promise<MemoryMatch[]> {
  const { index } = ctx;
  if (index.executions.length === 0) return [];
  const match = ftsOrQuery(contentWords(text).join(' '));
  const lexical = (match === undefined ? [] : await ctx.store.searchExecutions(ctx.scope, match, { limit: 50 })).map(
    (h) => h.id,
  );
  const [qv] = await ctx.embedder.embed([text]);
  const cos = await index.executionVectors.scan(qv, 50, lexical);
  const queryWords = [...new Set(contentWords(text))];
  const byId = new Map(index.executions.map((e) => [e.id, e]));
  const scored = [...new Set([...lexical, ...cos.top])]
    .map((id) => byId.get(id))
    .filter((e): e is NonNullable<typeof e> => e !== undefined)
    .map((e) => ({ e, sim: 0.5 * Math.max(0, cos.of(e.id)) + 0.5 * queryTermShare(queryWords, e.intent) }));
  const top = scored.sort((a, b) => b.sim - a.sim || (a.e.id < b.e.id ? -1 : 1)).slice(0, options.limit ?? 3);
  const best = top[0]?.sim ?? 0;
  return top
    .filter((s) => s.sim >= (options.floor ?? 0.3) && s.sim >= 0.8 * best)
    .map(({ e, sim }) => ({
      execution: e.id,
      intent: e.intent,
      similarity: sim,
      quality: runQuality(e),
      tools: [...new Set(e.calls.map((c) => c.tool))],
    }));
}

/** Weight of the intent memory's evidence added to a searched candidate's score. */
const MEMORY_BOOST = 0.2;

/** How many parts of an intent are searched separately. */
const MAX_PARTS = 4;

export interface DagRequest {
  /** Use the hybrid tool search. @default true */
  useSearch?: boolean;
  /** Use the intent memory. @default true */
  useMemory?: boolean;
  /** Tools already in use, passed to the search as context. */
  context?: readonly string[];
  /** Scoring options for the tool search (e.g. the BM25 weight). */
  search?: SearchOptions;
  /** Selection options for the DAG (keep ratio, tie threshold, size). */
  build?: DagBuildOptions;
  /** Intent memory: how many similar runs at most, and the similarity floor. @default { limit: 3, floor: 0.3 } */
  memory?: { limit?: number; floor?: number };
}

export interface DagSuggestion {
  mode: 'suggestion' | 'explicit_required';
  intent: string;
  confidence: number;
  warning?: string;
  dag: { tasks: { id: string; tool: string; dependsOn: string[] }[] };
  /** Why each tool is in the DAG, and which source proposed it. */
  /**
   * Why each tool is in the DAG; `score` = min(1, search + memoryBoost), or the memory's score alone without search.
   */
  rationale: {
    tool: string;
    score: number;
    search: number | null;
    memoryBoost: number;
    sources: string[];
    why: string;
  }[];
  /** The edges that order the DAG. */
  paths: DagLink[];
  alternatives: { tool: string; score: number; for?: string; why: string }[];
  weights: { hybrid: number; pageRank: number; path: number };
  density: number;
  tier: string;
  parts: {
    hybrid: number;
    pageRank: number;
    pathStrength: number;
    hybridPart: number;
    pageRankPart: number;
    pathPart: number;
  };
  intentParts: string[];
}

/** Suggests a workflow DAG for an intent (SPEC §5); never nothing when a candidate exists. */
export async function suggestDag(ctx: SearchContext, intent: string, request: DagRequest = {}): Promise<DagSuggestion> {
  const { index } = ctx;
  const parts = intentParts(intent);
  const candidates: DagCandidate[] = [];
  const memoryWhy = new Map<string, string>();
  /** Each tool's best search score and memory boost, so its DAG score can be rebuilt from the result. */
  const scoreParts = new Map<string, { search: number | null; memoryBoost: number }>();
  const noteParts = (tool: string, search: number | null, memoryBoost: number): void => {
    const seen = scoreParts.get(tool);
    if (seen === undefined || (search ?? 0) + memoryBoost > (seen.search ?? 0) + seen.memoryBoost)
      scoreParts.set(tool, { search, memoryBoost });
  };
  // A long request is searched in at most MAX_PARTS pieces: the rest joins the last one.
  const searchTexts =
    parts.length <= 1
      ? [intent]
      : parts.length <= MAX_PARTS
        ? parts
        : [...parts.slice(0, MAX_PARTS - 1), parts.slice(MAX_PARTS - 1).join(' ')];
  // Intent memory: with the tool search, it boosts the candidates that similar past runs used
  // (+ MEMORY_BOOST × similarity × share of calls that ran); alone, it proposes their tools. Adding
  // every tool of the nearest runs as a candidate of its own added wrong tools at high scores where
  // few workflows recur (eval/: Seal-Tools warm node F1 0.342 → 0.646 with the boost rule).
  for (const [part, text] of searchTexts.entries()) {
    const searched =
      request.useSearch === false
        ? []
        : await searchTools(ctx, text, {
            limit: 10,
            ...request.search,
            ...(request.context === undefined ? {} : { context: request.context }),
          });
    const memories = request.useMemory === false ? [] : await similarExecutions(ctx, text, request.memory);
    const memoryScore = new Map<string, number>();
    for (const m of memories) {
      for (const tool of m.tools) {
        memoryScore.set(tool, Math.max(memoryScore.get(tool) ?? 0, m.similarity * m.quality));
        if (!memoryWhy.has(tool))
          memoryWhy.set(
            tool,
            `used by a past run "${m.intent}" (similarity ${m.similarity.toFixed(2)}, outcome ${m.quality.toFixed(2)})`,
          );
      }
    }
    if (request.useSearch === false) {
      for (const [tool, score] of memoryScore) {
        candidates.push({ tool, part, score, sources: ['memory'] });
        noteParts(tool, null, score);
      }
      continue;
    }
    for (const r of searched) {
      const boost = memoryScore.get(r.tool);
      noteParts(r.tool, r.score, boost === undefined ? 0 : Math.min(1 - r.score, MEMORY_BOOST * boost));
      candidates.push(
        boost === undefined
          ? { tool: r.tool, part, score: r.score, sources: ['search'] }
          : { tool: r.tool, part, score: Math.min(1, r.score + MEMORY_BOOST * boost), sources: ['search', 'memory'] },
      );
    }
  }
  const built = buildDag(candidates, index.confidentEdges, request.build);
  const tools = built.chosen.map((c) => c.tool);
  const dependencyConfidences = built.links
    .filter((l) => l.type === 'dependency' && l.confidence !== null)
    .map((l) => l.confidence as number);
  const hybrid = tools.length === 0 ? 0 : built.chosen.reduce((s, c) => s + c.score, 0) / tools.length;
  const pageRank = tools.length === 0 ? 0 : tools.reduce((s, t) => s + (index.pageRank.get(t) ?? 0), 0) / tools.length;
  const scored = dagConfidence({
    hybrid: Math.min(1, hybrid),
    pageRank,
    pathStrength: pathStrength(dependencyConfidences),
    density: index.density,
  });
  const explicitRequired = built.tasks.length === 0;
  const rationale = built.chosen.map((c) => {
    const reasons: string[] = [];
    if (c.sources.includes('search')) reasons.push(`matched by tool search`);
    if (c.sources.includes('memory')) reasons.push(memoryWhy.get(c.tool) ?? 'used by a similar past run');
    if (c.reason === 'tied') reasons.push('tied to a chosen tool by a learned edge');
    const sp = scoreParts.get(c.tool) ?? { search: null, memoryBoost: 0 };
    return {
      tool: c.tool,
      score: c.score,
      search: sp.search,
      memoryBoost: sp.memoryBoost,
      sources: c.sources,
      why: `${reasons.join('; ')}${parts.length > 1 ? ` (part ${c.part + 1}: "${searchTexts[c.part]}")` : ''}`,
    };
  });
  const chosenSet = new Set(tools);
  const learnedAlternatives = index.confidentEdges
    .filter((e) => e.type === 'alternative' && chosenSet.has(e.from) && !chosenSet.has(e.to))
    .map((e) => ({
      tool: e.to,
      score: e.confidence,
      for: e.from,
      why: `learned alternative to ${e.from} (${e.source}, seen ${e.count})`,
    }))
    .sort(
      (a, b) =>
        b.score - a.score ||
        (a.for < b.for ? -1 : a.for > b.for ? 1 : 0) ||
        (a.tool < b.tool ? -1 : a.tool > b.tool ? 1 : 0),
    );
  const alternatives = [
    ...learnedAlternatives,
    ...built.leftOut.slice(0, 5).map((l) => ({ tool: l.tool, score: l.score, why: 'a candidate below the cut' })),
  ];
  return {
    mode: explicitRequired ? 'explicit_required' : 'suggestion',
    intent,
    confidence: explicitRequired ? 0 : scored.value,
    ...(explicitRequired || scored.warning === undefined ? {} : { warning: scored.warning }),
    dag: { tasks: built.tasks },
    rationale,
    paths: built.links,
    alternatives,
    weights: { hybrid: scored.weights.hybrid, pageRank: scored.weights.pageRank, path: scored.weights.path },
    density: index.density,
    tier: scored.tier,
    parts: scored.parts,
    intentParts: searchTexts,
  };
}
