import { describe, expect, it } from 'vitest';
import { openCredence } from '../engine.js';
import { openSqliteStore } from '../../store/sqlite/index.js';
import { promptContext } from '../../hooks/prompt.js';

const DAY = 86_400_000;
const START = Date.parse('2025-03-01T18:00:00Z');

/** `turns` said in one session, `gap` ms apart, remembered at once; the engine asked 20 days after the start. */
async function oneSession(turns: readonly [string, string][], gap = 60_000) {
  // Remembered when the last was said (a turn more than a day after the clock is refused).
  let clock = START + Math.max(0, turns.length - 1) * gap;
  const cr = await openCredence({ store: openSqliteStore({ path: ':memory:' }), scope: 'c', now: () => clock });
  const { ids } = await cr.remember(
    turns.map(([speaker, text], index) => ({ speaker, session: 's1', index, at: START + index * gap, text })),
  );
  clock = START + 20 * DAY;
  return { cr, ids: ids as string[] };
}

/** Ana's turns share no word with the question but her name (each turn's title is its speaker). */
const conversation = () =>
  oneSession([
    ['Ana', 'Morning everyone!'],
    ['Ana', 'Our flat in Perth has a tiny balcony over the harbour.'],
    ['Bo', 'Ana, enjoy Perth!'],
    ['Ana', 'How was your week, Bo?'],
    ['Bo', 'The bakery opened again.'],
  ]);

describe('turns found by the speaker’s name alone (issue 23)', () => {
  it('are not ranked by their length: one BM25 ratio for all, none for a turn stating no fact of its own', async () => {
    const { cr, ids } = await conversation();
    const [small, flat, reaction, asks] = ids;
    const rs = await cr.recall('Which town is Ana residing in?', { limit: 10, track: false });
    const of = (id: string | undefined) => rs.find((r) => r.id === id);
    for (const id of [small, flat, asks]) expect(of(id)?.parts.nameOnly).toBe(true);
    expect(of(reaction)?.parts.nameOnly).toBeUndefined();
    expect(of(small)?.parts.bm25Relative).toBe(of(flat)?.parts.bm25Relative);
    expect(of(small)?.parts.bm25).not.toBe(of(flat)?.parts.bm25);
    expect(of(asks)?.parts.bm25Relative).toBe(0);
    // Bo's reaction names Ana and nothing else the question asks: what it links to is no evidence for "high".
    expect(rs.every((r) => r.label !== 'high')).toBe(true);
    // BM25 alone stays BM25's.
    const plain = await cr.recall('Which town is Ana residing in?', { limit: 10, track: false, bm25Weight: 1 });
    expect(plain.every((r) => r.parts.nameOnly === undefined)).toBe(true);
    await cr.close();
  });

  it('a turn another speaker said word for word, naming no name, is no fact of the named speaker’s', async () => {
    const { cr, ids } = await oneSession([
      ['Ana', 'Ha, that sounds about right.'],
      ['Bo', 'Ha, that sounds about right.'],
      ['Ana', 'The right flat in Perth took a while to find.'],
    ]);
    const rs = await cr.recall('Where is Ana living these days?', { limit: 10, track: false });
    const small = rs.find((r) => r.id === ids[0]);
    expect(small?.parts.saidByOthers).toBe(true);
    expect(small?.parts.bm25Relative).toBe(0);
    expect(rs[0]?.id).toBe(ids[2]);
    await cr.close();
  });

  it('a turn holding another word of the question keeps its own ratio', async () => {
    const { cr, ids } = await conversation();
    const rs = await cr.recall('Is Ana in a flat?', { limit: 10, track: false });
    const flat = rs.find((r) => r.id === ids[1]);
    expect(flat?.parts.nameOnly).toBeUndefined();
    expect(rs[0]?.id).toBe(ids[1]);
    await cr.close();
  });
});

describe('a question about the past naming a speaker (issue 23, section E dev 3)', () => {
  it('their turns found by the name alone naming no value go below those naming one', async () => {
    const { cr, ids } = await oneSession([
      ['Ana', 'Morning everyone!'],
      ['Ana', 'Long weekend coming up, finally.'],
      ['Ana', 'Spent all of Saturday at the Kestrel wall again.'],
      ['Bo', 'How was your week?'],
      ['Ana', 'Honestly, I need a holiday.'],
    ]);
    const [morning, weekend, wall] = ids;
    // February 2025 ended before the session (1 March): a question about a past period.
    const rs = await cr.recall('What did Ana do for fun back in February 2025?', { limit: 10, track: false });
    const of = (id: string | undefined) => rs.find((r) => r.id === id);
    // The turn naming a value (Kestrel) first; the small talk after it, its BM25 ratio 0 and said why.
    expect(rs[0]?.id).toBe(wall);
    expect(of(wall)?.parts.namesNoValue).toBeUndefined();
    for (const id of [morning, weekend]) {
      expect(of(id)?.parts.namesNoValue).toBe(true);
      expect(of(id)?.parts.bm25Relative).toBe(0);
    }
    // A question about the present reads them as before: one ratio for all found by the name alone.
    const now = await cr.recall('What does Ana do for fun?', { limit: 10, track: false });
    expect(now.every((r) => r.parts.namesNoValue === undefined)).toBe(true);
    await cr.close();
  });
});

describe('the line of facts closest to a question naming a speaker (issue 23)', () => {
  it('its turns are scored just below its best match (parts.via sameFact), never "high" by that link', async () => {
    const { cr, ids } = await oneSession(
      [
        ['Ana', 'Our flat in Quito has a tiny balcony over the harbour.'],
        ['Ana', 'Morning everyone!'],
        ['Ana', 'My team at Granite Mutual ships on Thursdays.'],
        ['Ana', 'Quito is history, the new address is in Perth.'],
        ['Ana', 'Ha, that sounds about right.'],
        ['Ana', 'Granite Mutual pays for my train ticket.'],
        ['Ana', 'The flat in Perth gets the sun all afternoon.'],
        ['Bo', 'The bakery opened again.'],
      ],
      DAY,
    );
    const rs = await cr.recall('In which apartment is Ana residing?', { limit: 10, track: false });
    const lifted = rs.filter((r) => r.parts.via?.how === 'sameFact');
    const city = new Set([ids[0], ids[3], ids[6]]);
    expect(lifted.length).toBeGreaterThan(0);
    for (const r of lifted) {
      expect(city.has(r.id)).toBe(true);
      expect(city.has(r.parts.via?.id)).toBe(true);
      expect(r.label).not.toBe('high');
    }
    const plain = await cr.recall('In which apartment is Ana residing?', { limit: 10, track: false, bm25Weight: 1 });
    expect(plain.some((r) => r.parts.via?.how === 'sameFact')).toBe(false);
    await cr.close();
  });

  it('is read over the current turns alone: a superseded value is not lifted with it', async () => {
    let clock = START;
    const cr = await openCredence({ store: openSqliteStore({ path: ':memory:' }), scope: 'c', now: () => clock });
    const said: [string, string, number][] = [
      ['Ana', 'I live in Lisbon near the river.', 0],
      ['Ana', 'The flat in Lisbon has a small balcony.', 2],
      ['Bo', 'Nice weather today.', 3],
      ['Ana', 'I moved from Lisbon to Denver last month.', 30],
      ['Ana', 'Denver winters are cold.', 40],
    ];
    const ids: string[] = [];
    for (const [i, [speaker, text, day]] of said.entries()) {
      clock = START + day * DAY;
      ids.push(...(await cr.remember([{ speaker, session: `s${i}`, index: 0, at: clock, text }])).ids);
    }
    clock = START + 400 * DAY;
    for (const question of ['Where does Ana live?', 'What is the flat of Ana like?']) {
      const rs = await cr.recall(question, { limit: 8, track: false });
      const flat = rs.find((r) => r.id === ids[1]);
      expect(flat?.status).toBe('superseded');
      expect(flat?.parts.via).toBeUndefined();
    }
    await cr.close();
  });
});

describe('a named speaker’s turns found by the name alone, beside another speaker’s turn matching the words', () => {
  it('are scored against what the question asks about: the other speaker’s own fact sets no scale', async () => {
    const { cr, ids } = await oneSession([
      ['Mira', 'I teach at Fernwood primary school, year four.'],
      ['Devi', 'I am a ferry pilot on the harbour line.'],
      ['Mira', 'Where do you moor the ferry at night?'],
      ['Devi', 'Ha, lovely.'],
    ]);
    const [mira, devi] = ids;
    const rs = await cr.recall('What does Devi teach?', { limit: 10, track: false });
    const of = (id: string | undefined) => rs.find((r) => r.id === id);
    // Devi's turns are found by her name (their title) alone; Mira's by "teach", weighed as another speaker's.
    expect(of(devi)?.parts.nameOnly).toBe(true);
    expect(of(mira)?.parts.speakerFactor).toBe(0.5);
    expect(of(mira)?.parts.bm25Relative).toBe(1);
    // Scored against Devi's own best hit, her pilot turn's ratio is no longer Mira's "teach" match's small share.
    expect(of(devi)?.parts.bm25Relative).toBeGreaterThan(of(mira)?.parts.speakerFactor as number);
    expect(rs[0]?.id).toBe(devi);
    await cr.close();
  });
});

describe('a named speaker’s turns matching nothing of the question but the name (walk 15, item 8)', () => {
  const walk = async () => {
    const store = openSqliteStore({ path: ':memory:' });
    // Remembered when the last turn was said (a turn more than a day after the clock is refused).
    let clock = Date.parse('2026-05-20T18:01:00Z');
    const cr = await openCredence({ store, scope: 'c', now: () => clock });
    const turn = (speaker: string, session: string, at: string, text: string, index: number) => ({
      speaker,
      session,
      index,
      at: Date.parse(at),
      text,
    });
    await cr.remember([
      turn('Ana', 's1', '2026-01-05T09:00:00Z', 'I live in Lisbon and I work at Northwind as a backend engineer.', 0),
      turn('Ben', 's1', '2026-01-05T09:01:00Z', 'Nice! I work at Globex, on the payments team.', 1),
      turn('Ana', 's1', '2026-01-05T09:02:00Z', 'The deploy script lives in the ops folder by the way.', 2),
      turn('Ana', 's2', '2026-05-20T18:00:00Z', 'Big news: I moved to Denver last week.', 0),
      turn('Ana', 's2', '2026-05-20T18:01:00Z', 'And I left Northwind, now I work at Initech.', 1),
    ]);
    clock = Date.parse('2026-10-01T10:00:00Z');
    return { store, cr, now: clock };
  };

  it('are "low", with and without similarity, so the prompt hook gives the agent none of them', async () => {
    const { store, cr, now } = await walk();
    for (const bm25Weight of [undefined, 1]) {
      const rs = await cr.recall('Does Ana like tennis?', { limit: 10, track: false, bm25Weight });
      expect(rs.length).toBeGreaterThan(0);
      expect(rs.map((r) => r.label)).toEqual(rs.map(() => 'low'));
      expect(rs.every((r) => r.parts.withheld?.includes("only the speaker's name") === true)).toBe(true);
    }
    expect((await promptContext(store, 'c', 'Does Ana like tennis?', now)).context).toBe('');
    // A turn holding another word of the question keeps its label.
    const work = await cr.recall('Where does Ana work?', { limit: 10, track: false });
    expect(work[0]?.label).not.toBe('low');
    await cr.close();
  });
});
