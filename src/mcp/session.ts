/**
 * @module mcp/session
 * What the gateway learns from proxied calls: each MCP session's calls are appended, in order, to
 * one execution (`mcp-<session>-<n>`), so consecutive calls teach `sequence` edges and a failed
 * call followed by another tool teaches `alternative`. After `idleMs` without a call, the next call
 * starts a new execution: a pause that long is another task. Calls are written off the call's
 * path, in batches (every `batchMs`, one transaction for all the calls of the window); `flush()` writes
 * what is pending and waits for it. It also follows what became of the tools the session was shown (issue 24,
 * core/outcome-follower); the outcomes are written with the calls, and `idleMs` or `end()` closes the rest.
 */
import type { Credence } from '../engine/engine.js';
import { OutcomeFollower, type OutcomeDecision, type Showing } from '../core/outcome-follower.js';
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
  /** How long calls gather before they are written together. @default 100 */
  batchMs?: number;
  log?: (line: string) => void;
}

export class SessionRecorder {
  readonly #credence: Credence;
  readonly #options: SessionRecorderOptions;
  #queue: Promise<void> = Promise.resolve();
  #pending: { head: { id: string; intent: string; startedAt: number }; calls: SessionCall[] }[] = [];
  #timer: NodeJS.Timeout | undefined;
  #execution: { id: string; startedAt: number; lastAt: number } | undefined;
  #serial = 0;
  readonly #follower = new OutcomeFollower();
  #decisions: OutcomeDecision[] = [];
  /** Executions this recorder wrote to, oldest first. */
  readonly executions: string[] = [];

  constructor(credence: Credence, options: SessionRecorderOptions) {
    this.#credence = credence;
    this.#options = options;
  }

  /** Tools a meta tool showed this session (search results, next suggestions, a DAG), to follow; returns at once. */
  shown(showing: Showing): void {
    this.#decide(this.#follower.show(showing));
  }

  /** The session is over: what is still followed closes; everything pending is written. */
  end(at: number = this.#credence.now()): Promise<void> {
    this.#decide(this.#follower.close(Math.max(at, this.#execution?.lastAt ?? at)));
    return this.flush();
  }

  #decide(decisions: readonly OutcomeDecision[]): void {
    if (decisions.length === 0) return;
    this.#decisions.push(...decisions);
    this.#schedule();
  }

  #schedule(): void {
    if (this.#timer === undefined) {
      this.#timer = setTimeout(() => void this.#write(), this.#options.batchMs ?? 100);
      this.#timer.unref();
    }
  }

  /** Queues one call; returns at once. */
  record(call: SessionCall): void {
    const idleMs = this.#options.idleMs ?? 30 * 60_000;
    if (this.#execution !== undefined && call.at - this.#execution.lastAt > idleMs)
      this.#decide(this.#follower.close(this.#execution.lastAt));
    if (this.#execution === undefined || call.at - this.#execution.lastAt > idleMs) {
      this.#serial += 1;
      this.#execution = { id: `mcp-${this.#options.sessionKey}-${this.#serial}`, startedAt: call.at, lastAt: call.at };
      this.executions.push(this.#execution.id);
    }
    this.#execution.lastAt = Math.max(this.#execution.lastAt, call.at);
    const last = this.#pending.at(-1);
    if (last !== undefined && last.head.id === this.#execution.id) last.calls.push(call);
    else
      this.#pending.push({
        head: { id: this.#execution.id, intent: this.#options.intent(), startedAt: this.#execution.startedAt },
        calls: [call],
      });
    this.#decide(this.#follower.called(call.tool, call.status === 'success', call.at));
    this.#schedule();
  }

  /** Writes the pending calls, one append per execution, after whatever is being written. */
  #write(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const batches = this.#pending;
    this.#pending = [];
    const decisions = this.#decisions;
    this.#decisions = [];
    for (const { head, calls } of batches) {
      this.#queue = this.#queue
        .then(() =>
          this.#credence.appendCalls(
            head,
            calls.map((c) => ({ tool: c.tool, status: c.status, durationMs: c.durationMs, at: c.at })),
          ),
        )
        .then(
          () => {},
          (error: unknown) =>
            this.#options.log?.(
              `gateway: could not record ${calls.length} call${calls.length === 1 ? '' : 's'} of ${head.id}: ` +
                `${(error as Error).message}`,
            ),
        );
    }
    // After the calls: what became of the tools shown (an id the agent gave no longer there is only logged).
    for (const d of decisions) {
      this.#queue = this.#queue
        .then(() => this.#credence.recordOutcome(d.shownId, d.outcome, { at: d.at, inferred: true }))
        .then(
          () => {},
          (error: unknown) =>
            this.#options.log?.(`gateway: could not record the outcome of ${d.shownId}: ${(error as Error).message}`),
        );
    }
    return this.#queue;
  }

  /** Writes what is pending and resolves once every call recorded so far is stored. */
  flush(): Promise<void> {
    return this.#write();
  }
}
