/**
 * @module core
 * The pure confidence core: every formula of the five seeds as a small synchronous function with
 * frozen defaults. No I/O, no clock, no randomness (STYLE §1, §3).
 */
export * from './types.js';
export * from './errors.js';
export * from './graph/edge-decay.js';
export * from './graph/edge-confidence.js';
export * from './graph/edge-promotion.js';
export * from './search/local-alpha.js';
export * from './search/hybrid-score.js';
export * from './graph/graph-density.js';
export * from './dag/dag-confidence.js';
export * from './runs/intent.js';
export * from './runs/outcome-confidence.js';
export * from './recall/confidence-label.js';
export * from './learning/learning-confidence.js';
export * from './learning/feedback.js';
export * from './learning/skill-ageing.js';
export * from './learning/bands.js';
export * from './scope/scope.js';
export * from './text/fts-query.js';
export * from './graph/execution-edges.js';
export * from './graph/same-job.js';
export * from './text/shell-words.js';
export * from './text/words.js';
export * from './text/term-weights.js';
export * from './security/path-containment.js';
export * from './time.js';
export * from './search/tool-search.js';
export * from './dag/intent-parts.js';
export * from './dag/dag-build.js';
export * from './workflow/workflow.js';
export * from './workflow/workflow-references.js';
export * from './graph/graph-index.js';
export * from './graph/pagerank.js';
export * from './graph/heat-diffusion.js';
export * from './graph/graph-paths.js';
export * from './security/scrub.js';
export * from './limits.js';
export * from './calibration/index.js';
