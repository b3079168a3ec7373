import { describe, expect, it } from 'vitest';
import { codeOf } from '../../../test/helpers.js';
import { layoutGraph } from './graph-layout.js';

const ring = (n: number) => Array.from({ length: n }, (_, i) => ({ from: i, to: (i + 1) % n, weight: 1 }));

describe('graph layout', () => {
  it('gives the same picture for the same graph', () => {
    const a = layoutGraph(30, ring(30));
    const b = layoutGraph(30, ring(30));
    expect([...a.x]).toEqual([...b.x]);
    expect([...a.y]).toEqual([...b.y]);
    expect(a.method).toBe('force');
  });

  it('keeps every coordinate in [-1, 1], finite', () => {
    for (const n of [1, 2, 5, 50, 1000]) {
      const { x, y } = layoutGraph(n, n > 1 ? ring(n) : []);
      for (const v of [...x, ...y]) {
        expect(Number.isFinite(v)).toBe(true);
        expect(Math.abs(v)).toBeLessThanOrEqual(1 + 1e-9);
      }
    }
  });

  it('puts the first nodes (the most central) nearest the centre on the spiral', () => {
    const { x, y, method } = layoutGraph(1000, []);
    expect(method).toBe('spiral');
    const r = (i: number) => Math.hypot(x[i] as number, y[i] as number);
    expect(r(0)).toBeLessThan(r(10));
    expect(r(10)).toBeLessThan(r(999));
  });

  it('draws connected nodes closer than unconnected ones', () => {
    // Two triangles joined by nothing: within a triangle nodes sit closer than across.
    const edges = [
      { from: 0, to: 1, weight: 1 },
      { from: 1, to: 2, weight: 1 },
      { from: 2, to: 0, weight: 1 },
      { from: 3, to: 4, weight: 1 },
      { from: 4, to: 5, weight: 1 },
      { from: 5, to: 3, weight: 1 },
    ];
    const { x, y } = layoutGraph(6, edges);
    const d = (i: number, j: number) =>
      Math.hypot((x[i] as number) - (x[j] as number), (y[i] as number) - (y[j] as number));
    expect(Math.max(d(0, 1), d(1, 2), d(3, 4))).toBeLessThan(Math.min(d(0, 3), d(1, 4), d(2, 5)));
  });

  it('refuses an edge that names no node', () => {
    expect(codeOf(() => layoutGraph(3, [{ from: 0, to: 3, weight: 1 }]))).toBe('INVALID_INPUT');
    expect(codeOf(() => layoutGraph(-1, []))).toBe('INVALID_INPUT');
  });
});
