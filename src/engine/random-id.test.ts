import { describe, expect, it } from 'vitest';
import { randomUuids, uuidOf } from './random-id.js';

const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('random ids', () => {
  it('formats sixteen bytes as a v4 UUID, the version and variant bits set and the rest kept', () => {
    const bytes = Uint8Array.from({ length: 16 }, (_, i) => (i * 17 + 3) & 0xff);
    expect(uuidOf(bytes)).toBe('03142536-4758-497a-8b9c-adbecfe0f102');
    expect(uuidOf(new Uint8Array(16).fill(0xff))).toBe('ffffffff-ffff-4fff-bfff-ffffffffffff');
    expect(uuidOf(new Uint8Array(16))).toBe('00000000-0000-4000-8000-000000000000');
  });

  it('reads the device a pool at a time and uses each byte once', () => {
    let fills = 0;
    let counter = 0;
    const make = randomUuids((bytes) => {
      fills += 1;
      for (let i = 0; i < bytes.length; i += 1) bytes[i] = (counter++ * 7) & 0xff;
      return true;
    });
    const ids = Array.from({ length: 100 }, make);
    expect(ids.every((id) => V4.test(id))).toBe(true);
    // 512 bytes a fill: 32 ids each, so 100 ids take 4 fills, and each id is the next 16 bytes.
    expect(fills).toBe(4);
    const expected = (n: number) => uuidOf(Uint8Array.from({ length: 16 }, (_, i) => ((n * 16 + i) * 7) & 0xff));
    expect(ids[0]).toBe(expected(0));
    expect(ids[33]).toBe(expected(33));
  });

  it('falls back to Web Crypto when the device cannot be read', () => {
    const make = randomUuids(() => false);
    const ids = new Set(Array.from({ length: 50 }, make));
    expect(ids.size).toBe(50);
    for (const id of ids) expect(id).toMatch(V4);
  });

  it('makes distinct v4 ids from the system source', () => {
    const make = randomUuids();
    const ids = new Set(Array.from({ length: 2000 }, make));
    expect(ids.size).toBe(2000);
    for (const id of ids) expect(id).toMatch(V4);
  });
});
