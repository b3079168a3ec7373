import { describe, expect, it } from 'vitest';
import { formatMemoryContext } from './memory-context.js';
import {
  addressee,
  agentContextLines,
  changeBeside,
  changeCue,
  contextTitle,
  decideLife,
  identifiers,
  nearIdentical,
  labelForStatus,
  lifeStatus,
  type LifeSubject,
  knownNames,
  leftIn,
  leftValues,
  namesIn,
  slotQuestionWords,
  validAt,
} from './memory-life.js';
import { heldIn } from './older-turns.js';

const note = (id: string, title: string, text: string, at: number, more: Partial<LifeSubject> = {}): LifeSubject => ({
  id,
  title,
  text,
  tags: [],
  at,
  ...more,
});

describe('decideLife', () => {
  const postgres = note('pg', 'Main store', 'We use Postgres for the main store', 1);

  it('a later note about the same subject with a change cue supersedes, saying the cue and the subject', () => {
    const mysql = note('my', 'Database', 'We moved the main store to MySQL', 2);
    const d = decideLife(mysql, postgres);
    expect(d?.kind).toBe('supersedes');
    expect(d?.why).toContain('"moved');
    expect(d?.why).toContain('main, store');
  });

  it.each([
    ['switched', 'We switched the main store to MySQL'],
    ['no longer', 'The main store no longer runs on Postgres'],
    ['instead', 'The main store runs MySQL instead'],
    ['replaced', 'MySQL replaced it as the main store'],
    ['now', 'The main store is now MySQL'],
  ])('the cue "%s" replaces', (cue, text) => {
    expect(decideLife(note('n', 'x', text, 2), postgres)).toMatchObject({ kind: 'supersedes' });
    expect(changeCue(text)).toBe(cue);
  });

  it('a replacement naming what it replaces is about the same subject: "relocated from Lisbon"', () => {
    const lisbon = note('t1', 'Ana', 'I live in Lisbon these days.', 1, { speaker: 'Ana' });
    const denver = note('t2', 'Ana', 'I finally relocated from Lisbon to Denver.', 2, { speaker: 'Ana' });
    const d = decideLife(denver, lisbon);
    expect(d).toMatchObject({ kind: 'supersedes', why: expect.stringContaining('(lisbon)') });
    // A name at the start of a sentence is only a capital; another speaker's turn is another subject.
    expect([...namesIn('Lisbon is far. Porto too, said I to Ana')]).toEqual(['ana']);
    // After a semicolon or colon: a clause's start, no name.
    expect([...namesIn('Quito is gone; Perth: Lima too.')]).toEqual([]);
    expect(decideLife({ ...denver, speaker: 'Ben' }, lisbon)).toBeUndefined();
    expect(
      decideLife(note('t3', 'Ana', 'Lisbon traffic moved slowly.', 2, { speaker: 'Ana' }), lisbon),
    ).toBeUndefined();
  });

  it("a sentence's first word is a name when written alone with a capital inside a sentence elsewhere", () => {
    const known = knownNames([
      'Where does the Ledger data live?',
      'We left Quito for good.',
      'An offer from Helix Labs.',
    ]);
    expect([...known].sort()).toEqual(['ledger', 'quito']);
    expect([...namesIn("Ledger's records sit in a Vault cluster.", known)].sort()).toEqual(['ledger', 'vault']);
    expect([...namesIn('Perth is fine; Quito is gone.', known)]).toEqual(['quito']);
    // A first word starting a longer name is not the known word alone; unknown first words stay capitals.
    expect([...namesIn('Ledger Labs pays well.', known)]).toEqual(['labs']);
    expect([...namesIn('Helix is my editor.', known)]).toEqual([]);
    expect([...namesIn("Ledger's records sit in a Vault cluster.")]).toEqual(['vault']);
  });

  it('a word after an emoji, an ellipsis, a closing quote or bracket opens a sentence; a stop word is no name', () => {
    const known = knownNames([
      'What a match 🎉 Frankly the rain ruined it.',
      'Long day… Frankly I slept early.',
      'She said "done." Frankly nobody listened.',
      'We went (twice) Frankly, and paid for it.',
      'Lunch was at Juniper, the one near the bridge.',
      'Tickets for The show sold out.',
    ]);
    expect([...known].sort()).toEqual(['juniper']);
    expect([...namesIn('What a match 🎉 Frankly the rain ruined it.')]).toEqual([]);
    expect([...namesIn('Frankly the soup at Juniper was cold.', known)]).toEqual(['juniper']);
  });

  it('reads a sentence end back over any run of spaces and an opening bracket', () => {
    const text = `Great trip!${' '.repeat(40)}Frankly the bus was late.   (Frankly) we met Juniper and Mara   Vale.`;
    const known = knownNames([text]);
    expect([...known].sort()).toEqual(['juniper']);
    expect([...namesIn(text, known)].sort()).toEqual(['juniper', 'mara', 'vale']);
  });

  it('a shared tag needs two content words in common, not one', () => {
    const cache = note('a', 'Cache', 'Sessions live in Redis on the cache host', 1, { tags: ['ops'] });
    const oneWord = note('b', 'Deploys', 'Deploys now run on the build host', 2, { tags: ['ops'] });
    const twoWords = note('c', 'Sessions', 'Sessions now go to the memcached cache', 2, { tags: ['ops'] });
    expect(decideLife(oneWord, cache)).toBeUndefined();
    expect(decideLife(twoWords, cache)).toMatchObject({ kind: 'supersedes', why: expect.stringContaining('tag') });
  });

  it('the same words again is a duplicate, whatever the case and punctuation', () => {
    expect(decideLife(note('b', 'Other', 'we use postgres for the main store.', 2), postgres)?.kind).toBe('duplicate');
  });

  it('texts alike but for an identifier each names (a ticket, a version, a date, a hash) are two memories', () => {
    const hotfix = (id: string, ticket: string, at: number) =>
      note(id, `Hotfix ${ticket}`, `The checkout rounding hotfix is deployed to production, tracked in ${ticket}.`, at);
    expect(decideLife(hotfix('b', 'PROJ-1280', 2), hotfix('a', 'PROJ-1028', 1))?.kind).not.toBe('duplicate');
    const pairs: [string, string][] = [
      ['v2.4.1', 'v2.4.2'],
      ['2026-03-01', '2026-03-08'],
      ['9fceb02d0ae598e95dc970b74767f19372d61af8', '3b18e512dba79e4c8300dd08aeb37f8e728b8dad'],
      ['build 4411', 'build 4412'],
    ];
    for (const [x, y] of pairs) {
      const text = (v: string) => `The release smoke checks for the storefront all passed for ${v} this morning`;
      expect(decideLife(note('d', 'Smoke', text(y), 2), note('c', 'Smoke', text(x), 1))?.kind).not.toBe('duplicate');
    }
    // The same identifier, or rewording around it, still merges; so does a note that names one the other lacks.
    const reworded = note(
      'e',
      'Hotfix',
      'the checkout rounding hotfix is deployed to production tracked in PROJ-1028',
      3,
    );
    expect(decideLife(reworded, hotfix('a', 'PROJ-1028', 1))?.kind).toBe('duplicate');
    const long =
      'After the March outage our team agreed that every single deploy of the storefront service waits until ' +
      'its smoke checks and the payment sandbox probes pass first';
    const withBuild = note('g', 'Deploys', `${long} (4411)`, 2);
    expect(decideLife(withBuild, note('f', 'Deploys', long, 1))?.kind).toBe('duplicate');
    expect(decideLife(note('h', 'Deploys', `${long}, always`, 3), withBuild)?.kind).toBe('duplicate');
    // A rewording of one identifier is the same one (compared by its digit runs).
    const rewordings: [string, string][] = [
      ['v2.4.1', '2.4.1'],
      ['2026-11-28', '28/11/2026'],
      ['node 20', 'node 20.x'],
      ['30s', '30 s'],
      ['9:30am', '09:30'],
    ];
    const about = (v: string) => ({
      id: v,
      title: 'Gateway',
      tags: [],
      at: 1,
      text:
        `The gateway change for ${v} was rolled out to production and staging environments ` +
        'for every payment client',
    });
    for (const [x, y] of rewordings) expect(nearIdentical(about(x), about(y))).toBe(true);
    expect(nearIdentical(about('PROJ-1028'), about('PROJ-1280'))).toBe(false);
    expect(nearIdentical(about('v2.4.1'), about('v2.4.2'))).toBe(false);
    expect(identifiers('Tracked in PROJ-1028. Version v2.4.1, on 2026-03-01: build 4411.')).toEqual(
      new Set(['proj-1028', 'v2.4.1', '2026-03-01', '4411']),
    );
  });

  it('the same title saying another thing without a cue is an undecided conflict', () => {
    const d = decideLife(note('b', 'Main store', 'We use MySQL for the main store', 2), postgres);
    expect(d?.kind).toBe('conflict');
    expect(d?.why).toContain('no change cue');
    // Saying the same thing otherwise, or adding to it, is no disagreement.
    expect(decideLife(note('c', 'Main store', 'Postgres is our main store', 2), postgres)).toBeUndefined();
    expect(decideLife(note('d', 'Main store', 'The main store is Postgres, version 16', 2), postgres)).toBeUndefined();
    // A value of one or two characters is a value too (a newcomer: "24 hours" and "12 hours" were both current).
    const ttl = note('e', 'Cache TTL', 'The session cache TTL is 24 hours in production.', 1);
    expect(decideLife(note('f', 'Cache TTL', 'The session cache TTL is 12 hours in production.', 2), ttl)?.kind).toBe(
      'conflict',
    );
  });

  it('different subjects, or a cue about another subject, decide nothing', () => {
    expect(decideLife(note('b', 'Lint', 'We now lint with biome', 2), postgres)).toBeUndefined();
    expect(decideLife(note('b', 'Cache', 'Redis holds the sessions', 2), postgres)).toBeUndefined();
  });

  it("turns: only the same speaker's, by words and a cue; the same words again (4 or more) merge", () => {
    const chicago = note('t1', 'Caroline', 'I live in Chicago near the lake', 1, { speaker: 'Caroline' });
    const boston = note('t2', 'Caroline', 'I moved to Boston, I live near the harbour', 2, { speaker: 'Caroline' });
    expect(decideLife(boston, chicago)?.kind).toBe('supersedes');
    expect(decideLife({ ...boston, speaker: 'Melanie' }, chicago)).toBeUndefined();
    expect(decideLife({ ...chicago, id: 't3', at: 3 }, chicago)?.kind).toBe('duplicate');
    expect(decideLife({ ...chicago, id: 't3', at: 3, speaker: 'Melanie' }, chicago)).toBeUndefined();
    const yes = note('y', 'Caroline', 'Yes, I agree!', 1, { speaker: 'Caroline' });
    expect(decideLife({ ...yes, id: 'y2', at: 2 }, yes)).toBeUndefined();
  });
});

describe('decideLife on turns: the same speaker, the same slot or the value left (issue 23)', () => {
  const turn = (id: string, text: string, at: number, speaker = 'Ana'): LifeSubject => ({
    id,
    title: speaker,
    text,
    tags: [],
    speaker,
    at,
  });
  const lisbon = turn('t1', 'I live in Lisbon these days.', 1);

  it('a move that names no old value replaces where the speaker lived: the same slot, with why', () => {
    const d = decideLife(turn('t2', 'Big news: I moved to Denver last week, the boxes are everywhere.', 2), lisbon);
    expect(d).toMatchObject({ kind: 'supersedes', why: expect.stringContaining('the same slot (home)') });
    const job = turn('j1', 'My job is at Northwind, mostly backend work.', 1);
    expect(decideLife(turn('j2', 'I started a new job at Helix Labs on Monday.', 2), job)?.kind).toBe('supersedes');
  });

  it('a change toward the value the older turn already holds is the same fact again, not a replacement', () => {
    const globex = turn('g1', 'Big news: I left Acme and now I work at Globex', 1, 'Lena');
    const started = turn('g2', 'I started at Globex on June 1st.', 2, 'Lena');
    expect(decideLife(started, globex, undefined, heldIn)).toBeUndefined();
    // Without reading what each holds, the cue beside Globex replaced it (as before).
    expect(decideLife(started, globex)?.kind).toBe('supersedes');
    // The older holding another value (Initech): what changed, replaced.
    const initech = turn('g0', 'I work at Initech, and Globex is our biggest client', 0, 'Lena');
    expect(decideLife(started, initech, undefined, heldIn)?.kind).toBe('supersedes');
    // Leaving the value held is a change of it.
    const left = turn('g3', 'I left Globex last week, I start at Umbrella soon', 3, 'Lena');
    expect(decideLife(left, globex, undefined, heldIn)?.kind).toBe('supersedes');
  });

  it('a change that names the value it left replaces the turns saying it, in lower case too', () => {
    const tennis = turn('h1', 'Saturdays are for tennis, without exception.', 1);
    const d = decideLife(turn('h2', 'I quit tennis; now my weekends are all climbing.', 2), tennis);
    expect(d).toMatchObject({ kind: 'supersedes', why: expect.stringContaining('the value it left (tennis)') });
    const work = turn('w1', 'I work at Northwind on the data team.', 1);
    expect(
      decideLife(turn('w2', 'Last day at Northwind was Friday; I begin at Helix next week.', 2), work),
    ).toMatchObject({ kind: 'supersedes', why: expect.stringContaining('"last day at"') });
  });

  it('an older turn opening with "Yes," or "No," states a fact (a stop word is no one addressed)', () => {
    const chess = turn('c1', 'Yes, chess club on Thursdays. My bike is a red Peugeot.', 1);
    const d = decideLife(turn('c2', 'I gave up chess, I do archery now', 2), chess);
    expect(d).toMatchObject({ kind: 'supersedes', why: expect.stringContaining('the value it left (chess)') });
    const no = turn('c3', 'No, chess is my thing, every Thursday.', 1);
    expect(decideLife(turn('c4', 'I gave up chess, I do archery now', 2), no)?.kind).toBe('supersedes');
    expect(addressee('Yes, chess club on Thursdays.')).toBeUndefined();
    expect(addressee('Tomas, chess club on Thursdays?', new Set(['tomas']))).toBe('tomas');
    // Addressed to someone by name (a speaker of the dialogue), a turn still states no fact of the speaker's own.
    const toTomas = turn('c5', 'Tomas, chess club on Thursdays, right.', 1);
    expect(decideLife(turn('c6', 'I gave up chess, I do archery now', 2), toTomas, new Set(['tomas']))).toBeUndefined();
  });

  it("unrelated turns of one speaker replace nothing, nor do questions, turns to someone, another's turn", () => {
    for (const text of [
      'It rained all day here, I barely left the house.',
      'After years of Vim I moved over to Zed.',
      'I started a new book, the ending was silly.',
      'My parents left Porto on Monday, they visit next week.',
      'We moved the main store of Ledger from Redis to MySQL.',
      'Ben, how do you like living in Denver now?',
      'Brave move going to Denver, Ben.',
    ])
      expect(decideLife(turn('t2', text, 2), lisbon), text).toBeUndefined();
    expect(decideLife(turn('t2', 'I moved to Denver last week.', 2, 'Ben'), lisbon)).toBeUndefined();
    const asked = turn('q1', 'Is Redis still a good choice for a small project?', 1);
    expect(decideLife(turn('q2', 'We replaced Redis with Postgres in Ledger.', 2), asked)).toBeUndefined();
  });

  it('unrelated turns of one speaker in words of neither half of the conversation set replace nothing', () => {
    const older = [
      lisbon,
      turn('t1b', 'I work at Northwind on the data team.', 1),
      turn('t1c', 'My editor is Emacs, with far too many plugins.', 1),
      turn('t1d', 'Saturdays are for tennis, without exception.', 1),
    ];
    for (const text of [
      'My brother moved his bakery to a bigger shop in Porto.',
      'I switched off the heating, it was far too warm.',
      'The team left the offsite early because of the storm.',
      'We replaced the kitchen tap last weekend, finally no drip.',
      'I started reading a novel about Lisbon in the sixties.',
      'Now that the kids are at school, the mornings are quiet.',
      'I quit sugar for a month, it went badly.',
      'The bus from Denver to Boulder is quicker now.',
      'I dropped my phone in the sink, it survived.',
      'Joined a book club that meets at the Northwind cafe.',
      'I gave up on the crossword today, too hard.',
      'My landlord swapped the old boiler for a new one.',
    ])
      for (const o of older) expect(decideLife(turn('t2', text, 2), o), `${text} / ${o.text}`).toBeUndefined();
  });

  it('a name of two words left ("dropped VS Code"); an older change names its slot by its phrase', () => {
    const vs = turn('v1', 'My editor is VS Code, with far too many plugins.', 1);
    expect(decideLife(turn('v2', "I've dropped VS Code; Helix is my editor now.", 2), vs)?.kind).toBe('supersedes');
    const offer = turn('o1', "I accepted the offer from Saltmarsh Games, so I'm leaving Helix Labs.", 1);
    const job = turn('o2', 'I started a new job at Quarry Bank on Monday.', 2);
    expect(decideLife(job, offer)).toMatchObject({ kind: 'supersedes', why: expect.stringContaining('slot (work)') });
    // Said without a change, the phrase names no slot of the older turn.
    expect(decideLife(job, turn('o3', 'Saltmarsh Games made me an offer from nowhere.', 1))).toBeUndefined();
  });

  it('an offer from a company is where one goes, not what one left', () => {
    const helix = turn('e1', "I've dropped VS Code; Helix is my editor now.", 1);
    const offer = turn('e2', "I accepted the offer from Helix Labs, so I'm leaving Orbital Foods.", 2);
    expect(decideLife(offer, helix)).toBeUndefined();
  });

  it("a one-sentence question about a slot is asked in the slot's other words too; a request is not", () => {
    const work = slotQuestionWords('Where does Ravi work now?');
    expect(work).toEqual(expect.arrayContaining(['job', 'employer', 'joined']));
    expect(work).not.toContain('work');
    expect(slotQuestionWords('Which city is Ravi living in?')).toEqual(expect.arrayContaining(['live', 'home']));
    expect(slotQuestionWords("What is Ravi's hobby?")).toEqual([]);
    expect(slotQuestionWords('Find a job board. I work remotely.')).toEqual([]);
  });

  it('a condition, a wish or a plan, and "for now", say no change at remember time', () => {
    const python = turn('p1', 'I write Python at work for the billing crew.', 1);
    for (const text of [
      'If I ever left Lisbon I would pick Porto, the river there is lovely.',
      'Maybe I will try Rust next year, Python is fine for now though.',
      'Honestly Python is fine for now.',
    ])
      expect(decideLife(turn('p2', text, 2), text.includes('Lisbon') ? lisbon : python), text).toBeUndefined();
    // The same words stating the change replace.
    expect(decideLife(turn('l2', 'I left Lisbon and picked Porto, the river there is lovely.', 2), lisbon)?.kind).toBe(
      'supersedes',
    );
    expect(decideLife(turn('p3', 'I write Rust now, Python was fine.', 2), python)?.kind).toBe('supersedes');
  });

  it('a change tied to a value: the value left, or a cue beside it that no "still" or "too" holds', () => {
    expect(changeBeside('I left Kestrel Insurance last week.', ['kestrel'])).toEqual({
      value: 'kestrel',
      cue: 'left',
      left: true,
    });
    expect(changeBeside('I stopped chess after the injury.', ['chess'])).toMatchObject({ cue: 'stopped' });
    expect(changeBeside('Tennis? No longer, climbing is it.', ['tennis'])).toEqual({
      value: 'tennis',
      cue: 'no longer',
      left: false,
    });
    // A cue far from the value, or beside it with "still" / "too", or in a hedged turn, ties nothing to it.
    expect(changeBeside('Still rowing every week now, although I did some bowling once.', ['rowing'])).toBeUndefined();
    expect(changeBeside('Rowing with the club on weekends, and I joined the choir last month.', ['rowing'])).toBe(
      undefined,
    );
    expect(changeBeside('Rowing too, I started it again.', ['rowing'])).toBeUndefined();
    expect(changeBeside('If I ever left Lisbon I would pick Porto.', ['lisbon'])).toBeUndefined();
    expect(changeBeside('I never really left Lisbon, not in my heart.', ['lisbon'])).toBeUndefined();
    expect(changeBeside('Ben told me Kestrel Insurance left the index.', ['kestrel'])).toBeUndefined();
  });

  it('a name left before "and" is left: the capital of the word after it is read as written', () => {
    expect([...leftValues('I left Fernway and joined Quillon last month.')]).toContain('fernway');
    expect([...leftValues('I left Kestrel Insurance, joined Pinecrest Health.')]).toEqual(['kestrel', 'insurance']);
    // A lower-case word after a name still ends it, and a modifier's noun still makes it no value left.
    expect([...leftValues('I left my Acme Robotics badge at home.')]).toEqual([]);
    // The older turn names Fernway only as a sentence's first word: the value left ties the two.
    const fernway = turn('f1', 'Fernway has been my employer for six years.', 1);
    expect(decideLife(turn('f2', 'I left Fernway and joined Quillon last month.', 2), fernway)).toMatchObject({
      kind: 'supersedes',
      why: expect.stringContaining('the value it left (fernway)'),
    });
  });

  it('reads everyday ways of saying one left a thing: ditched, goodbye, so long, bored of, traded', () => {
    const said: [string, string[]][] = [
      ['Ditched Vim, moved over to Helix for everything.', ['vim']],
      ['Said goodbye to Brightwave Media on Friday, my new badge arrives tomorrow.', ['brightwave', 'media']],
      ['I am with Orbital Foods as of this month, so long Kestrel.', ['kestrel']],
      ['Handed in my notice at Pinecrest Health, first week elsewhere went fine.', ['pinecrest', 'health']],
      ['Took the Orbital Foods offer, Kestrel Insurance is behind me now.', ['kestrel', 'insurance']],
      ['Got bored of rowing, so weekends are pottery now.', ['rowing']],
      ['Sold my climbing gear, chess is the new obsession.', ['climbing']],
      ['Traded rowing for pottery, best decision this year.', ['rowing']],
      ['We ripped Cassandra out of Ledger last sprint.', ['cassandra']],
      ['Moved on from Lisbon after six years.', ['lisbon']],
    ];
    for (const [text, left] of said) expect([text, [...leftValues(text)]]).toEqual([text, left]);
    // Said of another's thing, or of something that is no value, they leave nothing of the older turn's.
    const rowing = turn('r1', 'Rowing is pretty much my whole weekend these days.', 1);
    expect(decideLife(turn('r2', 'Got bored of rowing, so weekends are pottery now.', 2), rowing)).toMatchObject({
      kind: 'supersedes',
      why: expect.stringContaining('rowing'),
    });
    expect(decideLife(turn('r3', 'My brother sold his rowing machine, lol.', 2), rowing)).toBeUndefined();
    // A leaving phrase five words long, and one said after the value, are tied to it (changeBeside).
    const badge = turn('k1', 'My badge for Kestrel Insurance stopped working again.', 1);
    for (const [text, cue] of [
      ['Handed in my notice at Kestrel Insurance, first week at Orbital Foods went fine.', 'handed in my notice at'],
      ['Took the Orbital Foods offer, Kestrel Insurance is behind me now.', 'behind me'],
    ])
      expect(decideLife(turn('k2', text as string, 2), badge)?.why).toContain(`k2 says "${cue}"`);
    expect(
      changeBeside('Took the Orbital Foods offer, and the Kestrel Insurance audit is behind us.', ['kestrel']),
    ).toBe(undefined);
    // The same words in their everyday other senses change nothing (a cold review's turns).
    const kestrel = turn('w1', 'I work at Kestrel.', 1);
    const ordinary: [LifeSubject, string][] = [
      [rowing, 'Done with rowing for today, back tomorrow.'],
      [turn('p1', 'I use Postgres for everything.', 1), 'So long as Postgres is up, we are fine.'],
      [kestrel, 'Kestrel is behind us on payments.'],
      [kestrel, 'Ben is behind me in the queue at Kestrel.'],
      [turn('s1', 'I love telling stories at Kestrel.', 1), 'Traded stories with the Kestrel team for an hour.'],
      [turn('b1', 'I pack boxes at Kestrel.', 1), 'Ripped the tape off the Kestrel boxes.'],
    ];
    for (const [older, text] of ordinary)
      expect([text, decideLife(turn('x', text, 2), older)]).toEqual([text, undefined]);
    expect(decideLife(turn('x', 'So long Kestrel, hello Orbital!', 2), kestrel)?.kind).toBe('supersedes');
  });

  it('reads "behind me" in time linear in the text (a run of capitalised words took 20 s)', () => {
    const started = performance.now();
    leftValues('ABC '.repeat(25_000));
    leftValues(`I left Kestrel. ${'Ab '.repeat(33_000)}`);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it("the values a turn left are found in their own form, on the same stem as the turn's (leftIn)", () => {
    expect([...leftIn('I quit tennis last spring.', ['tennis', 'climbing'])]).toEqual(['tennis']);
    expect([...leftIn('We migrated off Postgres in May.', ['postgres'])]).toEqual(['postgres']);
    expect([...leftIn('I still play tennis.', ['tennis'])]).toEqual([]);
  });

  it('saying the same value again with a cue restates it: no replacement', () => {
    const joined = turn('o1', 'I started a new job at Orbital Foods on Monday.', 1);
    expect(decideLife(turn('o2', "I've been at Orbital Foods for a couple of years now.", 2), joined)).toBeUndefined();
    const left = turn('s1', 'I switched from IntelliJ to Sublime Text for my coding.', 1);
    expect(decideLife(turn('s2', "I've dropped Sublime Text; Emacs is my editor now.", 2), left)?.kind).toBe(
      'supersedes',
    );
  });
});

describe('what recall makes of a life', () => {
  const life = { status: 'superseded' as const, validTo: 100 };
  it('a superseded memory is halved and low now, current as of a date before its end', () => {
    expect(lifeStatus(life, { now: 200 })).toEqual({ status: 'superseded', factor: 0.5 });
    expect(lifeStatus(life, { asOf: 50 })).toEqual({ status: 'current', factor: 1 });
    expect(lifeStatus(undefined, { now: 200 })).toEqual({ status: 'current', factor: 1 });
    expect(labelForStatus('high', 'superseded')).toBe('low');
    expect(labelForStatus('high', 'conflict')).toBe('medium');
    expect(labelForStatus('medium', 'conflict')).toBe('low');
    expect(labelForStatus('high', 'current')).toBe('high');
  });

  it('asked about now, a window that does not hold now: ended, or not yet true; as of a date, the dates filter', () => {
    const window = { validFrom: 100, validTo: 200 };
    expect(lifeStatus(window, { now: 150 })).toEqual({ status: 'current', factor: 1 });
    expect(lifeStatus(window, { now: 200 })).toEqual({ status: 'superseded', factor: 0.5, window: 'ended' });
    expect(lifeStatus(window, { now: 50 })).toEqual({ status: 'superseded', factor: 0.5, window: 'notYet' });
    expect(lifeStatus({ status: 'conflict', validTo: 200 }, { now: 300 })).toMatchObject({ status: 'superseded' });
    expect(lifeStatus(window, { asOf: 50 })).toEqual({ status: 'current', factor: 1 });
    // Replaced by a change still ahead (a planned move): current until then.
    expect(lifeStatus({ status: 'superseded', validTo: 200, supersededBy: 'm2' }, { now: 150 }).status).toBe('current');
  });

  it('valid from its start until its end', () => {
    expect(validAt(life, 10, 5)).toBe(false);
    expect(validAt(life, 10, 10)).toBe(true);
    expect(validAt(life, 10, 100)).toBe(false);
    expect(validAt(undefined, 10, 1e12)).toBe(true);
  });

  it("a turn's context title carries its speaker, day and words", () => {
    const times = { at: '2023-05-07T13:56:00.000Z' };
    expect(contextTitle({ title: 'Caroline', snippet: 'I went', times, turn: { speaker: 'Caroline' } })).toBe(
      'Caroline, 2023-05-07: I went',
    );
    expect(contextTitle({ title: 'Main store', snippet: 'x', times })).toBe('Main store');
  });

  it('the context marks, with all, a superseded memory (by what, since when) and a conflict (with what)', () => {
    const result = (id: string, title: string, status: 'current' | 'superseded' | 'conflict', more = {}) => ({
      id,
      category: 'decision',
      title,
      snippet: title,
      times: { at: '2026-04-01T09:00:00.000Z' },
      tags: [],
      label: 'low' as const,
      path: null,
      status,
      ...more,
    });
    const results = [
      result('m2', 'Main store on MySQL', 'current'),
      result('m1', 'Postgres for the main store', 'superseded', {
        life: { supersededBy: 'm2' },
        times: { at: '2026-04-01T09:00:00.000Z', validTo: '2026-05-01T09:00:00.000Z' },
      }),
      result('m0', 'Cache on Redis', 'superseded', { life: { supersededBy: 'gone' } }),
      result('m3', 'Deploys on Fridays', 'conflict', { life: { conflictsWith: ['m4'] } }),
      result('t1', 'Ana', 'conflict', { parts: { newerTurn: { id: 't9', names: [] } } }),
    ];
    expect(formatMemoryContext(agentContextLines(results, true)).split('\n').slice(1, -1)).toEqual([
      '- [DECISION] Main store on MySQL [confidence:low]',
      '- [DECISION] Postgres for the main store (superseded by Main store on MySQL, 2026-05-01) [confidence:low]',
      '- [DECISION] Cache on Redis (superseded by gone) [confidence:low]',
      '- [DECISION] Deploys on Fridays (in conflict with m4) [confidence:low]',
      '- [DECISION] Ana (likely replaced by t9) [confidence:low]',
    ]);
    // Without all, the superseded ones are left out; a conflict is marked all the same.
    expect(formatMemoryContext(agentContextLines(results)).split('\n').slice(1, -1)).toEqual([
      '- [DECISION] Main store on MySQL [confidence:low]',
      '- [DECISION] Deploys on Fridays (in conflict with m4) [confidence:low]',
      '- [DECISION] Ana (likely replaced by t9) [confidence:low]',
    ]);

    // Two notes of one title: each line names the other by id (and title), so the two lines differ; a
    // replacement of the same title is named by its id.
    const sameTitle = [
      result('m5', 'Deploy target', 'conflict', { life: { conflictsWith: ['m6'] } }),
      result('m6', 'Deploy target', 'conflict', { life: { conflictsWith: ['m5'] } }),
      result('m7', 'Deploy target', 'superseded', { life: { supersededBy: 'm5' } }),
    ];
    expect(formatMemoryContext(agentContextLines(sameTitle, true)).split('\n').slice(1, -1)).toEqual([
      '- [DECISION] Deploy target (in conflict with m6: Deploy target) [confidence:low]',
      '- [DECISION] Deploy target (in conflict with m5: Deploy target) [confidence:low]',
      '- [DECISION] Deploy target (superseded by m5) [confidence:low]',
    ]);
  });
});

describe('decideLife on turns: a change tied to the value both name, said by the speaker (third review)', () => {
  const turn = (id: string, text: string, at: number): LifeSubject => ({
    id,
    title: 'Lena',
    text,
    tags: [],
    speaker: 'Lena',
    at,
  });
  const job = turn('j1', 'I work at Acme Robotics in Munich.', 1);

  it('a cue elsewhere in a turn naming the value, or said of another thing or subject, replaces nothing', () => {
    for (const text of [
      'Still loving Acme Robotics; Priya and I now go climbing on Sundays.',
      'I joined the Acme Robotics climbing club with Priya last week.',
      'Our Acme Robotics team lead moved to Globex Systems, sad.',
      'My Acme Robotics manager moved to Globex Systems.',
      'Acme Robotics now has an office in Berlin as well.',
      'Acme Robotics started a lab in Berlin, I am excited.',
      'Acme Robotics moved us into the Schwabing building.',
      'I left my Acme Robotics badge at home, Priya let me in.',
    ])
      expect(decideLife(turn('j2', text, 2), job), text).toBeUndefined();
  });

  it('a hedge or a quote in another clause leaves the change said', () => {
    for (const text of [
      'I quit Acme Robotics. My manager says Globex Systems is lucky to have me.',
      'I left Acme Robotics for Globex Systems, maybe the best call I ever made.',
      'Yeah, I left Acme Robotics, Globex Systems hired me.',
    ])
      expect(decideLife(turn('j2', text, 2), job)?.kind, text).toBe('supersedes');
    // In the clause of the change, a hedge still says none.
    expect(decideLife(turn('j3', 'Maybe I will leave Acme Robotics for Globex Systems.', 2), job)).toBeUndefined();
  });

  it('an interjection before a comma is no one addressed; a speaker of the dialogue is', () => {
    for (const w of ['Yeah', 'Honestly', 'Actually', 'Okay', 'Well', 'Sure', 'Oh', 'Thanks', 'Wow', 'Anyway'])
      expect(addressee(`${w}, I left Acme Robotics, Globex Systems hired me.`, new Set(['raj'])), w).toBeUndefined();
    expect(addressee('Raj, I left Acme Robotics.', new Set(['raj']))).toBe('raj');
    expect(addressee('I left Acme Robotics, Raj.', new Set(['raj']))).toBe('raj');
  });
});

describe('decideLife on notes: "for now" and "stopped" say a change (issue 23, third review)', () => {
  it('a note saying its value "for now" or that it stopped the old one replaces it', () => {
    const heroku = note('n1', 'Deploy target', 'We deploy to Heroku', 1);
    expect(decideLife(note('n2', 'Deploy target', 'We deploy to Fly.io for now', 2), heroku)?.kind).toBe('supersedes');
    const elastic = note('s1', 'Search', 'Search runs on Elasticsearch', 1);
    expect(decideLife(note('s2', 'Search engine', 'Search runs on Meilisearch for now', 2), elastic)?.kind).toBe(
      'supersedes',
    );
    const redis = note('c1', 'Cache', 'Redis is our cache layer', 1);
    expect(decideLife(note('c2', 'Cache', 'We stopped using Redis; the cache is Memcached', 2), redis)).toMatchObject({
      kind: 'supersedes',
      why: expect.stringContaining('"stopped"'),
    });
  });
});
