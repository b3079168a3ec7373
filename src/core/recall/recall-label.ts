/**
 * @module core/recall/recall-label
 * Recall labels with evidence (seed 003, SPEC §8 decision). The seed's label is relative (any query's top hit is
 * "high"); here "high" also needs evidence, tuned on eval/: a share of the query's content words (`minTermShare`), an
 * embedding similarity (`minSimilarity`), and the top place by a clear margin (`score ≥ (1 + minMargin) × next`) or
 * the only one; else "medium". A result with none of the query's words and below `minSimilarity` is "low" at any rank
 * (a link of its life, a turn or memory that replaced or was replaced by the match, is its evidence). A conversation's
 * top turn is "high" from such a link, most of the query's words and the margin, or, asked when, from being a change
 * (it replaced an earlier turn of its speaker: issue 23). `mode: 'seed'` gives the seed's behaviour exactly.
 */
import { labelAll } from './confidence-label.js';
import { confidenceBand } from '../learning/bands.js';
import type { ConfidenceLabel } from '../types.js';

/**
 * Calibrated on Seal-Tools dev (best "high" precision with coverage ≥ 0.55), reported on
 * test_in_domain by `npm run eval` (figures: docs/evaluation.md). The margin is the strong signal;
 * asking for a larger share of the query's words than "one of them" lost most of the coverage.
 */
export const RECALL_LABEL_DEFAULTS = Object.freeze({
  mode: 'evidence' as 'evidence' | 'seed',
  minTermShare: 0.01,
  minSimilarity: 0.4,
  minMargin: 0.15,
  /** A conversation's turn found by its words alone needs this share of the query's words (issue 23). */
  turnTermShare: 0.75,
});

export interface RecallLabelOptions {
  /** 'seed' labels exactly as seed 003; 'evidence' asks for evidence before "high". @default 'evidence' */
  mode?: 'evidence' | 'seed';
  /** @default 0.01 (at least one of the query's words) */
  minTermShare?: number;
  /** @default 0.4 */
  minSimilarity?: number;
  /** @default 0.15 */
  minMargin?: number;
}

export interface LabelEvidence {
  score: number;
  /** Share of the query's content words found in the result. */
  termShare: number;
  /** Embedding similarity of the result to the query. */
  similarity: number;
  /** A conversation's turn (issue 23). @default false */
  turn?: boolean;
  /**
   * Brought by a link of the memories' life to a matched one (it replaced it, was replaced by it, or the turn
   * addressed to its speaker answered it: engine/recall `parts.via`). @default false
   */
  linked?: boolean;
  /**
   * A turn that replaced an earlier turn of its speaker (its life `supersedes` one), for a question asking when
   * something came or changed: it is a change, the event such a question asks for (not only a first mention).
   * @default false
   */
  change?: boolean;
}

export interface RecallLabel {
  label: ConfidenceLabel;
  /** The seed's relative label, for comparison. */
  seedLabel: ConfidenceLabel;
  /** When "high" was withheld, why. */
  withheld?: string;
  /** A "high" turn that is the change a question asking when looks for (`LabelEvidence.change`): so it says. */
  evidence?: string;
}

/** What a "high" from `LabelEvidence.change` says. */
export const CHANGE_EVIDENCE =
  'it replaced an earlier turn of its speaker: the change a question asking when looks for';

/** Labels ranked results (best first) from their scores and the evidence behind them. */
export function recallLabels(results: readonly LabelEvidence[], options: RecallLabelOptions = {}): RecallLabel[] {
  const o = { ...RECALL_LABEL_DEFAULTS, ...options };
  const seed = labelAll(results.map((r) => r.score));
  return results.map((r, i) => {
    const seedLabel = seed[i] ?? 'low';
    if (o.mode === 'seed') return { label: seedLabel, seedLabel };
    if (r.termShare === 0 && r.similarity < o.minSimilarity && r.linked !== true)
      return {
        label: 'low',
        seedLabel,
        withheld: `none of the query's words and similarity ${r.similarity.toFixed(2)} below ${o.minSimilarity}`,
      };
    if (seedLabel !== 'high') return { label: seedLabel, seedLabel };
    const next = results[i + 1]?.score;
    const reasons: string[] = [];
    if (r.turn === true) {
      // A turn's few words share the speaker's name and a word with many of theirs: on the conversation set's dev
      // seed a top turn found by its words was right 0.56 of the time, one a link brought 0.86, one holding three
      // quarters of the query's words with a clear margin 0.87 (eval section E). The link is evidence in place of a
      // margin and a similarity; the words alone need most of the query's and the margin.
      // A question asking when: a top turn that replaced one of its speaker's is the change asked for, evidence as a
      // link is (dev / dev 2, eval section E: such "medium" tops were right 0.91 / 0.92 of the time; the other tops
      // first naming the value asked, 0.07 / 0.40).
      if (i > 0) reasons.push('not the top result');
      const clear = next === undefined || r.score >= (1 + o.minMargin) * next;
      if (r.linked !== true && r.change !== true && !(r.termShare >= RECALL_LABEL_DEFAULTS.turnTermShare && clear)) {
        const noChange = r.change === false ? ", and it replaced none of its speaker's turns" : '';
        reasons.push(
          `a turn found by its words alone (no link of its life to the match${noChange}) with ` +
            `${Math.round(r.termShare * 100)}% of the query's words${clear ? '' : ' and no clear margin'}`,
        );
      }
      if (r.termShare < o.minTermShare) reasons.push(`only ${Math.round(r.termShare * 100)}% of the query's words`);
      if (reasons.length > 0) return { label: 'medium', seedLabel, withheld: reasons.join('; ') };
      return r.change === true ? { label: 'high', seedLabel, evidence: CHANGE_EVIDENCE } : { label: 'high', seedLabel };
    }
    if (i > 0) reasons.push('not the top result');
    else if (next !== undefined && r.score < (1 + o.minMargin) * next)
      reasons.push(`no clear margin over the next result (${r.score.toFixed(3)} vs ${next.toFixed(3)})`);
    if (r.termShare < o.minTermShare) reasons.push(`only ${Math.round(r.termShare * 100)}% of the query's words`);
    if (r.similarity < o.minSimilarity) reasons.push(`similarity ${r.similarity.toFixed(2)} below ${o.minSimilarity}`);
    return reasons.length === 0
      ? { label: 'high', seedLabel }
      : { label: 'medium', seedLabel, withheld: reasons.join('; ') };
  });
}

/**
 * A learned item (an instinct or a skill) is no surer than its confidence now (walk 6, item 5: a skill decayed
 * to 0.22 was labelled "high"): in the noise band (< 0.3) it is "low", tentative (< 0.5) at most "medium".
 */
export function capLearnedLabel(label: RecallLabel, confidence: number): RecallLabel {
  const band = confidenceBand(Math.min(1, Math.max(0, confidence)));
  const cap: ConfidenceLabel = band.band === 'noise' ? 'low' : band.band === 'tentative' ? 'medium' : 'high';
  const rank = { low: 0, medium: 1, high: 2 } as const;
  if (rank[label.label] <= rank[cap]) return label;
  const why = `its confidence now is ${confidence.toFixed(2)} (${band.band}: ${band.action})`;
  return { ...label, label: cap, withheld: label.withheld === undefined ? why : `${label.withheld}; ${why}` };
}
