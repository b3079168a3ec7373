/**
 * @module adapters/pocketflow
 * The PocketFlow adapter (SPEC §7, seed 002): wrap an existing `pocketflow` flow in one line and
 * Credence records every run — each node's intent, outcome, retries, duration, parent flow and
 * downstream use — scores it, and learns the tool graph from it: `instrumentFlow(flow, { credence,
 * intent })` returns a handle whose `run(shared)` records and whose `lastRun?.confidence` reads the
 * result (see examples/pocketflow-flow.mjs). Does not import `pocketflow`; works with the user's copy.
 */
export {
  instrumentFlow,
  type InstrumentFlowOptions,
  type InstrumentedFlow,
  type RunnableFlow,
  type RunRecorderTarget,
} from './instrument.js';
export {
  collectNodes,
  isFlowLike,
  isNodeLike,
  NodeNaming,
  type NodeDescription,
  type NodeLike,
  type NodeOptionsSource,
  type PocketflowNodeOptions,
} from './nodes.js';
export { UNFINISHED_ERROR } from './recorder.js';
export { isWrapped } from './patch.js';
