/**
 * @module core/experience/expected-f1
 * Which candidates to keep when each has a probability of being right (issue 19): the set that maximises
 * the expected F1 against the truth, `2 · Σ p(kept) / (|kept| + expected truth size)`, the truth size being
 * the candidates' total probability plus the right items no candidate holds (`missing`). Taking the most
 * likely first is optimal for this approximation. At least one is kept. Pure.
 */

export interface Chosen<T> {
  readonly kept: readonly T[];
  /** The kept set's expected F1 under the probabilities. */
  readonly expectedF1: number;
}

/** The kept candidates (most likely first) and their expected F1; `missing` ≥ 0 (default 0). */
export function chooseByExpectedF1<T extends { readonly p: number }>(candidates: readonly T[], missing = 0): Chosen<T> {
  const sorted = [...candidates].sort((a, b) => b.p - a.p);
  const truthSize = sorted.reduce((s, c) => s + c.p, 0) + Math.max(0, missing);
  let best = { k: sorted.length === 0 ? 0 : 1, f1: -1 };
  let sum = 0;
  sorted.forEach((c, i) => {
    sum += c.p;
    const f1 = truthSize + i + 1 === 0 ? 0 : (2 * sum) / (i + 1 + truthSize);
    if (f1 > best.f1 + 1e-12) best = { k: i + 1, f1 };
  });
  return { kept: sorted.slice(0, best.k), expectedF1: Math.max(0, best.f1) };
}
