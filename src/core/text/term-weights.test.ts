import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { batchIdf, queryTermShare } from './term-weights.js';

describe('batchIdf', () => {
  const options = { minBatch: 100, genericWeight: 0.25, generic: new Set(['user']) };

  it('is ln(1 + max(N, minBatch) / df), a generic term times genericWeight', () => {
    const w = batchIdf(['camel', 'user', 'commit'], Int32Array.from([1, 1, 40]), 10, options);
    expect(w[0]).toBeCloseTo(Math.log(101), 15);
    expect(w[1]).toBeCloseTo(0.25 * Math.log(101), 15);
    expect(w[2]).toBeCloseTo(Math.log(1 + 100 / 40), 15);
    expect(batchIdf(['camel'], Int32Array.from([2]), 400, options)[0]).toBeCloseTo(Math.log(201), 15);
  });

  it('falls as a term gets commoner and stays positive', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5000 }), fc.integer({ min: 1, max: 5000 }), (a, b) => {
        const n = Math.max(a, b);
        const [wa, wb] = batchIdf(['a', 'b'], Int32Array.from([a, b]), n, options) as unknown as [number, number];
        expect(wa > 0 && wb > 0).toBe(true);
        if (a < b) expect(wa).toBeGreaterThan(wb);
      }),
    );
  });
});

describe('queryTermShare', () => {
  it('is the share of query words the text holds, a shared 5-letter prefix counting as the word', () => {
    expect(queryTermShare(['commits', 'tests'], 'Committed the fix')).toBe(0.5);
    expect(queryTermShare(['deploy', 'staging'], 'deploy to staging')).toBe(1);
    // Under 5 letters a word must match whole: "test" is not "testing".
    expect(queryTermShare(['test'], 'testing the build')).toBe(0);
    // The prefix is the text word's own: "commi" of "commit" does not stand in for a 4-letter word.
    expect(queryTermShare(['commit'], 'comm')).toBe(0);
  });

  it('is 0 for no query words and stays in [0, 1]', () => {
    expect(queryTermShare([], 'anything')).toBe(0);
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.stringMatching(/^[a-z]{1,8}$/), { maxLength: 6 }),
        fc.string({ maxLength: 60 }),
        (query, text) => {
          const share = queryTermShare(query, text);
          expect(share >= 0 && share <= 1).toBe(true);
        },
      ),
    );
  });
});
