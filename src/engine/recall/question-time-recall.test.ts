import { describe, expect, it } from 'vitest';
import { openCredence } from '../engine.js';
import { openSqliteStore } from '../../store/sqlite/index.js';

const NOW = Date.parse('2026-06-01T00:00:00Z');

/** Three notes on the same subject written at three times, through a movable clock. */
async function movedStore() {
  let clock = Date.parse('2025-01-10T00:00:00Z');
  const cr = await openCredence({ store: openSqliteStore({ path: ':memory:' }), scope: 'q', now: () => clock });
  const say = async (id: string, at: string, text: string) => {
    clock = Date.parse(at);
    await cr.remember([{ id, category: 'note', title: 'Maya home city', text }]);
  };
  await say('lisbon', '2025-01-10T00:00:00Z', 'Maya lives in Lisbon, close to the river.');
  await say('denver', '2025-09-20T00:00:00Z', 'Maya moved to Denver and lives there.');
  await say('osaka', '2026-05-20T00:00:00Z', 'Maya lives in Osaka after moving again.');
  clock = NOW;
  return cr;
}

describe('recall reads the time a question names (issue 23, item 3)', () => {
  it('a period: what was written by its end comes first, what came after it is demoted and says why', async () => {
    const cr = await movedStore();
    const results = await cr.recall('Where did Maya live in March 2025?', { limit: 3, track: false });
    expect(results[0]?.id).toBe('lisbon');
    const later = results.find((r) => r.id === 'osaka');
    expect(later?.parts.recencyBasis).toBe('written after March 2025');
    expect(later?.parts.recencyFactor).toBeLessThan(results[0]?.parts.recencyFactor ?? 0);
    // Without reading the question's time, the newest note wins as before.
    const plain = await cr.recall('Where did Maya live in March 2025?', {
      limit: 3,
      track: false,
      questionTime: false,
    });
    expect(plain[0]?.id).toBe('osaka');
    expect(plain[0]?.parts.recencyBasis).toBeUndefined();
    await cr.close();
  });

  it('the present: the newest first by a wider margin; the past or a "when": recency does not count', async () => {
    const cr = await movedStore();
    const now = await cr.recall('Where does Maya live now?', { limit: 3, track: false });
    const plain = await cr.recall('Where does Maya live?', { limit: 3, track: false });
    expect(now[0]?.id).toBe('osaka');
    const spread = (rs: typeof now) => (rs[0]?.parts.recencyFactor ?? 0) - (rs.at(-1)?.parts.recencyFactor ?? 0);
    expect(spread(now)).toBeGreaterThan(spread(plain));
    for (const q of ['Where did Maya live before Osaka?', 'When did Maya move to Denver?']) {
      const rs = await cr.recall(q, { limit: 3, track: false });
      expect(rs.every((r) => r.parts.recencyFactor === 1)).toBe(true);
      expect(rs[0]?.parts.ageDays).toBeGreaterThan(0);
    }
    await cr.close();
  });

  it('a question with no time ranks exactly as before', async () => {
    const cr = await movedStore();
    const a = await cr.recall('Maya city', { limit: 3, track: false });
    const b = await cr.recall('Maya city', { limit: 3, track: false, questionTime: false });
    expect(a.map((r) => [r.id, r.score])).toEqual(b.map((r) => [r.id, r.score]));
    expect(a.some((r) => r.parts.ageDays > 30)).toBe(true);
    await cr.close();
  });

  it('the past reads superseded memories as they were: as of a period, undemoted for "before"', async () => {
    const cr = await movedStore();
    const now = await cr.recall('Where does Maya live?', { limit: 3, track: false });
    const lisbonNow = now.find((r) => r.id === 'lisbon');
    expect(lisbonNow?.status).toBe('superseded');
    expect(lisbonNow?.parts.lifeFactor).toBe(0.5);
    const inMarch = await cr.recall('Where did Maya live in March 2025?', { limit: 3, track: false });
    expect(inMarch[0]?.id).toBe('lisbon');
    expect(inMarch[0]?.status).toBe('current');
    const before = await cr.recall('Where did Maya live before?', { limit: 3, track: false });
    const lisbon = before.find((r) => r.id === 'lisbon');
    expect(lisbon?.status).toBe('superseded');
    expect(lisbon?.parts.lifeFactor).toBe(1);
    expect(lisbon?.label).not.toBe('low');
    await cr.close();
  });
});

describe('a change said in everyday words, and a question about what it replaced (issue 23)', () => {
  /** Ana's hobbies over three sessions, a month apart, with small talk of Bo's between. */
  async function hobbies() {
    let clock = Date.parse('2025-01-05T00:00:00Z');
    const cr = await openCredence({ store: openSqliteStore({ path: ':memory:' }), scope: 'h', now: () => clock });
    const sessions: [string, [string, string][]][] = [
      [
        '2025-01-05T00:00:00Z',
        [
          ['Ana', 'Rowing is pretty much my whole weekend these days.'],
          ['Bo', 'Nice!'],
        ],
      ],
      [
        '2025-02-05T00:00:00Z',
        [
          ['Ana', 'Got bored of rowing, so weekends are pottery now.'],
          ['Bo', 'Cool.'],
        ],
      ],
      [
        '2025-03-05T00:00:00Z',
        [
          ['Ana', 'Traded pottery for chess, best decision this year.'],
          ['Bo', 'Ha.'],
        ],
      ],
    ];
    const ids: string[] = [];
    for (const [i, [at, turns]] of sessions.entries()) {
      clock = Date.parse(at);
      const r = await cr.remember(turns.map(([speaker, text], index) => ({ speaker, session: `s${i}`, index, text })));
      ids.push(...r.ids);
    }
    clock = NOW;
    return { cr, ids };
  }

  it('"got bored of", "traded … for" replace the older value: the newest holds, the older are superseded', async () => {
    const { cr, ids } = await hobbies();
    const rs = await cr.recall('What does Ana do on weekends now?', { limit: 5, track: false });
    expect(rs[0]?.id).toBe(ids[4]);
    const rowing = await cr.recall('rowing', { limit: 5, track: false });
    expect(rowing.find((r) => r.id === ids[0])?.status).toBe('superseded');
    await cr.close();
  });

  it('"Which hobby did Ana drop for pottery?" asks the past: the older turns keep their rank', async () => {
    const { cr, ids } = await hobbies();
    const rs = await cr.recall('Which hobby did Ana drop for pottery?', { limit: 5, track: false });
    const top = rs.slice(0, 3);
    for (const id of [ids[0], ids[2]]) {
      const r = top.find((x) => x.id === id);
      expect(r?.status).toBe('superseded');
      expect(r?.parts.lifeFactor).toBe(1);
      expect(r?.parts.recencyFactor).toBe(1);
    }
    await cr.close();
  });
});
