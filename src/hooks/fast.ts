/**
 * @module hooks/fast
 * The tool events' path (PostToolUse, PostToolUseFailure): the call, scrubbed and cut to size,
 * written to the spool and nothing more — no database, no scope lookup, no engine — so that a hook
 * on every tool call costs little more than starting Node. The next invocation that opens the
 * database (a prompt, a stop, a session start or end) queues it, in order, into the turn the
 * session is in then. Imports only the scrubber and node:*. A Stop, SubagentStop or SessionEnd
 * comes here too: its learning is handed to a process of its own (hooks/hand-off).
 */
import { hookDbPath } from '../platform/paths.js';
import { bashExitCode, coverageOf, filePathsOf } from './signals.js';
import { scrubText, scrubValue } from '../core/security/scrub.js';
import { INPUT_LIMITS } from '../core/limits.js';
import { aheadOfClock, fixedClockName, MACHINE_CLOCK, parseIsoInstant } from '../core/time.js';
import { handOffLearning } from './hand-off.js';
import { asText, compactJson, parseHookPayload, shapeOf, truncated, type HookPayload } from './payload.js';
import { spoolEvent, type SpooledEvent } from './spool.js';
import { writeStdio } from './stdio.js';

/**
 * How much of a call is kept (after scrubbing); how long a hook waits for SQLite's write lock, and for a team
 * server's connection (well under the hooks' own time limits: a server that never answers is unreachable).
 */
export const HOOK_LIMITS = Object.freeze({
  input: 2000,
  output: 2000,
  error: 500,
  prompt: 2000,
  busyTimeoutMs: 250,
  connectTimeoutMs: 2000,
  /** A team server's statement waits this long for a lock another session holds, then the hook fails open. */
  lockTimeoutMs: 1000,
});

/**
 * The time of the event: CREDENCE_NOW when it is an ISO instant (tests, replays) up to a day after the clock, else
 * the clock: a mistyped year would make the session end's evolve prune every observation as if that time had passed.
 */
export function eventTime(env: NodeJS.ProcessEnv): number {
  return eventClock(env).now;
}

/** eventTime and what messages call the clock it read: CREDENCE_NOW's, or this machine's. */
export function eventClock(env: NodeJS.ProcessEnv): { now: number; name: string } {
  const fixed = env.CREDENCE_NOW;
  const at = fixed === undefined || fixed === '' ? undefined : parseIsoInstant(fixed);
  const clock = Date.now();
  return at === undefined || aheadOfClock(at, clock)
    ? { now: clock, name: MACHINE_CLOCK }
    : { now: at, name: fixedClockName('CREDENCE_NOW') };
}

export const scrubbedText = (text: string, max: number): string => truncated(scrubText(text).text, max);

/**
 * What a tool event queues: the call, every value scrubbed first (a secret cut in two, or a JSON
 * escape before it, would escape the rules), then cut to size; and what the learning needs from it
 * read before the cut: the files it read and wrote, a shell command's exit code.
 */
export function callEventOf(p: Pick<HookPayload, 'event' | 'raw'>): Record<string, unknown> {
  const r = p.raw;
  const failed = p.event === 'PostToolUseFailure';
  const tool = typeof r.tool_name === 'string' && r.tool_name !== '' ? r.tool_name : 'unknown';
  const paths = filePathsOf(tool, r.tool_input);
  const exitCode = bashExitCode({ tool_response: r.tool_response, error: r.error }, failed);
  // A coverage report closes a test run's output, past the cut: read first (signals, test coverage changes).
  const coverage = tool === 'Bash' ? coverageOf(failed ? r.error : r.tool_response) : undefined;
  return {
    tool,
    status: failed ? 'failure' : 'success',
    input: compactJson(scrubValue(r.tool_input), HOOK_LIMITS.input),
    ...(failed ? {} : { output: truncated(asText(scrubValue(r.tool_response)), HOOK_LIMITS.output) }),
    ...(paths.reads.length === 0 ? {} : { reads: paths.reads.map((f) => scrubText(f).text) }),
    ...(paths.writes.length === 0 ? {} : { writes: paths.writes.map((f) => scrubText(f).text) }),
    ...(exitCode === undefined ? {} : { exitCode }),
    ...(coverage === undefined ? {} : { coverage }),
    ...(failed ? { error: scrubbedText(asText(r.error), HOOK_LIMITS.error) } : {}),
    ...(typeof r.tool_use_id === 'string' ? { toolUseId: r.tool_use_id } : {}),
    ...(r.is_interrupt === true || (isObject(r.tool_response) && r.tool_response.interrupted === true)
      ? { interrupted: true }
      : {}),
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The event a hook payload spools, or undefined for events that carry nothing to queue. */
export function spooledEventOf(p: HookPayload, env: NodeJS.ProcessEnv, at: number): SpooledEvent | undefined {
  const scope =
    env.CREDENCE_SCOPE !== undefined && env.CREDENCE_SCOPE.trim() !== '' ? { scope: env.CREDENCE_SCOPE.trim() } : {};
  if (p.event === 'PostToolUse' || p.event === 'PostToolUseFailure') {
    return { cwd: p.cwd, ...scope, session: p.session, turn: 'current', kind: p.event, at, payload: callEventOf(p) };
  }
  if (p.event === 'UserPromptSubmit') {
    const prompt = typeof p.raw.prompt === 'string' ? p.raw.prompt : '';
    return {
      cwd: p.cwd,
      ...scope,
      session: p.session,
      turn: 'next',
      kind: 'prompt',
      at,
      payload: { prompt: scrubbedText(prompt, HOOK_LIMITS.prompt) },
    };
  }
  return undefined;
}

/** Spools one tool event; returns the line for stderr when it could not (the hook still exits 0). */
export function spoolToolEvent(p: HookPayload, env: NodeJS.ProcessEnv): string | undefined {
  const tool = p.raw.tool_name;
  // A call with no tool named is no call: nothing is learned from it (a tool "unknown" would enter the graph).
  if (p.event === 'PostToolUse' || p.event === 'PostToolUseFailure') {
    if (typeof tool !== 'string' || tool === '')
      return `${p.event} without tool_name (a non-empty string; got ${shapeOf(tool)}): not learned`;
    // A tool the CLI, the MCP server and the dashboard refuse to look up is not put in the graph (walk 17, item 12).
    if (tool.length > INPUT_LIMITS.toolName)
      return (
        `${p.event} tool_name is ${tool.length} characters long; the limit is ${INPUT_LIMITS.toolName}: ` +
        'not learned'
      );
  }
  const event = spooledEventOf(p, env, eventTime(env));
  if (event === undefined) return undefined;
  const db = hookDbPath(env);
  if (!db.ok) return db.message;
  try {
    spoolEvent(db.files, event);
    return undefined;
  } catch (error) {
    return `cannot write to the spool of ${db.files}: ${(error as Error).message}; the event is lost`;
  }
}

/**
 * A Stop, SubagentStop or SessionEnd: the learning of the session (queue the spool, learn the
 * queue) handed to a process of its own; returns what to say on stderr ('' when all is well).
 */
export async function stopHook(p: HookPayload, env: NodeJS.ProcessEnv): Promise<string> {
  const db = hookDbPath(env);
  if (!db.ok) return `credence hook: ${db.message}\n`;
  let said = '';
  const problem = await handOffLearning(p, env, db.files, (text) => {
    said += text;
  });
  return `${said}${problem === undefined ? '' : `credence hook: ${problem}\n`}`;
}

/** The process entry for a tool event or a stop (bin/credence.cjs has read stdin); always exits 0. */
export async function main(stdin: string, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const parsed = parseHookPayload(stdin);
  const event = parsed.ok ? parsed.payload.event : undefined;
  if (parsed.ok && (event === 'Stop' || event === 'SubagentStop' || event === 'SessionEnd')) {
    const said = await stopHook(parsed.payload, env);
    if (said !== '') writeStdio(2, said);
  } else {
    const problem = parsed.ok ? spoolToolEvent(parsed.payload, env) : parsed.message;
    if (problem !== undefined) writeStdio(2, `credence hook: ${problem}\n`);
  }
  process.exitCode = 0;
}
