/**
 * @module engine/demo/demo
 * `credence demo`: runs the scoring core over the seeds' own scenarios, stores what they produce
 * (edges, executions, memories, observations, an instinct, a skill) and reports every score with
 * the parts that made it; then plays a month of learning history (`data/demo/`, see
 * demo-history) through the engine, so the dashboard has something real to show. Times are placed
 * relative to the clock, so `--now` makes the whole report reproducible on a store of its own (run again, it adds
 * nothing and reports what the first run stored, at that run's time; full-text scores count every scope).
 */
import { labelAll } from '../../core/recall/confidence-label.js';
import { dagConfidence, pathStrength } from '../../core/dag/dag-confidence.js';
import { EDGE_READ_OPTIONS, edgeConfidence } from '../../core/graph/edge-confidence.js';
import { observeEdge, templateEdge, type EdgeState } from '../../core/graph/edge-promotion.js';
import { ftsOrQuery } from '../../core/text/fts-query.js';
import { densityOfEdges } from '../../core/graph/graph-density.js';
import { hybridScore } from '../../core/search/hybrid-score.js';
import { learnedKind, confidenceBand } from '../../core/learning/bands.js';
import { groupConfidence, isSignificant } from '../../core/learning/learning-confidence.js';
import { localAlpha } from '../../core/search/local-alpha.js';
import { CredenceError } from '../../core/errors.js';
import type { CallStatus, EdgeType } from '../../core/types.js';
import { engineStore, type Credence } from '../engine.js';
import type { EdgeRecord, MemoryRecord, ObservationRecord } from '../../store/types.js';
import { loadDemoHistory } from './demo-history.js';
import { DEMO_SCOPE } from './scope.js';

export type DemoParts = Record<string, number | string | boolean>;

export interface DemoLine {
  label: string;
  value: number | string;
  parts: DemoParts;
}

export interface DemoSection {
  id: 'edge-promotion' | 'local-alpha' | 'cold-start-dag' | 'recall-labels' | 'camelcase-instinct' | 'learning-history';
  title: string;
  seed: string;
  lines: DemoLine[];
  stored: string;
}

export interface DemoReport {
  db: string;
  scope: string;
  now: string;
  sections: DemoSection[];
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The scope the demo writes into unless told otherwise: its own, so no learned data is touched. */
export { DEMO_SCOPE } from './scope.js';

/**
 * Runs every scenario against `credence`'s store and scope. Running it twice changes nothing more.
 * It writes only records whose ids start with `demo-` (and the demo's tools and edges), and refuses
 * a scope that already holds other executions or observations, so it can never overwrite what
 * Credence learned for real.
 */
export interface DemoOptions {
  /** Also play the month of learning history of `data/demo/` (a fresh scope only gets it once). @default true */
  history?: boolean;
  /** Where the history's files are. @default the package's data/demo */
  dataDir?: string;
}

export async function runDemo(credence: Credence, options: DemoOptions = {}): Promise<DemoReport> {
  const foreign = [
    ...(await engineStore(credence).listExecutions(credence.scope)).map((e) => e.id),
    ...(await engineStore(credence).listObservations(credence.scope)).map((o) => o.id),
  ].filter((id) => !id.startsWith('demo-'));
  if (foreign.length > 0) {
    throw new CredenceError(
      'INVALID_INPUT',
      `the demo writes into scope "${credence.scope}", which already holds ${foreign.length} learned record(s); ` +
        `run it in a scope of its own (the default is "${DEMO_SCOPE}")`,
    );
  }
  const now = credence.now();
  const edges = await edgePromotion(credence, now);
  const alpha = localAlphaExamples();
  const dag = await coldStartDag(credence, now);
  await storeRecallMemories(credence, now);
  const learning = await camelCaseInstinct(credence, now);
  const history = options.history === false ? [] : [await learningHistory(credence, options)];
  // The search runs once the scope holds all the demo's memories, the history's too: BM25 scores a memory against
  // every other one, so the first run and the next find the same memories with the same scores.
  const sections = [edges, alpha, dag, await recallLabels(credence), learning, ...history];
  return { db: credence.storeInfo.location, scope: credence.scope, now: new Date(now).toISOString(), sections };
}

/**
 * Adds the demo's tools that the scope lacks. A tool already there keeps its description and origin: the
 * month of history describes some of them better, and a second run must not undo it.
 */
async function addMissingTools(
  credence: Credence,
  tools: { id: string; description: string; origin: string }[],
): Promise<void> {
  const store = engineStore(credence);
  const present = new Set(
    (
      await store.getToolsByIds(
        credence.scope,
        tools.map((t) => t.id),
      )
    ).map((t) => t.id),
  );
  const missing = tools.filter((t) => !present.has(t.id));
  if (missing.length > 0) await store.upsertTools(credence.scope, missing, { at: credence.now() });
}

/** An edge's confidence at `now` as every surface reads it (whole idle days: `credence edges` says the same). */
function edgeLine(label: string, type: EdgeType, state: EdgeState, now: number): DemoLine {
  const c = edgeConfidence({ type, source: state.source, lastSeen: state.lastSeen, now }, EDGE_READ_OPTIONS);
  return {
    label,
    value: c.value,
    parts: { type, source: state.source, count: state.count, failures: state.failures, ...c.parts },
  };
}

/** Seed 000: read_file → parse_json declared by hand, then confirmed by three runs and one failure. */
async function edgePromotion(credence: Credence, now: number): Promise<DemoSection> {
  const store = engineStore(credence);
  const { scope } = credence;
  await addMissingTools(credence, [
    { id: 'read_file', description: 'Read the complete contents of a file from disk', origin: 'demo' },
    { id: 'parse_json', description: 'Parse JSON text into a value', origin: 'demo' },
  ]);
  const runs: { id: string; at: number; parse: CallStatus }[] = [
    { id: 'demo-run-1', at: now - 3 * DAY, parse: 'success' },
    { id: 'demo-run-2', at: now - 2 * DAY, parse: 'success' },
    { id: 'demo-run-3', at: now - 1 * DAY, parse: 'success' },
    { id: 'demo-run-4', at: now - 1 * HOUR, parse: 'failure' },
  ];
  let dependency = templateEdge();
  let sequence: EdgeState | undefined;
  const lines = [edgeLine('declared by hand (dependency)', 'dependency', dependency, now)];
  for (const [i, run] of runs.entries()) {
    // A run stored by an earlier demo keeps its time: the edge is folded from the runs the scope holds, so running the
    // demo again (at another --now) writes the same edge and never moves its lastSeen back.
    const stored = await store.getExecution(scope, run.id);
    if (stored !== undefined) run.at = stored.startedAt;
    else {
      await store.insertExecution(
        scope,
        {
          id: run.id,
          intent: 'Read the config file and parse it',
          startedAt: run.at,
          endedAt: run.at + 40,
          calls: [
            { tool: 'read_file', status: 'success', retries: 0, consumes: [], at: run.at },
            { tool: 'parse_json', status: run.parse, retries: 0, consumes: [0], at: run.at + 20 },
          ],
        },
        { at: now },
      );
    }
    const event = { status: run.parse, at: run.at + 20 };
    dependency = observeEdge(dependency, event);
    sequence = observeEdge(sequence, event);
    // Scored at the moment of the run, so the seed's table shows without decay.
    lines.push(edgeLine(`run ${i + 1} (${run.parse}) dependency`, 'dependency', dependency, event.at));
    lines.push(edgeLine(`run ${i + 1} (${run.parse}) sequence`, 'sequence', sequence, event.at));
  }
  const toRecord = (type: EdgeType, s: EdgeState): EdgeRecord => ({ from: 'read_file', to: 'parse_json', type, ...s });
  await store.putEdge(scope, toRecord('dependency', dependency));
  if (sequence !== undefined) await store.putEdge(scope, toRecord('sequence', sequence));
  lines.push(edgeLine('the dependency now', 'dependency', dependency, now));
  const idleAt = (dependency.lastSeen ?? now) + 60 * DAY;
  lines.push(edgeLine('the dependency after 60 idle days', 'dependency', dependency, idleAt));
  return {
    id: 'edge-promotion',
    title: 'An edge earns its confidence: template → inferred → observed',
    seed: 'seed 000, SPEC §3',
    lines,
    stored: '2 tools, 4 executions, 2 edges (read_file → parse_json)',
  };
}

/** Seed 000: the two local-α examples of tool search. */
function localAlphaExamples(): DemoSection {
  const cold = localAlpha({ observations: 2 });
  const coldScore = hybridScore({ semantic: 0.72, graph: 0.3, alpha: cold.alpha });
  const mature = hybridScore({ semantic: 0.72, graph: 0.85, alpha: 0.55 });
  return {
    id: 'local-alpha',
    title: 'Tool search blends meaning and graph with a per-tool α',
    seed: 'seed 000, SPEC §4',
    lines: [
      {
        label: 'new_config_reader (2 observations)',
        value: coldScore.value,
        parts: { ...coldScore.parts, rule: cold.rule },
      },
      {
        label: 'filesystem:read_file (established, dense)',
        value: mature.value,
        parts: { ...mature.parts, rule: 'heat-diffusion' },
      },
    ],
    stored: 'nothing (pure scoring)',
  };
}

/** Seed 001: "Read the deno.json file" on a new project's graph, before and after ADR-026. */
async function coldStartDag(credence: Credence, now: number): Promise<DemoSection> {
  const store = engineStore(credence);
  const { scope } = credence;
  // A freshly imported catalogue: five tools, nothing learned between them yet.
  const catalogue = [
    'filesystem:read_text_file',
    'filesystem:write_file',
    'filesystem:list_directory',
    'filesystem:search_files',
    'filesystem:get_file_info',
  ];
  await addMissingTools(
    credence,
    catalogue.map((id) => ({
      id,
      description: `${id.split(':')[1]?.replaceAll('_', ' ') ?? id} on the local filesystem`,
      origin: 'demo',
    })),
  );
  const density = densityOfEdges([], catalogue).density;
  const inputs = { hybrid: 0.72, pageRank: 0.059, pathStrength: pathStrength([]) };
  const before = dagConfidence({ hybrid: inputs.hybrid, pageRank: 0, pathStrength: inputs.pathStrength, density: 1 });
  const after = dagConfidence({ ...inputs, density });
  const lines: DemoLine[] = [
    {
      label: 'before ADR-026 (fixed mature weights, PageRank 0)',
      value: before.value,
      parts: {
        tier: before.tier,
        ...before.parts,
        mode: before.value < 0.5 ? 'explicit_required (old rule)' : 'suggestion',
      },
    },
    {
      label: 'after ADR-026 (weights by density)',
      value: after.value,
      parts: { tier: after.tier, density, ...after.parts, mode: 'suggestion' },
    },
  ];
  const low = dagConfidence({ hybrid: 0.4, pageRank: 0.01, pathStrength: 0.5, density });
  lines.push({
    label: 'a weaker match still comes back, with a warning',
    value: low.value,
    parts: { warning: low.warning ?? '' },
  });
  const memory: MemoryRecord = {
    id: 'demo-dag-read-deno-json',
    category: 'note',
    title: 'DAG suggestion for "Read the deno.json file"',
    text: `Suggested filesystem:read_text_file with confidence ${after.value.toFixed(3)} (${after.tier} weights).`,
    tags: ['dag', 'cold-start'],
    confidence: after.value,
    createdAt: now,
    updatedAt: now,
  };
  await store.upsertMemories(scope, [memory]);
  return {
    id: 'cold-start-dag',
    title: 'A DAG suggestion works from the first use',
    seed: 'seed 001 (ADR-026), SPEC §5',
    lines,
    stored: '5 catalogue tools, the suggestion as a memory',
  };
}

/** Seed 003: a handful of decisions and notes for recall to label. */
async function storeRecallMemories(credence: Credence, now: number): Promise<void> {
  const memories: MemoryRecord[] = [
    [
      'demo-mem-jwt',
      'decision',
      'JWT token refresh flow',
      'Access tokens (JWT) are refreshed by the auth middleware five minutes before expiry; ' +
        'the refresh token rotates on every refresh.',
      ['auth', 'jwt'],
    ],
    [
      'demo-mem-session',
      'decision',
      'Session storage',
      'Sessions live in Redis with a 24 hour TTL; a token refresh extends the session.',
      ['auth', 'redis'],
    ],
    [
      'demo-mem-ci',
      'note',
      'CI runs on every push',
      'The CI pipeline runs lint, unit tests and the end-to-end suite on every push to main.',
      ['ci'],
    ],
    ['demo-mem-logs', 'note', 'Log format', 'Logs are JSON lines with a request id; never log a token.', ['logging']],
  ].map(([id, category, title, text, tags]) => ({
    id: id as string,
    category: category as MemoryRecord['category'],
    title: title as string,
    text: text as string,
    tags: tags as string[],
    createdAt: now,
    updatedAt: now,
  }));
  await engineStore(credence).upsertMemories(credence.scope, memories);
}

/** Seed 003: recall labels for a question over the scope's memories. */
async function recallLabels(credence: Credence): Promise<DemoSection> {
  const store = engineStore(credence);
  const { scope } = credence;
  const query = 'how do we refresh JWT tokens';
  const hits = await store.searchMemories(scope, ftsOrQuery(query) ?? '""', { limit: 5 });
  const labels = labelAll(hits.map((h) => h.bm25));
  const best = hits[0]?.bm25 ?? 0;
  const lines = hits.map((hit, i) => ({
    label: hit.memory.title,
    value: labels[i] ?? 'low',
    parts: { bm25: hit.bm25, ratio: best === 0 ? 0 : Math.abs(hit.bm25) / Math.abs(best) },
  }));
  return {
    id: 'recall-labels',
    title: `Recall labels for "${query}"`,
    seed: 'seed 003, SPEC §8',
    lines,
    stored: '4 memories (full-text indexed)',
  };
}

/** Seed 004: three observations about camelCase become an instinct; tests-before-commit becomes a skill. */
async function camelCaseInstinct(credence: Credence, now: number): Promise<DemoSection> {
  const store = engineStore(credence);
  const { scope } = credence;
  // The seed's timestamps (Feb 1 10:00, Feb 1 14:00, Feb 2 09:00), moved so the latest is now.
  const camel: ObservationRecord[] = [
    {
      id: 'demo-obs-camel-1',
      timestamp: now - 23 * HOUR,
      type: 'correction',
      observation: 'User asks for camelCase naming',
      confidence: 0.4,
    },
    {
      id: 'demo-obs-camel-2',
      timestamp: now - 19 * HOUR,
      type: 'correction',
      observation: 'Correction: snake_case → camelCase',
      confidence: 0.5,
    },
    {
      id: 'demo-obs-camel-3',
      timestamp: now,
      type: 'pattern',
      observation: 'All the code uses camelCase',
      confidence: 0.6,
    },
  ].map((o) => ({
    ...o,
    type: o.type as ObservationRecord['type'],
    context: { phase: 'implementation' },
    evidence: [],
    tags: ['style'],
  }));
  const tests: ObservationRecord[] = [
    { id: 'demo-obs-tests-1', type: 'success', observation: 'Tests run before commit', confidence: 0.7 },
    { id: 'demo-obs-tests-2', type: 'success', observation: 'CI green after commit', confidence: 0.7 },
    { id: 'demo-obs-tests-3', type: 'error', observation: 'Commit without tests = red CI', confidence: 0.8 },
  ].map((o, i) => ({
    ...o,
    type: o.type as ObservationRecord['type'],
    timestamp: now - (2 - i) * HOUR,
    context: {},
    evidence: [],
    tags: ['workflow'],
  }));
  await store.insertObservations(scope, [...camel, ...tests]);

  const score = (group: ObservationRecord[]) => {
    const latest = Math.max(...group.map((o) => o.timestamp));
    const confidences = group.map((o) => o.confidence);
    return {
      group: groupConfidence({ confidences, daysSinceLatest: (now - latest) / DAY }),
      significance: isSignificant({ confidences, contradictionAgesDays: [] }),
    };
  };
  const c = score(camel);
  const t = score(tests);
  // Written once: the history's evolve may grow them (more rules, more evidence), and a second run must not undo it.
  const [instincts, skills] = await Promise.all([store.listInstincts(scope), store.listSkills(scope)]);
  if (!instincts.some((i) => i.id === 'demo-instinct-camelcase'))
    await store.upsertInstinct(scope, {
      id: 'demo-instinct-camelcase',
      slug: 'use-camelcase-for-variables',
      text: 'Use camelCase for variables',
      confidence: c.group.value,
      status: 'active',
      evidence: camel.map((o) => o.id),
      createdAt: now,
      updatedAt: now,
    });
  if (!skills.some((s) => s.id === 'demo-skill-testing'))
    await store.upsertSkill(scope, {
      id: 'demo-skill-testing',
      name: 'testing-discipline',
      description: 'Run the test suite before every commit; CI stays green.',
      rules: ['always run tests before commit'],
      confidence: Math.min(1, t.group.value),
      evidence: tests.map((o) => o.id),
      createdAt: now,
      updatedAt: now,
    });
  const line = (label: string, s: ReturnType<typeof score>): DemoLine => ({
    label,
    value: s.group.value,
    parts: {
      ...s.group.parts,
      significant: s.significance.significant,
      band: confidenceBand(s.group.value).band,
      becomes: learnedKind(s.group.value),
    },
  });
  return {
    id: 'camelcase-instinct',
    title: 'Repeated observations become an instinct, confident ones a skill',
    seed: 'seed 004, SPEC §6',
    lines: [
      line('"Use camelCase for variables" (0.4, 0.5, 0.6)', c),
      line('"always run tests before commit" (0.7, 0.7, 0.8)', t),
    ],
    stored: '6 observations, 1 instinct, 1 skill',
  };
}

/** A month of an agent's work, played through the engine: what it learned, by the real rules. */
async function learningHistory(credence: Credence, options: DemoOptions): Promise<DemoSection> {
  const history = await loadDemoHistory(credence, options.dataDir === undefined ? {} : { dataDir: options.dataDir });
  const stats = await credence.graphStats({ top: 3 });
  const edges = await credence.edges();
  const bySource = (source: string) => edges.filter((e) => e.source === source).length;
  const metrics = await credence.metrics();
  const top = stats.central[0];
  const lines: DemoLine[] = [
    {
      label: `${history.runs} runs over ${history.tools} tools`,
      value: edges.length,
      parts: {
        edges: edges.length,
        observed: bySource('observed'),
        inferred: bySource('inferred'),
        template: bySource('template'),
      },
    },
    {
      label: 'graph density and its tier',
      value: stats.density,
      parts: { vertices: stats.vertices, confidentPairs: stats.confidentPairs, tier: stats.tier },
    },
    ...(top === undefined
      ? []
      : [{ label: `most central tool: ${top.tool}`, value: top.pageRank, parts: { calls: top.calls } }]),
    ...history.instincts.map((i) => ({
      label: clipAtWord(`instinct: ${i.text}`, 50),
      value: i.confidence,
      parts: { band: confidenceBand(i.confidence).band },
    })),
    ...history.skills.map((s) => ({
      label: clipAtWord(`skill: ${s.name}`, 50),
      value: s.confidence,
      parts: { band: confidenceBand(s.confidence).band },
    })),
    {
      label: 'suggestion precision (accepted / shown)',
      value: metrics.suggestions.precision ?? 0,
      parts: {
        shown: metrics.suggestions.shown,
        accepted: metrics.suggestions.accepted,
        rejected: metrics.suggestions.rejected,
      },
    },
  ];
  return {
    id: 'learning-history',
    title: "A month of an agent's work, learned by the engine",
    seed: 'SPEC §3–§8',
    lines,
    // The same words on every run: the history is played once per scope, and what it left is what a run reads.
    stored:
      `${history.runs} runs, ${history.observations} observations, ${history.memories} memories, ` +
      `evolved into ${history.instincts.length} instinct(s) and ${history.skills.length} skill(s)`,
  };
}

/** `text` in at most `max` characters, cut at the last whole word with an ellipsis when it is longer. */
export function clipAtWord(text: string, max: number): string {
  if (text.length <= max) return text;
  const room = text.slice(0, max - 1);
  const space = room.lastIndexOf(' ');
  return `${(space > 0 ? room.slice(0, space) : room).replace(/[\s,;:.-]+$/, '')}…`;
}

/** The report as text: every score with its parts, numbers to 3 decimals (SPEC §3). */
export function formatDemo(report: DemoReport): string {
  const fmt = (v: number | string | boolean): string =>
    typeof v === 'number' ? (Number.isInteger(v) ? String(v) : v.toFixed(3)) : String(v);
  const out = [
    `Credence demo: the scoring core over the seeds' scenarios`,
    `store ${report.db}  scope ${report.scope}  now ${report.now}`,
    '',
  ];
  report.sections.forEach((section, i) => {
    out.push(`${i + 1}. ${section.title}  (${section.seed})`);
    for (const line of section.lines) {
      const parts = Object.entries(line.parts)
        .map(([k, v]) => `${k}=${fmt(v)}`)
        .join('  ');
      out.push(`   ${line.label.padEnd(50)} ${fmt(line.value).padStart(6)}   ${parts}`);
    }
    out.push(`   stored: ${section.stored}`, '');
  });
  return out.join('\n');
}
