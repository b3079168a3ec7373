/**
 * @module adapters/pocketflow/nodes
 * The PocketFlow graph seen duck-typed (SPEC §7, seed 002 "node lifecycle"): which objects are nodes
 * (anything with `_run(shared)`), which are flows (a node with a `start`), which nodes a flow reaches
 * (PocketFlow's `_successors`), and what each is called and intends. Imports nothing from `pocketflow`.
 * Names come from the per-node options, else the class name, de-duplicated in discovery order with
 * `#2`, `#3`… (an explicit name is never renamed). Intent: an explicit intent, else the name globs,
 * else the description and tags, else `general` (`deriveIntent`).
 */
import { CredenceError } from '../../core/errors.js';
import { deriveIntent, type IntentRule } from '../../core/runs/intent.js';
import { shownText } from '../../core/security/scrub.js';
import type { Intent } from '../../core/types.js';

/** What the adapter needs of a PocketFlow node: `BaseNode._run`. */
export interface NodeLike {
  _run(shared: unknown): Promise<unknown>;
}

/** Per-node options: PocketFlow nodes carry no name, so the adapter takes it (and intent hints) here. */
export interface PocketflowNodeOptions {
  /** The node's name in the run and the tool graph. @default its class name, `#2`, `#3` for repeats */
  readonly name?: string;
  /** An explicit intent (research, implementation, testing, debugging, documentation, general); wins over the name. */
  readonly intent?: string;
  /** A hint matched with the name globs when the name says nothing. */
  readonly description?: string;
  /** Hints matched after the description. */
  readonly tags?: readonly string[];
}

/**
 * Options per node: a map keyed by the node objects the flow was built from, or a function of the
 * node. (Declared as a method type so a function typed on PocketFlow's `BaseNode` fits.)
 */
export type NodeOptionsSource =
  | ReadonlyMap<object, PocketflowNodeOptions>
  | { resolve(node: object): PocketflowNodeOptions | undefined }['resolve'];

/** A node's recorded identity. */
export interface NodeDescription {
  readonly name: string;
  readonly intent: Intent;
  readonly intentRule: IntentRule;
}

const isObject = (value: unknown): value is Record<PropertyKey, unknown> =>
  (typeof value === 'object' && value !== null) || typeof value === 'function';

/** True for an object with a `_run` method (PocketFlow's `BaseNode` and subclasses). */
export function isNodeLike(value: unknown): value is NodeLike {
  return isObject(value) && typeof value._run === 'function';
}

/** True for a flow: a node whose `start` is a node (`Flow`, `BatchFlow`, `ParallelBatchFlow`). */
export function isFlowLike(value: unknown): value is NodeLike & { start: NodeLike } {
  return isNodeLike(value) && isNodeLike((value as { start?: unknown }).start);
}

/** The successors of a node, in the order they were declared. */
function successorsOf(node: NodeLike): NodeLike[] {
  const successors = (node as { _successors?: unknown })._successors;
  if (!(successors instanceof Map)) return [];
  return [...successors.values()].filter(isNodeLike);
}

/**
 * Every node a run of `root` can execute, depth first in declaration order: a flow's start (and
 * its nested flows' nodes) before its successors. `root` itself is included only when it is not a
 * flow (a lone node run through the adapter is its own single entry).
 */
export function collectNodes(root: NodeLike): NodeLike[] {
  const seen = new Set<NodeLike>([root]);
  const order: NodeLike[] = isFlowLike(root) ? [] : [root];
  const visit = (node: NodeLike): void => {
    if (seen.has(node)) return;
    seen.add(node);
    order.push(node);
    if (isFlowLike(node)) visit(node.start);
    for (const next of successorsOf(node)) visit(next);
  };
  if (isFlowLike(root)) visit(root.start);
  return order;
}

function className(node: object): string {
  const name = (node as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof name === 'string' && name.trim() !== '' ? name.trim() : 'node';
}

function checkOptions(options: unknown): PocketflowNodeOptions | undefined {
  if (options === undefined || options === null) return undefined;
  if (typeof options !== 'object')
    throw new CredenceError('INVALID_INPUT', `pocketflow node options must be an object, got ${typeof options}`);
  const { name, description, tags } = options as Record<string, unknown>;
  if (name !== undefined && (typeof name !== 'string' || name.trim() === '')) {
    throw new CredenceError(
      'INVALID_INPUT',
      'pocketflow node name must be a non-empty string, ' +
        `got ${typeof name === 'string' ? shownText(name) : JSON.stringify(name)}`,
    );
  }
  if (description !== undefined && typeof description !== 'string') {
    throw new CredenceError('INVALID_INPUT', `pocketflow node description must be a string, got ${typeof description}`);
  }
  if (tags !== undefined && !(Array.isArray(tags) && tags.every((t) => typeof t === 'string'))) {
    throw new CredenceError('INVALID_INPUT', 'pocketflow node tags must be an array of strings');
  }
  return options as PocketflowNodeOptions;
}

/** `base` if unused, else the first unused `base#2`, `base#3`, …. */
function freeName(used: ReadonlySet<string>, base: string): string {
  if (!used.has(base)) return base;
  for (let n = 2; ; n += 1) if (!used.has(`${base}#${n}`)) return `${base}#${n}`;
}

/** Names and intents of one instrumented flow's nodes; stable across runs once assigned. */
export class NodeNaming {
  readonly #source: NodeOptionsSource | undefined;
  readonly #described = new WeakMap<object, NodeDescription>();
  readonly #used = new Set<string>();

  constructor(source?: NodeOptionsSource) {
    if (source !== undefined && !(source instanceof Map) && typeof source !== 'function') {
      throw new CredenceError(
        'INVALID_INPUT',
        'pocketflow `nodes` option must be a Map of node → options or a function (node) => options',
      );
    }
    this.#source = source;
  }

  #optionsOf(node: object): PocketflowNodeOptions | undefined {
    const source = this.#source;
    if (source === undefined) return undefined;
    return checkOptions(typeof source === 'function' ? source(node) : source.get(node));
  }

  /**
   * Names and intents for the nodes not seen before, in the given order: explicit names are
   * reserved first, then class-name defaults take the first free `name`, `name#2`, …. All or
   * nothing: an invalid option (an intent outside the taxonomy, an empty name) throws
   * `INVALID_INPUT` and assigns nothing.
   */
  register(nodes: readonly object[]): void {
    const fresh = [...new Set(nodes)].filter((n) => !this.#described.has(n));
    if (fresh.length === 0) return;
    const options = fresh.map((n) => this.#optionsOf(n));
    const used = new Set(this.#used);
    for (const o of options) if (o?.name !== undefined) used.add(o.name.trim());
    const assigned = fresh.map((node, i): NodeDescription => {
      const o = options[i];
      let name: string;
      if (o?.name !== undefined) {
        name = o.name.trim();
      } else {
        name = freeName(used, className(node));
        used.add(name);
      }
      const derived = deriveIntent(name, {
        ...(o?.intent === undefined ? {} : { intent: o.intent }),
        ...(o?.description === undefined ? {} : { description: o.description }),
        ...(o?.tags === undefined ? {} : { tags: o.tags }),
      });
      return Object.freeze({ name, intent: derived.intent, intentRule: derived.rule });
    });
    for (const name of used) this.#used.add(name);
    fresh.forEach((node, i) => this.#described.set(node, assigned[i] as NodeDescription));
  }

  /**
   * The name and intent of `node`, assigning them on first sight. Never throws: a node first met
   * mid-run whose options are invalid is named by its class and gets `general` (its options were
   * not checked when the run started because the flow could not reach it then).
   */
  describe(node: object): NodeDescription {
    const known = this.#described.get(node);
    if (known !== undefined) return known;
    try {
      this.register([node]);
    } catch {
      const fallback = Object.freeze({
        name: freeName(this.#used, className(node)),
        intent: 'general' as const,
        intentRule: 'default' as const,
      });
      this.#used.add(fallback.name);
      this.#described.set(node, fallback);
    }
    return this.#described.get(node) as NodeDescription;
  }

  /** The description already assigned to `node`, if any. */
  peek(node: object): NodeDescription | undefined {
    return this.#described.get(node);
  }
}
