/**
 * @module engine/tool-graph/graph-snapshot
 * One view of a scope's learned tool graph at one instant, built once and read by `status`, the
 * dashboard, tool search and DAG suggestion, so each shows the numbers the others rank with.
 * THE graph is the one search ranks over: confirmed edges with confidence ≥ 0.3, no self-loops, no
 * `alternative` edges (a substitute is not a step), its nodes the ends of those edges.
 */
import { adaptiveWeights } from '../../core/dag/dag-confidence.js';
import { passesThreshold } from '../../core/graph/edge-confidence.js';
import { densityOfEdges, type GraphDensity } from '../../core/graph/graph-density.js';
import { buildGraphIndex, type GraphIndex } from '../../core/graph/graph-index.js';
import { heatDiffusion } from '../../core/graph/heat-diffusion.js';
import { pageRankById } from '../../core/graph/pagerank.js';
import type { ExecutionStore, ToolGraphStore, ToolRecord } from '../../store/types.js';
import { viewEdge, type EdgeView } from './tool-graph.js';

export interface GraphSnapshot {
  /** The instant every confidence was computed at (epoch ms). */
  now: number;
  /** The catalogue. */
  tools: ToolRecord[];
  /** Every stored edge with its confidence at `now`, in the store's order. */
  edges: EdgeView[];
  /** Edges with confidence ≥ 0.3 that are no self-loop, `alternative` ones included. */
  confidentEdges: EdgeView[];
  /** THE graph (confident, no alternative), directed for paths and PageRank. */
  directed: GraphIndex;
  /** The same graph, one weight per unordered pair, for heat diffusion. */
  undirected: GraphIndex;
  /** Weighted PageRank over `directed`; a tool off THE graph has none (read it as 0). */
  pageRank: ReadonlyMap<string, number>;
  maxPageRank: number;
  /** Calls per tool. */
  calls: ReadonlyMap<string, number>;
  /** SPEC §5 density: |V| tools called or on any edge, |E| confident distinct pairs. */
  density: GraphDensity;
  /** The density tier that sets the DAG weights (seed 001). */
  tier: 'cold-start' | 'growing' | 'mature';
  /** Heat a tool spreads to its neighbourhood (1 − its own share), for α without context. Memoised. */
  selfSpread: (tool: string) => number;
}

/**
 * Reads the catalogue, the edges and the call counts of `scope` and builds its snapshot at `now`; `tools`, when
 * given, is the catalogue as it is now (a previous snapshot's, no tool written since), not read again.
 */
export async function buildGraphSnapshot(input: {
  store: ToolGraphStore & ExecutionStore;
  scope: string;
  now: number;
  tools?: ToolRecord[];
}): Promise<GraphSnapshot> {
  const { store, scope, now } = input;
  const [tools, stored, calls] = await Promise.all([
    input.tools ?? store.listTools(scope),
    store.listEdges(scope),
    store.calledTools(scope),
  ]);
  const edges = stored.map((e) => viewEdge(e, now));
  const confidentEdges = edges.filter((e) => passesThreshold(e.confidence) && e.from !== e.to);
  const graphEdges = confidentEdges
    .filter((e) => e.type !== 'alternative')
    .map((e) => ({ from: e.from, to: e.to, weight: e.confidence }));
  const directed = buildGraphIndex(graphEdges);
  const undirected = buildGraphIndex(graphEdges, { undirected: true });
  const pageRank = directed.ids.length === 0 ? new Map<string, number>() : pageRankById(directed);
  const density = densityOfEdges(edges, calls.keys());
  const spread = new Map<string, number>();
  const selfSpread = (tool: string): number => {
    let h = spread.get(tool);
    if (h === undefined) {
      if (!undirected.indexOf.has(tool)) h = 0;
      else {
        const heat = heatDiffusion(undirected, [tool]);
        const total = heat.reduce((s, v) => s + v, 0);
        h = total <= 0 ? 0 : 1 - 1 / total;
      }
      spread.set(tool, h);
    }
    return h;
  };
  return {
    now,
    tools,
    edges,
    confidentEdges,
    directed,
    undirected,
    pageRank,
    maxPageRank: Math.max(0, ...pageRank.values()),
    calls,
    density,
    tier: adaptiveWeights(density.density).tier as GraphSnapshot['tier'],
    selfSpread,
  };
}

/** Ids in the store's order (code points, as UTF-8 bytes compare: SQLite BINARY, PostgreSQL "C"). */
const byCodePoints = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b));

/**
 * The catalogue as the store lists it now (by id), from a catalogue read before and what was written since:
 * `changed` the tools written (as they are now), `removed` the ids deleted. The same list when nothing changed.
 */
export function patchCatalogue(
  tools: readonly ToolRecord[],
  changed: readonly ToolRecord[],
  removed: readonly string[],
): ToolRecord[] {
  if (changed.length === 0 && removed.length === 0) return tools as ToolRecord[];
  const gone = new Set(removed);
  const now = new Map(changed.map((t) => [t.id, t]));
  const out = tools.filter((t) => !gone.has(t.id)).map((t) => now.get(t.id) ?? t);
  const held = new Set(tools.map((t) => t.id));
  for (const t of changed) {
    if (held.has(t.id) || gone.has(t.id)) continue;
    let lo = 0;
    let hi = out.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (byCodePoints((out[mid] as ToolRecord).id, t.id) < 0) lo = mid + 1;
      else hi = mid;
    }
    out.splice(lo, 0, t);
  }
  return out;
}

export interface GraphStats {
  /** Tools in the catalogue. */
  tools: number;
  /** Tools that have been called at least once. */
  calledTools: number;
  /** Stored edges, of every confidence. */
  edges: number;
  /** |V| and |E| of SPEC §5: tools called or with an edge; distinct pairs with confidence ≥ 0.3. */
  vertices: number;
  confidentPairs: number;
  density: number;
  /** The density tier that sets the DAG weights (seed 001). */
  tier: 'cold-start' | 'growing' | 'mature';
  /** The most central tools by the snapshot's PageRank (the one tool search ranks with). */
  central: { tool: string; pageRank: number; calls: number }[];
}

/** The statistics `status` shows, read off a snapshot. */
export function graphStats(graph: GraphSnapshot, options: { top?: number } = {}): GraphStats {
  const central = [...graph.pageRank.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, options.top ?? 5)
    .map(([tool, pageRank]) => ({ tool, pageRank, calls: graph.calls.get(tool) ?? 0 }));
  return {
    tools: graph.tools.length,
    calledTools: graph.calls.size,
    edges: graph.edges.length,
    vertices: graph.density.vertices,
    confidentPairs: graph.density.edges,
    density: graph.density.density,
    tier: graph.tier,
    central,
  };
}
