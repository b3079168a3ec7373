/**
 * @module engine/learning/evolve
 * `credence evolve` (SPEC §6, seed 004): loads recent observations, groups them by meaning, scores
 * each group (`mean × recency × frequency`, plus the feedback recorded against its instinct), and
 * for each significant pattern writes an instinct (below 0.7) or updates the closest skill / makes
 * a new one (0.7 and up). Instincts and skills become memories, so recall returns them with their
 * confidence. Runs twice on the same data change nothing the second time.
 */
import { CredenceError, isCredenceError } from '../../core/errors.js';
import { roundTo12 } from '../../core/validate.js';
import { confidenceBand, LEARNED_KIND_THRESHOLDS, learnedKind } from '../../core/learning/bands.js';
import {
  contradictionAgesDays,
  contradictionEventId,
  detectContradictions,
  type Contradiction,
} from '../../core/learning/contradiction.js';
import { applyFeedback, FEEDBACK_DELTAS } from '../../core/learning/feedback.js';
import type { FeedbackKind } from '../../core/types.js';
import { agedConfidence, groupConfidence, isSignificant } from '../../core/learning/learning-confidence.js';
import {
  GENERIC_TERMS,
  groupObservations,
  observationTerms,
  patternText,
  type ObservationGroup,
} from '../../core/learning/pattern-grouping.js';
import { patternCategory, type PatternCategory } from '../../core/learning/pattern-category.js';
import { surfaceWords } from '../../core/learning/surface-words.js';
import { isRuleSource, mayContradict, observationSource } from '../../core/learning/rule-trust.js';
import { skillConfidence } from '../../core/learning/skill-ageing.js';
import { currentSkillConfidence } from './skill-confidence.js';
import { skillName } from '../../core/learning/skill-name.js';
import { slotReader, termMatcher, type NearestByTerms, type SlotsDiffer } from '../../core/learning/term-match.js';
import { slugify } from '../../core/learning/slug.js';
import { cosine, type EmbeddingProvider } from '../../embed/index.js';
import { FileWrites } from './atomic-files.js';
import { withdrawForgottenFiles, type ForgottenFile } from './forgotten-files.js';
import { emittableSkill, eventIdsOn, instinctHeld, skillFileKept } from './held.js';
import {
  appendEvolutionLog,
  handWrittenSkills,
  instinctEvidence,
  readSkillFile,
  removeInstinctFile,
  removeOwnSkillFileAt,
  withdrawSkillFile,
  checkedSkillFileLayout,
  skillFilePath,
  writeInstinctFile,
  writeSkillFile,
  type ContradictionNote,
  type SkillFileLayoutOptions,
} from './skill-files.js';
import type {
  FeedbackRecord,
  FeedbackStore,
  RevisionStore,
  InstinctRecord,
  LearningStore,
  MemoryRecord,
  MemoryStore,
  ObservationRecord,
  ObservationStore,
  ShownRecord,
  SkillRecord,
  StoreMeta,
} from '../../store/types.js';

const DAY = 86_400_000;
/** Most shared topic words the report names for a learned item's wordings. */
const WORDINGS_TERMS = 4;

export const EVOLVE_DEFAULTS = Object.freeze({
  /** How far back observations are loaded. */
  sinceMs: 7 * DAY,
  /** Patterns scoring below this are reported as ignored. */
  minConfidence: 0.5,
  /** Cosine above which a strong pattern updates an existing skill rather than making a new one. */
  skillMatch: 0.75,
});

export interface EvolveOptions {
  dryRun?: boolean;
  /** @default 7 days */
  sinceMs?: number;
  /** @default 0.5 */
  minConfidence?: number;
  layout: SkillFileLayoutOptions;
  /**
   * Observations from before the window read too: the user's own words the limits keep, at any age inside the purge
   * (engine `evolve`, core/learning/observation-limits `ownWordsToRead`).
   */
  alsoRead?: readonly ObservationRecord[];
  /** The scope's observations from the window's start at least, oldest first, when the caller listed them already. */
  listed?: { since: number; observations: readonly ObservationRecord[] };
}

export interface EvolveReport {
  now: string;
  dryRun: boolean;
  observations: number;
  /**
   * The scope's observations from before the window (`sinceMs`), which this run did not read; absent when there are
   * none. `window` is the window read (`7 days`); `since` a `--since` value that reaches the oldest of them (`30d`).
   */
  notRead?: { observations: number; window: string; since: string };
  /**
   * Observations from before the window that this run read as well: the user's own words (corrections, preferences),
   * read by every evolve until the purge age. Absent when none.
   */
  ownWordsRead?: { observations: number; window: string };
  /**
   * Observations from before the window that this run's prune deleted (older than the purge age, or over the limit):
   * gone, not left unread. Absent when none (and in a dry run, which deletes nothing).
   */
  purged?: { observations: number; window: string };
  newInstincts: {
    id: string;
    slug: string;
    text: string;
    confidence: number;
    band: string;
    file: string;
    evidence: string[];
    /** The pattern's category (seed 004: code, workflow, error, success), from its evidence. */
    category?: PatternCategory;
  }[];
  updatedInstincts: { id: string; slug: string; text: string; confidence: number; file: string }[];
  skillsUpdated: {
    id: string;
    name: string;
    rule: string;
    confidence: number;
    created: boolean;
    promotedFrom?: string;
    file: string;
    category?: PatternCategory;
    /** The skill was written by hand on the same topic: the rule went into its file, beside the writer's text. */
    handWritten?: boolean;
    /** A skill there before: whether this run added the rule (false: it had it, and its habit was seen again). */
    ruleAdded?: boolean;
  }[];
  ignored: { ids: string[]; text: string; why: string }[];
  /**
   * Contradictions detected, each against its group's rule; `applied` when it lowered an instinct or a skill
   * (seed 004: −0.3 each, once, recorded as a `contradiction` feedback event on it).
   */
  contradictions: {
    group: string;
    id: string;
    /** The contradicting observation's text and when it was observed (ISO). */
    text: string;
    at: string;
    reason: string;
    applied?: { to: string; kind: 'instinct' | 'skill'; delta: number; before: number; after: number };
    /**
     * Not applied: nothing learned is of the habit it opposes, and the group it was read against is not learned
     * (its confidence without and with the contradictions of the run; below the minimum, it was held back by them).
     */
    heldBack?: { before: number; after: number };
  }[];
  /**
   * Contradictions an earlier run recorded that the user's newer words reversed (a changed mind changed back: the rule
   * each lowered was said 3 times since it): each gives back what taking it away raises the confidence of `to` by
   * (`before` → `after`, `delta`: at most its 0.3, less where the confidence was held at 0), the latest first, and
   * its event is deleted. Absent when none.
   */
  lifted?: {
    /** The contradicting observation, its text and when it was said (ISO). */
    id: string;
    text: string;
    at: string;
    to: string;
    kind: 'instinct' | 'skill';
    /** The skill's name or the instinct's slug. */
    name: string;
    /** The rule said since, which reverses it. */
    rule: string;
    before: number;
    after: number;
    /** What lifting it gave back, `after` − `before` (rounded to 12 decimals). */
    delta: number;
  }[];
  /**
   * Instincts and skills with rules that read like shell commands: stored, but left out of their
   * files, recall and the session context until the user confirms them (`credence feedback <id> --validated`).
   */
  held: { id: string; kind: 'instinct' | 'skill'; texts: string[] }[];
  /**
   * Why wordings became one habit (issue 21): two groups joined by what they say as groups (`profileJoins`), an
   * identifier read as a detail of its template (`details`), or the wordings of an instinct or skill this run made or
   * added to, with the topic words they share.
   */
  joined: { ids: string[]; texts: string[]; why: string }[];
  /**
   * The files of instincts and skills forgotten (`credence forget`, on this machine or another sharing the store)
   * that this project still had, taken out (in a dry run: that would be). Absent when none.
   */
  forgotten?: ForgottenFile[];
  files: { path: string; changed: boolean }[];
}

export interface EvolveContext {
  store: ObservationStore &
    LearningStore &
    MemoryStore &
    FeedbackStore &
    Pick<RevisionStore, 'getObservationsByIds'> &
    Pick<StoreMeta, 'counts'>;
  scope: string;
  embedder: EmbeddingProvider;
  now: number;
}

export async function evolve(ctx: EvolveContext, given: EvolveOptions): Promise<EvolveReport> {
  const { store, scope, now } = ctx;
  // The run's files go to disk together once every write is done (atomic-files).
  const files = new FileWrites();
  const options: EvolveOptions = { ...given, layout: { ...given.layout, files } };
  // The folders are checked before anything is read or written (a dry run too): a layout that leads
  // outside the project, by its words or by a link on disk, fails here, with nothing stored half-way.
  checkedSkillFileLayout(options.layout);
  const sinceMs = options.sinceMs ?? EVOLVE_DEFAULTS.sinceMs;
  // A window that is no number ("a window of NaN days") is named as the library's field.
  if (typeof sinceMs !== 'number' || Number.isNaN(sinceMs))
    throw new CredenceError(
      'INVALID_INPUT',
      `sinceMs must be a number of milliseconds, got ${typeof sinceMs === 'number' ? 'NaN' : `a ${typeof sinceMs}`}`,
      {
        details: { sinceMs },
      },
    );
  if (!(sinceMs >= 0))
    throw new CredenceError(
      'INVALID_INPUT',
      `since must not be after now: a window of ${sinceMs / DAY} days reads nothing`,
      { details: { sinceMs } },
    );
  const minConfidence = options.minConfidence ?? EVOLVE_DEFAULTS.minConfidence;
  const listed = options.listed;
  const windowed =
    listed !== undefined && listed.since <= now - sinceMs
      ? listed.observations.filter((o) => o.timestamp >= now - sinceMs)
      : await store.listObservations(scope, { since: now - sinceMs });
  // The user's own words from before the window are read too (the window's own are read anyway), oldest first.
  const also = (options.alsoRead ?? [])
    .filter((o) => o.timestamp < now - sinceMs)
    .sort((a, b) => a.timestamp - b.timestamp || (a.id < b.id ? -1 : 1));
  const observations = also.length === 0 ? windowed : [...also, ...windowed];
  const notRead = await observationsNotRead(ctx, now - sinceMs, observations.length, new Set(also.map((o) => o.id)));
  // Embedded without file paths and numbers (patternText), as the grouping reads them. Not stored:
  // recall keeps its own vectors of the full observations, and the default table embeds fast.
  const vectors =
    observations.length === 0
      ? new Map<string, Float32Array>()
      : await embedTexts(
          ctx.embedder,
          observations.map((o) => [o.id, patternText(o.observation)]),
        );
  const items = observations.map((o) => ({
    id: o.id,
    text: o.observation,
    type: o.type,
    timestamp: o.timestamp,
    confidence: o.confidence,
    tags: o.tags,
    ...(vectors.has(o.id) ? { vector: vectors.get(o.id) as Float32Array } : {}),
  }));
  const byId = new Map(observations.map((o) => [o.id, o]));
  const grouping = groupObservations(items);
  const [instincts, skills, feedback] = await Promise.all([
    store.listInstincts(scope),
    store.listSkills(scope),
    store.listFeedback(scope),
  ]);
  // What the reader finds contradicting each group (`read`), but for the evidence of what was learned before this run:
  // an observation learned as support of an instinct or skill is not read against another (walk 12, item 2: once the
  // user changed their mind, the old "use tabs" is what the new "use spaces" replaced, not a contradiction of it).
  const learnedEvidence = new Set([...instincts, ...skills].flatMap((x) => x.evidence));
  const read = detectContradictions(items, grouping.groups);
  // What the hooks observe of the agent never counts against a rule in the user's words (walk 17, item 1: the agent
  // committing without tests is why the user said "always run the tests before committing", not a change of mind).
  const sourceOf = (id: string) => observationSource(byId.get(id)?.tags ?? []);
  const sourcesOf = (ids: readonly string[]) => ids.filter((id) => byId.has(id)).map(sourceOf);
  const contradictions = read.map((c) => ({
    ...c,
    contradictions: c.contradictions.filter(
      (x) =>
        !learnedEvidence.has(x.id) && mayContradict(sourceOf(x.id), sourcesOf(grouping.groups[c.group]?.ids ?? [])),
    ),
  }));
  const report: EvolveReport = {
    now: new Date(now).toISOString(),
    dryRun: options.dryRun === true,
    observations: observations.length,
    ...(notRead === undefined ? {} : { notRead }),
    ...(also.length === 0 ? {} : { ownWordsRead: { observations: also.length, window: windowName(sinceMs) } }),
    newInstincts: [],
    updatedInstincts: [],
    skillsUpdated: [],
    ignored: [],
    contradictions: [],
    held: [],
    joined: [
      // Terms named as written (surfaceWords): "max retries", not the stems "max retri" that matched them.
      ...grouping.profileJoins.map((j) => {
        const texts = j.ids.map((id) => byId.get(id)?.observation ?? id);
        const terms = surfaceWords(j.terms, texts).join(', ');
        return { ids: [...j.ids], texts, why: `said alike as groups: ${terms} (agreement ${j.agreement.toFixed(2)})` };
      }),
      ...grouping.details.map((d) => {
        const text = byId.get(d.id)?.observation ?? d.id;
        const terms = surfaceWords(d.terms, [text]).join(' ');
        return {
          ids: [d.id],
          texts: [text],
          why:
            d.renamedTo === undefined
              ? `"${terms}" read as a detail: an identifier its template names in passing`
              : `"${terms}" read as a detail: the identifier renamed, the habit is the ${d.renamedTo} case`,
        };
      }),
    ],
    files: [],
  };
  const writes: (() => Promise<void>)[] = [
    async () => {
      // Contradictions reversed by the user's newer words go first: the files written after no longer cite them.
      for (const to of new Set(lifted.map((f) => f.targetId)))
        await store.deleteFeedback(
          scope,
          to,
          lifted.filter((f) => f.targetId === to).map((f) => f.id),
        );
      for (const l of report.lifted ?? [])
        appendEvolutionLog(options.layout, {
          scope,
          at: now,
          kind: 'contradiction-lifted',
          id: l.name,
          detail:
            `+${l.delta.toFixed(2)} back: ${JSON.stringify(l.text)} (${l.at.slice(0, 10)}) reversed by ` +
            `${JSON.stringify(l.rule)}, said ${CAMP_MIN} times since (${l.before.toFixed(2)} → ${l.after.toFixed(2)})`,
        });
      for (const f of detected) await store.insertFeedback(scope, f);
      // Each contradiction applied is a line of the evolution log (walk 12, item 8), with what it took.
      for (const f of detected) {
        const observation = f.id.slice(contradictionEventId(f.targetId, '').length);
        const step = report.contradictions.find((c) => c.id === observation && c.applied?.to === f.targetId)?.applied;
        appendEvolutionLog(options.layout, {
          scope,
          at: now,
          kind: 'contradiction',
          id: learnedName(f.targetId),
          detail:
            `${FEEDBACK_DELTAS.contradiction} by ${JSON.stringify(f.note ?? observation)}` +
            (step === undefined ? '' : ` (${step.before.toFixed(2)} → ${step.after.toFixed(2)})`) +
            (carried.has(f.id) ? ', carried from the instinct promoted into it' : ''),
        });
      }
      // A contradiction of an instinct or skill learned before this run is an outcome of its claim (issue 24),
      // with the confidence it had (a skill's aged, shownSkill); its id is the event's, so a second run adds none.
      const learned = new Map<string, ['instinct' | 'skill', number]>([
        ...instincts.map((i): [string, ['instinct', number]] => [i.id, ['instinct', i.confidence]]),
        ...skills.map((k): [string, ['skill', number]] => [k.id, ['skill', k.confidence]]),
      ]);
      const skillOf = new Map(skills.map((k) => [k.id, k]));
      const outcomes: ShownRecord[] = detected.flatMap((f) => {
        const [kind, stored] = learned.get(f.targetId) ?? [];
        const skill = skillOf.get(f.targetId);
        const confidence = kind === 'skill' && skill !== undefined ? shownSkill(skill, f.at) : stored;
        if (kind === undefined || confidence === undefined) return [];
        const target = `${kind}:${f.targetId}`;
        return [{ id: `sh-${f.id}`, surface: kind, target, at: f.at, confidence, outcome: 'contradicted' as const }];
      });
      outcomes.push(...validated);
      if (outcomes.length > 0) await store.recordShown(scope, outcomes);
    },
  ];
  // An instinct or skill learned before this run that its habit was seen again in (new evidence) is validated: an
  // outcome of its claim (issue 24), with the confidence it was stored with; one per newest piece of evidence.
  const validated: ShownRecord[] = [];
  const seenAgain = (kind: 'instinct' | 'skill', learned: InstinctRecord | SkillRecord, fresh: string[]) => {
    const newest = fresh.map((id) => byId.get(id)).sort((a, b) => (b?.timestamp ?? 0) - (a?.timestamp ?? 0))[0];
    if (newest === undefined) return;
    const at = Math.min(now, newest.timestamp);
    validated.push({
      id: `sh-seen-${learned.id}-${newest.id}`,
      surface: kind,
      target: `${kind}:${learned.id}`,
      at,
      confidence: kind === 'skill' ? shownSkill(learned as SkillRecord, at) : learned.confidence,
      outcome: 'validated',
    });
  };
  // What a group is, is matched by what its words say: without file paths (where it was said), as grouping reads them.
  const textVectors = async (entries: readonly [string, string][]) =>
    entries.length === 0
      ? new Map<string, Float32Array>()
      : embedTexts(
          ctx.embedder,
          entries.map(([id, text]) => [id, patternText(text)]),
        );
  const skillText = (s: SkillRecord) => `${s.description}\n${s.rules.join('\n')}`;
  const skillRules = (s: SkillRecord) => [s.description, ...s.rules];
  // Which learned texts a group's label fills a shared template's slot differently from (weights over the run).
  const batchTexts = observations.map((o) => o.observation);
  let slots: SlotsDiffer | undefined;
  const slotsOf = () => (slots ??= slotReader(batchTexts, grouping.context));
  const skillVectors = await textVectors(skills.map((s) => [s.id, skillText(s)]));
  const skillVector = async (s: SkillRecord) =>
    (await ctx.embedder.embed([patternText(skillText(s))]))[0] as Float32Array;
  const instinctVectors = await textVectors(instincts.map((i) => [i.id, i.text]));
  const eventsOn = (id: string) => feedback.filter((f) => f.targetId === id).map((f) => ({ id: f.id, kind: f.kind }));
  // A skill's outcome carries the confidence it was shown with then (issue 24): aged to that instant, with the
  // feedback stored by then (before this run), as the learning view shows it and its probability is mapped from.
  const storedEvents = [...feedback];
  // The observations whose contradiction an earlier run applied (to whatever it opposed).
  const appliedEarlier = new Set(
    storedEvents.flatMap((f) => {
      const prefix = contradictionEventId(f.targetId, '');
      return f.kind === 'contradiction' && f.id.startsWith(prefix) ? [f.id.slice(prefix.length)] : [];
    }),
  );
  const shownSkill = (k: SkillRecord, at: number) =>
    currentSkillConfidence(
      k,
      at,
      storedEvents.filter((f) => f.targetId === k.id && f.at <= at),
    );
  // A detected contradiction is a `contradiction` feedback event on what it opposes (−0.3, seed 004), recorded
  // once per observation and stored first, so that files, memories and later runs all carry it.
  const detected: FeedbackRecord[] = [];
  const contradict = (targetId: string, against: readonly Contradiction[]): string[] =>
    against.flatMap((c) => {
      const id = contradictionEventId(targetId, c.id);
      // One −0.3 per contradiction: one an earlier run applied to any learned item is not applied again.
      if (feedback.some((f) => f.id === contradictionEventId(f.targetId, c.id))) return [];
      const record: FeedbackRecord = {
        id,
        targetId,
        kind: 'contradiction',
        note: byId.get(c.id)?.observation ?? c.reason,
        at: c.timestamp,
      };
      feedback.push(record);
      detected.push(record);
      return [id];
    });
  // Contradictions an earlier run recorded that the user's newer words reverse (review D, item 4: the camp was said
  // CAMP_MIN times since each, `reverses`): no longer counted by this run, deleted from the store by its first write,
  // each said in the report and the evolution log with the confidence it gives back.
  const lifted: FeedbackRecord[] = [];
  const lift = (
    to: string,
    kind: 'instinct' | 'skill',
    rule: string,
    reverses: ReadonlySet<string> | undefined,
    score: (events: readonly { id: string; kind: FeedbackKind }[]) => number,
  ) => {
    if (reverses === undefined) return;
    const prefix = contradictionEventId(to, '');
    const gone = feedback.filter(
      (f) =>
        f.targetId === to &&
        f.kind === 'contradiction' &&
        f.id.startsWith(prefix) &&
        reverses.has(f.id.slice(prefix.length)) &&
        !detected.includes(f),
    );
    if (gone.length === 0) return;
    for (const f of gone) feedback.splice(feedback.indexOf(f), 1);
    lifted.push(...gone);
    const left = eventsOn(to);
    // Given back in the reverse of the order they were taken, the latest first (walk 16, item 13): where a confidence
    // held at 0 hid part of them, the ones that took least (the latest) give back least. Each line says what it gave
    // back (`after` − `before`), not the seed's 0.3: 0.00 → 0.04 is +0.04.
    const taken = [...gone].sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const order = [...taken].reverse();
    const still = (k: number) =>
      taken.filter((f) => !order.slice(0, k).includes(f)).map((f) => ({ id: f.id, kind: f.kind }));
    for (const [k, f] of order.entries()) {
      const before = score([...left, ...still(k)]);
      const after = score([...left, ...still(k + 1)]);
      (report.lifted ??= []).push({
        id: f.id.slice(prefix.length),
        text: f.note ?? '',
        at: new Date(f.at).toISOString(),
        to,
        kind,
        name: learnedName(to),
        rule,
        before,
        after,
        delta: roundTo12(after - before),
      });
    }
  };
  // An instinct promoted into a skill that was not made from it passes on the contradictions recorded on it: the −0.3
  // stays on what the habit is now learned as (its confidence, file and report), as it stays in a skill made from it.
  const carried = new Set<string>();
  const carryContradictions = (fromId: string, toId: string) => {
    const prefix = contradictionEventId(fromId, '');
    for (const f of feedback.filter((e) => e.targetId === fromId && e.kind === 'contradiction')) {
      if (!f.id.startsWith(prefix)) continue;
      const id = contradictionEventId(toId, f.id.slice(prefix.length));
      if (feedback.some((e) => e.id === id)) continue;
      const record: FeedbackRecord = { ...f, id, targetId: toId };
      feedback.push(record);
      detected.push(record);
      carried.add(id);
    }
  };
  const without = (id: string, left: readonly string[]) => eventsOn(id).filter((e) => !left.includes(e.id));
  const touchedSkills = new Set<string>();
  const touchedInstincts = new Set<string>();
  const usedSlugs = new Set(instincts.map((i) => i.slug));
  // Skills someone wrote in the skills folder: a new rule on the same topic goes into one of them.
  const handWritten = await handWrittenTopics(ctx.embedder, options.layout, skills);

  // The groups each observation contradicts: it is evidence against them and for none of theirs.
  const contradicted = new Map<string, Set<number>>();
  for (const [g, c] of contradictions.entries())
    for (const x of c.contradictions) contradicted.set(x.id, (contradicted.get(x.id) ?? new Set()).add(g));
  // Groups learned by nothing, read again after the others; their contradictions found no learned item of theirs.
  const deferred: ReadUnit[] = [];
  const unrouted: Unrouted[] = [];
  // Instincts made or updated by this run (the record is written at the end, with its final confidence).
  const learnedInstincts = new Map<
    string,
    { record: InstinctRecord; base: number; entry: { confidence: number; band: string } }
  >();
  // The name an instinct or skill goes by in files and the log (its slug, its name).
  const learnedName = (id: string) =>
    skills.find((k) => k.id === id)?.name ??
    learnedInstincts.get(id)?.record.slug ??
    instincts.find((i) => i.id === id)?.slug ??
    id;
  // Instincts this run retires or promotes: no longer learned, no contradiction lowers them.
  const leaving = new Set<string>();
  // Skills this run changes: each written once, with its final record, after every group is read.
  const stagedSkills = new Map<string, StagedSkill>();
  const stageSkill = (
    record: SkillRecord,
    change: {
      entry?: { file: string; confidence: number };
      log?: { kind: string; label: string } | undefined;
      promote?: { instinct: InstinctRecord; supporting: readonly ObservationRecord[] } | undefined;
    },
  ) => {
    const staged = stagedSkills.get(record.id) ?? { record, entries: [], logs: [], promotions: [] };
    staged.record = record;
    if (change.entry !== undefined) staged.entries.push(change.entry);
    if (change.log !== undefined) staged.logs.push(change.log);
    if (change.promote !== undefined) {
      staged.promotions.push(change.promote);
      leaving.add(change.promote.instinct.id);
      carryContradictions(change.promote.instinct.id, record.id);
    }
    stagedSkills.set(record.id, staged);
  };
  /**
   * Contradictions read against a group nothing learned (a split of a habit whose instinct or skill came from another
   * group) lower the learned instinct or skill of that habit: the one the group matches by evidence, else by meaning
   * (`matchLearned`), else the one the contradiction reader finds the contradiction opposing among what is learned,
   * else the one whose words the group shares most (`wordsShared`); never one whose texts fill the group's template
   * with another subject (`slotReader`: another module, another tool). Otherwise they held the group back, and the
   * report says so.
   */
  const routeContradictions = async (): Promise<void> => {
    if (unrouted.length === 0) return;
    const targets: LearnedTarget[] = [
      ...skills.map((record) => ({
        kind: 'skill' as const,
        id: record.id,
        evidence: record.evidence,
        rules: [record.description, ...record.rules],
        record,
      })),
      ...instincts.flatMap((i) =>
        i.status !== 'active' || leaving.has(i.id) || learnedInstincts.has(i.id)
          ? []
          : [{ kind: 'instinct' as const, id: i.id, evidence: i.evidence, rules: [i.text], record: i }],
      ),
      ...[...learnedInstincts.values()].flatMap(({ record }) =>
        leaving.has(record.id)
          ? []
          : [{ kind: 'instinct' as const, id: record.id, evidence: record.evidence, rules: [record.text], record }],
      ),
    ];
    const vectors = new Map([...skillVectors, ...instinctVectors]);
    const missing = targets.filter((t) => !vectors.has(t.id) && t.kind === 'instinct');
    for (const [id, v] of await textVectors(missing.map((t) => [t.id, (t.record as InstinctRecord).text])))
      vectors.set(id, v);
    const opposed = opposedLearned(
      unrouted.map((u) => u.contradiction.id),
      targets,
      byId,
    );
    // Last, the learned item whose words the group shares most: another wording of its habit.
    const nearest = wordsShared(batchTexts, targets, byId);
    for (const u of unrouted) {
      // Never a learned item that fills the group's template with another subject (another module, another tool).
      const otherSlot = (t: LearnedTarget) => slotsOf()(u.entry.group, t.rules);
      const reader = opposed.get(u.contradiction.id);
      const target =
        matchLearned(targets, u.evidence, u.vector, vectors, otherSlot) ??
        (reader === undefined || otherSlot(reader) ? undefined : reader) ??
        nearest(u.evidence, otherSlot);
      const added = target === undefined ? [] : contradict(target.id, [u.contradiction]);
      if (target === undefined || added.length === 0) {
        if (target === undefined) u.entry.heldBack = { before: u.unopposed, after: u.confidence };
        continue;
      }
      u.entry.applied = { to: target.id, kind: target.kind, delta: FEEDBACK_DELTAS.contradiction, before: 0, after: 0 };
      if (target.kind === 'skill') {
        const record = target.record as SkillRecord;
        u.entry.applied.before = currentSkillConfidence(record, now, without(record.id, added));
        u.entry.applied.after = currentSkillConfidence(record, now, eventsOn(record.id));
        touchedSkills.add(record.id);
        stageSkill(record, {});
        continue;
      }
      const record = target.record as InstinctRecord;
      const own = learnedInstincts.get(record.id);
      u.entry.applied.before = record.confidence;
      // An instinct of this run is scored again with the event; one from before is, below, from its evidence.
      const after = applyFeedback(
        own?.base ?? record.confidence,
        own === undefined ? [{ id: added[0] as string, kind: 'contradiction' }] : eventsOn(record.id),
      ).value;
      u.entry.applied.after = after;
      if (own === undefined) continue;
      record.confidence = after;
      own.entry.confidence = after;
      own.entry.band = confidenceBand(after).band;
      if (after < minConfidence) {
        leaving.add(record.id);
        report.ignored.push({
          ids: record.evidence,
          text: record.text,
          why:
            `confidence ${after.toFixed(2)} below ${minConfidence} once contradicted; ` +
            `instinct ${record.slug} retired`,
        });
      }
    }
  };
  // The largest groups first, and a skill made or changed here is matched by the groups read after it, as the
  // next run would match it: a habit split into several groups becomes one skill from its largest, and an evolve
  // run again over the same data finds what it learned instead of promoting into it what this run made apart.
  const ordered = [...grouping.groups.entries()].sort(([a, x], [b, y]) => y.ids.length - x.ids.length || a - b);
  // A learned item said in several wordings: which, and the topic words they share (issue 21: why they are one).
  const noteWordings = (supporting: readonly ObservationRecord[]) => {
    const wordings = [...new Map(supporting.map((o) => [o.observation.trim(), o.id])).entries()];
    if (wordings.length < 2) return;
    const holders = new Map<string, number>();
    for (const [text] of wordings)
      for (const t of observationTerms(text)) if (!GENERIC_TERMS.has(t)) holders.set(t, (holders.get(t) ?? 0) + 1);
    const shared = [...holders]
      .filter(([, n]) => n >= 2)
      .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
      .slice(0, WORDINGS_TERMS);
    // Named as written (the stems matched them): "variables", not "variabl".
    const written = surfaceWords(
      shared.map(([t]) => t),
      wordings.map(([text]) => text),
    );
    const words = shared.map(([t, n], i) =>
      n === wordings.length ? (written[i] ?? t) : `${written[i] ?? t} (${n} of ${wordings.length})`,
    );
    report.joined.push({
      ids: wordings.map(([, id]) => id),
      texts: wordings.map(([text]) => text),
      why: `${wordings.length} wordings of one habit${words.length > 0 ? `, sharing ${words.join(', ')}` : ''}`,
    });
  };
  const readGroup = async (unit: ReadUnit, final: boolean): Promise<void> => {
    const { g, group, against, apart } = unit;
    const members = group.ids.map((id) => byId.get(id)).filter((o): o is ObservationRecord => o !== undefined);
    const latest = Math.max(...members.map((o) => o.timestamp));
    // A contradiction is evidence against the group it opposes and for none: a group it sits in (another split
    // of the same habit) neither counts it nor takes its words for a rule. One of its own group's camps is read apart.
    const supporting = members.filter((o) =>
      [...(contradicted.get(o.id) ?? [])].every((x) => apart !== undefined && x === g),
    );
    // Only the user's own words and Credence's templates word a rule: a tool's output and an agent's
    // notes may count as a pattern's evidence, never as its text (issue 17, red-team 2).
    const wording = supporting.filter((o) => isRuleSource(observationSource(o.tags)));
    const label = ruleText(wording, group.representative);
    if (label === undefined) {
      const sources = [...new Set(members.map((o) => observationSource(o.tags)))].join(', ');
      report.ignored.push({
        ids: group.ids,
        text: group.label,
        why: members.some((o) => isRuleSource(observationSource(o.tags)))
          ? "every observation in the user's own words here contradicts a pattern: read against it, not as a rule"
          : `no observation in the user's own words (${sources}): tool output and agent notes are data, never a rule`,
      });
      return;
    }
    const contradictionEntries: EvolveReport['contradictions'] = against.map((c) => ({
      group: label,
      id: c.id,
      text: byId.get(c.id)?.observation ?? '',
      at: new Date(c.timestamp).toISOString(),
      reason: c.reason,
    }));
    // Each contradiction this run applied, with the confidence before and after its own −0.3 (`without`: the
    // confidence leaving the given events out), in the order they were applied.
    const noteApplied = (
      to: string,
      kind: 'instinct' | 'skill',
      added: readonly string[],
      without: (left: readonly string[]) => number,
    ) => {
      for (const e of contradictionEntries) {
        const k = added.indexOf(contradictionEventId(to, e.id));
        if (k < 0) continue;
        const [before, after] = [without(added.slice(k)), without(added.slice(k + 1))];
        e.applied = { to, kind, delta: FEEDBACK_DELTAS.contradiction, before, after };
      }
    };
    // A contradiction an earlier run applied is not reported again (walk 12, item 8): it still counts.
    const reported = () => contradictionEntries.filter((e) => !appliedEarlier.has(e.id));
    const category = patternCategory(supporting.map((o) => ({ type: o.type, text: o.observation, tags: o.tags })));
    const confidences = supporting.map((o) => o.confidence);
    const evidence = supporting.map((o) => o.id);
    const [labelVector] = await ctx.embedder.embed([patternText(label)]);
    // Identity: the instinct or skill this group already is — shared evidence first, then meaning.
    // Retired instincts keep their identity too: a pattern that holds again revives the same one.
    // Evidence already learned decides alone: a group learned as an instinct joins a skill by meaning only once it
    // reaches a skill's confidence (below), and one learned in a skill takes no instinct by meaning. What a run learned
    // is thus what the next run over the same data finds, whatever order the groups were read in.
    const instinctByEvidence = sharingEvidence(instincts, evidence);
    const skillByEvidence = sharingEvidence(skills, evidence);
    // Never what the other camp of its group is learned as (a changed mind is not the rule it replaces).
    const otherSlot = (c: InstinctRecord | SkillRecord) =>
      (apart !== undefined && c.evidence.some((id) => apart.has(id))) ||
      slotsOf()(label, 'text' in c ? [c.text] : skillRules(c));
    const instinctMatch =
      instinctByEvidence ??
      (skillByEvidence === undefined
        ? matchLearned(instincts, evidence, labelVector, instinctVectors, otherSlot)
        : undefined);
    let skillMatch =
      skillByEvidence ??
      (instinctByEvidence === undefined
        ? matchLearned(skills, evidence, labelVector, skillVectors, otherSlot)
        : undefined);
    if (skillMatch === undefined && instinctByEvidence !== undefined && supporting.length > 0) {
      const grown = applyFeedback(
        groupConfidence({ confidences, daysSinceLatest: Math.max(0, (now - latest) / DAY) }).value,
        eventsOn(instinctByEvidence.id),
      ).value;
      const significant = isSignificant({ confidences, contradictionAgesDays: contradictionAgesDays(against, now) });
      if (significant.significant && learnedKind(grown) === 'skill')
        skillMatch = matchLearned(skills, evidence, labelVector, skillVectors, otherSlot);
    }
    if (instinctMatch !== undefined) touchedInstincts.add(instinctMatch.id);

    if (skillMatch !== undefined) {
      report.contradictions.push(...reported());
      // An established rule: no exponential recency any more; it ages by idle weeks and gains by repetition.
      touchedSkills.add(skillMatch.id);
      const known = new Set(skillMatch.evidence);
      const fresh = evidence.filter((id) => !known.has(id));
      seenAgain('skill', skillMatch, fresh);
      const idleDays = Math.max(0, (now - skillMatch.updatedAt) / DAY);
      const base =
        fresh.length === 0
          ? skillMatch.confidence
          : skillConfidence({ base: skillMatch.confidence, idleDays, repetitions: fresh.length }).value;
      const updatedAt = fresh.length === 0 ? skillMatch.updatedAt : now;
      lift(skillMatch.id, 'skill', label, unit.reverses, (events) =>
        currentSkillConfidence({ ...skillMatch, confidence: base, updatedAt }, now, events),
      );
      const added = contradict(skillMatch.id, against);
      const current = currentSkillConfidence(
        { ...skillMatch, confidence: base, updatedAt },
        now,
        eventsOn(skillMatch.id),
      );
      noteApplied(skillMatch.id, 'skill', added, (left) =>
        currentSkillConfidence({ ...skillMatch, confidence: base, updatedAt }, now, without(skillMatch.id, left)),
      );
      const ruleAdded = !skillMatch.rules.includes(label) && fresh.length > 0;
      const rules = ruleAdded ? [...skillMatch.rules, label] : skillMatch.rules;
      const record: SkillRecord = {
        ...skillMatch,
        rules,
        confidence: base,
        evidence: [...new Set([...skillMatch.evidence, ...evidence])],
        updatedAt,
      };
      // Another group of this run that matches the skill builds on what this one added, as the next run would.
      skills[skills.indexOf(skillMatch)] = record;
      if (ruleAdded) skillVectors.set(record.id, await skillVector(record));
      const promote = instinctMatch !== undefined && instinctMatch.status === 'active';
      const entry = {
        id: skillMatch.id,
        name: skillMatch.name,
        rule: label,
        confidence: current,
        created: false,
        ruleAdded,
        file: '',
        ...(category === undefined ? {} : { category }),
        ...(promote ? { promotedFrom: instinctMatch.slug } : {}),
      };
      if (fresh.length > 0 || promote) {
        report.skillsUpdated.push(entry);
        noteWordings(supporting);
      }
      stageSkill(record, {
        entry,
        log: ruleAdded ? { kind: 'skill-rule-added', label } : undefined,
        promote: promote ? { instinct: instinctMatch, supporting } : undefined,
      });
      return;
    }

    const significance = isSignificant({ confidences, contradictionAgesDays: contradictionAgesDays(against, now) });
    const base =
      confidences.length === 0
        ? 0
        : groupConfidence({ confidences, daysSinceLatest: Math.max(0, (now - latest) / DAY) }).value;
    const instinctId = instinctMatch?.id;
    if (instinctId !== undefined)
      lift(instinctId, 'instinct', label, unit.reverses, (events) => applyFeedback(base, events).value);
    const added = instinctId === undefined ? [] : contradict(instinctId, against);
    // A pattern not yet learned carries its contradictions too, recorded on what it becomes below.
    const pending = instinctId === undefined ? against.map((c) => ({ id: c.id, kind: 'contradiction' as const })) : [];
    const unopposed = applyFeedback(base, instinctId === undefined ? [] : without(instinctId, added)).value;
    const confidence = applyFeedback(base, [
      ...(instinctId === undefined ? [] : eventsOn(instinctId)),
      ...pending,
    ]).value;
    if (instinctId !== undefined)
      noteApplied(instinctId, 'instinct', added, (left) => applyFeedback(base, without(instinctId, left)).value);
    if (!significance.significant || confidence < minConfidence) {
      // Learned by nothing yet: read again once every group is, when a skill made from a smaller group of the same
      // habit may be what it is (as the next run would read it).
      if (!final && instinctMatch === undefined) {
        deferred.push(unit);
        return;
      }
      report.contradictions.push(...reported());
      // Its contradictions go to the learned instinct or skill of its habit (below), else they held it back; those of a
      // camp are the other camp's words, which are that habit.
      if (instinctMatch === undefined)
        for (const [k, c] of against.entries()) {
          const entry = contradictionEntries[k] as ContradictionEntry;
          if (apart?.has(c.id) === true) {
            entry.heldBack = { before: unopposed, after: confidence };
            continue;
          }
          unrouted.push({ contradiction: c, entry, evidence, vector: labelVector, unopposed, confidence });
        }
      const why = [
        ...significance.reasons,
        ...(confidence < minConfidence ? [`confidence ${confidence.toFixed(2)} below ${minConfidence}`] : []),
      ];
      report.ignored.push({
        ids: group.ids,
        text: label,
        why:
          why.join('; ') +
          (instinctByEvidence === undefined || instinctByEvidence.status === 'retired'
            ? ''
            : `; instinct ${instinctByEvidence.slug} retired`),
      });
      // Only the instinct learned from this evidence is retired by it, not one it resembles.
      if (instinctByEvidence !== undefined && instinctByEvidence.status !== 'retired') {
        const retired = instinctByEvidence;
        leaving.add(retired.id);
        // Recomputed at each evolve: an instinct whose pattern no longer holds is retired, file and memory too.
        writes.push(async () => retireInstinct(ctx, options, retired, confidence, supporting, report));
      }
      return;
    }
    report.contradictions.push(...reported());
    if (learnedKind(confidence) === 'instinct') {
      const slug = instinctMatch?.slug ?? uniqueSlug(slugify(label, { fallback: 'instinct' }), usedSlugs);
      usedSlugs.add(slug);
      const id = instinctMatch?.id ?? `instinct-${slug}`;
      if (instinctMatch === undefined)
        noteApplied(id, 'instinct', contradict(id, against), (left) => applyFeedback(base, without(id, left)).value);
      const text = instinctMatch?.text ?? label;
      const record: InstinctRecord = {
        id,
        slug,
        text,
        confidence,
        status: 'active',
        evidence,
        createdAt: instinctMatch?.createdAt ?? now,
        updatedAt: now,
      };
      const entry = {
        id,
        slug,
        text,
        confidence,
        file: '',
        band: confidenceBand(confidence).band,
        evidence,
        ...(category === undefined ? {} : { category }),
      };
      const changed =
        instinctMatch === undefined ||
        instinctMatch.status !== 'active' ||
        shownChange(instinctMatch.confidence, confidence) ||
        instinctMatch.evidence.join() !== evidence.join();
      const gained =
        instinctMatch === undefined ? evidence : evidence.filter((e) => !instinctMatch.evidence.includes(e));
      if (instinctMatch === undefined) report.newInstincts.push(entry);
      else if (changed) report.updatedInstincts.push(entry);
      // Made or added to (new evidence): its wordings are listed under "Wordings joined", as a skill's are.
      if (gained.length > 0) noteWordings(supporting);
      if (instinctMatch?.status === 'active') seenAgain('instinct', instinctMatch, gained);
      const held = instinctHeld(record, eventIdsOn(feedback, id));
      if (held) report.held.push({ id, kind: 'instinct', texts: [text] });
      // A contradiction of its habit read in another group may still lower it (routeContradictions).
      learnedInstincts.set(id, { record, base, entry });
      writes.push(async () => {
        const confidence = record.confidence;
        if (!held && confidence < minConfidence)
          return retireInstinct(ctx, options, record, confidence, supporting, report);
        if (!(await store.upsertInstinct(scope, record))) return refusedWrite(report, record.id, record.text);
        if (held) return unpublishInstinct(ctx, options, record, report);
        const file = writeInstinctFile(options.layout, {
          slug,
          text,
          confidence,
          band: entry.band,
          evidence: instinctEvidence(supporting),
          updatedAt: now,
          category,
          contradictions: contradictionNotes(await store.listFeedback(scope, id)),
        });
        entry.file = file.path;
        report.files.push(file);
        await rememberLearned(store, scope, {
          id,
          category: 'instinct',
          title: text,
          text: `${text} (instinct, confidence ${confidence.toFixed(2)})`,
          path: file.path,
          confidence,
          now,
        });
        if (file.changed)
          appendEvolutionLog(options.layout, {
            scope,
            at: now,
            kind: instinctMatch === undefined ? 'instinct-created' : 'instinct-updated',
            id: slug,
            detail: `${text} [${confidence.toFixed(2)}]`,
          });
      });
      return;
    }
    // A new established rule: into a skill written by hand on the same topic, else a new skill.
    const adopted = closestHandWritten(handWritten, labelVector);
    const name =
      adopted?.name ??
      uniqueSlug(skillName(label), new Set([...skills.map((k) => k.name), ...handWritten.map((h) => h.name)]));
    if (adopted !== undefined) handWritten.splice(handWritten.indexOf(adopted), 1);
    const record: SkillRecord = {
      id: `skill-${name}`,
      name,
      description: adopted === undefined || adopted.description === '' ? label : adopted.description,
      rules: [label],
      // The stored base leaves the contradictions out: they are feedback events on it, applied on top.
      confidence: Math.min(1, pending.length > 0 ? unopposed : confidence),
      evidence,
      createdAt: now,
      updatedAt: now,
    };
    const addedToSkill = contradict(record.id, against);
    const current = currentSkillConfidence(record, now, eventsOn(record.id));
    noteApplied(record.id, 'skill', addedToSkill, (left) =>
      currentSkillConfidence(record, now, without(record.id, left)),
    );
    const entry = {
      id: record.id,
      name,
      rule: label,
      confidence: current,
      created: true,
      file: '',
      ...(category === undefined ? {} : { category }),
      ...(adopted === undefined ? {} : { handWritten: true }),
      ...(instinctMatch === undefined || instinctMatch.status !== 'active' ? {} : { promotedFrom: instinctMatch.slug }),
    };
    report.skillsUpdated.push(entry);
    noteWordings(supporting);
    skills.push(record);
    skillVectors.set(record.id, await skillVector(record));
    touchedSkills.add(record.id);
    stageSkill(record, {
      entry,
      log: { kind: adopted === undefined ? 'skill-created' : 'skill-rule-added', label },
      promote:
        instinctMatch !== undefined && instinctMatch.status === 'active'
          ? { instinct: instinctMatch, supporting }
          : undefined,
    });
  };
  const known = {
    at: (id: string) => byId.get(id)?.timestamp ?? now,
    text: (id: string) => byId.get(id)?.observation ?? id,
    learned: learnedEvidence,
  };
  // A camp's contradictions are the other camp's words: those observed of the agent are not the user's.
  const bySource = (unit: ReadUnit): ReadUnit => ({
    ...unit,
    against: unit.against.filter((c) => mayContradict(sourceOf(c.id), sourcesOf(unit.group.ids))),
  });
  for (const [g, group] of ordered)
    for (const unit of readUnits(
      g,
      group,
      read[g]?.contradictions ?? [],
      contradictions[g]?.contradictions ?? [],
      known,
    ))
      await readGroup(bySource(unit), false);
  for (const unit of deferred) await readGroup(unit, true);
  const categoryOf = (skill: SkillRecord) =>
    patternCategory(
      skill.evidence.flatMap((e) => {
        const o = byId.get(e);
        return o === undefined ? [] : [{ type: o.type, text: o.observation, tags: o.tags }];
      }),
    );
  await routeContradictions();
  // Each skill changed in the run is written once, with its final record and confidence.
  for (const staged of stagedSkills.values()) {
    const { record } = staged;
    const current = currentSkillConfidence(record, now, eventsOn(record.id));
    for (const entry of staged.entries) entry.confidence = current;
    noteHeldSkill(report, record, eventIdsOn(feedback, record.id));
    writes.push(async () => {
      const written = { file: '' };
      // From all of its evidence, as an untouched skill's: not from whichever group of the run staged it first.
      const category = categoryOf(record);
      await saveSkill(
        ctx,
        options,
        record,
        current,
        written,
        report,
        staged.logs,
        eventIdsOn(feedback, record.id),
        category,
      );
      for (const entry of staged.entries) entry.file = written.file;
      for (const p of staged.promotions)
        await promoteInstinct(
          ctx,
          options,
          p.instinct,
          record.name,
          current,
          p.supporting,
          report,
          eventIdsOn(feedback, p.instinct.id),
        );
    });
  }
  // Skills no group touched still age (0.02 per idle week) and carry their feedback: their memory follows.
  for (const skill of skills) {
    if (touchedSkills.has(skill.id)) continue;
    const current = currentSkillConfidence(skill, now, eventsOn(skill.id));
    const ids = eventIdsOn(feedback, skill.id);
    const shown = emittableSkill(skill, ids);
    noteHeldSkill(report, skill, ids);
    writes.push(async () => {
      const memory = await store.getMemory(scope, skill.id);
      // A skill held until now and confirmed since is written out; one with a held rule loses it from its file and
      // memory.
      // A skill whose file is elsewhere than its layout says (skills now go to .claude/skills) is written there.
      const moved = memory?.path !== undefined && memory.path !== skillFilePath(options.layout, skill.name);
      if (memory === undefined || shown === undefined || shown.held.length > 0 || moved) {
        if (memory !== undefined || shown !== undefined)
          await saveSkill(ctx, options, skill, current, { file: '' }, report, [], ids, categoryOf(skill));
      } else {
        // Its file says the confidence it was written with, and Claude Code loads it by itself: an ageing skill's file
        // (one still there) follows (walk 6, item 5); below an instinct's 0.5 it is no longer learned and is withdrawn.
        if (!skillFileKept(current)) {
          const removed = withdrawSkillFile(options.layout, skill.name);
          if (removed.removed) {
            report.files.push({ path: removed.path, changed: true });
            const below = `${current.toFixed(2)} below ${LEARNED_KIND_THRESHOLDS.instinct}`;
            logWithdrawn(ctx, options, skill.name, `confidence decayed to ${below}`);
            report.ignored.push({
              ids: skill.evidence,
              text: skill.description,
              why:
                `skill ${skill.name} decayed to ${current.toFixed(2)} below ${LEARNED_KIND_THRESHOLDS.instinct}; ` +
                'its file withdrawn',
            });
          }
        } else if (hasSkillFile(options.layout, skill.name)) {
          const file = await writeSkillOf(ctx, options, skill, shown, current, categoryOf(skill));
          if (file.changed) report.files.push(file);
        }
        if (memory.confidence !== current) await store.upsertMemories(scope, [{ ...memory, confidence: current }]);
      }
    });
  }
  // Active instincts no group touched decay from their last evidence, whatever the window read (issue 21): their
  // evidence is read by id; one whose confidence falls below the minimum is retired.
  const untouched = instincts.filter((i) => !touchedInstincts.has(i.id) && i.status === 'active');
  const outside = untouched.flatMap((i) => i.evidence.filter((id) => !byId.has(id)));
  const older = outside.length === 0 ? [] : await store.getObservationsByIds(scope, [...new Set(outside)]);
  const evidenceById = new Map([...observations, ...older].map((o) => [o.id, o]));
  const decayed = new Set<string>();
  for (const instinct of untouched) {
    const evidence = instinct.evidence.flatMap((id) => evidenceById.get(id) ?? []);
    const base =
      evidence.length === 0
        ? agedConfidence(instinct.confidence, Math.max(0, (now - instinct.updatedAt) / DAY)).value
        : groupConfidence({
            confidences: evidence.map((o) => o.confidence),
            daysSinceLatest: Math.max(0, (now - Math.max(...evidence.map((o) => o.timestamp))) / DAY),
          }).value;
    const confidence = applyFeedback(base, eventsOn(instinct.id)).value;
    if (confidence === instinct.confidence) continue;
    decayed.add(instinct.id);
    if (confidence < minConfidence) {
      report.ignored.push({
        ids: instinct.evidence,
        text: instinct.text,
        why: `confidence decayed to ${confidence.toFixed(2)} below ${minConfidence}; instinct ${instinct.slug} retired`,
      });
      writes.push(async () => retireInstinct(ctx, options, instinct, confidence, evidence, report));
      continue;
    }
    const record: InstinctRecord = { ...instinct, confidence, updatedAt: now };
    const entry = { id: instinct.id, slug: instinct.slug, text: instinct.text, confidence, file: '' };
    if (shownChange(instinct.confidence, confidence)) report.updatedInstincts.push(entry);
    const held = instinctHeld(instinct, eventIdsOn(feedback, instinct.id));
    if (held) report.held.push({ id: instinct.id, kind: 'instinct', texts: [instinct.text] });
    writes.push(async () => {
      if (!(await store.upsertInstinct(scope, record))) return refusedWrite(report, record.id, record.text);
      if (held) return unpublishInstinct(ctx, options, record, report);
      const file = writeInstinctFile(options.layout, {
        slug: instinct.slug,
        text: instinct.text,
        confidence,
        band: confidenceBand(confidence).band,
        evidence: instinctEvidence(evidence),
        updatedAt: now,
        contradictions: contradictionNotes(await store.listFeedback(scope, instinct.id)),
      });
      entry.file = file.path;
      report.files.push(file);
      await rememberLearned(store, scope, {
        id: instinct.id,
        category: 'instinct',
        title: instinct.text,
        text: `${instinct.text} (instinct, confidence ${confidence.toFixed(2)})`,
        path: file.path,
        confidence,
        now,
      });
    });
  }
  // Active instincts no group touched: a held one is kept out of files and recall, one confirmed since is written out.
  for (const instinct of instincts) {
    if (touchedInstincts.has(instinct.id) || decayed.has(instinct.id) || instinct.status !== 'active') continue;
    const held = instinctHeld(instinct, eventIdsOn(feedback, instinct.id));
    if (held) report.held.push({ id: instinct.id, kind: 'instinct', texts: [instinct.text] });
    writes.push(async () => {
      const memory = await store.getMemory(scope, instinct.id);
      if (held) {
        if (memory !== undefined) await unpublishInstinct(ctx, options, instinct, report);
      } else if (memory === undefined) {
        const file = writeInstinctFile(options.layout, {
          slug: instinct.slug,
          text: instinct.text,
          confidence: instinct.confidence,
          band: confidenceBand(instinct.confidence).band,
          evidence: instinctEvidence(instinct.evidence, byId),
          updatedAt: now,
        });
        report.files.push(file);
        await rememberLearned(store, scope, {
          id: instinct.id,
          category: 'instinct',
          title: instinct.text,
          text: `${instinct.text} (instinct, confidence ${instinct.confidence.toFixed(2)})`,
          path: file.path,
          confidence: instinct.confidence,
          now,
        });
      }
    });
  }
  for (const id of grouping.singletons) {
    const o = byId.get(id);
    if (o !== undefined)
      report.ignored.push({ ids: [id], text: o.observation, why: 'seen once: a pattern needs 3 occurrences' });
  }
  // Last, once this run's upserts cleared the tombstones of what it learned again: the files of what was forgotten
  // (on another machine sharing the store too) leave this project (forgotten-files).
  const withdrawForgotten = async (dryRun: boolean) => {
    const learned = new Set([
      ...report.skillsUpdated.map((k) => `skill:${k.name}`),
      ...report.newInstincts.map((i) => `instinct:${i.slug}`),
    ]);
    const tombstones = (await store.listForgotten(scope)).filter((f) => !learned.has(`${f.kind}:${f.name}`));
    const found = withdrawForgottenFiles(options.layout, tombstones, { dryRun });
    if (found.length > 0) report.forgotten = found;
    for (const f of found) if (f.outcome !== 'kept') report.files.push({ path: f.path, changed: true });
  };
  if (options.dryRun === true) await withdrawForgotten(true);
  else writes.push(() => withdrawForgotten(false));
  if (options.dryRun !== true) {
    try {
      for (const write of writes) await write();
    } catch (error) {
      // What was written before the failure stays written, as when each file went to disk at once.
      await files.commit().catch(() => files.discard());
      throw error;
    }
    await files.commit();
  }
  return report;
}

type ContradictionEntry = EvolveReport['contradictions'][number];

/** A group as evolve reads it: a whole group, or one camp of a group whose members contradict one another. */
interface ReadUnit {
  /** The group's index in the grouping. */
  g: number;
  group: ObservationGroup;
  /** The contradictions read against it (none from the evidence of what was learned before the run). */
  against: readonly Contradiction[];
  /** For a camp: the other camp's ids, whose words are its contradictions (never routed elsewhere). */
  apart?: ReadonlySet<string>;
  /**
   * For a camp: the other camp's ids it was said `CAMP_MIN` times after (the user changed their mind back), whose
   * contradictions recorded on what this camp is learned as its newer words reverse.
   */
  reverses?: ReadonlySet<string>;
}

/** Fewest observations of a camp saying the opposite of its group's rule for it to be read as a pattern of its own. */
const CAMP_MIN = 3;

/**
 * How a group is read (walk 12, item 2): whole, unless some of its members contradict others of it ("use spaces, not
 * tabs" joined "use tabs, not spaces" by its words) and the camp against the rule holds `CAMP_MIN` observations, or
 * some learned before. Then its two camps are read apart, each a pattern of its own. Each member the reader found
 * contradicting another (`read`, learned evidence too) is in the camp opposite the member it opposes, the others in
 * the first camp (the oldest member's when every member contradicts another). A camp's contradictions are the other
 * camp's observations said since its own first one (a changed mind: what the user said since replaces what they said
 * before, never the other way round); the first camp also takes the group's contradictions from outside it
 * (`against`). Learned or not: one an earlier run applied is applied once (its event's id), and one that held a camp
 * back holds it back in the next run too, when the other camp is learned from it. An observation of the other camp
 * that the camp was said `CAMP_MIN` times after is not one (review D, item 4: tabs, then spaces, then tabs again three
 * times: the user came back to the rule since); those an earlier run recorded on what the camp is learned as are
 * lifted (`reverses`). One said after the camp's last words, or before only one or two of them, still counts.
 */
function readUnits(
  g: number,
  group: ObservationGroup,
  read: readonly Contradiction[],
  against: readonly Contradiction[],
  known: { at: (id: string) => number; text: (id: string) => string; learned: ReadonlySet<string> },
): ReadUnit[] {
  const whole = [{ g, group, against }];
  const members = new Set(group.ids);
  const inside = read.filter((c) => members.has(c.id) && members.has(c.opposes));
  if (inside.length === 0) return whole;
  const side = new Map<string, 0 | 1>();
  const contradicting = new Set(inside.map((c) => c.id));
  for (const id of group.ids) if (!contradicting.has(id)) side.set(id, 0);
  for (;;) {
    let moved = false;
    for (const c of inside) {
      const x = side.get(c.id);
      const y = side.get(c.opposes);
      if (x === undefined && y !== undefined) side.set(c.id, y === 0 ? 1 : 0);
      else if (y === undefined && x !== undefined) side.set(c.opposes, x === 0 ? 1 : 0);
      else continue;
      moved = true;
    }
    if (moved) continue;
    const first = group.ids.find((id) => !side.has(id));
    if (first === undefined) break;
    side.set(first, 0);
  }
  const [one, two] = [group.ids.filter((id) => side.get(id) === 0), group.ids.filter((id) => side.get(id) === 1)];
  if (one.length === 0 || (two.length < CAMP_MIN && !two.some((id) => known.learned.has(id)))) return whole;
  const camp = (ids: readonly string[]): ObservationGroup => {
    const representative = ids.includes(group.representative) ? group.representative : (ids[0] as string);
    return { ids: [...ids], representative, label: known.text(representative) };
  };
  const [first, second] = [camp(one), camp(two)];
  const found = new Map(read.map((c) => [c.id, c]));
  // A word the camp `to` was said CAMP_MIN times after: the user came back to its rule since, it reverses nothing.
  const reversed = (id: string, to: ObservationGroup) =>
    to.ids.filter((t) => known.at(t) > known.at(id)).length >= CAMP_MIN;
  const reverses = (from: ObservationGroup, to: ObservationGroup) => {
    const ids = from.ids.filter((id) => reversed(id, to));
    return ids.length === 0 ? {} : { reverses: new Set(ids) };
  };
  const versus = (from: ObservationGroup, to: ObservationGroup): Contradiction[] => {
    const since = Math.min(...to.ids.map(known.at));
    return from.ids.flatMap((id) => {
      if (known.at(id) < since || reversed(id, to)) return [];
      const c = found.get(id);
      const opposes = c !== undefined && to.ids.includes(c.opposes) ? c.opposes : to.representative;
      const reason = c?.reason ?? `said since, it says the opposite of ${JSON.stringify(to.label)}`;
      return [{ id, timestamp: known.at(id), kind: c?.kind ?? 'correction', reason, opposes }];
    });
  };
  return [
    {
      g,
      group: first,
      against: [...against.filter((c) => !members.has(c.id)), ...versus(second, first)].sort(
        (a, b) => a.timestamp - b.timestamp || (a.id < b.id ? -1 : 1),
      ),
      apart: new Set(two),
      ...reverses(second, first),
    },
    { g, group: second, against: versus(first, second), apart: new Set(one), ...reverses(first, second) },
  ];
}

/** A contradiction of a group nothing learned, waiting for the learned instinct or skill of its habit. */
interface Unrouted {
  contradiction: Contradiction;
  entry: ContradictionEntry;
  /** The group's evidence and the vector of its rule text, to match it to what is learned. */
  evidence: readonly string[];
  vector: Float32Array | undefined;
  /** The group's confidence without and with the run's contradictions. */
  unopposed: number;
  confidence: number;
}

/** A skill the run changes, written once at the end. */
interface StagedSkill {
  record: SkillRecord;
  entries: { file: string; confidence: number }[];
  logs: { kind: string; label: string }[];
  promotions: { instinct: InstinctRecord; supporting: readonly ObservationRecord[] }[];
}

interface LearnedTarget {
  kind: 'instinct' | 'skill';
  id: string;
  evidence: string[];
  /** What it says (a skill's description and rules, an instinct's text). */
  rules: string[];
  record: InstinctRecord | SkillRecord;
}

/** Distinct texts of each learned item the contradiction reader reads to route a contradiction (bounds the work). */
const ROUTE_TEXTS = 8;

/**
 * The learned item each contradiction opposes, as the contradiction reader reads it: the contradictions against
 * each target's evidence (up to ROUTE_TEXTS distinct texts of it in the window); the first target, skills first.
 */
function opposedLearned<T extends { evidence: readonly string[]; rules: readonly string[] }>(
  ids: readonly string[],
  targets: readonly T[],
  byId: ReadonlyMap<string, ObservationRecord>,
): Map<string, T> {
  const item = (o: ObservationRecord) => ({ id: o.id, text: o.observation, type: o.type, timestamp: o.timestamp });
  const taken = new Set(ids);
  const items = ids.flatMap((id) => {
    const o = byId.get(id);
    return o === undefined ? [] : [item(o)];
  });
  // Only what is learned about a word of a contradiction can be opposed by it: the others are not read.
  const topical = (text: string) => observationTerms(text).filter((t) => !GENERIC_TERMS.has(t));
  const words = new Set(items.flatMap((i) => topical(i.text)));
  const groups = targets.map((t) => {
    if (!t.rules.some((rule) => topical(rule).some((term) => words.has(term)))) return { ids: [] };
    const texts = new Set<string>();
    const own: string[] = [];
    for (const id of t.evidence) {
      const o = byId.get(id);
      if (o === undefined || taken.has(id) || texts.has(`${o.type}\u0000${o.observation}`)) continue;
      texts.add(`${o.type}\u0000${o.observation}`);
      taken.add(id);
      own.push(id);
      items.push(item(o));
      if (own.length >= ROUTE_TEXTS) break;
    }
    return { ids: own };
  });
  const opposed = new Map<string, T>();
  if (items.length === 0 || groups.every((g) => g.ids.length === 0)) return opposed;
  for (const found of detectContradictions(items, groups))
    for (const c of found.contradictions) {
      const target = targets[found.group];
      if (target !== undefined && !opposed.has(c.id)) opposed.set(c.id, target);
    }
  return opposed;
}

/**
 * The learned target whose rules and evidence (up to ROUTE_TEXTS distinct texts) share most words with a group's
 * evidence, at least a quarter of their weight (`termMatcher`, weights over the run's observations), or undefined;
 * targets `differs` tells apart (another slot of a shared template) are left out.
 */
function wordsShared<T extends { evidence: readonly string[]; rules: readonly string[] }>(
  batch: readonly string[],
  targets: readonly T[],
  byId: ReadonlyMap<string, ObservationRecord>,
): (evidence: readonly string[], differs?: (target: T) => boolean) => T | undefined {
  let match: NearestByTerms | undefined;
  let candidates: string[][] = [];
  const texts = (ids: readonly string[]) =>
    [...new Set(ids.flatMap((id) => byId.get(id)?.observation ?? []))].slice(0, ROUTE_TEXTS);
  return (evidence, differs) => {
    if (match === undefined) {
      match = termMatcher(batch);
      candidates = targets.map((t) => [...t.rules, ...texts(t.evidence)]);
    }
    const kept = differs === undefined ? targets.map((_, k) => k) : targets.flatMap((t, k) => (differs(t) ? [] : [k]));
    const found = match(
      texts(evidence),
      kept.map((k) => candidates[k] as string[]),
    );
    return found === undefined ? undefined : targets[kept[found.index] as number];
  };
}

/** Which observation types read best as a rule, best first: what to do, not what went wrong. */
const RULE_TYPES = ['preference', 'pattern', 'success', 'correction', 'error'] as const;

/**
 * The text an instinct or rule is written as: a member of the best-reading type (a preference or a
 * pattern rather than an error report), the group's representative if it is one, else the most
 * confident, then the earliest.
 */
function ruleText(members: readonly ObservationRecord[], representative: string): string | undefined {
  const rank = (o: ObservationRecord) => RULE_TYPES.indexOf(o.type);
  const best = Math.min(...members.map(rank));
  const pool = members.filter((o) => rank(o) === best);
  const chosen =
    pool.find((o) => o.id === representative) ??
    [...pool].sort((a, b) => b.confidence - a.confidence || a.timestamp - b.timestamp || (a.id < b.id ? -1 : 1))[0];
  return chosen?.observation;
}

/**
 * The vectors of texts by id, each distinct text embedded once (a habit repeats its wordings: the 10,000 observations
 * of the habit stream hold fewer than 3,000 texts); ids with the same text share its vector, which nothing changes.
 */
async function embedTexts(
  embedder: EmbeddingProvider,
  entries: readonly [string, string][],
): Promise<Map<string, Float32Array>> {
  const slotOf = new Map<string, number>();
  for (const [, text] of entries) if (!slotOf.has(text)) slotOf.set(text, slotOf.size);
  const vectors = await embedder.embed([...slotOf.keys()]);
  return new Map(entries.map(([id, text]) => [id, vectors[slotOf.get(text) as number] as Float32Array]));
}

/** Instincts and skills join recall as memories, with their stored confidence and their file. */
async function rememberLearned(
  store: ObservationStore & LearningStore & MemoryStore & FeedbackStore,
  scope: string,
  m: {
    id: string;
    category: 'instinct' | 'skill';
    title: string;
    text: string;
    path: string;
    confidence: number;
    now: number;
  },
): Promise<void> {
  const existing = await store.getMemory(scope, m.id);
  const record: MemoryRecord = {
    id: m.id,
    category: m.category,
    title: m.title,
    text: m.text,
    tags: [m.category],
    path: m.path,
    confidence: m.confidence,
    createdAt: existing?.createdAt ?? m.now,
    updatedAt:
      existing !== undefined && existing.text === m.text && existing.confidence === m.confidence
        ? existing.updatedAt
        : m.now,
  };
  await store.upsertMemories(scope, [record]);
}

/** The learned thing that holds most of a group's evidence, or undefined when none holds any. */
function sharingEvidence<T extends { id: string; evidence: string[] }>(
  candidates: readonly T[],
  evidence: readonly string[],
): T | undefined {
  return matchLearned(candidates, evidence, undefined, new Map());
}

/**
 * A learned thing's evidence as a set (kept per array: a record's evidence is replaced, never changed in place), or
 * undefined when it repeats an id (then its ids are counted one by one).
 */
function distinctEvidence(evidence: readonly string[]): ReadonlySet<string> | undefined {
  let set = evidenceSets.get(evidence);
  if (set === undefined) evidenceSets.set(evidence, (set = new Set(evidence)));
  return set.size === evidence.length ? set : undefined;
}

const evidenceSets = new WeakMap<readonly string[], Set<string>>();

/**
 * The learned thing a group already is: the most shared evidence, else the closest meaning (≥ the skill match cosine)
 * among those whose subject `differs` does not tell apart (a shared template's other slot: issue 21).
 */
function matchLearned<T extends { id: string; evidence: string[] }>(
  candidates: readonly T[],
  evidence: readonly string[],
  vector: Float32Array | undefined,
  vectors: ReadonlyMap<string, Float32Array>,
  differs?: (candidate: T) => boolean,
): T | undefined {
  const ev = new Set(evidence);
  let best: T | undefined;
  let bestShared = 0;
  for (const c of candidates) {
    // Every group asks this of every learned thing: the smaller side is walked (a skill holds up to thousands).
    const own = c.evidence.length > ev.size ? distinctEvidence(c.evidence) : undefined;
    let shared = 0;
    if (own === undefined) {
      for (const id of c.evidence) if (ev.has(id)) shared += 1;
    } else for (const id of ev) if (own.has(id)) shared += 1;
    if (shared > bestShared) {
      bestShared = shared;
      best = c;
    }
  }
  if (best !== undefined) return best;
  let bestSim: number = EVOLVE_DEFAULTS.skillMatch;
  for (const c of candidates) {
    const v = vectors.get(c.id);
    const sim = v === undefined || vector === undefined ? 0 : cosine(v, vector);
    if (sim >= bestSim && differs?.(c) !== true) {
      bestSim = sim;
      best = c;
    }
  }
  return best;
}

export { currentSkillConfidence } from './skill-confidence.js';

interface HandWrittenTopic {
  name: string;
  description: string;
  /** The vectors of its description and of each of its lines. */
  vectors: Float32Array[];
}

/** The skills written by hand in the layout's skills folder (none Credence keeps), with their lines embedded. */
async function handWrittenTopics(
  embedder: EmbeddingProvider,
  layout: SkillFileLayoutOptions,
  skills: readonly SkillRecord[],
): Promise<HandWrittenTopic[]> {
  const found = handWrittenSkills(layout, new Set(skills.map((k) => k.name)));
  const texts = found.map((h) => [h.description, ...h.lines].filter((t) => t !== ''));
  const flat = texts.flat();
  if (flat.length === 0) return [];
  const vectors = await embedder.embed(flat);
  let at = 0;
  return found.map((h, i) => {
    const n = texts[i]?.length ?? 0;
    const own = vectors.slice(at, at + n) as Float32Array[];
    at += n;
    return { name: h.name, description: h.description, vectors: own };
  });
}

/** The hand-written skill on the same topic as a rule: the closest of its lines, at the skill match cosine or more. */
function closestHandWritten(
  topics: readonly HandWrittenTopic[],
  vector: Float32Array | undefined,
): HandWrittenTopic | undefined {
  if (vector === undefined) return undefined;
  let best: HandWrittenTopic | undefined;
  let bestSim: number = EVOLVE_DEFAULTS.skillMatch;
  for (const topic of topics)
    for (const v of topic.vectors) {
      const sim = cosine(v, vector);
      if (sim >= bestSim) {
        bestSim = sim;
        best = topic;
      }
    }
  return best;
}

function uniqueSlug(slug: string, taken: ReadonlySet<string>): string {
  if (!taken.has(slug)) return slug;
  for (let i = 2; ; i += 1) if (!taken.has(`${slug}-${i}`)) return `${slug}-${i}`;
}

/**
 * A write the store refused: the item was forgotten (a tombstone) after this evolve read it, or its evidence is gone
 * (walk 13: a teammate's forget at the same moment). No file is written and it is not reported as learned.
 */
function refusedWrite(report: EvolveReport, id: string, text: string): void {
  for (const list of [report.newInstincts, report.updatedInstincts, report.skillsUpdated] as { id: string }[][]) {
    const at = list.findIndex((e) => e.id === id);
    if (at >= 0) list.splice(at, 1);
  }
  report.ignored.push({ ids: [id], text, why: `${id} was forgotten while this evolve ran; not learned again` });
}

/** The contradictions recorded against an instinct or a skill, as its file shows them. */
function contradictionNotes(feedback: readonly FeedbackRecord[]): ContradictionNote[] {
  return feedback
    .filter((f) => f.kind === 'contradiction')
    .map((f) => ({ text: f.note ?? `feedback ${f.id}`, at: f.at, delta: FEEDBACK_DELTAS.contradiction }));
}

async function saveSkill(
  ctx: EvolveContext,
  options: EvolveOptions,
  record: SkillRecord,
  current: number,
  entry: { file: string },
  report: EvolveReport,
  logs: readonly { kind: string; label: string }[],
  eventIds: readonly string[],
  category?: PatternCategory,
): Promise<void> {
  if (!(await ctx.store.upsertSkill(ctx.scope, record))) return refusedWrite(report, record.id, record.description);
  // Held rules stay in the store, out of the file and of recall; a skill with nothing else has neither.
  const shown = emittableSkill(record, eventIds);
  if (shown === undefined) {
    const removed = withdrawSkillFile(options.layout, record.name);
    if (removed.removed) {
      report.files.push({ path: removed.path, changed: true });
      logWithdrawn(ctx, options, record.name, 'every rule held for your confirmation');
    }
    await ctx.store.deleteMemory(ctx.scope, record.id);
    return;
  }
  const before = await ctx.store.getMemory(ctx.scope, record.id);
  // Below 0.5 it is no longer learned: no file (review F, item 1: one contradicted to 0.00 was written), as an idle
  // skill's is withdrawn; its memory keeps its confidence now.
  if (!skillFileKept(current)) {
    const removed = withdrawSkillFile(options.layout, record.name);
    if (removed.removed) {
      report.files.push({ path: removed.path, changed: true });
      logWithdrawn(
        ctx,
        options,
        record.name,
        `confidence ${current.toFixed(2)} below ${LEARNED_KIND_THRESHOLDS.instinct}`,
      );
    }
    report.ignored.push({
      ids: record.evidence,
      text: record.description,
      why:
        `skill ${record.name} at ${current.toFixed(2)} below ${LEARNED_KIND_THRESHOLDS.instinct}; no file written` +
        (removed.removed ? ', its file withdrawn' : ''),
    });
    if (before !== undefined && before.confidence !== current)
      await ctx.store.upsertMemories(ctx.scope, [{ ...before, confidence: current }]);
    return;
  }
  // The rules this run added are dated today (the others keep the day their file says, else the skill's first).
  const addedNow = new Set(logs.map((log) => log.label));
  const file = await writeSkillOf(ctx, options, record, shown, current, category, addedNow);
  entry.file = file.path;
  report.files.push(file);
  // Written elsewhere before (skills now go to .claude/skills): the file left behind goes, unless someone wrote in it.
  if (before?.path !== undefined && before.path !== file.path) {
    const old = removeOwnSkillFileAt(options.layout, before.path);
    if (old.removed) report.files.push({ path: old.path, changed: true });
  }
  await rememberLearned(ctx.store, ctx.scope, {
    id: record.id,
    category: 'skill',
    title: record.name,
    text: `${shown.description}\n${shown.rules.join('\n')}`,
    path: file.path,
    confidence: current,
    now: ctx.now,
  });
  if (file.changed)
    for (const log of logs)
      appendEvolutionLog(options.layout, {
        scope: ctx.scope,
        at: ctx.now,
        kind: log.kind,
        id: record.name,
        detail: `${log.label} [${current.toFixed(2)}]`,
      });
}

/** A skill's file withdrawn, as a line of the evolution log (walk 12, item 8). */
function logWithdrawn(ctx: EvolveContext, options: EvolveOptions, name: string, why: string): void {
  appendEvolutionLog(options.layout, { scope: ctx.scope, at: ctx.now, kind: 'skill-withdrawn', id: name, detail: why });
}

function hasSkillFile(layout: SkillFileLayoutOptions, name: string): boolean {
  try {
    readSkillFile(layout, name);
    return true;
  } catch (error) {
    if (isCredenceError(error, 'NOT_FOUND')) return false;
    throw error;
  }
}

/** Writes a skill's file with its confidence now (the rules it shows, its category and contradictions). */
async function writeSkillOf(
  ctx: EvolveContext,
  options: EvolveOptions,
  record: SkillRecord,
  shown: { description: string; rules: readonly string[] },
  current: number,
  category: PatternCategory | undefined,
  addedNow: ReadonlySet<string> = new Set(),
): Promise<ReturnType<typeof writeSkillFile>> {
  return writeSkillFile(options.layout, {
    name: record.name,
    description: shown.description,
    rules: shown.rules.map((text) => ({
      text,
      confidence: current,
      addedAt: addedNow.has(text) ? ctx.now : record.createdAt,
    })),
    confidence: current,
    updatedAt: record.updatedAt,
    category,
    contradictions: contradictionNotes(await ctx.store.listFeedback(ctx.scope, record.id)),
  });
}

function noteHeldSkill(report: EvolveReport, skill: SkillRecord, eventIds: readonly string[]): void {
  const shown = emittableSkill(skill, eventIds);
  const texts = shown?.held ?? [...new Set([skill.description, ...skill.rules])];
  if (texts.length > 0 && !report.held.some((h) => h.id === skill.id))
    report.held.push({ id: skill.id, kind: 'skill', texts });
}

/** A held instinct: its record stays (the user confirms it by id); its file and memory go. */
async function unpublishInstinct(
  ctx: EvolveContext,
  options: EvolveOptions,
  instinct: InstinctRecord,
  report: EvolveReport,
): Promise<void> {
  await ctx.store.deleteMemory(ctx.scope, instinct.id);
  const removed = removeInstinctFile(options.layout, instinct.slug);
  if (removed.removed) report.files.push({ path: removed.path, changed: true });
}

async function promoteInstinct(
  ctx: EvolveContext,
  options: EvolveOptions,
  instinct: InstinctRecord,
  skill: string,
  confidence: number,
  supporting: readonly ObservationRecord[],
  report: EvolveReport,
  eventIds: readonly string[],
): Promise<void> {
  if (instinctHeld(instinct, eventIds)) {
    await ctx.store.upsertInstinct(ctx.scope, { ...instinct, status: 'promoted', updatedAt: ctx.now });
    await unpublishInstinct(ctx, options, instinct, report);
    appendEvolutionLog(options.layout, {
      scope: ctx.scope,
      at: ctx.now,
      kind: 'instinct-promoted',
      id: instinct.slug,
      detail: `promoted to skill ${skill}`,
    });
    return;
  }
  const promoted = writeInstinctFile(options.layout, {
    slug: instinct.slug,
    text: instinct.text,
    confidence,
    band: confidenceBand(confidence).band,
    evidence: instinctEvidence(supporting),
    promotedTo: skill,
    updatedAt: ctx.now,
  });
  await ctx.store.upsertInstinct(ctx.scope, { ...instinct, status: 'promoted', updatedAt: ctx.now });
  await ctx.store.deleteMemory(ctx.scope, instinct.id);
  report.files.push(promoted);
  appendEvolutionLog(options.layout, {
    scope: ctx.scope,
    at: ctx.now,
    kind: 'instinct-promoted',
    id: instinct.slug,
    detail: `promoted to skill ${skill}`,
  });
}

async function retireInstinct(
  ctx: EvolveContext,
  options: EvolveOptions,
  instinct: InstinctRecord,
  confidence: number,
  supporting: readonly ObservationRecord[],
  report: EvolveReport,
): Promise<void> {
  // A retired instinct is no longer a suggestion: its memory goes (recall and the session context no longer
  // return it); the record stays, retired, and its file says so (`status: retired`). A held text gets no file.
  await ctx.store.upsertInstinct(ctx.scope, { ...instinct, confidence, status: 'retired', updatedAt: ctx.now });
  await ctx.store.deleteMemory(ctx.scope, instinct.id);
  const feedback = await ctx.store.listFeedback(ctx.scope, instinct.id);
  const file = instinctHeld(
    instinct,
    feedback.map((f) => f.id),
  )
    ? undefined
    : writeInstinctFile(options.layout, {
        slug: instinct.slug,
        text: instinct.text,
        confidence,
        band: confidenceBand(confidence).band,
        evidence: instinctEvidence(supporting),
        updatedAt: ctx.now,
        retired: true,
        contradictions: contradictionNotes(feedback),
      });
  if (file?.changed === true) {
    report.files.push(file);
    appendEvolutionLog(options.layout, {
      scope: ctx.scope,
      at: ctx.now,
      kind: 'instinct-retired',
      id: instinct.slug,
      detail: `confidence ${confidence.toFixed(2)}`,
    });
  }
}

/**
 * Whether a confidence moved as the report, the instinct's file and the evolution log show it (two decimals). A run
 * again moments later re-reads the evidence's age on the wall clock: the last digits move and are stored, but the
 * instinct is not listed as updated for it (the file and the log did not change either).
 */
function shownChange(before: number, after: number): boolean {
  return before.toFixed(2) !== after.toFixed(2);
}

/**
 * The scope's observations older than the window start `since` (a newcomer who observed last month and ran evolve
 * saw nothing learned, with no reason): how many, and a `--since` that reaches the oldest. The oldest is the first
 * row of the list (ordered by time) and the count the scope's kept row count less those read: two small reads.
 */
async function observationsNotRead(
  ctx: Pick<EvolveContext, 'store' | 'scope' | 'now'>,
  since: number,
  read: number,
  alsoRead: ReadonlySet<string> = new Set(),
): Promise<EvolveReport['notRead']> {
  // The oldest not read: the first row (ordered by time) that is not among those read before the window.
  const first = await ctx.store.listObservations(ctx.scope, { limit: alsoRead.size + 1 });
  const oldest = first.find((o) => !alsoRead.has(o.id));
  if (oldest === undefined || oldest.timestamp >= since) return undefined;
  const count = (await ctx.store.counts(ctx.scope)).observations - read;
  if (count <= 0) return undefined;
  return {
    observations: count,
    window: windowName(ctx.now - since),
    // Whole days, a day more than reach the oldest: the value still reaches it when pasted later that day (the
    // days rounded up alone left a fraction of a second for an observation a whole number of days old, less a second).
    since: `${Math.ceil((ctx.now - oldest.timestamp) / DAY) + 1}d`,
  };
}

/** A window's length as the report says it: `7 days`, or hours when it is no whole number of days. */
function windowName(span: number): string {
  const [n, unit] = span % DAY === 0 ? [span / DAY, 'day'] : [Math.max(1, Math.round(span / 3_600_000)), 'hour'];
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}

/**
 * The report of a run that was not a dry run, once its prune deleted the observations `purged` (ids): what is left
 * unread is counted again, as a `--since` suggested for observations just deleted would read nothing, and how many of
 * those not read were deleted instead. Reads the window again only when the prune deleted some.
 */
export async function afterPrune(
  ctx: Pick<EvolveContext, 'store' | 'scope' | 'now'>,
  report: EvolveReport,
  sinceMs: number | undefined,
  purged: readonly { id: string }[],
  alsoRead: readonly { id: string }[] = [],
): Promise<EvolveReport> {
  const before = report.notRead;
  if (before === undefined || purged.length === 0) return report;
  const since = ctx.now - (sinceMs ?? EVOLVE_DEFAULTS.sinceMs);
  // Those read before the window that the prune kept (the last evidence of what was learned) were read all the same.
  const gone = new Set(purged.map((p) => p.id));
  const kept = new Set(alsoRead.map((o) => o.id).filter((id) => !gone.has(id)));
  const read = (await ctx.store.listObservations(ctx.scope, { since })).length + kept.size;
  const notRead = await observationsNotRead(ctx, since, read, kept);
  const deleted = before.observations - (notRead?.observations ?? 0);
  const { notRead: _before, ...rest } = report;
  return {
    ...rest,
    ...(notRead === undefined ? {} : { notRead }),
    ...(deleted > 0 ? { purged: { observations: deleted, window: before.window } } : {}),
  };
}

/** Longest observation text quoted whole in a report line; a longer one is cut at a word, with "…". */
const QUOTED_CHARS = 100;

/** An observation's text, quoted and cut to about `QUOTED_CHARS` (one line). */
function quotedCut(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  if (line.length <= QUOTED_CHARS) return JSON.stringify(line);
  const cut = line.slice(0, QUOTED_CHARS);
  const space = cut.lastIndexOf(' ');
  return JSON.stringify(`${(space > QUOTED_CHARS / 2 ? cut.slice(0, space) : cut).trimEnd()}…`);
}

/** The seed's report, as markdown. */
export function formatEvolveReport(r: EvolveReport): string {
  const out = [`## Evolution detected${r.dryRun ? ' (dry run: nothing written)' : ''}`, ''];
  if (r.notRead !== undefined) {
    const { observations: n, window, since } = r.notRead;
    out.push(
      `${n} observation${n === 1 ? '' : 's'} older than ${window} ${n === 1 ? 'was' : 'were'} not read; ` +
        `pass --since ${since} to include ${n === 1 ? 'it' : 'them'}.`,
      '',
    );
  }
  if (r.ownWordsRead !== undefined) {
    const { observations: n, window } = r.ownWordsRead;
    out.push(
      `${n} of your own words (corrections, preferences) older than ${window} ${n === 1 ? 'was' : 'were'} read ` +
        'as well: what you said is read until it is purged.',
      '',
    );
  }
  if (r.purged !== undefined) {
    const { observations: n, window } = r.purged;
    out.push(
      `${n} observation${n === 1 ? '' : 's'} older than ${window} ${n === 1 ? 'was' : 'were'} deleted by this run's ` +
        'prune (see Pruned), not left unread.',
      '',
    );
  }
  out.push(`### New instincts (${r.newInstincts.length})`);
  const kind = (c: string | undefined) => (c === undefined ? '' : ` (${c})`);
  for (const i of r.newInstincts) out.push(`- [${i.confidence.toFixed(2)}] ${i.text}${kind(i.category)}`);
  if (r.updatedInstincts.length > 0) {
    out.push('', `### Instincts updated (${r.updatedInstincts.length})`);
    for (const i of r.updatedInstincts) out.push(`- [${i.confidence.toFixed(2)}] ${i.text}`);
  }
  out.push('', `### Skills updated (${r.skillsUpdated.length})`);
  const how = (s: EvolveReport['skillsUpdated'][number]) =>
    s.handWritten === true
      ? 'rule added to your skill'
      : s.created
        ? 'new skill, rule'
        : s.ruleAdded === false
          ? 'seen again, rule'
          : 'rule added';
  for (const s of r.skillsUpdated)
    out.push(
      `- ${s.name}: ${how(s)} "${s.rule}" [${s.confidence.toFixed(2)}]${kind(s.category)}` +
        `${s.promotedFrom === undefined ? '' : ` (promoted from instinct ${s.promotedFrom})`}`,
    );
  if (r.forgotten !== undefined) {
    out.push('', `### Forgotten, files taken out (${r.forgotten.length})`);
    const done = (f: ForgottenFile) =>
      f.outcome === 'removed' ? 'removed' : "withdrawn (Credence's section; your text kept)";
    const what = (f: ForgottenFile) =>
      f.outcome === 'kept' ? `kept: ${f.problem ?? 'unknown problem'}` : `${r.dryRun ? 'would be ' : ''}${done(f)}`;
    for (const f of r.forgotten)
      out.push(`- ${f.kind} ${f.name}: ${f.path} ${what(f)} (forgotten ${new Date(f.at).toISOString().slice(0, 10)})`);
  }
  // Each line is a group of observations: the header says how many of each when they differ (walk 17, item 11).
  const ignoredCount = r.ignored.reduce((n, i) => n + i.ids.length, 0);
  const groups =
    r.ignored.length === ignoredCount ? '' : ` in ${r.ignored.length} group${r.ignored.length === 1 ? '' : 's'}`;
  out.push('', `### Observations ignored (${ignoredCount}${groups})`);
  for (const i of r.ignored)
    out.push(`- ${i.text}${i.ids.length > 1 ? ` (${i.ids.length} observations)` : ''}: ${i.why}`);
  if (r.contradictions.length > 0) {
    out.push('', `### Contradictions (${r.contradictions.length})`);
    for (const c of r.contradictions)
      out.push(
        `- against "${c.group}": ${quotedCut(c.text)} on ${c.at.slice(0, 10)} (${c.id}): ${c.reason}` +
          (c.applied !== undefined
            ? ` (${c.applied.delta} on ${c.applied.kind} ${c.applied.to}: ` +
              `${c.applied.before.toFixed(2)} → ${c.applied.after.toFixed(2)})`
            : c.heldBack === undefined
              ? ''
              : ` (nothing learned of this habit; the pattern held back: ` +
                `${c.heldBack.before.toFixed(2)} → ${c.heldBack.after.toFixed(2)})`),
      );
  }
  if (r.lifted !== undefined) {
    out.push('', `### Contradictions lifted (${r.lifted.length}): you said the rule again since`);
    for (const l of r.lifted)
      out.push(
        `- on ${l.kind} ${l.name}: ${quotedCut(l.text)} on ${l.at.slice(0, 10)} (${l.id}), reversed by ` +
          `${quotedCut(l.rule)} said ${CAMP_MIN} times since (+${l.delta.toFixed(2)}: ` +
          `${l.before.toFixed(2)} → ${l.after.toFixed(2)})`,
      );
  }
  if (r.joined.length > 0) {
    out.push('', `### Wordings joined (${r.joined.length})`);
    for (const j of r.joined) out.push(`- ${j.texts.map((t) => JSON.stringify(t)).join(' + ')}: ${j.why}`);
  }
  if (r.held.length > 0) {
    out.push(
      '',
      `### Held for your confirmation (${r.held.length}): commands are not passed on to agents until you confirm them`,
    );
    for (const h of r.held)
      out.push(
        `- ${h.kind} ${h.id}: ${h.texts.map((t) => JSON.stringify(t)).join('; ')} ` +
          `(confirm: credence feedback ${h.id} --validated)`,
      );
  }
  return out.join('\n');
}
