/**
 * @module eval/dag-eval
 * DAG suggestion quality (issue 4, point 4; issue 19): for each held-out query, `suggestDag(query)` from
 * the text alone (or any other proposer of tools and edges, such as the vote baseline); node F1 (tool
 * sets), edge F1 (tool pairs), exact tool-set match, and for the engine's DAGs their confidence, its
 * calibration against node F1 (ECE), the seed formula's confidence and how often the cold-start warning
 * came with it. Macro-averaged over queries.
 */
import type { Credence, Tracking } from '../src/engine/engine.js';
import type { DagRequest, DagSuggestion } from '../src/engine/search/search.js';
import type { Sample } from './data.js';
import { dagEdges, expectedCalibrationError, mean, sameSet, setF1, truthEdges, truthTools } from './metrics.js';

export interface DagScore {
  n: number;
  nodeP: number;
  nodeR: number;
  nodeF1: number;
  edgeF1: number;
  /** Edge F1 over the queries that have at least one ground-truth edge. */
  edgeF1Multi: number;
  nMulti: number;
  exact: number;
  /** Mean number of tools in the suggested DAG. */
  size: number;
  /** Mean confidence; undefined when the proposer gives none (the vote baseline). */
  confidence: number | undefined;
  /** Expected calibration error of the confidence against node F1 (10 bins). */
  ece: number | undefined;
  /** Mean of the seed formula's confidence, when the suggestions carry it. */
  seedConfidence: number | undefined;
  /** Share of suggestions that came with the cold-start warning. */
  warned: number | undefined;
  /** Share of `explicit_required` answers. */
  explicit: number | undefined;
}

export interface DagOutcome {
  sample: Sample;
  suggestion: DagSuggestion;
  nodeF1: number;
  edgeF1: number;
}

/** A proposed DAG as sets, whatever proposed it. */
export interface ProposedDag {
  sample: Sample;
  tools: ReadonlySet<string>;
  edges: ReadonlySet<string>;
  /** Number of tasks (a DAG may call a tool twice); the number of tools when not given. */
  size?: number;
  suggestion?: Pick<DagSuggestion, 'confidence' | 'seedConfidence' | 'warning' | 'mode'>;
}

/** `suggestDag` for every sample, not recorded as shown unless the request says `track: true`. */
export async function suggestAll(
  cr: Credence,
  samples: readonly Sample[],
  request: DagRequest & Tracking = {},
): Promise<DagOutcome[]> {
  const out: DagOutcome[] = [];
  for (const sample of samples) {
    const suggestion = await cr.suggestDag(sample.intent, { track: false, ...request });
    const tasks = suggestion.dag.tasks;
    out.push({
      sample,
      suggestion,
      nodeF1: setF1(new Set(tasks.map((t) => t.tool)), truthTools(sample)).f1,
      edgeF1: setF1(dagEdges(tasks), truthEdges(sample)).f1,
    });
  }
  return out;
}

/** Mean of the values that are defined; undefined when none is. */
const meanOf = (values: readonly (number | undefined)[]): number | undefined => {
  const known = values.filter((v): v is number => v !== undefined);
  return known.length === 0 ? undefined : mean(known);
};

/** Scores DAGs given as tool and edge sets; the confidence columns only from those that carry a suggestion. */
export function scoreProposals(dags: readonly ProposedDag[]): DagScore {
  const nodes = dags.map((d) => setF1(d.tools, truthTools(d.sample)));
  const edges = dags.map((d) => setF1(d.edges, truthEdges(d.sample)).f1);
  const multi = edges.filter((_, i) => truthEdges((dags[i] as ProposedDag).sample).size > 0);
  const told = dags.flatMap((d, i) => {
    const s = d.suggestion;
    return s === undefined ? [] : [{ s, nodeF1: (nodes[i] as { f1: number }).f1 }];
  });
  return {
    n: dags.length,
    nodeP: mean(nodes.map((s) => s.precision)),
    nodeR: mean(nodes.map((s) => s.recall)),
    nodeF1: mean(nodes.map((s) => s.f1)),
    edgeF1: mean(edges),
    edgeF1Multi: mean(multi),
    nMulti: multi.length,
    exact: mean(dags.map((d) => (sameSet(d.tools, truthTools(d.sample)) ? 1 : 0))),
    size: mean(dags.map((d) => d.size ?? d.tools.size)),
    confidence: meanOf(told.map((t) => t.s.confidence)),
    ece:
      told.length === 0
        ? undefined
        : expectedCalibrationError(told.map((t) => ({ confidence: t.s.confidence, outcome: t.nodeF1 }))),
    seedConfidence: meanOf(told.map((t) => t.s.seedConfidence)),
    warned: meanOf(told.map((t) => (t.s.warning === undefined ? 0 : 1))),
    explicit: meanOf(told.map((t) => (t.s.mode === 'explicit_required' ? 1 : 0))),
  };
}

/** Scores the engine's suggestions. */
export function scoreDags(outcomes: readonly DagOutcome[]): DagScore {
  return scoreProposals(
    outcomes.map((o) => ({
      sample: o.sample,
      tools: new Set(o.suggestion.dag.tasks.map((t) => t.tool)),
      edges: dagEdges(o.suggestion.dag.tasks),
      size: o.suggestion.dag.tasks.length,
      suggestion: o.suggestion,
    })),
  );
}
