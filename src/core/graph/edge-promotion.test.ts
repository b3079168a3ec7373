import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codeOf } from '../../../test/helpers.js';
import {
  PROMOTION_DEFAULTS,
  forgetEdgeEvents,
  isConfirmed,
  observeEdge,
  promotedSource,
  templateEdge,
} from './edge-promotion.js';
import type { EdgeState } from './edge-promotion.js';
import { CALL_STATUSES, EDGE_SOURCES } from '../types.js';
import type { CallStatus } from '../types.js';

const T = Date.UTC(2025, 0, 1);
const HOUR = 3_600_000;
const success = (at: number) => ({ status: 'success' as const, at });
const failure = (at: number) => ({ status: 'failure' as const, at });

describe('templateEdge', () => {
  it('is a template with no counts and no dates', () => {
    expect(templateEdge()).toEqual({
      source: 'template',
      count: 0,
      successes: 0,
      failures: 0,
      firstSeen: null,
      lastSeen: null,
    });
    expect(templateEdge()).not.toBe(templateEdge());
  });

  it('counts as confirmed because a user declared it', () => {
    expect(isConfirmed(templateEdge())).toBe(true);
  });
});

describe('observeEdge', () => {
  it('follows the seed: template read_file → parse_json is inferred at the 1st execution, observed at the 3rd', () => {
    const e0 = templateEdge();
    const e1 = observeEdge(e0, success(T));
    expect(e1).toEqual({ source: 'inferred', count: 1, successes: 1, failures: 0, firstSeen: T, lastSeen: T });
    const e2 = observeEdge(e1, success(T + HOUR));
    expect(e2.source).toBe('inferred');
    expect(e2.count).toBe(2);
    const e3 = observeEdge(e2, success(T + 2 * HOUR));
    expect(e3).toEqual({
      source: 'observed',
      count: 3,
      successes: 3,
      failures: 0,
      firstSeen: T,
      lastSeen: T + 2 * HOUR,
    });
  });

  it('creates an edge first seen in an execution as inferred with count 1', () => {
    expect(observeEdge(undefined, success(T))).toEqual({
      source: 'inferred',
      count: 1,
      successes: 1,
      failures: 0,
      firstSeen: T,
      lastSeen: T,
    });
  });

  it('promotes an inferred edge with count 2 to observed with count 3 on the next execution', () => {
    const before: EdgeState = {
      source: 'inferred',
      count: 2,
      successes: 2,
      failures: 0,
      firstSeen: T,
      lastSeen: T + HOUR,
    };
    const after = observeEdge(before, success(T + 2 * HOUR));
    expect(after.source).toBe('observed');
    expect(after.count).toBe(3);
  });

  it('counts a partial call like a success', () => {
    const after = observeEdge(undefined, { status: 'partial', at: T });
    expect(after.count).toBe(1);
    expect(after.successes).toBe(1);
    expect(after.source).toBe('inferred');
  });

  it('records a failure without touching count, source or lastSeen', () => {
    const template = observeEdge(templateEdge(), failure(T));
    expect(template).toEqual({ ...templateEdge(), failures: 1 });
    const inferred: EdgeState = {
      source: 'inferred',
      count: 2,
      successes: 2,
      failures: 0,
      firstSeen: T,
      lastSeen: T + HOUR,
    };
    const after = observeEdge(inferred, failure(T + 5 * HOUR));
    expect(after).toEqual({ ...inferred, failures: 1 });
  });

  it('never promotes on failures, however many', () => {
    let state: EdgeState = { source: 'inferred', count: 2, successes: 2, failures: 0, firstSeen: T, lastSeen: T };
    for (let i = 1; i <= 10; i += 1) state = observeEdge(state, failure(T + i * HOUR));
    expect(state.source).toBe('inferred');
    expect(state.count).toBe(2);
    expect(state.failures).toBe(10);
  });

  it('creates an unconfirmed edge when a missing edge fails, confirmed by a later success', () => {
    const failed = observeEdge(undefined, failure(T));
    expect(failed).toEqual({ source: 'inferred', count: 0, successes: 0, failures: 1, firstSeen: T, lastSeen: null });
    expect(isConfirmed(failed)).toBe(false);
    const confirmed = observeEdge(failed, success(T + HOUR));
    expect(confirmed).toEqual({
      source: 'inferred',
      count: 1,
      successes: 1,
      failures: 1,
      firstSeen: T,
      lastSeen: T + HOUR,
    });
    expect(isConfirmed(confirmed)).toBe(true);
  });

  it('keeps lastSeen at the latest and firstSeen at the earliest time when events arrive out of order', () => {
    const late = observeEdge(undefined, success(T + 10 * HOUR));
    const early = observeEdge(late, success(T));
    expect(early.firstSeen).toBe(T);
    expect(early.lastSeen).toBe(T + 10 * HOUR);
  });

  it('never mutates the state it is given', () => {
    const before = Object.freeze(templateEdge());
    const copy = { ...before };
    const after = observeEdge(before, success(T));
    expect(before).toEqual(copy);
    expect(after).not.toBe(before);
    expect(observeEdge(before, failure(T))).not.toBe(before);
  });

  it('honours a different promotion count from the options', () => {
    const once = observeEdge(undefined, success(T), { observedAtCount: 1 });
    expect(once.source).toBe('observed');
    expect(PROMOTION_DEFAULTS.observedAtCount).toBe(3);
    expect(Object.isFrozen(PROMOTION_DEFAULTS)).toBe(true);
  });

  it('rejects an unknown status, a non-finite time and a malformed state', () => {
    expect(codeOf(() => observeEdge(undefined, { status: 'skipped' as CallStatus, at: T }))).toBe('INVALID_INPUT');
    expect(codeOf(() => observeEdge(undefined, { status: 'success', at: Number.NaN }))).toBe('INVALID_INPUT');
    expect(codeOf(() => observeEdge({ ...templateEdge(), count: -1 }, success(T)))).toBe('INVALID_INPUT');
    expect(codeOf(() => observeEdge(undefined, success(T), { observedAtCount: 0 }))).toBe('INVALID_INPUT');
  });

  it('never moves the source backwards nor lowers the count, for any sequence of events', () => {
    const rank = (s: EdgeState) => EDGE_SOURCES.indexOf(s.source);
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.array(fc.record({ status: fc.constantFrom(...CALL_STATUSES), at: fc.integer({ min: 0, max: 2 ** 40 }) }), {
          maxLength: 30,
        }),
        (fromTemplate, events) => {
          let state: EdgeState | undefined = fromTemplate ? templateEdge() : undefined;
          let confirmations = 0;
          for (const event of events) {
            const next = observeEdge(state, event);
            if (state !== undefined) {
              expect(rank(next)).toBeGreaterThanOrEqual(rank(state));
              expect(next.count).toBeGreaterThanOrEqual(state.count);
            }
            if (event.status !== 'failure') confirmations += 1;
            expect(next.count).toBe(confirmations);
            expect(next.source === 'observed').toBe(confirmations >= 3);
            state = next;
          }
        },
      ),
    );
  });
});

describe('promotedSource', () => {
  it('gives the source earned by a count without ever demoting', () => {
    expect(promotedSource('template', 0)).toBe('template');
    expect(promotedSource('template', 1)).toBe('inferred');
    expect(promotedSource('inferred', 2)).toBe('inferred');
    expect(promotedSource('inferred', 3)).toBe('observed');
    expect(promotedSource('observed', 0)).toBe('observed');
    expect(promotedSource('inferred', 0)).toBe('inferred');
  });

  it('rejects a negative or fractional count', () => {
    expect(codeOf(() => promotedSource('template', -1))).toBe('INVALID_INPUT');
    expect(codeOf(() => promotedSource('template', 1.5))).toBe('INVALID_INPUT');
  });
});

describe('forgetEdgeEvents', () => {
  const none = (): never => {
    throw new Error('the runs left were read though no date needed them');
  };
  it('takes a forgotten success back, dating the edge by the runs left when the forgotten run held the date', () => {
    let edge = observeEdge(undefined, { status: 'success', at: 10 });
    edge = observeEdge(edge, { status: 'failure', at: 20 });
    edge = observeEdge(edge, { status: 'success', at: 30 });
    edge = observeEdge(edge, { status: 'success', at: 40 });
    expect(edge).toMatchObject({ source: 'observed', count: 3, lastSeen: 40 });
    expect(
      forgetEdgeEvents(edge, [{ status: 'success', at: 40 }], () => [
        { status: 'success', at: 10 },
        { status: 'failure', at: 20 },
        { status: 'success', at: 30 },
      ]),
    ).toEqual({
      source: 'inferred',
      count: 2,
      successes: 2,
      failures: 1,
      firstSeen: 10,
      lastSeen: 30,
    });
    // A run that held neither date: the runs left are not read.
    expect(forgetEdgeEvents(edge, [{ status: 'failure', at: 20 }], none)).toMatchObject({ failures: 0, lastSeen: 40 });
  });

  it('leaves nothing of an edge only the forgotten runs taught, and a declared edge declared', () => {
    const learned = observeEdge(undefined, { status: 'success', at: 10 });
    expect(forgetEdgeEvents(learned, [{ status: 'success', at: 10 }], () => [])).toBeUndefined();
    const declared = observeEdge(templateEdge(), { status: 'failure', at: 10 });
    expect(declared.source).toBe('template');
    expect(forgetEdgeEvents(declared, [{ status: 'failure', at: 10 }], none)).toEqual(templateEdge());
    // Only failures left: an unconfirmed edge, as a failed call alone makes one.
    const tried = observeEdge(learned, { status: 'failure', at: 20 });
    expect(forgetEdgeEvents(tried, [{ status: 'success', at: 10 }], () => [{ status: 'failure', at: 20 }])).toEqual({
      source: 'inferred',
      count: 0,
      successes: 0,
      failures: 1,
      firstSeen: 20,
      lastSeen: null,
    });
  });
});
