import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { buildFtsQuery } from '../../core/text/fts-query.js';
import { parseFts5Match } from '../../core/text/fts5.js';
import { Fts5Postings, type StoreLog } from './fts5-postings.js';

// The oracle: SQLite's FTS5 (porter unicode61) over the same rows, each row in scope "a" or "b"; its bm25 is
// table-wide, and a search ranks one scope's rows, ties by rowid. The postings take SQLite's own logarithm.
const db = new Database(':memory:');
afterAll(() => db.close());
const ln = db.prepare<[number], { v: number }>('SELECT ln(?) AS v');
const sqliteLog: StoreLog = (x) => (ln.get(x) as { v: number }).v;
let tables = 0;

interface Row {
  rowid: number;
  scope: string;
  id: string;
  columns: string[];
}

/** FTS5's best `limit` rows of `scope` for `match`: [id, bm25] pairs. */
function sqliteSearch(rows: readonly Row[], match: string, scope: string, limit: number): [string, number][] {
  const t = `t${++tables}`;
  const width = rows[0]?.columns.length ?? 1;
  const cols = Array.from({ length: width }, (_, i) => `c${i}`);
  db.exec(`CREATE TABLE ${t}_rows (rowid INTEGER PRIMARY KEY, scope TEXT, id TEXT)`);
  db.exec(`CREATE VIRTUAL TABLE ${t} USING fts5(${cols.join(', ')}, tokenize = 'porter unicode61')`);
  try {
    const insert = db.prepare(
      `INSERT INTO ${t} (rowid, ${cols.join(', ')}) VALUES (?, ${cols.map(() => '?').join(', ')})`,
    );
    const own = db.prepare(`INSERT INTO ${t}_rows (rowid, scope, id) VALUES (?, ?, ?)`);
    for (const r of rows) {
      insert.run(r.rowid, ...r.columns);
      own.run(r.rowid, r.scope, r.id);
    }
    return db
      .prepare<[string, string, number], { id: string; bm25: number }>(
        `SELECT m.id AS id, bm25(${t}) AS bm25 FROM ${t} JOIN ${t}_rows m ON m.rowid = ${t}.rowid
         WHERE ${t} MATCH ? AND m.scope = ? ORDER BY bm25, ${t}.rowid LIMIT ?`,
      )
      .all(match, scope, limit)
      .map((r) => [r.id, r.bm25]);
  } finally {
    db.exec(`DROP TABLE ${t}; DROP TABLE ${t}_rows`);
  }
}

function oursSearch(postings: Fts5Postings, match: string, scope: string, limit: number) {
  return postings.search(scope, parseFts5Match(match), limit, sqliteLog)?.map((h) => [h.id, h.bm25]);
}

const VOCABULARY = ['run', 'running', 'runs', 'refresh', 'token', 'refreshToken', 'auth', 'cache', 'cached', 'user_id'];
const WORDS = [...VOCABULARY, 'the', 'of', 'café', 'src/x.ts', 'x', 'token-refresh', 'error', 'errors'];
const text = fc.array(fc.constantFrom(...WORDS), { maxLength: 10 }).map((ws) => ws.join(' '));
const query = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 }).map((ws) => ws.join(' '));

describe('Fts5Postings against SQLite FTS5', () => {
  it('finds the rows of a scope with the same bm25, in the same order (ties by rowid), after puts and removes', () => {
    let compared = 0;
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 3 }).chain((width) =>
          fc.array(
            fc.record({
              id: fc.integer({ min: 0, max: 14 }).map((n) => `r${n}`),
              scope: fc.constantFrom('a', 'b'),
              columns: fc.array(text, { minLength: width, maxLength: width }),
              remove: fc.boolean(),
            }),
            { minLength: 1, maxLength: 30 },
          ),
        ),
        query,
        fc.integer({ min: 1, max: 8 }),
        (writes, q, limit) => {
          const postings = new Fts5Postings();
          // The store's rows after the writes: a row written again keeps its rowid (an upsert); a removed one goes.
          const rows = new Map<string, Row>();
          let next = 1;
          for (const w of writes) {
            const key = `${w.scope}:${w.id}`;
            if (w.remove && rows.has(key)) {
              rows.delete(key);
              postings.remove(w.scope, w.id);
              continue;
            }
            const row = { rowid: rows.get(key)?.rowid ?? next++, scope: w.scope, id: w.id, columns: w.columns };
            rows.set(key, row);
            postings.put(row);
          }
          const match = buildFtsQuery(q)?.match;
          if (match === undefined || rows.size === 0) return;
          const all = [...rows.values()].sort((x, y) => x.rowid - y.rowid);
          for (const scope of ['a', 'b']) {
            const theirs = sqliteSearch(all, match, scope, limit);
            compared += theirs.length;
            expect(oursSearch(postings, match, scope, limit)).toEqual(theirs);
          }
        },
      ),
      { numRuns: 250, seed: 2020 },
    );
    expect(compared).toBeGreaterThan(200);
  });

  it('counts phrases within a column, overlapping instances too, and breaks equal scores by rowid', () => {
    const postings = new Fts5Postings();
    const rows: Row[] = [
      { rowid: 7, scope: 's', id: 'late', columns: ['refresh token', 'x'] },
      { rowid: 3, scope: 's', id: 'early', columns: ['refresh token', 'x'] },
      { rowid: 4, scope: 's', id: 'split', columns: ['refresh', 'token'] },
      { rowid: 5, scope: 's', id: 'twice', columns: ['run run run', ''] },
      { rowid: 6, scope: 'other', id: 'elsewhere', columns: ['refresh token refresh token', ''] },
    ];
    for (const r of rows) postings.put(r);
    const byRowid = [...rows].sort((a, b) => a.rowid - b.rowid);
    for (const match of ['"refresh token"', '"run run"', '"refresh token" OR "run"', '"token" OR "x"']) {
      expect(oursSearch(postings, match, 's', 10)).toEqual(sqliteSearch(byRowid, match, 's', 10));
    }
    expect(oursSearch(postings, '"refresh token"', 's', 10)?.map(([id]) => id)).toEqual(['early', 'late']);
  });

  it('lays its slots out again once the removed outnumber a third of the rows, answering the same', () => {
    const postings = new Fts5Postings();
    const rows: Row[] = [];
    for (let i = 1; i <= 1600; i++) {
      const row = { rowid: i, scope: 's', id: `m${i}`, columns: [`${VOCABULARY[i % 10]} ${VOCABULARY[(i * 7) % 10]}`] };
      rows.push(row);
      postings.put(row);
    }
    for (let i = 1; i <= 1600; i += 1) if (i % 4 !== 0) postings.remove('s', `m${i}`);
    const kept = rows.filter((r) => r.rowid % 4 === 0);
    expect(postings.rows).toBe(kept.length);
    for (const match of ['"run" OR "token"', '"cach"', '"refresh token"']) {
      expect(oursSearch(postings, match, 's', 20)).toEqual(sqliteSearch(kept, match, 's', 20));
    }
  });

  it('leaves an expression with AND to the store, and finds nothing in a scope it never saw', () => {
    const postings = new Fts5Postings();
    postings.put({ rowid: 1, scope: 's', id: 'm', columns: ['refresh token'] });
    expect(postings.search('s', parseFts5Match('"refresh" AND "token"'), 5, sqliteLog)).toBeUndefined();
    expect(postings.search('nowhere', parseFts5Match('"refresh"'), 5, sqliteLog)).toEqual([]);
    expect(postings.search('s', parseFts5Match('"absent"'), 5, sqliteLog)).toEqual([]);
  });
});
