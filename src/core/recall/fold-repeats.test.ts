import { describe, expect, it } from 'vitest';
import { foldRepeats } from './fold-repeats.js';

const run = (id: string, title: string) => ({ id, kind: 'execution', title });
const note = (id: string, title: string) => ({ id, kind: 'observation', title });

describe('foldRepeats', () => {
  it('lists a run whose intent repeats once, at its best rank, with how many runs it stands for', () => {
    const items = [
      run('r1', 'Claude Code session s1'),
      note('o1', 'Tests run first'),
      run('r2', 'Claude Code session s1 '),
      run('r3', 'fix the test'),
      run('r4', 'Claude Code session s1'),
    ];
    expect(foldRepeats(items).map((e) => [e.id, e.repeats, e.ids])).toEqual([
      ['r1', 3, ['r1', 'r2', 'r4']],
      ['o1', 1, ['o1']],
      ['r3', 1, ['r3']],
    ]);
  });

  it('folds only the kinds it is given, and never folds across kinds', () => {
    const items = [note('o1', 'same'), note('o2', 'same'), run('r1', 'same')];
    expect(foldRepeats(items).map((e) => e.id)).toEqual(['o1', 'o2', 'r1']);
    expect(foldRepeats(items, { kinds: ['observation', 'execution'] }).map((e) => [e.id, e.repeats])).toEqual([
      ['o1', 2],
      ['r1', 1],
    ]);
  });

  it('cuts to the limit after folding, still counting the repeats of what it kept', () => {
    const items = [run('r1', 'a'), run('r2', 'b'), run('r3', 'a'), run('r4', 'c'), run('r5', 'b')];
    expect(foldRepeats(items, { limit: 2 }).map((e) => [e.id, e.repeats])).toEqual([
      ['r1', 2],
      ['r2', 2],
    ]);
  });

  it('leaves its input as it was', () => {
    const items = [run('r1', 'a'), run('r2', 'a')];
    const copy = structuredClone(items);
    foldRepeats(items);
    expect(items).toEqual(copy);
  });
});
