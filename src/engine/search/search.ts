/**
 * @module engine/search/search
 * Hybrid tool search (SPEC §4) and DAG suggestion from an intent (SPEC §5) over a SearchIndex.
 * Gathers each candidate's signals here; the scoring and the DAG rules are in core/.
 */
import { dagConfidence, pathStrength } from '../../core/dag/dag-confidence.js';
import { CredenceError } from '../../core/errors.js';
import { runQuality } from '../../core/runs/run-quality.js';
import {
  buildDag,
  type BuiltDag,
  type DagBuildOptions,
  type DagCandidate,
  type DagEdgeInput,
  type DagLink,
} from '../../core/dag/dag-build.js';
import {
  adviseFromMemory,
  calibration,
  carriedOver,
  evenSample,
  experienceEdges,
  experienceOf,
  nearestRuns,
  judgedSearches,
  MIN_CALIBRATION,
  perRuns,
  type RunsCached,
  type JudgedSearch,
  type Calibration,
  type MemoryAdvice,
  type PastRun,
  type SearchReplay,
} from './experience.js';
import type { EdgeType } from '../../core/types.js';
import { type MemoryProposal, setF1, voteNeighbours } from '../../core/experience/neighbour-vote.js';
import { taskText } from '../../core/experience/task-text.js';
import { edgeKey, loneLinks } from '../../core/experience/workflow-shape.js';
import {
  edgeEvidence,
  edgeRow,
  firstParts,
  intentHalves,
  neighbourEdgeVotes,
  toolEvidence,
  toolRow,
} from './learned-selection.js';
import {
  beyondSupport,
  fitIsotonic,
  type IsotonicFit,
  type IsotonicPoint,
  predictIsotonic,
} from '../../core/experience/isotonic.js';
import { predictLogistic, type LogisticFit } from '../../core/experience/logistic.js';
import { chooseByExpectedF1 } from '../../core/experience/expected-f1.js';
import { chooseLinks } from '../../core/experience/link-choice.js';
import { gainStands, pairedGain } from '../../core/experience/paired-gain.js';
import {
  GAIN_RESOLUTION,
  GATE_RULE,
  type GateOutcome,
  gateMemory,
  type LinkCount,
  type ReplayMeasures as GateMeasures,
  trustedWhy,
} from '../../core/experience/dag-gate.js';
import { workflowId } from '../../core/experience/workflow-shape.js';
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
import { byScoreThenRun, byScoreThenTool } from '../../core/rank-order.js';
import { queryTermShare } from '../../core/text/term-weights.js';
import { contentWords, maskFileNames } from '../../core/text/words.js';
import type { SearchContext, SearchIndex } from './search-index.js';
import type { SimilarityScan } from './vectors.js';
import type { ExecutionRecord, RevisionStore } from '../../store/types.js';

export type { SearchContext } from './search-index.js';

/** Calls below which a tool is in cold start (SPEC §4). */
const COLD_START_CALLS = 5;

export interface ToolSearchRequest extends SearchOptions {
  /** Tools already used in this session or already in the DAG being built. */
  context?: readonly string[];
  /** @default 10 */
  limit?: number;
  /** How many candidates each of BM25 and embeddings contributes. @default 50 */
  candidates?: number;
  /** Let the tools of the nearest past runs move the ranking (issue 19). @default true */
  memory?: boolean;
}

/**
 * A searched tool's score once past runs speak: `hybrid` is the search's own score (α · semantic + (1 − α) ·
 * graph); score = (1 − memory.weight) · hybrid + memory.weight · memory.vote, plus feedback.shift (at least 0).
 */
export type LearnedToolResult = ToolSearchResult & {
  hybrid?: number;
  memory?: ToolMemory;
  feedback?: { shift: number; verdicts: number };
};

/** What the nearest past runs said about a searched tool. */
export interface ToolMemory {
  /** Share of the nearest runs' weight that used the tool. */
  vote: number;
  /** The memory's share of the fused score: its expected F1 against the search's. */
  weight: number;
  /** The runs that used it. */
  runs: string[];
  /** Set when the voting runs are less alike than any the memory was measured on (core/experience beyondSupport). */
  unlike?: MemoryUnlike;
}

/**
 * Past runs less alike than any the memory's fit was measured on: their weight is an extrapolation (walk 9: twenty
 * runs of one task outvote the search's near-exact match for a task that shares one word with it). Word overlap cannot
 * tell such a task from a new wording of the learned one, so the result says so rather than deciding.
 */
export interface MemoryUnlike {
  /** The memory's strength for this request (agreement × similarity). */
  strength: number;
  /** The weakest strength the replays measured the memory on, and how many replays. */
  measuredFrom: number;
  replays: number;
  /** The search's own first tool, when the past runs' vote moved it down. */
  searchFirst?: { tool: string; score: number };
}

/** Ranks the catalogue for `query`: each result `{tool, score, semantic, graph, alpha, alphaRule, parts}`. */
export async function searchTools(
  ctx: SearchContext,
  query: string,
  request: ToolSearchRequest = {},
): Promise<LearnedToolResult[]> {
  const { index } = ctx;
  const k = request.candidates ?? 50;
  const context = (request.context ?? []).filter((t) => t.trim() !== '');
  const unknown = context.filter((t) => !index.toolIds.has(t));
  if (unknown.length > 0) {
    throw new CredenceError(
      'INVALID_INPUT',
      `unknown context tool${unknown.length > 1 ? 's' : ''} ${unknown.map((t) => JSON.stringify(t)).join(', ')}: ` +
        'context tools must be in the catalogue of the scope',
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
  const memory = request.memory === false ? undefined : await memoryVotes(ctx, query);
  const voted = memory === undefined ? [] : [...memory.votes.keys()];
  // A text of no known word has the zero vector: every tool's similarity is 0, and the tools a scan would list (the
  // first ids) match by neither words nor meaning, so none is shown (issue 20: a scan of every row, at 10k tools).
  const similarity: SimilarityScan = queryVector?.every((v) => v === 0)
    ? { of: () => 0, top: [] }
    : await index.toolVectors.scan(queryVector, k, [...bm25.keys(), ...(related?.keys() ?? []), ...voted]);
  const pool = new Set<string>([...bm25.keys(), ...similarity.top, ...(related?.keys() ?? []), ...voted]);
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
        // Without an established context heat only explains (α is not the graph's): it is read for the results.
        heat: heat === undefined ? 0 : (heat.get(tool) ?? 0),
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
  // A tool that matches neither by words nor by meaning nor by the memory is no match at all.
  const matched = ranked.filter(
    (r) => r.parts.bm25 !== null || r.parts.similarity > 0 || (memory?.votes.get(r.tool)?.vote ?? 0) > 0,
  );
  const fused = memory === undefined ? matched : fuseMemoryRanking(matched, memory);
  const verdicts = request.memory === false ? [] : await judgedSearches(ctx);
  const results = (verdicts.length === 0 ? fused : applyVerdicts(fused, verdicts, text)).slice(0, request.limit ?? 10);
  if (heat !== undefined) return results;
  // A tool's own spread (a heat diffusion each, issue 20) only for the tools shown: the same parts as for every tool.
  return results.map((r) =>
    r.parts.observations < COLD_START_CALLS ? r : { ...r, parts: { ...r.parts, heat: index.selfSpread(r.tool) } },
  );
}

/** How far one verdict on a tool, given for the same query, moves its score. */
const VERDICT_STEP = 0.2;

/**
 * Verdicts given on searched tools for similar queries move those tools: ± VERDICT_STEP × the share of this
 * query's words the judged query holds (at least half of them, else the verdict is about another task).
 */
function applyVerdicts<T extends ToolSearchResult>(
  results: readonly T[],
  verdicts: readonly JudgedSearch[],
  query: string,
): (T & { feedback?: { shift: number; verdicts: number } })[] {
  const words = [...new Set(contentWords(query))];
  const shift = new Map<string, { shift: number; verdicts: number }>();
  for (const v of verdicts) {
    const share = queryTermShare(words, v.query);
    if (share < 0.5) continue;
    const seen = shift.get(v.tool) ?? { shift: 0, verdicts: 0 };
    shift.set(v.tool, {
      shift: seen.shift + (v.accepted ? 1 : -1) * VERDICT_STEP * share,
      verdicts: seen.verdicts + 1,
    });
  }
  if (shift.size === 0) return [...results];
  return results
    .map((r) => {
      const s = shift.get(r.tool);
      return s === undefined
        ? r
        : { ...r, hybrid: 'hybrid' in r ? r.hybrid : r.score, score: Math.max(0, r.score + s.shift), feedback: s };
    })
    .sort(byScoreThenTool);
}

/** The nearest past runs' votes for tools, and the memory's weight against the search. */
async function memoryVotes(ctx: SearchContext, text: string): Promise<VotingMemory | undefined> {
  if (experienceOf(ctx.index).size === 0) return undefined;
  const proposal = voteNeighbours(await nearestRuns(ctx, text));
  if (proposal.votes.length === 0) return undefined;
  const fit = await calibration(ctx, replaySearchDag(ctx, {}));
  const expected = predictIsotonic(fit.memory, proposal.strength);
  const searchExpected = fit.search.n < MIN_CALIBRATION ? SEARCH_PRIOR : fit.search.mean;
  return {
    votes: new Map(proposal.votes.map((v) => [v.tool, { vote: v.vote, runs: [...v.support] }])),
    weight: expected / (expected + searchExpected || 1),
    ...optionalUnlike(unlikeOf(fit.memory, proposal.strength)),
  };
}

interface VotingMemory {
  votes: Map<string, { vote: number; runs: string[] }>;
  weight: number;
  unlike?: MemoryUnlike;
}

/** Search score and memory vote weighed by the memory's weight; best first, ties by name. */
function fuseMemoryRanking(
  results: readonly ToolSearchResult[],
  memory: VotingMemory,
): (ToolSearchResult & { hybrid: number; memory: ToolMemory })[] {
  const fused = results
    .map((r) => {
      const m = memory.votes.get(r.tool) ?? { vote: 0, runs: [] };
      return {
        ...r,
        hybrid: r.score,
        score: (1 - memory.weight) * r.score + memory.weight * m.vote,
        memory: { vote: m.vote, weight: memory.weight, runs: m.runs },
      };
    })
    .sort(byScoreThenTool);
  if (memory.unlike === undefined) return fused;
  // The search's own first (results come ranked by the search), named when the vote moved it down.
  const first = results[0];
  const unlike: MemoryUnlike =
    first === undefined || fused[0]?.tool === first.tool
      ? memory.unlike
      : { ...memory.unlike, searchFirst: { tool: first.tool, score: first.score } };
  return fused.map((r) => ({ ...r, memory: { ...r.memory, unlike } }));
}

export interface MemoryMatch {
  execution: string;
  intent: string;
  similarity: number;
  /** How well the run went (core/runs/run-quality): its confidence, or its calls' mean worth (a failed call 0). */
  quality: number;
  tools: string[];
  /** The id of the learned workflow the run's shape belongs to (issue 19). */
  workflow?: string;
}

/** A past run's tools in the order called: read for the few candidates that tie on all else (see below). */
const byPastRun = byScoreThenRun<{ e: ExecutionRecord; sim: number }>(
  (s) => s.sim,
  (s) => s.e,
  (s) => s.e.calls.map((c) => c.tool),
);

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
  const match = ftsOrQuery(contentWords(text).join(' '));
  const lexical = (match === undefined ? [] : await ctx.store.searchExecutions(ctx.scope, match, { limit: 50 })).map(
    (h) => h.id,
  );
  const [qv] = await ctx.embedder.embed([taskText(text)]);
  const cos = await index.executionVectors.scan(qv, 50, lexical);
  const queryWords = [...new Set(contentWords(text))];
  // The candidates only, read by id (issue 20): their intents to score, then the calls of the few kept.
  const read = (ids: readonly string[], calls: boolean) => executionsByIds(ctx, ids, calls);
  const scored = (await read([...new Set([...lexical, ...cos.top])], false)).map((e) => ({
    e,
    sim: 0.5 * Math.max(0, cos.of(e.id)) + 0.5 * queryTermShare(queryWords, e.intent),
  }));
  const limit = options.limit ?? 3;
  // A tie by the run's start, intent, then tools before its id, which is random (core/rank-order). The candidates
  // were read without their calls: those tied on all else with one of the first `limit` are read with them.
  let ranked = scored.sort(byPastRun);
  const head = ranked.slice(0, limit);
  const tied = ranked.filter((s) =>
    head.some((t) => t !== s && t.sim === s.sim && t.e.startedAt === s.e.startedAt && t.e.intent === s.e.intent),
  );
  if (tied.length > 0) {
    const withCalls = new Map(
      (
        await read(
          tied.map((s) => s.e.id),
          true,
        )
      ).map((e) => [e.id, e]),
    );
    ranked = ranked.map((s) => ({ ...s, e: withCalls.get(s.e.id) ?? s.e })).sort(byPastRun);
  }
  const top = ranked
    .slice(0, limit)
    .filter((s, _, all) => s.sim >= (options.floor ?? 0.3) && s.sim >= 0.8 * (all[0]?.sim ?? 0));
  const full = new Map(
    (
      await read(
        top.map((s) => s.e.id),
        true,
      )
    ).map((e) => [e.id, e]),
  );
  return top.map(({ e: head, sim }) => {
    const e = full.get(head.id) ?? head;
    return {
      execution: e.id,
      intent: e.intent,
      similarity: sim,
      quality: runQuality(e),
      tools: [...new Set(e.calls.map((c) => c.tool))],
    };
  });
}

/** Executions of the scope by id, with or without their calls (the index's own list where the store cannot). */
async function executionsByIds(ctx: SearchContext, ids: readonly string[], calls: boolean): Promise<ExecutionRecord[]> {
  const read = (ctx.store as Partial<Pick<RevisionStore, 'getExecutionsByIds'>>).getExecutionsByIds;
  if (read !== undefined) return read.call(ctx.store, ctx.scope, ids, { calls });
  const byId = new Map((ctx.index.executions ?? []).map((e) => [e.id, e]));
  return ids.map((id) => byId.get(id)).filter((e): e is ExecutionRecord => e !== undefined);
}

/**
 * The past runs whose tools raise searched candidates: the nearest (at most `limit`, default 3) with a
 * similarity of at least `floor` (0.3) and 0.8 × the best one's. `leaveOut` skips one run (a replay).
 */
async function boostingRuns(
  ctx: SearchContext,
  text: string,
  options: { limit?: number; floor?: number } = {},
  leaveOut?: number,
): Promise<MemoryMatch[]> {
  const near = await nearestRuns(ctx, text, {
    k: options.limit ?? 3,
    ...(leaveOut === undefined ? {} : { skip: leaveOut }),
  });
  const best = near[0]?.similarity ?? 0;
  return near
    .filter((n) => n.similarity >= (options.floor ?? 0.3) && n.similarity >= 0.8 * best)
    .map((n) => ({
      execution: n.id,
      intent: n.intent,
      similarity: n.similarity,
      quality: n.quality,
      tools: [...n.shape.tools],
      workflow: workflowId(n.shape.key),
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
  /** Raise searched candidates that similar past runs used (+0.2 × similarity × outcome). @default true */
  memoryBoost?: boolean;
  /** Let the nearest past runs propose a workflow of their own (issue 19). @default true */
  memoryProposal?: boolean;
  /**
   * How the search's and the memory's candidates are chosen from once the scope has enough replays:
   * `evidence` (each tool's and link's probability from its features, fitted on the replays), `fusion`
   * (the memory's whole proposal weighed against the search-built DAG), `per-intent` (the one of the two
   * expecting the higher node F1 for this intent) or `search` (the memory left out, the learned graph kept).
   * Default: the way that matched the scope's replayed runs best, if it beat `search` there by more than one
   * standard error, else `search` ({@link bestSelection}; the result's `way` says which and why).
   */
  selection?: DagSelection;
  /** How likely a search-built DAG is taken to be right against the memory's. @default SEARCH_PRIOR */
  searchPrior?: number;
}

export interface DagSuggestion {
  mode: 'suggestion' | 'explicit_required';
  intent: string;
  /**
   * With `explicit_required` only: why no tool could be suggested (an empty catalogue, or none matching) and what
   * to do instead. The confidence is then 0 and so is every part.
   */
  explicitRequiredBecause?: string;
  /**
   * How likely the DAG is right: with enough past runs, the scope's own calibration (memory-backed: how often
   * such neighbours were right; search-built: how often a search DAG with this seed confidence was); else the
   * seed formula's value.
   */
  confidence: number;
  /** The seed formula's confidence (ADR-026 weights, `parts`), always given. */
  seedConfidence?: number;
  /**
   * What `confidence` is: `seed` the seed formula; measured on the scope's replayed past runs, `evidence` the
   * expected F1 of the tools kept by their probabilities, `memory` how often such nearest runs' proposals
   * matched, `search` how often a search-built DAG of this seed confidence matched.
   */
  confidenceBasis?: DagConfidenceBasis;
  /** How many past runs were replayed to measure it. */
  replays?: number;
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
  /**
   * What the nearest past runs proposed and how far it was followed: `expected` is how often such a proposal
   * matched the run (the confidence of a memory-backed suggestion), `weight` its share of the vote.
   */
  memory?: DagMemory;
  /**
   * How a default request chose its way on the scope's replayed runs, and whether the memory was left out
   * because it did not beat the DAG without it by more than its noise (issue 19's rule: never worse for learning).
   */
  way?: DagWay;
}

export type DagConfidenceBasis = 'seed' | 'evidence' | 'memory' | 'search';

export interface DagMemory {
  backed: boolean;
  expected: number;
  weight: number;
  strength: number;
  agreement: number;
  calibratedOn: number;
  tools: { tool: string; vote: number }[];
  neighbours: { run: string; intent: string; similarity: number; quality: number }[];
  /** Set when the nearest runs are less alike than any the memory was measured on (core/experience beyondSupport). */
  unlike?: MemoryUnlike;
}

function memorySummary(advice: MemoryAdvice, weight: number, backed: boolean): DagMemory {
  const p = advice.proposal;
  return {
    backed,
    expected: advice.expected,
    weight,
    strength: p.strength,
    agreement: p.agreement,
    calibratedOn: advice.calibratedOn,
    tools: p.tools.map((t) => ({ tool: t.tool, vote: t.vote })),
    neighbours: p.neighbours.map((n) => ({
      run: n.id,
      intent: n.intent,
      similarity: n.similarity,
      quality: n.quality,
    })),
  };
}

/** How likely a search-built DAG is taken to be right before the scope's own replays say (too few of them). */
export const SEARCH_PRIOR = 0.5;

/** The seed's DAG confidence (ADR-026) of a built DAG. */
function seedScore(built: BuiltDag, index: SearchIndex) {
  const tools = built.chosen.map((c) => c.tool);
  const dependencyConfidences = built.links
    .filter((l) => l.type === 'dependency' && l.confidence !== null)
    .map((l) => l.confidence as number);
  const hybrid = tools.length === 0 ? 0 : built.chosen.reduce((s, c) => s + c.score, 0) / tools.length;
  const pageRank = tools.length === 0 ? 0 : tools.reduce((s, t) => s + (index.pageRank.get(t) ?? 0), 0) / tools.length;
  return dagConfidence({
    hybrid: Math.min(1, hybrid),
    pageRank,
    pathStrength: pathStrength(dependencyConfidences),
    density: index.density,
  });
}

interface Fused {
  built: BuiltDag;
  /** The memory's share of the vote, expected / (expected + the search's prior); 1 without search. */
  weight: number;
  /** Each tool's fused vote. */
  votes: Map<string, number>;
}

/**
 * The search-built DAG and the memory's proposal voted together: a tool's vote is weight × its memory vote +
 * (1 − weight) × (1 when the search chose it), where weight = the memory's expected F1 against the search's
 * prior; tools with at least half the vote are kept, ordered by the memory's edges, then the learned graph's.
 * The search's tools for a part of the intent no past run is near (`uncovered`) are kept whatever the weight.
 * Undefined when the vote keeps exactly the search's tools.
 */
function fuseWithMemory(
  searchBuilt: BuiltDag,
  advice: MemoryAdvice,
  searchExpected: number,
  request: DagRequest,
  graphEdges: (tools: ReadonlySet<string>) => readonly DagEdgeInput[],
  learnedEdges: (tools: readonly string[]) => DagEdgeInput[],
  uncovered: ReadonlyMap<string, 'after' | 'before'> = new Map(),
): Fused | undefined {
  const searched = new Set(request.useSearch === false ? [] : searchBuilt.chosen.map((c) => c.tool));
  const prior = request.searchPrior ?? searchExpected;
  const weight = searched.size === 0 ? 1 : advice.expected / (advice.expected + prior || 1);
  // The memory's vote for a tool, as a share of a majority: its proposed tools count whole.
  const memoryVote = new Map(advice.proposal.votes.map((v) => [v.tool, v.vote]));
  for (const t of advice.proposal.tools) memoryVote.set(t.tool, 1);
  const votes = new Map<string, number>();
  for (const tool of new Set([...searched, ...memoryVote.keys()]))
    votes.set(
      tool,
      uncovered.has(tool) ? 1 : weight * (memoryVote.get(tool) ?? 0) + (1 - weight) * (searched.has(tool) ? 1 : 0),
    );
  const top = Math.max(0, ...votes.values());
  // At least the best-voted tools: a vote split between the two never leaves the DAG empty.
  const kept = [...votes].filter(([, v]) => v >= Math.min(0.5, top) - 1e-12);
  if (kept.length === searched.size && kept.every(([t]) => searched.has(t))) return undefined;
  const fromMemory = new Set(advice.proposal.tools.map((t) => t.tool));
  const memoryEdges = advice.proposal.edges.map((e) => ({
    from: e.from,
    to: e.to,
    type: 'dependency' as const,
    confidence: e.vote,
    inOrder: e.inOrder,
  }));
  // An uncovered part's tools join the memory's workflow at its end (or start), as the intent orders them.
  const sinks = [...fromMemory].filter((t) => !advice.proposal.edges.some((e) => e.from === t));
  const sources = [...fromMemory].filter((t) => !advice.proposal.edges.some((e) => e.to === t));
  const joins: DagEdgeInput[] = [...uncovered].flatMap(([tool, side]) =>
    fromMemory.has(tool)
      ? []
      : side === 'after'
        ? sinks.map((from) => ({ from, to: tool, type: 'sequence' as const, confidence: 0.5 }))
        : sources.map((to) => ({ from: tool, to, type: 'sequence' as const, confidence: 0.5 })),
  );
  const keptTools = new Set(kept.map(([t]) => t));
  const built = buildDag(
    kept.map(([tool, v]) => ({
      tool,
      part: 0,
      score: v,
      sources: [
        ...(searched.has(tool) ? ['search' as const] : []),
        ...(memoryVote.has(tool) ? ['memory' as const] : []),
      ],
    })),
    [
      ...memoryEdges,
      ...edgesAmong(graphEdges(keptTools), keptTools).filter((e) => !(fromMemory.has(e.from) && fromMemory.has(e.to))),
      ...learnedEdges(kept.map(([t]) => t)),
      ...joins,
    ],
    { keepRatio: 0, globalRatio: 0, tieAt: 2, intentOrder: false, maxTools: request.build?.maxTools ?? 8 },
  );
  return { built, weight, votes };
}

/** The search-built DAG of a past run's intent with that run left out of the memory: a calibration replay. */
function replaySearchDag(ctx: SearchContext, request: DagRequest): SearchReplay {
  return async (text, run) => {
    const replayed = { ...request, memoryProposal: false };
    const { gathered, searchBuilt, searchScored } = await searchBuiltDag(ctx, text, replayed, run);
    const proposal = voteNeighbours(await nearestRuns(ctx, text, { skip: run }));
    const halves = await Promise.all(
      intentHalves(text).map(async (h) => voteNeighbours(await nearestRuns(ctx, h, { skip: run }))),
    );
    const edgeVotes = neighbourEdgeVotes(proposal);
    const experience = experienceOf(ctx.index);
    return {
      tools: searchBuilt.chosen.map((c) => c.tool),
      confidence: searchScored.value,
      candidates: toolEvidence(gathered.searched, gathered.boost, proposal, halves).map((e) => ({
        tool: e.tool,
        row: toolRow(e),
      })),
      edgeRows: (tools) =>
        edgeEvidence(
          tools,
          edgeVotes,
          experience,
          confidentFrom(ctx.index, new Set(tools)),
          { links: searchBuilt.links, part: firstParts(gathered.candidates) },
          experience.run(run)?.shape,
        ).map((e) => ({
          from: e.from,
          to: e.to,
          row: edgeRow(e),
        })),
    };
  };
}

/** A past run as a rationale names it: its id, its intent and the learned workflow of its shape. */
function runLabel(id: string, intent: string, workflow: string | undefined): string {
  return `run ${id} "${intent}"${workflow === undefined ? '' : ` (learned workflow ${workflow})`}`;
}

/**
 * Why the nearest past runs' vote proposed `tool`: its share of their vote and, per learned workflow, the
 * runs that voted for it. Undefined when no neighbour used the tool.
 */
function memoryVoteWhy(advice: MemoryAdvice, tool: string): string | undefined {
  const vote = advice.proposal.votes.find((v) => v.tool === tool);
  if (vote === undefined) return undefined;
  const neighbours = new Map(advice.proposal.neighbours.map((n) => [n.id, n]));
  const byWorkflow = new Map<string, string[]>();
  for (const id of vote.support) {
    const n = neighbours.get(id);
    if (n === undefined) continue;
    const workflow = workflowId(n.shape.key);
    const run = `${n.id} "${n.intent}" (similarity ${n.similarity.toFixed(2)})`;
    byWorkflow.set(workflow, [...(byWorkflow.get(workflow) ?? []), run]);
  }
  const from = [...byWorkflow].map(
    ([workflow, runs]) => `learned workflow ${workflow} from past run${runs.length > 1 ? 's' : ''} ${runs.join(', ')}`,
  );
  return `proposed by the nearest past runs (vote share ${vote.vote.toFixed(2)}): ${from.join('; ')}`;
}

/** What the search (and the boost of past runs) found for an intent, per part, before any DAG is built. */
interface Gathered {
  parts: string[];
  searchTexts: string[];
  candidates: DagCandidate[];
  memoryWhy: Map<string, string>;
  scoreParts: Map<string, { search: number | null; memoryBoost: number }>;
  /** Each searched tool's best score and best (1-based) rank over the parts. */
  searched: Map<string, { score: number; rank: number }>;
  /** Each boosted tool's best similarity × outcome of a past run that used it. */
  boost: Map<string, number>;
}

async function gatherSearch(
  ctx: SearchContext,
  intent: string,
  request: DagRequest,
  leaveOut: number | undefined,
): Promise<Gathered> {
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
  const searchedBest = new Map<string, { score: number; rank: number }>();
  const boostBest = new Map<string, number>();
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
            memory: false,
            ...request.search,
            ...(request.context === undefined ? {} : { context: request.context }),
          });
    const memories =
      request.useMemory === false || request.memoryBoost === false
        ? []
        : await boostingRuns(ctx, text, request.memory, leaveOut);
    const memoryScore = new Map<string, number>();
    for (const m of memories) {
      for (const tool of m.tools) {
        memoryScore.set(tool, Math.max(memoryScore.get(tool) ?? 0, m.similarity * m.quality));
        boostBest.set(tool, Math.max(boostBest.get(tool) ?? 0, m.similarity * m.quality));
        if (!memoryWhy.has(tool))
          memoryWhy.set(
            tool,
            `used by past ${runLabel(m.execution, m.intent, m.workflow)}, ` +
              `similarity ${m.similarity.toFixed(2)}, outcome ${m.quality.toFixed(2)}`,
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
    for (const [rank, r] of searched.entries()) {
      const seen = searchedBest.get(r.tool);
      searchedBest.set(r.tool, {
        score: Math.max(seen?.score ?? 0, r.score),
        rank: Math.min(seen?.rank ?? Number.POSITIVE_INFINITY, rank + 1),
      });
      const boost = memoryScore.get(r.tool);
      noteParts(r.tool, r.score, boost === undefined ? 0 : Math.min(1 - r.score, MEMORY_BOOST * boost));
      candidates.push(
        boost === undefined
          ? { tool: r.tool, part, score: r.score, sources: ['search'] }
          : {
              tool: r.tool,
              part,
              score: Math.min(1, r.score + MEMORY_BOOST * boost),
              sources: ['search', 'memory'],
              placeBy: r.score,
            },
      );
    }
  }
  return { parts, searchTexts, candidates, memoryWhy, scoreParts, searched: searchedBest, boost: boostBest };
}

/**
 * The DAG chosen by evidence: each candidate tool's probability of being right from its features (vote,
 * search score and rank, boost), fitted on the scope's replays; the set of highest expected F1; its links
 * those with a fitted probability of at least one half. Its confidence is that expected F1.
 */
async function selectByEvidence(
  ctx: SearchContext,
  intent: string,
  gathered: Gathered,
  learning: Calibration,
  advice: MemoryAdvice | undefined,
  searchBuilt: BuiltDag,
  leaveOut: number | undefined,
  request: DagRequest,
  /** In a replay that hides the run's own links: what is left of the graph's. */
  seen?: (edges: readonly DagEdgeInput[]) => DagEdgeInput[],
) {
  const toolFit = learning.tools as LogisticFit;
  const proposal =
    advice?.proposal ??
    voteNeighbours(await nearestRuns(ctx, intent, leaveOut === undefined ? {} : { skip: leaveOut }));
  const halves = await Promise.all(
    intentHalves(intent).map(async (h) =>
      voteNeighbours(await nearestRuns(ctx, h, leaveOut === undefined ? {} : { skip: leaveOut })),
    ),
  );
  const scored = toolEvidence(gathered.searched, gathered.boost, proposal, halves).map((e) => ({
    ...e,
    p: predictLogistic(toolFit, toolRow(e)),
  }));
  if (scored.length === 0) return undefined;
  const chosen = chooseByExpectedF1(scored, learning.missing);
  const kept = chosen.kept.slice(0, request.build?.maxTools ?? 8);
  const tools = kept.map((k) => k.tool).sort();
  const edgeFit = learning.edges;
  const partOf = firstParts(gathered.candidates);
  const links =
    edgeFit === undefined
      ? []
      : chooseLinks(
          learning.linkRule?.rule ?? 'half',
          edgeEvidence(
            tools,
            neighbourEdgeVotes(proposal),
            experienceOf(ctx.index),
            seen === undefined
              ? confidentFrom(ctx.index, new Set(tools))
              : seen(confidentFrom(ctx.index, new Set(tools))),
            { links: searchBuilt.links, part: partOf },
            seen === undefined || leaveOut === undefined ? undefined : experienceOf(ctx.index).run(leaveOut)?.shape,
          ).map((e) => ({
            e,
            from: e.from,
            to: e.to,
            p: predictLogistic(edgeFit, edgeRow(e)),
          })),
        ).map(({ e, p }) => ({
          from: e.from,
          to: e.to,
          type: (e.vote > 0 || e.graph > 0 ? 'dependency' : 'sequence') as EdgeType,
          confidence: p,
          // A loop's two links are told apart by the runs' order, not by name.
          ...inOrderOf(proposal, e.from, e.to),
        }));
  const built = buildDag(
    kept.map((k) => ({
      tool: k.tool,
      part: partOf.get(k.tool) ?? 0,
      score: k.p,
      sources: [
        ...(k.search > 0 ? ['search' as const] : []),
        ...(k.vote > 0 || k.boost > 0 ? ['memory' as const] : []),
      ],
    })),
    links,
    // Parts no kept link joins follow the intent's order, as in the search-built DAG.
    {
      keepRatio: 0,
      globalRatio: 0,
      ties: false,
      intentOrder: true,
      threshold: 0,
      maxTools: kept.length,
    },
  );
  const searched = new Set(searchBuilt.chosen.map((c) => c.tool));
  const backed = tools.length !== searched.size || tools.some((t) => !searched.has(t));
  return {
    built,
    expectedF1: chosen.expectedF1,
    probability: new Map(kept.map((k) => [k.tool, k.p])),
    backed,
    memoryShare: kept.length === 0 ? 0 : kept.filter((k) => k.vote > 0).length / kept.length,
  };
}

/** How often the runs that proposed the link `from` → `to` called `from` first; nothing when none proposed it. */
function inOrderOf(proposal: MemoryProposal, from: string, to: string): { inOrder?: number } {
  const voted = proposal.edgeVotes.find((v) => v.from === from && v.to === to);
  return voted === undefined ? {} : { inOrder: voted.inOrder };
}

export type DagSelection = 'evidence' | 'fusion' | 'per-intent' | 'search';
const SELECTIONS: readonly DagSelection[] = ['per-intent', 'evidence', 'fusion', 'search'];
/** How many past runs replay each way of choosing. */
const SELECTION_SAMPLE = 50;
/** How many standard errors of the paired difference another way must gain over per intent. */
const SELECTION_MARGIN = 0.5;
const bestSelections = new WeakMap<SearchIndex, RunsCached<Promise<GateVerdict>>>();

/**
 * How the default request chose its way (issue 19's rule that learning never does worse): the memory's way the
 * replays preferred, its paired gain over the DAG without the memory on the same replayed runs, and the way that
 * answered — `search` (the memory left out, as when the scope had learned nothing but its graph) unless that gain
 * stood above one standard error.
 */
export type DagWay = GateOutcome<DagSelection>;

/**
 * The gate's verdict as kept (the stored fit `dag-way-v<rule>`, {@link GATE_RULE}): the way, and where the gate
 * replayed the search alone with each run's own links hidden, the fit of those replays' node F1 to their seed
 * confidence ({@link leftOutMemory}).
 */
type GateVerdict = DagWay & { searchFit?: IsotonicFit };

/**
 * The way a verdict gives in a DAG's result. Where the memory answers, its why is said again from the verdict's
 * numbers, so a verdict kept in the store by an earlier version reads as a new one.
 */
const wayOf = ({ searchFit: _fit, ...way }: GateVerdict): DagWay =>
  way.way === 'search' ? way : { ...way, why: trustedWhy(way) };

/**
 * The way of choosing that matched the scope's own past runs best: up to SELECTION_SAMPLE of them (evenly
 * spaced) are suggested from their intent alone, each left out of the memory, once per way (the search
 * alone included); the way with the highest mean of node and edge F1 against what the run did is preferred if it
 * clearly beats per intent ({@link pickSelection}), and answers if it beats the search alone by more than its noise
 * ({@link gateMemory}). Once per index; a verdict on fewer runs than the sample is measured again when their count
 * changes.
 */
function bestSelection(ctx: SearchContext, request: DagRequest): Promise<GateVerdict> {
  return perRuns(bestSelections, ctx.index, () =>
    carriedOver(ctx, `dag-way-v${GATE_RULE}`, SELECTION_SAMPLE, async (): Promise<GateVerdict> => {
      const searchPoints: IsotonicPoint[] = [];
      const first = await replayWays(ctx, request, SELECTIONS, false, undefined, searchPoints);
      const preferred = pickSelection(first.scores);
      if (preferred === 'search') return gateMemory(first.scores, preferred);
      // The gate replays both again with the links only the replayed run made hidden: the graph learned them from
      // that run, and they made the search alone look better on its own runs than on new ones.
      const fair = await replayWays(ctx, request, [preferred, 'search'], true, first, searchPoints);
      const verdict = gateMemory(fair.scores, preferred, fair.measures);
      return searchPoints.length < MIN_CALIBRATION ? verdict : { ...verdict, searchFit: fitIsotonic(searchPoints) };
    }),
  );
}

export type ReplayMeasures = GateMeasures<DagSelection>;

/** Replays per way: the score of each run, the node and edge F1 it is the mean of, and its link counts. */
interface Replays {
  scores: Map<DagSelection, number[]>;
  measures: Map<DagSelection, { node: number[]; edge: number[]; links: LinkCount[] }>;
}

/**
 * Each way's score on up to SELECTION_SAMPLE past runs (evenly spaced), each suggested from its intent alone with
 * itself left out of the memory (and, with `hideOwnLinks`, its own links no other run made): the mean of node and
 * edge F1 against what the run did, and each apart. A run with no such link replays as it did without hiding them
 * (`before`).
 * `searchPoints` gets, per replayed run, the search alone's seed confidence and node F1 (replaced where replayed
 * again).
 */
async function replayWays(
  ctx: SearchContext,
  request: DagRequest,
  ways: readonly DagSelection[],
  hideOwnLinks: boolean,
  before?: Replays,
  searchPoints?: IsotonicPoint[],
): Promise<Replays> {
  const past = experienceOf(ctx.index);
  const scores = new Map<DagSelection, number[]>(ways.map((w) => [w, []]));
  const measures = new Map<DagSelection, { node: number[]; edge: number[]; links: LinkCount[] }>(
    ways.map((w) => [w, { node: [], edge: [], links: [] }]),
  );
  const note = (way: DagSelection, node: number, edge: number, links: LinkCount): void => {
    scores.get(way)?.push((node + edge) / 2);
    measures.get(way)?.node.push(node);
    measures.get(way)?.edge.push(edge);
    measures.get(way)?.links.push(links);
  };
  for (const [k, i] of evenSample(past.size, SELECTION_SAMPLE).entries()) {
    if (hideOwnLinks && before !== undefined && runsLoneLinks(past, i).size === 0) {
      for (const way of ways) {
        const m = before.measures.get(way);
        note(way, m?.node[k] ?? 0, m?.edge[k] ?? 0, m?.links[k] ?? { right: 0, made: 0, truth: 0 });
      }
      continue;
    }
    const run = past.run(i) as PastRun;
    const tools = new Set(run.shape.tools);
    const links = new Set(run.shape.edges.map(([f, t]) => edgeKey(f, t)));
    for (const way of ways) {
      const asked = way === 'search' ? { ...request, useMemory: false } : { ...request, selection: way };
      const d = await suggestDag(ctx, run.intent, asked, i, hideOwnLinks);
      const byId = new Map(d.dag.tasks.map((t) => [t.id, t.tool]));
      const made = new Set(d.dag.tasks.flatMap((t) => t.dependsOn.map((dep) => edgeKey(byId.get(dep) ?? '', t.tool))));
      const node = setF1(new Set(d.dag.tasks.map((t) => t.tool)), tools);
      const edge = made.size === 0 && links.size === 0 ? 1 : setF1(made, links);
      const right = [...made].filter((l) => links.has(l)).length;
      note(way, node, edge, { right, made: made.size, truth: links.size });
      if (way === 'search' && searchPoints !== undefined)
        searchPoints[k] = { x: d.seedConfidence ?? d.confidence, y: node };
    }
  }
  return { scores, measures };
}

/** The links of past run `run` that no other past run made (the pair counts of its first PAIR_TOOLS tools). */
function runsLoneLinks(experience: ReturnType<typeof experienceOf>, run: number): Set<string> {
  const shape = experience.run(run)?.shape;
  return shape === undefined ? new Set() : loneLinks(shape, (from, to) => experience.pair(from, to)?.linked ?? 0);
}

/**
 * The way to answer from paired replay scores (one per replayed run and way): per intent, unless another
 * way beats it by more than half a standard error of their paired difference (a near tie does not move
 * it; the standard error counted no lower than the gain's resolution, as the gate counts it); of those, the best mean.
 */
export function pickSelection(scores: ReadonlyMap<DagSelection, readonly number[]>): DagSelection {
  const base = scores.get('per-intent') ?? [];
  let best: { way: DagSelection; gain: number } = { way: 'per-intent', gain: 0 };
  for (const way of SELECTIONS) {
    const own = scores.get(way) ?? [];
    if (way === 'per-intent' || own.length < 2 || own.length !== base.length) continue;
    const g = pairedGain(own, base);
    if (gainStands(g, SELECTION_MARGIN, GAIN_RESOLUTION) && g.gain > best.gain + 1e-12) best = { way, gain: g.gain };
  }
  return best.way;
}

/** The search-built DAG of an intent (with the boost of past runs), what it was built from, and its seed score. */
async function searchBuiltDag(
  ctx: SearchContext,
  intent: string,
  request: DagRequest,
  leaveOut: number | undefined,
  seen: (edges: readonly DagEdgeInput[]) => DagEdgeInput[] = (edges) => [...edges],
) {
  const { index } = ctx;
  const gathered = await gatherSearch(ctx, intent, request, leaveOut);
  const experience = experienceOf(index);
  const learnedEdges = (tools: readonly string[]): DagEdgeInput[] =>
    request.useMemory === false ? [] : seen(experienceEdges(experience, tools));
  const { candidates } = gathered;
  const tools = new Set(candidates.map((c) => c.tool));
  const searchBuilt = buildDag(
    candidates,
    [...seen(edgesAmong(confidentFrom(index, tools), tools)), ...learnedEdges([...tools])],
    request.build,
  );
  return { gathered, searchBuilt, searchScored: seedScore(searchBuilt, index), learnedEdges };
}

/**
 * The edges between two of `tools`, in their order: a DAG of those tools reads no other (buildDag ties a candidate
 * to a kept one and orders the kept), so the graph's other confident edges are not copied and sorted per query.
 */
function edgesAmong(edges: readonly DagEdgeInput[], tools: ReadonlySet<string>): DagEdgeInput[] {
  let byFrom = edgesByFrom.get(edges);
  if (byFrom === undefined) {
    byFrom = new Map();
    for (const [i, e] of edges.entries()) {
      const list = byFrom.get(e.from);
      if (list === undefined) byFrom.set(e.from, [i]);
      else list.push(i);
    }
    edgesByFrom.set(edges, byFrom);
  }
  const found: number[] = [];
  for (const tool of tools)
    for (const i of byFrom.get(tool) ?? []) if (tools.has((edges[i] as DagEdgeInput).to)) found.push(i);
  return found.sort((a, b) => a - b).map((i) => edges[i] as DagEdgeInput);
}

/** The confident edges from one of `tools`, in their order (a decoded snapshot makes those alone). */
function confidentFrom(index: SearchIndex, tools: ReadonlySet<string>): SearchIndex['confidentEdges'] {
  return index.confidentFrom?.(tools) ?? index.confidentEdges.filter((e) => tools.has(e.from));
}

/** The places of a list of edges by their `from` tool, per list (a snapshot's confident edges, kept while it is). */
const edgesByFrom = new WeakMap<readonly DagEdgeInput[], Map<string, number[]>>();

/** Suggests a workflow DAG for an intent (SPEC §5); never nothing when a candidate exists. */
export async function suggestDag(
  ctx: SearchContext,
  intent: string,
  request: DagRequest = {},
  leaveOut?: number,
  hideOwnLinks = false,
): Promise<DagSuggestion> {
  const { index } = ctx;
  // A replay that hides the run's own links (the memory's gate, {@link bestSelection}) reads no edge only it made.
  const lone = hideOwnLinks && leaveOut !== undefined ? runsLoneLinks(experienceOf(index), leaveOut) : undefined;
  const hidden = lone === undefined || lone.size === 0 ? undefined : lone;
  const seen = <E extends { from: string; to: string }>(edges: readonly E[]): E[] =>
    hidden === undefined ? [...edges] : edges.filter((e) => !hidden.has(edgeKey(e.from, e.to)));
  // Where the scope's replays did best without the memory, the memory stays out (the learned graph stays).
  const memoryOn =
    request.useMemory !== false &&
    request.memoryProposal !== false &&
    request.useSearch !== false &&
    experienceOf(index).size > 0;
  const verdict =
    request.selection === undefined && memoryOn && leaveOut === undefined
      ? await bestSelection(ctx, request)
      : undefined;
  const chosen = verdict === undefined ? undefined : wayOf(verdict);
  const chosenWay = request.selection ?? verdict?.way;
  if (chosenWay === 'search' && request.useMemory !== false) {
    const plain = await suggestDag(ctx, intent, { ...request, useMemory: false }, leaveOut, hideOwnLinks);
    return verdict === undefined ? plain : leftOutMemory(ctx, plain, verdict, request);
  }
  const { gathered, searchBuilt, searchScored, learnedEdges } = await searchBuiltDag(
    ctx,
    intent,
    request,
    leaveOut,
    seen,
  );
  const { parts, searchTexts, memoryWhy, scoreParts } = gathered;
  const learning =
    request.useMemory === false || request.memoryProposal === false || experienceOf(index).size === 0
      ? undefined
      : await calibration(ctx, replaySearchDag(ctx, request));
  const advice = learning === undefined ? undefined : await adviseFromMemory(ctx, intent, learning, leaveOut);
  const searchExpected =
    learning === undefined || learning.search.n < MIN_CALIBRATION
      ? undefined
      : predictIsotonic(learning.search, searchScored.value);
  // A part of the intent no past run is near stays with the search: its tools keep their place in the DAG.
  // It follows the parts the memory covers when it comes after them in the intent, else precedes them.
  const uncovered = new Map<string, 'after' | 'before'>();
  if (advice !== undefined && searchTexts.length > 1 && request.useSearch !== false) {
    const covered: number[] = [];
    const open: number[] = [];
    for (const [part, text] of searchTexts.entries()) {
      const near = await nearestRuns(ctx, text, { k: 1, ...(leaveOut === undefined ? {} : { skip: leaveOut }) });
      (near.length === 0 ? open : covered).push(part);
    }
    if (covered.length > 0)
      for (const c of searchBuilt.chosen)
        if (open.includes(c.part)) uncovered.set(c.tool, c.part > (covered[0] as number) ? 'after' : 'before');
  }
  const byEvidence =
    learning?.tools === undefined ||
    learning.replays < MIN_CALIBRATION ||
    request.useSearch === false ||
    request.selection === 'fusion'
      ? undefined
      : await selectByEvidence(ctx, intent, gathered, learning, advice, searchBuilt, leaveOut, request, hidden && seen);
  const fusedAll =
    advice === undefined
      ? undefined
      : fuseWithMemory(
          searchBuilt,
          advice,
          // Under MIN_CALIBRATION replays, the seed formula's own confidence stands for the search.
          searchExpected ?? searchScored.value,
          request,
          (tools) => seen(confidentFrom(index, tools)),
          learnedEdges,
          uncovered,
        );
  // Both ways are measured on the same replays: the one expecting the higher node F1 answers.
  const fusedExpected =
    fusedAll !== undefined && fusedAll.weight >= 0.5 ? (advice?.expected ?? 0) : (searchExpected ?? searchScored.value);
  const way = byEvidence === undefined ? 'fusion' : (chosenWay ?? 'per-intent');
  const selected =
    byEvidence !== undefined && (way === 'evidence' || (way === 'per-intent' && byEvidence.expectedF1 >= fusedExpected))
      ? byEvidence
      : undefined;
  const fused = selected === undefined ? fusedAll : undefined;
  const built = selected?.built ?? fused?.built ?? searchBuilt;
  const scored = built === searchBuilt ? searchScored : seedScore(built, index);
  const explicitRequired = built.tasks.length === 0;
  const memoryBacked = selected !== undefined ? selected.backed : fused !== undefined && fused.weight >= 0.5;
  const calibrated =
    selected !== undefined
      ? selected.expectedF1
      : memoryBacked
        ? advice?.expected
        : fused === undefined
          ? searchExpected
          : undefined;
  const basis: DagConfidenceBasis =
    calibrated === undefined ? 'seed' : selected !== undefined ? 'evidence' : memoryBacked ? 'memory' : 'search';
  const voted = fused !== undefined || selected !== undefined;
  const rationale = built.chosen.map((c) => {
    const reasons: string[] = [];
    if (c.sources.includes('search')) reasons.push(`matched by tool search`);
    if (c.sources.includes('memory'))
      reasons.push(
        (advice === undefined || !voted ? undefined : memoryVoteWhy(advice, c.tool)) ??
          memoryWhy.get(c.tool) ??
          'used by a similar past run',
      );
    if (c.reason === 'tied') reasons.push('tied to a chosen tool by a learned edge');
    const sp = scoreParts.get(c.tool) ?? { search: null, memoryBoost: 0 };
    // A DAG voted with the memory is not built per part: its tools name no part.
    const part = parts.length > 1 && !voted ? ` (part ${c.part + 1}: "${searchTexts[c.part]}")` : '';
    const p = selected?.probability.get(c.tool);
    if (p !== undefined) reasons.push(`probability ${p.toFixed(2)} from its evidence`);
    return {
      tool: c.tool,
      score: c.score,
      search: sp.search,
      memoryBoost: sp.memoryBoost,
      sources: c.sources,
      why: `${reasons.join('; ')}${part}`,
    };
  });
  const chosenSet = new Set(built.chosen.map((c) => c.tool));
  const learnedAlternatives = confidentFrom(index, chosenSet)
    .filter((e) => e.type === 'alternative' && chosenSet.has(e.from) && !chosenSet.has(e.to))
    .map((e) => ({
      tool: e.to,
      score: e.confidence,
      for: e.from,
      why: `learned alternative to ${e.from} (${e.source}, confirmed in ${e.count} run${e.count === 1 ? '' : 's'})`,
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
  const unlike =
    learning === undefined || advice === undefined ? undefined : unlikeOf(learning.memory, advice.proposal.strength);
  return {
    mode: explicitRequired ? 'explicit_required' : 'suggestion',
    intent,
    ...(explicitRequired ? { explicitRequiredBecause: nothingToSuggest(ctx, request) } : {}),
    confidence: explicitRequired ? 0 : (calibrated ?? scored.value),
    seedConfidence: explicitRequired ? 0 : scored.value,
    confidenceBasis: explicitRequired ? 'seed' : basis,
    ...(learning === undefined ? {} : { replays: learning.replays }),
    ...(chosen === undefined ? {} : { way: chosen }),
    ...(explicitRequired || memoryBacked || scored.warning === undefined ? {} : { warning: scored.warning }),
    ...(explicitRequired || !memoryBacked || unlike === undefined ? {} : unlikeWarning(unlike, built, searchBuilt)),
    ...(advice === undefined
      ? {}
      : {
          memory: {
            ...memorySummary(advice, selected?.memoryShare ?? fused?.weight ?? 0, memoryBacked),
            ...optionalUnlike(unlike),
          },
        }),
    dag: { tasks: built.tasks },
    rationale,
    paths: built.links,
    alternatives,
    weights: { hybrid: scored.weights.hybrid, pageRank: scored.weights.pageRank, path: scored.weights.path },
    density: index.density,
    tier: scored.tier,
    // No DAG, no parts: the seed's path strength of a DAG without dependency edges (0.5) is no part of nothing.
    parts: explicitRequired ? NO_DAG_PARTS : scored.parts,
    intentParts: searchTexts,
  };
}

const NO_DAG_PARTS: DagSuggestion['parts'] = Object.freeze({
  hybrid: 0,
  pageRank: 0,
  pathStrength: 0,
  hybridPart: 0,
  pageRankPart: 0,
  pathPart: 0,
});

/** Why a request found no tool to suggest, and what to do instead (walk 14, item 7). */
function nothingToSuggest(ctx: SearchContext, request: DagRequest): string {
  const yourself = 'or give the workflow yourself ({"tasks": [{id, tool, dependsOn?}]})';
  const scope = `scope "${ctx.scope}"`;
  const tools = ctx.index.toolIds.size;
  if (tools === 0)
    return `${scope} has no tool in its catalogue: add the tools (a catalogue, or runs that used them) ${yourself}`;
  if (request.useSearch === false)
    return `the search is off and no past run in ${scope} is near this intent: turn the search on ${yourself}`;
  return `none of the ${tools} tool(s) in ${scope} matches this intent: reword it, add a tool for it, ${yourself}`;
}

/** The memory's strength when it lies beyond what its fit was measured on (core/experience beyondSupport). */
function unlikeOf(fit: IsotonicFit, strength: number): MemoryUnlike | undefined {
  return beyondSupport(fit, strength) ? { strength, measuredFrom: fit.lo, replays: fit.n } : undefined;
}

const optionalUnlike = (unlike: MemoryUnlike | undefined): { unlike?: MemoryUnlike } =>
  unlike === undefined ? {} : { unlike };

/**
 * A memory-backed DAG whose nearest past runs are less alike than any the memory was measured on: its confidence was
 * measured on closer tasks. Said, with the tools the search alone would add, rather than decided: word overlap cannot
 * tell such a task from a new wording of the learned one.
 */
function unlikeWarning(
  unlike: MemoryUnlike,
  built: { tasks: readonly { tool: string }[] },
  searchBuilt: { tasks: readonly { tool: string }[] },
): { warning: string } {
  const inDag = new Set(built.tasks.map((t) => t.tool));
  const searchOnly = [...new Set(searchBuilt.tasks.map((t) => t.tool))].filter((t) => !inDag.has(t));
  return {
    warning:
      `the past runs behind this DAG are less alike (strength ${unlike.strength.toFixed(2)}) than any the memory ` +
      `was measured on (${unlike.replays} replays from ${unlike.measuredFrom.toFixed(2)}): its confidence was ` +
      `measured on closer tasks` +
      (searchOnly.length === 0 ? '' : `; the search alone would use ${searchOnly.join(', ')}`),
  };
}

/**
 * The DAG without the memory, answering a default request whose replays did not show the memory's way better
 * ({@link gateMemory}): it says so (`way`), and with enough replays its confidence is a calibration of a
 * search-built DAG of its seed confidence: the gate's own replays of the search alone, which hid each run's own
 * links, where it made them (its memory's way was replayed against it), else the scope's calibration.
 */
async function leftOutMemory(
  ctx: SearchContext,
  plain: DagSuggestion,
  verdict: GateVerdict,
  request: DagRequest,
): Promise<DagSuggestion> {
  const way = wayOf(verdict);
  if (plain.mode !== 'suggestion') return { ...plain, way };
  const fit = verdict.searchFit ?? (await calibration(ctx, replaySearchDag(ctx, request))).search;
  if (fit.n < MIN_CALIBRATION) return { ...plain, way };
  return {
    ...plain,
    confidence: predictIsotonic(fit, plain.seedConfidence ?? plain.confidence),
    confidenceBasis: 'search',
    replays: fit.n,
    way,
  };
}
