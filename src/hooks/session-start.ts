/**
 * @module hooks/session-start
 * The SessionStart hook as a process runs it (bundled into dist/hook-start.cjs): the summary of the
 * recent sessions with the scope's active skills and strong instincts, printed from the read path (the
 * database opened read-only, hooks/context, engine/session-summary), and the learning of what is
 * queued handed to a process of its own (hooks/hand-off), so that the session starts without waiting
 * for it; with nothing queued (an empty spool, no event of the scope waiting in the store) no process
 * is started. What that learning adds is in the context of the next session. A skill forgotten in the store has its
 * file taken out of the project (hooks/context), a line on stderr saying so.
 */
import { isSqliteDamagedCode } from '../core/errors.js';
import { resolveScope } from '../platform/git-scope.js';
import { hookDbPath } from '../platform/paths.js';
import { storeFailureLine } from './failure-line.js';
import type { Store } from '../store/types.js';
import { sessionContext, withdrawForgottenAtStart } from './context.js';
import { eventTime } from './fast.js';
import { handOffLearning } from './hand-off.js';
import { hookStoreMarkedDamaged, openHookStore } from './open-store.js';
import { parseHookPayload, type HookPayload } from './payload.js';
import { isBusy } from './queue.js';
import { spoolHasEvents } from './spool.js';
import { writeStdio } from './stdio.js';

/** Runs the SessionStart hook; returns what to print. Never throws. */
export async function runSessionStartHook(
  p: HookPayload,
  env: NodeJS.ProcessEnv,
): Promise<{ stdout: string; stderr: string }> {
  const out = { stdout: '', stderr: '' };
  const warn = (line: string): void => {
    out.stderr += `credence hook: ${line}\n`;
  };
  const where = hookDbPath(env);
  if (!where.ok) {
    warn(where.message);
    return out;
  }
  let store: Store | undefined;
  // Unless the store says otherwise, something may be queued: the learning process looks.
  let queued = true;
  try {
    const { scope, root } = resolveScope({ cwd: p.cwd, override: env.CREDENCE_SCOPE });
    store = await openHookStore(where.path, env, { read: true });
    const context = await sessionContext(store, scope, {
      cwd: p.cwd,
      now: eventTime(env),
      env,
      recent: true,
      ...(root === undefined ? {} : { root }),
    });
    if (context !== '') {
      const output = { hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: context } };
      out.stdout = `${JSON.stringify(output)}\n`;
    }
    // What was forgotten on another machine sharing the store leaves this project's skills (one query, fails open).
    await withdrawForgottenAtStart(store, scope, { cwd: p.cwd, env, said: `${where.files}.forgotten-said.json` }, warn);
    queued = spoolHasEvents(where.files) || (await store.hasQueuedHookEvents(scope));
  } catch (error) {
    // A damaged store fails the learning process too: one line, and no process to say it again (walk 17, item 10).
    if (isSqliteDamagedCode((error as { code?: unknown } | null)?.code)) queued = false;
    warn(
      isBusy(error)
        ? 'the database is busy: no context this time'
        : storeFailureLine('SessionStart', error, where.path),
    );
  } finally {
    await store?.close().catch(() => {});
  }
  // Marked damaged, the store refuses the learning process's writes: it is not started to fail (walk 20, item 9).
  if (queued && hookStoreMarkedDamaged(where.path, env)) {
    queued = false;
    warn(
      `SessionStart: the database at ${where.path} is marked damaged: nothing queued is learned into it ` +
        '(`credence status` checks it again)',
    );
  }
  if (!queued) return out;
  const problem = await handOffLearning(p, env, where.files, (text) => {
    out.stderr += text;
  });
  if (problem !== undefined) warn(problem);
  return out;
}

/** The process entry for a session start (bin/credence.cjs has read stdin); always exits 0. */
export async function main(stdin: string, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const parsed = parseHookPayload(stdin);
  const out = parsed.ok
    ? await runSessionStartHook(parsed.payload, env)
    : { stdout: '', stderr: `credence hook: ${parsed.message}\n` };
  if (out.stdout !== '') writeStdio(1, out.stdout);
  if (out.stderr !== '') writeStdio(2, out.stderr);
  process.exitCode = 0;
}
