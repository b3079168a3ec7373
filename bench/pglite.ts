/**
 * @module bench/pglite
 * PGlite (PostgreSQL 18 compiled to WebAssembly, devDependency) served over the PostgreSQL wire
 * protocol on 127.0.0.1, with pgvector 0.8.7 when asked: the server with pgvector that the tests
 * (test/pglite.ts) and `npm run bench -- pgvector` use, since Debian's PostgreSQL here has none.
 * Stores on it live in `public` (PGlite ignores the search_path startup option); pgvector sits in
 * a schema of its own, which {@link resetPglite} keeps.
 */
import { PGlite } from '@electric-sql/pglite';
import { vector as pgvector } from '@electric-sql/pglite-pgvector';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

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
    if (vector)
      await db.exec(`CREATE SCHEMA ${PGLITE_VECTOR_SCHEMA}; CREATE EXTENSION vector SCHEMA ${PGLITE_VECTOR_SCHEMA};`);
    const server = new PGLiteSocketServer({
      db,
      port: 0,
      host: '127.0.0.1',
      maxConnections: options.maxConnections ?? 32,
    });
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
