/**
 * @module engine/learning/held
 * What of a learned instinct or skill may be emitted as an instruction (session context, skill and
 * instinct files, recall), and what is held for the user's confirmation (core/learning/rule-trust): a rule
 * whose text reads like a shell command stays in the store, where the user can see it and confirm
 * it (`credence feedback <id> --validated`), but is left out of everything an agent reads until then. And what
 * of a scope's learning a session start loads, which is all a prompt may offer of it (`loadedLearning`).
 */
import { LEARNED_KIND_THRESHOLDS, learnedKind } from '../../core/learning/bands.js';
import { heldTexts } from '../../core/learning/rule-trust.js';
import type { FeedbackRecord, FeedbackStore, InstinctRecord, LearningStore, SkillRecord } from '../../store/types.js';
import { currentSkillConfidence } from './skill-confidence.js';

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

/**
 * What a session start loads of a scope's learning (engine/session-summary), and so all a prompt may offer of it
 * (hooks/prompt; walk 12, item 4): the skills at a confidence now of 0.7 or more, with the rules not held, and the
 * active instincts at 0.7 or more, not held. A skill withdrawn (below 0.5) or forgotten, an instinct retired or
 * promoted, is none of them.
 */
export async function loadedLearning(
  store: Pick<LearningStore, 'listSkills' | 'listInstincts'> & Pick<FeedbackStore, 'listFeedback'>,
  scope: string,
  now: number,
): Promise<{ skills: { skill: SkillRecord; confidence: number; rules: string[] }[]; instincts: InstinctRecord[] }> {
  const [skills, instincts, feedback] = await Promise.all([
    store.listSkills(scope),
    store.listInstincts(scope),
    store.listFeedback(scope),
  ]);
  const events = (id: string) => feedback.filter((f) => f.targetId === id).map((f) => ({ id: f.id, kind: f.kind }));
  return {
    skills: skills.flatMap((skill) => {
      const confidence = currentSkillConfidence(skill, now, events(skill.id));
      const shown = emittableSkill(skill, eventIdsOn(feedback, skill.id));
      return confidence < LEARNED_KIND_THRESHOLDS.skill || shown === undefined
        ? []
        : [{ skill, confidence, rules: shown.rules }];
    }),
    instincts: instincts.filter(
      (i) =>
        i.status === 'active' &&
        i.confidence >= LEARNED_KIND_THRESHOLDS.skill &&
        !instinctHeld(i, eventIdsOn(feedback, i.id)),
    ),
  };
}
