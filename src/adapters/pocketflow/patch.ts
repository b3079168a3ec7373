/**
 * @module adapters/pocketflow/patch
 * Temporary, reference-counted method wrappers on the user's PocketFlow node instances (SPEC §7:
 * wrap a flow and its nodes without changing their code).
 *
 * Why own properties: `Flow` never runs the user's node objects, it runs `clone()`s of them, and
 * `clone()` copies the node's own enumerable properties (`Object.assign`). A wrapper installed as
 * an own property of the original is therefore carried into every clone a run makes, and the
 * wrapper's closure still knows which original node it stands for (the key of its name and intent).
 *
 * Lifetime: a node is wrapped while at least one instrumented run that reaches it is in progress
 * (two handles, or two concurrent runs of one handle, share one set of wrappers) and restored
 * exactly when the last of them ends: the own property is deleted, or the user's own property put
 * back. A property the user replaced during the run is left as the user set it. Nodes that cannot
 * take a property (frozen, or a non-configurable own method) are left alone and go unrecorded.
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
