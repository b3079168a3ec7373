/**
 * @module hooks/prompt
 * The UserPromptSubmit hook, bundled into dist/hook-prompt.cjs to run within twice the time of `node -e 0`. It
 * spools the prompt (the session's next turn), prints in plain text what recall labels high or medium with the text
 * around the prompt's words (at most 5 lines, never the user's own past prompts; superseded memories only for a
 * question about the past, marked, as every surface chooses them: core/recall/agent-context), and spools those lines
 * as a `shown` event. It opens the database read-only, so it never waits for a write lock. Recall here ranks the
 * BM25 hits alone, without the embedding index (too slow for a hook); docs/claude-code.md measures what that costs.
 */
import { existsSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { withinLimit } from '../core/limits.js';
import { distinctiveIdentifiers, namesIdentifier } from '../core/outcome-follower.js';
import { chooseContext } from '../core/recall/agent-context.js';
import {
  formatPromptSnippets,
  formatSnippetLine,
  sharesTopic,
  type SnippetLine,
} from '../core/recall/prompt-snippets.js';
import { scrubText } from '../core/security/scrub.js';
import { buildFtsQuery } from '../core/text/fts-query.js';
import { loadedLearning } from '../engine/learning/held.js';
import { recall, type RecallResult } from '../engine/recall/recall.js';
import { resolveScope } from '../platform/git-scope.js';
import type { ShownRecord, Store } from '../store/types.js';
import { hookDbPath } from '../platform/paths.js';
import { storeFailureLine } from './failure-line.js';
import { eventTime, spooledEventOf } from './fast.js';
import { openHookStore } from './open-store.js';
import { parseHookPayload, type HookPayload } from './payload.js';
import { isBusy, SHOWN_KIND } from './queue.js';
import { localId, spoolEvent } from './spool.js';
import { writeStdio } from './stdio.js';

export const PROMPT_CONTEXT_LIMIT = 5;
/** The labels the hook gives: the defaults, without the embedding-similarity test (no index here). */
export const HOOK_RECALL_LABELS = Object.freeze({ minSimilarity: 0 });

/**
 * What is never shown at a prompt: the user's own past prompts. A run's title is the prompt that started
 * its turn; a correction the hooks observed is a sentence of a prompt (tagged `source:user`).
 */
export function echoesPrompt(r: Pick<RecallResult, 'kind' | 'category' | 'tags'>): boolean {
  return r.kind === 'execution' || (r.kind === 'observation' && r.tags.includes('source:user'));
}

const sameText = (a: RecallResult, b: RecallResult): boolean =>
  a.category === b.category && a.title === b.title && a.text === b.text && a.path === b.path;

/** A shown record of the prompt hook, with the distinctive identifiers its line names (core/outcome-follower). */
export type PromptShown = ShownRecord & { identifiers: string[] };

/**
 * The text for a prompt ('' when nothing is relevant: no result recall labels high or medium, once the
 * user's own past prompts are left out) and the shown records of its lines (surface `recall`, the prompt
 * as their query, scrubbed), for the caller to keep. Plain text, a snippet of each memory
 * (core/recall/prompt-snippets). Of instincts and skills, only those a session start loads (walk 12, item 4: a
 * skill withdrawn below 0.5 was still offered, naming its deleted file), their file named only when the project's
 * folder (`root`, asked only then) holds it.
 */
export async function promptContext(
  store: Store,
  scope: string,
  given: string,
  now: number,
  root: () => string | undefined = () => undefined,
): Promise<{ context: string; shown: PromptShown[] }> {
  if (given.trim() === '') return { context: '', shown: [] };
  // A long prompt is cut to the query limit for recall (issue 17): the hook never fails on it.
  const prompt = withinLimit(given, 'query');
  // Labels are given over the whole ranked pool: asking for more, then leaving echoes out, keeps them.
  const ranked = (
    await recall({ store, scope, now }, prompt, {
      limit: PROMPT_CONTEXT_LIMIT * 3,
      labels: HOOK_RECALL_LABELS,
      withText: true,
      runs: false,
    })
  )
    .filter((r) => (r.label === 'high' || r.label === 'medium') && !echoesPrompt(r))
    // The same thing observed again (same kind, title and text) is said once.
    .filter((r, i, all) => all.findIndex((o) => sameText(o, r)) === i);
  const loaded = await loadedIds(store, scope, now, ranked);
  // A habit only at a prompt about its topic: a word beyond "use", "here" and the like (walk 17, item 8).
  const offered = ranked.filter(
    (r) => !learned(r) || (loaded.has(r.id) && sharesTopic(prompt, `${r.title}\n${r.text ?? ''}`)),
  );
  // Superseded memories left out but for a question about the past, marked; conflicts marked: chosen as every
  // surface chooses (core/recall/agent-context, issue 23).
  const chosen = chooseContext(offered, prompt, now).slice(0, PROMPT_CONTEXT_LIMIT);
  const results = chosen.map((c) => c.result);
  if (results.length === 0) return { context: '', shown: [] };
  const query = scrubText(prompt).text;
  const q = buildFtsQuery(prompt);
  const words = q === undefined ? [] : [...q.terms, ...q.phrases.flat()];
  const lines: SnippetLine[] = chosen.map(({ result: r, line }) => ({
    category: r.category,
    title: r.title,
    text: r.text ?? '',
    label: r.label,
    ...(r.path === null || (learned(r) && !heldBy(root, r.path)) ? {} : { path: r.path }),
    ...(line.note === undefined ? {} : { note: line.note }),
  }));
  // What each shown line names that the prompt does not (issue 24): the calls of the turn that name it use it.
  const identifiers = (line: SnippetLine): string[] =>
    distinctiveIdentifiers(formatSnippetLine(line, words)).filter((id) => !namesIdentifier(given, id));
  return {
    context: formatPromptSnippets(lines, words),
    shown: results.map((r, i) => ({
      id: `sh-${localId().slice(0, 16)}`,
      surface: 'recall',
      target: `${r.kind}:${r.id}`,
      query,
      at: now,
      // The confidence it was shown with (issue 24): the score its label was cut from, as the engine records it.
      confidence: Math.min(1, Math.max(0, r.score)),
      identifiers: identifiers(lines[i] as SnippetLine),
    })),
  };
}

const learned = (r: Pick<RecallResult, 'kind'>): boolean => r.kind === 'skill' || r.kind === 'instinct';

/** The ids of the instincts and skills a session start loads, read only when recall found some. */
async function loadedIds(store: Store, scope: string, now: number, ranked: readonly RecallResult[]) {
  if (!ranked.some(learned)) return new Set<string>();
  const loaded = await loadedLearning(store, scope, now);
  return new Set([...loaded.skills.map((s) => s.skill.id), ...loaded.instincts.map((i) => i.id)]);
}

/** Whether `root` holds the file at root-relative `path` (a learned item's file: no path to a file that is gone). */
function heldBy(root: () => string | undefined, path: string): boolean {
  const folder = isAbsolute(path) ? undefined : root();
  return folder !== undefined && existsSync(join(folder, path));
}

/**
 * Runs the prompt hook; returns what to print. Never throws. `keepOpen` leaves the database to the
 * process's exit (a hook process ends right after).
 */
export async function runPromptHook(
  p: HookPayload,
  env: NodeJS.ProcessEnv,
  options: { keepOpen?: boolean } = {},
): Promise<{ stdout: string; stderr: string }> {
  const out = { stdout: '', stderr: '' };
  // What went wrong, said on one line (a full disk fails the spool, then the database).
  const problems: string[] = [];
  const warn = (line: string): void => void problems.push(line);
  const said = () => ({ ...out, stderr: problems.length === 0 ? '' : `credence hook: ${problems.join('; ')}\n` });
  const now = eventTime(env);
  const where = hookDbPath(env);
  if (!where.ok) {
    warn(where.message);
    return said();
  }
  const db = where.files;
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
    const resolved = resolveScope({ cwd: p.cwd, override: env.CREDENCE_SCOPE });
    const scope = resolved.scope;
    // The project's folder (its git top-level, else the session's), looked up only for a learned item's file.
    const root = () => resolved.root ?? resolveScope({ cwd: p.cwd }).root ?? p.cwd;
    store = await openHookStore(where.path, env, { read: true });
    const { context, shown } = await promptContext(
      store,
      scope,
      typeof p.raw.prompt === 'string' ? p.raw.prompt : '',
      now,
      root,
    );
    if (context !== '') {
      const output = { hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: context } };
      out.stdout = `${JSON.stringify(output)}\n`;
    }
    if (shown.length > 0) {
      try {
        spoolEvent(db, {
          cwd: p.cwd,
          scope,
          session: p.session,
          turn: 'current',
          kind: SHOWN_KIND,
          at: now,
          payload: { shown },
        });
      } catch (error) {
        // The context is still worth giving; only the metrics miss it.
        warn(
          `cannot write to the spool of ${db} (${(error as Error).message}): ` +
            'the context shown this time is not counted',
        );
      }
    }
  } catch (error) {
    warn(
      isBusy(error)
        ? 'the database is busy: no context this time'
        : storeFailureLine('UserPromptSubmit', error, where.path),
    );
  } finally {
    if (options.keepOpen !== true) await store?.close().catch(() => {});
  }
  return said();
}

/** The process entry for a prompt (bin/credence.cjs has read stdin); always exits 0. */
export async function main(stdin: string, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const parsed = parseHookPayload(stdin);
  const out = parsed.ok
    ? await runPromptHook(parsed.payload, env, { keepOpen: true })
    : { stdout: '', stderr: `credence hook: ${parsed.message}\n` };
  if (out.stdout !== '') writeStdio(1, out.stdout);
  if (out.stderr !== '') writeStdio(2, out.stderr);
  process.exitCode = 0;
}
