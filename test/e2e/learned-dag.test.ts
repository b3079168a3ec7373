/**
 * Issue 19's "done when", through the real binary: past runs of a task teach the DAG suggestion that
 * task's workflow, and leave other intents to the search.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workflowId, workflowShape } from '../../src/core/experience/workflow-shape.js';
import { storeArgs } from '../pg.js';

const bin = fileURLToPath(new URL('../../bin/credence.cjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'credence-learned-dag-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function credence(args: string[], input?: string) {
  const r = spawnSync(
    process.execPath,
    [bin, ...storeArgs(join(dir, 'tmdb.db')), '--scope', 'tmdb', '--now', '2026-03-01T00:00:00Z', ...args],
    { cwd: dir, encoding: 'utf8', input, env: { ...process.env, HOME: dir, CREDENCE_EMBEDDINGS: '' } },
  );
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return r.stdout;
}

/** A small catalogue shaped like TMDB's REST API. */
const catalogue = [
  ['SearchPeople', 'Search for people (actors, directors, writers) by name and get their person ids.'],
  [
    'GetPersonMovieCredit',
    'Get the movie credits of a person, given the person id: the movies they acted in or worked on as crew.',
  ],
  ['GetPersonDetail', 'Get the biography, birthday and place of birth of a person by person id.'],
  ['SearchMovie', 'Search for movies by their original, translated and alternative titles.'],
  ['GetMovieDetail', 'Get the primary information about a movie by movie id: runtime, genres, budget, release date.'],
  ['GetMovieReview', 'Get the user reviews written for a movie by movie id.'],
  ['GetMovieCredit', 'Get the cast and crew of a movie by movie id.'],
  ['GetTopRatedMovie', 'Get the movies with the highest user ratings on the site.'],
  ['GetPopularPerson', 'Get the list of people who are popular on the site today.'],
  ['SearchTVShow', 'Search for TV shows by their original, translated and alternative names.'],
  ['GetTVShowDetail', 'Get the primary information about a TV show by its id: seasons, networks, air dates.'],
].map(([id, description]) => JSON.stringify({ id, description }));

/** SearchPeople, then GetPersonMovieCredit on the person it found. */
const personMovies = [
  { tool: 'SearchPeople', status: 'success' },
  { tool: 'GetPersonMovieCredit', status: 'success', consumes: [0] },
] as const;

interface Suggestion {
  confidence: number;
  dag: { tasks: { id: string; tool: string; dependsOn: string[] }[] };
  rationale: { tool: string; sources: string[]; why: string }[];
  memory?: { backed: boolean };
  confidenceBasis?: string;
}

const dag = (intent: string): Suggestion => JSON.parse(credence(['dag', intent, '--json']));

describe("a workflow learned from past runs (issue 19's end-to-end check)", () => {
  let cold: Suggestion;
  let runs: { id: string; intent: string }[];

  beforeAll(() => {
    credence(['tools', 'add', '--jsonl', '-'], catalogue.join('\n'));
    cold = dag('list the films of Greta Gerwig');
    const recorded = ['Tom Hanks', 'Meryl Streep', 'Christopher Nolan'].map((name) =>
      JSON.stringify({ intent: `find ${name}'s movies`, calls: personMovies }),
    );
    credence(['record', '--jsonl', '-'], recorded.join('\n'));
    runs = JSON.parse(credence(['runs', '--json']));
  });

  it('suggests the two-step workflow of three past runs for a new wording, above the cold confidence', () => {
    expect(runs).toHaveLength(3);
    const warm = dag('list the films of Greta Gerwig');
    expect(warm.dag.tasks).toEqual([
      { id: 't1', tool: 'SearchPeople', dependsOn: [] },
      { id: 't2', tool: 'GetPersonMovieCredit', dependsOn: ['t1'] },
    ]);
    expect(warm.memory?.backed).toBe(true);
    expect(warm.confidence).toBeGreaterThan(cold.confidence);
    // Each task names the learned workflow and the past runs that voted for it.
    const learned = workflowId(workflowShape(personMovies).key);
    for (const r of warm.rationale) {
      expect(r.sources).toContain('memory');
      expect(r.why).toContain(`learned workflow ${learned}`);
      for (const run of runs) expect(r.why).toContain(`${run.id} ${JSON.stringify(run.intent)}`);
    }
  });

  it('says in text what the measured confidence is, beside the seed formula', () => {
    const text = credence(['dag', 'list the films of Greta Gerwig']);
    expect(text).toMatch(
      /^confidence 0\.\d{3}: how often such nearest past runs proposed the right tools \(measured on 3 past runs/m,
    );
    expect(text).toMatch(/^seed confidence 0\.\d{3} = 0\.\d{3} × /m);
    // What answered this request, then why the scope trusts its memory: the three runs agree, so on their replays the
    // memory's way beat the DAG without it above the noise.
    const answered = text.split('\n').find((l) => l.startsWith('answered by: '));
    expect(answered).toMatch(/^answered by: past runs near this intent, outweighing the search \(fusion[^)]*\); /);
    expect(answered).toMatch(
      /; the memory is trusted: on 3 past runs replayed to choose the way, its best way \([a-z-]+\) gained /,
    );
    expect(answered?.endsWith(', more than one standard error')).toBe(true);
    const json = dag('list the films of Greta Gerwig');
    expect(json.confidenceBasis).toBe('memory');
  });

  it('leaves an unrelated intent to the search-built DAG', () => {
    const other = dag('show the top rated movies');
    expect(other.memory?.backed ?? false).toBe(false);
    expect(other.dag.tasks.map((t) => t.tool)).toContain('GetTopRatedMovie');
    for (const r of other.rationale) expect(r.sources).toContain('search');
    // The text says the search answered this one, though the scope's memory is trusted.
    const answered = credence(['dag', 'show the top rated movies'])
      .split('\n')
      .find((l) => l.startsWith('answered by: '));
    expect(answered).toMatch(/^answered by: the search \((no past run near|the past runs near this intent did not)/);
    expect(answered).toContain('; the memory is trusted: on 3 past runs replayed to choose the way');
  });

  it('adds the part of an intent no past run covers from the search, after the learned workflow', () => {
    const both = dag('find the movies of Ava DuVernay and get their reviews');
    expect(both.dag.tasks.map((t) => [t.tool, t.dependsOn])).toEqual([
      ['SearchPeople', []],
      ['GetPersonMovieCredit', ['t1']],
      ['GetMovieReview', ['t2']],
    ]);
  });
});
