import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  appendedEdgeEvents,
  edgeEventsOf,
  taughtEdgeEvents,
  type ExecutionCall,
  type ExecutionEdgeEvent,
} from './execution-edges.js';
import type { CallStatus } from '../types.js';

const call = (tool: string, at: number, extra: Partial<ExecutionCall> = {}): ExecutionCall => ({
  tool,
  status: 'success',
  at,
  ...extra,
});
const brief = (calls: ExecutionCall[]) => edgeEventsOf(calls).map((e) => `${e.type} ${e.from}->${e.to} ${e.status}`);

describe('edgeEventsOf', () => {
  it('links consecutive calls by sequence and a consumer to its producer by dependency', () => {
    expect(
      brief([call('read_file', 1), call('parse_json', 2, { consumes: [0] }), call('write_file', 3, { consumes: [1] })]),
    ).toEqual([
      'dependency parse_json->write_file success',
      'dependency read_file->parse_json success',
      'sequence parse_json->write_file success',
      'sequence read_file->parse_json success',
    ]);
  });

  it('links a parent to the calls made inside it by contains', () => {
    expect(brief([call('flow', 1), call('step_a', 2, { parent: 0 }), call('step_b', 3, { parent: 0 })])).toContain(
      'contains flow->step_b success',
    );
  });

  it('learns an alternative when a failed call is followed by a different tool that succeeds', () => {
    const events = brief([call('fetch_v1', 1, { status: 'failure' }), call('fetch_v2', 2)]);
    expect(events).toEqual(['alternative fetch_v1->fetch_v2 success', 'sequence fetch_v1->fetch_v2 failure']);
  });

  it('learns no alternative from a failed test run to the edit that fixes it: that is a sequence (issue 17)', () => {
    const calls = [
      call('Bash', 1, { status: 'failure', input: JSON.stringify({ command: 'npm test' }) }),
      call('Edit', 2, { input: JSON.stringify({ file_path: 'src/users.ts', old_string: 'a', new_string: 'b' }) }),
      call('Bash', 3, { input: JSON.stringify({ command: 'npm test' }) }),
    ];
    expect(brief(calls)).toEqual(['sequence Bash->Edit failure', 'sequence Edit->Bash success']);
  });

  it('learns an alternative only when the tool after the failure did the same job (same kind, or same input)', () => {
    expect(brief([call('Grep', 1, { status: 'failure' }), call('filesystem:search_files', 2)])).toContain(
      'alternative Grep->filesystem:search_files success',
    );
    expect(brief([call('Grep', 1, { status: 'failure' }), call('Read', 2)])).toEqual(['sequence Grep->Read failure']);
    const paris = JSON.stringify({ city: 'Paris' });
    expect(
      brief([
        call('weather_api', 1, { status: 'failure', input: paris }),
        call('forecast_service', 2, { input: paris }),
      ]),
    ).toContain('alternative weather_api->forecast_service success');
  });

  it('learns no alternative when the replacement also fails or is the same tool', () => {
    expect(brief([call('a', 1, { status: 'failure' }), call('b', 2, { status: 'failure' })])).toEqual([
      'sequence a->b failure',
    ]);
    expect(brief([call('a', 1, { status: 'failure' }), call('a', 2)])).toEqual([]);
  });

  it('counts an edge once per execution, as a success when any occurrence succeeded', () => {
    const events = edgeEventsOf([call('a', 1), call('b', 2, { status: 'failure' }), call('a', 3), call('b', 4)]);
    const ab = events.filter((e) => e.type === 'sequence' && e.from === 'a' && e.to === 'b');
    expect(ab).toEqual([{ from: 'a', to: 'b', type: 'sequence', status: 'success', at: 4 }]);
  });

  it('dates an edge seen twice by its first successful occurrence', () => {
    const events = edgeEventsOf([call('a', 1), call('b', 2), call('a', 3), call('b', 4)]);
    expect(events.find((e) => e.type === 'sequence' && e.from === 'a')).toEqual({
      from: 'a',
      to: 'b',
      type: 'sequence',
      status: 'success',
      at: 2,
    });
  });

  it('treats a partial call as one that ran', () => {
    expect(brief([call('a', 1, { status: 'partial' }), call('b', 2, { consumes: [0] })])).toEqual([
      'dependency a->b success',
      'sequence a->b success',
    ]);
  });

  it('ignores references to missing or later calls (validation rejects them before this)', () => {
    expect(brief([call('a', 1, { consumes: [1, 7] }), call('b', 2)])).toEqual(['sequence a->b success']);
  });

  it('links a task recorded with dependsOn to the tasks it waited for, never to a sibling before it (walk 14)', () => {
    // An explicit DAG: load, then branch_a and branch_b side by side; the list's order is not a sequence.
    const fanOut = [
      call('load', 1, { dependsOn: [] }),
      call('branch_a', 2, { dependsOn: [0] }),
      call('branch_b', 3, { dependsOn: [0] }),
      call('join', 4, { dependsOn: [1, 2], consumes: [2] }),
    ];
    expect(brief(fanOut)).toEqual([
      'dependency branch_b->join success',
      'sequence branch_a->join success',
      'sequence branch_b->join success',
      'sequence load->branch_a success',
      'sequence load->branch_b success',
    ]);
    // A root (dependsOn empty) follows nothing, even with a call before it in the list.
    expect(brief([call('a', 1, { dependsOn: [] }), call('b', 2, { dependsOn: [] })])).toEqual([]);
    // A replacement that waited for the failed call is still its alternative.
    expect(brief([call('fetch_v1', 1, { status: 'failure' }), call('fetch_v2', 2, { dependsOn: [0] })])).toEqual([
      'alternative fetch_v1->fetch_v2 success',
      'sequence fetch_v1->fetch_v2 failure',
    ]);
  });

  it('does not depend on anything but the calls: the same input gives the same events', () => {
    const calls = [call('x', 1), call('y', 2, { consumes: [0] })];
    expect(edgeEventsOf(calls)).toEqual(edgeEventsOf(structuredClone(calls)));
  });
});

/** The events of an execution appended one call at a time, each append's events in turn. */
const callByCall = (calls: readonly ExecutionCall[]): ExecutionEdgeEvent[] =>
  calls.flatMap((_, i) => appendedEdgeEvents(calls.slice(0, i), calls.slice(0, i + 1)));
const said = (events: readonly ExecutionEdgeEvent[]) => events.map((e) => `${e.type} ${e.from}->${e.to} ${e.status}`);
const sorted = (events: readonly ExecutionEdgeEvent[]) =>
  [...events].sort((x, y) => x.type.localeCompare(y.type) || x.from.localeCompare(y.from) || x.to.localeCompare(y.to));

/**
 * Random executions over a few tools (so edges repeat and self-loops occur; read_a and read_b do the
 * same job, so failures give alternatives), references always to earlier calls.
 */
const arbCalls = (statuses: readonly CallStatus[]) =>
  fc
    .array(
      fc.record({
        tool: fc.constantFrom('read_a', 'read_b', 'Edit', 'Bash'),
        status: fc.constantFrom(...statuses),
        consumes: fc.array(fc.nat(), { maxLength: 3 }),
        parent: fc.option(fc.nat(), { nil: undefined }),
      }),
      { maxLength: 14 },
    )
    .map((raw) =>
      raw.map(
        ({ tool, status, consumes, parent }, i): ExecutionCall => ({
          tool,
          status,
          at: 1000 + 10 * i,
          ...(i === 0 ? {} : { consumes: [...new Set(consumes.map((j) => j % i))].sort((x, y) => x - y) }),
          ...(i === 0 || parent === undefined ? {} : { parent: parent % i }),
        }),
      ),
    );

describe('appendedEdgeEvents', () => {
  it('counts a dependency to a call stored by an earlier append', () => {
    const before = [call('read_file', 1), call('list_dir', 2)];
    const after = [...before, call('parse_json', 3, { consumes: [0] })];
    expect(appendedEdgeEvents(before, after)).toEqual([
      { type: 'dependency', from: 'read_file', to: 'parse_json', status: 'success', at: 3 },
      { type: 'sequence', from: 'list_dir', to: 'parse_json', status: 'success', at: 3 },
    ]);
  });

  it('skips a self-loop: a tool called again right after itself teaches nothing', () => {
    const before = [call('fetch', 1)];
    expect(appendedEdgeEvents(before, [...before, call('fetch', 2)])).toEqual([]);
  });

  it('keeps a dependency of a tool on itself: the second read used what the first one read', () => {
    const before = [call('read', 1)];
    expect(said(appendedEdgeEvents(before, [...before, call('read', 2, { consumes: [0] })]))).toEqual([
      'dependency read->read success',
    ]);
  });

  it('counts an edge seen twice in one execution once, in the append that first showed it', () => {
    const one = [call('a', 1)];
    const two = [...one, call('b', 2)];
    const three = [...two, call('a', 3)];
    const four = [...three, call('b', 4)];
    expect(said(appendedEdgeEvents(one, two))).toEqual(['sequence a->b success']);
    expect(said(appendedEdgeEvents(two, three))).toEqual(['sequence b->a success']);
    expect(appendedEdgeEvents(three, four)).toEqual([]);
  });

  it('gives every event of the execution when nothing was stored before', () => {
    const calls = [
      call('read_file', 1),
      call('parse_json', 2, { consumes: [0] }),
      call('write_file', 3, { consumes: [1] }),
    ];
    expect(appendedEdgeEvents([], calls)).toEqual(edgeEventsOf(calls));
  });

  it('gives exactly the events of the whole execution, times included, when appended call by call', () => {
    const calls = [
      call('read_file', 1),
      call('parse_json', 2, { consumes: [0] }),
      call('flow', 3),
      call('write_file', 4, { parent: 2, consumes: [1] }),
      call('read_file', 5, { parent: 2 }),
      call('parse_json', 6, { consumes: [4], status: 'partial' }),
    ];
    expect(sorted(callByCall(calls))).toEqual(sorted(edgeEventsOf(calls)));
    expect(
      callByCall(calls)
        .filter((e) => e.from === 'read_file' && e.to === 'parse_json')
        .map((e) => [e.type, e.at]),
    ).toEqual([
      ['dependency', 2],
      ['sequence', 2],
    ]);
  });

  it('replaces the failure of an edge whose first occurrence failed when a later append sees it succeed', () => {
    const first = [call('read_a', 1), call('read_b', 2, { status: 'failure' })];
    const later = [...first, call('read_a', 3), call('read_b', 4)];
    expect(appendedEdgeEvents([call('read_a', 1)], first)).toEqual([
      { type: 'sequence', from: 'read_a', to: 'read_b', status: 'failure', at: 2 },
    ]);
    // The later append counts read_a → read_b as a success in place of the failure, as recording it whole does.
    expect(appendedEdgeEvents(first, later)).toEqual([
      { type: 'alternative', from: 'read_b', to: 'read_a', status: 'success', at: 3 },
      { type: 'sequence', from: 'read_a', to: 'read_b', status: 'success', at: 4, replacesFailure: true },
      { type: 'sequence', from: 'read_b', to: 'read_a', status: 'failure', at: 3 },
    ]);
    expect(brief(later)).toContain('sequence read_a->read_b success');
    // Later, read_b → read_a (a failure so far) succeeds and replaces its failure; read_a → read_b, counted a
    // success, is not counted again when it fails.
    const last = [...later, call('read_a', 5), call('read_b', 6, { status: 'failure' })];
    expect(appendedEdgeEvents(later, last)).toEqual([
      { type: 'sequence', from: 'read_b', to: 'read_a', status: 'success', at: 5, replacesFailure: true },
    ]);
  });

  it('appending call by call yields the events of the whole execution when no call fails (property)', () => {
    fc.assert(
      fc.property(arbCalls(['success', 'partial']), (calls) => {
        const appended = callByCall(calls);
        const whole = edgeEventsOf(calls);
        expect(sorted(appended)).toEqual(sorted(whole));
      }),
    );
  });

  it('counts every edge of the execution exactly once however it is appended, failures included (property)', () => {
    fc.assert(
      fc.property(arbCalls(['success', 'partial', 'failure']), fc.array(fc.nat(), { maxLength: 6 }), (calls, cuts) => {
        const bounds = [...new Set([0, ...cuts.map((c) => c % (calls.length + 1)), calls.length])].sort(
          (x, y) => x - y,
        );
        const appended = bounds
          .slice(1)
          .flatMap((end, k) => appendedEdgeEvents(calls.slice(0, bounds[k]), calls.slice(0, end)));
        const key = (e: ExecutionEdgeEvent) => `${e.type} ${e.from}->${e.to}`;
        // Folded as a store does: an edge is new once, and a success replacing a failure takes its place.
        const counted = new Map<string, string>();
        for (const e of appended) {
          expect(counted.get(key(e))).toBe(e.replacesFailure === true ? 'failure' : undefined);
          counted.set(key(e), e.status);
        }
        expect([...counted].sort()).toEqual(
          edgeEventsOf(calls)
            .map((e) => [key(e), e.status])
            .sort(),
        );
      }),
    );
  });
});

describe('taughtEdgeEvents', () => {
  it("is a run's edge events, only of the types it learned when it learned only some (execute_dag)", () => {
    const calls = [
      { tool: 'load', status: 'success' as const, at: 1, dependsOn: [] },
      { tool: 'branch_a', status: 'success' as const, at: 2, consumes: [0], dependsOn: [0] },
      { tool: 'branch_b', status: 'success' as const, at: 3, consumes: [0], dependsOn: [0] },
    ];
    const types = (events: readonly { type: string; from: string; to: string }[]) =>
      events.map((e) => `${e.type} ${e.from}->${e.to}`);
    // Every call names what it waited for, as a recorder's DAG does: its sequences are taught too (review E, 6).
    expect(types(taughtEdgeEvents(calls))).toEqual(types(edgeEventsOf(calls)));
    expect(types(taughtEdgeEvents(calls))).toContain('sequence load->branch_b');
    expect(types(taughtEdgeEvents(calls, ['dependency']))).toEqual([
      'dependency load->branch_a',
      'dependency load->branch_b',
    ]);
  });
});
