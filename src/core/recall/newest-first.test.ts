import { describe, expect, it } from 'vitest';
import { askedValues, newestOfKind } from './newest-first.js';
import { valueKinds } from './older-turns.js';

const DAY = 86_400_000;
const T0 = Date.parse('2025-01-10T09:00:00Z');
const turn = (key: string, speaker: string, day: number, text: string) => ({
  key,
  id: `id-${key}`,
  speaker,
  at: T0 + day * DAY,
  text,
});

// Lena says where she works, then, two months later, talks of her new job with no change cue at all. Raj's turn
// puts Globex in the frame Acme filled ("I work at _ on the data team"): the two are values of one kind.
const acme = turn('acme', 'Lena', 0, 'I work at Acme on the data team, mostly pipelines.');
const raj = turn('raj', 'Raj', 5, 'I work at Globex on the data team, mostly pipelines.');
const globex = turn('globex', 'Lena', 60, 'Globex has been great so far, first month there and I love the people.');
const speakers = new Set(['lena', 'raj']);
const kindsOf = (ts: { text: string }[]) => valueKinds(ts, Number.POSITIVE_INFINITY, { speakers });

describe('newestOfKind: the newest of a speaker’s turns of one kind goes first (issue 23)', () => {
  it('a later value told with no change cue takes the place of the older one, which stays unmarked below', () => {
    const ranked = [acme, raj, globex];
    const placed = newestOfKind(ranked, kindsOf(ranked), { known: speakers });
    expect(placed).toEqual([
      {
        key: 'globex',
        placeOf: 'acme',
        before: ['id-acme'],
        at: globex.at,
        values: ['globex'],
        others: ['acme'],
      },
    ]);
  });

  it('as of a date, the newest said by then: a later value is left where it is', () => {
    const ranked = [acme, raj, globex];
    expect(newestOfKind(ranked, kindsOf(ranked), { known: speakers, asOf: T0 + 30 * DAY })).toEqual([]);
  });

  it('a later mention that states no value of the speaker’s (a comparison, a plan) is not placed first', () => {
    const compare = turn('cmp', 'Lena', 90, 'My cousin says Initech is better than Globex, I am not so sure.');
    const plan = turn('plan', 'Lena', 95, 'If I ever left Globex I would pick Initech, probably.');
    const ranked = [acme, raj, compare, plan, globex, turn('raj2', 'Raj', 9, 'I work at Initech on the data team.')];
    const placed = newestOfKind(ranked, kindsOf(ranked), { known: speakers });
    expect(placed.map((p) => [p.key, p.placeOf])).toEqual([['globex', 'acme']]);
  });

  it('one value said again is no change; another speaker’s value is not the speaker’s', () => {
    const again = turn('again', 'Lena', 70, 'I work at Acme on the data team, still mostly pipelines.');
    const ranked = [acme, raj, again];
    expect(newestOfKind(ranked, kindsOf(ranked), { known: speakers })).toEqual([]);
  });
});

describe('askedValues: the values of the kind a question asks about, from turns naming it (issue 23)', () => {
  const turns = [
    { text: 'My weekend hobby is pottery.' },
    { text: 'My weekend hobby is chess.' },
    { text: 'I quit chess; my weekends are all climbing now.' },
    { text: 'My weekend plan is Lisbon.' },
    { text: 'My weekend plan is Porto.' },
  ];
  it('a question word beside a value gives its kind, most said first; a word beside none gives none', () => {
    const kinds = valueKinds(turns);
    expect(askedValues(['hobby'], turns, kinds)).toEqual(['chess', 'pottery']);
    expect(askedValues(['plan'], turns, kinds)).toEqual(['lisbon', 'porto']);
    expect(askedValues(['editor'], turns, kinds)).toEqual([]);
  });
});
