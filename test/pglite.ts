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
import { PGlite } from '@electric-sql/pglite';
import { vector as pgvector } from '@electric-sql/pglite-pgvector';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { openPgStore, type PgStore, type PgStoreOptions } from '../src/store/postgres/pg-store.js';

/** What a store on PGlite may choose: not its URL, and not its schema (always `public`). */
export type PgliteStoreOptions = Omit<PgStoreOptions, 'url' | 'schema'>;

/** The schema pgvector is installed in (kept by {@link resetPglite}). */
export const PGLITE_VECTOR_SCHEMA = 'extensions';

export interface PgliteServer {
  /** `postgres://postgres@127.0.0.1:PORT/postgres` (no password: PGlite takes any). */
  url: string;
  db: PGlite;
  /** Whether pgvector is installed (in {@link PGLITE_VECTOR_SCHEMA}). */
  vector: boolean;
  /** Milliseconds PGlite took to start (creation, extension and socket server). */
  startMs: number;
  stop(): Promise<void>;
}

/**
 * Starts PGlite in memory, with pgvector installed when `vector` is set, behind a socket server on
 * 127.0.0.1 and a free port. `maxConnections` bounds the sockets open at once (a client past it is
 * turned away): leave room for a closed pool's sockets, which the server forgets a tick late.
 */
export async function startPglite(options: { vector?: boolean; maxConnections?: number } = {}): Promise<PgliteServer> {
  const started = performance.now();
  const vector = options.vector ?? false;
  const db = await PGlite.create(vector ? { extensions: { vector: pgvector } } : {});
  try {
    if (vector) await db.exec(`CREATE SCHEMA ${PGLITE_VECTOR_SCHEMA}; CREATE EXTENSION vector SCHEMA ${PGLITE_VECTOR_SCHEMA};`);
    const server = new PGLiteSocketServer({ db, port: 0, host: '127.0.0.1', maxConnections: options.maxConnections ?? 32 });
    await server.start();
    let stopped = false;
    return {
      url: `postgres://postgres@${server.getServerConn()}/postgres`,
      db,
      vector,
      startMs: performance.now() - started,
      async stop() {
        if (stopped) return;
        stopped = true;
        try {
          await server.stop();
        } finally {
          await db.close();
        }
      },
    };
  } catch (error) {
    await db.close().catch(() => {});
    throw error;
  }
}

/**
 * Empties the `public` schema (every table, sequence, function and type in it), keeping pgvector's
 * schema. Run it with no store open on the server: an open pool would see its tables vanish.
 */
export async function resetPglite(server: Pick<PgliteServer, 'db'>): Promise<void> {
  await server.db.exec('DROP SCHEMA public CASCADE; CREATE SCHEMA public;');
}

/** A store on an emptied `public` schema (the only schema a store on PGlite can have). */
export async function freshPgliteStore(server: Pick<PgliteServer, 'db' | 'url'>, options: PgliteStoreOptions = {}): Promise<PgStore> {
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
