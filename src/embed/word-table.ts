/**
 * @module embed/word-table
 * Reads `data/word-vectors.bin` (layout documented by scripts/build-word-vectors.mjs): a JSON header,
 * `count × dimension` int8 components with one scale, and the vocabulary as UTF-8 lines, by descending
 * corpus frequency (row + 1 = frequency rank). One file read, a zero-copy Int8Array view and an
 * open-addressing hash index (FNV-1a, linear probing) built without a string per word; done lazily and
 * cached per process and path.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { CredenceError } from '../core/errors.js';
import { describeError, providerUnavailable } from './errors.js';

const MAGIC = 'CRDWVEC1';
const PREFIX_BYTES = 12;

export const WordTableHeaderSchema = z
  .object({
    format: z.literal(1),
    model: z.string().min(1),
    count: z.number().int().positive(),
    dimension: z.number().int().positive(),
    scale: z.number().positive(),
    sourceWords: z.number().int().positive(),
    vocabBytes: z.number().int().nonnegative(),
    quantisation: z
      .object({
        scheme: z.string(),
        cosineError: z.object({ mean: z.number(), p99: z.number(), max: z.number() }),
      })
      .passthrough(),
    /** The unit common direction for SIF smoothing `sifA`, precomputed by the build script. */
    commonDirection: z.object({ sifA: z.number().positive(), vector: z.array(z.number()) }).optional(),
  })
  .passthrough();
export type WordTableHeader = z.infer<typeof WordTableHeaderSchema>;

export interface WordTable {
  readonly path: string;
  readonly header: WordTableHeader;
  readonly model: string;
  readonly dimension: number;
  /** Number of words (rows). */
  readonly count: number;
  /** Row i (`dimension` int8 components) is the vector of word i, times `header.scale`. */
  readonly vectors: Int8Array;
  /** The row of `word` (= its frequency rank − 1), or undefined when the table does not have it. */
  row(word: string): number | undefined;
  /** The word of row `row`. */
  word(row: number): string;
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const NEWLINE = 0x0a;

/** Hash index over the newline-separated words in `bytes[start, end)`. */
function indexWords(
  bytes: Buffer,
  start: number,
  end: number,
  count: number,
): { offsets: Int32Array; slots: Int32Array; maxBytes: number } | undefined {
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
    offsets[word] = wordStart;
    maxBytes = Math.max(maxBytes, p - wordStart);
    let slot = hash & mask;
    while (slots[slot] !== -1) slot = (slot + 1) & mask;
    slots[slot] = word;
    word += 1;
    wordStart = p + 1;
    hash = FNV_OFFSET;
  }
  if (word !== count) return undefined;
  offsets[count] = end + 1;
  return { offsets, slots, maxBytes };
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

/**
 * Parses a table file's bytes.
 * @throws CredenceError PROVIDER_UNAVAILABLE naming `path` when the bytes are not a valid table.
 */
export function parseWordTable(bytes: Buffer, path: string): WordTable {
  const bad = (reason: string, cause?: unknown) =>
    providerUnavailable('word-vectors', path, `not a valid word-vector table: ${reason}`, cause);
  if (bytes.length < PREFIX_BYTES || bytes.toString('latin1', 0, MAGIC.length) !== MAGIC)
    throw bad(`missing the ${MAGIC} signature`);
  const headerBytes = bytes.readUInt32LE(8);
  if (PREFIX_BYTES + headerBytes > bytes.length) throw bad('truncated header');
  let header: WordTableHeader;
  try {
    header = WordTableHeaderSchema.parse(JSON.parse(bytes.toString('utf8', PREFIX_BYTES, PREFIX_BYTES + headerBytes)));
  } catch (error) {
    throw bad(`unreadable header (${describeError(error)})`, error);
  }
  const vectorStart = PREFIX_BYTES + headerBytes;
  const vocabStart = vectorStart + header.count * header.dimension;
  if (vocabStart + header.vocabBytes !== bytes.length) {
    throw bad(
      `expected ${vocabStart + header.vocabBytes} bytes for ${header.count} words of dimension ${header.dimension}, ` +
        `got ${bytes.length}`,
    );
  }
  const index = indexWords(bytes, vocabStart, vocabStart + header.vocabBytes, header.count);
  if (index === undefined) throw bad(`the vocabulary does not hold ${header.count} words`);
  if (header.commonDirection !== undefined && header.commonDirection.vector.length !== header.dimension) {
    throw bad(`the common direction has ${header.commonDirection.vector.length} components, not ${header.dimension}`);
  }
  const { offsets, slots, maxBytes } = index;
  const mask = slots.length - 1;
  const scratch = new Uint8Array(maxBytes + 4);
  const encoder = new TextEncoder();
  return {
    path,
    header,
    model: header.model,
    dimension: header.dimension,
    count: header.count,
    vectors: new Int8Array(bytes.buffer, bytes.byteOffset + vectorStart, header.count * header.dimension),
    row(word: string): number | undefined {
      if (word.length > maxBytes) return undefined;
      const { read, written } = encoder.encodeInto(word, scratch);
      if (read !== word.length || written > maxBytes) return undefined;
      let hash = FNV_OFFSET;
      for (let k = 0; k < written; k += 1) hash = Math.imul(hash ^ (scratch[k] as number), FNV_PRIME);
      for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
        const row = slots[slot] as number;
        if (row === -1) return undefined;
        const at = offsets[row] as number;
        if ((offsets[row + 1] as number) - 1 - at !== written) continue;
        let same = true;
        for (let k = 0; k < written && same; k += 1) same = bytes[at + k] === scratch[k];
        if (same) return row;
      }
    },
    word(row: number): string {
      if (!Number.isInteger(row) || row < 0 || row >= header.count) {
        throw new CredenceError('INVALID_INPUT', `row must be an integer in [0, ${header.count}), got ${row}`, {
          details: { row },
        });
      }
      return bytes.toString('utf8', offsets[row] as number, (offsets[row + 1] as number) - 1);
    },
  };
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
  let bytes: Buffer;
  try {
    bytes = readFileSync(key);
  } catch (error) {
    throw providerUnavailable(
      'word-vectors',
      key,
      `cannot read the word-vector table (${describeError(error)})`,
      error,
    );
  }
  const table = parseWordTable(bytes, key);
  cache.set(key, table);
  return table;
}
