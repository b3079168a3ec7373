/**
 * @module mcp/in-flight
 * Counts the requests a server has received on a transport and not yet answered, so that a stdio
 * server whose input closes answers everything it was sent before it stops (issue 17): a client
 * may write several requests and close its end at once. A request the client cancels
 * (`notifications/cancelled`) gets no answer and stops counting.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

export interface InFlight {
  /** Requests received and not yet answered. */
  readonly pending: number;
  /** Resolves once no request is waiting for its answer (at once when none is). */
  idle: () => Promise<void>;
}

type Id = string | number;

const isRequest = (m: JSONRPCMessage): m is JSONRPCMessage & { id: Id; method: string } => 'method' in m && 'id' in m;
const isAnswer = (m: JSONRPCMessage): m is JSONRPCMessage & { id: Id } =>
  !('method' in m) && 'id' in m && m.id !== undefined;
const cancelledId = (m: JSONRPCMessage): Id | undefined => {
  if (!('method' in m) || 'id' in m || m.method !== 'notifications/cancelled') return undefined;
  const id = (m.params as { requestId?: unknown } | undefined)?.requestId;
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
};

/**
 * Wraps a connected transport's `onmessage` and `send` to count the unanswered requests. Call it
 * after `server.connect(transport)` (which sets `onmessage` and `onclose`).
 */
export function trackInFlight(transport: Transport): InFlight {
  const pending = new Set<Id>();
  let waiters: (() => void)[] = [];
  const settle = (id: Id): void => {
    if (!pending.delete(id) || pending.size > 0) return;
    const done = waiters;
    waiters = [];
    for (const w of done) w();
  };
  const receive = transport.onmessage;
  transport.onmessage = (message, extra) => {
    if (isRequest(message)) pending.add(message.id);
    const cancelled = cancelledId(message);
    receive?.(message, extra);
    if (cancelled !== undefined) settle(cancelled);
  };
  // A closed transport answers nothing more: nothing is waited for.
  const close = transport.onclose;
  transport.onclose = () => {
    close?.();
    for (const id of [...pending]) settle(id);
  };
  const send = transport.send.bind(transport);
  transport.send = async (message, options) => {
    try {
      await send(message, options);
    } finally {
      if (isAnswer(message)) settle(message.id);
    }
  };
  return {
    get pending() {
      return pending.size;
    },
    idle: () => (pending.size === 0 ? Promise.resolve() : new Promise<void>((done) => waiters.push(done))),
  };
}
