/**
 * @module store/sqlite/sqlite-dump
 * The SQLite side of `exportRows` / `importRows` (Store): whole tables as plain rows, read in
 * keyset-paged batches (no statement stays open between batches, so the connection is free for
 * other work while a dump is written) and written back in one transaction per call, with the
 * derived indexes (FTS5 through the tables' triggers, `tool_terms` here) built as rows go in.
 */
import type Database from 'better-sqlite3';
import { CredenceError } from '../../core/errors.js';
import { DUMP_COLUMNS, dumpRowProblem, scrubDumpRow } from '../dump-rows.js';
import type { DumpRow, DumpTable } from '../types.js';
import { toolWords } from '../shared.js';

/** The column a table's rows are ordered by when it has one (insertion order), else its primary key. */
const ORDER: Readonly<Record<DumpTable, { rowid: string } | { key: readonly string[] }>> = Object.freeze({
  tools: { key: ['scope', 'id'] },
  edges: { key: ['scope', 'from_tool', 'to_tool', 'type'] },
  executions: { rowid: 'rowid' },
  calls: { key: ['scope', 'execution_id', 'idx'] },
  workflows: { key: ['scope', 'id'] },
  observations: { rowid: 'rowid' },
  memories: { rowid: 'rowid' },
  instincts: { key: ['scope', 'id'] },
  skills: { key: ['scope', 'id'] },
  feedback: { key: ['scope', 'id'] },
  shown: { key: ['scope', 'id'] },
  embeddings: { key: ['scope', 'kind', 'ref_id'] },
  hook_sessions: { key: ['scope', 'session_id'] },
  hook_events: { rowid: 'seq' },
  fits: { key: ['scope', 'name'] },
  forgotten: { key: ['scope', 'id'] },
});

/** @default 500 rows a batch */
export const EXPORT_DEFAULTS = Object.freeze({ batchSize: 500 });

type Prepare = (sql: string) => Database.Statement;
type Row = Record<string, unknown>;

/** Every row of `table` in its order, `batchSize` rows at a time. */
export async function* exportSqliteRows(
  prepare: Prepare,
  table: DumpTable,
  options: { batchSize?: number; descending?: boolean } = {},
): AsyncGenerator<DumpRow[]> {
  const batchSize = Math.max(1, Math.floor(options.batchSize ?? EXPORT_DEFAULTS.batchSize));
  const columns = DUMP_COLUMNS[table];
  const order = ORDER[table];
  const keys = 'rowid' in order ? [order.rowid] : order.key;
  // The order keys are selected again under their own names, so a row's columns stay as they are.
  const select =
    `SELECT ${columns.map((c) => `"${c.name}"`).join(', ')}, ` +
    `${keys.map((k, i) => `"${k}" AS "__k${i}"`).join(', ')} FROM ${table}`;
  const tuple = (names: readonly string[]): string => (names.length === 1 ? (names[0] ?? '') : `(${names.join(', ')})`);
  const keyTuple = tuple(keys.map((k) => `"${k}"`));
  // Descending (dump --salvage): the rows after a damaged page, read from the end.
  const [dir, cmp] = options.descending === true ? [' DESC', '<'] : ['', '>'];
  const orderBy = keys.map((k) => `"${k}"${dir}`).join(', ');
  const first = prepare(`${select} ORDER BY ${orderBy} LIMIT ?`);
  const next = prepare(`${select} WHERE ${keyTuple} ${cmp} ${tuple(keys.map(() => '?'))} ORDER BY ${orderBy} LIMIT ?`);
  let after: unknown[] | undefined;
  for (;;) {
    const rows = (after === undefined ? first.all(batchSize) : next.all(...after, batchSize)) as Row[];
    if (rows.length === 0) return;
    const last = rows[rows.length - 1] as Row;
    after = keys.map((_, i) => last[`__k${i}`]);
    yield rows.map((row) => {
      const out: DumpRow = {};
      for (const column of columns) out[column.name] = fromSqlite(column.kind, row[column.name]);
      return out;
    });
    if (rows.length < batchSize) return;
  }
}

function fromSqlite(kind: string, value: unknown): string | number | null {
  if (value === null || value === undefined) return null;
  if (Buffer.isBuffer(value)) return kind === 'hex' ? value.toString('hex') : value.toString('base64');
  if (typeof value === 'bigint') return Number(value);
  return value as string | number;
}

/**
 * Inserts `rows` into `table` inside the caller's transaction: each row checked against the
 * table's columns and scrubbed first; a constraint the schema enforces (allowed values, unique
 * keys, a call's execution) fails with the row's position. Returns how many went in.
 */
export function importSqliteRows(
  prepare: Prepare,
  table: DumpTable,
  rows: readonly DumpRow[],
  scrub: <T>(record: T) => T,
): number {
  const columns = DUMP_COLUMNS[table];
  const indexTool = prepare(`
    INSERT INTO tool_terms (scope, id, words, description) VALUES (?, ?, ?, ?)
    ON CONFLICT (scope, id) DO UPDATE SET words = excluded.words, description = excluded.description`);
  rows.forEach((given, i) => {
    const problem = dumpRowProblem(table, given);
    if (problem !== undefined) {
      throw new CredenceError('INVALID_INPUT', `${table} row ${i + 1} of the batch: ${problem}`, {
        details: { table, row: i },
      });
    }
    const row = scrubDumpRow(table, given, scrub);
    const present = columns.filter((c) => row[c.name] !== undefined);
    const insert = prepare(
      `INSERT INTO ${table} (${present.map((c) => `"${c.name}"`).join(', ')}) ` +
        `VALUES (${present.map(() => '?').join(', ')})`,
    );
    try {
      insert.run(...present.map((c) => toSqlite(c.kind, row[c.name] ?? null)));
      if (table === 'tools') {
        const stored = prepare('SELECT description FROM tools WHERE scope = ? AND id = ?').get(row.scope, row.id) as {
          description: string;
        };
        indexTool.run(row.scope, row.id, toolWords(String(row.id)), stored.description);
      }
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (typeof code === 'string' && code.startsWith('SQLITE_CONSTRAINT')) {
        throw new CredenceError(
          'INVALID_INPUT',
          `${table} row ${i + 1} of the batch breaks a constraint of the store: ${(error as Error).message}`,
          {
            cause: error,
            details: { table, row: i },
          },
        );
      }
      throw error;
    }
  });
  return rows.length;
}

function toSqlite(kind: string, value: string | number | null): string | number | Buffer | null {
  if (value === null) return null;
  if (kind === 'hex') return Buffer.from(String(value), 'hex');
  if (kind === 'base64') return Buffer.from(String(value), 'base64');
  return value;
}
