import { describe, expect, it } from 'vitest';
import { overlayMap } from './overlay-map.js';

describe('overlayMap', () => {
  it('reads as the map with the same changes made to it, over chains of overlays and once folded', () => {
    let seed = 7;
    const rng = () => {
      seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
      return seed / 2 ** 32;
    };
    const base = new Map(Array.from({ length: 200 }, (_, i) => [`k${i}`, i] as const));
    let plain = new Map<string, number>(base);
    let overlay: ReadonlyMap<string, number> = base;
    for (let step = 0; step < 60; step += 1) {
      const changes = new Map<string, number | undefined>();
      for (let j = 0; j < 1 + Math.floor(rng() * 4); j += 1) {
        const key = `k${Math.floor(rng() * 260)}`;
        changes.set(key, rng() < 0.3 ? undefined : Math.floor(rng() * 1000));
      }
      const next = new Map(plain);
      for (const [k, v] of changes) {
        if (v === undefined) next.delete(k);
        else next.set(k, v);
      }
      const [last, lastPlain] = [overlay, plain];
      overlay = overlayMap(overlay, changes);
      plain = next;
      // The map it was made from reads as before.
      expect(new Map(last)).toEqual(lastPlain);
      expect(overlay.size).toBe(plain.size);
      expect(new Map(overlay)).toEqual(plain);
      expect([...overlay.keys()].sort()).toEqual([...plain.keys()].sort());
      for (let i = 0; i < 260; i += 1) {
        expect(overlay.get(`k${i}`)).toBe(plain.get(`k${i}`));
        expect(overlay.has(`k${i}`)).toBe(plain.has(`k${i}`));
      }
    }
    expect(new Map(base).size).toBe(200);
    expect(base.get('k0')).toBe(0);
  });

  it('is the base itself without changes, and keeps an untouched base whole', () => {
    const base = new Map([
      ['a', 1],
      ['b', 2],
    ]);
    expect(overlayMap(base, new Map())).toBe(base);
    const big = new Map(Array.from({ length: 100 }, (_, i) => [`t${i}`, i] as const));
    const over = overlayMap(big, new Map([['t1', undefined]]));
    expect(over.has('t1')).toBe(false);
    expect(big.get('t1')).toBe(1);
    expect([...over.values()].length).toBe(99);
  });
});
