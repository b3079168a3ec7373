/**
 * @module hooks/import-transcripts
 * `credence import --claude-code [DIR]` (issue 22): Claude Code's past sessions learned as its hooks would
 * have learned them live. Each transcript is streamed line by line (hooks/transcript); its prompts and
 * calls are shaped, scrubbed and cut exactly as the hooks queue them (hooks/fast), queued in the hooks'
 * queue and learned by the hooks' ingest, a session at a time, in slices of {@link IMPORT_LIMITS.slice}
 * events (engine `importSession`: what an earlier import took is not taken again). Event times are the
 * transcript's; a line dated over a day after the import's clock cannot be read (a prompt: with its turn's calls).
 * Lines that cannot be read are counted by reason and named (file:line, why), never fatal.
 */
import { createReadStream, readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { CredenceError } from '../core/errors.js';
import { fixedClockName } from '../core/time.js';
import { hookDbPath } from '../platform/paths.js';
import type { ImportedEvent } from '../engine/import-sessions.js';
import { callEventOf, HOOK_LIMITS, scrubbedText } from './fast.js';
import { ingest } from './ingest.js';
import { openHookStore } from './open-store.js';
import { callRoots, withRoot } from './queue.js';
import { localId } from './spool.js';
import { detectCorrection } from './signals.js';
import { newTranscriptState, readTranscriptLine, unansweredCallLines, type TranscriptEvent } from './transcript.js';
import { asText } from './payload.js';

export const IMPORT_LIMITS = Object.freeze({
  /** Events of one session queued and learned together. */
  slice: 500,
  /** Unreadable lines named in the summary (all are counted). */
  named: 20,
  /** At most one progress line this often. */
  progressEveryMs: 1000,
});

export interface ImportSummary {
  dir: string;
  scope: string;
  files: number;
  lines: number;
  /** Sessions with at least one prompt or call in the files. */
  sessions: number;
  /** Sessions the live hooks learned already: left alone. */
  sessionsLearnedByHooks: number;
  /** What this import added (a second import of the same files adds 0). */
  prompts: number;
  toolCalls: number;
  failures: number;
  corrections: number;
  /**
   * Imported corrections older than the purge age (`purgeAge`, 90 days), which the next evolve deletes unread. Absent
   * when there are none: every evolve reads the user's own words the limits keep, at any age inside the purge.
   */
  correctionsNotRead?: { corrections: number; purgeAge: string };
  observations: number;
  /** Prompts and calls an earlier import took. */
  alreadyImported: number;
  /** Lines (or calls) that gave nothing although they should have, by reason. */
  skipped: Record<string, number>;
  /** The first unreadable lines, each named. */
  problems: { file: string; line: number; why: string }[];
}

export interface ImportOptions {
  /** A folder of transcripts (`*.jsonl`) or one transcript file. */
  dir: string;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** The clock of the import (the claims and the session state; events keep their own times). */
  now: number;
  /**
   * What messages call that clock (`this machine's clock`, `the clock --now sets`): a line dated more than a day
   * after it is skipped, named so. @default the clock `now` sets
   */
  clockName?: string;
  scope?: string;
  /** Progress lines for stderr. */
  progress: (line: string) => void;
  /** Wall-clock time, for spacing progress lines. @default Date.now */
  clock?: () => number;
}

/**
 * The folder Claude Code keeps a project's transcripts in: `<config>/projects/` and the project's absolute
 * path with every character that is not a letter or a digit replaced by `-` (`$CLAUDE_CONFIG_DIR` or
 * `~/.claude` for the config).
 */
export function claudeProjectDir(projectPath: string, env: NodeJS.ProcessEnv): string {
  const config =
    env.CLAUDE_CONFIG_DIR !== undefined && env.CLAUDE_CONFIG_DIR !== ''
      ? env.CLAUDE_CONFIG_DIR
      : join(homedir(), '.claude');
  return join(config, 'projects', resolve(projectPath).replace(/[^A-Za-z0-9]/g, '-'));
}

/** The transcript files of `dir` (a folder: its `*.jsonl`, by name; a file: itself); a clear error when none can be. */
export function transcriptFiles(dir: string): string[] {
  let stat: ReturnType<typeof statSync>;
  try {
    stat = statSync(dir);
  } catch {
    throw new CredenceError(
      'NOT_FOUND',
      `no transcript folder at ${dir}: give the folder of a project's Claude Code sessions ` +
        '(~/.claude/projects/<the project path with - for every other character>) or one .jsonl file',
      { details: { dir } },
    );
  }
  if (stat.isFile()) return [dir];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.jsonl'))
    .sort()
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile());
}

/**
 * A transcript event as the hooks would have queued it (hooks/fast: scrubbed, cut to size; a call with the `root`
 * of the project its line's cwd is in, hooks/queue callRoots).
 */
export function queuedEventOf(e: TranscriptEvent, root?: string): ImportedEvent {
  if (e.kind === 'prompt')
    return { key: e.key, kind: 'prompt', at: e.at, payload: { prompt: scrubbedText(e.prompt, HOOK_LIMITS.prompt) } };
  const event = e.failed ? 'PostToolUseFailure' : 'PostToolUse';
  const raw: Record<string, unknown> = {
    tool_name: e.tool,
    tool_input: e.input,
    tool_use_id: e.key,
    ...(e.failed ? { error: asText(e.response) } : { tool_response: e.response }),
    ...(e.interrupted ? { is_interrupt: true } : {}),
  };
  return { key: e.key, kind: event, at: e.at, payload: withRoot(event, callEventOf({ event, raw }), root) };
}

export async function importTranscripts(options: ImportOptions): Promise<ImportSummary> {
  const files = transcriptFiles(options.dir);
  const clock = options.clock ?? Date.now;
  const env = { ...options.env, ...(options.scope === undefined ? {} : { CREDENCE_SCOPE: options.scope }) };
  const where = hookDbPath(env);
  if (!where.ok) throw new CredenceError('INVALID_INPUT', where.message);
  const store = await openHookStore(where.path, env);
  const { namesWithClock, openCredence } = await import('../engine/engine.js');
  const clockName = options.clockName ?? fixedClockName('now');
  const credence = await openCredence(
    { store, now: options.now, cwd: options.cwd, ...(options.scope === undefined ? {} : { scope: options.scope }) },
    env,
    namesWithClock(clockName),
  );
  const summary: ImportSummary = {
    dir: options.dir,
    scope: credence.scope,
    files: files.length,
    lines: 0,
    sessions: 0,
    sessionsLearnedByHooks: 0,
    prompts: 0,
    toolCalls: 0,
    failures: 0,
    corrections: 0,
    observations: 0,
    alreadyImported: 0,
    skipped: {},
    problems: [],
  };
  const corrected: number[] = [];
  const sessions = new Set<string>();
  const byHooks = new Set<string>();
  const skip = (reason: string, where?: { file: string; line: number; why: string }): void => {
    summary.skipped[reason] = (summary.skipped[reason] ?? 0) + 1;
    if (where !== undefined && summary.problems.length < IMPORT_LIMITS.named) summary.problems.push(where);
  };
  const learnSession = async (session: string, events: ImportedEvent[]): Promise<void> => {
    if (byHooks.has(session)) return;
    const r = await credence.importSession(session, events, async () => {
      const learned = await ingest(
        store,
        credence.scope,
        { cwd: options.cwd, now: options.now, clockName, env, claimer: localId(), session },
        options.progress,
      );
      summary.observations += learned.observations;
    });
    if (r.learnedByHooks) byHooks.add(session);
    summary.alreadyImported += r.already;
    for (const e of r.taken) {
      if (e.kind === 'prompt') {
        summary.prompts += 1;
        if (detectCorrection((e.payload as { prompt: string }).prompt) !== undefined) {
          summary.corrections += 1;
          corrected.push(e.at);
        }
      } else {
        summary.toolCalls += 1;
        if (e.kind === 'PostToolUseFailure') summary.failures += 1;
      }
    }
  };
  // Each call's root as the hooks queue it: that of a clone of the scope's project (none under another --scope).
  const roots = callRoots();
  let said = clock();
  try {
    for (const [f, file] of files.entries()) {
      const name = basename(file);
      const state = { ...newTranscriptState(), clock: { now: options.now, name: clockName } };
      const waiting = new Map<string, ImportedEvent[]>();
      const input = createReadStream(file, { encoding: 'utf8' });
      const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
      let n = 0;
      for await (const line of lines) {
        n += 1;
        summary.lines += 1;
        state.line = n;
        const out = readTranscriptLine(line, state);
        if (out.skipped !== undefined) skip(out.skipped.reason, { file: name, line: n, why: out.skipped.why });
        for (const e of out.events) {
          sessions.add(e.session);
          const list = waiting.get(e.session) ?? [];
          list.push(queuedEventOf(e, e.cwd === undefined ? undefined : roots.rootOf(e.cwd, credence.scope)));
          waiting.set(e.session, list);
          if (list.length >= IMPORT_LIMITS.slice) {
            waiting.delete(e.session);
            await learnSession(e.session, list);
          }
        }
        if (clock() - said >= IMPORT_LIMITS.progressEveryMs) {
          said = clock();
          options.progress(`${name} (file ${f + 1} of ${files.length}): ${n} lines read`);
        }
      }
      for (const [session, list] of waiting) await learnSession(session, list);
      for (const call of unansweredCallLines(state))
        skip('call without result', {
          file: name,
          line: call.line ?? n,
          why: `a ${JSON.stringify(call.tool.slice(0, 80))} call with no result after it in the file`,
        });
    }
  } finally {
    await credence.close();
  }
  summary.sessions = sessions.size;
  summary.sessionsLearnedByHooks = byHooks.size;
  const notRead = await correctionsNotRead(corrected, options.now);
  return notRead === undefined ? summary : { ...summary, correctionsNotRead: notRead };
}

/**
 * Which corrections, said at `times`, the next evolve does not read: those past the purge age, deleted unread (every
 * evolve reads the user's own words the limits keep, older than its window too: engine `evolve`).
 */
async function correctionsNotRead(times: readonly number[], now: number): Promise<ImportSummary['correctionsNotRead']> {
  const { LIMIT_DEFAULTS } = await import('../engine/forget.js');
  const purged = times.filter((t) => t < now - LIMIT_DEFAULTS.purgeAfterDays * 86_400_000).length;
  return purged === 0 ? undefined : { corrections: purged, purgeAge: `${LIMIT_DEFAULTS.purgeAfterDays} days` };
}
