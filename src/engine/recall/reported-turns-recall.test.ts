import { describe, expect, it } from 'vitest';
import { openCredence } from '../engine.js';
import { openSqliteStore } from '../../store/sqlite/index.js';

const DAY = 86_400_000;
const START = Date.parse('2025-03-01T18:00:00Z');

/** Greta says where she works; a session later Lucia tells the group she moved on, in words no change cue holds. */
async function conversation(later: [string, string][] = []) {
  let clock = START;
  const cr = await openCredence({ store: openSqliteStore({ path: ':memory:' }), scope: 'c', now: () => clock });
  const session = async (n: number, turns: [string, string][]) => {
    clock = START + n * 40 * DAY;
    const { ids } = await cr.remember(
      turns.map(([speaker, text], index) => ({ speaker, session: `s${n}`, index, at: clock + index * 60_000, text })),
    );
    return ids;
  };
  const [older] = await session(0, [
    ['Greta', 'Our floor at Parallax got new chairs, my back says thank you.'],
    ['Lucia', 'The bakery on the corner opened again.'],
  ]);
  const [, report] = await session(1, [
    ['Lucia', 'Morning everyone!'],
    ['Lucia', 'Quick gossip: Greta signed with Veritas Freight. Parallax must be gutted.'],
    ['Sofia', 'I watched the match last night.'],
  ]);
  if (later.length > 0) await session(2, later);
  clock = START + 120 * DAY;
  return { cr, older: older as string, report: report as string };
}

describe('recall reads a speaker’s fact told by another as theirs when ordering in time (issue 23)', () => {
  it('the report goes above the speaker’s older turn for a present question, its parts saying why', async () => {
    const { cr, older, report } = await conversation();
    const rs = await cr.recall('Where does Greta work these days?', { limit: 5, track: false });
    const ids = rs.map((r) => r.id);
    expect(ids).toContain(older);
    expect(ids.indexOf(report)).toBeGreaterThanOrEqual(0);
    expect(ids.indexOf(report)).toBeLessThan(ids.indexOf(older));
    const told = rs.find((r) => r.id === report);
    expect(told?.parts.reportedAbout).toMatchObject({ speaker: 'Greta', shared: ['parallax'] });
    expect(told?.parts.reportedAbout?.why).toContain('read as theirs');
    // Weighed as Lucia's still: the ranking is not lifted by the report, only ordered.
    expect(told?.parts.speakerFactor).toBe(0.5);
    // A question about before is not ordered: Greta's own turn stays above.
    const before = await cr.recall('Where did Greta work before?', { limit: 5, track: false });
    const bids = before.map((r) => r.id);
    expect(bids.indexOf(older)).toBeLessThan(bids.indexOf(report) < 0 ? Infinity : bids.indexOf(report));
    await cr.close();
  });

  it('a report is never marked older by the speaker’s own later words', async () => {
    const { cr, report } = await conversation([
      ['Sofia', 'Long weekend coming up, finally.'],
      ['Greta', 'Finally left Parallax for good, no more commute to Oslo.'],
    ]);
    const rs = await cr.recall('Where does Greta work these days?', { limit: 10, track: false });
    const told = rs.find((r) => r.id === report);
    expect(told?.parts.reportedAbout?.speaker).toBe('Greta');
    expect(told?.status).toBe('current');
    expect(told?.parts.newerTurn).toBeUndefined();
    await cr.close();
  });
});
