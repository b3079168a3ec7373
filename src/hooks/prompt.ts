/**
 * @module hooks/prompt
 * The UserPromptSubmit hook, kept small enough to run within twice the time of `node -e 0`
 * (bundled into dist/hook-prompt.cjs with better-sqlite3's JavaScript; its output written straight
 * to the descriptor, hooks/stdio): it spools the prompt (which starts the session's next turn
 * when the spool is next queued, behind the calls before it), then prints the `<memory-context>` block of what recall labels high or
 * medium for the prompt, at most 5 lines, nothing at all when nothing is, and records those lines as
 * shown.
 *
 * Recall here ranks the BM25 hits alone, without the embedding index (building it reads every
 * memory and vector of the scope, far too slow for a hook): the BM25 ranking (`bm25Weight` 1), and
 * labels that ask for no embedding similarity (`minSimilarity` 0). On the evaluation data that
 * costs almost nothing: Seal-Tools test "high" precision 0.962 against 0.967, coverage 0.569
 * against 0.565, R@5 0.837 against 0.839 (`npm run eval`, C1 and C2b).
 */
import { formatMemoryContext } from '../core/memory-context.js';
import { recordShown } from '../feedback-service.js';
import { recall } from '../recall.js';
import { resolveScope } from '../scope.js';
import { openSqliteStore } from '../store/sqlite/sqlite-store.js';
import type { Store } from '../store/types.js';
import { defaultDbPath } from '../paths.js';
import { eventTime, HOOK_LIMITS, spooledEventOf } from './fast.js';
import { parseHookPayload, type HookPayload } from './payload.js';
import { isBusy } from './queue.js';
import { localId, spoolEvent } from './spool.js';
import { writeStdio } from './stdio.js';

export const PROMPT_CONTEXT_LIMIT = 5;
/** The labels the hook gives: the defaults, without the embedding-similarity test (no index here). */
export const HOOK_RECALL_LABELS = Object.freeze({ minSimilarity: 0 });

/** The context block for a prompt ('' when nothing is relevant); what it shows is recorded as shown (when the database lets it). */
export async function promptContext(store: Store, scope: string, prompt: string, now: number, warn: (line: string) => void = () => {}): Promise<string> {
  if (prompt.trim() === '') return '';
  const results = (await recall({ store, scope, now }, prompt, { limit: PROMPT_CONTEXT_LIMIT, labels: HOOK_RECALL_LABELS })).filter(
    (r) => r.label === 'high' || r.label === 'medium',
  );
  if (results.length === 0) return '';
  try {
    await recordShown(
      { store, scope, now: () => now, newId: localId },
      'recall',
      results.map((r) => ({ target: `${r.kind}:${r.id}`, query: prompt })),
    );
  } catch (error) {
    // The context is still worth giving; only the metrics miss it.
    warn(`${isBusy(error) ? 'the database is busy' : (error as Error).message}: the context shown this time is not counted`);
  }
  return formatMemoryContext(results.map((r) => ({ category: r.category, title: r.title, tags: r.tags, label: r.label, ...(r.path === null ? {} : { path: r.path }) })));
}

/**
 * Runs the prompt hook; returns what to print. Never throws. `keepOpen` leaves the database to the
 * process's exit (a hook process ends right after; closing the last connection would first
 * checkpoint the write-ahead log, which the next writer does anyway).
 */
export async function runPromptHook(p: HookPayload, env: NodeJS.ProcessEnv, options: { keepOpen?: boolean } = {}): Promise<{ stdout: string; stderr: string }> {
  const out = { stdout: '', stderr: '' };
  const warn = (line: string): void => {
    out.stderr += `credence hook: ${line}\n`;
  };
  const now = eventTime(env);
  const db = defaultDbPath(env);
  // The prompt goes to the spool like the calls before it: it starts its turn, in order, when the
  // next Stop (or session start or end) queues the spool. No lock, no write transaction here.
  const own = spooledEventOf(p, env, now);
  let store: Store | undefined;
  if (own !== undefined) {
    try {
      spoolEvent(db, own);
    } catch (error) {
      warn(`cannot write to the spool of ${db} (${(error as Error).message}): the prompt is lost`);
    }
  }
  try {
    const scope = resolveScope({ cwd: p.cwd, override: env.CREDENCE_SCOPE }).scope;
    store = openSqliteStore({ path: db, busyTimeoutMs: HOOK_LIMITS.busyTimeoutMs });
    const context = await promptContext(store, scope, typeof p.raw.prompt === 'string' ? p.raw.prompt : '', now, warn);
    if (context !== '') out.stdout = `${JSON.stringify({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: context } })}\n`;
  } catch (error) {
    warn(isBusy(error) ? 'the database is busy: no context this time' : `UserPromptSubmit: ${(error as Error).message}`);
  } finally {
    if (options.keepOpen !== true) await store?.close().catch(() => {});
  }
  return out;
}

/** The process entry for a prompt (bin/credence.cjs has read stdin); always exits 0. */
export async function main(stdin: string, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const parsed = parseHookPayload(stdin);
  const out = parsed.ok ? await runPromptHook(parsed.payload, env, { keepOpen: true }) : { stdout: '', stderr: `credence hook: ${parsed.message}\n` };
  if (out.stdout !== '') writeStdio(1, out.stdout);
  if (out.stderr !== '') writeStdio(2, out.stderr);
  process.exitCode = 0;
}
