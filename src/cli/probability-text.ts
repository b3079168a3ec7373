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

/** Why the results carry no learned probability (too few outcomes of their kind), one line; undefined otherwise. */
export function noProbabilityLine(results: readonly ProbabilityInfo[]): string | undefined {
  const why = results.find((r) => r.probability === undefined && r.probabilityWhy !== undefined)?.probabilityWhy;
  return why === undefined ? undefined : `no learned probability yet: ${why}`;
}
