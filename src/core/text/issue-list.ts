/**
 * @module core/text/issue-list
 * Validation problems as one readable line, however many there are. The same problem at many
 * positions of one array (300 calls with a bad status) is one entry naming the positions as ranges,
 * `calls[2–299].status: must be one of … (298 calls)`, not 298 repeats; and past
 * {@link ISSUE_LIST_DEFAULTS}.maxEntries distinct entries the rest are counted, `… +K more`.
 */

/** One problem: where (object keys and array indices, outermost first) and what. */
export interface Issue {
  path: readonly PropertyKey[];
  message: string;
}

export interface IssueListOptions {
  /** Distinct entries shown before `… +K more`. @default 8 */
  maxEntries?: number;
  /** Index ranges shown in one entry before `… +K more`. @default 6 */
  maxRanges?: number;
}

export const ISSUE_LIST_DEFAULTS: Readonly<Required<IssueListOptions>> = Object.freeze({ maxEntries: 8, maxRanges: 6 });

/** `calls[2].consumes[0]`; the index at `at`, when given, written as `indexText`. */
function pathText(path: readonly PropertyKey[], at?: number, indexText?: string): string {
  let text = '';
  path.forEach((part, i) => {
    if (typeof part === 'number') text += `[${i === at ? indexText : part}]`;
    else text += text === '' ? String(part) : `.${String(part)}`;
  });
  return text;
}

/** `2–299`, `0, 1, 5–9`: sorted distinct indices as ranges, at most `max` before `… +K more`. */
function rangesText(indices: readonly number[], max: number): string {
  const sorted = [...new Set(indices)].sort((a, b) => a - b);
  const ranges: string[] = [];
  let start = sorted[0] as number;
  for (let i = 1; i <= sorted.length; i += 1) {
    const prev = sorted[i - 1] as number;
    if (i < sorted.length && sorted[i] === prev + 1) continue;
    if (prev === start) ranges.push(`${start}`);
    else if (prev === start + 1) ranges.push(`${start}`, `${prev}`);
    else ranges.push(`${start}–${prev}`);
    start = sorted[i] as number;
  }
  return ranges.length <= max
    ? ranges.join(', ')
    : `${ranges.slice(0, max).join(', ')}, … +${ranges.length - max} more`;
}

interface Entry {
  message: string;
  path: readonly PropertyKey[];
  /** Where the grouped index sits in `path`, or -1 when the path has none. */
  at: number;
  indices: number[];
}

/**
 * The issues as one line, `; `-separated: those of the whole value (no path) first, then the others in the order each
 * problem first appears; issues that differ only in their first array index are one entry with the indices as
 * ranges and their count.
 */
export function describeIssues(issues: readonly Issue[], options: IssueListOptions = {}): string {
  const o = { ...ISSUE_LIST_DEFAULTS, ...options };
  const entries = new Map<string, Entry>();
  for (const issue of issues) {
    const at = issue.path.findIndex((part) => typeof part === 'number');
    const key = `${at === -1 ? pathText(issue.path) : pathText(issue.path, at, '*')}\u0000${issue.message}`;
    const entry = entries.get(key);
    if (entry === undefined)
      entries.set(key, {
        message: issue.message,
        path: issue.path,
        at,
        indices: at === -1 ? [] : [issue.path[at] as number],
      });
    else if (at !== -1) entry.indices.push(issue.path[at] as number);
  }
  // A problem of the whole value (no path: a top-level unknown field) comes first: after `tasks[0]: …` it would read
  // as one of tasks[0]'s (walk 14).
  const ordered = [...entries.values()].sort((a, b) => Number(a.path.length > 0) - Number(b.path.length > 0));
  const lines = ordered.map((e) => {
    const count = new Set(e.indices).size;
    if (e.at === -1 || count === 1) {
      const where = pathText(e.path);
      return where === '' ? e.message : `${where}: ${e.message}`;
    }
    const owner = e.path[e.at - 1];
    const what = typeof owner === 'string' ? owner : 'items';
    return `${pathText(e.path, e.at, rangesText(e.indices, o.maxRanges))}: ${e.message} (${count} ${what})`;
  });
  return lines.length <= o.maxEntries
    ? lines.join('; ')
    : `${lines.slice(0, o.maxEntries).join('; ')}; … +${lines.length - o.maxEntries} more`;
}
