/**
 * @module core/rank-order
 * The order of a ranked list: the higher score first and, where scores tie, a key the same in every store built from
 * the same input (the item's text, or an id made from its content), then its id; both by code point, not by locale.
 * Record ids may be random (a run's id is a UUID): ties ordered by such an id alone came out differently in two
 * stores built from the same input.
 */

/**
 * Two strings by code point, as their UTF-8 bytes compare (SQLite BINARY, PostgreSQL "C"), the same in every locale,
 * without encoding them: `<` compares UTF-16 units, which puts a character beyond U+FFFF before U+E000–U+FFFF.
 */
export function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i += 1) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // A surrogate (an astral code point) sorts after every unit from U+E000 up; code units order the rest.
    const sx = x >= 0xd800 && x <= 0xdfff;
    const sy = y >= 0xd800 && y <= 0xdfff;
    if (sx !== sy && (sx ? y : x) >= 0xe000) return sx ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}

/** A comparator for `Array.prototype.sort`: score descending, then `text` (the stable key), then `id`, ascending. */
export function byScoreThenText<T>(
  score: (item: T) => number,
  text: (item: T) => string,
  id: (item: T) => string,
): (a: T, b: T) => number {
  return (a, b) => score(b) - score(a) || compareCodePoints(text(a), text(b)) || compareCodePoints(id(a), id(b));
}

/** Score descending, then the tool's name by code point: a ranked list of tools. */
export const byScoreThenTool = (a: { score: number; tool: string }, b: { score: number; tool: string }): number =>
  b.score - a.score || compareCodePoints(a.tool, b.tool);

/** What a past run is ordered by where scores tie: all but its id are its content. */
export interface RunHead {
  readonly startedAt: number;
  readonly intent: string;
  readonly id: string;
}

/**
 * A comparator for ranked past runs: score descending; a tie the newest first (the store's order), then by intent,
 * then by the run's tool sequence, and only then by its id (random), so runs of one intent started at one time (a
 * batch recorded at once) come in the same order from every store built from the same input.
 */
export function byScoreThenRun<T>(
  score: (item: T) => number,
  run: (item: T) => RunHead,
  tools: (item: T) => readonly string[],
): (a: T, b: T) => number {
  return (a, b) => {
    const by = score(b) - score(a);
    if (by !== 0) return by;
    const ra = run(a);
    const rb = run(b);
    if (ra.startedAt !== rb.startedAt) return rb.startedAt - ra.startedAt;
    return (
      compareCodePoints(ra.intent, rb.intent) || compareSequences(tools(a), tools(b)) || compareCodePoints(ra.id, rb.id)
    );
  };
}

/** Two sequences of names, name by name by code point; a sequence before the longer ones it begins. */
function compareSequences(a: readonly string[], b: readonly string[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const by = compareCodePoints(a[i] as string, b[i] as string);
    if (by !== 0) return by;
  }
  return a.length - b.length;
}
