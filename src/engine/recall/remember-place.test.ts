import { describe, expect, it } from 'vitest';
import { engineStore, openCredence } from '../engine.js';
import { openSqliteStore } from '../../store/sqlite/index.js';

const NOV = Date.parse('2026-11-01T10:00:00Z');

async function engine() {
  const clock = { now: NOV };
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
});
