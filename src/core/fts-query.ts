/**
 * @module core/fts-query
 * Builds an FTS5 MATCH expression from user text so the text never reaches MATCH raw (SPEC §8):
 * every term is a quoted string of letters and digits, joined by OR. The full query-safety rules
 * (phrases for `a-b`, `a.b` and paths; stop words) belong to recall.
 */

/** A safe OR-query over the words of `text`, or `undefined` when no word is left. */
export function ftsOrQuery(text: string): string | undefined {
  const terms = [...new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])];
  return terms.length === 0 ? undefined : terms.map((t) => `"${t}"`).join(' OR ');
}
