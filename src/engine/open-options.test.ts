import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openCredence } from './engine.js';
import { openSqliteStore } from '../store/sqlite/index.js';

const DAY = 86_400_000;

// Walk 7: the CLI refused a --now more than a day ahead, the library took it, and `evolve` then pruned observations.
describe("a fixed clock ahead of the machine's", () => {
  it('is refused by openCredence (now, CREDENCE_NOW) naming it, and evolve never runs: nothing is pruned', async () => {
    const store = openSqliteStore({ path: ':memory:' });
    const today = await openCredence({ store, scope: 'f', now: Date.now() });
    for (let i = 0; i < 3; i += 1)
      await today.observeNow({ type: 'correction', observation: `use pnpm, not npm (${i})`, evidence: ['said'] });
    const yearAhead = new Date(Date.now() + 365 * DAY);
    const text = yearAhead.toISOString();
    for (const now of [text, yearAhead, yearAhead.getTime()])
      await expect(openCredence({ store, scope: 'f', now })).rejects.toMatchObject({
        code: 'INVALID_INPUT',
        message: expect.stringMatching(/^now \S+ is after this machine's clock \(.+\): Credence does not run ahead/),
      });
    await expect(openCredence({ store, scope: 'f' }, { CREDENCE_NOW: text })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining(`CREDENCE_NOW ${text} is after this machine's clock`),
    });
    expect((await today.status()).counts.observations).toBe(3);
    await today.close();
  });

  it('up to a day ahead (time zones, a clock a little behind) is taken', async () => {
    const at = Date.now() + DAY / 2;
    const credence = await openCredence({ store: openSqliteStore({ path: ':memory:' }), scope: 'f', now: at });
    expect(credence.now()).toBe(at);
    await credence.close();
  });
});

// Walk 7: a config value left empty reached openCredence and opened ~/.credence/credence.db, or the default scope.
describe('a blank db or scope', () => {
  it('is INVALID_INPUT naming the field, and no store is made in the default place', async () => {
    const home = mkdtempSync(join(tmpdir(), 'credence-blank-'));
    const env = { HOME: home };
    for (const db of ['', '  '])
      await expect(openCredence({ db, scope: 's', cwd: home }, env)).rejects.toMatchObject({
        code: 'INVALID_INPUT',
        message: expect.stringMatching(/^db is empty: give the path of a SQLite file/),
      });
    for (const scope of ['', ' \t'])
      await expect(openCredence({ db: ':memory:', scope, cwd: home }, env)).rejects.toMatchObject({
        code: 'INVALID_INPUT',
        message: 'scope is empty: name a scope, or leave scope out for the default',
      });
    expect(existsSync(join(home, '.credence'))).toBe(false);
    rmSync(home, { recursive: true, force: true });
  });
});
