/** @module core/calibration — reliability tables, ECE, Brier, the learned map and which calibrator to use. */
export * from './reliability.js';
export * from './calibration-map.js';
export * from './selection.js';
