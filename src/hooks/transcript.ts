/**
 * @module hooks/transcript
 * Claude Code's session transcripts (`~/.claude/projects/<project>/<session>.jsonl`), read a line at a
 * time into the events its hooks would have seen (issue 22): a person's prompt (UserPromptSubmit), a
 * tool call with its result (PostToolUse) or failure (PostToolUseFailure). `user` and `assistant` lines
 * carry `message.content` blocks (`text`, `tool_use` {id, name, input}, `tool_result` {tool_use_id,
 * content, is_error}) and `uuid`, `sessionId`, `timestamp`, `cwd`; a result comes on a later `user` line,
 * paired by id. Pure: the caller keeps the {@link TranscriptState} of a file and asks
 * {@link unansweredCalls} at its end.
 */
import { withoutBom } from '../core/text/plain-text.js';
import { aheadOfClock } from '../core/time.js';

/** What a transcript line gives: a prompt, or a call with its outcome (times in epoch ms). */
export type TranscriptEvent =
  | { kind: 'prompt'; session: string; key: string; at: number; cwd?: string; prompt: string }
  | {
      kind: 'call';
      session: string;
      /** The tool_use id. */
      key: string;
      /** When the result arrived (the hooks' PostToolUse time). */
      at: number;
      cwd?: string;
      tool: string;
      input: unknown;
      /** `toolUseResult` of the result line when it holds one result (the hooks' tool_response), else its content. */
      response: unknown;
      failed: boolean;
      /** The person stopped or refused the call. */
      interrupted: boolean;
    };

/** Why a line gave nothing although it should have. */
export type SkipReason =
  | 'malformed'
  | 'not an object'
  | 'unknown type'
  | 'missing field'
  | 'timestamp ahead of the clock'
  | 'call of a skipped prompt'
  | 'result without call';

export interface LineOutcome {
  events: TranscriptEvent[];
  /** The line's `type`, when it has one. */
  type?: string;
  skipped?: { reason: SkipReason; why: string };
}

/** Tool calls seen and not answered yet, by tool_use id. */
export interface TranscriptState {
  /** The calls waiting for their result, each with the line that asked (when the reader counts lines). */
  pending: Map<string, { session: string; tool: string; input: unknown; at: number; line?: number }>;
  /** The number of the line being read, set by a reader that counts them (hooks/import-transcripts). */
  line?: number;
  /**
   * The clock the reader runs by and what messages call it: a line dated more than a day after it is skipped (the
   * engine refuses such a time: what it taught would not decay until then), as a line without a valid timestamp is.
   */
  clock?: { now: number; name: string };
  /**
   * By session, the line of a prompt skipped (dated ahead of the clock) whose turn is still going: the calls made
   * after it are its own, so they are skipped with it until the session's next prompt (not filed under the prompt
   * before it).
   */
  skippedTurns: Map<string, number | undefined>;
  /** The tool_use ids of calls skipped with their turn: their results are no orphans. */
  dropped: Set<string>;
}

export const newTranscriptState = (): TranscriptState => ({
  pending: new Map(),
  skippedTurns: new Map(),
  dropped: new Set(),
});

/** Line types that carry nothing to learn (sessions' titles, system notes, Claude Code's bookkeeping). */
export const QUIET_LINE_TYPES: ReadonlySet<string> = new Set([
  'summary',
  'system',
  'file-history-snapshot',
  'queue-operation',
  'progress',
  'turn_end',
]);

/** Text Claude Code puts in a `user` line that no person typed (slash commands, their output, interrupts). */
const NOT_TYPED = new RegExp(
  '^\\s*(?:<command-(?:name|message|args)>|<local-command-std(?:out|err)>|<bash-(?:input|stdout|stderr)>' +
    '|\\[Request interrupted by user|Caveat: The messages below)',
);
/** A tool result saying the person refused or stopped the call. */
const REFUSED = /^(?:The user doesn't want to proceed with this tool use|\[Request interrupted by user)/;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The text of a message content: a string, or the `text` blocks of an array. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((b) => isObject(b) && b.type === 'text' && typeof b.text === 'string')
    .map((b) => (b as { text: string }).text)
    .join('\n');
}

/**
 * The text of a `user` line a person typed, if it is one: no tool result, not a sub-agent's task, not Claude
 * Code's own note, not a command's echo.
 */
function personPrompt(value: Record<string, unknown>): string | undefined {
  const content = isObject(value.message) ? value.message.content : undefined;
  if (Array.isArray(content) && content.some((b) => isObject(b) && b.type === 'tool_result')) return undefined;
  if (value.isSidechain === true || value.isMeta === true || value.isCompactSummary === true) return undefined;
  const text = contentText(content);
  return text.trim() === '' || NOT_TYPED.test(text) ? undefined : text;
}

/** Reads one line (without its newline); `state` keeps the calls waiting for their results. */
export function readTranscriptLine(line: string, state: TranscriptState): LineOutcome {
  if (line.trim() === '') return { events: [] };
  let value: unknown;
  try {
    // A byte order mark before the first line is no part of it (its first prompt was skipped as not JSON).
    value = JSON.parse(withoutBom(line));
  } catch (error) {
    return {
      events: [],
      skipped: { reason: 'malformed', why: `not JSON (cut or damaged): ${(error as Error).message}` },
    };
  }
  if (!isObject(value))
    return { events: [], skipped: { reason: 'not an object', why: 'a JSON line that is no object' } };
  const type = typeof value.type === 'string' ? value.type : undefined;
  if (type === undefined) return { events: [], skipped: { reason: 'unknown type', why: 'a line without a type' } };
  if (QUIET_LINE_TYPES.has(type)) return { events: [], type };
  if (type !== 'user' && type !== 'assistant')
    return {
      events: [],
      type,
      skipped: { reason: 'unknown type', why: `unknown line type ${JSON.stringify(type.slice(0, 40))}` },
    };
  const session = value.sessionId;
  const at = typeof value.timestamp === 'string' ? Date.parse(value.timestamp) : Number.NaN;
  const message = value.message;
  const missing =
    typeof session !== 'string' || session === ''
      ? 'sessionId'
      : !Number.isFinite(at)
        ? 'timestamp'
        : !isObject(message)
          ? 'message'
          : undefined;
  if (missing !== undefined)
    return { events: [], type, skipped: { reason: 'missing field', why: `a ${type} line without a valid ${missing}` } };
  if (state.clock !== undefined && aheadOfClock(at, state.clock.now)) {
    if (type === 'user' && personPrompt(value) !== undefined) state.skippedTurns.set(session as string, state.line);
    return {
      events: [],
      type,
      skipped: {
        reason: 'timestamp ahead of the clock',
        why:
          `${type === 'assistant' ? 'an' : 'a'} ${type} line dated ${new Date(at).toISOString()}, more than a day ` +
          `after ${state.clock.name} ` +
          `(${new Date(state.clock.now).toISOString()}): what it taught would not decay until then`,
      },
    };
  }
  const s = session as string;
  const cwd = typeof value.cwd === 'string' && value.cwd !== '' ? { cwd: value.cwd } : {};
  const content = (message as Record<string, unknown>).content;
  const blocks = Array.isArray(content) ? content.filter(isObject) : [];
  if (type === 'assistant') {
    const skippedTurn = state.skippedTurns.has(s);
    const dropped: string[] = [];
    for (const b of blocks) {
      if (b.type !== 'tool_use' || typeof b.id !== 'string' || typeof b.name !== 'string') continue;
      if (skippedTurn) {
        state.dropped.add(b.id);
        dropped.push(b.name);
      } else
        state.pending.set(b.id, {
          session: s,
          tool: b.name,
          input: b.input,
          at,
          ...(state.line === undefined ? {} : { line: state.line }),
        });
    }
    if (dropped.length === 0) return { events: [], type };
    const line = state.skippedTurns.get(s);
    return {
      events: [],
      type,
      skipped: {
        reason: 'call of a skipped prompt',
        why:
          `${dropped.map((t) => JSON.stringify(t.slice(0, 80))).join(', ')} ` +
          `${dropped.length === 1 ? 'call' : 'calls'} in the turn of the prompt ` +
          `${line === undefined ? 'skipped before it' : `on line ${line}, skipped`} (dated ahead of the clock)`,
      },
    };
  }
  const results = blocks.filter((b) => b.type === 'tool_result');
  if (results.length === 0) {
    const text = personPrompt(value);
    if (text === undefined) return { events: [], type };
    state.skippedTurns.delete(s);
    const key = typeof value.uuid === 'string' && value.uuid !== '' ? value.uuid : `${s}@${at}`;
    return { events: [{ kind: 'prompt', session: s, key, at, ...cwd, prompt: text }], type };
  }
  const events: TranscriptEvent[] = [];
  let orphan: string | undefined;
  for (const r of results) {
    const id = typeof r.tool_use_id === 'string' ? r.tool_use_id : '';
    if (state.dropped.delete(id)) continue;
    const call = state.pending.get(id);
    if (call === undefined) {
      orphan ??= id;
      continue;
    }
    state.pending.delete(id);
    const text = contentText(r.content);
    const detail = results.length === 1 && value.toolUseResult !== undefined ? value.toolUseResult : r.content;
    const interrupted = REFUSED.test(text) || (isObject(detail) && detail.interrupted === true);
    events.push({
      kind: 'call',
      session: call.session,
      key: id,
      at,
      ...cwd,
      tool: call.tool,
      input: call.input,
      response: r.is_error === true && typeof detail !== 'string' ? text : detail,
      failed: r.is_error === true,
      interrupted,
    });
  }
  return orphan === undefined || events.length > 0
    ? { events, type }
    : {
        events,
        type,
        skipped: {
          reason: 'result without call',
          why: `a tool_result for ${JSON.stringify(orphan)} no earlier line asked`,
        },
      };
}

/** The calls still waiting for a result at the end of a file (the hooks would not have seen them finish). */
export function unansweredCalls(state: TranscriptState): number {
  return state.pending.size;
}

/** Those calls, each with its tool and the line that asked for it (in the order asked). */
export function unansweredCallLines(state: TranscriptState): { tool: string; line?: number }[] {
  return [...state.pending.values()].map((c) => ({ tool: c.tool, ...(c.line === undefined ? {} : { line: c.line }) }));
}
