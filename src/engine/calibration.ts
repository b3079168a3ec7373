/**
 * @module engine/calibration
 * Confidence you can check (issue 24, items 2–3). `calibrationReport`: per kind of claim, the outcomes known at `now`
 * as a reliability table, ECE and Brier, summed in the store (one GROUP BY); with enough outcomes the kind's learned
 * map, its cross-fitted figures and the calibrator its results use, from the newest {@link MAP_WINDOW} outcomes.
 * `CalibrationMaps`: per scope, the kept maps and reports, learned again only when an outcome changed, which put a
 * `probability` beside a result's seed `confidence`: the map or the logistic calibrator only where it beat the seed
 * out of sample (else the base rate, or the confidence itself), saying which; the fallback is the confidence a result
 * carries and its outcome stored (for a DAG its replayed calibration where it has past runs, not `seedConfidence`).
 */
import {
  applyCalibrationMap,
  applyLogisticCalibration,
  CALIBRATION_MAP_DEFAULTS,
  calibrationError,
  learnCalibrator,
  learnFromOutcomes,
  RELIABILITY_DEFAULTS,
  type CalibrationMap,
  type CalibrationPoint,
  type Calibrator,
  type CalibratorSelection,
  type LogisticCalibration,
  type ReliabilityBin,
} from '../core/calibration/index.js';
import { outcomeValue } from '../core/outcomes.js';
import { OUTCOME_KINDS, type OutcomeKind } from '../core/types.js';
import type { EpochMs, FeedbackStore, OutcomeBin, OutcomeRecord } from '../store/types.js';

export type { ReliabilityBin } from '../core/calibration/index.js';

/** One kind of claim, measured. */
export interface KindCalibration {
  kind: OutcomeKind;
  /** Outcomes behind the figures, and how many of them said the claim held. */
  outcomes: number;
  positives: number;
  /** 10 equal-width bins over [0, 1] of the confidence shown. */
  bins: ReliabilityBin[];
  /** Of the seed confidence as shown; null without outcomes. */
  ece: number | null;
  brier: number | null;
  /** At least `minOutcomes` outcomes: the map is learned and results of this kind carry a probability. */
  enough: boolean;
  /** The map's figures, learned on the earlier half of the outcomes and measured on the later. */
  calibrated?: {
    ece: number;
    brier: number;
    train: number;
    test: number;
    /** The seed confidence's own figures on the same later half. */
    seed: { ece: number; brier: number };
  };
  /** The learned map's knots (linear between them, flat beyond). */
  map?: { confidence: number; probability: number }[];
  /** The logistic calibrator learned on the same outcomes: probability = σ(a · logit(confidence) + b). */
  logistic?: { a: number; b: number };
  /** Which calibrator this kind's results use, and the out-of-sample Brier scores that chose it. */
  selection?: CalibratorSelection;
}

export interface CalibrationReport {
  scope: string;
  /** Only outcomes at or before this instant count (`--now`). */
  at: EpochMs;
  minOutcomes: number;
  priorStrength: number;
  kinds: KindCalibration[];
}

export interface CalibrationContext {
  store: Pick<FeedbackStore, 'listOutcomes' | 'outcomeBins'>;
  scope: string;
  now: EpochMs;
}

const pointOf = (o: OutcomeRecord): CalibrationPoint => ({
  confidence: Math.min(1, Math.max(0, o.confidence)),
  outcome: outcomeValue(o.outcome),
});

/** A kind's table, ECE and Brier from the store's sums per bin and outcome (Σ(c − y)² = Σc² − 2yΣc + y·n). */
function measureKind(kind: OutcomeKind, sums: readonly OutcomeBin[], learned: LearnedKind): KindCalibration {
  const bins = RELIABILITY_DEFAULTS.bins;
  const count = new Array<number>(bins).fill(0);
  const sumConfidence = new Array<number>(bins).fill(0);
  const sumOutcome = new Array<number>(bins).fill(0);
  let squares = 0;
  for (const s of sums) {
    const y = outcomeValue(s.outcome);
    count[s.bin] = (count[s.bin] ?? 0) + s.count;
    sumConfidence[s.bin] = (sumConfidence[s.bin] ?? 0) + s.sumConfidence;
    sumOutcome[s.bin] = (sumOutcome[s.bin] ?? 0) + y * s.count;
    squares += s.sumSquares - 2 * y * s.sumConfidence + y * s.count;
  }
  const table: ReliabilityBin[] = count.map((n, b) => ({
    lo: b / bins,
    hi: (b + 1) / bins,
    count: n,
    meanConfidence: n === 0 ? null : (sumConfidence[b] ?? 0) / n,
    observedRate: n === 0 ? null : (sumOutcome[b] ?? 0) / n,
  }));
  const outcomes = count.reduce((a, n) => a + n, 0);
  const report: KindCalibration = {
    kind,
    outcomes,
    positives: sumOutcome.reduce((a, n) => a + n, 0),
    bins: table,
    ece: calibrationError(table),
    brier: outcomes === 0 ? null : Math.max(0, squares) / outcomes,
    enough: outcomes >= CALIBRATION_MAP_DEFAULTS.minOutcomes,
  };
  if (!('map' in learned)) return report;
  return {
    ...report,
    ...(learned.calibrated === undefined ? {} : { calibrated: learned.calibrated }),
    map: learned.map.knots,
    logistic: { a: learned.logistic.a, b: learned.logistic.b },
    ...(learned.selection === undefined ? {} : { selection: learned.selection }),
  };
}

/**
 * The calibration report of the scope, for one kind or all six: the tables from the store's sums, the maps as
 * `maps` keeps them (learned when first asked for).
 */
export async function calibrationReport(
  ctx: CalibrationContext,
  options: { kind?: OutcomeKind } = {},
  maps: CalibrationMaps = new CalibrationMaps(),
): Promise<CalibrationReport> {
  const sums = await ctx.store.outcomeBins(ctx.scope, { at: ctx.now, bins: RELIABILITY_DEFAULTS.bins });
  const kinds = options.kind === undefined ? [...OUTCOME_KINDS] : [options.kind];
  const measured: KindCalibration[] = [];
  for (const k of kinds) {
    const ofKind = sums.filter((s) => s.kind === k);
    const learned = ofKind.length === 0 ? { outcomes: 0 } : await maps.of(ctx, k);
    measured.push(measureKind(k, ofKind, learned));
  }
  return {
    scope: ctx.scope,
    at: ctx.now,
    minOutcomes: CALIBRATION_MAP_DEFAULTS.minOutcomes,
    priorStrength: CALIBRATION_MAP_DEFAULTS.priorStrength,
    kinds: measured,
  };
}

/** What a result says of its probability: the value and its basis, or why there is none. */
export type ProbabilityFields =
  | { probability: number; probabilityBasis: ProbabilityBasis }
  | { probabilityWhy: string };

/**
 * Where a probability comes from: the kind, the outcomes learned from, the calibrator chosen (`map` the learned map,
 * `logistic` σ(a · logit(confidence) + b) with its a and b, `base-rate` the share of the kind's claims that held,
 * `seed` the confidence itself; each kept within [1/(n + 2), (n + 1)/(n + 2)] for the n outcomes behind it, never 0
 * or 1) and the out-of-sample Brier scores of each over `tested` outcomes (forward chaining in time order) that
 * chose it.
 */
export interface ProbabilityBasis {
  kind: OutcomeKind;
  outcomes: number;
  calibrator: Calibrator;
  /** With the logistic calibrator: its slope and intercept on the confidence's log-odds. */
  logistic?: { a: number; b: number };
  brier: Record<Calibrator, number>;
  tested: number;
}

/** The probability fields a result may carry: `probability` and its basis, or `probabilityWhy`. */
export interface ProbabilityInfo {
  probability?: number;
  probabilityBasis?: ProbabilityBasis;
  probabilityWhy?: string;
}

/** A kind's learned map with its figures and chosen calibrator (with enough outcomes), or how many it has. */
export type LearnedKind =
  | {
      map: CalibrationMap;
      logistic: LogisticCalibration;
      outcomes: number;
      selection?: CalibratorSelection;
      /** What a result's confidence becomes (the chosen calibrator, learned on the window). */
      apply: (confidence: number) => number;
      calibrated?: NonNullable<KindCalibration['calibrated']>;
    }
  | { outcomes: number };

/**
 * The outcomes of a kind a result's map learns from: the newest this many known at `now`, so a
 * one-shot process reads at most this many rows (~3.6 ms with 20,000 outcomes of the kind). The report's maps and
 * their figures are these; its tables count every outcome (summed in the store).
 */
export const MAP_WINDOW = 1_000;

/**
 * The scope's maps, kept between calls, each kind's learned when first asked for. They are learned again when the
 * latest outcome changed (one indexed row a call), when this engine recorded an outcome
 * ({@link CalibrationMaps.invalidate}), when `now` changed while some outcome lies after it (`--now` in the past),
 * or, while the latest outcome is at or after `now` (a fixed clock), when the outcomes at that instant changed. A
 * clock that moves on with every outcome before it (serve, the gateway, the dashboard) learns nothing again. An
 * outcome another process records back-dated (before the latest), or settled before its result was shown, shows
 * at the next newer one.
 */
export class CalibrationMaps {
  #key: string | undefined;
  #kinds = new Map<OutcomeKind, Promise<LearnedKind>>();
  #reports = new Map<string, Promise<CalibrationReport>>();

  /** Forgets the kept maps (an outcome was recorded through this engine). */
  invalidate(): void {
    this.#key = undefined;
  }

  /**
   * The calibration report at `ctx.now`, kept until an outcome changes (the probe {@link of} makes); a kept one
   * read at a later `now` with the same outcomes known says the time it was asked for.
   */
  async report(ctx: CalibrationContext, options: { kind?: OutcomeKind } = {}): Promise<CalibrationReport> {
    this.#renew(await this.#probe(ctx));
    const id = options.kind ?? '';
    let report = this.#reports.get(id);
    if (report === undefined) {
      report = calibrationReport(ctx, options, this);
      this.#reports.set(id, report);
      report.catch(() => this.#reports.delete(id));
    }
    const kept = await report;
    return kept.at === ctx.now ? kept : { ...kept, at: ctx.now };
  }

  /**
   * A key that changes when the outcomes known at `now` change: the latest outcome (one indexed row), `now` only
   * when that outcome lies after it, and the outcomes at the latest one's instant when it is not before `now`.
   */
  async #probe(ctx: CalibrationContext): Promise<{ key: string; any: boolean }> {
    const [latest] = await ctx.store.listOutcomes(ctx.scope, { limit: 1 });
    if (latest === undefined) return { key: '', any: false };
    let key = `${latest.id}:${latest.outcome}@${latest.outcomeAt}`;
    if (latest.outcomeAt > ctx.now || latest.at > ctx.now) key = `${ctx.now}|${key}`;
    if (latest.outcomeAt >= ctx.now) {
      const same = await ctx.store.listOutcomes(ctx.scope, { since: latest.outcomeAt });
      key += `|${same.map((o) => `${o.id}:${o.outcome}`).join(',')}`;
    }
    return { key, any: true };
  }

  #renew(probe: { key: string }): void {
    if (probe.key === this.#key) return;
    this.#kinds = new Map();
    this.#reports = new Map();
    this.#key = probe.key;
  }

  /** The learned map of `kind` at `ctx.now`, or how many outcomes it has. */
  async of(ctx: CalibrationContext, kind: OutcomeKind): Promise<LearnedKind> {
    const probe = await this.#probe(ctx);
    this.#renew(probe);
    let learned = this.#kinds.get(kind);
    if (learned === undefined) {
      learned = probe.any ? learnKind(ctx, kind) : Promise.resolve({ outcomes: 0 });
      this.#kinds.set(kind, learned);
      learned.catch(() => this.#kinds.delete(kind));
    }
    return learned;
  }
}

async function learnKind(ctx: CalibrationContext, kind: OutcomeKind): Promise<LearnedKind> {
  const recent = await ctx.store.listOutcomes(ctx.scope, { kind, until: ctx.now, limit: MAP_WINDOW });
  const points = recent.map(pointOf);
  if (points.length < CALIBRATION_MAP_DEFAULTS.minOutcomes) return { outcomes: points.length };
  // The selection, the cross-fitted figures and both final fits share one check and one sort of the outcomes.
  const { selection, calibrated, map, logistic } = learnFromOutcomes(points);
  const calibrator = selection?.calibrator ?? 'seed';
  const apply =
    calibrator === 'map'
      ? (c: number) => applyCalibrationMap(map, c)
      : calibrator === 'logistic'
        ? (c: number) => applyLogisticCalibration(logistic, c)
        : learnCalibrator(calibrator, points);
  return {
    map,
    logistic,
    outcomes: points.length,
    apply,
    ...(selection === undefined ? {} : { selection }),
    ...(calibrated === undefined ? {} : { calibrated }),
  };
}

/** The probability fields for a result of `kind` shown with `confidence`. */
export function probabilityFields(learned: LearnedKind, kind: OutcomeKind, confidence: number): ProbabilityFields {
  if (!('map' in learned)) {
    return {
      probabilityWhy:
        `${learned.outcomes} ${kind} outcome${learned.outcomes === 1 ? '' : 's'} of the ` +
        `${CALIBRATION_MAP_DEFAULTS.minOutcomes} a learned probability needs`,
    };
  }
  const selection = learned.selection;
  const calibrator = selection?.calibrator ?? 'seed';
  return {
    probability: learned.apply(Math.min(1, Math.max(0, Number.isNaN(confidence) ? 0 : confidence))),
    probabilityBasis: {
      kind,
      outcomes: learned.outcomes,
      calibrator,
      ...(calibrator === 'logistic' ? { logistic: { a: learned.logistic.a, b: learned.logistic.b } } : {}),
      brier: selection?.brier ?? {
        seed: Number.NaN,
        'base-rate': Number.NaN,
        logistic: Number.NaN,
        map: Number.NaN,
      },
      tested: selection?.tested ?? 0,
    },
  };
}
