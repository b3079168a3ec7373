/**
 * @module core/outcome-follower
 * What became of shown tools, read from the calls that follow them (issue 24). A surface that shows tools and then
 * sees the agent's calls (the gateway, the PocketFlow adapter) feeds both here, in order, and records the outcomes it
 * is given back; the Claude Code hooks follow the memories their prompt hook showed the same way, by the
 * distinctive identifiers each names (`distinctiveIdentifiers`, `followRecall…`). Pure: no clock, no store.
 */
import type { Outcome } from './types.js';

export type FollowedKind = 'search' | 'next' | 'dag';

/** A showing: search and next results one shown id per tool; a DAG one shown id for all its tools. */
export type Showing =
  | { kind: 'search'; at: number; items: readonly { shownId: string; tool: string }[] }
  | {
      kind: 'next';
      at: number;
      after: string;
      items: readonly { shownId: string; tool: string }[];
      /** The calls before the next call of `after` do not count (a PocketFlow flow's next run starts over). */
      awaitAfter?: boolean;
    }
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
  /** `after` has still to be called before a call decides. */
  waiting: boolean;
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
 *   Shown with `awaitAfter`, the first such call after the next call of `after` decides (none: nothing).
 * - **dag**: the calls after the showing, until every tool of the DAG was called, the next DAG, `2n + 2` calls for a
 *   DAG of n tools, or the session's end: a tool whose last call failed makes it `failed` (taken, broken on the way,
 *   whether or not the others were called); else every tool called `succeeded`; some but not all, `rejected`; none,
 *   nothing.
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
      this.#next =
        showing.items.length === 0
          ? undefined
          : { after: showing.after, items: showing.items, waiting: showing.awaitAfter === true };
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
    if (next?.waiting === true && tool === next.after) next.waiting = false;
    else if (next !== undefined && !next.waiting && tool !== next.after) {
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
      // Taken and broken on the way (a tool's last call failed, the rest never called) is a use that failed.
      [...dag.last.values()].some((ok) => !ok) ? 'failed' : dag.last.size < dag.tools.size ? 'rejected' : 'succeeded';
    return [{ shownId: dag.shownId, kind, outcome, at }];
  }
}

/** Limits of {@link distinctiveIdentifiers}. */
export const RECALL_USE_LIMITS = Object.freeze({
  /** Shorter identifiers are not kept. @default 3 */
  minLength: 3,
  /** At most this many identifiers a memory (the first ones in its text). @default 24 */
  maxIdentifiers: 24,
});

const URL_TOKEN = /^[a-z][a-z0-9+.-]*:\/\/\S+$/i;
const DOTTED = /^[A-Za-z_$][\w$-]*(\.[A-Za-z_$][\w$-]*)+$/;
const DOT_FILE = /^\.[A-Za-z][\w.-]+$/;
const FLAG = /^--[A-Za-z][\w-]+(=\S+)?$/;
const SNAKE = /^\w*[A-Za-z0-9]_+[A-Za-z0-9]\w*$/;
const CAMEL = /^[a-z]+[A-Z][A-Za-z0-9]*$/;
const PASCAL = /^[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*$/;
const PATH_START = /^(\/|\.\.?\/|~\/)/;

/** Whether one token (no white space, punctuation around it already taken off) names something distinctive. */
function distinctiveToken(token: string): boolean {
  if (token.length < RECALL_USE_LIMITS.minLength || !/[A-Za-z]/.test(token)) return false;
  if (URL_TOKEN.test(token)) return true;
  if (token.includes('/')) {
    // A path: rooted, or of three parts or more, or ending in a file name. Two plain words (and/or) are prose.
    const last = token.slice(token.lastIndexOf('/') + 1);
    return PATH_START.test(token) || token.split('/').filter(Boolean).length >= 3 || DOTTED.test(last);
  }
  // a.b with every part of two characters or more (package.json, store.setOutcome; not e.g).
  if (DOTTED.test(token)) return token.split('.').every((part) => part.length >= 2);
  return DOT_FILE.test(token) || FLAG.test(token) || SNAKE.test(token) || CAMEL.test(token) || PASCAL.test(token);
}

/**
 * The distinctive identifiers a text names: what an agent's tool call would carry only if it acted on that text.
 * The rule:
 * - a code span (`npm run build`, `commander`): its content, of three characters or more and not a short word;
 * - URLs; paths (rooted, or of three parts or more, or ending in a file name: `src/cli/main.ts`, `~/.npmrc`);
 *   file and dotted names (`package.json`, `store.setOutcome`, `.env`); long flags (`--expose-gc`);
 * - code identifiers: snake_case or SCREAMING_SNAKE (also MCP tool names, `mcp__github__create_issue`),
 *   camelCase, PascalCase with an inner capital (`OutcomeFollower`).
 * Not distinctive: plain words of any case (Bash, Read and Edit are tool names but also words), acronyms,
 * hyphenated words, numbers, and a token the text cut short (ending in "…"). Trailing sentence punctuation is not
 * part of a token. In order of first appearance, each once, at most {@link RECALL_USE_LIMITS}.maxIdentifiers.
 */
export function distinctiveIdentifiers(text: string): string[] {
  const found: string[] = [];
  const add = (id: string): void => {
    if (!found.includes(id) && found.length < RECALL_USE_LIMITS.maxIdentifiers) found.push(id);
  };
  const prose = text.replace(/`([^`\n]+)`/g, (_, span: string) => {
    const inner = span.trim();
    if (inner.length >= RECALL_USE_LIMITS.minLength && !inner.includes('…') && (/\W/.test(inner) || inner.length > 4))
      add(inner);
    return ' ';
  });
  for (const raw of prose.split(/[\s"'()[\]{}<>,;|]+/)) {
    const token = raw.replace(/^[*:!?=]+/, '').replace(/[.:!?*]+$/, '');
    if (!token.includes('…') && distinctiveToken(token)) add(token);
  }
  return found;
}

const WORD_CHAR = /[A-Za-z0-9_$-]/;

/**
 * Whether `text` holds `identifier` as a whole token: no letter, digit, `_`, `$` or `-` right before or after it,
 * nor a dot and such a character after it (`notes.mjs` is not in `notes.mjs.bak`).
 */
export function namesIdentifier(text: string, identifier: string): boolean {
  if (identifier === '') return false;
  for (let at = text.indexOf(identifier); at >= 0; at = text.indexOf(identifier, at + 1)) {
    const before = at === 0 ? '' : (text[at - 1] ?? '');
    const end = at + identifier.length;
    const after = text[end] === '.' ? (text[end + 1] ?? '') : (text[end] ?? '');
    if (!WORD_CHAR.test(before) && !WORD_CHAR.test(after)) return true;
  }
  return false;
}

/** A recalled memory shown to the agent whose use is followed: the identifiers its shown text names. */
export interface FollowedRecall {
  shownId: string;
  identifiers: string[];
  /** The last call of the turn that named one of its identifiers: whether it succeeded (absent: none did). */
  used?: boolean;
}

/**
 * What the hooks keep between two learning runs of one session (plain data, stored with the session's state):
 * the memories shown this turn (`open`), and those of the turn just ended that the next prompt may still correct
 * (`ended`: the ones that were used).
 */
export interface RecallFollowState {
  open: FollowedRecall[];
  ended: FollowedRecall[];
}

export const EMPTY_RECALL_FOLLOW: RecallFollowState = Object.freeze({ open: [], ended: [] }) as RecallFollowState;

/** A followed state read back from storage (anything malformed is left out). */
export function recallFollowStateOf(value: unknown): RecallFollowState {
  const list = (v: unknown): FollowedRecall[] =>
    Array.isArray(v)
      ? v.flatMap((r: Partial<FollowedRecall> | null) =>
          typeof r?.shownId === 'string' && Array.isArray(r.identifiers)
            ? [
                {
                  shownId: r.shownId,
                  identifiers: r.identifiers.filter((i): i is string => typeof i === 'string' && i !== ''),
                  ...(typeof r.used === 'boolean' ? { used: r.used } : {}),
                },
              ]
            : [],
        )
      : [];
  const v = (value ?? {}) as Partial<Record<keyof RecallFollowState, unknown>>;
  return { open: list(v.open), ended: list(v.ended) };
}

export interface RecallDecision {
  shownId: string;
  outcome: Outcome;
  at: number;
}

/**
 * Follows recalled memories the prompt hook showed through the turn's calls (docs/how-it-works.md, "Where outcomes
 * come from"). A memory shown with no distinctive identifier is not followed: its use cannot be seen.
 * - **shown**: the memories join the turn's open ones.
 * - **a call**: every open memory one of whose identifiers the call names (its tool's name, or a string in its
 *   input) is used by it; the last such call of the turn says whether the use succeeded.
 * - **the turn ends** (the agent stops, or the next prompt comes first): a used memory `succeeded` or `failed` by
 *   that call; one never used is `rejected` when another memory shown that turn was used (a sibling was taken
 *   instead, as with search results). A turn that used none of them records nothing for them: answered in prose,
 *   or acting on something else, it is no evidence either way.
 * - **the next prompt** is a correction (its correction sentence given) naming an identifier of a memory the turn
 *   just ended used: that memory `failed`. A correction naming nothing shown decides nothing; one naming a memory
 *   the turn did not use leaves it rejected.
 * Each function returns the next state and the decisions, in order (a later decision on a shown id replaces one
 * before it). Pure.
 */
export function followRecallShown(
  state: RecallFollowState,
  shown: readonly { shownId: string; identifiers: readonly string[] }[],
): RecallFollowState {
  const open = [...state.open];
  for (const s of shown) {
    if (s.identifiers.length === 0 || open.some((o) => o.shownId === s.shownId)) continue;
    open.push({ shownId: s.shownId, identifiers: [...s.identifiers] });
  }
  return { open, ended: state.ended };
}

export function followRecallCall(state: RecallFollowState, callText: string, ok: boolean): RecallFollowState {
  if (state.open.length === 0) return state;
  return {
    open: state.open.map((o) => (o.identifiers.some((id) => namesIdentifier(callText, id)) ? { ...o, used: ok } : o)),
    ended: state.ended,
  };
}

export function endRecallTurn(
  state: RecallFollowState,
  at: number,
): { state: RecallFollowState; decisions: RecallDecision[] } {
  // A turn already ended (or with nothing shown) keeps what the next prompt may correct.
  if (state.open.length === 0) return { state, decisions: [] };
  const taken = state.open.some((o) => o.used !== undefined);
  const decisions = state.open
    .filter((o) => taken || o.used !== undefined)
    .map((o) => ({
      shownId: o.shownId,
      outcome: (o.used === undefined ? 'rejected' : o.used ? 'succeeded' : 'failed') as Outcome,
      at,
    }));
  return { state: { open: [], ended: state.open.filter((o) => o.used !== undefined) }, decisions };
}

export function followRecallPrompt(
  state: RecallFollowState,
  correction: string | undefined,
  at: number,
): { state: RecallFollowState; decisions: RecallDecision[] } {
  const ended = endRecallTurn(state, at);
  const corrected =
    correction === undefined
      ? []
      : ended.state.ended.filter((o) => o.identifiers.some((id) => namesIdentifier(correction, id)));
  return {
    state: { open: [], ended: [] },
    decisions: [...ended.decisions, ...corrected.map((o) => ({ shownId: o.shownId, outcome: 'failed' as const, at }))],
  };
}
