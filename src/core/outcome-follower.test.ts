import { describe, expect, it } from 'vitest';
import { OutcomeFollower, SEARCH_WINDOW, type OutcomeDecision } from './outcome-follower.js';

const brief = (decisions: readonly OutcomeDecision[]) => decisions.map((d) => `${d.shownId} ${d.outcome} @${d.at}`);

describe('the outcome follower (issue 24)', () => {
  it('search: a shown tool called is used; its untaken siblings are rejected when the showing closes', () => {
    const f = new OutcomeFollower();
    const items = [
      { shownId: 's1', tool: 'fs:read' },
      { shownId: 's2', tool: 'fs:grep' },
      { shownId: 's3', tool: 'web:fetch' },
    ];
    expect(f.show({ kind: 'search', at: 1, items })).toEqual([]);
    expect(brief(f.called('git:status', true, 2))).toEqual([]);
    expect(brief(f.called('fs:grep', false, 3))).toEqual(['s2 failed @3']);
    // Only the first call of a shown tool counts.
    expect(brief(f.called('fs:grep', true, 4))).toEqual([]);
    expect(brief(f.show({ kind: 'search', at: 5, items: [{ shownId: 's4', tool: 'fs:read' }] }))).toEqual([
      's1 rejected @5',
      's3 rejected @5',
    ]);
    expect(brief(f.called('fs:read', true, 6))).toEqual(['s4 succeeded @6']);
  });

  it('search: nothing taken is no evidence; the window closes after its calls', () => {
    const f = new OutcomeFollower();
    f.show({ kind: 'search', at: 1, items: [{ shownId: 's1', tool: 'a' }] });
    expect(f.close(9)).toEqual([]);
    f.show({
      kind: 'search',
      at: 10,
      items: [
        { shownId: 's2', tool: 'a' },
        { shownId: 's3', tool: 'b' },
      ],
    });
    const decided = Array.from({ length: SEARCH_WINDOW }, (_, i) => f.called(i === 0 ? 'a' : 'x', true, 11 + i)).flat();
    expect(brief(decided)).toEqual(['s2 succeeded @11', `s3 rejected @${10 + SEARCH_WINDOW}`]);
    // Closed: a later call of b decides nothing.
    expect(f.called('b', true, 99)).toEqual([]);
  });

  it('next: the first call after the showing decides every suggestion (the tool they follow aside)', () => {
    const f = new OutcomeFollower();
    const items = [
      { shownId: 'n1', tool: 'jq' },
      { shownId: 'n2', tool: 'sed' },
    ];
    f.show({ kind: 'next', at: 1, after: 'curl', items });
    expect(f.called('curl', true, 2)).toEqual([]);
    expect(brief(f.called('sed', true, 3))).toEqual(['n1 rejected @3', 'n2 succeeded @3']);
    expect(f.called('jq', true, 4)).toEqual([]);
    f.show({ kind: 'next', at: 5, after: 'curl', items });
    expect(brief(f.called('awk', true, 6))).toEqual(['n1 rejected @6', 'n2 rejected @6']);
    f.show({ kind: 'next', at: 7, after: 'curl', items });
    expect(brief(f.called('jq', false, 8))).toEqual(['n1 failed @8', 'n2 rejected @8']);
  });

  it('dag: every tool called decides it by their last calls; some is rejected, none nothing', () => {
    const f = new OutcomeFollower();
    f.show({ kind: 'dag', at: 1, shownId: 'd1', tools: ['a', 'b'] });
    expect(f.called('a', false, 2)).toEqual([]);
    expect(f.called('a', true, 3)).toEqual([]);
    expect(brief(f.called('b', true, 4))).toEqual(['d1 succeeded @4']);
    f.show({ kind: 'dag', at: 5, shownId: 'd2', tools: ['a', 'b'] });
    f.called('a', true, 6);
    expect(brief(f.called('b', false, 7))).toEqual(['d2 failed @7']);
    f.show({ kind: 'dag', at: 8, shownId: 'd3', tools: ['a', 'b', 'c'] });
    f.called('a', true, 9);
    expect(brief(f.show({ kind: 'dag', at: 10, shownId: 'd4', tools: ['z'] }))).toEqual(['d3 rejected @10']);
    // 2n + 2 calls without z: the window closes on none called, which records nothing.
    expect(Array.from({ length: 4 }, (_, i) => f.called('q', true, 11 + i)).flat()).toEqual([]);
    f.show({ kind: 'dag', at: 20, shownId: 'd5', tools: ['a', 'b'] });
    f.called('b', true, 21);
    expect(brief(f.close(22))).toEqual(['d5 rejected @22']);
  });
});
