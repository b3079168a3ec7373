import { describe, expect, it } from 'vitest';
import { edgeEventsOf } from '../graph/execution-edges.js';
import { runQuality, runSucceeded, standingFailures } from './run-quality.js';

const call = (tool: string, status: 'success' | 'partial' | 'failure', retries?: number) =>
  retries === undefined ? { tool, status } : { tool, status, retries };

describe('runQuality', () => {
  it('is the run’s own confidence when it has one', () => {
    expect(runQuality({ confidence: 0.42, calls: [call('a', 'success', 0)] })).toBe(0.42);
  });

  it('is 1 for clean successful calls, the mean of each call’s outcome over 0.7 otherwise, a failed call 0', () => {
    expect(runQuality({ calls: [call('a', 'success', 0)] })).toBe(1);
    expect(runQuality({ calls: [call('a', 'failure', 0)] })).toBe(0);
    // A failure made good by a later call of its tool counts in the mean as nothing.
    expect(runQuality({ calls: [call('a', 'failure'), call('a', 'success')] })).toBeCloseTo(0.5, 12);
    expect(runQuality({ calls: [call('a', 'failure'), call('a', 'partial')] })).toBeCloseTo(0.5 / 0.7 / 2, 12);
  });

  it('counts retries against a call', () => {
    expect(runQuality({ calls: [call('a', 'success', 2)] })).toBeCloseTo(0.5 / 0.7, 12);
  });

  it('is 0 for a run without calls', () => {
    expect(runQuality({ calls: [] })).toBe(0);
  });

  it('is 0 while a failure stands: a call failed and no later call of its tool did not (walk 14, item 2)', () => {
    // The last, essential step failed: a failed run, as execute_dag and the PocketFlow adapter count it.
    expect(runQuality({ calls: [call('fetch', 'success'), call('translate', 'failure')] })).toBe(0);
    // A failure of a step whose tool is never called again: the run did not do it.
    expect(runQuality({ calls: [call('fetch', 'failure'), call('translate', 'success')] })).toBe(0);
    expect(
      runQuality({ calls: [call('a', 'success'), call('b', 'failure'), call('c', 'success'), call('d', 'success')] }),
    ).toBe(0);
    // A later failure of a tool that succeeded before stands too.
    expect(runQuality({ calls: [call('a', 'success'), call('b', 'success'), call('a', 'failure')] })).toBe(0);
    // A failure standing outweighs the confidence a run states of itself (walk 16, item 8).
    expect(runQuality({ confidence: 0.9, calls: [call('fetch', 'success'), call('translate', 'failure')] })).toBe(0);
    expect(runSucceeded({ confidence: 0.9, calls: [call('fetch', 'success'), call('translate', 'failure')] })).toBe(
      false,
    );
    // Without one, its own confidence is what a run says of itself.
    expect(runQuality({ confidence: 0.3, calls: [call('a', 'success'), call('b', 'success')] })).toBe(0.3);
  });

  it('reads a stated confidence a float sum left a hair under 0.5 as 0.5, a success (walk 16, item 8)', () => {
    expect(runSucceeded({ confidence: 0.49999999999999994, calls: [call('a', 'success')] })).toBe(true);
  });
});

describe('standingFailures', () => {
  it('names the tools whose latest call failed', () => {
    expect(standingFailures([call('a', 'failure'), call('b', 'failure'), call('a', 'partial')])).toEqual(['b']);
    expect(standingFailures([call('a', 'failure'), call('a', 'success', 1)])).toEqual([]);
    expect(standingFailures([])).toEqual([]);
  });

  it('lets the next call of another tool doing the same job make a failure good (a fallback, to the graph)', () => {
    // A failed Grep, then filesystem:search_files for the same pattern: the alternative edge the graph learns.
    const grep = { tool: 'Grep', status: 'failure' as const, input: '{"pattern":"TODO"}' };
    const search = { tool: 'filesystem:search_files', status: 'success' as const, input: '{"pattern":"TODO"}' };
    expect(standingFailures([grep, search])).toEqual([]);
    expect(runQuality({ calls: [grep, search] })).toBeCloseTo(0.5, 12);
    // Another job after the failure, or one call between them, leaves it standing.
    const mail = { tool: 'send_email', status: 'success' as const, input: '{"to":"ops@example.com"}' };
    expect(standingFailures([grep, mail])).toEqual(['Grep']);
    expect(standingFailures([grep, call('Read', 'success'), search])).toEqual(['Grep']);
    // A partial fallback is no success.
    expect(standingFailures([grep, { ...search, status: 'partial' as const }])).toEqual(['Grep']);
    // It makes good only the failure it followed: an earlier Grep of another job, never retried, stands (review E).
    const earlier = { tool: 'Grep', status: 'failure' as const, input: '{"pattern":"FIXME","path":"lib"}' };
    expect(standingFailures([earlier, call('Read', 'success'), grep, search])).toEqual(['Grep']);
    expect(runQuality({ calls: [earlier, call('Read', 'success'), grep, search] })).toBe(0);
  });

  it('lets a fallback make good the call it followed retried as is before it (review F, item 2)', () => {
    // Grep for TODO failed, was tried again as is and failed, then filesystem:search_files found the TODOs.
    const grep = { tool: 'Grep', status: 'failure' as const, input: '{"pattern":"TODO"}', at: 1 };
    const search = { tool: 'filesystem:search_files', status: 'success' as const, input: '{"pattern":"TODO"}', at: 3 };
    const run = [{ ...call('Read', 'success'), at: 0 }, grep, { ...grep, at: 2 }, search];
    // The graph learns the fallback as an alternative; the run's quality sees the same job done.
    expect(edgeEventsOf(run).filter((e) => e.type === 'alternative')).toMatchObject([
      { from: 'Grep', to: 'filesystem:search_files', status: 'success' },
    ]);
    expect(standingFailures(run)).toEqual([]);
    expect(runQuality({ calls: run })).toBeCloseTo(0.5, 12);
    // Without inputs, two failed calls of one tool are the same call too.
    expect(
      standingFailures([call('Grep', 'failure'), call('Grep', 'failure'), call('search_files', 'success')]),
    ).toEqual([]);
    // A Grep of another job between the tries still stands.
    const other = { tool: 'Grep', status: 'failure' as const, input: '{"pattern":"FIXME"}' };
    expect(standingFailures([grep, other, grep, search])).toEqual(['Grep']);
  });

  it('reads a call with dependsOn as coming after the calls it waited for, as the graph does (walk 16, item 9)', () => {
    const grep = { tool: 'Grep', status: 'failure' as const, input: '{"pattern":"y"}', at: 1 };
    const read = { tool: 'Read', status: 'success' as const, dependsOn: [], at: 2 };
    const search = { tool: 'filesystem:search_files', status: 'success' as const, input: '{"pattern":"y"}', at: 3 };
    const run = [grep, read, { ...search, dependsOn: [0] }];
    // The graph learns the fallback as an alternative; the run's quality sees the same fallback: no failure stands.
    expect(edgeEventsOf(run).filter((e) => e.type === 'alternative')).toEqual([
      { from: 'Grep', to: 'filesystem:search_files', type: 'alternative', status: 'success', at: 3 },
    ]);
    expect(standingFailures(run)).toEqual([]);
    expect(runSucceeded({ calls: run })).toBe(true);
    // Right after Grep in the list but waiting on nothing (a root): no alternative, and Grep's failure stands.
    const root = [grep, { ...search, dependsOn: [] }];
    expect(edgeEventsOf(root).filter((e) => e.type === 'alternative')).toEqual([]);
    expect(standingFailures(root)).toEqual(['Grep']);
  });

  it('reads a retry as after the failed call by dependsOn: a sibling task is none (review F, item 9)', () => {
    // Two parallel Grep tasks, FIXME failed and TODO succeeded, then Read after TODO: the FIXME search never happened.
    const fixme = { tool: 'Grep', status: 'failure' as const, input: '{"pattern":"FIXME"}', dependsOn: [] };
    const todo = { tool: 'Grep', status: 'success' as const, input: '{"pattern":"TODO"}', dependsOn: [] };
    const read = { tool: 'Read', status: 'success' as const, dependsOn: [1] };
    expect(standingFailures([fixme, todo, read])).toEqual(['Grep']);
    expect(runQuality({ calls: [fixme, todo, read] })).toBe(0);
    // A Grep task waiting on the failed one (through Read) is its retry.
    const again = { ...todo, dependsOn: [1] };
    expect(standingFailures([fixme, { ...read, dependsOn: [0] }, again])).toEqual([]);
    // Nor does a sibling fallback make good a try of the same call it did not come after.
    const search = { tool: 'filesystem:search_files', status: 'success' as const, input: fixme.input };
    expect(standingFailures([fixme, fixme, { ...search, dependsOn: [1] }])).toEqual(['Grep']);
    expect(standingFailures([fixme, { ...fixme, dependsOn: [0] }, { ...search, dependsOn: [1] }])).toEqual([]);
    // Without dependsOn, the list's order: any later call of the tool is a retry.
    expect(
      standingFailures([
        { ...fixme, dependsOn: undefined },
        { ...todo, dependsOn: undefined },
      ]),
    ).toEqual([]);
  });
});

describe('runSucceeded', () => {
  it('holds at quality 0.5 and above', () => {
    expect(runSucceeded({ confidence: 0.5, calls: [] })).toBe(true);
    expect(runSucceeded({ confidence: 0.49, calls: [] })).toBe(false);
    expect(runSucceeded({ calls: [call('a', 'failure')] })).toBe(false);
    expect(runSucceeded({ calls: [call('a', 'partial')] })).toBe(true);
  });

  it('is a failure when a failure stands, whatever the mean', () => {
    expect(runSucceeded({ calls: [call('fetch', 'success'), call('translate', 'failure')] })).toBe(false);
    expect(
      runSucceeded({ calls: [...Array.from({ length: 9 }, (_, i) => call(`t${i}`, 'success')), call('x', 'failure')] }),
    ).toBe(false);
    // An agent's retry makes the failure good.
    expect(
      runSucceeded({ calls: [call('fetch', 'success'), call('translate', 'failure'), call('translate', 'success')] }),
    ).toBe(true);
  });

  it('needs at least half of the calls’ worth: one success among eight calls is a failed run', () => {
    // Failures of one tool made good by its last call: the mean alone decides.
    const calls = (ok: number, failed: number) => [
      ...Array.from({ length: failed }, () => call('a', 'failure')),
      ...Array.from({ length: ok }, () => call('a', 'success')),
    ];
    expect(runSucceeded({ calls: calls(1, 7) })).toBe(false);
    expect(runSucceeded({ calls: calls(3, 5) })).toBe(false);
    expect(runSucceeded({ calls: calls(4, 4) })).toBe(true);
    // A call that succeeded after retries still carries the run.
    expect(runSucceeded({ calls: [call('a', 'success', 3)] })).toBe(true);
    // Half of the calls' worth is a success whatever the run's length (not 0.4999999999999999 at 14 and 6).
    const partials = (n: number, failed: number) => [
      ...Array.from({ length: failed }, () => call('a', 'failure')),
      ...Array.from({ length: n }, () => call('a', 'partial')),
    ];
    expect(runSucceeded({ calls: partials(7, 3) })).toBe(true);
    expect(runSucceeded({ calls: partials(14, 6) })).toBe(true);
  });
});
