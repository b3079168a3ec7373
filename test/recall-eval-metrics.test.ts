import { describe, expect, it } from 'vitest';
import { ndcgAtK, scoreHighLabel } from '../eval/recall-metrics.js';
import { rankPool, toolMemory, withoutIds, type Pool } from '../eval/recall-eval.js';
import { benchMemories } from '../bench/recall.js';

const set = (...items: string[]) => new Set(items);

describe('ndcgAtK (binary relevance)', () => {
  it('is 1 for an ideal ranking and 0 with nothing relevant found', () => {
    expect(ndcgAtK(['a', 'b', 'c'], set('a', 'b'), 10)).toBe(1);
    expect(ndcgAtK(['x', 'y'], set('a'), 10)).toBe(0);
    expect(ndcgAtK(['a'], set(), 10)).toBe(0);
  });

  it('discounts by log2(rank + 1) against the ideal DCG', () => {
    // relevant at rank 2 only: (1 / log2 3) / (1 / log2 2)
    expect(ndcgAtK(['x', 'a'], set('a'), 10)).toBeCloseTo(1 / Math.log2(3), 12);
    // two relevant, found at ranks 1 and 3: (1 + 1/2) / (1 + 1/log2 3)
    expect(ndcgAtK(['a', 'x', 'b'], set('a', 'b'), 10)).toBeCloseTo(1.5 / (1 + 1 / Math.log2(3)), 12);
  });

  it('cuts at k, caps the ideal at k, and counts a repeated id once', () => {
    expect(ndcgAtK(['x', 'a'], set('a'), 1)).toBe(0);
    expect(ndcgAtK(['a'], set('a', 'b', 'c'), 1)).toBe(1);
    expect(ndcgAtK(['a', 'a'], set('a', 'b'), 10)).toBeCloseTo(1 / (1 + 1 / Math.log2(3)), 12);
    expect(ndcgAtK(['a'], set('a'), 0)).toBe(0);
  });
});

describe('scoreHighLabel', () => {
  it('gives micro-averaged precision, coverage over queries with a relevant top result, the share with a high', () => {
    const s = scoreHighLabel([
      // top relevant, 2 highs, 1 right
      { ranked: ['a', 'b', 'c'], labels: ['high', 'high', 'low'], relevant: set('a') },
      { ranked: ['a', 'b'], labels: ['medium', 'low'], relevant: set('a') }, // top relevant, no high
      { ranked: ['x', 'y'], labels: ['high', 'low'], relevant: set('y') }, // top wrong, 1 wrong high
      { ranked: [], labels: [], relevant: set('a') }, // nothing returned
    ]);
    expect(s.queries).toBe(4);
    expect(s.highs).toBe(3);
    expect(s.relevantHighs).toBe(1);
    expect(s.precision).toBeCloseTo(1 / 3, 12);
    expect(s.topRelevant).toBe(2);
    expect(s.coverage).toBe(0.5);
    expect(s.withHigh).toBe(0.5);
    expect(s.highsPerQuery).toBe(0.75);
  });

  it('reports NaN precision with no high and NaN coverage with no relevant top result', () => {
    const s = scoreHighLabel([{ ranked: ['x'], labels: ['medium'], relevant: set('a') }]);
    expect(s.precision).toBeNaN();
    expect(s.coverage).toBeNaN();
    expect(s.withHigh).toBe(0);
    expect(scoreHighLabel([]).withHigh).toBe(0);
  });
});

describe('recall eval helpers', () => {
  const candidate = (id: string, bm25Relative: number, similarity: number) => ({
    key: `memory:${id}`,
    id,
    bm25Relative,
    similarity,
    confidenceFactor: 1,
    recencyFactor: 1,
    termShare: 0.5,
  });
  const pool: Pool = {
    query: 'q',
    relevant: set('a'),
    candidates: [candidate('a', 1, 0.2), candidate('b', 0.5, 0.9), candidate('c', 0, 0.95)],
  };

  it('ranks a pool with the fused score and the key as tie-break', () => {
    expect(rankPool(pool, 1).map((r) => r.id)).toEqual(['a', 'b', 'c']);
    expect(rankPool(pool, 0).map((r) => r.id)).toEqual(['c', 'b', 'a']);
    expect(
      rankPool({ ...pool, candidates: [candidate('z', 0.5, 0.5), candidate('y', 0.5, 0.5)] }, 0.7).map((r) => r.id),
    ).toEqual(['y', 'z']);
    expect(rankPool(pool, 1, 2)).toHaveLength(2);
  });

  it('drops memories and re-normalises the BM25 ratios to the best one left', () => {
    const rest = withoutIds(pool, set('a'));
    expect(rest.candidates.map((c) => [c.id, c.bm25Relative])).toEqual([
      ['b', 1],
      ['c', 0],
    ]);
    expect(rest.relevant.size).toBe(0);
    expect(withoutIds(pool, set('a', 'b')).candidates.map((c) => c.bm25Relative)).toEqual([0]);
  });

  it('turns a tool into a note titled with its name split into words', () => {
    expect(toolMemory({ id: 'getHealthWorkforce', description: 'Nurses by country' })).toEqual({
      id: 'getHealthWorkforce',
      category: 'note',
      title: 'get health workforce',
      text: 'Nurses by country',
    });
    expect(toolMemory({ id: 'getX', description: 'd' }, 'name').title).toBe('getX');
  });

  it('makes bench memories that are seeded, distinct and perturbed beyond the catalogue', () => {
    const tools = [
      { name: 'getWeather', description: 'Get the weather forecast for a city' },
      { name: 'bookFlight', description: 'Book a flight between two airports' },
    ];
    const a = benchMemories(tools, 10);
    expect(benchMemories(tools, 10)).toEqual(a);
    expect(new Set(a.map((m) => m.id)).size).toBe(10);
    expect(
      a
        .slice(0, 2)
        .map((m) => m.text)
        .sort(),
    ).toEqual(tools.map((t) => t.description).sort());
    expect(a.every((m) => m.text.length > 0 && m.title.length > 0)).toBe(true);
    expect(new Set(a.map((m) => `${m.title}\n${m.text}`)).size).toBeGreaterThan(2);
  });
});
