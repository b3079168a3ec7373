/**
 * @module bench/pocketflow
 * What wrapping a PocketFlow flow costs (issue 7, SPEC §7 / seed 002; target ≤ 0.2 ms per node, in
 * process): a 50-node chain of real `pocketflow` nodes (each reads the previous node's key from the
 * shared store and writes its own, so the Proxy tracks a read and a write per node) run bare with
 * `flow.run(shared)` and through `instrumentFlow(...).run(shared)`.
 *
 * Two wrapped measures: the adapter's own overhead, with recording batched at the end of the run
 * into a recorder that keeps the run (no store), which is what the target is about; and the whole
 * path with the real engine's `recordRun` on an in-memory SQLite store (scoring, one execution, its
 * calls and edge events in one transaction per run). Rounds interleave bare and wrapped so the
 * machine's noise falls on all alike; each value is the median over rounds of the mean per run,
 * divided by the node count. Reference: the bare flow's own time per node.
 */
import { createRequire } from 'node:module';
import { instrumentFlow } from '../src/adapters/pocketflow/index.js';
import { openCredence } from '../src/engine/engine.js';
import type { RunInput, RunResult } from '../src/engine/runs.js';
import { openSqliteStore } from '../src/store/sqlite/index.js';
import { median, type BenchRow } from './table.js';

// The CJS build: pocketflow 1.0.4's `exports.import` names a file some installs lack.
const pf = createRequire(import.meta.url)('pocketflow') as typeof import('pocketflow');

type Shared = Record<string, number>;

class ChainStep extends pf.Node<Shared> {
  constructor(readonly index: number) {
    super();
  }
  override async prep(shared: Shared): Promise<unknown> {
    return shared[`k${this.index - 1}`] ?? 0;
  }
  override async exec(value: unknown): Promise<unknown> {
    return (value as number) + 1;
  }
  override async post(shared: Shared, _prep: unknown, value: unknown): Promise<string | undefined> {
    shared[`k${this.index}`] = value as number;
    return undefined;
  }
}

function chainFlow(nodes: number): InstanceType<typeof pf.Flow<Shared>> {
  const steps = Array.from({ length: nodes }, (_, i) => new ChainStep(i));
  steps.reduce((previous, step) => previous.next(step));
  return new pf.Flow<Shared>(steps[0] as ChainStep);
}

async function meanMs(fn: () => Promise<unknown>, runs: number): Promise<number> {
  const t = process.hrtime.bigint();
  for (let i = 0; i < runs; i += 1) await fn();
  return Number(process.hrtime.bigint() - t) / 1e6 / runs;
}

const ms = (value: number): string => `${value.toFixed(value < 0.01 ? 4 : 3)} ms`;

export async function benchPocketflow(
  options: { nodes?: number; runs?: number; rounds?: number } = {},
): Promise<BenchRow[]> {
  const nodes = options.nodes ?? 50;
  const runs = options.runs ?? 200;
  const rounds = options.rounds ?? 7;
  const flow = chainFlow(nodes);

  const kept: RunInput[] = [];
  const batched = instrumentFlow(flow, {
    credence: {
      recordRun: async (run: RunInput): Promise<RunResult> => (
        kept.push(run),
        { executionId: '', intent: run.intent, intentKind: 'general', confidence: 0, summary: '', nodes: [] }
      ),
    },
    intent: 'bench chain',
  });
  const credence = await openCredence({
    store: openSqliteStore({ path: ':memory:' }),
    scope: 'bench',
    now: 1_780_000_000_000,
  });
  const engine = instrumentFlow(flow, { credence, intent: 'bench chain' });

  // Check once that the wrapped run is the bare run, recorded.
  const bareOut: Shared = {};
  const wrappedOut: Shared = {};
  await flow.run(bareOut);
  await batched.run(wrappedOut);
  if (
    JSON.stringify(bareOut) !== JSON.stringify(wrappedOut) ||
    kept[0]?.nodes.length !== nodes ||
    kept[0]?.nodes[nodes - 1]?.consumes[0] !== nodes - 2
  ) {
    throw new Error('bench/pocketflow: the wrapped flow did not behave as the bare one');
  }

  const bare: number[] = [];
  const wrapped: number[] = [];
  const recorded: number[] = [];
  for (let round = -1; round < rounds; round += 1) {
    const b = await meanMs(() => flow.run({}), runs);
    const w = await meanMs(() => batched.run({}), runs);
    kept.length = 0;
    const r = await meanMs(() => engine.run({}), Math.max(1, Math.round(runs / 4)));
    if (round < 0) continue; // warm-up round
    bare.push(b / nodes);
    wrapped.push(w / nodes);
    recorded.push(r / nodes);
  }
  await credence.close();

  const bareNode = median(bare);
  const adapterOverhead = Math.max(0, median(wrapped) - bareNode);
  const engineOverhead = Math.max(0, median(recorded) - bareNode);
  const measure = `per node, median of ${rounds} rounds × ${runs} runs`;
  return [
    {
      benchmark: `pocketflow adapter overhead (${nodes}-node flow, recording batched at run end)`,
      measure,
      value: ms(adapterOverhead),
      reference: `bare flow ${ms(bareNode)}/node`,
      ratio: `${(median(wrapped) / bareNode).toFixed(1)}× bare`,
      target: `≤ 0.2 ms/node: ${adapterOverhead <= 0.2 ? 'met' : 'NOT met'}`,
    },
    {
      benchmark: `pocketflow adapter + recordRun (${nodes}-node flow, SQLite :memory:)`,
      measure: `per node, median of ${rounds} rounds × ${Math.max(1, Math.round(runs / 4))} runs`,
      value: ms(engineOverhead),
      reference: `bare flow ${ms(bareNode)}/node`,
      ratio: `${(median(recorded) / bareNode).toFixed(1)}× bare`,
      target: '-',
    },
  ];
}
