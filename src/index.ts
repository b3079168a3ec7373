/**
 * @module credence
 * The library entry: `openCredence()` and the pure core, for authors of agent workflows.
 */
export { Credence, openCredence, defaultDbPath, parseNow, type CredenceOptions, type Status } from './engine.js';
export * from './core/index.js';
export * from './store/index.js';
export { resolveScope, type ResolvedScope } from './scope.js';
export { runDemo, type DemoReport } from './demo.js';
export * from './adapters/pocketflow/index.js';
export { scoreRun, type RunInput, type RunNodeInput, type RunResult, type RunListing } from './runs.js';
