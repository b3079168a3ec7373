/** @module store — the Store interface, its records, and the SQLite backend. */
export * from './types.js';
export { openSqliteStore, SqliteStore, LATEST_SCHEMA_VERSION, type SqliteStoreOptions } from './sqlite/index.js';
export { DUMP_COLUMNS, dumpRowProblem, scrubDumpRow, type DumpColumn, type DumpColumnKind } from './dump-rows.js';
export {
  checkDump,
  dumpCounts,
  restoreDump,
  writeDump,
  DUMP_FORMAT,
  DUMP_VERSION,
  type DumpCounts,
  type DumpHeader,
  type DumpReport,
  type SalvageReport,
  type RestoreReport,
} from './dump.js';
export { STORE_POLICY, storePolicy, type StorePolicy } from './policy.js';
