/**
 * @module eval/calibration/claims
 * Section F's measures over binary claims (issue 24, items 2–3): each claim is a confidence shown and whether it
 * turned out right. The claims of one data set are split in two halves of its queries (seeded); every calibrator
 * learns on the training half and is measured on the other: the raw confidence (nothing learned), a constant base
 * rate, histogram binning (the training half's rate in each of the 10 bins), Credence's learned map
 * (core/calibration: centred isotonic regression shrunk toward the seed confidence) and the calibrator the engine
 * would choose (core/calibration selectCalibrator, run inside the training half only). Beside an ECE, its noise floor:
 * the mean ECE of a perfectly calibrated predictor with the same predictions and n (seeded draws). Pure.
 */
import {
  applyCalibrationMap,
  binOf,
  brierScore,
  CALIBRATION_MAP_DEFAULTS,
  calibrationError,
  fitCalibrationMap,
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
  /** The calibrator selectCalibrator chose on the training half (in its order), learned there, measured here. */
  selected: Figures & { calibrator: Calibrator };
  /** Noise floors of ECE on the test half: of the map's predictions and of the selected calibrator's. */
  floor: { map: number; selected: number };
}

/** Draws a perfectly calibrated predictor's outcomes are averaged over for a noise floor. */
export const FLOOR_DRAWS = 200;

/**
 * The ECE a perfectly calibrated predictor scores with these predictions: each outcome drawn right with its
 * prediction's probability (seeded), the ECE averaged over {@link FLOOR_DRAWS} draws. What an ECE is measured
 * against: below it, a gap is noise.
 */
export function eceNoiseFloor(predictions: readonly number[], seed: number): number {
  if (predictions.length === 0) return 0;
  const random = mulberry32(seed);
  let sum = 0;
  for (let d = 0; d < FLOOR_DRAWS; d += 1) {
    const drawn = predictions.map((p) => ({ confidence: p, outcome: random() < p ? 1 : 0 }));
    sum += calibrationError(reliabilityTable(drawn)) ?? 0;
  }
  return sum / FLOOR_DRAWS;
}

const BINS = 10;

function figures(points: readonly CalibrationPoint[]): Figures {
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
  const calibrator = selectCalibrator(train)?.calibrator ?? 'seed';
  const chosen = learnCalibrator(calibrator, train);
  const mapped = (f: (c: number) => number) => test.map((p) => ({ confidence: f(p.confidence), outcome: p.outcome }));
  const mapPoints = mapped((c) => applyCalibrationMap(map, c));
  const selectedPoints = mapped(chosen);
  return {
    claims: train.length + test.length,
    train: train.length,
    test: test.length,
    baseRate,
    raw: figures(test),
    constant: figures(mapped(() => baseRate)),
    binning: figures(mapped(binning)),
    map: figures(mapPoints),
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
    },
  };
}

/** The calibrators on one data set: `queries` split in halves by a seeded shuffle (the first half trains). */
export function calibrationRow(queries: readonly QueryClaims[], seed: number): CalibrationRow {
  const { train, test } = splitClaims(queries, seed);
  return measureCalibrators(train, test, seed);
}
