import { describe, expect, it } from 'vitest';
import { heldBackApplied } from '../eval/habits/evolve-files.js';

describe('eval/habits real evolve: a held-back contradiction counts as applied (issue 21)', () => {
  const contradicts = new Map<string, string | null>([
    ['c1', 'pnpm'],
    ['c2', 'delete-files'],
    ['n1', null],
  ]);

  it('only where nothing of its habit is learned elsewhere: then the −0.3 reached all the agent reads of it', () => {
    const held = [{ id: 'c1' }, { id: 'c2' }];
    // The pnpm habit kept a skill from another group (learned at 0.86, unpenalised): its contradiction held back one
    // group, not the habit.
    expect(heldBackApplied(held, contradicts, new Set(['pnpm']))).toEqual([{ id: 'c2' }]);
    expect(heldBackApplied(held, contradicts, new Set())).toEqual(held);
  });

  it('never for a contradiction of no habit or one it does not know', () => {
    expect(heldBackApplied([{ id: 'n1' }, { id: 'x' }], contradicts, new Set())).toEqual([]);
  });
});
