/**
 * PGlite for the tests (not a test file itself): PostgreSQL 18 compiled to WebAssembly, run in the
 * test process and served over the PostgreSQL wire protocol (pglite-socket), so that PgStore's `pg`
 * pool talks to it as to any server. The reason is pgvector: CI's Debian PostgreSQL has no pgvector,
 * and @electric-sql/pglite-pgvector is pgvector's own C code (0.8.7) built for PGlite, so the vector
 * path runs on real PostgreSQL with real pgvector on every machine, with nothing to install and no
 * server to skip without.
 *
 * How PGlite differs from a server, and why the helpers are as they are:
 * - One database, one backend session. Every socket connection is multiplexed onto it: statements
 *   run one at a time, and a transaction runs to its COMMIT or ROLLBACK before another connection's
 *   statements (they wait). Nothing is truly concurrent, and session state (SET, search_path) is
 *   shared by all connections.
 * - The startup option `-c search_path=…` that PgStore sends is ignored: a store on PGlite lives in
 *   `public`. One server therefore holds one store at a time; {@link resetPglite} empties `public`
 *   between stores, and a test that needs two stores at once takes two servers ({@link pgliteStores}).
 * - pgvector, when asked for, is installed once in a schema of its own, {@link PGLITE_VECTOR_SCHEMA},
 *   which the reset keeps. Its type and operators are then `extensions.vector` and
 *   `OPERATOR(extensions.<=>)`, as on a server where the extension is not in the store's schema.
 * - Starting PGlite takes 1–2 s (a WebAssembly instance and initdb), so a file starts its servers once.
 */
import { openPgStore, type PgStore, type PgStoreOptions } from '../src/store/postgres/pg-store.js';
import { resetPglite, startPglite, type PgliteServer } from '../bench/pglite.js';

export { PGLITE_VECTOR_SCHEMA, resetPglite, startPglite, type PgliteServer } from '../bench/pglite.js';

/** What a store on PGlite may choose: not its URL, and not its schema (always `public`). */
export type PgliteStoreOptions = Omit<PgStoreOptions, 'url' | 'schema'>;

/** A store on an emptied `public` schema (the only schema a store on PGlite can have). */
export async function freshPgliteStore(
  server: Pick<PgliteServer, 'db' | 'url'>,
  options: PgliteStoreOptions = {},
): Promise<PgStore> {
  await resetPglite(server);
  return openPgStore({ url: server.url, schema: 'public', ...options });
}

/**
 * Stores on PGlite for a suite whose tests each open fresh stores and close them when the test ends
 * (the store contract): each new store takes a server no open store is on, emptied, starting another
 * server when all are taken. `create` fits `runStoreContract`; call `stop` in afterAll.
 */
export function pgliteStores(options: { vector?: boolean; maxConnections?: number; store?: PgliteStoreOptions } = {}): {
  create(): Promise<PgStore>;
  servers(): readonly PgliteServer[];
  stop(): Promise<void>;
} {
  const servers: { server: PgliteServer; busy: boolean }[] = [];
  const serverOptions = { vector: options.vector ?? false, maxConnections: options.maxConnections ?? 32 };
  return {
    async create() {
      let slot = servers.find((s) => !s.busy);
      if (slot === undefined) {
        slot = { server: await startPglite(serverOptions), busy: false };
        servers.push(slot);
      }
      const taken = slot;
      taken.busy = true;
      try {
        const store = await freshPgliteStore(taken.server, options.store);
        const close = store.close.bind(store);
        // The server is free again once the store's pool has ended.
        store.close = async () => {
          try {
            await close();
          } finally {
            taken.busy = false;
          }
        };
        return store;
      } catch (error) {
        taken.busy = false;
        throw error;
      }
    },
    servers: () => servers.map((s) => s.server),
    async stop() {
      for (const { server } of servers.splice(0)) await server.stop();
    },
  };
}
