/**
 * @module core/learning/observation-limits
 * Which observations a scope's limits remove (seed 004 §6: 100 kept, a purge after 90 days). The purge goes by age;
 * the cap keeps what the user said before what tools produced: over it, observations made automatically (a source
 * other than `user`, rule-trust: test runs, commits, failed calls, an agent's notes) go first, oldest first, and the
 * user's own words only when nothing else is left, oldest first. Never the last evidence of a live instinct or skill.
 * An evolve reads, beside its window, the user's own words the cap keeps (`ownWordsToRead`); tool output older than
 * its window goes over the cap unread, as automatic evidence. Pure.
 */
import { observationSource } from './rule-trust.js';

const DAY = 86_400_000;

export interface LimitedObservation {
  id: string;
  timestamp: number;
  tags: readonly string[];
}

export interface ObservationLimits {
  maxObservations: number;
  purgeAfterDays: number;
}

export interface PrunePlan {
  /** In the order removed: those past the purge age (oldest first), then over the cap (automatic first). */
  removed: { id: string; why: string; by: 'age' | 'limit'; user: boolean }[];
  /** Observations past a limit kept as the last evidence of a live instinct or skill. */
  protected: number;
  /** What each live item's evidence holds afterwards: its ids that exist and are not removed. */
  evidenceLeft: Map<string, Set<string>>;
}

/** Whether an observation is the user's own words (kept over the cap until nothing else is left). */
export const isUsersOwn = (o: Pick<LimitedObservation, 'tags'>): boolean => observationSource(o.tags) === 'user';

/**
 * The user's own words an evolve reads beside its window (those older than `since`): the ones the cap keeps, inside
 * the purge age, at most `maxObservations` of them (the newest). So a correction said once a week is read each week
 * until it is purged, and learned once it is said often enough; the group formula's recency still weighs its age.
 */
export function ownWordsToRead<T extends LimitedObservation>(
  observations: readonly T[],
  limits: ObservationLimits,
  now: number,
  since: number,
): T[] {
  const cutoff = now - limits.purgeAfterDays * DAY;
  const kept = observations
    .filter((o) => o.timestamp >= cutoff && isUsersOwn(o))
    .sort((a, b) => b.timestamp - a.timestamp || (a.id < b.id ? 1 : -1))
    .slice(0, limits.maxObservations);
  return kept.filter((o) => o.timestamp < since).reverse();
}

/**
 * What the limits remove from `observations` at `now`. `live` are the active instincts and the skills (their
 * evidence ids).
 */
export function planPrune<T extends LimitedObservation>(
  observations: readonly T[],
  live: readonly { id: string; evidence: readonly string[] }[],
  limits: ObservationLimits,
  now: number,
): PrunePlan {
  const existing = new Set(observations.map((o) => o.id));
  const evidenceLeft = new Map(live.map((l) => [l.id, new Set(l.evidence.filter((id) => existing.has(id)))]));
  // Which evidence sets hold each observation, so a check and a removal read only those sets.
  const holders = new Map<string, Set<string>[]>();
  for (const ev of evidenceLeft.values())
    for (const id of ev) {
      const sets = holders.get(id);
      if (sets === undefined) holders.set(id, [ev]);
      else sets.push(ev);
    }
  const plan: PrunePlan = { removed: [], protected: 0, evidenceLeft };
  const protectedBy = (id: string): boolean => holders.get(id)?.some((ev) => ev.size === 1) ?? false;
  const remove = (o: T, by: 'age' | 'limit', why: string): void => {
    plan.removed.push({ id: o.id, why, by, user: isUsersOwn(o) });
    for (const ev of holders.get(o.id) ?? []) ev.delete(o.id);
  };
  const oldest = [...observations].sort((a, b) => a.timestamp - b.timestamp || (a.id < b.id ? -1 : 1));
  const cutoff = now - limits.purgeAfterDays * DAY;
  const young: T[] = [];
  for (const o of oldest) {
    if (o.timestamp >= cutoff) young.push(o);
    else if (protectedBy(o.id)) plan.protected += 1;
    else remove(o, 'age', `older than ${limits.purgeAfterDays} days`);
  }
  let kept = oldest.length - plan.removed.length;
  // The cap: automatic observations first, then the user's own words; each oldest first.
  const [automatic, users] = [young.filter((o) => !isUsersOwn(o)), young.filter(isUsersOwn)];
  const why = `over the limit of ${limits.maxObservations} observations`;
  for (const [o, reason] of [
    ...automatic.map((o) => [o, `${why} (made automatically, oldest first: before any of your own words)`] as const),
    ...users.map((o) => [o, `${why} (your own words, oldest first: nothing else was left to remove)`] as const),
  ]) {
    if (kept <= limits.maxObservations) break;
    if (protectedBy(o.id)) plan.protected += 1;
    else {
      remove(o, 'limit', reason);
      kept -= 1;
    }
  }
  return plan;
}

/**
 * One line saying what a prune removed (the hooks' background evolve logs it), or undefined when it removed nothing:
 * counts by reason, the user's own words named apart, and what it kept back.
 */
export function prunedLine(plan: {
  observations: readonly Pick<PrunePlan['removed'][number], 'by' | 'user'>[];
  protected: number;
}): string | undefined {
  const old = plan.observations.filter((r) => r.by === 'age');
  const over = plan.observations.filter((r) => r.by === 'limit');
  const own = plan.observations.filter((r) => r.user).length;
  const parts = [
    ...(old.length > 0 ? [`${old.length} past the purge age`] : []),
    ...(over.length > 0 ? [`${over.length} over the limit, what tools produced first`] : []),
  ];
  const n = plan.observations.length;
  if (n === 0) return undefined;
  return (
    `evolve pruned ${n} observation${n === 1 ? '' : 's'}` +
    (parts.length === 0 ? '' : ` (${parts.join(', ')})`) +
    (own > 0 ? `, ${own} of them your own words` : '') +
    (plan.protected > 0 ? `; ${plan.protected} kept as the last evidence of what was learned` : '')
  );
}
