/**
 * @module hooks/context
 * What the hooks print for Claude Code to read. At a prompt: hooks/prompt. At session start: the
 * summary of the recent sessions and what was learned (engine/session-summary: files changed, failed
 * calls and what fixed them, the user's decisions, the active skills (confidence ≥ 0.7, with their
 * rules) and instincts ≥ 0.7), plain text within 1,500 characters. Everything printed is data; a rule
 * that reads like a shell command is left out until the user confirms it (engine/learning/held; issue 17). A skill
 * forgotten in the store (on any machine) has its file taken out of the project, saying so on stderr.
 */
import { readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, relative, resolve } from 'node:path';
import { resolveScope } from '../platform/git-scope.js';
import {
  type ForgottenFile,
  forgottenFilesLine,
  withdrawForgottenSkillsAtStart,
} from '../engine/learning/forgotten-files.js';
import { sessionSummary } from '../engine/session-summary.js';
import type { ExecutionStore, FeedbackStore, HookQueueStore, LearningStore, ObservationStore } from '../store/types.js';

export interface ContextOptions {
  cwd: string;
  now: number;
  env: NodeJS.ProcessEnv;
  /** The reader's project root (a path under no root of its own session's is shown relative to it). */
  root?: string;
  /** With the recent sessions (the hook); without, the learned skills and instincts alone. @default false */
  recent?: boolean;
}

export const SESSION_CONTEXT_CHARS = 1500;

export async function sessionContext(
  store: FeedbackStore &
    LearningStore &
    Pick<ExecutionStore, 'listExecutions'> &
    Pick<ObservationStore, 'listObservations'> &
    Pick<HookQueueStore, 'hookSession'>,
  scope: string,
  options: ContextOptions,
): Promise<string> {
  return sessionSummary(
    { store, scope, now: options.now, ...(options.root === undefined ? {} : { root: options.root }) },
    { recent: options.recent === true },
  );
}

/**
 * The project root a session start may take forgotten skills' files out of: the git top-level of `cwd` (whatever
 * scope CREDENCE_SCOPE names), else CLAUDE_PROJECT_DIR when `cwd` is inside it. Never `cwd` as it is, never the
 * user's home folder (its `.claude/skills` holds the user-level skills of every project): undefined then.
 */
export function withdrawalRoot(cwd: string, env: NodeJS.ProcessEnv): string | undefined {
  const top = resolveScope({ cwd }).root;
  const given = env.CLAUDE_PROJECT_DIR;
  const project =
    given !== undefined && isAbsolute(given) && !relative(resolve(given), resolve(cwd)).startsWith('..')
      ? resolve(given)
      : undefined;
  const root = top ?? project;
  if (root === undefined) return undefined;
  const home = env.HOME === undefined || env.HOME === '' ? homedir() : env.HOME;
  return real(root) === real(home) ? undefined : root;
}

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/**
 * At a session start: the skill files of what was forgotten in the store (`credence forget`, on any machine sharing
 * it) taken out of the project root of `cwd` ({@link withdrawalRoot}; none, nothing is looked at), by one query
 * (engine/learning/forgotten-files). Fails open: at most one line to `warn`, what was done or why it could not be. A
 * file kept (outside the root, its markers broken) is said once per machine: `said`, a file of the hooks', keeps the
 * ones said (the tombstone, its time and the path), so the next start is quiet about them.
 */
export async function withdrawForgottenAtStart(
  store: Pick<LearningStore, 'listForgotten'>,
  scope: string,
  where: { cwd: string; env: NodeJS.ProcessEnv; said?: string },
  warn: (line: string) => void,
): Promise<void> {
  try {
    const root = withdrawalRoot(where.cwd, where.env);
    if (root === undefined) return;
    const files = await withdrawForgottenSkillsAtStart({ store, scope, root });
    const said = where.said === undefined ? [] : saidBefore(where.said);
    const key = (f: ForgottenFile) => `${root}\u0000${f.path}\u0000${f.id}@${f.at}`;
    const fresh = files.filter((f) => f.outcome !== 'kept' || !said.includes(key(f)));
    const line = forgottenFilesLine(fresh);
    if (line !== undefined) warn(line.replace(/\s+/g, ' '));
    const kept = fresh.filter((f) => f.outcome === 'kept').map(key);
    if (where.said !== undefined && kept.length > 0)
      writeFileSync(where.said, JSON.stringify([...said, ...kept].slice(-SAID_KEPT)), { mode: 0o600 });
  } catch (error) {
    warn(
      `the files of forgotten skills were not looked at: ${String((error as Error)?.message ?? error).split('\n')[0]}`,
    );
  }
}

/** How many kept files the `said` file remembers (the newest). */
const SAID_KEPT = 500;

function saidBefore(path: string): string[] {
  try {
    const value: unknown = JSON.parse(readFileSync(path, 'utf8'));
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}
