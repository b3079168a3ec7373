import { describe, expect, it } from 'vitest';
import { hashRowFinder } from './hash-rows.js';

/** The rows whose hash is wanted, by a loop over every row. */
function rowsByLoop(chunks: readonly Uint32Array[], wanted: readonly number[]): number[] {
  const set = new Set(wanted);
  const out: number[] = [];
  let row = 0;
  for (const c of chunks) for (const h of c) set.has(h) ? out.push(row++) : row++;
  return out;
}

describe('hash-rows (WebAssembly)', () => {
  const finder = hashRowFinder();

  it('is there where WebAssembly is', () => {
    expect(finder).toBeDefined();
  });

  it('finds the rows of the wanted hashes as a loop over every row does, collisions and high bits included', () => {
    let seed = 7;
    const next = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed;
    };
    for (let round = 0; round < 30; round += 1) {
      // Hashes from a small range (many rows share one; many wanted ones share a table slot) or any 32 bits.
      const spread = round % 2 === 0 ? 64 : 2 ** 32;
      const pick = () => (round % 2 === 0 ? next() % spread : next()) >>> 0;
      const chunks = Array.from({ length: 1 + (next() % 6) }, () => Uint32Array.from({ length: next() % 300 }, pick));
      const all = chunks.flatMap((c) => [...c]);
      const wanted = Array.from({ length: next() % 40 }, () =>
        all.length > 0 && next() % 3 !== 0 ? (all[next() % all.length] as number) : pick(),
      );
      wanted.push(0xffffffff, 0x80000000);
      if (round === 0) chunks.push(Uint32Array.from([0xffffffff, 1, 0x80000000, 0]));
      expect([...(finder?.find(chunks, wanted) ?? [])]).toEqual(rowsByLoop(chunks, wanted));
    }
  });

  it('finds nothing for no wanted hash, and across a memory grown for a larger index', () => {
    expect([...(finder?.find([Uint32Array.from([1, 2, 3])], []) ?? [1])]).toEqual([]);
    const big = Array.from({ length: 4 }, (_, c) => Uint32Array.from({ length: 50_000 }, (_, i) => c * 50_000 + i));
    expect([...(finder?.find(big, [7, 149_999, 199_999]) ?? [])]).toEqual([7, 149_999, 199_999]);
    expect([...(finder?.find([Uint32Array.from([5, 6, 5])], [5]) ?? [])]).toEqual([0, 2]);
  });
});
