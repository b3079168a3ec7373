/** @module core/calibration — reliability tables, ECE, Brier and the learned confidence → probability map. */
export * from './reliability.js';
export * from './calibration-map.js';
