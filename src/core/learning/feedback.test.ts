import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codeOf } from '../../../test/helpers.js';
import { FEEDBACK_DELTAS, applyFeedback } from './feedback.js';
import type { FeedbackEvent } from './feedback.js';
import { FEEDBACK_KINDS } from '../types.js';
import type { FeedbackKind } from '../types.js';

describe('applyFeedback', () => {
  it('adds +0.3 for explicit feedback, +0.2 for a validation or a correction, −0.3 for a contradiction', () => {
    expect(applyFeedback(0.5, [{ id: 'a', kind: 'explicit' }]).value).toBe(0.8);
    expect(applyFeedback(0.5, [{ id: 'a', kind: 'validation' }]).value).toBe(0.7);
    expect(applyFeedback(0.5, [{ id: 'a', kind: 'correction' }]).value).toBe(0.7);
    expect(applyFeedback(0.5, [{ id: 'a', kind: 'contradiction' }]).value).toBe(0.2);
  });

  it('returns the base unchanged with no events', () => {
    expect(applyFeedback(0.42, [])).toEqual({ value: 0.42, parts: { base: 0.42, applied: [], ignoredDuplicates: [] } });
  });

  it('turns a 0.5 instinct into a 0.7 skill with one user validation, as in the seed life cycle', () => {
    expect(applyFeedback(0.5, [{ id: 'v1', kind: 'validation' }])).toEqual({
      value: 0.7,
      parts: { base: 0.5, applied: [{ id: 'v1', kind: 'validation', delta: 0.2 }], ignoredDuplicates: [] },
    });
  });

  it('applies each event id once and lists the repeated ids', () => {
    const result = applyFeedback(0.4, [
      { id: 'e1', kind: 'validation' },
      { id: 'e1', kind: 'validation' },
      { id: 'e2', kind: 'explicit' },
      { id: 'e1', kind: 'explicit' },
      { id: 'e2', kind: 'explicit' },
    ]);
    expect(result.value).toBe(0.9);
    expect(result.parts.applied.map((event) => event.id)).toEqual(['e1', 'e2']);
    expect(result.parts.ignoredDuplicates).toEqual(['e1', 'e2']);
  });

  it('clamps only at the end, so a rise past 1 and a fall back are both counted', () => {
    // 0.9 + 0.3 − 0.3 = 0.9; clamping after each step would give 0.7.
    expect(
      applyFeedback(0.9, [
        { id: 'a', kind: 'explicit' },
        { id: 'b', kind: 'contradiction' },
      ]).value,
    ).toBe(0.9);
  });

  it('clamps the result to [0, 1]', () => {
    expect(applyFeedback(0.9, [{ id: 'a', kind: 'explicit' }]).value).toBe(1);
    expect(applyFeedback(0.1, [{ id: 'a', kind: 'contradiction' }]).value).toBe(0);
  });

  it('uses the deltas given in the options without changing the defaults', () => {
    expect(applyFeedback(0.5, [{ id: 'a', kind: 'contradiction' }], { contradiction: -0.5 }).value).toBe(0);
    expect(FEEDBACK_DELTAS.contradiction).toBe(-0.3);
    expect(Object.isFrozen(FEEDBACK_DELTAS)).toBe(true);
  });

  it('rejects a base outside [0, 1], an unknown kind, an empty id or an out-of-range delta with INVALID_INPUT', () => {
    expect(codeOf(() => applyFeedback(1.5, []))).toBe('INVALID_INPUT');
    expect(codeOf(() => applyFeedback(0.5, [{ id: 'a', kind: 'praise' as FeedbackKind }]))).toBe('INVALID_INPUT');
    expect(codeOf(() => applyFeedback(0.5, [{ id: '', kind: 'explicit' }]))).toBe('INVALID_INPUT');
    expect(codeOf(() => applyFeedback(0.5, [], { explicit: 2 }))).toBe('INVALID_INPUT');
  });

  it('always stays within [0, 1]', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.array(
          fc.record({ id: fc.string({ minLength: 1, maxLength: 3 }), kind: fc.constantFrom(...FEEDBACK_KINDS) }),
          {
            maxLength: 30,
          },
        ),
        (base, events) => {
          const { value } = applyFeedback(base, events);
          expect(value).toBeGreaterThanOrEqual(0);
          expect(value).toBeLessThanOrEqual(1);
        },
      ),
    );
  });

  it('does not depend on the order of the events', () => {
    // The kind is a function of the id, so a repeated id is the same event whichever copy comes first.
    const kindOf = (id: number): FeedbackKind => FEEDBACK_KINDS[id % FEEDBACK_KINDS.length] ?? 'explicit';
    const eventsAndShuffle = fc
      .array(fc.integer({ min: 0, max: 12 }), { maxLength: 20 })
      .map((ids): FeedbackEvent[] => ids.map((id) => ({ id: `e${id}`, kind: kindOf(id) })))
      .chain((events) =>
        fc.tuple(
          fc.constant(events),
          fc.shuffledSubarray(events, { minLength: events.length, maxLength: events.length }),
        ),
      );
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100 }), eventsAndShuffle, (percent, [events, shuffled]) => {
        const base = percent / 100;
        expect(applyFeedback(base, shuffled).value).toBe(applyFeedback(base, events).value);
      }),
    );
  });
});
