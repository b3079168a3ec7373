/**
 * @module core/learning/rule-trust
 * Where an observation's words came from, and which learned rules wait for the user (issue 17: untrusted
 * tool output must never become a permanent instruction). Provenance is a `source:<source>` tag: `user`
 * (also no tag), `template`, `agent` or `tool-output`; only `user` and `template` text words a rule
 * ({@link isRuleSource}), the others only count as evidence. Several tags: the least trusted wins
 * ({@link withSource}); untagged hook observations are read by their hook tags. A rule that looks like a
 * shell command ({@link commandLike}) is held until a feedback event with id {@link confirmationEventId}
 * (`confirm:` + 16 hex digits of each text's SHA-256) confirms it; only the CLI may record one. Pure.
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

/**
 * Whether an observation from `opposing` may count against a rule worded from observations of `rule` sources. What
 * the hooks observe of the agent (a commit without tests, a tool's output) and an agent's note record what was done,
 * not what the user wants: the agent breaking a rule the user stated is why they stated it (seed 004: "tests not run
 * before a commit" is an error of the AI), so it never counts against a rule in the user's own words. The user's
 * words count against anything; observed behaviour still counts against a rule made of observed behaviour.
 */
export function mayContradict(opposing: ObservationSource, rule: readonly ObservationSource[]): boolean {
  return opposing === 'user' || !rule.includes('user');
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
