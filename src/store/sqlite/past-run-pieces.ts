/**
 * @module store/sqlite/past-run-pieces
 * The kept past runs in pieces (migration 14, issue 20): the bytes cut into rows of {@link PIECE_BYTES}, so a new
 * process reads the few a query needs instead of the whole blob (~20 MB at 100k, ~35 ms and as much garbage). The
 * scope's row in past_runs holds the revision and a short mark naming the pieces' generation and size; each write
 * makes a new generation and keeps the previous one, so a process still reading it reads on; a reader that finds
 * its generation gone (two writes since) says so ({@link PastRunsReader.intact}). Bytes in past_runs' row that are
 * no mark (written before migration 14) are read whole as before.
 */
import type Database from 'better-sqlite3';
import type { PastRunsReader } from '../types.js';

/** Bytes of a piece: one fits a 4 KiB page with its key, so a piece read is one page. */
export const PIECE_BYTES = 4000;

/** The mark's first word ("PRP1"); the mark is 16 bytes: it, the generation (u32), the size (f64). */
const MARK = 0x31505250;
const MARK_BYTES = 16;

type Stmt = (sql: string) => Database.Statement;

/** Pieces a range may span to be read ahead by `prefetch` (or put together from pieces held). */
const PREFETCH_SPAN = 4;

/** The generation and size a mark names, or undefined for bytes that are no mark. */
function readMark(data: Uint8Array): { generation: number; size: number } | undefined {
  if (data.byteLength !== MARK_BYTES) return undefined;
  const view = new DataView(data.buffer, data.byteOffset, MARK_BYTES);
  if (view.getUint32(0, true) !== MARK) return undefined;
  return { generation: view.getUint32(4, true), size: view.getFloat64(8, true) };
}

function mark(generation: number, size: number): Buffer {
  const out = Buffer.alloc(MARK_BYTES);
  out.writeUInt32LE(MARK, 0);
  out.writeUInt32LE(generation, 4);
  out.writeDoubleLE(size, 8);
  return out;
}

/**
 * Keeps `data` at `revision` in pieces unless the stored one is at a later revision; whether it was written. Run in
 * a write transaction.
 */
export function writePieces(stmt: Stmt, scope: string, revision: number, data: Uint8Array): boolean {
  const stored = stmt('SELECT revision FROM past_runs WHERE scope = ?').get(scope) as { revision: number } | undefined;
  if (stored !== undefined && Number(stored.revision) > revision) return false;
  const last = stmt('SELECT max(generation) AS g FROM past_run_pieces WHERE scope = ?').get(scope) as {
    g: number | null;
  };
  const generation = Number(last.g ?? 0) + 1;
  const insert = stmt('INSERT INTO past_run_pieces (scope, generation, piece, data) VALUES (?, ?, ?, ?)');
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  for (let at = 0, piece = 0; at < bytes.byteLength; at += PIECE_BYTES, piece += 1)
    insert.run(scope, generation, piece, bytes.subarray(at, at + PIECE_BYTES));
  stmt(`
    INSERT INTO past_runs (scope, revision, data) VALUES (?, ?, ?)
    ON CONFLICT (scope) DO UPDATE SET revision = excluded.revision, data = excluded.data`).run(
    scope,
    revision,
    mark(generation, bytes.byteLength),
  );
  // The previous generation stays for a process reading it; older ones go.
  stmt('DELETE FROM past_run_pieces WHERE scope = ? AND generation < ?').run(scope, generation - 1);
  return true;
}

/** The scope's row: its revision and its bytes whole (the pieces put together), if there is one. */
export function readWhole(stmt: Stmt, scope: string): { revision: number; data: Uint8Array } | undefined {
  const reader = openPieces(stmt, scope);
  return reader === undefined ? undefined : { revision: reader.revision, data: reader.read(0, reader.size) };
}

/** A reader of the scope's kept bytes, a range at a time (bytes of no mark: read whole at once). */
export function openPieces(stmt: Stmt, scope: string): PastRunsReader | undefined {
  // The row's bytes only when they can be a mark: a blob written before migration 14 is read whole below.
  const row = stmt(
    `SELECT revision, length(data) AS n, CASE WHEN length(data) = ${MARK_BYTES} THEN data END AS mark
     FROM past_runs WHERE scope = ?`,
  ).get(scope) as { revision: number; n: number; mark: Uint8Array | null } | undefined;
  if (row === undefined) return undefined;
  const revision = Number(row.revision);
  const named = row.mark === null ? undefined : readMark(row.mark);
  if (named === undefined) {
    const whole = (stmt('SELECT data FROM past_runs WHERE scope = ?').get(scope) as { data: Uint8Array }).data;
    return {
      revision,
      size: whole.byteLength,
      read: (offset, length) => whole.subarray(offset, offset + length),
      intact: () => true,
    };
  }
  return new PieceReader(stmt, scope, revision, named.generation, named.size);
}

class PieceReader implements PastRunsReader {
  /** Pieces read one at a time, kept (a query reads the same lines again). */
  readonly #pieces = new Map<number, Uint8Array>();

  constructor(
    private readonly stmt: Stmt,
    private readonly scope: string,
    readonly revision: number,
    private readonly generation: number,
    readonly size: number,
  ) {}

  intact(): boolean {
    if (this.size === 0) return true;
    return (
      this.stmt('SELECT 1 FROM past_run_pieces WHERE scope = ? AND generation = ? AND piece = 0').get(
        this.scope,
        this.generation,
      ) !== undefined
    );
  }

  read(offset: number, length: number): Uint8Array {
    if (offset < 0 || length < 0 || offset + length > this.size) throw new RangeError('past runs: read past the end');
    const first = Math.floor(offset / PIECE_BYTES);
    const last = Math.floor((offset + Math.max(0, length - 1)) / PIECE_BYTES);
    if (length === 0) return new Uint8Array(0);
    if (first === last) {
      const piece = this.#piece(first);
      const at = offset - first * PIECE_BYTES;
      return piece.subarray(at, at + length);
    }
    // A range over several pieces (a whole array): read in one statement into one buffer, not kept piece by piece
    // (unless every piece is held already: a range a query asked to have read before).
    const out = new Uint8Array(length);
    if (last - first < PREFETCH_SPAN && this.#holds(first, last)) {
      for (let piece = first; piece <= last; piece += 1) {
        const data = this.#pieces.get(piece) as Uint8Array;
        const start = piece * PIECE_BYTES;
        const from = Math.max(offset, start);
        const to = Math.min(offset + length, start + data.byteLength);
        out.set(data.subarray(from - start, to - start), from - offset);
      }
      return out;
    }
    const rows = this.stmt(
      'SELECT piece, data FROM past_run_pieces WHERE scope = ? AND generation = ? AND piece BETWEEN ? AND ?',
    )
      .raw()
      .iterate(this.scope, this.generation, first, last) as IterableIterator<[number, Uint8Array]>;
    let found = 0;
    for (const [piece, data] of rows) {
      const start = Number(piece) * PIECE_BYTES;
      const from = Math.max(offset, start);
      const to = Math.min(offset + length, start + data.byteLength);
      out.set(data.subarray(from - start, to - start), from - offset);
      found += 1;
    }
    if (found !== last - first + 1) throw new Error('past runs: the pieces read were replaced (read them again)');
    return out;
  }

  /**
   * Reads the pieces of `ranges` (offset, length) not held yet in one statement and keeps them (issue 20: a DAG's
   * nearest runs read ~800 pieces one statement each). Ranges over more than {@link PREFETCH_SPAN} pieces are left
   * to `read`; a piece missing (its generation replaced) is left for `read` to say so.
   */
  prefetch(ranges: readonly (readonly [number, number])[]): void {
    const wanted = new Set<number>();
    for (const [offset, length] of ranges) {
      if (!(offset >= 0 && length > 0 && offset + length <= this.size)) continue;
      const first = Math.floor(offset / PIECE_BYTES);
      const last = Math.floor((offset + length - 1) / PIECE_BYTES);
      if (last - first >= PREFETCH_SPAN) continue;
      for (let piece = first; piece <= last; piece += 1) if (!this.#pieces.has(piece)) wanted.add(piece);
    }
    if (wanted.size === 0) return;
    const rows = this.stmt(
      'SELECT piece, data FROM past_run_pieces WHERE scope = ? AND generation = ? ' +
        'AND piece IN (SELECT value FROM json_each(?))',
    )
      .raw()
      .all(this.scope, this.generation, JSON.stringify([...wanted])) as [number, Uint8Array][];
    for (const [piece, data] of rows) this.#pieces.set(Number(piece), data);
  }

  /** Whether pieces `first` to `last` are all held. */
  #holds(first: number, last: number): boolean {
    for (let piece = first; piece <= last; piece += 1) if (!this.#pieces.has(piece)) return false;
    return true;
  }

  #piece(piece: number): Uint8Array {
    let data = this.#pieces.get(piece);
    if (data === undefined) {
      const row = this.stmt('SELECT data FROM past_run_pieces WHERE scope = ? AND generation = ? AND piece = ?').get(
        this.scope,
        this.generation,
        piece,
      ) as { data: Uint8Array } | undefined;
      if (row === undefined) throw new Error('past runs: the pieces read were replaced (read them again)');
      data = row.data;
      this.#pieces.set(piece, data);
    }
    return data;
  }
}
