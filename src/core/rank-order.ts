/**
 * @module core/rank-order
 * The order of a ranked list: the higher score first and, where scores tie, a key the same in every store built from
 * the same input (the item's text, or an id made from its content), then its id; both by code point, not by locale.
 * Record ids may be random (a run's id is a UUID): ties ordered by such an id alone came out differently in two
 * stores built from the same input.
 */

/** A comparator for `Array.prototype.sort`: score descending, then `text` (the stable key), then `id`, ascending. */
export function byScoreThenText<T>(
  score: (item: T) => number,
  text: (item: T) => string,
  id: (item: T) => string,
): (a: T, b: T) => number {
  return (a, b) => {
    const by = score(b) - score(a);
    if (by !== 0) return by;
    const ta = text(a);
    const tb = text(b);
    if (ta !== tb) return ta < tb ? -1 : 1;
    const ia = id(a);
    const ib = id(b);
    return ia < ib ? -1 : ia > ib ? 1 : 0;
  };
}
