/**
 * @module engine/tool-graph/snapshot-codec
 * A graph snapshot as one blob (issue 20), persisted per scope with the revision it reflects, so that a new process
 * patches it from the change log instead of reading every edge: the catalogue, tool ids and call counts as JSON;
 * every edge's counters, times and confidence, and PageRank, as typed arrays. Decoding gives back the snapshot
 * that was encoded: the same edges (in the store's order), confidences, PageRank, density and tier. A small JSON
 * prefix holds the statistics `status` shows and the instants between which no edge's whole idle days move, so
 * `status` reads them alone (decodeSnapshotStats) instead of decoding the catalogue and every edge.
 */
import { passesThreshold } from '../../core/graph/edge-confidence.js';
import type { GraphDensity } from '../../core/graph/graph-density.js';
import { isDeprecated } from '../../core/search/tool-search.js';
import { EDGE_SOURCES, EDGE_TYPES, type EdgeSource, type EdgeType } from '../../core/types.js';
import type { ToolRecord } from '../../store/types.js';
import type { GraphIndex } from '../../core/graph/graph-index.js';
import {
  assembleSnapshot,
  graphStats,
  holdGraphIndexes,
  type GraphSnapshot,
  type GraphStats,
  type SnapshotEdge,
} from './graph-snapshot.js';

/**
 * 3: the catalogue framed apart and parsed when first read, the density kept; 4: THE graph's indexes kept (issue 20: a
 * one-query process builds none of them).
 */
const VERSION = 4;
/** The most central tools the prefix keeps (status shows 5). */
export const STATS_TOP = 10;
const DAY_MS = 86_400_000;

/** The prefix: the snapshot's statistics, valid for an instant in [from, until) (null: unbounded). */
interface StatsPrefix {
  v: number;
  from: number | null;
  until: number | null;
  stats: GraphStats;
}

interface Header {
  v: number;
  now: number;
  /** The catalogue's ids and its deprecated ones, in its order (the catalogue itself is framed after the header). */
  toolIds: string[];
  deprecated: string[];
  density: GraphDensity;
  /** Every tool id an edge, a call count or PageRank names; the arrays point into it. */
  names: string[];
  /** [name, calls] pairs, in the snapshot's order. */
  calls: number[];
  edges: number;
  ranked: number;
  /** THE graph's indexes, directed then undirected: their nodes and stored edges (the arrays after the kinds). */
  graphs: { nodes: number; edges: number }[];
}

/**
 * The instants around `snapshot.now` between which every edge has the same whole idle days, hence the same confidence
 * (graph-snapshot's idleStep: floor(max(0, now - lastSeen) / day)); null where unbounded.
 */
function stableWindow(snapshot: GraphSnapshot): { from: number | null; until: number | null } {
  let from = Number.NEGATIVE_INFINITY;
  let until = Number.POSITIVE_INFINITY;
  const now = snapshot.now;
  for (const e of snapshot.edges) {
    if (e.lastSeen === null) continue;
    const days = Math.floor(Math.max(0, (now - e.lastSeen) / DAY_MS));
    if (days > 0) from = Math.max(from, e.lastSeen + days * DAY_MS);
    until = Math.min(until, e.lastSeen + (days + 1) * DAY_MS);
  }
  return { from: Number.isFinite(from) ? from : null, until: Number.isFinite(until) ? until : null };
}

/**
 * Bytes from a snapshot's front that hold its statistics prefix in practice (~1 KB at 10k tools): what `status` reads
 * (see {@link statsPrefixEnd} for when they do not).
 */
export const STATS_PREFIX_BYTES = 8192;

/** Where the statistics prefix of a snapshot starting with `front` ends; undefined for fewer than 8 bytes. */
export function statsPrefixEnd(front: Uint8Array): number | undefined {
  if (front.byteLength < 8) return undefined;
  return 8 + new DataView(front.buffer, front.byteOffset, 8).getFloat64(0, true);
}

/** JSON of `value` after its length (8 bytes), padded to 8 bytes. */
function framed(value: unknown): Uint8Array {
  const json = Buffer.from(JSON.stringify(value));
  const out = new Uint8Array(8 + Math.ceil(json.length / 8) * 8);
  new DataView(out.buffer).setFloat64(0, json.length, true);
  out.set(json, 8);
  return out;
}

/** The JSON framed at `offset` of `bytes` and where what follows it starts. */
function unframe(bytes: Uint8Array, offset: number): { value: unknown; end: number } {
  const length = new DataView(bytes.buffer, bytes.byteOffset + offset, 8).getFloat64(0, true);
  const text = Buffer.from(bytes.buffer, bytes.byteOffset + offset + 8, length).toString('utf8');
  return { value: JSON.parse(text), end: offset + 8 + Math.ceil(length / 8) * 8 };
}

/**
 * The statistics `status` shows (graphStats with `top` ≤ {@link STATS_TOP}) as the snapshot in `data` gives them at
 * `now`, read from its prefix alone; undefined when the bytes are of another version or an edge's confidence moved.
 */
export function decodeSnapshotStats(data: Uint8Array, now: number, top = 5): GraphStats | undefined {
  if (data.byteLength < 8 || top > STATS_TOP || (statsPrefixEnd(data) ?? 0) > data.byteLength) return undefined;
  const prefix = unframe(data, 0).value as StatsPrefix;
  if (prefix.v !== VERSION) return undefined;
  if ((prefix.from !== null && now < prefix.from) || (prefix.until !== null && now >= prefix.until)) return undefined;
  return { ...prefix.stats, central: prefix.stats.central.slice(0, top) };
}

/** The snapshot as bytes (see the module header). */
export function encodeSnapshot(snapshot: GraphSnapshot): Uint8Array {
  const names: string[] = [];
  const index = new Map<string, number>();
  const name = (id: string): number => {
    let i = index.get(id);
    if (i === undefined) {
      i = names.length;
      names.push(id);
      index.set(id, i);
    }
    return i;
  };
  const m = snapshot.edges.length;
  const ranked = [...snapshot.pageRank];
  const k = ranked.length;
  const floats = new Float64Array(6 * m + k);
  const ints = new Int32Array(2 * m + k);
  const kinds = new Uint8Array(m);
  const types = new Map(EDGE_TYPES.map((t, i) => [t, i]));
  const sources = new Map(EDGE_SOURCES.map((s, i) => [s, i]));
  for (let i = 0; i < m; i += 1) {
    const e = snapshot.edges[i] as SnapshotEdge;
    floats[i] = e.count;
    floats[m + i] = e.successes;
    floats[2 * m + i] = e.failures;
    floats[3 * m + i] = e.firstSeen ?? Number.NaN;
    floats[4 * m + i] = e.lastSeen ?? Number.NaN;
    floats[5 * m + i] = e.confidence;
    ints[i] = name(e.from);
    ints[m + i] = name(e.to);
    kinds[i] = ((types.get(e.type) as number) << 4) | (sources.get(e.source) as number);
  }
  for (let i = 0; i < k; i += 1) {
    const [id, value] = ranked[i] as [string, number];
    floats[6 * m + i] = value;
    ints[2 * m + i] = name(id);
  }
  const calls: number[] = [];
  for (const [id, n] of snapshot.calls) calls.push(name(id), n);
  const graphs = [snapshot.directed, snapshot.undirected];
  const graphBytes = encodeGraphs(graphs, name);
  const { tools } = snapshot;
  const header: Header = {
    v: VERSION,
    now: snapshot.now,
    toolIds: tools.map((t) => t.id),
    deprecated: tools.filter((t) => isDeprecated(t.description)).map((t) => t.id),
    density: snapshot.density,
    names,
    calls,
    edges: m,
    ranked: k,
    graphs: graphs.map((g) => ({ nodes: g.ids.length, edges: g.targets.length })),
  };
  const prefix: StatsPrefix = {
    v: VERSION,
    ...stableWindow(snapshot),
    stats: graphStats(snapshot, { top: STATS_TOP }),
  };
  const stats = framed(prefix);
  const json = framed(header);
  const catalogue = framed(tools);
  // [prefix: length (8 bytes), JSON padded to 8][header: the same][catalogue: the same][floats][ints][kinds]
  // [padding to 8][the graphs' floats, then ints]
  const jsonEnd = stats.length + json.length + catalogue.length;
  const graphsAt = padded(jsonEnd + floats.byteLength + ints.byteLength + kinds.byteLength);
  const out = new Uint8Array(graphsAt + graphBytes.byteLength);
  out.set(graphBytes, graphsAt);
  out.set(stats, 0);
  out.set(json, stats.length);
  out.set(catalogue, stats.length + json.length);
  out.set(new Uint8Array(floats.buffer), jsonEnd);
  out.set(new Uint8Array(ints.buffer), jsonEnd + floats.byteLength);
  out.set(kinds, jsonEnd + floats.byteLength + ints.byteLength);
  return out;
}

/**
 * The snapshot the bytes hold, or undefined for bytes of another version (or none readable). What a process that
 * answers one query never reads stays as bytes until first read: the catalogue (parsed then) and the edges off THE
 * graph's candidates (made then); the confident edges, PageRank, call counts and density are ready.
 */
export function decodeSnapshot(data: Uint8Array): GraphSnapshot | undefined {
  if (data.byteLength < 8) return undefined;
  // The typed arrays need a start at a multiple of 8: a stored blob read alone in its buffer is read where it lies (no
  // 4.9 MB copy at 100k); one that starts elsewhere in its buffer, or shares it, is copied.
  const alone = data.byteOffset === 0 && data.buffer.byteLength === data.byteLength;
  const bytes = alone ? data : new Uint8Array(data);
  const prefix = unframe(bytes, 0);
  const window = prefix.value as StatsPrefix;
  if (window.v !== VERSION) return undefined;
  const body = unframe(bytes, prefix.end);
  const header = body.value as Header;
  if (header.v !== VERSION) return undefined;
  const { names, edges: m, ranked: k } = header;
  const catalogueAt = body.end;
  const catalogueLength = new DataView(bytes.buffer, catalogueAt, 8).getFloat64(0, true);
  const jsonEnd = catalogueAt + 8 + Math.ceil(catalogueLength / 8) * 8;
  const floats = new Float64Array(bytes.buffer, jsonEnd, 6 * m + k);
  const ints = new Int32Array(bytes.buffer, jsonEnd + floats.byteLength, 2 * m + k);
  const kinds = new Uint8Array(bytes.buffer, jsonEnd + floats.byteLength + ints.byteLength, m);
  const graphsAt = padded(jsonEnd + floats.byteLength + ints.byteLength + kinds.byteLength);
  const [directed, undirected] = decodeGraphs(bytes, graphsAt, header.graphs, names);
  const time = (v: number): number | null => (Number.isNaN(v) ? null : v);
  const made: (SnapshotEdge | undefined)[] = new Array(m);
  const edgeAt = (i: number): SnapshotEdge => {
    let edge = made[i];
    if (edge === undefined) {
      const kind = kinds[i] as number;
      edge = {
        from: names[ints[i] as number] as string,
        to: names[ints[m + i] as number] as string,
        type: EDGE_TYPES[kind >> 4] as EdgeType,
        source: EDGE_SOURCES[kind & 15] as EdgeSource,
        count: floats[i] as number,
        successes: floats[m + i] as number,
        failures: floats[2 * m + i] as number,
        firstSeen: time(floats[3 * m + i] as number),
        lastSeen: time(floats[4 * m + i] as number),
        confidence: floats[5 * m + i] as number,
      };
      made[i] = edge;
    }
    return edge;
  };
  // THE graph's candidates as graph-snapshot picks them (confidence ≥ 0.3, no self-loop: names are distinct).
  let confident: SnapshotEdge[] | undefined;
  const confidentEdges = (): SnapshotEdge[] => {
    if (confident === undefined) {
      confident = [];
      for (let i = 0; i < m; i += 1)
        if (passesThreshold(floats[5 * m + i] as number) && ints[i] !== ints[m + i]) confident.push(edgeAt(i));
    }
    return confident;
  };
  // A DAG reads the confident edges from its few tools: those alone are made (the same objects, in the same order).
  // A few tools are found among the names one by one (issue 20: a Map of every name, ~9k at 100k, was ~3 ms of a
  // one-query process for the ~10 tools a DAG asks about); many, through that Map, made once.
  let nameAt: Map<string, number> | undefined;
  const placeOf = (tool: string, many: boolean): number => {
    if (!many && nameAt === undefined) return names.indexOf(tool);
    nameAt ??= new Map(names.map((name, n) => [name, n]));
    return nameAt.get(tool) ?? -1;
  };
  const confidentFrom = (tools: ReadonlySet<string>): SnapshotEdge[] => {
    if (confident !== undefined) return confident.filter((e) => tools.has(e.from));
    const wanted = new Uint8Array(names.length);
    for (const tool of tools) {
      const n = placeOf(tool, tools.size > FEW_TOOLS);
      if (n >= 0) wanted[n] = 1;
    }
    const out: SnapshotEdge[] = [];
    for (let i = 0; i < m; i += 1)
      if (wanted[ints[i] as number] === 1 && passesThreshold(floats[5 * m + i] as number) && ints[i] !== ints[m + i])
        out.push(edgeAt(i));
    return out;
  };
  // With the density and THE graph's indexes kept, the snapshot is assembled without its confident edges, made when
  // first read (issue 20: ~7.6k objects at 100k that a tool search never reads; a DAG's edge evidence does).
  const kept = Number.isFinite(header.density?.density) && directed !== undefined && undirected !== undefined;
  const pageRank = new Map<string, number>();
  for (let i = 0; i < k; i += 1) pageRank.set(names[ints[2 * m + i] as number] as string, floats[6 * m + i] as number);
  const calls = new Map<string, number>();
  for (let i = 0; i < header.calls.length; i += 2)
    calls.set(names[header.calls[i] as number] as string, header.calls[i + 1] as number);
  const snapshot = assembleSnapshot({
    now: header.now,
    tools: [],
    edges: [],
    calls,
    pageRank,
    confidentEdges: kept ? [] : confidentEdges(),
    // (A density JSON could not hold, were there one, is counted again.)
    ...(Number.isFinite(header.density?.density) ? { density: header.density } : {}),
    // The prefix's window ends where the next edge's idle days move (graph-snapshot's nextStep).
    steadyUntil: window.until ?? Number.POSITIVE_INFINITY,
  });
  holdGraphIndexes(snapshot, { directed, undirected });
  let tools: ToolRecord[] | undefined;
  let edges: SnapshotEdge[] | undefined;
  return Object.defineProperties(snapshot, {
    confidentEdges: { get: confidentEdges, enumerable: true },
    tools: {
      get: () => {
        tools ??= unframe(bytes, catalogueAt).value as ToolRecord[];
        return tools;
      },
      enumerable: true,
    },
    edges: {
      get: () => {
        edges ??= Array.from({ length: m }, (_, i) => edgeAt(i));
        return edges;
      },
      enumerable: true,
    },
    catalogue: { value: { ids: header.toolIds, deprecated: header.deprecated }, enumerable: false },
    confidentFrom: { value: confidentFrom, enumerable: false },
  });
}

const padded = (at: number): number => Math.ceil(at / 8) * 8;

/** The most tools an ask of a decoded snapshot's confident edges finds by a scan of the names each. */
const FEW_TOOLS = 32;

/**
 * THE graph's indexes as bytes: every graph's floats (weights, out-weights), then every graph's ints (nodes as
 * `name`s, offsets, targets).
 */
function encodeGraphs(graphs: readonly GraphIndex[], name: (id: string) => number): Uint8Array {
  const floatCount = graphs.reduce((n, g) => n + g.targets.length + g.ids.length, 0);
  const intCount = graphs.reduce((n, g) => n + 2 * g.ids.length + 1 + g.targets.length, 0);
  const floats = new Float64Array(floatCount);
  const ints = new Int32Array(intCount);
  let f = 0;
  let i = 0;
  for (const g of graphs) {
    floats.set(g.weights, f);
    floats.set(g.outWeight, f + g.targets.length);
    f += g.targets.length + g.ids.length;
    g.ids.forEach((id, node) => {
      ints[i + node] = name(id);
    });
    ints.set(g.offsets, i + g.ids.length);
    ints.set(g.targets, i + 2 * g.ids.length + 1);
    i += 2 * g.ids.length + 1 + g.targets.length;
  }
  const out = new Uint8Array(floats.byteLength + ints.byteLength);
  out.set(new Uint8Array(floats.buffer), 0);
  out.set(new Uint8Array(ints.buffer), floats.byteLength);
  return out;
}

/** The indexes {@link encodeGraphs} wrote at `at` (directed, then undirected), over the bytes as they lie. */
function decodeGraphs(
  bytes: Uint8Array,
  at: number,
  sizes: readonly { nodes: number; edges: number }[],
  names: readonly string[],
): (GraphIndex | undefined)[] {
  const floatCount = sizes.reduce((n, g) => n + g.edges + g.nodes, 0);
  const intCount = sizes.reduce((n, g) => n + 2 * g.nodes + 1 + g.edges, 0);
  const floats = new Float64Array(bytes.buffer, at, floatCount);
  const ints = new Int32Array(bytes.buffer, at + floats.byteLength, intCount);
  let f = 0;
  let i = 0;
  return sizes.map(({ nodes, edges }, g) => {
    // A graph's ids and their positions are made when first read (issue 20): a DAG or a tool search reads those of the
    // undirected graph alone, and each was an array and a Map of ~10k tools at 100k (~2 ms of a one-query process).
    const first = i;
    let ids: readonly string[] | undefined;
    let positions: ReadonlyMap<string, number> | undefined;
    const idsNow = (): readonly string[] => {
      ids ??= Object.freeze(Array.from(ints.subarray(first, first + nodes), (n) => names[n] as string));
      return ids;
    };
    const index: GraphIndex = Object.freeze({
      get ids() {
        return idsNow();
      },
      get indexOf() {
        positions ??= new Map(idsNow().map((id, node) => [id, node]));
        return positions;
      },
      offsets: ints.subarray(i + nodes, i + 2 * nodes + 1),
      targets: ints.subarray(i + 2 * nodes + 1, i + 2 * nodes + 1 + edges),
      weights: floats.subarray(f, f + edges),
      outWeight: floats.subarray(f + edges, f + edges + nodes),
      undirected: g === 1,
    });
    f += edges + nodes;
    i += 2 * nodes + 1 + edges;
    return index;
  });
}
