import { describe, expect, it } from 'vitest';
import { bm25Kernel } from './bm25-kernel.js';
import { IntentIndex } from './intent-index.js';

/** The loop the kernel stands for (intent-index.ts without WebAssembly). */
function byLoop(n: number, norms: Float64Array, terms: { postings: Int32Array; idf: number }[], skip: number) {
  const scores = new Float64Array(n);
  const touched: number[] = [];
  for (const { postings, idf } of terms)
    for (let at = 0; at < postings.length; at += 2) {
      const doc = postings[at] as number;
      if (doc === skip) continue;
      const tf = postings[at + 1] as number;
      if (scores[doc] === 0) touched.push(doc);
      scores[doc] = (scores[doc] as number) + (idf * tf * (1.2 + 1)) / (tf + (norms[doc] as number));
    }
  return { touched, scores: touched.map((doc) => scores[doc]) };
}

describe('BM25 kernel (WebAssembly)', () => {
  const kernel = bm25Kernel();

  it('is there where WebAssembly is', () => {
    expect(kernel).toBeDefined();
  });

  it('scores as the loop does, to the bit, the texts touched in the same order, and leaves zeros after', () => {
    let seed = 3;
    const next = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed / 2 ** 32;
    };
    for (let round = 0; round < 40; round += 1) {
      // Sizes that make the memory grow and shrink the layout between searches.
      const n = 1 + Math.floor(next() * (round % 5 === 0 ? 40_000 : 300));
      const norms = Float64Array.from({ length: n }, () => 0.3 + next() * 2);
      const terms = Array.from({ length: Math.floor(next() * 4) }, () => ({
        postings: Int32Array.from({ length: 2 * Math.floor(next() * n) }, (_, i) =>
          i % 2 === 0 ? Math.floor(next() * n) : 1 + Math.floor(next() * 3),
        ),
        idf: next() * 5,
      }));
      const skip = next() < 0.5 ? Math.floor(next() * n) : -1;
      const scoring = kernel?.begin(
        norms,
        terms.map((t) => t.postings),
      );
      for (const t of terms) scoring?.add(t.postings, skip, t.idf, 1.2 + 1);
      const touched = [...(scoring?.touched ?? [])];
      const scores = touched.map((doc) => scoring?.scores[doc]);
      expect({ touched, scores }).toEqual(byLoop(n, norms, terms, skip));
      // Every touched score set back to 0, or (one round in three) left as it was: the next search starts clean.
      if (round % 3 !== 0) {
        for (const doc of touched) (scoring as { scores: Float64Array }).scores[doc] = 0;
        scoring?.done();
      }
    }
  });

  it('an intent search whose ranking threw answers the next search as a new index does', () => {
    const texts = ['send the email', 'send a report by email', 'resize the image', 'email the image'];
    const index = new IntentIndex(texts);
    const want = [index.search('send email', 3), index.search('image', 3)];
    expect(want[0]?.length).toBe(3);
    expect(() =>
      index.search('email image', 3, undefined, () => {
        throw new Error('rank');
      }),
    ).toThrow('rank');
    expect([index.search('send email', 3), index.search('image', 3)]).toEqual(want);
  });
});
