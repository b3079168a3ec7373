/** @module store/sqlite */
export { openSqliteStore, SqliteStore, type SqliteStoreOptions } from './sqlite-store.js';
export { LATEST_SCHEMA_VERSION, MIGRATIONS, type Migration } from './migrations.js';
