import { describe, expect, it } from 'vitest';
import { ftsOrQuery } from './fts-query.js';

describe('ftsOrQuery', () => {
  it('quotes each distinct word and joins them with OR', () => {
    expect(ftsOrQuery('How do we refresh JWT tokens? JWT!')).toBe('"how" OR "do" OR "we" OR "refresh" OR "jwt" OR "tokens"');
  });

  it('leaves no FTS5 operator or quote from the user text', () => {
    const q = ftsOrQuery('a" NEAR(b c) * -d :e (f) é');
    expect(q).toBe('"a" OR "near" OR "b" OR "c" OR "d" OR "e" OR "f" OR "é"');
  });

  it('returns undefined when nothing searchable is left', () => {
    expect(ftsOrQuery('  -- !! ** ')).toBeUndefined();
  });
});
