/**
 * @module engine/forget
 * Forgetting and the limits of SPEC §6 (seed 004 defaults: 100 observations kept per scope, purge
 * after 90 days, 20 active instincts). `forget ID` deletes an observation (or an instinct, a skill,
 * a memory) and whatever was derived only from it: an instinct or skill whose last evidence it was
 * goes too, with its memory, its file (a hand-written one keeps its writer's text) and its feedback. A
 * forgotten instinct or skill takes the observations it was learned from and those learned from the
 * same ones (forgetLearned), and leaves a tombstone for the other machines' files (learning/forgotten-files). Pruning
 * never deletes the last evidence of a live one, and says so.
 */
import { CredenceError } from '../core/errors.js';
import { confidenceBand } from '../core/learning/bands.js';
import { planPrune, type PrunePlan } from '../core/learning/observation-limits.js';
import { isRuleSource, observationSource, sourceTag } from '../core/learning/rule-trust.js';
import { SESSION_TAG_PREFIX, sessionLabel, sessionPromptSpans } from '../core/runs/session-label.js';
import { emittableSkill, instinctHeld } from './learning/held.js';
import { unlinkForgotten } from './recall/remember.js';
import { edgeUnlearn } from './tool-graph/tool-graph.js';
import { ensureWorkflows, workflowOf } from './workflows/workflows.js';
import {
  instinctEvidence,
  checkInstinctFile,
  checkSkillFile,
  withdrawInstinctFile,
  withdrawSkillFile,
  writeInstinctFile,
  writeSkillFile,
  type SkillFileLayoutOptions,
} from './learning/skill-files.js';
import type {
  ExecutionRecord,
  ExecutionStore,
  FeedbackStore,
  HookQueueStore,
  InstinctRecord,
  LearningStore,
  MemoryStore,
  ObservationRecord,
  ObservationStore,
  SkillRecord,
  WorkflowStore,
} from '../store/types.js';

/**
 * What a forgotten run taught goes with it, in the transaction that deletes it: the workflows it merged into are built
 * again from the runs left (gone when none is left), and its edge events are taken back from the tool graph.
 */
const TAKE_BACK = { workflow: workflowOf, unlearn: edgeUnlearn };

export const LIMIT_DEFAULTS = Object.freeze({ maxObservations: 100, purgeAfterDays: 90, maxActiveInstincts: 20 });

export interface LimitOptions {
  /** @default 100 */
  maxObservations?: number;
  /** @default 90 */
  purgeAfterDays?: number;
  /** @default 20 */
  maxActiveInstincts?: number;
}

export interface ForgetResult {
  id: string;
  /**
   * `run`: a recorded run (execution); `session`: a Claude Code session, its runs and its hook state; `workflow`: a
   * learned workflow (`wf-…`), by its runs.
   */
  kind: 'observation' | 'instinct' | 'skill' | 'memory' | 'run' | 'session' | 'workflow';
  /** The runs deleted (a run, a session's turns `cc-<session>-<turn>`, a workflow's runs). */
  runsForgotten?: string[];
  /**
   * A session: the observations learned from its prompts (the hooks' corrections) that were kept, each to forget by
   * its own id.
   */
  observationsLeft?: string[];
  /**
   * A run or a session: the hooks' observations learned from its calls (a failed call's error, a test run, a commit),
   * forgotten with it: derived from those calls only.
   */
  observationsForgotten?: string[];
  /** A session, forgotten with the base of the hooks' files: how many of its events still in the spool went. */
  spooledEventsForgotten?: number;
  /** Instincts and skills deleted because this was their last evidence (with their files). */
  derivedRemoved: string[];
  /** Instincts and skills that lost this piece of evidence but live on. */
  derivedUpdated: string[];
  /** Instincts and skills learned from the same observations as a forgotten instinct or skill, forgotten with it. */
  derivedForgotten: string[];
  /**
   * A forgotten instinct's or skill's evidence: the observations it was learned from, forgotten with it so that the
   * next `evolve` does not learn it again from them (new observations may).
   */
  evidenceForgotten: string[];
  files: string[];
}

interface Ctx {
  store: ObservationStore &
    MemoryStore &
    LearningStore &
    FeedbackStore &
    Pick<ExecutionStore, 'getExecution' | 'listExecutions' | 'deleteExecutions'> &
    WorkflowStore &
    Pick<
      HookQueueStore,
      | 'forgetHookSession'
      | 'hookSession'
      | 'hookSessionsStartingWith'
      | 'setHookSessionState'
      | 'recordForgottenSession'
    >;
  scope: string;
  layout: SkillFileLayoutOptions;
}

/**
 * A dropped instinct or skill takes its feedback with it: one learned again under its id starts afresh. It leaves a
 * tombstone, so that every machine sharing the store takes its file out of its own project too (forgotten-files). The
 * tombstone is written before the row goes: a teammate's evolve that read the item before the forget and writes it
 * back between the two is then refused by the store (its write is not newer than the tombstone; review D).
 */
async function dropInstinct(ctx: Ctx, id: string, slug: string, files: string[], now: number): Promise<void> {
  await ctx.store.recordForgotten(ctx.scope, [{ id, kind: 'instinct', name: slug, at: now }]);
  await ctx.store.deleteInstinct(ctx.scope, id);
  await ctx.store.deleteFeedback(ctx.scope, id);
  await dropInstinctOutputs(ctx, id, slug, files);
}

async function dropInstinctOutputs(ctx: Ctx, id: string, slug: string, files: string[]): Promise<void> {
  await ctx.store.deleteMemory(ctx.scope, id);
  // A file without Credence's markers (written by hand) stays.
  const removed = withdrawInstinctFile(ctx.layout, slug);
  if (removed.removed) files.push(removed.path);
}

async function dropSkill(ctx: Ctx, id: string, name: string, files: string[], now: number): Promise<void> {
  // The file first: one whose markers are broken is refused, saying so, before anything stored is deleted.
  const removed = withdrawSkillFile(ctx.layout, name);
  if (removed.removed) files.push(removed.path);
  // The tombstone before the row, as for an instinct.
  await ctx.store.recordForgotten(ctx.scope, [{ id, kind: 'skill', name, at: now }]);
  await ctx.store.deleteSkill(ctx.scope, id);
  await ctx.store.deleteFeedback(ctx.scope, id);
  await ctx.store.deleteMemory(ctx.scope, id);
}

async function observationsById(ctx: Ctx, ids: readonly string[]): Promise<ObservationRecord[]> {
  const wanted = new Set(ids);
  return (await ctx.store.listObservations(ctx.scope)).filter((o) => wanted.has(o.id));
}

/**
 * The first of `observations` whose words may word a rule (the user's, or a template): never a tool's output (issue
 * 17).
 */
const wordingOf = (observations: readonly ObservationRecord[]): string | undefined =>
  observations.find((o) => isRuleSource(observationSource(o.tags)))?.observation;

/**
 * Removes `ids` from the evidence of every instinct and skill; those left with none go too, the others are rewritten
 * without them.
 */
async function withdrawEvidence(
  ctx: Ctx,
  ids: ReadonlySet<string>,
  now: number,
  result: { derivedRemoved: string[]; derivedUpdated: string[]; files: string[] },
  forgottenTexts: ReadonlySet<string> = new Set(),
): Promise<void> {
  for (const i of await ctx.store.listInstincts(ctx.scope)) {
    if (!i.evidence.some((e) => ids.has(e))) continue;
    const evidence = i.evidence.filter((e) => !ids.has(e));
    if (evidence.length === 0) {
      await dropInstinct(ctx, i.id, i.slug, result.files, now);
      result.derivedRemoved.push(i.id);
    } else {
      const remaining = await observationsById(ctx, evidence);
      const text = forgottenTexts.has(i.text) ? (wordingOf(remaining) ?? i.text) : i.text;
      await ctx.store.upsertInstinct(ctx.scope, { ...i, text, evidence, updatedAt: now });
      result.derivedUpdated.push(i.id);
      // A text held for the user's confirmation is in no file and no memory (engine/learning/held).
      if (
        instinctHeld(
          { text },
          (await ctx.store.listFeedback(ctx.scope, i.id)).map((f) => f.id),
        )
      ) {
        await dropInstinctOutputs(ctx, i.id, i.slug, result.files);
        continue;
      }
      // The file and the memory no longer show what was forgotten.
      const file = writeInstinctFile(ctx.layout, {
        slug: i.slug,
        text,
        confidence: i.confidence,
        band: confidenceBand(i.confidence).band,
        evidence: instinctEvidence(remaining),
        updatedAt: now,
      });
      if (file.changed) result.files.push(file.path);
      const memory = await ctx.store.getMemory(ctx.scope, i.id);
      if (memory !== undefined)
        await ctx.store.upsertMemories(ctx.scope, [
          { ...memory, title: text, text: `${text} (instinct, confidence ${i.confidence.toFixed(2)})`, updatedAt: now },
        ]);
    }
  }
  for (const s of await ctx.store.listSkills(ctx.scope)) {
    if (!s.evidence.some((e) => ids.has(e))) continue;
    const evidence = s.evidence.filter((e) => !ids.has(e));
    if (evidence.length === 0) {
      await dropSkill(ctx, s.id, s.name, result.files, now);
      result.derivedRemoved.push(s.id);
    } else {
      const remaining = await observationsById(ctx, evidence);
      // A rule that is the forgotten observation's own words is rewritten from what remains.
      const rules = s.rules.map((r) => (forgottenTexts.has(r) ? (wordingOf(remaining) ?? r) : r));
      const description = forgottenTexts.has(s.description) ? (rules[0] ?? s.description) : s.description;
      const record = { ...s, rules: [...new Set(rules)], description, evidence };
      await ctx.store.upsertSkill(ctx.scope, record);
      result.derivedUpdated.push(s.id);
      // Rules held for the user's confirmation are in no file and no memory (engine/learning/held).
      const shown = emittableSkill(
        record,
        (await ctx.store.listFeedback(ctx.scope, s.id)).map((f) => f.id),
      );
      if (shown === undefined) {
        await ctx.store.deleteMemory(ctx.scope, s.id);
        const removed = withdrawSkillFile(ctx.layout, s.name);
        if (removed.removed) result.files.push(removed.path);
        continue;
      }
      const file = writeSkillFile(ctx.layout, {
        name: s.name,
        description: shown.description,
        rules: shown.rules.map((text) => ({ text, confidence: s.confidence, addedAt: s.createdAt })),
        confidence: s.confidence,
        updatedAt: s.updatedAt,
      });
      if (file.changed) result.files.push(file.path);
      const memory = await ctx.store.getMemory(ctx.scope, s.id);
      if (memory !== undefined)
        await ctx.store.upsertMemories(ctx.scope, [
          { ...memory, text: `${shown.description}\n${shown.rules.join('\n')}`, updatedAt: now },
        ]);
    }
  }
}

/**
 * Forgets an instinct or a skill and what it was learned from: its observations still stored, and every instinct or
 * skill learned from the same ones (holding all of them, or held in them: the instinct a skill was promoted from, the
 * skill it became). Their other observations go too unless a remaining instinct or skill holds them; one sharing only
 * some of the forgotten observations loses those (and goes when none remain); nothing is followed further. Every
 * instinct and skill file touched is read first: one with broken markers, or a folder outside the root, refuses the
 * whole forget before anything is deleted.
 * What `forget` removed stays removed through the next `evolve` (new observations may teach it again).
 */
async function forgetLearned(
  ctx: Ctx,
  item: { kind: 'instinct'; record: InstinctRecord } | { kind: 'skill'; record: SkillRecord },
  now: number,
  result: { derivedRemoved: string[]; derivedUpdated: string[]; derivedForgotten: string[]; files: string[] },
): Promise<string[]> {
  const forgotten = item.record;
  const mine = new Set(forgotten.evidence);
  const same = (other: { id: string; evidence: readonly string[] }): boolean =>
    mine.size > 0 &&
    other.evidence.some((e) => mine.has(e)) &&
    (other.evidence.every((e) => mine.has(e)) || [...mine].every((e) => other.evidence.includes(e)));
  const instincts = (await ctx.store.listInstincts(ctx.scope)).filter((i) => i.id !== forgotten.id);
  const skills = (await ctx.store.listSkills(ctx.scope)).filter((k) => k.id !== forgotten.id);
  const goingInstincts = instincts.filter(same);
  const goingSkills = skills.filter(same);
  const kept = [...instincts, ...skills].filter((x) => !same(x));
  const heldElsewhere = new Set(kept.flatMap((x) => x.evidence));
  const ids = new Set(mine);
  for (const x of [...goingInstincts, ...goingSkills])
    for (const e of x.evidence) if (!heldElsewhere.has(e)) ids.add(e);
  // Every file this forget will remove or rewrite, read before anything goes.
  const touched = [
    ...(item.kind === 'skill' ? [item.record] : []),
    ...goingSkills,
    ...skills.filter((k) => !same(k) && k.evidence.some((e) => ids.has(e))),
  ];
  for (const k of touched) checkSkillFile(ctx.layout, k.name);
  // The instincts too: the forgotten one's own file and those going with it (a folder outside the root, broken
  // markers) refuse here, as a skill's do, not after its rows are deleted (walk 18, item 1).
  for (const i of [
    ...(item.kind === 'instinct' ? [item.record] : []),
    ...goingInstincts,
    ...instincts.filter((x) => !same(x) && x.evidence.some((e) => ids.has(e))),
  ])
    checkInstinctFile(ctx.layout, i.slug);
  if (item.kind === 'skill') await dropSkill(ctx, forgotten.id, item.record.name, result.files, now);
  else await dropInstinct(ctx, forgotten.id, item.record.slug, result.files, now);
  for (const i of goingInstincts) await dropInstinct(ctx, i.id, i.slug, result.files, now);
  for (const k of goingSkills) await dropSkill(ctx, k.id, k.name, result.files, now);
  result.derivedForgotten.push(...goingInstincts.map((i) => i.id), ...goingSkills.map((k) => k.id));
  const stored = await observationsById(ctx, [...ids]);
  await ctx.store.deleteObservations(
    ctx.scope,
    stored.map((o) => o.id),
  );
  await withdrawEvidence(ctx, new Set(stored.map((o) => o.id)), now, result, new Set(stored.map((o) => o.observation)));
  return stored.map((o) => o.id);
}

export async function forget(ctx: Ctx, id: string, now: number): Promise<ForgetResult> {
  const result = {
    derivedRemoved: [] as string[],
    derivedUpdated: [] as string[],
    derivedForgotten: [] as string[],
    files: [] as string[],
  };
  const forgotten = (await ctx.store.listObservations(ctx.scope)).find((o) => o.id === id);
  if (forgotten !== undefined) {
    // The files it will rewrite or remove are read first: broken markers refuse before the delete.
    await checkFilesHolding(ctx, new Set([id]));
    if (await ctx.store.deleteObservation(ctx.scope, id)) {
      await withdrawEvidence(ctx, new Set([id]), now, result, new Set([forgotten.observation]));
      return { id, kind: 'observation', ...result, evidenceForgotten: [] };
    }
  }
  const instinct = (await ctx.store.listInstincts(ctx.scope)).find((i) => i.id === id);
  if (instinct !== undefined) {
    const evidenceForgotten = await forgetLearned(ctx, { kind: 'instinct', record: instinct }, now, result);
    return { id, kind: 'instinct', ...result, evidenceForgotten };
  }
  const skill = (await ctx.store.listSkills(ctx.scope)).find((s) => s.id === id);
  if (skill !== undefined) {
    const evidenceForgotten = await forgetLearned(ctx, { kind: 'skill', record: skill }, now, result);
    return { id, kind: 'skill', ...result, evidenceForgotten };
  }
  // A memory that superseded or disagreed with others leaves them current again (recall/remember, issue 23).
  const memory = await ctx.store.getMemory(ctx.scope, id);
  if (memory !== undefined) await unlinkForgotten(ctx.store, ctx.scope, memory);
  if (await ctx.store.deleteMemory(ctx.scope, id)) return { id, kind: 'memory', ...result, evidenceForgotten: [] };
  // A run (its intent is the prompt that started it: a secret in a prompt is there, and in its full text).
  const run = await ctx.store.getExecution(ctx.scope, id);
  if (run !== undefined) {
    const fromCalls = await learnedFromCalls(ctx, [run]);
    await checkFilesHolding(ctx, new Set(fromCalls.map((o) => o.id)));
    // Another forget of it, at the same moment, deleted it first: that one reports it (walk 16, item 14).
    if ((await ctx.store.deleteExecutions(ctx.scope, [id], TAKE_BACK)).length === 0) throw nothingHas(ctx, id);
    await forgetTurnIntent(ctx, id, run.intent, now);
    const observationsForgotten = await forgetObservations(ctx, fromCalls, now, result);
    return { id, kind: 'run', ...result, evidenceForgotten: [], runsForgotten: [id], observationsForgotten };
  }
  // A learned workflow goes with its runs, as an instinct goes with its observations: it is made of nothing else.
  const workflow = await forgetWorkflow(ctx, id, now, result);
  if (workflow !== undefined) return workflow;
  // A Claude Code session: its turns' runs and the hooks' state of it (the prompt's words, queued events).
  // The label `credence runs` shows for a session over 240 characters stands for its whole id, its state's key.
  const sessions = [id, ...(await sessionsLabelled(ctx, id))];
  const seen = await sessionTrace(ctx, id, sessions);
  await checkFilesHolding(ctx, new Set((await learnedFromCalls(ctx, seen.runs)).map((o) => o.id)));
  const hadState = await forgetHookState(ctx, id, sessions);
  if (seen.runs.length > 0 || hadState) {
    // A tombstone: a turn of it still in another machine's spool (a teammate's live session) is dropped where it is
    // learned (hooks/ingest), not learned again (walk 13), and its prompts are not stored as shown (the store refuses
    // them). It comes before what the session left is read again and deleted: a teammate's machine learning the
    // session right now reads the tombstone after its writes (hooks/ingest), so what it wrote is either read here or
    // forgotten there (review D).
    for (const session of sessions) await ctx.store.recordForgottenSession(ctx.scope, session, now);
    const late = await sessionTrace(ctx, id, sessions);
    await forgetHookState(ctx, id, sessions);
    const runs = [...new Map([...seen.runs, ...late.runs].map((r) => [r.id, r])).values()];
    const prompts = [...seen.prompts, ...late.prompts];
    await checkFilesHolding(ctx, new Set((await learnedFromCalls(ctx, runs)).map((o) => o.id)));
    // A turn another forget deleted at the same moment (its run id) is that one's to report and clean up after.
    const turns = await ctx.store.deleteExecutions(
      ctx.scope,
      runs.map((r) => r.id),
      TAKE_BACK,
    );
    const fromCalls = await learnedFromCalls(
      ctx,
      runs.filter((r) => turns.includes(r.id)),
    );
    // The prompts that showed context (the prompt hook's shown rows): their words go, what was shown stays. A row
    // from before rows held their session goes only when it is a turn's prompt, shown in the time of that prompt: a
    // turn that used no tool has no run, its prompt is in the hook state, between the runs of the turns around it.
    const turnOf = (r: ExecutionRecord) => ({ ...r, turn: Number(r.id.slice(r.id.lastIndexOf('-') + 1)) });
    const intents = new Map([...seen.intents, ...late.intents]);
    await ctx.store.forgetShownQueries(ctx.scope, sessions, sessionPromptSpans(runs.map(turnOf), intents, now));
    const observationsForgotten = await forgetObservations(ctx, fromCalls, now, result);
    const labels = new Set(sessions.map(sessionLabel));
    const observationsLeft = learnedFromPrompts(await ctx.store.listObservations(ctx.scope), prompts, labels);
    return {
      id,
      kind: 'session',
      ...result,
      evidenceForgotten: [],
      runsForgotten: turns,
      observationsForgotten,
      observationsLeft,
    };
  }
  throw nothingHas(ctx, id);
}

/** NOT_FOUND: nothing in the scope has the id (or another forget of it took it first). */
const nothingHas = (ctx: Ctx, id: string): CredenceError =>
  new CredenceError(
    'NOT_FOUND',
    `nothing has the id ${JSON.stringify(id)} in scope ${ctx.scope}: ` +
      'no observation, instinct, skill, memory, run, learned workflow or Claude Code session',
  );

/**
 * A learned workflow (`wf-…`, `credence workflows`) by its id: its runs are forgotten as a run is (their calls' hook
 * observations, a turn's prompt in the hooks' state), and the workflow, left with no run, goes. Undefined when the
 * scope has no workflow of that id.
 */
async function forgetWorkflow(
  ctx: Ctx,
  id: string,
  now: number,
  result: { derivedRemoved: string[]; derivedUpdated: string[]; derivedForgotten: string[]; files: string[] },
): Promise<ForgetResult | undefined> {
  if (!id.startsWith('wf-')) return undefined;
  await ensureWorkflows(ctx.store, ctx.scope);
  if (!(await ctx.store.listWorkflows(ctx.scope)).some((w) => w.id === id)) return undefined;
  const listed = (await ctx.store.listExecutions(ctx.scope)).filter((r) => workflowOf(r)?.id === id);
  await checkFilesHolding(ctx, new Set((await learnedFromCalls(ctx, listed)).map((o) => o.id)));
  // Runs deleted by another forget at the same moment (of this workflow, or one of its runs) are its to report and
  // clean up after: this one reports those it deleted, and none deleted is the workflow forgotten there (walk 16,
  // item 14; review F 12).
  const deleted = new Set(
    await ctx.store.deleteExecutions(
      ctx.scope,
      listed.map((r) => r.id),
      TAKE_BACK,
    ),
  );
  if (deleted.size === 0 && listed.length > 0) throw nothingHas(ctx, id);
  const runs = listed.filter((r) => deleted.has(r.id));
  for (const r of runs) await forgetTurnIntent(ctx, r.id, r.intent, now);
  const observationsForgotten = await forgetObservations(ctx, await learnedFromCalls(ctx, runs), now, result);
  return {
    id,
    kind: 'workflow',
    ...result,
    evidenceForgotten: [],
    runsForgotten: runs.map((r) => r.id).sort(),
    observationsForgotten,
  };
}

/** A session's turns' runs (`cc-<label>-<turn>`) and its prompts: the runs' intents and those its state keeps. */
async function sessionTrace(
  ctx: Ctx,
  id: string,
  sessions: readonly string[],
): Promise<{ runs: ExecutionRecord[]; prompts: string[]; intents: Map<number, string> }> {
  const prefix = `cc-${sessionLabel(id)}-`;
  const runs = (await ctx.store.listExecutions(ctx.scope, { idPrefix: prefix })).filter((r) =>
    /^\d+$/.test(r.id.slice(prefix.length)),
  );
  const intents = new Map<number, string>();
  for (const session of sessions)
    for (const [turn, intent] of stateIntents((await ctx.store.hookSession(ctx.scope, session)).state))
      intents.set(turn, intent);
  return { runs, prompts: [...runs.map((r) => r.intent), ...intents.values()], intents };
}

/** Forgets the hooks' state and queued events of the session; true when it had some. */
async function forgetHookState(ctx: Ctx, id: string, sessions: readonly string[]): Promise<boolean> {
  let hadState = false;
  for (const session of sessions) if (await ctx.store.forgetHookSession(ctx.scope, session)) hadState = true;
  // A session too long for its run ids keeps its roots under its label (hooks/ingest): they go too.
  if (sessionLabel(id) !== id) await ctx.store.forgetHookSession(ctx.scope, sessionLabel(id));
  return hadState;
}

/** Reads every instinct's and skill's file that forgetting these observations would rewrite or remove. */
async function checkFilesHolding(ctx: Ctx, ids: ReadonlySet<string>): Promise<void> {
  if (ids.size === 0) return;
  for (const k of await ctx.store.listSkills(ctx.scope))
    if (k.evidence.some((e) => ids.has(e))) checkSkillFile(ctx.layout, k.name);
  for (const i of await ctx.store.listInstincts(ctx.scope))
    if (i.evidence.some((e) => ids.has(e))) checkInstinctFile(ctx.layout, i.slug);
}

/**
 * The hooks' observations learned from these runs' calls: tagged `hook` and `claude-code`, a source the hooks give
 * (`source:tool-output` or `source:template`, never the user's), the call's tool among their tags and its time as
 * theirs. Since the hooks tag each with its session (`session:<label>`), one with another session's tag is never
 * taken; an older one without it is taken only when text it quotes (its evidence or its text after `: `, as the
 * hooks word them: `command: …`, `runner: …`, `tests failed: …`) is in the call's input or output. A correction, an
 * observation typed with `credence observe`, and one from another session at the same time all stay (an older one
 * of another session's call with the same tool, time and command cannot be told apart).
 */
async function learnedFromCalls(ctx: Ctx, runs: readonly ExecutionRecord[]): Promise<ObservationRecord[]> {
  const calls = new Map<string, { label: string | undefined; text: string[] }[]>();
  for (const r of runs) {
    const label = /^cc-(.+)-\d+$/.exec(r.id)?.[1];
    for (const c of r.calls) {
      if (c.at === undefined) continue;
      const key = `${c.at} ${c.tool}`;
      calls.set(key, [...(calls.get(key) ?? []), { label, text: callTexts(c) }]);
    }
  }
  if (calls.size === 0) return [];
  return (await ctx.store.listObservations(ctx.scope)).filter((o) => {
    if (!o.tags.includes('hook') || !o.tags.includes('claude-code') || o.tags.includes('correction')) return false;
    if (!o.tags.includes(sourceTag('tool-output')) && !o.tags.includes(sourceTag('template'))) return false;
    const tagged = o.tags
      .filter((t) => t.startsWith(SESSION_TAG_PREFIX))
      .map((t) => t.slice(SESSION_TAG_PREFIX.length));
    return o.tags.some((t) =>
      (calls.get(`${o.timestamp} ${t}`) ?? []).some((call) =>
        tagged.length > 0
          ? call.label !== undefined && tagged.includes(call.label)
          : quoted(o).some((q) => call.text.some((x) => x.includes(q))),
      ),
    );
  });
}

/** What an observation of the hooks quotes: its evidence and its text, each after its label (`command: `). */
function quoted(o: ObservationRecord): string[] {
  return [o.observation, ...o.evidence]
    .map((t) => /^[^:]{1,40}: (.+)$/.exec(t)?.[1]?.trim() ?? '')
    .filter((t) => t.length >= 3);
}

/** The texts a call holds: its input as kept, the strings in it (a command unescaped) and its output. */
function callTexts(call: ExecutionRecord['calls'][number]): string[] {
  const texts = [call.input, call.output].filter((t): t is string => t !== undefined);
  try {
    const input: unknown = call.input === undefined ? undefined : JSON.parse(call.input);
    if (typeof input === 'object' && input !== null)
      for (const v of Object.values(input)) if (typeof v === 'string') texts.push(v);
  } catch {
    // Input cut short is not JSON: its text as kept is all there is.
  }
  return texts;
}

/** Deletes these observations and takes them out of every instinct's and skill's evidence; returns their ids. */
async function forgetObservations(
  ctx: Ctx,
  observations: readonly ObservationRecord[],
  now: number,
  result: { derivedRemoved: string[]; derivedUpdated: string[]; files: string[] },
): Promise<string[]> {
  if (observations.length === 0) return [];
  const ids = observations.map((o) => o.id);
  await ctx.store.deleteObservations(ctx.scope, ids);
  await withdrawEvidence(ctx, new Set(ids), now, result, new Set(observations.map((o) => o.observation)));
  return ids.sort();
}

/** The prompts the hooks keep in a session's state (`intents`, by turn). */
function stateIntents(state: Record<string, unknown>): [number, string][] {
  const intents = state.intents;
  if (typeof intents !== 'object' || intents === null) return [];
  return Object.entries(intents).flatMap(([turn, v]) =>
    typeof v === 'string' && /^\d+$/.test(turn) ? [[Number(turn), v] as [number, string]] : [],
  );
}

/**
 * The hooks' corrections (tags `hook`, `correction`) learned from this session's prompts, which `forget <session>`
 * says it left: those tagged with one of its `labels` (`session:<label>`, as the hooks tag them). One tagged with
 * another session is never its own, whatever its sentence (three sessions saying "No, use pnpm" are three
 * corrections); an older one without a session tag is its own when its sentence is in one of these prompts (a
 * correction past a prompt's first line, which is all a run's intent keeps, is not found).
 */
function learnedFromPrompts(
  observations: readonly ObservationRecord[],
  prompts: readonly string[],
  labels: ReadonlySet<string>,
): string[] {
  const texts = prompts.map((p) => p.trim()).filter((p) => p !== '');
  return observations
    .filter((o) => o.type === 'correction' && o.tags.includes('hook') && o.tags.includes('correction'))
    .filter((o) => {
      const tagged = o.tags.filter((t) => t.startsWith(SESSION_TAG_PREFIX));
      if (tagged.length > 0) return tagged.some((t) => labels.has(t.slice(SESSION_TAG_PREFIX.length)));
      const sentence = o.observation.trim();
      return sentence !== '' && texts.some((p) => p.includes(sentence) || sentence.includes(p));
    })
    .map((o) => o.id)
    .sort();
}

/**
 * A Claude Code turn's run `cc-<label>-<turn>`: the hooks keep its prompt (the run's intent) in the session's state
 * too (`intents`, the last few turns), which goes with it. The state is kept under the whole session id: a session
 * over 240 characters has a label in its run ids (its first 64 characters, `~`, a hash: core/runs/session-label), so
 * it is found among the sessions starting with those characters, by the label they are given.
 */
async function forgetTurnIntent(ctx: Ctx, id: string, intent: string, now: number): Promise<void> {
  const m = /^cc-(.+)-(\d+)$/s.exec(id);
  if (m === null) return;
  const [, label = '', turn = ''] = m;
  for (const session of [label, ...(await sessionsLabelled(ctx, label))]) {
    const { state } = await ctx.store.hookSession(ctx.scope, session);
    const intents = state.intents;
    if (typeof intents !== 'object' || intents === null) continue;
    const kept = Object.fromEntries(Object.entries(intents).filter(([k, v]) => k !== turn && v !== intent));
    if (Object.keys(kept).length !== Object.keys(intents).length)
      await ctx.store.setHookSessionState(ctx.scope, session, { ...state, intents: kept }, now);
  }
}

/** The sessions over 240 characters whose label (core/runs/session-label) is `label`: none for another id. */
async function sessionsLabelled(ctx: Ctx, label: string): Promise<string[]> {
  const head = /^(.+)~[0-9a-f]{16}$/s.exec(label)?.[1];
  if (head === undefined) return [];
  return (await ctx.store.hookSessionsStartingWith(ctx.scope, head)).filter(
    (s) => s !== label && sessionLabel(s) === label,
  );
}

export interface PruneReport {
  /**
   * What was removed and why: `by` the purge age or the limit; `user` when it was the user's own words (kept over the
   * limit until nothing else is left).
   */
  observations: { id: string; why: string; by: 'age' | 'limit'; user: boolean }[];
  retiredInstincts: { id: string; confidence: number }[];
  /** Observations over a limit that were kept because they are the last evidence of a live instinct or skill. */
  protected: number;
}

/** The scope's observations and live items, and what the limits would remove (core/learning/observation-limits). */
export async function pruneDraft(
  ctx: Pick<Ctx, 'store' | 'scope'>,
  now: number,
  options: LimitOptions = {},
): Promise<{ observations: ObservationRecord[]; instincts: InstinctRecord[]; skills: SkillRecord[]; plan: PrunePlan }> {
  const o = { ...LIMIT_DEFAULTS, ...options };
  const [observations, instincts, skills] = await Promise.all([
    ctx.store.listObservations(ctx.scope),
    ctx.store.listInstincts(ctx.scope),
    ctx.store.listSkills(ctx.scope),
  ]);
  const live = [...instincts.filter((i) => i.status === 'active'), ...skills];
  return { observations, instincts, skills, plan: planPrune(observations, live, o, now) };
}

/** Applies the limits; never removes the last evidence of a live instinct or skill. */
export async function prune(ctx: Ctx, now: number, options: LimitOptions = {}): Promise<PruneReport> {
  const o = { ...LIMIT_DEFAULTS, ...options };
  const { observations, instincts, skills, plan } = await pruneDraft(ctx, now, options);
  const evidenceLeft = plan.evidenceLeft;
  const report: PruneReport = {
    observations: plan.removed,
    retiredInstincts: [],
    protected: plan.protected,
  };
  // One transaction for the whole set (it was one per observation: ~10k of them after a busy week).
  if (report.observations.length > 0)
    await ctx.store.deleteObservations(
      ctx.scope,
      report.observations.map((r) => r.id),
      // Not a privacy action: secure delete would make it 9-24 times slower (forget keeps it).
      { secureDelete: false },
    );
  // The evidence lists follow: they name only observations that still exist.
  for (const i of instincts) {
    const left = evidenceLeft.get(i.id);
    if (left !== undefined && left.size !== i.evidence.length)
      await ctx.store.upsertInstinct(ctx.scope, { ...i, evidence: i.evidence.filter((id) => left.has(id)) });
  }
  for (const k of skills) {
    const left = evidenceLeft.get(k.id);
    if (left !== undefined && left.size !== k.evidence.length)
      await ctx.store.upsertSkill(ctx.scope, { ...k, evidence: k.evidence.filter((id) => left.has(id)) });
  }
  const active = instincts
    .filter((i) => i.status === 'active')
    .sort((a, b) => b.confidence - a.confidence || (a.id < b.id ? -1 : 1));
  const byId = new Map(observations.map((obs) => [obs.id, obs]));
  for (const i of active.slice(o.maxActiveInstincts)) {
    const retired = { ...i, evidence: i.evidence.filter((id) => evidenceLeft.get(i.id)?.has(id) ?? true) };
    await ctx.store.upsertInstinct(ctx.scope, { ...retired, status: 'retired', updatedAt: now });
    report.retiredInstincts.push({ id: i.id, confidence: i.confidence });
    // Retired is retired (issue 21): no memory (recall and the session context no longer return it), and its
    // file says `status: retired` (a held text has no file).
    await ctx.store.deleteMemory(ctx.scope, i.id);
    if (
      instinctHeld(
        i,
        (await ctx.store.listFeedback(ctx.scope, i.id)).map((f) => f.id),
      )
    )
      continue;
    writeInstinctFile(ctx.layout, {
      slug: i.slug,
      text: i.text,
      confidence: i.confidence,
      band: confidenceBand(i.confidence).band,
      evidence: instinctEvidence(retired.evidence, byId),
      updatedAt: now,
      retired: true,
    });
  }
  return report;
}
