import { describe, expect, it } from 'vitest';
import { edgeEventsOf, type ExecutionCall } from './execution-edges.js';

const call = (tool: string, at: number, extra: Partial<ExecutionCall> = {}): ExecutionCall => ({ tool, status: 'success', at, ...extra });
const brief = (calls: ExecutionCall[]) => edgeEventsOf(calls).map((e) => `${e.type} ${e.from}->${e.to} ${e.status}`);

describe('edgeEventsOf', () => {
  it('links consecutive calls by sequence and a consumer to its producer by dependency', () => {
    expect(brief([call('read_file', 1), call('parse_json', 2, { consumes: [0] }), call('write_file', 3, { consumes: [1] })])).toEqual([
      'dependency parse_json->write_file success',
      'dependency read_file->parse_json success',
      'sequence parse_json->write_file success',
      'sequence read_file->parse_json success',
    ]);
  });

  it('links a parent to the calls made inside it by contains', () => {
    expect(brief([call('flow', 1), call('step_a', 2, { parent: 0 }), call('step_b', 3, { parent: 0 })])).toContain('contains flow->step_b success');
  });

  it('learns an alternative when a failed call is followed by a different tool that succeeds', () => {
    const events = brief([call('fetch_v1', 1, { status: 'failure' }), call('fetch_v2', 2)]);
    expect(events).toEqual(['alternative fetch_v1->fetch_v2 success', 'sequence fetch_v1->fetch_v2 failure']);
  });

  it('learns no alternative when the replacement also fails or is the same tool', () => {
    expect(brief([call('a', 1, { status: 'failure' }), call('b', 2, { status: 'failure' })])).toEqual(['sequence a->b failure']);
    expect(brief([call('a', 1, { status: 'failure' }), call('a', 2)])).toEqual([]);
  });

  it('counts an edge once per execution, as a success when any occurrence succeeded', () => {
    const events = edgeEventsOf([call('a', 1), call('b', 2, { status: 'failure' }), call('a', 3), call('b', 4)]);
    const ab = events.filter((e) => e.type === 'sequence' && e.from === 'a' && e.to === 'b');
    expect(ab).toEqual([{ from: 'a', to: 'b', type: 'sequence', status: 'success', at: 4 }]);
  });

  it('treats a partial call as one that ran', () => {
    expect(brief([call('a', 1, { status: 'partial' }), call('b', 2, { consumes: [0] })])).toEqual(['dependency a->b success', 'sequence a->b success']);
  });

  it('ignores references to missing or later calls (validation rejects them before this)', () => {
    expect(brief([call('a', 1, { consumes: [1, 7] }), call('b', 2)])).toEqual(['sequence a->b success']);
  });

  it('does not depend on anything but the calls: the same input gives the same events', () => {
    const calls = [call('x', 1), call('y', 2, { consumes: [0] })];
    expect(edgeEventsOf(calls)).toEqual(edgeEventsOf(structuredClone(calls)));
  });
});
