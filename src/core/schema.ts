/**
 * @module core/schema
 * The schema version this Credence writes, of either store (SQLite's and PostgreSQL's migrations are numbered alike
 * and end at it; a test holds all three equal): `credence --version` prints it beside the package's version, since
 * the package's stays the same from one schema to the next (walk 11, item 4).
 */
export const SCHEMA_VERSION = 30;
