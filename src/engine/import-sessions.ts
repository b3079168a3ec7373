/**
 * @module engine/import-sessions
 * Learning from past sessions (issue 22, `credence import --claude-code`): a session's events, shaped as
 * its hooks would have queued them, go through the hooks' queue and are learned by the caller's `learn`
 * (the hooks' ingest), so nothing is learned a second way. Idempotent: the session's hook state keeps how
 * far the import reached (`imported`: the newest event's time and the keys at it), so importing again
 * queues nothing and a grown transcript adds only its new lines. A session the live hooks learned (a turn
 * or a state, no mark) is left alone. The queue keys (kept a week) guard a run that died before marking.
 */
import type { HookQueueStore } from '../store/types.js';

/**
 * One event as the hooks queue it: a prompt, or a call (its payload scrubbed and cut, hooks/fast; with the root of
 * the project it ran in, hooks/queue).
 */
export interface ImportedEvent {
  /** The session-unique id of what it came from (the prompt's message uuid, the call's tool_use id). */
  key: string;
  kind: 'prompt' | 'PostToolUse' | 'PostToolUseFailure';
  at: number;
  payload: unknown;
}

export interface SessionImport {
  /** Events queued and learned now. */
  taken: readonly ImportedEvent[];
  /** Events an earlier import took already. */
  already: number;
  /** The session was learned by the live hooks: nothing was queued. */
  learnedByHooks: boolean;
}

interface ImportMark {
  at: number;
  keys: string[];
}

const markOf = (state: Record<string, unknown>): ImportMark | undefined => {
  const m = state.imported as Partial<ImportMark> | undefined;
  return typeof m?.at === 'number' && Array.isArray(m.keys) ? { at: m.at, keys: m.keys.map(String) } : undefined;
};

/**
 * Queues the session's events not imported before, runs `learn` (which learns and empties the queue of
 * the session), then moves the session's mark past them.
 */
export async function importSession(
  store: HookQueueStore,
  scope: string,
  input: { session: string; events: readonly ImportedEvent[]; now: number },
  learn: () => Promise<void>,
): Promise<SessionImport> {
  const { session, events, now } = input;
  const before = await store.hookSession(scope, session);
  const mark = markOf(before.state);
  if (mark === undefined && (before.turn > 0 || Object.keys(before.state).length > 0))
    return { taken: [], already: 0, learnedByHooks: true };
  const seen = new Set(mark?.keys ?? []);
  const fresh = events.filter((e) => mark === undefined || e.at > mark.at || (e.at === mark.at && !seen.has(e.key)));
  if (fresh.length === 0) return { taken: [], already: events.length, learnedByHooks: false };
  await store.enqueueHookEvents(
    scope,
    fresh.map((e) => ({
      session,
      turn: e.kind === 'prompt' ? ('next' as const) : ('current' as const),
      kind: e.kind,
      at: e.at,
      payload: e.payload,
      key: `import:${scope}:${session}:${e.key}`,
    })),
  );
  await learn();
  const newest = Math.max(mark?.at ?? Number.NEGATIVE_INFINITY, ...fresh.map((e) => e.at));
  const keys = [
    ...new Set([...(mark?.at === newest ? mark.keys : []), ...fresh.filter((e) => e.at === newest).map((e) => e.key)]),
  ];
  const after = await store.hookSession(scope, session);
  await store.setHookSessionState(scope, session, { ...after.state, imported: { at: newest, keys } }, now);
  return { taken: fresh, already: events.length - fresh.length, learnedByHooks: false };
}
