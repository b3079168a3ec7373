/**
 * @module engine/tool-graph/snapshot-codec
 * A graph snapshot as one blob (issue 20), persisted per scope with the revision it reflects, so that a new process
 * patches it from the change log instead of reading every edge: the catalogue, tool ids and call counts as JSON;
 * every edge's counters, times and confidence, and PageRank, as typed arrays. Decoding gives back the snapshot
 * that was encoded: the same edges (in the store's order), confidences, PageRank, density and tier.
 */
import { EDGE_SOURCES, EDGE_TYPES, type EdgeSource, type EdgeType } from '../../core/types.js';
import type { ToolRecord } from '../../store/types.js';
import { assembleSnapshot, type GraphSnapshot, type SnapshotEdge } from './graph-snapshot.js';

const VERSION = 1;

interface Header {
  v: number;
  now: number;
  tools: ToolRecord[];
  /** Every tool id an edge, a call count or PageRank names; the arrays point into it. */
  names: string[];
  /** [name, calls] pairs, in the snapshot's order. */
  calls: number[];
  edges: number;
  ranked: number;
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
  const header: Header = { v: VERSION, now: snapshot.now, tools: snapshot.tools, names, calls, edges: m, ranked: k };
  const json = Buffer.from(JSON.stringify(header));
  // [json length: 8 bytes][json, padded to 8][floats][ints][kinds]
  const jsonEnd = 8 + Math.ceil(json.length / 8) * 8;
  const out = new Uint8Array(jsonEnd + floats.byteLength + ints.byteLength + kinds.byteLength);
  new DataView(out.buffer).setFloat64(0, json.length, true);
  out.set(json, 8);
  out.set(new Uint8Array(floats.buffer), jsonEnd);
  out.set(new Uint8Array(ints.buffer), jsonEnd + floats.byteLength);
  out.set(kinds, jsonEnd + floats.byteLength + ints.byteLength);
  return out;
}

/** The snapshot the bytes hold, or undefined for bytes of another version (or none readable). */
export function decodeSnapshot(data: Uint8Array): GraphSnapshot | undefined {
  if (data.byteLength < 8) return undefined;
  // A copy aligned for the typed arrays (a stored blob may start anywhere in its buffer).
  const bytes = new Uint8Array(data.byteLength);
  bytes.set(data);
  const length = new DataView(bytes.buffer).getFloat64(0, true);
  const header = JSON.parse(Buffer.from(bytes.buffer, 8, length).toString('utf8')) as Header;
  if (header.v !== VERSION) return undefined;
  const { names, edges: m, ranked: k } = header;
  const jsonEnd = 8 + Math.ceil(length / 8) * 8;
  const floats = new Float64Array(bytes.buffer, jsonEnd, 6 * m + k);
  const ints = new Int32Array(bytes.buffer, jsonEnd + floats.byteLength, 2 * m + k);
  const kinds = new Uint8Array(bytes.buffer, jsonEnd + floats.byteLength + ints.byteLength, m);
  const time = (v: number): number | null => (Number.isNaN(v) ? null : v);
  const edges: SnapshotEdge[] = new Array(m);
  for (let i = 0; i < m; i += 1) {
    const kind = kinds[i] as number;
    edges[i] = {
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
  }
  const pageRank = new Map<string, number>();
  for (let i = 0; i < k; i += 1) pageRank.set(names[ints[2 * m + i] as number] as string, floats[6 * m + i] as number);
  const calls = new Map<string, number>();
  for (let i = 0; i < header.calls.length; i += 2)
    calls.set(names[header.calls[i] as number] as string, header.calls[i + 1] as number);
  return assembleSnapshot({ now: header.now, tools: header.tools, edges, calls, pageRank });
}
