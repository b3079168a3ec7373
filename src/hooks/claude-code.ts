/**
 * @module hooks/claude-code
 * `credence hook claude-code`: one Claude Code hook event on stdin, acted on by `hook_event_name`
 * (SPEC §9, issue 9). It fails open: whatever goes wrong, the process exits 0 with one line on
 * stderr, and the agent never waits for more than a short busy timeout.
 *
 * - PreToolUse: nothing (the fast path: the database is not even opened).
 * - PostToolUse / PostToolUseFailure: the call (tool, scrubbed and truncated input and response,
 *   success or failure) is queued for its session's current turn; one small write.
 * - UserPromptSubmit: starts the session's next turn, queues the prompt (for the turn's intent and
 *   the correction rule), and prints the `<memory-context>` block of what recall finds relevant
 *   (high or medium; nothing at all when nothing is), recording those memories as shown.
 * - SessionStart: learns what is queued, then prints the active skills and high-confidence
 *   instincts of the scope, within a few hundred tokens.
 * - Stop / SubagentStop / SessionEnd: learn what the session queued (its turn's execution, edges
 *   and observations). Never blocks: nothing is printed, whatever `stop_hook_active` says.
 *
 * Learning from the queue (hooks/ingest) loads the whole engine; the tool events never do.
 * A database busy past the busy timeout, or one that cannot be opened, sends the event to the
 * spool (hooks/spool), which the next invocation queues first: no event is lost.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { scrubText, scrubValue } from '../core/scrub.js';
import { parseIsoInstant } from '../core/time.js';
import { resolveScope } from '../scope.js';
import { openSqliteStore } from '../store/sqlite/sqlite-store.js';
import type { Store } from '../store/types.js';
import { asText, compactJson, parseHookPayload, truncated, type HookPayload } from './payload.js';
import { drainSpool, spoolEvent, type SpooledEvent } from './spool.js';

export interface HookIO {
  env: NodeJS.ProcessEnv;
}

export interface HookOutcome {
  stdout: string;
  stderr: string;
}

/** How much of a call's input and response is kept (after scrubbing). */
export const HOOK_LIMITS = Object.freeze({ input: 2000, output: 2000, error: 500, prompt: 2000, busyTimeoutMs: 250 });

const scrubbed = (text: string, max: number): string => truncated(scrubText(text).text, max);

function clock(env: NodeJS.ProcessEnv): number {
  const fixed = env.CREDENCE_NOW;
  if (fixed !== undefined && fixed !== '') {
    const at = parseIsoInstant(fixed);
    if (at !== undefined) return at;
  }
  return Date.now();
}

const dbPathOf = (env: NodeJS.ProcessEnv): string => (env.CREDENCE_DB !== undefined && env.CREDENCE_DB !== '' ? env.CREDENCE_DB : join(homedir(), '.credence', 'credence.db'));

const isBusy = (error: unknown): boolean => /SQLITE_BUSY|database is locked/i.test(`${(error as { code?: string }).code ?? ''} ${(error as Error).message ?? ''}`);

/** What a tool event queues: the call, scrubbed and cut to size. */
export function callEventOf(p: HookPayload): Record<string, unknown> {
  const r = p.raw;
  const failed = p.event === 'PostToolUseFailure';
  return {
    tool: typeof r.tool_name === 'string' && r.tool_name !== '' ? r.tool_name : 'unknown',
    status: failed ? 'failure' : 'success',
    // Scrubbed whole first (a secret cut in two would escape the rules), then cut to size.
    input: compactJson(scrubValue(r.tool_input), HOOK_LIMITS.input),
    ...(failed ? {} : { output: scrubbed(asText(r.tool_response), HOOK_LIMITS.output) }),
    ...(failed ? { error: scrubbed(asText(r.error), HOOK_LIMITS.error) } : {}),
    ...(typeof r.tool_use_id === 'string' ? { toolUseId: r.tool_use_id } : {}),
    ...(r.is_interrupt === true ? { interrupted: true } : {}),
  };
}

export async function runClaudeCodeHook(stdin: string, io: HookIO): Promise<HookOutcome> {
  const out: HookOutcome = { stdout: '', stderr: '' };
  const warn = (line: string): void => {
    out.stderr += `credence hook: ${line}\n`;
  };
  const parsed = parseHookPayload(stdin);
  if (!parsed.ok) {
    warn(parsed.message);
    return out;
  }
  const p = parsed.payload;
  if (p.event === 'PreToolUse') return out;
  const env = io.env;
  const now = clock(env);
  let scope: string;
  try {
    scope = resolveScope({ cwd: p.cwd, override: env.CREDENCE_SCOPE }).scope;
  } catch (error) {
    warn(`cannot tell the project of ${p.cwd}: ${(error as Error).message}`);
    return out;
  }
  const db = dbPathOf(env);
  // What this event would queue, so that a busy database sends it to the spool instead.
  let pending: SpooledEvent | undefined;
  if (p.event === 'PostToolUse' || p.event === 'PostToolUseFailure') {
    pending = { scope, session: p.session, turn: 'current', kind: p.event, at: now, payload: callEventOf(p) };
  } else if (p.event === 'UserPromptSubmit') {
    const prompt = typeof p.raw.prompt === 'string' ? p.raw.prompt : '';
    pending = { scope, session: p.session, turn: 'next', kind: 'prompt', at: now, payload: { prompt: scrubbed(prompt, HOOK_LIMITS.prompt) } };
  }
  let store: Store | undefined;
  try {
    store = openSqliteStore({ path: db, busyTimeoutMs: HOOK_LIMITS.busyTimeoutMs });
    // Spooled events first, in their order, each file in one transaction: a spooled prompt starts
    // its turn then, a spooled call joins the turn its session is in by then.
    await drainSpool(
      db,
      async (events) => {
        const byScope = new Map<string, SpooledEvent[]>();
        for (const e of events) byScope.set(e.scope, [...(byScope.get(e.scope) ?? []), e]);
        for (const [s, list] of byScope) await (store as Store).enqueueHookEvents(s, list.map(({ scope: _, ...e }) => e));
      },
      warn,
    );
    if (pending !== undefined) {
      await store.enqueueHookEvents(scope, [pending]);
      pending = undefined;
    }
    if (p.event === 'UserPromptSubmit') {
      const { promptContext } = await import('./context.js');
      const context = await promptContext(store, scope, typeof p.raw.prompt === 'string' ? p.raw.prompt : '', { cwd: p.cwd, now, env });
      if (context !== '') out.stdout = `${JSON.stringify({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: context } })}\n`;
    } else if (p.event === 'SessionStart' || p.event === 'Stop' || p.event === 'SubagentStop' || p.event === 'SessionEnd') {
      const { ingest } = await import('./ingest.js');
      await ingest(store, scope, { cwd: p.cwd, now, env, claimer: randomUUID(), ...(p.event === 'SessionStart' ? {} : { session: p.session }) }, warn);
      if (p.event === 'SessionStart') {
        const { sessionContext } = await import('./context.js');
        const context = await sessionContext(store, scope, { cwd: p.cwd, now, env });
        if (context !== '') out.stdout = `${JSON.stringify({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: context } })}\n`;
      }
    }
  } catch (error) {
    if (pending !== undefined) {
      try {
        spoolEvent(db, pending);
        warn(`${isBusy(error) ? 'the database is busy' : `cannot write to ${db} (${(error as Error).message})`}: the event waits in the spool`);
      } catch (spoolError) {
        warn(`cannot write to ${db} (${(error as Error).message}) nor to its spool (${(spoolError as Error).message}): the event is lost`);
      }
    } else {
      warn(isBusy(error) ? 'the database is busy: what is queued will be learned next time' : `${p.event}: ${(error as Error).message}`);
    }
  } finally {
    await store?.close().catch(() => {});
  }
  return out;
}

/** The process entry: reads stdin, runs the hook, prints, and always exits 0. */
export async function main(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  let stdin = '';
  try {
    process.stdin.setEncoding('utf8');
    for await (const chunk of process.stdin) stdin += chunk as string;
  } catch (error) {
    process.stderr.write(`credence hook: cannot read stdin: ${(error as Error).message}\n`);
  }
  try {
    const outcome = await runClaudeCodeHook(stdin, { env });
    if (outcome.stdout !== '') process.stdout.write(outcome.stdout);
    if (outcome.stderr !== '') process.stderr.write(outcome.stderr);
  } catch (error) {
    process.stderr.write(`credence hook: ${(error as Error).message}\n`);
  }
  process.exitCode = 0;
}
