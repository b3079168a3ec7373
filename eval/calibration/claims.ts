/**
 * @module eval/calibration/claims
 * Section F's measures over binary claims (issue 24, items 2–3): each claim is a confidence shown and whether it
 * turned out right. The claims of one data set are split in two halves of its queries (seeded); every calibrator
 * learns on the training half and is measured on the other: the raw confidence (nothing learned), a constant base
 * rate, histogram binning (the training half's rate in each of the 10 bins) and Credence's learned map
 * (core/calibration: centred isotonic regression shrunk toward the seed confidence). Pure.
 */
import {
  applyCalibrationMap,
  binOf,
  brierScore,
  CALIBRATION_MAP_DEFAULTS,
  calibrationError,
  fitCalibrationMap,
  reliabilityTable,
  type CalibrationPoint,
} from '../../src/core/calibration/index.js';
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

/**
 * The four calibrators on one data set: `queries` split in halves by a seeded shuffle (the first half trains).
 * `priorStrength` is the engine's default: chosen once, the same for every set.
 */
export function calibrationRow(queries: readonly QueryClaims[], seed: number): CalibrationRow {
  const order = shuffled(queries, seed);
  const half = Math.floor(order.length / 2);
  const train = order.slice(0, half).flat();
  const test = order.slice(half).flat();
  const baseRate = train.length === 0 ? 0 : train.reduce((s, p) => s + p.outcome, 0) / train.length;
  const map = fitCalibrationMap(train, { priorStrength: CALIBRATION_MAP_DEFAULTS.priorStrength });
  const binning = histogramBinning(train, baseRate);
  const mapped = (f: (c: number) => number) => test.map((p) => ({ confidence: f(p.confidence), outcome: p.outcome }));
  return {
    claims: train.length + test.length,
    train: train.length,
    test: test.length,
    baseRate,
    raw: figures(test),
    constant: figures(mapped(() => baseRate)),
    binning: figures(mapped(binning)),
    map: figures(mapped((c) => applyCalibrationMap(map, c))),
  };
}
