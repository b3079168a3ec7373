/**
 * @module hooks/queue
 * From the spool to the queue: what every hook that opens the database does first. The spooled
 * events (each one's scope worked out from its cwd) and this hook's own event (a prompt) are queued
 * in arrival order; the prompt goes in the same transaction as the spool when there is one.
 */
import { resolveScope } from '../scope.js';
import type { Store } from '../store/types.js';
import { drainSpool, localId, spoolEvent, type SpooledEvent } from './spool.js';

export const isBusy = (error: unknown): boolean => /SQLITE_BUSY|database is locked/i.test(`${(error as { code?: string }).code ?? ''} ${(error as Error).message ?? ''}`);

/** Queues events: each one's scope from its cwd (once per cwd), one transaction per scope. */
export async function queueSpooled(store: Store, events: readonly SpooledEvent[]): Promise<void> {
  const scopes = new Map<string, string>();
  const byScope = new Map<string, SpooledEvent[]>();
  for (const e of events) {
    let scope = e.scope ?? scopes.get(e.cwd);
    if (scope === undefined) {
      scope = resolveScope({ cwd: e.cwd }).scope;
      scopes.set(e.cwd, scope);
    }
    byScope.set(scope, [...(byScope.get(scope) ?? []), e]);
  }
  for (const [scope, list] of byScope) {
    await store.enqueueHookEvents(scope, list.map((e) => ({ session: e.session, turn: e.turn, kind: e.kind, at: e.at, payload: e.payload, ...(e.key === undefined ? {} : { key: e.key }) })));
  }
}

/**
 * Queues the spool, then `own` (if any) after it. When another drainer holds the spool for longer
 * than `waitMs`, `own` goes to the spool behind the events already there, rather than ahead of
 * them into the queue. Throws when the database refuses (busy).
 */
export async function queueSpoolAnd(store: Store, db: string, own: SpooledEvent | undefined, warn: (line: string) => void, options: { waitMs?: number } = {}): Promise<void> {
  let queuedWithSpool = false;
  const drained = await drainSpool(
    db,
    localId(),
    async (events) => {
      await queueSpooled(store, own === undefined ? events : [...events, own]);
      queuedWithSpool = true;
    },
    warn,
    options,
  );
  if (own === undefined || queuedWithSpool) return;
  if (drained.locked) await queueSpooled(store, [own]);
  else spoolEvent(db, own);
}
