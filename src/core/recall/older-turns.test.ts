import { describe, expect, it } from 'vitest';
import {
  asksForSeveral,
  earlierValues,
  factLines,
  firstNamed,
  olderTurns,
  type TurnCandidate,
  turnFrames,
  valueKinds,
} from './older-turns.js';

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
      turn('t2', 'Ines', 40, 'Harbor Freight Lines was a good chapter and Copperleaf Media pays the bills today.'),
    ];
    const marked = olderTurns(cs, all(cs), 'Who pays Ines these days?');
    expect([...marked.keys()]).toEqual(['memory:t1']);
    const o = marked.get('memory:t1');
    expect(o?.newerId).toBe('t2');
    expect(o?.shared).toEqual(['freight', 'lines']);
    expect(o?.own).toEqual(['copperleaf', 'media']);
    expect(o?.why).toContain('t2');
    // "was a good chapter" is no change cue: named again, the earlier is the later one's, not shown replaced by it.
    expect(o?.again).toBe(true);
  });

  it('a later turn naming the earlier one’s value again says a change, or it is only the later word on it', () => {
    const first = turn('t1', 'Omar', 1, 'I drive for Bluebell Couriers out of the Leeds depot.');
    const still = turn('t2', 'Omar', 30, 'Still driving for Bluebell Couriers, though Tidewater Freight rang me once.');
    const q = 'Who does Omar drive for?';
    const kept = olderTurns([first, still], all([first, still]), q).get('memory:t1');
    expect(kept?.again).toBe(true);
    expect(kept?.why).toBe('said again later by Omar (t2: names bluebell, couriers again, no change)');
    // A change said (a cue, or the value left), or the name besides said in two of Omar's own turns: replaced.
    for (const later of [
      [turn('t3', 'Omar', 30, 'I quit Bluebell Couriers, Tidewater Freight hired me.')],
      [
        turn('t3', 'Omar', 30, 'Bluebell Couriers was fun, Tidewater Freight is my home.'),
        turn('t4', 'Omar', 40, 'I work night shifts with Tidewater Freight.'),
      ],
      [
        still,
        turn('t4', 'Omar', 40, 'I drive nights for Tidewater Freight.'),
        turn('t5', 'Omar', 50, 'Tidewater Freight is my employer these days.'),
      ],
    ]) {
      const cs = [first, ...later];
      const o = olderTurns(cs, all(cs), q).get('memory:t1');
      expect(o?.again, later.map((c) => c.text).join(' / ')).toBeUndefined();
      expect(o?.why).toContain('likely an older version');
    }
    // A name the question asks about is what both are about, not a value said again.
    const store = [
      turn('p1', 'Omar', 1, 'The rota app of Bluebell keeps its rows in Quarrydb.'),
      turn('p2', 'Omar', 30, 'Rebuilt the rota app of Bluebell on top of Saltbox.'),
    ];
    const about = olderTurns(store, all(store), 'What does the rota app of Bluebell keep its rows in?');
    expect(about.get('memory:p1')).toMatchObject({ newerId: 'p2', shared: ['bluebell'], own: ['saltbox'] });
    expect(about.get('memory:p1')?.again).toBeUndefined();
    expect(olderTurns(store, all(store), 'What does the rota app keep its rows in?').get('memory:p1')?.again).toBe(
      true,
    );
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

  it('a name opening a sentence counts when written inside one elsewhere: the subject joins the versions', () => {
    const cs = [
      turn('t1', 'Greta', 1, "Ledger's records sit in a Vault cluster."),
      turn('t2', 'Greta', 40, 'Cut over Ledger to Quarry last night; Vault is switched off.'),
    ];
    const marked = olderTurns(cs, all(cs), 'Which engine holds the records of Ledger now?');
    expect(marked.get('memory:t1')?.newerId).toBe('t2');
    expect(marked.get('memory:t1')?.shared).toEqual(['ledger', 'vault']);
    expect(marked.get('memory:t1')?.own).toEqual(['quarry']);
  });

  it('values of one kind: words filling the same frame in turns of any speaker, paired word by word', () => {
    const kinds = valueKinds([
      { text: 'A student asked me how to install Quill today.' },
      { text: 'A student asked me how to install Vellum today.' },
      { text: 'I swapped pottery for climbing on Saturdays.' },
      { text: 'I swapped cycling for chess on Saturdays.' },
      { text: 'Morning everyone, coffee time.' },
    ]);
    expect(kinds.get('quill')).toBe(kinds.get('vellum'));
    expect(kinds.get('pottery')).toBe(kinds.get('cycling'));
    expect(kinds.get('climbing')).toBe(kinds.get('chess'));
    expect(kinds.get('pottery')).not.toBe(kinds.get('quill'));
    expect(kinds.get('pottery')).not.toBe(kinds.get('chess'));
    // The frame's own words and a shared middle word are no value.
    expect(kinds.has('for')).toBe(false);
    expect(kinds.has('student')).toBe(false);
  });

  it('values pair word by word only: unequal runs join nothing; a speaker is no value; the frame is kept', () => {
    const frames = new Map<string, string>();
    const texts = [
      { text: 'We met at Bruno for lunch today.' },
      { text: 'We met at Copper Kettle for lunch today.' },
      { text: 'Thanks for the tip Pablo, see you soon.' },
      { text: 'Thanks for the tip Greta, see you soon.' },
      { text: 'A student asked me how to install Quill today.' },
      { text: 'A student asked me how to install Vellum today.' },
    ];
    const kinds = valueKinds(texts, Number.POSITIVE_INFINITY, { speakers: new Set(['pablo', 'greta']), frames });
    expect(kinds.has('bruno') || kinds.has('copper') || kinds.has('kettle')).toBe(false);
    expect(kinds.has('pablo') || kinds.has('greta')).toBe(false);
    expect(kinds.get('quill')).toBe(kinds.get('vellum'));
    expect(frames.get('quill\nvellum')).toBe('… asked me how to install _ today');
    // Without the speakers' names, two names in one frame are of a kind.
    expect(valueKinds(texts).get('pablo')).toBe(valueKinds(texts).get('greta'));
  });

  it('a name known from the question alone joins turns that open with it', () => {
    const cs = [
      turn('t1', 'Greta', 1, "Ledger's records sit in Vault."),
      turn('t2', 'Greta', 40, 'Ledger runs on Quarry since the weekend.'),
    ];
    const marked = olderTurns(cs, all(cs), 'Which engine holds the records of Ledger now?');
    expect(marked.get('memory:t1')?.shared).toEqual(['ledger']);
    expect(olderTurns(cs, all(cs), 'Which engine holds the records now?').size).toBe(0);
  });

  it('a later turn naming another value of the kind the earlier names marks it, when the value is said twice', () => {
    const context = [
      { text: 'Nothing beats Quill for me when I program.' },
      { text: 'Nothing beats Vellum for me when I program.' },
      { text: 'Nothing beats Inkwell for me when I program.' },
    ];
    const cs = [
      turn('t1', 'Nadia', 1, 'My dotfiles are all about Quill now.'),
      turn('t2', 'Nadia', 40, 'Took the plunge and adopted Vellum as my editor.'),
      turn('t3', 'Nadia', 60, 'I am loyal to Vellum, it fits how I think.'),
    ];
    const ctx = [...context, ...cs];
    const marked = olderTurns(cs, all(cs), 'What does Nadia program in now?', undefined, ctx);
    expect(marked.get('memory:t1')?.newerId).toBe('t3');
    expect(marked.get('memory:t1')?.own).toEqual(['vellum']);
    expect(marked.get('memory:t1')?.why).toContain(
      'a value of the kind of quill (said in the same words: "nothing beats _ for me when i program")',
    );
    // Without the kinds (no context) nothing joins them; a value said once is only a mention.
    expect(olderTurns(cs, all(cs), 'What does Nadia program in now?').size).toBe(0);
    const once = [cs[0], turn('t4', 'Nadia', 40, 'Someone gave a talk about Inkwell plugins.')] as TurnCandidate[];
    expect(olderTurns(once, all(once), 'What does Nadia program in now?', undefined, [...context, ...once]).size).toBe(
      0,
    );
    // Only between turns of the top; and a question naming a value of the kind asks about that one.
    expect(olderTurns(cs, new Set(['memory:t1']), 'What does Nadia program in now?', undefined, ctx).size).toBe(0);
    // The later turn out of the top is not taken, though later than the one in it.
    const inTop = olderTurns(
      cs,
      new Set(['memory:t1', 'memory:t2']),
      'What does Nadia program in now?',
      undefined,
      ctx,
    );
    expect(inTop.get('memory:t1')?.newerId).toBe('t2');
    expect(olderTurns(cs, all(cs), 'Did Nadia leave Quill for good?', undefined, ctx).size).toBe(0);
  });

  it('a value of the kind said once counts when said beside the value of the kind it left', () => {
    const context = [
      { text: 'When the laptop is closed, it is pottery time.' },
      { text: 'When the laptop is closed, it is chess time.' },
      { text: 'When the laptop is closed, it is rowing time.' },
    ];
    const cs = [
      turn('t1', 'Kwame', 1, 'Most evenings are all pottery and chess for me.'),
      turn('t2', 'Kwame', 40, 'I stopped chess after the injury, rowing now.'),
    ];
    const marked = olderTurns(cs, all(cs), 'What does Kwame do in the evenings now?', undefined, [...context, ...cs]);
    expect(marked.get('memory:t1')?.newerId).toBe('t2');
    expect(marked.get('memory:t1')?.own).toEqual(['rowing']);
  });

  it('a question naming the later turn’s own value knows it: the pair is left', () => {
    const cs = [
      turn('t1', 'Ines', 1, 'Most days you will find me at Harbor Freight Lines.'),
      turn('t2', 'Ines', 40, 'Harbor Freight Lines was a good chapter; Copperleaf Media pays the bills.'),
    ];
    expect(olderTurns(cs, all(cs), 'What came before Copperleaf Media for Ines?').size).toBe(0);
  });

  it('only turns in the top window are marked; a later version may come from further down', () => {
    const cs = [
      turn('t1', 'Ines', 1, 'Most days you will find me at Harbor Freight Lines.'),
      turn('t2', 'Ines', 40, 'Harbor Freight Lines was a good chapter; Copperleaf Media pays the bills.'),
    ];
    expect(olderTurns(cs, new Set(['memory:t2']), 'Who pays Ines?').size).toBe(0);
    expect(olderTurns(cs, new Set(['memory:t1']), 'Who pays Ines?').size).toBe(1);
  });

  it('a question naming a later value: the earlier turns naming what the turn that brought it names besides', () => {
    const cs = [
      turn('q1', 'Ines', 1, 'Our rooftop in Quito gets the morning sun.'),
      turn('q2', 'Ines', 10, 'The traffic in Quito is slow.'),
      turn('x', 'Tariq', 12, 'I loved Quito in the spring.'),
      turn('p1', 'Ines', 20, 'Said goodbye to Quito, the new address is in Perth.'),
      turn('p2', 'Ines', 30, 'Perth and Quito are both hilly.'),
      turn('a', 'Ines', 5, 'Tariq, did you like Quito?'),
    ];
    const got = earlierValues(cs, 'Which town was Ines in before Perth?', ['ines']);
    expect([...got.keys()].sort()).toEqual(['memory:q1', 'memory:q2']);
    expect(got.get('memory:q1')).toMatchObject({ laterId: 'p1', left: ['quito'] });
    // Every name the question asks must be in the turn that brought it (a project and its store).
    const store = [
      turn('s1', 'Ines', 1, 'All of Ledger sits in Firestore.'),
      turn('s2', 'Ines', 20, 'Cut over Ledger to Neo4j, Firestore is switched off.'),
    ];
    expect([...earlierValues(store, 'What did Ledger use before Neo4j?', []).keys()]).toEqual(['memory:s1']);
  });

  it('no value named, or a turn that brought it naming nothing besides: none', () => {
    const cs = [
      turn('q1', 'Ines', 1, 'Our rooftop in Quito gets the morning sun.'),
      turn('p1', 'Ines', 20, 'First night in Perth, it feels strange.'),
    ];
    expect(earlierValues(cs, 'Where was Ines before?', ['ines']).size).toBe(0);
    expect(earlierValues(cs, 'Which town was Ines in before Perth?', ['ines']).size).toBe(0);
  });

  it('lines of facts: a speaker’s own turns joined through the names they share, each speaker apart', () => {
    const cs = [
      turn('q', 'Ines', 1, 'Our rooftop in Quito gets the morning sun.'),
      turn('c', 'Ines', 20, 'Said goodbye to Quito, the new address is in Perth.'),
      turn('p', 'Ines', 30, 'The rooftops of Perth are lovely at dusk.'),
      turn('g', 'Ines', 5, 'My team at Granite Mutual ships on Thursdays.'),
      turn('t', 'Tariq', 6, 'I loved Perth in the spring.'),
      turn('a', 'Ines', 7, 'Tariq, did you like Perth?'),
      turn('n', 'Ines', 8, 'morning everyone!'),
    ];
    const lines = factLines(cs);
    expect(lines.get('memory:q')).toBe(lines.get('memory:p'));
    expect(lines.get('memory:c')).toBe(lines.get('memory:p'));
    expect(lines.get('memory:g')).not.toBe(lines.get('memory:p'));
    expect(lines.get('memory:t')).not.toBe(lines.get('memory:p'));
    expect(lines.has('memory:a')).toBe(false);
    expect(lines.has('memory:n')).toBe(false);
    // A frame: the same words around a run that differs (a value in lower case), the same speaker's.
    const frames = factLines([
      turn('s', 'Ines', 1, 'My free time goes into surfing.'),
      turn('k', 'Ines', 9, 'My free time goes into knitting.'),
      turn('o', 'Tariq', 9, 'My free time goes into baking.'),
      turn('m', 'Ines', 9, 'Morning all.'),
      turn('e', 'Ines', 9, 'Morning everyone.'),
    ]);
    expect(frames.get('memory:s')).toBe(frames.get('memory:k'));
    expect(frames.has('memory:o')).toBe(false);
    expect(frames.has('memory:m')).toBe(false);
  });

  it('lines of facts: a name said beside many other names of the speaker’s (a weekday) joins nothing', () => {
    const said = [
      'I ordered lunch from Rosa’s again on Monday.',
      'The ledger runs on Postgres, set up on Monday.',
      'My brother lives in Denver and visits on Monday.',
      'I moved our standup to Slack huddles on Monday.',
      'Our CI runs on GitHub Actions since Monday.',
      'I switched the ledger from Postgres to Neo4j.',
      'I left Kestrel Insurance and joined Pinecrest Health.',
      'Pinecrest Health pays on Fridays.',
    ];
    const cs = said.map((text, i) => turn(`m${i}`, 'Maya', i * 3, text));
    const lines = factLines(cs);
    const line = (i: number) => lines.get(`memory:m${i}`);
    for (const [a, b] of [
      [0, 1],
      [1, 4],
      [3, 4],
      [2, 4],
    ] as const)
      expect(line(a) === undefined || line(a) !== line(b)).toBe(true);
    // Postgres is said beside Monday and Neo4j alone: a value, it joins; a name of two words counts as one.
    expect(line(1)).toBeDefined();
    expect(line(1)).toBe(line(5));
    expect(line(6)).toBe(line(7));
    // Which names join is learned from the context given: the lines of the current turns read with all of them.
    const current = [cs[3], cs[4]] as TurnCandidate[];
    expect(factLines(current).get('memory:m3')).toBe(factLines(current).get('memory:m4'));
    expect(factLines(current, cs).get('memory:m3')).not.toBe(factLines(current, cs).get('memory:m4'));
  });

  it('frames: one per run of at most 3 words at each place, keys of a bounded length, none in a long turn', () => {
    const long = (n: number, change: (i: number) => string | undefined = () => undefined) =>
      Array.from({ length: n }, (_, i) => change(i) ?? `w${(i * 13) % 97}`);
    const short = turnFrames(['my', 'free', 'time', 'goes', 'into', 'surfing']);
    // Runs of 1, 2 and 3 words at each place, with at least 3 words around them: 6 + 5 + 4 minus none too short.
    expect(short.map((f) => [f.start, f.end])).toEqual(
      [0, 1, 2, 3, 4, 5].flatMap((i) => [1, 2, 3].filter((r) => i + r <= 6).map((r) => [i, i + r])),
    );
    expect(new Set(short.map((f) => f.key)).size).toBe(short.length);
    const frames = turnFrames(long(120));
    expect(frames).toHaveLength(120 + 119 + 118);
    expect(Math.max(...frames.map((f) => f.key.length))).toBeLessThan(50);
    expect(turnFrames(long(121))).toEqual([]);
    // The same words before and after runs of other lengths: the same key (one frame), wherever it is read.
    const ids = new Map<string, number>();
    const at = (ws: string[], start: number, end: number) =>
      turnFrames(ws, ids).find((f) => f.start === start && f.end === end)?.key;
    const surfing = at(['my', 'time', 'goes', 'into', 'surfing', 'daily'], 4, 5);
    expect(surfing).toBeDefined();
    expect(at(['my', 'time', 'goes', 'into', 'deep', 'sea', 'diving', 'daily'], 4, 7)).toBe(surfing);
    expect(at(['my', 'time', 'goes', 'onto', 'deep', 'sea', 'diving', 'daily'], 4, 7)).not.toBe(surfing);
    // Two 120-word turns: one word apart share a frame (one line), two words far apart do not; 800-word turns one
    // word apart share none (a paste), nor are their words values of a kind.
    const lines = factLines([
      turn('a', 'Ines', 1, long(120).join(' ')),
      turn('b', 'Ines', 2, long(120, (i) => (i === 60 ? 'zebra' : undefined)).join(' ')),
      turn('c', 'Ines', 3, long(120, (i) => (i === 10 || i === 110 ? 'yak' : undefined)).join(' ')),
    ]);
    expect(lines.get('memory:a')).toBeDefined();
    expect(lines.get('memory:a')).toBe(lines.get('memory:b'));
    expect(lines.has('memory:c')).toBe(false);
    const pasted = [
      turn('a', 'Ines', 1, long(800).join(' ')),
      turn('b', 'Ines', 2, long(800, (i) => (i === 400 ? 'zebra' : undefined)).join(' ')),
    ];
    expect(factLines(pasted).size).toBe(0);
    expect(valueKinds(pasted).size).toBe(0);
  });

  it('a question asking when a value came: the first own turn naming every name it asks', () => {
    const cs = [
      turn('r', 'Ines', 40, 'The rooftops of Perth are lovely at dusk.'),
      turn('c', 'Ines', 20, 'Said goodbye to Quito, the new address is in Perth.'),
      turn('t', 'Tariq', 10, 'I loved Perth in the spring.'),
      turn('a', 'Ines', 5, 'Tariq, did you like Perth?'),
    ];
    const ines = cs.filter((c) => c.speaker === 'Ines');
    expect(firstNamed(ines, 'When did Ines get to Perth?', ['ines'])?.id).toBe('c');
    // Of every speaker's turns: the first of all (the speaker's own name is no value asked).
    expect(firstNamed(cs, 'When did Ines get to Perth?', ['ines'])?.id).toBe('t');
    expect(firstNamed(cs, 'When did Ines get to Lima?', ['ines'])).toBeUndefined();
    expect(firstNamed(cs, 'When did Ines move?', ['ines'])).toBeUndefined();
  });

  it('a later turn of the same line of facts naming a value held marks the earlier, no name shared', () => {
    const cs = [
      turn('t1', 'Ines', 1, 'My team at Harbor Freight ships every week.'),
      turn('t2', 'Ines', 20, 'My team at Copperleaf Media ships every week.'),
    ];
    expect(olderTurns(cs, all(cs), 'Who pays Ines these days?').size).toBe(0);
    // Said once, with no change: the same line says nothing of which holds.
    expect(olderTurns(cs, all(cs), 'Who pays Ines these days?', factLines(cs)).size).toBe(0);
    const held = [...cs, turn('t3', 'Ines', 25, 'I like my desk at Copperleaf Media.')];
    const marked = olderTurns(held, all(held), 'Who pays Ines these days?', factLines(held));
    expect(marked.get('memory:t1')).toMatchObject({ shared: [], own: ['copperleaf', 'media'] });
    expect(marked.get('memory:t1')?.why).toContain('holds copperleaf, media (said in two own turns after)');
    expect(marked.has('memory:t3')).toBe(false);
    // A name placed after a preposition with no holding verb before it ("with the Copperleaf Media folks") counts
    // here, where two own turns after the older one must say it (namedIn), though it holds no value to order by.
    const placed = [...cs, turn('t3', 'Ines', 25, 'Lunch with the Copperleaf Media folks again, I like it there.')];
    expect(olderTurns(placed, all(placed), 'Who pays Ines these days?', factLines(placed)).has('memory:t1')).toBe(true);
  });

  it('a shared name marks older only with a change tied to it: no comparison, quote, denial, plan, condition', () => {
    const cases: [string, string, string][] = [
      ['I drive a Toyota to work every day.', 'My cousin says Toyota is more reliable than Honda, I agree.', 'car'],
      ['I drive a Toyota to work every day.', 'Toyota is more reliable than Honda, I find.', 'car'],
      ['I work at Kestrel Insurance downtown.', 'Ben told me Kestrel Insurance is buying Pinecrest Health.', 'job'],
      ['I write Python at work most days.', 'Honestly I never liked Python much, Rust looks nicer.', 'language'],
      ['I use Postgres for the ledger at work.', 'Maybe I will try Redis next to Postgres some day.', 'database'],
      ['I live in Lisbon with my cat.', 'If I ever left Lisbon I would pick Porto.', 'home'],
    ];
    for (const [a, b, what] of cases) {
      const cs = [turn('t1', 'Ana', 1, a), turn('t2', 'Ana', 30, b)];
      const o = olderTurns(cs, all(cs), `What is Ana's ${what}?`, factLines(cs), cs).get('memory:t1');
      expect(o === undefined || o.again === true, b).toBe(true);
    }
    // Said as a change tied to the old value, the same names mark it, and the why names the cue.
    const cs = [
      turn('t1', 'Ana', 1, 'I live in Lisbon with my cat.'),
      turn('t2', 'Ana', 30, 'I left Lisbon for Porto.'),
    ];
    const o = olderTurns(cs, all(cs), 'Where does Ana live?', factLines(cs), cs).get('memory:t1');
    expect(o?.again).toBeUndefined();
    expect(o?.why).toContain('says "left lisbon"');
  });

  it('a change is said beside the old value: a cue elsewhere in the turn, or "still" beside it, marks nothing', () => {
    const base = [
      turn('a', 'Noor', 1, 'I go rowing with my cousin at dawn on weekends.'),
      turn('b', 'Pablo', 2, 'We tried rowing on the lake last weekend.'),
      turn('c', 'Pablo', 3, 'We tried bowling on the lake last weekend.'),
    ];
    const q = 'What does Noor do at dawn on weekends?';
    for (const text of [
      'Still rowing every week now, although I did some bowling once.',
      'Still rowing every week, and I started bowling with the kids too.',
    ]) {
      const cs = [...base, turn('d', 'Noor', 40, text)];
      expect(olderTurns(cs, all(cs), q, undefined, cs).has('memory:a'), text).toBe(false);
    }
    const cs = [...base, turn('d', 'Noor', 40, 'I quit rowing after the winter, bowling now.')];
    const o = olderTurns(cs, all(cs), q, undefined, cs).get('memory:a');
    expect(o).toMatchObject({ newerId: 'd', own: ['bowling'] });
    expect(o?.why).toContain('says "quit rowing"');
    expect(o?.why).toContain('"we tried _ on the lake last weekend"');
  });

  it('a value is held when the speaker states it as theirs twice after the older turn, nothing else', () => {
    const base = [
      turn('a', 'Ana', 10, 'On weekends I mostly go climbing with friends.'),
      turn('b', 'Ben', 11, 'On weekends I mostly go kayaking with friends.'),
    ];
    const q = 'What does Ana do on weekends?';
    const marks = (...later: [number, string][]) => {
      const cs = [...base, ...later.map(([day, text], i) => turn(`l${i}`, 'Ana', day, text))];
      return olderTurns(cs, all(cs), q, undefined, cs).get('memory:a');
    };
    const held = marks([20, 'I took up kayaking last spring.'], [30, 'I loved kayaking in Norway this summer.']);
    expect(held?.own).toEqual(['kayaking']);
    expect(held?.why).toContain('held: said in two own turns after');
    // Not held: once before the older turn; another's thing (each way of saying one); a plan; a denial.
    const second = 'I loved kayaking in Norway this summer.';
    for (const first of [
      'My brother took up kayaking last spring.',
      'My brother loves kayaking in spring.',
      'My brother’s kayaking club opened in spring.',
      'My brother tried kayaking in spring.',
      'I think she took up kayaking in spring.',
      'I know his kayaking club well.',
      'I hear their kayaking club is fun.',
      'Marco took up kayaking last spring.',
      'Maybe I will try kayaking some day.',
      'I never did kayaking, too cold.',
      'I never really got into kayaking, climbing suits me.',
    ])
      expect(marks([20, first], [30, second]), first).toBeUndefined();
    expect(marks([5, 'As a kid I did kayaking at camp.'], [30, second])).toBeUndefined();
  });

  it('reads a question asking for several answers', () => {
    expect(asksForSeveral('What did Ines say about Quito?')).toBe(true);
    expect(asksForSeveral('List every city Ines lived in')).toBe(true);
    expect(asksForSeveral('Which places has Ines ever lived in?')).toBe(true);
    expect(asksForSeveral('Where does Ines live?')).toBe(false);
    expect(asksForSeveral('Who pays Ines these days?')).toBe(false);
  });
});

describe('older turns: the speaker changes the value, a mention holds nothing (issue 23, third review)', () => {
  const job = turn('t1', 'Lena', 1, 'I work at Acme Robotics in Munich.');
  const q = 'Where does Lena work?';
  it('a later turn mentioning the value beside a change of something else leaves the earlier one current', () => {
    for (const later of [
      [turn('t2', 'Lena', 30, 'I joined the Acme Robotics climbing club with Priya last week.')],
      [turn('t2', 'Lena', 30, 'I left my Acme Robotics badge at home, Priya let me in.')],
      [turn('t2', 'Lena', 30, 'Acme Robotics now has an office in Berlin as well.')],
      [turn('t2', 'Lena', 30, 'Acme Robotics started a lab in Berlin, I am excited.')],
      [turn('t2', 'Lena', 30, 'My Acme Robotics manager moved to Globex Systems.')],
      [turn('t2', 'Lena', 30, 'Our Acme Robotics team lead moved to Globex Systems, sad.')],
      [turn('t2', 'Lena', 30, 'Acme Robotics moved us into the Schwabing building.')],
      [
        turn('t2', 'Lena', 30, 'Still at Acme Robotics, though Globex Systems rang me again.'),
        turn('t3', 'Lena', 40, 'I turned down Globex Systems for good.'),
      ],
    ]) {
      const cs = [job, ...later];
      const o = olderTurns(cs, all(cs), q, undefined, cs).get('memory:t1');
      expect(o === undefined || o.again === true, later.map((c) => c.text).join(' / ')).toBe(true);
    }
  });

  it('a change in its own clause marks the earlier turn, whatever a later clause hedges', () => {
    const cs = [
      job,
      turn('t2', 'Lena', 30, 'I left Acme Robotics for Globex Systems, maybe the best call I ever made.'),
    ];
    const o = olderTurns(cs, all(cs), q, undefined, cs).get('memory:t1');
    expect(o?.again).toBeUndefined();
    expect(o?.why).toContain('says "left acme"');
  });
});

describe('older turns: a value the speaker says they left is not held (issue 23)', () => {
  it('turns quitting a value of a kind (a word ending in s) do not hold it: the value before stays current', () => {
    const cs = [
      turn('t1', 'Ana', 1, 'My weekend hobby is tennis.'),
      turn('t2', 'Ana', 30, 'My weekend hobby is climbing.'),
      turn('t3', 'Ana', 40, 'I quit tennis last spring, my knees hurt.'),
      turn('t4', 'Ana', 50, 'I quit tennis, honestly the best call.'),
    ];
    const marked = olderTurns(cs, all(cs), "What is Ana's weekend hobby?", undefined, cs);
    expect(marked.has('memory:t2')).toBe(false);
    // Said as held twice after, the same value of the kind does mark it.
    const held = [
      ...cs.slice(0, 2),
      turn('t3', 'Ana', 40, 'I play tennis every Sunday.'),
      turn('t4', 'Ana', 50, 'I play tennis with Priya.'),
    ];
    expect(olderTurns(held, all(held), "What is Ana's weekend hobby?", undefined, held).get('memory:t2')?.newerId).toBe(
      't4',
    );
  });
});
