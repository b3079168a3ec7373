/**
 * @module eval/search-eval
 * Tool search quality on Seal-Tools (issue 4, point 4): Recall@1, Recall@5 and MRR of the
 * ground-truth tools, for BM25 only, embeddings only, the fused semantic score (a sweep of the BM25
 * weight), and the hybrid score with context tools once the graph has learned.
 */
import type { Credence } from '../src/engine/engine.js';
import { rankTools, type ToolSearchResult, type ToolSignals } from '../src/core/search/tool-search.js';
import type { Sample } from './data.js';
import { mean, recallAtK, reciprocalRank } from './metrics.js';

export interface RankScore {
  n: number;
  r1: number;
  r5: number;
  mrr: number;
}

export interface Ranked {
  ranked: readonly string[];
  relevant: ReadonlySet<string>;
}

export function scoreRankings(list: readonly Ranked[]): RankScore {
  return {
    n: list.length,
    r1: mean(list.map((l) => recallAtK(l.ranked, l.relevant, 1))),
    r5: mean(list.map((l) => recallAtK(l.ranked, l.relevant, 5))),
    mrr: mean(list.map((l) => reciprocalRank(l.ranked, l.relevant))),
  };
}

/**
 * Every candidate the search considered, ranked (the pool is at most 50 BM25 + 50 embedding hits, plus related tools).
 */
export const ALL = 100_000;

/** The signals a search result was scored from, so the pure core can re-score them. */
export function signalsOf(r: ToolSearchResult): ToolSignals {
  return {
    tool: r.tool,
    ...(r.parts.bm25 === null ? {} : { bm25: r.parts.bm25 }),
    similarity: r.parts.similarity,
    ...(r.parts.relatedness === null ? {} : { relatedness: r.parts.relatedness }),
    centrality: r.parts.centrality,
    heat: r.parts.heat,
    observations: r.parts.observations,
  };
}

/** The semantic-only ranking of a candidate pool at BM25 weight `w` (the same core function the engine ranks with). */
export function rerank(pool: readonly ToolSearchResult[], w: number): string[] {
  return rankTools(pool.map(signalsOf), { semanticOnly: true, bm25Weight: w }).map((r) => r.tool);
}

export interface SweepResult {
  weights: number[];
  /** weight → score, per query set. */
  byWeight: Map<number, RankScore>[];
  /** API rankings checked against the re-scored pool, and how many differed. */
  verified: { rankings: number; mismatches: number };
}

/**
 * One search per query (semantic only, the whole candidate pool), then the pool re-scored at each
 * BM25 weight. The candidate pool does not depend on the weight, so this is the API's ranking; it is
 * checked against direct API calls for the first `verify` queries of the first set at every weight.
 */
export async function bm25Sweep(
  cr: Credence,
  sets: readonly (readonly Sample[])[],
  weights: readonly number[],
  verify = 10,
): Promise<SweepResult> {
  const byWeight: Map<number, RankScore>[] = [];
  let rankings = 0;
  let mismatches = 0;
  for (const [setIndex, samples] of sets.entries()) {
    const pools: { pool: ToolSearchResult[]; relevant: Set<string> }[] = [];
    for (const s of samples) {
      pools.push({
        pool: await cr.searchTools(s.intent, { limit: ALL, semanticOnly: true }),
        relevant: new Set(s.calls.map((c) => c.tool)),
      });
    }
    const scores = new Map<number, RankScore>();
    for (const w of weights)
      scores.set(w, scoreRankings(pools.map((p) => ({ ranked: rerank(p.pool, w), relevant: p.relevant }))));
    byWeight.push(scores);
    if (setIndex === 0) {
      for (const [i, s] of samples.slice(0, verify).entries()) {
        for (const w of weights) {
          const api = (await cr.searchTools(s.intent, { limit: 10, semanticOnly: true, bm25Weight: w })).map(
            (r) => r.tool,
          );
          const mine = rerank(pools[i]?.pool ?? [], w).slice(0, 10);
          rankings += 1;
          if (api.join('\n') !== mine.join('\n')) mismatches += 1;
        }
      }
    }
  }
  return { weights: [...weights], byWeight, verified: { rankings, mismatches } };
}

/** One step of a multi-call query: the tools of calls 0..k−1 as context, the tool of call k as target. */
export interface Step {
  sample: Sample;
  k: number;
  context: string[];
  target: string;
}

export function stepsOf(samples: readonly Sample[]): Step[] {
  const steps: Step[] = [];
  for (const sample of samples) {
    for (let k = 1; k < sample.calls.length; k += 1) {
      const context = [...new Set(sample.calls.slice(0, k).map((c) => c.tool))];
      steps.push({ sample, k, context, target: (sample.calls[k] as { tool: string }).tool });
    }
  }
  return steps;
}

export interface StepRun {
  ranked: string[];
  /** The target's result, when it was ranked. */
  target?: ToolSearchResult;
}

/**
 * Ranks each step with `request(step)`; `perQuery` reuses one search for all steps of a query (for requests without
 * context).
 */
export async function runSteps(
  cr: Credence,
  steps: readonly Step[],
  request: (step: Step) => Parameters<Credence['searchTools']>[1],
  perQuery = false,
): Promise<StepRun[]> {
  const cache = new Map<Sample, ToolSearchResult[]>();
  const out: StepRun[] = [];
  // Search refuses context tools the catalogue does not know (a few NESTFUL tools are in no spec): leave them out.
  const known = new Set((await cr.graphSnapshot()).tools.map((t) => t.id));
  for (const step of steps) {
    let results = perQuery ? cache.get(step.sample) : undefined;
    if (results === undefined) {
      const req = request(step) ?? {};
      const context = req.context?.filter((t) => known.has(t));
      results = await cr.searchTools(step.sample.intent, {
        limit: ALL,
        ...req,
        ...(context === undefined ? {} : { context }),
      });
      if (perQuery) cache.set(step.sample, results);
    }
    const target = results.find((r) => r.tool === step.target);
    out.push({ ranked: results.map((r) => r.tool), ...(target === undefined ? {} : { target }) });
  }
  return out;
}

export function scoreSteps(
  steps: readonly Step[],
  runs: readonly StepRun[],
  keep: (i: number) => boolean = () => true,
): RankScore {
  return scoreRankings(
    runs.flatMap((r, i) => (keep(i) ? [{ ranked: r.ranked, relevant: new Set([(steps[i] as Step).target]) }] : [])),
  );
}
