/**
 * @module bench/graph
 * The graph algorithms of SPEC §4 on a synthetic 10,000-tool / 100,000-edge tool graph (seeded,
 * preferential attachment, so a few hub tools carry many edges, as `read`/`search` do in real
 * traces): `buildGraphIndex`, `pageRank` (target ≤ 15 ms) and `heatDiffusion` from 3 sources. Each
 * is timed beside a physical reference measured in the same run on the same data: for the index,
 * one pass over the input edge objects summing their weights (the cost of merely reading the
 * input); for PageRank and heat, one sparse matrix-vector pass over the CSR arrays (Σ w·x[target],
 * the memory-bandwidth floor of one iteration), so the ratio reads as "iteration-equivalents".
 */
import { buildGraphIndex, type GraphEdge, type GraphIndex } from '../src/core/graph/graph-index.js';
import { heatDiffusion } from '../src/core/graph/heat-diffusion.js';
import { pageRank } from '../src/core/graph/pagerank.js';
import { mulberry32 } from './prng.js';
import { median, type BenchRow } from './table.js';

const TYPE_WEIGHTS = [1.0, 0.8, 0.6, 0.5];
const SOURCE_MODIFIERS = [1.0, 0.7, 0.5];

/**
 * `tools` tools, `edgeCount` distinct directed pairs. Tool i links to min(i, perTool) earlier tools
 * picked proportionally to their degree (9 times in 10) or uniformly; direction and confidence
 * (type × source × decay of 0–120 idle days, half-life 60) drawn at random.
 */
export function syntheticToolGraph(tools: number, edgeCount: number, seed = 42): GraphEdge[] {
  const rand = mulberry32(seed);
  const perTool = Math.max(1, Math.round(edgeCount / tools));
  const endpoints: number[] = [];
  const seen = new Set<number>();
  const edges: GraphEdge[] = [];
  const weight = () =>
    (TYPE_WEIGHTS[Math.floor(rand() * TYPE_WEIGHTS.length)] ?? 1) *
    (SOURCE_MODIFIERS[Math.floor(rand() * SOURCE_MODIFIERS.length)] ?? 1) *
    0.5 ** ((rand() * 120) / 60);
  const add = (a: number, b: number): boolean => {
    const [from, to] = rand() < 0.5 ? [a, b] : [b, a];
    const key = from * tools + to;
    if (from === to || seen.has(key)) return false;
    seen.add(key);
    edges.push({ from: `tool-${from}`, to: `tool-${to}`, weight: weight() });
    endpoints.push(from, to);
    return true;
  };
  for (let i = 1; i < tools && edges.length < edgeCount; i += 1) {
    const want = Math.min(i, perTool);
    for (let added = 0, tries = 0; added < want && tries < want * 20; tries += 1) {
      const j =
        endpoints.length > 0 && rand() < 0.9
          ? (endpoints[Math.floor(rand() * endpoints.length)] ?? 0)
          : Math.floor(rand() * i);
      if (add(i, j)) added += 1;
    }
  }
  while (edges.length < edgeCount) add(Math.floor(rand() * tools), Math.floor(rand() * tools));
  return edges;
}

function timeMs(fn: () => unknown, warmup: number, runs: number): number[] {
  for (let i = 0; i < warmup; i += 1) fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const t = process.hrtime.bigint();
    fn();
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return times;
}

let sink = 0;

function edgeObjectPass(edges: readonly GraphEdge[]): number {
  let sum = 0;
  for (let e = 0; e < edges.length; e += 1) sum += (edges[e] as GraphEdge).weight;
  return sum;
}

function csrMatVecPass(graph: GraphIndex, x: Float64Array): number {
  const { offsets, targets, weights } = graph;
  let sum = 0;
  for (let u = 0, n = graph.ids.length; u < n; u += 1) {
    let row = 0;
    for (let e = offsets[u] as number, end = offsets[u + 1] as number; e < end; e += 1)
      row += (weights[e] as number) * (x[targets[e] as number] as number);
    sum += row;
  }
  return sum;
}

/** Iterations PageRank needs on `graph` (the smallest maxIterations that does not throw). */
function pageRankIterations(graph: GraphIndex): number {
  for (let iterations = 1; ; iterations += 1) {
    try {
      pageRank(graph, { maxIterations: iterations });
      return iterations;
    } catch (error) {
      if (iterations >= 1_000) throw error;
    }
  }
}

const ms = (value: number): string => `${value < 1 ? value.toFixed(3) : value.toFixed(2)} ms`;

export async function benchGraph(
  options: { tools?: number; edges?: number; runs?: number; warmup?: number } = {},
): Promise<BenchRow[]> {
  const tools = options.tools ?? 10_000;
  const edgeCount = options.edges ?? 100_000;
  const runs = options.runs ?? 20;
  const warmup = options.warmup ?? 10;
  const edges = syntheticToolGraph(tools, edgeCount);
  const directed = buildGraphIndex(edges);
  const undirected = buildGraphIndex(edges, { undirected: true });
  const x = new Float64Array(directed.ids.length).fill(1 / directed.ids.length);
  const sources = ['tool-0', 'tool-5000', 'tool-9999'];
  const size = `${tools.toLocaleString('en-US')} tools, ${edgeCount.toLocaleString('en-US')} edges`;
  const measure = `ms, median of ${runs}`;

  const build = median(timeMs(() => (sink += buildGraphIndex(edges).targets.length), warmup, runs));
  const buildRef = median(timeMs(() => (sink += edgeObjectPass(edges)), warmup, runs));
  const rank = median(timeMs(() => (sink += pageRank(directed)[0] ?? 0), warmup, runs));
  const heat = median(timeMs(() => (sink += heatDiffusion(undirected, sources)[0] ?? 0), warmup, runs));
  const matVec = median(timeMs(() => (sink += csrMatVecPass(directed, x)), warmup * 10, runs * 10));
  const matVecUndirected = median(timeMs(() => (sink += csrMatVecPass(undirected, x)), warmup * 10, runs * 10));
  void sink;
  const iterations = pageRankIterations(directed);

  return [
    {
      benchmark: `buildGraphIndex (${size})`,
      measure,
      value: ms(build),
      reference: `edge-object pass ${ms(buildRef)}`,
      ratio: `${(build / buildRef).toFixed(0)}× pass`,
      target: '-',
    },
    {
      benchmark: `pageRank (${size})`,
      measure: `${measure}, ${iterations} iterations`,
      value: ms(rank),
      reference: `CSR mat-vec pass ${ms(matVec)}`,
      ratio: `${(rank / matVec).toFixed(0)}× pass`,
      target: `≤ 15 ms: ${rank <= 15 ? 'met' : 'NOT met'}`,
    },
    {
      benchmark: `heatDiffusion, 3 sources (${size}, undirected)`,
      measure,
      value: ms(heat),
      reference: `CSR mat-vec pass ${ms(matVecUndirected)}`,
      ratio: `${(heat / matVecUndirected).toFixed(0)}× pass`,
      target: '-',
    },
  ];
}
