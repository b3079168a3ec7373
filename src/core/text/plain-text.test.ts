import { describe, expect, it } from 'vitest';
import { controlsToSpaces, cutChars, isBlankText, withoutBom } from './plain-text.js';

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

// Fix B2 (review B, 4): an intent of only U+200B or NUL passed the trim test and was stored, invisible.
describe('isBlankText', () => {
  it('is true of white space and of characters that show nothing, false as soon as one shows', () => {
    for (const blank of ['', ' \t\r\n', '\u00a0\u3000\u2028', '\u200b', '\u0000', '\u2060\ufeff\u00ad', '\u200e\u3164'])
      expect(isBlankText(blank), JSON.stringify(blank)).toBe(true);
    for (const shown of ['a', '\u200bx', 'é', '日本', '\ufffd', '.'])
      expect(isBlankText(shown), JSON.stringify(shown)).toBe(false);
  });
});
