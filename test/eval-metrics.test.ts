import { describe, expect, it } from 'vitest';
import {
  dagEdges,
  edgeKey,
  mean,
  recallAtK,
  reciprocalRank,
  sameSet,
  setF1,
  truthEdges,
  truthTools,
} from '../eval/metrics.js';
import { shuffled, splitHalves, type Sample } from '../eval/data.js';

const set = (...items: string[]) => new Set(items);

describe('recallAtK', () => {
  it('is the share of the relevant items found in the top k', () => {
    expect(recallAtK(['a', 'b', 'c', 'd'], set('a', 'd'), 1)).toBe(0.5);
    expect(recallAtK(['a', 'b', 'c', 'd'], set('a', 'd'), 3)).toBe(0.5);
    expect(recallAtK(['a', 'b', 'c', 'd'], set('a', 'd'), 4)).toBe(1);
    expect(recallAtK(['x', 'y'], set('a'), 5)).toBe(0);
  });

  it('counts a relevant item once even when the ranking repeats it, and is 0 with nothing relevant', () => {
    expect(recallAtK(['a', 'a', 'b'], set('a', 'c'), 2)).toBe(0.5);
    expect(recallAtK(['a'], set(), 1)).toBe(0);
  });

  it('handles k beyond the list and k = 0', () => {
    expect(recallAtK(['a'], set('a'), 10)).toBe(1);
    expect(recallAtK(['a'], set('a'), 0)).toBe(0);
  });
});

describe('reciprocalRank', () => {
  it('is 1 over the rank of the first relevant item, 0 when none is ranked', () => {
    expect(reciprocalRank(['a', 'b', 'c'], set('a'))).toBe(1);
    expect(reciprocalRank(['a', 'b', 'c'], set('c', 'b'))).toBe(0.5);
    expect(reciprocalRank(['a', 'b', 'c', 'd'], set('d'))).toBe(0.25);
    expect(reciprocalRank(['a', 'b'], set('z'))).toBe(0);
    expect(reciprocalRank([], set('z'))).toBe(0);
  });
});

describe('setF1', () => {
  it('computes precision, recall and their harmonic mean', () => {
    const s = setF1(set('a', 'b', 'c', 'd'), set('a', 'b', 'e'));
    expect(s.precision).toBe(0.5);
    expect(s.recall).toBeCloseTo(2 / 3, 12);
    expect(s.f1).toBeCloseTo((2 * 0.5 * (2 / 3)) / (0.5 + 2 / 3), 12);
  });

  it('is 1 for equal sets, 0 for disjoint ones', () => {
    expect(setF1(set('a', 'b'), set('b', 'a'))).toEqual({ precision: 1, recall: 1, f1: 1 });
    expect(setF1(set('a'), set('b'))).toEqual({ precision: 0, recall: 0, f1: 0 });
  });

  it('scores both empty as perfect and exactly one empty as 0', () => {
    expect(setF1(set(), set()).f1).toBe(1);
    expect(setF1(set('a'), set()).f1).toBe(0);
    expect(setF1(set(), set('a')).f1).toBe(0);
  });
});

describe('sameSet and mean', () => {
  it('compares sets regardless of order', () => {
    expect(sameSet(set('a', 'b'), set('b', 'a'))).toBe(true);
    expect(sameSet(set('a'), set('a', 'b'))).toBe(false);
    expect(sameSet(set('a', 'c'), set('a', 'b'))).toBe(false);
  });

  it('averages, 0 for nothing', () => {
    expect(mean([1, 2, 3])).toBe(2);
    expect(mean([])).toBe(0);
  });
});

describe('ground-truth and predicted edges', () => {
  const call = (tool: string, consumes: number[] = []) => ({ tool, status: 'success' as const, consumes });

  it('takes consumes links as producer → consumer, or the previous call when a call consumes nothing', () => {
    const edges = truthEdges({ calls: [call('search'), call('details', [0]), call('book'), call('pay', [1, 2])] });
    expect([...edges].sort()).toEqual(
      [
        edgeKey('book', 'pay'),
        edgeKey('details', 'book'),
        edgeKey('details', 'pay'),
        edgeKey('search', 'details'),
      ].sort(),
    );
  });

  it('gives a single call no edge and drops self-pairs', () => {
    expect(truthEdges({ calls: [call('a')] }).size).toBe(0);
    expect([...truthEdges({ calls: [call('a'), call('a'), call('b', [0, 1])] })]).toEqual([edgeKey('a', 'b')]);
  });

  it('collects the distinct tools of an execution', () => {
    expect(truthTools({ calls: [call('a'), call('b'), call('a')] })).toEqual(set('a', 'b'));
  });

  it('reads DAG edges from dependsOn as tool pairs', () => {
    const tasks = [
      { id: 't1', tool: 'search', dependsOn: [] },
      { id: 't2', tool: 'details', dependsOn: ['t1'] },
      { id: 't3', tool: 'pay', dependsOn: ['t1', 't2', 'missing'] },
    ];
    expect([...dagEdges(tasks)].sort()).toEqual(
      [edgeKey('details', 'pay'), edgeKey('search', 'details'), edgeKey('search', 'pay')].sort(),
    );
  });
});

describe('the seeded split', () => {
  const samples: Sample[] = Array.from({ length: 10 }, (_, i) => ({
    id: String(i),
    source: i < 6 ? 'one' : 'two',
    intent: `q${i}`,
    calls: [],
  }));

  it('shuffles the same way for the same seed and keeps every item', () => {
    expect(shuffled(samples, 7)).toEqual(shuffled(samples, 7));
    expect(
      shuffled(samples, 7)
        .map((s) => s.id)
        .sort(),
    ).toEqual(samples.map((s) => s.id).sort());
  });

  it('halves each source file, disjointly, reproducibly', () => {
    const { a, b } = splitHalves(samples, 4);
    expect(a.filter((s) => s.source === 'one')).toHaveLength(3);
    expect(a.filter((s) => s.source === 'two')).toHaveLength(2);
    expect(a.length + b.length).toBe(10);
    expect(new Set([...a, ...b].map((s) => s.id)).size).toBe(10);
    expect(splitHalves(samples, 4)).toEqual({ a, b });
  });
});
