/**
 * @module embed/vector
 * Vector helpers shared by every provider and by storage: cosine of normalised vectors, in-place L2
 * normalisation, and the storage encoding (Float32, little-endian, 4 bytes a component).
 */
import { CredenceError } from '../core/errors.js';

/**
 * Cosine similarity of two L2-normalised vectors: their dot product, within [−1, 1]; 0 when either is a zero vector.
 * @throws CredenceError INVALID_INPUT when the lengths differ.
 */
export function cosine(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) {
    throw new CredenceError('INVALID_INPUT', `vectors must have the same dimension, got ${a.length} and ${b.length}`, {
      details: { a: a.length, b: b.length },
    });
  }
  let dot = 0;
  for (let i = 0; i < a.length; i += 1) dot += (a[i] as number) * (b[i] as number);
  // Float32 rounding can take the dot product of unit vectors a few ulps past ±1: a cosine is never beyond.
  return dot > 1 ? 1 : dot < -1 ? -1 : dot;
}

/** Scales `v` to unit length in place and returns it; a zero vector stays zero. */
export function l2Normalize(v: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < v.length; i += 1) sum += (v[i] as number) * (v[i] as number);
  if (sum === 0) return v;
  const inv = 1 / Math.sqrt(sum);
  for (let i = 0; i < v.length; i += 1) v[i] = (v[i] as number) * inv;
  return v;
}

/** The storage form of a vector: Float32 little-endian, 4 bytes a component. */
export function encodeVector(v: Float32Array): Buffer {
  const out = Buffer.allocUnsafe(v.length * 4);
  for (let i = 0; i < v.length; i += 1) out.writeFloatLE(v[i] as number, i * 4);
  return out;
}

/**
 * Reads a vector written by `encodeVector`.
 * @throws CredenceError INVALID_INPUT when the byte length is not a multiple of 4.
 */
export function decodeVector(b: Uint8Array): Float32Array {
  if (b.byteLength % 4 !== 0) {
    throw new CredenceError(
      'INVALID_INPUT',
      `an encoded vector must be a multiple of 4 bytes long, got ${b.byteLength}`,
      {
        details: { byteLength: b.byteLength },
      },
    );
  }
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const out = new Float32Array(b.byteLength / 4);
  for (let i = 0; i < out.length; i += 1) out[i] = view.getFloat32(i * 4, true);
  return out;
}
