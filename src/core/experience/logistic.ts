/**
 * @module core/experience/logistic
 * A small logistic regression, fitted by Newton's method with an L2 penalty (issue 19): how likely a
 * candidate tool or edge is right, from a few features, learned from the scope's own replayed runs. The
 * bias is not penalised. Deterministic: same rows, same weights. Pure.
 */

export interface LogisticFit {
  readonly weights: readonly number[];
  /** Rows the fit stands on. */
  readonly n: number;
  /** Share of positive rows. */
  readonly base: number;
}

const sigmoid = (z: number): number => 1 / (1 + Math.exp(-Math.max(-30, Math.min(30, z))));

/** The probability a fit gives a feature row (the first feature is the bias, 1). */
export function predictLogistic(fit: LogisticFit, x: readonly number[]): number {
  let z = 0;
  for (let i = 0; i < fit.weights.length; i += 1) z += (fit.weights[i] as number) * (x[i] ?? 0);
  return sigmoid(z);
}

/** Solves A w = b (A symmetric positive definite, small) by Gaussian elimination with partial pivoting. */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i] as number]);
  for (let c = 0; c < n; c += 1) {
    let pivot = c;
    for (let r = c + 1; r < n; r += 1)
      if (Math.abs((m[r] as number[])[c] as number) > Math.abs((m[pivot] as number[])[c] as number)) pivot = r;
    [m[c], m[pivot]] = [m[pivot] as number[], m[c] as number[]];
    const row = m[c] as number[];
    const d = row[c] as number;
    if (Math.abs(d) < 1e-12) continue;
    for (let r = 0; r < n; r += 1) {
      if (r === c) continue;
      const other = m[r] as number[];
      const f = (other[c] as number) / d;
      if (f === 0) continue;
      for (let k = c; k <= n; k += 1) other[k] = (other[k] as number) - f * (row[k] as number);
    }
  }
  return m.map((row, i) => {
    const d = row[i] as number;
    return Math.abs(d) < 1e-12 ? 0 : (row[n] as number) / d;
  });
}

/** A small penalty on the bias too, so rows all of one kind cannot push it to infinity. */
const BIAS_L2 = 1e-3;

/** The penalised negative log-likelihood of weights `w`. */
function loss(x: readonly (readonly number[])[], y: readonly number[], w: readonly number[], l2: number): number {
  let total = 0;
  for (let r = 0; r < x.length; r += 1) {
    const row = x[r] as readonly number[];
    let z = 0;
    for (let i = 0; i < w.length; i += 1) z += (w[i] as number) * (row[i] ?? 0);
    // log(1 + e^z) − y·z, computed without overflow.
    total += (z > 0 ? z + Math.log1p(Math.exp(-z)) : Math.log1p(Math.exp(z))) - (y[r] as number) * z;
  }
  let penalty = BIAS_L2 * (w[0] ?? 0) ** 2;
  for (let i = 1; i < w.length; i += 1) penalty += l2 * (w[i] as number) ** 2;
  return total + penalty / 2;
}

/** Fits P(y = 1 | x); `x[i][0]` must be 1 (the bias). `l2` weighs the penalty (default 1). */
export function fitLogistic(
  x: readonly (readonly number[])[],
  y: readonly number[],
  options: { l2?: number; iterations?: number } = {},
): LogisticFit {
  const n = x.length;
  const d = x[0]?.length ?? 0;
  const base = n === 0 ? 0 : y.reduce((s, v) => s + v, 0) / n;
  const w = new Array<number>(d).fill(0);
  // Start from the base rate, so a fit on few rows stays near it.
  if (d > 0) w[0] = Math.log((base + 0.01) / (1 - base + 0.01));
  const l2 = options.l2 ?? 1;
  for (let it = 0; it < (options.iterations ?? 25); it += 1) {
    const grad = new Array<number>(d).fill(0);
    const hess = Array.from({ length: d }, () => new Array<number>(d).fill(0));
    for (let r = 0; r < n; r += 1) {
      const row = x[r] as readonly number[];
      const p = predictLogistic({ weights: w, n, base }, row);
      const e = p - (y[r] as number);
      const s = Math.max(1e-9, p * (1 - p));
      for (let i = 0; i < d; i += 1) {
        grad[i] = (grad[i] as number) + e * (row[i] as number);
        const hi = hess[i] as number[];
        for (let j = 0; j < d; j += 1) hi[j] = (hi[j] as number) + s * (row[i] as number) * (row[j] as number);
      }
    }
    for (let i = 1; i < d; i += 1) {
      grad[i] = (grad[i] as number) + l2 * (w[i] as number);
      (hess[i] as number[])[i] = ((hess[i] as number[])[i] as number) + l2;
    }
    grad[0] = (grad[0] as number) + BIAS_L2 * (w[0] as number);
    (hess[0] as number[])[0] = ((hess[0] as number[])[0] as number) + BIAS_L2;
    const step = solve(hess, grad);
    // A damped step: halved until the penalised loss does not grow (separable rows would run away).
    const before = loss(x, y, w, l2);
    let scale = 1;
    let next = w.map((v, i) => v - (step[i] as number));
    for (let k = 0; k < 30 && loss(x, y, next, l2) > before + 1e-12; k += 1) {
      scale /= 2;
      next = w.map((v, i) => v - scale * (step[i] as number));
    }
    let moved = 0;
    for (let i = 0; i < d; i += 1) {
      moved = Math.max(moved, Math.abs((next[i] as number) - (w[i] as number)));
      w[i] = next[i] as number;
    }
    if (moved < 1e-8) break;
  }
  return { weights: w, n, base };
}
