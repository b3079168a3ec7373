/**
 * @module mcp/session
 * What the gateway learns from proxied calls: each MCP session's calls are appended, in order, to
 * one execution (`mcp-<session>-<n>`), so consecutive calls teach `sequence` edges and a failed
 * call followed by another tool teaches `alternative`. After `idleMs` without a call, the next call
 * starts a new execution: a pause that long is another task. Writes are queued, one at a time, off
 * the call's path, so recording never delays the answer; `flush()` waits for them.
 */
import type { Credence } from '../engine.js';
import type { CallStatus } from '../core/types.js';

export interface SessionCall {
  tool: string;
  status: CallStatus;
  durationMs: number;
  /** Epoch ms, on the engine's clock. */
  at: number;
}

export interface SessionRecorderOptions {
  /** Identifies the session in execution ids. */
  sessionKey: string;
  /** The execution's intent text, e.g. `MCP session (claude-code)`. */
  intent: () => string;
  /** @default 30 minutes */
  idleMs?: number;
  log?: (line: string) => void;
}

export class SessionRecorder {
  readonly #credence: Credence;
  readonly #options: SessionRecorderOptions;
  #queue: Promise<void> = Promise.resolve();
  #execution: { id: string; startedAt: number; lastAt: number } | undefined;
  #serial = 0;
  /** Executions this recorder wrote to, oldest first. */
  readonly executions: string[] = [];

  constructor(credence: Credence, options: SessionRecorderOptions) {
    this.#credence = credence;
    this.#options = options;
  }

  /** Queues one call; returns at once. */
  record(call: SessionCall): void {
    const idleMs = this.#options.idleMs ?? 30 * 60_000;
    if (this.#execution === undefined || call.at - this.#execution.lastAt > idleMs) {
      this.#serial += 1;
      this.#execution = { id: `mcp-${this.#options.sessionKey}-${this.#serial}`, startedAt: call.at, lastAt: call.at };
      this.executions.push(this.#execution.id);
    }
    this.#execution.lastAt = Math.max(this.#execution.lastAt, call.at);
    const head = { id: this.#execution.id, intent: this.#options.intent(), startedAt: this.#execution.startedAt };
    this.#queue = this.#queue
      .then(() => this.#credence.appendCalls(head, [{ tool: call.tool, status: call.status, durationMs: call.durationMs, at: call.at }]))
      .then(
        () => {},
        (error: unknown) => this.#options.log?.(`gateway: could not record the call to ${call.tool}: ${(error as Error).message}`),
      );
  }

  /** Resolves once every queued call is stored. */
  flush(): Promise<void> {
    return this.#queue;
  }
}
