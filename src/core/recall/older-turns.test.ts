import { describe, expect, it } from 'vitest';
import { asksForSeveral, olderTurns, type TurnCandidate } from './older-turns.js';

const DAY = 86_400_000;
const turn = (id: string, speaker: string, day: number, text: string): TurnCandidate => ({
  key: `memory:${id}`,
  id,
  speaker,
  at: day * DAY,
  text,
});
const all = (cs: readonly TurnCandidate[]) => new Set(cs.map((c) => c.key));

describe('older turns at recall time (issue 23)', () => {
  it('a later turn naming a name of the earlier one and one of its own marks the earlier, in any phrasing', () => {
    const cs = [
      turn('t1', 'Ines', 1, 'Most days you will find me at Harbor Freight Lines, on the billing crew.'),
      turn('t2', 'Ines', 40, 'Harbor Freight Lines is behind me and Copperleaf Media pays the bills today.'),
    ];
    const marked = olderTurns(cs, all(cs), 'Who pays Ines these days?');
    expect([...marked.keys()]).toEqual(['memory:t1']);
    const o = marked.get('memory:t1');
    expect(o?.newerId).toBe('t2');
    expect(o?.shared).toEqual(['freight', 'lines']);
    expect(o?.own).toEqual(['copperleaf', 'media']);
    expect(o?.why).toContain('t2');
  });

  it('the latest version is the one named: a line of three marks both older ones with the last', () => {
    const cs = [
      turn('a', 'Ines', 1, 'Home is Quito for me.'),
      turn('b', 'Ines', 20, 'I found Quito fine but Lagos suits me better.'),
      turn('c', 'Ines', 50, 'After Lagos and Quito it is Perth for me.'),
    ];
    const marked = olderTurns(cs, all(cs), 'Where is Ines?');
    expect(marked.get('memory:a')?.newerId).toBe('c');
    expect(marked.get('memory:b')?.newerId).toBe('c');
    expect(marked.has('memory:c')).toBe(false);
  });

  it('leaves a restatement, another speaker, a question, an addressed turn and a turn naming nothing', () => {
    const cs = [
      turn('s', 'Ines', 1, 'I took the flat in Quito after the Lagos years.'),
      turn('r', 'Ines', 30, 'Still loving Quito mornings.'),
      turn('o', 'Tariq', 40, 'My cousin swapped Quito for Perth.'),
      turn('q', 'Ines', 45, 'Is Quito colder than Perth?'),
      turn('a', 'Ines', 46, 'Tariq, how is Perth after Quito?'),
      turn('n', 'Ines', 47, 'the weather is nice today.'),
    ];
    expect(olderTurns(cs, all(cs), 'Where does Ines live?').size).toBe(0);
  });

  it('a question naming the later turn’s own value knows it: the pair is left', () => {
    const cs = [
      turn('t1', 'Ines', 1, 'Most days you will find me at Harbor Freight Lines.'),
      turn('t2', 'Ines', 40, 'Harbor Freight Lines is behind me; Copperleaf Media pays the bills.'),
    ];
    expect(olderTurns(cs, all(cs), 'What came before Copperleaf Media for Ines?').size).toBe(0);
  });

  it('only turns in the top window are marked; a later version may come from further down', () => {
    const cs = [
      turn('t1', 'Ines', 1, 'Most days you will find me at Harbor Freight Lines.'),
      turn('t2', 'Ines', 40, 'Harbor Freight Lines is behind me; Copperleaf Media pays the bills.'),
    ];
    expect(olderTurns(cs, new Set(['memory:t2']), 'Who pays Ines?').size).toBe(0);
    expect(olderTurns(cs, new Set(['memory:t1']), 'Who pays Ines?').size).toBe(1);
  });

  it('reads a question asking for several answers', () => {
    expect(asksForSeveral('What did Ines say about Quito?')).toBe(true);
    expect(asksForSeveral('List every city Ines lived in')).toBe(true);
    expect(asksForSeveral('Which places has Ines ever lived in?')).toBe(true);
    expect(asksForSeveral('Where does Ines live?')).toBe(false);
    expect(asksForSeveral('Who pays Ines these days?')).toBe(false);
  });
});
