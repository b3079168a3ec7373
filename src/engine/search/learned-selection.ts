/**
 * @module engine/search/learned-selection
 * What each candidate tool and link of a DAG brings as evidence (issue 19): its tool search score and rank,
 * the nearest past runs' vote and boost, and for a link the past runs' vote, the share of runs that linked
 * the pair and the graph's confidence. The rows are what the scope's replays fit a probability to.
 */
import { edgeKey, type WorkflowShape } from '../../core/experience/workflow-shape.js';
import type { MemoryProposal } from '../../core/experience/neighbour-vote.js';
import type { DagEdgeInput } from '../../core/dag/dag-build.js';
import { PAIR_TOOLS, type Experience } from './experience.js';

/** The features of a candidate tool, in row order after the bias. */
export const TOOL_FEATURES = [
  'vote',
  'vote × nearest similarity',
  'search score',
  '1 / search rank',
  'boost',
  'vote for a half of the intent',
] as const;
/** The features of a candidate link, in row order after the bias. */
export const EDGE_FEATURES = [
  'vote',
  'share of runs that linked it',
  'graph confidence',
  'the search-built DAG links it',
  'the intent names them in this order',
] as const;

export interface ToolEvidence {
  readonly tool: string;
  readonly vote: number;
  readonly nearest: number;
  readonly search: number;
  readonly rank: number;
  readonly boost: number;
  readonly half: number;
}

/** A tool's feature row: 1 (the bias), then {@link TOOL_FEATURES}. */
export const toolRow = (e: ToolEvidence): number[] => [
  1,
  e.vote,
  e.vote * e.nearest,
  e.search,
  e.rank > 0 ? 1 / e.rank : 0,
  e.boost,
  e.half,
];

/** The candidate tools of an intent with their evidence, by name. */
export function toolEvidence(
  searched: ReadonlyMap<string, { score: number; rank: number }>,
  boost: ReadonlyMap<string, number>,
  proposal: MemoryProposal | undefined,
  halves: readonly MemoryProposal[] = [],
): ToolEvidence[] {
  const votes = new Map((proposal?.votes ?? []).map((v) => [v.tool, v.vote]));
  const halfVotes = new Map<string, number>();
  for (const h of halves) for (const v of h.votes) halfVotes.set(v.tool, Math.max(halfVotes.get(v.tool) ?? 0, v.vote));
  const nearest = proposal?.neighbours[0]?.similarity ?? 0;
  return [...new Set([...searched.keys(), ...votes.keys(), ...halfVotes.keys()])].sort().map((tool) => ({
    tool,
    vote: votes.get(tool) ?? 0,
    nearest,
    search: searched.get(tool)?.score ?? 0,
    rank: searched.get(tool)?.rank ?? 0,
    boost: boost.get(tool) ?? 0,
    half: halfVotes.get(tool) ?? 0,
  }));
}

export interface EdgeEvidence {
  readonly from: string;
  readonly to: string;
  readonly vote: number;
  readonly share: number;
  readonly graph: number;
  readonly searchLink: number;
  readonly order: number;
}

/** A link's feature row: 1 (the bias), then {@link EDGE_FEATURES}. */
export const edgeRow = (e: EdgeEvidence): number[] => [1, e.vote, e.share, e.graph, e.searchLink, e.order];

/** Every ordered pair of `tools` with its evidence. */
export function edgeEvidence(
  tools: readonly string[],
  proposalEdges: ReadonlyMap<string, number>,
  experience: Experience,
  graph: readonly DagEdgeInput[],
  search: { links: readonly { from: string; to: string }[]; part: ReadonlyMap<string, number> },
  leaveOut?: WorkflowShape,
): EdgeEvidence[] {
  // A replayed run's own pairs are taken out of the share, as it is taken out of the memory.
  const own = new Set(leaveOut?.tools.slice(0, PAIR_TOOLS) ?? []);
  const ownLinks = new Set((leaveOut?.edges ?? []).map(([f, t]) => edgeKey(f, t)));
  const searchLinks = new Set(search.links.map((l) => edgeKey(l.from, l.to)));
  const graphConfidence = new Map<string, number>();
  // Only links between two of the tools are read: the graph's other edges are passed over without a key.
  const among = new Set(tools);
  for (const e of graph)
    if (e.type !== 'alternative' && among.has(e.from) && among.has(e.to))
      graphConfidence.set(
        edgeKey(e.from, e.to),
        Math.max(graphConfidence.get(edgeKey(e.from, e.to)) ?? 0, e.confidence),
      );
  const out: EdgeEvidence[] = [];
  for (const from of tools)
    for (const to of tools) {
      if (from === to) continue;
      const key = edgeKey(from, to);
      const pair = experience.pair(from, to);
      const both = (pair?.both ?? 0) - (own.has(from) && own.has(to) ? 1 : 0);
      const linked = (pair?.linked ?? 0) - (own.has(from) && own.has(to) && ownLinks.has(key) ? 1 : 0);
      out.push({
        from,
        to,
        vote: proposalEdges.get(key) ?? 0,
        share: both <= 0 ? 0 : linked / both,
        graph: graphConfidence.get(key) ?? 0,
        searchLink: searchLinks.has(key) ? 1 : 0,
        order: (search.part.get(from) ?? 0) < (search.part.get(to) ?? 0) ? 1 : 0,
      });
    }
  return out;
}

/** Every edge the neighbours used, with its share of their weight (not only the proposed ones), by key. */
export function neighbourEdgeVotes(proposal: MemoryProposal | undefined): Map<string, number> {
  return new Map((proposal?.edgeVotes ?? []).map((e) => [edgeKey(e.from, e.to), e.vote]));
}

/** Each candidate's first part of the intent (where the search found it; 0 when it did not). */
export function firstParts(candidates: readonly { tool: string; part: number }[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const c of candidates) out.set(c.tool, Math.min(out.get(c.tool) ?? c.part, c.part));
  return out;
}

/** The two halves of an intent's words (each at least 3 words), for votes on part of a task. */
export function intentHalves(text: string): string[] {
  const words = text.split(/\s+/).filter((w) => w !== '');
  if (words.length < 6) return [];
  const middle = Math.ceil(words.length / 2);
  return [words.slice(0, middle).join(' '), words.slice(middle).join(' ')];
}
