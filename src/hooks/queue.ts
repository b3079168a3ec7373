/**
 * @module hooks/queue
 * From the spool to the queue: what every hook that learns does first. The spooled events (each
 * one's scope worked out from its cwd) are queued in arrival order.
 */
import { resolveScope } from '../scope.js';
import type { Store } from '../store/types.js';
import { drainSpool, localId, type SpooledEvent } from './spool.js';

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

/** Queues the spool (a drainer already at it is left to it). Throws when the database refuses (busy). */
export async function queueSpool(store: Store, db: string, warn: (line: string) => void): Promise<void> {
  await drainSpool(db, localId(), (events) => queueSpooled(store, events), warn);
}
