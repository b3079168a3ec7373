/**
 * @module eval/calibration/alternatives
 * Section F3: selection rules tried against the engine's (core/calibration selectCalibrator) and not kept, measured
 * on the same claims, splits and figures (issue 24). Each rule sees what the engine's selection sees (the training
 * half in order, cut in 5 runs, each predicted by calibrators learned on the runs before it) and differs in one thing:
 * - `clustered`: the standard error of a paired gain from per-query sums (one query's claims share a DAG's
 *   confidence and its outcomes; Liang & Zeger 1986's sandwich with the small-sample factor G / (G − 1)), and Cox's
 *   test of what is kept on one point per query (its claims' mean confidence and the share that held).
 * - `shrunk to base rate`: where a learned calibrator was chosen, blended with the base rate,
 *   p = (1 − w) · chosen + w · rate, w the least-squares weight of the two's out-of-sample predictions in the runs
 *   (in [0, 1]), shrunk by its own evidence: w · g² / (g² + se²), g the blend's mean paired gain over the choice.
 * - `seed formula fallback` and `seed formula candidate`: the seed formula's value (DAGs: seedConfidence) stored
 *   beside the confidence shown, which the engine's outcomes do not keep; as what is kept unless beaten (the shown
 *   confidence then a candidate), or as one more candidate that must beat the confidence shown.
 * Pure: plain claims in, figures out.
 */
import {
  boundByOutcomes,
  learnCalibrator,
  SELECTION_DEFAULTS,
  testCalibration,
  type CalibrationPoint,
} from '../../src/core/calibration/index.js';
import { eceNoiseFloor, figures, splitClaims, type Figures, type PairedQueries } from './claims.js';

/** The rules of F3, the engine's first. */
export const ALTERNATIVES = [
  'selected',
  'clustered',
  'shrunk to base rate',
  'seed formula fallback',
  'seed formula candidate',
] as const;
export type Alternative = (typeof ALTERNATIVES)[number];

/** A claim with the seed formula's value beside the confidence shown and the query it belongs to. */
export interface PairedClaim extends CalibrationPoint {
  formula: number;
  query: number;
}

type Source = 'seed' | 'base-rate' | 'logistic' | 'map' | 'formula';
const LEARNED = ['base-rate', 'logistic', 'map'] as const;

/** Out-of-sample predictions of each source over the runs after the first, with each outcome and its query. */
interface Forward {
  pred: Record<Source, number[]>;
  y: number[];
  query: number[];
  /** Where each predicted run starts, in the predictions. */
  starts: number[];
}

function forward(train: readonly PairedClaim[], folds: number): Forward {
  const n = train.length;
  const cut = (j: number) => Math.floor((j * n) / folds);
  const f: Forward = {
    pred: { seed: [], 'base-rate': [], logistic: [], map: [], formula: [] },
    y: [],
    query: [],
    starts: [],
  };
  for (let j = 1; j < folds; j += 1) {
    const before = train.slice(0, cut(j));
    const learned = LEARNED.map((c) => learnCalibrator(c, before));
    f.starts.push(f.y.length);
    for (let i = cut(j); i < cut(j + 1); i += 1) {
      const p = train[i] as PairedClaim;
      f.y.push(p.outcome);
      f.query.push(p.query);
      // The confidence shown and the formula, each kept within the outcomes before the run, as the engine's seed is.
      f.pred.seed.push(boundByOutcomes(p.confidence, cut(j)));
      f.pred.formula.push(boundByOutcomes(p.formula, cut(j)));
      LEARNED.forEach((c, k) => f.pred[c].push((learned[k] as (c: number) => number)(p.confidence)));
    }
  }
  return f;
}

const mean = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length);

/** Mean and standard error of paired differences, per claim or from per-query sums. */
function meanAndError(d: readonly number[], query: readonly number[], clustered: boolean) {
  const m = mean(d);
  if (!clustered) {
    const v = d.reduce((s, x) => s + (x - m) ** 2, 0) / Math.max(1, d.length - 1);
    return { mean: m, standardError: Math.sqrt(v / Math.max(1, d.length)) };
  }
  const sums = new Map<number, number>();
  d.forEach((x, i) => sums.set(query[i] as number, (sums.get(query[i] as number) ?? 0) + x - m));
  const g = sums.size;
  let squares = 0;
  for (const s of sums.values()) squares += s * s;
  return { mean: m, standardError: Math.sqrt((g / Math.max(1, g - 1)) * squares) / Math.max(1, d.length) };
}

/**
 * The engine's rule, from `base`: earlier candidates by their gain over it, then the logistic over that choice, or
 * over `base` kept when `refuted` (Cox's test on the newest half of the outcomes, at the engine's level) by a gain
 * above 0.
 */
function decide(
  f: Forward,
  base: Source,
  candidates: readonly Source[],
  clustered: boolean,
  margin: number,
  refuted: boolean,
): Source {
  const brier = (s: Source) => mean(f.pred[s].map((p, i) => (p - (f.y[i] as number)) ** 2));
  const gain = (a: Source, over: Source) =>
    meanAndError(
      f.y.map((y, i) => ((f.pred[over][i] as number) - y) ** 2 - ((f.pred[a][i] as number) - y) ** 2),
      f.query,
      clustered,
    );
  const beats = (g: { mean: number; standardError: number }) => g.mean > margin * g.standardError && g.mean > 0;
  let earlier = base;
  for (const c of candidates) if (beats(gain(c, base)) && brier(c) < brier(earlier)) earlier = c;
  const g = gain('logistic', earlier);
  return beats(g) || (earlier === base && refuted && g.mean > 0) ? 'logistic' : earlier;
}

/** The blend weight toward the base rate of `chosen`'s predictions, shrunk by the blend's own evidence. */
function shrinkWeight(f: Forward, chosen: Source): number {
  const r = f.pred['base-rate'];
  const c = f.pred[chosen];
  let num = 0;
  let den = 0;
  f.y.forEach((y, i) => {
    const ci = c[i] as number;
    const ri = r[i] as number;
    num += (ci - ri) * (ci - y);
    den += (ci - ri) ** 2;
  });
  const w = den === 0 ? 0 : Math.min(1, Math.max(0, num / den));
  const g = meanAndError(
    f.y.map((y, i) => {
      const ci = c[i] as number;
      return (ci - y) ** 2 - ((1 - w) * ci + w * (r[i] as number) - y) ** 2;
    }),
    f.query,
    false,
  );
  return g.mean <= 0 ? 0 : (w * g.mean ** 2) / (g.mean ** 2 + g.standardError ** 2);
}

/** What a rule predicts for a claim: from the confidence shown and the seed formula's value. */
export type Predictor = (claim: PairedClaim) => number;

/** Every rule chosen and learned on `train` (in order), as predictors: one pass of the runs, each fit once. */
export function learnAlternatives(train: readonly PairedClaim[]): Record<Alternative, Predictor> {
  const { folds, margin, significance } = SELECTION_DEFAULTS;
  if (train.length < folds) {
    const shown: Predictor = (p) => p.confidence;
    return Object.fromEntries(ALTERNATIVES.map((a) => [a, shown])) as Record<Alternative, Predictor>;
  }
  const f = forward(train, folds);
  const fits = new Map<Source, (c: number) => number>();
  const learnedMap = (source: Exclude<Source, 'formula'>) => {
    let learned = fits.get(source);
    if (learned === undefined) {
      learned = learnCalibrator(source, train);
      fits.set(source, learned);
    }
    return learned;
  };
  const predictor = (source: Source, blend = 0): Predictor => {
    if (source === 'formula') return (p) => boundByOutcomes(p.formula, train.length);
    const chosen = learnedMap(source);
    if (blend === 0) return (p) => chosen(p.confidence);
    const rate = learnedMap('base-rate')(0);
    return (p) => (1 - blend) * chosen(p.confidence) + blend * rate;
  };
  // The engine's trial of what it keeps (core/calibration selection, step 6): the newest half of the outcomes.
  const newest = train.slice(Math.floor(train.length / 2));
  const refutes = (confidence: (p: PairedClaim) => number) =>
    testCalibration(newest.map((p) => ({ confidence: confidence(p), outcome: p.outcome }))).pValue < significance;
  const shown = refutes((p) => p.confidence);
  const formula = refutes((p) => p.formula);
  // Clustered, the trial counts a query once: its claims' mean confidence and the share of them that held.
  const byQuery = new Map<number, { confidence: number; outcome: number; n: number }>();
  for (const p of newest) {
    const q = byQuery.get(p.query) ?? { confidence: 0, outcome: 0, n: 0 };
    byQuery.set(p.query, { confidence: q.confidence + p.confidence, outcome: q.outcome + p.outcome, n: q.n + 1 });
  }
  const perQuery = [...byQuery.values()].map((q) => ({ confidence: q.confidence / q.n, outcome: q.outcome / q.n }));
  const shownClustered = testCalibration(perQuery).pValue < significance;
  const selected = decide(f, 'seed', ['base-rate', 'map'], false, margin, shown);
  return {
    selected: predictor(selected),
    clustered: predictor(decide(f, 'seed', ['base-rate', 'map'], true, margin, shownClustered)),
    'shrunk to base rate': predictor(selected, selected === 'seed' ? 0 : shrinkWeight(f, selected)),
    'seed formula fallback': predictor(decide(f, 'formula', ['seed', 'base-rate', 'map'], false, margin, formula)),
    'seed formula candidate': predictor(decide(f, 'seed', ['formula', 'base-rate', 'map'], false, margin, shown)),
  };
}

/** The rule `alternative` chosen and learned on `train` (in order), as a predictor. */
export function learnAlternative(alternative: Alternative, train: readonly PairedClaim[]): Predictor {
  return learnAlternatives(train)[alternative];
}

/**
 * One set's queries as paired claims, split in halves by `seed` as {@link splitClaims} splits them; the queries
 * numbered from `firstQuery` (so that pooled sets do not share query numbers).
 */
export function splitPaired(
  q: PairedQueries,
  seed: number,
  firstQuery = 0,
): { train: PairedClaim[]; test: PairedClaim[] } {
  const paired = q.shown.map((claims, i) =>
    claims.map((p, k) => ({ ...p, formula: q.seed[i]?.[k]?.confidence ?? p.confidence, query: firstQuery + i })),
  );
  return splitClaims(paired, seed) as { train: PairedClaim[]; test: PairedClaim[] };
}

/** A rule's figures on a row: the one split (with its ECE's noise floor), two-fold, and the mean over the splits. */
export interface AlternativeRow {
  alternative: Alternative;
  split: Figures & { floor: number };
  twoFold: Figures & { floor: number };
  repeated: Figures;
}

const predicted = (f: Predictor, claims: readonly PairedClaim[]): CalibrationPoint[] =>
  claims.map((p) => ({ confidence: f(p), outcome: p.outcome }));

/**
 * Every rule on the sets `sets` (pooled halves for several): learned on the training half of split `seeds[0]` and
 * measured on its test half (with the floor), two-fold on that split, and averaged over all the splits `seeds`.
 */
export function measureAlternatives(sets: readonly PairedQueries[], seeds: readonly number[]): AlternativeRow[] {
  const halves = (s: number) => {
    let first = 0;
    const h = sets.map((q) => {
      const split = splitPaired(q, s, first);
      first += q.shown.length;
      return split;
    });
    return { train: h.flatMap((x) => x.train), test: h.flatMap((x) => x.test) };
  };
  const splits = seeds.map(halves);
  const learned = splits.map((h) => learnAlternatives(h.train));
  const [first] = splits;
  const reverse = first === undefined ? undefined : learnAlternatives(first.test);
  return ALTERNATIVES.map((alternative) => {
    const one =
      first === undefined ? [] : predicted((learned[0] as Record<Alternative, Predictor>)[alternative], first.test);
    const other = first === undefined || reverse === undefined ? [] : predicted(reverse[alternative], first.train);
    const both = [...one, ...other];
    const each = splits.map((h, k) =>
      k === 0 ? figures(one) : figures(predicted((learned[k] as Record<Alternative, Predictor>)[alternative], h.test)),
    );
    const floorSeed = seeds[0] ?? 0;
    return {
      alternative,
      split: {
        ...figures(one),
        floor: eceNoiseFloor(
          one.map((p) => p.confidence),
          floorSeed,
        ),
      },
      twoFold: {
        ...figures(both),
        floor: eceNoiseFloor(
          both.map((p) => p.confidence),
          floorSeed,
        ),
      },
      repeated: { ece: mean(each.map((x) => x.ece)), brier: mean(each.map((x) => x.brier)) },
    };
  });
}
