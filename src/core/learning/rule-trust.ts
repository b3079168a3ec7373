/**
 * @module core/learning/rule-trust
 * Where an observation's words came from, and which learned rules wait for the user (issue 17,
 * red-team 2: untrusted tool output must never become a permanent instruction).
 *
 * Provenance. Each observation carries its source as a tag `source:<source>`, set by the surface
 * that created it:
 * - `user`: the user's own words (a correction in a prompt read by the hooks; `credence observe` and
 *   `credence import`, which leave the tag off: an observation without one is the user's);
 * - `template`: text that is Credence's own (the hooks' commit patterns);
 * - `agent`: written by an agent (MCP `observe`): it may relay what a tool or a web page said;
 * - `tool-output`: derived from a tool call (failed calls, test runs): the text quotes a tool's
 *   output or the agent's command.
 * Only `user` and `template` text words a rule ({@link isRuleSource}); the others may inform a
 * pattern (count as its evidence) but never become its text. When several source tags are present
 * the least trusted wins, so a surface can lower a claimed source but never raise it
 * ({@link withSource}). Hook observations stored before the tag existed are read by their hook tags
 * (`correction` → user, `commit` → template, any other → tool-output).
 *
 * Confirmation. A learned rule whose text looks like a shell command ({@link commandLike}) is held:
 * it is not emitted as an instruction (session context, skill and instinct files, recall) until the
 * user confirms it. A confirmation is a feedback event whose id is {@link confirmationEventId} of
 * the texts confirmed: `confirm:` then the first 16 hex digits of each text's SHA-256, joined by
 * `.`. Only a user surface (the CLI) may record such an id.
 *
 * Pure: plain values in and out; every pattern here runs in linear time.
 */
import { sha256Hex } from '../text/sha256.js';

export const OBSERVATION_SOURCES = ['user', 'template', 'agent', 'tool-output'] as const;
export type ObservationSource = (typeof OBSERVATION_SOURCES)[number];

const SOURCE_PREFIX = 'source:';
/** Most trusted first. */
const TRUST: Readonly<Record<ObservationSource, number>> = Object.freeze({
  user: 0,
  template: 1,
  agent: 2,
  'tool-output': 3,
});

/** The tag that records `source`. */
export function sourceTag(source: ObservationSource): string {
  return `${SOURCE_PREFIX}${source}`;
}

const isSource = (value: string): value is ObservationSource =>
  (OBSERVATION_SOURCES as readonly string[]).includes(value);

/**
 * The source of an observation by its tags: the least trusted `source:` tag; an unknown
 * `source:` value counts as `tool-output`; without one, a legacy hook observation by its hook tags,
 * else `user`.
 */
export function observationSource(tags: readonly string[]): ObservationSource {
  let found: ObservationSource | undefined;
  for (const tag of tags) {
    if (!tag.startsWith(SOURCE_PREFIX)) continue;
    const value = tag.slice(SOURCE_PREFIX.length);
    const source: ObservationSource = isSource(value) ? value : 'tool-output';
    if (found === undefined || TRUST[source] > TRUST[found]) found = source;
  }
  if (found !== undefined) return found;
  if (tags.includes('hook'))
    return tags.includes('correction') ? 'user' : tags.includes('commit') ? 'template' : 'tool-output';
  return 'user';
}

/** `tags` with one source tag: the least trusted of `source` and what the tags already claim. */
export function withSource(tags: readonly string[], source: ObservationSource): string[] {
  const claimed = tags.some((t) => t.startsWith(SOURCE_PREFIX)) ? observationSource(tags) : source;
  const effective = TRUST[claimed] > TRUST[source] ? claimed : source;
  return [...tags.filter((t) => !t.startsWith(SOURCE_PREFIX)), sourceTag(effective)];
}

/** Whether text from `source` may word a rule (the user's own words or Credence's templates). */
export function isRuleSource(source: ObservationSource): boolean {
  return source === 'user' || source === 'template';
}

// --- commands in rules -------------------------------------------------------------------------

/** Words that run, fetch or escalate on their own. */
const COMMAND_WORDS =
  /\b(?:curl|wget|sudo|doas|eval|chmod|ncat|netcat|iex|iwr|invoke-expression|invoke-webrequest|powershell|pwsh)\b/i;
/** Output piped into an interpreter: `| sh`, `|bash`, `| python3`. */
const PIPE_TO_SHELL = /\|\s*(?:sh|bash|zsh|dash|ksh|fish|csh|tcsh|python[23]?|perl|ruby|node|php)\b/i;
/** `sh -c`, `bash -c`, `rm -rf`, `rm -fr`, `rm -r -f`. */
const SHELL_FLAGS = /\b(?:(?:sh|bash|zsh|dash)\s+-c|rm\s+-[a-z]*[rf])\b/i;

/**
 * Whether `text` reads like a shell command to run: backquotes, `$(`, output piped into an
 * interpreter, `curl`, `wget`, `sudo`, `eval`, `rm -rf`, `bash -c`, … Such a learned rule is held
 * until the user confirms it.
 */
export function commandLike(text: string): boolean {
  return (
    text.includes('`') ||
    text.includes('$(') ||
    PIPE_TO_SHELL.test(text) ||
    COMMAND_WORDS.test(text) ||
    SHELL_FLAGS.test(text)
  );
}

// --- confirmation ------------------------------------------------------------------------------

const CONFIRM_PREFIX = 'confirm:';

const textHash = (text: string): string => sha256Hex(text).slice(0, 16);

/** Whether `eventId` is reserved for a user's confirmation. */
export function isConfirmationId(eventId: string): boolean {
  return eventId.startsWith(CONFIRM_PREFIX);
}

/** The feedback event id that confirms `texts` (in any order). */
export function confirmationEventId(texts: readonly string[]): string {
  return `${CONFIRM_PREFIX}${[...new Set(texts.map(textHash))].sort().join('.')}`;
}

/**
 * The texts among `texts` held for confirmation: command-like, and not confirmed by one of
 * `eventIds` (the ids of the feedback events on the learned thing that holds them).
 */
export function heldTexts(texts: readonly string[], eventIds: readonly string[]): string[] {
  const confirmed = new Set(
    eventIds.filter(isConfirmationId).flatMap((id) => id.slice(CONFIRM_PREFIX.length).split('.')),
  );
  return texts.filter((t) => commandLike(t) && !confirmed.has(textHash(t)));
}
