/**
 * @module hooks/claude-code
 * `credence hook claude-code`: one Claude Code hook event on stdin, by `hook_event_name` (SPEC §9, issue
 * 9). Fails open: exit 0 with one stderr line, never waiting past a short busy timeout. PreToolUse:
 * nothing. PostToolUse(Failure): the scrubbed call to the spool (hooks/fast). UserPromptSubmit:
 * hooks/prompt. SessionStart: learn the queue, print the skills and strong instincts. Stop / SubagentStop /
 * SessionEnd: learn the queue. A busy database leaves spool and queue for next time. `runClaudeCodeHook`
 * does it all in process; `main` hands the learning to a process of its own (hooks/hand-off,
 * `learnHookEvent`) and prints the session's context from the read path (hooks/session-start).
 */
import { resolveScope } from '../platform/git-scope.js';
import type { Store } from '../store/types.js';
import { hookDbPath } from '../platform/paths.js';
import { storeFailureLine } from './failure-line.js';
import { writeStdio } from './stdio.js';
import { eventClock, spoolToolEvent, stopHook } from './fast.js';
import { parseHookPayload, type HookPayload } from './payload.js';
import { openHookStore } from './open-store.js';
import { isBusy, queueSpool } from './queue.js';
import { localId } from './spool.js';

export { callEventOf, HOOK_LIMITS } from './fast.js';

export interface HookIO {
  env: NodeJS.ProcessEnv;
  /** The learning process of a hand-off: a SessionStart learns without reading the context to print. */
  learnOnly?: boolean;
  /** What the learning process does when its automatic evolve passes the time bound (it ends itself). */
  onEvolveTimeout?: () => void;
}

export interface HookOutcome {
  stdout: string;
  stderr: string;
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
  return runParsedHook(parsed.payload, io, out, warn);
}

async function runParsedHook(
  p: HookPayload,
  io: HookIO,
  out: HookOutcome,
  warn: (line: string) => void,
): Promise<HookOutcome> {
  if (p.event === 'PreToolUse') return out;
  const env = io.env;
  if (p.event === 'PostToolUse' || p.event === 'PostToolUseFailure') {
    const problem = spoolToolEvent(p, env);
    if (problem !== undefined) warn(problem);
    return out;
  }
  if (p.event === 'UserPromptSubmit') {
    const { runPromptHook } = await import('./prompt.js');
    const r = await runPromptHook(p, env);
    out.stdout += r.stdout;
    out.stderr += r.stderr;
    return out;
  }
  const { now, name: clockName } = eventClock(env);
  const where = hookDbPath(env);
  if (!where.ok) {
    warn(where.message);
    return out;
  }
  // The hooks' files (spool, leases, evolve lock) are the store's own: hookFilesBase in platform/paths.
  const db = where.files;
  let scope: string;
  try {
    scope = resolveScope({ cwd: p.cwd, override: env.CREDENCE_SCOPE }).scope;
  } catch (error) {
    warn(`cannot tell the project of ${p.cwd}: ${(error as Error).message}`);
    return out;
  }
  let store: Store | undefined;
  try {
    // A team store (CREDENCE_DATABASE_URL) learns the session, from a spool of its own.
    store = await openHookStore(where.path, env);
    await queueSpool(store, db, warn);
    const { ingest } = await import('./ingest.js');
    await ingest(
      store,
      scope,
      {
        cwd: p.cwd,
        now,
        clockName,
        env,
        claimer: localId(),
        db,
        // The session is over: what another learner still holds of it is said.
        ...(p.event === 'SessionEnd' ? { sayHeld: true } : {}),
        ...(p.event === 'SessionStart' ? {} : { session: p.session }),
        // The agent's turn is over: what the prompt hook showed in it is decided (issue 24).
        ...(p.event === 'Stop' || p.event === 'SessionEnd' ? { endsTurnOf: p.session } : {}),
      },
      warn,
    );
    if (io.learnOnly === true && p.event !== 'SessionStart') {
      // Learning by itself (issue 22): evolve after a session end, or a stop with enough new observations.
      const { autoEvolve } = await import('./auto-evolve.js');
      await autoEvolve({ store, scope, cwd: p.cwd, now, env, db, event: p.event }, warn, {
        ...(io.onEvolveTimeout === undefined ? {} : { onTimeout: io.onEvolveTimeout }),
      });
    }
    if (p.event === 'SessionStart' && io.learnOnly !== true) {
      const { sessionContext, withdrawForgottenAtStart } = await import('./context.js');
      const context = await sessionContext(store, scope, { cwd: p.cwd, now, env, recent: true });
      await withdrawForgottenAtStart(store, scope, { cwd: p.cwd, env, said: `${db}.forgotten-said.json` }, warn);
      if (context !== '') {
        const output = { hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: context } };
        out.stdout = `${JSON.stringify(output)}\n`;
      }
    }
  } catch (error) {
    warn(
      isBusy(error)
        ? 'the database is busy: what is queued will be learned next time'
        : storeFailureLine(p.event, error, where.path),
    );
  } finally {
    await store?.close().catch(() => {});
  }
  return out;
}

/**
 * The learning process a hook hands off to (`credence hook claude-code --learn <event>`): queues the
 * spool and learns the queue as the event would in `runClaudeCodeHook`, printing nothing but its
 * warnings on stderr.
 */
export async function learnHookEvent(text: string, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const out: HookOutcome = { stdout: '', stderr: '' };
  try {
    const parsed = parseHookPayload(text);
    const warn = (line: string): void => {
      out.stderr += `credence hook: ${line}\n`;
    };
    const onEvolveTimeout = (): void => {
      writeStdio(2, out.stderr);
      process.exit(0);
    };
    if (parsed.ok) await runParsedHook(parsed.payload, { env, learnOnly: true, onEvolveTimeout }, out, warn);
    else warn(parsed.message);
    if (out.stderr !== '') writeStdio(2, out.stderr);
  } catch (error) {
    writeStdio(2, `credence hook: ${(error as Error).message}\n`);
  }
  process.exitCode = 0;
}

/** The process entry for an already-read payload (bin/credence.cjs reads stdin itself); always exits 0. */
export async function main(stdin?: string, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  let text = stdin;
  if (text === undefined) {
    text = '';
    try {
      process.stdin.setEncoding('utf8');
      for await (const chunk of process.stdin) text += chunk as string;
    } catch (error) {
      writeStdio(2, `credence hook: cannot read stdin: ${(error as Error).message}\n`);
    }
  }
  try {
    const parsed = parseHookPayload(text);
    const event = parsed.ok ? parsed.payload.event : undefined;
    const outcome =
      parsed.ok && event === 'SessionStart'
        ? await (await import('./session-start.js')).runSessionStartHook(parsed.payload, env)
        : parsed.ok && (event === 'Stop' || event === 'SubagentStop' || event === 'SessionEnd')
          ? { stdout: '', stderr: await stopHook(parsed.payload, env) }
          : await runClaudeCodeHook(text, { env });
    if (outcome.stdout !== '') process.stdout.write(outcome.stdout);
    if (outcome.stderr !== '') writeStdio(2, outcome.stderr);
  } catch (error) {
    writeStdio(2, `credence hook: ${(error as Error).message}\n`);
  }
  process.exitCode = 0;
}
