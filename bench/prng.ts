/** @module bench/prng — seeded randomness, so every synthetic workload is the same on every run. */

export { mulberry32 } from '../src/core/random.js';
