import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetPglite, startPglite, type PgliteServer } from '../../../test/pglite.js';
import { PG_LATEST_SCHEMA_VERSION } from './migrations.js';
import { openPgStore } from './pg-store.js';

// Migration 16 (issue 24) on PostgreSQL 18 in WebAssembly: a store as version 15 left it (no confidence or
// outcome on shown results, four surfaces) opened by this Credence.
let server: PgliteServer;
beforeAll(async () => {
  server = await startPglite({ vector: false, maxConnections: 8 });
});
afterAll(() => server.stop());

describe('PostgreSQL migration 16', () => {
  it('turns verdicts into outcomes, keeps the counts and widens the kinds', async () => {
    await resetPglite(server);
    const first = await openPgStore({ url: server.url, schema: 'public' });
    // Back to version 15's shown table.
    await first.pool.query(`
      DROP INDEX shown_outcomes;
      ALTER TABLE shown DROP COLUMN confidence, DROP COLUMN outcome, DROP COLUMN outcome_at;
      ALTER TABLE shown DROP CONSTRAINT shown_surface_check;
      ALTER TABLE shown ADD CONSTRAINT shown_surface_check CHECK (surface IN ('search', 'next', 'dag', 'recall'));
      ALTER TABLE calls DROP COLUMN depends_on; -- migration 18's, run again after 16
      UPDATE credence_meta SET value = '15' WHERE key = 'schema_version';
      INSERT INTO shown (scope, id, surface, target, at, verdict, verdict_at) VALUES
        ('p', 'sh-1', 'search', 'read_file', 1, 'accepted', 5),
        ('p', 'sh-2', 'dag', 'a -> b', 1, NULL, NULL),
        ('q', 'sh-1', 'recall', 'memory:m', 1, 'rejected', 7);
    `);
    await first.close();
    const store = await openPgStore({ url: server.url, schema: 'public' });
    try {
      expect(await store.schemaVersion()).toBe(PG_LATEST_SCHEMA_VERSION);
      expect(await store.getShown('p', 'sh-1')).toMatchObject({ outcome: 'accepted', outcomeAt: 5 });
      expect((await store.getShown('p', 'sh-2'))?.outcome).toBeUndefined();
      expect(await store.getShown('q', 'sh-1')).toMatchObject({ outcome: 'rejected', outcomeAt: 7 });
      expect(await store.listOutcomes('p')).toEqual([]);
      await store.recordShown('p', [{ id: 'sh-3', surface: 'skill', target: 'skill:s', at: 9, confidence: 0.5 }]);
      expect(await store.setOutcome('p', 'sh-3', 'contradicted', 10)).toBe(true);
      expect((await store.listOutcomes('p')).map((o) => [o.id, o.kind, o.outcome])).toEqual([
        ['sh-3', 'skill', 'contradicted'],
      ]);
      expect(await store.counts('p')).toMatchObject({ shown: 3 });
      expect(await store.check()).toEqual([]);
      await expect(
        store.pool.query("INSERT INTO shown (scope, id, surface, target, at) VALUES ('p', 'x', 'nope', 't', 1)"),
      ).rejects.toThrow(/shown_surface_check/);
    } finally {
      await store.close();
    }
  });
});
