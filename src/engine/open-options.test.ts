import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openCredence } from './engine.js';
import { cliIn } from '../../test/cli.js';
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

  it('a clock function reading ahead is refused at each reading naming now(), and evolve prunes nothing', async () => {
    const store = openSqliteStore({ path: ':memory:' });
    const today = await openCredence({ store, scope: 'f' });
    for (let i = 0; i < 3; i += 1)
      await today.observeNow({ type: 'correction', observation: `use pnpm, not npm (${i})`, evidence: ['said'] });
    let ahead = 0;
    const later = await openCredence({ store, scope: 'f', now: () => Date.now() + ahead });
    expect((await later.status()).counts.observations).toBe(3);
    ahead = 365 * DAY;
    await expect(later.evolve()).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(/^now\(\) \S+ is after this machine's clock \(.+\): Credence does not run ahead/),
    });
    ahead = DAY / 2;
    await later.evolve();
    expect((await today.status()).counts.observations).toBe(3);
    await later.close();
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
    for (const scope of ['', ' \t', '\u200b'])
      await expect(openCredence({ db: ':memory:', scope, cwd: home }, env)).rejects.toMatchObject({
        code: 'INVALID_INPUT',
        message: 'scope is empty: name a scope, or leave scope out for the default',
      });
    expect(existsSync(join(home, '.credence'))).toBe(false);
    rmSync(home, { recursive: true, force: true });
  });

  // Walk 18, item 4: forScope('') gave the global scope, and its writes went there.
  it('given to forScope is INVALID_INPUT too, and nothing is written to global', async () => {
    const credence = await openCredence({ db: ':memory:', scope: 'a', now: '2026-02-02T09:00:00Z' });
    for (const scope of ['', ' ', '\u200b'])
      await expect(credence.forScope(scope)).rejects.toMatchObject({
        code: 'INVALID_INPUT',
        message: expect.stringMatching(/^scope is empty: name a scope, such as 'global'/),
      });
    expect(await credence.counts(null)).toMatchObject({ observations: 0 });
    expect((await credence.forScope('global')).scope).toBe('global');
    await credence.close();
  });
});

// Walk 7: openCredence's messages were written for the CLI (`--now must be…`, `--db takes…`), a clock returning NaN
// gave `RangeError: Invalid time value`, and `openCredence(null)` a TypeError.
describe("openCredence's messages", () => {
  const memory = () => openSqliteStore({ path: ':memory:' });
  const refused = async (open: () => Promise<unknown>, message: string) =>
    expect(open()).rejects.toMatchObject({ code: 'INVALID_INPUT', message });
  const ISO = 'an ISO 8601 date such as 2026-02-02T06:00:00Z';

  it('name the library fields and show the value given', async () => {
    await refused(
      () => openCredence({ store: memory(), scope: 's', now: 'yesterday' }),
      `now must be ${ISO}, got "yesterday"`,
    );
    await refused(
      () => openCredence({ store: memory(), scope: 's', now: Number.NaN }),
      `now must be ${ISO}, a Date or epoch milliseconds, got NaN`,
    );
    await refused(
      () => openCredence({ store: memory(), scope: 's', now: {} as never }),
      `now must be ${ISO}, a Date or epoch milliseconds, got an object`,
    );
    await refused(
      () => openCredence({ db: 'file:x.db', scope: 's' }, {}),
      'db takes the path of a SQLite file, got a file: URL; give a PostgreSQL server with databaseUrl instead',
    );
    await refused(
      () => openCredence({ db: 'a.db', databaseUrl: 'postgres://h/x', scope: 's' }, {}),
      'give either db (a SQLite file) or databaseUrl (a PostgreSQL server), not both',
    );
    await refused(() => openCredence(null as never), 'options must be an object of options, got null');
  });

  it('a clock that returns no time is INVALID_INPUT naming now()', async () => {
    const credence = await openCredence({ store: memory(), scope: 's', now: () => Number.NaN });
    await expect(credence.status()).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: 'now() must be a time in epoch milliseconds, got NaN',
    });
    await credence.close();
  });

  it('the command line keeps its flag names', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'credence-flags-'));
    const now = await cliIn(dir, ['--db', ':memory:', '--now', 'yesterday', 'status']);
    expect(now.stderr).toBe(`credence: --now must be ${ISO}, got "yesterday"\n`);
    const db = await cliIn(dir, ['--db', 'file:x.db', 'status']);
    expect(db.stderr).toContain('credence: --db takes the path of a SQLite file, got a file: URL; give a PostgreSQL');
    expect(db.stderr).toContain('with --database-url instead');
    rmSync(dir, { recursive: true, force: true });
  });
});
