/**
 * @module core/graph/edge-decay
 * Time decay of tool-graph edges: seed 000 ("Confidence Decay"), SPEC §3 formula:
 *     decay = 0.5 ^ (idleDays / halfLifeDays)
 * with fractional idle days counted from the edge's `lastSeen` and a default half-life of 60 days.
 * Decay is computed at read time (nothing rewritten), so both instants are passed in: no clock here.
 */

import { CredenceError } from '../errors.js';
import { requireFinite } from '../validate.js';

/** Milliseconds in one day. */
export const DAY_MS = 86_400_000;

export const DECAY_DEFAULTS = Object.freeze({
  /** Days after which an idle edge keeps half of its confidence. */
  halfLifeDays: 60,
});

export interface DecayOptions {
  /**
   * Days after which an idle edge keeps half its confidence; must be > 0. `Infinity` turns decay off.
   * @default 60
   */
  readonly halfLifeDays?: number;
}

/**
 * Fractional days between `lastSeenMs` and `nowMs` (epoch milliseconds). Never negative: an edge
 * last seen after `now` (clock skew, a replayed future event) is simply not idle.
 */
export function idleDays(lastSeenMs: number, nowMs: number): number {
  requireFinite('lastSeenMs', lastSeenMs, 'a finite epoch time in milliseconds');
  requireFinite('nowMs', nowMs, 'a finite epoch time in milliseconds');
  return Math.max(0, (nowMs - lastSeenMs) / DAY_MS);
}

/**
 * The factor in (0, 1] by which an edge idle for `idleDays` days is multiplied:
 * `0.5 ^ (idleDays / halfLifeDays)`. 0 idle days → 1; one half-life → 0.5; `Infinity` idle days → 0.
 * Monotone non-increasing in `idleDays`.
 */
export function decayFactor(idleDays: number, options: DecayOptions = {}): number {
  const { halfLifeDays } = resolveDecayOptions(options);
  if (Number.isNaN(idleDays) || idleDays < 0) {
    throw new CredenceError('INVALID_INPUT', `idleDays must be a number of days >= 0, got ${String(idleDays)}`, {
      details: { idleDays },
    });
  }
  if (halfLifeDays === Infinity) return 1;
  return 0.5 ** (idleDays / halfLifeDays);
}

/** Merges `options` over {@link DECAY_DEFAULTS} into a new object and validates it. */
export function resolveDecayOptions(options: DecayOptions = {}): { halfLifeDays: number } {
  const halfLifeDays = options.halfLifeDays ?? DECAY_DEFAULTS.halfLifeDays;
  if (Number.isNaN(halfLifeDays) || halfLifeDays <= 0) {
    throw new CredenceError(
      'INVALID_INPUT',
      `halfLifeDays must be a number of days > 0 (Infinity turns decay off), got ${String(halfLifeDays)}`,
      { details: { halfLifeDays } },
    );
  }
  return { halfLifeDays };
}
