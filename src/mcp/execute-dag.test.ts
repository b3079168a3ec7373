import { describe, expect, it } from 'vitest';
import type { Credence } from '../engine/engine.js';
import type { ProbabilityInfo } from '../engine/calibration.js';
import type { DagSuggestion } from '../engine/search/search.js';
import { executeDag } from './execute-dag.js';
import type { Gateway } from './gateway.js';

/** A context whose engine returns `suggestion` and whose one downstream tool is read-only and needs nothing. */
function context(suggestion: Partial<DagSuggestion & ProbabilityInfo>) {
  const credence = { suggestDag: async () => ({ mode: 'suggestion', ...suggestion }) } as unknown as Credence;
  const gateway = {
    tool: () => ({ tool: { annotations: { readOnlyHint: true }, inputSchema: { type: 'object' } } }),
  } as unknown as Gateway;
  return { credence, gateway, autoExecuteThreshold: 0.85 };
}

const dag = { tasks: [{ id: 't1', tool: 'memory:read_graph', dependsOn: [] }] };
const reasons = async (s: Partial<DagSuggestion & ProbabilityInfo>): Promise<string[]> => {
  const result = await executeDag(context(s), { intent: 'read the graph', execute: true });
  return (result.structuredContent as { notExecutedBecause?: string[] }).notExecutedBecause ?? [];
};

describe('execute_dag with an intent (issue 19)', () => {
  it('does not run on a measured confidence alone: the seed formula must reach the threshold too', async () => {
    const why = await reasons({ dag, confidence: 0.92, seedConfidence: 0.6 });
    expect(why).toEqual([expect.stringContaining("the seed formula's confidence 0.600 is below the threshold 0.85")]);
    expect(await reasons({ dag, confidence: 0.7, seedConfidence: 0.9 })).toEqual([
      expect.stringContaining('confidence 0.700 is below the threshold 0.85'),
    ]);
  });

  it('with enough DAG outcomes, does not run below the threshold of the learned probability (issue 24)', async () => {
    const learned = (probability: number) => ({
      probability,
      probabilityBasis: {
        kind: 'dag' as const,
        outcomes: 40,
        calibrator: 'map' as const,
        brier: { seed: 0.3, 'base-rate': 0.25, logistic: 0.22, map: 0.2 },
        tested: 32,
      },
    });
    expect(await reasons({ dag, confidence: 0.9, seedConfidence: 0.9, ...learned(0.6) })).toEqual([
      expect.stringContaining('the probability learned from 40 DAG outcomes, 0.600, is below the threshold 0.85'),
    ]);
    // A probability at the threshold holds nothing back: only the seed's reason is left.
    expect(await reasons({ dag, confidence: 0.9, seedConfidence: 0.6, ...learned(0.9) })).toEqual([
      expect.stringContaining("the seed formula's confidence 0.600"),
    ]);
  });
});
