import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codeOf } from '../../../test/helpers.js';
import { densityOfEdges, graphDensity } from './graph-density.js';

describe('graphDensity', () => {
  it('divides the edges by the directed pairs possible', () => {
    expect(graphDensity(4, 6)).toBe(0.5);
    expect(graphDensity(2, 2)).toBe(1);
    expect(graphDensity(100, 99)).toBe(0.01);
  });

  it('is 0 with fewer than two vertices', () => {
    expect(graphDensity(0, 0)).toBe(0);
    expect(graphDensity(1, 0)).toBe(0);
  });

  it('rejects negative or fractional counts and more edges than pairs', () => {
    expect(codeOf(() => graphDensity(-1, 0))).toBe('INVALID_INPUT');
    expect(codeOf(() => graphDensity(3, 1.5))).toBe('INVALID_INPUT');
    expect(codeOf(() => graphDensity(3, 7))).toBe('INVALID_INPUT');
    expect(codeOf(() => graphDensity(1, 1))).toBe('INVALID_INPUT');
  });
});

describe('densityOfEdges', () => {
  it('counts called tools and every edge endpoint as vertices but only confident pairs as edges', () => {
    const result = densityOfEdges(
      [
        { from: 'read', to: 'parse', confidence: 0.85 },
        { from: 'parse', to: 'write', confidence: 0.65 },
        { from: 'parse', to: 'debug', confidence: 0.2 },
      ],
      ['read', 'parse', 'write', 'lint'],
    );
    expect(result).toEqual({ density: 2 / 20, vertices: 5, edges: 2 });
  });

  it('counts a (from, to) pair once whatever its edge types', () => {
    const result = densityOfEdges(
      [
        { from: 'a', to: 'b', confidence: 0.5 },
        { from: 'a', to: 'b', confidence: 1 },
        { from: 'b', to: 'a', confidence: 0.35 },
      ],
      [],
    );
    expect(result).toEqual({ density: 1, vertices: 2, edges: 2 });
  });

  it('counts the 0.30 boundary as confident and ignores self-loops', () => {
    const result = densityOfEdges(
      [
        { from: 'a', to: 'b', confidence: 0.6 * 0.5 },
        { from: 'a', to: 'a', confidence: 1 },
      ],
      ['c'],
    );
    expect(result).toEqual({ density: 1 / 6, vertices: 3, edges: 1 });
  });

  it('keeps a large catalogue of template edges below the threshold in cold start', () => {
    const tools = Array.from({ length: 200 }, (_, i) => `t${i}`);
    const templates = tools.slice(1).map((to, i) => ({ from: tools[i]!, to, confidence: 0.25 }));
    expect(densityOfEdges(templates, tools)).toEqual({ density: 0, vertices: 200, edges: 0 });
  });

  it('uses the threshold from the options', () => {
    const edges = [{ from: 'a', to: 'b', confidence: 0.4 }];
    expect(densityOfEdges(edges, [], { threshold: 0.5 }).edges).toBe(0);
    expect(densityOfEdges(edges, []).edges).toBe(1);
  });

  it('accepts any iterable of called tools, counting duplicates once', () => {
    expect(densityOfEdges([], new Set(['a', 'b'])).vertices).toBe(2);
    expect(densityOfEdges([], ['a', 'a', 'b']).vertices).toBe(2);
  });

  it('rejects a NaN confidence or threshold', () => {
    expect(codeOf(() => densityOfEdges([{ from: 'a', to: 'b', confidence: Number.NaN }], []))).toBe('INVALID_INPUT');
    expect(codeOf(() => densityOfEdges([], [], { threshold: Number.NaN }))).toBe('INVALID_INPUT');
  });

  it('agrees with a naive count of distinct confident pairs and stays in [0, 1]', () => {
    const names = fc.constantFrom('a', 'b', 'c', 'd', 'e');
    fc.assert(
      fc.property(
        fc.array(fc.record({ from: names, to: names, confidence: fc.double({ min: 0, max: 1, noNaN: true }) })),
        fc.array(names),
        (edges, called) => {
          const result = densityOfEdges(edges, called);
          const vertices = new Set([...called, ...edges.flatMap((e) => [e.from, e.to])]);
          const pairs = new Set(
            edges.filter((e) => e.from !== e.to && e.confidence >= 0.3 - 1e-9).map((e) => `${e.from}>${e.to}`),
          );
          expect(result.vertices).toBe(vertices.size);
          expect(result.edges).toBe(pairs.size);
          expect(result.density).toBeGreaterThanOrEqual(0);
          expect(result.density).toBeLessThanOrEqual(1);
        },
      ),
    );
  });
});
