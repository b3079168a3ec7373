/**
 * @module eval/calibration/claims
 * Section F's measures over binary claims (issue 24, items 2–3): each claim is a confidence shown and whether it
 * turned out right. The claims of one data set are split in two halves of its queries (seeded); every calibrator
 * learns on the training half and is measured on the other: the raw confidence (nothing learned), a constant base
 * rate, histogram binning (the training half's rate in each of the 10 bins), Credence's learned map
 * (core/calibration: centred isotonic regression shrunk toward the seed confidence), its logistic calibrator
 * (σ(a · logit(c) + b), a Gaussian prior on the identity) and the calibrator the engine would choose
 * (core/calibration selectCalibrator, run inside the training half only). Beside an ECE, its noise floor: the mean
 * ECE of a perfectly calibrated predictor with the same predictions and n (seeded draws). The selected calibrator is
 * also measured two-fold: learned on each half, measured on the other, both halves' claims pooled. Pure.
 */
import {
  applyCalibrationMap,
  binOf,
  brierScore,
  CALIBRATION_MAP_DEFAULTS,
  calibrationError,
  fitCalibrationMap,
  fitLogisticCalibration,
  applyLogisticCalibration,
  learnCalibrator,
  reliabilityTable,
  selectCalibrator,
  type CalibrationPoint,
  type Calibrator,
} from '../../src/core/calibration/index.js';
import { mulberry32 } from '../../bench/prng.js';
import { shuffled } from '../data.js';

/** The claims of one query (kept together when the queries are split). */
export type QueryClaims = readonly CalibrationPoint[];

export interface Figures {
  ece: number;
  brier: number;
}

export interface CalibrationRow {
  claims: number;
  train: number;
  test: number;
  /** Share of the training half's claims that were right. */
  baseRate: number;
  raw: Figures;
  constant: Figures;
  binning: Figures;
  map: Figures;
  logistic: Figures;
  /** The calibrator selectCalibrator chose on the training half (in its order), learned there, measured here. */
  selected: Figures & { calibrator: Calibrator };
  /**
   * Noise floors of ECE on the test half: of the map's predictions and of the selected calibrator's, and the 95th
   * percentile of a perfectly calibrated predictor's ECE with the selected calibrator's predictions.
   */
  floor: { map: number; selected: number; selected95: number };
  /**
   * The selected calibrator cross-fitted two-fold: chosen and learned on each half, measured on the other, every
   * claim predicted once (the calibrator chosen on the second half may differ); its ECE's noise floor at that size.
   */
  twoFold: Figures & { claims: number; floor: number };
}

/** Draws a perfectly calibrated predictor's outcomes are averaged over for a noise floor. */
export const FLOOR_DRAWS = 200;

/**
 * The ECEs a perfectly calibrated predictor scores with these predictions: each outcome drawn right with its
 * prediction's probability (seeded), {@link FLOOR_DRAWS} draws, sorted.
 */
function calibratedEces(predictions: readonly number[], seed: number): number[] {
  if (predictions.length === 0) return [0];
  const random = mulberry32(seed);
  const eces: number[] = [];
  for (let d = 0; d < FLOOR_DRAWS; d += 1) {
    const drawn = predictions.map((p) => ({ confidence: p, outcome: random() < p ? 1 : 0 }));
    eces.push(calibrationError(reliabilityTable(drawn)) ?? 0);
  }
  return eces.sort((a, b) => a - b);
}

/**
 * The ECE a perfectly calibrated predictor scores with these predictions, averaged over {@link FLOOR_DRAWS} seeded
 * draws. What an ECE is measured against: below it, a gap is noise.
 */
export function eceNoiseFloor(predictions: readonly number[], seed: number): number {
  const eces = calibratedEces(predictions, seed);
  return eces.reduce((s, e) => s + e, 0) / eces.length;
}

/** The 95th percentile of a perfectly calibrated predictor's ECE with these predictions (same draws as the floor). */
export function eceNoise95(predictions: readonly number[], seed: number): number {
  const eces = calibratedEces(predictions, seed);
  return eces[Math.min(eces.length - 1, Math.ceil(0.95 * eces.length) - 1)] as number;
}

const BINS = 10;

/** ECE (10 bins) and Brier of claims. */
export function figures(points: readonly CalibrationPoint[]): Figures {
  return { ece: calibrationError(reliabilityTable(points)) ?? 0, brier: brierScore(points) ?? 0 };
}

/** The training half's rate per bin; an empty bin gives the base rate. */
function histogramBinning(train: readonly CalibrationPoint[], baseRate: number): (c: number) => number {
  const table = reliabilityTable(train, { bins: BINS });
  return (c) => table[binOf(c, BINS)]?.observedRate ?? baseRate;
}

/** One set's queries split in halves by a seeded shuffle: the first half trains, claims of a query kept together. */
export function splitClaims(
  queries: readonly QueryClaims[],
  seed: number,
): { train: CalibrationPoint[]; test: CalibrationPoint[] } {
  const order = shuffled(queries, seed);
  const half = Math.floor(order.length / 2);
  return { train: order.slice(0, half).flat(), test: order.slice(half).flat() };
}

/**
 * The calibrators learned on `train` and measured on `test`. `priorStrength` and the selection's runs are the
 * engine's defaults: chosen once, the same for every set.
 */
export function measureCalibrators(
  train: readonly CalibrationPoint[],
  test: readonly CalibrationPoint[],
  seed: number,
): CalibrationRow {
  const baseRate = train.length === 0 ? 0 : train.reduce((s, p) => s + p.outcome, 0) / train.length;
  const map = fitCalibrationMap(train, { priorStrength: CALIBRATION_MAP_DEFAULTS.priorStrength });
  const binning = histogramBinning(train, baseRate);
  const logistic = fitLogisticCalibration(train);
  const { calibrator, points: selectedPoints } = selectedOn(train, test);
  const mapped = (f: (c: number) => number) => test.map((p) => ({ confidence: f(p.confidence), outcome: p.outcome }));
  const mapPoints = mapped((c) => applyCalibrationMap(map, c));
  const twoFold = [...selectedPoints, ...selectedOn(test, train).points];
  return {
    claims: train.length + test.length,
    train: train.length,
    test: test.length,
    baseRate,
    raw: figures(test),
    constant: figures(mapped(() => baseRate)),
    binning: figures(mapped(binning)),
    map: figures(mapPoints),
    logistic: figures(mapped((c) => applyLogisticCalibration(logistic, c))),
    selected: { ...figures(selectedPoints), calibrator },
    floor: {
      map: eceNoiseFloor(
        mapPoints.map((p) => p.confidence),
        seed,
      ),
      selected: eceNoiseFloor(
        selectedPoints.map((p) => p.confidence),
        seed,
      ),
      selected95: eceNoise95(
        selectedPoints.map((p) => p.confidence),
        seed,
      ),
    },
    twoFold: {
      ...figures(twoFold),
      claims: twoFold.length,
      floor: eceNoiseFloor(
        twoFold.map((p) => p.confidence),
        seed,
      ),
    },
  };
}

/** The engine's choice made and learned on `train`, and its predictions of `test`. */
function selectedOn(
  train: readonly CalibrationPoint[],
  test: readonly CalibrationPoint[],
): { calibrator: Calibrator; points: CalibrationPoint[] } {
  const calibrator = selectCalibrator(train)?.calibrator ?? 'seed';
  const chosen = learnCalibrator(calibrator, train);
  return { calibrator, points: test.map((p) => ({ confidence: chosen(p.confidence), outcome: p.outcome })) };
}

/** The calibrators on one data set: `queries` split in halves by a seeded shuffle (the first half trains). */
export function calibrationRow(queries: readonly QueryClaims[], seed: number): CalibrationRow {
  const { train, test } = splitClaims(queries, seed);
  return measureCalibrators(train, test, seed);
}

/** One set's queries as the seed formula and as shown (the same queries and claims, in the same order). */
export interface PairedQueries {
  seed: readonly QueryClaims[];
  shown: readonly QueryClaims[];
}

/** The engine's selection over many seeded splits of the same claims: how much one split's figures owe to luck. */
export interface RepeatedSplits {
  splits: number;
  /** Means over the splits, on each test half: the selected calibrator's ECE and Brier, the seed formula's Brier. */
  ece: number;
  brier: number;
  seedBrier: number;
  /** Splits where the selected calibrator's ECE is at most `target` (compared at three decimals). */
  eceMet: number;
  /** Splits where its Brier is below the seed formula's. */
  brierBetter: number;
  /** Splits whose ECE is above the first split's (0: the first split is the worst of them). */
  aboveFirst: number;
}

/**
 * The selected calibrator (chosen and learned on each training half, as in {@link measureCalibrators}) over the
 * splits `seeds` (the first is the section's own): every set split by the seed, the sets' halves pooled (one set
 * for a row, all of a kind's sets for its pooled row). Splits of one data set share claims, so they are not
 * independent draws: the spread says how much the one split's figure depends on which queries fell on which side.
 */
export function repeatedSplits(
  sets: readonly PairedQueries[],
  seeds: readonly number[],
  target: number,
): RepeatedSplits {
  const eces: number[] = [];
  let brier = 0;
  let seedBrier = 0;
  let brierBetter = 0;
  for (const s of seeds) {
    const shown = sets.map((q) => splitClaims(q.shown, s));
    const formula = sets.flatMap((q) => splitClaims(q.seed, s).test);
    const { points } = selectedOn(
      shown.flatMap((h) => h.train),
      shown.flatMap((h) => h.test),
    );
    const selected = figures(points);
    const raw = figures(formula).brier;
    eces.push(selected.ece);
    brier += selected.brier;
    seedBrier += raw;
    if (selected.brier < raw) brierBetter += 1;
  }
  const n = Math.max(1, seeds.length);
  const first = eces[0] ?? 0;
  return {
    splits: seeds.length,
    ece: eces.reduce((a, e) => a + e, 0) / n,
    brier: brier / n,
    seedBrier: seedBrier / n,
    eceMet: eces.filter((e) => Math.round(e * 1000) <= Math.round(target * 1000)).length,
    brierBetter,
    aboveFirst: eces.filter((e) => e > first).length,
  };
}
