/**
 * @module eval/run
 * `npm run eval`: tool search and DAG suggestion quality on the public data in ../shared/data
 * (issue 4, point 4; SPEC §11). Prints tables and whether the targets are met. Everything
 * is seeded and runs on in-memory stores with a fixed clock, so two runs print the same figures
 * (apart from the timings).
 *
 *   node dist/eval/run.js [--data DIR] [--seed N]
 *
 * Without the data folder (a user's fresh clone) it prints one line saying so and exits 0.
 */
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { SEARCH_DEFAULTS } from '../src/core/search/tool-search.js';
import { DAG_BUILD_DEFAULTS } from '../src/core/dag/dag-build.js';
import {
  hasData,
  hasTaskPlan,
  loadNestful,
  loadSealTools,
  loadTaskPlan,
  splitHalves,
  toExecution,
  type Sample,
} from './data.js';
import {
  atLeast,
  learningSet,
  learningTargets,
  printAlternatives,
  printLearning,
  type LearningResult,
  type LearningSet,
  type TargetRow,
} from './learning-eval.js';
import { EVAL_NOW, openEvalEngine } from './engine.js';
import { bm25Sweep, runSteps, scoreSteps, stepsOf, type RankScore } from './search-eval.js';
import { recallEval } from './recall-eval.js';
import { evaluateHabits, evaluatePhrasingHalves } from './habits/evaluate.js';
import { evaluateConversations } from './conversations/evaluate.js';
import { evaluateCalibration } from './calibration/evaluate.js';
import { f3, formatTable, pct } from './table.js';
import type { ToolRecord } from '../src/store/types.js';
import type { Credence } from '../src/engine/engine.js';
import { repositoryRoot } from './paths.js';

const { values } = parseArgs({
  options: { data: { type: 'string' }, seed: { type: 'string', default: '4' } },
  allowPositionals: false,
});
const dataDir = resolve(values.data ?? join(repositoryRoot(), '..', 'shared', 'data'));
if (!hasData(dataDir)) {
  console.log(
    `npm run eval: no evaluation data at ${dataDir} (the public NESTFUL and Seal-Tools copies live in ` +
      '../shared/data beside the repository; see SPEC §11); nothing to measure.',
  );
  process.exit(0);
}
const seed = Number(values.seed);
if (!Number.isInteger(seed)) throw new Error(`--seed must be an integer, got ${values.seed}`);

const started = performance.now();
const lap = (() => {
  let last = started;
  return (): string => {
    const now = performance.now();
    const text = `${((now - last) / 1000).toFixed(1)} s`;
    last = now;
    return text;
  };
})();
const out = (text = ''): void => void process.stdout.write(`${text}\n`);

const nestful = loadNestful(dataDir);
const seal = loadSealTools(dataDir);
const DEFAULT_W = SEARCH_DEFAULTS.bm25Weight;
/** 0, 0.1, …, 1, and the default weight if it is none of them. */
const WEIGHTS = [...new Set([...Array.from({ length: 11 }, (_, i) => i / 10), DEFAULT_W])].sort((x, y) => x - y);

// ---------------------------------------------------------------------------------------------
// A. Tool search on Seal-Tools.
const cold = await openEvalEngine(seal.tools);
const sweep = await bm25Sweep(cold, [seal.dev, seal.test], WEIGHTS);
const embedder = cold.embedder;
const embeddingsNote = process.env.CREDENCE_EMBEDDINGS
  ? ` (CREDENCE_EMBEDDINGS=${process.env.CREDENCE_EMBEDDINGS})`
  : ' (default; CREDENCE_EMBEDDINGS unset)';

out('# Credence evaluation (issue 4)');
out();
out(`data: ${dataDir}`);
out(`embeddings: ${embedder.provider} / ${embedder.model} / ${embedder.dimension ?? '?'} dimensions${embeddingsNote}`);
out(
  `engines: in-memory SQLite, scope "eval", clock ${new Date(EVAL_NOW).toISOString()}, zero-padded counter ids; ` +
    `recorded runs a history (one a minute in recording order, the last the newest, before the clock); ` +
    `seed ${seed} (mulberry32) for the DAG splits`,
);
out(
  `Seal-Tools: ${seal.tools.length} tools, dev ${seal.dev.length} queries, test_in_domain ${seal.test.length}; ` +
    `NESTFUL: ${nestful.tools.length} tools (3 specs), ${nestful.samples.length} samples`,
);
out();

const scoreCells = (s: RankScore | undefined): string[] =>
  s === undefined ? ['', '', ''] : [f3(s.r1), f3(s.r5), f3(s.mrr)];
const [devSweep, testSweep] = sweep.byWeight as [Map<number, RankScore>, Map<number, RankScore>];
const bestBy = (m: Map<number, RankScore>) =>
  [...m.entries()].reduce((best, cur) =>
    cur[1].mrr > best[1].mrr + 1e-12 || (Math.abs(cur[1].mrr - best[1].mrr) <= 1e-12 && cur[1].r5 > best[1].r5)
      ? cur
      : best,
  );
const [bestDevW] = bestBy(devSweep);
const [bestTestW] = bestBy(testSweep);

out(
  `## A1. Tool search, Seal-Tools, catalogue of ${seal.tools.length} tools, ` +
    'nothing learned (semantic score, α = 1)',
);
out();
out(
  "Relevant = the query's ground-truth tools; Recall@k = share of them in the top k, averaged over queries; " +
    'MRR of the first relevant.',
);
out();
out(
  formatTable(
    ['ranking', 'dev R@1', 'dev R@5', 'dev MRR', 'test R@1', 'test R@5', 'test MRR'],
    [
      ['BM25 only (bm25Weight 1)', ...scoreCells(devSweep.get(1)), ...scoreCells(testSweep.get(1))],
      ['embeddings only (bm25Weight 0)', ...scoreCells(devSweep.get(0)), ...scoreCells(testSweep.get(0))],
      [
        `fused, default bm25Weight ${DEFAULT_W}`,
        ...scoreCells(devSweep.get(DEFAULT_W)),
        ...scoreCells(testSweep.get(DEFAULT_W)),
      ],
    ],
  ),
);
out();
out(`## A2. BM25 weight sweep (fused semantic score = w · BM25 ratio + (1 − w) · cosine)`);
out();
out(
  formatTable(
    ['bm25Weight', 'dev R@1', 'dev R@5', 'dev MRR', 'test R@1', 'test R@5', 'test MRR', 'note'],
    WEIGHTS.map((w) => [
      String(w),
      ...scoreCells(devSweep.get(w)),
      ...scoreCells(testSweep.get(w)),
      [w === DEFAULT_W ? 'default' : '', w === bestDevW ? 'best on dev' : '', w === bestTestW ? 'best on test' : '']
        .filter((t) => t !== '')
        .join(', '),
    ]),
  ),
);
out();
out(
  `Best weight by MRR (ties by R@5): dev ${bestDevW}, test_in_domain ${bestTestW}; default ${DEFAULT_W}. ` +
    "Each weight re-scores one search's candidate pool with core rankTools; checked against direct API calls: " +
    `${sweep.verified.rankings - sweep.verified.mismatches}/${sweep.verified.rankings} top-10 rankings identical.`,
);
out(`(A1-A2 took ${lap()})`);
out();

/**
 * Step-wise search with context: learn the graph from `learn` (recorded with their intents); for
 * every call k ≥ 1 of each query of `evaluate`, rank with the query text and context = the tools of
 * calls 0..k−1; target = the tool of call k. Prints the table; returns the R@5 of semantic only and
 * of the warm hybrid.
 */
async function stepwise(
  title: string,
  learnedFrom: string,
  tools: readonly ToolRecord[],
  learn: readonly Sample[],
  evaluate: readonly Sample[],
  coldEngine: Credence,
) {
  const warm = await openEvalEngine(tools, learn.map(toExecution));
  const stats = await warm.graphStats();
  const steps = stepsOf(evaluate);
  const semantic = await runSteps(warm, steps, (s) => ({ context: s.context, semanticOnly: true }));
  const hybridWarm = await runSteps(warm, steps, (s) => ({ context: s.context }));
  const hybridCold = await runSteps(coldEngine, steps, (s) => ({ context: s.context }));
  const hybridNoContext = await runSteps(warm, steps, () => ({}), true);
  await warm.close();
  const related = (i: number) => (hybridWarm[i]?.target?.parts.relatedness ?? 0) > 0;
  const nRelated = steps.filter((_, i) => related(i)).length;
  const learnedPairs = new Set(
    learn.flatMap((s) => s.calls.slice(1).map((c, i) => `${s.calls[i]?.tool} -> ${c.tool}`)),
  );
  const pairSeen = steps.filter((s) => learnedPairs.has(`${s.sample.calls[s.k - 1]?.tool} -> ${s.target}`)).length;
  const observed = steps.filter((_, i) => (hybridWarm[i]?.target?.parts.observations ?? 0) > 0).length;
  const rows: [string, RankScore, RankScore][] = [
    ['semantic only (α = 1), context given', scoreSteps(steps, semantic), scoreSteps(steps, semantic, related)],
    [
      'hybrid cold (nothing learned), context given',
      scoreSteps(steps, hybridCold),
      scoreSteps(steps, hybridCold, related),
    ],
    [
      'hybrid warm, no context (centrality only)',
      scoreSteps(steps, hybridNoContext),
      scoreSteps(steps, hybridNoContext, related),
    ],
    ['hybrid warm, context given', scoreSteps(steps, hybridWarm), scoreSteps(steps, hybridWarm, related)],
  ];
  out(title);
  out();
  out(
    `Learned from ${learnedFrom}, giving ${stats.calledTools} called tools, ${stats.confidentPairs} confident pairs, ` +
      `density ${stats.density.toFixed(5)} (${stats.tier}). ` +
      'Steps: every call k ≥ 1, context = the tools of calls 0..k−1, target = the tool of call k: ' +
      `${steps.length} steps from ${new Set(steps.map((s) => s.sample)).size} queries. ` +
      `Of these, ${nRelated} (${pct(nRelated / steps.length)}) have a target the learned graph relates to the ` +
      `context ("related"), ${pairSeen} have their (previous tool → target) pair among the learned executions, ` +
      `${observed} have a target that was called while learning.`,
  );
  out();
  out(
    formatTable(
      ['ranking', 'steps', 'R@1', 'R@5', 'MRR', `related (${nRelated}) R@1`, 'R@5', 'MRR'],
      rows.map(([name, all, sub]) => [name, String(all.n), ...scoreCells(all), ...scoreCells(sub)]),
    ),
  );
  out(`(took ${lap()})`);
  out();
  return { semanticR5: (rows[0] as (typeof rows)[number])[1].r5, hybridR5: (rows[3] as (typeof rows)[number])[1].r5 };
}

const sealSteps = await stepwise(
  '## A3. Step-wise search with context, Seal-Tools dev queries, graph learned from test_in_domain',
  `the ${seal.test.length} test_in_domain executions`,
  seal.tools,
  seal.test,
  seal.dev,
  cold,
);
await cold.close();
const nestfulSplit = splitHalves(nestful.samples, seed);
const nestfulCold = await openEvalEngine(nestful.tools);
const nestfulSteps = await stepwise(
  '## A4. The same on NESTFUL, where call pairs recur (for reference: the issue sets no target here)',
  `half A (${nestfulSplit.a.length} executions) of the seeded NESTFUL split used in B (the steps come from half B)`,
  nestful.tools,
  nestfulSplit.a,
  nestfulSplit.b,
  nestfulCold,
);
await nestfulCold.close();

// ---------------------------------------------------------------------------------------------
// B. Learning from experience: DAG suggestion, tool search and learning curves (issue 19, item 5).
const learningSets: LearningSet[] = [
  { name: 'NESTFUL', title: 'NESTFUL (300 samples, 3 files)', tools: nestful.tools, samples: nestful.samples },
  {
    name: 'Seal-Tools',
    title: 'Seal-Tools (dev + test_in_domain, 1,400 queries)',
    tools: seal.tools,
    samples: [...seal.dev, ...seal.test],
  },
];
const skipped: string[] = [];
if (hasTaskPlan(dataDir, 'restbench-tmdb')) {
  const tmdb = loadTaskPlan(dataDir, 'restbench-tmdb', 'RestBench-TMDB');
  learningSets.push({
    name: 'RestBench-TMDB',
    title: `RestBench-TMDB (${tmdb.samples.length} requests)`,
    tools: tmdb.tools,
    samples: tmdb.samples,
  });
} else skipped.push(`RestBench-TMDB skipped: no ${join(dataDir, 'restbench-tmdb')} (data.json, tool_desc.json).`);
const learning: LearningResult[] = [];
for (const set of learningSets) learning.push(await learningSet(set, seed));
printLearning(learning, skipped, seed, out);
printAlternatives(learning, out);
out(`(B took ${lap()})`);
out();

// ---------------------------------------------------------------------------------------------
// Targets (issue 19, "Targets"; the speed targets are npm run bench's).
out('## Targets (issue 19)');
out();
out(
  'Compared at the printed three decimals. For reference (no target): NESTFUL step-wise search R@5, warm hybrid ' +
    `with context ${f3(nestfulSteps.hybridR5)} vs semantic only ${f3(nestfulSteps.semanticR5)}; ` +
    `Seal-Tools A3 semantic only ${f3(sealSteps.semanticR5)}.`,
);
out();
const sealSearchR5 = devSweep.get(DEFAULT_W)?.r5 ?? 0;
const targets: TargetRow[] = [
  ...learningTargets(learning, ['NESTFUL', 'Seal-Tools', 'RestBench-TMDB']),
  [
    'Seal-Tools: step-wise search R@5 (A3, warm hybrid with context) ≥ 0.823',
    f3(sealSteps.hybridR5),
    atLeast(sealSteps.hybridR5, 0.823),
  ],
  ['Seal-Tools: search R@5 (A1, dev, fused default) ≥ 0.823', f3(sealSearchR5), atLeast(sealSearchR5, 0.823)],
];
out(
  formatTable(
    ['target', 'measured', 'status'],
    targets.map(([t, m, ok]) => [t, m, ok === undefined ? 'not measured' : ok ? 'met' : 'NOT met']),
  ),
);
out();
out(
  `DAG defaults: keepRatio ${DAG_BUILD_DEFAULTS.keepRatio}, tieAt ${DAG_BUILD_DEFAULTS.tieAt}, ` +
    `maxTools ${DAG_BUILD_DEFAULTS.maxTools}. Total ${((performance.now() - started) / 1000).toFixed(1)} s.`,
);
const recalled = await recallEval({ tools: seal.tools, dev: seal.dev, test: seal.test }, out);
await evaluateHabits({ out });
await evaluatePhrasingHalves({ out });
await evaluateConversations({ out });
evaluateCalibration({ learning, recall: recalled.pools, seed, out });
