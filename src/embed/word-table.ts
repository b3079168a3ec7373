/**
 * @module embed/word-table
 * Reads `data/word-vectors.bin` (layout documented by scripts/build-word-vectors.mjs): a JSON header,
 * `count × dimension` int8 components with one scale, and the vocabulary as UTF-8 lines, by descending
 * corpus frequency (row + 1 = frequency rank). A zero-copy Int8Array view and an open-addressing hash index
 * (FNV-1a, linear probing): read from the file where it holds one (header `index`, written by
 * {@link withStoredIndex}), else built without a string per word; lazily, cached per process and path. A file with
 * its index is read but for its vectors, whose rows are read as words ask for them (a process embedding a query
 * reads a few hundred bytes of the 10 MB), all of them once many are asked or `vectors` is.
 */
import { closeSync, existsSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CredenceError } from '../core/errors.js';
import { describeError, providerUnavailable } from './errors.js';

const MAGIC = 'CRDWVEC1';
const PREFIX_BYTES = 12;

/** A table's JSON header (other fields are kept as they are). */
export interface WordTableHeader {
  readonly format: 1;
  readonly model: string;
  readonly count: number;
  readonly dimension: number;
  readonly scale: number;
  readonly sourceWords: number;
  readonly vocabBytes: number;
  readonly quantisation: {
    readonly scheme: string;
    readonly cosineError: { readonly mean: number; readonly p99: number; readonly max: number };
    readonly [key: string]: unknown;
  };
  /** The unit common direction for SIF smoothing `sifA`, precomputed by the build script. */
  readonly commonDirection?: { readonly sifA: number; readonly vector: readonly number[] };
  /** The hash index stored after the vocabulary: `count + 1` word starts, then `slots` rows (int32, -1 empty). */
  readonly index?: { readonly slots: number; readonly maxBytes: number };
  readonly [key: string]: unknown;
}

type Check = (value: unknown) => boolean;
const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
const isNumber: Check = (v) => typeof v === 'number' && Number.isFinite(v);
const isPositive: Check = (v) => isNumber(v) && (v as number) > 0;
const isCount: Check = (v) => Number.isSafeInteger(v) && (v as number) > 0;
const isSize: Check = (v) => Number.isSafeInteger(v) && (v as number) >= 0;

/** The first field of `value` that fails its check, as `path: expected`, or undefined when all pass. */
function firstIssue(value: unknown, fields: Record<string, [Check, string, boolean?]>, at = ''): string | undefined {
  if (!isObject(value)) return `${at || 'header'}: expected an object`;
  for (const [key, [check, expected, optional]] of Object.entries(fields)) {
    if (optional === true && value[key] === undefined) continue;
    if (!check(value[key])) return `${at}${key}: expected ${expected}`;
  }
  return undefined;
}

/**
 * `value` as a table header (format 1; the fields this reader uses, of the right kind).
 * @throws Error naming the first field that is missing or of the wrong kind.
 */
export function checkWordTableHeader(value: unknown): WordTableHeader {
  const issue =
    firstIssue(value, {
      format: [(v) => v === 1, '1'],
      model: [(v) => typeof v === 'string' && v.length > 0, 'a non-empty string'],
      count: [isCount, 'a positive integer'],
      dimension: [isCount, 'a positive integer'],
      scale: [isPositive, 'a positive number'],
      sourceWords: [isCount, 'a positive integer'],
      vocabBytes: [isSize, 'a non-negative integer'],
      quantisation: [isObject, 'an object'],
      commonDirection: [isObject, 'an object', true],
      index: [isObject, 'an object', true],
    }) ??
    firstIssue(
      (value as Record<string, unknown>).quantisation,
      {
        scheme: [(v) => typeof v === 'string', 'a string'],
        cosineError: [isObject, 'an object'],
      },
      'quantisation.',
    ) ??
    firstIssue(
      ((value as Record<string, unknown>).quantisation as Record<string, unknown>).cosineError,
      {
        mean: [isNumber, 'a number'],
        p99: [isNumber, 'a number'],
        max: [isNumber, 'a number'],
      },
      'quantisation.cosineError.',
    );
  if (issue !== undefined) throw new Error(issue);
  const { commonDirection, index } = value as Record<string, unknown>;
  const optional =
    (commonDirection === undefined
      ? undefined
      : firstIssue(
          commonDirection,
          {
            sifA: [isPositive, 'a positive number'],
            vector: [(v) => Array.isArray(v) && v.every(isNumber), 'an array of numbers'],
          },
          'commonDirection.',
        )) ??
    (index === undefined
      ? undefined
      : firstIssue(
          index,
          { slots: [isCount, 'a positive integer'], maxBytes: [isSize, 'a non-negative integer'] },
          'index.',
        ));
  if (optional !== undefined) throw new Error(optional);
  return value as WordTableHeader;
}

export interface WordTable {
  readonly path: string;
  readonly header: WordTableHeader;
  readonly model: string;
  readonly dimension: number;
  /** Number of words (rows). */
  readonly count: number;
  /** Row i (`dimension` int8 components) is the vector of word i, times `header.scale` (every row: read whole). */
  readonly vectors: Int8Array;
  /** The `dimension` int8 components of row `row` (read alone where the table reads its rows as asked). */
  rowVector(row: number): Int8Array;
  /** The row of `word` (= its frequency rank − 1), or undefined when the table does not have it. */
  row(word: string): number | undefined;
  /** The word of row `row`. */
  word(row: number): string;
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const NEWLINE = 0x0a;

interface WordIndex {
  /** Where each word starts, from the vocabulary's start; `offsets[count]` is its length + 1. */
  offsets: Int32Array;
  /** Open addressing (a power of two): a word's row at its FNV-1a hash or past it, -1 where empty. */
  slots: Int32Array;
  maxBytes: number;
}

/** Hash index over the newline-separated words in `bytes[start, end)`. */
function indexWords(bytes: Buffer, start: number, end: number, count: number): WordIndex | undefined {
  let size = 1;
  while (size < count * 2) size *= 2;
  const mask = size - 1;
  const slots = new Int32Array(size).fill(-1);
  const offsets = new Int32Array(count + 1);
  let maxBytes = 0;
  let word = 0;
  let wordStart = start;
  let hash = FNV_OFFSET;
  for (let p = start; p <= end; p += 1) {
    const byte = p === end ? NEWLINE : (bytes[p] as number);
    if (byte !== NEWLINE) {
      hash = Math.imul(hash ^ byte, FNV_PRIME);
      continue;
    }
    if (word >= count) return undefined;
    offsets[word] = wordStart - start;
    maxBytes = Math.max(maxBytes, p - wordStart);
    let slot = hash & mask;
    while (slots[slot] !== -1) slot = (slot + 1) & mask;
    slots[slot] = word;
    word += 1;
    wordStart = p + 1;
    hash = FNV_OFFSET;
  }
  if (word !== count) return undefined;
  offsets[count] = end + 1 - start;
  return { offsets, slots, maxBytes };
}

/** `count` int32 at `at` of `bytes`, without a copy where aligned. */
function int32s(bytes: Buffer, at: number, count: number): Int32Array {
  if ((bytes.byteOffset + at) % 4 === 0) return new Int32Array(bytes.buffer, bytes.byteOffset + at, count);
  return new Int32Array(Uint8Array.from(bytes.subarray(at, at + 4 * count)).buffer);
}

/** Where the stored index starts: the vocabulary's end, rounded up to 4 bytes. */
const indexStart = (vocabEnd: number): number => Math.ceil(vocabEnd / 4) * 4;

/**
 * The index the file holds after its vocabulary, checked for shape (every row once, room left), or undefined.
 * `tail` holds the file's bytes from `tailAt` (the vocabulary's start) to its end.
 */
function storedIndex(tail: Buffer, tailAt: number, header: WordTableHeader, vocabEnd: number): WordIndex | undefined {
  const stored = header.index;
  // The int32 arrays are little-endian, read as the machine's own.
  if (stored === undefined || new Uint8Array(Uint16Array.of(1).buffer)[0] !== 1) return undefined;
  const { count } = header;
  const at = indexStart(vocabEnd) - tailAt;
  if (stored.slots <= count || (stored.slots & (stored.slots - 1)) !== 0) return undefined;
  if (at + 4 * (count + 1 + stored.slots) !== tail.length) return undefined;
  const offsets = int32s(tail, at, count + 1);
  const slots = int32s(tail, at + 4 * (count + 1), stored.slots);
  // Not read through: a damaged slot only misses its word (its row's bytes are compared), and a probe ends.
  if (offsets[0] !== 0 || offsets[count] !== header.vocabBytes + 1) return undefined;
  return { offsets, slots, maxBytes: stored.maxBytes };
}

/** Where the shipped table is, from `src/embed` (tests) or `dist/src/embed` (the built package). */
export function defaultWordTablePath(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [
    join(here, '..', '..', 'data', 'word-vectors.bin'),
    join(here, '..', '..', '..', 'data', 'word-vectors.bin'),
  ];
  return candidates.find((p) => existsSync(p)) ?? (candidates[0] as string);
}

const unreadable = (path: string, error: unknown) =>
  providerUnavailable('word-vectors', path, `cannot read the word-vector table (${describeError(error)})`, error);

const notATable = (path: string, reason: string, cause?: unknown) =>
  providerUnavailable('word-vectors', path, `not a valid word-vector table: ${reason}`, cause);

/** A table's layout from its first bytes (the signature, the header's length, the header): what `read` gives. */
function readLayout(read: (at: number, length: number) => Buffer, size: number, path: string) {
  const bad = (reason: string, cause?: unknown) => notATable(path, reason, cause);
  const prefix = size < PREFIX_BYTES ? Buffer.alloc(0) : read(0, PREFIX_BYTES);
  if (prefix.length < PREFIX_BYTES || prefix.toString('latin1', 0, MAGIC.length) !== MAGIC)
    throw bad(`missing the ${MAGIC} signature`);
  const headerBytes = prefix.readUInt32LE(8);
  if (PREFIX_BYTES + headerBytes > size) throw bad('truncated header');
  let header: WordTableHeader;
  try {
    header = checkWordTableHeader(JSON.parse(read(PREFIX_BYTES, headerBytes).toString('utf8')));
  } catch (error) {
    throw bad(`unreadable header (${describeError(error)})`, error);
  }
  const vectorStart = PREFIX_BYTES + headerBytes;
  const vocabStart = vectorStart + header.count * header.dimension;
  const vocabEnd = vocabStart + header.vocabBytes;
  if (header.index === undefined ? vocabEnd !== size : vocabEnd > size) {
    throw bad(
      `expected ${vocabEnd} bytes for ${header.count} words of dimension ${header.dimension}` +
        `${header.index === undefined ? '' : ' and an index'}, got ${size}`,
    );
  }
  if (header.commonDirection !== undefined && header.commonDirection.vector.length !== header.dimension) {
    throw bad(`the common direction has ${header.commonDirection.vector.length} components, not ${header.dimension}`);
  }
  return { header, vectorStart, vocabStart, vocabEnd };
}

/**
 * Parses a table file's bytes.
 * @throws CredenceError PROVIDER_UNAVAILABLE naming `path` when the bytes are not a valid table.
 */
export function parseWordTable(bytes: Buffer, path: string): WordTable {
  const layout = readLayout((at, length) => bytes.subarray(at, at + length), bytes.length, path);
  const { header, vectorStart, vocabStart } = layout;
  const vectors = new Int8Array(bytes.buffer, bytes.byteOffset + vectorStart, header.count * header.dimension);
  return assemble(path, layout, bytes.subarray(vocabStart), {
    vectors: () => vectors,
    row: (row) => vectors.subarray(row * header.dimension, (row + 1) * header.dimension),
  });
}

/**
 * The table over its vocabulary and index (`tail`: the bytes from the vocabulary's start to the file's end) and its
 * vectors as `read` gives them (every row, or one).
 */
function assemble(
  path: string,
  layout: ReturnType<typeof readLayout>,
  tail: Buffer,
  read: { vectors: () => Int8Array; row: (row: number) => Int8Array },
): WordTable {
  const { header, vocabStart, vocabEnd } = layout;
  const vocabBytes = vocabEnd - vocabStart;
  const index =
    header.index === undefined
      ? indexWords(tail, 0, vocabBytes, header.count)
      : (storedIndex(tail, vocabStart, header, vocabEnd) ?? indexWords(tail, 0, vocabBytes, header.count));
  if (index === undefined) throw notATable(path, `the vocabulary does not hold ${header.count} words`);
  const bytes = tail;
  const { offsets, slots, maxBytes } = index;
  const mask = slots.length - 1;
  const scratch = new Uint8Array(maxBytes + 4);
  const encoder = new TextEncoder();
  const inRange = (row: number) => {
    if (!Number.isInteger(row) || row < 0 || row >= header.count) {
      throw new CredenceError('INVALID_INPUT', `row must be an integer in [0, ${header.count}), got ${row}`, {
        details: { row },
      });
    }
  };
  return {
    path,
    header,
    model: header.model,
    dimension: header.dimension,
    count: header.count,
    get vectors() {
      return read.vectors();
    },
    rowVector(row: number): Int8Array {
      inRange(row);
      return read.row(row);
    },
    row(word: string): number | undefined {
      if (word.length > maxBytes) return undefined;
      const { read, written } = encoder.encodeInto(word, scratch);
      if (read !== word.length || written > maxBytes) return undefined;
      let hash = FNV_OFFSET;
      for (let k = 0; k < written; k += 1) hash = Math.imul(hash ^ (scratch[k] as number), FNV_PRIME);
      for (let slot = hash & mask, probes = 0; probes <= mask; slot = (slot + 1) & mask, probes += 1) {
        const row = slots[slot] as number;
        if (row === -1) return undefined;
        const at = offsets[row] as number;
        if ((offsets[row + 1] as number) - (offsets[row] as number) - 1 !== written) continue;
        let same = true;
        for (let k = 0; k < written && same; k += 1) same = bytes[at + k] === scratch[k];
        if (same) return row;
      }
      return undefined;
    },
    word(row: number): string {
      inRange(row);
      return bytes.toString('utf8', offsets[row] as number, (offsets[row + 1] as number) - 1);
    },
  };
}

/**
 * A table file's bytes with its hash index stored after the vocabulary (header `index`), so a process reads it
 * instead of building it (scripts/index-word-vectors.mjs); the vectors and the vocabulary are the same bytes.
 * @throws CredenceError PROVIDER_UNAVAILABLE when the bytes are not a valid table.
 */
export function withStoredIndex(bytes: Buffer, path: string): Buffer {
  const table = parseWordTable(bytes, path);
  const { header } = table;
  const headerBytes = bytes.readUInt32LE(8);
  const start = PREFIX_BYTES + headerBytes + header.count * header.dimension;
  const body = bytes.subarray(PREFIX_BYTES + headerBytes, start);
  const vocab = bytes.subarray(start, start + header.vocabBytes);
  const index = indexWords(bytes, start, start + header.vocabBytes, header.count) as WordIndex;
  const { index: _old, ...rest } = header;
  let json = Buffer.from(JSON.stringify({ ...rest, index: { slots: index.slots.length, maxBytes: index.maxBytes } }));
  json = Buffer.concat([
    json,
    Buffer.alloc(Math.ceil((PREFIX_BYTES + json.length) / 4) * 4 - PREFIX_BYTES - json.length, 0x20),
  ]);
  const prefix = Buffer.alloc(PREFIX_BYTES);
  prefix.write(MAGIC, 0, 'latin1');
  prefix.writeUInt32LE(json.length, 8);
  const vocabEnd = PREFIX_BYTES + json.length + body.length + vocab.length;
  return Buffer.concat([
    prefix,
    json,
    body,
    vocab,
    Buffer.alloc(indexStart(vocabEnd) - vocabEnd),
    Buffer.from(index.offsets.buffer, index.offsets.byteOffset, index.offsets.byteLength),
    Buffer.from(index.slots.buffer, index.slots.byteOffset, index.slots.byteLength),
  ]);
}

const cache = new Map<string, WordTable>();

/**
 * The table at `path`, read on first use and cached for the life of the process.
 * @throws CredenceError PROVIDER_UNAVAILABLE when the file is missing, unreadable or not a table.
 */
export function loadWordTable(path: string = defaultWordTablePath()): WordTable {
  const key = resolve(path);
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  let table: WordTable;
  try {
    table = openWordTable(key);
  } catch (error) {
    if (error instanceof CredenceError) throw error;
    throw unreadable(key, error);
  }
  cache.set(key, table);
  return table;
}

/** Rows read one at a time before the table reads all of them (a process embedding many texts: a build). */
const ROWS_ALONE = 2048;

/**
 * The table at `path`: a file with its index read but for its vectors, whose rows are read when asked (all of them
 * past {@link ROWS_ALONE}, or when `vectors` is); a file without one read whole.
 */
function openWordTable(path: string): WordTable {
  const fd = openSync(path, 'r');
  let open = true;
  const close = () => {
    if (open) closeSync(fd);
    open = false;
  };
  try {
    const size = fstatSync(fd).size;
    const readAt = (at: number, length: number): Buffer => {
      const out = Buffer.allocUnsafe(length);
      let done = 0;
      while (done < length) {
        const n = readSync(fd, out, done, length - done, at + done);
        if (n === 0) throw new Error(`the file ended at byte ${at + done} of ${size}`);
        done += n;
      }
      return out;
    };
    const layout = readLayout(readAt, size, path);
    if (layout.header.index === undefined) {
      close();
      return parseWordTable(readFileSync(path), path);
    }
    const { header, vectorStart, vocabStart } = layout;
    const dim = header.dimension;
    const tail = readAt(vocabStart, size - vocabStart);
    let all: Int8Array | undefined;
    const rows = new Map<number, Int8Array>();
    const vectors = (): Int8Array => {
      if (all === undefined) {
        let bytes: Buffer;
        try {
          bytes = readAt(vectorStart, header.count * dim);
        } catch (error) {
          throw unreadable(path, error);
        }
        all = new Int8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
        rows.clear();
        close();
      }
      return all;
    };
    const table = assemble(path, layout, tail, {
      vectors,
      row: (row) => {
        if (all === undefined && rows.size >= ROWS_ALONE) vectors();
        if (all !== undefined) return all.subarray(row * dim, (row + 1) * dim);
        let v = rows.get(row);
        if (v === undefined) {
          let bytes: Buffer;
          try {
            bytes = readAt(vectorStart + row * dim, dim);
          } catch (error) {
            throw unreadable(path, error);
          }
          v = new Int8Array(bytes.buffer, bytes.byteOffset, dim);
          rows.set(row, v);
        }
        return v;
      },
    });
    return table;
  } catch (error) {
    close();
    throw error;
  }
}
