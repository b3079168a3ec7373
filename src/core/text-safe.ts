/**
 * @module core/text-safe
 * Text every store can hold. PostgreSQL's `text` cannot hold the NUL character (U+0000): one NUL
 * in one field failed the whole batch there, while SQLite stored it. So every text Credence stores
 * has each NUL replaced by U+FFFD (the Unicode replacement character) before any backend sees it,
 * and both stores keep the same text. Replaced, not removed: `a\u0000b` must not become `ab`,
 * another id or a secret glued back together.
 */

/** What a NUL becomes in stored text. */
export const NUL_REPLACEMENT = '\uFFFD';

const NUL = '\u0000';

/** `text` with every NUL replaced by {@link NUL_REPLACEMENT}; the same string when it has none. */
export function storableString(text: string): string {
  return text.includes(NUL) ? text.replaceAll(NUL, NUL_REPLACEMENT) : text;
}

/**
 * `value` with every NUL replaced in every string inside it: object keys and values, array items,
 * at any depth. Copy on write: the input is never touched, and a value with no NUL anywhere comes
 * back as the same reference (the common case). Plain objects and arrays are copied; other objects
 * (Buffer, Float32Array, Date, Map) are returned as they are, as records are JSON-like. A cycle is
 * returned as it is (records have none).
 */
export function storableText<T>(value: T): T {
  return safe(value, new Set()) as T;
}

function safe(value: unknown, path: Set<object>): unknown {
  if (typeof value === 'string') return storableString(value);
  if (value === null || typeof value !== 'object' || path.has(value)) return value;
  if (Array.isArray(value)) {
    path.add(value);
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i += 1) {
      const item: unknown = value[i];
      const next = safe(item, path);
      if (next !== item) {
        copy ??= value.slice();
        copy[i] = next;
      }
    }
    path.delete(value);
    return copy ?? value;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  path.add(value);
  const record = value as Record<string, unknown>;
  let changed = false;
  const entries = Object.keys(record).map((key): [string, unknown] => {
    const item = record[key];
    const safeKey = storableString(key);
    const next = safe(item, path);
    if (safeKey !== key || next !== item) changed = true;
    return [safeKey, next];
  });
  path.delete(value);
  return changed ? Object.fromEntries(entries) : value;
}
