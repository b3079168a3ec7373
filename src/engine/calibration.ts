/**
 * @module engine/calibration
 * Confidence you can check (issue 24, items 2–3). `calibrationReport`: per kind of claim, the store's outcomes
 * (what became of each shown claim, at or before `now`) as a reliability table, ECE and Brier score; with enough
 * outcomes ({@link CALIBRATION_MAP_DEFAULTS}.minOutcomes) the learned map confidence → probability and its own
 * figures, cross-fitted (learned on the earlier half in time order, measured on the later).
 * `CalibrationMaps`: the scope's learned maps, kept and learned again only when the latest outcome changed, which
 * put a `probability` beside a result's seed `confidence` (the confidence and its parts stay as they are).
 */
import {
  applyCalibrationMap,
  CALIBRATION_MAP_DEFAULTS,
  crossFitCalibration,
  fitCalibrationMap,
  measureCalibration,
  type CalibrationMap,
  type CalibrationPoint,
  type ReliabilityBin,
} from '../core/calibration/index.js';
import { outcomeValue } from '../core/outcomes.js';
import { OUTCOME_KINDS, type OutcomeKind } from '../core/types.js';
import type { EpochMs, FeedbackStore, OutcomeRecord } from '../store/types.js';

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
  store: Pick<FeedbackStore, 'listOutcomes'>;
  scope: string;
  now: EpochMs;
}

/** The outcomes of the scope known at `now` (shown and settled by then), oldest outcome first. */
async function outcomesAt(ctx: CalibrationContext, kind?: OutcomeKind): Promise<OutcomeRecord[]> {
  const all = await ctx.store.listOutcomes(ctx.scope, kind === undefined ? {} : { kind });
  return all.filter((o) => o.outcomeAt <= ctx.now && o.at <= ctx.now);
}

const pointOf = (o: OutcomeRecord): CalibrationPoint => ({
  confidence: Math.min(1, Math.max(0, o.confidence)),
  outcome: outcomeValue(o.outcome),
});

function measureKind(kind: OutcomeKind, outcomes: readonly OutcomeRecord[]): KindCalibration {
  const points = outcomes.map(pointOf);
  const measured = measureCalibration(points);
  const enough = points.length >= CALIBRATION_MAP_DEFAULTS.minOutcomes;
  const kindReport: KindCalibration = {
    kind,
    outcomes: points.length,
    positives: points.reduce((s, p) => s + p.outcome, 0),
    ...measured,
    enough,
  };
  if (!enough) return kindReport;
  const calibrated = crossFitCalibration(points);
  return {
    ...kindReport,
    ...(calibrated === undefined ? {} : { calibrated }),
    map: fitCalibrationMap(points).knots,
  };
}

/** The calibration report of the scope, for one kind or all six. */
export async function calibrationReport(
  ctx: CalibrationContext,
  options: { kind?: OutcomeKind } = {},
): Promise<CalibrationReport> {
  const outcomes = await outcomesAt(ctx, options.kind);
  const kinds = options.kind === undefined ? [...OUTCOME_KINDS] : [options.kind];
  return {
    scope: ctx.scope,
    at: ctx.now,
    minOutcomes: CALIBRATION_MAP_DEFAULTS.minOutcomes,
    priorStrength: CALIBRATION_MAP_DEFAULTS.priorStrength,
    kinds: kinds.map((k) =>
      measureKind(
        k,
        outcomes.filter((o) => o.kind === k),
      ),
    ),
  };
}

/** What a result says of its probability: the value and its basis, or why there is none. */
export type ProbabilityFields =
  | { probability: number; probabilityBasis: { kind: OutcomeKind; outcomes: number } }
  | { probabilityWhy: string };

/** The probability fields a result may carry: `probability` and its basis, or `probabilityWhy`. */
export interface ProbabilityInfo {
  probability?: number;
  probabilityBasis?: { kind: OutcomeKind; outcomes: number };
  probabilityWhy?: string;
}

/** A kind's learned map (with enough outcomes) or how many outcomes it has. */
export type LearnedKind = { map: CalibrationMap; outcomes: number } | { outcomes: number };

/**
 * The outcomes of a kind a result's map learns from: the newest this many (those after `now` then left out), so a
 * one-shot process reads at most this many rows (~3.6 ms with 20,000 outcomes of the kind); the report reads all.
 */
export const MAP_WINDOW = 1_000;

/**
 * The scope's maps, kept between calls, each kind's learned when first asked for. They are learned again when `now`
 * or the latest outcome changed (one indexed row a call), when this engine recorded an outcome
 * ({@link CalibrationMaps.invalidate}), or, while the latest outcome is at `now` itself (a fixed clock), when the
 * outcomes at that instant changed. An outcome another process records back-dated (before the latest) shows at
 * the next newer one.
 */
export class CalibrationMaps {
  #key: string | undefined;
  #kinds = new Map<OutcomeKind, Promise<LearnedKind>>();

  /** Forgets the kept maps (an outcome was recorded through this engine). */
  invalidate(): void {
    this.#key = undefined;
  }

  /** The learned map of `kind` at `ctx.now`, or how many outcomes it has. */
  async of(ctx: CalibrationContext, kind: OutcomeKind): Promise<LearnedKind> {
    const [latest] = await ctx.store.listOutcomes(ctx.scope, { limit: 1 });
    let key = latest === undefined ? `${ctx.now}` : `${ctx.now}|${latest.id}:${latest.outcome}@${latest.outcomeAt}`;
    if (latest !== undefined && latest.outcomeAt >= ctx.now) {
      const same = await ctx.store.listOutcomes(ctx.scope, { since: latest.outcomeAt });
      key += `|${same.map((o) => `${o.id}:${o.outcome}`).join(',')}`;
    }
    if (key !== this.#key) {
      this.#kinds = new Map();
      this.#key = key;
    }
    let learned = this.#kinds.get(kind);
    if (learned === undefined) {
      learned = latest === undefined ? Promise.resolve({ outcomes: 0 }) : learnKind(ctx, kind);
      this.#kinds.set(kind, learned);
      learned.catch(() => this.#kinds.delete(kind));
    }
    return learned;
  }
}

async function learnKind(ctx: CalibrationContext, kind: OutcomeKind): Promise<LearnedKind> {
  const recent = await ctx.store.listOutcomes(ctx.scope, { kind, limit: MAP_WINDOW });
  const points = recent.filter((o) => o.outcomeAt <= ctx.now && o.at <= ctx.now).map(pointOf);
  return points.length >= CALIBRATION_MAP_DEFAULTS.minOutcomes
    ? { map: fitCalibrationMap(points), outcomes: points.length }
    : { outcomes: points.length };
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
  return {
    probability: applyCalibrationMap(learned.map, Math.min(1, Math.max(0, confidence))),
    probabilityBasis: { kind, outcomes: learned.outcomes },
  };
}
