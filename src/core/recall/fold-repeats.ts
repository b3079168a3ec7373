/**
 * @module core/recall/fold-repeats
 * One entry per repeated past run in a ranked list. Runs that share their intent word for word
 * (every turn of a Claude Code session whose prompt was not seen is `Claude Code session <id>`,
 * every MCP session is `MCP session (<client>)`, a habit repeats `add a search endpoint with tests`)
 * are different executions with the same title: listed one by one, one run filled a page seven
 * times. Folded, the best-ranked stands for them all and says how many there are.
 */

/** A ranked entry: its kind, its id, and the title a reader sees. */
export interface Foldable {
  id: string;
  kind: string;
  title: string;
}

export interface FoldOptions {
  /** The kinds whose entries are folded by title; the others are kept as they are. @default ['execution'] */
  kinds?: readonly string[];
  /** How many entries to return, after folding. @default Infinity */
  limit?: number;
}

/**
 * `items` (best first) with each entry of a folded kind whose title (trimmed) an earlier entry of
 * that kind has left out, and the earlier one carrying `repeats` (how many entries it stands for,
 * itself included) and `ids` (theirs, in rank order). Order is kept; nothing is mutated.
 */
export function foldRepeats<T extends Foldable>(
  items: readonly T[],
  options: FoldOptions = {},
): (T & { repeats: number; ids: string[] })[] {
  const kinds = new Set(options.kinds ?? ['execution']);
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  const out: (T & { repeats: number; ids: string[] })[] = [];
  const byTitle = new Map<string, T & { repeats: number; ids: string[] }>();
  for (const item of items) {
    const key = kinds.has(item.kind) ? `${item.kind}\u0000${item.title.trim()}` : undefined;
    const first = key === undefined ? undefined : byTitle.get(key);
    if (first !== undefined) {
      first.repeats += 1;
      first.ids.push(item.id);
      continue;
    }
    if (out.length >= limit) continue;
    const entry = { ...item, repeats: 1, ids: [item.id] };
    out.push(entry);
    if (key !== undefined) byTitle.set(key, entry);
  }
  return out;
}
