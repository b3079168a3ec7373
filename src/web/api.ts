/**
 * @module web/api
 * The dashboard's JSON: one function per `/api/` endpoint, each reading one scope through the
 * engine and returning plain data with the parts behind every score (SPEC §9: the dashboard shows
 * why it is sure). Nothing here writes, and nothing is recorded as shown: a person looking at the
 * dashboard is not an agent taking a suggestion, so the metrics stay the agents'.
 */
import { CONFIDENCE_BANDS, confidenceBand } from '../core/learning/bands.js';
import { adaptiveWeights } from '../core/dag/dag-confidence.js';
import { EDGE_DEFAULTS, passesThreshold } from '../core/graph/edge-confidence.js';
import { DAY_MS } from '../core/graph/edge-decay.js';
import { CredenceError } from '../core/errors.js';
import { foldRepeats } from '../core/recall/fold-repeats.js';
import { requireWithinLimit } from '../core/limits.js';
import { utcDay } from '../core/time.js';
import { layoutGraph } from '../core/graph/graph-layout.js';
import { qualityText } from '../core/runs/run-quality.js';
import { EDGE_SOURCES, EDGE_TYPES, type EdgeType } from '../core/types.js';
import type { Credence } from '../engine/engine.js';
import type { ProbabilityFields } from '../engine/calibration.js';
import { dagConfidenceLines, laterEvidenceNote, memoryCaveat, scoreParts } from '../engine/explain.js';
import { readFileInsideRoot } from '../platform/files.js';
import { skillFileLayout } from '../engine/learning/skill-files.js';
import { shownEvidence } from '../engine/learning/learning-view.js';

const iso = (ms: number | null | undefined): string | null =>
  ms === null || ms === undefined ? null : new Date(ms).toISOString();
const round = (v: number, digits: number): number => Math.round(v * 10 ** digits) / 10 ** digits;
const bandOf = (c: number): string => confidenceBand(Math.min(1, Math.max(0, c))).band;

export const GRAPH_DEFAULTS = Object.freeze({
  /** Tools drawn at most: the most central; the rest are counted (issue 20: a year of work holds 10,000). */
  limit: 2000,
});

export interface GraphFilter {
  /** Only edges of these types. */
  types?: readonly EdgeType[];
  /** Only edges at or above this confidence. */
  min?: number;
  /** At most this many tools, by PageRank, then calls, then id; only edges between them. @default 2000 */
  limit?: number;
}

/**
 * The tool graph, columnar so that thousands of tools and tens of thousands of edges stay a compact
 * payload: the `limit` most central tools (PageRank, then calls) with a deterministic layout, the
 * edges between them as node indexes with their type, source and confidence now (4 decimals: enough
 * to draw; `/api/tool/:id` has full precision). `stats` counts every tool and edge, shown or not.
 */
export async function graphPayload(credence: Credence, filter: GraphFilter = {}) {
  const { scope } = credence;
  const limit = filter.limit ?? GRAPH_DEFAULTS.limit;
  // The engine's one snapshot: the PageRank drawn here is the one tool search ranks with.
  const snapshot = await credence.graphSnapshot();
  const { now, edges: views, calls: called, pageRank: ranks, density } = snapshot;
  const ids = new Set<string>(snapshot.tools.map((t) => t.id));
  for (const e of views) {
    ids.add(e.from);
    ids.add(e.to);
  }
  const all = [...ids];
  const rank = (id: string) => ranks.get(id) ?? 0;
  const calls = (id: string) => called.get(id) ?? 0;
  const byCentrality = (a: string, b: string) =>
    rank(b) - rank(a) || calls(b) - calls(a) || (a < b ? -1 : a > b ? 1 : 0);
  const order = all.sort(byCentrality).slice(0, limit);
  const position = new Map(order.map((id, i) => [id, i]));
  const layoutEdges: { from: number; to: number; weight: number }[] = [];
  for (const e of snapshot.confidentEdges) {
    const from = position.get(e.from);
    const to = position.get(e.to);
    if (from !== undefined && to !== undefined) layoutEdges.push({ from, to, weight: e.confidence });
  }
  const layout = layoutGraph(order.length, layoutEdges);
  const types = filter.types === undefined ? undefined : new Set(filter.types);
  const edges = {
    from: [] as number[],
    to: [] as number[],
    type: [] as number[],
    source: [] as number[],
    confidence: [] as number[],
    count: [] as number[],
  };
  let offGraph = 0;
  /** When each edge the payload holds was last confirmed: the later-evidence warning counts only those. */
  const shownLastSeen: (number | null)[] = [];
  for (const e of views) {
    const c = e.confidence;
    if (types !== undefined && !types.has(e.type)) continue;
    if (filter.min !== undefined && c < filter.min - 1e-9) continue;
    const from = position.get(e.from);
    const to = position.get(e.to);
    if (from === undefined || to === undefined) {
      offGraph += 1;
      continue;
    }
    shownLastSeen.push(e.lastSeen);
    edges.from.push(from);
    edges.to.push(to);
    edges.type.push(EDGE_TYPES.indexOf(e.type));
    edges.source.push(EDGE_SOURCES.indexOf(e.source));
    edges.confidence.push(round(c, 4));
    edges.count.push(e.count);
  }
  return {
    scope,
    now: iso(now),
    threshold: EDGE_DEFAULTS.threshold,
    types: EDGE_TYPES,
    sources: EDGE_SOURCES,
    layout: layout.method,
    // A clock before an edge's last confirmation: the counts of the edges shown include later evidence (as
    // `edges` warns of the edges it lists: those of ?type and ?min between the tools shown, not every edge).
    ...optionalWarning(laterEvidenceNote(shownLastSeen, now)),
    stats: {
      tools: snapshot.tools.length,
      /** Every tool in the catalogue or on an edge, and how many of them the payload holds. */
      nodes: all.length,
      shownNodes: order.length,
      limit,
      edges: views.length,
      /** Edges passing the filter between shown tools, and those passing it with an end not shown. */
      shownEdges: edges.from.length,
      hiddenEdges: offGraph,
      vertices: density.vertices,
      confidentPairs: density.edges,
      density: density.density,
      tier: snapshot.tier,
    },
    nodes: {
      id: order,
      pageRank: order.map((id) => round(rank(id), 6)),
      calls: order.map(calls),
      x: Array.from(layout.x, (v) => round(v, 4)),
      y: Array.from(layout.y, (v) => round(v, 4)),
    },
    edges,
  };
}

/** One tool: its catalogue entry, every edge in and out with its parts, and its next-tool suggestions. */
export async function toolPayload(credence: Credence, id: string) {
  const { scope } = credence;
  const [tool, out, into, snapshot] = await Promise.all([
    credence.tool(id),
    credence.edges({ from: id }),
    credence.edges({ to: id }),
    credence.graphSnapshot(),
  ]);
  if (tool === undefined && out.length === 0 && into.length === 0) {
    throw new CredenceError(
      'NOT_FOUND',
      `no tool ${JSON.stringify(id)} in scope ${JSON.stringify(scope)}: it is neither in the catalogue nor on an edge`,
    );
  }
  const byConfidence = (a: { confidence: number }, b: { confidence: number }) => b.confidence - a.confidence;
  const lastSeen = [...out, ...into].map((e) => (e.lastSeen === null ? null : Date.parse(e.lastSeen)));
  return {
    scope,
    id,
    ...optionalWarning(laterEvidenceNote(lastSeen, snapshot.now)),
    description: tool?.description ?? '',
    origin: tool?.origin ?? null,
    annotations: tool?.annotations ?? null,
    calls: snapshot.calls.get(id) ?? 0,
    pageRank: snapshot.pageRank.get(id) ?? 0,
    /** The decay's half-life: an edge's `parts.decay` is 0.5^(idleDays / halfLifeDays). */
    halfLifeDays: EDGE_DEFAULTS.halfLifeDays,
    outgoing: out.map((e) => ({ ...e, band: bandOf(e.confidence) })).sort(byConfidence),
    incoming: into.map((e) => ({ ...e, band: bandOf(e.confidence) })).sort(byConfidence),
    next: await credence.suggestNext(id, { limit: 10, track: false }),
  };
}

/** `{warning}` when there is one, else nothing. */
function optionalWarning(warning: string | undefined): { warning?: string } {
  return warning === undefined ? {} : { warning };
}

/** How many of `bands` (band names, e.g. `bandOf` of each confidence) are in each band, lowest band first. */
function bandCounts(bands: readonly string[]) {
  const counts = new Map<string, number>();
  for (const band of bands) counts.set(band, (counts.get(band) ?? 0) + 1);
  return CONFIDENCE_BANDS.map((b) => ({
    band: b.band,
    action: b.action,
    min: b.min,
    max: b.max,
    count: counts.get(b.band) ?? 0,
  }));
}

/** Confidence at a glance: distributions by band, density and its tier, and counts over time. */
export async function confidencePayload(credence: Credence, options: { days?: number } = {}) {
  const { scope } = credence;
  const days = options.days ?? 30;
  const [snapshot, learned] = await Promise.all([credence.graphSnapshot(), credence.learningView({ evidence: false })]);
  const { now, edges: views, density } = snapshot;
  // Runs, calls and observations per day are counted by the store, not read row by row (issue 20).
  const activity = await credence.dailyActivity(days, now);
  const weights = adaptiveWeights(density.density);
  const active = learned.instincts.filter((i) => i.status === 'active');
  const skillNow = learned.skills.map((s) => s.current);
  // UTC calendar days counted back from today's (day 0 is today, 00:00Z up to now), each labelled with its date.
  const today = utcDay(now);
  const timeline = Array.from({ length: days }, (_, i) => ({
    day: iso((today - (days - 1 - i)) * DAY_MS)?.slice(0, 10) ?? '',
    executions: 0,
    calls: 0,
    observations: 0,
    newEdges: 0,
    edgesSoFar: 0,
  }));
  const slot = (at: number | null | undefined) => {
    if (at === null || at === undefined || at > now) return undefined;
    const back = today - utcDay(at);
    return back < days ? timeline[days - 1 - back] : undefined;
  };
  for (const [i, s] of timeline.entries()) {
    const back = days - 1 - i;
    s.executions = activity.executions[back] ?? 0;
    s.calls = activity.calls[back] ?? 0;
    s.observations = activity.observations[back] ?? 0;
  }
  let before = 0;
  for (const e of views) {
    const firstSeen = e.firstSeen;
    const s = slot(firstSeen);
    if (s !== undefined) s.newEdges += 1;
    else if (firstSeen !== null && utcDay(firstSeen) <= today - days) before += 1;
  }
  for (const s of timeline) {
    before += s.newEdges;
    s.edgesSoFar = before;
  }
  // Each edge placed in its band once, for the totals and per type.
  const edgeBands = views.map((v) => bandOf(v.confidence));
  const byType = EDGE_TYPES.map((type) => ({
    type,
    bands: bandCounts(edgeBands.filter((_, i) => views[i]?.type === type)),
  }));
  return {
    scope,
    now: iso(now),
    threshold: EDGE_DEFAULTS.threshold,
    edges: {
      total: views.length,
      aboveThreshold: views.filter((v) => passesThreshold(v.confidence)).length,
      bands: bandCounts(edgeBands),
      byType,
    },
    instincts: { total: active.length, bands: bandCounts(active.map((i) => bandOf(i.confidence))) },
    skills: { total: learned.skills.length, bands: bandCounts(skillNow.map(bandOf)) },
    density: {
      value: density.density,
      vertices: density.vertices,
      confidentPairs: density.edges,
      tier: weights.tier,
      weights: { hybrid: weights.hybrid, pageRank: weights.pageRank, path: weights.path },
      tiers: [
        { tier: 'cold-start', below: 0.01 },
        { tier: 'growing', below: 0.1 },
        { tier: 'mature', below: null },
      ],
    },
    timeline,
  };
}

/**
 * The learned probability beside an instinct's or a skill's confidence with its basis, or why there is none
 * (docs/calibration.md, "Probability beside the confidence"), as the learning view gives them.
 */
const probabilityOf = (x: ProbabilityFields): ProbabilityFields =>
  'probability' in x
    ? { probability: x.probability, probabilityBasis: x.probabilityBasis }
    : { probabilityWhy: x.probabilityWhy };

export const LEARNING_DEFAULTS = Object.freeze({
  /** Observations shown per instinct or skill: the latest cited (a skill's evidence grows with every evolve). */
  evidencePerItem: 50,
});

/**
 * Instincts and skills with confidence, evidence (the latest cited, `evidenceTotal` counting all) and history;
 * recent evolutions; the metrics.
 */
export async function learningPayload(credence: Credence) {
  const { scope } = credence;
  const now = credence.now();
  const [{ instincts, skills, feedback, evidence: cited }, metrics] = await Promise.all([
    credence.learningView({ evidencePerItem: LEARNING_DEFAULTS.evidencePerItem }),
    credence.metrics(),
  ]);
  const byId = new Map(cited.map((o) => [o.id, o]));
  const evidence = (ids: readonly string[]) =>
    shownEvidence(ids, LEARNING_DEFAULTS.evidencePerItem).map((id) => {
      const o = byId.get(id);
      return o === undefined
        ? { id, gone: true }
        : { id, type: o.type, observation: o.observation, confidence: o.confidence, at: iso(o.timestamp) };
    });
  const history = (id: string) =>
    feedback
      .filter((f) => f.targetId === id)
      .sort((a, b) => a.at - b.at)
      .map((f) => ({ id: f.id, kind: f.kind, note: f.note ?? null, at: iso(f.at) }));
  const order = (a: { confidence: number }, b: { confidence: number }) => b.confidence - a.confidence;
  return {
    scope,
    now: iso(now),
    instincts: instincts
      .map((i) => ({
        id: i.id,
        slug: i.slug,
        text: i.text,
        status: i.status,
        confidence: i.confidence,
        band: bandOf(i.confidence),
        createdAt: iso(i.createdAt),
        updatedAt: iso(i.updatedAt),
        evidence: evidence(i.evidence),
        evidenceTotal: i.evidence.length,
        feedback: history(i.id),
        ...probabilityOf(i),
      }))
      .sort(order),
    skills: skills
      .map((s) => {
        const events = history(s.id);
        const current = s.current;
        return {
          id: s.id,
          name: s.name,
          description: s.description,
          rules: s.rules,
          confidence: current,
          parts: { stored: s.confidence, idleDays: s.idleDays, current },
          band: bandOf(current),
          createdAt: iso(s.createdAt),
          updatedAt: iso(s.updatedAt),
          evidence: evidence(s.evidence),
          evidenceTotal: s.evidence.length,
          feedback: events,
          ...probabilityOf(s),
        };
      })
      .sort(order),
    evolutions: recentEvolutions(credence.root, credence.scope),
    metrics,
  };
}

/**
 * The last entries of `scope` in the evolution log (`.credence/evolution.log.jsonl` under the
 * project root), newest first. One folder's log can hold several scopes' entries: only the
 * scope's own are shown; entries with no scope (written by a Credence before issue 17) are shown
 * in no view, as nothing says whose they are.
 */
export function recentEvolutions(
  root: string,
  scope: string,
  limit = 30,
): { at: string; kind: string; id: string; detail: string }[] {
  let text: string;
  try {
    text = readFileInsideRoot(root, skillFileLayout({ root }).logFile, { maxBytes: 8 * 1024 * 1024 });
  } catch {
    return []; // no log yet (nothing evolved in this folder)
  }
  const lines = text.split('\n');
  const out: { at: string; kind: string; id: string; detail: string }[] = [];
  for (let i = lines.length - 1; i >= 0 && out.length < limit; i -= 1) {
    const line = lines[i] as string;
    if (line.trim() === '') continue;
    try {
      const v = JSON.parse(line) as { scope?: unknown; at?: unknown; kind?: unknown; id?: unknown; detail?: unknown };
      if (v.scope === scope)
        out.push({ at: String(v.at), kind: String(v.kind), id: String(v.id), detail: String(v.detail) });
    } catch {
      // a line cut short (a write in progress) or not JSON: skipped
    }
  }
  return out;
}

/**
 * How well each kind of claim's confidence matched what became of it: the engine's calibration report (reliability
 * bins, ECE and Brier of the seed confidence, and the learned map with its figures where there are enough
 * outcomes), as `credence calibration --json` gives it. The engine keeps what it learned until an outcome is
 * recorded, so this is one read of the latest outcome when nothing changed.
 */
export async function calibrationPayload(credence: Credence) {
  return credence.calibration();
}

/**
 * Recent runs with their intent, calls, outcomes, quality and whether it makes them a success (`qualityText`: the two
 * decimals `credence runs` prints), and the confidence a run was stored with (null without one) with its band.
 */
export async function runsPayload(credence: Credence, options: { limit?: number } = {}) {
  const runs = await credence.runs({ limit: options.limit ?? 50 });
  return {
    scope: credence.scope,
    now: iso(credence.now()),
    runs: runs.map((r) => ({
      ...r,
      qualityText: qualityText(r.quality, r.succeeded),
      band: r.confidence === null ? null : bandOf(r.confidence),
    })),
  };
}

/**
 * Tools, a DAG and memories for a query, each result with the parts of its score; a run whose intent repeats is one
 * memory (`repeats`, `ids`), and so is an observation whose text repeats. `dagRuns`: the past runs whose vote the DAG
 * follows, once each intent (every task's rationale names them all, so a page listing them per task would repeat
 * one run as many times as the DAG has tasks).
 */
export async function askPayload(credence: Credence, query: string, context: readonly string[] = []) {
  if (query.trim() === '') throw new CredenceError('INVALID_INPUT', 'the query is empty: give ?q= some words');
  // The same limit and message as every surface's (core/limits).
  requireWithinLimit('query', query, 'query');
  const [tools, dag, memories] = await Promise.all([
    credence.searchTools(query, { limit: 10, track: false, ...(context.length === 0 ? {} : { context }) }),
    credence.suggestDag(query, { track: false, ...(context.length === 0 ? {} : { context }) }),
    // Many past runs share an intent word for word (every turn of a session, a repeated habit), and a correction
    // said again is an observation of the same text: each is listed once, with how many it stands for, among the
    // 10 memories shown.
    credence
      .recall(query, { limit: 50, track: false })
      .then((found) => foldRepeats(found, { kinds: ['execution', 'observation'], limit: 10 })),
  ]);
  const neighbours = dag.mode === 'suggestion' ? (dag.memory?.neighbours ?? []) : [];
  const dagRuns = foldRepeats(
    neighbours.map((n) => ({ id: n.run, kind: 'execution', title: n.intent, similarity: n.similarity })),
  );
  // Each score and the DAG's confidence explained as the CLI prints them (engine/explain): the page writes no formula.
  return {
    scope: credence.scope,
    query,
    context,
    tools: tools.map((t) => ({ ...t, explanation: scoreParts(t) })),
    ...optionalWarning(memoryCaveat(tools)),
    dag: dag.mode === 'suggestion' ? { ...dag, explanation: dagConfidenceLines(dag) } : dag,
    dagRuns,
    memories,
  };
}
