import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Credence, openCredence } from '../engine.js';
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

/** Two flight tools; runs of them take one step (`ONE_STEP`) or two, the second using the first (`TWO_STEPS`). */
async function flightsEngine() {
  const cr = await engine();
  await cr.addTools([
    { id: 'search_airport', description: 'Find the airport code of a city' },
    { id: 'search_flights', description: 'Find flights between two airports' },
  ]);
  return cr;
}
const TWO_STEPS = [
  { tool: 'search_airport', status: 'success' as const },
  { tool: 'search_flights', status: 'success' as const, consumes: [0] },
];
const ONE_STEP = [{ tool: 'search_flights', status: 'success' as const }];

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
    // The same tiny gain on every run has no spread to measure, not a spread of zero: under the resolution, no move.
    expect(pickSelection(scores(per.map((v) => v + 0.0004)))).toBe('per-intent');
    expect(pickSelection(scores(per.map((v) => v + 0.002)))).toBe('evidence');
  });
});

describe('learning never does worse: the memory answers only above its noise (issue 19)', () => {
  it('answers a few past runs that disagree with the DAG without the memory, and says so', async () => {
    const cr = await flightsEngine();
    for (const [city, calls] of [
      ['London', TWO_STEPS],
      ['Paris', TWO_STEPS],
      ['Rome', ONE_STEP],
    ] as const)
      await cr.recordExecution({ intent: `find flights from ${city}`, startedAt: T0, calls: [...calls] });
    const intent = 'find flights from Berlin';
    const answer = await cr.suggestDag(intent, { track: false });
    const without = await cr.suggestDag(intent, { track: false, useMemory: false });
    expect(answer.dag).toEqual(without.dag);
    expect(answer.memory).toBeUndefined();
    expect(answer.way).toMatchObject({ way: 'search', replays: 3 });
    expect(answer.way?.why).toMatch(/^the memory left out: on 3 past runs replayed to choose the way/);
    // Asked for, the memory's way still answers (and differs).
    const asked = await cr.suggestDag(intent, { track: false, selection: 'per-intent' });
    expect(asked.memory?.backed).toBe(true);
    expect(asked.way).toBeUndefined();
    expect(asked.dag).not.toEqual(answer.dag);
    await cr.close();
  });

  it('with ten replays or more, the DAG without the memory gets the calibrated search confidence', async () => {
    const cr = await flightsEngine();
    const cities = ['London', 'Paris', 'Rome', 'Madrid', 'Lisbon', 'Vienna', 'Prague', 'Warsaw', 'Oslo', 'Dublin'];
    // Half the runs took one step, half two: the memory's way helps on some replays and hurts on as many.
    for (const [i, city] of [...cities, 'Athens', 'Zurich'].entries()) {
      const calls = i % 2 === 1 ? ONE_STEP : TWO_STEPS;
      await cr.recordExecution({ intent: `find flights from ${city}`, startedAt: T0, calls });
    }
    const answer = await cr.suggestDag('find flights from Berlin', { track: false });
    const without = await cr.suggestDag('find flights from Berlin', { track: false, useMemory: false });
    expect(answer.way).toMatchObject({ way: 'search', replays: 12 });
    expect(answer.dag).toEqual(without.dag);
    expect(answer).toMatchObject({ confidenceBasis: 'search', replays: 12 });
    expect(without.confidenceBasis).toBe('seed');
    expect(answer.seedConfidence).toBe(without.confidence);
    await cr.close();
  });

  it('calibrates the search alone on the gate replays, which hid the links each run alone made', async () => {
    const cr = await flightsEngine();
    // More runs than the gate replays (50) and fewer than the calibration's search replays (100).
    for (let i = 0; i < 60; i += 1) {
      const calls = i % 2 === 1 ? ONE_STEP : TWO_STEPS;
      await cr.recordExecution({ intent: `find flights from airport ${i}`, startedAt: T0, calls });
    }
    const answer = await cr.suggestDag('find flights from Berlin', { track: false });
    expect(answer.way).toMatchObject({ way: 'search', replays: 50 });
    expect(answer.way?.preferred).not.toBe('search');
    expect(answer).toMatchObject({ confidenceBasis: 'search', replays: 50 });
    expect(Object.keys(answer.way ?? {})).not.toContain('searchFit');
    await cr.close();
  });

  it('answers with the learned workflow once past runs agree on it', async () => {
    const cr = await engine();
    await cr.addTools(CATALOGUE);
    for (const name of ['Sofia Coppola', 'Wes Anderson', 'Jane Campion', 'Agnes Varda'])
      await cr.recordExecution(filmsOf(name));
    const answer = await cr.suggestDag('list the films of Greta Gerwig', { track: false });
    expect(answer.way?.way).not.toBe('search');
    expect(answer.way?.replays).toBe(4);
    expect(answer.way?.gain).toBeGreaterThan(answer.way?.standardError ?? 1);
    expect(answer.way?.why).toContain('more than one standard error');
    const tasks = answer.dag.tasks;
    expect(tasks.map((t) => t.tool)).toEqual(['SearchPeople', 'GetPersonMovieCredit']);
    expect(tasks[1]?.dependsOn).toEqual([tasks[0]?.id]);
    await cr.close();
  });
});

describe('a way chosen on fewer runs than its sample (issue 19)', () => {
  const NAMES = ['Sofia Coppola', 'Wes Anderson', 'Jane Campion', 'Agnes Varda', 'Greta Lee', 'Ava DuVernay'];
  const MORE = ['Chloe Zhao', 'Kathryn Bigelow', 'Lynne Ramsay', 'Mia Hansen', 'Celine Sciamma'];
  const ASK = 'list the films of Greta Gerwig';
  const shown = (d: Awaited<ReturnType<Credence['suggestDag']>>) => ({
    way: d.way,
    confidence: d.confidence,
    basis: d.confidenceBasis,
    tools: d.dag.tasks.map((t) => t.tool),
  });

  it('is chosen again once runs are added, in the same process or a new one, as a fresh engine would', async () => {
    const fresh = await engine();
    await fresh.addTools(CATALOGUE);
    for (const name of [...NAMES, ...MORE]) await fresh.recordExecution(filmsOf(name));
    const expected = shown(await fresh.suggestDag(ASK, { track: false }));
    expect(expected.way).toMatchObject({ way: 'per-intent', replays: 11 });
    await fresh.close();

    const dir = mkdtempSync(join(tmpdir(), 'credence-gate-'));
    let n = 0;
    const open = () =>
      openCredence({
        store: openSqliteStore({ path: join(dir, 'c.db') }),
        scope: 's',
        now: T0,
        newId: () => `f${(n += 1)}`,
      });
    try {
      const first = await open();
      await first.addTools(CATALOGUE);
      await first.recordExecution(filmsOf(NAMES[0] as string));
      expect((await first.suggestDag(ASK, { track: false })).way).toMatchObject({ way: 'search', replays: 1 });
      for (const name of NAMES.slice(1)) await first.recordExecution(filmsOf(name));
      expect((await first.suggestDag(ASK, { track: false })).way).toMatchObject({ replays: 6 });
      await first.close();
      const second = await open();
      for (const name of MORE) await second.recordExecution(filmsOf(name));
      await second.close();
      const third = await open();
      expect(shown(await third.suggestDag(ASK, { track: false }))).toEqual(expected);
      await third.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
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
    await carriedOver(ctx(100), 'fit', 50, measure);
    await carriedOver(ctx(105), 'fit', 50, measure);
    expect(measured).toBe(1);
    await carriedOver(ctx(120), 'fit', 50, measure);
    expect(measured).toBe(2);
    await carriedOver(ctx(120, 40), 'fit', 50, measure);
    expect(measured).toBe(3);
    // Under `exactBelow` runs, a fit stands only at the count it was measured at.
    await carriedOver(ctx(1), 'few', 50, measure);
    await carriedOver(ctx(1), 'few', 50, measure);
    expect(measured).toBe(4);
    await carriedOver(ctx(2), 'few', 50, measure);
    expect(measured).toBe(5);
    // Without it, the same change is within the 10 runs a fit is kept for.
    await carriedOver(ctx(1), 'few', 0, measure);
    await carriedOver(ctx(11), 'few', 0, measure);
    expect(measured).toBe(5);
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

describe('past runs that fell back from a failed tool (walk 16, item 10)', () => {
  it('propose the fallback alone: a tool that failed in every run gets no vote, nor a link to it', async () => {
    const cr = await engine();
    await cr.addTools([
      { id: 'Grep', description: 'Search file contents with a regular expression' },
      { id: 'filesystem:search_files', description: 'Search files for a pattern' },
    ]);
    const calls = [
      { tool: 'Grep', status: 'failure' as const, input: '{"pattern":"TODO"}' },
      { tool: 'filesystem:search_files', status: 'success' as const, input: '{"pattern":"TODO"}' },
    ];
    for (let i = 0; i < 2; i += 1) await cr.recordExecution({ intent: 'find the TODO markers', startedAt: T0, calls });
    const answer = await cr.suggestDag('find the TODO markers', { track: false, useSearch: false });
    expect(answer.dag.tasks.map((t) => t.tool)).toEqual(['filesystem:search_files']);
    expect(answer.paths.filter((p) => p.from === 'Grep')).toEqual([]);
    await cr.close();
  });

  it('keep the order through the tool left out: search_files after Read (review F, item 6)', async () => {
    const cr = await engine();
    await cr.addTools([
      { id: 'Read', description: 'Read a file from disk' },
      { id: 'Grep', description: 'Search file contents with a regular expression' },
      { id: 'filesystem:search_files', description: 'Search files for a pattern' },
    ]);
    const calls = [
      { tool: 'Read', status: 'success' as const, input: '{"file_path":"notes.md"}' },
      { tool: 'Grep', status: 'failure' as const, input: '{"pattern":"TODO"}' },
      { tool: 'filesystem:search_files', status: 'success' as const, input: '{"pattern":"TODO"}' },
    ];
    const intent = 'read the notes then find the TODO markers';
    for (let i = 0; i < 3; i += 1) await cr.recordExecution({ intent, startedAt: T0, calls });
    const answer = await cr.suggestDag(intent, { track: false, useSearch: false });
    const read = answer.dag.tasks.find((t) => t.tool === 'Read');
    expect(answer.dag.tasks.map((t) => t.tool)).toEqual(['Read', 'filesystem:search_files']);
    expect(answer.dag.tasks.find((t) => t.tool === 'filesystem:search_files')?.dependsOn).toEqual([read?.id]);
    await cr.close();
  });
});

describe('past runs in a loop (walk 18, item 3)', () => {
  // Crawls: fetch, extract from it, fetch what it found, extract again. Each direction is a link of every run;
  // 'extract_links' sorts before 'fetch_page', so a tie broken by name put the extraction first.
  async function crawls(fetch: string, extract: string, runs: number) {
    const cr = await engine();
    await cr.addTools([
      { id: fetch, description: 'fetch a web page' },
      { id: extract, description: 'extract links from a web page' },
      { id: 'save_note', description: 'save a note' },
    ]);
    const calls = [
      { tool: fetch, status: 'success' as const },
      { tool: extract, status: 'success' as const, consumes: [0] },
      { tool: fetch, status: 'success' as const, consumes: [1] },
      { tool: extract, status: 'success' as const, consumes: [2] },
    ];
    for (let i = 0; i < runs; i += 1)
      await cr.recordExecution({
        intent: `crawl the site links ${i % 3 === 0 ? 'again' : 'now'}`,
        startedAt: T0,
        calls,
      });
    return cr;
  }

  it("are broken where the runs went back, not by the tools' names, when voted with the search", async () => {
    for (const [fetch, extract] of [
      ['fetch_page', 'extract_links'],
      ['b_fetch_page', 'a_extract_links'],
    ] as const) {
      const cr = await crawls(fetch, extract, 4);
      const answer = await cr.suggestDag('crawl the site links', { track: false });
      expect(answer.confidenceBasis).toBe('memory');
      expect(answer.dag.tasks.map((t) => [t.tool, t.dependsOn])).toEqual([
        [fetch, []],
        [extract, ['t1']],
      ]);
      await cr.close();
    }
  });

  it('and in the DAG chosen by evidence', async () => {
    const cr = await crawls('fetch_page', 'extract_links', 12);
    const answer = await cr.suggestDag('crawl the site links', { track: false, selection: 'evidence' });
    expect(answer.confidenceBasis).toBe('evidence');
    expect(answer.dag.tasks.map((t) => [t.tool, t.dependsOn])).toEqual([
      ['fetch_page', []],
      ['extract_links', ['t1']],
    ]);
    await cr.close();
  });
});
