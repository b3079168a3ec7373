/**
 * @module core/text/sha256
 * SHA-256 (FIPS 180-4) of a UTF-8 string, in plain JavaScript. For short texts on a hook's path (a scope's
 * identity), where loading node:crypto would cost more than the hashing, and for the ids of learned workflows
 * (one per recorded run of a new shape); the results are the same bytes (tests compare them with node:crypto).
 * The rounds run on 32-bit integers in reused typed arrays and the text is encoded into a reused buffer, so a
 * hash allocates only its hex string (about 1 µs for 100 bytes on Node 20, ten times the straightforward code).
 */

const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);
const H0 = new Int32Array([
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
]);
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** Texts up to this many bytes (padded) reuse one buffer; longer ones get their own, so none is held on to. */
const KEPT_BYTES = 16 * 1024;
const encoder = new TextEncoder();
const kept = new Uint8Array(KEPT_BYTES);
const w = new Int32Array(64);
const h = new Int32Array(8);

/** Bits `x` rotated right by `n` (1..31), as a 32-bit integer. */
const rotr = (x: number, n: number): number => (x >>> n) | (x << (32 - n));

/** One 64-byte block of `m` from `at`, folded into `h`. */
function compress(m: Uint8Array, at: number): void {
  for (let t = 0; t < 16; t += 1) {
    const i = at + t * 4;
    w[t] = ((m[i] as number) << 24) | ((m[i + 1] as number) << 16) | ((m[i + 2] as number) << 8) | (m[i + 3] as number);
  }
  for (let t = 16; t < 64; t += 1) {
    const x = w[t - 15] as number;
    const y = w[t - 2] as number;
    const s0 = rotr(x, 7) ^ rotr(x, 18) ^ (x >>> 3);
    const s1 = rotr(y, 17) ^ rotr(y, 19) ^ (y >>> 10);
    w[t] = ((w[t - 16] as number) + s0 + (w[t - 7] as number) + s1) | 0;
  }
  let a = h[0] as number;
  let b = h[1] as number;
  let c = h[2] as number;
  let d = h[3] as number;
  let e = h[4] as number;
  let f = h[5] as number;
  let g = h[6] as number;
  let hh = h[7] as number;
  for (let t = 0; t < 64; t += 1) {
    const t1 =
      (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + (K[t] as number) + (w[t] as number)) | 0;
    const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    hh = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  h[0] = (h[0] as number) + a;
  h[1] = (h[1] as number) + b;
  h[2] = (h[2] as number) + c;
  h[3] = (h[3] as number) + d;
  h[4] = (h[4] as number) + e;
  h[5] = (h[5] as number) + f;
  h[6] = (h[6] as number) + g;
  h[7] = (h[7] as number) + hh;
}

/** The SHA-256 digest of `text` (UTF-8), as lowercase hex. */
export function sha256Hex(text: string): string {
  // UTF-8 takes at most 3 bytes per UTF-16 unit (4 for a surrogate pair); the padding at most 72 more.
  const most = text.length * 3 + 72;
  const m = most <= KEPT_BYTES ? kept : new Uint8Array(most);
  const n = encoder.encodeInto(text, m).written;
  // The message, 0x80, zeros, and its length in bits as 64 bits big-endian, to a whole number of blocks.
  const end = ((n + 72) >>> 6) * 64;
  m[n] = 0x80;
  m.fill(0, n + 1, end - 8);
  const high = Math.floor(n / 0x20000000);
  const low = n << 3;
  for (let k = 0; k < 4; k += 1) {
    m[end - 8 + k] = high >>> (24 - 8 * k);
    m[end - 4 + k] = low >>> (24 - 8 * k);
  }
  h.set(H0);
  for (let at = 0; at < end; at += 64) compress(m, at);
  let hex = '';
  for (let i = 0; i < 8; i += 1) {
    const x = h[i] as number;
    hex += `${HEX[x >>> 24]}${HEX[(x >>> 16) & 255]}${HEX[(x >>> 8) & 255]}${HEX[x & 255]}`;
  }
  return hex;
}
