import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sqliteConnection } from './connection.js';
import { openSqliteStore } from './sqlite-store.js';

const root = mkdtempSync(join(tmpdir(), 'credence-secure-delete-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

// Private words, not a credential the scrubber would take out before they are stored: forget must remove them itself.
const SECRET = 'correcthorsezebra42';
const T = Date.parse('2026-06-01T00:00:00Z');
const memory = (id: string, text: string) => ({
  id,
  category: 'note',
  title: id,
  text,
  tags: [],
  createdAt: T,
  updatedAt: T,
});
const filler = Array.from({ length: 300 }, (_, i) => memory(`f${i}`, `filler note number ${i} about builds and tests`));
/** How often the secret's bytes are in the store's files (the WAL is folded in at close). */
const copies = (path: string): number => readFileSync(path).toString('latin1').split(SECRET).length - 1;

describe('a forgotten text leaves the SQLite file (secure delete)', () => {
  it('deleting a memory and an observation removes their words from the tables and the full-text indexes', async () => {
    const path = join(root, 'a.db');
    const store = openSqliteStore({ path });
    await store.upsertMemories('p', [...filler, memory('vpn', `The office plant is named ${SECRET} for now`)]);
    await store.insertObservations('p', [
      {
        id: 'o1',
        timestamp: T,
        type: 'pattern',
        context: {},
        observation: `remember ${SECRET} please`,
        evidence: [],
        confidence: 0.5,
        tags: [],
      },
    ]);
    await store.upsertMemories('p', [memory('later', 'a later note so that the deleted pages are not the last')]);
    expect(await store.deleteMemory('p', 'vpn')).toBe(true);
    expect(await store.deleteObservation('p', 'o1')).toBe(true);
    const db = sqliteConnection(store);
    for (const table of ['memories_fts_data', 'observations_fts_data'])
      expect(db.prepare(`SELECT count(*) AS n FROM ${table} WHERE instr(block, ?)`).get(SECRET)).toEqual({ n: 0 });
    await store.close();
    expect(copies(path)).toBe(0);
  });

  it('a store from before (version 19) drops the words of rows forgotten then when it is opened', async () => {
    const path = join(root, 'b.db');
    const old = openSqliteStore({ path });
    const db = sqliteConnection(old);
    db.prepare("INSERT INTO memories_fts (memories_fts, rank) VALUES ('secure-delete', 0)").run();
    db.pragma('secure_delete = OFF');
    db.pragma('user_version = 19');
    await old.upsertMemories('p', [...filler, memory('vpn', `The office plant is named ${SECRET} for now`)]);
    await old.deleteMemory('p', 'vpn');
    expect(db.prepare('SELECT count(*) AS n FROM memories_fts_data WHERE instr(block, ?)').get(SECRET)).not.toEqual({
      n: 0,
    });
    await old.close();
    const store = openSqliteStore({ path });
    const again = sqliteConnection(store);
    expect(again.prepare('SELECT count(*) AS n FROM memories_fts_data WHERE instr(block, ?)').get(SECRET)).toEqual({
      n: 0,
    });
    await store.close();
    // The bytes those old deletes freed stay in unused space (security.md): the documented VACUUM clears them.
    expect(copies(path)).toBeGreaterThan(0);
    const vacuumed = openSqliteStore({ path });
    sqliteConnection(vacuumed).exec('VACUUM');
    await vacuumed.close();
    expect(copies(path)).toBe(0);
  });

  it("a prune's bulk delete skips secure delete and sets it back: a forget after it still zeroes", async () => {
    const path = join(root, 'c.db');
    const store = openSqliteStore({ path });
    const db = sqliteConnection(store);
    const other = 'lanternquartz77pebble';
    const obs = (id: string, text: string) => ({
      id,
      timestamp: T,
      type: 'pattern' as const,
      context: {},
      observation: text,
      evidence: [],
      confidence: 0.5,
      tags: [],
    });
    await store.insertObservations('p', [
      ...Array.from({ length: 200 }, (_, i) => obs(`f${i}`, `filler observation ${i} about builds`)),
      obs('bulk', `remember ${SECRET} please`),
      obs('private', `remember ${other} please`),
    ]);
    const inIndex = (word: string) =>
      db.prepare('SELECT count(*) AS n FROM observations_fts_data WHERE instr(block, ?)').get(word);
    expect(await store.deleteObservations('p', ['bulk'], { secureDelete: false })).toBe(1);
    expect(inIndex(SECRET)).not.toEqual({ n: 0 });
    expect(db.pragma('secure_delete', { simple: true })).toBe(1);
    expect(db.prepare("SELECT v FROM observations_fts_config WHERE k = 'secure-delete'").get()).toEqual({ v: 1 });
    expect(await store.deleteObservations('p', ['private'])).toBe(1);
    expect(inIndex(other)).toEqual({ n: 0 });
    await store.close();
  });
});
