/**
 * @module embed/word-table
 * Reads the word-vector table shipped in `data/word-vectors.bin` (written once by
 * `scripts/build-word-vectors.mjs`, which documents the layout): a small JSON header, `count ×
 * dimension` int8 components with one global scale, and the vocabulary as UTF-8 lines. Rows are in
 * descending corpus frequency, so a word's row index + 1 is its frequency rank.
 *
 * Loading is one file read, a zero-copy Int8Array view and one Map of ~100k words (tens of
 * milliseconds), done lazily and cached per process and path.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { describeError, providerUnavailable } from './errors.js';

const MAGIC = 'CRDWVEC1';
const PREFIX_BYTES = 12;

export const WordTableHeaderSchema = z.object({
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
}).passthrough();
export type WordTableHeader = z.infer<typeof WordTableHeaderSchema>;

export interface WordTable {
  readonly path: string;
  readonly header: WordTableHeader;
  readonly model: string;
  readonly dimension: number;
  /** Row i (`dimension` int8 components) is the vector of `words[i]`, times `header.scale`. */
  readonly vectors: Int8Array;
  readonly words: readonly string[];
  /** Word → row index (= frequency rank − 1). */
  readonly index: ReadonlyMap<string, number>;
}

/** Where the shipped table is, from `src/embed` (tests) or `dist/src/embed` (the built package). */
export function defaultWordTablePath(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [join(here, '..', '..', 'data', 'word-vectors.bin'), join(here, '..', '..', '..', 'data', 'word-vectors.bin')];
  return candidates.find((p) => existsSync(p)) ?? (candidates[0] as string);
}

/**
 * Parses a table file's bytes.
 * @throws CredenceError PROVIDER_UNAVAILABLE naming `path` when the bytes are not a valid table.
 */
export function parseWordTable(bytes: Buffer, path: string): WordTable {
  const bad = (reason: string, cause?: unknown) => providerUnavailable('word-vectors', path, `not a valid word-vector table: ${reason}`, cause);
  if (bytes.length < PREFIX_BYTES || bytes.toString('latin1', 0, MAGIC.length) !== MAGIC) throw bad(`missing the ${MAGIC} signature`);
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
    throw bad(`expected ${vocabStart + header.vocabBytes} bytes for ${header.count} words of dimension ${header.dimension}, got ${bytes.length}`);
  }
  const words = bytes.toString('utf8', vocabStart, vocabStart + header.vocabBytes).split('\n');
  if (words.length !== header.count) throw bad(`expected ${header.count} words, got ${words.length}`);
  const index = new Map<string, number>();
  for (let i = 0; i < words.length; i += 1) index.set(words[i] as string, i);
  return {
    path,
    header,
    model: header.model,
    dimension: header.dimension,
    vectors: new Int8Array(bytes.buffer, bytes.byteOffset + vectorStart, header.count * header.dimension),
    words,
    index,
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
    throw providerUnavailable('word-vectors', key, `cannot read the word-vector table (${describeError(error)})`, error);
  }
  const table = parseWordTable(bytes, key);
  cache.set(key, table);
  return table;
}
