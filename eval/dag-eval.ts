/**
 * @module eval/dag-eval
 * DAG suggestion quality (issue 4, point 4): for each held-out query, `suggestDag(query)` from the
 * text alone; node F1 (tool sets), edge F1 (tool pairs), exact tool-set match, the DAG's
 * confidence and how often the cold-start warning came with it. Macro-averaged over queries.
 */
import type { Credence } from '../src/engine/engine.js';
import type { DagRequest, DagSuggestion } from '../src/engine/search/search.js';
import type { Sample } from './data.js';
import { dagEdges, mean, sameSet, setF1, truthEdges, truthTools } from './metrics.js';

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
  confidence: number;
  /** Share of suggestions that came with the cold-start warning. */
  warned: number;
  /** Share of `explicit_required` answers. */
  explicit: number;
}

export interface DagOutcome {
  sample: Sample;
  suggestion: DagSuggestion;
  nodeF1: number;
  edgeF1: number;
}

export async function suggestAll(
  cr: Credence,
  samples: readonly Sample[],
  request: DagRequest = {},
): Promise<DagOutcome[]> {
  const out: DagOutcome[] = [];
  for (const sample of samples) {
    const suggestion = await cr.suggestDag(sample.intent, request);
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

export function scoreDags(outcomes: readonly DagOutcome[]): DagScore {
  const nodes = outcomes.map((o) => setF1(new Set(o.suggestion.dag.tasks.map((t) => t.tool)), truthTools(o.sample)));
  const multi = outcomes.filter((o) => truthEdges(o.sample).size > 0);
  return {
    n: outcomes.length,
    nodeP: mean(nodes.map((s) => s.precision)),
    nodeR: mean(nodes.map((s) => s.recall)),
    nodeF1: mean(outcomes.map((o) => o.nodeF1)),
    edgeF1: mean(outcomes.map((o) => o.edgeF1)),
    edgeF1Multi: mean(multi.map((o) => o.edgeF1)),
    nMulti: multi.length,
    exact: mean(
      outcomes.map((o) => (sameSet(new Set(o.suggestion.dag.tasks.map((t) => t.tool)), truthTools(o.sample)) ? 1 : 0)),
    ),
    size: mean(outcomes.map((o) => o.suggestion.dag.tasks.length)),
    confidence: mean(outcomes.map((o) => o.suggestion.confidence)),
    warned: mean(outcomes.map((o) => (o.suggestion.warning === undefined ? 0 : 1))),
    explicit: mean(outcomes.map((o) => (o.suggestion.mode === 'explicit_required' ? 1 : 0))),
  };
}
