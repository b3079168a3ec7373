/**
 * @module engine/learning/learning-view
 * What a scope has learned, read for display (the dashboard): instincts, skills with their
 * confidence now (aged by idle weeks, moved by feedback), feedback, and the observations the
 * instincts and skills cite as evidence, read by id (issue 20: never every observation or run of
 * the scope; counts over those come from the store's aggregates).
 */
import { currentSkillConfidence } from './evolve.js';
import type {
  FeedbackRecord,
  FeedbackStore,
  InstinctRecord,
  LearningStore,
  ObservationRecord,
  RevisionStore,
  SkillRecord,
} from '../../store/types.js';

const DAY = 86_400_000;

export interface LearningView {
  instincts: InstinctRecord[];
  /** Each skill with `current`, its confidence at the view's instant, and the idle days that aged it. */
  skills: (SkillRecord & { current: number; idleDays: number })[];
  feedback: FeedbackRecord[];
  /**
   * The observations cited as evidence by an instinct or a skill that still exist (empty with
   * `evidence: false`; only the last `evidencePerItem` ids of each list); an id cited but deleted since is absent.
   */
  evidence: ObservationRecord[];
}

/** The ids of `evidence` a view reads: the last `limit` (the latest cited), or all without a limit. */
export const shownEvidence = (evidence: readonly string[], limit?: number): readonly string[] =>
  limit === undefined || evidence.length <= limit ? evidence : evidence.slice(evidence.length - limit);

export async function learningView(
  ctx: {
    store: LearningStore & FeedbackStore & Pick<RevisionStore, 'getObservationsByIds'>;
    scope: string;
    now: number;
  },
  options: { evidence?: boolean; evidencePerItem?: number } = {},
): Promise<LearningView> {
  const { store, scope, now } = ctx;
  const [instincts, skills, feedback] = await Promise.all([
    store.listInstincts(scope),
    store.listSkills(scope),
    store.listFeedback(scope),
  ]);
  const cited =
    options.evidence === false
      ? []
      : [...new Set([...instincts, ...skills].flatMap((x) => shownEvidence(x.evidence, options.evidencePerItem)))];
  const evidence = cited.length === 0 ? [] : await store.getObservationsByIds(scope, cited);
  const eventsOf = (id: string) => feedback.filter((f) => f.targetId === id).map((f) => ({ id: f.id, kind: f.kind }));
  return {
    instincts,
    skills: skills.map((s) => ({
      ...s,
      current: currentSkillConfidence(s, now, eventsOf(s.id)),
      idleDays: Math.max(0, (now - s.updatedAt) / DAY),
    })),
    feedback,
    evidence,
  };
}
