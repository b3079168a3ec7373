/**
 * @module core/experience/paired-gain
 * How much one way of answering beat another on the same replayed runs (issue 19's rule that learning never does
 * worse): the mean of the paired differences and its standard error, and whether the gain stands above that noise.
 * A gain that is not above it is not taken as one. Pure.
 */

export interface PairedGain {
  /** Mean of `better[i] − base[i]`. */
  readonly gain: number;
  /** Standard error of that mean (the sample deviation of the differences over √n); 0 under two pairs. */
  readonly standardError: number;
  /** Pairs compared. */
  readonly n: number;
}

/** The paired gain of `better` over `base`; pairs beyond the shorter list are not compared. */
export function pairedGain(better: ArrayLike<number>, base: ArrayLike<number>): PairedGain {
  const n = Math.min(better.length, base.length);
  if (n === 0) return { gain: 0, standardError: 0, n: 0 };
  const diff = Array.from({ length: n }, (_, i) => (better[i] as number) - (base[i] as number));
  const gain = diff.reduce((t, v) => t + v, 0) / n;
  if (n < 2) return { gain, standardError: 0, n };
  const variance = diff.reduce((t, v) => t + (v - gain) ** 2, 0) / (n - 1);
  return { gain, standardError: Math.sqrt(variance / n), n };
}

/**
 * Whether a paired gain stands above its noise: more than `margin` standard errors, on at least two pairs, the
 * standard error taken no lower than `resolution`, the finest difference the scores can show: pairs that agree to
 * within it show no spread that can be measured, not a spread of zero, so a gain no larger than it never stands.
 */
export function gainStands(g: PairedGain, margin: number, resolution = 0): boolean {
  return g.n >= 2 && g.gain > margin * Math.max(g.standardError, resolution) + 1e-12;
}
