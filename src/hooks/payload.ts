/**
 * @module hooks/payload
 * One Claude Code hook event, checked by hand (the hook path does not load zod): the common fields
 * (`hook_event_name`, `session_id`, `cwd`) must be strings; the rest is read where it is used. A message that
 * repeats what it was given repeats it scrubbed.
 */
import { scrubText } from '../core/security/scrub.js';

export const HOOK_EVENTS = [
  'SessionStart',
  'UserPromptSubmit',
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'Stop',
  'SubagentStop',
  'SessionEnd',
] as const;
export type HookEventName = (typeof HOOK_EVENTS)[number];

export interface HookPayload {
  event: HookEventName;
  session: string;
  cwd: string;
  raw: Record<string, unknown>;
}

export type ParsedPayload = { ok: true; payload: HookPayload } | { ok: false; message: string };

/** Parses stdin text; every refusal names what is wrong. */
export function parseHookPayload(text: string): ParsedPayload {
  if (text.trim() === '') return { ok: false, message: 'no hook payload on stdin' };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: `the hook payload is not JSON: ${(error as Error).message}` };
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return { ok: false, message: 'the hook payload is not a JSON object' };
  const r = raw as Record<string, unknown>;
  const event = r.hook_event_name;
  if (typeof event !== 'string') return { ok: false, message: 'the hook payload has no hook_event_name' };
  if (!(HOOK_EVENTS as readonly string[]).includes(event))
    return {
      ok: false,
      message: `unknown hook event ${JSON.stringify(scrubText(event).text.slice(0, 60))}: nothing to do`,
    };
  for (const field of ['session_id', 'cwd'] as const) {
    if (typeof r[field] !== 'string' || r[field] === '')
      return {
        ok: false,
        message: `the ${event} payload has no ${field} (a non-empty string; got ${shapeOf(r[field])})`,
      };
  }
  // A prompt that is no text is no prompt: not spooled as an empty one that starts a turn (walk 17, item 9).
  if (event === 'UserPromptSubmit' && typeof r.prompt !== 'string')
    return {
      ok: false,
      message: `the ${event} payload has no prompt (a string; got ${shapeOf(r.prompt)}): not learned`,
    };
  return {
    ok: true,
    payload: { event: event as HookEventName, session: r.session_id as string, cwd: r.cwd as string, raw: r },
  };
}

/** What a bad field was, never its content (it may hold a secret): its type and, for a value, its length as JSON. */
export function shapeOf(value: unknown): string {
  if (value === undefined) return 'none';
  if (value === null) return 'null';
  const kind = Array.isArray(value) ? 'array' : typeof value;
  const article = kind === 'object' || kind === 'array' ? 'an' : 'a';
  const length = JSON.stringify(value)?.length ?? 0;
  return `${article} ${kind} of ${length} character${length === 1 ? '' : 's'} as JSON`;
}

/** JSON text of a value, cut to `max` characters (with a marker saying how much was cut). */
export function truncated(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… [${text.length - max} more characters]`;
}

/** A tool response as text: a string as it is, anything else as JSON. */
export function asText(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * A value as JSON text that stays parseable: long strings inside it are cut first (to 300
 * characters each, then shorter until the text fits in `max`), so that a Write's `file_path`
 * survives its long `content`; only if even that is over `max` is the text itself cut.
 */
export function compactJson(value: unknown, max: number): string {
  const shrink = (v: unknown, depth: number, maxString: number): unknown => {
    if (typeof v === 'string')
      return v.length <= maxString ? v : `${v.slice(0, maxString)}… [${v.length - maxString} more characters]`;
    if (depth > 6 || v === null || typeof v !== 'object') return v;
    if (Array.isArray(v)) return v.slice(0, 50).map((x) => shrink(x, depth + 1, maxString));
    return Object.fromEntries(
      Object.entries(v as Record<string, unknown>)
        .slice(0, 50)
        .map(([k, x]) => [k, shrink(x, depth + 1, maxString)]),
    );
  };
  let text = JSON.stringify(value) ?? '';
  for (let maxString = 300; text.length > max && maxString >= 20; maxString = Math.floor(maxString / 2))
    text = JSON.stringify(shrink(value, 0, maxString)) ?? '';
  return truncated(text, max);
}
