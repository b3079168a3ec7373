/**
 * @module core/outcome-follower
 * What became of shown tools, read from the calls that follow them (issue 24). A surface that shows tools and then
 * sees the agent's calls (the gateway, the PocketFlow adapter) feeds both here, in order, and records the outcomes it
 * is given back. Pure: no clock, no store; times come with the events.
 */
import type { Outcome } from './types.js';

export type FollowedKind = 'search' | 'next' | 'dag';

/** A showing: search and next results one shown id per tool; a DAG one shown id for all its tools. */
export type Showing =
  | { kind: 'search'; at: number; items: readonly { shownId: string; tool: string }[] }
  | { kind: 'next'; at: number; after: string; items: readonly { shownId: string; tool: string }[] }
  | { kind: 'dag'; at: number; shownId: string; tools: readonly string[] };

export interface OutcomeDecision {
  shownId: string;
  kind: FollowedKind;
  outcome: Outcome;
  at: number;
}

/** How many calls a search showing stays open for. */
export const SEARCH_WINDOW = 10;

interface OpenSearch {
  items: Map<string, string[]>;
  taken: boolean;
  calls: number;
  decided: Set<string>;
}
interface OpenNext {
  after: string;
  items: readonly { shownId: string; tool: string }[];
}
interface OpenDag {
  shownId: string;
  tools: Set<string>;
  last: Map<string, boolean>;
  calls: number;
}

/**
 * Follows showings against the calls after them.
 *
 * The rules (docs/how-it-works.md, "Where outcomes come from"):
 * - **search**: a shown tool called while its showing is open `succeeded` or `failed` by that call. When the showing
 *   closes (the next search, `SEARCH_WINDOW` calls later, or the session's end) and one of its tools was called,
 *   every tool of it not called is `rejected`: a sibling was taken instead. A showing none of whose tools was called
 *   records nothing (the agent may not have acted on it).
 * - **next**: the first call after the showing (a call of the tool the suggestions follow does not count) decides:
 *   the suggestion it called `succeeded` or `failed`, every other one is `rejected`; a call of none rejects them all.
 * - **dag**: the calls after the showing, until every tool of the DAG was called, the next DAG, `2n + 2` calls for a
 *   DAG of n tools, or the session's end: every tool called makes it `succeeded` (`failed` when a tool's last call
 *   failed); some but not all, `rejected`; none, nothing.
 * Only the first decision on a shown id counts.
 */
export class OutcomeFollower {
  #search: OpenSearch | undefined;
  #next: OpenNext | undefined;
  #dag: OpenDag | undefined;

  /** A new showing; the open showing of its kind closes first (its decisions are returned). */
  show(showing: Showing): OutcomeDecision[] {
    const closed = this.#close(showing.kind, showing.at);
    if (showing.kind === 'search') {
      const items = new Map<string, string[]>();
      for (const { shownId, tool } of showing.items) items.set(tool, [...(items.get(tool) ?? []), shownId]);
      this.#search = items.size === 0 ? undefined : { items, taken: false, calls: 0, decided: new Set() };
    } else if (showing.kind === 'next') {
      this.#next = showing.items.length === 0 ? undefined : { after: showing.after, items: showing.items };
    } else {
      const tools = new Set(showing.tools);
      this.#dag = tools.size === 0 ? undefined : { shownId: showing.shownId, tools, last: new Map(), calls: 0 };
    }
    return closed;
  }

  /** A call the agent made, and whether it succeeded. */
  called(tool: string, ok: boolean, at: number): OutcomeDecision[] {
    const out: OutcomeDecision[] = [];
    const used: Outcome = ok ? 'succeeded' : 'failed';
    const search = this.#search;
    if (search !== undefined) {
      for (const shownId of search.items.get(tool) ?? []) {
        if (search.decided.has(shownId)) continue;
        search.decided.add(shownId);
        search.taken = true;
        out.push({ shownId, kind: 'search', outcome: used, at });
      }
      search.calls += 1;
      if (search.calls >= SEARCH_WINDOW) out.push(...this.#close('search', at));
    }
    const next = this.#next;
    if (next !== undefined && tool !== next.after) {
      // A tool suggested twice is decided by its first suggestion.
      const taken = next.items.findIndex((item) => item.tool === tool);
      next.items.forEach((item, i) => {
        out.push({ shownId: item.shownId, kind: 'next', outcome: i === taken ? used : 'rejected', at });
      });
      this.#next = undefined;
    }
    const dag = this.#dag;
    if (dag !== undefined) {
      dag.calls += 1;
      if (dag.tools.has(tool)) dag.last.set(tool, ok);
      if (dag.last.size === dag.tools.size || dag.calls >= 2 * dag.tools.size + 2) out.push(...this.#close('dag', at));
    }
    return out;
  }

  /** The session ended (or went idle): every open showing closes. */
  close(at: number): OutcomeDecision[] {
    return [...this.#close('search', at), ...this.#close('next', at), ...this.#close('dag', at)];
  }

  #close(kind: FollowedKind, at: number): OutcomeDecision[] {
    if (kind === 'search') {
      const search = this.#search;
      this.#search = undefined;
      if (search === undefined || !search.taken) return [];
      return [...search.items.values()]
        .flat()
        .filter((shownId) => !search.decided.has(shownId))
        .map((shownId) => ({ shownId, kind, outcome: 'rejected' as const, at }));
    }
    if (kind === 'next') {
      this.#next = undefined;
      return [];
    }
    const dag = this.#dag;
    this.#dag = undefined;
    if (dag === undefined || dag.last.size === 0) return [];
    const outcome: Outcome =
      dag.last.size < dag.tools.size ? 'rejected' : [...dag.last.values()].every(Boolean) ? 'succeeded' : 'failed';
    return [{ shownId: dag.shownId, kind, outcome, at }];
  }
}
