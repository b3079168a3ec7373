/**
 * @module eval/whatif
 * Measures proposed changes to src/ before anyone makes them (not part of `npm run eval`):
 *
 *   npm run build && node dist/eval/whatif.js [--data DIR] [--seed N] [--seal-every N]
 *
 * Search: each step's candidate pool comes from the API (`searchTools` with context, every
 * candidate), then the pure core `rankTools` re-scores it with modified signals — a context tool's
 * relatedness to itself removed; the graph used only when a context tool is established (≥ 5
 * calls); context tools dropped from the ranking.
 *
 * DAG: a replica of `suggestDag`'s candidate gathering (src/engine/search/search.ts as of commit 71102c6: intent
 * parts, at most 4, the rest joined into the last; top 10 of the search per part; the intent
 * memory per part, every tool of a kept run scored similarity × quality) feeding the core
 * `buildDag`. Its default rows are checked against `suggestDag` itself (the `API check` line): when
 * src/engine/search/search.ts changes, that line says whether the replica still holds. Variants: memory as a
 * boost to the search candidates it agrees with (memory-only tools left out), a global keep ratio
 * over all parts (SPEC §5's "≥ 0.8 × the top score"), the per-part keep ratio.
 */
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { buildDag, type DagBuildOptions, type DagCandidate } from '../src/core/dag/dag-build.js';
import { intentParts } from '../src/core/dag/intent-parts.js';
import { rankTools, type ToolSearchResult, type ToolSignals } from '../src/core/search/tool-search.js';
import type { Credence } from '../src/engine/engine.js';
import type { MemoryMatch } from '../src/engine/search/search.js';
import type { ToolRecord } from '../src/store/types.js';
import { hasData, loadNestful, loadSealTools, splitHalves, toExecution, type Sample } from './data.js';
import { scoreDags, suggestAll, type DagOutcome } from './dag-eval.js';
import { openEvalEngine } from './engine.js';
import { dagEdges, setF1, truthEdges, truthTools } from './metrics.js';
import { ALL, scoreRankings, signalsOf, stepsOf, type Step } from './search-eval.js';
import { f3, formatTable } from './table.js';
import { repositoryRoot } from './paths.js';

const { values } = parseArgs({
  options: {
    data: { type: 'string' },
    seed: { type: 'string', default: '4' },
    'seal-every': { type: 'string', default: '1' },
  },
  allowPositionals: false,
});
const dataDir = resolve(values.data ?? join(repositoryRoot(), '..', 'shared', 'data'));
if (!hasData(dataDir)) {
  console.log(`eval/whatif: no evaluation data at ${dataDir}; nothing to measure.`);
  process.exit(0);
}
const seed = Number(values.seed);
const sealEvery = Math.max(1, Number(values['seal-every']));
const out = (text = ''): void => void process.stdout.write(`${text}\n`);
const nestful = loadNestful(dataDir);
const seal = loadSealTools(dataDir);
out(
  `# What-if measurements (seed ${seed}; Seal-Tools DAG queries: ` +
    `every ${sealEvery === 1 ? '' : `${sealEvery}th of the `}half B)`,
);
out();

// ---------------------------------------------------------------------------------------------
// Search with context.
type Ranker = (signals: ToolSignals[], step: Step) => string[];
const noSelf = (signals: ToolSignals[], step: Step): ToolSignals[] =>
  signals.map((x) => (step.context.includes(x.tool) && x.relatedness !== undefined ? { ...x, relatedness: 0 } : x));
const RANKERS: [string, Ranker][] = [
  ['semantic only', (s) => rankTools(s, { semanticOnly: true }).map((r) => r.tool)],
  ['hybrid (as the API ranks)', (s) => rankTools(s).map((r) => r.tool)],
  ['hybrid, no self-relatedness of context tools', (s, st) => rankTools(noSelf(s, st)).map((r) => r.tool)],
  [
    'hybrid, no self-relatedness, graph only when a context tool has ≥ 5 calls',
    (s, st) => {
      const signals = noSelf(s, st);
      const established = signals.some((x) => st.context.includes(x.tool) && x.observations >= 5);
      return rankTools(signals, established ? {} : { semanticOnly: true }).map((r) => r.tool);
    },
  ],
];

async function searchWhatIf(
  name: string,
  tools: readonly ToolRecord[],
  learn: readonly Sample[],
  evaluate: readonly Sample[],
): Promise<void> {
  const warm = await openEvalEngine(tools, learn.map(toExecution));
  const steps = stepsOf(evaluate);
  const pools: ToolSignals[][] = [];
  for (const st of steps)
    pools.push((await warm.searchTools(st.sample.intent, { limit: ALL, context: st.context })).map(signalsOf));
  await warm.close();
  const rows: string[][] = [];
  for (const [label, rank] of RANKERS) {
    for (const drop of [false, true]) {
      const s = scoreRankings(
        pools.map((p, i) => {
          const st = steps[i] as Step;
          const ranked = rank(p, st);
          return {
            ranked: drop ? ranked.filter((t) => !st.context.includes(t)) : ranked,
            relevant: new Set([st.target]),
          };
        }),
      );
      rows.push([`${label}${drop ? ', context tools dropped' : ''}`, f3(s.r1), f3(s.r5), f3(s.mrr)]);
    }
  }
  out(`## Search with context, ${name} (${steps.length} steps)`);
  out();
  out(formatTable(['ranking (re-scored API pool)', 'R@1', 'R@5', 'MRR'], rows));
  out();
}

await searchWhatIf('Seal-Tools dev, learned from test_in_domain', seal.tools, seal.test, seal.dev);
const nestfulSplit = splitHalves(nestful.samples, seed);
await searchWhatIf('NESTFUL half B, learned from half A', nestful.tools, nestfulSplit.a, nestfulSplit.b);

// ---------------------------------------------------------------------------------------------
// DAG suggestion.
/** As src/engine/search/search.ts: a long request is searched in at most 4 pieces, the rest joined into the last. */
const MAX_PARTS = 4;

interface Gathered {
  sample: Sample;
  parts: { pool: ToolSearchResult[]; memory: MemoryMatch[] }[];
}

async function gather(cr: Credence, samples: readonly Sample[]): Promise<Gathered[]> {
  const outList: Gathered[] = [];
  for (const sample of samples) {
    const parts = intentParts(sample.intent);
    const texts =
      parts.length <= 1
        ? [sample.intent]
        : parts.length <= MAX_PARTS
          ? parts
          : [...parts.slice(0, MAX_PARTS - 1), parts.slice(MAX_PARTS - 1).join(' ')];
    const gathered: Gathered['parts'] = [];
    for (const text of texts)
      gathered.push({ pool: await cr.searchTools(text, { limit: 10 }), memory: await cr.similarExecutions(text) });
    outList.push({ sample, parts: gathered });
  }
  return outList;
}

interface Variant {
  name: string;
  warm: boolean;
  /**
   * 'candidates': as src (memory tools are candidates of their own); 'boost': memory adds `boost` × its score to search
   * candidates it agrees with; 'off'.
   */
  memory: 'candidates' | 'boost' | 'off';
  boost?: number;
  /** Keep only candidates ≥ global × the top score over all parts (before buildDag). */
  global?: number;
  build?: DagBuildOptions;
}

function replicate(g: Gathered, v: Variant, edges: Parameters<typeof buildDag>[1]) {
  let candidates: DagCandidate[] = [];
  g.parts.forEach((p, part) => {
    const support = new Map<string, number>();
    for (const m of p.memory)
      for (const tool of m.tools) support.set(tool, Math.max(support.get(tool) ?? 0, m.similarity * m.quality));
    for (const r of p.pool) {
      const s = v.memory === 'boost' ? support.get(r.tool) : undefined;
      candidates.push(
        s === undefined
          ? { tool: r.tool, part, score: r.score, sources: ['search'] }
          : { tool: r.tool, part, score: r.score + (v.boost ?? 0) * s, sources: ['memory', 'search'] },
      );
    }
    if (v.memory === 'candidates')
      for (const m of p.memory)
        for (const tool of m.tools)
          candidates.push({ tool, part, score: m.similarity * m.quality, sources: ['memory'] });
  });
  if (v.global !== undefined) {
    const top = Math.max(0, ...candidates.map((c) => c.score));
    candidates = candidates.filter((c) => c.score >= (v.global as number) * top - 1e-12);
  }
  return buildDag(candidates, edges, v.build);
}

async function dagWhatIf(
  name: string,
  tools: readonly ToolRecord[],
  samples: readonly Sample[],
  every: number,
): Promise<void> {
  const { a, b: all } = splitHalves(samples, seed);
  const b = all.filter((_, i) => i % every === 0);
  const engines = { cold: await openEvalEngine(tools), warm: await openEvalEngine(tools, a.map(toExecution)) };
  const gathered = { cold: await gather(engines.cold, b), warm: await gather(engines.warm, b) };
  const edges = {
    cold: (await engines.cold.edges({ minConfidence: 0.3 })).filter((e) => e.from !== e.to),
    warm: (await engines.warm.edges({ minConfidence: 0.3 })).filter((e) => e.from !== e.to),
  };
  // The replica against the API, default conditions.
  let checked = 0;
  let differ = 0;
  for (const [warm, memory] of [
    [false, 'candidates'],
    [true, 'candidates'],
  ] as const) {
    const api = await suggestAll(warm ? engines.warm : engines.cold, b);
    api.forEach((o, i) => {
      const mine = replicate(
        (warm ? gathered.warm : gathered.cold)[i] as Gathered,
        { name: '', warm, memory },
        warm ? edges.warm : edges.cold,
      );
      checked += 1;
      if (JSON.stringify(mine.tasks) !== JSON.stringify(o.suggestion.dag.tasks)) differ += 1;
    });
  }
  await engines.cold.close();
  await engines.warm.close();
  const variants: Variant[] = [];
  for (const [label, build, global] of [
    ['as src', {}, undefined],
    ['keepRatio 0.9 + global 0.8', { keepRatio: 0.9 }, 0.8],
    ['keepRatio 0.8 + global 0.8', { keepRatio: 0.8 }, 0.8],
    ['keepRatio 1.0 + global 0.8', { keepRatio: 1 }, 0.8],
    ['maxTools 4', { maxTools: 4 }, undefined],
  ] as const) {
    const common = { build, ...(global === undefined ? {} : { global }) };
    variants.push({ name: `cold, ${label}`, warm: false, memory: 'off', ...common });
    variants.push({ name: `warm, memory as candidates, ${label}`, warm: true, memory: 'candidates', ...common });
    for (const boost of [0.1, 0.2, 0.3])
      variants.push({
        name: `warm, memory as boost ${boost}, ${label}`,
        warm: true,
        memory: 'boost',
        boost,
        ...common,
      });
  }
  const rows = variants.map((v) => {
    const outcomes: DagOutcome[] = (v.warm ? gathered.warm : gathered.cold).map((g) => {
      const built = replicate(g, v, v.warm ? edges.warm : edges.cold);
      return {
        sample: g.sample,
        suggestion: {
          dag: { tasks: built.tasks },
          confidence: 0,
          mode: built.tasks.length > 0 ? 'suggestion' : 'explicit_required',
        } as DagOutcome['suggestion'],
        nodeF1: setF1(new Set(built.tasks.map((t) => t.tool)), truthTools(g.sample)).f1,
        edgeF1: setF1(dagEdges(built.tasks), truthEdges(g.sample)).f1,
      };
    });
    const s = scoreDags(outcomes);
    return [
      v.name,
      f3(s.nodeP),
      f3(s.nodeR),
      f3(s.nodeF1),
      f3(s.edgeF1),
      f3(s.edgeF1Multi),
      `${(100 * s.exact).toFixed(1)}%`,
      s.size.toFixed(2),
    ];
  });
  out(`## DAG suggestion, ${name} (${b.length} queries of half B, learned from ${a.length})`);
  out();
  out(`API check: the replica's DAG equals suggestDag's for ${checked - differ}/${checked} (query, cold|warm) pairs.`);
  out();
  out(
    formatTable(
      ['variant', 'node P', 'node R', 'node F1', 'edge F1', 'edge F1 multi', 'exact set', 'mean tasks'],
      rows,
    ),
  );
  out();
}

await dagWhatIf('NESTFUL', nestful.tools, nestful.samples, 1);
await dagWhatIf('Seal-Tools (dev + test_in_domain)', seal.tools, [...seal.dev, ...seal.test], sealEvery);
