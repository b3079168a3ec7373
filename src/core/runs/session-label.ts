/**
 * @module core/runs/session-label
 * How a Claude Code session is named in its turns' run ids (`cc-<label>-<turn>`): the hooks name runs with it and
 * `forget <session>` finds them with it, so both use this one function (a drift would make long sessions
 * unforgettable).
 */
import { sha256Hex } from '../text/sha256.js';

/** The longest session id a turn's run id keeps whole: `cc-`, the id, `-` and a turn of up to 10 digits fit in 256. */
export const SESSION_ID_KEPT = 240;

/**
 * A session as it is when it fits ({@link SESSION_ID_KEPT}), else its first 64 characters, `~` and 16 hex digits of
 * its SHA-256: the same for every turn of the session, and unique enough.
 */
export function sessionLabel(session: string): string {
  if (session.length <= SESSION_ID_KEPT) return session;
  const head = session.slice(0, 64).replace(/[\uD800-\uDBFF]$/, '');
  return `${head}~${sha256Hex(session).slice(0, 16)}`;
}

/** The tag the hooks give each observation they derive in a session: `session:` and its label. */
export const SESSION_TAG_PREFIX = 'session:';

/** The tag of the observations the hooks derive in this session (`forget <session>` finds its own by it). */
export function sessionTag(session: string): string {
  return `${SESSION_TAG_PREFIX}${sessionLabel(session)}`;
}

/** The longest intent a turn's run keeps of its prompt. */
export const TURN_INTENT_KEPT = 200;

/**
 * A turn's prompt as its run's intent: its first non-empty line, trimmed, cut at {@link TURN_INTENT_KEPT} characters
 * (`…` then). The hooks name a turn's run with it, and `forget <session>` finds with it the prompts shown context
 * before shown rows held their session (schema 24).
 */
export function turnIntent(prompt: string): string {
  const line = prompt.split('\n').find((l) => l.trim() !== '') ?? '';
  return line.length <= TURN_INTENT_KEPT ? line.trim() : `${line.slice(0, TURN_INTENT_KEPT).trim()}…`;
}
