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
  /**
   * The base of the hooks' files of the store (platform/hook-spool storeHookFiles): `forget` of a Claude Code session
   * deletes its events still in the hooks' spool there, as the CLI does.
   */
  hookFiles?: string;
  /** Tools shown to this session (search results, next suggestions, a DAG), so their outcomes can be followed. */
  onShown?: (showing: Showing) => void;
}
