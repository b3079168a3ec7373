/**
 * @module credence
 * The library entry: `openCredence()` and the pure core, for authors of agent workflows.
 */
export { Credence, openCredence, defaultDbPath, parseNow, type CredenceOptions, type Status } from './engine/engine.js';
export * from './core/index.js';
// The Claude Code hook rules left the core (issue 18) but stay in the package's API.
export * from './hooks/signals.js';
export * from './store/index.js';
export { resolveScope, type ResolvedScope } from './platform/git-scope.js';
export { runDemo, type DemoReport } from './engine/demo/demo.js';
export * from './adapters/pocketflow/index.js';
export { scoreRun, type RunInput, type RunNodeInput, type RunResult, type RunListing } from './engine/runs.js';
