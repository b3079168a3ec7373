/**
 * @module core/experience/neighbour-vote
 * What past runs with a similar intent propose (issue 19): each neighbour votes for the tools and edges of
 * its workflow with weight similarity² × outcome; a tool or edge is proposed when it holds at least half of
 * the weight. Beside the proposal: how much the neighbours agree with it (their weighted node F1 against
 * it) and the memory's raw strength (agreement × weighted similarity), which the calibration turns into
 * how often such a proposal was right. Pure.
 */
import { edgeKey, type WorkflowShape } from './workflow-shape.js';

export interface Neighbour {
  /** The past run (or learned workflow) this neighbour stands for. */
  readonly id: string;
  readonly intent: string;
  /** Similarity of its intent to the query, in [0, 1]. */
  readonly similarity: number;
  /** How well it went, in [0, 1]. */
  readonly quality: number;
  readonly shape: WorkflowShape;
}

export interface VotedTool {
  readonly tool: string;
  /** Share of the neighbours' weight that used it, in [0, 1]. */
  readonly vote: number;
  /** The neighbours that used it, best first. */
  readonly support: readonly string[];
}

export interface VotedEdge {
  readonly from: string;
  readonly to: string;
  readonly vote: number;
  /**
   * The share of its vote from runs that called `from` first, before `to`, in [0, 1]: 0 for the edge back of a loop
   * (fetch, extract, fetch again: extract → fetch). Which way a loop runs is read from it, not from the tools' names.
   */
  readonly inOrder: number;
}

export interface MemoryProposal {
  /** Every tool a neighbour used, by vote (ties by name). */
  readonly votes: readonly VotedTool[];
  /** The proposed tools: a vote of at least one half (at least the best tool when none has it). */
  readonly tools: readonly VotedTool[];
  /** Every edge a neighbour used, by vote. */
  readonly edgeVotes: readonly VotedEdge[];
  /** The proposed edges between proposed tools: a vote of at least one half. */
  readonly edges: readonly VotedEdge[];
  /** The neighbours' weighted node F1 against the proposal, in [0, 1]. */
  readonly agreement: number;
  /** The neighbours' weighted mean similarity. */
  readonly similarity: number;
  /** agreement × similarity: the raw strength the calibration maps to an expected F1. */
  readonly strength: number;
  readonly neighbours: readonly Neighbour[];
}

/** The share of the neighbours' weight from which a tool or edge is proposed. */
export const PROPOSAL_SHARE = 0.5;

const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Node F1 of two tool sets. */
export function setF1(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return a.size === b.size ? 1 : 0;
  let hit = 0;
  for (const x of a) if (b.has(x)) hit += 1;
  return hit === 0 ? 0 : (2 * hit) / (a.size + b.size);
}

/** The weighted vote of `neighbours` (best first); an empty proposal when there is none. */
export function voteNeighbours(neighbours: readonly Neighbour[]): MemoryProposal {
  const weights = neighbours.map((n) => n.similarity * n.similarity * Math.max(0, Math.min(1, n.quality)));
  const total = weights.reduce((s, w) => s + w, 0);
  if (neighbours.length === 0 || total <= 0)
    return { votes: [], tools: [], edgeVotes: [], edges: [], agreement: 0, similarity: 0, strength: 0, neighbours };
  const toolWeight = new Map<string, number>();
  const support = new Map<string, string[]>();
  const edgeWeight = new Map<string, { from: string; to: string; w: number; inOrder: number }>();
  neighbours.forEach((n, i) => {
    const w = weights[i] as number;
    for (const tool of n.shape.tools) {
      toolWeight.set(tool, (toolWeight.get(tool) ?? 0) + w);
      if (w > 0) support.set(tool, [...(support.get(tool) ?? []), n.id]);
    }
    // A shape's tools are in the order of their first call.
    const first = new Map(n.shape.tools.map((t, at) => [t, at]));
    for (const [from, to] of n.shape.edges) {
      const key = edgeKey(from, to);
      const inOrder = (first.get(from) ?? 0) < (first.get(to) ?? 0) ? w : 0;
      const seen = edgeWeight.get(key);
      if (seen === undefined) edgeWeight.set(key, { from, to, w, inOrder });
      else {
        seen.w += w;
        seen.inOrder += inOrder;
      }
    }
  });
  const votes = [...toolWeight]
    .map(([tool, w]) => ({ tool, vote: w / total, support: support.get(tool) ?? [] }))
    .sort((a, b) => b.vote - a.vote || byText(a.tool, b.tool));
  const half = votes.filter((v) => v.vote >= PROPOSAL_SHARE - 1e-12);
  const tools = half.length > 0 ? half : votes.slice(0, 1);
  const chosen = new Set(tools.map((t) => t.tool));
  const edgeVotes = [...edgeWeight.values()]
    .map((e) => ({ from: e.from, to: e.to, vote: e.w / total, inOrder: e.w > 0 ? e.inOrder / e.w : 0 }))
    .sort((a, b) => b.vote - a.vote || byText(a.from, b.from) || byText(a.to, b.to));
  const edges = edgeVotes.filter((e) => e.vote >= PROPOSAL_SHARE - 1e-12 && chosen.has(e.from) && chosen.has(e.to));
  const agreement =
    neighbours.reduce((s, n, i) => s + (weights[i] as number) * setF1(chosen, new Set(n.shape.tools)), 0) / total;
  const similarity = neighbours.reduce((s, n, i) => s + (weights[i] as number) * n.similarity, 0) / total;
  return { votes, tools, edgeVotes, edges, agreement, similarity, strength: agreement * similarity, neighbours };
}
