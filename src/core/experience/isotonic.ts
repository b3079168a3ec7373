/**
 * @module core/experience/isotonic
 * A monotone (non-decreasing) fit of outcomes to a score, by pooling adjacent violators, used to turn a
 * memory's raw strength into how often such memories were right (issue 19). Each pooled block is shrunk
 * toward the overall mean (itself shrunk toward one half) by `prior` pseudo-observations, so a block of two
 * points says little. A score well below every one the fit was measured on is beyond its support
 * ({@link beyondSupport}). Pure.
 */

export interface IsotonicPoint {
  readonly x: number;
  readonly y: number;
}

export interface IsotonicFit {
  /** Upper x of each block, increasing. */
  readonly xs: readonly number[];
  /** Fitted value of each block, non-decreasing. */
  readonly ys: readonly number[];
  /** The smallest x seen. */
  readonly lo: number;
  /** How many points the fit stands on. */
  readonly n: number;
  /** The mean of every y. */
  readonly mean: number;
}

/** Fits y ≈ f(x), f non-decreasing; `prior` pseudo-points at the (shrunk) mean per block (default 2). */
export function fitIsotonic(points: readonly IsotonicPoint[], prior = 2): IsotonicFit {
  const sorted = [...points].sort((a, b) => a.x - b.x || a.y - b.y);
  const n = sorted.length;
  const mean = n === 0 ? 0 : sorted.reduce((s, p) => s + p.y, 0) / n;
  const blocks: { sum: number; count: number; hi: number }[] = [];
  for (const p of sorted) {
    blocks.push({ sum: p.y, count: 1, hi: p.x });
    while (blocks.length > 1) {
      const last = blocks[blocks.length - 1] as (typeof blocks)[number];
      const before = blocks[blocks.length - 2] as (typeof blocks)[number];
      if (before.sum / before.count < last.sum / last.count && before.hi < last.hi) break;
      blocks.pop();
      before.sum += last.sum;
      before.count += last.count;
      before.hi = last.hi;
    }
  }
  // The centre blocks shrink toward: the mean, itself shrunk toward one half (a few points say little).
  const centre = (mean * n + prior * 0.5) / (n + prior);
  const shrunk = blocks.map((b) => (b.sum + prior * centre) / (b.count + prior));
  // Shrinking can break the order where block sizes differ: one more pass keeps it monotone.
  for (let i = 1; i < shrunk.length; i += 1) shrunk[i] = Math.max(shrunk[i] as number, shrunk[i - 1] as number);
  return { xs: blocks.map((b) => b.hi), ys: shrunk, lo: sorted[0]?.x ?? 0, n, mean };
}

/**
 * The fitted value at `x`: the first block whose upper x reaches it (the last block past the end); below the
 * smallest x seen, the first block's value × √(x / that x).
 */
export function predictIsotonic(fit: IsotonicFit, x: number): number {
  if (fit.ys.length === 0) return fit.mean;
  // Below the weakest x seen nothing was measured: between keeping the first block's value and falling
  // linearly to 0 at x = 0, their geometric mean.
  if (x < fit.lo && fit.lo > 0) return (fit.ys[0] as number) * Math.sqrt(Math.max(0, x) / fit.lo);
  for (let i = 0; i < fit.xs.length; i += 1) if (x <= (fit.xs[i] as number)) return fit.ys[i] as number;
  return fit.ys[fit.ys.length - 1] as number;
}

/**
 * How far below the weakest score a fit was measured on a score may lie and still count as measured: a quarter of a
 * strength's [0, 1] scale. Where every replay was a repeat (strength 1), rewordings (0.77–0.95) stay within it and a
 * task sharing one word with the history (0.54–0.66) does not.
 */
export const SUPPORT_MARGIN = 0.25;

/**
 * Whether `x` lies below every score the fit stands on by more than `margin`: what the fit predicts there is an
 * extrapolation, not a measure (a memory replayed only on repeats of one task says little of a task it shares a word
 * with). Word overlap cannot tell such a task from a new wording of the same one, so this warns; it does not decide.
 */
export function beyondSupport(fit: IsotonicFit, x: number, margin = SUPPORT_MARGIN): boolean {
  return fit.n > 0 && x < fit.lo - margin;
}
