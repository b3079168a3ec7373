/**
 * @module engine/tool-graph/graph-snapshot
 * One view of a scope's learned tool graph at one instant, built once and read by `status`, the
 * dashboard, tool search and DAG suggestion, so each shows the numbers the others rank with.
 * THE graph is the one search ranks over: confirmed edges with confidence ≥ 0.3, no self-loops, no
 * `alternative` edges (a substitute is not a step), its nodes the ends of those edges.
 */
import { isDeepStrictEqual } from 'node:util';
import { adaptiveWeights } from '../../core/dag/dag-confidence.js';
import { graphDensity, type GraphDensity } from '../../core/graph/graph-density.js';
import {
  buildGraphIndex,
  patchGraphIndex,
  type GraphEdgeChange,
  type GraphIndex,
} from '../../core/graph/graph-index.js';
import { heatTotal } from '../../core/graph/heat-diffusion.js';
import { pageRank as pageRankOf } from '../../core/graph/pagerank.js';
import { edgeConfidence, EDGE_READ_OPTIONS, passesThreshold } from '../../core/graph/edge-confidence.js';
import { isConfirmed } from '../../core/graph/edge-promotion.js';
import { compareCodePoints } from '../../core/rank-order.js';
import { overlayMap } from './overlay-map.js';
import type { EdgeRecord, ExecutionStore, ToolGraphStore, ToolRecord } from '../../store/types.js';

/**
 * A stored edge as the snapshot keeps it: its counters, `firstSeen` / `lastSeen` in epoch ms (formatted only where a
 * surface shows an edge), and its confidence at the snapshot's `now` (0 for an edge known only from failures).
 */
export type SnapshotEdge = EdgeRecord & { confidence: number };

export interface GraphSnapshot {
  /** The instant every confidence was computed at (epoch ms). */
  now: number;
  /** The catalogue. */
  tools: ToolRecord[];
  /** Every stored edge with its confidence at `now`, in the store's order (from, to, type). */
  edges: SnapshotEdge[];
  /** Edges with confidence ≥ 0.3 that are no self-loop, `alternative` ones included. */
  confidentEdges: SnapshotEdge[];
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
  /** The catalogue's ids and deprecated ids when known without reading `tools` (a decoded snapshot's). */
  catalogue?: { ids: readonly string[]; deprecated: readonly string[] };
  /**
   * The confident edges whose `from` is one of `tools`, in their order (a decoded snapshot's: only those are made;
   * otherwise {@link confidentFrom} filters `confidentEdges`).
   */
  confidentFrom?: (tools: ReadonlySet<string>) => SnapshotEdge[];
}

/** An edge's confidence at `now` as every surface reads it (whole idle days; 0 until a run confirms it). */
export function confidenceAt(edge: EdgeRecord, now: number): number {
  if (!isConfirmed(edge)) return 0;
  return edgeConfidence({ type: edge.type, source: edge.source, lastSeen: edge.lastSeen, now }, EDGE_READ_OPTIONS)
    .value;
}

const DAY = 86_400_000;

/** Whole idle days at `now`, as {@link confidenceAt} counts them (EDGE_READ_OPTIONS: steps of one day). */
const idleStep = (lastSeen: number, now: number): number => Math.floor(Math.max(0, (now - lastSeen) / DAY));

/** The first instant after `at` when the whole idle days of one of `edges` move, so its confidence may (ms). */
function nextStep(edges: readonly EdgeRecord[], at: number): number {
  let next = Number.POSITIVE_INFINITY;
  for (const e of edges) {
    if (e.lastSeen === null) continue;
    const t = e.lastSeen + (idleStep(e.lastSeen, at) + 1) * DAY;
    if (t < next) next = t;
  }
  return next;
}

/** Per snapshot, {@link nextStep} of its edges at its `now`: until then each keeps its confidence. */
const nextStepOf = new WeakMap<GraphSnapshot, number>();

/** Whether every edge of `snapshot` has the confidence at `now` it has at the snapshot's (a millisecond to spare). */
function steadyAt(snapshot: GraphSnapshot, now: number): boolean {
  if (now < snapshot.now) return false;
  let next = nextStepOf.get(snapshot);
  if (next === undefined) {
    next = nextStep(snapshot.edges, snapshot.now);
    nextStepOf.set(snapshot, next);
  }
  return now <= next - 1;
}

/**
 * The edge with its confidence at `now`: the same object when that has not moved. An edge kept from a snapshot read
 * at `lastNow` keeps its confidence while its whole idle days are the same (nothing else in it moves with time).
 */
function atNow(edge: EdgeRecord | SnapshotEdge, now: number, lastNow: number): SnapshotEdge {
  const kept = (edge as Partial<SnapshotEdge>).confidence;
  if (
    kept !== undefined &&
    (edge.lastSeen === null || idleStep(edge.lastSeen, now) === idleStep(edge.lastSeen, lastNow))
  )
    return edge as SnapshotEdge;
  const confidence = confidenceAt(edge, now);
  if (kept === confidence) return edge as SnapshotEdge;
  const { from, to, type, source, count, successes, failures, firstSeen, lastSeen } = edge;
  return { from, to, type, source, count, successes, failures, firstSeen, lastSeen, confidence };
}

/**
 * What a snapshot built after `snapshot` can keep of it: the tools the change log names since it was built, `changed`
 * (written: every edge a recorded or appended call folds ends at the tool of a new call, whose counter moved, so
 * the edges into these are read again) and `removed` (deleted: their edges out and in are read again).
 */
export interface SnapshotPatch {
  snapshot: GraphSnapshot;
  changed: readonly string[];
  removed: readonly string[];
}

/**
 * Reads the catalogue, the edges and the call counts of `scope` and builds its snapshot at `now`; `tools`, when
 * given, is the catalogue as it is now (a previous snapshot's, no tool written since), not read again; `patch`,
 * when given, keeps the previous snapshot's edges but those of the tools it names (read again), and its graph,
 * PageRank and heat when THE graph came out the same. The result equals a build from every edge.
 */
export async function buildGraphSnapshot(input: {
  store: ToolGraphStore & ExecutionStore;
  scope: string;
  now: number;
  tools?: ToolRecord[];
  patch?: SnapshotPatch;
}): Promise<GraphSnapshot> {
  const { store, scope, now, patch } = input;
  const lastNow = patch?.snapshot.now ?? now;
  const [tools, read, calls] = await Promise.all([
    input.tools ?? store.listTools(scope),
    patch === undefined
      ? store.listEdges(scope).then((edges) => ({ edges }))
      : patchedEdges(store, scope, patch, (e) => atNow(e, now, lastNow)),
    patch === undefined ? store.calledTools(scope) : patchedCalls(store, scope, patch),
  ]);
  const grown = 'grown' in read ? read.grown : undefined;
  // After a few calls within the day, the kept edges keep their confidence: only those read again are new
  // (issue 20: no pass over every edge for their confidence, THE graph's edges or the density's vertices).
  if (patch !== undefined && grown !== undefined && steadyAt(patch.snapshot, now)) {
    const last = patch.snapshot;
    const snapshot = assembleSnapshot({
      now,
      tools,
      edges: read.edges as SnapshotEdge[],
      calls,
      last,
      grown: { edges: grown, tools: patch.changed },
      confidentEdges: putIn(last.confidentEdges, grown, isConfident),
    });
    nextStepOf.set(snapshot, Math.min(nextStepOf.get(last) as number, nextStep(grown, now)));
    return snapshot;
  }
  const edges = read.edges.map((e) => atNow(e, now, lastNow));
  return assembleSnapshot({
    now,
    tools,
    edges,
    calls,
    ...(patch === undefined ? {} : { last: patch.snapshot }),
    ...(patch !== undefined && grown !== undefined ? { grown: { edges: grown, tools: patch.changed } } : {}),
  });
}

/** An edge of THE graph's candidates: confidence ≥ 0.3 and no self-loop (`alternative` ones too). */
const isConfident = (e: SnapshotEdge): boolean => passesThreshold(e.confidence) && e.from !== e.to;

/**
 * `kept` (in the store's order) with each of `fresh` (in the same order) in place of the edge of its key, or where it
 * sorts, when `keep` accepts it (left out otherwise, with the edge it replaces).
 */
function putIn(
  kept: readonly SnapshotEdge[],
  fresh: readonly SnapshotEdge[],
  keep: (e: SnapshotEdge) => boolean,
): SnapshotEdge[] {
  // The kept runs between the fresh edges copied as slices (native copies: a write puts in an edge or two).
  const parts: SnapshotEdge[][] = [];
  let i = 0;
  for (const f of fresh) {
    let lo = i;
    let hi = kept.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (edgeOrder(kept[mid] as SnapshotEdge, f) < 0) lo = mid + 1;
      else hi = mid;
    }
    parts.push(kept.slice(i, lo));
    i = lo;
    if (i < kept.length && edgeOrder(kept[i] as SnapshotEdge, f) === 0) i += 1;
    if (keep(f)) parts.push([f]);
  }
  parts.push(kept.slice(i));
  return ([] as SnapshotEdge[]).concat(...parts);
}

/**
 * The vertices of SPEC §5's density of a snapshot (tools called or on any edge), for the next one: handed over to
 * it (a snapshot patched from the same one again counts its vertices anew).
 */
const verticesOf = new WeakMap<GraphSnapshot, Set<string>>();

/**
 * SPEC §5 density as core/graph/graph-density counts it: |V| the tools called or on any edge (the last snapshot's,
 * when given, with the ends of the edges read again and the tools whose calls were read again added: no edge or call
 * ever goes but with its tool), |E| the distinct (from, to) pairs of the confident edges, which the store's order
 * puts side by side.
 */
function densityOf(
  edges: readonly SnapshotEdge[],
  confidentEdges: readonly SnapshotEdge[],
  calls: ReadonlyMap<string, number>,
  last: Set<string> | undefined,
  grown: { edges: readonly EdgeRecord[]; tools: readonly string[] } | undefined,
  before?: GraphSnapshot,
): { density: GraphDensity; vertices: Set<string> } {
  const vertices = last ?? new Set<string>(calls.keys());
  if (last !== undefined) for (const id of grown?.tools ?? []) if (calls.has(id)) vertices.add(id);
  for (const e of last === undefined ? edges : (grown?.edges ?? [])) {
    vertices.add(e.from);
    vertices.add(e.to);
  }
  let pairs = 0;
  if (before !== undefined && grown !== undefined) {
    // The confident edges are `before`'s but at the keys of those read again: its pairs, with theirs counted again.
    pairs = before.density.edges;
    const seen = new Set<string>();
    for (const { from, to } of grown.edges) {
      const key = `${from}\0${to}`;
      if (seen.has(key)) continue;
      seen.add(key);
      pairs += Number(hasPair(confidentEdges, from, to)) - Number(hasPair(before.confidentEdges, from, to));
    }
  } else {
    let from: string | undefined;
    let to: string | undefined;
    for (const e of confidentEdges) {
      if (e.from !== from || e.to !== to) pairs += 1;
      from = e.from;
      to = e.to;
    }
  }
  return { density: { density: graphDensity(vertices.size, pairs), vertices: vertices.size, edges: pairs }, vertices };
}

/**
 * A snapshot from its edges (with their confidence at `now`) and call counts: THE graph, PageRank, density and tier.
 * `last`'s graph, PageRank and heat are kept when the confident edges make the same graph; `pageRank`, when given,
 * is PageRank over these edges as computed before (a decoded snapshot), not run again.
 */
export function assembleSnapshot(input: {
  now: number;
  tools: ToolRecord[];
  edges: SnapshotEdge[];
  calls: ReadonlyMap<string, number>;
  last?: GraphSnapshot;
  /**
   * `edges` are `last`'s with these put in (in place of the same key, or added): none went; `calls` are `last`'s
   * but those of `tools`, read again.
   */
  grown?: { edges: readonly EdgeRecord[]; tools: readonly string[] };
  /** The confident edges among `edges`, when known. */
  confidentEdges?: SnapshotEdge[];
  pageRank?: ReadonlyMap<string, number>;
  /** The density of these edges and calls, when known (a decoded snapshot's: no pass over every edge). */
  density?: GraphDensity;
  /** The first instant the whole idle days of one of `edges` move ({@link nextStep}), when known. */
  steadyUntil?: number;
}): GraphSnapshot {
  const { now, tools, edges, calls, last } = input;
  const confidentEdges = input.confidentEdges ?? edges.filter(isConfident);
  const lastVertices = last === undefined || input.grown === undefined ? undefined : verticesOf.get(last);
  if (last !== undefined) verticesOf.delete(last);
  // Nothing read again and every kept edge as rated before (a process over the kept snapshot): the same density.
  const same =
    last !== undefined &&
    input.confidentEdges !== undefined &&
    input.grown !== undefined &&
    input.grown.edges.length === 0 &&
    input.grown.tools.length === 0;
  const { density, vertices } = same
    ? { density: last.density, vertices: lastVertices }
    : input.density !== undefined
      ? { density: input.density, vertices: undefined }
      : densityOf(
          edges,
          confidentEdges,
          calls,
          lastVertices,
          input.grown,
          // Every kept edge as rated before (the confident ones `last`'s but at the keys read again): pairs counted
          // at those keys only.
          input.confidentEdges !== undefined && lastVertices !== undefined ? last : undefined,
        );
  const tier = adaptiveWeights(density.density).tier as GraphSnapshot['tier'];
  const snapshot = assembled({
    now,
    tools,
    edges,
    confidentEdges,
    calls,
    density,
    tier,
    last,
    pageRank: input.pageRank,
    // Every kept edge as rated before: THE graph moved at the pairs of the edges read again only.
    ...(input.confidentEdges !== undefined && input.grown !== undefined ? { changed: input.grown.edges } : {}),
  });
  if (vertices !== undefined) verticesOf.set(snapshot, vertices);
  if (input.steadyUntil !== undefined) nextStepOf.set(snapshot, input.steadyUntil);
  return snapshot;
}

/**
 * `snapshot` as a build at `now` gives it when nothing was written since it was built, if no edge's whole idle days
 * moved by then (every confidence the same): the same parts, `now` moved; undefined otherwise. What it would build
 * when first read (the catalogue and edges of a decoded snapshot, THE graph's indexes) stays so.
 */
export function snapshotAt(snapshot: GraphSnapshot, now: number): GraphSnapshot | undefined {
  if (now === snapshot.now) return snapshot;
  if (!steadyAt(snapshot, now)) return undefined;
  const parts = Object.getOwnPropertyDescriptors(snapshot);
  const moved = Object.defineProperties({}, { ...parts, now: { ...parts.now, value: now } }) as GraphSnapshot;
  nextStepOf.set(moved, nextStepOf.get(snapshot) as number);
  // Handed over, as a patch hands them (the next patch adds to them).
  const vertices = verticesOf.get(snapshot);
  verticesOf.delete(snapshot);
  if (vertices !== undefined) verticesOf.set(moved, vertices);
  // The same graph indexes (its getters fill them), for the next patch to start from.
  const held = heldGraphs.get(snapshot);
  if (held !== undefined) heldGraphs.set(moved, held);
  return moved;
}

/**
 * Makes now what the first patch of `snapshot` would make first (issue 20: a server's warm-up, so that the query
 * after its first graph write does not): its edges (a decoded snapshot makes them when first read), its density's
 * vertex set (tools called or on any edge), and its PageRank by node of THE graph's directed index when held.
 */
export function preparePatch(snapshot: GraphSnapshot): void {
  const { edges } = snapshot;
  if (!verticesOf.has(snapshot)) {
    const vertices = new Set<string>(snapshot.calls.keys());
    for (const e of edges) {
      vertices.add(e.from);
      vertices.add(e.to);
    }
    // Handed to the next patch only as the density counted it.
    if (vertices.size === snapshot.density.vertices) verticesOf.set(snapshot, vertices);
  }
  const held = heldGraphs.get(snapshot);
  if (held?.directed !== undefined && held.rank === undefined) {
    const { ids } = held.directed;
    const rank = new Float64Array(ids.length);
    for (let i = 0; i < ids.length; i += 1) rank[i] = snapshot.pageRank.get(ids[i] as string) ?? 0;
    held.rank = rank;
  }
}

/**
 * Gives `snapshot` THE graph's indexes as made before (a decoded snapshot's, issue 20), to read instead of building
 * them; an index it built already stays.
 */
export function holdGraphIndexes(
  snapshot: GraphSnapshot,
  graphs: { directed: GraphIndex | undefined; undirected: GraphIndex | undefined },
): void {
  const held = heldGraphs.get(snapshot);
  if (held === undefined) return;
  if (held.directed === undefined && graphs.directed !== undefined) held.directed = graphs.directed;
  if (held.undirected === undefined && graphs.undirected !== undefined) held.undirected = graphs.undirected;
}

/** The snapshot of {@link assembleSnapshot} from its parts: `last`'s graph, PageRank and heat if THE graph is its. */
function assembled(input: {
  now: number;
  tools: ToolRecord[];
  edges: SnapshotEdge[];
  confidentEdges: SnapshotEdge[];
  calls: ReadonlyMap<string, number>;
  density: GraphDensity;
  tier: GraphSnapshot['tier'];
  last: GraphSnapshot | undefined;
  pageRank: ReadonlyMap<string, number> | undefined;
  /** When every confident edge but these (read again) is `last`'s: THE graph can only have moved at their pairs. */
  changed?: readonly EdgeRecord[];
}): GraphSnapshot {
  const { now, tools, edges, confidentEdges, calls, density, tier, last } = input;
  if (last !== undefined && sameGraph(last.confidentEdges, confidentEdges)) {
    const { pageRank, maxPageRank, selfSpread } = last;
    // The last one's graph indexes, still built when first read if they were not yet (a decoded snapshot's), read
    // from what it holds: a getter reading through `last` kept it alive, and so every snapshot since THE graph last
    // moved, each with its edges (issue 20: ~0.5 MB a recorded call at 100k, for the life of a gateway).
    const held = heldGraphs.get(last);
    const make = held?.make ?? readThrough(last);
    const same = Object.defineProperties(
      { now, tools, edges, confidentEdges, pageRank, maxPageRank, calls, density, tier, selfSpread },
      {
        directed: { get: () => make.directed(), enumerable: true },
        undirected: { get: () => make.undirected(), enumerable: true },
      },
    ) as GraphSnapshot;
    if (held !== undefined) heldGraphs.set(same, held);
    return same;
  }
  const graphEdges = () =>
    confidentEdges
      .filter((e) => e.type !== 'alternative')
      .map((e) => ({ from: e.from, to: e.to, weight: e.confidence }));
  // After a write that changed an edge or two, `last`'s indexes (when built) are patched at their pairs (issue 20).
  // The closures below outlive this call (the snapshot's getters and selfSpread, `held.make`): they never name
  // `last`, and let go of `before` once both indexes are built, so that no snapshot keeps an earlier one alive.
  let before = last === undefined || input.changed === undefined ? undefined : heldGraphs.get(last);
  const moved = before === undefined ? undefined : pairsMoved(confidentEdges, input.changed as EdgeRecord[]);
  let lastRanks = before === undefined ? undefined : last?.pageRank;
  // Built when first read: a decoded snapshot (PageRank given) is mostly patched into another before any is.
  const held: HeldGraph = {};
  const done = (): void => {
    if (held.directed === undefined || held.undirected === undefined) return;
    before = undefined;
    lastRanks = undefined;
  };
  const directedOf = (): GraphIndex => {
    held.directed ??=
      (before?.directed === undefined ? undefined : patchGraphIndex(before.directed, moved?.directed ?? [])) ??
      buildGraphIndex(graphEdges());
    done();
    return held.directed;
  };
  const undirectedOf = (): GraphIndex => {
    held.undirected ??=
      (before?.undirected === undefined ? undefined : patchGraphIndex(before.undirected, moved?.undirected ?? [])) ??
      buildGraphIndex(graphEdges(), { undirected: true });
    done();
    return held.undirected;
  };
  held.make = { directed: directedOf, undirected: undirectedOf };
  // PageRank after such a write starts from the last one's, iterated to the same tolerance (fewer iterations).
  const start = (graph: GraphIndex): ArrayLike<number> | undefined => {
    const ranks = lastRanks;
    if (before === undefined || ranks === undefined) return undefined;
    if (before.rank !== undefined && before.directed?.ids === graph.ids) return before.rank;
    return graph.ids.map((id) => ranks.get(id) ?? 1 / graph.ids.length);
  };
  const ranked = (graph: GraphIndex): Map<string, number> => {
    const from = start(graph);
    const scores = pageRankOf(graph, from === undefined ? {} : { start: from });
    held.rank = scores;
    const out = new Map<string, number>();
    for (let i = 0; i < scores.length; i += 1) out.set(graph.ids[i] as string, scores[i] as number);
    return out;
  };
  const pageRank = input.pageRank ?? (directedOf().ids.length === 0 ? new Map<string, number>() : ranked(directedOf()));
  const spread = new Map<string, number>();
  const selfSpread = (tool: string): number => {
    let h = spread.get(tool);
    if (h === undefined) {
      const graph = undirectedOf();
      if (!graph.indexOf.has(tool)) h = 0;
      else {
        // The heat's sum in index order, as a loop over heatDiffusion's would sum it (issue 20: in WebAssembly).
        const total = heatTotal(graph, [tool]);
        h = total <= 0 ? 0 : 1 - 1 / total;
      }
      spread.set(tool, h);
    }
    return h;
  };
  let maxPageRank = 0;
  for (const v of pageRank.values()) if (v > maxPageRank) maxPageRank = v;
  const snapshot = { now, tools, edges, confidentEdges, pageRank, maxPageRank, calls, density, tier, selfSpread };
  const out =
    input.pageRank === undefined
      ? { ...snapshot, directed: directedOf(), undirected: undirectedOf() }
      : (Object.defineProperties(snapshot, {
          directed: { get: directedOf, enumerable: true },
          undirected: { get: undirectedOf, enumerable: true },
        }) as GraphSnapshot);
  heldGraphs.set(out, held);
  return out;
}

/** Where the edges of the pair `from → to` start in edges in the store's order (or would). */
function pairStart(edges: readonly EdgeRecord[], from: string, to: string): number {
  let lo = 0;
  let hi = edges.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const e = edges[mid] as EdgeRecord;
    if ((compareCodePoints(e.from, from) || compareCodePoints(e.to, to)) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Whether edges in the store's order hold one of the pair `from → to`. */
function hasPair(edges: readonly EdgeRecord[], from: string, to: string): boolean {
  const e = edges[pairStart(edges, from, to)];
  return e !== undefined && e.from === from && e.to === to;
}

/** THE graph's indexes a snapshot built (or shares with the one it kept them from), for the next to patch. */
interface HeldGraph {
  directed?: GraphIndex;
  undirected?: GraphIndex;
  /** PageRank over `directed`, by node. */
  rank?: Float64Array;
  /**
   * What builds (or patches) them when first read: the snapshots that share them read them from here, not through
   * the one before them, so that a snapshot keeps no earlier one alive (issue 20).
   */
  make?: { directed: () => GraphIndex; undirected: () => GraphIndex };
}
const heldGraphs = new WeakMap<GraphSnapshot, HeldGraph>();

/** THE graph's indexes read through `snapshot` (one that holds none): a function apart, so that only these keep it. */
const readThrough = (snapshot: GraphSnapshot): NonNullable<HeldGraph['make']> => ({
  directed: () => snapshot.directed,
  undirected: () => snapshot.undirected,
});

/**
 * The weight now of each pair of THE graph that `changed` edges name, as a build merges it (the max confidence of
 * the pair's confident edges but `alternative` ones; undefined when none is left): each direction for the directed
 * index, each unordered pair both ways for the undirected one.
 */
function pairsMoved(
  confidentEdges: readonly SnapshotEdge[],
  changed: readonly EdgeRecord[],
): { directed: GraphEdgeChange[]; undirected: GraphEdgeChange[] } {
  const weightOf = (from: string, to: string): number | undefined => {
    let weight: number | undefined;
    for (let i = pairStart(confidentEdges, from, to); i < confidentEdges.length; i += 1) {
      const e = confidentEdges[i] as SnapshotEdge;
      if (e.from !== from || e.to !== to) break;
      if (e.type !== 'alternative' && (weight === undefined || e.confidence > weight)) weight = e.confidence;
    }
    return weight;
  };
  const directed: GraphEdgeChange[] = [];
  const undirected: GraphEdgeChange[] = [];
  const seen = new Set<string>();
  for (const { from, to } of changed) {
    if (from === to) continue;
    const [a, b] = from < to ? [from, to] : [to, from];
    const key = `${a}\0${b}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const ab = weightOf(a, b);
    const ba = weightOf(b, a);
    directed.push({ from: a, to: b, weight: ab }, { from: b, to: a, weight: ba });
    const both = ab === undefined ? ba : ba === undefined ? ab : Math.max(ab, ba);
    undirected.push({ from: a, to: b, weight: both }, { from: b, to: a, weight: both });
  }
  return { directed, undirected };
}

/** Whether two lists of confident edges make THE same graph (the same edges, types and weights, in order). */
function sameGraph(a: readonly SnapshotEdge[], b: readonly SnapshotEdge[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i += 1) {
    const x = a[i] as SnapshotEdge;
    const y = b[i] as SnapshotEdge;
    if (x === y) continue;
    if (x.from !== y.from || x.to !== y.to || x.type !== y.type || x.confidence !== y.confidence) return false;
  }
  return true;
}

/**
 * The scope's edges in the store's order (from, to, type as code points): the kept snapshot's, those into the changed
 * tools as the store lists them now (each put in its place: no edge is ever deleted but with a tool), and those of a
 * removed tool replaced by what the store lists for it now.
 */
async function patchedEdges(
  store: ToolGraphStore,
  scope: string,
  patch: SnapshotPatch,
  at: (edge: EdgeRecord) => SnapshotEdge,
): Promise<{ edges: readonly (EdgeRecord | SnapshotEdge)[]; grown?: readonly SnapshotEdge[] }> {
  const kept = patch.snapshot.edges;
  if (patch.changed.length === 0 && patch.removed.length === 0) return { edges: kept, grown: [] };
  const removed = new Set(patch.removed);
  const reads = [...new Set(patch.changed)].filter((t) => !removed.has(t)).map((to) => store.listEdges(scope, { to }));
  for (const tool of removed) reads.push(store.listEdges(scope, { from: tool }), store.listEdges(scope, { to: tool }));
  const byKey = new Map<string, EdgeRecord>();
  for (const list of await Promise.all(reads)) for (const e of list) byKey.set(`${e.type}\0${e.from}\0${e.to}`, e);
  const fresh = [...byKey.values()].sort(edgeOrder).map(at);
  if (removed.size > 0) {
    const out: (EdgeRecord | SnapshotEdge)[] = [];
    let f = 0;
    for (const e of kept) {
      if (removed.has(e.from) || removed.has(e.to)) continue;
      const at = byKey.get(`${e.type}\0${e.from}\0${e.to}`);
      if (at !== undefined) continue;
      while (f < fresh.length && edgeOrder(fresh[f] as EdgeRecord, e) < 0) out.push(fresh[f++] as EdgeRecord);
      out.push(e);
    }
    while (f < fresh.length) out.push(fresh[f++] as EdgeRecord);
    return { edges: out };
  }
  // Each edge read replaces the kept one with its key (found by bisection), or is inserted where it sorts; one read
  // as it is kept (an edge into a changed tool that no call folded: most of a busy tool's) stays as kept, and is
  // not among the grown ones.
  const placed: { at: number; edge: SnapshotEdge; replaces: boolean }[] = [];
  let lo = 0;
  for (const e of fresh) {
    let hi = kept.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (edgeOrder(kept[mid] as SnapshotEdge, e) < 0) lo = mid + 1;
      else hi = mid;
    }
    const same = kept[lo];
    const replaces = same !== undefined && edgeOrder(same, e) === 0;
    if (!(replaces && sameEdge(same, e))) placed.push({ at: lo, edge: e, replaces });
  }
  const grown = placed.map((p) => p.edge);
  if (placed.every((p) => p.replaces)) {
    const out = kept.slice() as (EdgeRecord | SnapshotEdge)[];
    for (const { at, edge } of placed) out[at] = edge;
    return { edges: out, grown };
  }
  // One copy, with the edges inserted (the kept runs between them copied as slices: native copies).
  const parts: (EdgeRecord | SnapshotEdge)[][] = [];
  let i = 0;
  for (const { at, edge, replaces } of placed) {
    parts.push(kept.slice(i, at), [edge]);
    i = replaces ? at + 1 : at;
  }
  parts.push(kept.slice(i));
  const merged = ([] as (EdgeRecord | SnapshotEdge)[]).concat(...parts);
  return { edges: merged, grown };
}

/** Whether a kept edge and the same edge read again (same key) hold the same counters, instants and confidence. */
function sameEdge(kept: SnapshotEdge, read: SnapshotEdge): boolean {
  return (
    kept.source === read.source &&
    kept.count === read.count &&
    kept.successes === read.successes &&
    kept.failures === read.failures &&
    kept.firstSeen === read.firstSeen &&
    kept.lastSeen === read.lastSeen &&
    kept.confidence === read.confidence
  );
}

/** The call counts of the kept snapshot with those of the tools named read again (in another order: a map by id). */
async function patchedCalls(
  store: ExecutionStore,
  scope: string,
  patch: SnapshotPatch,
): Promise<ReadonlyMap<string, number>> {
  const kept = patch.snapshot.calls;
  if (patch.changed.length === 0 && patch.removed.length === 0) return kept;
  const read = await store.calledTools(scope, patch.changed);
  const changes = new Map<string, number | undefined>();
  for (const id of patch.removed) changes.set(id, undefined);
  for (const id of patch.changed) changes.set(id, read.get(id));
  return overlayMap(kept, changes);
}

/** The store's order of edges: from, to, type. */
const edgeOrder = (x: EdgeRecord, y: EdgeRecord): number =>
  compareCodePoints(x.from, y.from) || compareCodePoints(x.to, y.to) || compareCodePoints(x.type, y.type);

/** Ids in the store's order (code points, as UTF-8 bytes compare: SQLite BINARY, PostgreSQL "C"). */
const byCodePoints = compareCodePoints;

/**
 * The catalogue as the store lists it now (by id), from a catalogue read before and what was written since:
 * `changed` the tools written (as they are now), `removed` the ids deleted. The same list when nothing changed, as
 * after recorded calls (they move a tool's call counter, which its record does not hold): what is derived from a
 * catalogue is kept with it.
 */
export function patchCatalogue(
  tools: readonly ToolRecord[],
  changed: readonly ToolRecord[],
  removed: readonly string[],
): ToolRecord[] {
  if (changed.length === 0 && removed.length === 0) return tools as ToolRecord[];
  // Each id found by bisection (a write names a few tools: no pass over the catalogue).
  const out = tools.slice();
  const place = (id: string): number => {
    let lo = 0;
    let hi = out.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (byCodePoints((out[mid] as ToolRecord).id, id) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  let moved = false;
  const gone = new Set(removed);
  for (const id of gone) {
    const at = place(id);
    if (out[at]?.id !== id) continue;
    out.splice(at, 1);
    moved = true;
  }
  for (const t of changed) {
    if (gone.has(t.id)) continue;
    const at = place(t.id);
    if (out[at]?.id !== t.id) out.splice(at, 0, t);
    else if (!isDeepStrictEqual(out[at], t)) out[at] = t;
    else continue;
    moved = true;
  }
  return moved ? out : (tools as ToolRecord[]);
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
    .sort((a, b) => b[1] - a[1] || compareCodePoints(a[0], b[0]))
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
