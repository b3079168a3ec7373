/**
 * @module mcp/tool-context — what every meta tool runs with, apart so that the tools (meta-tools, execute-dag) share it
 * without a cycle.
 */
import type { Credence } from '../engine/engine.js';
import type { Gateway } from './gateway.js';
import type { Showing } from '../core/outcome-follower.js';

export interface MetaToolContext {
  credence: Credence;
  gateway?: Gateway;
  /** `execute_dag {intent}` runs the suggestion only at or above this confidence (and all tools read-only). */
  autoExecuteThreshold: number;
  /** Tools shown to this session (search results, next suggestions, a DAG), so their outcomes can be followed. */
  onShown?: (showing: Showing) => void;
}
