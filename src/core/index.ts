/**
 * @module core
 * The pure confidence core: every formula of the five seeds as a small synchronous function with
 * frozen defaults. No I/O, no clock, no randomness (STYLE §1, §3).
 */
export * from './types.js';
export * from './errors.js';
export * from './edge-decay.js';
export * from './edge-confidence.js';
export * from './edge-promotion.js';
export * from './local-alpha.js';
export * from './hybrid-score.js';
export * from './graph-density.js';
export * from './dag-confidence.js';
export * from './intent.js';
export * from './outcome-confidence.js';
export * from './confidence-label.js';
export * from './learning-confidence.js';
export * from './feedback.js';
export * from './skill-ageing.js';
export * from './bands.js';
export * from './scope.js';
export * from './fts-query.js';
export * from './execution-edges.js';
export * from './same-job.js';
export * from './shell-words.js';
export * from './words.js';
export * from './term-weights.js';
export * from './path-containment.js';
export * from './time.js';
export * from './tool-search.js';
export * from './intent-parts.js';
export * from './dag-build.js';
export * from './workflow.js';
export * from './workflow-references.js';
export * from './graph-index.js';
export * from './pagerank.js';
export * from './heat-diffusion.js';
export * from './graph-paths.js';
export * from './scrub.js';
export * from './hook-signals.js';
export * from './limits.js';
