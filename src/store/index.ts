/** @module store — the Store interface, its records, and the SQLite backend. */
export * from './types.js';
export { openSqliteStore, SqliteStore, LATEST_SCHEMA_VERSION, type SqliteStoreOptions } from './sqlite/index.js';
