/**
 * @module cli/probability-text — the learned probability a result carries (docs/calibration.md, "Probability beside
 * the confidence") as `next`, `tools search`, `recall` and `dag` print it: `p 0.714 (map, 200 outcomes)` on each line
 * that has one, and once per command the line that says why the results carry none.
 */
import type { ProbabilityInfo } from '../engine/calibration.js';

/** `p 0.714 (map, 200 outcomes)`: the probability, its calibrator and the outcomes it was learned from; or ''. */
export function probabilityText(r: ProbabilityInfo): string {
  const basis = r.probabilityBasis;
  if (r.probability === undefined || basis === undefined) return '';
  return `p ${r.probability.toFixed(3)} (${basis.calibrator}, ${basis.outcomes} outcomes)`;
}

/** `  p 0.714 (…)` to append to a result's line, or '' when it has no probability. */
export const withProbability = (r: ProbabilityInfo): string => {
  const text = probabilityText(r);
  return text === '' ? '' : `  ${text}`;
};

/**
 * `  score 0.449 → p 0.553 (map, 322 outcomes)` to append to a recall line after its label, or '': the probability is
 * the calibrator's value at the result's score, not at its label, so it is printed beside the score it maps (a `low`
 * result can carry a higher p than a `medium` one). A score above 1 is mapped as 1.
 */
export const withScoreProbability = (r: ProbabilityInfo & { score: number }): string => {
  const text = probabilityText(r);
  return text === '' ? '' : `  score ${r.score.toFixed(3)} → ${text}`;
};

/** Why the results carry no learned probability (too few outcomes of their kind), one line; undefined otherwise. */
export function noProbabilityLine(results: readonly ProbabilityInfo[]): string | undefined {
  const why = results.find((r) => r.probability === undefined && r.probabilityWhy !== undefined)?.probabilityWhy;
  return why === undefined ? undefined : `no learned probability yet: ${why}`;
}
