/**
 * @module core/recall/agent-context
 * Which of recall's results make the agent's `<memory-context>` block, and what each line carries (issue 23): the
 * memory's date and the text around the query's words (recall's bounded snippet); a superseded memory left out
 * unless the question is about the past (then it is the answer, kept and marked). Pure: `now` is passed in.
 */
import type { ContextLine } from './memory-context.js';
import { agentContextLines } from './memory-life.js';
import { questionTime } from './question-time.js';

type ContextResult = Parameters<typeof agentContextLines>[0][number] & {
  times: { at: string; validFrom?: string };
};

/**
 * Whether the agent's context keeps the superseded memories recall ranked: asked with `all`, with an as-of date, or
 * for a question recall reads as about the past ("before", "used to", a period that ended: core/recall/question-time),
 * whose answer is what was replaced. Otherwise they are left out (issue 23).
 */
export function keepsSuperseded(query: string, now: number, options: { all?: boolean; asOf?: number } = {}): boolean {
  return options.all === true || options.asOf !== undefined || questionTime(query, now).tense === 'past';
}

/**
 * The agent's context lines for recall's results: each with its date and snippet (a turn's title already holds
 * both); a superseded memory or a turn marked older kept, marked, when `keep`; left out otherwise.
 */
export function contextLinesFor(results: readonly ContextResult[], keep: boolean): ContextLine[] {
  const shown = keep ? results : results.filter((r) => r.status !== 'superseded');
  return agentContextLines(shown, keep).map((line, i) => {
    const r = shown[i] as ContextResult;
    if (r.turn !== undefined) return line;
    return { ...line, date: (r.times.validFrom ?? r.times.at).slice(0, 10), snippet: r.snippet };
  });
}
