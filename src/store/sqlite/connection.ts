/**
 * @module store/sqlite/connection
 * The better-sqlite3 connection behind a store from `openSqliteStore`, for the benches and tests
 * that run raw SQL. Deliberately outside the public entry points: a published declaration that
 * named better-sqlite3's types would need `@types/better-sqlite3`, which consumers do not have.
 */
import type Database from 'better-sqlite3';
import { CredenceError } from '../../core/errors.js';

const connections = new WeakMap<object, Database.Database>();

/** Called by `openSqliteStore` for the store it hands out. */
export function keepConnection(store: object, db: Database.Database): void {
  connections.set(store, db);
}

/**
 * The connection of a store opened by `openSqliteStore`.
 * @throws CredenceError `INVALID_INPUT` for any other store.
 */
export function sqliteConnection(store: object): Database.Database {
  const db = connections.get(store);
  if (db === undefined)
    throw new CredenceError('INVALID_INPUT', 'not a store opened by openSqliteStore: it has no SQLite connection');
  return db;
}
