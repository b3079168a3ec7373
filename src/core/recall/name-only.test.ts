import { describe, expect, it } from 'vitest';
import { type NameOnlyCandidate, nameOnlyMatches, withValuelessAtZero } from './name-only.js';

const c = (key: string, speaker: string | undefined, text: string, ratio: number | undefined): NameOnlyCandidate => ({
  key,
  ...(speaker === undefined ? {} : { speaker }),
  text,
  ratio,
});

describe('turns found by a speaker’s name alone (issue 23)', () => {
  const pool = [
    c('small', 'Ana', 'Morning everyone!', 1),
    c('fact', 'Ana', 'Every morning the tram takes me across Perth to the harbour.', 0.4),
    c('asks', 'Ana', 'How was your week, Bo?', 0.9),
    c('word', 'Ana', 'The town hall is lovely.', 0.8),
    c('reaction', 'Bo', 'Ana, enjoy Perth!', 0.7),
    c('note', undefined, 'A note about Ana.', 0.6),
    c('unfound', 'Ana', 'I like tea.', undefined),
  ];

  it('the named speaker’s turns holding no other word of the question share the lowest ratio; 0 with no fact', () => {
    const { ratios, bare } = nameOnlyMatches(pool, new Set(['Ana']), ['ana'], ['town', 'ana', 'before']);
    expect(Object.fromEntries(ratios)).toEqual({ small: 0.4, fact: 0.4, asks: 0 });
    expect([...bare].sort()).toEqual(['asks', 'fact', 'reaction', 'small']);
  });

  it('a possessive’s one letter is no word of the question: "How’s your week" is found by the name alone', () => {
    const turns = [
      c('week', 'Omar', 'How’s your week going, Priya?', 1),
      c('small', 'Omar', 'Morning everyone!', 0.5),
      c('editor', 'Omar', 'Vim is my editor now.', 0.8),
    ];
    const { ratios, bare } = nameOnlyMatches(turns, new Set(['Omar']), ['omar'], ['omar', 's', 'editor']);
    expect(Object.fromEntries(ratios)).toEqual({ week: 0, small: 0.5 });
    expect([...bare].sort()).toEqual(['small', 'week']);
  });

  it('a named speaker’s turn another speaker said word for word, naming no name, is small talk: ratio 0', () => {
    const said = [
      c('mine', 'Ana', 'Ha, that sounds about right.', 0.9),
      c('his', 'Bo', 'Ha, that sounds about right.', 0.9),
      c('value', 'Ana', 'I live in Perth.', 0.8),
      c('same', 'Bo', 'I live in Perth.', 0.8),
      c('alone', 'Ana', 'That sounds right to me.', 0.7),
    ];
    const { ratios, common } = nameOnlyMatches(said, new Set(['Ana']), ['ana'], ['ana', 'live']);
    expect([...common]).toEqual(['mine']);
    expect(ratios.get('mine')).toBe(0);
    expect(ratios.has('value')).toBe(false);
    // Found by another word of the question, a fact two speakers state alike stays theirs.
    const fact = [c('sam', 'Sam', "i'm vegetarian by the way.", 1), c('bot', 'bot', "i'm vegetarian by the way.", 1)];
    for (const words of [
      ['sam', 'vegetarian'],
      ['sam', 'eat'],
    ]) {
      const found = nameOnlyMatches(fact, new Set(['Sam']), ['sam'], words);
      expect(found.common.has('sam')).toBe(words.includes('eat'));
    }
  });

  it('a question of the name alone: every turn of the speaker; no speaker named: none', () => {
    expect([...nameOnlyMatches(pool, new Set(['Ana']), ['ana'], ['ana']).ratios.keys()]).toEqual([
      'small',
      'fact',
      'asks',
      'word',
    ]);
    const none = nameOnlyMatches(pool, new Set(), [], ['town', 'ana']);
    expect(none.ratios.size).toBe(0);
    expect(none.bare.size).toBe(0);
  });
});

describe('turns found by the name alone that name no value (issue 23, section E dev 3)', () => {
  it("go to ratio 0; a name but the speakers' or a word of a value's frame keeps the ratio", () => {
    const texts = new Map([
      ['small', 'Long weekend coming up, Bo and I are off.'],
      ['name', 'Spent Saturday at the Kestrel wall again.'],
      ['kind', 'Spent Saturday on pottery again.'],
      ['zero', 'How was your week?'],
    ]);
    const matches = {
      ratios: new Map([
        ['small', 0.4],
        ['name', 0.4],
        ['kind', 0.4],
        ['zero', 0],
      ]),
      bare: new Set(texts.keys()),
      common: new Set<string>(),
    };
    const kinds = new Map([
      ['pottery', 'pottery'],
      ['judo', 'pottery'],
    ]);
    const { matches: out, valueless } = withValuelessAtZero(
      matches,
      (key) => texts.get(key) ?? '',
      new Set(['ana', 'bo']),
      kinds,
    );
    expect([...valueless]).toEqual(['small']);
    expect([...out.ratios]).toEqual([
      ['small', 0],
      ['name', 0.4],
      ['kind', 0.4],
      ['zero', 0],
    ]);
    // The matches given are left as they were.
    expect(matches.ratios.get('small')).toBe(0.4);
  });
});
