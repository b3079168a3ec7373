/**
 * @module cli/runs-text
 * `credence runs` as text a person reads: one header line per run (time, quality and whether the run is a success of
 * its workflow, intent on one line, shortened), then its calls on one line, repeats folded (`Bash ok ×12`) and at most
 * `maxSteps` steps before `… +K more`, then its summary on one line when it says more than that (what
 * became of an `execute_dag` task that never reached its tool). A hook session can hold hundreds of calls;
 * `--json` keeps every one.
 */
import { type RunListing, runSummary } from '../engine/runs.js';
import { cutChars } from '../core/text/plain-text.js';
import { qualityText } from '../core/runs/run-quality.js';

/**
 * @default maxSteps 8 steps shown per run, fewer when they pass maxWidth 140 characters; maxIntent 120 characters of
 * the intent
 */
export const RUNS_TEXT_DEFAULTS = Object.freeze({ maxSteps: 8, maxWidth: 140, maxIntent: 120 });

type Node = Pick<RunListing['nodes'][number], 'tool' | 'status' | 'retries'>;
type Run = Pick<
  RunListing,
  'id' | 'startedAt' | 'confidence' | 'quality' | 'succeeded' | 'intent' | 'intentKind' | 'summary'
> & { nodes: Node[] };

/** ` (1 retry)`, ` (2 retries)`; nothing without one. */
const retriesText = (n: number): string => (n === 0 ? '' : ` (${n} ${n === 1 ? 'retry' : 'retries'})`);

/** Consecutive calls of one tool with one outcome and no retries folded into one step, `tool status ×n`. */
function steps(nodes: readonly Node[]): string[] {
  const out: { text: string; key: string | undefined; n: number }[] = [];
  for (const node of nodes) {
    const key = node.retries === 0 ? `${node.tool}\u0000${node.status}` : undefined;
    const last = out[out.length - 1];
    if (key !== undefined && last !== undefined && last.key === key) last.n += 1;
    else
      out.push({
        text: `${node.tool} ${node.status}${retriesText(node.retries)}`,
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
  return cutChars(text.replace(/\s+/g, ' ').trim(), max);
}

/**
 * Whether a summary only restates the header and the calls: the one a recorded workflow run (`recordRun`, the
 * PocketFlow adapter) is stored with, `intent: tool status → …; confidence c`.
 */
function restatesCalls(r: Run, summary: string): boolean {
  const nodes = r.nodes.map((n) => ({ name: n.tool, status: n.status, retries: n.retries }));
  return summary === runSummary(r.intent, nodes, r.confidence);
}

/**
 * The whole listing: per run a header line (time, quality, success or failure, intent, and the run's id, which
 * `credence forget` takes), an indented line of its calls, and an indented `summary:` line when the
 * run has a summary that says more than they do (one line, cut at `maxWidth` characters; `--json` has it whole).
 */
export function formatRuns(runs: readonly Run[], options: Partial<typeof RUNS_TEXT_DEFAULTS> = {}): string {
  const o = { ...RUNS_TEXT_DEFAULTS, ...options };
  return runs
    .map((r) => {
      const given = typeof r.summary === 'string' ? r.summary : '';
      const summary = given.trim() === '' || restatesCalls(r, given) ? '' : given;
      return (
        `${r.startedAt}  ${qualityText(r.quality, r.succeeded)} ${r.succeeded ? 'success' : 'failure'}  ` +
        `${oneLine(r.intent, o.maxIntent)}${r.intentKind === null ? '' : ` [${r.intentKind}]`}  id ${r.id}\n` +
        `    ${formatRunSteps(r.nodes, o)}` +
        (summary === '' ? '' : `\n    summary: ${oneLine(summary, o.maxWidth)}`)
      );
    })
    .join('\n');
}
