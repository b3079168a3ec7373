/**
 * @module engine/learning/forgotten
 * A skill or instinct the user forgot stays forgotten until new evidence comes (walk item 8). `forget` leaves a
 * marker: a feedback row `forgotten:<id>` (its own target, so no confidence ever reads it) holding when, the topic's
 * texts and evidence ids. Evolve reads a group as the forgotten topic when it shares evidence with the marker, or
 * (sharing none with anything live) says the same at the skill-match cosine; it re-learns it only from evidence
 * observed after the forget. `feedback <id> --validated`, `forget forgotten:<id>` or that new evidence lift it.
 */
import type { FeedbackRecord, FeedbackStore } from '../../store/types.js';

const PREFIX = 'forgotten:';

/** A forgotten instinct or skill: its id, when it was forgotten, what it said and what it was learned from. */
export interface ForgottenTopic {
  /** The marker's own id, `forgotten:<id>`. */
  marker: string;
  /** The forgotten instinct's or skill's id. */
  id: string;
  kind: 'instinct' | 'skill';
  at: number;
  texts: string[];
  evidence: string[];
}

export const forgottenMarkerId = (id: string): string => `${PREFIX}${id}`;

export const isForgottenMarker = (id: string): boolean => id.startsWith(PREFIX);

/** The topic a marker row holds; undefined for every other feedback row. An unreadable note keeps the id alone. */
export function readForgotten(f: FeedbackRecord): ForgottenTopic | undefined {
  if (!isForgottenMarker(f.id) || f.targetId !== f.id) return undefined;
  let body: { kind?: unknown; texts?: unknown; evidence?: unknown } = {};
  try {
    body = JSON.parse(f.note ?? '{}') as typeof body;
  } catch {
    body = {};
  }
  const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  return {
    marker: f.id,
    id: f.id.slice(PREFIX.length),
    kind: body.kind === 'instinct' ? 'instinct' : 'skill',
    at: f.at,
    texts: strings(body.texts),
    evidence: strings(body.evidence),
  };
}

/** Every forgotten topic of the scope, from its feedback rows. */
export const forgottenTopics = (feedback: readonly FeedbackRecord[]): ForgottenTopic[] =>
  feedback.flatMap((f) => readForgotten(f) ?? []);

/** Records that the user forgot `topic` at `at`, replacing an earlier marker of the same id. */
export async function markForgotten(
  store: Pick<FeedbackStore, 'insertFeedback' | 'deleteFeedback'>,
  scope: string,
  topic: Omit<ForgottenTopic, 'marker'>,
): Promise<string> {
  const marker = forgottenMarkerId(topic.id);
  await store.deleteFeedback(scope, marker);
  const note = JSON.stringify({ kind: topic.kind, texts: topic.texts, evidence: topic.evidence });
  await store.insertFeedback(scope, { id: marker, targetId: marker, kind: 'contradiction', note, at: topic.at });
  return marker;
}

/** The marker of `id` (a forgotten instinct's or skill's id, or the marker's own), if there is one. */
export async function findForgotten(
  store: Pick<FeedbackStore, 'listFeedback'>,
  scope: string,
  id: string,
): Promise<ForgottenTopic | undefined> {
  const marker = isForgottenMarker(id) ? id : forgottenMarkerId(id);
  return forgottenTopics(await store.listFeedback(scope, marker))[0];
}
