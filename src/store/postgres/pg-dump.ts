/**
 * @module store/postgres/pg-dump
 * The PostgreSQL side of `exportRows` / `importRows` (Store): whole tables as plain rows in the
 * same shape as the SQLite side (store/dump-rows), read in keyset-paged batches and written back
 * in the caller's transaction, with the full-text columns and `tool_terms` built as rows go in.
 */
import type pg from 'pg';
import { CredenceError } from '../../core/errors.js';
import { DUMP_COLUMNS, dumpRowProblem, scrubDumpRow } from '../dump-rows.js';
import type { DumpRow, DumpTable } from '../types.js';
import { fts5Document } from '../../core/text/fts5.js';
import { FTS_COLUMNS, ftsTexts, indexTools, type FtsTable } from './search-columns.js';

/** The column a table's rows are ordered by when it has one (insertion order), else its primary key. */
const ORDER: Readonly<Record<DumpTable, readonly string[]>> = Object.freeze({
  tools: ['scope', 'id'],
  edges: ['scope', 'from_tool', 'to_tool', 'type'],
  executions: ['rowid'],
  calls: ['scope', 'execution_id', 'idx'],
  workflows: ['scope', 'id'],
  observations: ['rowid'],
  memories: ['rowid'],
  instincts: ['scope', 'id'],
  skills: ['scope', 'id'],
  feedback: ['scope', 'id'],
  shown: ['scope', 'id'],
  embeddings: ['scope', 'kind', 'ref_id'],
  hook_sessions: ['scope', 'session_id'],
  hook_events: ['seq'],
  fits: ['scope', 'name'],
  forgotten: ['scope', 'id'],
});

type Row = Record<string, unknown>;

/** Every row of `table` in its order, `batchSize` rows at a time. */
export async function* exportPgRows(
  pool: pg.Pool,
  table: DumpTable,
  options: { batchSize?: number } = {},
): AsyncGenerator<DumpRow[]> {
  const batchSize = Math.max(1, Math.floor(options.batchSize ?? 500));
  const columns = DUMP_COLUMNS[table];
  const keys = ORDER[table];
  const select =
    `SELECT ${columns.map((c) => `"${c.name}"`).join(', ')}, ` +
    `${keys.map((k, i) => `"${k}" AS "__k${i}"`).join(', ')} FROM ${table}`;
  const orderBy = keys.map((k) => `"${k}"`).join(', ');
  const keyTuple = `(${orderBy})`;
  let after: unknown[] | undefined;
  for (;;) {
    const rows = (
      after === undefined
        ? await pool.query(`${select} ORDER BY ${orderBy} LIMIT $1`, [batchSize])
        : await pool.query(
            `${select} WHERE ${keyTuple} > (${keys.map((_, i) => `$${i + 1}`).join(', ')}) ` +
              `ORDER BY ${orderBy} LIMIT $${keys.length + 1}`,
            [...after, batchSize],
          )
    ).rows as Row[];
    if (rows.length === 0) return;
    const last = rows[rows.length - 1] as Row;
    after = keys.map((_, i) => last[`__k${i}`]);
    yield rows.map((row) => {
      const out: DumpRow = {};
      for (const column of columns) out[column.name] = fromPg(column.kind, row[column.name]);
      return out;
    });
    if (rows.length < batchSize) return;
  }
}

function fromPg(kind: string, value: unknown): string | number | null {
  if (value === null || value === undefined) return null;
  if (Buffer.isBuffer(value)) return kind === 'hex' ? value.toString('hex') : value.toString('base64');
  return value as string | number;
}

/**
 * Inserts `rows` into `table` inside the caller's transaction: each row checked against the
 * table's columns and scrubbed first; a constraint the schema enforces fails with the row's position.
 */
export async function importPgRows(
  client: pg.PoolClient,
  table: DumpTable,
  rows: readonly DumpRow[],
  scrub: <T>(record: T) => T,
): Promise<number> {
  const columns = DUMP_COLUMNS[table];
  const searched = table in FTS_COLUMNS ? (table as FtsTable) : undefined;
  for (const [i, given] of rows.entries()) {
    const problem = dumpRowProblem(table, given);
    if (problem !== undefined) {
      throw new CredenceError('INVALID_INPUT', `${table} row ${i + 1} of the batch: ${problem}`, {
        details: { table, row: i },
      });
    }
    const row = scrubDumpRow(table, given, scrub);
    const present = columns.filter((c) => row[c.name] !== undefined);
    const names = present.map((c) => `"${c.name}"`);
    const values: unknown[] = present.map((c) => toPg(c.kind, row[c.name] ?? null));
    const placeholders = present.map((_, n) => `$${n + 1}`);
    if (searched !== undefined) {
      // A column left out takes the schema's default, which is what FTS5 would index too.
      const defaults: Record<string, string> = {
        context: '{}',
        evidence: '[]',
        tags: table === 'memories' ? '' : '[]',
      };
      const doc = fts5Document(ftsTexts(searched, row, defaults));
      names.push('fts', 'fts_len');
      values.push(doc.tsvector, doc.length);
      placeholders.push(`$${values.length - 1}::tsvector`, `$${values.length}`);
    }
    try {
      await client.query(`INSERT INTO ${table} (${names.join(', ')}) VALUES (${placeholders.join(', ')})`, values);
      if (table === 'tools') {
        const description = String(
          (
            (await client.query('SELECT description FROM tools WHERE scope = $1 AND id = $2', [row.scope, row.id]))
              .rows[0] as Row
          ).description,
        );
        await indexTools(client, String(row.scope), [{ id: String(row.id), description }]);
      }
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      // Class 23: integrity constraint violation (unique, check, foreign key, not null).
      if (typeof code === 'string' && code.startsWith('23')) {
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
  }
  return rows.length;
}

function toPg(kind: string, value: string | number | null): unknown {
  if (value === null) return null;
  if (kind === 'hex') return Buffer.from(String(value), 'hex');
  if (kind === 'base64') return Buffer.from(String(value), 'base64');
  return value;
}
