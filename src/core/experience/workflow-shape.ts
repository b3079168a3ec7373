/**
 * @module core/experience/workflow-shape
 * The shape of one recorded run, what a learned workflow is made of (issue 19): its distinct tools in
 * first-use order and its tool-level edges (a call's `consumes` links, else the call before it; a call
 * with `dependsOn`, an explicit DAG's task, links to those and its `consumes` only), with a key that is
 * equal for runs of the same shape, so near-identical runs (the same tools and edges, in any number of
 * repeated calls) merge into one workflow. Pure.
 */

import { sha256Hex } from '../text/sha256.js';

/** A call as the shape reads it. */
export interface ShapeCall {
  readonly tool: string;
  readonly consumes?: readonly number[];
  /** The earlier calls it waited for, when its recorder knew them (an explicit DAG); even empty, it says so. */
  readonly dependsOn?: readonly number[];
}

/**
 * The earlier calls call `i` is linked from: those it depended on when they are known (`dependsOn` with its
 * `consumes`: a task with neither is a root), else those it consumed, else the call before it (a plain sequence).
 */
export function shapeSources(call: ShapeCall, i: number): readonly number[] {
  const consumes = call.consumes ?? [];
  if (call.dependsOn !== undefined)
    return consumes.length === 0 ? call.dependsOn : [...new Set([...call.dependsOn, ...consumes])];
  return consumes.length > 0 ? consumes : i > 0 ? [i - 1] : [];
}

export interface WorkflowShape {
  /** Distinct tools, in the order of their first call. */
  readonly tools: readonly string[];
  /** Distinct tool pairs `[from, to]`, in the order first seen; a tool never links to itself. */
  readonly edges: readonly (readonly [string, string])[];
  /** Equal for two shapes with the same tool set and edge set. */
  readonly key: string;
}

const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The shape of a run's calls. */
export function workflowShape(calls: readonly ShapeCall[]): WorkflowShape {
  const tools: string[] = [];
  const seenTools = new Set<string>();
  const edges: [string, string][] = [];
  const seenEdges = new Set<string>();
  calls.forEach((call, i) => {
    if (!seenTools.has(call.tool)) {
      seenTools.add(call.tool);
      tools.push(call.tool);
    }
    for (const j of shapeSources(call, i)) {
      const from = j >= 0 && j < i ? calls[j]?.tool : undefined;
      if (from === undefined || from === call.tool) continue;
      const key = edgeKey(from, call.tool);
      if (seenEdges.has(key)) continue;
      seenEdges.add(key);
      edges.push([from, call.tool]);
    }
  });
  return { tools, edges, key: shapeKey(tools, edges) };
}

/**
 * The shape a past run votes with (core/experience/neighbour-vote): its shape without the tools whose every call in it
 * failed (walk 16, item 10: a Grep that failed in every run, then made good by its fallback, was proposed by the runs'
 * votes and made the fallback wait on it). The order through a tool left out stays: a tool linked to it links to the
 * tools it linked to, through any run of tools left out (review F, item 6: Read, Grep failed, its fallback
 * filesystem:search_files voted Read and search_files unlinked, proposed to run at once). The run's workflow keeps its
 * whole shape.
 */
export function workedShape(calls: readonly (ShapeCall & { readonly status: string })[]): WorkflowShape {
  const shape = workflowShape(calls);
  const worked = new Set(calls.filter((c) => c.status !== 'failure').map((c) => c.tool));
  if (shape.tools.every((t) => worked.has(t))) return shape;
  const tools = shape.tools.filter((t) => worked.has(t));
  const next = new Map<string, string[]>();
  for (const [from, to] of shape.edges) next.set(from, [...(next.get(from) ?? []), to]);
  const edges: [string, string][] = [];
  const seenEdges = new Set<string>();
  const link = (from: string, to: string): void => {
    const key = edgeKey(from, to);
    if (from === to || seenEdges.has(key)) return;
    seenEdges.add(key);
    edges.push([from, to]);
  };
  for (const [from, to] of shape.edges) {
    if (!worked.has(from)) continue;
    if (worked.has(to)) {
      link(from, to);
      continue;
    }
    // Through the tools left out from `to`, to the first kept ones.
    const passed = new Set([to]);
    const left = [to];
    for (let at = left.shift(); at !== undefined; at = left.shift())
      for (const after of next.get(at) ?? []) {
        if (worked.has(after)) link(from, after);
        else if (!passed.has(after)) {
          passed.add(after);
          left.push(after);
        }
      }
  }
  return { tools, edges, key: shapeKey(tools, edges) };
}

/** The key of a directed tool pair. */
export const edgeKey = (from: string, to: string): string => `${from}\u0000${to}`;

/** The key of a tool set and an edge set, independent of their order. */
export function shapeKey(tools: readonly string[], edges: readonly (readonly [string, string])[]): string {
  return JSON.stringify([[...tools].sort(byText), edges.map(([f, t]) => edgeKey(f, t)).sort(byText)]);
}

/**
 * The links of a run's shape that no other run made, given how many runs (this one among them) linked each pair: a
 * replay of the run must not read them (the graph and the pair counts learned them from the run itself).
 */
export function loneLinks(shape: WorkflowShape, linked: (from: string, to: string) => number): Set<string> {
  const lone = new Set<string>();
  for (const [from, to] of shape.edges) if (linked(from, to) <= 1) lone.add(edgeKey(from, to));
  return lone;
}

/** The stable id of the learned workflow of a shape: `wf-` and the first 12 hex digits of its key's SHA-256. */
export function workflowId(key: string): string {
  let id = workflowIds.get(key);
  if (id === undefined) {
    if (workflowIds.size >= KEPT_WORKFLOW_IDS) workflowIds.clear();
    id = `wf-${sha256Hex(key).slice(0, 12)}`;
    workflowIds.set(key, id);
  }
  return id;
}

/**
 * The ids of the shapes hashed lately (issue 20: a DAG's reasons name the workflow of each neighbour that voted for
 * each tool, the same few shapes hashed again and again, in code a one-query process runs unoptimised).
 */
const workflowIds = new Map<string, string>();
const KEPT_WORKFLOW_IDS = 1024;
