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

/** How long before its turn's first call a prompt's shown row may be, for the first turn of a session. */
export const PROMPT_BEFORE_FIRST_CALL_MS = 60 * 60 * 1000;

/** A prompt of a session's turn and when its shown rows can have been recorded (from..to, both included). */
export interface TurnPromptSpan {
  readonly intent: string;
  readonly from: number;
  readonly to: number;
}

/**
 * When the prompt hook can have shown context for each of a session's turns (runs `{intent, startedAt}`): a turn's
 * prompt comes before its first call (its run's start) and after the turn before it started, and at most
 * {@link PROMPT_BEFORE_FIRST_CALL_MS} before. Turns without an intent give none.
 */
export function turnPromptSpans(runs: readonly { intent: string; startedAt: number }[]): TurnPromptSpan[] {
  const sorted = [...runs].sort((a, b) => a.startedAt - b.startedAt);
  return sorted.flatMap((r, i) => {
    if (r.intent.trim() === '') return [];
    const earliest = r.startedAt - PROMPT_BEFORE_FIRST_CALL_MS;
    const before = sorted[i - 1];
    const from = before === undefined ? earliest : Math.max(earliest, before.startedAt + 1);
    return [{ intent: r.intent, from: Math.min(from, r.startedAt), to: r.startedAt }];
  });
}

/**
 * The spans of a session's prompts: its turns' runs' ({@link turnPromptSpans}) and those of the turns that used no
 * tool, which have no run but whose prompt the hook state keeps (`intents`, by turn number): such a prompt came after
 * the run of an earlier turn started and before the run of a later turn started; with no run before it, at any time
 * before, and with none after it, until `now`.
 */
export function sessionPromptSpans(
  runs: readonly { intent: string; startedAt: number; turn: number }[],
  intents: ReadonlyMap<number, string>,
  now: number,
): TurnPromptSpan[] {
  const spans = turnPromptSpans(runs);
  const ran = new Set(runs.map((r) => r.turn));
  for (const [turn, intent] of intents) {
    if (ran.has(turn) || intent.trim() === '') continue;
    const before = runs.filter((r) => r.turn < turn).map((r) => r.startedAt + 1);
    const after = runs.filter((r) => r.turn > turn).map((r) => r.startedAt);
    const from = Math.max(0, ...before);
    const to = Math.min(now, ...after);
    if (from <= to) spans.push({ intent, from, to });
  }
  return spans;
}

/** Whether a shown row's query at `at` is the prompt of one of these turns (its turn intent, within its span). */
export function promptOfTurn(spans: readonly TurnPromptSpan[], query: string, at: number): boolean {
  const intent = turnIntent(query);
  return spans.some((p) => p.intent === intent && p.from <= at && at <= p.to);
}
