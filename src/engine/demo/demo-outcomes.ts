/**
 * @module engine/demo/demo-outcomes
 * The demo's outcomes (issue 24): what became of claims shown over the demo's month, for every kind (search, next,
 * dag, recall, instinct, skill), so that `credence calibration` on the demo store has a full table to print. The
 * claims name the demo's own tools, runs, memories, instincts and skills; their confidences and outcomes are drawn
 * from a seeded generator (the same store for the same `now`), and each kind's true rate is set off its confidence
 * the way a seed formula is off in life (DAGs and search scores too sure, recall and instincts too shy at the low
 * end), so that a learned map has something to fix.
 */
import { OUTCOME_KINDS, type Outcome, type OutcomeKind } from '../../core/types.js';
import type { ShownRecord } from '../../store/types.js';
import { mulberry32 } from '../../core/random.js';

const DAY = 86_400_000;

/** Outcomes per kind the demo seeds. */
export const DEMO_OUTCOMES_PER_KIND = 320;

/** How each kind's claims turn out: where its confidences lie, the true rate at a confidence, and its words. */
const KINDS: Record<
  OutcomeKind,
  {
    spread: number;
    trueRate: (c: number) => number;
    /** The words for a claim that held and one that did not; a quarter of the time `alt`'s, when given. */
    words: readonly [Outcome, Outcome];
    alt?: readonly [Outcome, Outcome];
  }
> = {
  // Hybrid scores: too sure above the middle.
  search: {
    spread: 0.9,
    trueRate: (c) => 0.08 + 0.7 * c ** 1.5,
    words: ['succeeded', 'failed'],
    alt: ['accepted', 'rejected'],
  },
  next: { spread: 1.2, trueRate: (c) => 0.15 + 0.7 * c, words: ['succeeded', 'failed'] },
  // The cold DAG confidence averaged 0.76 where node F1 was 0.56 (issue 24).
  dag: { spread: 0.7, trueRate: (c) => 0.9 * c ** 2, words: ['succeeded', 'failed'], alt: ['accepted', 'rejected'] },
  recall: { spread: 1.1, trueRate: (c) => 0.25 + 0.6 * c, words: ['accepted', 'rejected'] },
  instinct: { spread: 1, trueRate: (c) => 0.3 + 0.55 * c, words: ['validated', 'contradicted'] },
  skill: { spread: 0.8, trueRate: (c) => 0.05 + 0.85 * c ** 1.3, words: ['validated', 'contradicted'] },
};

/** What a demo claim can name, per kind (a kind with nothing to name borrows a placeholder). */
export type DemoTargets = Record<OutcomeKind, readonly string[]>;

/**
 * The shown records of the demo's outcomes: for each kind, `perKind` claims shown over the 30 days before `now`,
 * each with its confidence and the outcome it met within a day. Ids start with `sh-demo-`.
 */
export function demoOutcomes(
  targets: DemoTargets,
  now: number,
  options: { seed?: number; perKind?: number } = {},
): ShownRecord[] {
  const next = mulberry32(options.seed ?? 24);
  const perKind = options.perKind ?? DEMO_OUTCOMES_PER_KIND;
  return OUTCOME_KINDS.flatMap((kind) => {
    const { spread, trueRate, words, alt } = KINDS[kind];
    const names = targets[kind].length > 0 ? targets[kind] : [`${kind}:demo`];
    return Array.from({ length: perKind }, (_, i): ShownRecord => {
      // Confidences over the whole range, more of them high for a spread below 1.
      const confidence = Math.round((0.02 + 0.96 * next() ** spread) * 1000) / 1000;
      const held = next() < Math.min(1, Math.max(0, trueRate(confidence)));
      const pair = alt !== undefined && next() < 0.25 ? alt : words;
      const outcome = held ? pair[0] : pair[1];
      const at = Math.round(now - 30 * DAY + next() * 29 * DAY);
      return {
        id: `sh-demo-${kind}-${String(i).padStart(4, '0')}`,
        surface: kind,
        target: names[Math.floor(next() * names.length)] as string,
        at,
        confidence,
        outcome,
        outcomeAt: at + Math.round(next() * DAY),
      };
    });
  });
}
