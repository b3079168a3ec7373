import { describe, expect, it } from 'vitest';
import { engineStore, openCredence } from '../engine.js';
import { openSqliteStore } from '../../store/sqlite/index.js';
import { restoreDump, writeDump } from '../../store/dump.js';
import { chooseContext } from '../../core/recall/agent-context.js';
import type { RecallResult } from './recall.js';
import type { MemoryInput } from '../../schemas/index.js';

const DAY = 86_400_000;
const APRIL = Date.parse('2026-04-01T00:00:00Z');

/** An engine whose clock the test moves. */
async function engine(path = ':memory:') {
  const clock = { now: APRIL };
  const credence = await openCredence({
    store: openSqliteStore({ path }),
    scope: 'life',
    now: () => clock.now,
  });
  return { credence, clock, store: engineStore(credence) };
}

/** Decision notes titled `title`, each superseding the memory named when one is given. */
const decisionNote =
  (title: string) =>
  (text: string, supersedes?: string): MemoryInput => ({
    title,
    category: 'decision',
    text,
    ...(supersedes === undefined ? {} : { supersedes }),
  });

/** A second engine over a fresh store restored from a dump of `store` (scope life), at the clock `now` reads. */
async function restoredCopy(store: Parameters<typeof writeDump>[0], now: () => number) {
  let text = '';
  await writeDump(store, (chunk) => {
    text += chunk;
  });
  const target = openSqliteStore({ path: ':memory:' });
  await restoreDump(target, async function* () {
    yield* text.split('\n');
  });
  return openCredence({ store: target, scope: 'life', now });
}
describe('remember: duplicates merge (issue 23)', () => {
  it('re-remembering the same fact, exactly or written alike, keeps one row with its count and last seen', async () => {
    const { credence, clock, store } = await engine();
    const first = await credence.remember([{ title: 'Main store', text: 'We use Postgres for the main store' }]);
    clock.now += DAY;
    const again = await credence.remember([{ title: 'Main store', text: 'We use Postgres for the main store' }]);
    clock.now += DAY;
    const alike = await credence.remember([
      { title: 'DB', text: 'we use Postgres for the main store.', source: 'standup 2026-04-03' },
    ]);
    expect(again.ids).toEqual(first.ids);
    expect(alike.ids).toEqual(first.ids);
    expect([first.inserted, again.merged, alike.merged]).toEqual([1, 1, 1]);
    const rows = await store.listMemories('life');
    expect(rows).toHaveLength(1);
    expect(rows[0]?.life).toMatchObject({ seen: 3, lastSeen: APRIL + 2 * DAY, sources: ['standup 2026-04-03'] });
    await credence.close();
  });

  it('a note differing from an older one only by its ticket id is its own memory, found by that id', async () => {
    const { credence, clock, store } = await engine();
    const hotfix = (ticket: string) => ({
      title: `Hotfix ${ticket}`,
      text:
        'The checkout rounding hotfix is deployed to production after the weekend freeze and verified by QA ' +
        `against last month's invoices, tracked in ${ticket}.`,
    });
    const first = await credence.remember([hotfix('PROJ-1028')]);
    clock.now += DAY;
    const second = await credence.remember([hotfix('PROJ-1280')]);
    expect(second).toMatchObject({ inserted: 1, merged: 0 });
    expect(second.ids).not.toEqual(first.ids);
    expect((await store.listMemories('life')).map((m) => m.title).sort()).toEqual([
      'Hotfix PROJ-1028',
      'Hotfix PROJ-1280',
    ]);
    const found = await credence.recall('PROJ-1280');
    expect(found.map((r) => r.id)).toContain(second.ids[0]);
    await credence.close();
  });

  it('an id of your own is its own memory: the same text under another id is not merged', async () => {
    const { credence, store } = await engine();
    await credence.remember(['a', 'b'].map((x) => ({ id: `own-${x}`, title: 'Redis', text: 'We cache with redis.' })));
    expect((await store.listMemories('life')).map((m) => m.id)).toEqual(['own-a', 'own-b']);
    await credence.close();
  });
});

describe('remember: an old fact said again after its replacement is the newest word (walk 15, item 7)', () => {
  it('Postgres, MySQL, Postgres again: current again, superseding MySQL, said so; as of May, MySQL', async () => {
    const { credence, clock, store } = await engine();
    const main = { title: 'Main store', category: 'decision' };
    const postgres = { ...main, text: 'We use Postgres for the main store.' };
    const [pg] = (await credence.remember([postgres])).ids;
    clock.now += 30 * DAY;
    const [my] = (await credence.remember([{ ...main, text: 'We moved the main store to MySQL.' }])).ids;
    clock.now += 61 * DAY;
    const june = clock.now;
    const back = await credence.remember([postgres]);
    const [now] = back.ids;
    expect(now).not.toBe(pg);
    expect(back).toMatchObject({ inserted: 1, merged: 0 });
    expect(back.superseded).toEqual([{ id: my, by: now, why: expect.stringContaining(`what ${pg} said before`) }]);
    const asked = 'which database is the main store?';
    const results = await credence.recall(asked, { track: false });
    expect(results.map((r) => [r.id, r.status]).slice(0, 2)).toEqual([
      [now, 'current'],
      [my, 'superseded'],
    ]);
    expect(results[0]?.times.at).toBe(new Date(june).toISOString());
    const asOf = async (t: number) =>
      (await credence.recall(asked, { track: false, asOf: t })).filter((r) => r.status === 'current').map((r) => r.id);
    expect(await asOf(june - 30 * DAY)).toEqual([my]);
    expect(await asOf(APRIL + 10 * DAY)).toEqual([pg]);
    // Said once more while it holds: a repeat of the current one, merged there.
    clock.now += DAY;
    expect((await credence.remember([postgres])).ids).toEqual([now]);
    expect(await store.listMemories('life')).toHaveLength(3);
    expect((await store.getMemory('life', now as string))?.life).toMatchObject({ seen: 2, supersedes: [my] });
    await credence.close();
  });
});

describe('remember: a fact said again with a past date never supersedes a later replacement (review E, item 4)', () => {
  it('Postgres (Jan), MySQL (Apr 1), SQLite (May 1), Postgres dated Apr 15: SQLite stays current', async () => {
    const { credence, clock, store } = await engine();
    clock.now = Date.parse('2026-07-01T00:00:00Z');
    const main = { title: 'Main store', category: 'decision' };
    const postgres = { ...main, text: 'We use Postgres for the main store.' };
    await credence.remember([{ ...postgres, validFrom: '2026-01-01' }]);
    await credence.remember([{ ...main, text: 'We moved the main store to MySQL.', validFrom: '2026-04-01' }]);
    const text = 'We moved the main store to SQLite.';
    const [sqlite] = (await credence.remember([{ ...main, text, validFrom: '2026-05-01' }])).ids;
    const back = await credence.remember([{ ...postgres, validFrom: '2026-04-15' }]);
    expect(back.superseded.map((s) => s.id)).not.toContain(sqlite);
    const life = (await store.getMemory('life', sqlite as string))?.life;
    expect([life?.status, life?.validTo, life?.supersededBy]).toEqual([undefined, undefined, undefined]);
    const now = await credence.recall('which database is the main store?', { track: false });
    expect(now.filter((r) => r.status === 'current').map((r) => r.id)).toEqual([sqlite]);
    await credence.close();
  });
});

describe('recall of a question about now answers as of now (walk 15, item 1)', () => {
  it('a memory whose validTo passed is not current: superseded (ended), low, out of the context', async () => {
    const { credence } = await engine();
    const [queue] = (
      await credence.remember([
        { title: 'Queue', text: 'Jobs go through RabbitMQ.', validFrom: '2025-02-01', validTo: '2025-09-01' },
      ])
    ).ids;
    const [hit] = await credence.recall('what queue do jobs go through?', { track: false });
    expect([hit?.id, hit?.status, hit?.label, hit?.parts.window, hit?.parts.lifeFactor]).toEqual([
      queue,
      'superseded',
      'low',
      'ended',
      0.5,
    ]);
    const asked = 'what queue do jobs go through?';
    expect(chooseContext([hit as RecallResult], asked, APRIL)).toEqual([]);
    expect(chooseContext([hit as RecallResult], asked, APRIL, { all: true })[0]?.line.note).toBe('ended 2025-09-01');
    // A question about before keeps it as its answer, with its own label.
    const [was] = await credence.recall('what queue did jobs go through before?', { track: false });
    expect([was?.id, was?.status, was?.parts.lifeFactor]).toEqual([queue, 'superseded', 1]);
    await credence.close();
  });

  it('a change not yet true (validFrom after now) does not hide what holds today, as of now alike', async () => {
    const { credence, clock } = await engine();
    const main = { title: 'Main store', category: 'decision' };
    await credence.remember([{ ...main, text: 'We use Postgres for the main store.' }]);
    clock.now += 31 * DAY;
    const [my] = (await credence.remember([{ ...main, text: 'We moved the main store to MySQL.' }])).ids;
    clock.now += 30 * DAY;
    // Within the day a time may be ahead of the clock (a clock a little behind; further ahead is refused).
    const tomorrow = new Date(clock.now + 20 * 3_600_000).toISOString();
    const planned = await credence.remember([
      { ...main, text: 'We will have moved the main store to CockroachDB, replacing MySQL.', validFrom: tomorrow },
    ]);
    expect(planned.superseded.map((s) => s.id)).toEqual([my]);
    const asked = 'which database is the main store?';
    const now = await credence.recall(asked, { track: false });
    const current = (results: readonly RecallResult[]) =>
      results.filter((r) => r.status !== 'superseded').map((r) => r.id);
    expect(current(now)).toEqual([my]);
    expect(current(now)).toEqual(current(await credence.recall(asked, { track: false, asOf: clock.now })));
    const ahead = now.find((r) => r.id === planned.ids[0]);
    expect([ahead?.label, ahead?.parts.window]).toEqual(['low', 'notYet']);
    const all = chooseContext(now, asked, clock.now, { all: true });
    const note = all.find((c) => c.result.id === planned.ids[0])?.line.note;
    expect(note).toBe(`not yet true: from ${tomorrow.slice(0, 10)}`);
    expect(chooseContext(now, asked, clock.now).map((c) => c.result.id)).toEqual([my]);
    await credence.close();
  });
});

describe('remember: a fact said again keeps when it became true (walk 15, item 3)', () => {
  const iso = (t: number) => new Date(t).toISOString();
  it('MySQL said again later, or with a later validFrom: dated April 1st, true as of April 2nd and 10th', async () => {
    const { credence, clock, store } = await engine();
    const store1 = { title: 'Main store', category: 'decision' };
    await credence.remember([{ ...store1, text: 'We use Postgres for the main store.' }]);
    clock.now += 31 * DAY;
    const moved = APRIL + 31 * DAY;
    const [my] = (await credence.remember([{ ...store1, text: 'We moved the main store to MySQL.' }])).ids;
    clock.now += 5 * DAY;
    expect((await credence.remember([{ ...store1, text: 'We moved the main store to MySQL.' }])).ids).toEqual([my]);
    clock.now += DAY;
    // Written alike (another title, case, no period): merged by the search, not by its id.
    expect((await credence.remember([{ title: 'DB', text: 'we moved the main store to mysql' }])).ids).toEqual([my]);
    clock.now += 20 * DAY;
    const later = '2026-05-20T00:00:00.000Z';
    await credence.remember([{ ...store1, text: 'We moved the main store to MySQL.', validFrom: later }]);
    const row = await store.getMemory('life', my as string);
    expect(row?.life).toMatchObject({ seen: 4, lastSeen: Date.parse(later) });
    const [when] = await credence.recall('when did we move the main store to MySQL?', { track: false });
    expect([when?.id, when?.times.at]).toEqual([my, iso(moved)]);
    for (const day of [1, 9]) {
      const asOf = moved + day * DAY;
      const then = await credence.recall('which database is the main store?', { track: false, asOf });
      expect(then.map((r) => r.id)).toEqual([my]);
    }
    await credence.close();
  });
});

describe('remember: a repeat saying the fact held earlier moves its start back (review E, item 14)', () => {
  const note = { title: 'Main store', category: 'decision', text: 'We use Postgres for the main store.' };
  it('written in June, said again "since January": true as of March, the date never moved forward', async () => {
    const { credence, clock, store } = await engine();
    clock.now = Date.parse('2026-06-01T00:00:00Z');
    const [id] = (await credence.remember([note])).ids;
    clock.now += DAY;
    const again = await credence.remember([{ ...note, validFrom: '2026-01-01' }]);
    expect(again).toMatchObject({ ids: [id], merged: 1 });
    const asked = 'which database is the main store?';
    const march = await credence.recall(asked, { track: false, asOf: Date.parse('2026-03-01T00:00:00Z') });
    expect(march.filter((r) => r.status === 'current').map((r) => r.id)).toEqual([id]);
    await credence.remember([{ ...note, validFrom: '2026-02-01' }]);
    const life = (await store.getMemory('life', id as string))?.life;
    expect([life?.validFrom, life?.seen]).toEqual([Date.parse('2026-01-01T00:00:00Z'), 3]);
    await credence.close();
  });
  it('moved back past the end of what it replaced: refused, naming it, nothing changed', async () => {
    const { credence, clock, store } = await engine();
    const [pg] = (await credence.remember([note])).ids;
    clock.now += 30 * DAY;
    const mysql = { title: 'Main store', category: 'decision', text: 'We moved the main store to MySQL.' };
    const [my] = (await credence.remember([mysql])).ids;
    const before = await store.getMemory('life', my as string);
    const early = credence.remember([{ ...mysql, validFrom: new Date(APRIL + 10 * DAY).toISOString() }]);
    await expect(early).rejects.toThrow(new RegExp(`validFrom: .* is before ${pg}, which ${my} replaced, ended`));
    expect(await store.getMemory('life', my as string)).toEqual(before);
    await credence.close();
  });
});

describe('remember: a time more than a day after the clock it is given is refused (review E, item 11)', () => {
  it('validFrom, validTo or a turn at ahead of the engine clock: INVALID_INPUT naming it, nothing stored', async () => {
    const { credence, store } = await engine();
    await credence.remember([{ title: 'Main store', text: 'We use Postgres for the main store.' }]);
    const before = await store.listMemories('life');
    const mysql = { title: 'Main store', text: 'We moved the main store to MySQL.' };
    // The engine's clock (April 1st 2026), not the machine's: June 2026 is ahead of it.
    for (const [field, ahead] of [
      ['validFrom', { ...mysql, validFrom: '2031-01-01' }],
      ['validFrom', { ...mysql, validFrom: '2026-06-01' }],
      ['validTo', { ...mysql, validFrom: '2026-03-01', validTo: '2031-01-01' }],
      ['at', { speaker: 'Cara', session: 's1', at: '2031-01-01T00:00:00Z', text: 'I moved to MySQL.' }],
    ] as const) {
      await expect(credence.remember([ahead])).rejects.toThrow(
        new RegExp(`invalid memory: ${field}: .* is after the clock now\\(\\) gives \\(2026-04-01T00:00:00.000Z\\)`),
      );
    }
    expect(await store.listMemories('life')).toEqual(before);
    // A day ahead is a clock a little behind: taken.
    expect((await credence.remember([{ ...mysql, validFrom: '2026-04-01T20:00:00Z' }])).inserted).toBe(1);
    await credence.close();
  });
});

// Walk 16, item 15: a validTo ahead was refused with validFrom's reason (it would "replace the one true now"), and a
// blank title was refused with the same complaint twice in one message.
describe('remember: the refusals say what is wrong once, with the reason of the field', () => {
  it('a validTo ahead is refused as an end not yet reached, not as the newest word', async () => {
    const { credence } = await engine();
    const refusal = credence.remember([{ title: 'D', text: 'ends ahead', validTo: '2031-01-01' }]);
    await expect(refusal).rejects.toThrow(/invalid memory: validTo: .* when the memory stopped being true/);
    await expect(refusal).rejects.not.toThrow(/newest word/);
    await expect(credence.remember([{ title: 'D', text: 'starts ahead', validFrom: '2031-01-01' }])).rejects.toThrow(
      /invalid memory: validFrom: .* newest word on its subject/,
    );
    await credence.close();
  });

  it('a blank title is refused in one complaint', async () => {
    const { credence } = await engine();
    for (const title of ['  ', '']) {
      const error = await credence.remember([{ title, text: 'text' }]).then(
        () => undefined,
        (e: Error) => e.message,
      );
      expect(error).toBe('invalid memory: title: must be a non-empty title (it shows nothing)');
    }
    await credence.close();
  });
});

describe('remember: supersession and conflicts (issue 23)', () => {
  it('Postgres then MySQL: MySQL first, Postgres superseded with why; as of April, Postgres', async () => {
    const { credence, clock } = await engine();
    const [pg] = (await credence.remember([{ title: 'Main store', text: 'We use Postgres for the main store' }])).ids;
    clock.now += 30 * DAY;
    const report = await credence.remember([{ title: 'Main store', text: 'We moved the main store to MySQL' }]);
    const [my] = report.ids;
    expect(report.superseded).toEqual([{ id: pg, by: my, why: expect.stringContaining('"moved"') }]);
    const results = await credence.recall('main store database', { track: false });
    expect(results.map((r) => [r.id, r.status])).toEqual([
      [my, 'current'],
      [pg, 'superseded'],
    ]);
    const [mysql, postgres] = results;
    expect(postgres?.label).toBe('low');
    expect(postgres?.parts.lifeFactor).toBe(0.5);
    expect(postgres?.life).toMatchObject({ supersededBy: my, why: expect.stringContaining('main, store') });
    expect(postgres?.times.validTo).toBe(new Date(APRIL + 30 * DAY).toISOString());
    expect(mysql?.snippet).toBe('We moved the main store to MySQL');
    expect(mysql?.life?.supersedes).toEqual([pg]);
    const asOfApril = await credence.recall('main store database', { track: false, asOf: APRIL + 10 * DAY });
    expect(asOfApril.map((r) => [r.id, r.status])).toEqual([[pg, 'current']]);
    await credence.close();
  });

  it('a long-lived engine that recalled before sees the status change at once, and the old fact again', async () => {
    const { credence, clock, store } = await engine();
    const [pg] = (await credence.remember([{ title: 'Main store', text: 'We use Postgres for the main store' }])).ids;
    for (let i = 0; i < 3; i += 1) await credence.recall('main store', { track: false });
    await credence.warm();
    clock.now += DAY;
    await credence.remember([{ title: 'Main store', text: 'We moved the main store to MySQL' }]);
    expect((await credence.recall('main store', { track: false })).map((r) => r.status)).toEqual([
      'current',
      'superseded',
    ]);
    // Said again after MySQL replaced it (written alike): the newest word, a memory of its own replacing MySQL.
    const again = await credence.remember([{ title: 'DB', text: 'we use postgres for the main store!' }]);
    expect(again.ids).not.toEqual([pg]);
    expect(await store.listMemories('life')).toHaveLength(3);
    expect((await credence.recall('main store', { track: false })).map((r) => [r.id, r.status])[0]).toEqual([
      again.ids[0],
      'current',
    ]);
    await credence.close();
  });

  it('a memory true from a date of its own: its time in results, left out as of before it', async () => {
    const { credence } = await engine();
    await credence.remember([
      { title: 'Release train', text: 'Releases ship every second Tuesday', validFrom: '2026-03-01', source: 'wiki' },
    ]);
    const [hit] = await credence.recall('release tuesday', { track: false });
    expect(hit?.times).toEqual({ at: '2026-03-01T00:00:00.000Z', validFrom: '2026-03-01T00:00:00.000Z' });
    expect(hit?.life).toEqual({ sources: ['wiki'] });
    expect(await credence.recall('release tuesday', { track: false, asOf: Date.parse('2026-02-01') })).toEqual([]);
    await expect(credence.remember([{ title: 'x', text: 'y', validFrom: 'next week' }])).rejects.toThrow(/validFrom/);
    await credence.close();
  });

  it('--supersedes marks the named memory; an unknown id is named in the error', async () => {
    const { credence, store } = await engine();
    const [old] = (await credence.remember([{ title: 'Deploy', text: 'Deploy from the release branch' }])).ids;
    const report = await credence.remember([
      { title: 'Ship', text: 'Tag a commit on main to ship', supersedes: old as string },
    ]);
    expect((await store.getMemory('life', old as string))?.life).toMatchObject({
      status: 'superseded',
      supersededBy: report.ids[0],
    });
    await expect(credence.remember([{ title: 'x', text: 'y', supersedes: 'mem-nope' }])).rejects.toThrow(/mem-nope/);
    await credence.close();
  });

  it('--supersedes an already replaced memory replaces the current end of its chain and says so', async () => {
    const { credence, clock, store } = await engine();
    const life = async (id: string | undefined) => (await store.getMemory('life', id as string))?.life;
    const [netlify] = (await credence.remember([{ title: 'Docs host', text: 'Docs are hosted on Netlify.' }])).ids;
    clock.now += 30 * DAY;
    const [vercel] = (await credence.remember([{ title: 'Docs host', text: 'We moved the docs to Vercel.' }])).ids;
    const before = await life(netlify);
    expect(before).toMatchObject({ status: 'superseded', supersededBy: vercel, validTo: APRIL + 30 * DAY });
    // Dated before Vercel began: it would rewrite when Netlify ended. Refused, nothing changed.
    const early = { title: 'Docs site', text: 'Docs are served from GitHub Pages.', supersedes: netlify as string };
    await expect(credence.remember([{ ...early, validFrom: '2026-04-15T00:00:00Z' }])).rejects.toThrow(
      new RegExp(`${netlify} was already superseded by ${vercel}`),
    );
    expect(await store.listMemories('life')).toHaveLength(2);
    clock.now += 30 * DAY;
    const report = await credence.remember([early]);
    const [pages] = report.ids;
    expect(report.superseded).toEqual([
      { id: vercel, by: pages, why: expect.stringContaining(`${netlify} named, already superseded by ${vercel}`) },
    ]);
    expect(await life(netlify)).toEqual(before);
    expect(await life(vercel)).toMatchObject({ status: 'superseded', supersededBy: pages, validTo: APRIL + 60 * DAY });
    expect(await life(pages)).toMatchObject({ supersedes: [vercel] });
    const results = await credence.recall('docs hosted', { track: false });
    expect(Object.fromEntries(results.map((r) => [r.id, r.status]))).toEqual({
      [netlify as string]: 'superseded',
      [vercel as string]: 'superseded',
      [pages as string]: 'current',
    });
    await credence.close();
  });

  // Review E, item 13: the refusal stopped at the first replacement that began too late and called it "the current
  // one", though another had replaced it since; the time it advised was then refused again.
  it('--supersedes dated before a chain of replacements: names its current end and a time that works', async () => {
    const { credence, clock } = await engine();
    clock.now = Date.parse('2026-07-01T00:00:00Z');
    const host = { title: 'Docs hosting', category: 'decision' };
    const say = async (text: string, validFrom: string) =>
      (await credence.remember([{ ...host, text, validFrom }])).ids[0] as string;
    const netlify = await say('The docs are hosted on Netlify.', '2026-01-01');
    const vercel = await say('We moved the docs to Vercel.', '2026-04-01');
    const pages = await say('We moved the docs to GitHub Pages.', '2026-05-01');
    const cloudflare = { ...host, text: 'The docs moved to Cloudflare Pages.', supersedes: netlify };
    const message = await credence
      .remember([{ ...cloudflare, validFrom: '2026-03-01' }])
      .then(() => 'accepted')
      .catch((e: Error) => e.message);
    expect(message).toContain(
      `${netlify} was already superseded by ${vercel} from 2026-04-01T00:00:00.000Z, then ${pages} from ` +
        `2026-05-01T00:00:00.000Z (${pages}, the current one)`,
    );
    expect(message).toContain(`to replace ${pages}, give a time from 2026-05-01T00:00:00.000Z on`);
    const report = await credence.remember([{ ...cloudflare, validFrom: '2026-05-01T00:00:00.000Z' }]);
    expect(report.superseded.map((s) => s.id)).toEqual([pages]);
    await credence.close();
  });

  it('a conflict settled by --supersedes: the other side is current; forgetting it brings it back', async () => {
    const { credence, clock, store } = await engine();
    const life = async (id: string | undefined) => (await store.getMemory('life', id as string))?.life;
    const deploy = decisionNote('Deploy target');
    const [frankfurt] = (await credence.remember([deploy('Production deploys go to the Frankfurt region on AWS.')]))
      .ids;
    clock.now += DAY;
    const [dublin] = (await credence.remember([deploy('Production deploys go to the Dublin region on AWS.')])).ids;
    expect(await life(dublin)).toMatchObject({ status: 'conflict', conflictsWith: [frankfurt] });
    clock.now += 3 * DAY;
    const report = await credence.remember([
      deploy('Confirmed: production deploys go to the Dublin region on AWS (eu-west-1).', frankfurt),
    ]);
    const [confirmed] = report.ids;
    expect(report.superseded[0]?.why).toContain(`settles its conflict with ${dublin}`);
    expect(await life(dublin)).toBeUndefined();
    expect(await life(frankfurt)).toMatchObject({ status: 'superseded', supersededBy: confirmed });
    const statuses = async (c: typeof credence) =>
      Object.fromEntries((await c.recall('production deploys region', { track: false })).map((r) => [r.id, r.status]));
    expect(await statuses(credence)).toEqual({
      [dublin as string]: 'current',
      [confirmed as string]: 'current',
      [frankfurt as string]: 'superseded',
    });
    // A dump restored elsewhere keeps the links (forget there reads them).
    const copy = await restoredCopy(store, () => clock.now);
    for (const c of [credence, copy]) {
      await c.forget(confirmed as string);
      expect(await statuses(c)).toEqual({ [dublin as string]: 'conflict', [frankfurt as string]: 'conflict' });
    }
    expect(await life(frankfurt)).toMatchObject({ status: 'conflict', conflictsWith: [dublin] });
    expect(await life(dublin)).toMatchObject({ status: 'conflict', conflictsWith: [frankfurt] });
    await copy.close();
    await credence.close();
  });

  it('both sides of a conflict superseded, the new memory forgotten: in conflict again on both sides', async () => {
    // Review E, item 5: the second side revived wrote its snapshot over the link the first one's revival gave it.
    const { credence, clock, store } = await engine();
    const life = async (id: string | undefined) => (await store.getMemory('life', id as string))?.life;
    const deploy = (text: string) => ({ title: 'Deploy target', category: 'decision', text });
    const [frankfurt] = (await credence.remember([deploy('Production deploys go to the Frankfurt region on AWS.')]))
      .ids;
    clock.now += DAY;
    const [dublin] = (await credence.remember([deploy('Production deploys go to the Dublin region on AWS.')])).ids;
    clock.now += 3 * DAY;
    const report = await credence.remember([deploy('We moved production deploys to the Paris region on AWS.')]);
    const [paris] = report.ids;
    expect(report.superseded.map((s) => s.id).sort()).toEqual([frankfurt, dublin].sort());
    await credence.forget(paris as string);
    const f = await life(frankfurt);
    const d = await life(dublin);
    expect([f?.status, f?.conflictsWith, d?.status, d?.conflictsWith]).toEqual([
      'conflict',
      [dublin],
      'conflict',
      [frankfurt],
    ]);
    await credence.close();
  });

  it('refuses --supersedes of a memory that began after the new one (walk 16, item 7): nothing changes', async () => {
    const { credence, store } = await engine();
    const deploy = decisionNote('Deploy');
    const [ansible] = (await credence.remember([{ ...deploy('We deploy with Ansible.'), validFrom: '2025-01-01' }]))
      .ids;
    const argo = { ...deploy('Deploys are done by ArgoCD.', ansible), validFrom: '2025-05-01' };
    const [argocd] = (await credence.remember([argo])).ids;
    const before = await store.getMemory('life', argocd as string);
    const pulumi = { ...deploy('Deploys use Pulumi.', argocd), validFrom: '2025-02-01' };
    await expect(credence.remember([pulumi])).rejects.toThrow(
      new RegExp(`supersedes: ${argocd} became true on 2025-05-01.*a memory cannot replace one that began after it`),
    );
    expect(await store.getMemory('life', argocd as string)).toEqual(before);
    expect((await store.listMemories('life')).map((m) => m.text)).not.toContain('Deploys use Pulumi.');
    await credence.close();
  });

  it('the middle of a chain forgotten: the first stays superseded, by the last (walk 16, item 4)', async () => {
    const { credence, clock, store } = await engine();
    const life = async (id: string | undefined) => (await store.getMemory('life', id as string))?.life;
    const deploy = decisionNote('Deploy');
    const [ansible] = (await credence.remember([deploy('We deploy with Ansible.')])).ids;
    clock.now += 30 * DAY;
    const [terraform] = (await credence.remember([deploy('Deploys now go through Terraform.', ansible)])).ids;
    clock.now += 30 * DAY;
    const [argo] = (await credence.remember([deploy('Deploys are done by ArgoCD.', terraform)])).ids;
    const argoRecord = await store.getMemory('life', argo as string);
    const argoFrom = argoRecord?.life?.validFrom ?? argoRecord?.createdAt;
    await credence.forget(terraform as string);
    expect(await life(ansible)).toMatchObject({ status: 'superseded', supersededBy: argo, validTo: argoFrom });
    expect((await life(argo))?.supersedes).toEqual([ansible]);
    // Its why names what supersedes it now, not the forgotten memory (review F, 11).
    expect((await life(ansible))?.why).toBe(`${argo} supersedes it; a memory between them was forgotten`);
    const found = await credence.recall('how do we deploy', { track: false });
    const current = found.filter((r) => r.status === 'current').map((r) => r.id);
    expect(current).toEqual([argo]);
    await credence.close();
  });

  it("a replacing note given no category or tags keeps the replaced one's and says so; given ones win", async () => {
    const { credence, store } = await engine();
    const title = 'JWT token refresh flow';
    const [jwt] = (
      await credence.remember([
        { title, category: 'decision', tags: ['auth', 'jwt'], text: 'Access tokens refresh in the auth service' },
      ])
    ).ids;
    const moved = await credence.remember([{ title, text: 'We moved token refresh to the API gateway' }]);
    expect(moved.superseded).toEqual([
      { id: jwt, by: moved.ids[0], why: expect.stringContaining(`kept DECISION and tags auth, jwt from ${jwt}`) },
    ]);
    expect(await store.getMemory('life', moved.ids[0] as string)).toMatchObject({
      category: 'decision',
      tags: ['auth', 'jwt'],
    });
    const given = await credence.remember([
      { title, category: 'runbook', tags: ['gateway'], text: 'We moved token refresh to the edge workers' },
    ]);
    expect(given.superseded[0]?.why).not.toMatch(/kept/);
    expect(await store.getMemory('life', given.ids[0] as string)).toMatchObject({
      category: 'runbook',
      tags: ['gateway'],
    });
    await credence.close();
  });

  it('the same title saying otherwise without a cue: both come back marked conflict, one label lower', async () => {
    const { credence, clock } = await engine();
    await credence.remember([{ title: 'Main store', text: 'We use Postgres for the main store' }]);
    const before = (await credence.recall('postgres main store', { track: false, labels: { mode: 'seed' } }))[0];
    clock.now += DAY;
    const report = await credence.remember([{ title: 'Main store', text: 'We use MySQL for the main store' }]);
    expect(report.conflicts).toHaveLength(1);
    const results = await credence.recall('postgres main store', { track: false, labels: { mode: 'seed' } });
    expect(results.map((r) => r.status)).toEqual(['conflict', 'conflict']);
    expect(before?.label).toBe('high');
    expect(results[0]?.label).toBe('medium');
    expect(results[0]?.life?.why).toContain('no change cue');
    await credence.close();
  });

  it('forgetting the newer memory makes the one it superseded current again', async () => {
    const { credence, clock, store } = await engine();
    const [pg] = (await credence.remember([{ title: 'Main store', text: 'We use Postgres for the main store' }])).ids;
    clock.now += DAY;
    const [my] = (await credence.remember([{ title: 'Main store', text: 'We moved the main store to MySQL' }])).ids;
    await credence.forget(my as string);
    expect((await store.getMemory('life', pg as string))?.life).toBeUndefined();
    expect((await credence.recall('main store', { track: false })).map((r) => r.status)).toEqual(['current']);
    await credence.close();
  });

  it('a dump restored into a new store keeps the supersession: recall answers alike', async () => {
    const { credence, clock, store } = await engine();
    await credence.remember([{ title: 'Main store', text: 'We use Postgres for the main store' }]);
    clock.now += DAY;
    await credence.remember([{ title: 'Main store', text: 'We moved the main store to MySQL' }]);
    const copy = await restoredCopy(store, () => clock.now);
    const strip = (rs: { id: string; status: string; label: string }[]) => rs.map((r) => [r.id, r.status, r.label]);
    expect(strip(await copy.recall('main store', { track: false }))).toEqual(
      strip(await credence.recall('main store', { track: false })),
    );
    await copy.close();
    await credence.close();
  });
});

describe('remember: a turn that changes a fact without a word in common (issue 23)', () => {
  it("the speaker's older turn of the slot is superseded; the others' turns, other facts are not", async () => {
    const { credence, clock, store } = await engine();
    const say = (speaker: string, text: string, index: number) => ({
      speaker,
      session: `s${index}`,
      index: 0,
      at: clock.now,
      text,
    });
    const first = await credence.remember([
      say('Ana', 'I live in Lisbon these days.', 1),
      say('Ana', 'My editor is Zed, with far too many plugins.', 2),
      say('Ben', 'I live in Porto, near the river.', 3),
    ]);
    clock.now += 30 * DAY;
    const moved = await credence.remember([say('Ana', 'Big news: I moved to Denver last week.', 4)]);
    expect(moved.superseded).toEqual([
      { id: first.ids[0], by: moved.ids[0], why: expect.stringContaining('the same slot (home)') },
    ]);
    const rows = new Map((await store.listMemories('life')).map((m) => [m.id, m.life?.status]));
    expect([rows.get(first.ids[1] as string), rows.get(first.ids[2] as string)]).toEqual([undefined, undefined]);
    await credence.close();
  });
});

describe('remember: the same fact said again by a turn (issue 23)', () => {
  it('"I started at Globex" after "now I work at Globex" supersedes nothing; Acme answers "before"', async () => {
    const { credence, clock, store } = await engine();
    const say = (text: string, session: string) => ({ speaker: 'Lena', session, index: 0, at: clock.now, text });
    const first = await credence.remember([say('Big news: I left Acme and now I work at Globex', 's1')]);
    clock.now += 30 * DAY;
    const again = await credence.remember([say('I started at Globex on June 1st.', 's2')]);
    expect(again.superseded).toEqual([]);
    expect((await store.getMemory('life', first.ids[0] as string))?.life?.status).toBeUndefined();
    const before = await credence.recall('Where did Lena work before?', { track: false });
    expect(before.map((r) => r.id)).toContain(first.ids[0]);
    expect(before.every((r) => r.status !== 'superseded')).toBe(true);
    await credence.close();
  });
});

describe('remember: a conversation as memory (issue 23)', () => {
  it('turns keep speaker, session and time; recall returns a turn with its neighbours and its date', async () => {
    const { credence, store } = await engine();
    await credence.remember([
      { speaker: 'Caroline', session: 's1', at: '2023-05-07T13:56:00Z', text: 'I went to the support group.' },
      { speaker: 'Melanie', session: 's1', at: '2023-05-07T13:57:00Z', text: 'How was it?' },
      { speaker: 'Caroline', session: 's1', at: '2023-05-07T13:58:00Z', text: 'It was powerful, people shared.' },
    ]);
    const rows = await store.listMemories('life');
    expect(rows.map((r) => [r.category, r.title, r.life?.turn?.index])).toEqual([
      ['turn', 'Caroline', 0],
      ['turn', 'Melanie', 1],
      ['turn', 'Caroline', 2],
    ]);
    const [hit] = await credence.recall('When did Caroline go to the support group', { track: false });
    expect(hit?.times.validFrom).toBe('2023-05-07T13:56:00.000Z');
    expect(hit?.turn).toMatchObject({ speaker: 'Caroline', session: 's1', index: 0 });
    expect(hit?.turn?.neighbours.map((n) => [n.speaker, n.text])).toEqual([['Melanie', 'How was it?']]);
    // The same speaker saying the same words again, in a later session: one memory, seen twice.
    const again = await credence.remember([
      { speaker: 'Caroline', session: 's2', at: '2023-06-01T10:00:00Z', text: 'I went to the support group!' },
    ]);
    expect(again).toMatchObject({ ids: [rows[0]?.id], merged: 1 });
    expect((await store.getMemory('life', rows[0]?.id as string))?.life).toMatchObject({
      seen: 2,
      lastSeen: Date.parse('2023-06-01T10:00:00Z'),
    });
    // Chicago, Boston, then Chicago again: the last is a turn of its own, current, not merged into the first.
    const said = (session: string, at: string, text: string) => ({ speaker: 'Dana', session, at, text });
    const [chicago] = (await credence.remember([said('d1', '2023-01-01', 'I live in Chicago near the lake.')])).ids;
    await credence.remember([said('d2', '2023-02-01', 'I moved to Boston, I live near the harbour now.')]);
    const back = await credence.remember([said('d3', '2023-03-01', 'I live in Chicago near the lake.')]);
    expect(back.merged).toBe(0);
    expect((await store.getMemory('life', chicago as string))?.life?.status).toBe('superseded');
    expect((await store.getMemory('life', back.ids[0] as string))?.life?.status).toBeUndefined();
    await expect(credence.remember([{ speaker: 'Caroline', text: 'no session' }])).rejects.toThrow(/session/);
    await expect(credence.remember([{ speaker: 'C', session: 's', at: 'last May', text: 'x' }])).rejects.toThrow(
      /ISO date/,
    );
    await credence.close();
  });
});

describe('recall on a conversation: the speaker asked about, what replaced, the turn answered (issue 23)', () => {
  const say = (speaker: string, session: string, index: number, at: number, text: string) => ({
    speaker,
    session,
    index,
    at,
    text,
  });

  it('"Where does Ana live now?": the move that replaced the matched turn first; others\' turns below', async () => {
    const { credence, clock } = await engine();
    const start = clock.now;
    await credence.remember([
      say('Ana', 's1', 0, start, 'I live in Lisbon these days.'),
      say('Ben', 's1', 1, start + 60_000, 'My sister lives in Lisbon, I visit her every summer.'),
    ]);
    clock.now += 30 * DAY;
    await credence.remember([say('Ana', 's2', 0, clock.now, 'Big news: I moved to Denver last week.')]);
    clock.now += 7 * DAY;
    const results = await credence.recall('Where does Ana live now?', { track: false, limit: 5 });
    const [first] = results;
    expect(first?.snippet).toContain('Denver');
    expect(first?.parts.via).toMatchObject({ how: 'replaces' });
    const lisbon = results.find((r) => r.snippet.includes('I live in Lisbon'));
    expect(lisbon?.status).toBe('superseded');
    expect(first?.parts.fused).toBeCloseTo(lisbon?.parts.fused ?? Number.NaN, 12);
    const ben = results.find((r) => r.turn?.speaker === 'Ben');
    expect(ben?.parts.speakerFactor).toBe(0.5);
    for (const r of results)
      expect(r.score).toBeCloseTo(
        r.parts.fused * r.parts.confidenceFactor * r.parts.recencyFactor * r.parts.lifeFactor * r.parts.speakerFactor,
        12,
      );
    await credence.close();
  });

  it('"What did Ana do on weekends before climbing?": the turn the change replaced, with its match', async () => {
    const { credence, clock } = await engine();
    await credence.remember([say('Ana', 's1', 0, clock.now, 'Saturdays are for tennis, without exception.')]);
    clock.now += 30 * DAY;
    await credence.remember([say('Ana', 's2', 0, clock.now, 'I quit tennis; now my weekends are all climbing.')]);
    const results = await credence.recall('What did Ana do on weekends before climbing?', { track: false, limit: 3 });
    const tennis = results.find((r) => r.snippet.startsWith('Saturdays'));
    expect(tennis?.parts.via).toMatchObject({ how: 'replacedBy' });
    expect(tennis?.parts.fused).toBeCloseTo(results.find((r) => r.snippet.startsWith('I quit'))?.parts.fused ?? 0, 12);
    // About now, the link runs the other way.
    const now = await credence.recall('What does Ana do on weekends now?', { track: false, limit: 3 });
    expect(now.find((r) => r.snippet.startsWith('Saturdays'))?.parts.via).toBeUndefined();
    await credence.close();
  });

  it('a turn addressed to the speaker asked about brings what they had just said', async () => {
    const { credence, clock } = await engine();
    await credence.remember([
      say('Aiko', 's1', 0, clock.now, 'I finally relocated from Osaka to Dublin.'),
      say('Kwame', 's1', 1, clock.now + 60_000, 'Aiko, how do you like living in Dublin?'),
      say('Kwame', 's1', 2, clock.now + 120_000, 'Morning everyone!'),
    ]);
    const results = await credence.recall('Which city is Aiko living in?', { track: false, limit: 3 });
    const said = results.find((r) => r.turn?.speaker === 'Aiko');
    expect(said?.parts.via).toMatchObject({ how: 'answeredBy' });
    expect(results[0]?.turn?.speaker).toBe('Aiko');
    // Without the speaker in the question nothing is brought.
    const plain = await credence.recall('Which city is living in Dublin?', { track: false, limit: 3 });
    expect(plain.every((r) => r.parts.via === undefined)).toBe(true);
    await credence.close();
  });
});
