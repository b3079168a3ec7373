/**
 * @module evolve
 * `credence evolve` (SPEC §6, seed 004): loads recent observations, groups them by meaning, scores
 * each group (`mean × recency × frequency`, plus the feedback recorded against its instinct), and
 * for each significant pattern writes an instinct (below 0.7) or updates the closest skill / makes
 * a new one (0.7 and up). Instincts and skills become memories, so recall returns them with their
 * confidence. Runs twice on the same data change nothing the second time.
 */
import { confidenceBand, learnedKind } from './core/bands.js';
import { contradictionAgesDays, detectContradictions } from './core/contradiction.js';
import { applyFeedback } from './core/feedback.js';
import { groupConfidence, isSignificant } from './core/learning-confidence.js';
import { groupObservations, patternText } from './core/pattern-grouping.js';
import { skillConfidence } from './core/skill-ageing.js';
import { slugify } from './core/slug.js';
import type { EmbeddingProvider } from './embed/index.js';
import { appendEvolutionLog, writeInstinctFile, writeSkillFile, type SkillFileLayoutOptions } from './learning/skill-files.js';
import type { InstinctRecord, MemoryRecord, ObservationRecord, SkillRecord, Store } from './store/types.js';

const DAY = 86_400_000;

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
}

export interface EvolveReport {
  now: string;
  dryRun: boolean;
  observations: number;
  newInstincts: { id: string; slug: string; text: string; confidence: number; band: string; file: string; evidence: string[] }[];
  updatedInstincts: { id: string; slug: string; text: string; confidence: number; file: string }[];
  skillsUpdated: { id: string; name: string; rule: string; confidence: number; created: boolean; promotedFrom?: string; file: string }[];
  ignored: { ids: string[]; text: string; why: string }[];
  contradictions: { group: string; id: string; reason: string }[];
  files: { path: string; changed: boolean }[];
}

export interface EvolveContext {
  store: Store;
  scope: string;
  embedder: EmbeddingProvider;
  now: number;
}


export async function evolve(ctx: EvolveContext, options: EvolveOptions): Promise<EvolveReport> {
  const { store, scope, now } = ctx;
  const sinceMs = options.sinceMs ?? EVOLVE_DEFAULTS.sinceMs;
  const minConfidence = options.minConfidence ?? EVOLVE_DEFAULTS.minConfidence;
  const observations = await store.listObservations(scope, { since: now - sinceMs });
  // Embedded without file paths and numbers (patternText), as the grouping reads them. Not stored:
  // recall keeps its own vectors of the full observations, and the default table embeds fast.
  const embedded = observations.length === 0 ? [] : await ctx.embedder.embed(observations.map((o) => patternText(o.observation)));
  const vectors = new Map(observations.map((o, i) => [o.id, embedded[i] as Float32Array]));
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
  const contradictions = detectContradictions(items, grouping.groups);
  const [instincts, skills, feedback] = await Promise.all([store.listInstincts(scope), store.listSkills(scope), store.listFeedback(scope)]);
  const report: EvolveReport = {
    now: new Date(now).toISOString(),
    dryRun: options.dryRun === true,
    observations: observations.length,
    newInstincts: [],
    updatedInstincts: [],
    skillsUpdated: [],
    ignored: [],
    contradictions: [],
    files: [],
  };
  const writes: (() => Promise<void>)[] = [];
  const skillVectors = skills.length === 0 ? new Map<string, Float32Array>() : await embedTexts(ctx.embedder, skills.map((s) => [s.id, `${s.description}\n${s.rules.join('\n')}`]));

  for (const [g, group] of grouping.groups.entries()) {
    const members = group.ids.map((id) => byId.get(id)).filter((o): o is ObservationRecord => o !== undefined);
    const latest = Math.max(...members.map((o) => o.timestamp));
    const against = contradictions[g]?.contradictions ?? [];
    for (const c of against) report.contradictions.push({ group: group.label, id: c.id, reason: c.reason });
    const contradicting = new Set(against.map((c) => c.id));
    const supporting = members.filter((o) => !contradicting.has(o.id));
    const confidences = supporting.map((o) => o.confidence);
    const label = ruleText(supporting, group.representative) ?? group.label;
    const significance = isSignificant({ confidences, contradictionAgesDays: contradictionAgesDays(against, now) });
    const slug = slugify(label, { fallback: 'instinct' });
    const instinctId = `instinct-${slug}`;
    const existing = instincts.find((i) => i.id === instinctId);
    const base = confidences.length === 0 ? 0 : groupConfidence({ confidences, daysSinceLatest: Math.max(0, (now - latest) / DAY) }).value;
    const events = feedback.filter((f) => f.targetId === instinctId).map((f) => ({ id: f.id, kind: f.kind }));
    const confidence = applyFeedback(base, events).value;
    if (!significance.significant || confidence < minConfidence) {
      const why = [...significance.reasons, ...(confidence < minConfidence ? [`confidence ${confidence.toFixed(2)} below ${minConfidence}`] : [])];
      report.ignored.push({ ids: group.ids, text: label, why: why.join('; ') });
      continue;
    }
    const evidence = supporting.map((o) => o.id);
    if (learnedKind(confidence) === 'instinct') {
      const record: InstinctRecord = { id: instinctId, slug, text: label, confidence, status: 'active', evidence, createdAt: existing?.createdAt ?? now, updatedAt: now };
      // The report's entry itself gets the file's path once it is written.
      const entry = { id: instinctId, slug, text: label, confidence, file: '', band: confidenceBand(confidence).band, evidence };
      if (existing === undefined) report.newInstincts.push(entry);
      else report.updatedInstincts.push(entry);
      writes.push(async () => {
        await store.upsertInstinct(scope, record);
        const file = writeInstinctFile(options.layout, {
          slug,
          text: label,
          confidence,
          band: confidenceBand(confidence).band,
          evidence: supporting.map((o) => ({ id: o.id, text: o.observation, at: o.timestamp })),
          updatedAt: now,
        });
        entry.file = file.path;
        report.files.push(file);
        await rememberLearned(store, scope, { id: instinctId, category: 'instinct', title: label, text: `${label} (instinct, confidence ${confidence.toFixed(2)})`, path: file.path, confidence, now });
        if (file.changed) appendEvolutionLog(options.layout, { at: now, kind: existing === undefined ? 'instinct-created' : 'instinct-updated', id: slug, detail: `${label} [${confidence.toFixed(2)}]` });
      });
      continue;
    }
    // A skill rule: the closest skill in meaning, or a new one.
    const [groupVector] = await ctx.embedder.embed([label]);
    let target: SkillRecord | undefined;
    let bestSim: number = EVOLVE_DEFAULTS.skillMatch;
    for (const s of skills) {
      const v = skillVectors.get(s.id);
      const sim = v === undefined || groupVector === undefined ? 0 : dot(v, groupVector);
      if (sim >= bestSim) {
        bestSim = sim;
        target = s;
      }
    }
    const name = target?.name ?? slugify(label, { fallback: 'skill' });
    const skillId = target?.id ?? `skill-${name}`;
    const known = new Set(target?.evidence ?? []);
    const repetitions = evidence.filter((id) => !known.has(id)).length;
    const skillConf =
      target === undefined
        ? Math.min(1, confidence)
        : skillConfidence({ base: target.confidence, idleDays: Math.max(0, (now - target.updatedAt) / DAY), repetitions }).value;
    const rules = target === undefined ? [label] : target.rules.includes(label) ? target.rules : [...target.rules, label];
    const record: SkillRecord = {
      id: skillId,
      name,
      description: target?.description ?? label,
      rules,
      confidence: skillConf,
      evidence: [...new Set([...(target?.evidence ?? []), ...evidence])],
      createdAt: target?.createdAt ?? now,
      updatedAt: repetitions === 0 && target !== undefined ? target.updatedAt : now,
    };
    const entry = { id: skillId, name, rule: label, confidence: skillConf, created: target === undefined, file: '', ...(existing === undefined ? {} : { promotedFrom: existing.slug }) };
    report.skillsUpdated.push(entry);
    writes.push(async () => {
      await store.upsertSkill(scope, record);
      const file = writeSkillFile(options.layout, {
        name,
        description: record.description,
        rules: rules.map((text) => ({ text, confidence: skillConf, addedAt: record.createdAt })),
        confidence: skillConf,
        updatedAt: record.updatedAt,
      });
      entry.file = file.path;
      report.files.push(file);
      await rememberLearned(store, scope, { id: skillId, category: 'skill', title: name, text: `${record.description}\n${rules.join('\n')}`, path: `${file.path}`, confidence: skillConf, now });
      if (existing !== undefined && existing.status !== 'promoted') {
        await store.upsertInstinct(scope, { ...existing, status: 'promoted', updatedAt: now });
        const promoted = writeInstinctFile(options.layout, {
          slug: existing.slug,
          text: existing.text,
          confidence: skillConf,
          band: confidenceBand(skillConf).band,
          evidence: supporting.map((o) => ({ id: o.id, text: o.observation, at: o.timestamp })),
          promotedTo: name,
          updatedAt: now,
        });
        report.files.push(promoted);
        appendEvolutionLog(options.layout, { at: now, kind: 'instinct-promoted', id: existing.slug, detail: `promoted to skill ${name}` });
      }
      if (file.changed) appendEvolutionLog(options.layout, { at: now, kind: target === undefined ? 'skill-created' : 'skill-rule-added', id: name, detail: `${label} [${skillConf.toFixed(2)}]` });
    });
  }
  for (const id of grouping.singletons) {
    const o = byId.get(id);
    if (o !== undefined) report.ignored.push({ ids: [id], text: o.observation, why: 'seen once: a pattern needs 3 occurrences' });
  }
  if (options.dryRun !== true) for (const write of writes) await write();
  return report;
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
  const chosen = pool.find((o) => o.id === representative) ?? [...pool].sort((a, b) => b.confidence - a.confidence || a.timestamp - b.timestamp || (a.id < b.id ? -1 : 1))[0];
  return chosen?.observation;
}

const dot = (a: Float32Array, b: Float32Array): number => {
  let s = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i += 1) s += (a[i] as number) * (b[i] as number);
  return s;
};

async function embedTexts(embedder: EmbeddingProvider, entries: readonly [string, string][]): Promise<Map<string, Float32Array>> {
  const vectors = await embedder.embed(entries.map(([, text]) => text));
  return new Map(entries.map(([id], i) => [id, vectors[i] as Float32Array]));
}

/** Instincts and skills join recall as memories, with their stored confidence and their file. */
async function rememberLearned(
  store: Store,
  scope: string,
  m: { id: string; category: 'instinct' | 'skill'; title: string; text: string; path: string; confidence: number; now: number },
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
    updatedAt: existing !== undefined && existing.text === m.text && existing.confidence === m.confidence ? existing.updatedAt : m.now,
  };
  await store.upsertMemories(scope, [record]);
}

/** The seed's report, as markdown. */
export function formatEvolveReport(r: EvolveReport): string {
  const out = [`## Evolution detected${r.dryRun ? ' (dry run: nothing written)' : ''}`, ''];
  out.push(`### New instincts (${r.newInstincts.length})`);
  for (const i of r.newInstincts) out.push(`- [${i.confidence.toFixed(2)}] ${i.text}`);
  if (r.updatedInstincts.length > 0) {
    out.push('', `### Instincts updated (${r.updatedInstincts.length})`);
    for (const i of r.updatedInstincts) out.push(`- [${i.confidence.toFixed(2)}] ${i.text}`);
  }
  out.push('', `### Skills updated (${r.skillsUpdated.length})`);
  for (const s of r.skillsUpdated) out.push(`- ${s.name}: ${s.created ? 'new skill, rule' : 'rule added'} "${s.rule}" [${s.confidence.toFixed(2)}]${s.promotedFrom === undefined ? '' : ` (promoted from instinct ${s.promotedFrom})`}`);
  out.push('', `### Observations ignored (${r.ignored.reduce((n, i) => n + i.ids.length, 0)})`);
  for (const i of r.ignored) out.push(`- ${i.text}${i.ids.length > 1 ? ` (${i.ids.length} observations)` : ''}: ${i.why}`);
  if (r.contradictions.length > 0) {
    out.push('', `### Contradictions (${r.contradictions.length})`);
    for (const c of r.contradictions) out.push(`- against "${c.group}": ${c.reason}`);
  }
  return out.join('\n');
}

