import { describe, expect, it } from 'vitest';
import { openCredence } from '../engine.js';
import { openSqliteStore } from '../../store/sqlite/index.js';

const T0 = Date.parse('2026-03-01T00:00:00Z');

async function engine() {
  let n = 0;
  return openCredence({
    store: openSqliteStore({ path: ':memory:' }),
    scope: 's',
    now: T0,
    newId: () => `e${(n += 1)}`,
  });
}

const CATALOGUE = [
  { id: 'SearchPeople', description: 'Search for people by name and get their ids' },
  { id: 'GetPersonMovieCredit', description: 'Get the movie credits of a person id' },
  { id: 'GetTopRatedMovie', description: 'Get the top rated movies' },
  { id: 'GetMovieReview', description: 'Get the user reviews of a movie id' },
  { id: 'SearchTVShow', description: 'Search for TV shows by title' },
];

const filmsOf = (name: string) => ({
  intent: `find the films of ${name}`,
  startedAt: T0,
  calls: [
    { tool: 'SearchPeople', status: 'success' as const },
    { tool: 'GetPersonMovieCredit', status: 'success' as const, consumes: [0] },
  ],
});

describe('tool search learns from past runs (issue 19)', () => {
  it('with nothing learned ranks as without the memory; after runs, finds the tools the intent used', async () => {
    const cr = await engine();
    await cr.addTools(CATALOGUE);
    const query = 'list the films of Greta Gerwig';
    const cold = await cr.searchTools(query, { track: false });
    const coldNoMemory = await cr.searchTools(query, { track: false, memory: false });
    expect(cold.map((r) => [r.tool, r.score])).toEqual(coldNoMemory.map((r) => [r.tool, r.score]));
    for (const name of ['Sofia Coppola', 'Wes Anderson', 'Jane Campion']) await cr.recordExecution(filmsOf(name));
    const warm = await cr.searchTools(query, { track: false });
    expect(
      warm
        .slice(0, 2)
        .map((r) => r.tool)
        .sort(),
    ).toEqual(['GetPersonMovieCredit', 'SearchPeople']);
    const first = warm[0] as (typeof warm)[number] & { memory?: { vote: number; runs: string[] } };
    expect(first.memory?.vote).toBe(1);
    expect(first.memory?.runs).toHaveLength(3);
    await cr.close();
  });

  it('a rejected tool goes down and an accepted one up for a similar query, not for another task', async () => {
    const cr = await engine();
    await cr.addTools(CATALOGUE);
    const before = await cr.searchTools('top rated movies reviews');
    const review = before.find((r) => r.tool === 'GetMovieReview');
    const top = before.find((r) => r.tool === 'GetTopRatedMovie');
    expect(review?.shownId).toBeDefined();
    await cr.feedback(review?.shownId as string, 'accepted');
    await cr.feedback(top?.shownId as string, 'rejected');
    const after = await cr.searchTools('reviews of top rated movies', { track: false });
    const score = (list: typeof before, tool: string) => list.find((r) => r.tool === tool)?.score ?? 0;
    expect(score(after, 'GetMovieReview')).toBeGreaterThan(score(before, 'GetMovieReview'));
    expect(score(after, 'GetTopRatedMovie')).toBeLessThan(score(before, 'GetTopRatedMovie'));
    const other = await cr.searchTools('search tv shows by title', { track: false });
    expect(other.every((r) => !('feedback' in r))).toBe(true);
    await cr.close();
  });
});

describe('the way a DAG is chosen (issue 19)', () => {
  it('stays per intent unless another way beats it clearly on the paired replays', async () => {
    const { pickSelection } = await import('./search.js');
    const per = [0.5, 0.6, 0.4, 0.7, 0.5];
    const scores = (other: number[]) =>
      new Map([
        ['per-intent', per],
        ['evidence', other],
        ['fusion', per],
        ['search', per.map((v) => v - 0.1)],
      ] as const);
    expect(pickSelection(scores(per.map((v) => v + 0.1)))).toBe('evidence');
    expect(pickSelection(scores([0.9, 0.2, 0.4, 0.7, 0.5]))).toBe('per-intent');
    expect(pickSelection(scores(per))).toBe('per-intent');
  });
});

describe('fits measured on replays, kept across writes (issue 19)', () => {
  it('are measured again only when the past runs or tools change by more than a tenth', async () => {
    const { carriedOver } = await import('./experience.js');
    const run = (i: number) => ({
      id: `r${i}`,
      intent: `task ${i}`,
      startedAt: 0,
      calls: [{ tool: 'a', status: 'success' as const, retries: 0, at: 0 }],
    });
    const ctx = (runs: number, tools = 5) =>
      ({
        store: store,
        scope: 's',
        index: {
          executions: Array.from({ length: runs }, (_, i) => run(i)),
          toolIds: new Set(['t'].concat(Array.from({ length: tools }, (_, i) => `t${i}`))),
        },
      }) as never;
    const store = {};
    let measured = 0;
    const measure = async () => (measured += 1);
    await carriedOver(ctx(100), 'fit', measure);
    await carriedOver(ctx(105), 'fit', measure);
    expect(measured).toBe(1);
    await carriedOver(ctx(120), 'fit', measure);
    expect(measured).toBe(2);
    await carriedOver(ctx(120, 40), 'fit', measure);
    expect(measured).toBe(3);
  });
});

describe('intent halves (issue 19)', () => {
  it('splits an intent of six words or more in two, and leaves a short one whole', async () => {
    const { intentHalves } = await import('./learned-selection.js');
    expect(intentHalves("When is Clint Eastwood's latest movie released")).toEqual([
      "When is Clint Eastwood's",
      'latest movie released',
    ]);
    expect(intentHalves('find the movies of Greta')).toEqual([]);
  });
});
