/**
 * @module core/calibration — reliability tables, ECE, Brier, the learned map, the logistic calibrator and which
 * calibrator to use.
 */
export * from './reliability.js';
export * from './calibration-map.js';
export * from './logistic.js';
export * from './selection.js';
