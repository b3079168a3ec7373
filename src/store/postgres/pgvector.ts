/**
 * @module store/postgres/pgvector
 * Vectors through pgvector (SPEC §10), when the server has the extension. The float32 bytes in
 * `embeddings.vector` stay the truth; a `vec` column mirrors them (a trigger keeps it equal), and nearest
 * rows are found in the database with `<#>` (vectors are L2-normalised, so inner product is cosine).
 * Exact search, no approximate index: the same rows the in-process scan finds. Needs the extension
 * and the right to alter `embeddings`; without either, the store ranks in Node and says why.
 */
import type pg from 'pg';
import { CredenceError } from '../../core/errors.js';

/**
 * How a PostgreSQL store ranks vectors: `auto` uses pgvector when it can, `pgvector` requires it, `node` never uses it.
 */
export type PgVectorMode = 'auto' | 'pgvector' | 'node';

export const PG_VECTOR_MODES: readonly PgVectorMode[] = ['auto', 'pgvector', 'node'];

export interface PgVectorState {
  ranking: 'node' | 'pgvector';
  /** The schema holding the extension's type and operators, when ranking is `pgvector`. */
  extensionSchema?: string;
  /** One line on why the store ranks as it does, for `credence status`. */
  reason: string;
}

/**
 * The float32 little-endian bytes of a stored vector as `real[]` (which pgvector assigns to its
 * type): only for rows written without `vec`, such as a restore or a writer ranking in Node.
 * Exact: each float32 is rebuilt from its sign, exponent and mantissa.
 */
const bytesToFloats = (schema: string): string =>
  `
CREATE OR REPLACE FUNCTION credence_float32s(bytes bytea) RETURNS real[]
LANGUAGE plpgsql IMMUTABLE STRICT AS $$
DECLARE
  floats real[] := '{}';
  bits bigint;
  exponent int;
  mantissa bigint;
  value double precision;
BEGIN
  FOR i IN 0 .. length(bytes) / 4 - 1 LOOP
    bits := get_byte(bytes, 4 * i)::bigint | (get_byte(bytes, 4 * i + 1)::bigint << 8)
          | (get_byte(bytes, 4 * i + 2)::bigint << 16) | (get_byte(bytes, 4 * i + 3)::bigint << 24);
    exponent := ((bits >> 23) & 255)::int;
    mantissa := bits & 8388607;
    IF exponent = 255 THEN
      RAISE EXCEPTION 'embedding holds a non-finite float (bytes % to %)', 4 * i, 4 * i + 3;
    ELSIF exponent = 0 THEN
      value := mantissa * 2::double precision ^ -149;
    ELSE
      value := (8388608 + mantissa) * 2::double precision ^ (exponent - 150);
    END IF;
    IF (bits >> 31) = 1 THEN value := -value; END IF;
    floats := floats || value::real;
  END LOOP;
  RETURN floats;
END $$;

-- The vectors are compared as text: pgvector's operators may live outside the store's search_path.
CREATE OR REPLACE FUNCTION credence_embeddings_vec() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.vec IS NULL OR (TG_OP = 'UPDATE' AND NEW.vector IS DISTINCT FROM OLD.vector ` +
  `AND NEW.vec::text IS NOT DISTINCT FROM OLD.vec::text) THEN
    NEW.vec := ${quote(schema)}.credence_float32s(NEW.vector);
  END IF;
  RETURN NEW;
END $$;
`;

/** A quoted SQL identifier. */
export const quoteIdent = (name: string): string => `"${name.replace(/"/g, '""')}"`;
const quote = quoteIdent;

/** The version of the SQL functions below: a store set up with an older one gets them replaced. */
const FUNCTIONS_VERSION = '1';

async function extensionSchema(client: pg.PoolClient): Promise<string | undefined> {
  const row = (
    await client.query(
      `SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'vector'`,
    )
  ).rows[0] as { nspname: string } | undefined;
  return row?.nspname;
}

/** What an open needs to know of the store's vector set-up, in one round trip (every open, hooks included, asks). */
async function vectorSetUp(client: pg.PoolClient): Promise<{
  schema: string | undefined;
  column: boolean;
  trigger: boolean;
  owner: boolean;
  functions: string | undefined;
}> {
  const row = (
    await client.query(
      `SELECT (SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace ` +
        `WHERE e.extname = 'vector') AS schema,
              EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = to_regclass('embeddings') ` +
        `AND attname = 'vec' AND NOT attisdropped) AS column,
              EXISTS (SELECT 1 FROM pg_trigger WHERE tgrelid = to_regclass('embeddings') ` +
        `AND tgname = 'embeddings_vec') AS trigger,
              COALESCE((SELECT pg_has_role(relowner, 'USAGE') FROM pg_class ` +
        `WHERE oid = to_regclass('embeddings')), false) AS owner,
              (SELECT value FROM credence_meta WHERE key = 'vector_functions') AS functions`,
    )
  ).rows[0] as { schema: string | null; column: boolean; trigger: boolean; owner: boolean; functions: string | null };
  return {
    schema: row.schema ?? undefined,
    column: row.column,
    trigger: row.trigger,
    owner: row.owner,
    functions: row.functions ?? undefined,
  };
}

/** Runs `sql` in a savepoint; its error message, or undefined when it worked. */
async function attempt(client: pg.PoolClient, sql: string): Promise<string | undefined> {
  await client.query('SAVEPOINT credence_vectors');
  try {
    await client.query(sql);
    await client.query('RELEASE SAVEPOINT credence_vectors');
    return undefined;
  } catch (error) {
    await client.query('ROLLBACK TO SAVEPOINT credence_vectors');
    return (error as Error).message;
  }
}

/**
 * Sets up (once per schema) and reports how this store ranks vectors. Runs inside the caller's
 * transaction, under the migration lock, after the migrations.
 */
export async function setUpVectors(
  client: pg.PoolClient,
  mode: PgVectorMode,
  location: string,
  storeSchema: string,
): Promise<PgVectorState> {
  const found = await vectorSetUp(client);
  const { column, owner, functions } = found;
  let schema = found.schema;
  // The extension was dropped (with its column): the trigger would now fail every write.
  if (!column && found.trigger) await attempt(client, 'DROP TRIGGER IF EXISTS embeddings_vec ON embeddings');
  if (mode === 'node') return { ranking: 'node', reason: 'ranked in Node (vectors=node)' };
  const refuse = (why: string): PgVectorState => {
    if (mode === 'pgvector') {
      throw new CredenceError(
        'STORE_UNAVAILABLE',
        `the PostgreSQL store at ${location} was asked for pgvector (vectors=pgvector) but ${why}`,
        { details: { location } },
      );
    }
    return { ranking: 'node', reason: `ranked in Node: ${why}` };
  };
  if (schema === undefined) {
    const available = (
      await client.query(
        `SELECT v.superuser, v.trusted FROM pg_available_extension_versions v ` +
          `JOIN pg_available_extensions a ON a.name = v.name AND a.default_version = v.version
         WHERE v.name = 'vector'`,
      )
    ).rows[0] as { superuser: boolean; trusted: boolean } | undefined;
    if (available === undefined) return refuse('the server has no pgvector extension');
    // Asked before trying, so that a role that may not create it does not fail (and log) at every open.
    const may = (
      await client.query(
        `SELECT r.rolsuper OR ($1 AND has_database_privilege(current_database(), 'CREATE')) AS may ` +
          'FROM pg_roles r WHERE r.rolname = current_user',
        [available.trusted],
      )
    ).rows[0] as { may: boolean } | undefined;
    const advice = 'a superuser can run CREATE EXTENSION vector once';
    if (may?.may !== true)
      return refuse(`pgvector is installed on the server but this role may not create it; ${advice}`);
    // One creator per database (the migration lock is per schema), in `public`, so that dropping
    // one team's schema never drops the extension under another's.
    await client.query(`SELECT pg_advisory_xact_lock(hashtext('credence:pgvector'))`);
    const hasPublic = ((await client.query(`SELECT 1 FROM pg_namespace WHERE nspname = 'public'`)).rowCount ?? 0) > 0;
    const failed = await attempt(client, `CREATE EXTENSION IF NOT EXISTS vector${hasPublic ? ' SCHEMA public' : ''}`);
    if (failed !== undefined) return refuse(`creating pgvector failed (${failed}); ${advice}`);
    schema = (await extensionSchema(client)) as string;
  }
  // The extension's type and operator must be usable by this role (USAGE on its schema).
  const unusable = await attempt(
    client,
    `SELECT '[1]'::${quote(schema)}.vector OPERATOR(${quote(schema)}.<#>) '[1]'::${quote(schema)}.vector`,
  );
  if (unusable !== undefined) return refuse(`this role cannot use pgvector in schema ${schema} (${unusable})`);
  if (!column) {
    if (!owner)
      return refuse("the embeddings table has no pgvector column yet, and only its owner's first open can add it");
    const failed = await attempt(
      client,
      `${bytesToFloats(storeSchema)}
       -- Dropped with the extension (which drops the column): the trigger goes with it.
       ALTER FUNCTION credence_embeddings_vec() DEPENDS ON EXTENSION vector;
       ALTER TABLE embeddings ADD COLUMN vec ${quote(schema)}.vector;
       CREATE TRIGGER embeddings_vec BEFORE INSERT OR UPDATE ON embeddings ` +
        `FOR EACH ROW EXECUTE FUNCTION credence_embeddings_vec();
       UPDATE embeddings SET vec = credence_float32s(vector);`,
    );
    if (failed !== undefined) return refuse(`adding pgvector's column to the embeddings table failed (${failed})`);
    // Every row was just rewritten: fresh statistics, so the planner sees the table as it is.
    await attempt(client, 'ANALYZE embeddings');
    await setFunctionsVersion(client);
  } else if (functions !== FUNCTIONS_VERSION && owner) {
    // Set up by an older Credence: its converter and trigger function are replaced by this one's.
    const failed = await attempt(
      client,
      `${bytesToFloats(storeSchema)} ALTER FUNCTION credence_embeddings_vec() DEPENDS ON EXTENSION vector;`,
    );
    if (failed === undefined) await setFunctionsVersion(client);
  }
  return {
    ranking: 'pgvector',
    extensionSchema: schema,
    reason: `ranked by pgvector (the extension is in schema ${schema})`,
  };
}

async function setFunctionsVersion(client: pg.PoolClient): Promise<void> {
  await client.query(
    "INSERT INTO credence_meta (key, value) VALUES ('vector_functions', $1) " +
      'ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    [FUNCTIONS_VERSION],
  );
}

/**
 * A vector as pgvector's text form (`[0.6,0.8]`), exact for float32 values (pgvector parses each with strtof), -0
 * included.
 */
export function vectorLiteral(vector: Float32Array): string {
  let out = '[';
  for (let i = 0; i < vector.length; i += 1) {
    const x = vector[i] as number;
    out += `${i === 0 ? '' : ','}${Object.is(x, -0) ? '-0' : String(x)}`;
  }
  return `${out}]`;
}
