/**
 * @module engine/read-only-store
 * A store opened read-only (a SQLite file this user cannot write, or one marked damaged, opened so for a reader) as
 * the engine uses it: the writes a read makes on the side to keep work for next time (embeddings, vector chunks, a
 * fit, past runs, the graph snapshot, a scope's first workflows) are skipped, as when the store is busy; any other
 * write fails with a line naming the store and why (readOnlyRefusal), not the driver's "attempt to write a readonly
 * database". What a read shows is not recorded (engine `#track`).
 */
import { CredenceError } from '../core/errors.js';
import type { Store } from '../store/types.js';

/** The side writes, each with what it returns when it wrote nothing (false: "not written, another writer moved"). */
const SIDE_WRITES: Readonly<Record<string, boolean | undefined>> = {
  putEmbeddings: undefined,
  writeVectorChunks: false,
  deleteVectorIndex: undefined,
  putFit: undefined,
  writePastRuns: false,
  writeGraphSnapshot: false,
};

const isReadOnlyFailure = (error: unknown): boolean => {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && /^SQLITE_READONLY(_|$)/.test(code);
};

/**
 * The one refusal of a write to a store opened read-only (STORE_UNAVAILABLE, details.readOnly): this user cannot
 * write the file, or it is marked damaged (`damaged`: SQLite's problems), each naming the file and the way out.
 */
export function readOnlyRefusal(
  store: { location: string; damaged?: readonly string[] | undefined },
  cause?: unknown,
): CredenceError {
  const { location, damaged } = store;
  const message =
    damaged !== undefined && damaged.length > 0
      ? `the database at ${location} is damaged (${damaged.slice(0, 3).join('; ')}), opened read-only to answer ` +
        'reads: nothing is written into it; save what is readable with `credence dump FILE --salvage`, then ' +
        '`credence restore FILE --db NEW.db` and use NEW.db'
      : `the database at ${location} is read-only for this user (opened read-only to answer reads): nothing can be ` +
        'recorded in it; make it writable (its file, -wal and -shm, and folder) to record';
  return new CredenceError('STORE_UNAVAILABLE', message, {
    ...(cause === undefined ? {} : { cause }),
    details: { path: location, readOnly: true, ...(damaged === undefined ? {} : { damaged: true }) },
  });
}

/** `store` with its side writes skipped and a write's SQLITE_READONLY named (see the module). */
export function readOnlyStore<S extends Store>(store: S): S {
  const wrapped = new Map<PropertyKey, unknown>();
  const refused = (error: unknown): never => {
    throw isReadOnlyFailure(error) ? readOnlyRefusal(store, error) : error;
  };
  return new Proxy(store, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      let safe = wrapped.get(property);
      if (safe === undefined) {
        const method = value as (...args: unknown[]) => unknown;
        const name = String(property);
        safe = Object.hasOwn(SIDE_WRITES, name)
          ? async () => SIDE_WRITES[name]
          : (...args: unknown[]) => {
              // Workflows built from the runs when a scope is not marked built (an upgraded store): not kept here.
              if (name === 'rebuildWorkflows' && (args[2] as { ifPending?: boolean } | undefined)?.ifPending === true)
                return Promise.resolve(false);
              try {
                const result = method.apply(target, args);
                return result instanceof Promise ? result.catch(refused) : result;
              } catch (error) {
                return refused(error);
              }
            };
        wrapped.set(property, safe);
      }
      return safe;
    },
  });
}
