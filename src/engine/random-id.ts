/**
 * @module engine/random-id
 * Record ids: version 4 UUIDs from the system's random source read as a file (issue 20). Web Crypto's
 * `randomUUID` loads its module and Node's streams with it, ~4 ms of a one-query CLI process that shows one id;
 * `/dev/urandom` is the source it draws on. Where that file cannot be read (Windows), Web Crypto fills the bytes.
 */
import { closeSync, openSync, readSync } from 'node:fs';

/** Random bytes read at once: the ids of a few dozen records. */
const POOL_BYTES = 512;

/** Fills `bytes` with random bytes; false when it cannot. */
export type RandomFill = (bytes: Uint8Array) => boolean;

/** `bytes` filled from `/dev/urandom`; false where there is none to read. */
export const fillFromDevice: RandomFill = (bytes) => {
  let fd: number | undefined;
  try {
    fd = openSync('/dev/urandom', 'r');
    let at = 0;
    while (at < bytes.byteLength) {
      const n = readSync(fd, bytes, at, bytes.byteLength - at, null);
      if (n <= 0) return false;
      at += n;
    }
    return true;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
};

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** Sixteen bytes as a version 4, variant 1 UUID (the version and variant bits set, as RFC 9562 says). */
export function uuidOf(bytes: Uint8Array, at = 0): string {
  let out = '';
  for (let i = 0; i < 16; i += 1) {
    let b = bytes[at + i] as number;
    if (i === 6) b = (b & 0x0f) | 0x40;
    if (i === 8) b = (b & 0x3f) | 0x80;
    if (i === 4 || i === 6 || i === 8 || i === 10) out += '-';
    out += HEX[b];
  }
  return out;
}

/**
 * A maker of random v4 UUIDs: from `fill`'s bytes, read a pool at a time (each byte used once), or Web Crypto's
 * own once `fill` fails.
 */
export function randomUuids(fill: RandomFill = fillFromDevice): () => string {
  const pool = new Uint8Array(POOL_BYTES);
  let next = POOL_BYTES;
  let device = true;
  return () => {
    if (device && next + 16 > POOL_BYTES) {
      device = fill(pool);
      next = 0;
    }
    if (!device) return globalThis.crypto.randomUUID();
    const id = uuidOf(pool, next);
    pool.fill(0, next, next + 16);
    next += 16;
    return id;
  };
}
