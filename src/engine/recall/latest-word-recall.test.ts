import { describe, expect, it } from 'vitest';
import { openCredence } from '../engine.js';
import { openSqliteStore } from '../../store/sqlite/index.js';

const DAY = 86_400_000;
const START = Date.parse('2025-03-01T18:00:00Z');
const WEATHER = ['rain', 'heat', 'wind', 'fog'];

/**
 * Femi changes editor (the later turn replaces the earlier, shares no word with "editor"), then says sixty short
 * things: found by the name alone, they fill the full-text search's candidates before the longer change does.
 */
async function femi(then: [string, string][] = []) {
  let clock = START;
  const cr = await openCredence({ store: openSqliteStore({ path: ':memory:' }), scope: 'c', now: () => clock });
  const turns: [string, string][] = [
    ['Femi', 'Switched to Eclipse last week, Nano was eating all my RAM.'],
    ['Femi', 'Morning everyone!'],
    ['Ana', 'Morning Femi!'],
    ['Femi', 'Talk later, I have a meeting.'],
    ['Femi', 'I finished that mystery novel, the ending was silly.'],
    ['Femi', 'It rained all day here, I barely left the house.'],
    ['Femi', 'Uninstalled Eclipse yesterday, Xcode does it all for me now.'],
    ['Femi', 'My parents are visiting next week.'],
    ...Array.from({ length: 60 }, (_, k): [string, string] => ['Femi', `Ha, day ${k} of the ${WEATHER[k % 4]} here.`]),
    ...then,
  ];
  const ids: string[] = [];
  for (const [i, [speaker, text]] of turns.entries()) {
    clock += DAY;
    ids.push(...((await cr.remember([{ speaker, session: `s${i}`, index: 0, at: clock, text }])).ids as string[]));
  }
  clock += DAY;
  return { cr, older: ids[0] as string, newer: ids[6] as string };
}

describe('a present question naming a speaker: their latest word on what they changed (issue 23)', () => {
  it('brings the turn that replaced another and was not replaced, scored with their best candidate', async () => {
    const { cr, older, newer } = await femi();
    const rs = await cr.recall('Which editor is Femi on nowadays?', { limit: 5, track: false });
    const found = rs.find((r) => r.id === newer);
    expect(found?.parts.latestWord?.anchor).toBe(rs[1]?.id);
    expect(found?.parts.via).toEqual({ id: rs[1]?.id, how: 'sameFact' });
    expect(found?.parts.bm25).toBeNull();
    expect(found?.label).not.toBe('high');
    expect(rs.map((r) => r.id)).not.toContain(older);
    await cr.close();
  });

  it('goes a hair above their best turn found by the name alone: a fact before their small talk', async () => {
    const { cr, newer } = await femi();
    const rs = await cr.recall('Which editor is Femi on nowadays?', { limit: 5, track: false });
    expect(rs[0]?.id).toBe(newer);
    const talk = rs[1];
    expect(talk?.parts.nameOnly).toBe(true);
    expect(rs[0]?.parts.latestWord?.above).toBe(talk?.id);
    expect(rs[0]?.parts.latestWord?.why).toContain(`placed a hair above ${talk?.id}`);
    expect(rs[0]?.score).toBeCloseTo(talk?.score as number, 6);
    await cr.close();
  });

  it('a change naming no slot, when none of their latest words names the slot asked ("took the offer")', async () => {
    const { cr, newer } = await femi([
      ['Femi', 'Another long day at Tangent Labs, the standups never end.'],
      ['Femi', 'Ended up taking the Quillon offer, Tangent Labs is behind me now.'],
      ['Femi', 'Ha, the fog again here.'],
    ]);
    const rs = await cr.recall("Who's Femi's employer these days?", { limit: 5, track: false });
    const offer = rs.find((r) => r.snippet.includes('Quillon'));
    expect(offer?.parts.latestWord).toBeDefined();
    expect(offer?.parts.bm25).toBeNull();
    expect(offer?.status).toBe('current');
    // Of their latest words, the closest in meaning come first; the editor's is one of them, marked as such.
    expect(rs.find((r) => r.id === newer)?.parts.latestWord).toBeDefined();
    expect(rs.some((r) => r.snippet.includes('Tangent Labs, the standups'))).toBe(false);
    await cr.close();
  });

  it('the end of a line of changes, not a turn replaced since', async () => {
    const { cr, newer } = await femi([['Femi', 'Ditched Xcode, moved over to Fleet for everything.']]);
    const rs = await cr.recall('Which editor is Femi on nowadays?', { limit: 10, track: false });
    const latest = rs.filter((r) => r.parts.latestWord !== undefined);
    expect(latest.map((r) => r.text ?? r.snippet)).toEqual(['Ditched Xcode, moved over to Fleet for everything.']);
    expect(latest.map((r) => r.id)).not.toContain(newer);
    await cr.close();
  });

  it('each speaker’s latest word is scored with a turn of that speaker, when the question names two', async () => {
    const { cr } = await femi([
      ['Ana', 'I code everything in Vim.'],
      ['Ana', 'Dropped Vim last week, Emacs does it all for me now.'],
      ['Femi', 'My editor settings are a mess again.'],
    ]);
    const rs = await cr.recall('Which editor is Ana on nowadays, Femi?', { limit: 20, track: false });
    const speakerOf = new Map(rs.map((r) => [r.id, r.title]));
    const latest = rs.filter((r) => r.parts.latestWord !== undefined);
    expect(latest.length).toBeGreaterThan(0);
    for (const r of latest) expect(speakerOf.get(r.parts.latestWord?.anchor as string)).toBe(r.title);
    await cr.close();
  });

  it('not for a question about before', async () => {
    const { cr, newer } = await femi();
    for (const question of ['Which editor was Femi on before?', 'Which editor did Femi use before?']) {
      const rs = await cr.recall(question, { limit: 5, track: false });
      expect(rs.map((r) => r.id)).not.toContain(newer);
      expect(rs.some((r) => r.parts.latestWord !== undefined)).toBe(false);
    }
    await cr.close();
  });
});
