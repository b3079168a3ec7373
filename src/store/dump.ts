/**
 * @module store/dump
 * A whole store as one file and back (`credence dump` / `restore`, issue 10), through the Store
 * interface only, so any backend dumps into any other. JSON Lines: a header line
 * (`{"format":"credence-dump","version":1,…,"tables":{…}}` with every table's row count), then one
 * `{"t":"<table>","r":{…}}` line per row, tables in `DUMP_TABLES` order; both directions stream.
 * A restore checks the whole file before writing anything (so a broken or truncated file leaves the
 * target untouched), restores only into an empty store, and checks the target's counts at the end.
 * The format in full: docs/operations.md.
 */
import { z } from 'zod';
import { CredenceError, isCredenceError } from '../core/errors.js';
import { formatIssues, PLAIN_ISSUES } from '../schemas/format.js';
import { dumpRowProblem } from './dump-rows.js';
import { DUMP_TABLES, TABLES, type DumpRow, type DumpTable, type Store, type TableName } from './types.js';
import { withoutBom } from '../core/text/plain-text.js';

export const DUMP_FORMAT = 'credence-dump';
export const DUMP_VERSION = 1;

/** @default 500 rows per batch, read or written */
export const DUMP_DEFAULTS = Object.freeze({ batchSize: 500 });

export type DumpCounts = Record<DumpTable, number>;

const Count = z.number().int().min(0);

export const DumpHeaderSchema = z.strictObject({
  format: z.literal(DUMP_FORMAT),
  version: z.number().int(),
  schemaVersion: z.number().int().min(1),
  from: z.enum(['sqlite', 'postgres']),
  createdAt: z.string(),
  tables: z.strictObject(
    Object.fromEntries(DUMP_TABLES.map((t) => [t, Count.optional()])) as Record<DumpTable, z.ZodOptional<typeof Count>>,
  ),
});
export type DumpHeader = Omit<z.infer<typeof DumpHeaderSchema>, 'tables'> & { tables: DumpCounts };

export const DumpLineSchema = z.strictObject({
  t: z.enum(DUMP_TABLES, { error: `must be one of ${DUMP_TABLES.join(', ')}` }),
  r: z.record(z.string(), z.union([z.string(), z.number(), z.null()])),
});

export interface DumpReport {
  from: Store['kind'];
  location: string;
  schemaVersion: number;
  createdAt: string;
  tables: DumpCounts;
  rows: number;
}

export interface RestoreReport {
  /** The backend the dump was taken from, and when. */
  from: Store['kind'];
  createdAt: string;
  schemaVersion: number;
  /** The store restored into. */
  to: Store['kind'];
  target: string;
  tables: DumpCounts;
  rows: number;
}

const zeroCounts = (): DumpCounts => Object.fromEntries(DUMP_TABLES.map((t) => [t, 0])) as DumpCounts;
const total = (counts: DumpCounts): number => DUMP_TABLES.reduce((n, t) => n + counts[t], 0);

/** How many rows each dumped table of `store` holds (every scope). */
export async function dumpCounts(store: Store): Promise<DumpCounts> {
  const counts = zeroCounts();
  const known = await store.counts();
  for (const table of DUMP_TABLES) {
    if ((TABLES as readonly string[]).includes(table)) counts[table] = known[table as TableName];
    else for await (const batch of store.exportRows(table, { batchSize: 2000 })) counts[table] += batch.length;
  }
  return counts;
}

/** The first line of a dump: its format, the store's schema and kind, when, and each table's row count. */
async function dumpHeader(store: Store, tables: DumpCounts, now: number | undefined): Promise<DumpHeader> {
  return {
    format: DUMP_FORMAT,
    version: DUMP_VERSION,
    schemaVersion: await store.schemaVersion(),
    from: store.kind,
    createdAt: new Date(now ?? Date.now()).toISOString(),
    tables,
  };
}

/** The body lines of a table's rows. */
const rowLines = (table: DumpTable, rows: readonly DumpRow[]): string =>
  rows.map((r) => `${JSON.stringify({ t: table, r })}\n`).join('');

/**
 * Writes every row of `store` to `write` as a dump (see the module header), awaiting each write so
 * a slow sink holds back the reading. Fails (STORE_UNAVAILABLE) when a table's rows did not match
 * the count taken first: the store changed while it was read, and the dump must be taken again.
 */
export async function writeDump(
  store: Store,
  write: (text: string) => void | Promise<void>,
  options: { now?: number; batchSize?: number } = {},
): Promise<DumpReport> {
  const tables = await dumpCounts(store);
  const header = await dumpHeader(store, tables, options.now);
  await write(`${JSON.stringify(header)}\n`);
  for (const table of DUMP_TABLES) {
    let written = 0;
    for await (const batch of store.exportRows(table, { batchSize: options.batchSize ?? DUMP_DEFAULTS.batchSize })) {
      written += batch.length;
      await write(rowLines(table, batch));
    }
    if (written !== tables[table]) {
      throw new CredenceError(
        'STORE_UNAVAILABLE',
        `the store changed while it was dumped: ${table} held ${tables[table]} rows when the dump began ` +
          `and ${written} as they were read; dump again while nothing writes to ${store.location}`,
        { details: { table, expected: tables[table], read: written } },
      );
    }
  }
  const { format: _format, version: _version, ...rest } = header;
  return { ...rest, location: store.location, rows: total(tables) };
}

/** What `salvageDump` could not read: per table, the error that stopped it (its readable rows are in the dump). */
export interface SalvageReport extends DumpReport {
  skipped: { table: DumpTable; read: number; error: string }[];
}

async function readAll(rows: AsyncIterable<DumpRow[]>, into: DumpRow[]): Promise<string | undefined> {
  try {
    for await (const batch of rows) into.push(...batch);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/**
 * A dump of what a damaged store still holds (`credence dump --salvage`): each table is read from its start until
 * a page fails, then from its end back to that page, a row at a time (a failed batch loses no readable row);
 * what neither reaches is skipped and reported. The rows are
 * held in memory until the header (with their counts) is written, so the dump restores as any other.
 */
export async function salvageDump(
  store: Store,
  write: (text: string) => void | Promise<void>,
  options: { now?: number } = {},
): Promise<SalvageReport> {
  const read = new Map<DumpTable, DumpRow[]>();
  const skipped: SalvageReport['skipped'] = [];
  for (const table of DUMP_TABLES) {
    const rows: DumpRow[] = [];
    const error = await readAll(store.exportRows(table, { batchSize: 1 }), rows);
    if (error !== undefined) {
      const seen = new Set(rows.map((r) => JSON.stringify(r)));
      const tail: DumpRow[] = [];
      await readAll(store.exportRows(table, { batchSize: 1, descending: true }), tail);
      rows.push(...tail.filter((r) => !seen.has(JSON.stringify(r))).reverse());
      skipped.push({ table, read: rows.length, error });
    }
    read.set(table, rows);
  }
  const tables = Object.fromEntries(DUMP_TABLES.map((t) => [t, read.get(t)?.length ?? 0])) as DumpCounts;
  const header = await dumpHeader(store, tables, options.now);
  await write(`${JSON.stringify(header)}\n`);
  for (const table of DUMP_TABLES) {
    const rows = read.get(table) ?? [];
    for (let i = 0; i < rows.length; i += 500) await write(rowLines(table, rows.slice(i, i + 500)));
  }
  const { format: _format, version: _version, ...rest } = header;
  return { ...rest, location: store.location, rows: total(tables), skipped };
}

/** A broken dump line: INVALID_INPUT with the line number in `details.line`. */
const lineError = (line: number, reason: string): CredenceError =>
  new CredenceError('INVALID_INPUT', `line ${line}: ${reason}`, { details: { line } });

/** One parsed line of the body: the table and the row, with the line it came from. */
interface BodyLine {
  line: number;
  table: DumpTable;
  row: DumpRow;
}

/** The newest schema a dump may have: the store's (`newestSchema`), else the newest this Credence knows. */
interface SchemaCeiling {
  newestSchema?: number;
  knownSchema?: number;
}

/** The first bytes of every SQLite database file. */
const SQLITE_HEADER = 'SQLite format 3\u0000';
const SQLITE_FILE =
  'this is a SQLite database (a `credence backup` file?), not a dump: use it as a store with --db FILE, or copy ' +
  'it into place as the store (docs/operations.md, Backing up and restoring)';

/** The header and then every row of a dump, each checked; throws at the first bad line. */
async function* readDump(
  lines: AsyncIterable<string>,
  ceiling: SchemaCeiling = {},
): AsyncGenerator<DumpHeader | BodyLine> {
  let n = 0;
  let header: DumpHeader | undefined;
  for await (const text of lines) {
    n += 1;
    if (text.trim() === '') continue;
    // A backup (`credence backup`) is a database file, not a dump: said so, not as malformed JSON.
    if (n === 1 && text.startsWith(SQLITE_HEADER)) throw lineError(n, SQLITE_FILE);
    let value: unknown;
    try {
      // The first line may open with a byte order mark (a dump saved again by an editor).
      value = JSON.parse(n === 1 ? withoutBom(text) : text);
    } catch (error) {
      throw lineError(n, `malformed JSON (${(error as Error).message})`);
    }
    if (header === undefined) {
      header = parseHeader(n, value, ceiling);
      yield header;
      continue;
    }
    const parsed = DumpLineSchema.safeParse(value, PLAIN_ISSUES);
    if (!parsed.success) throw lineError(n, `not a dump row {"t": table, "r": {…}}: ${formatIssues(parsed.error)}`);
    const problem = dumpRowProblem(parsed.data.t, parsed.data.r);
    if (problem !== undefined) throw lineError(n, problem);
    yield { line: n, table: parsed.data.t, row: parsed.data.r };
  }
  if (header === undefined) throw lineError(Math.max(1, n), 'the file is empty: a dump starts with its header line');
}

/**
 * The header, checked. Its schema version is read first and a newer one refused by it (SCHEMA_TOO_NEW), before the
 * strict checks: a newer Credence's dump may hold a table or a field this one does not know, which is no damage.
 */
function parseHeader(line: number, value: unknown, ceiling: SchemaCeiling): DumpHeader {
  const format = (value as { format?: unknown } | null)?.format;
  if (format !== DUMP_FORMAT) {
    throw lineError(
      line,
      `not a Credence dump: the first line must be a header with "format": "${DUMP_FORMAT}", ` +
        `got ${JSON.stringify(format ?? null)}`,
    );
  }
  const schema = (value as { schemaVersion?: unknown }).schemaVersion;
  if (typeof schema === 'number' && Number.isInteger(schema)) {
    if (ceiling.newestSchema !== undefined) refuseNewer(schema, ceiling.newestSchema, "this store's");
    if (ceiling.knownSchema !== undefined) refuseNewer(schema, ceiling.knownSchema, 'this Credence knows');
  }
  const version = (value as { version?: unknown }).version;
  if (version !== DUMP_VERSION) {
    throw lineError(
      line,
      `dump format version ${JSON.stringify(version ?? null)} is not one this Credence reads (version ${DUMP_VERSION})`,
    );
  }
  const parsed = DumpHeaderSchema.safeParse(value, PLAIN_ISSUES);
  if (!parsed.success) throw lineError(line, `bad dump header: ${formatIssues(parsed.error)}`);
  return { ...parsed.data, tables: { ...zeroCounts(), ...parsed.data.tables } as DumpCounts };
}

/**
 * Reads a whole dump without writing anything: the header, and every row checked against its
 * table, the tables in `DUMP_TABLES` order, the counts equal to the header's (a truncated file
 * fails here). Throws INVALID_INPUT naming the line; with `newestSchema` (the schema version of
 * the store it is for) or `knownSchema` (the newest this Credence knows, when the store's is not known yet),
 * SCHEMA_TOO_NEW at a header of a newer schema, before anything else of the header is checked.
 */
export async function checkDump(lines: AsyncIterable<string>, options: SchemaCeiling = {}): Promise<DumpHeader> {
  let header: DumpHeader | undefined;
  const seen = zeroCounts();
  let at = -1;
  let last = 0;
  for await (const item of readDump(lines, options)) {
    if (!('table' in item)) {
      header = item;
      continue;
    }
    last = item.line;
    const index = DUMP_TABLES.indexOf(item.table);
    if (index < at) {
      throw lineError(
        item.line,
        `a ${item.table} row after ${DUMP_TABLES[at]} rows: ` +
          `a dump lists its tables in the order ${DUMP_TABLES.join(', ')}`,
      );
    }
    at = index;
    seen[item.table] += 1;
    if (header !== undefined && seen[item.table] > header.tables[item.table]) {
      throw lineError(item.line, `more ${item.table} rows than the header's ${header.tables[item.table]}`);
    }
  }
  const h = header as DumpHeader;
  const short = DUMP_TABLES.filter((t) => seen[t] !== h.tables[t]);
  if (short.length > 0) {
    throw lineError(
      last + 1,
      `the dump ends early (truncated?): ` +
        short.map((t) => `${t} has ${seen[t]} of the header's ${h.tables[t]} rows`).join(', '),
    );
  }
  return h;
}

/** The schema version from which a dump's workflows are counted with a failed call worth nothing (migration 19). */
const WORKFLOWS_RECOUNTED_AT = 19;

/** SCHEMA_TOO_NEW when the dump's schema is newer than `schemaVersion`: the store's, or the newest known. */
function refuseNewer(dump: number, schemaVersion: number, whose: "this store's" | 'this Credence knows'): void {
  if (dump <= schemaVersion) return;
  throw new CredenceError(
    'SCHEMA_TOO_NEW',
    `the dump has schema version ${dump}, newer than ${whose} (${schemaVersion}); restore it with a newer Credence`,
    { details: { dump, store: schemaVersion } },
  );
}

const describeCounts = (counts: Partial<DumpCounts>): string =>
  DUMP_TABLES.filter((t) => (counts[t] ?? 0) > 0)
    .map((t) => `${t} ${counts[t]}`)
    .join(', ');

/**
 * Restores a dump into an empty `store`. `open` opens the dump's lines afresh each time it is
 * called: once to check the whole file, once to import it. Nothing is written unless the file is
 * sound, its schema is not newer than the store's, and the store is empty (NOT_EMPTY names what it
 * holds). Rows go in through `importRows`, a batch per transaction; the counts are checked at the end.
 * Should the store refuse a row (a duplicate key, a value its schema does not allow), the restore
 * stops with INVALID_INPUT naming the line and what was already written (`details.partial`).
 */
export async function restoreDump(
  store: Store,
  open: () => AsyncIterable<string>,
  options: {
    batchSize?: number;
    /** The header `checkDump` returned for this very file, when the caller checked it already. */
    checked?: DumpHeader;
    /** What names the store's file in the caller's words, for NOT_EMPTY: `db` (the library), `--db` (the CLI). */
    db?: string;
  } = {},
): Promise<RestoreReport> {
  const schemaVersion = await store.schemaVersion();
  const header = options.checked ?? (await checkDump(open(), { newestSchema: schemaVersion }));
  refuseNewer(header.schemaVersion, schemaVersion, "this store's");
  const before = await dumpCounts(store);
  if (total(before) > 0) {
    throw new CredenceError(
      'NOT_EMPTY',
      `${store.location} already holds data (${describeCounts(before)}); ` +
        `restore into an empty store (a new ${options.db ?? 'db'} file or an empty database) — nothing was written`,
      { details: { counts: before } },
    );
  }
  const batchSize = Math.max(1, options.batchSize ?? DUMP_DEFAULTS.batchSize);
  const imported = zeroCounts();
  let batch: BodyLine[] = [];
  const flush = async (): Promise<void> => {
    const first = batch[0];
    if (first === undefined) return;
    try {
      imported[first.table] += await store.importRows(
        first.table,
        batch.map((b) => b.row),
      );
    } catch (error) {
      const row = (error as CredenceError).details?.row;
      const line = typeof row === 'number' ? (batch[row]?.line ?? first.line) : first.line;
      const partial = describeCounts(imported);
      // A store gone out of reach or busy meanwhile (walk 19, item 2) is no refused row: its own message, and
      // what is left to do about the target written part way.
      if (isCredenceError(error, 'STORE_UNAVAILABLE') || isCredenceError(error, 'STORE_BUSY'))
        throw new CredenceError(
          error.code,
          `${error.message.replace(/; retry(?: later)?$/, '')}: the restore stopped at line ${line}. ` +
            (partial === ''
              ? 'Nothing was restored: restore again once it answers.'
              : `${store.location} now holds only ${partial}; once it answers, ` +
                'empty it (or use a new one) before restoring again.'),
          { cause: error, details: { ...error.details, line, partial: imported } },
        );
      throw new CredenceError(
        'INVALID_INPUT',
        `line ${line}: the store refused the row: ${(error as Error).message}. ` +
          (partial === ''
            ? 'Nothing was restored.'
            : `The restore stopped part way: ${store.location} now holds only ${partial}; ` +
              'empty it (or use a new one) before restoring again.'),
        { cause: error, details: { line, partial: imported } },
      );
    }
    batch = [];
  };
  // A dump older than schema 19 holds workflows counted under the old quality rule: they are not restored, the engine
  // builds them from the executions at first use (as migration 19 does to a store).
  const recount = header.schemaVersion < WORKFLOWS_RECOUNTED_AT;
  for await (const item of readDump(open())) {
    if (!('table' in item) || (recount && item.table === 'workflows')) continue;
    if (batch.length > 0 && (batch[0]?.table !== item.table || batch.length >= batchSize)) await flush();
    batch.push(item);
  }
  await flush();
  // A read of the empty store before (`credence workflows`, a run) may have marked its scope built from no runs: the
  // restored executions are built at next use, as every restored scope's are.
  await store.clearWorkflowBuilds();
  // A dump older than schema 26/27 holds no `learned` / `declared` marks: derived as the migrations derive them.
  await store.deriveRestoredMarks(header.schemaVersion);
  const after = await dumpCounts(store);
  const off = DUMP_TABLES.filter((t) => after[t] !== header.tables[t] && !(recount && t === 'workflows'));
  if (off.length > 0) {
    throw new CredenceError(
      'STORE_UNAVAILABLE',
      `after the restore ${store.location} does not hold what the dump does: ` +
        `${off.map((t) => `${t} ${after[t]} (dump ${header.tables[t]})`).join(', ')}; did something else write to it?`,
      { details: { counts: after, expected: header.tables } },
    );
  }
  return {
    from: header.from,
    createdAt: header.createdAt,
    schemaVersion: header.schemaVersion,
    to: store.kind,
    target: store.location,
    tables: imported,
    rows: total(imported),
  };
}
