import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boundSelector, type BoundRows } from './bound-select.js';

/**
 * The rows the first pass keeps, from the bounds' definition: a row's high and low as candidateRows computes them
 * (the same operations in the same order), and every row whose high reaches the k-th best low.
 */
function reference(chunks: BoundRows[], ints: Int32Array, k: number, t: Terms): number[] {
  const highs: number[] = [];
  const lows: number[] = [];
  let row = 0;
  for (const c of chunks)
    for (let r = 0; r < c.rows; r += 1, row += 1) {
      const s = c.scales[r] as number;
      const approx = s * (t.step * (ints[row] as number));
      const bound = Math.min(t.qNorm * (c.errors[r] as number), t.half * s) + t.slack * s;
      highs.push(approx + bound);
      lows.push(approx - bound);
    }
  const floor = [...lows].sort((a, b) => b - a)[k - 1] as number;
  return highs.flatMap((high, r) => (high >= floor ? [r] : []));
}

type Terms = { step: number; qNorm: number; half: number; slack: number };

describe('int8 first pass selection in WebAssembly', () => {
  it('keeps the rows whose upper bound reaches the k-th best lower bound, chunk after chunk, ties included', () => {
    const selector = boundSelector();
    expect(selector).toBeDefined();
    const CHUNK = fc.integer({ min: 1, max: 40 }).chain((rows) =>
      fc.record({
        rows: fc.constant(rows),
        // Few distinct values: many equal bounds.
        scales: fc.array(fc.constantFrom(0, 0.001, 0.0125, 0.5), { minLength: rows, maxLength: rows }),
        errors: fc.array(fc.constantFrom(0, 0.01, 0.3), { minLength: rows, maxLength: rows }),
      }),
    );
    fc.assert(
      fc.property(
        fc.array(CHUNK, { minLength: 1, maxLength: 5 }),
        fc.infiniteStream(fc.integer({ min: -3000, max: 3000 })),
        fc.integer({ min: 1, max: 60 }),
        fc.record({
          step: fc.double({ min: 1e-6, max: 0.01, noNaN: true }),
          qNorm: fc.double({ min: 0, max: 2, noNaN: true }),
          half: fc.double({ min: 0, max: 8, noNaN: true }),
          slack: fc.double({ min: 0, max: 1e-3, noNaN: true }),
        }),
        (raw, stream, want, terms) => {
          const chunks: BoundRows[] = raw.map((c) => ({
            rows: c.rows,
            scales: Float32Array.from(c.scales),
            errors: Float32Array.from(c.errors),
          }));
          const n = chunks.reduce((sum, c) => sum + c.rows, 0);
          const it = stream[Symbol.iterator]();
          const ints = Int32Array.from({ length: n }, () => it.next().value as number);
          const k = Math.min(want, n);
          expect(selector?.select(chunks, ints, k, terms)).toEqual(reference(chunks, ints, k, terms));
        },
      ),
      { numRuns: 300 },
    );
  });
});
