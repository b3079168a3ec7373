/**
 * @module engine/learning/skill-confidence
 * A skill's confidence now (evolve, the learning view, the SessionStart hook): a module of its own,
 * so that a hook reads it without loading evolve.
 */
import { applyFeedback } from '../../core/learning/feedback.js';
import { skillConfidence } from '../../core/learning/skill-ageing.js';
import type { FeedbackKind } from '../../core/types.js';
import type { SkillRecord } from '../../store/types.js';

const DAY = 86_400_000;

/** A skill's confidence now: its stored base aged by idle weeks since its last repetition, plus its feedback. */
export function currentSkillConfidence(
  skill: SkillRecord,
  now: number,
  events: readonly { id: string; kind: FeedbackKind }[],
): number {
  const aged = skillConfidence({
    base: skill.confidence,
    idleDays: Math.max(0, (now - skill.updatedAt) / DAY),
    repetitions: 0,
  }).value;
  return applyFeedback(aged, events).value;
}
