/**
 * @module core/search/tool-search
 * Hybrid tool search scoring (seed 000, SPEC §4): `score = α · semantic + (1 − α) · graph`, α per tool.
 * Pure: the caller gathers each candidate's signals (BM25, embedding similarity, relatedness to the
 * context tools, centrality, heat, call count); this module ranks and explains. semantic =
 * w · |bm25| / |best bm25| + (1 − w) · similarity (cosine clamped to [0, 1]); w was measured on eval/.
 */
import { localAlpha, type AlphaRule } from './local-alpha.js';
import { graphScore, hybridScore } from './hybrid-score.js';
import { requireUnit } from '../validate.js';
import { byScoreThenTool } from '../rank-order.js';

export const SEARCH_DEFAULTS = Object.freeze({
  /** Weight of the BM25 ratio in the semantic score (the rest is embedding similarity). */
  bm25Weight: 0.6,
});

export interface SearchOptions {
  /** @default SEARCH_DEFAULTS.bm25Weight */
  bm25Weight?: number;
  /**
   * Use α = 1 for every tool: semantic only. `true` (a baseline) reports the rule 'semantic-only';
   * a reason ('no-context', 'cold-context') is reported as the rule instead. @default false
   */
  semanticOnly?: boolean | 'no-context' | 'cold-context';
}

/** Which rule chose α: SPEC §4's two, or why the graph was not used for this query. */
export type ToolAlphaRule = AlphaRule | 'semantic-only' | 'no-context' | 'cold-context';

/** What is known about one candidate tool for one query. */
export interface ToolSignals {
  tool: string;
  /** FTS5 bm25() of the tool for the query (negative; more negative is better); absent if no term matched. */
  bm25?: number;
  /** Cosine similarity of the query's and the tool's embeddings. */
  similarity?: number;
  /** Best path confidence from a context tool (SPEC §4), when there is context. */
  relatedness?: number;
  /** PageRank / max PageRank, in [0, 1]. */
  centrality: number;
  /** Heat from the context tools (or from the tool itself without context), in [0, 1]. */
  heat: number;
  /** Recorded calls of the tool. */
  observations: number;
  /** Its description says it is deprecated: its score is multiplied by DEPRECATED_FACTOR. */
  deprecated?: boolean;
}

/**
 * A deprecated tool still matches, below its replacement: the filesystem server's `read_file`
 * ("DEPRECATED: Use read_text_file instead") otherwise outranked `read_text_file` (issue 8, ADR-026).
 */
export const DEPRECATED_FACTOR = 0.5;

/** Whether a tool description declares the tool deprecated (the word itself, any case). */
export const isDeprecated = (description: string): boolean => /\bdeprecated\b/i.test(description);

export interface ToolSearchResult {
  tool: string;
  score: number;
  semantic: number;
  graph: number;
  alpha: number;
  alphaRule: ToolAlphaRule;
  parts: {
    bm25: number | null;
    bm25Relative: number;
    similarity: number;
    bm25Weight: number;
    relatedness: number | null;
    centrality: number;
    heat: number;
    observations: number;
    /** Present (true) when the score was halved for a deprecated tool. */
    deprecated?: boolean;
  };
}

/** The semantic part of one tool: BM25 ratio and embedding similarity, fused. */
export function semanticScore(
  input: { bm25?: number; bestBm25?: number; similarity?: number },
  options: SearchOptions = {},
): number {
  const w = options.bm25Weight ?? SEARCH_DEFAULTS.bm25Weight;
  requireUnit('bm25Weight', w);
  const best = Math.abs(input.bestBm25 ?? 0);
  const bm25Relative = input.bm25 === undefined || best === 0 ? 0 : Math.min(1, Math.abs(input.bm25) / best);
  const similarity = Math.max(0, Math.min(1, input.similarity ?? 0));
  return w * bm25Relative + (1 - w) * similarity;
}

/** Scores and ranks candidates, best first; ties by tool id so input order never matters. */
export function rankTools(candidates: readonly ToolSignals[], options: SearchOptions = {}): ToolSearchResult[] {
  const w = options.bm25Weight ?? SEARCH_DEFAULTS.bm25Weight;
  requireUnit('bm25Weight', w);
  const bestBm25 = candidates.reduce(
    (best, c) => (c.bm25 !== undefined && Math.abs(c.bm25) > best ? Math.abs(c.bm25) : best),
    0,
  );
  const results = candidates.map((c): ToolSearchResult => {
    const semantic = semanticScore({ ...c, bestBm25 }, { bm25Weight: w });
    const graph = graphScore(
      c.relatedness === undefined
        ? { centrality: c.centrality }
        : { centrality: c.centrality, relatedness: c.relatedness },
    );
    const chosen: { alpha: number; rule: ToolAlphaRule } =
      options.semanticOnly === undefined || options.semanticOnly === false
        ? localAlpha({ observations: c.observations, heat: c.heat })
        : { alpha: 1, rule: options.semanticOnly === true ? 'semantic-only' : options.semanticOnly };
    const blended = hybridScore({ semantic, graph, alpha: chosen.alpha });
    return {
      tool: c.tool,
      score: c.deprecated === true ? blended.value * DEPRECATED_FACTOR : blended.value,
      semantic,
      graph,
      alpha: chosen.alpha,
      alphaRule: chosen.rule,
      parts: {
        bm25: c.bm25 ?? null,
        bm25Relative: c.bm25 === undefined || bestBm25 === 0 ? 0 : Math.abs(c.bm25) / bestBm25,
        similarity: c.similarity ?? 0,
        bm25Weight: w,
        relatedness: c.relatedness ?? null,
        centrality: c.centrality,
        heat: c.heat,
        observations: c.observations,
        ...(c.deprecated === true ? { deprecated: true } : {}),
      },
    };
  });
  return results.sort(byScoreThenTool);
}
