/**
 * @module hooks/context
 * What the hooks print for Claude Code to read. At a prompt: hooks/prompt. At session start: the
 * scope's active skills (confidence ≥ 0.7, with their rules) and active instincts ≥ 0.7, strongest first,
 * within `SESSION_CONTEXT_CHARS` (about 400 tokens). Everything printed is data, sanitised like the
 * memory block; a rule that reads like a shell command is left out until the user confirms it
 * (engine/learning/held; issue 17).
 */
import { sanitizeField } from '../core/recall/memory-context.js';
import { LEARNED_KIND_THRESHOLDS } from '../core/learning/bands.js';
import { emittableSkill, eventIdsOn, instinctHeld } from '../engine/learning/held.js';
import { currentSkillConfidence } from '../engine/learning/skill-confidence.js';
import type { FeedbackStore, LearningStore } from '../store/types.js';

export interface ContextOptions {
  cwd: string;
  now: number;
  env: NodeJS.ProcessEnv;
}

export const SESSION_CONTEXT_CHARS = 1600;

export async function sessionContext(
  store: FeedbackStore & LearningStore,
  scope: string,
  options: ContextOptions,
): Promise<string> {
  const [skills, instincts, feedback] = await Promise.all([
    store.listSkills(scope),
    store.listInstincts(scope),
    store.listFeedback(scope),
  ]);
  const active = skills
    .map((s) => ({
      s,
      confidence: currentSkillConfidence(
        s,
        options.now,
        feedback.filter((f) => f.targetId === s.id).map((f) => ({ id: f.id, kind: f.kind })),
      ),
    }))
    .filter((x) => x.confidence >= LEARNED_KIND_THRESHOLDS.skill)
    .flatMap((x) => {
      const shown = emittableSkill(x.s, eventIdsOn(feedback, x.s.id));
      return shown === undefined ? [] : [{ ...x, rules: shown.rules }];
    })
    .sort((a, b) => b.confidence - a.confidence || a.s.name.localeCompare(b.s.name));
  const strong = instincts
    .filter(
      (i) =>
        i.status === 'active' &&
        i.confidence >= LEARNED_KIND_THRESHOLDS.skill &&
        !instinctHeld(i, eventIdsOn(feedback, i.id)),
    )
    .sort((a, b) => b.confidence - a.confidence || a.slug.localeCompare(b.slug));
  if (active.length === 0 && strong.length === 0) return '';
  const lines = ['<learned-context source="credence">'];
  let size = lines[0]?.length ?? 0;
  const add = (line: string): boolean => {
    if (size + line.length + 1 > SESSION_CONTEXT_CHARS - 24) return false;
    lines.push(line);
    size += line.length + 1;
    return true;
  };
  for (const { s, rules, confidence } of active) {
    if (
      !add(
        `- [SKILL] ${sanitizeField(s.name)}: ${rules.map(sanitizeField).join('; ')} ` +
          `[confidence:${confidence.toFixed(2)}]`,
      )
    )
      break;
  }
  for (const i of strong) {
    if (!add(`- [INSTINCT] ${sanitizeField(i.text)} [confidence:${i.confidence.toFixed(2)}]`)) break;
  }
  lines.push('</learned-context>');
  return lines.join('\n');
}
