/**
 * @module engine/tool-graph/overlay-map
 * A read-only map made of another one and a few changes over it, so a snapshot patched after one recorded call
 * shares the call counts of the last one instead of copying thousands of entries (issue 20). A chain of overlays
 * is folded into one level, and into a plain map once the changes reach an eighth of the base.
 */

/** `changes`' values replace `base`'s; `undefined` deletes the key. */
export function overlayMap<K, V>(base: ReadonlyMap<K, V>, changes: ReadonlyMap<K, V | undefined>): ReadonlyMap<K, V> {
  if (changes.size === 0) return base;
  let root = base;
  let all = changes;
  if (base instanceof OverlayMap) {
    root = base.base;
    const merged = new Map(base.changes);
    for (const [k, v] of changes) merged.set(k, v);
    all = merged;
  }
  if (all.size * 8 < root.size) return new OverlayMap(root, all);
  const flat = new Map(root);
  for (const [k, v] of all) {
    if (v === undefined) flat.delete(k);
    else flat.set(k, v);
  }
  return flat;
}

class OverlayMap<K, V> implements ReadonlyMap<K, V> {
  readonly size: number;

  constructor(
    readonly base: ReadonlyMap<K, V>,
    readonly changes: ReadonlyMap<K, V | undefined>,
  ) {
    let size = base.size;
    for (const [k, v] of changes) size += (v === undefined ? 0 : 1) - (base.has(k) ? 1 : 0);
    this.size = size;
  }

  get(key: K): V | undefined {
    return this.changes.has(key) ? this.changes.get(key) : this.base.get(key);
  }

  has(key: K): boolean {
    return this.changes.has(key) ? this.changes.get(key) !== undefined : this.base.has(key);
  }

  /** The base's entries in its order (changed values in place), then the keys it lacks in the changes' order. */
  *entries(): MapIterator<[K, V]> {
    for (const [k, v] of this.base) {
      if (!this.changes.has(k)) yield [k, v];
      else {
        const now = this.changes.get(k);
        if (now !== undefined) yield [k, now];
      }
    }
    for (const [k, v] of this.changes) if (v !== undefined && !this.base.has(k)) yield [k, v];
  }

  *keys(): MapIterator<K> {
    for (const [k] of this.entries()) yield k;
  }

  *values(): MapIterator<V> {
    for (const [, v] of this.entries()) yield v;
  }

  forEach(fn: (value: V, key: K, map: ReadonlyMap<K, V>) => void, thisArg?: unknown): void {
    for (const [k, v] of this.entries()) fn.call(thisArg, v, k, this);
  }

  [Symbol.iterator](): MapIterator<[K, V]> {
    return this.entries();
  }
}
