import { describe, expect, it } from 'vitest';
import type { Sample } from '../eval/data.js';
import { edgeKey, expectedCalibrationError } from '../eval/metrics.js';
import { voteBaseline } from '../eval/vote-baseline.js';
import { perQuery } from '../eval/learning-eval.js';

const answer = (confidence: number, outcome: number) => ({ confidence, outcome });

describe('expectedCalibrationError', () => {
  it('is 0 when each bin says on average what it got, and for no answers', () => {
    expect(expectedCalibrationError([answer(0.75, 1), answer(0.75, 1), answer(0.75, 1), answer(0.75, 0)])).toBe(0);
    expect(expectedCalibrationError([])).toBe(0);
  });

  it('weights each bin by its share of the answers', () => {
    // bin 9: mean confidence 0.95, mean outcome 1 → 0.05; bin 1: 0.15 against 0.5 → 0.35; half each.
    const e = expectedCalibrationError([answer(0.95, 1), answer(0.95, 1), answer(0.15, 1), answer(0.15, 0)]);
    expect(e).toBeCloseTo(0.5 * 0.05 + 0.5 * 0.35, 12);
    // three answers in the low bin, one in the high one.
    const w = expectedCalibrationError([answer(0.95, 1), answer(0.15, 1), answer(0.15, 0), answer(0.15, 0)]);
    expect(w).toBeCloseTo(0.25 * 0.05 + 0.75 * Math.abs(0.15 - 1 / 3), 12);
  });

  it('compares means within a bin, not each answer with its own outcome', () => {
    expect(expectedCalibrationError([answer(0.81, 1), answer(0.89, 0.7)])).toBeCloseTo(0, 12);
  });

  it('puts confidence 1 in the last of the 10 equal-width bins', () => {
    // 1.0 and 0.92 share bin 9: means 0.96 and 0.95.
    expect(expectedCalibrationError([answer(1, 0.9), answer(0.92, 1)])).toBeCloseTo(0.01, 12);
    // 0.1 starts bin 1, apart from 0.09 in bin 0.
    expect(expectedCalibrationError([answer(0.09, 0.09), answer(0.1, 0.5)])).toBeCloseTo(0.5 * 0.4, 12);
  });
});

describe('the k-nearest-intents vote baseline', () => {
  const call = (tool: string, consumes: number[] = []) => ({ tool, status: 'success' as const, consumes });
  const sample = (id: number, intent: string, tools: string[]): Sample => ({
    id: String(id),
    source: 'hand',
    intent,
    calls: tools.map((t, i) => call(t, i === 0 ? [] : [i - 1])),
  });

  it('keeps the tools and edges that at least half of the nearest intents used', () => {
    const train = [
      sample(1, 'find movies of an actor', ['search_person', 'person_movies']),
      sample(2, 'find the films of actor Tom', ['search_person', 'person_movies']),
      sample(3, 'find movies of an actor and their details', ['search_person', 'person_movies', 'movie_details']),
      sample(4, 'weather in Paris today', ['get_weather']),
      sample(5, 'weather forecast for London', ['geocode', 'get_weather']),
    ];
    const vote = voteBaseline(train);
    const dag = vote.dag('find movies of actor Greta');
    expect(dag.tools).toEqual(new Set(['search_person', 'person_movies']));
    expect(dag.edges).toEqual(new Set([edgeKey('search_person', 'person_movies')]));
    // Three votes each, both first used by the nearest intent: by name; then the one-vote tool.
    expect(vote.rank('find movies of actor Greta')).toEqual(['person_movies', 'search_person', 'movie_details']);
    expect(vote.rank('weather forecast for Rome')).toEqual(['get_weather', 'geocode']);
  });

  it('counts only the k = 5 nearest intents', () => {
    const train = [
      ...[1, 2, 3].map((i) => sample(i, 'alpha beta', ['x'])),
      ...[4, 5, 6, 7].map((i) => sample(i, 'alpha gamma delta epsilon', ['y'])),
    ];
    // Nearest 5: the three 'alpha beta' (x) and two others (y): x has the majority of 3.
    expect(voteBaseline(train).dag('alpha beta').tools).toEqual(new Set(['x']));
    // With k = 7, y's four votes are the majority and x's three are not.
    expect(voteBaseline(train, 7).dag('alpha beta').tools).toEqual(new Set(['y']));
  });

  it('falls back to the nearest intent’s most used tool without a majority, and proposes nothing for no match', () => {
    const train = [
      sample(1, 'zeta one', ['a']),
      sample(2, 'zeta two two', ['b']),
      sample(3, 'zeta three three three', ['c']),
    ];
    const vote = voteBaseline(train);
    expect(vote.dag('zeta one').tools).toEqual(new Set(['a']));
    expect(vote.dag('zeta one').edges.size).toBe(0);
    expect(vote.dag('nothing alike').tools.size).toBe(0);
    expect(vote.rank('nothing alike')).toEqual([]);
  });
});

describe('perQuery (section B2b): warm against cold, query by query', () => {
  it('counts better, worse and same, and the worse ones the warm answer warned of', () => {
    const cold = [0.5, 0.5, 1, 0, 0.25];
    const warm = [1, 0.25, 1, 0, 0];
    const warned = [true, true, false, false, false];
    expect(perQuery(cold, warm, warned)).toEqual({ better: 1, worse: 2, same: 2, worseWarned: 1 });
  });

  it('reads a difference below 1e-9 as the same, and a missing cold figure as 0', () => {
    expect(perQuery([0.3], [0.3 + 1e-12, 0.2], [])).toEqual({ better: 1, worse: 0, same: 1, worseWarned: 0 });
  });
});
