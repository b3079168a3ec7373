/**
 * A PostgreSQL server that ends a connection while a transaction holds it (a shutdown, a failover: FATAL 57P01, as
 * `pg_terminate_backend` raises it) fails that write as unreachable (STORE_UNAVAILABLE, retry later) and the store
 * writes again once the server takes connections: it is not an unhandled 'error' event ending the process
 * (walk 19, items 1 and 2: `credence serve`, `record`, `restore` and the hook learner died of it).
 */
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { pgSchemas, pgTestUrl } from '../../../test/pg.js';
import { isCredenceError } from '../../core/errors.js';
import { openPgStore } from './pg-store.js';

const url = pgTestUrl('a connection ended during a transaction');
const schemas = pgSchemas(url);

describe.skipIf(url === undefined)('a PostgreSQL connection ended in the middle of a transaction', () => {
  const admin = new pg.Client({ connectionString: url });
  afterAll(() => admin.end());

  it('fails the write as unreachable, keeps the process, and the next write goes in', async () => {
    const schema = schemas();
    const store = await openPgStore({ url: url as string, schema, poolSize: 2 });
    try {
      await admin.connect();
      // The write's transaction waits on this lock, so that the server ends its connection while it is checked out.
      await admin.query('BEGIN');
      await admin.query(`LOCK TABLE "${schema}".tools IN ACCESS EXCLUSIVE MODE`);
      const writing = store.upsertTools('team', [{ id: 'eslint' }, { id: 'prettier' }]).catch((e: unknown) => e);
      let pid: number | undefined;
      while (pid === undefined) {
        const waiting = await admin.query(`SELECT pid FROM pg_locks WHERE NOT granted AND relation = $1::regclass`, [
          `"${schema}".tools`,
        ]);
        pid = waiting.rows[0]?.pid as number | undefined;
      }
      await admin.query('SELECT pg_terminate_backend($1)', [pid]);
      await admin.query('ROLLBACK');
      const failed = await writing;
      expect(isCredenceError(failed, 'STORE_UNAVAILABLE') && failed.message).toMatch(
        /^the PostgreSQL store at .* is unreachable \(.+\): the server is down or out of reach; retry later$/,
      );
      expect(await store.counts('team')).toMatchObject({ tools: 0 });
      // Back: the pool dropped the lost connection and opens another.
      expect(await store.upsertTools('team', [{ id: 'eslint' }, { id: 'prettier' }])).toEqual({
        inserted: 2,
        updated: 0,
      });
    } finally {
      await store.close();
    }
  });
});
