/**
 * @module eval/learning-eval
 * Does learning help (issue 19, item 5)? On one data set: learn from half A of the executions (with their
 * intents), then for each query of half B, from its text alone: a DAG (cold, warm, warm with search only,
 * warm with memory only, and the k = 5 nearest-intents vote baseline), a tool search ranking (cold, warm,
 * vote), and a learning curve (warm after the first 0, 10, 25, 50 and 100 % of half A in a seeded order).
 */
import type { Credence } from '../src/engine/engine.js';
import type { DagRequest } from '../src/engine/search/search.js';
import type { ToolRecord } from '../src/store/types.js';
import { shuffled, splitHalves, toExecution, type Sample } from './data.js';
import { scoreDags, scoreProposals, suggestAll, type DagOutcome, type DagScore } from './dag-eval.js';
import { openEvalEngine } from './engine.js';
import { mean, recallAtK, reciprocalRank, truthTools } from './metrics.js';
import { f3, formatTable, pct } from './table.js';
import { voteBaseline, type VoteBaseline } from './vote-baseline.js';

/** One data set to learn from. */
export interface LearningSet {
  /** Short name, in the targets and the tables (`Seal-Tools` gets the issue's Seal-Tools targets). */
  name: string;
  /** Heading, with the set's size. */
  title: string;
  tools: readonly ToolRecord[];
  samples: readonly Sample[];
  /** Evaluate the learning curve on this many seeded test queries only (all of half B when unset). */
  curveQueries?: number;
}

export type Condition = 'cold' | 'warm' | 'searchOnly' | 'memoryOnly' | 'vote';

/** The DAG conditions, in table order; the vote baseline has no request. */
export const CONDITIONS: readonly { id: Condition; label: string; warm: boolean; request?: DagRequest }[] = [
  { id: 'cold', label: 'cold (catalogue only)', warm: false, request: {} },
  { id: 'warm', label: 'warm (default request)', warm: true, request: {} },
  { id: 'searchOnly', label: 'warm, search only (useMemory: false)', warm: true, request: { useMemory: false } },
  { id: 'memoryOnly', label: 'warm, memory only (useSearch: false)', warm: true, request: { useSearch: false } },
  { id: 'vote', label: 'vote baseline, k = 5 nearest intents', warm: true },
];

/** Shares of half A the learning curve learns from. */
export const CURVE_SHARES: readonly number[] = [0, 0.1, 0.25, 0.5, 1];

export interface SearchScore {
  r5: number;
  mrr: number;
  /** Each query's reciprocal rank of its first relevant tool (0 when none is in the top 10). */
  rr: number[];
  /** Per query, whether its results said the past runs were less alike than any measured (`memory.unlike`). */
  unlike?: boolean[];
}

export interface CurvePoint {
  share: number;
  runs: number;
  nodeF1: number;
  edgeF1: number;
  searchR5: number;
  ece: number;
}

export interface LearningResult {
  set: LearningSet;
  train: number;
  test: number;
  /** What the warm engine learned from half A. */
  learned: { calledTools: number; confidentPairs: number; density: number; tier: string };
  dag: Map<Condition, DagScore>;
  search: { cold: SearchScore; warm: SearchScore; vote: SearchScore };
  curve: CurvePoint[];
  curveQueries: number;
  /** The warm engine under the alternatives tried while building issue 19 (section B4). */
  alternatives: { label: string; score: DagScore }[];
  /** Each engine condition's suggestions for half B (section F calibrates their confidences). */
  outcomes: Map<Condition, DagOutcome[]>;
  seconds: number;
}

/** Ways of answering tried while building issue 19, replayable on the warm engine (section B4). */
export const ALTERNATIVES: readonly { label: string; request: DagRequest }[] = [
  { label: 'chosen by evidence only', request: { selection: 'evidence' } },
  { label: 'chosen by fusion only', request: { selection: 'fusion' } },
  { label: 'per intent only', request: { selection: 'per-intent' } },
  { label: 'without the boost of past runs', request: { memoryBoost: false } },
  { label: 'learned-edge ties on', request: { build: { ties: true } } },
];

/** R@5 and MRR of the queries' ground-truth tools in the given rankings. */
function scoreRanks(samples: readonly Sample[], ranked: readonly (readonly string[])[]): SearchScore {
  const rr = samples.map((s, i) => reciprocalRank(ranked[i] ?? [], truthTools(s)));
  return { r5: mean(samples.map((s, i) => recallAtK(ranked[i] ?? [], truthTools(s), 5))), mrr: mean(rr), rr };
}

/** The engine's tool search from each query's text alone (no context), top 10. */
async function searchAll(cr: Credence, samples: readonly Sample[]): Promise<SearchScore> {
  const ranked: string[][] = [];
  const unlike: boolean[] = [];
  for (const s of samples) {
    const results = await cr.searchTools(s.intent, { limit: 10, track: false });
    ranked.push(results.map((r) => r.tool));
    unlike.push(results.some((r) => r.memory?.unlike !== undefined));
  }
  return { ...scoreRanks(samples, ranked), unlike };
}

/** Per query, warm against cold: better, worse, same, and of the worse how many the warm answer warned of. */
export function perQuery(
  cold: readonly number[],
  warm: readonly number[],
  warned: readonly boolean[],
): { better: number; worse: number; same: number; worseWarned: number } {
  const out = { better: 0, worse: 0, same: 0, worseWarned: 0 };
  warm.forEach((w, i) => {
    const d = w - (cold[i] ?? 0);
    if (d > 1e-9) out.better += 1;
    else if (d < -1e-9) {
      out.worse += 1;
      if (warned[i] === true) out.worseWarned += 1;
    } else out.same += 1;
  });
  return out;
}

function voteScore(vote: VoteBaseline, samples: readonly Sample[]): DagScore {
  return scoreProposals(samples.map((sample) => ({ sample, ...vote.dag(sample.intent) })));
}

/** Node and edge F1, search R@5 and ECE of an engine's default DAGs and searches. */
async function curvePoint(cr: Credence, samples: readonly Sample[], share: number, runs: number) {
  const dag = scoreDags(await suggestAll(cr, samples));
  const search = await searchAll(cr, samples);
  return { share, runs, nodeF1: dag.nodeF1, edgeF1: dag.edgeF1, searchR5: search.r5, ece: dag.ece ?? 0 };
}

/** Every measure of issue 19 item 5 on one set; the split is the seeded 50/50 one of section B. */
export async function learningSet(set: LearningSet, seed: number): Promise<LearningResult> {
  const started = performance.now();
  const { a, b } = splitHalves(set.samples, seed);
  const cold = await openEvalEngine(set.tools);
  const warm = await openEvalEngine(set.tools, a.map(toExecution));
  const learned = await warm.graphStats();
  const vote = voteBaseline(a);
  const dag = new Map<Condition, DagScore>();
  const outcomes = new Map<Condition, DagOutcome[]>();
  for (const c of CONDITIONS) {
    if (c.request === undefined) continue;
    const o = await suggestAll(c.warm ? warm : cold, b, c.request);
    outcomes.set(c.id, o);
    dag.set(c.id, scoreDags(o));
  }
  dag.set('vote', voteScore(vote, b));
  const search = {
    cold: await searchAll(cold, b),
    warm: await searchAll(warm, b),
    vote: scoreRanks(
      b,
      b.map((s) => vote.rank(s.intent)),
    ),
  };

  const subset = set.curveQueries !== undefined && set.curveQueries < b.length;
  const curveTest = subset ? shuffled(b, seed).slice(0, set.curveQueries) : b;
  const order = shuffled(a, seed);
  const curve: CurvePoint[] = [];
  for (const share of CURVE_SHARES) {
    const runs = Math.round(share * a.length);
    const known = runs === 0 ? 'cold' : runs === a.length ? 'warm' : undefined;
    if (known !== undefined && !subset) {
      const d = dag.get(known) as DagScore;
      const r5 = search[known].r5;
      curve.push({ share, runs, nodeF1: d.nodeF1, edgeF1: d.edgeF1, searchR5: r5, ece: d.ece ?? 0 });
      continue;
    }
    if (known !== undefined) {
      curve.push(await curvePoint(known === 'cold' ? cold : warm, curveTest, share, runs));
      continue;
    }
    const partial = await openEvalEngine(set.tools, order.slice(0, runs).map(toExecution));
    curve.push(await curvePoint(partial, curveTest, share, runs));
    await partial.close();
  }
  const alternatives: { label: string; score: DagScore }[] = [];
  for (const alt of ALTERNATIVES)
    alternatives.push({ label: alt.label, score: scoreDags(await suggestAll(warm, b, alt.request)) });
  await cold.close();
  await warm.close();
  return {
    set,
    alternatives,
    outcomes,
    train: a.length,
    test: b.length,
    learned,
    dag,
    search,
    curve,
    curveQueries: curveTest.length,
    seconds: (performance.now() - started) / 1000,
  };
}

/** A figure, or a dash when the proposer gives none. */
function cell(v: number | undefined, format: (x: number) => string = f3): string {
  return v === undefined ? '—' : format(v);
}

/** Prints sections B1–B3 for the sets measured; `skipped` are lines for the sets without data. */
export function printLearning(
  results: readonly LearningResult[],
  skipped: readonly string[],
  seed: number,
  out: (text?: string) => void,
): void {
  out('## B. Learning from experience (issue 19): DAG suggestion, tool search, learning curves');
  out();
  out(
    `Protocol: each set is split 50/50 with seed ${seed} (within each source file); the warm engine records half A ` +
      'as executions with their intents, then every query of half B is answered from its text alone. Cold = the ' +
      'catalogue only. The vote baseline takes the 5 past intents of half A nearest by BM25 and keeps the tools ' +
      'and edges at least half of them used (eval/vote-baseline.ts; nothing of Credence). Node and edge F1 ' +
      'against the ground truth, macro-averaged; edge F1 with both sides empty = 1. ECE: confidence in 10 ' +
      'equal-width bins, |mean confidence − mean node F1| per bin weighted by its share of the queries. ' +
      'Engine calls with track: false.',
  );
  for (const line of skipped) out(line);
  out();
  out('### B1. DAG suggestion');
  out();
  for (const r of results) {
    const sources = [...new Set(r.set.samples.map((s) => s.source))];
    const count = (source: string) => r.set.samples.filter((x) => x.source === source).length;
    out(
      `**${r.set.title}**: catalogue ${r.set.tools.length} tools; learn from A = ${r.train}, suggest for B = ${r.test}`,
    );
    out(
      `(files: ${sources.map((s) => `${s} ${count(s)}`).join(', ')}; learned: ${r.learned.calledTools} tools called, ` +
        `${r.learned.confidentPairs} confident pairs, density ${r.learned.density.toFixed(4)}, ${r.learned.tier}; ` +
        `"multi" = the ${r.dag.get('cold')?.nMulti ?? 0} queries with ≥ 1 ground-truth edge).`,
    );
    out();
    out(
      formatTable(
        [
          'condition',
          'node P',
          'node R',
          'node F1',
          'edge F1',
          'edge F1 multi',
          'exact set',
          'mean tasks',
          'mean conf',
          'ECE',
          'mean seed conf',
          'warned',
        ],
        CONDITIONS.map((c) => {
          const s = r.dag.get(c.id) as DagScore;
          return [
            c.label,
            f3(s.nodeP),
            f3(s.nodeR),
            f3(s.nodeF1),
            f3(s.edgeF1),
            f3(s.edgeF1Multi),
            pct(s.exact),
            s.size.toFixed(2),
            cell(s.confidence),
            cell(s.ece),
            cell(s.seedConfidence),
            cell(s.warned, pct),
          ];
        }),
      ),
    );
    out(`(${r.set.title}: every measure of B1–B3 took ${r.seconds.toFixed(1)} s)`);
    out();
  }
  out('### B2. Tool search from the intent alone (no context), half B');
  out();
  out(
    "Relevant = the query's ground-truth tools. Cold and warm: the engine's searchTools(intent, { limit: 10 }); " +
      'vote: tools ranked by how many of the 5 nearest past intents used them.',
  );
  out();
  out(
    formatTable(
      ['set', 'queries', 'cold R@5', 'cold MRR', 'warm R@5', 'warm MRR', 'vote R@5', 'vote MRR'],
      results.map((r) => [
        r.set.name,
        String(r.test),
        f3(r.search.cold.r5),
        f3(r.search.cold.mrr),
        f3(r.search.warm.r5),
        f3(r.search.warm.mrr),
        f3(r.search.vote.r5),
        f3(r.search.vote.mrr),
      ]),
    ),
  );
  out();
  out('### B2b. Per query: did learning help? (half B, warm default against cold)');
  out();
  out(
    "DAG: each query's node F1; search: its reciprocal rank (B2). Better / worse / same by query; warned = of the " +
      'worse, those whose warm answer said its past runs were less alike than any the memory was measured on ' +
      '(`memory.unlike`, docs/how-it-works.md). The averages of B1 and B2 can hide queries learning made worse.',
  );
  out();
  const counts = (c: { better: number; worse: number; same: number; worseWarned: number }) => [
    String(c.better),
    String(c.worse),
    String(c.same),
    String(c.worseWarned),
  ];
  out(
    formatTable(
      ['set', 'queries', 'DAG better', 'worse', 'same', 'warned', 'search better', 'worse', 'same', 'warned'],
      results.map((r) => {
        const cold = r.outcomes.get('cold') ?? [];
        const warm = r.outcomes.get('warm') ?? [];
        const dag = perQuery(
          cold.map((o) => o.nodeF1),
          warm.map((o) => o.nodeF1),
          warm.map((o) => o.suggestion.memory?.backed === true && o.suggestion.memory.unlike !== undefined),
        );
        const search = perQuery(r.search.cold.rr, r.search.warm.rr, r.search.warm.unlike ?? []);
        return [r.set.name, String(r.test), ...counts(dag), ...counts(search)];
      }),
    ),
  );
  out();
  out('### B3. Learning curves (warm, default request)');
  out();
  out(
    `Warm after the first n executions of half A, in half A's order shuffled with seed ${seed} (0 % = cold). ` +
      'DAG node / edge F1, tool search R@5 (as in B2) and ECE.',
  );
  out();
  for (const r of results) {
    const on =
      r.curveQueries < r.test
        ? `a fixed subset of ${r.curveQueries} of the ${r.test} test queries (seeded), to keep the run short`
        : `all ${r.test} test queries`;
    out(`**${r.set.title}**, on ${on}:`);
    out();
    out(
      formatTable(
        ['learned from', 'runs', 'node F1', 'edge F1', 'search R@5', 'ECE'],
        r.curve.map((p) => [
          `${Math.round(100 * p.share)} % of A`,
          String(p.runs),
          f3(p.nodeF1),
          f3(p.edgeF1),
          f3(p.searchR5),
          f3(p.ece),
        ]),
      ),
    );
    out();
  }
}

/** Prints section B4: the warm engine under each alternative, beside the default. */
export function printAlternatives(results: readonly LearningResult[], out: (text?: string) => void): void {
  out('### B4. Alternatives tried (warm engine, half B; each is a request option, so it replays)');
  out();
  out(
    "The default chooses its way on the scope's own replayed runs (docs/how-it-works.md); each row forces " +
      'one way or changes one rule. Node F1 / edge F1 / ECE.',
  );
  out();
  const labels = ['default', ...ALTERNATIVES.map((a) => a.label)];
  out(
    formatTable(
      ['warm request', ...results.map((r) => r.set.title.replace(/ \(.*$/, ''))],
      labels.map((label, i) => [
        label,
        ...results.map((r) => {
          const d = i === 0 ? r.dag.get('warm') : r.alternatives[i - 1]?.score;
          return d === undefined ? '' : `${f3(d.nodeF1)} / ${f3(d.edgeF1)} / ${cell(d.ece)}`;
        }),
      ]),
    ),
  );
  out();
}

/** A target row: what, the measured figures, and met / not met (undefined: not measured). */
export type TargetRow = [target: string, measured: string, met: boolean | undefined];

/** Compared at the printed precision, so a figure printed equal to its bound meets it. */
export const atLeast = (value: number, bound: number): boolean => Math.round(value * 1000) >= Math.round(bound * 1000);

/**
 * Issue 19's targets on the learning sets named in `expected` (a set without its result is "not measured");
 * Seal-Tools' search figures of section A are the caller's.
 */
export function learningTargets(results: readonly LearningResult[], expected: readonly string[]): TargetRow[] {
  const rows: TargetRow[] = [];
  const find = (name: string) => results.find((r) => r.set.name === name);
  for (const name of expected) {
    const r = find(name);
    if (r === undefined) {
      rows.push([`${name}: every target`, 'no data', undefined]);
      continue;
    }
    const d = (c: Condition) => r.dag.get(c) as DagScore;
    for (const measure of ['nodeF1', 'edgeF1'] as const) {
      const rivals = (
        [
          ['cold', 'cold'],
          ['memoryOnly', 'memory only'],
          ['vote', 'vote'],
        ] as const
      ).map(([c, label]) => ({ label, v: d(c)[measure] }));
      const best = rivals.reduce((x, y) => (y.v > x.v ? y : x));
      rows.push([
        `${name}: warm ≥ max(cold, memory only, vote), ${measure === 'nodeF1' ? 'node' : 'edge'} F1`,
        `${f3(d('warm')[measure])} vs ${f3(best.v)} (${best.label})`,
        atLeast(d('warm')[measure], best.v),
      ]);
    }
    if (name !== 'Seal-Tools') {
      const gain = d('warm').edgeF1 - d('cold').edgeF1;
      rows.push([
        `${name}: warm − cold edge F1 ≥ +0.15`,
        `${gain >= 0 ? '+' : ''}${f3(gain)} (${f3(d('warm').edgeF1)} − ${f3(d('cold').edgeF1)})`,
        atLeast(gain, 0.15),
      ]);
    }
    rows.push([
      `${name}: warm tool search R@5 ≥ the vote baseline's`,
      `${f3(r.search.warm.r5)} vs ${f3(r.search.vote.r5)}`,
      atLeast(r.search.warm.r5, r.search.vote.r5),
    ]);
    if (name === 'Seal-Tools') {
      rows.push(
        ['Seal-Tools: warm DAG node F1 ≥ 0.635', f3(d('warm').nodeF1), atLeast(d('warm').nodeF1, 0.635)],
        ['Seal-Tools: warm DAG edge F1 ≥ 0.376', f3(d('warm').edgeF1), atLeast(d('warm').edgeF1, 0.376)],
      );
    }
    const ece = d('warm').ece ?? 1;
    rows.push([`${name}: ECE warm ≤ 0.10`, f3(ece), atLeast(0.1, ece)]);
  }
  return rows;
}
