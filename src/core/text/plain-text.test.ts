import { describe, expect, it } from 'vitest';
import { controlsToSpaces, cutChars, withoutBom } from './plain-text.js';

describe('withoutBom', () => {
  it('drops one leading byte order mark and nothing else', () => {
    expect(withoutBom('\uFEFF{"a":1}')).toBe('{"a":1}');
    expect(withoutBom('{"a":"\uFEFF"}')).toBe('{"a":"\uFEFF"}');
    expect(withoutBom('\uFEFF\uFEFFx')).toBe('\uFEFFx');
    expect(withoutBom('')).toBe('');
  });
});

describe('controlsToSpaces', () => {
  it('turns controls, zero-width and direction marks, separators and the BOM into spaces', () => {
    expect(controlsToSpaces('a\nb\tc\u0085d\u200be\u202ef\u2028g\u2067h\uFEFFi\u0000j')).toBe('a b c d e f g h i j');
    expect(controlsToSpaces('plain text, é ü 日本')).toBe('plain text, é ü 日本');
  });
});

describe('cutChars', () => {
  it('keeps a text of at most max characters, and cuts a longer one by code points with …', () => {
    expect(cutChars('abc', 3)).toBe('abc');
    expect(cutChars('abcd', 3)).toBe('ab…');
    expect(cutChars('🧠🧠🧠🧠', 3)).toBe('🧠🧠…');
  });
});
