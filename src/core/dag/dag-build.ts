/**
 * @module core/dag/dag-build
 * Builds a workflow DAG from scored candidate tools and confident edges (seed 001, SPEC §5). Pure.
 * Selection: candidates within `globalRatio` of the overall top score and `keepRatio` of their part's,
 * plus candidates a strong learned edge (≥ `tieAt`) ties to a selected tool, at most `maxTools`.
 * Order: confident edges between selected tools (dependency, contains, sequence; stronger first; of equal ones, those
 * in the runs' order: a loop breaks at its edge back), skipping any that would close a cycle, so the result is always
 * acyclic; parts no edge joins follow the intent's order (`intent-order` edges). Every sort is total, so the result
 * never depends on the order of the inputs (issue 17). Default figures and their reasons: docs/how-it-works.md.
 */
import { passesThreshold } from '../graph/edge-confidence.js';
import type { EdgeType } from '../types.js';

export const DAG_BUILD_DEFAULTS = Object.freeze({
  keepRatio: 0.9,
  globalRatio: 0.8,
  maxTools: 8,
  ties: false,
  tieAt: 0.5,
  threshold: 0.3,
  intentOrder: true,
});

export interface DagBuildOptions {
  /** Within a part of the intent, keep candidates at least this share of the part's top score. @default 0.9 */
  keepRatio?: number;
  /** And at least this share of the overall top score (SPEC §5's 0.8 × top). @default 0.8 */
  globalRatio?: number;
  /** @default 8 */
  maxTools?: number;
  /**
   * Let a strong learned edge tie a candidate below the cut into the DAG. Off by default: ties added wrong
   * tools once a graph was learned (docs/how-it-works.md). @default false
   */
  ties?: boolean;
  /** Edge confidence from which a tied tool joins the DAG (with `ties`). @default 0.5 */
  tieAt?: number;
  /** @default 0.3 */
  threshold?: number;
  /** Order unconnected parts as the intent states them. @default true */
  intentOrder?: boolean;
}

export type CandidateSource = 'search' | 'memory';

export interface DagCandidate {
  tool: string;
  /** Which part of the intent it answers (0 for a one-part intent). */
  part: number;
  score: number;
  sources: readonly CandidateSource[];
  /**
   * The score that places the tool among the intent's parts when it is a candidate of several (its best part);
   * `score` when not given. A memory boost added to every part's score, capped at 1, must not move a tool to an
   * earlier part where the search matched it less.
   */
  placeBy?: number;
}

export interface DagEdgeInput {
  from: string;
  to: string;
  type: EdgeType;
  confidence: number;
  /**
   * How often the runs behind it called `from` first, before `to`, in [0, 1] (core/experience/neighbour-vote); unknown
   * when not given (0.5). Between two edges of equal type and confidence, the one more in the runs' order is added
   * first: of a loop's two edges the one back (extract → fetch) closes the cycle and is left out.
   */
  inOrder?: number;
}

export interface DagTask {
  id: string;
  tool: string;
  dependsOn: string[];
}

export interface DagLink {
  from: string;
  to: string;
  type: EdgeType | 'intent-order';
  confidence: number | null;
}

export interface BuiltDag {
  tasks: DagTask[];
  links: DagLink[];
  /** Why each tool is in the DAG. */
  chosen: { tool: string; score: number; reason: 'candidate' | 'tied'; sources: CandidateSource[]; part: number }[];
  /** Candidates that were left out, best first. */
  leftOut: { tool: string; score: number }[];
}

const TYPE_ORDER: Readonly<Record<EdgeType, number>> = { dependency: 0, contains: 1, sequence: 2, alternative: 3 };

const byId = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
/**
 * A total order on edges of equal confidence: more in the runs' order first, then by their key (type, from, to), so
 * equal confidences never leave it to the input order.
 */
const byEdge = (a: DagEdgeInput, b: DagEdgeInput): number =>
  (b.inOrder ?? 0.5) - (a.inOrder ?? 0.5) ||
  TYPE_ORDER[a.type] - TYPE_ORDER[b.type] ||
  byId(a.from, b.from) ||
  byId(a.to, b.to);

export function buildDag(
  candidates: readonly DagCandidate[],
  edges: readonly DagEdgeInput[],
  options: DagBuildOptions = {},
): BuiltDag {
  const o = { ...DAG_BUILD_DEFAULTS, ...options };
  // One entry per tool: its best score, every source and the part where it scored best.
  const best = new Map<string, { tool: string; score: number; sources: Set<CandidateSource>; part: number }>();
  for (const c of candidates) {
    const seen = best.get(c.tool);
    if (seen === undefined)
      best.set(c.tool, { tool: c.tool, score: c.score, sources: new Set(c.sources), part: c.part });
    else {
      c.sources.forEach((s) => seen.sources.add(s));
      if (c.score > seen.score || (c.score === seen.score && c.part < seen.part))
        Object.assign(seen, { score: c.score, part: c.part });
    }
  }
  const byScore = (a: { tool: string; score: number }, b: { tool: string; score: number }) =>
    b.score - a.score || byId(a.tool, b.tool);
  // Candidates of one tool in several parts: the earlier part first, so the input order never decides.
  const byScoreThenPart = (a: DagCandidate, b: DagCandidate) =>
    byScore(a, b) || (b.placeBy ?? b.score) - (a.placeBy ?? a.score) || a.part - b.part;

  const partTop = new Map<number, number>();
  for (const c of candidates) partTop.set(c.part, Math.max(partTop.get(c.part) ?? 0, c.score));
  const globalTop = Math.max(0, ...partTop.values());
  const kept = new Map<string, BuiltDag['chosen'][number]>();
  // What placed each kept candidate in its part: its part's head, the tool the intent's order links, is the one
  // the search matched best there, not one a memory boost lifted.
  const placeOf = new Map<string, number>();
  for (const c of [...candidates].sort(byScoreThenPart)) {
    const top = partTop.get(c.part) ?? 0;
    if (
      top > 0 &&
      c.score >= o.keepRatio * top - 1e-12 &&
      c.score >= o.globalRatio * globalTop - 1e-12 &&
      !kept.has(c.tool)
    ) {
      const entry = best.get(c.tool);
      placeOf.set(c.tool, c.placeBy ?? c.score);
      kept.set(c.tool, {
        tool: c.tool,
        score: entry?.score ?? c.score,
        reason: 'candidate',
        sources: [...(entry?.sources ?? c.sources)].sort(),
        part: c.part,
      });
    }
  }
  const confident = edges.filter(
    (e) => e.from !== e.to && passesThreshold(e.confidence, o.threshold) && e.type !== 'alternative',
  );
  for (const e of [...confident].sort((a, b) => b.confidence - a.confidence || byEdge(a, b))) {
    if (!o.ties || e.confidence < o.tieAt) break;
    for (const [near, far] of [
      [e.from, e.to],
      [e.to, e.from],
    ] as const) {
      const candidate = best.get(far);
      const anchor = kept.get(near);
      if (anchor !== undefined && candidate !== undefined && !kept.has(far) && anchor.reason === 'candidate') {
        placeOf.set(far, candidate.score);
        kept.set(far, {
          tool: far,
          score: candidate.score,
          reason: 'tied',
          sources: [...candidate.sources].sort(),
          part: anchor.part,
        });
      }
    }
  }
  const chosen = [...kept.values()].sort(byScore).slice(0, o.maxTools);
  const inDag = new Set(chosen.map((c) => c.tool));

  // Order by confident edges, never closing a cycle.
  const succ = new Map<string, Set<string>>([...inDag].map((t) => [t, new Set<string>()]));
  const reaches = (from: string, to: string): boolean => {
    const stack = [from];
    const seen = new Set<string>();
    while (stack.length > 0) {
      const t = stack.pop() as string;
      if (t === to) return true;
      if (seen.has(t)) continue;
      seen.add(t);
      succ.get(t)?.forEach((n) => stack.push(n));
    }
    return false;
  };
  const links: DagLink[] = [];
  const add = (link: DagLink): void => {
    if (link.from === link.to || succ.get(link.from)?.has(link.to) || reaches(link.to, link.from)) return;
    succ.get(link.from)?.add(link.to);
    links.push(link);
  };
  const between = confident
    .filter((e) => inDag.has(e.from) && inDag.has(e.to))
    .sort((a, b) => TYPE_ORDER[a.type] - TYPE_ORDER[b.type] || b.confidence - a.confidence || byEdge(a, b));
  for (const e of between) add({ from: e.from, to: e.to, type: e.type, confidence: e.confidence });

  if (o.intentOrder) {
    const parts = [...new Set(chosen.map((c) => c.part))].sort((a, b) => a - b);
    const headOf = (part: number) =>
      chosen
        .filter((c) => c.part === part)
        .reduce<(typeof chosen)[number] | undefined>(
          (head, c) => (head === undefined || (placeOf.get(c.tool) ?? 0) > (placeOf.get(head.tool) ?? 0) ? c : head),
          undefined,
        )?.tool;
    for (let i = 1; i < parts.length; i += 1) {
      const from = headOf(parts[i - 1] as number);
      const to = headOf(parts[i] as number);
      if (from === undefined || to === undefined) continue;
      const linked = links.some((l) => (l.from === from && l.to === to) || (l.from === to && l.to === from));
      if (!linked) add({ from, to, type: 'intent-order', confidence: null });
    }
  }

  // Tasks in a topological order (Kahn), ties by score then id.
  const indegree = new Map<string, number>([...inDag].map((t) => [t, 0]));
  for (const l of links) indegree.set(l.to, (indegree.get(l.to) ?? 0) + 1);
  const rank = new Map(chosen.map((c, i) => [c.tool, i]));
  const ready = chosen.filter((c) => indegree.get(c.tool) === 0).map((c) => c.tool);
  const order: string[] = [];
  while (ready.length > 0) {
    ready.sort((a, b) => (rank.get(a) ?? 0) - (rank.get(b) ?? 0));
    const t = ready.shift() as string;
    order.push(t);
    for (const n of succ.get(t) ?? []) {
      indegree.set(n, (indegree.get(n) ?? 0) - 1);
      if (indegree.get(n) === 0) ready.push(n);
    }
  }
  const idOf = new Map(order.map((t, i) => [t, `t${i + 1}`]));
  const tasks = order.map((tool) => ({
    id: idOf.get(tool) as string,
    tool,
    dependsOn: links
      .filter((l) => l.to === tool)
      .map((l) => idOf.get(l.from) as string)
      .sort(),
  }));
  const leftOut = [...best.values()]
    .filter((c) => !inDag.has(c.tool))
    .sort(byScore)
    .map((c) => ({ tool: c.tool, score: c.score }));
  return { tasks, links, chosen, leftOut };
}
