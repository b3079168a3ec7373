/**
 * @module store/postgres/search-columns
 * Which columns of each searched table make its full-text entry (in the column order of the SQLite
 * store's FTS5 table), and the tool words index: what the store and a restore both write.
 */
import type pg from 'pg';
import { toolWords } from '../shared.js';
import { fts5Document } from '../../core/text/fts5.js';

export const FTS_COLUMNS = Object.freeze({
  memories: ['title', 'text', 'tags'],
  tool_terms: ['words', 'description'],
  executions: ['intent'],
  observations: ['observation', 'evidence', 'context', 'tags'],
} as const);
export type FtsTable = keyof typeof FTS_COLUMNS;

/** A row's texts for its full-text entry; a column the row lacks reads as `defaults` gives it, else empty. */
export function ftsTexts(
  table: FtsTable,
  row: Record<string, unknown>,
  defaults: Readonly<Record<string, string>> = {},
): string[] {
  return FTS_COLUMNS[table].map((name) => String(row[name] ?? defaults[name] ?? ''));
}

/** Keeps the searchable words of tools in step with their ids and descriptions (`tool_terms`). */
export async function indexTools(
  c: pg.Pool | pg.PoolClient,
  scope: string,
  tools: readonly { id: string; description: string }[],
): Promise<void> {
  if (tools.length === 0) return;
  const words = tools.map((t) => toolWords(t.id));
  const docs = tools.map((t, i) => fts5Document([words[i] as string, t.description]));
  await c.query(
    `INSERT INTO tool_terms (scope, id, words, description, fts, fts_len)
     SELECT $1, v.id, v.words, v.description, v.fts::tsvector, v.len
     FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::int[]) ` +
      `WITH ORDINALITY AS v(id, words, description, fts, len, n)
     ORDER BY v.n
     ON CONFLICT (scope, id) DO UPDATE SET words = excluded.words, description = excluded.description, ` +
      `fts = excluded.fts, fts_len = excluded.fts_len
     WHERE tool_terms.description IS DISTINCT FROM excluded.description ` +
      `OR tool_terms.words IS DISTINCT FROM excluded.words`,
    [
      scope,
      tools.map((t) => t.id),
      words,
      tools.map((t) => t.description),
      docs.map((d) => d.tsvector),
      docs.map((d) => d.length),
    ],
  );
}
