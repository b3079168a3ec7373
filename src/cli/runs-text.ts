/**
 * @module cli/runs-text
 * `credence runs` as text a person reads: one header line per run (time, confidence, intent on one
 * line, shortened), then its calls on one line, repeats folded (`Bash ok ×12`) and at most
 * `maxSteps` steps before `… +K more`. A hook session can hold hundreds of calls; `--json` keeps
 * every one.
 */
import type { RunListing } from '../engine/runs.js';

/**
 * @default maxSteps 8 steps shown per run, fewer when they pass maxWidth 140 characters; maxIntent 120 characters of
 * the intent
 */
export const RUNS_TEXT_DEFAULTS = Object.freeze({ maxSteps: 8, maxWidth: 140, maxIntent: 120 });

type Node = Pick<RunListing['nodes'][number], 'tool' | 'status' | 'retries'>;

/** Consecutive calls of one tool with one outcome and no retries folded into one step, `tool status ×n`. */
function steps(nodes: readonly Node[]): string[] {
  const out: { text: string; key: string | undefined; n: number }[] = [];
  for (const node of nodes) {
    const key = node.retries === 0 ? `${node.tool}\u0000${node.status}` : undefined;
    const last = out[out.length - 1];
    if (key !== undefined && last !== undefined && last.key === key) last.n += 1;
    else
      out.push({
        text: `${node.tool} ${node.status}${node.retries > 0 ? ` (${node.retries} retries)` : ''}`,
        key,
        n: 1,
      });
  }
  return out.map((s) => (s.n > 1 ? `${s.text} ×${s.n}` : s.text));
}

/**
 * The calls of a run on one line: folded repeats, the first steps (at most `maxSteps`, and no more
 * than fit in `maxWidth` characters, one at least), then `… +K more steps (N calls)`.
 */
export function formatRunSteps(nodes: readonly Node[], limits: { maxSteps?: number; maxWidth?: number } = {}): string {
  const { maxSteps, maxWidth } = { ...RUNS_TEXT_DEFAULTS, ...limits };
  if (nodes.length === 0) return '(no calls)';
  const all = steps(nodes);
  let shown = 0;
  let width = 0;
  while (shown < all.length && shown < maxSteps) {
    const next = width + (shown === 0 ? 0 : 3) + [...(all[shown] ?? '')].length;
    if (shown > 0 && next > maxWidth) break;
    width = next;
    shown += 1;
  }
  if (shown === all.length) return all.join(' → ');
  const more = all.length - shown;
  return (
    `${all.slice(0, shown).join(' → ')} → … +${more} more step${more === 1 ? '' : 's'} ` +
    `(${nodes.length} calls; --json lists all)`
  );
}

/** An intent on one line: whitespace runs made one space, cut at `max` characters with `…`. */
export function oneLine(text: string, max: number = RUNS_TEXT_DEFAULTS.maxIntent): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const chars = [...flat];
  return chars.length <= max ? flat : `${chars.slice(0, max - 1).join('')}…`;
}

/** The whole listing: per run a header line and an indented line of its calls. */
export function formatRuns(runs: readonly RunListing[], options: Partial<typeof RUNS_TEXT_DEFAULTS> = {}): string {
  const o = { ...RUNS_TEXT_DEFAULTS, ...options };
  return runs
    .map(
      (r) =>
        `${r.startedAt}  ${r.confidence === null ? '  —  ' : r.confidence.toFixed(2)}  ` +
        `${oneLine(r.intent, o.maxIntent)}${r.intentKind === null ? '' : ` [${r.intentKind}]`}\n` +
        `    ${formatRunSteps(r.nodes, o)}`,
    )
    .join('\n');
}
