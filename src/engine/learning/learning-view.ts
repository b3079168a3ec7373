/**
 * @module engine/learning/learning-view
 * What a scope has learned, read for display (the dashboard): instincts, skills with their
 * confidence now (aged by idle weeks, moved by feedback), feedback, observations and executions.
 */
import { currentSkillConfidence } from './evolve.js';
import type {
  ExecutionRecord,
  ExecutionStore,
  FeedbackRecord,
  FeedbackStore,
  InstinctRecord,
  LearningStore,
  ObservationRecord,
  ObservationStore,
  SkillRecord,
} from '../../store/types.js';

const DAY = 86_400_000;

export interface LearningView {
  instincts: InstinctRecord[];
  /** Each skill with `current`, its confidence at the view's instant, and the idle days that aged it. */
  skills: (SkillRecord & { current: number; idleDays: number })[];
  feedback: FeedbackRecord[];
  observations: ObservationRecord[];
  executions: ExecutionRecord[];
}

export async function learningView(ctx: {
  store: ExecutionStore & ObservationStore & LearningStore & FeedbackStore;
  scope: string;
  now: number;
}): Promise<LearningView> {
  const { store, scope, now } = ctx;
  const [instincts, skills, feedback, observations, executions] = await Promise.all([
    store.listInstincts(scope),
    store.listSkills(scope),
    store.listFeedback(scope),
    store.listObservations(scope),
    store.listExecutions(scope),
  ]);
  const eventsOf = (id: string) => feedback.filter((f) => f.targetId === id).map((f) => ({ id: f.id, kind: f.kind }));
  return {
    instincts,
    skills: skills.map((s) => ({
      ...s,
      current: currentSkillConfidence(s, now, eventsOf(s.id)),
      idleDays: Math.max(0, (now - s.updatedAt) / DAY),
    })),
    feedback,
    observations,
    executions,
  };
}
