/**
 * @module eval/recall-metrics
 * The recall measures `npm run eval` prints (issue 5, point 7): nDCG@k with binary relevance, and
 * how good the "high" label is — its precision (share of the results labelled high that are
 * relevant), its coverage (share of the queries whose top result is relevant that get at least one
 * "high") and how often a query gets one at all. Pure.
 */
import type { ConfidenceLabel } from '../src/core/types.js';

/**
 * nDCG@k with binary relevance: Σ_{i ≤ k, ranked[i] relevant} 1 / log2(i + 2) over the same sum for
 * an ideal ranking (min(|relevant|, k) relevant items first). 0 when nothing is relevant.
 * Duplicates in `ranked` count once (at their first place).
 */
export function ndcgAtK(ranked: readonly string[], relevant: ReadonlySet<string>, k: number): number {
  if (relevant.size === 0 || k <= 0) return 0;
  const seen = new Set<string>();
  let dcg = 0;
  ranked.slice(0, k).forEach((id, i) => {
    if (relevant.has(id) && !seen.has(id)) dcg += 1 / Math.log2(i + 2);
    seen.add(id);
  });
  let ideal = 0;
  for (let i = 0; i < Math.min(relevant.size, k); i += 1) ideal += 1 / Math.log2(i + 2);
  return dcg / ideal;
}

/** One query's labelled results, best first, and its relevant ids. */
export interface LabelledRanking {
  ranked: readonly string[];
  labels: readonly ConfidenceLabel[];
  relevant: ReadonlySet<string>;
}

export interface LabelScore {
  queries: number;
  /** Results labelled high, over all queries. */
  highs: number;
  /** Of those, relevant. */
  relevantHighs: number;
  /** relevantHighs / highs; NaN when nothing is labelled high. */
  precision: number;
  /** Queries whose top result is relevant. */
  topRelevant: number;
  /** Of those, the share with at least one "high"; NaN when no top result is relevant. */
  coverage: number;
  /** Share of all queries with at least one "high". */
  withHigh: number;
  /** Results labelled high per query. */
  highsPerQuery: number;
}

/** Precision and coverage of the "high" label over a set of queries (micro-averaged precision). */
export function scoreHighLabel(list: readonly LabelledRanking[]): LabelScore {
  let highs = 0;
  let relevantHighs = 0;
  let topRelevant = 0;
  let topRelevantWithHigh = 0;
  let withHigh = 0;
  for (const { ranked, labels, relevant } of list) {
    let mine = 0;
    ranked.forEach((id, i) => {
      if (labels[i] !== 'high') return;
      mine += 1;
      if (relevant.has(id)) relevantHighs += 1;
    });
    highs += mine;
    if (mine > 0) withHigh += 1;
    const top = ranked[0];
    if (top !== undefined && relevant.has(top)) {
      topRelevant += 1;
      if (mine > 0) topRelevantWithHigh += 1;
    }
  }
  const n = list.length;
  return {
    queries: n,
    highs,
    relevantHighs,
    precision: highs === 0 ? Number.NaN : relevantHighs / highs,
    topRelevant,
    coverage: topRelevant === 0 ? Number.NaN : topRelevantWithHigh / topRelevant,
    withHigh: n === 0 ? 0 : withHigh / n,
    highsPerQuery: n === 0 ? 0 : highs / n,
  };
}
