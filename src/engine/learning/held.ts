/**
 * @module engine/learning/held
 * What of a learned instinct or skill may be emitted as an instruction (session context, skill and
 * instinct files, recall), and what is held for the user's confirmation (core/learning/rule-trust): a rule
 * whose text reads like a shell command stays in the store, where the user can see it and confirm
 * it (`credence feedback <id> --validated`), but is left out of everything an agent reads until then.
 */
import { learnedKind } from '../../core/learning/bands.js';
import { heldTexts } from '../../core/learning/rule-trust.js';
import type { FeedbackRecord, InstinctRecord, SkillRecord } from '../../store/types.js';

/** The ids of the feedback events on `targetId`. */
export function eventIdsOn(feedback: readonly Pick<FeedbackRecord, 'id' | 'targetId'>[], targetId: string): string[] {
  return feedback.filter((f) => f.targetId === targetId).map((f) => f.id);
}

/** Whether an instinct's text waits for the user's confirmation. */
export function instinctHeld(instinct: Pick<InstinctRecord, 'text'>, eventIds: readonly string[]): boolean {
  return heldTexts([instinct.text], eventIds).length > 0;
}

/**
 * The part of a skill that may be emitted: its rules that are not held, and a description that is
 * not held (its first such rule when the description is), and the texts held. Undefined when
 * every rule is held.
 */
export function emittableSkill(
  skill: Pick<SkillRecord, 'description' | 'rules'>,
  eventIds: readonly string[],
): { description: string; rules: string[]; held: string[] } | undefined {
  const held = heldTexts([...new Set([skill.description, ...skill.rules])], eventIds);
  const rules = skill.rules.filter((r) => !held.includes(r));
  const first = rules[0];
  if (first === undefined) return undefined;
  return { description: held.includes(skill.description) ? first : skill.description, rules, held };
}

/**
 * Whether a skill at `confidence` may have a file (Claude Code loads one by itself): not below an instinct's 0.5,
 * where it is no longer learned (core/learning/bands). One rule for a skill an evolve touches and one that aged.
 */
export function skillFileKept(confidence: number): boolean {
  return learnedKind(confidence) !== 'noise';
}
