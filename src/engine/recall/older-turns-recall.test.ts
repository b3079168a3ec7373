import { describe, expect, it } from 'vitest';
import { agentContextLines } from '../../core/recall/memory-life.js';
import { CHANGE_EVIDENCE } from '../../core/recall/recall-label.js';
import { openCredence } from '../engine.js';
import { openSqliteStore } from '../../store/sqlite/index.js';

const DAY = 86_400_000;
const START = Date.parse('2025-03-01T18:00:00Z');

/** An engine whose clock each session sets (session n at n × 40 days, a minute a turn); `at(day)` moves it. */
async function sessions() {
  let clock = START;
  const cr = await openCredence({ store: openSqliteStore({ path: ':memory:' }), scope: 'c', now: () => clock });
  const session = async (n: number, turns: [string, string][]) => {
    clock = START + n * 40 * DAY;
    const { ids } = await cr.remember(
      turns.map(([speaker, text], index) => ({ speaker, session: `s${n}`, index, at: clock + index * 60_000, text })),
    );
    return ids;
  };
  const at = (day: number) => {
    clock = START + day * DAY;
  };
  return { cr, session, at };
}

/**
 * Ines changes employer in words no lexicon of supersession holds (no change cue, no slot word): the store keeps
 * both turns current; recall must order them in time for a question about the present.
 */
async function conversation() {
  const { cr, session, at } = await sessions();
  const [older] = await session(0, [
    ['Ines', 'Most days you will find me at Harbor Freight Lines, on the billing crew.'],
    ['Tariq', 'The bakery on the corner opened again.'],
  ]);
  const [newer] = await session(1, [
    ['Ines', 'Harbor Freight Lines was a good chapter and Copperleaf Media pays the bills today.'],
    ['Tariq', 'I watched the match last night.'],
  ]);
  at(90);
  return { cr, older: older as string, newer: newer as string };
}

describe('recall orders a speaker’s turns in time for a question about the present (issue 23)', () => {
  it('the later version goes first; the older is marked with a lower label, the later one’s id and why', async () => {
    const { cr, older, newer } = await conversation();
    const plain = await cr.recall('Which billing crew at Harbor Freight Lines is Ines on?', {
      limit: 5,
      track: false,
      questionTime: false,
    });
    expect(plain[0]?.id).toBe(older);
    expect(plain.every((r) => r.status === 'current')).toBe(true);
    const rs = await cr.recall('Which billing crew at Harbor Freight Lines is Ines on?', { limit: 5, track: false });
    expect(rs.map((r) => r.id).slice(0, 2)).toEqual([newer, older]);
    const was = rs[1];
    expect(was?.status).toBe('conflict');
    expect(was?.label).not.toBe('high');
    expect(was?.parts.newerTurn).toEqual({ id: newer, names: ['copperleaf', 'media'] });
    expect(was?.parts.lifeFactor).toBe(0.5);
    expect(was?.life?.conflictsWith).toEqual([newer]);
    expect(was?.life?.why).toContain(newer);
    expect(rs[0]?.status).toBe('current');
    expect(rs[0]?.parts.newerThan).toBe(older);
    // The store is not touched: the older turn is current in every other answer.
    const again = await cr.recall('Which billing crew at Harbor Freight Lines was Ines on before?', {
      limit: 5,
      track: false,
    });
    expect(again.find((r) => r.id === older)?.status).toBe('current');
    await cr.close();
  });

  it('no reordering for a list, for what someone said about something, for the past or for BM25 alone', async () => {
    const { cr, older } = await conversation();
    for (const [q, request] of [
      ['What did Ines say about Harbor Freight Lines and the billing crew?', {}],
      ['List every billing crew at Harbor Freight Lines Ines was on', {}],
      ['Which billing crew at Harbor Freight Lines was Ines on before?', {}],
      ['When was Ines on the billing crew at Harbor Freight Lines?', {}],
      ['Which billing crew at Harbor Freight Lines is Ines on?', { bm25Weight: 1 }],
    ] as const) {
      const rs = await cr.recall(q, { limit: 5, track: false, ...request });
      expect(rs[0]?.id, q).toBe(older);
      expect(
        rs.every((r) => r.status === 'current' && r.parts.newerTurn === undefined),
        q,
      ).toBe(true);
    }
    await cr.close();
  });
});

describe('a value said again later with no change still holds (issue 23, newcomer walk)', () => {
  it('the later turn goes first; the earlier one stays current, unmarked, in the context too', async () => {
    const { cr, session, at } = await sessions();
    const [first] = await session(0, [
      ['Omar', 'I drive for Bluebell Couriers out of the Leeds depot.'],
      ['Tariq', 'The bakery on the corner opened again.'],
    ]);
    const [still] = await session(1, [
      ['Omar', 'Still driving for Bluebell Couriers, though Tidewater Freight rang me once.'],
      ['Tariq', 'I watched the match last night.'],
    ]);
    at(90);
    const rs = await cr.recall('Who does Omar drive for?', { limit: 5, track: false });
    expect(rs.map((r) => r.id).slice(0, 2)).toEqual([still, first]);
    expect(rs[1]?.status).toBe('current');
    expect(rs[1]?.parts.newerTurn).toBeUndefined();
    expect(rs[1]?.life?.why).toBeUndefined();
    const lines = agentContextLines(rs, true);
    expect(lines.find((l) => l.title.includes('Leeds depot'))?.note).toBeUndefined();
    await cr.close();
  });
});

describe('recall finds the value a later turn replaced, for a question naming the later value (issue 23)', () => {
  it('the earlier value’s turn is scored with the turn that brought the later one (parts.via replacedBy)', async () => {
    const { cr, session, at } = await sessions();
    const [quito] = await session(0, [
      ['Ines', 'Our rooftop in Quito gets the morning sun.'],
      ['Ines', 'Morning everyone!'],
      ['Tariq', 'The bakery on the corner opened again.'],
    ]);
    const [, perth] = await session(1, [
      ['Ines', 'Morning all!'],
      ['Ines', 'Said goodbye to Quito, the new address is in Perth.'],
      ['Ines', 'Ha, that sounds about right.'],
    ]);
    at(90);
    const question = 'Which town was Ines residing in ahead of Perth?';
    const rs = await cr.recall(question, { limit: 5, track: false });
    expect(rs.map((r) => r.id).slice(0, 2)).toEqual([perth, quito]);
    expect(rs[1]?.parts.via).toEqual({ id: perth, how: 'replacedBy' });
    const plain = await cr.recall(question, { limit: 5, track: false, bm25Weight: 1 });
    expect(plain.find((r) => r.id === quito)?.parts.via).toBeUndefined();
    await cr.close();
  });
});

/** Ana's turns said a session apart each (day), remembered one by one; asked 60 days after the start. */
async function said(turns: [string, string, number][]) {
  let clock = START;
  const cr = await openCredence({ store: openSqliteStore({ path: ':memory:' }), scope: 'c', now: () => clock });
  const ids: string[] = [];
  for (const [i, [speaker, text, day]] of turns.entries()) {
    clock = START + day * DAY;
    ids.push(...(await cr.remember([{ speaker, session: `s${i}`, index: 0, at: clock, text }])).ids);
  }
  clock = START + 60 * DAY;
  return { cr, ids };
}

describe('lines of facts in the ordering in time (issue 23 review)', () => {
  it('a later turn of the same line (a frame, no name shared) marks the earlier when its value is held', async () => {
    const turns: [string, string, number][] = [
      ['Ana', 'My team at Harbor Freight ships every week.', 1],
      ['Bo', 'Nice weather today.', 2],
      ['Ana', 'My team at Copperleaf Media ships every week.', 20],
    ];
    // No change said, the value said once: the earlier one still holds as far as anyone knows.
    const once = await said(turns);
    const kept = (await once.cr.recall('Where does Ana work?', { limit: 5, track: false })).find(
      (r) => r.id === once.ids[0],
    );
    expect(kept?.status).toBe('current');
    await once.cr.close();
    // Ana states it as hers twice after: held, the earlier is older.
    const { cr, ids } = await said([
      ...turns,
      ['Ana', 'I love my desk at Copperleaf Media, the team ships every week.', 22],
      ['Ana', 'I bike to Copperleaf Media each morning, my team ships every week.', 24],
    ]);
    const rs = await cr.recall('Where does Ana work?', { limit: 5, track: false });
    const older = rs.find((r) => r.id === ids[0]);
    expect(older?.status).toBe('conflict');
    expect(older?.parts.newerTurn?.names).toEqual(['copperleaf', 'media']);
    expect(older?.life?.why).toContain('holds copperleaf, media (said in two own turns after)');
    await cr.close();
  });

  it('a turn scored with its line’s best match (sameFact) is no evidence for its label', async () => {
    const { cr, ids } = await said([
      ['Ana', 'I work at Harbor Freight on the billing crew.', 1],
      ['Bo', 'Nice weather today.', 2],
      ['Ana', 'Harbor Freight is history, the billing crew at Copperleaf Media hired me.', 20],
    ]);
    const rs = await cr.recall('Where does Ana work?', { limit: 5, track: false });
    expect(rs[0]?.id).toBe(ids[2]);
    expect(rs[0]?.parts.via?.how).toBe('sameFact');
    // "high" by the scores alone; withheld: half the question's words and no link of its life.
    expect(rs[0]?.parts.seedLabel).toBe('high');
    expect(rs[0]?.label).toBe('medium');
    expect(rs[0]?.parts.withheld).toContain('no link');
    await cr.close();
  });
});

describe('a word after a colon starts a clause, no name of a later version (issue 23 review)', () => {
  it('"Northwind Labs is great: Lisbon office …" leaves the job turn before it current', async () => {
    const { cr, ids } = await said([
      ['Ana', 'I work at Northwind Labs on the data team.', 0],
      ['Bo', 'Nice weather today.', 1],
      ['Ana', 'Northwind Labs is great: Lisbon office has the best view.', 20],
    ]);
    for (const question of ['Where does Ana work now?', 'Which company is Ana working for?']) {
      const rs = await cr.recall(question, { limit: 5, track: false });
      const job = rs.find((r) => r.id === ids[0]);
      expect(job?.status).toBe('current');
      expect(job?.parts.newerTurn).toBeUndefined();
      expect(rs[0]?.id).toBe(ids[0]);
    }
    await cr.close();
  });
});

describe('recall puts first the turn where a value came, for a question asking when (issue 23)', () => {
  it('the first own turn naming it, marked (parts.firstNamed), no evidence for its label', async () => {
    const { cr, session, at } = await sessions();
    await session(0, [['Ines', 'Our rooftop in Quito gets the morning sun.']]);
    const [came] = await session(1, [
      ['Ines', 'Said goodbye to Quito, the new address is in Perth.'],
      ['Tariq', 'Ines, is Perth as sunny as they say?'],
    ]);
    await session(2, [
      ['Ines', 'Perth again: sun.'],
      ['Ines', 'Sunny Perth, sunny me.'],
    ]);
    at(120);
    const question = 'When did Ines get to sunny Perth?';
    const rs = await cr.recall(question, { limit: 5, track: false });
    expect(rs[0]?.id).toBe(came);
    expect(rs[0]?.parts.firstNamed).toBe(true);
    expect(rs.slice(1).every((r) => r.parts.firstNamed === undefined)).toBe(true);
    const plain = await cr.recall(question, { limit: 5, track: false, bm25Weight: 1 });
    expect(plain.every((r) => r.parts.firstNamed === undefined)).toBe(true);
    await cr.close();
  });

  it('a musing is no arrival: a note about the move stays first, the musing unmarked and not high', async () => {
    let clock = START;
    const cr = await openCredence({ store: openSqliteStore({ path: ':memory:' }), scope: 'c', now: () => clock });
    const { ids } = await cr.remember([
      { title: 'Deploy runbook', text: 'Deploy: run make release; then Kubernetes rolls the pods.' },
      { title: 'Database decision', text: 'We chose Postgres over MySQL; Redis stays as the cache.' },
      {
        title: 'When we moved to Neo4j',
        text: 'The move to Neo4j happened after the Q2 load test: queries were slow.',
      },
    ]);
    clock = START + DAY;
    const [musing] = (
      await cr.remember([
        { speaker: 'Raj', session: 's1', index: 0, at: clock, text: 'We could maybe look at Neo4j someday.' },
      ])
    ).ids;
    clock = START + 400 * DAY;
    for (const question of ['When did we move to Neo4j?', 'When was the move to Neo4j?']) {
      const rs = await cr.recall(question, { limit: 5, track: false });
      expect(rs[0]?.id).toBe(ids[2]);
      const raj = rs.find((r) => r.id === musing);
      expect(raj?.parts.firstNamed).toBeUndefined();
      expect(raj?.label).not.toBe('high');
    }
    // The speaker named: the first own turn naming it goes above the turns, never above a memory matching better,
    // and is no evidence for its label.
    clock = START + 30 * DAY;
    await cr.remember([
      { speaker: 'Raj', session: 's2', index: 0, at: clock, text: 'The ledger moved to Neo4j, finally.' },
    ]);
    clock = START + 400 * DAY;
    const rs = await cr.recall('When did Raj move to Neo4j?', { limit: 5, track: false });
    const raj = rs.find((r) => r.id === musing);
    expect(raj?.parts.firstNamed).toBe(true);
    expect(raj?.label).not.toBe('high');
    const at = rs.indexOf(raj as (typeof rs)[number]);
    const notes = rs.filter((r) => r.turn === undefined);
    expect(notes.length).toBeGreaterThan(0);
    for (const r of notes)
      if ((r.parts.fused as number) > (raj?.parts.fused as number)) expect(rs.indexOf(r)).toBeLessThan(at);
    await cr.close();
  });

  it('a first mention lifted for a named speaker stops below a note that matches the question better', async () => {
    let clock = START;
    const cr = await openCredence({ store: openSqliteStore({ path: ':memory:' }), scope: 'cap', now: () => clock });
    const turn = async (day: number, speaker: string, text: string) => {
      clock = START + day * DAY;
      return (await cr.remember([{ speaker, session: `d${day}`, index: 0, at: clock, text }])).ids[0] as string;
    };
    const musing = await turn(1, 'Raj', 'We could maybe look at Neo4j someday.');
    clock = START + 5 * DAY;
    const text = 'Raj moved the ledger to Neo4j during the spring migration.';
    const note = (await cr.remember([{ title: 'Graph database', text }])).ids[0] as string;
    await turn(30, 'Raj', 'I finally moved the ledger to Neo4j this week, Neo4j works.');
    await turn(31, 'Bo', 'Nice weather today.');
    clock = START + 60 * DAY;
    const rs = await cr.recall('When did Raj move the ledger to Neo4j?', { limit: 5, track: false });
    const ids = rs.map((r) => r.id);
    expect(rs.find((r) => r.id === musing)?.parts.firstNamed).toBe(true);
    expect(ids.indexOf(note)).toBeGreaterThanOrEqual(0);
    expect(ids.indexOf(note)).toBeLessThan(ids.indexOf(musing));
    await cr.close();
  });
});

describe('values of one kind order a speaker’s turns that share no name (issue 23)', () => {
  it('a later value said in the words others say theirs goes above the earlier one, which is marked', async () => {
    const { cr, session, at } = await sessions();
    const [quill] = await session(0, [
      ['Nadia', 'Nothing beats Quill for me when I program.'],
      ['Omar', 'Nothing beats Vellum for me when I program.'],
    ]);
    await session(1, [['Nadia', 'Took the plunge and adopted Vellum as my editor.']]);
    const [loyal] = await session(2, [['Nadia', 'I am loyal to Vellum, it fits how I think.']]);
    at(120);
    const rs = await cr.recall('Which program does Nadia code in now?', { limit: 5, track: false });
    const ids = rs.map((r) => r.id);
    expect(ids.indexOf(loyal as string)).toBeLessThan(ids.indexOf(quill as string));
    const was = rs.find((r) => r.id === quill);
    expect(was?.status).toBe('conflict');
    expect(was?.parts.newerTurn).toEqual({ id: loyal, names: ['vellum'] });
    expect(was?.life?.why).toContain('a value of the kind of quill');
    await cr.close();
  });
});

describe('values of one kind mark nothing that still holds (issue 23 review 3)', () => {
  it('a later turn still holding the earlier value beside a new one of its kind leaves it current', async () => {
    const { cr, session, at } = await sessions();
    const [rowing] = await session(0, [
      ['Noor', 'I go rowing with my cousin at dawn on weekends.'],
      ['Pablo', 'We tried rowing on the lake last weekend.'],
      ['Pablo', 'We tried bowling on the lake last weekend.'],
    ]);
    await session(1, [['Noor', 'Still rowing every week, although I did some bowling once.']]);
    at(120);
    const rs = await cr.recall('What does Noor do at dawn on weekends?', { limit: 5, track: false });
    expect(rs.find((r) => r.id === rowing)?.status).toBe('current');
    await cr.close();
  });

  it('another person’s thing said twice is no value the speaker holds', async () => {
    const { cr, session, at } = await sessions();
    const [vespa] = await session(0, [
      ['Noor', 'I ride a Vespa to the studio and park it out front.'],
      ['Pablo', 'I take a Vespa to the studio.'],
      ['Greta', 'I take a Volvo to the studio.'],
    ]);
    await session(1, [['Noor', 'My husband bought a Volvo last month.']]);
    await session(2, [['Noor', 'The Volvo of my husband is in the garage again.']]);
    at(120);
    const rs = await cr.recall('What does Noor ride to the studio?', { limit: 5, track: false });
    expect(rs.find((r) => r.id === vespa)?.status).toBe('current');
    await cr.close();
  });

  it('a turn addressing another speaker mid-sentence is no value the speaker holds', async () => {
    const { cr, session, at } = await sessions();
    const [chess] = await session(0, [
      ['Noor', 'Evenings at home mean chess for me.'],
      ['Pablo', 'Evenings at home mean juggling for me.'],
      ['Greta', 'Evenings at home mean chess for me.'],
    ]);
    await session(1, [['Noor', 'I would be hopeless at juggling, Pablo, hats off.']]);
    await session(2, [['Noor', 'No juggling for me, Pablo, I would drop everything.']]);
    at(120);
    const rs = await cr.recall('What does Noor do in the evenings?', { limit: 5, track: false });
    expect(rs.find((r) => r.id === chess)?.status).toBe('current');
    await cr.close();
  });
});

describe('newest first among a speaker’s values of one kind, with no change said (issue 23)', () => {
  /** Lena names her employer, then a new one with no change cue; Raj's turn puts both in one frame. */
  async function newJob() {
    const { cr, session, at } = await sessions();
    const [acme] = await session(0, [
      ['Lena', 'I work at Acme on the data team, mostly pipelines.'],
      ['Raj', 'I work at Globex on the data team, mostly pipelines.'],
    ]);
    const [globex] = await session(1, [
      ['Lena', 'Started at Globex in March, first month there and the data team is lovely.'],
      ['Raj', 'Glad to hear it, Lena.'],
    ]);
    at(100);
    return { cr, acme: acme as string, globex: globex as string };
  }

  it('a question about now: the later turn first, the older below it unmarked; "before" keeps Acme', async () => {
    const { cr, acme, globex } = await newJob();
    const plain = await cr.recall('Which data team does Lena work on?', {
      limit: 5,
      track: false,
      questionTime: false,
    });
    expect(plain.findIndex((r) => r.id === acme)).toBeLessThan(plain.findIndex((r) => r.id === globex));
    const rs = await cr.recall('Which data team does Lena work on?', { limit: 5, track: false });
    const ids = rs.map((r) => r.id);
    expect(ids.indexOf(globex)).toBeLessThan(ids.indexOf(acme));
    const first = rs.find((r) => r.id === globex);
    expect(first?.parts.newerValue?.before).toEqual([acme]);
    expect(first?.parts.newerValue?.why).toMatch(/^newer value of the same kind .*placed before/);
    expect(rs.find((r) => r.id === acme)?.status).toBe('current');
    const before = await cr.recall('Which data team did Lena work on before?', { limit: 5, track: false });
    const was = before.map((r) => r.id);
    expect(was.indexOf(acme)).toBeLessThan(was.indexOf(globex));
    expect(before.some((r) => r.parts.newerValue !== undefined)).toBe(false);
  });
});

describe('a named speaker’s turns of the kind asked join the candidates (issue 23)', () => {
  /** Lena's hobby turn says neither "hobby" nor her name; sixty short turns of hers fill the name's search. */
  async function busyLena() {
    const { cr, session, at } = await sessions();
    const [climbing] = await session(0, [
      ['Lena', 'I quit chess this spring; these days my weekends are all climbing at the bouldering gym downtown.'],
      ['Raj', 'My weekend hobby is pottery.'],
      ['Sam', 'My weekend hobby is chess.'],
      ['Ana', 'My weekend hobby is climbing.'],
    ]);
    for (let n = 1; n <= 3; n += 1)
      await session(
        n,
        Array.from(
          { length: 20 },
          (_, i) => ['Lena', `Standup note ${n * 20 + i}: all good here.`] as [string, string],
        ),
      );
    at(200);
    return { cr, climbing: climbing as string };
  }

  it('"Which hobby does Lena have?" brings her climbing turn in, scored with a turn naming a hobby', async () => {
    const { cr, climbing } = await busyLena();
    // Not forced to the top: it joins the candidates, scored with the best turn holding "hobby" beside such a value.
    const rs = await cr.recall('Which hobby does Lena have?', { limit: 80, track: false });
    const found = rs.find((r) => r.id === climbing);
    expect(found?.parts.via?.how).toBe('sameFact');
    const past = await cr.recall('Which hobby did Lena have?', { limit: 80, track: false });
    expect(past.some((r) => r.id === climbing)).toBe(false);
  });

  it('a turn added this way says so, matches none of the words, and is scored with its anchor’s share', async () => {
    const { cr, climbing } = await busyLena();
    const rs = await cr.recall('Which hobby does Lena have?', { limit: 80, track: false });
    const found = rs.find((r) => r.id === climbing);
    const anchor = rs.find((r) => r.id === found?.parts.addedForValue?.anchor);
    expect(found?.parts.addedForValue?.values).toEqual(['climbing']);
    expect(found?.parts.bm25Relative).toBe(0);
    expect(found?.parts.fused).toBeCloseTo((anchor?.parts.fused ?? 0) * 0.85, 9);
  });

  it('a turn that only mentions a value ("Sam crushed me at chess") is not added above her other turns', async () => {
    const { cr, session, at } = await sessions();
    const [crushed] = await session(0, [
      ['Lena', 'Sam crushed me at chess again on the train, lol.'],
      ['Raj', 'My weekend hobby is pottery.'],
      ['Sam', 'My weekend hobby is chess.'],
      ['Ana', 'My weekend hobby is climbing.'],
    ]);
    // Her turns the name's search finds: short, alike, none holding a hobby.
    for (let n = 1; n <= 3; n += 1)
      await session(
        n,
        Array.from(
          { length: 50 },
          (_, i) => ['Lena', `Standup ${n}-${i}: weekend shift, all good here.`] as [string, string],
        ),
      );
    at(200);
    const rs = await cr.recall('Which weekend hobby does Lena have?', { limit: 20, track: false });
    const found = rs.find((r) => r.id === crushed);
    expect(found?.parts.addedForValue).toBeUndefined();
    expect(found?.parts.via).toBeUndefined();
    expect(rs[0]?.id).not.toBe(crushed);
    await cr.close();
  });
});

describe('a named speaker’s turn of the kind asked found by the name alone (issue 23)', () => {
  // Lifting the turns already among the candidates brought older values' turns into the top 10 of present questions
  // (section E, unmarked: dev 0 -> 3): only turns added for the kind are scored with the anchor.
  it('"Which hobby does Lena have?": her climbing turn found by the name alone is not lifted', async () => {
    const { cr, session, at } = await sessions();
    const [climbing] = await session(0, [
      ['Lena', 'Saturdays are for climbing, without exception.'],
      ['Raj', 'My weekend hobby is pottery.'],
      ['Sam', 'My weekend hobby is climbing.'],
    ]);
    const [small] = await session(1, [
      ['Lena', 'Morning everyone!'],
      ['Raj', 'Lovely weather today.'],
      // A long turn of hers found by the name alone: the name's share of its score, the lowest, is theirs all.
      ['Lena', 'I spent the whole afternoon sorting old photographs, letters and receipts into labelled boxes.'],
    ]);
    at(100);
    const rs = await cr.recall('Which hobby does Lena have?', { limit: 10, track: false });
    const ids = rs.map((r) => r.id);
    const found = rs.find((r) => r.id === climbing);
    expect(found?.parts.via).toBeUndefined();
    expect(found?.parts.addedForValue).toBeUndefined();
    expect(ids).toContain(small);
    await cr.close();
  });
});

describe('"when" a value came: the turn that replaced one of its speaker\'s is the change asked for (E23b)', () => {
  /** Ana moves from Lisbon to Denver; `before`, said between, may name Denver first. */
  async function moved(before: string) {
    const { cr, session, at } = await sessions();
    const [lisbon] = await session(0, [
      ['Ana', 'I live in Lisbon, near the river.'],
      ['Bo', 'The bakery on the corner opened again.'],
    ]);
    const [first] = await session(1, [
      ['Ana', before],
      ['Bo', 'I watched the match last night.'],
    ]);
    const [change] = await session(2, [
      ['Ana', 'Big news: I moved to Denver last week.'],
      ['Bo', 'I should visit my sister soon.'],
    ]);
    at(100);
    return { cr, lisbon: lisbon as string, first: first as string, change: change as string };
  }

  it('"high" for the change, found by half the question\'s words and no link of its life', async () => {
    const { cr, lisbon, change } = await moved('Flights are cheap this month.');
    const rs = await cr.recall('When did Ana get to Denver?', { limit: 4, track: false });
    expect(rs[0]?.id).toBe(change);
    expect(rs[0]?.life?.supersedes).toEqual([lisbon]);
    expect(rs[0]?.parts.termShare).toBeLessThan(0.75);
    expect(rs[0]?.parts.via).toBeUndefined();
    expect(rs[0]).toMatchObject({ label: 'high', parts: { seedLabel: 'high', evidence: CHANGE_EVIDENCE } });
    await cr.close();
  });

  it('a first mention of the value on top replaced nothing: "medium", and its parts say so', async () => {
    const { cr, first } = await moved('Flights to Denver are cheap this month.');
    const rs = await cr.recall('When did Ana get to Denver?', { limit: 4, track: false });
    expect(rs[0]?.id).toBe(first);
    expect(rs[0]?.label).toBe('medium');
    expect(rs[0]?.parts.withheld).toContain("it replaced none of its speaker's turns");
    await cr.close();
  });
});
