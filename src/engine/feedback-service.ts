/**
 * @module engine/feedback-service
 * What surfaces showed, the verdicts on it, and SPEC §6's metrics: every suggestion, DAG and recalled
 * memory a surface returns is recorded as shown with an id; `feedback` marks it accepted or rejected, and
 * feedback on an instinct or skill is an event (once per id) that the next evolve applies.
 * A rule that reads like a shell command is held until the user confirms it (issue 17): only a surface
 * speaking for the user (the CLI) passes `confirm: true`, which records an accepted or validated verdict
 * under the reserved confirming id (core/learning/rule-trust); every other caller is refused that id.
 */
import { CredenceError } from '../core/errors.js';
import { parseOutcome, parseOutcomeKind } from '../core/outcomes.js';
import { aheadOfClockReason } from '../core/time.js';
import type { FeedbackKind, ObservationType, Outcome, Verdict } from '../core/types.js';
import { OBSERVATION_TYPES, VERDICTS } from '../core/types.js';
import { confirmationEventId, heldTexts, isConfirmationId } from '../core/learning/rule-trust.js';
import type {
  EpochMs,
  FeedbackStore,
  LearningStore,
  ObservationStore,
  OutcomeKind,
  OutcomeQuery,
  OutcomeRecord,
  ShownRecord,
  SkillRecord,
  StatsStore,
  Surface,
  WriteWait,
} from '../store/types.js';
import { currentSkillConfidence } from './learning/skill-confidence.js';
import { shownValue } from '../schemas/index.js';

export type { Verdict } from '../core/types.js';

export interface FeedbackContext {
  store: FeedbackStore & ObservationStore & LearningStore & StatsStore;
  scope: string;
  now: () => number;
  newId: () => string;
  /** What messages call the clock `now` reads (the machine's, or the one `now` / CREDENCE_NOW sets). */
  clockName?: string;
}

/** A shown item: what it was, the query it answered, and the confidence it was shown with (issue 24). */
export interface ShownItem {
  target: string;
  query?: string;
  confidence?: number;
}

const shownId = (ctx: FeedbackContext): string => `sh-${ctx.newId().replace(/-/g, '').slice(0, 16)}`;

/** A confidence as stored: within 0..1, or none when it is not a finite number. */
const storedConfidence = (c: number | undefined): number | undefined =>
  c === undefined || !Number.isFinite(c) ? undefined : Math.min(1, Math.max(0, c));

/** Records what a surface returned (with the confidence each item was shown with); one shown id per item, in order. */
export async function recordShown(
  ctx: FeedbackContext,
  surface: OutcomeKind,
  items: readonly ShownItem[],
  wait?: WriteWait,
): Promise<string[]> {
  const at = ctx.now();
  const shown: ShownRecord[] = items.map((item) => {
    const confidence = storedConfidence(item.confidence);
    return {
      id: shownId(ctx),
      surface,
      target: item.target,
      ...(item.query === undefined ? {} : { query: item.query }),
      at,
      ...(confidence === undefined ? {} : { confidence }),
    };
  });
  if (shown.length > 0) await ctx.store.recordShown(ctx.scope, shown, wait);
  return shown.map((s) => s.id);
}

/**
 * What became of a shown result (issue 24): its latest outcome, at `at` (default now). Accepted and rejected are
 * also its verdict. `inferred` (followed from calls: the gateway, the hooks, PocketFlow): a result a verdict was
 * given on keeps its outcome. An unknown id or outcome is an error naming it.
 */
export async function recordOutcome(
  ctx: FeedbackContext,
  id: string,
  outcome: Outcome,
  options: { at?: EpochMs; inferred?: boolean } = {},
): Promise<{ id: string; outcome: Outcome; at: EpochMs }> {
  const checked = parseOutcome(outcome);
  const at = options.at ?? ctx.now();
  if (!Number.isFinite(at))
    throw new CredenceError('INVALID_INPUT', `at ${shownValue(at)} is not a time (epoch milliseconds)`);
  if (options.at !== undefined) await requireOutcomeTime(ctx, id, at);
  if (!(await ctx.store.setOutcome(ctx.scope, id, checked, at, { inferred: options.inferred === true })))
    throw new CredenceError('NOT_FOUND', `no shown result has the id ${JSON.stringify(id)} in scope ${ctx.scope}`, {
      details: { id },
    });
  return { id, outcome: checked, at };
}

/** An epoch time as given, with its ISO form when it has one. */
const timeShown = (at: number): string => {
  const date = new Date(at);
  return Number.isNaN(date.getTime()) ? String(at) : `${at} (${date.toISOString()})`;
};

/**
 * An outcome's `at` given by the caller (walk 18, item 10): not before 1970, not more than a day after now (the slack
 * every input time gets; calibration reads the outcomes known at now: a later one would be listed but not counted
 * until then), and not before the claim was shown (an outcome comes after what it judges). INVALID_INPUT naming `at`
 * and why; an unknown id is left to the write.
 */
async function requireOutcomeTime(ctx: FeedbackContext, id: string, at: number): Promise<void> {
  const refuse = (why: string): CredenceError => new CredenceError('INVALID_INPUT', `at ${timeShown(at)} ${why}`);
  if (at < 0) throw refuse('is before 1970 (negative epoch milliseconds): give when the outcome was known');
  // A day of slack, as for every other time given (aheadOfClockReason): a learner that read its clock before it
  // claimed the events it follows dates an outcome at such an event, a little after that reading.
  const ahead = aheadOfClockReason(
    at,
    ctx.now(),
    'calibration counts an outcome from its time on, so it would be listed but not counted until then',
    ctx.clockName,
  );
  if (ahead !== undefined) throw new CredenceError('INVALID_INPUT', `at ${ahead}`);
  const shown = await ctx.store.getShown(ctx.scope, id);
  if (shown !== undefined && at < shown.at)
    throw refuse(
      `is before the claim was shown (${new Date(shown.at).toISOString()}): an outcome comes after what it judges; ` +
        'give a time from then to now',
    );
}

/** Recorded outcomes with the confidence each claim was shown with (options checked, errors naming what is wrong). */
export async function listOutcomes(ctx: FeedbackContext, options: OutcomeQuery = {}): Promise<OutcomeRecord[]> {
  const query: OutcomeQuery = {};
  if (options.kind !== undefined) query.kind = parseOutcomeKind(options.kind);
  if (options.since !== undefined) {
    if (!Number.isFinite(options.since))
      throw new CredenceError('INVALID_INPUT', `since ${shownValue(options.since)} is not a time`);
    query.since = options.since;
  }
  if (options.until !== undefined) {
    if (!Number.isFinite(options.until))
      throw new CredenceError('INVALID_INPUT', `until ${shownValue(options.until)} is not a time`);
    query.until = options.until;
  }
  if (options.limit !== undefined) {
    if (!Number.isInteger(options.limit) || options.limit < 0)
      throw new CredenceError('INVALID_INPUT', `limit ${JSON.stringify(options.limit)} is not a whole number >= 0`);
    query.limit = options.limit;
  }
  return ctx.store.listOutcomes(ctx.scope, query);
}

const KIND_OF: Record<Verdict, FeedbackKind> = {
  accepted: 'explicit',
  validated: 'validation',
  rejected: 'contradiction',
  contradicts: 'contradiction',
  succeeded: 'validation',
  failed: 'contradiction',
  contradicted: 'contradiction',
};

/** The outcome each verdict records (issue 24). */
const OUTCOME_OF: Record<Verdict, Outcome> = {
  accepted: 'accepted',
  rejected: 'rejected',
  contradicts: 'contradicted',
  validated: 'validated',
  succeeded: 'succeeded',
  failed: 'failed',
  contradicted: 'contradicted',
};

const VERDICT_SET: ReadonlySet<string> = new Set<string>(VERDICTS);

/**
 * The verdict named, or INVALID_INPUT naming it and the valid ones: a library caller's typo (`accept`) was stored as a
 * rejection, and `toString` read through the lookup tables' prototype. Checked before anything is written.
 */
export function parseVerdict(value: unknown): Verdict {
  if (typeof value === 'string' && VERDICT_SET.has(value)) return value as Verdict;
  throw new CredenceError('INVALID_INPUT', `verdict must be one of ${VERDICTS.join(', ')}, got ${shownValue(value)}`, {
    details: { verdict: value },
  });
}

/** Verdicts that say only how a shown result went when used: its outcome, no verdict and no event. */
const USE_OUTCOMES: ReadonlySet<Verdict> = new Set<Verdict>(['succeeded', 'failed']);

export interface FeedbackResult {
  id: string;
  /** What the verdict was recorded on. */
  on: 'shown' | 'instinct' | 'skill';
  verdict: Verdict;
  /** The feedback event on an instinct or skill, when there was one, and whether it was new. */
  event?: { id: string; targetId: string; kind: FeedbackKind; recorded: boolean };
  /** The held rules this verdict confirmed (`confirm: true` only). */
  confirmed?: string[];
  /** The outcome recorded (issue 24): on the shown result, or on a new outcome row for an instinct or skill. */
  outcome?: { id: string; outcome: Outcome };
}

/**
 * Gives a verdict on a shown result (by its `sh-…` id) or on an instinct or skill (by its id).
 * `eventId` makes the call idempotent: the same event id is applied once.
 */
export async function giveFeedback(
  ctx: FeedbackContext,
  id: string,
  asked: Verdict,
  options: { eventId?: string; note?: string; confirm?: boolean } = {},
): Promise<FeedbackResult> {
  const verdict = parseVerdict(asked);
  if (options.eventId !== undefined && isConfirmationId(options.eventId)) {
    throw new CredenceError(
      'INVALID_INPUT',
      `event id ${JSON.stringify(options.eventId)} is reserved: ` +
        'only the user confirms a held rule (credence feedback <id> --validated)',
      {
        details: { eventId: options.eventId },
      },
    );
  }
  const at = ctx.now();
  const eventOn = async (targetId: string, eventId?: string) => {
    const event = {
      id: eventId ?? options.eventId ?? `fb-${ctx.newId()}`,
      targetId,
      kind: KIND_OF[verdict],
      at,
      ...(options.note === undefined ? {} : { note: options.note }),
    };
    const report = await ctx.store.insertFeedback(ctx.scope, event);
    return { id: event.id, targetId, kind: event.kind, recorded: report.inserted === 1 };
  };
  const shown = await ctx.store.getShown(ctx.scope, id);
  if (shown !== undefined && USE_OUTCOMES.has(verdict)) {
    // How a shown result went when used: its latest outcome, every time; no verdict, no event.
    await ctx.store.setOutcome(ctx.scope, id, OUTCOME_OF[verdict], at);
    return { id, on: 'shown', verdict, outcome: { id, outcome: OUTCOME_OF[verdict] } };
  }
  if (shown !== undefined) {
    // One verdict per shown result: the first one counts, and is the event (its id is the shown id).
    if (shown.verdict !== undefined) {
      return {
        id,
        on: 'shown',
        verdict,
        event: {
          id: options.eventId ?? `shown:${id}`,
          targetId: shown.target,
          kind: KIND_OF[verdict],
          recorded: false,
        },
      };
    }
    const given = verdict === 'accepted' || verdict === 'validated' ? 'accepted' : 'rejected';
    await ctx.store.setVerdict(ctx.scope, id, given, at);
    // The verdict is its outcome; validated and contradicted say more than accepted and rejected.
    const outcome = OUTCOME_OF[verdict];
    if (outcome !== given) await ctx.store.setOutcome(ctx.scope, id, outcome, at);
    const learned = /^(instinct|skill):(.+)$/.exec(shown.target);
    // A verdict on a searched tool is also an event on the shown result, which tool search reads back
    // for similar queries (issue 19).
    const targetId = learned?.[2] ?? (shown.surface === 'search' ? id : undefined);
    if (targetId === undefined) return { id, on: 'shown', verdict, outcome: { id, outcome } };
    const event = { id: options.eventId ?? `shown:${id}`, targetId, kind: KIND_OF[verdict], at };
    const report = await ctx.store.insertFeedback(ctx.scope, event);
    return {
      id,
      on: 'shown',
      verdict,
      event: { id: event.id, targetId: event.targetId, kind: event.kind, recorded: report.inserted === 1 },
      outcome: { id, outcome },
    };
  }
  const [instincts, skills] = await Promise.all([ctx.store.listInstincts(ctx.scope), ctx.store.listSkills(ctx.scope)]);
  const instinct = instincts.find((i) => i.id === id);
  const skill = skills.find((s) => s.id === id);
  const on = instinct !== undefined ? 'instinct' : skill !== undefined ? 'skill' : undefined;
  if (on === undefined) {
    throw new CredenceError(
      'NOT_FOUND',
      `no shown result, instinct or skill has the id ${JSON.stringify(id)} in scope ${ctx.scope}`,
    );
  }
  // A new feedback event on an instinct or skill is also an outcome of the claim it makes (issue 24): a row of kind
  // instinct / skill with the confidence it had when the verdict came: a skill's as the learning view shows it then
  // (aged by its idle time, with the feedback before this event), the number its probability is mapped from.
  const learnedOutcome = async (event: { id: string; recorded: boolean }): Promise<Pick<FeedbackResult, 'outcome'>> => {
    if (!event.recorded) return {};
    const before = async (s: SkillRecord) =>
      currentSkillConfidence(
        s,
        at,
        (await ctx.store.listFeedback(ctx.scope, s.id)).filter((f) => f.id !== event.id),
      );
    const confidence = storedConfidence(
      instinct?.confidence ?? (skill === undefined ? undefined : await before(skill)),
    );
    const row: ShownRecord = {
      id: shownId(ctx),
      surface: on,
      target: `${on}:${id}`,
      at,
      ...(confidence === undefined ? {} : { confidence }),
      outcome: OUTCOME_OF[verdict],
      outcomeAt: at,
    };
    await ctx.store.recordShown(ctx.scope, [row]);
    return { outcome: { id: row.id, outcome: OUTCOME_OF[verdict] } };
  };
  if (options.confirm === true && (verdict === 'accepted' || verdict === 'validated')) {
    const texts =
      instinct !== undefined ? [instinct.text] : [...new Set([skill?.description ?? '', ...(skill?.rules ?? [])])];
    const events = (await ctx.store.listFeedback(ctx.scope, id)).map((f) => f.id);
    const held = heldTexts(texts, events);
    if (held.length > 0) {
      const event = await eventOn(id, confirmationEventId(held));
      return { id, on, verdict, event, confirmed: held, ...(await learnedOutcome(event)) };
    }
  }
  const event = await eventOn(id);
  return { id, on, verdict, event, ...(await learnedOutcome(event)) };
}

export interface Metrics {
  observations: { total: number; byType: Record<ObservationType, number> };
  instincts: { total: number; active: number; promoted: number };
  skills: number;
  /** Instincts that became skills, over every instinct there has been. */
  conversionRate: number | null;
  suggestions: {
    bySurface: { surface: Surface; shown: number; accepted: number; rejected: number; precision: number | null }[];
    shown: number;
    accepted: number;
    rejected: number;
    /** accepted / shown (SPEC §6). */
    precision: number | null;
  };
}

export async function metrics(ctx: FeedbackContext): Promise<Metrics> {
  // Counted in the store: a scope of 100k observations is not read to count them by type (issue 20).
  const [observed, instincts, skills, shown] = await Promise.all([
    ctx.store.observationTypeCounts(ctx.scope),
    ctx.store.listInstincts(ctx.scope),
    ctx.store.listSkills(ctx.scope),
    ctx.store.shownCounts(ctx.scope),
  ]);
  const byType = Object.fromEntries(OBSERVATION_TYPES.map((t) => [t, observed[t] ?? 0])) as Record<
    ObservationType,
    number
  >;
  const promoted = instincts.filter((i) => i.status === 'promoted').length;
  const total = shown.reduce((n, s) => n + s.shown, 0);
  const accepted = shown.reduce((n, s) => n + s.accepted, 0);
  const rejected = shown.reduce((n, s) => n + s.rejected, 0);
  return {
    observations: { total: Object.values(byType).reduce((n, c) => n + c, 0), byType },
    instincts: { total: instincts.length, active: instincts.filter((i) => i.status === 'active').length, promoted },
    skills: skills.length,
    conversionRate: instincts.length === 0 ? null : promoted / instincts.length,
    suggestions: {
      bySurface: shown.map((s) => ({ ...s, precision: s.shown === 0 ? null : s.accepted / s.shown })),
      shown: total,
      accepted,
      rejected,
      precision: total === 0 ? null : accepted / total,
    },
  };
}
