/**
 * @module hooks/hand-off
 * The learning a Stop, SubagentStop, SessionEnd or SessionStart asks for (queue the spool, learn
 * the queue: hooks/claude-code), handed to a process of its own so that the hook returns at once:
 * `credence hook claude-code --learn <event>`, detached, with no input and no output but its
 * stderr, appended to `<db>.hook-learn.log`. With `CREDENCE_HOOK_WAIT=1` the hook waits for it
 * instead and passes its stderr on (scripts and tests that read the store right after a Stop).
 * node:child_process is loaded only here, when a hook hands off (it costs a tool event ~6 ms).
 */
import { closeSync, existsSync, openSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { HookPayload } from './payload.js';

/** The log of the learning processes is started afresh past this size. */
export const HAND_OFF_LIMITS = Object.freeze({ logBytes: 256 * 1024 });

export const learnLogFor = (db: string): string => `${db}.hook-learn.log`;

/**
 * bin/credence.cjs of this package: from dist/src/hooks (or a bundle in dist/, which gives this
 * module's dist/src URL), or from src/hooks under the tests.
 */
function packageBin(): string {
  const [fromSource, fromDist] = ['../../bin/credence.cjs', '../../../bin/credence.cjs'].map((path) =>
    fileURLToPath(new URL(path, import.meta.url)),
  ) as [string, string];
  return existsSync(fromSource) ? fromSource : fromDist;
}

/** What the learning process is told: the event, its session and its cwd (the rest is not used). */
export const learnArgument = (p: HookPayload): string =>
  JSON.stringify({ hook_event_name: p.event, session_id: p.session, cwd: p.cwd });

/** The log, opened for appending (emptied first when it has grown past the limit); undefined if it cannot be. */
function openLog(db: string): number | undefined {
  const path = learnLogFor(db);
  try {
    let grown = false;
    try {
      grown = statSync(path).size > HAND_OFF_LIMITS.logBytes;
    } catch {
      // No log yet.
    }
    return openSync(path, grown ? 'w' : 'a', 0o600);
  } catch {
    return undefined;
  }
}

/**
 * Starts the learning of `p` in its own process. Returns the line for stderr when it could not be
 * started (the events stay queued for the next hook that learns), else undefined; with
 * CREDENCE_HOOK_WAIT=1, once the process has ended, its stderr passed to `report`.
 */
export async function handOffLearning(
  p: HookPayload,
  env: NodeJS.ProcessEnv,
  db: string,
  report: (text: string) => void,
): Promise<string | undefined> {
  const wait = env.CREDENCE_HOOK_WAIT === '1';
  const log = wait ? undefined : openLog(db);
  try {
    const { spawn } = await import('node:child_process');
    // In the hook's own folder: the event's cwd is only read (its scope), and may be gone by now.
    const child = spawn(process.execPath, [packageBin(), 'hook', 'claude-code', '--learn', learnArgument(p)], {
      env,
      detached: !wait,
      stdio: ['ignore', 'ignore', wait ? 'pipe' : (log ?? 'ignore')],
      windowsHide: true,
    });
    if (!wait) {
      child.on('error', () => {});
      child.unref();
      return undefined;
    }
    let stderr = '';
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      stderr += chunk;
    });
    const code = await new Promise<number | null>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', resolve);
    });
    if (stderr !== '') report(stderr);
    return code === 0 ? undefined : `the learning process ended with ${code}: what is queued is learned next time`;
  } catch (error) {
    return `cannot start the learning process (${(error as Error).message}): what is queued is learned next time`;
  } finally {
    if (log !== undefined) closeSync(log);
  }
}
