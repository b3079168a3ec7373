import { describe, expect, it } from 'vitest';
import { isCredenceError } from './errors.js';
import { outcomeValue, parseOutcome, parseOutcomeKind } from './outcomes.js';
import { OUTCOMES } from './types.js';

describe('outcomes', () => {
  it('counts accepted, succeeded and validated as the claim holding, the rest as not', () => {
    expect(OUTCOMES.map((o) => [o, outcomeValue(o)])).toEqual([
      ['accepted', 1],
      ['rejected', 0],
      ['succeeded', 1],
      ['failed', 0],
      ['validated', 1],
      ['contradicted', 0],
    ]);
  });

  it('names a bad outcome or kind and the valid ones', () => {
    expect(parseOutcome('failed')).toBe('failed');
    expect(parseOutcomeKind('skill')).toBe('skill');
    const bad = (() => {
      try {
        parseOutcome('maybe');
      } catch (error) {
        return error;
      }
    })();
    expect(isCredenceError(bad, 'INVALID_INPUT') && bad.message).toBe(
      'outcome "maybe" is not an outcome: valid outcomes are accepted, rejected, succeeded, failed, validated, ' +
        'contradicted',
    );
    expect(() => parseOutcomeKind('tool', '--kind')).toThrow('--kind "tool" is not a kind of claim');
  });
});
