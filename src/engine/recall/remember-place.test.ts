import { describe, expect, it } from 'vitest';
import { engineStore, openCredence } from '../engine.js';
import { openSqliteStore } from '../../store/sqlite/index.js';

const NOV = Date.parse('2026-11-01T10:00:00Z');

async function engine() {
  // After every turn these tests date (a turn more than a day after the clock is refused): moved where one needs.
  const clock = { now: Date.parse('2026-11-25T10:00:00Z') };
  const credence = await openCredence({
    store: openSqliteStore({ path: ':memory:' }),
    scope: 'place',
    now: () => clock.now,
  });
  return { credence, clock, store: engineStore(credence) };
}

const turn = (speaker: string, at: string, text: string, index = 0) => ({ speaker, session: 's1', index, at, text });

describe("remember: a turn's place in its session", () => {
  it('a later call reusing a session and a place keeps the turn there and adds the new one after it', async () => {
    const { credence, store } = await engine();
    const first = await credence.remember([turn('alice', '2026-11-01T10:00:00Z', 'Our deploy target is eu-west-1.')]);
    const second = await credence.remember([turn('bob', '2026-11-20T10:00:00Z', 'I like long walks on the beach.')]);
    expect(second.inserted).toBe(1);
    expect(second.ids).not.toEqual(first.ids);
    const rows = await store.listMemories('place');
    expect(rows.map((m) => [m.life?.turn?.speaker, m.life?.turn?.index, m.text]).sort()).toEqual([
      ['alice', 0, 'Our deploy target is eu-west-1.'],
      ['bob', 1, 'I like long walks on the beach.'],
    ]);
    const hits = await credence.recall('deploy target', { track: false });
    expect(hits.map((h) => h.id)).toContain(first.ids[0]);
    await credence.close();
  });

  it('the same turns sent again stay one memory each, wherever the session put them', async () => {
    const { credence, store } = await engine();
    const a = [turn('alice', '2026-11-01T10:00:00Z', 'We ship on Fridays.')];
    const b = [
      turn('bob', '2026-11-02T10:00:00Z', 'Noted, the release train leaves at noon.', 0),
      turn('alice', '2026-11-02T10:01:00Z', 'Thanks, the changelog is in docs/releases.', 1),
    ];
    await credence.remember(a);
    const placedB = await credence.remember(b);
    const againB = await credence.remember(b);
    const againA = await credence.remember(a);
    expect(againB.ids).toEqual(placedB.ids);
    expect([againB.inserted, againB.merged, againA.inserted, againA.merged]).toEqual([0, 2, 0, 1]);
    const rows = await store.listMemories('place');
    expect(rows.map((m) => m.life?.turn?.index).sort()).toEqual([0, 1, 2]);
    await credence.close();
  });

  it('"I live in Lisbon." then, in a second call on the same session, "Big news: I moved to Denver."', async () => {
    const { credence, clock } = await engine();
    const lisbon = await credence.remember([turn('alice', '2026-11-01T10:00:00Z', 'I live in Lisbon.')]);
    clock.now = Date.parse('2026-11-10T10:00:00Z');
    const denver = await credence.remember([turn('alice', '2026-11-10T10:00:00Z', 'Big news: I moved to Denver.')]);
    expect(denver.superseded.map((s) => [s.id, s.by])).toEqual([[lisbon.ids[0], denver.ids[0]]]);
    const [top] = await credence.recall('where does alice live?', { track: false });
    expect(top?.id).toBe(denver.ids[0]);
    await credence.close();
  });

  const rowsOf = async (store: Awaited<ReturnType<typeof engine>>['store']) =>
    (await store.listMemories('place'))
      .map((m) => [m.life?.turn?.index, m.life?.turn?.speaker, m.text] as const)
      .sort((a, b) => (a[0] ?? 0) - (b[0] ?? 0));
  const line = (speaker: string, text: string) => ({ speaker, session: 's1', text });

  it('a second file continuing a session without places goes after it, a repeated line of it kept', async () => {
    const { credence, store } = await engine();
    const f1 = [line('alice', 'Morning, what is on the list?'), line('bob', 'The release notes.')];
    const f2 = [
      line('alice', 'Sounds good.'),
      line('bob', 'Then we ship on Friday.'),
      line('alice', 'Sounds good.'),
      line('bob', 'And the changelog goes in docs.'),
    ];
    await credence.remember(f1);
    const second = await credence.remember(f2);
    expect(second.inserted).toBe(4);
    expect((await rowsOf(store)).map(([index, , text]) => `${index} ${text}`)).toEqual([
      '0 Morning, what is on the list?',
      '1 The release notes.',
      '2 Sounds good.',
      '3 Then we ship on Friday.',
      '4 Sounds good.',
      '5 And the changelog goes in docs.',
    ]);
    // The first file sent again is a re-send: merged where it is, nothing added.
    const again = await credence.remember(f1);
    expect([again.inserted, again.merged, (await rowsOf(store)).length]).toEqual([0, 2, 6]);
    await credence.close();
  });

  it('the second file sent again merges where the session put it; a longer copy adds only its new lines', async () => {
    const { credence, store, clock } = await engine();
    clock.now = NOV;
    const f1 = [line('alice', 'Our deploy target is eu-west-1.'), line('bob', 'Nice, close to us.')];
    const f2 = [line('bob', 'I live in Lisbon.'), line('alice', 'Lovely city.'), line('bob', 'Sounds good.')];
    await credence.remember(f1);
    const placed = await credence.remember(f2);
    clock.now = Date.parse('2026-11-05T10:00:00Z');
    const again = await credence.remember(f2);
    expect(again.ids).toEqual(placed.ids);
    expect([again.inserted, again.merged, (await rowsOf(store)).length]).toEqual([0, 3, 5]);
    // A turn that gave no time keeps the time it was first remembered, not the re-send's.
    const [lisbon] = await credence.recall('who lives in Lisbon?', { track: false });
    expect([lisbon?.id, lisbon?.times.at]).toEqual([placed.ids[0], new Date(NOV).toISOString()]);
    const longer = await credence.remember([...f2, line('alice', 'Sounds good.'), line('bob', 'See you Monday.')]);
    expect([longer.inserted, longer.merged]).toEqual([2, 3]);
    expect((await rowsOf(store)).map(([index, , text]) => `${index} ${text}`).slice(2)).toEqual([
      '2 I live in Lisbon.',
      '3 Lovely city.',
      '4 Sounds good.',
      '5 Sounds good.',
      '6 See you Monday.',
    ]);
    // Two lines of it in another order are not a copy of it: they go after the session.
    await credence.remember([line('alice', 'Lovely city.'), line('bob', 'I live in Lisbon.')]);
    expect((await rowsOf(store)).map(([index, , text]) => `${index} ${text}`)).toContain('7 Lovely city.');
    await credence.close();
  });

  it('a part sent again is found by its places, whatever its words and however many sessions say them', async () => {
    const { credence, store } = await engine();
    // 70 other sessions say the same lines first: a search capped before the session was read would miss the copy.
    for (let n = 0; n < 70; n += 1)
      await credence.remember([
        { speaker: 'bob', session: `other-${n}`, text: 'I live in Lisbon.' },
        { speaker: 'alice', session: `other-${n}`, text: 'Lovely city.' },
      ]);
    const f1 = [line('alice', 'Our deploy target is eu-west-1.'), line('bob', 'Nice, close to us.')];
    const lines = [line('bob', 'I live in Lisbon.'), line('alice', 'Lovely city.'), line('bob', 'Sounds good.')];
    const short = [line('alice', 'Yes, it is.'), line('bob', 'Ok.'), line('alice', 'Yes.')];
    await credence.remember(f1);
    for (const part of [lines, short]) {
      const placed = await credence.remember(part);
      const again = await credence.remember(part);
      expect([again.ids, again.inserted]).toEqual([placed.ids, 0]);
    }
    const s1 = (await store.listMemories('place')).filter((m) => m.life?.turn?.session === 's1');
    expect(s1.map((m) => `${m.life?.turn?.index} ${m.text}`).sort()).toEqual([
      '0 Our deploy target is eu-west-1.',
      '1 Nice, close to us.',
      // bob's "I live in Lisbon." merged into his same words of another session (the memory rule): place 2 is a hole.
      '3 Lovely city.',
      '4 Sounds good.',
      '5 Yes, it is.',
      '6 Ok.',
      '7 Yes.',
    ]);
    await credence.close();
  });

  it('a copy whose other places lie beyond the places read is checked there: no stored turn is replaced', async () => {
    const { credence, store } = await engine();
    const at = (speaker: string, text: string, index: number) => ({ ...line(speaker, text), index });
    await credence.remember([at('alice', 'We start at zero.', 0)]);
    await credence.remember([at('carol', 'Carol said this at place 10000.', 10_000)]);
    await credence.remember([at('bob', 'Deploy on Friday.', 30_000), line('alice', 'Agreed, Friday it is.')]);
    await credence.remember([
      at('dave', 'A new line from dave.', 0),
      at('bob', 'Deploy on Friday.', 20_000),
      line('alice', 'Agreed, Friday it is.'),
    ]);
    const said = (await rowsOf(store)).map(([index, speaker]) => `${index} ${speaker}`);
    expect(said).toEqual(expect.arrayContaining(['0 alice', '10000 carol', '30000 bob', '30001 alice']));
    expect(said.some((s) => s.endsWith(' dave'))).toBe(true);
    await credence.close();
  });

  it('a long file is checked in every part it names, and repeated short lines do not hide a copy', async () => {
    const { credence, store } = await engine();
    const at = (speaker: string, text: string, index: number) => ({ ...line(speaker, text), index });
    await credence.remember([at('xavier', 'Opening remark of the session.', 0)]);
    await credence.remember([
      at('alice', 'We ship on Friday after the freeze.', 10),
      line('bob', 'I tag it on Thursday.'),
    ]);
    await credence.remember([at('carol', 'Carol said this at place 560.', 560)]);
    // 600 lines whose first two are stored at 10 and 11: the copy would put line 550 on carol's place.
    const file = [at('alice', 'We ship on Friday after the freeze.', 0), line('bob', 'I tag it on Thursday.')];
    for (let k = 2; k < 600; k += 1) file.push(line(k % 2 ? 'bob' : 'alice', `Fresh line ${k} about item ${k * 7}.`));
    await credence.remember(file);
    expect((await rowsOf(store)).map(([index, speaker]) => `${index} ${speaker}`)).toContain('560 carol');

    // Seventeen "ok" exchanges, then the session's last two lines sent again with three more "ok"s.
    const { credence: c2, store: s2 } = await engine();
    const ok = [line('bob', 'ok'), line('alice', 'ok'), line('bob', 'ok')];
    for (let n = 0; n < 17; n += 1) await c2.remember(ok);
    await c2.remember([line('alice', 'Deploy on Friday.'), line('bob', 'Sure.')]);
    const again = await c2.remember([line('alice', 'Deploy on Friday.'), line('bob', 'Sure.'), ...ok]);
    expect([again.inserted, again.merged]).toEqual([3, 2]);
    expect((await rowsOf(s2)).filter(([, , text]) => text === 'Sure.')).toHaveLength(1);
    await credence.close();
    await c2.close();
  });

  it('a copy is two or more stored turns in order, every other place it names empty, none below 0', async () => {
    const { credence, store } = await engine();
    const tail = [line('alice', 'Then we ship the release on Friday after the freeze.'), line('bob', 'Agreed.')];
    await credence.remember(tail);
    // The whole conversation after its end: its start would go below place 0, so it goes after the session.
    await credence.remember([line('bob', 'Morning.'), line('alice', 'What is left for the release?'), ...tail]);
    expect((await rowsOf(store)).every(([index]) => (index ?? -1) >= 0)).toBe(true);
    // One stored line of the file is not a copy of it: the lines go after the session, that one said again.
    const one = await createdWith(credence, [line('bob', 'Agreed.'), line('carol', 'Then we are done here.')]);
    expect(one).toEqual(['6 Agreed.', '7 Then we are done here.']);
    // Two stored lines in order, but the place after them holds another turn: not a copy either.
    await credence.remember([line('dave', 'Morning all, the freeze starts today.'), line('erin', 'Noted.')]);
    await credence.remember([line('frank', 'Who has the release checklist?')]);
    const longer = await createdWith(credence, [
      line('dave', 'Morning all, the freeze starts today.'),
      line('erin', 'Noted.'),
      line('dave', 'And the release is on Friday.'),
    ]);
    expect(longer).toEqual(expect.arrayContaining(['12 Noted.', '13 And the release is on Friday.']));
    await credence.close();
    async function createdWith(c: typeof credence, turns: ReturnType<typeof line>[]): Promise<string[]> {
      const before = new Set((await rowsOf(store)).map(([index]) => index));
      await c.remember(turns);
      return (await rowsOf(store)).filter(([index]) => !before.has(index)).map(([index, , text]) => `${index} ${text}`);
    }
  });

  it("a turn naming a taken place goes after the session's highest place, not after the place it named", async () => {
    const { credence, store } = await engine();
    await credence.remember([turn('alice', '2026-11-01T10:00:00Z', 'first', 0)]);
    await credence.remember([turn('bob', '2026-11-01T11:00:00Z', 'far later', 600)]);
    await credence.remember([turn('carol', '2026-11-02T10:00:00Z', 'new turn after all', 0)]);
    expect((await rowsOf(store)).map(([index, speaker]) => `${index} ${speaker}`)).toEqual([
      '0 alice',
      '600 bob',
      '601 carol',
    ]);
    // A huge place is found by one read, never by walking the places before it.
    await credence.remember([turn('dave', '2026-11-03T10:00:00Z', 'huge one', 10_000_000)]);
    await credence.remember([turn('erin', '2026-11-03T11:00:00Z', 'after the huge one', 10_000_000)]);
    expect((await rowsOf(store)).slice(-2).map(([index]) => index)).toEqual([10_000_000, 10_000_001]);
    await credence.close();
  });

  it('the same speaker and words at another time in a taken place is not a re-send of it', async () => {
    const { credence, store } = await engine();
    await credence.remember([
      turn('alice', '2026-11-01T10:00:00Z', 'Sounds good.', 0),
      turn('bob', '2026-11-01T10:01:00Z', 'Ship it Friday.', 1),
    ]);
    const later = await credence.remember([turn('alice', '2026-11-09T10:00:00Z', 'Sounds good.', 0)]);
    expect([later.inserted, later.merged]).toEqual([1, 0]);
    const rows = await store.listMemories('place');
    const said = rows.map((m) => [m.life?.turn?.index, m.text, new Date(m.life?.validFrom ?? 0).toISOString()]);
    expect(said.sort((a, b) => Number(a[0]) - Number(b[0]))).toEqual([
      [0, 'Sounds good.', '2026-11-01T10:00:00.000Z'],
      [1, 'Ship it Friday.', '2026-11-01T10:01:00.000Z'],
      [2, 'Sounds good.', '2026-11-09T10:00:00.000Z'],
    ]);
    await credence.close();
  });
});
