/**
 * PostgreSQL for the tests (not a test file itself). `npm test` sets CREDENCE_TEST_DATABASE_URL in
 * CI (scripts/test.mjs starts a throwaway cluster); elsewhere the PostgreSQL half skips with one
 * line saying so, unless the variable is set (or `CREDENCE_TEST_PG=start npm test`).
 * Every store gets a schema of its own, dropped when the file's tests end.
 */
import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll } from 'vitest';
import { openPgStore, type PgStore } from '../src/store/postgres/pg-store.js';

/** The test server's URL, or undefined (then the caller skips; in CI that is an error). */
export function pgTestUrl(what: string): string | undefined {
  const url = process.env.CREDENCE_TEST_DATABASE_URL;
  if (url !== undefined && url !== '') return url;
  if (process.env.CI === 'true')
    throw new Error(
      `CI=true but CREDENCE_TEST_DATABASE_URL is not set: ${what} must run in CI (run the tests with npm test)`,
    );
  console.log(
    `skipping: no PostgreSQL (CREDENCE_TEST_DATABASE_URL unset) — ${what} ` +
      'run with CREDENCE_TEST_PG=start npm test, or in CI',
  );
  return undefined;
}

/** A fresh schema name, and a function that drops every schema this file made (registered with afterAll). */
export function pgSchemas(url: string | undefined): () => string {
  const made: string[] = [];
  if (url !== undefined) {
    afterAll(async () => {
      if (made.length === 0) return;
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        for (const schema of made) await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      } finally {
        await client.end();
      }
    });
  }
  return () => {
    const schema = `credence_test_${randomBytes(6).toString('hex')}`;
    made.push(schema);
    return schema;
  };
}

/** A store in a schema of its own. */
export async function freshPgStore(
  url: string,
  schema: () => string,
  options: { poolSize?: number } = {},
): Promise<PgStore> {
  return openPgStore({ url, schema: schema(), ...options });
}

/**
 * The store the end-to-end tests' CLI runs use, in place of `--db FILE`: SQLite (the file) by
 * default; with CREDENCE_E2E_STORE=postgres, the test server, one schema per database file named
 * (`?schema=` in the URL), so that each file-backed test store is a store of its own there too.
 * `npm test` in CI runs the core end-to-end files a second time this way (scripts/test.mjs).
 */
export function storeArgs(db: string): string[] {
  if (process.env.CREDENCE_E2E_STORE !== 'postgres') return ['--db', db];
  const url = process.env.CREDENCE_TEST_DATABASE_URL;
  if (url === undefined || url === '') throw new Error('CREDENCE_E2E_STORE=postgres needs CREDENCE_TEST_DATABASE_URL');
  const schema = `credence_e2e_${createHash('sha256').update(db).digest('hex').slice(0, 16)}`;
  const withSchema = new URL(url);
  withSchema.searchParams.set('schema', schema);
  return ['--database-url', withSchema.toString()];
}

/**
 * The same choice as {@link storeArgs}, as environment variables (for processes that take no
 * flags, such as hooks) and as openCredence options (for the test's own checks).
 */
export function storeEnv(db: string): { env: Record<string, string>; open: { db?: string; databaseUrl?: string } } {
  const args = storeArgs(db);
  if (args[0] === '--db') return { env: { CREDENCE_DB: db }, open: { db } };
  const url = args[1] as string;
  return { env: { CREDENCE_DB: db, CREDENCE_DATABASE_URL: url }, open: { databaseUrl: url } };
}
