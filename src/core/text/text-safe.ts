/**
 * @module core/text/text-safe
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
 * back as the same reference after one walk that allocates nothing (the common case: every store
 * call passes through here). Plain objects and arrays are copied; other objects (Buffer,
 * Float32Array, Date, Map) are returned as they are, as records are JSON-like. Past
 * {@link MAX_DEPTH} levels (a cycle; records have none) a value is left as it is.
 */
export function storableText<T>(value: T): T {
  return hasNul(value, 0) ? (copy(value, 0) as T) : value;
}

const MAX_DEPTH = 64;

function isPlain(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function hasNul(value: unknown, depth: number): boolean {
  if (typeof value === 'string') return value.includes(NUL);
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return false;
  if (Array.isArray(value)) {
    for (const item of value) if (hasNul(item, depth + 1)) return true;
    return false;
  }
  if (!isPlain(value)) return false;
  const record = value as Record<string, unknown>;
  for (const key in record) if (key.includes(NUL) || hasNul(record[key], depth + 1)) return true;
  return false;
}

function copy(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return storableString(value);
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH || !hasNul(value, depth)) return value;
  if (Array.isArray(value)) return value.map((item) => copy(item, depth + 1));
  const record = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  // Defined, not assigned: a `__proto__` key (JSON.parse makes one) stays a key.
  for (const key of Object.keys(record))
    Object.defineProperty(out, storableString(key), {
      value: copy(record[key], depth + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return out;
}
