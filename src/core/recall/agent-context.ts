/**
 * @module core/recall/agent-context
 * Which of recall's results make the agent's context, and what each line carries (issue 23): the memory's date and
 * the text around the query's words (recall's bounded snippet); a superseded memory left out unless the question is
 * about the past (then it is the answer, kept and marked); a conflict always marked. Every surface that gives the
 * agent recall's results (the CLI's block, the MCP recall tool and prompt, the prompt hook) chooses them here, so
 * one question gets the same lines everywhere. Pure: `now` is passed in.
 */
import type { ContextLine } from './memory-context.js';
import { contextLineOf } from './memory-life.js';
import { questionTime } from './question-time.js';

type ContextResult = Parameters<typeof contextLineOf>[0] & {
  times: { at: string; validFrom?: string };
};

/** How a surface asked: everything (`--all`), or as of a date (`--as-of`). */
export interface ContextAsked {
  all?: boolean;
  asOf?: number;
}

/**
 * Whether the agent's context keeps the superseded memories recall ranked: asked with `all`, with an as-of date, or
 * for a question recall reads as about the past ("before it moved", "used to", a period that ended:
 * core/recall/question-time), whose answer is what was replaced. Otherwise they are left out (issue 23).
 */
export function keepsSuperseded(query: string, now: number, options: ContextAsked = {}): boolean {
  return options.all === true || options.asOf !== undefined || questionTime(query, now).tense === 'past';
}

/** A result the agent's context shows, and its line (date, snippet, and a note when superseded or in conflict). */
export interface ContextChoice<R> {
  result: R;
  line: ContextLine;
}

/**
 * The results of `query` the agent's context shows, in recall's order, each with its line: a superseded one only
 * when `keepsSuperseded`, marked; a conflicting one marked. A turn's line is its title (speaker, date, snippet).
 */
export function chooseContext<R extends ContextResult>(
  results: readonly R[],
  query: string,
  now: number,
  options: ContextAsked = {},
): ContextChoice<R>[] {
  return contextChoices(results, keepsSuperseded(query, now, options));
}

/** {@link chooseContext} with the choice to keep superseded memories already made. */
export function contextChoices<R extends ContextResult>(results: readonly R[], keep: boolean): ContextChoice<R>[] {
  return results
    .filter((r) => keep || r.status !== 'superseded')
    .map((r) => {
      const line = contextLineOf(r, results);
      if (r.turn !== undefined) return { result: r, line };
      return { result: r, line: { ...line, date: (r.times.validFrom ?? r.times.at).slice(0, 10), snippet: r.snippet } };
    });
}

/** The lines of {@link chooseContext}. */
export function contextLinesFor(results: readonly ContextResult[], keep: boolean): ContextLine[] {
  return contextChoices(results, keep).map((c) => c.line);
}
