import { describe, expect, it } from 'vitest';
import {
  distinctiveIdentifiers,
  EMPTY_RECALL_FOLLOW,
  endRecallTurn,
  followRecallCall,
  followRecallPrompt,
  followRecallShown,
  namesIdentifier,
  OutcomeFollower,
  recallFollowStateOf,
  SEARCH_WINDOW,
  type OutcomeDecision,
} from './outcome-follower.js';

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

  it('next, awaiting its tool: calls before the next call of the tool they follow do not decide', () => {
    const f = new OutcomeFollower();
    const items = [
      { shownId: 'n1', tool: 'Summarise' },
      { shownId: 'n2', tool: 'Translate' },
    ];
    // A flow's next run: Load → Fetch → Summarise, the suggestions following Fetch.
    f.show({ kind: 'next', at: 1, after: 'Fetch', items, awaitAfter: true });
    expect(f.called('Load', true, 2)).toEqual([]);
    expect(f.called('Fetch', true, 3)).toEqual([]);
    expect(brief(f.called('Summarise', true, 4))).toEqual(['n1 succeeded @4', 'n2 rejected @4']);
    // A run that never reaches the tool they follow: nothing.
    f.show({ kind: 'next', at: 5, after: 'Fetch', items, awaitAfter: true });
    expect(f.called('Load', true, 6)).toEqual([]);
    expect(f.called('Translate', true, 7)).toEqual([]);
    expect(f.close(8)).toEqual([]);
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

  // A newcomer's walk: a flow that followed a DAG and broke at its first node was recorded `rejected`, as if it had
  // taken another way; it took this one, and it failed.
  it('dag: taken and broken on the way is failed, though the tools after the break were never called', () => {
    const f = new OutcomeFollower();
    f.show({ kind: 'dag', at: 1, shownId: 'd1', tools: ['fetch', 'parse', 'store'] });
    expect(f.called('fetch', false, 2)).toEqual([]);
    expect(brief(f.close(3))).toEqual(['d1 failed @3']);
    // A failure mended by a later call of the same tool is no failure: its last call decides.
    f.show({ kind: 'dag', at: 4, shownId: 'd2', tools: ['fetch', 'parse', 'store'] });
    f.called('fetch', false, 5);
    f.called('fetch', true, 6);
    expect(brief(f.close(7))).toEqual(['d2 rejected @7']);
  });
});

describe('following the memories the prompt hook showed (issue 24)', () => {
  it('keeps paths, commands, URLs, flags and code identifiers, not common words', () => {
    expect(
      distinctiveIdentifiers(
        '- [DECISION, high] Release notes (scripts/release-notes.mjs): run `npm run notes` with --since, see ' +
          'https://example.com/notes. Set RELEASE_TOKEN, call buildNotes() in NotesWriter; ' +
          'read package.json and .env ' +
          'then mcp__github__create_issue. Use Bash and Read, and/or a well-known e.g. API of README 2.0.',
      ),
    ).toEqual([
      'npm run notes',
      'scripts/release-notes.mjs',
      '--since',
      'https://example.com/notes',
      'RELEASE_TOKEN',
      'buildNotes',
      'NotesWriter',
      'package.json',
      '.env',
      'mcp__github__create_issue',
    ]);
  });

  it('leaves out a token the snippet cut short, and short code spans that are only a word', () => {
    expect(distinctiveIdentifiers('…the src/hooks/pro… and `ls` and `make` and `tsc -b`')).toEqual(['tsc -b']);
    expect(distinctiveIdentifiers('Deploys run from the main branch on each tag.')).toEqual([]);
  });

  it('finds an identifier as a whole token only', () => {
    expect(namesIdentifier('/work/p/scripts/release-notes.mjs', 'scripts/release-notes.mjs')).toBe(true);
    expect(namesIdentifier('node scripts/release-notes.mjs.bak', 'release-notes.mjs')).toBe(false);
    expect(namesIdentifier('mydata.ts', 'data.ts')).toBe(false);
    expect(namesIdentifier('my-notes.mjs', 'notes.mjs')).toBe(false);
    expect(namesIdentifier('Edit src/a.ts.', 'src/a.ts')).toBe(true);
    expect(namesIdentifier('', 'data.ts')).toBe(false);
  });

  it('a memory named by a call succeeds or fails by the last such call; one never named is rejected', () => {
    let s = followRecallShown(EMPTY_RECALL_FOLLOW, [
      { shownId: 'a', identifiers: ['src/a.ts'] },
      { shownId: 'b', identifiers: ['npm run lint'] },
      { shownId: 'c', identifiers: ['deploy.yaml'] },
      { shownId: 'none', identifiers: [] },
    ]);
    s = followRecallCall(s, 'Edit\n/p/src/a.ts', false);
    s = followRecallCall(s, 'Edit\n/p/src/a.ts', true);
    s = followRecallCall(s, 'Bash\nnpm run lint -- --fix', false);
    const ended = endRecallTurn(s, 9);
    expect(ended.decisions).toEqual([
      { shownId: 'a', outcome: 'succeeded', at: 9 },
      { shownId: 'b', outcome: 'failed', at: 9 },
      { shownId: 'c', outcome: 'rejected', at: 9 },
    ]);
    // Ending again decides nothing more; the used ones wait for the next prompt.
    expect(endRecallTurn(ended.state, 10).decisions).toEqual([]);
    expect(ended.state.ended.map((o) => o.shownId)).toEqual(['a', 'b']);
  });

  it('a turn that used none of the memories shown records nothing for them, with or without calls', () => {
    const shown = followRecallShown(EMPTY_RECALL_FOLLOW, [
      { shownId: 'a', identifiers: ['src/a.ts'] },
      { shownId: 'b', identifiers: ['npm run lint'] },
    ]);
    // Answered in prose: no call at all.
    expect(endRecallTurn(shown, 4)).toEqual({ state: { open: [], ended: [] }, decisions: [] });
    // Calls on something else: none names a memory shown.
    let s = followRecallCall(shown, 'Read\n/p/README.md', true);
    s = followRecallCall(s, 'Bash\ngit status', true);
    expect(endRecallTurn(s, 5).decisions).toEqual([]);
    // The next prompt ends such a turn the same way.
    expect(followRecallPrompt(s, undefined, 6).decisions).toEqual([]);
    // One of them used: the other is rejected (a sibling was taken).
    s = followRecallCall(s, 'Edit\n/p/src/a.ts', true);
    expect(endRecallTurn(s, 7).decisions).toEqual([
      { shownId: 'a', outcome: 'succeeded', at: 7 },
      { shownId: 'b', outcome: 'rejected', at: 7 },
    ]);
  });

  it('a correction right after counts against a used memory only when it names it', () => {
    let s = followRecallShown(EMPTY_RECALL_FOLLOW, [
      { shownId: 'a', identifiers: ['src/a.ts'] },
      { shownId: 'b', identifiers: ['src/b.ts'] },
      { shownId: 'c', identifiers: ['src/c.ts'] },
    ]);
    s = followRecallCall(s, 'src/a.ts', true);
    s = followRecallCall(s, 'src/b.ts', true);
    s = endRecallTurn(s, 5).state;
    // The next prompt: a correction naming a (used) and c (unused, already rejected).
    const next = followRecallPrompt(s, "No, don't touch src/a.ts or src/c.ts", 6);
    expect(next.decisions).toEqual([{ shownId: 'a', outcome: 'failed', at: 6 }]);
    expect(next.state).toEqual({ open: [], ended: [] });
    // No correction, or one naming nothing shown: nothing.
    expect(followRecallPrompt(s, undefined, 6).decisions).toEqual([]);
    expect(followRecallPrompt(s, 'No, use the other branch', 6).decisions).toEqual([]);
  });

  it('a prompt that comes before the turn was ended ends it first', () => {
    let s = followRecallShown(EMPTY_RECALL_FOLLOW, [{ shownId: 'a', identifiers: ['src/a.ts'] }]);
    s = followRecallCall(s, 'src/a.ts', true);
    expect(followRecallPrompt(s, 'Wrong: src/a.ts is generated', 7).decisions).toEqual([
      { shownId: 'a', outcome: 'succeeded', at: 7 },
      { shownId: 'a', outcome: 'failed', at: 7 },
    ]);
  });

  it('reads a stored state back, leaving out what is malformed', () => {
    expect(
      recallFollowStateOf({
        open: [{ shownId: 'a', identifiers: ['x.ts', 3], used: true }, { shownId: 4 }, null],
        ended: 'no',
      }),
    ).toEqual({ open: [{ shownId: 'a', identifiers: ['x.ts'], used: true }], ended: [] });
    expect(recallFollowStateOf(undefined)).toEqual({ open: [], ended: [] });
  });
});
