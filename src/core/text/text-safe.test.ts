import { describe, expect, it } from 'vitest';
import { NUL_REPLACEMENT, storableString, storableText } from './text-safe.js';

describe('storableText', () => {
  it('replaces every NUL with U+FFFD in strings, object keys and array items at any depth', () => {
    const input = { 'a\u0000': ['x\u0000y\u0000', { deep: 'z\u0000' }], plain: 'ok', n: 1, none: null };
    expect(storableText(input)).toEqual({
      'a\uFFFD': ['x\uFFFDy\uFFFD', { deep: 'z\uFFFD' }],
      plain: 'ok',
      n: 1,
      none: null,
    });
    expect(storableString('\u0000')).toBe(NUL_REPLACEMENT);
  });

  it('never touches its input, and returns a value without NUL as the same reference', () => {
    const clean = { a: ['b', { c: 'd' }], e: 2 };
    expect(storableText(clean)).toBe(clean);
    const dirty = { keep: { same: 'x' }, list: ['a\u0000'] };
    const safe = storableText(dirty);
    expect(dirty.list[0]).toBe('a\u0000');
    expect(safe.keep).toBe(dirty.keep);
    expect(safe.list).not.toBe(dirty.list);
  });

  it('passes vectors, buffers and functions through as they are', () => {
    const vector = new Float32Array([0, 1]);
    const fn = (): string => 'a\u0000';
    const args = [vector, fn, Buffer.from([0])];
    expect(storableText(args)).toBe(args);
  });

  it('keeps a `__proto__` key a key', () => {
    const parsed = JSON.parse('{"__proto__": "a\\u0000"}') as Record<string, unknown>;
    const safe = storableText(parsed);
    expect(Object.keys(safe)).toEqual(['__proto__']);
    expect(Object.getOwnPropertyDescriptor(safe, '__proto__')?.value).toBe('a\uFFFD');
  });

  it('keeps a cycle as it is instead of looping', () => {
    const cyclic: Record<string, unknown> = { a: 'b' };
    cyclic.self = cyclic;
    expect(storableText(cyclic)).toBe(cyclic);
  });
});
