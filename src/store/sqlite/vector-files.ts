/**
 * @module store/sqlite/vector-files
 * The int8 copies of a persisted matrix, also kept in a file beside the SQLite database (issue 20): a new process
 * reads them with one read of a file instead of assembling ~100 blobs from 4 KiB overflow pages (recall's three
 * matrices at 100k rows: 37 MB, ~35 ms from SQLite, ~17 ms from the file). The database stays the truth: a file is
 * used only when what it says it copies (the matrix's header row and the write count kept beside it) is what the
 * database holds now; any other file is ignored and written anew by the next reader that can write. Written to a
 * temporary name and renamed, so a reader sees a whole file or none.
 */
import {
  closeSync,
  fstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';

/** What a file must match: the header row as stored and the count of writes to the matrix. */
export interface VectorFileKey {
  /** The header row's `model_key` column (model and generation). */
  modelKey: string;
  revision: number;
  dim: number;
  rows: number;
  chunks: number;
  /** Writes to the matrix so far (the write-count row's revision): a rewrite at the same revision changes it. */
  writes: number;
}

/** One chunk's int8 copy as read: the keys' bytes and the copy. */
export interface VectorFileChunk {
  chunk: number;
  ids: Uint8Array;
  data: Uint8Array;
}

const MAGIC = 'credence-q8-1\n';
/** Every piece starts at a multiple of 8 bytes (the copies' floats are viewed where they lie). */
const ALIGN = 8;
const pad = (n: number): number => Math.ceil(n / ALIGN) * ALIGN;

/** The folder of a database's files: `<database>-index`, beside it. */
export const vectorFileFolder = (database: string): string => `${database}-index`;

const hex = (text: string): string => Buffer.from(text, 'utf8').toString('hex');

/** The file of one matrix, or undefined when its name would be too long for a file system. */
export function vectorFilePath(database: string, scope: string, name: string): string | undefined {
  const file = `q8-${hex(scope)}-${hex(name)}.bin`;
  return file.length > 240 ? undefined : join(vectorFileFolder(database), file);
}

const sameKey = (a: VectorFileKey, b: VectorFileKey): boolean =>
  a.modelKey === b.modelKey &&
  a.revision === b.revision &&
  a.dim === b.dim &&
  a.rows === b.rows &&
  a.chunks === b.chunks &&
  a.writes === b.writes;

/**
 * The chunks a file holds when it copies the matrix `key` describes; undefined when there is no file, it copies
 * another state of the matrix, or it is not whole (never throws).
 */
export function readVectorFile(path: string, key: VectorFileKey): VectorFileChunk[] | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const size = fstatSync(fd).size;
    const metaStart = MAGIC.length + 4;
    // The key first: a file of another state of the matrix is not read whole (the first reader after a write).
    const front = Buffer.alloc(metaStart);
    if (readAt(fd, front, 0) !== metaStart || front.toString('latin1', 0, MAGIC.length) !== MAGIC) return undefined;
    const metaLength = front.readUInt32LE(MAGIC.length);
    if (metaStart + metaLength > size) return undefined;
    const metaBytes = Buffer.alloc(metaLength);
    if (readAt(fd, metaBytes, metaStart) !== metaLength) return undefined;
    const meta = JSON.parse(metaBytes.toString('utf8')) as { key: VectorFileKey; pieces: [number, number, number][] };
    if (!sameKey(meta.key, key) || !Array.isArray(meta.pieces) || meta.pieces.length !== key.chunks) return undefined;
    // The whole file in a buffer of its own (its pieces 8-byte aligned in it).
    const bytes = new Uint8Array(Buffer.allocUnsafeSlow(size).buffer, 0, size);
    if (readAt(fd, bytes, 0) !== size) return undefined;
    let at = pad(metaStart + metaLength);
    const chunks: VectorFileChunk[] = [];
    for (const [chunk, idsLength, dataLength] of meta.pieces) {
      const dataAt = pad(at + idsLength);
      if (dataAt + dataLength > size) return undefined;
      chunks.push({
        chunk,
        ids: bytes.subarray(at, at + idsLength),
        data: bytes.subarray(dataAt, dataAt + dataLength),
      });
      at = pad(dataAt + dataLength);
    }
    return at === size ? chunks : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Reads `into.byteLength` bytes from `position` (fewer at the end of the file); how many were read. */
function readAt(fd: number, into: Uint8Array, position: number): number {
  let done = 0;
  while (done < into.byteLength) {
    const n = readSync(fd, into, done, into.byteLength - done, position + done);
    if (n <= 0) break;
    done += n;
  }
  return done;
}

/** Writes the file of a matrix's chunks at `key` (a temporary name, then renamed); whether it was written. */
export function writeVectorFile(path: string, key: VectorFileKey, chunks: readonly VectorFileChunk[]): boolean {
  const meta = Buffer.from(
    JSON.stringify({ key, pieces: chunks.map((c) => [c.chunk, c.ids.byteLength, c.data.byteLength]) }),
    'utf8',
  );
  const head = Buffer.alloc(pad(MAGIC.length + 4 + meta.byteLength));
  head.write(MAGIC, 0, 'latin1');
  head.writeUInt32LE(meta.byteLength, MAGIC.length);
  meta.copy(head, MAGIC.length + 4);
  const zeros = new Uint8Array(ALIGN);
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    // Piece by piece, no copy of the whole: a folder that cannot be written fails here, before anything is copied.
    const fd = openSync(temporary, 'w', 0o600);
    try {
      const put = (bytes: Uint8Array) => {
        for (let at = 0; at < bytes.byteLength; ) at += writeSync(fd, bytes, at, bytes.byteLength - at);
        if (bytes.byteLength % ALIGN !== 0) writeSync(fd, zeros, 0, ALIGN - (bytes.byteLength % ALIGN));
      };
      put(head);
      for (const c of chunks) {
        put(c.ids);
        put(c.data);
      }
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, path);
    return true;
  } catch {
    rmSync(temporary, { force: true });
    return false;
  }
}

/** Removes the file of a matrix, or of every matrix of the scope without `name` (none there is fine; never throws). */
export function removeVectorFiles(database: string, scope: string, name?: string): void {
  try {
    const folder = vectorFileFolder(database);
    const prefix = `q8-${hex(scope)}-${name === undefined ? '' : `${hex(name)}.bin`}`;
    for (const file of readdirSync(folder))
      if (name === undefined ? file.startsWith(prefix) : file === prefix) rmSync(join(folder, file), { force: true });
  } catch {
    // No folder, or a file left behind: it copies a matrix no longer stored, which no reader takes.
  }
}
