import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codeOf } from '../../test/helpers.js';
import { cosine, decodeVector, encodeVector, l2Normalize } from './vector.js';

describe('cosine', () => {
  it('is the dot product of normalised vectors', () => {
    const a = l2Normalize(Float32Array.of(3, 4));
    const b = l2Normalize(Float32Array.of(4, 3));
    expect(cosine(a, b)).toBeCloseTo(24 / 25, 6);
    expect(cosine(a, a)).toBeCloseTo(1, 6);
  });

  it('is never beyond ±1, though float32 sums of a unit vector with itself come out above 1 (walk 14)', () => {
    const a = l2Normalize(Float32Array.of(3, 4));
    expect(cosine(a, a)).toBe(1);
    expect(
      cosine(
        a,
        Float32Array.from(a, (x) => -x),
      ),
    ).toBe(-1);
  });

  it('is 0 when either vector is the zero vector', () => {
    expect(cosine(new Float32Array(3), l2Normalize(Float32Array.of(1, 2, 3)))).toBe(0);
    expect(cosine(new Float32Array(3), new Float32Array(3))).toBe(0);
  });

  it('refuses vectors of different dimensions', () => {
    expect(codeOf(() => cosine(new Float32Array(2), new Float32Array(3)))).toBe('INVALID_INPUT');
  });
});

describe('l2Normalize', () => {
  it('gives unit length, keeps the direction and leaves a zero vector zero', () => {
    fc.assert(
      fc.property(
        fc.array(fc.float({ min: -100, max: 100, noNaN: true }), { minLength: 1, maxLength: 50 }),
        (values) => {
          const v = l2Normalize(Float32Array.from(values));
          const norm = Math.hypot(...v);
          if (values.every((x) => Math.fround(x) === 0)) expect(norm).toBe(0);
          else expect(norm).toBeCloseTo(1, 5);
        },
      ),
    );
  });
});

describe('encodeVector / decodeVector', () => {
  it('round-trips every Float32 vector exactly', () => {
    fc.assert(
      fc.property(fc.array(fc.float({ noNaN: true }), { maxLength: 200 }), (values) => {
        const v = Float32Array.from(values);
        expect(Array.from(decodeVector(encodeVector(v)))).toEqual(Array.from(v));
      }),
    );
  });

  it('stores Float32 little-endian, 4 bytes a component', () => {
    expect([...encodeVector(Float32Array.of(1, -2))]).toEqual([0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x00, 0xc0]);
  });

  it('reads a vector from a view at any byte offset', () => {
    const bytes = new Uint8Array(9);
    bytes.set(encodeVector(Float32Array.of(0.5, 2)), 1);
    expect(Array.from(decodeVector(bytes.subarray(1)))).toEqual([0.5, 2]);
  });

  it('refuses bytes that are not a whole number of components', () => {
    expect(codeOf(() => decodeVector(new Uint8Array(6)))).toBe('INVALID_INPUT');
  });
});
