/**
 * @module adapters/pocketflow/patch
 * Temporary, reference-counted method wrappers on the user's PocketFlow node instances (SPEC §7: wrap
 * a flow without changing its code). Wrappers are own properties because `Flow` runs `clone()`s, which
 * copy own enumerable properties: every clone carries the wrapper, which still knows its original node.
 * A node stays wrapped while any instrumented run reaching it is in progress and is restored when the
 * last ends (the property deleted or the user's put back; one the user replaced meanwhile is left).
 * Nodes that cannot take a property (frozen, non-configurable method) are left alone and go unrecorded.
 */

/** Makes the wrapper of one method from the method it replaces. */
export type WrapperFactory = (
  original: (...args: unknown[]) => unknown,
  node: object,
) => (...args: unknown[]) => unknown;

interface Installed {
  count: number;
  readonly restore: (() => void)[];
}

const installed = new WeakMap<object, Installed>();

function wrapMethod(node: object, key: string, factory: WrapperFactory): (() => void) | undefined {
  const target = node as Record<string, unknown>;
  const original = target[key];
  if (typeof original !== 'function') return undefined;
  const own = Object.getOwnPropertyDescriptor(node, key);
  if (own !== undefined && own.configurable !== true) return undefined;
  const wrapper = factory(original as (...args: unknown[]) => unknown, node);
  // Enumerable, so that PocketFlow's clone() (Object.assign) carries it into the copies a run executes.
  Object.defineProperty(node, key, { value: wrapper, writable: true, enumerable: true, configurable: true });
  return () => {
    if (Object.getOwnPropertyDescriptor(node, key)?.value !== wrapper) return;
    if (own === undefined) delete target[key];
    else Object.defineProperty(node, key, own);
  };
}

/**
 * Wraps `methods` of `node` (each key with its factory) unless a run already did; counts the
 * holders. Returns false when the node cannot be wrapped (not extensible).
 */
export function acquire(node: object, methods: Readonly<Record<string, WrapperFactory>>): boolean {
  const existing = installed.get(node);
  if (existing !== undefined) {
    existing.count += 1;
    return true;
  }
  if (!Object.isExtensible(node)) return false;
  const restore: (() => void)[] = [];
  for (const [key, factory] of Object.entries(methods)) {
    const undo = wrapMethod(node, key, factory);
    if (undo !== undefined) restore.push(undo);
  }
  installed.set(node, { count: 1, restore });
  return true;
}

/** Drops one holder of `node`'s wrappers; the last one restores the node exactly. */
export function release(node: object): void {
  const entry = installed.get(node);
  if (entry === undefined) return;
  entry.count -= 1;
  if (entry.count > 0) return;
  installed.delete(node);
  for (const undo of entry.restore.reverse()) undo();
}

/** True while `node` carries wrappers (for tests and diagnostics). */
export function isWrapped(node: object): boolean {
  return installed.has(node);
}
