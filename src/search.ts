/**
 * @module search
 * Hybrid tool search (SPEC §4) and DAG suggestion from an intent (SPEC §5) over a SearchIndex.
 * Gathers each candidate's signals here; the scoring and the DAG rules are in core/.
 */
import { dagConfidence, pathStrength } from './core/dag-confidence.js';
import { buildDag, type DagBuildOptions, type DagCandidate, type DagLink } from './core/dag-build.js';
import { ftsOrQuery } from './core/fts-query.js';
import { heatDiffusion } from './core/heat-diffusion.js';
import { relatednessAll } from './core/graph-paths.js';
import { intentParts } from './core/intent-parts.js';
import { rankTools, semanticScore, type SearchOptions, type ToolSearchResult, type ToolSignals } from './core/tool-search.js';
import { contentWords } from './core/words.js';
import type { EmbeddingProvider } from './embed/index.js';
import { scanSimilar, type SearchIndex } from './search-index.js';
import type { Store } from './store/types.js';

export interface SearchContext {
  store: Store;
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
export async function searchTools(ctx: SearchContext, query: string, request: ToolSearchRequest = {}): Promise<ToolSearchResult[]> {
  const { index } = ctx;
  const k = request.candidates ?? 50;
  const context = (request.context ?? []).filter((t) => t.trim() !== '');
  const match = ftsOrQuery(contentWords(query).join(' '));
  const [queryVector] = await ctx.embedder.embed([query]);
  const bm25 = new Map((match === undefined ? [] : await ctx.store.searchTools(ctx.scope, match, { limit: k })).map((h) => [h.id, h.bm25]));
  const similarity = scanSimilar(index.toolVectors, queryVector, k);
  const top = similarity.top;
  const pool = new Set<string>([...bm25.keys(), ...top]);

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
    for (const id of related.keys()) pool.add(id);
  }
  // Tools already in use are not suggested again.
  for (const t of context) pool.delete(t);
  const known = new Set(index.tools.map((t) => t.id));
  const signals: ToolSignals[] = [...pool]
    .filter((id) => known.has(id))
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
      };
    });
  const ranked = rankTools(signals, context.length > 0 && established.length === 0 ? { ...request, semanticOnly: true } : request);
  return ranked.slice(0, request.limit ?? 10);
}

export interface MemoryMatch {
  execution: string;
  intent: string;
  similarity: number;
  /** Share of its calls that ran (success or partial). */
  quality: number;
  tools: string[];
}

/** The intent memory: past executions whose intents resemble `text`, best first (SPEC §5). */
export async function similarExecutions(ctx: SearchContext, text: string, options: { limit?: number; floor?: number } = {}): Promise<MemoryMatch[]> {
  const { index } = ctx;
  if (index.executions.length === 0) return [];
  const match = ftsOrQuery(contentWords(text).join(' '));
  const bm25 = new Map((match === undefined ? [] : await ctx.store.searchExecutions(ctx.scope, match, { limit: 50 })).map((h) => [h.id, h.bm25]));
  const bestBm25 = Math.max(0, ...[...bm25.values()].map(Math.abs));
  const [qv] = await ctx.embedder.embed([text]);
  const cos = scanSimilar(index.executionVectors, qv, 50);
  const nearest = cos.top;
  const byId = new Map(index.executions.map((e) => [e.id, e]));
  const scored = [...new Set([...bm25.keys(), ...nearest])]
    .map((id) => byId.get(id))
    .filter((e): e is NonNullable<typeof e> => e !== undefined)
    .map((e) => ({ e, sim: semanticScore({ ...(bm25.has(e.id) ? { bm25: bm25.get(e.id) as number } : {}), bestBm25, similarity: cos.of(e.id) }) }));
  const top = scored.sort((a, b) => b.sim - a.sim || (a.e.id < b.e.id ? -1 : 1)).slice(0, options.limit ?? 3);
  const best = top[0]?.sim ?? 0;
  return top
    .filter((s) => s.sim >= (options.floor ?? 0.3) && s.sim >= 0.8 * best)
    .map(({ e, sim }) => ({
      execution: e.id,
      intent: e.intent,
      similarity: sim,
      quality: e.calls.length === 0 ? 0 : e.calls.filter((c) => c.status !== 'failure').length / e.calls.length,
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
  rationale: { tool: string; score: number; sources: string[]; why: string }[];
  /** The edges that order the DAG. */
  paths: DagLink[];
  alternatives: { tool: string; score: number; for?: string; why: string }[];
  weights: { hybrid: number; pageRank: number; path: number };
  density: number;
  tier: string;
  parts: { hybrid: number; pageRank: number; pathStrength: number; hybridPart: number; pageRankPart: number; pathPart: number };
  intentParts: string[];
}

/** Suggests a workflow DAG for an intent (SPEC §5); never nothing when a candidate exists. */
export async function suggestDag(ctx: SearchContext, intent: string, request: DagRequest = {}): Promise<DagSuggestion> {
  const { index } = ctx;
  const parts = intentParts(intent);
  const candidates: DagCandidate[] = [];
  const memoryWhy = new Map<string, string>();
  // A long request is searched in at most MAX_PARTS pieces: the rest joins the last one.
  const searchTexts = parts.length <= 1 ? [intent] : parts.length <= MAX_PARTS ? parts : [...parts.slice(0, MAX_PARTS - 1), parts.slice(MAX_PARTS - 1).join(' ')];
  // Intent memory: with the tool search, it boosts the candidates that similar past runs used
  // (+ MEMORY_BOOST × similarity × share of calls that ran); alone, it proposes their tools. Adding
  // every tool of the nearest runs as a candidate of its own added wrong tools at high scores where
  // few workflows recur (eval/: Seal-Tools warm node F1 0.342 → 0.646 with the boost rule).
  for (const [part, text] of searchTexts.entries()) {
    const searched = request.useSearch === false ? [] : await searchTools(ctx, text, { limit: 10, ...request.search, ...(request.context === undefined ? {} : { context: request.context }) });
    const memories = request.useMemory === false ? [] : await similarExecutions(ctx, text, request.memory);
    const memoryScore = new Map<string, number>();
    for (const m of memories) {
      for (const tool of m.tools) {
        memoryScore.set(tool, Math.max(memoryScore.get(tool) ?? 0, m.similarity * m.quality));
        if (!memoryWhy.has(tool)) memoryWhy.set(tool, `used by a past run "${m.intent}" (similarity ${m.similarity.toFixed(2)}, ${Math.round(m.quality * 100)}% of calls ran)`);
      }
    }
    if (request.useSearch === false) {
      for (const [tool, score] of memoryScore) candidates.push({ tool, part, score, sources: ['memory'] });
      continue;
    }
    for (const r of searched) {
      const boost = memoryScore.get(r.tool);
      candidates.push(
        boost === undefined
          ? { tool: r.tool, part, score: r.score, sources: ['search'] }
          : { tool: r.tool, part, score: Math.min(1, r.score + MEMORY_BOOST * boost), sources: ['search', 'memory'] },
      );
    }
  }
  const built = buildDag(candidates, index.confidentEdges, request.build);
  const tools = built.chosen.map((c) => c.tool);
  const dependencyConfidences = built.links.filter((l) => l.type === 'dependency' && l.confidence !== null).map((l) => l.confidence as number);
  const hybrid = tools.length === 0 ? 0 : built.chosen.reduce((s, c) => s + c.score, 0) / tools.length;
  const pageRank = tools.length === 0 ? 0 : tools.reduce((s, t) => s + (index.pageRank.get(t) ?? 0), 0) / tools.length;
  const scored = dagConfidence({ hybrid: Math.min(1, hybrid), pageRank, pathStrength: pathStrength(dependencyConfidences), density: index.density });
  const explicitRequired = built.tasks.length === 0;
  const rationale = built.chosen.map((c) => {
    const reasons: string[] = [];
    if (c.sources.includes('search')) reasons.push(`matched by tool search`);
    if (c.sources.includes('memory')) reasons.push(memoryWhy.get(c.tool) ?? 'used by a similar past run');
    if (c.reason === 'tied') reasons.push('tied to a chosen tool by a learned edge');
    return { tool: c.tool, score: c.score, sources: c.sources, why: `${reasons.join('; ')}${parts.length > 1 ? ` (part ${c.part + 1}: "${searchTexts[c.part]}")` : ''}` };
  });
  const chosenSet = new Set(tools);
  const learnedAlternatives = index.confidentEdges
    .filter((e) => e.type === 'alternative' && chosenSet.has(e.from) && !chosenSet.has(e.to))
    .map((e) => ({ tool: e.to, score: e.confidence, for: e.from, why: `learned alternative to ${e.from} (${e.source}, seen ${e.count})` }));
  const alternatives = [...learnedAlternatives, ...built.leftOut.slice(0, 5).map((l) => ({ tool: l.tool, score: l.score, why: 'a candidate below the cut' }))];
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
