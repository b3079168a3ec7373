import { describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../store/sqlite/index.js';
import { openCredence } from '../engine.js';

const DAY = 86_400_000;
const START = Date.parse('2025-03-01T18:00:00Z');

/** Lena's and Raj's turns in sessions 40 days apart; Lena's employer asked 120 days on. */
async function ask(later: string[]) {
  let clock = START;
  const cr = await openCredence({ store: openSqliteStore({ path: ':memory:' }), scope: 'c', now: () => clock });
  const session = async (n: number, turns: [string, string][]) => {
    clock = START + n * 40 * DAY;
    const rows = turns.map(([speaker, text], index) => ({
      speaker,
      session: `s${n}`,
      index,
      at: clock + index * 60_000,
      text,
    }));
    return (await cr.remember(rows)).ids;
  };
  const [acme] = await session(0, [
    ['Lena', 'I work at Acme on the data team, mostly pipelines.'],
    ['Raj', 'I work at Globex on the data team, mostly pipelines.'],
  ]);
  const ids: string[] = [];
  for (const [n, text] of later.entries())
    ids.push(
      (
        await session(n + 1, [
          ['Lena', text],
          ['Raj', 'Fair enough.'],
        ])
      )[0] as string,
    );
  clock = START + 120 * DAY;
  const rs = await cr.recall('Which data team does Lena work on?', { limit: 5, track: false });
  await cr.close();
  return { rs, acme: acme as string, ids };
}

describe('newest first: where a value is held (issue 23 review)', () => {
  for (const later of [
    'Started at Globex three weeks ago, first month there and the data team is lovely.',
    "Can't believe I'm at Globex now, first month there and the data team is lovely.",
    'Globex is my employer since March, first month there and the data team is lovely.',
  ])
    it(`the change is placed above the old value: "${later}"`, async () => {
      const { rs, acme, ids } = await ask([later]);
      const order = rs.map((r) => r.id);
      expect(order.indexOf(ids[0] as string)).toBeLessThan(order.indexOf(acme));
    });

  for (const third of [
    'So done with Acme and the data team there.',
    'I stopped working at Acme on the data team for good.',
    'Talked to Acme recruiters today about the data team.',
    'Gave a talk on the Acme data team at the meetup.',
    'I sent my CV to Acme for the data team, long shot.',
  ])
    it(`a later turn leaving or mentioning the old value is not placed first: "${third}"`, async () => {
      const started = 'Started at Globex in March, first month there and the data team is lovely.';
      const { rs, ids } = await ask([started, third]);
      expect(rs.find((r) => r.id === ids[1])?.parts.newerValue).toBeUndefined();
    });
});
