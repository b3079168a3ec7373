/**
 * @module hooks/queue
 * From the spool to the queue: what every hook that learns does first. The spooled events (each
 * one's scope worked out from its cwd) are queued in arrival order; what a prompt's context showed
 * (a `shown` event, hooks/prompt) is stored as shown records instead, so that the prompt hook itself
 * never writes to the database; the memories among them whose use can be followed are queued as well. A tool
 * call's payload is queued with its project's root (`root`, {@link callRoots}), each event its own.
 */
import { isStoreBusy } from '../core/errors.js';
import { resolveScope, type ResolvedScope } from '../platform/git-scope.js';
import type { FeedbackStore, HookQueueStore, ShownRecord } from '../store/types.js';
import { drainSpool, localId, type RefusedEvent, type SpooledEvent } from './spool.js';

/** The kind of a spooled event that carries shown records (`payload.shown`), not a hook event. */
export const SHOWN_KIND = 'shown';

/** The kinds of the tool calls' events: their payload is queued with the root of the project they ran in. */
const CALL_KINDS: ReadonlySet<string> = new Set(['PostToolUse', 'PostToolUseFailure']);

/** A call's payload with the root of the project it ran in (`root`; none is added when it has none). */
export function withRoot(kind: string, payload: unknown, root: string | undefined): unknown {
  if (root === undefined || !CALL_KINDS.has(kind) || typeof payload !== 'object' || payload === null) return payload;
  return Array.isArray(payload) ? payload : { ...payload, root };
}

/**
 * The roots of the calls, which the session start summary shows their files relative to (engine/session-summary),
 * each cwd looked up once. A call's root is the git top-level of its cwd when that repository gives the scope the
 * call is queued in: one scope's roots are then clones of one project, and a file has one name in all of them. A
 * scope named otherwise (CREDENCE_SCOPE, `--scope`) may cover several repositories, whose `src/index.ts` are different
 * files: their calls keep no root (their paths stay as they were named), nor does a cwd outside a repository.
 */
export function callRoots(): {
  /** Records a lookup already made (or failed: undefined). */
  know(cwd: string, resolved: ResolvedScope | undefined): void;
  rootOf(cwd: string, scope: string): string | undefined;
} {
  const found = new Map<string, ResolvedScope | undefined>();
  const lookup = (cwd: string): ResolvedScope | undefined => {
    if (!found.has(cwd)) {
      try {
        found.set(cwd, resolveScope({ cwd }));
      } catch {
        found.set(cwd, undefined);
      }
    }
    return found.get(cwd);
  };
  return {
    know: (cwd, resolved) => {
      found.set(cwd, resolved);
    },
    rootOf: (cwd, scope) => {
      const resolved = typeof cwd === 'string' ? lookup(cwd) : undefined;
      return resolved?.root !== undefined && resolved.scope === scope ? resolved.root : undefined;
    },
  };
}

/** The shown records a `shown` event carries (well-formed ones only), or none for any other event. */
export function shownRecordsOf(event: SpooledEvent): ShownRecord[] {
  if (event.kind !== SHOWN_KIND) return [];
  const list = (event.payload as { shown?: unknown } | null)?.shown;
  if (!Array.isArray(list)) return [];
  return list.flatMap((r: Partial<ShownRecord> | null) =>
    typeof r?.id === 'string' && r.surface === 'recall' && typeof r.target === 'string' && typeof r.at === 'number'
      ? [
          {
            id: r.id,
            surface: r.surface,
            target: r.target,
            ...(typeof r.query === 'string' ? { query: r.query } : {}),
            at: r.at,
            ...(typeof r.confidence === 'number' && r.confidence >= 0 && r.confidence <= 1
              ? { confidence: r.confidence }
              : {}),
          },
        ]
      : [],
  );
}

/**
 * The recalled memories of a `shown` event whose use can be followed (issue 24): those whose shown line names a
 * distinctive identifier (hooks/prompt), with those identifiers.
 */
export function followedOf(event: SpooledEvent): { shownId: string; identifiers: string[] }[] {
  const list = (event.payload as { shown?: unknown } | null)?.shown;
  const kept = new Set(shownRecordsOf(event).map((r) => r.id));
  if (!Array.isArray(list) || kept.size === 0) return [];
  return list.flatMap((r: { id?: unknown; identifiers?: unknown } | null) => {
    const identifiers = Array.isArray(r?.identifiers)
      ? r.identifiers.filter((i): i is string => typeof i === 'string' && i !== '')
      : [];
    return typeof r?.id === 'string' && kept.has(r.id) && identifiers.length > 0
      ? [{ shownId: r.id, identifiers }]
      : [];
  });
}

export const isBusy = (error: unknown): boolean =>
  isStoreBusy(error) ||
  /SQLITE_BUSY|database is locked/i.test(
    `${(error as { code?: string }).code ?? ''} ${(error as Error).message ?? ''}`,
  );

/**
 * Queues events: each one's scope from its cwd (once per cwd), one transaction per scope; shown
 * records are stored (once by their id, so a spool file queued twice counts once). Returns the
 * events left out, and why: those whose cwd gives no scope (the spool sets them aside).
 */
export async function queueSpooled(
  store: HookQueueStore & FeedbackStore,
  events: readonly SpooledEvent[],
): Promise<RefusedEvent[]> {
  const scopes = new Map<string, string>();
  const roots = callRoots();
  const byScope = new Map<string, SpooledEvent[]>();
  const refused: RefusedEvent[] = [];
  for (const e of events) {
    let scope = e.scope ?? scopes.get(e.cwd);
    if (scope === undefined) {
      try {
        const resolved = resolveScope({ cwd: e.cwd });
        scope = resolved.scope;
        roots.know(e.cwd, resolved);
      } catch (error) {
        const problem =
          typeof e.cwd === 'string'
            ? `has a cwd ${JSON.stringify(e.cwd.slice(0, 200))} that gives no scope: ${(error as Error).message}`
            : 'has no cwd (a non-empty string)';
        refused.push({ ...(e.key === undefined ? {} : { key: e.key }), problem });
        continue;
      }
      scopes.set(e.cwd, scope);
    }
    byScope.set(scope, [...(byScope.get(scope) ?? []), e]);
  }
  for (const [scope, list] of byScope) {
    // A shown event is queued too when its memories can be followed (ingest decides their outcomes in order).
    const queued = list.flatMap((e) => {
      if (e.kind !== SHOWN_KIND) return [e];
      const followed = followedOf(e);
      return followed.length === 0 ? [] : [{ ...e, payload: { followed } }];
    });
    if (queued.length > 0) {
      await store.enqueueHookEvents(
        scope,
        queued.map((e) => ({
          session: e.session,
          turn: e.turn,
          kind: e.kind,
          at: e.at,
          payload: withRoot(e.kind, e.payload, roots.rootOf(e.cwd, scope)),
          ...(e.key === undefined ? {} : { key: e.key }),
        })),
      );
    }
    // Each with its session: a forgotten session's prompts are not stored, and `forget <session>` finds them.
    const shown = list.flatMap((e) => shownRecordsOf(e).map((r) => ({ ...r, session: e.session })));
    if (shown.length > 0) await store.recordShown(scope, shown);
  }
  return refused;
}

/** Queues the spool (a drainer already at it is left to it). Throws when the database refuses (busy). */
export async function queueSpool(
  store: HookQueueStore & FeedbackStore,
  db: string,
  warn: (line: string) => void,
): Promise<void> {
  await drainSpool(
    db,
    localId(),
    async (events, refuse) => {
      for (const r of await queueSpooled(store, events)) refuse(r);
    },
    warn,
  );
}
